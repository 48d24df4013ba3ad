import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import stats

from cdplot.stats._friedman import friedman, iman_davenport


def test_demsar_paper_ranks(c45_ranks):
    # Demsar 2006, section 3.2.2 prints chi2_F = 9.28 and F_F = 3.69 from the rank matrix
    # of Table 6; the exact values here are the formulas of his section 3.2.2 evaluated
    # on that rank matrix (the "demsar2006-ranks" example).
    fr = friedman(c45_ranks.values, higher_is_better=False)
    ff = iman_davenport(c45_ranks.values, higher_is_better=False, tie_correction=False)
    assert fr.statistic_uncorrected == pytest.approx(9.278571, abs=5e-7)
    assert fr.pvalue_uncorrected == pytest.approx(0.025807, abs=5e-7)
    assert fr.statistic == pytest.approx(10.228346, abs=5e-7)
    assert ff.statistic == pytest.approx(3.686313, abs=5e-7)
    assert ff.pvalue == pytest.approx(0.019823, abs=5e-7)
    assert ff.dof == (3, 39)
    assert round(fr.statistic_uncorrected, 2) == 9.28
    assert round(ff.statistic, 2) == 3.69


def test_printed_auc_matches_scipy_and_seed(c45):
    # scipy 1.17: scipy.stats.friedmanchisquare(*c45.values.T) gives 10.952380952380956,
    # p = 0.011986176325417788;
    # Demsar's uncorrected formula on the printed AUCs gives 9.857142857, F_F = 3.986666667.
    fr = friedman(c45.values)
    assert fr.statistic == pytest.approx(10.952380952380956, rel=1e-12)
    assert fr.pvalue == pytest.approx(0.011986176325417788, rel=1e-9)
    assert fr.statistic_uncorrected == pytest.approx(9.857142857142824, rel=1e-12)
    ff = iman_davenport(c45.values, tie_correction=False)
    assert ff.statistic == pytest.approx(3.9866666666666495, rel=1e-12)
    assert ff.pvalue == pytest.approx(0.01435244621602394, rel=1e-9)


@settings(max_examples=150, deadline=None)
@given(
    st.integers(2, 15).flatmap(
        lambda n: st.integers(3, 8).flatmap(
            lambda k: arrays(
                np.float64, (n, k), elements=st.sampled_from([0.1, 0.2, 0.3, 0.5, 0.8])
            )
        )
    )
)
def test_tie_corrected_statistic_matches_scipy(x):
    res = friedman(x)
    if np.all(x == x[:, :1]):  # scipy divides 0 by 0 here; cdplot reports no evidence
        assert res.statistic == 0.0
        assert res.pvalue == 1.0
        return
    expected = stats.friedmanchisquare(*x.T)
    assert res.statistic == pytest.approx(expected.statistic, rel=1e-9, abs=1e-12)
    assert res.pvalue == pytest.approx(expected.pvalue, rel=1e-8, abs=1e-14)


def test_perfect_agreement_gives_infinite_ff():
    x = np.tile([3.0, 2.0, 1.0], (6, 1))
    ff = iman_davenport(x)
    assert np.isinf(ff.statistic)
    assert ff.pvalue == 0.0


def test_constant_data_is_no_evidence():
    fr = friedman(np.ones((5, 4)))
    assert fr.statistic == 0.0
    assert fr.pvalue == 1.0
