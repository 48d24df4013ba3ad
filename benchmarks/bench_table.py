"""Speed of paper tables (issue 12).  Run: python benchmarks/bench_table.py

Prints medians, never asserts: timing belongs here, not in tests.

- in process: ``data_table`` of 100 methods x 1,000 data sets (10 folds each) in
  LaTeX, Markdown and HTML, with the spread and each kind of marks; the rounding
  of 100,000 values (``decimal_texts``), half of them exact halves that go the
  slow, exact :mod:`decimal` way;
- whole process: ``cdplot table`` of a long file of 100 methods x 200 data sets x
  10 folds (200,000 rows), with the repetitions read (the default) and without
  (``--no-std``), which is the reading cost of ``keep_repetitions``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def median_time(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def in_process(repeat: int) -> None:
    import cdplot
    from cdplot.io import ScoreTable
    from cdplot.reporting._tables import decimal_texts

    rng = np.random.default_rng(0)
    k, n, r = 100, 1000, 10
    reps = 0.7 + rng.normal(0, 0.05, (n, k, 1)) + rng.normal(0, 0.02, (n, k, r))
    table = ScoreTable(
        values=reps.mean(axis=2),
        methods=[f"method {j:03d}" for j in range(k)],
        datasets=[f"data set {i:04d}" for i in range(n)],
        repetition_scores=reps,
        repetition_labels=[str(f) for f in range(r)],
    )
    res = cdplot.compare(table)
    typed = np.round(rng.random(100_000), 3)  # at 2 decimals, one in ten is an exact half
    halves = (np.arange(100_000) % 100 + 0.5) / 100.0  # every one a half at 2 decimals
    cases = [
        ("decimal_texts, 100,000 values, 2 decimals", lambda: decimal_texts(typed, 2)),
        ("decimal_texts, 100,000 exact halves", lambda: decimal_texts(halves, 2)),
        ("latex, best", lambda: cdplot.data_table(res, std=False)),
        ("markdown, best", lambda: cdplot.data_table(res, format="markdown", std=False)),
        ("html, best", lambda: cdplot.data_table(res, format="html", std=False)),
        ("latex, mean +/- sd", lambda: cdplot.data_table(res)),
        ("latex, mean +/- sd, wilcoxon marks", lambda: cdplot.data_table(res, marks="wilcoxon")),
        ("latex, mean +/- sd, t-test marks", lambda: cdplot.data_table(res, marks="t-test")),
        (
            "latex float, posthoc marks, W/T/L",
            lambda: cdplot.data_table(res, caption="c", marks="posthoc", control="method 000"),
        ),
    ]
    print(f"in process, {k} methods x {n} data sets x {r} folds (median of {repeat}):")
    for label, fn in cases:
        print(f"  {label:<45} {median_time(fn, repeat):7.3f} s")


def whole_process(repeat: int) -> None:
    rng = np.random.default_rng(1)
    k, n, r = 100, 200, 10
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "long.csv"
        d, m, f = np.meshgrid(np.arange(n), np.arange(k), np.arange(r), indexing="ij")
        score = 0.7 + 0.001 * m + rng.normal(0, 0.02, d.shape)
        lines = ["dataset,method,fold,accuracy"] + [
            f"d{a},m{b},{c},{s:.4f}"
            for a, b, c, s in zip(d.ravel(), m.ravel(), f.ravel(), score.ravel(), strict=True)
        ]
        path.write_text("\n".join(lines) + "\n")
        env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        print(f"whole process, cdplot table of {k * n * r:,} rows (median of {repeat}):")
        for label, extra in (("repetitions read (default)", []), ("--no-std", ["--no-std"])):

            def run(extra=extra):
                subprocess.run(
                    [
                        sys.executable,
                        "-m",
                        "cdplot",
                        "table",
                        str(path),
                        "-o",
                        str(Path(tmp) / "t.tex"),
                        "--quiet",
                        *extra,
                    ],
                    check=True,
                    env=env,
                )

            print(f"  {label:<45} {median_time(run, repeat):7.3f} s")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per case (default: 5)")
    args = parser.parse_args(argv)
    in_process(args.repeat)
    whole_process(args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
