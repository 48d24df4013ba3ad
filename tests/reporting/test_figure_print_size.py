"""Report figures print at 6 pt or more at 64 and 100 methods (issue 9, figure sizes).

Each PDF is read back with poppler's ``pdftotext -bbox-layout``: a word's
box is as tall as its type is large when it runs across the page, and as
wide when it is turned (the heatmap's column labels), so the printed size
of a word is its box's height or, for a turned word, its width.  Words of
fewer than three characters are left out, because their boxes cannot tell
turned from upright; every figure has longer words at its smallest size
(tick labels such as "100", rank values, legend and key lines).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import cdplot
from cdplot.io import ScoreTable
from cdplot.reporting._figures import MIN_PRINTED_PT, _printed_min, figure_svgs

pytestmark = pytest.mark.skipif(
    shutil.which("pdftotext") is None,
    reason="pdftotext is missing (Debian package poppler-utils); printed sizes are not measured",
)

MIN_PT = 6.0
# pdftotext rounds glyph boxes to about a hundredth of a point
TOL = 0.02


def _table(k: int, n: int, *, long: bool, seed: int = 0) -> ScoreTable:
    rng = np.random.default_rng(seed + k)
    values = 0.7 + np.linspace(0.08, 0.0, k)[None, :] + rng.normal(0, 0.03, (n, k))
    if long:
        # 60 characters with natural break points, as in tests/plot/test_sweep.py
        names = [
            (f"Model {i:03d} gradient boosted trees (depth 6; lr 0.05), tuned" + " x" * 30)[:60]
            for i in range(k)
        ]
    else:
        names = [f"method {i}" for i in range(k)]
    return ScoreTable(values=values, methods=names, datasets=[f"d{j}" for j in range(n)])


def printed_words(pdf) -> list[tuple[float, int, str]]:
    """(printed size in points, page, text) of every word of three or more characters."""
    return [(size, n, text) for size, n, text, _box, _page in _word_boxes(pdf)]


def _word_boxes(pdf):
    """As :func:`printed_words`, with each word's box and its page's (width, height)."""
    out = subprocess.run(
        ["pdftotext", "-bbox-layout", str(pdf), "-"], capture_output=True, check=True
    ).stdout.decode("utf-8")
    out = re.sub(r"<!DOCTYPE[^>]*>", "", out)
    out = re.sub(r'\sxmlns="[^"]*"', "", out, count=1)
    words = []
    for n, page in enumerate(ET.fromstring(out).iter("page"), 1):
        size = (float(page.get("width")), float(page.get("height")))
        for w in page.iter("word"):
            text = (w.text or "").strip()
            if len(text) < 3:
                continue
            x0, y0, x1, y1 = (float(w.get(a)) for a in ("xMin", "yMin", "xMax", "yMax"))
            width, height = x1 - x0, y1 - y0
            words.append((height if width >= height else width, n, text, (x0, y0, x1, y1), size))
    return words


# report.css: @page margin 18mm 16mm 20mm 16mm, the same on a landscape page
MM = 72 / 25.4
SIDE, TOP, BOTTOM = 16 * MM, 18 * MM, 20 * MM

# 64 and 100 methods with short names, 66 and 100 with 60-character ones (as real benchmarks
# have), on both papers.  The CD diagram cannot be cut into parts: with 66 long names it is
# drawn as wide as a landscape page (names on one line), with 100 it shortens the names it
# must and tags each with its number in the method table.  (60 long names were the case until
# matplotlib 3.11 made a line a point shorter, 64 until near ties stopped needing crossing
# notes: each time their diagrams came to fit the text width, 767.9 -> 738.6 pt tall at 64.)
CASES = [
    pytest.param(64, False, "letter", id="k64-letter"),
    pytest.param(100, False, "a4", id="k100-a4"),
    pytest.param(66, True, "a4", id="k66-long-a4"),
    pytest.param(66, True, "letter", id="k66-long-letter"),
    pytest.param(100, True, "a4", id="k100-long-a4"),
    pytest.param(100, True, "letter", id="k100-long-letter"),
]


@pytest.mark.parametrize(("k", "long", "paper"), CASES)
def test_figure_text_prints_at_6pt_or_more(tmp_path, k, long, paper):
    table = _table(k, 14, long=long)
    # the premise, measured with matplotlib's fonts: drawn whole at the text width (as the
    # HTML report draws them), the rank intervals, and the long-named CD diagrams, would
    # print under 6 pt, so the PDF must do something else
    whole = {f["key"]: f for f in figure_svgs(cdplot.compare(table), prefix="w", format="html")}
    assert _printed_min(whole["intervals"]) < MIN_PRINTED_PT
    assert (_printed_min(whole["cd"]) < MIN_PRINTED_PT) == long
    pdf = tmp_path / "report.pdf"
    cdplot.report(table, pdf, paper=paper)
    words = _word_boxes(pdf)
    small = sorted((s, n, t) for s, n, t, _b, _p in words if s < MIN_PT - TOL)
    assert small == []
    # the words measured include the figures' smallest type: tick labels and rank values
    assert any(t == str(k // 2) or t == "100" or "." in t for _s, _n, t, _b, _p in words)
    # every word inside the page's margins, on portrait and landscape pages alike
    for _s, n, t, (x0, y0, x1, y1), (w, h) in words:
        where = f"page {n}: {t!r} at ({x0:.1f}, {y0:.1f})-({x1:.1f}, {y1:.1f}) of {w:.0f}x{h:.0f}"
        assert x0 >= SIDE - 0.5, f"{where} crosses the left margin"
        assert x1 <= w - SIDE + 0.5, f"{where} crosses the right margin"
        if not re.fullmatch(r"Page|\d+|of|Comparison|methods|data|sets", t):
            assert y0 >= TOP - 0.5, f"{where} is in the top margin"
            assert y1 <= h - BOTTOM + 0.5, f"{where} is in the bottom margin"
    text = " ".join(
        subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, check=True)
        .stdout.decode("utf-8")
        .split()
    )
    # the rank-interval chart (one row per method) is printed in parts that share its axis
    assert "Average ranks with intervals (1 of " in text
    # the page of the CD diagram, which its caption begins
    cd_pages = {n for _s, n, t, _b, _p in words if t == "Critical-difference"}
    assert len(cd_pages) == 1
    shortened = "Names too long for the page are shortened" in text
    assert shortened == (k == 100 and long)
    if shortened:
        # each shortened name ends with its number in the method table, which names it in full
        on_cd = {t for _s, n, t, _b, _p in words if n in cd_pages}
        assert {f"[{i}]" for i in range(10, k + 1)} <= on_cd
    if k == 66 and long:
        # the CD diagram has a landscape page of its own
        sizes = {p for _s, n, _t, _b, p in words if n in cd_pages}
        assert all(w > h for w, h in sizes), sizes


def test_report_figures_have_nothing_outside_their_area(monkeypatch):
    # the report renders its figures with keep_outside=False (no second layout pass):
    # that is exact only while nothing it draws lies outside the figure, checked here
    from cdplot.plot import _save

    original, checked = _save._write, []

    def write(fig, fh, fmt, dpi, text_as_paths=False, embed_fonts=True, keep_outside=True):
        if not keep_outside:
            checked.append(_save._kept_area(fig))
        return original(fig, fh, fmt, dpi, text_as_paths, embed_fonts, keep_outside)

    monkeypatch.setattr(_save, "_write", write)
    rng = np.random.default_rng(2)
    for k in (3, 12, 40):
        values = 0.7 + np.linspace(0.05, 0, k)[None, :] + rng.normal(0, 0.03, (20, k))
        names = [f"Method {i} with a long descriptive name" for i in range(k)]
        table = ScoreTable(values=values, methods=names, datasets=[f"d{j}" for j in range(20)])
        for fmt in ("pdf", "html"):
            figure_svgs(cdplot.compare(table), prefix="o", format=fmt)
    assert len(checked) >= 12
    assert checked == [None] * len(checked)
