"""Every table of a report at any k, measured on WeasyPrint's laid-out boxes (issue 9).

The reports of k in {4, 10, 20, 30, 60, 100} methods with 60-character names
on N in {14, 40} data sets, on both papers, are laid out by WeasyPrint (the
PDF's own layout, without the figures, which hold no tables and take most of
the time) and every table's text is checked where it was placed:

- no text is set under 7 pt;
- no cell breaks a line inside a word (only at spaces and after hyphens);
- no text crosses the page's side margins;
- a table that runs onto another page repeats its header rows there.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from model_zoo_names import CLASS_NAMES

from cdplot.io import ScoreTable

weasyprint = pytest.importorskip("weasyprint")

MIN_PT = 7.0
PX = 0.75  # points per CSS pixel
# where report.css lets a line break: spaces, and after hyphens, slashes and dashes
_BREAK_AFTER = "-/\u2010\u2013"


def _names(k: int) -> list[str]:
    """60-character names with spaces and punctuation, as benchmark tables have them."""
    stem = "Gradient boosted trees (depth 6; lr 0.05; 500 rounds), tuned on fold"
    return [f"{i + 1:03d} {stem}"[:60] for i in range(k)]


def _table(k: int, n: int, words: bool = False) -> ScoreTable:
    rng = np.random.default_rng(1000 * k + n)
    skill = np.sort(rng.normal(0.0, 1.0, k))[::-1] * 0.035
    values = rng.uniform(0.6, 0.9, (n, 1)) + skill[None, :] + rng.normal(0.0, 0.03, (n, k))
    values = np.round(np.clip(values, 0.0, 1.0), 4)
    return ScoreTable(
        values=values,
        methods=CLASS_NAMES[:k] if words else _names(k),
        datasets=[f"data set {d + 1:02d}" for d in range(n)],
    )


def _laid_out(table: ScoreTable, paper: str, monkeypatch):
    """The report's pages as WeasyPrint lays them out for the PDF, figures left out."""
    from cdplot.reporting import _fetcher as fetching
    from cdplot.reporting import _render as render
    from cdplot.reporting._templating import render_template

    # the figures hold no tables; drawing and laying them out is most of a report's time
    monkeypatch.setattr(render, "figure_svgs", lambda result, **kw: [])
    ctx, _bar = render.prepare_context(table, paper=paper, date="2026-01-01")
    html = render_template(
        "base.html.j2", render.finish_context(ctx, embed_fonts=False, paper=paper)
    )
    return weasyprint.HTML(string=html, url_fetcher=fetching.make_fetcher()).render().pages


def _walk(box, table=None, cell=None, line=None, turned=None, parent=None):
    """``(box, table, cell, line, turned)`` of every box, with the table, cell and line it
    lies in, and ``(turned box, its parent)`` when it is inside a turned header name."""
    name = type(box).__name__
    if name == "TableBox":
        table = box
    elif name == "TableCellBox":
        cell = box
    elif name == "LineBox":
        line = box
    if box.style["transform"] and turned is None:
        turned = (box, parent)
    yield box, table, cell, line, turned
    for child in getattr(box, "children", ()):
        yield from _walk(child, table, cell, line, turned, box)


def _joined(lines: list[str]) -> str:
    out = ""
    for line in lines:
        if out and not out.endswith(tuple(_BREAK_AFTER)):
            out += " "
        out += line
    return out


def _problems(pages) -> list[str]:
    found = []
    first_has_header: dict[int, bool] = {}
    fragments: dict[int, list] = {}
    for number, page in enumerate(pages, start=1):
        pb = page._page_box
        left, right = pb.content_box_x(), pb.content_box_x() + pb.width
        cells: dict[int, tuple] = {}
        for box, table, cell, line, turned in _walk(pb):
            name = type(box).__name__
            if name == "TableBox":
                groups = [g for g in box.children if type(g).__name__ == "TableRowGroupBox"]
                has_header = bool(groups) and groups[0].is_header
                key = id(box.element)
                rows = sum(len(g.children) for g in groups if not (g.is_header or g.is_footer))
                if "method-table" in (box.element.get("class") or ""):
                    fragments.setdefault(key, []).append((number, rows))
                if key not in first_has_header:
                    first_has_header[key] = has_header
                elif first_has_header[key] and not has_header:
                    found.append(f"page {number}: a table runs on without its header rows")
            if table is None or name != "TextBox" or not box.text.strip():
                continue
            size = box.style["font_size"] * PX
            if size < MIN_PT - 1e-6:
                found.append(f"page {number}: {box.text!r} set at {size:.2f} pt in a table")
            x0, x1 = box.position_x, box.position_x + box.width
            if turned is not None:
                # report.css turns the name a quarter left about its top left corner: it
                # stands as wide as its line, and must not rise above its header
                span, header = turned
                x0, x1 = span.position_x, span.position_x + span.margin_height()
                if span.margin_width() > header.height + 0.5:
                    found.append(f"page {number}: turned {box.text!r} is taller than its header")
            if x0 < left - 0.5 or x1 > right + 0.5:
                found.append(f"page {number}: {box.text!r} crosses the margin ({x0:.1f}-{x1:.1f})")
            if cell is not None and line is not None:
                lines = cells.setdefault(id(cell), (cell, {}))[1]
                lines.setdefault(id(line), []).append(box.text)
        for cell, lines in cells.values():
            # the line boxes in the order they were laid out (dicts keep it)
            texts = [" ".join("".join(parts).split()) for parts in lines.values()]
            if len(texts) < 2:
                continue
            whole = " ".join("".join(cell.element.itertext()).split())
            if _joined(texts) != whole:
                found.append(f"page {number}: a cell breaks inside a word: {texts}")
    # a method table split over pages leaves three rows at least on each (report.css)
    for parts in fragments.values():
        if len(parts) > 1:
            found += [f"page {n}: a method table part of {r} rows" for n, r in parts if r < 3]
    return found


GRID = [(k, n, paper) for k in (4, 10, 20, 30, 60, 100) for n in (14, 40) for paper in ("a4",)]
GRID += [(k, 40, "letter") for k in (10, 30, 100)]


@pytest.mark.parametrize(("k", "n", "paper"), GRID, ids=[f"k{k}-N{n}-{p}" for k, n, p in GRID])
def test_tables_are_legible_whole_words_inside_the_margins(monkeypatch, k, n, paper):
    pages = _laid_out(_table(k, n), paper, monkeypatch)
    problems = _problems(pages)
    assert problems == [], f"{len(problems)} problems, e.g. {problems[:4]}"
    # the checks saw the tables: the method table's names are all there
    text = " ".join(
        b.text
        for p in pages
        for b, t, _c, _l, _t in _walk(p._page_box)
        if t is not None and hasattr(b, "text")
    )
    assert all(re.search(re.escape(name[:20]), text) for name in _names(k))


TURNED = [(6, 14, "a4"), (8, 40, "letter"), (10, 14, "a4")]


@pytest.mark.parametrize(("k", "n", "paper"), TURNED, ids=[f"k{k}-N{n}-{p}" for k, n, p in TURNED])
def test_one_word_names_stand_upright_over_a_table_that_fits(monkeypatch, k, n, paper):
    # across, each column would be as wide as its name (one word); turned, as its numbers,
    # and the whole table stays in its section instead of the appendix's landscape pages
    pages = _laid_out(_table(k, n, words=True), paper, monkeypatch)
    assert _problems(pages) == []
    turned = [
        b.text
        for p in pages
        for b, _t, _c, _l, t in _walk(p._page_box)
        if t is not None and type(b).__name__ == "TextBox"
    ]
    # (a table that runs onto a second page repeats them there)
    assert set(turned) == set(CLASS_NAMES[:k])
    assert all(p.width < p.height for p in pages)
