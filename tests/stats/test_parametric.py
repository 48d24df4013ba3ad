"""Tests of ANOVA, Tukey's HSD, the assumption checks and test='auto' (cdplot/stats/_parametric.py).

Sources:
- a three-group one-way ANOVA tutorial example (groups A, B, C of 5 scores; no
  published paper): scipy 1.17 ``f_oneway(A, B, C)`` prints
  F = 7.137827822120864, p = 0.009073317468563076, and statsmodels
  ``pairwise_tukeyhsd(endog=scores, groups=groups, alpha=0.05)`` prints the Tukey table.
- statsmodels 0.15.0 ``pairwise_tukeyhsd`` on the same data (literals below).
- statsmodels 0.15.0 ``AnovaRM(df, 'auc', 'dataset', within=['method']).fit()`` and
  pingouin 0.7.0 ``rm_anova(df, dv='auc', within='method', subject='dataset',
  correction=True)`` / ``sphericity(...)`` on Demsar's Table 6 (printed AUCs, long format).
"""

import json

import numpy as np
import pytest
from scipy import stats

import cdplot
from cdplot.errors import CdplotError
from cdplot.stats._parametric import (
    AutoResult,
    anova_oneway,
    compare_auto,
    mauchly,
    rm_anova,
    shapiro_residuals,
)
from cdplot.stats._results import ComparisonResult

A = [24.5, 23.5, 26.4, 27.1, 29.9]
B = [28.4, 34.2, 29.5, 32.2, 30.1]
C = [26.1, 28.3, 24.3, 26.2, 27.8]


def test_seed_000_oneway_anova():
    r = anova_oneway(A, B, C, methods=["A", "B", "C"])
    assert r.statistic == pytest.approx(7.137827822120864, rel=1e-12)
    assert r.pvalue == pytest.approx(0.009073317468563076, rel=1e-9)
    assert r.dof == (2, 12)
    assert round(r.statistic, 3) == 7.138
    assert round(r.pvalue, 4) == 0.0091


# statsmodels 0.15.0 pairwise_tukeyhsd: (group1, group2, meandiff, p-adj, lower, upper, reject)
STATSMODELS_015 = [
    ("A", "B", 4.6, 0.01444833, 0.9508, 8.2492, True),
    ("A", "C", 0.26, 0.98031072, -3.3892, 3.9092, False),
    ("B", "C", -4.34, 0.02033114, -7.9892, -0.6908, True),
]
# as an older statsmodels printed it for the tutorial example (q interpolated from a table)
SEED_000_PRINTED = [
    ("A", "B", 4.6, 0.0144, 0.9526, 8.2474, True),
    ("A", "C", 0.26, 0.9, -3.3874, 3.9074, False),
    ("B", "C", -4.34, 0.0203, -7.9874, -0.6926, True),
]


def test_tukey_against_statsmodels_015():
    r = anova_oneway(A, B, C, methods=["A", "B", "C"])
    pairs = r.tukey.to_dict()["pairs"]
    for got, (g1, g2, diff, p, lo, hi, rej) in zip(pairs, STATSMODELS_015, strict=False):
        assert (got["group1"], got["group2"]) == (g1, g2)
        assert got["meandiff"] == pytest.approx(diff, abs=5e-13)
        assert got["pvalue"] == pytest.approx(p, abs=5e-9)
        assert got["lower"] == pytest.approx(lo, abs=5e-5)
        assert got["upper"] == pytest.approx(hi, abs=5e-5)
        assert got["reject"] is rej


def test_tukey_intervals_as_printed_in_seed_000():
    # The seed's intervals came from a statsmodels that interpolated the studentized
    # range quantile from a table (q = 3.7725 instead of the exact 3.7734 for k = 3,
    # df = 12), so they agree to 0.002, not to the printed 4 decimals; its p-value
    # "0.9" for A-C is that table's upper cap (the exact value is 0.9803).
    r = anova_oneway(A, B, C, methods=["A", "B", "C"])
    for got, (_g1, _g2, _diff, p, lo, hi, rej) in zip(
        r.tukey.to_dict()["pairs"], SEED_000_PRINTED, strict=False
    ):
        assert got["lower"] == pytest.approx(lo, abs=0.002)
        assert got["upper"] == pytest.approx(hi, abs=0.002)
        assert got["reject"] is rej
        if p < 0.9:
            assert got["pvalue"] == pytest.approx(p, abs=5e-5)
        else:
            assert got["pvalue"] > 0.9
    assert r.tukey.significant_pairs() == (("B", "A"), ("B", "C"))


def test_tukey_matches_scipy_tukey_hsd():
    # scipy 1.17: stats.tukey_hsd(A, B, C) -- statistic[i, j] = mean_i - mean_j
    ref = stats.tukey_hsd(A, B, C)
    t = anova_oneway(A, B, C).tukey
    np.testing.assert_allclose(t.mean_differences, ref.statistic, atol=1e-12)
    off = ~np.eye(3, dtype=bool)
    np.testing.assert_allclose(t.pvalues[off], ref.pvalue[off], rtol=1e-6)
    low, high = t.confidence_interval(0.95)
    ci = ref.confidence_interval(0.95)
    np.testing.assert_allclose(low[off], ci.low[off], rtol=1e-8)
    np.testing.assert_allclose(high[off], ci.high[off], rtol=1e-8)


def test_rm_anova_demsar_table6_against_statsmodels_and_pingouin(c45):
    r = rm_anova(c45)
    # statsmodels 0.15.0 AnovaRM: F = 4.44718033, (3, 39), p = 8.81771719e-03
    assert r.statistic == pytest.approx(4.44718033, abs=5e-9)
    assert r.pvalue == pytest.approx(8.81771719e-03, abs=5e-11)
    assert r.dof == (3, 39)
    # pingouin 0.7.0 rm_anova(correction=True): eps = 0.762804, p_GG_corr = 0.016765
    assert r.sphericity.epsilon == pytest.approx(0.762804, abs=5e-7)
    assert r.pvalue_gg == pytest.approx(0.016765, abs=5e-7)
    # pingouin 0.7.0 sphericity: W = 0.46426413709808906, chi2 = 8.99448019179647, dof 5,
    # pval = 0.11040975236004577 (the same as R's mauchly.test)
    assert r.sphericity.statistic == pytest.approx(0.46426413709808906, rel=1e-10)
    assert r.sphericity.chi2 == pytest.approx(8.99448019179647, rel=1e-10)
    assert r.sphericity.dof == 5
    assert r.sphericity.pvalue == pytest.approx(0.11040975236004577, rel=1e-8)


def test_mauchly_random_data_against_pingouin():
    # pingouin 0.7.0: sphericity(pd.DataFrame(default_rng(1).standard_normal((10, 5))))
    # -> W = 0.44050357266370643, chi2 = 6.0804556968070695, dof 9, pval = 0.7390734561362525
    x = np.random.default_rng(1).standard_normal((10, 5))
    m = mauchly(x)
    assert m.statistic == pytest.approx(0.44050357266370643, rel=1e-10)
    assert m.chi2 == pytest.approx(6.0804556968070695, rel=1e-10)
    assert m.pvalue == pytest.approx(0.7390734561362525, rel=1e-8)
    # pingouin 0.7.0 rm_anova on the same data: eps = 0.765804, F = 0.263362, p = 0.899517
    assert m.epsilon == pytest.approx(0.765804, abs=5e-7)
    r = rm_anova(x)
    assert r.statistic == pytest.approx(0.263362, abs=5e-7)
    assert r.pvalue == pytest.approx(0.899517, abs=5e-7)


def test_mauchly_two_methods_and_too_few_datasets():
    m = mauchly(np.random.default_rng(0).standard_normal((6, 2)))
    assert m.pvalue == 1.0
    assert m.dof == 0
    assert not m.rejected
    few = mauchly(np.random.default_rng(0).standard_normal((3, 5)))
    assert not few.testable
    assert "too few" in few.note


def test_rm_tukey_uses_the_anova_error_term(c45):
    # Demsar 2006, section 3.2.1: Tukey's test with the standard error from ANOVA
    r = rm_anova(c45)
    x = c45.values
    n, k = x.shape
    assert r.tukey.standard_error == pytest.approx(np.sqrt(r.ms_error / n))
    q = abs(x[:, 3].mean() - x[:, 0].mean()) / r.tukey.standard_error
    assert r.tukey.pvalues[0, 3] == pytest.approx(stats.studentized_range.sf(q, k, 39), rel=1e-9)


def test_shapiro_on_residuals(c45):
    x = c45.values
    res = x - x.mean(1, keepdims=True) - x.mean(0, keepdims=True) + x.mean()
    ref = stats.shapiro(res.ravel())
    s = shapiro_residuals(x)
    assert s.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert s.pvalue == pytest.approx(ref.pvalue, rel=1e-9)
    assert s.rejected  # p = 0.033 on the printed AUCs


def test_compare_refuses_auto_and_points_to_compare_auto(c45):
    # compare always returns a ComparisonResult; the choice has its own entry point
    with pytest.raises(CdplotError, match=r"test='auto'.*use compare_auto"):
        cdplot.compare(c45, test="auto")


def test_auto_on_demsar_takes_the_rank_path(c45):
    r = compare_auto(c45)
    assert isinstance(r, AutoResult)
    assert r.path == "nonparametric"
    assert isinstance(r.analysis, ComparisonResult)
    assert r.analysis.test == "nemenyi"
    assert "Shapiro-Wilk test rejects normality" in r.reason
    json.dumps(r.to_dict())


def test_auto_takes_the_parametric_path_when_checks_pass():
    # Yang, Table 9, 5CV error rates of LDA, C4.5 and NN on five UCI data sets
    r = compare_auto(cdplot.load_example("yang-table9")[0])
    assert r.path == "parametric"
    assert r.analysis.design == "repeated-measures"
    assert "Repeated-measures ANOVA with Tukey's HSD was chosen" in r.reason
    assert r.metric == "5CV"
    assert "Tukey's HSD" in str(r)


def test_auto_rejects_sphericity():
    # Methods whose differences have very unequal variances across data sets
    rng = np.random.default_rng(5)
    base = rng.standard_normal(30)
    x = np.column_stack(
        [base, base + 0.01 * rng.standard_normal(30), base + 3 * rng.standard_normal(30)]
    )
    m = mauchly(x)
    assert m.rejected
    r = compare_auto(x, methods=["a", "b", "c"], datasets=[f"d{i}" for i in range(30)])
    assert r.path == "nonparametric"
    assert "sphericity" in r.reason


def test_auto_control_and_correction_reach_the_rank_path(c45):
    r = compare_auto(c45, control="C4.5")
    assert r.analysis.test == "bonferroni-dunn"
    r = compare_auto(c45, correction="holm")
    assert r.analysis.test == "friedman-z"
    with pytest.raises(CdplotError, match="control='nope' is not a method"):
        compare_auto(c45, control="nope")


def test_errors():
    with pytest.raises(CdplotError, match="at least 2 groups"):
        anova_oneway(A)
    with pytest.raises(CdplotError, match="within-group variance is zero"):
        anova_oneway([1, 1], [2, 2])
    with pytest.raises(CdplotError, match="group 'B' is empty"):
        anova_oneway(A, [])
    x = np.array([[0.8, 0.7, 0.6], [0.9, 0.8, 0.7], [0.5, 0.4, 0.3]])
    with pytest.raises(CdplotError, match="error variance is zero"):
        rm_anova(x, methods=["a", "b", "c"], datasets=["d1", "d2", "d3"])
    with pytest.raises(CdplotError, match="residuals of the ANOVA model are all zero"):
        shapiro_residuals(x)


def test_words_and_dict(c45):
    r = rm_anova(c45)
    text = str(r)
    assert "F(3, 39) = 4.4472, p = 0.0088" in text
    assert "C4.5+m+cf is significantly better than C4.5" in text
    d = json.loads(json.dumps(r.to_dict()))
    assert d["design"] == "repeated-measures"
    assert d["sphericity"]["dof"] == 5


@pytest.mark.parametrize(
    ("example", "path"),
    [
        pytest.param("demsar2006", "nonparametric", id="demsar2006-rank-path"),
        pytest.param("yang-table9", "parametric", id="yang-table9-anova-path"),
    ],
)
def test_auto_control_with_correction_behaves_alike_on_both_paths(example, path):
    # Issue 13 item 2: the rank path used to force Bonferroni-Dunn, which refused
    # the correction, while the ANOVA path accepted it.
    table = cdplot.load_example(example)[0]
    control = table.methods[0]
    r = compare_auto(table, control=control, correction="holm")
    assert r.path == path
    if path == "nonparametric":
        assert r.analysis.test == "friedman-z"
        assert r.analysis.control == control
        assert r.analysis.correction == "holm"
    else:
        assert any("correction='holm' was not used" in n for n in r.analysis.notes)
        assert any(f"the control {control} was not used" in n for n in r.analysis.notes)
    # corrections that need all pairs are refused on both paths, with compare's message
    with pytest.raises(CdplotError) as auto_err:
        compare_auto(table, control=control, correction="shaffer")
    with pytest.raises(CdplotError) as rank_err:
        cdplot.compare(table, test="friedman-z", control=control, correction="shaffer")
    assert str(auto_err.value) == str(rank_err.value)
    with pytest.raises(CdplotError, match="correction='nope'"):
        compare_auto(table, correction="nope")


@pytest.mark.parametrize("sizes", [(3, 3, 40, 40), (5, 8, 13), (2, 30), (4, 4, 4, 9, 20)])
def test_tukey_kramer_matches_scipy_tukey_hsd_on_unequal_sizes(rng, sizes):
    # Issue 13 item 3: the harmonic mean of the sizes gave p-values off by up to
    # 0.32 from scipy's Tukey-Kramer.  Peer: scipy 1.17 stats.tukey_hsd(*groups).
    groups = [rng.normal(loc=0.3 * i, size=n) for i, n in enumerate(sizes)]
    ref = stats.tukey_hsd(*groups)
    r = anova_oneway(*groups)
    t = r.tukey
    off = ~np.eye(len(sizes), dtype=bool)
    np.testing.assert_allclose(t.mean_differences, ref.statistic, atol=1e-12)
    np.testing.assert_allclose(t.pvalues[off], ref.pvalue[off], rtol=1e-6, atol=1e-12)
    low, high = t.confidence_interval(0.95)
    ci = ref.confidence_interval(0.95)
    np.testing.assert_allclose(low[off], ci.low[off], rtol=1e-8)
    np.testing.assert_allclose(high[off], ci.high[off], rtol=1e-8)
    assert t.kramer
    assert "Tukey-Kramer" in r.conclusion()
    d = r.to_dict()
    assert d["tukey"]["standard_error"] is None
    assert d["tukey"]["pairs"][0]["standard_error"] == pytest.approx(t.standard_errors[0, 1])


def test_anova_refuses_scores_whose_squares_overflow():
    # Issue 14: F came out nan for finite scores near 1e308
    big = np.array([1.7e308, 1.6e308, 1.5e308, 1.75e308, 1.2e308])
    with pytest.raises(CdplotError, match=r"one-way ANOVA: scores as large as 1.75e\+308"):
        anova_oneway(big, -big, big / 2)
    table = np.column_stack([big, -big, big * 0.9])
    with pytest.raises(CdplotError, match="repeated-measures ANOVA: scores as large"):
        rm_anova(table)
    r = compare_auto(table)
    assert r.path == "nonparametric"
    assert "make ANOVA's sums of squares overflow" in r.reason
    # ordinary scores are not scaled: bit-identical to before
    assert anova_oneway(A, B, C).statistic == anova_oneway(A, B, C).statistic
