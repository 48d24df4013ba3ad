"""Figures of compare_ranks results, measured with test_sweep's checks.

A RankComparison is drawn by the same code as a ComparisonResult; these tests
check that every figure of one passes the sweep's measured checks (no bar over
an outsider's line, no overlapping or clipped text, the style's exact width,
no text below the style's minimum size) for k in {2, 4, 10, 30, 100}, and that
the drawing equals the one of compare's result for the same average ranks.
"""

import dataclasses
import itertools
import warnings

import pytest
from test_sweep import (
    bars_over_outsiders,
    check_font_sizes,
    check_size,
    table,
    text_problems,
)

import cdplot
from cdplot.errors import CdplotWarning
from cdplot.plot import _common
from cdplot.plot._save import render_svg

KS = (2, 4, 10, 30, 100)
STYLE_NAMES = ("paper", "paper-wide", "slides")


def ranks_of(k, seed, *, long, ties, n=30):
    """compare's result of a sweep table, and compare_ranks of its average ranks."""
    full = cdplot.compare(table(k, n, seed, long=long, ties=ties))
    ranks = dict(zip(full.methods, full.average_ranks.tolist(), strict=True))
    return full, cdplot.compare_ranks(ranks, n)


def cases():
    rotation = itertools.cycle(itertools.product((True, False), (True, False)))
    out = []
    for k, style in itertools.product(KS, STYLE_NAMES):
        long, ties = next(rotation)
        tid = f"k{k}-{style}" + ("-long" if long else "") + ("-ties" if ties else "")
        out.append(pytest.param(k, style, long, ties, id=tid))
    return out


@pytest.mark.parametrize(("k", "style", "long", "ties"), cases())
def test_cd_diagram_of_average_ranks(k, style, long, ties):
    _, res = ranks_of(k, k, long=long, ties=ties)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", CdplotWarning)
        ax = cdplot.cd_diagram(res, style=style)
    warned = any(issubclass(w.category, CdplotWarning) for w in caught)
    fig = ax.figure
    assert bars_over_outsiders(ax, res) == []
    check_size(fig, style, warned)
    check_font_sizes(fig, style)
    overlaps, clipped = text_problems(fig)
    assert clipped == []
    if not warned:
        assert overlaps == []


@pytest.mark.parametrize("k", [4, 30])
@pytest.mark.parametrize("test", ["nemenyi", "bonferroni-dunn"])
def test_same_drawing_as_compare(k, test):
    # the figure draws the result and never recomputes: equal fields, equal SVG
    full, _ = ranks_of(k, 7, long=False, ties=True)
    full = cdplot.compare(full.scores, test=test)
    ranks = dict(zip(full.methods, full.average_ranks.tolist(), strict=True))
    res = cdplot.compare_ranks(ranks, full.n_datasets, test=test)
    # the captions say why each direction was used (issue 26), and these differ: scores
    # "higher is better by default", average ranks "1 = best"
    assert "average ranks, 1 = best" in _common.caption_text(res)
    assert full.direction_reason in _common.caption_text(full).lower()
    res = dataclasses.replace(res, direction_reason=full.direction_reason)
    assert render_svg(cdplot.cd_diagram(res)) == render_svg(cdplot.cd_diagram(full))
    assert render_svg(cdplot.rank_intervals(res)) == render_svg(cdplot.rank_intervals(full))


def test_tikz_and_heatmap_accept_it():
    _, res = ranks_of(10, 3, long=True, ties=False)
    tex = cdplot.cd_tikz(res, standalone=True)
    assert "\\begin{tikzpicture}" in tex
    assert "\\documentclass" in tex
    assert "\\begin{tikzpicture}" in cdplot.intervals_tikz(res)
    ax = cdplot.significance_heatmap(res)
    assert ax.texts


def test_options_for_raw_scores_are_refused():
    _, res = ranks_of(4, 1, long=False, ties=False)
    with pytest.raises(cdplot.CdplotError, match="applies only to raw scores"):
        cdplot.cd_diagram(res, compare_kws={"alpha": 0.1})
