"""Regenerate every figure of the cdplot gallery from data in the repository.

Each figure is made by running the ``cdplot plot`` command line in-process
with exactly the arguments listed in ``gallery/README.md``, so the README's
commands are the ones that made the pictures.  The two synthetic benchmarks
are written first, from a seeded generator, to ``gallery/data/``.

Usage::

    python gallery/make_gallery.py            # PNGs at 150 dpi into gallery/
    python gallery/make_gallery.py --out DIR --dpi 72 --only demsar

The script is also run by the test suite (into a temporary folder, at low dpi).
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"

# Long, realistic names (40+ characters, unicode) are the hard case for layout.
_FAMILIES = [
    "Gradient boosting (500 trees; depth 6)",
    "Random forest (1000 trees; sqrt features)",
    "Logistic regression (L2; C = 1.0)",
    "Support vector machine (RBF kernel; γ = scale)",
    "k-nearest neighbours (k = 15; distance-weighted)",
    "Naïve Bayes (Gaussian)",
    "Multilayer perceptron (2 × 256 units; Adam)",
    "Extremely randomised trees (800 trees)",
    "LightGBM-style histogram boosting (255 bins)",
    "Décision tree (CART; min. 5 samples per leaf)",
    "AdaBoost (200 stumps)",
    "Ridge classifier (α = 0.1)",
    "Linear discriminant analysis (shrinkage = auto)",
    "Quadratic discriminant analysis (reg = 0.01)",
    "Gaussian process classifier (Matérn ν = 5/2)",
]


def synthetic_names(k: int) -> list[str]:
    """``k`` distinct long method names."""
    names = []
    i = 0
    while len(names) < k:
        base = _FAMILIES[i % len(_FAMILIES)]
        variant = i // len(_FAMILIES)
        names.append(base if variant == 0 else f"{base} · variant {variant + 1}")
        i += 1
    return names


def write_synthetic(path: Path, k: int, n: int, seed: int) -> Path:
    """A seeded benchmark: ``k`` methods of graded skill on ``n`` data sets (accuracy)."""
    rng = np.random.default_rng(seed)
    skill = np.sort(rng.normal(0.0, 1.0, k))[::-1] * 0.035
    difficulty = rng.uniform(0.6, 0.9, n)
    scores = np.clip(difficulty[:, None] + skill[None, :] + rng.normal(0.0, 0.03, (n, k)), 0.0, 1.0)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["dataset", *synthetic_names(k)])
        for d in range(n):
            w.writerow([f"dataset-{d + 1:02d}", *(f"{v:.4f}" for v in scores[d])])
    return path


def figures(data: Path):
    """(file name, title, cdplot plot arguments without -o) for every gallery figure."""
    rel = Path("gallery") / data.name
    out = [
        (
            "demsar-nemenyi.png",
            "Demšar's C4.5 example, Nemenyi test",
            ["plot", "--example", "demsar2006"],
        ),
        (
            "demsar-bonferroni-dunn.png",
            "Demšar's C4.5 example, Bonferroni–Dunn test with C4.5 as control",
            ["plot", "--example", "demsar2006", "--test", "bonferroni-dunn", "--control", "C4.5"],
        ),
    ]
    for metric in ("5CV", "Boots.", "P", "R", "F", "AUC"):
        slug = metric.rstrip(".").lower()
        out.append(
            (
                f"yang-table9-{slug}.png",
                f"Seed 004, Table 9: {metric}",
                ["plot", "--example", "yang-table9", "--metric", metric],
            )
        )
    out += [
        (
            "synthetic-20.png",
            "20 methods with long names on 30 data sets (paper-wide)",
            ["plot", str(rel / "synthetic-20.csv"), "--style", "paper-wide"],
        ),
        (
            "synthetic-45.png",
            "45 methods with long names on 60 data sets (paper-wide)",
            ["plot", str(rel / "synthetic-45.csv"), "--style", "paper-wide"],
        ),
        (
            "synthetic-20-serif-reversed.png",
            "The same 20 methods, serif font, best on the left",
            [
                "plot",
                str(rel / "synthetic-20.csv"),
                "--style",
                "paper-wide",
                "--font",
                "serif",
                "--reverse",
            ],
        ),
        (
            "demsar-intervals.png",
            "Rank-interval chart of Demšar's example, C4.5 highlighted",
            ["plot", "--example", "demsar2006", "--kind", "intervals", "--highlight", "C4.5"],
        ),
        (
            "synthetic-20-intervals.png",
            "Rank-interval chart of the 20-method benchmark",
            [
                "plot",
                str(rel / "synthetic-20.csv"),
                "--kind",
                "intervals",
                "--style",
                "paper-wide",
                "--highlight",
                _FAMILIES[0],
            ],
        ),
        (
            "synthetic-20-heatmap.png",
            "Heatmap of the Nemenyi p-values of the 20-method benchmark",
            ["plot", str(rel / "synthetic-20.csv"), "--kind", "heatmap", "--style", "paper-wide"],
        ),
        (
            "demsar-heatmap-wilcoxon.png",
            "Heatmap of Wilcoxon signed-rank p-values (Holm) on Demšar's example",
            ["plot", "--example", "demsar2006", "--kind", "heatmap", "--test", "wilcoxon"],
        ),
        (
            "demsar-slides.png",
            "Demšar's example styled for a 16:9 slide",
            ["plot", "--example", "demsar2006", "--style", "slides"],
        ),
    ]
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out", type=Path, default=HERE, help="folder for the PNGs (default: gallery/)"
    )
    parser.add_argument("--dpi", type=int, default=150, help="PNG resolution (default: 150)")
    parser.add_argument(
        "--only", metavar="TEXT", help="make only figures whose file name contains TEXT"
    )
    args = parser.parse_args(argv)

    write_synthetic(DATA / "synthetic-20.csv", 20, 30, seed=20)
    write_synthetic(DATA / "synthetic-45.csv", 45, 60, seed=45)
    sys.path.insert(0, str(HERE.parent))
    from cdplot.cli import main as cdplot_main

    args.out.mkdir(parents=True, exist_ok=True)
    failures = 0
    for name, _title, cmd in figures(DATA):
        if args.only and args.only not in name:
            continue
        # the commands name files relative to the repository; run them from anywhere
        argv = [str(HERE.parent / a) if a.startswith("gallery/") else a for a in cmd]
        status = cdplot_main([*argv, "-o", str(args.out / name), "--dpi", str(args.dpi)])
        if status:
            print(f"failed ({status}): cdplot {' '.join(cmd)}", file=sys.stderr)
            failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
