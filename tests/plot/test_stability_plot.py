"""Tests of cdplot.plot._stability: the rank-probability heat strip, measured on the canvas."""

import io
import itertools

import matplotlib as mpl
import numpy as np
import pytest

import cdplot
from cdplot.errors import CdplotError
from cdplot.plot import rank_probabilities
from cdplot.plot._stability import cell_text


def _stability(k, n=40, seed=0, names=None):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, k)) + np.linspace(0, 1.5, k)
    res = cdplot.compare(x, methods=names)
    return cdplot.stability(res, n_boot=300, seed=seed)


def _boxes(ax, gid):
    renderer = ax.figure.canvas.get_renderer()
    return [(t, t.get_window_extent(renderer)) for t in ax.texts if t.get_gid() == gid]


def _cell_box(ax, r, c):
    """Display box of the cell of row ``r`` (0 = best) and rank column ``c`` (0 = rank 1)."""
    (x0, y0), (x1, y1) = ax.transData.transform([(c + 0.5, r + 0.5), (c + 1.5, r + 1.5)])
    return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)


def _overlap(a, b, slack=0.5):
    return (
        a.x0 < b.x1 - slack and b.x0 < a.x1 - slack and a.y0 < b.y1 - slack and b.y0 < a.y1 - slack
    )


@pytest.mark.parametrize("k", [4, 20])
def test_every_cell_is_drawn_with_its_probability_inside_it(k):
    names = [f"method number {i}" for i in range(k)]
    st = _stability(k, names=names)
    ax = rank_probabilities(st)
    ax.figure.canvas.draw()
    (mesh,) = [c for c in ax.collections if c.get_gid() == "rp-cells"]
    order = [st.methods.index(m) for m in st.order()]
    shown = np.asarray(mesh.get_array()).reshape(k, k)
    np.testing.assert_array_equal(shown, st.rank_probabilities[order])
    values = _boxes(ax, "rp-value")
    assert len(values) == k * k
    for t, box in values:
        c, r = (round(v) - 1 for v in t.get_position())
        x0, y0, x1, y1 = _cell_box(ax, r, c)
        assert x0 <= box.x0, t.get_text()
        assert box.x1 <= x1, t.get_text()
        assert y0 <= box.y0, t.get_text()
        assert box.y1 <= y1, t.get_text()
        assert t.get_text() == cell_text(st.rank_probabilities[order[r], c])


def test_labels_do_not_overlap_at_20_methods():
    st = _stability(20, names=[f"a fairly long method name {i}" for i in range(20)])
    ax = rank_probabilities(st)
    fig = ax.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    ylabels = [t.get_window_extent(renderer) for t in ax.get_yticklabels() if t.get_text()]
    xlabels = [t.get_window_extent(renderer) for t in ax.get_xticklabels() if t.get_text()]
    assert len(ylabels) == 20
    for a, b in itertools.combinations(ylabels + xlabels, 2):
        assert not _overlap(a, b)
    grid = ax.get_window_extent(renderer)
    values = [box for _, box in _boxes(ax, "rp-value")]
    for label in ylabels:
        assert label.x1 <= grid.x0 + 0.5  # names left of the grid
        assert not any(_overlap(label, v) for v in values)
    for label in xlabels:
        assert label.y1 <= grid.y0 + 0.5  # ranks under it
    # everything inside the figure
    page = fig.bbox
    title = ax.title.get_window_extent(renderer)
    xlabel = ax.xaxis.label.get_window_extent(renderer)
    for box in [*ylabels, *xlabels, title, xlabel]:
        assert page.x0 - 0.5 <= box.x0
        assert box.x1 <= page.x1 + 0.5
        assert page.y0 - 0.5 <= box.y0
        assert box.y1 <= page.y1 + 0.5
    assert not _overlap(title, grid)


def test_direction_seed_and_colour_bar_are_stated():
    res = cdplot.compare(cdplot.load_example("demsar2006"), higher_is_better=False)
    st = cdplot.stability(res, n_boot=200, seed=42)
    ax = rank_probabilities(st)
    assert "lower scores are better" in ax.get_xlabel()
    assert "1 = best" in ax.get_xlabel()
    assert "seed 42" in ax.get_title(loc="left")
    assert "200 bootstrap samples" in ax.get_title(loc="left")
    bars = [a for a in ax.figure.axes if a.get_gid() == "rp-colorbar"]
    assert len(bars) == 1
    assert "P(rank)" in bars[0].get_ylabel()
    # rows in average-rank order, best at the top
    assert [t.get_text() for t in ax.get_yticklabels()] == list(st.order())


def test_k100_draws_no_numbers_and_thins_the_rank_ticks():
    st = _stability(100, n=200)
    ax = rank_probabilities(st)
    ax.figure.canvas.draw()
    assert not _boxes(ax, "rp-value")
    renderer = ax.figure.canvas.get_renderer()
    xlabels = [t.get_window_extent(renderer) for t in ax.get_xticklabels() if t.get_text()]
    assert 5 <= len(xlabels) < 100
    for a, b in itertools.combinations(xlabels, 2):
        assert not _overlap(a, b)
    ylabels = [t.get_window_extent(renderer) for t in ax.get_yticklabels()]
    assert len(ylabels) == 100
    for a, b in itertools.pairwise(sorted(ylabels, key=lambda b: b.y0)):
        assert not _overlap(a, b)


def test_into_a_given_axes_and_options():
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(5, 3))
    FigureCanvasAgg(fig)
    given = fig.add_subplot()
    st = _stability(4)
    ax = rank_probabilities(st, ax=given, annotate=False, colorbar=False, caption=False)
    assert ax is given
    assert not _boxes(ax, "rp-value")
    assert ax.get_title(loc="left") == ""
    assert len(fig.axes) == 1


def test_rerender_is_byte_identical():
    st = _stability(5)

    def svg():
        ax = rank_probabilities(st)
        buf = io.BytesIO()
        with mpl.rc_context({"svg.hashsalt": "cdplot", "svg.fonttype": "none"}):
            ax.figure.savefig(buf, format="svg", metadata={"Date": None})
        return buf.getvalue()

    assert svg() == svg()


@pytest.mark.parametrize(
    ("p", "text"),
    [(0.0, "0"), (1.0, "1"), (0.004, "<.01"), (0.996, ">.99"), (0.583, ".58"), (0.005, ".01")],
)
def test_cell_text(p, text):
    assert cell_text(p) == text


def test_refuses_what_is_not_a_stability_result():
    res = cdplot.compare(cdplot.load_example("demsar2006"))
    with pytest.raises(CdplotError, match="draws the StabilityResult") as info:
        rank_probabilities(res)
    assert "\n" not in str(info.value)
    st = _stability(3)
    with pytest.raises(CdplotError, match="annotate"):
        rank_probabilities(st, annotate="yes")
    with pytest.raises(CdplotError, match="mesh_kws"):
        rank_probabilities(st, mesh_kws=[1])
