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
"""

from __future__ import annotations

import argparse
import importlib.util
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
    from cdplot.stats.compare import compare_table
    from cdplot.stats.scores import ScoreTable

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
    from cdplot.stats.compare import compare_table
    from cdplot.stats.scores import ScoreTable

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
    from cdplot.stats.compare import compare_table
    from cdplot.stats.scores import ScoreTable

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="runs per measurement (default 7)")
    parser.add_argument(
        "--only-many-methods", action="store_true", help="run only the many-methods section"
    )
    args = parser.parse_args()
    if not args.only_many_methods:
        whole_process(args.repeat)
        nemenyi_large(args.repeat)
        wilcoxon_holm(args.repeat)
        bergmann(args.repeat)
    many_methods(args.repeat)


if __name__ == "__main__":
    main()
