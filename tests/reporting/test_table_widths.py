"""Measured column widths of the report's statistics tables (cdplot/reporting/table_widths.py).

The tables so measured are laid out by WeasyPrint with ``table-layout: fixed`` in the PDF;
here they are laid out both ways, fixed and automatic (the print rule taken out), and
compared cell by cell: the same lines, no text outside its cell, columns as wide within 2 %.
"""

from __future__ import annotations

import numpy as np
import pytest

import cdplot
from cdplot.reporting.layout import TEXT_WIDTH_PT, text_width
from cdplot.reporting.table_widths import (
    SLACK,
    Run,
    column_widths,
    footer_widths,
    smaller,
)
from cdplot.stats.scores import ScoreTable

PX = 0.75  # points per CSS px
# report.css's print rules that apply the measured widths; without them (as on a screen) the
# tables are laid out automatically
_FIXED_CSS = (
    "table.fixed { table-layout: fixed; width: var(--w); }",
    "table.fixed col { width: var(--w); }",
)


def _em(text, bold=False):
    # the report font's width of a text in em, without layout.SLACK's margin
    return text_width(text, 1.0, bold=bold) / 1.04


def _cols(result) -> list[float]:
    return [float(c.removesuffix("em")) for c in result["cols"]]


def test_columns_take_their_widest_cell_when_the_table_fits():
    columns = [
        [("Test", True, "normal"), ("Friedman tie-corrected", False, "normal")],
        [("p-value", True, "normal"), ("0.0191", False, "normal")],
    ]
    got = column_widths(columns, size=8.0, pad_em=1.1)
    want = [
        SLACK * _em("Friedman tie-corrected") + 1.1,
        SLACK * max(_em("p-value", True), _em("0.0191")) + 1.1,
    ]
    assert _cols(got) == pytest.approx(want, abs=1e-3)
    assert float(got["width"].removesuffix("em")) == pytest.approx(sum(_cols(got)), abs=1e-6)


def test_too_wide_a_table_shares_the_line_between_narrowest_and_widest():
    words = " ".join(["word"] * 80)
    columns = [[(words, False, "normal")], [(words, False, "normal")], [("1.000", False, "nowrap")]]
    got = _cols(column_widths(columns, size=8.0, pad_em=1.1))
    room = TEXT_WIDTH_PT["a4"] / 8.0
    assert sum(got) == pytest.approx(room, abs=0.01)
    # the two equal text columns share alike; the unbreakable number keeps its width
    assert got[0] == pytest.approx(got[1], abs=1e-3)
    assert got[2] == pytest.approx(SLACK * _em("1.000") + 1.1, abs=1e-3)


def test_a_table_whose_words_do_not_fit_is_left_to_the_automatic_layout():
    long_word = "x" * 400
    assert column_widths([[(long_word, False, "normal")]], size=8.0, pad_em=1.1) is None
    # the same text broken anywhere (a hash) fits
    assert column_widths([[(long_word, False, "anywhere")]], size=8.0, pad_em=1.1) is not None


def test_runs_at_their_own_size_and_weight_add_up():
    size = 8.36
    cell = (Run("\u03c7"), Run("2", pt=smaller(size)), Run(" (decides)", pt=7.0))
    got = _cols(column_widths([[(cell, False, "nowrap")]], size=size, pad_em=0.0))[0]
    want = SLACK * (_em("\u03c7") + _em("2") * smaller(size) / size + _em(" (decides)") * 7 / size)
    assert got == pytest.approx(want, abs=1e-3)


@pytest.mark.parametrize(
    ("parent_pt", "want_pt"),
    # WeasyPrint 70 (css/computed_values.py, font_size): the largest keyword size (9.6, 12,
    # 14.2, 16, ... px) below the parent's, else 0.8 of it
    [(8.36, 7.2), (12.0, 10.667), (7.0, 5.6)],
)
def test_smaller_is_weasyprints_keyword_step(parent_pt, want_pt):
    assert smaller(parent_pt) == pytest.approx(want_pt, abs=1e-3)


def test_footer_hash_column_may_break_anywhere():
    # .hash (report.css): the mono face at 7 pt, broken between any two letters; a hash too
    # long for the line still gets a column, as wide as the line leaves it
    footer = {
        "inputs": [{"name": "scores.csv", "sha256": "ab" * 200}],
        "options": [{"name": "alpha", "value": "0.05"}, {"name": "test", "value": "nemenyi"}],
    }
    got = footer_widths(footer)
    size = 9.5 * 0.9 * 0.88
    assert sum(_cols(got["inputs"])) == pytest.approx(TEXT_WIDTH_PT["a4"] / size, abs=0.01)
    assert _cols(got["inputs"])[1] < 400 * 0.6 * 7 / size
    assert len(got["options"]["cols"]) == 4


# ---------------------------------------------------------------------------
# laid out by WeasyPrint

weasyprint = pytest.importorskip("weasyprint")


def _html(data, paper: str, monkeypatch) -> str:
    from cdplot.reporting import render
    from cdplot.reporting.templating import render_template

    # the figures hold no tables; leaving them out keeps the test to a few seconds
    monkeypatch.setattr(render, "figure_svgs", lambda result, **kw: [])
    ctx, _bar = render.prepare_context(data, paper=paper, date="2026-01-01")
    return render_template(
        "base.html.j2", render.finish_context(ctx, embed_fonts=False, paper=paper)
    )


def _tables(html: str) -> list[dict]:
    """Each stats table laid out: its class, column widths (pt), and per cell its lines and
    whether a text leaves the cell's content box."""
    from cdplot.reporting.fetcher import make_fetcher

    pages = weasyprint.HTML(string=html, url_fetcher=make_fetcher()).render().pages
    tables = []

    def lines(box):
        if type(box).__name__ == "LineBox":
            yield box
        for child in getattr(box, "children", ()):
            yield from lines(child)

    def texts(box):
        if type(box).__name__ == "TextBox" and box.text.strip():
            yield box
        for child in getattr(box, "children", ()):
            yield from texts(child)

    def walk(box):
        if type(box).__name__ == "TableBox" and "data-table" not in box.element.get("class", ""):
            table = {
                "class": box.element.get("class", ""),
                "layout": box.style["table_layout"],
                "cols": [w * PX for w in box.column_widths],
                "cells": [],
                "outside": [],
            }
            for group in box.children:
                for row in getattr(group, "children", ()):
                    for cell in getattr(row, "children", ()):
                        table["cells"].append(len(list(lines(cell))))
                        x0 = cell.content_box_x()
                        x1 = x0 + cell.width
                        table["outside"] += [
                            t.text
                            for t in texts(cell)
                            if t.position_x < x0 - 0.01 or t.position_x + t.width > x1 + 0.01
                        ]
            tables.append(table)
            return
        for child in getattr(box, "children", ()):
            walk(child)

    for page in pages:
        walk(page._page_box)
    return tables


def _long_names(k: int, n: int) -> ScoreTable:
    # 60-character names with spaces (tests/reporting/test_table_sweep.py): the p-value
    # matrix and the method table share the line between their columns' extremes
    rng = np.random.default_rng(7 * k + n)
    stem = "Gradient boosted trees (depth 6; lr 0.05; 500 rounds), tuned on fold"
    values = rng.uniform(0.6, 0.9, (n, k)) + np.linspace(0.05, 0.0, k)
    return ScoreTable(
        values=np.round(values, 4),
        methods=[f"{i + 1:03d} {stem}"[:60] for i in range(k)],
        datasets=[f"data set {d + 1:02d}" for d in range(n)],
    )


CASES = [
    pytest.param(lambda: cdplot.load_example("demsar2006"), "a4", id="demsar-a4"),
    pytest.param(lambda: cdplot.load_example("yang-table9"), "letter", id="yang-letter"),
    pytest.param(lambda: _long_names(10, 14), "a4", id="k10-long-names-a4"),
    pytest.param(lambda: _long_names(60, 14), "a4", id="k60-long-names-a4"),
]


@pytest.mark.parametrize(("data", "paper"), CASES)
def test_fixed_tables_set_their_text_as_the_automatic_layout_does(monkeypatch, data, paper):
    html = _html(data(), paper, monkeypatch)
    fixed = _tables(html)
    for rule in _FIXED_CSS:
        assert rule in html
        html = html.replace(rule, "")
    auto = _tables(html)
    assert [t["class"] for t in fixed] == [t["class"] for t in auto]
    measured = [t for t in fixed if "fixed" in t["class"].split()]
    # every stats table of these reports is measured: omnibus, method, p-values (when
    # printed), inputs and options, and Yang's four consistency tables
    assert len(measured) >= 4
    for f, a in zip(fixed, auto, strict=True):
        if "fixed" not in f["class"].split():
            continue
        assert f["layout"] == "fixed"
        assert f["outside"] == [], f["class"]
        # the same lines in every cell: no header or name wraps that did not before
        assert f["cells"] == a["cells"], f["class"]
        # a table narrower than the line: each column as wide as the automatic layout made it
        # (its widest cell), wider only by the 1.5 % margin and what kerning takes off (the
        # advances alone: 3 % on "5CV: False; Boots.: False; ..."); a table as wide as the
        # line shares it out between the columns' extremes (their lines are compared above)
        f_cols, a_cols = np.array(f["cols"]), np.array(a["cols"])
        if a_cols.sum() < TEXT_WIDTH_PT[paper] - 1:
            assert np.all(f_cols >= a_cols - 0.3), (f["class"], f_cols - a_cols)
            assert np.all(f_cols <= a_cols * 1.05 + 0.3), (f["class"], f_cols / a_cols)
        else:
            assert f_cols.sum() == pytest.approx(a_cols.sum(), abs=1.0)
