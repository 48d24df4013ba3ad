"""Issue 28: ``stats`` at thousands of methods, ``stats --json``, the long CSV, ``--version``.

Run: python benchmarks/bench_scale.py --base /path/to/previous/checkout [--repeat 3]

Each command runs as a child process, the previous code (``PYTHONPATH=--base``) and this
checkout interleaved run by run, so that both see the same load.  For every child the
script reads its own resource usage (``os.wait4``): CPU time (user + system, the child
and any children it waited for), wall time and peak resident memory; it prints the
medians.  Timing belongs here, never in tests; CI runs none of this.

Rows (goals of issue 28):

- ``methods``: ``cdplot stats`` on N = 100 data sets of k = 1,000 / 2,000 / 5,000
  methods (scores spread over the methods, as in ``bench_stats.many_methods``).  Goal:
  k = 5,000 in at most 5 s CPU and 1 GB; CPU growth at most k^1.3 from 1,000 to 5,000
  (a ratio of 8.1).
- ``json``: ``cdplot stats --json`` against ``cdplot stats`` on 10,000 data sets x 100
  methods.  Goal: JSON at most 1.3x the text run.
- ``long``: ``cdplot stats`` on a long CSV of 5,000,000 rows (5,000 data sets x 50 methods
  x 20 folds) against a polars script (read, mean per data set and method, rank within
  data sets, mean rank per method) and ``polars.read_csv`` alone.  Goals: at most 0.5x
  the script, 1.3x the read, peak RSS at most 2x the file.  Skipped without polars.
- ``version``: ``python -m cdplot --version`` against ``python -c pass``.  Goal: at most
  2x.

Last measured (2026-11-27, 2 CPUs shared, load average 5-11; ``--repeat 3``; previous =
main at 30e1cb6):

- k = 1,000: CPU 0.61 -> 0.50 s, peak 202 -> 169 MiB; k = 2,000: 1.49 -> 0.75 s, 386 ->
  227 MiB; k = 5,000: 9.58 -> 2.59 s, 1,981 -> 902 MiB.  CPU growth from 1,000 to 5,000:
  k^1.71 -> k^1.03.  Where it went: bridges counted, not listed (603,031 triples at
  k = 2,000), Nemenyi p-values looked up by integer rank-sum difference instead of a
  sort of k^2 / 2 values, no redundant (k, k) copies, significant pairs in row blocks.
- JSON / text, CPU: 3.03x -> 1.69x (wall 3.78x -> 1.41x; JSON 1.69 -> 0.95 s CPU, peak
  588 -> 279 MiB; load 6), after Cliff's delta counted its ties in chunks (before that
  change: 3.16x -> 2.64x).  Not the goal of 1.3x: the rest is the all-pairs Cliff's delta
  and Cohen's d that the JSON holds and the text does not.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent.parent


def _csv(path: Path, n: int, k: int) -> Path:
    rng = np.random.default_rng(14)
    x = rng.normal(size=(n, k)) + np.linspace(0, 8, k)
    lines = ["dataset," + ",".join(f"method_{j:04d}" for j in range(k))]
    lines += [f"d{i}," + ",".join(f"{v:.4f}" for v in row) for i, row in enumerate(x)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


POLARS_SCRIPT = """
import sys
import polars as pl
df = pl.read_csv(sys.argv[1])
means = df.group_by(["dataset", "method"]).agg(pl.col("score").mean())
ranks = means.with_columns(pl.col("score").rank(descending=True).over("dataset").alias("rank"))
print(ranks.group_by("method").agg(pl.col("rank").mean()).sort("rank"))
"""

POLARS_READ = """
import sys
import polars as pl
print(pl.read_csv(sys.argv[1]).height)
"""


def _run(code: Path | None, args: list[str]) -> tuple[float, float, float]:
    """CPU seconds (user + system), wall seconds and peak RSS (MiB) of one child.

    ``code`` is the checkout that ``python -m cdplot args`` runs from; with None,
    ``args`` is a Python script and its arguments (the peers).
    """
    env = dict(os.environ)
    if code is not None:
        env["PYTHONPATH"] = str(code.resolve())
    t = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, *(["-m", "cdplot"] if code is not None else []), *args],
        env=env,
        # not the checkout: ``python -m`` puts the working directory first on sys.path
        cwd=tempfile.gettempdir(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    # wait4 gives this child's own usage (RUSAGE_CHILDREN would mix all children)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{code}: cdplot {' '.join(args)} failed: {proc.stderr.read()[-500:]}")
    proc.stderr.close()
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024


def _medians(runs: list[tuple[float, float, float]]) -> tuple[float, float, float]:
    return tuple(statistics.median(r[i] for r in runs) for i in range(3))


def _interleaved(jobs: dict[str, tuple[Path, list[str]]], repeat: int) -> dict:
    runs: dict[str, list] = {name: [] for name in jobs}
    for _ in range(repeat):
        for name, (code, args) in jobs.items():
            runs[name].append(_run(code, args))
    return {name: _medians(r) for name, r in runs.items()}


def _line(name: str, m) -> str:
    return f"  {name:<22} CPU {m[0]:7.2f} s  wall {m[1]:7.2f} s  peak {m[2]:7.0f} MiB"


def methods(base: Path, tmp: Path, repeat: int, sizes: list[int]) -> None:
    print(f"stats, N = 100, k = {sizes} (medians of {repeat}, previous vs this checkout)")
    cpu = {}
    for k in sizes:
        csv = str(_csv(tmp / f"m{k}.csv", 100, k))
        got = _interleaved(
            {"previous": (base, ["stats", csv]), "now": (HERE, ["stats", csv])}, repeat
        )
        print(f" k = {k}")
        for name, m in got.items():
            print(_line(name, m))
        print(
            f"  now / previous: CPU {got['now'][0] / got['previous'][0]:.2f}x, "
            f"wall {got['now'][1] / got['previous'][1]:.2f}x"
        )
        cpu[k] = {name: m[0] for name, m in got.items()}
    if len(sizes) > 1:
        lo, hi = sizes[0], sizes[-1]
        for name in ("previous", "now"):
            exponent = math.log(cpu[hi][name] / cpu[lo][name]) / math.log(hi / lo)
            print(f" CPU growth {lo} -> {hi}, {name}: k^{exponent:.2f}")


def json_vs_text(base: Path, tmp: Path, repeat: int) -> None:
    csv = str(_csv(tmp / "w10000.csv", 10_000, 100))
    print(f"stats --json vs stats, 10,000 x 100 (medians of {repeat})")
    got = _interleaved(
        {
            "previous text": (base, ["stats", csv]),
            "previous json": (base, ["stats", "--json", csv]),
            "now text": (HERE, ["stats", csv]),
            "now json": (HERE, ["stats", "--json", csv]),
        },
        repeat,
    )
    for name, m in got.items():
        print(_line(name, m))
    for who in ("previous", "now"):
        t, j = got[f"{who} text"], got[f"{who} json"]
        print(f"  {who}: json / text CPU {j[0] / t[0]:.2f}x, wall {j[1] / t[1]:.2f}x")


def long_csv(base: Path, tmp: Path, repeat: int) -> None:
    import importlib.util

    if importlib.util.find_spec("polars") is None:
        print("long CSV: polars not installed, skipped (pip install polars)")
        return
    sys.path.insert(0, str(HERE / "benchmarks"))
    from bench_stats import write_long

    csv = tmp / "long5m.csv"
    write_long(csv, 5_000, 50, 20)
    size = csv.stat().st_size / 2**20
    script, read = tmp / "polars_script.py", tmp / "polars_read.py"
    script.write_text(POLARS_SCRIPT, encoding="utf-8")
    read.write_text(POLARS_READ, encoding="utf-8")
    print(f"long CSV, 5,000,000 rows, {size:.0f} MiB (medians of {repeat})")
    got = _interleaved(
        {
            "previous": (base, ["stats", str(csv)]),
            "now": (HERE, ["stats", str(csv)]),
            "polars script": (None, [str(script), str(csv)]),
            "polars read": (None, [str(read), str(csv)]),
        },
        repeat,
    )
    for name, m in got.items():
        print(_line(name, m))
    for who in ("previous", "now"):
        m = got[who]
        print(
            f"  {who}: / script CPU {m[0] / got['polars script'][0]:.2f}x "
            f"(wall {m[1] / got['polars script'][1]:.2f}x), / read CPU "
            f"{m[0] / got['polars read'][0]:.2f}x (wall {m[1] / got['polars read'][1]:.2f}x), "
            f"peak {m[2] / size:.2f}x the file"
        )


def version(base: Path, repeat: int) -> None:
    print(f"cdplot --version vs python -c pass (medians of {repeat})")
    got = _interleaved(
        {
            "python -c pass": (None, ["-c", "pass"]),
            "previous": (base, ["--version"]),
            "now": (HERE, ["--version"]),
        },
        repeat,
    )
    for name, m in got.items():
        print(f"  {name:<22} CPU {m[0] * 1000:7.1f} ms wall {m[1] * 1000:7.1f} ms")
    for who in ("previous", "now"):
        ratio = got[who][0] / got["python -c pass"][0]
        wall = got[who][1] / got["python -c pass"][1]
        print(f"  {who}: / python -c pass CPU {ratio:.2f}x (wall {wall:.2f}x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, required=True, help="checkout of the previous code")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", choices=("methods", "json", "long", "version"))
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 2000, 5000])
    args = parser.parse_args()
    # an installed cdplot has its .pyc files; a checkout run with PYTHONDONTWRITEBYTECODE
    # would compile every module in every child (about 0.1 s, flattering the ratios)
    for root in (HERE, args.base):
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(root / "cdplot")])
    print(f"load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory() as tmp:
        if args.only in (None, "methods"):
            methods(args.base, Path(tmp), args.repeat, args.sizes)
        if args.only in (None, "json"):
            json_vs_text(args.base, Path(tmp), args.repeat)
        if args.only in (None, "long"):
            long_csv(args.base, Path(tmp), args.repeat)
        if args.only in (None, "version"):
            version(args.base, max(args.repeat, 21))
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
