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
from cdplot.io import ScoreTable

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
    from cdplot.stats._parametric import compare_auto

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


# ---- the BibTeX and the numbered groups (issue 9: "BibTeX is never split") ----
#
# Both are set in columns that cdplot fills (references.bibtex_columns, pairwise.html.j2):
# read back from the word boxes, each BibTeX entry must run down one column of one page, and
# the groups must read a, b, c, ... down the columns, the columns from left to right.

_ENTRY_START = re.compile(r"@(\w+)\{(\w+),$")
_GROUP_LETTER = re.compile(r"[A-Za-z]\d*:$")


def _columns(page) -> dict[int, list[tuple[float, str]]]:
    """Rows ``(y, text without spaces)`` of the page's left (0) and right (1) halves."""
    mid = page["width"] / 2
    rows: dict[int, dict[float, list]] = {0: {}, 1: {}}
    for line in page["lines"]:
        for box, text in line:
            rows[int(box[0] >= mid)].setdefault(round(box[1], 1), []).append((box[0], text))
    return {
        side: [(y, "".join(t for _, t in sorted(words))) for y, words in sorted(found.items())]
        for side, found in rows.items()
    }


def _bibtex_entries(pages) -> dict[str, tuple[int, int, int, float]]:
    """``key: (page, column, lines, top)`` of every BibTeX entry, each read down its column.

    Fails when an entry does not continue down its column on its page to its last line
    (cut between the columns or the pages) or reads otherwise than ``REFERENCES`` has it.
    """
    from cdplot.reporting._references import REFERENCES

    found = {}
    for number, page in enumerate(pages, start=1):
        for side, rows in _columns(page).items():
            for i, (y, text) in enumerate(rows):
                start = _ENTRY_START.match(text)
                if not start:
                    continue
                key = start.group(2)
                want = "".join(REFERENCES[key].bibtex.split())
                got, j = "", i
                while len(got) < len(want) and j < len(rows):
                    got += rows[j][1]
                    j += 1
                assert got == want, f"page {number}: BibTeX entry {key} is cut or garbled"
                found[key] = (number, side, j - i, y)
    return found


def _taller(heights: list[int], cut: int) -> int:
    """Lines of the taller column, ``cut`` entries of these heights in the first."""

    def column(part):
        # a blank line between two entries
        return sum(part) + max(len(part) - 1, 0)

    return max(column(heights[:cut]), column(heights[cut:]))


def _best_split(heights: list[int]) -> int:
    """Lines of the taller column of the best split of entries this tall."""
    return min(_taller(heights, cut) for cut in range(1, len(heights) + 1))


def _check_bibtex(pages, at_least=("friedman1937", "iman1980", "demsar2006", "nemenyi1963")):
    entries = _bibtex_entries(pages)
    assert set(at_least) <= set(entries)
    # the whole BibTeX on one page, its first column filled first
    assert len({page for page, _side, _n, _y in entries.values()}) == 1
    in_order = list(entries.values())
    sides = [side for _page, side, _n, _y in in_order]
    assert sides == sorted(sides)
    assert sides[0] == 0
    # the two columns start level, and the taller is as short as whole entries allow (the
    # entries' lines as WeasyPrint wrapped them: cdplot counted them right)
    tops = {side: y for _page, side, _n, y in reversed(in_order)}
    assert len(set(tops.values())) == 1
    heights = [n for _page, _side, n, _y in in_order]
    assert _taller(heights, sides.count(0)) == _best_split(heights)
    return entries


def _groups(pages) -> list[list[str]]:
    """The numbered groups' letters, column by column (left to right), each top to bottom."""
    heading = "Groups of methods that do not differ significantly"
    for page in pages:
        for line in page["lines"]:
            if " ".join(t for _, t in line) == heading:
                top = line[0][0][3]
                break
        else:
            continue
        # the rows under the heading that hold letters: the list, however many columns
        words = sorted((b[1], b[0], t) for line in page["lines"] for b, t in line if b[1] > top)
        rows: dict[float, list] = {}
        for y, x, text in words:
            rows.setdefault(round(y, 1), []).append((x, text))
        letters = []
        for _y, row in sorted(rows.items()):
            marks = [(x, t[:-1]) for x, t in row if _GROUP_LETTER.match(t)]
            if not marks:
                break
            letters += marks
        columns: dict[float, list[str]] = {}
        for x, letter in letters:  # rows top down: each column's letters in order
            columns.setdefault(round(x), []).append(letter)
        return [columns[x] for x in sorted(columns)]
    raise AssertionError(f"no heading {heading!r}")


@pytest.mark.parametrize(("k", "n"), [c for c in GRID if c[0] >= 30], ids=lambda c: str(c))
def test_bibtex_entries_whole_and_groups_read_down_the_columns(reports, k, n):
    pages, _ = reports[k, n]
    _check_bibtex(pages)
    from cdplot.reporting._context._pairwise import group_letters

    columns = _groups(pages)
    letters = [letter for column in columns for letter in column]
    # a, b, c, ... down the first column, then the next: the order of the method table
    assert letters == [group_letters(i) for i in range(len(letters))]
    assert len(letters) > 4
    # four columns, filled down as evenly as Jinja's slice(4) deals them
    rows = -(-len(letters) // 4)
    assert len(columns) == 4
    assert [len(c) for c in columns] == sorted((len(c) for c in columns), reverse=True)
    assert len(columns[0]) == rows
    assert len(columns[-1]) >= rows - 1


@pytest.fixture(scope="module")
def examples(tmp_path_factory):
    """The PDF reports of Demsar's and Yang's examples (word boxes), made side by side."""
    folder = tmp_path_factory.mktemp("examples")
    env = dict(os.environ, SOURCE_DATE_EPOCH="1767225600")
    running = {}
    for name in ("demsar2006", "yang-table9"):
        cmd = [sys.executable, "-m", "cdplot", "report", "--example", name]
        cmd += ["-o", str(folder / f"{name}.pdf")]
        running[name] = subprocess.Popen(cmd, env=env, stderr=subprocess.DEVNULL)
    for proc in running.values():
        assert proc.wait() == 0, proc.args
    return {name: _words(folder / f"{name}.pdf") for name in running}


def test_bibtex_of_the_examples_is_whole_on_one_page(examples):
    _check_bibtex(examples["demsar2006"])
    # six metrics: the tau between their rankings is cited too (eight entries)
    assert len(_check_bibtex(examples["yang-table9"], at_least=["kendall1945"])) == 8


def test_bibtex_too_long_for_a_page_splits_between_entries_only(monkeypatch, tmp_path):
    # no report cites all 21 works, whose two columns would be taller than a page: the
    # entries are then set in blocks of two columns, a page each, cut only between entries
    from cdplot.reporting import _fetcher as fetching
    from cdplot.reporting import _render as render
    from cdplot.reporting._references import REFERENCES, bibtex_columns
    from cdplot.reporting._templating import render_template

    weasyprint = pytest.importorskip("weasyprint")
    monkeypatch.setattr(render, "figure_svgs", lambda result, **kw: [])
    ctx, _bar = render.prepare_context(_table(4, 14, seed=1), date="2026-01-01")
    everything = "\n".join(ref.bibtex for ref in REFERENCES.values())
    ctx["bibtex_columns"] = blocks = bibtex_columns(everything, paper="a4")
    assert len(blocks) == 2
    html = render_template(
        "base.html.j2", render.finish_context(ctx, embed_fonts=False, paper="a4")
    )
    pdf = tmp_path / "all.pdf"
    weasyprint.HTML(string=html, url_fetcher=fetching.make_fetcher()).write_pdf(pdf)
    pages = _words(pdf)
    entries = _bibtex_entries(pages)
    assert list(entries) == list(REFERENCES)
    # block by block: each on a page of its own, its first column filled first
    for block, page in zip(blocks, sorted({p for p, _s, _n, _y in entries.values()}), strict=True):
        keys = [
            _ENTRY_START.match(line).group(2)
            for c in block
            for line in c.split("\n")
            if _ENTRY_START.match(line)
        ]
        assert {entries[key][0] for key in keys} == {page}
        assert [entries[key][1] for key in keys] == sorted(entries[key][1] for key in keys)
