"""The figures at every size, measured with the renderer rather than looked at.

One sweep over k in {2, 3, 5, 10, 20, 30, 50, 100}, N in {5, 30, 300}, ties,
60-character names, Nemenyi, Wilcoxon + Holm and Bonferroni-Dunn, and each
style.  Every k, style and test is covered; the other factors rotate through
the cases so that the sweep stays within CI's time on two cores.  For each
figure: no clique bar over the line of a method outside its group (unless
that line is drawn across it with a gap and the note says so), no
overlapping or clipped text, the style's exact width (slides: 16:9), and no
text below the style's minimum size.  A ``CdplotWarning`` is the only
allowed way out of the text checks.
"""

import itertools
import re
import warnings

import matplotlib as mpl
import numpy as np
import pytest

import cdplot
from cdplot.errors import CdplotWarning
from cdplot.io import ScoreTable
from cdplot.plot._save import _rc
from cdplot.plot._styles import STYLES

KS = (2, 3, 5, 10, 20, 30, 50, 100)
NS = (5, 30, 300)
STYLE_NAMES = ("paper", "paper-wide", "slides")
TESTS = (
    {"test": "nemenyi"},
    {"test": "wilcoxon", "correction": "holm"},
    {"test": "bonferroni-dunn", "control": "mid"},
)


def long_name(i: int) -> str:
    """A 60-character name with natural break points, distinct in its first words."""
    base = f"Model {i:03d} gradient boosted trees (depth 6; lr 0.05), tuned"
    return (base + " x" * 30)[:60]


def table(k, n, seed, *, long, ties):
    rng = np.random.default_rng(seed)
    skill = np.linspace(0.08, 0.0, k)
    values = 0.7 + skill[None, :] + rng.normal(0, 0.03, (n, k))
    if ties and k >= 3:
        values[:, 1] = values[:, 0]  # exactly equal average ranks
    names = [long_name(i) if long else f"M{i}" for i in range(k)]
    return ScoreTable(values=values, methods=names, datasets=[f"d{j}" for j in range(n)])


def cases():
    # every k x style x test once; N, ties and name length rotate
    rotation = itertools.cycle(itertools.product(NS, (True, False), (True, False)))
    out = []
    for k, style, opts in itertools.product(KS, STYLE_NAMES, TESTS):
        n, ties, long = next(rotation)
        if opts["test"] == "wilcoxon" and k >= 50:
            n = min(n, 30)  # k (k - 1) / 2 Wilcoxon tests on 300 data sets add nothing here
        test_id = opts["test"] + ("-holm" if "correction" in opts else "")
        tid = f"k{k}-{style}-{test_id}-N{n}" + ("-ties" if ties else "") + ("-long" if long else "")
        out.append(pytest.param(k, n, style, opts, ties, long, id=tid))
    return out


def compare(k, n, opts, ties, long, seed=0):
    t = table(k, n, seed + k, long=long, ties=ties)
    opts = dict(opts)
    if opts.get("control") == "mid":
        opts["control"] = t.methods[k // 2]
    return cdplot.compare(t, **opts)


def rendered_texts(fig):
    """(artist, window extent) of every visible text, rendered as save_figure renders them."""
    with mpl.rc_context(_rc()):
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        return [
            (t, t.get_window_extent(renderer))
            for ax in fig.axes
            for t in ax.texts
            if t.get_visible() and t.get_text().strip()
        ]


def text_problems(fig):
    """Overlapping pairs and clipped texts, in pixels with half a pixel of tolerance."""
    boxes = rendered_texts(fig)
    w, h = fig.get_size_inches() * fig.dpi
    clipped = [
        t.get_text()
        for t, bb in boxes
        if bb.x0 < -0.5 or bb.y0 < -0.5 or bb.x1 > w + 0.5 or bb.y1 > h + 0.5
    ]
    boxes.sort(key=lambda tb: tb[1].x0)
    overlaps = []
    for n, (ta, a) in enumerate(boxes):
        for tb, b in boxes[n + 1 :]:
            if b.x0 >= a.x1 - 0.5:
                break
            if min(a.y1, b.y1) - max(a.y0, b.y0) > 0.5 and min(a.x1, b.x1) - max(a.x0, b.x0) > 0.5:
                overlaps.append((ta.get_text(), tb.get_text()))
    return overlaps, clipped


def bars_over_outsiders(ax, res):
    """Clique bars whose drawn extent reaches the line of a method outside the group.

    A crossing is allowed only where the drawing sets the outsider's line
    off with a gap (artist ``cd-crossing-<j>-<i>``) and a note explains it.
    """
    lines = {ln.get_gid(): ln for ln in ax.lines if ln.get_gid()}
    notes = " ".join(t.get_text() for t in ax.texts if t.get_gid() == "cd-note")
    elbows = {int(g.rsplit("-", 1)[1]): ln for g, ln in lines.items() if g.startswith("cd-elbow-")}
    bad = []
    for gid, bar in lines.items():
        if not gid.startswith("cd-clique-"):
            continue
        j = int(gid.rsplit("-", 1)[1])
        members = {res.methods.index(m) for m in res.cliques[j]}
        # data units are points: butt caps end exactly at the bar's x data
        lo, hi = sorted(bar.get_xdata())
        for i, elbow in elbows.items():
            if i in members:
                continue
            # the line's vertical part (tied lines leave their shared dot side by side)
            x = elbow.get_xdata()[-2]
            half = elbow.get_linewidth() / 2
            if hi > x - half and lo < x + half:
                crossing = f"cd-crossing-{j}-{i}" in lines
                if not (crossing and "with a white gap" in " ".join(notes.split())):
                    bad.append((gid, res.methods[i]))
    return bad


def rows_out_of_rank_order(ax, res):
    """Label rows on either side whose order contradicts the average ranks (issue 27, 5).

    On each side the row nearest the axis' end holds the method nearest that
    end, so going down the rows the ranks run one way; near ties once put a
    method below one it ranks behind.
    """
    names = [t for t in ax.texts if (t.get_gid() or "").startswith("cd-name-")]
    bad = []
    for align in ("right", "left"):  # names left of the lines end flush right, and vice versa
        side = [t for t in names if t.get_ha() == align]
        side.sort(key=lambda t: t.get_position()[1])  # row by row; either way suits the check
        ranks = [res.average_ranks[int(t.get_gid().rsplit("-", 1)[1])] for t in side]
        steps = np.diff(ranks)
        if steps.size and not (np.all(steps >= -1e-12) or np.all(steps <= 1e-12)):
            bad.append([t.get_text() for t in side])
    return bad


def check_size(fig, style, warned):
    w, h = fig.get_size_inches()
    st = STYLES[style]
    if st.height is None:
        assert w == pytest.approx(st.width, abs=1e-9)
    else:
        assert w / h == pytest.approx(16 / 9, rel=1e-9)
        assert w >= st.width - 1e-9
        if w > st.width * 4 / 3 + 1e-6:
            assert warned, "a slide grew past 13.3 in without a warning"


def check_font_sizes(fig, style):
    sizes = [t.get_fontsize() for ax in fig.axes for t in ax.texts if t.get_text().strip()]
    assert min(sizes) >= STYLES[style].min_font_size - 1e-9


def draw_or_refused(draw, res, style, **kws):
    """The Axes drawn, or None when the figure would exceed 50 in a side (issue 27, 2).

    A slide grows to keep its 14 pt type; beyond 50 in it is refused with one line
    naming the size, before any canvas is made (a 186 x 105 in heatmap ran out of memory).
    """
    refused = None
    try:
        return draw(res, style=style, **kws)
    except cdplot.CdplotError as exc:
        refused = str(exc)
    assert style == "slides", refused
    assert "larger than the 50 in cdplot draws" in refused
    assert "\n" not in refused
    return None


@pytest.mark.parametrize(("k", "n", "style", "opts", "ties", "long"), cases())
def test_cd_diagram_sweep(k, n, style, opts, ties, long):
    res = compare(k, n, opts, ties, long)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", CdplotWarning)
        ax = draw_or_refused(cdplot.cd_diagram, res, style)
    if ax is None:
        return
    warned = any(issubclass(w.category, CdplotWarning) for w in caught)
    fig = ax.figure
    assert bars_over_outsiders(ax, res) == []
    assert rows_out_of_rank_order(ax, res) == []
    if res.control is not None:
        assert not [ln for ln in ax.lines if (ln.get_gid() or "").startswith("cd-clique-")]
    check_size(fig, style, warned)
    check_font_sizes(fig, style)
    overlaps, clipped = text_problems(fig)
    assert clipped == []
    if not warned:
        assert overlaps == []
    # names shortened for the figure are listed in full in its key
    key = " ".join(t.get_text() for t in ax.texts if t.get_gid() == "cd-key")
    shown = {t.get_gid(): t.get_text() for t in ax.texts if t.get_gid().startswith("cd-name-")}
    for i, name in enumerate(res.methods):
        label = shown[f"cd-name-{i}"]
        if " ".join(label.split()).rstrip(" \u2020") != " ".join(name.split()):
            tag = re.search(r"\[\d+\]", label)
            assert tag or "\n" in label
            if tag:
                assert f"{tag.group()}\u00a0{name[:30]}" in key


# the other two figures: every k and style once, tests rotating
OTHER = [
    pytest.param(k, style, TESTS[(n_k + n_s) % 3], id=f"k{k}-{style}")
    for n_k, k in enumerate(KS)
    for n_s, style in enumerate(STYLE_NAMES)
]


@pytest.mark.parametrize(("k", "style", "opts"), OTHER)
def test_intervals_and_heatmap_sweep(k, style, opts):
    import matplotlib.pyplot as plt

    res = compare(k, 30, opts, ties=True, long=k % 20 == 10 or k == 5)
    figures = [cdplot.significance_heatmap]
    if res.critical_difference is not None:
        figures.append(cdplot.rank_intervals)
    for draw in figures:
        # thousands of printed p-values say nothing and cost seconds to render
        extra = {"annotate": False} if draw is cdplot.significance_heatmap and k >= 50 else {}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", CdplotWarning)
            ax = draw_or_refused(draw, res, style, **extra)
        if ax is None:
            continue
        warned = any(issubclass(w.category, CdplotWarning) for w in caught)
        check_size(ax.figure, style, warned)
        check_font_sizes(ax.figure, style)
        overlaps, clipped = text_problems(ax.figure)
        if not warned:
            assert overlaps == [], draw.__name__
            assert clipped == [], draw.__name__
        plt.close(ax.figure)


AX_CASES = [(5, (3.5, 2.0)), (30, (3.5, 2.0)), (50, (3.5, 2.0)), (30, (7.0, 9.0)), (10, (7, 4))]


@pytest.mark.parametrize(
    ("k", "figsize"), AX_CASES, ids=[f"k{k}-{w}x{h}" for k, (w, h) in AX_CASES]
)
def test_given_axes_fit_or_warn(k, figsize):
    import matplotlib.pyplot as plt

    res = compare(k, 30, {"test": "nemenyi"}, ties=True, long=k >= 30)
    fig, ax = plt.subplots(figsize=figsize)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", CdplotWarning)
        cdplot.cd_diagram(res, ax=ax)
    warned = [str(w.message) for w in caught if issubclass(w.category, CdplotWarning)]
    if k >= 30 and figsize == (3.5, 2.0):
        # issue 8: 28 silent overlaps at k = 30 in a 3.5 x 2 in Axes; now a warning
        assert warned
    overlaps, clipped = text_problems(fig)
    if warned:
        # the warning names the size the diagram needs
        assert "it needs about" in warned[0]
        assert " in" in warned[0]
    else:
        assert overlaps == []
        assert clipped == []
        assert bars_over_outsiders(ax, res) == []
    check_font_sizes(fig, "paper")


def test_grid_of_four_diagrams_via_ax():
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 2, figsize=(7.0, 6.0))
    results = [compare(k, 30, {"test": "nemenyi"}, ties=False, long=False) for k in (4, 6, 8, 10)]
    with warnings.catch_warnings():
        warnings.simplefilter("error", CdplotWarning)
        for ax, res in zip(axes.flat, results, strict=True):
            cdplot.cd_diagram(res, ax=ax, caption=False)
    overlaps, clipped = text_problems(fig)
    assert overlaps == []  # across the four Axes too
    assert clipped == []
