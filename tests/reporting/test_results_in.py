"""What report() and render_html() accept: results as they are, or scores they analyse once."""

import html
import inspect
import re

import numpy as np
import pytest

import cdplot
from cdplot.errors import CdplotError
from cdplot.io import ScoreTable
from cdplot.reporting import _render as render_module
from cdplot.reporting import render_html, report
from cdplot.reporting._format import fmt_p
from cdplot.stats import analyse_pairs
from cdplot.stats._pair import compare_pair
from cdplot.stats._parametric import compare_auto


def _text(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


@pytest.fixture(scope="module")
def parametric():
    # normal scores with a data-set effect and clear differences in mean: compare_auto
    # takes the parametric path (asserted below, so that the fixture cannot drift)
    rng = np.random.default_rng(0)
    x = rng.normal(size=(20, 5)) + np.array([0, 0.2, 0.5, 1.0, 1.1]) + rng.normal(size=(20, 1))
    auto = compare_auto(x, methods=list("ABCDE"))
    assert auto.path == "parametric"
    return auto


def test_report_and_render_html_share_one_signature():
    rep = inspect.signature(report).parameters
    ren = inspect.signature(render_html).parameters
    shared = set(rep) - {"path", "format", "progress"}
    assert shared <= set(ren)
    assert set(ren) - set(rep) == {"embed_fonts"}
    assert not any(p.kind is p.VAR_KEYWORD for p in ren.values())
    # the analysis options come in one mapping, checked against the analysis' keywords,
    # whose vocabulary is _options.py's: the Wilcoxon null distribution is scipy's method=
    assert "compare_kws" in rep
    analysis = inspect.signature(render_module.analyse).parameters
    assert "method" in analysis
    assert "distribution" not in analysis


@pytest.mark.parametrize(
    "make",
    [
        lambda: cdplot.compare(cdplot.load_example("demsar2006")),
        lambda: cdplot.compare_metrics(cdplot.load_example("yang-table9")),
        lambda: compare_auto(cdplot.load_example("demsar2006")),
        lambda: [cdplot.compare(cdplot.load_example("demsar2006"))],
    ],
    ids=["comparison", "metrics", "auto", "list"],
)
def test_analysis_options_with_a_result_are_refused(make):
    with pytest.raises(
        CdplotError,
        match=r"^option test='sign' \(in compare_kws\) applies when the report analyses",
    ):
        render_html(make(), compare_kws={"test": "sign"}, embed_fonts=False)


def test_scores_are_analysed_by_the_one_analysis_function(monkeypatch):
    calls = []
    real = render_module.analyse

    def recording(*args, **kwargs):
        calls.append(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(render_module, "analyse", recording)
    page = render_html(
        cdplot.load_example("demsar2006"),
        compare_kws={"test": "bonferroni-dunn", "method": "exact"},
    )
    assert calls == [{"test": "bonferroni-dunn", "method": "exact"}]
    assert "Bonferroni" in _text(page)


def test_test_auto_names_compare_auto():
    with pytest.raises(CdplotError, match="run compare_auto"):
        render_html(cdplot.load_example("demsar2006"), compare_kws={"test": "auto"})


def test_metrics_with_different_methods_get_sections_and_the_reason(rng):
    def table(methods, metric):
        return ScoreTable(
            values=rng.random((10, 3)),
            methods=tuple(methods),
            datasets=tuple(f"d{i}" for i in range(10)),
            metric=metric,
        )

    data = [table(["x", "y", "z"], "acc"), table(["x", "y", "w"], "f1")]
    for given in (data, [cdplot.compare(t) for t in data]):
        text = _text(render_html(given, embed_fonts=False))
        assert (
            "The metrics are not compared with each other because metric 'f1' lacks 'z' and "
            "adds 'w' compared with metric 'acc'"
        ) in text
        assert "Kendall" not in text


def test_nonparametric_auto_result_states_the_choice_then_the_analysis():
    auto = compare_auto(cdplot.load_example("demsar2006"))
    assert auto.path == "nonparametric"
    text = _text(render_html(auto, embed_fonts=False))
    assert "Choice of analysis" in text
    # the reason, with its Shapiro-Wilk numbers, then the rank-based analysis as usual
    assert f"W = {auto.normality.statistic:.4f}" in text
    assert text.index("Choice of analysis") < text.index("Omnibus tests")
    assert "CD = 1.2536" in text
    assert "Herbold, 2020" in text
    assert "Shapiro and Wilk, 1965" in text


def test_parametric_auto_result_shows_anova_and_tukey(parametric):
    a = parametric.analysis
    page = render_html(parametric, embed_fonts=False)
    text = _text(page)
    assert "Repeated-measures ANOVA with Tukey's HSD was chosen" in text
    assert f"{a.statistic:.4f}" in text
    assert f"{a.dof[0]}, {a.dof[1]}" in text
    # the summary counts the separated pairs (the table lists them) instead of a wall of names
    n_sig = len(a.tukey.significant_pairs())
    assert f"finds {n_sig} of the 10 pairs of methods significantly different" in text
    assert "is significantly better than" not in text
    # every pair of 5 methods is listed with Tukey's adjusted p-value
    t = a.tukey
    rows = re.findall(r'<table class="stats-table tukey-pairs">(.*?)</table>', page, re.S)
    assert len(rows) == 1
    body = rows[0]
    assert body.count("<tr") == 1 + 10
    for i in range(5):
        for j in range(i + 1, 5):
            assert fmt_p(t.pvalues[i, j]) in body
    # no rank-based section: there are no ranks on this path
    assert "Omnibus tests" not in text
    assert "Average rank" not in text
    assert "Tukey, 1949" in text
    assert "Greenhouse and Geisser, 1959" in text
    assert 'id="metric-1-fig-heatmap"' in page


def test_parametric_report_writes_a_pdf(parametric, tmp_path):
    out = report(parametric, tmp_path / "auto.pdf", date="2026-01-01")
    assert out.read_bytes()[:5] == b"%PDF-"


def test_pairs_given_as_results(tmp_path):
    res = cdplot.compare(cdplot.load_example("demsar2006"))
    pr = compare_pair(res.scores, methods=("C4.5+m", "C4.5"))
    text = _text(render_html(res, pairs=[pr], embed_fonts=False))
    assert "C4.5+m versus C4.5" in text
    assert "R+ = 93, R\u2212 = 12" in text


def test_pair_of_a_metric_goes_to_its_section():
    mc = cdplot.compare_metrics(cdplot.load_example("yang-table9"))
    r = mc.result("AUC")
    a, b = r.methods[:2]
    pr = compare_pair(r.scores, methods=(a, b))
    page = render_html(mc, pairs=[pr], embed_fonts=False)
    assert page.count(f"{a} versus {b}") == 1
    auc = mc.metrics.index("AUC") + 1
    assert f'id="metric-{auc}-pair-1"' in page


def test_undefined_paired_t_test_is_explained_not_raised():
    # A beats B by exactly 1 on every data set: the differences have no variance and the
    # paired t statistic is undefined (issue 11: this raised TypeError)
    x = np.array([[8, 7, 5], [9, 8, 6], [7, 6, 6.5], [6, 5, 5.5], [8.5, 7.5, 4]])
    res = cdplot.compare(x, methods=["A", "B", "C"])
    text = _text(render_html(res, pairs=analyse_pairs(res, [("A", "B")]), embed_fonts=False))
    assert "A versus B" in text
    assert "undefined: the difference is 1 on every data set, so its variance is zero" in text


def test_a_pair_result_alone_is_pointed_to_pairs():
    pr = compare_pair(cdplot.load_example("demsar2006"), methods=("C4.5+m", "C4.5"))
    for given in (pr, [pr]):
        with pytest.raises(
            CdplotError, match=r"pass it as report\(result, pairs=\[pair_result\]\)"
        ):
            render_html(given)


def test_many_tukey_pairs_list_the_strongest_and_point_to_the_rest():
    # 30 methods with well-separated means: hundreds of significant pairs; the table keeps
    # the 20 smallest p-values and says where the others are
    rng = np.random.default_rng(3)
    x = np.linspace(1.0, 0.0, 30)[None, :] + rng.normal(0, 0.05, (40, 30))
    auto = compare_auto(x, methods=[f"method {i:02d}" for i in range(30)])
    assert auto.path == "parametric"
    n_sig = len(auto.analysis.tukey.significant_pairs())
    assert n_sig > 20
    page = render_html(auto, embed_fonts=False)
    assert page.count('<tr class="significant">') == 20
    text = _text(page)
    assert f"{n_sig - 20} more significant pairs are not listed here" in text


def test_a_users_own_posthoc_test_is_refused_in_words(tmp_path):
    # a result of cdplot.from_posthoc was taken for raw scores ("scores of type ... are not
    # understood"); it is refused for what it is, with what to do instead
    res = cdplot.compare(cdplot.load_example("demsar2006"))
    ranks = dict(zip(res.methods, res.average_ranks, strict=True))
    own = cdplot.from_posthoc(ranks, res.pvalues, test="X")
    with pytest.raises(cdplot.CdplotError, match="PosthocComparison holds p-values") as info:
        cdplot.report(own, tmp_path / "r.html")
    assert "cd_diagram" in str(info.value)
    assert "\n" not in str(info.value)
    assert list(tmp_path.iterdir()) == []
