"""Rank-interval charts: one segment of length CD per method, highlight colours, errors."""

import numpy as np
import pytest
from svg_checks import svg_groups, svg_root, svg_texts, synthetic_table
from test_critical_difference import assert_no_overlap

import cdplot
from cdplot.errors import CdplotError
from cdplot.plot._styles import PALETTE


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


def _axis_parts(ax):
    lines = {ln.get_gid(): ln for ln in ax.lines if ln.get_gid()}
    ticks = sorted(int(t.get_text()) for t in ax.texts if t.get_gid() == "ri-tick")
    return lines, ticks


AXIS_CASES = [
    pytest.param(k, n, test, reverse, id=f"k{k}-N{n}-{test}" + ("-reverse" if reverse else ""))
    for k, n, test, reverse in [
        (2, 10, "nemenyi", False),
        (5, 30, "nemenyi", True),
        (30, 30, "nemenyi", False),
        (30, 300, "bonferroni-dunn", True),
        (100, 30, "nemenyi", True),
        (100, 300, "nemenyi", False),
        (100, 300, "bonferroni-dunn", False),
    ]
]


@pytest.mark.parametrize(("k", "n", "test", "reverse"), AXIS_CASES)
def test_axis_spans_the_segments_with_a_break_as_the_cd_diagram(k, n, test, reverse):
    """issue 8 'Large k': the chart's axis follows the CD diagram's rule, measured."""
    import math

    from test_sweep import text_problems

    res = cdplot.compare(
        synthetic_table(k, n=n, seed=k + n, long=False),
        test=test,
        control="M0" if test == "bonferroni-dunn" else None,
    )
    style = "paper-wide" if k >= 50 else "paper"
    ax = cdplot.rank_intervals(res, style=style, reverse=reverse)
    lines, ticks = _axis_parts(ax)
    ranks = np.asarray(res.average_ranks)
    half = res.critical_difference / (1 if res.control is not None else 2)
    # the ranks the segments cover, within 1..k, rounded out to integers
    lo = max(1.0, ranks.min() - half)
    hi = min(float(k), ranks.max() + half)
    want = (1, k) if k < 10 else (math.floor(lo + 1e-9), math.ceil(hi - 1e-9))
    if want[0] == 2 and want[1] - want[0] < 4:
        want = (1, want[1])
    assert (ticks[0], ticks[-1]) == want
    broken = want[0] > 1
    assert ("ri-axis-break" in lines) == broken
    if k >= 100 and n >= 300:
        assert broken  # 100 methods on 300 data sets: the best ranks are far from 1
    # every segment lies on the drawn axis, and the axis ends at the break stub
    axis_x = [x for x in lines["ri-axis"].get_xdata() if x is not None]
    a0, a1 = min(axis_x), max(axis_x)
    for gid, ln in lines.items():
        if gid.startswith(("ri-segment-", "ri-dot-")):
            xs = [x for x in ln.get_xdata() if x is not None]
            assert a0 - 1e-6 <= min(xs), gid
            assert max(xs) <= a1 + 1e-6, gid
    if broken:
        mark_x = [x for x in lines["ri-axis-break"].get_xdata() if x is not None]
        # the mark sits beyond the first rank shown, on the best side, inside the axis line
        tick_x = {
            int(t.get_text()): t.get_position()[0] for t in ax.texts if t.get_gid() == "ri-tick"
        }
        first = tick_x[want[0]]
        if reverse:
            assert a0 < min(mark_x)
            assert max(mark_x) < first
        else:
            assert first < min(mark_x)
            assert max(mark_x) < a1
    overlaps, clipped = text_problems(ax.figure)
    assert overlaps == []
    assert clipped == []
    # full_axis=True restores 1..k without a break
    full = cdplot.rank_intervals(res, style=style, reverse=reverse, full_axis=True)
    lines, ticks = _axis_parts(full)
    assert (ticks[0], ticks[-1]) == (1, k)
    assert "ri-axis-break" not in lines


def test_broken_axis_gives_each_rank_more_room():
    # 100 methods, 300 data sets: the occupied span is a fraction of 1..100
    res = cdplot.compare(synthetic_table(100, n=300, seed=4, long=False))

    def points_per_rank(ax):
        tx = {int(t.get_text()): t.get_position()[0] for t in ax.texts if t.get_gid() == "ri-tick"}
        (a, xa), (b, xb) = min(tx.items()), max(tx.items())
        return abs(xb - xa) / (b - a)

    short = points_per_rank(cdplot.rank_intervals(res, style="paper-wide"))
    full = points_per_rank(cdplot.rank_intervals(res, style="paper-wide", full_axis=True))
    # measured 1.30 (ranks 17-86 of 1-100, segments CD = 10.2 long); full width would be 1.0
    assert short > 1.25 * full


def test_full_axis_must_be_a_bool(demsar):
    with pytest.raises(CdplotError, match="full_axis"):
        cdplot.rank_intervals(demsar, full_axis="yes")


def test_parts_of_a_chart_line_up_on_the_whole_charts_axis():
    res = cdplot.compare(synthetic_table(40, n=30, seed=3, long=False))
    order = list(res.order())
    whole = cdplot.rank_intervals(res, style="paper-wide", caption=False)
    parts = [
        cdplot.rank_intervals(res, style="paper-wide", caption=False, methods=order[a:b])
        for a, b in ((0, 20), (20, 40))
    ]

    def geometry(ax):
        ticks = {t.get_text(): t.get_position()[0] for t in ax.texts if t.get_gid() == "ri-tick"}
        names = {t.get_gid() for t in ax.texts if t.get_gid().startswith("ri-name-")}
        dots = {
            ln.get_gid(): ln.get_xdata()[0] for ln in ax.lines if ln.get_gid().startswith("ri-dot")
        }
        return ticks, names, dots

    w_ticks, w_names, w_dots = geometry(whole)
    seen = set()
    for ax, (a, b) in zip(parts, ((0, 20), (20, 40)), strict=True):
        ticks, names, dots = geometry(ax)
        assert ticks == w_ticks  # the same axis, at the same x
        assert names == {f"ri-name-{res.methods.index(m)}" for m in order[a:b]}
        assert all(dots[g] == pytest.approx(w_dots[g]) for g in dots)
        assert ax.figure.get_size_inches()[0] == pytest.approx(7.0)
        seen |= names
    assert seen == w_names
    with pytest.raises(CdplotError, match="unknown names"):
        cdplot.rank_intervals(res, methods=["nope"])
    with pytest.raises(CdplotError, match="methods="):
        cdplot.rank_intervals(res, methods="M1")
