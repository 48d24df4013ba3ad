"""Rank-interval charts: one segment of length CD per method, highlight colours, errors."""

import pytest
from conftest import svg_groups, svg_root, svg_texts, synthetic_table
from test_critical_difference import assert_no_overlap

import cdplot
from cdplot.errors import CdplotError
from cdplot.plot.styles import PALETTE


def _segments(ax):
    return {
        int(ln.get_gid().rsplit("-", 1)[1]): ln
        for ln in ax.lines
        if (ln.get_gid() or "").startswith("ri-segment-")
    }


def test_structure_and_segment_lengths(demsar):
    ax = cdplot.rank_intervals(demsar)
    root = svg_root(ax)
    texts = svg_texts(root)
    assert all(texts.count(m) == 1 for m in demsar.methods)
    assert len(svg_groups(root, "ri-segment-")) == demsar.n_methods
    segs = _segments(ax)
    # x is linear in rank: each segment spans the same screen length, CD long
    lengths = {round(abs(ln.get_xdata()[1] - ln.get_xdata()[0]), 6) for ln in segs.values()}
    assert len(lengths) == 1


def test_rows_in_rank_order_best_on_top(demsar):
    ax = cdplot.rank_intervals(demsar)
    ys = {i: ln.get_ydata()[0] for i, ln in _segments(ax).items()}
    order = [demsar.methods.index(m) for m in demsar.order()]
    assert [ys[i] for i in order] == sorted(ys.values())


def test_highlight_colours_the_method_and_those_that_differ():
    res = cdplot.compare(synthetic_table(12, n=40, seed=2, long=False))
    best = res.order()[0]
    ax = cdplot.rank_intervals(res, highlight=best)
    segs = _segments(ax)
    h = res.methods.index(best)
    for i, ln in segs.items():
        expected = PALETTE["accent"] if (i == h or res.significant[h, i]) else PALETTE["muted"]
        assert ln.get_color() == expected


@pytest.mark.parametrize("k", [2, 7, 30, 50])
def test_no_overlap(k):
    res = cdplot.compare(synthetic_table(k, seed=k))
    assert_no_overlap(cdplot.rank_intervals(res, highlight=res.methods[0], style="paper-wide"))


def test_bonferroni_dunn_highlights_the_control():
    res = cdplot.compare(cdplot.load_example("demsar2006"), test="bonferroni-dunn", control="C4.5")
    ax = cdplot.rank_intervals(res)
    name = next(t for t in ax.texts if t.get_gid() == f"ri-name-{res.methods.index('C4.5')}")
    assert name.get_fontweight() in ("bold", 700)


def test_pairwise_tests_have_no_cd():
    res = cdplot.compare(cdplot.load_example("demsar2006"), test="wilcoxon")
    with pytest.raises(CdplotError, match="test='wilcoxon'"):
        cdplot.rank_intervals(res)
