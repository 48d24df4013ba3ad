"""The HTML report adds the interactive explorer from 30 methods on; a PDF keeps static ones."""

from __future__ import annotations

import re

import numpy as np
import pytest

from cdplot.io import ScoreTable
from cdplot.plot._explorer import EXPLORER_MIN_METHODS
from cdplot.reporting import render_html


def _table(k: int) -> ScoreTable:
    rng = np.random.default_rng(k)
    values = np.linspace(0.9, 0.6, k)[None, :] + rng.normal(0, 0.08, (20, k))
    return ScoreTable(
        values=values, methods=[f"m<{i}>" for i in range(k)], datasets=[f"d{j}" for j in range(20)]
    )


@pytest.mark.parametrize("k", [EXPLORER_MIN_METHODS - 1, EXPLORER_MIN_METHODS])
def test_html_report_has_the_explorer_from_30_methods(k):
    html = render_html(_table(k), date="2026-01-01")
    shown = k >= EXPLORER_MIN_METHODS
    assert html.count('<div class="cdx" id="metric-1-explorer">') == int(shown)
    assert ('id="metric-1-explorer-figure"' in html) == shown
    # the report runs no script but the explorer's; names stay escaped in the page
    scripts = re.findall(r"<script\b[^>]*>", html)
    assert scripts == (['<script type="application/json" class="cdx-data">', "<script>"] * shown)
    assert "m<3>" not in html.split('class="cdx-data">')[0]


def test_pdf_report_keeps_static_figures(tmp_path):
    from cdplot.reporting._render import prepare_context

    ctx, _ = prepare_context(_table(EXPLORER_MIN_METHODS), format="pdf", progress=False)
    assert [s["explorer"] for s in ctx["sections"]] == [None]
    ctx, _ = prepare_context(_table(EXPLORER_MIN_METHODS), format="html", progress=False)
    assert all(s["explorer"] for s in ctx["sections"])
