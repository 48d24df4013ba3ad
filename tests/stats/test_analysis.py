"""analyse(): one entry point for one metric or several (cdplot/stats/_analysis.py)."""

import numpy as np
import pytest

import cdplot
from cdplot.errors import CdplotError
from cdplot.io import ScoreTable
from cdplot.stats._analysis import analyse, analyse_pairs, methods_differ, metrics_comparison
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
    assert isinstance(got, tuple)
    assert [r.metric for r in got] == ["acc", "f1"]
    assert methods_differ(got) == "metric 'f1' lacks 'z' and adds 'w' compared with metric 'acc'"
    assert metrics_comparison(got) is None
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
