"""rank_profile and its layout: lines at the average ranks, names at the ends without overlap."""

import warnings

import pytest
from test_panels import several
from test_sweep import check_font_sizes, text_problems

import cdplot
from cdplot.errors import CdplotWarning
from cdplot.plot._layout import spread
from cdplot.plot._styles import STYLES


def test_spread_keeps_order_gap_and_bounds():
    ys = spread([5.0, 5.0, 5.2, 40.0, 100.0], 3.0, 0.0, 50.0)
    assert ys[:3] == [5.0, 8.0, 11.0]
    assert ys[3] == 40.0
    assert ys[4] == 50.0  # pulled inside
    crowded = spread([10.0] * 5, 3.0, 0.0, 12.0)
    assert sorted(crowded) == crowded
    assert min(b - a for a, b in zip(crowded, crowded[1:], strict=False)) >= 3.0 - 1e-9
    assert crowded[0] >= 0.0


def test_yang_profile():
    mc = cdplot.compare_metrics(cdplot.load_example("yang-table9"))
    ax = cdplot.rank_profile(mc)
    fig = ax.figure
    assert fig.get_size_inches()[0] == pytest.approx(3.5, abs=1e-9)
    overlaps, clipped = text_problems(fig)
    assert overlaps == []
    assert clipped == []
    check_font_sizes(fig, "paper")
    lines = {ln.get_gid(): ln for ln in ax.lines}
    metric_x = [
        t.get_position()[0]
        for t in sorted(
            (t for t in ax.texts if t.get_gid().startswith("profile-metric-")),
            key=lambda t: int(t.get_gid().rsplit("-", 1)[1]),
        )
    ]
    assert [t.get_text() for t in ax.texts if t.get_gid().startswith("profile-metric-")] == list(
        mc.metrics
    )
    for j, winners in enumerate(mc.winners):
        # the top point (smallest y, rank 1 at the top) at each metric is its winner
        ys = {m: lines[f"profile-line-{i}"].get_ydata()[j] for i, m in enumerate(mc.methods)}
        best = min(ys.values())
        assert {m for m, y in ys.items() if y == best} == set(winners)
        # each point sits at its metric, tied ones side by side: no marker hides another
        points = [
            (lines[f"profile-markers-{i}"].get_xdata()[j], ys[m]) for i, m in enumerate(mc.methods)
        ]
        assert len(set(points)) == len(points)
        size = lines["profile-markers-0"].get_markersize()
        assert all(abs(x - metric_x[j]) <= size * (mc.n_methods - 1) / 2 for x, _y in points)
    # greyscale: no two methods share marker and line style
    looks = {
        (
            lines[f"profile-markers-{i}"].get_marker(),
            str(lines[f"profile-line-{i}"].get_linestyle()),
        )
        for i in range(mc.n_methods)
    }
    assert len(looks) == mc.n_methods
    # the colours of cd_diagrams' panels
    axes = cdplot.cd_diagrams(mc)
    res = mc.results[0]
    elbow = {
        res.methods[int(ln.get_gid().rsplit("-", 1)[1])]: ln.get_color()
        for ln in axes[0].lines
        if (ln.get_gid() or "").startswith("cd-elbow-")
    }
    for i, m in enumerate(mc.methods):
        assert lines[f"profile-line-{i}"].get_color() == elbow[m]


def test_names_in_order_of_the_last_metric():
    mc = several(10, 4, long=False)
    ax = cdplot.rank_profile(mc)
    names = {t.get_text(): t.get_position()[1] for t in ax.texts if "profile-name" in t.get_gid()}
    last = mc.average_ranks[-1]
    by_rank = [m for _r, m in sorted(zip(last, mc.methods, strict=True))]
    assert sorted(names, key=names.get) == by_rank


@pytest.mark.parametrize(
    ("k", "style", "long"),
    [(2, "paper", False), (10, "paper", True), (30, "paper", True), (50, "paper-wide", True)],
)
def test_profile_sweep(k, style, long):
    mc = several(k, 4, long=long)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", CdplotWarning)
        ax = cdplot.rank_profile(mc, style=style)
    warned = any(issubclass(w.category, CdplotWarning) for w in caught)
    fig = ax.figure
    assert fig.get_size_inches()[0] == pytest.approx(STYLES[style].width, abs=1e-9)
    check_font_sizes(fig, style)
    overlaps, clipped = text_problems(fig)
    assert clipped == []
    if not warned:
        assert overlaps == []
    # every full name is on the figure or in its key
    shown = " ".join(" ".join(t.get_text().split()) for t in ax.texts)
    for m in mc.methods:
        assert " ".join(m.split())[:30] in shown


def test_given_axes_fit_or_warn():
    import matplotlib.pyplot as plt

    mc = cdplot.compare_metrics(cdplot.load_example("yang-table9"))
    fig, ax = plt.subplots(figsize=(7.0, 3.0))
    assert cdplot.rank_profile(mc, ax=ax) is ax
    overlaps, clipped = text_problems(fig)
    assert overlaps == []
    assert clipped == []
    fig, ax = plt.subplots(figsize=(3.5, 0.6))
    with pytest.warns(CdplotWarning, match="it needs about"):
        cdplot.rank_profile(mc, ax=ax)


def test_method_colours_meet_graphics_contrast():
    """WCAG 2.1, 1.4.11: graphical objects need 3:1 against their background (white)."""
    from cdplot.plot._series import COLORS

    def luminance(colour):
        c = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        c = [x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4 for x in c]
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]

    for colour in COLORS:
        assert 1.05 / (luminance(colour) + 0.05) >= 3.0, colour
    assert len(set(COLORS)) == len(COLORS)


def test_an_unfit_profile_says_its_columns_are_squeezed():
    # 30 metrics side by side in 3.5 in: the columns, not a rank axis, give way
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", CdplotWarning)
        cdplot.rank_profile(several(10, 30, long=True), style="paper")
    (message,) = [str(w.message) for w in caught if issubclass(w.category, CdplotWarning)]
    assert "so its metrics' columns are squeezed): use style='paper-wide'" in message
    assert "rank axis" not in message
