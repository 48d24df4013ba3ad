"""analyse(): one entry point for one metric or several (cdplot/stats/_analysis.py)."""

import numpy as np
import pytest

import cdplot
from cdplot.errors import CdplotError
from cdplot.io import ScoreTable
from cdplot.stats import SeparateAnalyses, relate_metrics
from cdplot.stats._analysis import analyse, analyse_pairs, methods_differ
from cdplot.stats._consistency import MetricsComparison
from cdplot.stats._pair import compare_pair
from cdplot.stats._results import ComparisonResult


def _table(values, methods, metric):
    values = np.asarray(values, dtype=float)
    return ScoreTable(
        values=values,
        methods=tuple(methods),
        datasets=tuple(f"d{i}" for i in range(values.shape[0])),
        metric=metric,
    )


def test_one_metric_gives_the_result_of_compare():
    data = cdplot.load_example("demsar2006")
    got = analyse(data)
    want = cdplot.compare(data)
    assert isinstance(got, ComparisonResult)
    np.testing.assert_array_equal(got.average_ranks, want.average_ranks)
    np.testing.assert_array_equal(got.pvalues, want.pvalues)
    assert got.iman_davenport.pvalue == want.iman_davenport.pvalue


def test_several_metrics_of_the_same_methods_give_a_metrics_comparison():
    data = cdplot.load_example("yang-table9")
    got = analyse(data)
    want = cdplot.compare_metrics(data)
    assert isinstance(got, MetricsComparison)
    assert got.metrics == want.metrics
    np.testing.assert_array_equal(got.tau, want.tau)


def test_metrics_of_different_methods_give_one_result_each(rng):
    a = _table(rng.random((8, 3)), ["x", "y", "z"], "acc")
    b = _table(rng.random((8, 3)), ["x", "y", "w"], "f1")
    got = analyse([a, b])
    assert isinstance(got, SeparateAnalyses)
    assert [r.metric for r in got.results] == ["acc", "f1"]
    reason = "metric 'f1' lacks 'z' and adds 'w' compared with metric 'acc'"
    assert methods_differ(got.results) == reason
    assert got.reason == reason
    assert isinstance(relate_metrics(got.results), SeparateAnalyses)
    # the decision is taken from the methods, whatever their column order
    c = _table(rng.random((8, 3)), ["z", "x", "y"], "f1")
    assert methods_differ(analyse([a, c]).results) is None


def test_options_reach_every_metric():
    data = cdplot.load_example("yang-table9")
    got = analyse(data, test="wilcoxon", correction="holm", alpha=0.1, method="exact")
    for r in got.results:
        assert r.test == "wilcoxon"
        assert r.correction == "holm"
        assert r.alpha == 0.1
    one = cdplot.compare(
        data, metric="AUC", test="wilcoxon", correction="holm", alpha=0.1, method="exact"
    )
    np.testing.assert_array_equal(got.result("AUC").pvalues, one.pvalues)


def test_metric_option_picks_one_metric():
    got = analyse(cdplot.load_example("yang-table9"), metric="AUC")
    assert isinstance(got, ComparisonResult)
    assert got.metric == "AUC"


def test_direction_per_metric():
    data = cdplot.load_example("yang-table9")
    got = analyse(data, higher_is_better={"AUC": False})
    assert got.result("AUC").higher_is_better is False
    assert got.result("F").higher_is_better is True


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"test": "auto"}, "run compare_auto"),
        ({"higher_is_better": {"nope": True}}, "higher_is_better has metric 'nope'"),
        ({"higher_is_better": "yes"}, "higher_is_better='yes'"),
        ({"test": "tukey"}, "option test='tukey'"),
    ],
)
def test_bad_options(kwargs, message):
    with pytest.raises(CdplotError, match=message):
        analyse(cdplot.load_example("yang-table9"), **kwargs)


def test_pairs_reuse_the_analysis_options():
    res = cdplot.compare(cdplot.load_example("demsar2006"), zero_method="zsplit")
    (pr,) = analyse_pairs(res, [("C4.5+m", "C4.5")])
    want = compare_pair(res.scores, methods=("C4.5+m", "C4.5"), zero_method="zsplit")
    assert pr.wilcoxon.pvalue == want.wilcoxon.pvalue
    # Demšar (2006) section 3.1.3: R+ = 93, R- = 12 for C4.5+m against C4.5
    assert (pr.wilcoxon.r_plus, pr.wilcoxon.r_minus) == (93, 12)
    with pytest.raises(CdplotError, match="'J48' is not in the data"):
        analyse_pairs(res, [("C4.5", "J48")])


def test_relate_metrics_compares_the_same_methods_and_keeps_one_as_it_is(rng):
    a = cdplot.compare(_table(rng.random((8, 3)), ["x", "y", "z"], "acc"))
    b = cdplot.compare(_table(rng.random((8, 3)), ["z", "x", "y"], "f1"))
    got = relate_metrics([a, b])
    assert isinstance(got, MetricsComparison)
    assert got.metrics == ("acc", "f1")
    assert relate_metrics([a]) is a


@pytest.mark.parametrize(
    ("items", "message"),
    [
        ([], "relate_metrics needs at least one ComparisonResult; got none"),
        (["acc"], "expected ComparisonResult objects; got str"),
    ],
    ids=["empty", "not-a-result"],
)
def test_relate_metrics_refuses(items, message):
    with pytest.raises(CdplotError, match=f"^{message}$"):
        relate_metrics(items)


def test_separate_analyses_say_why_in_words_and_json(rng):
    a = cdplot.compare(_table(rng.random((8, 3)), ["x", "y", "z"], "acc"))
    b = cdplot.compare(_table(rng.random((8, 3)), ["x", "y", "w"], "f1"))
    got = relate_metrics([a, b])
    assert got.sentence == (
        "The metrics are not compared with each other because metric 'f1' lacks 'z' and adds "
        "'w' compared with metric 'acc': their agreement needs the same methods under every "
        "metric."
    )
    text = str(got)
    assert text.startswith("Separate analyses of 2 metrics\n\nThe metrics are not compared")
    assert "\nacc: " in text
    assert "\nf1: " in text
    assert " ".join(text.split()).count(" ".join(got.sentence.split())) == 1
    assert repr(got).startswith("<SeparateAnalyses: 2 metrics analysed apart; metric 'f1'")
    d = got.to_dict()
    assert d["reason"] == got.reason
    assert [r["metric"] for r in d["results"]] == ["acc", "f1"]
    assert got == relate_metrics([a, b])
