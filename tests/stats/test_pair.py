"""Tests of the two-methods-over-many-data-sets comparison (cdplot/stats/_pair.py).

Sources: Demsar 2006, JMLR 7, Table 2 and section 3.1 (C4.5 vs C4.5+m on 14 data sets:
R+ = 93, R- = 12; "C4.5+m was better on 11 out of 14 data sets, counting one of the two
ties", significant by Table 3); scipy 1.17 ``wilcoxon(A, B, zero_method='zsplit')``
-> statistic 12.0, p = 0.01096849656422473; scipy 1.17 ``ttest_rel``; Demsar's Table 3
(critical counts of the sign test).
"""

import json

import numpy as np
import pytest
from scipy import stats

from cdplot.errors import CdplotError
from cdplot.io import as_score_tables
from cdplot.stats._pair import compare_pair, paired_ttest


def test_demsar_table2_wilcoxon_and_sign(c45):
    r = compare_pair(c45, methods=("C4.5+m", "C4.5"))
    assert (r.wilcoxon.r_plus, r.wilcoxon.r_minus) == (93.0, 12.0)
    assert r.wilcoxon.statistic == 12.0
    assert r.wilcoxon.pvalue == pytest.approx(0.01096849656422473, rel=1e-9)
    assert (r.wins, r.ties, r.losses) == (10, 2, 2)
    assert r.sign.statistic == 11  # counting one of the two ties, as Demsar does
    assert r.critical_wins == 11  # Demsar Table 3, N = 14, alpha = 0.05
    assert "C4.5+m is significantly better than C4.5" in r.conclusion()
    assert "reaches Demšar's critical count of 11" in r.conclusion()


def test_paired_t_is_scipy_ttest_rel(c45):
    ref = stats.ttest_rel(c45.values[:, 1], c45.values[:, 0])
    r = compare_pair(c45, methods=("C4.5+m", "C4.5")).ttest
    assert r.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert r.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
    assert r.dof == 13


def test_swapping_a_and_b_mirrors_everything(c45):
    ab = compare_pair(c45, methods=("C4.5+m", "C4.5"))
    ba = compare_pair(c45, methods=("C4.5", "C4.5+m"))
    assert (ba.wins, ba.ties, ba.losses) == (ab.losses, ab.ties, ab.wins)
    assert ba.wilcoxon.pvalue == pytest.approx(ab.wilcoxon.pvalue)
    assert ba.ttest.statistic == pytest.approx(-ab.ttest.statistic)
    assert "C4.5+m is significantly better than C4.5" in ba.conclusion()


def test_lower_is_better_flips_the_winner(c45):
    err = as_score_tables(1 - c45.values, methods=c45.methods, datasets=c45.datasets)[0]
    r = compare_pair(err, methods=("C4.5+m", "C4.5"), higher_is_better=False)
    assert (r.wins, r.ties, r.losses) == (10, 2, 2)
    assert "C4.5+m is significantly better than C4.5" in str(r)


def test_bayesian_part_with_rope(c45):
    r = compare_pair(c45, methods=("C4.5+m", "C4.5"), rope=0.01, n_samples=5000)
    assert r.bayes is not None
    assert r.bayes.rope == 0.01
    assert sum(r.bayes.probabilities) == pytest.approx(1.0)
    d = json.loads(json.dumps(r.to_dict()))
    assert d["bayes"]["p_b_better"] == 0.0
    assert d["sign"]["critical_wins"] == 11


def test_two_method_table_defaults_a_and_b():
    r = compare_pair(
        {"d1": {"x": 0.9, "y": 0.8}, "d2": {"x": 0.7, "y": 0.72}, "d3": {"x": 0.6, "y": 0.5}}
    )
    assert (r.method_a, r.method_b) == ("x", "y")
    assert any("exact sign test cannot reject at alpha = 0.05" in n for n in r.notes)


def test_zero_variance_is_explained_not_divided():
    # binary-exact steps, so that every difference is exactly 0.25
    x = np.array([0.5, 0.25, 0.75])
    with pytest.raises(CdplotError, match="difference is 0.25 on every data set: zero variance"):
        paired_ttest(x + 0.25, x)
    with pytest.raises(CdplotError, match="identical scores on every data set"):
        paired_ttest(x, x)


def test_constant_difference_in_compare_pair_gives_a_note():
    x = np.array([0.5, 0.25, 0.75, 0.125])
    r = compare_pair(
        np.column_stack([x + 0.25, x]), methods=["a", "b"], datasets=["d1", "d2", "d3", "d4"]
    )
    # undefined, not missing: a NaN statistic every output can show, and a note saying why
    assert np.isnan(r.ttest.statistic)
    assert np.isnan(r.ttest.pvalue)
    assert not r.ttest.defined
    assert r.ttest.mean_difference == pytest.approx(0.25)
    assert any("zero variance" in n for n in r.notes)
    assert "undefined" in str(r)
    d = json.loads(r.to_json())
    assert d["ttest"]["statistic"] is None
    assert "paired t-test is" not in r.conclusion()
    # names are data: a sentence that starts with one keeps its case
    assert "a wins on 4 of 4" in r.conclusion()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        pytest.param(
            {"methods": ("C4.5", "nope")},
            "methods= names 'nope'",
            id="unknown",
        ),
        pytest.param({"methods": ("C4.5", "C4.5")}, "names 'C4.5' twice", id="same"),
        pytest.param({}, "option methods is required with 4 methods", id="missing"),
        pytest.param({"methods": ("C4.5",)}, "exactly two methods", id="one"),
        pytest.param(
            {"methods": ("C4.5", "C4.5+m"), "rope": -1}, "rope=-1 must be", id="negative-rope"
        ),
        pytest.param(
            {"methods": ("C4.5", "C4.5+m"), "zero_method": "x"},
            "zero_method='x'",
            id="zero-method",
        ),
    ],
)
def test_bad_options(c45, kwargs, message):
    with pytest.raises(CdplotError, match=message):
        compare_pair(c45, **kwargs)


def _wins_everywhere(n):
    # A beats B on every one of n data sets
    return {f"d{i}": {"A": 0.9 + i / 1000, "B": 0.5 + i / 997} for i in range(n)}


@pytest.mark.parametrize(
    ("n", "alpha", "noted", "table3"),
    [
        # exact binomial: n wins of n give p = 2 / 2**n; Demšar's Table 3 (normal
        # approximation, alpha = 0.05) starts at N = 5 with 5 wins needed
        pytest.param(5, 0.05, True, True, id="demsar2006-table3-n5-exact-p0.0625"),
        pytest.param(4, 0.05, True, True, id="n4-approx-4-wins"),
        pytest.param(3, 0.05, True, False, id="n3"),
        pytest.param(6, 0.05, False, False, id="n6-p0.03125"),
        pytest.param(5, 0.1, False, False, id="n5-alpha0.1-p0.0625"),
        pytest.param(3, 0.2, True, True, id="n3-alpha0.2-p0.25-approx-3-wins"),
    ],
)
def test_small_n_sign_note_follows_alpha_and_does_not_contradict_itself(n, alpha, noted, table3):
    # Issue 13 item 8: the note hard-coded alpha = 0.05 and said "cannot reject"
    # while citing Table 3's "5 of 5 wins".
    r = compare_pair(_wins_everywhere(n), methods=("A", "B"), alpha=alpha)
    notes = [m for m in r.notes if "exact sign test cannot reject" in m]
    assert bool(notes) == noted
    assert (r.sign.pvalue > alpha) == noted
    if noted:
        assert f"alpha = {alpha:g}" in notes[0]
        assert f"p = {2 * 0.5**n:.4f}" in notes[0]
        assert ("Table 3) would call" in notes[0]) == table3
        assert "0.05" not in notes[0] or alpha == 0.05


def test_scores_near_the_float_limit_give_the_scaled_answer_or_a_message():
    # Issue 14: values near 1e308 gave "mean = inf" and t = nan from finite input.
    # The t statistic is scale free: scores times 1e300 give the t of the
    # unscaled scores (peer: scipy 1.17 scipy.stats.ttest_rel on the unscaled data).
    x = np.array([1.0, 1.1, 0.9, 1.2, 1.05])
    y = np.array([0.5, 0.52, 0.49, 0.61, 0.55])
    ref = stats.ttest_rel(x, y)
    big = paired_ttest(x * 1e300, y * 1e300)
    assert big.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert big.pvalue == pytest.approx(ref.pvalue, rel=1e-9)
    assert big.mean_difference == pytest.approx(np.mean(x - y) * 1e300, rel=1e-12)
    # a mean difference beyond the float range cannot be reported: a message, not inf
    a = np.array([1.7e308, 1.6e308, 1.5e308, 1.75e308, 1.2e308])
    with pytest.raises(CdplotError, match="beyond the float range"):
        paired_ttest(a, -a)
    r = compare_pair({f"d{i}": {"A": v, "B": -v} for i, v in enumerate(a)}, methods=("A", "B"))
    text = str(r)
    assert "inf" not in text
    assert "nan" not in text
    assert "mean A = 1.55e+308" in text
    assert r.wilcoxon.r_plus == 15.0
    assert any("beyond the float range" in n for n in r.notes)
