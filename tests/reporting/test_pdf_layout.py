"""PDF reports from 4 to 100 methods, measured with poppler's word boxes (issue 9).

Each report is read back with ``pdftotext -bbox-layout``: no two words may
overlap, every word lies inside the page's side margins, only the running
head and the page number lie in the top and bottom margins, no page holds
nothing but a heading, and 60 methods x 40 data sets fit in 12 pages.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from cdplot._resources import templates_dir
from cdplot.stats.scores import ScoreTable

pytestmark = pytest.mark.skipif(
    shutil.which("pdftotext") is None,
    reason="pdftotext is missing (Debian package poppler-utils); the PDF layout is not checked",
)

MM = 72 / 25.4
# report.css: @page margin 18mm 16mm 20mm 16mm
LEFT = RIGHT = 16 * MM
TOP, BOTTOM = 18 * MM, 20 * MM
# half a point: rounding of the glyph boxes poppler reports
TOL = 0.5

# long, realistic names (spaces, punctuation, Greek, accents), as benchmark tables have them
_FAMILIES = [
    "Gradient boosting (500 trees; depth 6)",
    "Random forest (1000 trees; sqrt features)",
    "Logistic regression (L2; C = 1.0)",
    "Support vector machine (RBF kernel; γ = scale)",
    "k-nearest neighbours (k = 15; distance-weighted)",
    "Naïve Bayes (Gaussian)",
    "Multilayer perceptron (2 × 256 units; Adam)",
    "Extremely randomised trees (800 trees)",
    "Décision tree (CART; min. 5 samples per leaf)",
    "Ridge classifier (α = 0.1)",
    "Linear discriminant analysis (shrinkage = auto)",
]


def _table(k: int, n: int, seed: int) -> ScoreTable:
    """Methods of graded skill on data sets of varied difficulty (seeded)."""
    rng = np.random.default_rng(seed)
    skill = np.sort(rng.normal(0.0, 1.0, k))[::-1] * 0.035
    difficulty = rng.uniform(0.6, 0.9, n)
    scores = difficulty[:, None] + skill[None, :] + rng.normal(0.0, 0.03, (n, k))
    scores = np.round(np.clip(scores, 0.0, 1.0), 4)
    names = [
        _FAMILIES[i % len(_FAMILIES)] + (f" · variant {i // len(_FAMILIES) + 1}" if i >= 11 else "")
        for i in range(k)
    ]
    return ScoreTable(
        values=scores,
        methods=names,
        datasets=[f"dataset-{d + 1:02d}" for d in range(n)],
    )


def _words(pdf) -> list[dict]:
    """Per page: size and the word boxes, from ``pdftotext -bbox-layout``."""
    out = subprocess.run(
        ["pdftotext", "-bbox-layout", str(pdf), "-"], capture_output=True, check=True
    ).stdout.decode("utf-8")
    # the XHTML has a DOCTYPE and a default namespace; strip both for ElementTree
    out = re.sub(r"<!DOCTYPE[^>]*>", "", out)
    out = re.sub(r'\sxmlns="[^"]*"', "", out, count=1)
    root = ET.fromstring(out)
    pages = []
    for page in root.iter("page"):
        words = []
        for line in page.iter("line"):
            line_words = []
            for w in line.iter("word"):
                box = [float(w.get(a)) for a in ("xMin", "yMin", "xMax", "yMax")]
                line_words.append((box, w.text or ""))
            words.append(line_words)
        pages.append(
            {"width": float(page.get("width")), "height": float(page.get("height")), "lines": words}
        )
    return pages


def _overlaps(boxes: np.ndarray) -> list[tuple[int, int]]:
    """Pairs of boxes whose interiors intersect by more than ``TOL`` both ways."""
    x0, y0, x1, y1 = (boxes[:, i][:, None] for i in range(4))
    ox = np.minimum(x1, x1.T) - np.maximum(x0, x0.T)
    oy = np.minimum(y1, y1.T) - np.maximum(y0, y0.T)
    hit = (ox > TOL) & (oy > TOL)
    np.fill_diagonal(hit, False)
    i, j = np.nonzero(np.triu(hit))
    return list(zip(i.tolist(), j.tolist(), strict=True))


def _headings(k: int, n: int) -> set[str]:
    """The headings a report of k methods on n data sets can print.

    The static ones are read from the bundled templates; the few built from
    values are spelled here (the appendix's and its parts').
    """
    static = set()
    for path in templates_dir().glob("*.j2"):
        for text in re.findall(r"<h[1-6][^>]*>([^<{]+)</h[1-6]>", path.read_text("utf-8")):
            static.add(" ".join(text.split()))
    static.add(f"Scores and ranks of all {k} methods")
    static.add(f"Comparison of {k} methods on {n} data sets")
    static |= {f"Methods {a}\u2013{b}" for a in range(1, k + 1) for b in range(a, k + 1)}
    return static


# k, N: the grid.  The reports are built once per module, two at a time (each a
# whole `cdplot report` process), so that the grid stays within about a minute on two cores.
GRID = [(k, n) for k in (4, 10, 20, 30, 60, 100) for n in (14, 40)]


def _write_csv(table: ScoreTable, path) -> None:
    lines = [",".join(["dataset", *(f'"{m}"' for m in table.methods)])]
    for name, row in zip(table.datasets, table.values, strict=True):
        lines.append(",".join([name, *(f"{v:.4f}" for v in row)]))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    folder = tmp_path_factory.mktemp("layout")
    env = dict(os.environ, SOURCE_DATE_EPOCH="1767225600")
    running, done = [], {}
    # largest first, so that the two processes finish together
    for k, n in sorted(GRID, key=lambda c: -c[0] * c[1]):
        csv = folder / f"r{k}x{n}.csv"
        _write_csv(_table(k, n, seed=1000 * k + n), csv)
        pdf = folder / f"r{k}x{n}.pdf"
        cmd = [sys.executable, "-m", "cdplot", "report", str(csv), "-o", str(pdf)]
        if len(running) == 2:
            proc = running.pop(0)
            assert proc.wait() == 0, proc.args
        running.append(subprocess.Popen(cmd, env=env, stderr=subprocess.DEVNULL))
        done[k, n] = pdf
    for proc in running:
        assert proc.wait() == 0, proc.args
    return {key: (_words(pdf), _headings(*key)) for key, pdf in done.items()}


@pytest.mark.parametrize(("k", "n"), GRID, ids=[f"k{k}-N{n}" for k, n in GRID])
def test_words_do_not_overlap_and_stay_inside_the_margins(reports, k, n):
    pages, headings = reports[k, n]
    for number, page in enumerate(pages, start=1):
        words = [w for line in page["lines"] for w in line]
        boxes = np.array([b for b, _ in words])
        clashes = _overlaps(boxes)
        assert not clashes, (
            f"page {number}: {len(clashes)} overlapping words, e.g. "
            f"{[(words[i][1], words[j][1]) for i, j in clashes[:3]]}"
        )
        w, h = page["width"], page["height"]
        for box, text in words:
            where = f"page {number}: {text!r} at x {box[0]:.1f}-{box[2]:.1f} of {w:.0f} pt"
            assert box[0] >= LEFT - TOL, f"{where} crosses the left margin"
            assert box[2] <= w - RIGHT + TOL, f"{where} crosses the right margin"
        # only the running head (the title) and "Page i of n" lie in the top and bottom margins
        margin_text = " ".join(t for b, t in words if b[3] <= TOP + TOL or b[1] >= h - BOTTOM - TOL)
        rest = re.sub(r"Page \d+ of \d+", "", margin_text)
        assert set(rest.split()) <= set(f"Comparison of {k} methods on {n} data sets".split()), (
            f"page {number}: text in the top or bottom margin: {margin_text!r}"
        )


@pytest.mark.parametrize(("k", "n"), GRID, ids=[f"k{k}-N{n}" for k, n in GRID])
def test_no_page_holds_only_a_heading(reports, k, n):
    pages, headings = reports[k, n]
    for number, page in enumerate(pages, start=1):
        h = page["height"]
        lines = [
            " ".join(t for _, t in line)
            for line in page["lines"]
            if line and all(b[1] > TOP + TOL and b[3] < h - BOTTOM - TOL for b, _ in line)
        ]
        assert lines, f"page {number} is empty"
        assert not all(line in headings for line in lines), (
            f"page {number} holds only headings: {lines}"
        )


def test_sixty_methods_on_forty_data_sets_fit_in_twelve_pages(reports):
    pages, _ = reports[60, 40]
    assert len(pages) <= 12


def test_sixty_methods_with_60_character_names_fit_in_twelve_pages(tmp_path):
    # real benchmarks name their methods at length: every name here is 60 characters
    table = _table(60, 40, seed=60040)
    tail = " \u00b7 tuned on the validation folds"
    names = [f"{_FAMILIES[i % len(_FAMILIES)]} \u00b7 v{i + 1:02d}{tail}"[:60] for i in range(60)]
    assert {len(n) for n in names} == {60}
    table = ScoreTable(values=table.values, methods=names, datasets=table.datasets)
    csv, pdf = tmp_path / "long.csv", tmp_path / "long.pdf"
    _write_csv(table, csv)
    env = dict(os.environ, SOURCE_DATE_EPOCH="1767225600")
    cmd = [sys.executable, "-m", "cdplot", "report", str(csv), "-o", str(pdf)]
    subprocess.run(cmd, env=env, check=True, stderr=subprocess.DEVNULL)
    pages = _words(pdf)
    assert len(pages) <= 12
    for number, page in enumerate(pages, start=1):
        words = [w for line in page["lines"] for w in line]
        clashes = _overlaps(np.array([b for b, _ in words]))
        assert not clashes, f"page {number}: {len(clashes)} overlapping words"
        for box, text in words:
            assert box[0] >= LEFT - TOL, f"page {number}: {text!r} crosses the left margin"
            assert box[2] <= page["width"] - RIGHT + TOL, (
                f"page {number}: {text!r} crosses the right margin"
            )


# compare_auto takes the parametric path on these seeded tables (asserted): its report has
# other tables (checks, ANOVA, means, Tukey's pairs), which must fit the page as well
PARAMETRIC = [(5, 14, 1), (12, 40, 1), (30, 40, 2)]


@pytest.mark.parametrize(
    ("k", "n", "seed"), PARAMETRIC, ids=[f"k{k}-N{n}" for k, n, _ in PARAMETRIC]
)
def test_parametric_report_words_do_not_overlap_and_stay_inside(tmp_path, k, n, seed):
    from cdplot.reporting import report
    from cdplot.stats.parametric import compare_auto

    auto = compare_auto(_table(k, n, seed))
    assert auto.path == "parametric"
    pdf = report(auto, tmp_path / "auto.pdf", date="2026-01-01")
    for number, page in enumerate(_words(pdf), start=1):
        words = [w for line in page["lines"] for w in line]
        boxes = np.array([b for b, _ in words])
        clashes = _overlaps(boxes)
        assert not clashes, (
            f"page {number}: {len(clashes)} overlapping words, e.g. "
            f"{[(words[i][1], words[j][1]) for i, j in clashes[:3]]}"
        )
        w = page["width"]
        for box, text in words:
            assert box[0] >= LEFT - TOL, f"page {number}: {text!r} crosses the left margin"
            assert box[2] <= w - RIGHT + TOL, f"page {number}: {text!r} crosses the right margin"
