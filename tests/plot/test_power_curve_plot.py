"""Tests of cdplot.plot._power_curve: the lines, bars and labels drawn."""

import numpy as np
import pytest

import cdplot
from cdplot.errors import CdplotError
from cdplot.plot import power_curve


@pytest.fixture(scope="module")
def curve():
    return cdplot.simulate_power_curve(
        shift=[0.0, 0.2, 0.6, 1.2], n_datasets=[5, 10, 20, 40], n_simulations=400, rng=0
    )


def _line(ax, gid):
    (line,) = [ln for ln in ax.lines if ln.get_gid() == gid]
    return line


def test_draws_the_omnibus_and_the_pairs_at_their_values(curve):
    ax = power_curve(curve, pairs=[("method 1", "method 4"), ("method 2", "method 3")])
    omni = _line(ax, "pc-omnibus")
    np.testing.assert_array_equal(omni.get_xdata(), [5, 10, 20, 40])
    np.testing.assert_allclose(omni.get_ydata(), curve.iman_davenport_power)
    np.testing.assert_allclose(
        _line(ax, "pc-pair-0").get_ydata(), curve.power("method 1", "method 4")
    )
    np.testing.assert_allclose(
        _line(ax, "pc-pair-1").get_ydata(), curve.power("method 2", "method 3")
    )
    assert _line(ax, "pc-target").get_ydata()[0] == 0.8
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == [
        "Iman-Davenport (omnibus)",
        "Nemenyi: method 1 vs method 4",
        "Nemenyi: method 2 vs method 3",
    ]
    assert "95% Monte-Carlo error" in ax.get_legend().get_title().get_text()
    assert ax.get_xlabel() == "number of data sets N"


def test_error_bars_are_the_monte_carlo_band(curve):
    ax = power_curve(curve, pairs=[("method 1", "method 4")], target=None)
    # the vertical bars of the pair: a LineCollection of 1.96 standard errors each side
    bars = [c for c in ax.collections if len(c.get_segments()) == 4]
    se = curve.se("method 1", "method 4")
    half = [abs(seg[1][1] - seg[0][1]) / 2 for seg in bars[-1].get_segments()]
    np.testing.assert_allclose(half, 1.959963984540054 * se, atol=1e-12)
    assert not [ln for ln in ax.lines if ln.get_gid() == "pc-target"]


def test_default_pairs_are_the_strongest(curve):
    ax = power_curve(curve)
    labels = [t.get_text() for t in ax.get_legend().get_texts()][1:]
    assert labels == [f"Nemenyi: {a} vs {b}" for a, b in curve.strongest_pairs(4)]


def test_legend_and_labels_stay_inside_the_figure(curve):
    ax = power_curve(curve)
    fig = ax.figure
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    for artist in [ax.get_legend(), ax.xaxis.label, ax.yaxis.label]:
        box = artist.get_window_extent(r)
        assert box.x0 >= fig.bbox.x0 - 0.5
        assert box.x1 <= fig.bbox.x1 + 0.5
        assert box.y1 <= fig.bbox.y1 + 0.5


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"pairs": [("method 1", "nope")]}, "unknown method"),
        ({"target": 1.5}, "target"),
        ({"pairs": [("a",)]}, "pairs"),
    ],
)
def test_bad_options(curve, kwargs, match):
    with pytest.raises(CdplotError, match=match):
        power_curve(curve, **kwargs)


def test_refuses_other_results():
    res = cdplot.simulate_power(shift=[0, 1], n_datasets=5, n_simulations=10)
    with pytest.raises(CdplotError, match="PowerCurveResult"):
        power_curve(res)


def test_saved_figure_has_no_blank_band_above_the_legend(tmp_path):
    # save_figure measured the figure before constrained layout ran, saw the legend
    # sticking out above and grew the saved area by a blank band
    from matplotlib.image import imread

    curve = cdplot.simulate_power_curve(shift=[0, 0.5, 1], n_datasets=[5, 10], n_simulations=50)
    ax = cdplot.power_curve(curve)
    width, height = ax.figure.get_size_inches()
    out = cdplot.save_figure(ax, tmp_path / "power.png", dpi=50)
    rows, cols = imread(out).shape[:2]
    assert (rows, cols) == (round(height * 50), round(width * 50))
