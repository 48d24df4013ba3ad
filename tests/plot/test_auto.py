"""Figures of compare_auto results (cdplot/plot/_auto.py): the chosen analysis, drawn honestly."""

import numpy as np
import pytest
from svg_checks import svg_root, svg_texts

import cdplot
from cdplot.errors import CdplotError
from cdplot.plot._heatmap import format_p, significance_levels
from cdplot.stats._parametric import compare_auto


@pytest.fixture(scope="module")
def parametric():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(20, 5)) + np.array([0, 0.2, 0.5, 1.0, 1.1]) + rng.normal(size=(20, 1))
    auto = compare_auto(x, methods=list("ABCDE"))
    assert auto.path == "parametric"
    return auto


@pytest.fixture(scope="module")
def nonparametric():
    auto = compare_auto(cdplot.load_example("demsar2006"))
    assert auto.path == "nonparametric"
    return auto


@pytest.mark.parametrize("chart", ["cd_diagram", "rank_intervals", "significance_heatmap"])
def test_rank_based_path_draws_its_comparison(nonparametric, chart):
    draw = getattr(cdplot, chart)
    got = svg_texts(svg_root(draw(nonparametric)))
    want = svg_texts(svg_root(draw(nonparametric.analysis)))
    assert got == want


@pytest.mark.parametrize("chart", ["cd_diagram", "rank_intervals"])
def test_parametric_path_names_the_chart_that_can_show_it(parametric, chart):
    with pytest.raises(CdplotError, match=rf"^{chart} draws average ranks.*significance_heatmap"):
        getattr(cdplot, chart)(parametric)


def test_parametric_heatmap_shows_tukey_p_values_in_mean_order(parametric):
    a = parametric.analysis
    ax = cdplot.significance_heatmap(parametric)
    order = [a.methods[i] for i in np.argsort(-np.asarray(a.means), kind="stable")]
    rows = [t.get_text() for t in ax.texts if t.get_gid() == "hm-row-label"]
    cols = [t.get_text() for t in ax.texts if t.get_gid() == "hm-col-label"]
    assert rows == order[1:]
    assert cols == order[:-1]
    levels = significance_levels(a.alpha)
    idx = {m: i for i, m in enumerate(a.methods)}
    want = sorted(
        format_p(float(a.tukey.pvalues[idx[r], idx[c]]), levels)
        for n, r in enumerate(order)
        for c in order[:n]
    )
    values = sorted(t.get_text() for t in ax.texts if t.get_gid() == "hm-value")
    assert values == want
    caption = " ".join(t.get_text() for t in ax.texts if t.get_gid() == "hm-caption")
    assert "Tukey's HSD" in caption
    assert "repeated-measures ANOVA rejects equal means" in caption


def test_analysis_options_with_an_auto_result_are_refused(parametric, nonparametric):
    match = r"option alpha=0.1 \(in compare_kws\) applies only to raw scores"
    with pytest.raises(CdplotError, match=match):
        cdplot.significance_heatmap(parametric, compare_kws={"alpha": 0.1})
    with pytest.raises(CdplotError, match=match):
        cdplot.cd_diagram(nonparametric, compare_kws={"alpha": 0.1})
