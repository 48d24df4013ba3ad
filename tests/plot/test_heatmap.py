"""Significance heatmaps: lower triangle in rank order, discrete p-value classes, legend."""

import numpy as np
import pytest
from conftest import svg_groups, svg_root, synthetic_table
from test_critical_difference import assert_no_overlap

import cdplot
from cdplot.plot.heatmap import significance_levels


def test_levels_follow_alpha():
    assert significance_levels(0.05) == [0.001, 0.01, 0.05]
    assert significance_levels(0.005) == [0.001, 0.005]
    assert significance_levels(0.0005) == [0.0005]


def test_lower_triangle_in_rank_order(demsar):
    ax = cdplot.significance_heatmap(demsar)
    cells = next(c for c in ax.collections if c.get_gid() == "hm-cells")
    k = demsar.n_methods
    assert len(cells.get_paths()) == k * (k - 1) // 2
    rows = [t.get_text() for t in ax.texts if t.get_gid() == "hm-row-label"]
    cols = [t.get_text() for t in ax.texts if t.get_gid() == "hm-col-label"]
    order = list(demsar.order())
    assert rows == order[1:]
    assert cols == order[:-1]
    values = [t.get_text() for t in ax.texts if t.get_gid() == "hm-value"]
    assert len(values) == k * (k - 1) // 2  # annotated: four methods leave room


def test_legend_and_untested_cells():
    res = cdplot.compare(cdplot.load_example("demsar2006"), test="bonferroni-dunn", control="C4.5")
    ax = cdplot.significance_heatmap(res)
    legend = [t.get_text() for t in ax.texts if t.get_gid() == "hm-legend"]
    assert legend[-1] == "not tested"
    assert "p \u2264 0.05" in legend
    root = svg_root(ax)
    assert svg_groups(root, "hm-untested")
    assert np.isnan(res.pvalues).any()


@pytest.mark.parametrize("k", [2, 5, 20, 50])
def test_no_overlap(k):
    res = cdplot.compare(synthetic_table(k, seed=k))
    assert_no_overlap(cdplot.significance_heatmap(res, style="paper-wide"))


def test_reverse_puts_worst_first(demsar):
    ax = cdplot.significance_heatmap(demsar, reverse=True)
    cols = [t.get_text() for t in ax.texts if t.get_gid() == "hm-col-label"]
    assert cols[0] == demsar.order()[-1]
