"""Speed of the statistics core (issue 2).  Run: python benchmarks/bench_stats.py

Prints medians of repeated runs, never asserts: timing belongs here, not in tests.

Targets on the 2-core reference machine:
- ``cdplot stats`` on a 14 x 4 table, whole process: under 0.4x a script doing the same
  with scipy.stats and scikit-posthocs;
- full Nemenyi analysis of 10,000 data sets x 100 methods: under 0.5 s and 300 MB;
- pairwise Wilcoxon with Holm correction, 200 methods x 100 data sets: under 1 s;
- Bergmann-Hommel for 10 methods: under 2 s;
- ``cdplot stats --json`` on 2,000 methods x 100 data sets, whole process: under 10 s
  (issue 14; see ``many_methods`` at the end of this file).

Reading (issues 10 and 14), whole process, side by side with the pandas scripts below:
- ``cdplot stats`` on a 10,000 x 100 wide CSV: at most 0.3x pandas + scikit-posthocs;
- a 5,000,000-row long CSV (5,000 data sets x 50 methods x 20 folds): at most 0.5x
  ``pandas.read_csv`` + ``groupby().mean()`` + Friedman, with no more peak memory;
- 5,000,000 rows with 100,000 data sets: under 30 s and 2 GB.
Peak memory is the child process's maximum resident set size (``ru_maxrss``).  Beside
the wall-clock medians the reading section prints CPU-time medians (user + system of the
child) and the load average: on a shared machine the wall-clock ratio moves with the
other users' load, the CPU ratio much less, so read both.

Last measured (issue 10, ``--only-reading --big --repeat 5``, twice; the 2-core machine
shared with three other engineers, load average 3.4-5.2; ratios of medians, time / CPU):
wide 10,000 x 100: 0.25 / 0.22 and 0.24 / 0.22 (peak 116 vs 258 MiB); long 5,000,000
rows: 0.36 / 0.31 and 0.45 / 0.43 (3 runs each; peak 412-421 vs 521 MiB); long 300,000
rows: 0.17-0.22; 100,000 data sets: 4.7-5.1 s, 511 MiB. The same day, before and after
the last reading changes, run interleaved with the peer scripts (5 runs each, load
4-4.6): long 0.52 / 0.49 -> 0.37 / 0.38, wide 0.27 / 0.24 -> 0.23 / 0.20. Where the long
file's time went: separators are counted before their offsets are written into one array
and the file is memory-mapped (page faults on fresh memory cost about 12 us each on this
virtual machine: 79,000 faults -> 22,000), a cell's words come from one gather, label
codes are mapped per run, folds of one or two digits are one table look-up. What the one
remaining trick buys: ``cdplot.cli.main`` runs OpenBLAS on one thread
(``OPENBLAS_NUM_THREADS=1`` unless the user set it), because its worker threads spin
beside cdplot's small products; under this load that saved 0.18 s of CPU time on the
wide file (ratio 0.25 -> 0.20, all of the wide file's gain) and 0.07 s (median; up to
0.5 s in single runs) on the long one.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np

PEER_SCRIPT = """
import sys
import pandas as pd
import scipy.stats as ss
import scikit_posthocs as sp
df = pd.read_csv(sys.argv[1], index_col=0)
print(ss.friedmanchisquare(*df.to_numpy().T))
print(sp.posthoc_nemenyi_friedman(df.to_numpy()))
"""


PEER_WIDE = """
import sys
import pandas as pd
import scikit_posthocs as sp
df = pd.read_csv(sys.argv[1], index_col=0)
print(sp.posthoc_nemenyi_friedman(df.to_numpy()).iloc[0, 1])
"""

PEER_LONG = """
import sys
import pandas as pd
import scipy.stats as ss
df = pd.read_csv(sys.argv[1])
wide = df.groupby(["dataset", "method"])["score"].mean().unstack()
print(ss.friedmanchisquare(*wide.to_numpy().T))
"""

# Runs a command and prints its peak resident memory (KiB) and CPU time (user +
# system, s): a fresh parent per measurement, since RUSAGE_CHILDREN keeps the maximum
# over all children.
MEASURE = """
import resource, subprocess, sys
subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(usage.ru_maxrss, usage.ru_utime + usage.ru_stime)
"""


def run_measured(argv) -> tuple[float, float, float]:
    """(wall seconds, peak MiB, CPU seconds) of one whole-process run of ``argv``."""
    t = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", MEASURE, *argv], check=True, capture_output=True, text=True
    )
    peak, cpu = out.stdout.split()[-2:]
    return time.perf_counter() - t, int(peak) / 1024, float(cpu)


def compare_processes(label, ours, theirs, repeat, target=None):
    """Median wall and CPU time and peak memory of two commands, run alternately."""
    a, b = [], []
    for _ in range(repeat):
        a.append(run_measured(ours))
        if theirs is not None:
            b.append(run_measured(theirs))
    t_a = statistics.median(x[0] for x in a)
    m_a = max(x[1] for x in a)
    c_a = statistics.median(x[2] for x in a)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    line = f"{label}: cdplot median {t_a:.2f} s ({c_a:.2f} s CPU), peak {m_a:.0f} MiB"
    if b:
        t_b = statistics.median(x[0] for x in b)
        m_b = max(x[1] for x in b)
        c_b = statistics.median(x[2] for x in b)
        line += (
            f"; peer median {t_b:.2f} s ({c_b:.2f} s CPU), peak {m_b:.0f} MiB; time ratio "
            f"{t_a / t_b:.2f}"
            + (f" (target <= {target})" if target else "")
            + f", CPU ratio {c_a / c_b:.2f}, memory ratio {m_a / m_b:.2f}"
        )
    print(line + f" [{len(a)} runs each, load average {load}]")


def write_wide(path: Path, n: int = 10_000, k: int = 100) -> None:
    rng = np.random.default_rng(10)
    x = rng.random((n, k)) + np.linspace(0, 0.2, k)
    with open(path, "w", encoding="utf-8") as f:
        f.write("dataset," + ",".join(f"method{j}" for j in range(k)) + "\n")
        for i in range(n):
            f.write(f"data set {i}," + ",".join(f"{v:.6f}" for v in x[i]) + "\n")


def write_long(path: Path, n_datasets: int, n_methods: int, n_folds: int) -> None:
    rng = np.random.default_rng(11)
    skill = np.linspace(0, 0.1, n_methods)
    with open(path, "w", encoding="utf-8") as f:
        f.write("dataset,method,fold,score\n")
        for i in range(n_datasets):
            x = rng.random((n_methods, n_folds)) * 0.5 + skill[:, None]
            f.write(
                "".join(
                    f"problem{i},method{j},{r},{x[j, r]:.4f}\n"
                    for j in range(n_methods)
                    for r in range(n_folds)
                )
            )


def reading(repeat: int, big: bool) -> None:
    have_peers = bool(importlib.util.find_spec("pandas") and importlib.util.find_spec("scipy"))
    have_sp = have_peers and bool(importlib.util.find_spec("scikit_posthocs"))
    cdplot = [sys.executable, "-m", "cdplot", "stats"]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        wide = tmp / "wide.csv"
        write_wide(wide)
        peer = tmp / "peer_wide.py"
        peer.write_text(PEER_WIDE, encoding="utf-8")
        compare_processes(
            "wide CSV 10,000 x 100 -> Nemenyi, whole process",
            [*cdplot, str(wide)],
            [sys.executable, str(peer), str(wide)] if have_sp else None,
            repeat,
            target=0.3,
        )
        if not have_sp:
            print("  scikit-posthocs or pandas not installed: peer script skipped")
        sizes = [(500, 20, 30)]
        if big:
            sizes += [(5_000, 50, 20)]
        for d, m, r in sizes:
            long = tmp / f"long_{d}.csv"
            write_long(long, d, m, r)
            peer = tmp / "peer_long.py"
            peer.write_text(PEER_LONG, encoding="utf-8")
            compare_processes(
                f"long CSV {d * m * r:,} rows ({d:,} data sets x {m} methods x {r} folds), whole "
                "process",
                [*cdplot, str(long)],
                [sys.executable, str(peer), str(long)] if have_peers else None,
                # at least 3 runs each: one run of a shared machine says little
                max(3, repeat // (3 if big else 1)),
                target=0.5,
            )
            long.unlink()
        if big:
            long = tmp / "long_100k.csv"
            write_long(long, 100_000, 50, 1)
            compare_processes(
                "long CSV 5,000,000 rows with 100,000 data sets (target < 30 s, < 2048 MiB)",
                [*cdplot, str(long)],
                None,
                1,
            )


def median_time(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def whole_process(repeat: int) -> None:
    import cdplot

    with tempfile.TemporaryDirectory() as tmp:
        csv = Path(tmp) / "c45.csv"
        (table,) = cdplot.load_example("demsar2006")
        lines = ["dataset," + ",".join(table.methods)]
        lines += [
            f"{d}," + ",".join(f"{v:.3f}" for v in row)
            for d, row in zip(table.datasets, table.values, strict=False)
        ]
        csv.write_text("\n".join(lines) + "\n", encoding="utf-8")
        ours = median_time(
            lambda: subprocess.run(
                [sys.executable, "-m", "cdplot", "stats", str(csv)], check=True, capture_output=True
            ),
            repeat,
        )
        print(f"cdplot stats, 14 x 4, whole process: median {ours:.3f} s")
        if importlib.util.find_spec("scikit_posthocs") and importlib.util.find_spec("pandas"):
            peer = Path(tmp) / "peer.py"
            peer.write_text(PEER_SCRIPT, encoding="utf-8")
            theirs = median_time(
                lambda: subprocess.run(
                    [sys.executable, str(peer), str(csv)], check=True, capture_output=True
                ),
                repeat,
            )
            print(f"scipy.stats + scikit-posthocs script:  median {theirs:.3f} s")
            print(f"ratio cdplot / peer = {ours / theirs:.2f} (target < 0.40)")
        else:
            print("scikit-posthocs or pandas not installed: peer script skipped")


def nemenyi_large(repeat: int) -> None:
    from cdplot.io import ScoreTable
    from cdplot.stats._compare import compare_table

    rng = np.random.default_rng(1)
    x = rng.normal(size=(10_000, 100)) + np.linspace(0, 1, 100)
    table = ScoreTable(
        values=x, methods=[f"m{j}" for j in range(100)], datasets=[f"d{i}" for i in range(10_000)]
    )
    t = median_time(lambda: compare_table(table), repeat)
    tracemalloc.start()
    compare_table(table)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(
        f"Nemenyi analysis, 10,000 x 100: median {t:.3f} s (target < 0.5), peak {peak / 2**20:.0f} "
        "MB (target < 300)"
    )
    if importlib.util.find_spec("scikit_posthocs"):
        import scikit_posthocs as sp

        theirs = median_time(lambda: sp.posthoc_nemenyi_friedman(x), max(1, repeat // 2))
        print(
            f"  scikit-posthocs posthoc_nemenyi_friedman: median {theirs:.3f} s, ratio "
            f"{t / theirs:.2f}"
        )
    if importlib.util.find_spec("autorank"):
        import pandas as pd
        from autorank import autorank

        df = pd.DataFrame(x[:2000], columns=[f"m{j}" for j in range(100)])
        theirs = median_time(lambda: autorank(df, force_mode="nonparametric", verbose=False), 1)
        print(f"  autorank (2,000 x 100 only): {theirs:.3f} s")


def wilcoxon_holm(repeat: int) -> None:
    from cdplot.io import ScoreTable
    from cdplot.stats._compare import compare_table

    rng = np.random.default_rng(2)
    x = rng.normal(size=(100, 200)) + np.linspace(0, 1, 200)
    table = ScoreTable(
        values=x, methods=[f"m{j}" for j in range(200)], datasets=[f"d{i}" for i in range(100)]
    )
    t = median_time(lambda: compare_table(table, test="wilcoxon", correction="holm"), repeat)
    print(f"Wilcoxon + Holm, 200 methods x 100 data sets: median {t:.3f} s (target < 1)")
    if importlib.util.find_spec("scikit_posthocs"):
        import scikit_posthocs as sp

        small = x[:, :40]
        theirs = median_time(lambda: sp.posthoc_wilcoxon(small.T.tolist(), p_adjust="holm"), 1)
        ours = median_time(
            lambda: compare_table(
                ScoreTable(
                    values=small,
                    methods=[f"m{j}" for j in range(40)],
                    datasets=[f"d{i}" for i in range(100)],
                ),
                test="wilcoxon",
                correction="holm",
            ),
            repeat,
        )
        print(
            f"  40 methods: cdplot {ours:.3f} s, scikit-posthocs posthoc_wilcoxon {theirs:.3f} s, "
            f"ratio {ours / theirs:.2f}"
        )


def bergmann(repeat: int) -> None:
    from cdplot.io import ScoreTable
    from cdplot.stats._compare import compare_table

    rng = np.random.default_rng(3)
    x = rng.normal(size=(30, 10)) + np.linspace(0, 1.5, 10)
    table = ScoreTable(
        values=x, methods=[f"m{j}" for j in range(10)], datasets=[f"d{i}" for i in range(30)]
    )
    cold = median_time(lambda: compare_table(table, test="friedman-z", correction="bergmann"), 1)
    warm = median_time(
        lambda: compare_table(table, test="friedman-z", correction="bergmann"), repeat
    )
    print(
        f"Bergmann-Hommel, 10 methods: first call {cold:.3f} s, median after {warm:.3f} s (target "
        "< 2)"
    )


# ---------------------------------------------------------------------------
# Many methods (issue 14, scale): the analysis was about k^3 (2,000 methods:
# 3 min 51 s, 10.3 GB, a 441 MB JSON).  Self-contained section: it writes its
# own table and measures whole processes with /usr/bin/time-like accounting.


def _many_methods_csv(path: Path, k: int, n: int) -> None:
    rng = np.random.default_rng(14)
    x = rng.normal(size=(n, k)) + np.linspace(0, 8, k)
    lines = ["dataset," + ",".join(f"method_{j:04d}" for j in range(k))]
    lines += [f"d{i}," + ",".join(f"{v:.4f}" for v in row) for i, row in enumerate(x)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _run_measured(cmd: list[str]) -> tuple[float, float, float, int]:
    """Wall time (s), CPU time (s), peak memory of the children so far (MB), stdout bytes.

    CPU time (user + system) is reported beside wall time because the
    reference machine is shared: under load the wall time grows, the CPU
    time much less.
    """
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    # ru_maxrss is the largest child so far (KB on Linux)
    return wall, cpu, after.ru_maxrss / 1024, len(out.stdout)


def many_methods(repeat: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for k in (500, 1000, 2000):
            csv = Path(tmp) / f"m{k}.csv"
            _many_methods_csv(csv, k, 100)
            runs = [
                _run_measured([sys.executable, "-m", "cdplot", "stats", "--json", str(csv)])
                for _ in range(max(1, repeat // 2))
            ]
            wall = statistics.median(r[0] for r in runs)
            cpu = statistics.median(r[1] for r in runs)
            peak = max(r[2] for r in runs)
            size = runs[0][3]
            target = " (target < 10)" if k == 2000 else ""
            print(
                f"cdplot stats --json, {k} methods x 100 data sets, whole process: median "
                f"{wall:.2f} s wall{target}, {cpu:.2f} s CPU, peak RSS so far {peak:.0f} MB, "
                f"JSON {size / 1e6:.1f} MB"
            )


def use_bytecode() -> None:
    """Let every measured process load cdplot from compiled bytecode, as an install does.

    pip compiles a wheel's modules when it installs them, and the peers' packages
    are installed that way; a checkout run with ``PYTHONDONTWRITEBYTECODE`` (set in
    some sandboxes and CI images) would otherwise recompile cdplot's modules on
    every start, about 0.2 s that no user pays.
    """
    import compileall

    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    package = Path(__file__).resolve().parents[1] / "cdplot"
    compileall.compile_dir(str(package), quiet=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="runs per measurement (default 7)")
    parser.add_argument(
        "--only-many-methods", action="store_true", help="run only the many-methods section"
    )
    parser.add_argument(
        "--big", action="store_true", help="also the 5,000,000-row long files (minutes)"
    )
    parser.add_argument("--only-reading", action="store_true", help="only the reading benchmarks")
    args = parser.parse_args()
    use_bytecode()
    if args.only_reading:
        reading(args.repeat, args.big)
        return
    if not args.only_many_methods:
        reading(args.repeat, args.big)
        whole_process(args.repeat)
        nemenyi_large(args.repeat)
        wilcoxon_holm(args.repeat)
        bergmann(args.repeat)
    many_methods(args.repeat)


if __name__ == "__main__":
    main()
