"""Speed of ``cdplot report`` to PDF (issue 4).  Run: python benchmarks/bench_report.py

Prints medians of repeated whole-process runs (``python -m cdplot report``),
never asserts: timing belongs here, not in tests.

Targets on the 2-core reference machine:
- one metric, 30 data sets x 10 methods, to PDF: median under 3 s;
- six metrics x 30 data sets x 10 methods, to PDF: median under 10 s.

WeasyPrint subsets the embedded fonts with HarfBuzz when ``libharfbuzz-subset0``
is installed and falls back to fontTools (about a second slower per report)
otherwise; the script says which one it found.

The figures are drawn in forked worker processes while the main process
imports WeasyPrint (see ``cdplot.report.figures.figure_svgs_many``);
``--no-workers`` sets ``CDPLOT_NO_WORKERS=1`` to time everything in one process.
"""

from __future__ import annotations

import argparse
import ctypes.util
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
METRICS = ("accuracy", "AUC", "F1", "precision", "recall", "error")


def write_wide(path: Path, rng, n_datasets=30, n_methods=10) -> None:
    # methods differ in skill so the report has significant pairs and several groups
    skill = np.linspace(0.0, 0.08, n_methods)
    base = rng.uniform(0.6, 0.9, size=(n_datasets, 1))
    scores = np.clip(base + skill + rng.normal(0, 0.03, size=(n_datasets, n_methods)), 0, 1)
    lines = ["dataset," + ",".join(f"method {j + 1}" for j in range(n_methods))]
    for i, row in enumerate(scores):
        lines.append(f"data set {i + 1}," + ",".join(f"{v:.4f}" for v in row))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_long(path: Path, rng, n_datasets=30, n_methods=10) -> None:
    lines = ["metric,dataset,method,score"]
    for metric in METRICS:
        skill = rng.permutation(np.linspace(0.0, 0.08, n_methods))
        base = rng.uniform(0.6, 0.9, size=(n_datasets, 1))
        scores = np.clip(base + skill + rng.normal(0, 0.03, size=(n_datasets, n_methods)), 0, 1)
        for i in range(n_datasets):
            for j in range(n_methods):
                lines.append(f"{metric},data set {i + 1},method {j + 1},{scores[i, j]:.4f}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def run_report(args: list[str], repeat: int, no_workers: bool = False) -> list[float]:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    if no_workers:
        env["CDPLOT_NO_WORKERS"] = "1"
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "cdplot", "report", *args], check=True, env=env)
        times.append(time.perf_counter() - start)
    return times


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per case (default: 5)")
    parser.add_argument(
        "--no-workers", action="store_true", help="draw the figures in the main process"
    )
    args = parser.parse_args(argv)
    hb = ctypes.util.find_library("harfbuzz-subset")
    print(
        "font subsetting: "
        f"{'HarfBuzz (' + hb + ')' if hb else 'fontTools (install libharfbuzz-subset0)'}"
    )
    rng = np.random.default_rng(4)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        wide, long = tmp / "scores.csv", tmp / "metrics.csv"
        write_wide(wide, rng)
        write_long(long, rng)
        # the first run warms the file cache and matplotlib's font cache; it is not counted
        run_report([str(wide), "-o", str(tmp / "warm.pdf")], 1)
        cases = [
            ("30 x 10, one metric, PDF", [str(wide), "-o", str(tmp / "one.pdf")], 3.0),
            (
                "30 x 10, six metrics, PDF",
                [str(long), "-o", str(tmp / "six.pdf"), "--lower-is-better-metric", "error"],
                10.0,
            ),
        ]
        for label, cmd, target in cases:
            times = run_report(cmd, args.repeat, args.no_workers)
            med = statistics.median(times)
            verdict = "ok" if med < target else "SLOW"
            print(
                f"{label:<28} median {med:6.2f} s  (min {min(times):.2f}, max {max(times):.2f}, "
                f"n={len(times)})  target < {target:g} s  {verdict}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
