"""Tests of the Bayesian figures (cdplot/plot/_bayesian.py): artists, SVG text, re-renders."""

import xml.etree.ElementTree as ET

import matplotlib as mpl
import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from cdplot.errors import CdplotError
from cdplot.plot._bayesian import posterior_density, posterior_simplex
from cdplot.plot._save import render_svg
from cdplot.stats._bayesian import bayesian_correlated_ttest, bayesian_signed_rank

A10 = [0.81, 0.84, 0.79, 0.86, 0.83, 0.80, 0.85, 0.82, 0.84, 0.81]
B10 = [0.78, 0.80, 0.80, 0.82, 0.79, 0.79, 0.81, 0.80, 0.81, 0.77]


@pytest.fixture
def ttest():
    return bayesian_correlated_ttest(A10, B10, rope=0.01, methods=("svm", "tree"))


@pytest.fixture
def signed_rank(c45):
    return bayesian_signed_rank(
        c45.values[:, 3],
        c45.values[:, 2],
        rope=0.01,
        n_samples=3000,
        methods=("C4.5+m+cf", "C4.5+cf"),
    )


def _texts(svg):
    root = ET.fromstring(svg)
    return ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]


def test_density_artists_and_legend(ttest):
    ax = posterior_density(ttest)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["svm better: 0.977", "rope ±0.01: 0.022", "tree better: 0.000"]
    (line,) = [ln for ln in ax.lines if len(ln.get_xdata()) > 2]
    x, y = line.get_data()
    np.testing.assert_allclose(y, ttest.pdf(x))  # draws the result's density, not a new one
    # the rope is marked at -rope and +rope
    edges = sorted(
        ln.get_xdata()[0]
        for ln in ax.lines
        if len(ln.get_xdata()) == 2 and ln.get_linestyle() == "-"
    )
    assert edges == pytest.approx([-0.01, 0.01])
    assert ax.get_xlabel() == "mean difference svm − tree"


def test_density_svg_text_and_byte_identical(ttest):
    svg1 = render_svg(posterior_density(ttest))
    svg2 = render_svg(posterior_density(ttest))
    assert svg1 == svg2
    texts = _texts(svg1)
    assert "svm better: 0.977" in texts
    assert "mean difference svm − tree" in texts


def test_density_lower_is_better_label():
    r = bayesian_correlated_ttest(A10, B10, rope=0.0, methods=("a", "b"), higher_is_better=False)
    ax = posterior_density(r)
    assert ax.get_xlabel() == "mean difference b − a"
    # rope 0: two regions only
    assert len(ax.get_legend().get_texts()) == 2


def test_simplex_points_and_labels(signed_rank):
    ax = posterior_simplex(signed_rank, max_points=1000)
    pts = ax.collections[0].get_offsets()
    assert len(pts) == 1000
    s = signed_rank.samples[:1000]
    np.testing.assert_allclose(pts[:, 0], s[:, 0] + 0.5 * s[:, 1])
    np.testing.assert_allclose(pts[:, 1], np.sqrt(3) / 2 * s[:, 1])
    texts = [t.get_text() for t in ax.texts]
    assert f"C4.5+m+cf better\np = {signed_rank.p_a_better:.3f}" in texts
    assert any(t.startswith("rope (±0.01)") for t in texts)


def test_simplex_labels_do_not_overlap(signed_rank):
    ax = posterior_simplex(signed_rank)
    fig = ax.figure
    renderer = fig.canvas.get_renderer()
    boxes = [t.get_window_extent(renderer) for t in ax.texts]
    for i in range(len(boxes)):
        for j in range(i + 1, len(boxes)):
            assert not boxes[i].overlaps(boxes[j])


def test_given_ax_and_rcparams_untouched(ttest, signed_rank):
    keys = ("font.family", "font.size", "svg.fonttype", "axes.linewidth", "legend.fontsize")
    before = {k: mpl.rcParams[k] for k in keys}
    fig = Figure(figsize=(6, 3))
    FigureCanvasAgg(fig)
    ax1, ax2 = fig.subplots(1, 2)
    assert posterior_density(ttest, ax=ax1, style="slides") is ax1
    assert posterior_simplex(signed_rank, ax=ax2, font="serif") is ax2
    assert {k: mpl.rcParams[k] for k in keys} == before


def test_wrong_result_and_options(ttest, signed_rank):
    with pytest.raises(CdplotError, match="draws a BayesianTTestResult"):
        posterior_density(signed_rank)
    with pytest.raises(CdplotError, match="draws a BayesianSignedRankResult"):
        posterior_simplex(ttest)
    with pytest.raises(CdplotError, match="option style='poster'"):
        posterior_density(ttest, style="poster")
    with pytest.raises(CdplotError, match="max_points=0"):
        posterior_simplex(signed_rank, max_points=0)
    with pytest.raises(CdplotError, match="option ax="):
        posterior_density(ttest, ax="nope")
