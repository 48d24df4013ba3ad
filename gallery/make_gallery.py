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
import shutil
import subprocess
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


def write_folds(path: Path, k: int, n: int, folds: int, seed: int) -> Path:
    """A seeded long file: ``k`` methods on ``n`` data sets, ``folds`` resamples each."""
    rng = np.random.default_rng(seed)
    skill = np.linspace(0.03, 0.0, k)
    difficulty = rng.uniform(0.7, 0.9, n)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["dataset", "method", "fold", "accuracy"])
        for d in range(n):
            split = rng.normal(0.0, 0.02, folds)  # a hard fold is hard for every method
            for m in range(k):
                noise = rng.normal(0.0, 0.01, folds)
                for f in range(folds):
                    acc = min(1.0, difficulty[d] + skill[m] + split[f] + noise[f])
                    w.writerow([f"dataset-{d + 1}", _FAMILIES[m].split(" (")[0], f, f"{acc:.4f}"])
    return path


def write_tied_outsider(path: Path) -> Path:
    """Seven methods on 16 data sets (scores to 3 decimals, seed 2) where, under Wilcoxon
    with Holm's correction, kNN has exactly the average rank of LR (4.219) but is not in
    LR's group with SVM and RF: its line crosses that bar with a gap."""
    rng = np.random.default_rng(2)
    k, n = 7, 16
    skill = np.linspace(0.06, 0.0, k)
    values = np.round(0.7 + skill[None, :] + rng.normal(0, 0.03, (n, k)), 3)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["dataset", *_TIE_NAMES])
        for d in range(n):
            w.writerow([f"dataset-{d + 1:02d}", *(f"{v:.3f}" for v in values[d])])
    return path


_TIE_NAMES = ["SVM", "RF", "kNN", "NB", "LR", "CART", "MLP"]

# Names in several scripts: CJK glyphs come from the machine's fonts (Noto CJK here),
# Arabic is drawn unshaped with a warning (matplotlib does not shape it)
_SCRIPT_NAMES = [
    "随机森林 (Random forest)",
    "勾配ブースティング",
    "서포트 벡터 머신",
    "Naïve Bayes",
    "الانحدار اللوجستي",
    "k-NN",
]


def write_scripts(path: Path) -> Path:
    """Six methods with names in Chinese, Japanese, Korean, Latin and Arabic (seed 6)."""
    rng = np.random.default_rng(6)
    k, n = len(_SCRIPT_NAMES), 20
    values = 0.7 + np.linspace(0.06, 0.0, k)[None, :] + rng.normal(0, 0.03, (n, k))
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["dataset", *_SCRIPT_NAMES])
        for d in range(n):
            w.writerow([f"dataset-{d + 1:02d}", *(f"{v:.4f}" for v in values[d])])
    return path


# Made with the Python API (drawing into given Axes), shown with their code in the README.
GRID_CODE = """\
import matplotlib.pyplot as plt
import cdplot

fig, axes = plt.subplots(
    2,
    2,
    figsize=(7, 3.4),
    gridspec_kw=dict(left=0.01, right=0.99, top=0.93, bottom=0.01, wspace=0.06, hspace=0.2),
)
data = cdplot.load_example("yang-table9")
for ax, metric in zip(axes.flat, ["5CV", "Boots.", "F", "AUC"]):
    result = cdplot.compare(data, metric=metric)
    cdplot.cd_diagram(result, ax=ax, caption=False)
    ax.set_title(metric, fontsize=8)
cdplot.save_figure(fig, OUT, dpi=DPI)
"""


def python_figures():
    """(file name, title, Python code writing ``OUT`` at ``DPI``) for figures made in Python."""
    return [
        ("grid-ax.png", "Four diagrams in one plt.subplots grid, drawn with ax=", GRID_CODE),
    ]


# Written as SVG with the Python API and drawn by librsvg, as GNOME, ImageMagick and pandoc
# draw SVGs: the default SVG sets text as glyph outlines, so no font is substituted
RSVG_CODE = """\
import cdplot

result = cdplot.compare(cdplot.load_example("demsar2006"))
cdplot.save_figure(cdplot.cd_diagram(result), SVG)
"""


def rsvg_figures():
    """(PNG name, title, Python code writing ``SVG``) for SVGs shown as librsvg draws them.

    Each SVG is written as ``NAME.svg`` (the PNG's name without ``-rsvg``)
    and drawn into the PNG by :func:`rsvg_command` (Debian librsvg2-bin).
    """
    return [
        (
            "demsar-nemenyi-rsvg.png",
            "Demšar's CD diagram as SVG, drawn by librsvg (rsvg-convert)",
            RSVG_CODE,
        ),
    ]


def rsvg_command(svg, png, dpi: int) -> list[str]:
    """rsvg-convert drawing ``svg`` into ``png`` at ``dpi`` (the SVG's size is in points),
    on white: librsvg leaves the background transparent."""
    return [
        "rsvg-convert",
        "--dpi-x",
        str(dpi),
        "--dpi-y",
        str(dpi),
        "--background-color",
        "white",
        "-o",
        str(png),
        str(svg),
    ]


# the method the explorer's picture shows selected: one in the middle of the ranking, which
# differs from some methods and not from others
EXPLORER_SELECTED = "Support vector machine (RBF kernel; γ = scale) · variant 3"


def explorer_figures(data: Path):
    """(PNG name, title, cdplot plot arguments without -o) for interactive explorer pages.

    Each page is written as ``NAME.html``, opened by headless Chromium (Debian
    chromium) at ``#select=`` :data:`EXPLORER_SELECTED`, the link a click on a
    method makes, and photographed at 1280 x 2500 CSS pixels (tall enough for all 100 rows).
    """
    rel = Path("gallery") / data.name
    return [
        (
            "synthetic-100-explorer.png",
            "The interactive explorer of the 100 methods, one selected: its groups marked, every "
            "other method coloured by whether it differs, with the adjusted p-values",
            ["plot", str(rel / "synthetic-100.csv")],
        ),
    ]


def screenshot_page(html: Path, png: Path, selected: str) -> None:
    """Photograph ``html`` in headless Chromium with ``selected`` chosen through its address."""
    import subprocess
    import tempfile
    import urllib.parse

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    url = html.resolve().as_uri() + "#select=" + urllib.parse.quote(selected, safe="")
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(
            [
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                "--no-first-run",
                "--force-device-scale-factor=1",
                f"--user-data-dir={profile}",
                "--window-size=1280,2500",
                f"--screenshot={png.resolve()}",
                url,
            ],
            capture_output=True,
            timeout=120,
            check=True,
        )


def tex_figures(data: Path):
    """(PNG name, title, cdplot plot arguments without -o) for TikZ figures.

    Each is written as ``NAME.tex`` with ``--standalone``, compiled with
    pdflatex and turned into the PNG with pdftoppm (both needed: Debian
    texlive-latex-base, texlive-pictures and poppler-utils).
    """
    rel = Path("gallery") / data.name
    return [
        (
            "demsar-tikz.png",
            "TikZ output of Demšar's example, set by pdflatex in Computer Modern",
            ["plot", "--example", "demsar2006"],
        ),
        (
            "synthetic-20-tikz.png",
            "TikZ output of the 20-method benchmark across a page (paper-wide)",
            ["plot", str(rel / "synthetic-20.csv"), "--style", "paper-wide"],
        ),
    ]


def table_figures(data: Path):
    """(PNG name, title, cdplot table arguments without -o) for paper tables.

    Each is written as ``NAME.tex`` (a ``table`` float), set by pdflatex in a
    minimal ``article`` that loads booktabs and graphicx, and the page's
    printed part is cut out into the PNG.
    """
    rel = Path("gallery") / data.name
    return [
        (
            "demsar-table.png",
            "Demšar's Table 6 as a paper table: W/T/L against the best, post-hoc underlines",
            [
                "table",
                "--example",
                "demsar2006",
                "--test",
                "bonferroni-dunn",
                "--control",
                "C4.5+m+cf",
                "--marks",
                "posthoc",
                "--caption",
                "AUC of C4.5 with and without tuning (Demšar 2006, Table 6).",
                "--label",
                "tab:demsar",
            ],
        ),
        (
            "demsar-effects-table.png",
            "Effect sizes of every pair in Demšar's example: Cliff's δ and Cohen's d",
            [
                "table",
                "--example",
                "demsar2006",
                "--effect-sizes",
                "all",
                "--caption",
                "Effect sizes of the four C4.5 variants over 14 data sets.",
                "--label",
                "tab:effects",
            ],
        ),
        (
            "folds-table.png",
            "Mean ± standard deviation over 10 folds, underlined where a paired test "
            "within the data set cannot tell the method from the best",
            [
                "table",
                str(rel / "folds-3.csv"),
                "--marks",
                "wilcoxon",
                "--decimals",
                "3",
                "--caption",
                "Accuracy over 10 folds of three classifiers on eight data sets.",
                "--label",
                "tab:folds",
            ],
        ),
    ]


TABLE_DOCUMENT = r"""\documentclass{article}
\usepackage[T1]{fontenc}
\usepackage[utf8]{inputenc}
\usepackage{booktabs,graphicx}
\pagestyle{empty}
\begin{document}
\input{table.tex}
\end{document}
"""


def compile_table(tex: Path, png: Path, dpi: int) -> None:
    """Set a table float in an article with pdflatex; cut its printed part into ``png``."""
    import shutil
    import subprocess
    import tempfile

    from PIL import Image, ImageOps

    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(tex, Path(tmp) / "table.tex")
        (Path(tmp) / "page.tex").write_text(TABLE_DOCUMENT, encoding="utf-8")
        subprocess.run(
            ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "page.tex"],
            cwd=tmp,
            check=True,
            capture_output=True,
        )
        subprocess.run(
            ["pdftoppm", "-r", str(dpi), "-png", "-singlefile", "-f", "1", "-l", "1"]
            + ["page.pdf", "page"],
            cwd=tmp,
            check=True,
        )
        page = Image.open(Path(tmp) / "page.png").convert("RGB")
        box = ImageOps.invert(page).getbbox()  # the printed part: every non-white pixel
        margin = max(2, dpi // 10)
        left, top, right, bottom = box
        page.crop(
            (
                max(0, left - margin),
                max(0, top - margin),
                min(page.width, right + margin),
                min(page.height, bottom + margin),
            )
        ).save(png)


def compile_tex(tex: Path, png: Path, dpi: int) -> None:
    """Compile a standalone .tex with pdflatex and render its page to ``png``."""
    import shutil
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(tex, Path(tmp) / "figure.tex")
        subprocess.run(
            ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "figure.tex"],
            cwd=tmp,
            check=True,
            capture_output=True,
        )
        subprocess.run(
            ["pdftoppm", "-r", str(dpi), "-png", "-singlefile", "figure.pdf", "figure"],
            cwd=tmp,
            check=True,
        )
        shutil.copy(Path(tmp) / "figure.png", png)


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
        (
            "demsar-average-ranks.png",
            "From the average ranks alone (Demšar's Table 6, last row; N = 14), "
            "Bonferroni–Dunn with C4.5 as control",
            [
                "plot",
                str(rel / "demsar2006-average-ranks.csv"),
                "--ranks",
                "--n-datasets",
                "14",
                "--test",
                "bonferroni-dunn",
                "--control",
                "C4.5",
            ],
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
            "yang-table9-panels.png",
            "Seed 004, Table 9: all six metrics in one figure, one panel each, every method on "
            "one side in one colour",
            ["plot", "--example", "yang-table9"],
        ),
        (
            "yang-table9-profile.png",
            "Seed 004, Table 9: rank profile, each classifier's average rank under the six metrics",
            ["plot", "--example", "yang-table9", "--kind", "profile"],
        ),
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
        (
            "synthetic-20-slides.png",
            "20 methods on a slide: exactly 16:9, names at 14 pt or more",
            ["plot", str(rel / "synthetic-20.csv"), "--style", "slides"],
        ),
        (
            "synthetic-20-paper.png",
            "20 long names in one 3.5 in column: wrapped where they can be, else shortened "
            "with a key",
            ["plot", str(rel / "synthetic-20.csv")],
        ),
        (
            "synthetic-50-paper.png",
            "50 methods in one 3.5 in column (rank axis spans the occupied ranks)",
            ["plot", str(rel / "synthetic-50.csv")],
        ),
        (
            "synthetic-100-paper-wide.png",
            "100 methods across a page (paper-wide, 7 in)",
            ["plot", str(rel / "synthetic-100.csv"), "--style", "paper-wide"],
        ),
        (
            "synthetic-20-bonferroni-dunn.png",
            "Bonferroni–Dunn with the control in the middle: no groups, only pairs with the "
            "control",
            [
                "plot",
                str(rel / "synthetic-20.csv"),
                "--style",
                "paper-wide",
                "--test",
                "bonferroni-dunn",
                "--control",
                synthetic_names(20)[10],
            ],
        ),
        (
            "synthetic-20-bonferroni-dunn-intervals.png",
            "The same as a rank-interval chart: the control's interval is the reference",
            [
                "plot",
                str(rel / "synthetic-20.csv"),
                "--kind",
                "intervals",
                "--style",
                "paper-wide",
                "--test",
                "bonferroni-dunn",
                "--control",
                synthetic_names(20)[10],
            ],
        ),
        (
            "scripts.png",
            "Names in Chinese, Japanese, Korean and Arabic (CJK from Noto CJK; Arabic unshaped, "
            "with a warning)",
            ["plot", str(rel / "scripts.csv")],
        ),
        (
            "demsar-stability.png",
            "How stable is the ranking? The probability of each rank over 2,000 bootstrap "
            "samples of Demšar's 14 data sets",
            ["stability", "--example", "demsar2006", "--n-boot", "2000", "--seed", "1"],
        ),
        (
            "demsar-power-curve.png",
            "How many data sets? Simulated power against N, data sets drawn from Demšar's "
            "table, with the 80% line",
            ["plan", "--example", "demsar2006", "--n-datasets", "5,10,20,40,80", "--seed", "0"],
        ),
        (
            "wilcoxon-tied-outsider.png",
            "Wilcoxon with Holm: a method tied with a group's member but outside the group",
            ["plot", str(rel / "tied-outsider.csv"), "--test", "wilcoxon"],
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
    write_synthetic(DATA / "synthetic-50.csv", 50, 30, seed=50)
    write_synthetic(DATA / "synthetic-100.csv", 100, 30, seed=100)
    write_tied_outsider(DATA / "tied-outsider.csv")
    write_scripts(DATA / "scripts.csv")
    write_folds(DATA / "folds-3.csv", 3, 8, 10, seed=3)
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
    for name, _title, code in python_figures():
        if args.only and args.only not in name:
            continue
        exec(code, {"OUT": str(args.out / name), "DPI": args.dpi})
    for name, _title, code in rsvg_figures():
        if args.only and args.only not in name:
            continue
        if not shutil.which("rsvg-convert"):
            print(f"skipped {name}: rsvg-convert is missing", file=sys.stderr)
            continue
        svg = args.out / name.replace("-rsvg.png", ".svg")
        exec(code, {"SVG": str(svg)})
        subprocess.run(rsvg_command(svg, args.out / name, args.dpi), check=True, timeout=120)
    for name, _title, cmd in explorer_figures(DATA):
        if args.only and args.only not in name:
            continue
        if not (shutil.which("chromium") or shutil.which("chromium-browser")):
            print(f"skipped {name}: chromium is missing", file=sys.stderr)
            continue
        argv = [str(HERE.parent / a) if a.startswith("gallery/") else a for a in cmd]
        page = args.out / name.replace(".png", ".html")
        status = cdplot_main([*argv, "-o", str(page), "-q"])
        if status:
            print(f"failed ({status}): cdplot {' '.join(cmd)}", file=sys.stderr)
            failures += 1
            continue
        screenshot_page(page, args.out / name, EXPLORER_SELECTED)
    # TikZ pictures compile as standalone documents; tables are floats set inside an article
    latex = [(entry, ["--standalone"], compile_tex) for entry in tex_figures(DATA)]
    latex += [(entry, [], compile_table) for entry in table_figures(DATA)]
    for (name, _title, cmd), extra, compile_png in latex:
        if args.only and args.only not in name:
            continue
        if not (shutil.which("pdflatex") and shutil.which("pdftoppm")):
            print(f"skipped {name}: pdflatex or pdftoppm is missing", file=sys.stderr)
            continue
        argv = [str(HERE.parent / a) if a.startswith("gallery/") else a for a in cmd]
        tex = args.out / name.replace(".png", ".tex")
        status = cdplot_main([*argv, "-o", str(tex), *extra])
        if status:
            print(f"failed ({status}): cdplot {' '.join(cmd)}", file=sys.stderr)
            failures += 1
            continue
        compile_png(tex, args.out / name, args.dpi)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
