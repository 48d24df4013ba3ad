"""Tests of cdplot.stats._wilcoxon.

Peer tool: scipy 1.17.1, ``scipy.stats.wilcoxon(x, y, zero_method=Z,
method=M)`` (two-sided, correction=False, the defaults).  Paper: Demšar
(2006), JMLR 7, Table 2.
"""

import json
import subprocess
import sys
import warnings

import numpy as np
import pytest
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st

from cdplot.errors import CdplotError
from cdplot.stats import WilcoxonPairsResult, WilcoxonResult, wilcoxon, wilcoxon_pairs

# Demšar (2006), Table 2 (AUC of C4.5 and C4.5+m on 14 data sets).
C45 = [
    0.763,
    0.599,
    0.954,
    0.628,
    0.882,
    0.936,
    0.661,
    0.583,
    0.775,
    1.000,
    0.940,
    0.619,
    0.972,
    0.957,
]
C45M = [
    0.768,
    0.591,
    0.971,
    0.661,
    0.888,
    0.931,
    0.668,
    0.583,
    0.838,
    1.000,
    0.962,
    0.666,
    0.981,
    0.978,
]

ZERO_METHODS = ["wilcox", "pratt", "zsplit"]
METHODS = ["auto", "exact", "asymptotic"]


def _pratt_exact(x, y):
    """Pratt's exact two-sided p-value, summed in plain Python over the sign changes.

    Pratt (1959): zeros take the lowest ranks and count on neither side; under the null
    each nonzero difference keeps its rank and is positive with probability 1/2.  The
    distribution of R+ is built over the distinct sums (half-integers, exact in floats).
    """
    d = np.subtract(x, y, dtype=float)
    ranks = scipy.stats.rankdata(np.abs(d))
    dist = {0.0: 1.0}
    for r in ranks[d != 0]:
        nxt = {}
        for v, q in dist.items():
            nxt[v] = nxt.get(v, 0.0) + q / 2
            nxt[v + r] = nxt.get(v + r, 0.0) + q / 2
        dist = nxt
    observed = float(ranks[d > 0].sum())
    below = sum(q for v, q in dist.items() if v <= observed)
    above = sum(q for v, q in dist.items() if v >= observed)
    return min(1.0, 2.0 * min(below, above))


def _scipy(x, y, zero_method, method):
    if zero_method == "pratt" and method == "exact":
        # scipy's method='exact' is the untied distribution of ranks 1..n, off centre for
        # Pratt (issue 31, item 2); the reference is Pratt's own exact distribution
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            stat = scipy.stats.wilcoxon(x, y, zero_method="pratt", method="asymptotic").statistic
        return float(stat), _pratt_exact(x, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scipy warns about ties with method='exact'
        res = scipy.stats.wilcoxon(x, y, zero_method=zero_method, method=method)
    return float(res.statistic), float(res.pvalue)


def test_demsar_table2_rank_sums():
    # Demšar (2006), section 3.1.3: R+ = 93 for C4.5+m, R- = 12
    res = wilcoxon(C45M, C45, zero_method="zsplit")
    assert res.r_plus == 93.0
    assert res.r_minus == 12.0
    assert res.statistic == 12.0
    assert res.n == 14


@pytest.mark.parametrize(
    ("x", "y"),
    [
        # scipy 1.17.1: scipy.stats.wilcoxon(x=data['A'], y=data['B'], zero_method='zsplit')
        # -> WilcoxonResult(statistic=12.0, pvalue=0.01096849656422473)
        pytest.param(C45, C45M, id="demsar2006-table2-scipy-1.17.1-zsplit"),
        pytest.param(C45M, C45, id="demsar2006-table2-scipy-1.17.1-zsplit-swapped"),
    ],
)
def test_demsar_table2_scipy_zsplit(x, y):
    res = wilcoxon(x, y, zero_method="zsplit")
    assert res.statistic == 12.0
    assert res.pvalue == pytest.approx(0.01096849656422473, rel=1e-12)
    assert res.distribution == "asymptotic"  # 14 differences with zeros: scipy's auto is asymptotic


# scipy 1.17.1: scipy.stats.wilcoxon(x, y, zero_method=Z, method=M) -> (statistic, pvalue)
TIED_N8 = ([3, 5, 5, 2, 7, 1, 4, 6], [1, 5, 2, 4, 3, 2, 4, 1])
NEAR_TIES_N10 = (
    [0.61, 0.72, 0.55, 0.80, 0.67, 0.90, 0.58, 0.74, 0.69, 0.83],
    [0.60, 0.70, 0.59, 0.71, 0.60, 0.81, 0.64, 0.73, 0.62, 0.70],
)
TIED_N13 = ([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9], [1, 1, 2, 0, 5, 6, 2, 3, 4, 1, 5, 4, 10])
TIED_N20 = (
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    [2, 2, 1, 6, 3, 3, 9, 5, 8, 4, 1, 4, 4, 1, 2, 2, 9, 3, 6, 8],
)


@pytest.mark.parametrize(
    ("data", "zero_method", "method", "statistic", "pvalue"),
    [
        pytest.param(TIED_N8, "wilcox", "auto", 3.5, 0.1875, id="scipy-tied-n8-wilcox-auto"),
        pytest.param(TIED_N8, "wilcox", "exact", 3.5, 0.21875, id="scipy-tied-n8-wilcox-exact"),
        pytest.param(
            TIED_N8, "wilcox", "asymptotic", 3.5, 0.1411161381713362, id="scipy-tied-n8-wilcox-asy"
        ),
        pytest.param(TIED_N8, "pratt", "auto", 7.5, 0.25, id="scipy-tied-n8-pratt-auto"),
        # Pratt's exact distribution: scipy 1.17.1 gives 0.25 with method='auto' (all 2**8
        # sign changes), where its method='exact' gives 0.3828125 (off centre for Pratt)
        pytest.param(TIED_N8, "pratt", "exact", 7.5, 0.25, id="scipy-perm-tied-n8-pratt-exact"),
        pytest.param(
            TIED_N8, "pratt", "asymptotic", 7.5, 0.2013932544395831, id="scipy-tied-n8-pratt-asy"
        ),
        pytest.param(TIED_N8, "zsplit", "auto", 9.0, 0.25, id="scipy-tied-n8-zsplit-auto"),
        pytest.param(
            TIED_N8, "zsplit", "asymptotic", 9.0, 0.20646258713596, id="scipy-tied-n8-zsplit-asy"
        ),
        pytest.param(NEAR_TIES_N10, "zsplit", "auto", 9.0, 0.060546875, id="scipy-n10-auto"),
        pytest.param(NEAR_TIES_N10, "zsplit", "exact", 9.0, 0.064453125, id="scipy-n10-exact"),
        pytest.param(
            NEAR_TIES_N10, "zsplit", "asymptotic", 9.0, 0.05917104905405072, id="scipy-n10-asy"
        ),
        pytest.param(TIED_N13, "wilcox", "auto", 2.0, 0.015625, id="scipy-tied-n13-wilcox-auto"),
        pytest.param(TIED_N13, "pratt", "auto", 6.0, 0.015625, id="scipy-tied-n13-pratt-auto"),
        pytest.param(TIED_N13, "zsplit", "auto", 11.0, 0.015625, id="scipy-tied-n13-zsplit-auto"),
        pytest.param(
            TIED_N20, "wilcox", "auto", 32.0, 0.018654779542892453, id="scipy-tied-n20-wilcox-auto"
        ),
        pytest.param(
            TIED_N20, "wilcox", "exact", 32.0, 0.0182342529296875, id="scipy-tied-n20-wilcox-exact"
        ),
        pytest.param(
            TIED_N20, "pratt", "auto", 44.0, 0.02516140390985407, id="scipy-tied-n20-pratt-auto"
        ),
        # Pratt's exact null distribution (issue 31, item 2), not scipy's method='exact'
        # (0.029575347900390625, the untied distribution of ranks 1..20, off centre for
        # Pratt): scipy 1.17.1 scipy.stats.wilcoxon(*TIED_N20, zero_method='pratt',
        # method=scipy.stats.PermutationMethod(n_resamples=np.inf)), all 2**20 sign changes
        pytest.param(
            TIED_N20, "pratt", "exact", 44.0, 0.023468017578125, id="scipy-perm-n20-pratt-exact"
        ),
        pytest.param(
            TIED_N20, "zsplit", "auto", 45.5, 0.02527754502083783, id="scipy-tied-n20-zsplit-auto"
        ),
        pytest.param(
            TIED_N20, "zsplit", "exact", 45.5, 0.026641845703125, id="scipy-tied-n20-zsplit-exact"
        ),
    ],
)
def test_scipy_literals(data, zero_method, method, statistic, pvalue):
    res = wilcoxon(*data, zero_method=zero_method, method=method)
    assert res.statistic == statistic
    assert res.pvalue == pytest.approx(pvalue, rel=1e-10)


def _random_pair(rng, n, kind):
    if kind == "integers":  # many ties and zeros
        return rng.integers(0, 5, n).astype(float), rng.integers(0, 5, n).astype(float)
    if kind == "rounded":  # some ties
        return np.round(rng.normal(size=n), 1), np.round(rng.normal(size=n), 1)
    return rng.normal(size=n), rng.normal(size=n)  # no ties


@pytest.mark.parametrize("zero_method", ZERO_METHODS)
@pytest.mark.parametrize("method", METHODS)
def test_matches_scipy_on_random_data(rng, zero_method, method):
    for n in (3, 5, 8, 11, 13, 14, 20, 35, 50, 51, 60):
        for kind in ("integers", "rounded", "continuous"):
            if method == "auto" and n in (11, 13) and kind != "continuous":
                continue  # scipy's permutation test takes seconds here; see TIED_N13
            x, y = _random_pair(rng, n, kind)
            statistic, pvalue = _scipy(x, y, zero_method, method)
            res = wilcoxon(x, y, zero_method=zero_method, method=method)
            assert res.statistic == pytest.approx(statistic, rel=1e-12, nan_ok=True)
            assert res.pvalue == pytest.approx(pvalue, rel=1e-9, abs=1e-15, nan_ok=True)


def test_pairs_match_scalar_and_scipy(rng):
    for n in (3, 9, 13, 16, 60):
        values = rng.integers(0, 6, size=(n, 6)).astype(float) / 10
        values[:, 5] = values[:, 4]  # identical columns: every difference is zero
        for zero_method in ZERO_METHODS:
            for method in METHODS:
                out = wilcoxon_pairs(values, zero_method=zero_method, method=method)
                stat, p, side = out.statistic, out.pvalue, out.direction()
                for i in range(6):
                    for j in range(i + 1, 6):
                        res = wilcoxon(
                            values[:, i], values[:, j], zero_method=zero_method, method=method
                        )
                        assert stat[i, j] == stat[j, i] == res.statistic
                        np.testing.assert_equal(p[i, j], p[j, i])
                        assert p[i, j] == pytest.approx(res.pvalue, rel=1e-12, nan_ok=True)
                        assert (out.r_plus[i, j], out.r_plus[j, i]) == (res.r_plus, res.r_minus)
                        assert out.n[i, j] == out.n[j, i] == res.n
                        assert side[i, j] == -side[j, i] == np.sign(res.r_plus - res.r_minus)
                        if (i, j) not in ((0, 1), (4, 5)) or (method == "auto" and n <= 13):
                            # scipy's permutation test is slow; test_matches_scipy_on_random_data
                            # covers it, and this test ties pairs to the scalar function
                            continue
                        ref_stat, ref_p = _scipy(values[:, i], values[:, j], zero_method, method)
                        assert stat[i, j] == pytest.approx(ref_stat, rel=1e-12)
                        assert p[i, j] == pytest.approx(ref_p, rel=1e-9, abs=1e-15, nan_ok=True)


@pytest.mark.parametrize(
    ("x", "y"),
    [
        # scipy 1.17.1 gives p = 0.5 for scipy.stats.wilcoxon([0, 0], [0, 0.25],
        # zero_method='pratt', method='exact') and 1.0 with x and y swapped: its untied
        # distribution of ranks 1..n is off centre for Pratt.  Pratt's exact distribution:
        # the one nonzero difference has rank 2, R+ is 0 or 2 with probability 1/2 each, so
        # p = 1 both ways (scipy 1.17.1, method=scipy.stats.PermutationMethod() gives 1.0).
        pytest.param([0.0, 0.0], [0.0, 0.25], id="pratt-exact-x-y"),
        pytest.param([0.0, 0.25], [0.0, 0.0], id="pratt-exact-y-x"),
    ],
)
def test_pratt_exact_is_symmetric(x, y):
    res = wilcoxon(x, y, zero_method="pratt", method="exact")
    assert res.pvalue == 1.0
    assert res.distribution == "permutation"


def test_pratt_exact_never_finds_a_side_in_a_tie():
    # Issue 31, item 2: 16 zeros and +-1, +-2 give R+ = R- = 37.  scipy 1.17.1
    # scipy.stats.wilcoxon(d, zero_method='pratt', method='exact') gives p = 0.0094 (the
    # untied distribution of ranks 1..20 is centred on 105, not on 37); Pratt's exact
    # distribution is symmetric about 37, so p = 1.
    d = np.array([0.0] * 16 + [1, -1, 2, -2])
    res = wilcoxon(d, zero_method="pratt", method="exact")
    assert (res.r_plus, res.r_minus) == (37.0, 37.0)
    assert res.pvalue == 1.0
    assert _pratt_exact(d, np.zeros_like(d)) == 1.0


def test_pratt_exact_matches_scipy_permutation_literals():
    # scipy 1.17.1: scipy.stats.wilcoxon(d, zero_method='pratt',
    # method=scipy.stats.PermutationMethod(n_resamples=np.inf)) enumerates every sign change
    d = np.array([0.0, 0.0, 0.0, 0.3, -0.1, 0.2, 0.5, 0.4, -0.2, 0.6, 0.7, 0.3])
    ref = scipy.stats.wilcoxon(
        d, zero_method="pratt", method=scipy.stats.PermutationMethod(n_resamples=np.inf)
    )
    res = wilcoxon(d, zero_method="pratt", method="exact")
    assert res.pvalue == pytest.approx(float(ref.pvalue), rel=1e-12)
    assert res.pvalue == pytest.approx(_pratt_exact(d, np.zeros_like(d)), rel=1e-12)


def test_pairs_shapes_and_untested(rng):
    values = rng.normal(size=(10, 4))
    res = wilcoxon_pairs(values, pairs=[(0, 2), (3, 1)])
    stat, p = res.statistic, res.pvalue
    assert stat.shape == p.shape == (4, 4)
    assert np.all(np.isnan(np.diag(stat)))
    assert np.all(np.diag(p) == 1.0)
    tested = np.zeros((4, 4), dtype=bool)
    tested[[0, 2, 3, 1], [2, 0, 1, 3]] = True
    assert np.all(np.isfinite(p[tested]))
    assert np.all(np.isnan(p[~tested & ~np.eye(4, dtype=bool)]))
    assert p[1, 3] == wilcoxon(values[:, 1], values[:, 3]).pvalue


def test_result_is_frozen_and_readable():
    res = wilcoxon(C45M, C45)
    assert isinstance(res, WilcoxonResult)
    with pytest.raises(AttributeError):
        res.pvalue = 0.5
    text = str(res)
    assert "R+ = 93" in text
    assert "R- = 12" in text
    assert "p = 0.0110" in text
    assert "favour x" in text


def test_one_sample_form_equals_two_sample_form():
    d = np.subtract(C45M, C45)
    assert wilcoxon(d) == wilcoxon(C45M, C45)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        pytest.param(
            lambda: wilcoxon(C45, C45M, zero_method="zero"), "zero_method='zero'", id="zero-method"
        ),
        pytest.param(
            lambda: wilcoxon(C45, C45M, method="permutation"),
            "method='permutation'",
            id="method",
        ),
        pytest.param(lambda: wilcoxon(C45, C45M[:-1]), "same length", id="lengths"),
        pytest.param(lambda: wilcoxon([1.0, np.nan], [1.0, 2.0]), r"x\[1\]=nan", id="nan"),
        pytest.param(lambda: wilcoxon([]), "empty", id="empty"),
        pytest.param(lambda: wilcoxon([[1.0, 2.0]]), "one-dimensional", id="2d"),
        pytest.param(lambda: wilcoxon_pairs(np.ones(4)), "matrix", id="pairs-1d"),
        pytest.param(lambda: wilcoxon_pairs(np.ones((4, 1))), "2 methods", id="pairs-one-column"),
        pytest.param(
            lambda: wilcoxon_pairs(np.ones((4, 3)), pairs=[(0, 3)]),
            "out of range",
            id="pairs-range",
        ),
        pytest.param(
            lambda: wilcoxon_pairs(np.ones((4, 3)), pairs=[(1, 1)]), "itself", id="pairs-self"
        ),
        pytest.param(lambda: wilcoxon_pairs(np.ones((4, 3)), pairs=[]), "empty", id="pairs-empty"),
    ],
)
def test_errors(call, match):
    with pytest.raises(CdplotError, match=match):
        call()


def test_core_does_not_import_scipy_stats():
    code = "import sys, cdplot.stats._wilcoxon; sys.exit('scipy.stats' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


# --- properties --------------------------------------------------------------

scores = st.lists(st.integers(0, 6), min_size=1, max_size=25)


@settings(max_examples=80, deadline=None)
@given(data=st.data(), zero_method=st.sampled_from(ZERO_METHODS), method=st.sampled_from(METHODS))
def test_swapping_x_and_y_keeps_the_test(data, zero_method, method):
    x = np.array(data.draw(scores), dtype=float) / 4
    y = (
        np.array(
            data.draw(st.lists(st.integers(0, 6), min_size=x.size, max_size=x.size)), dtype=float
        )
        / 4
    )
    a = wilcoxon(x, y, zero_method=zero_method, method=method)
    b = wilcoxon(y, x, zero_method=zero_method, method=method)
    assert a.statistic == b.statistic
    assert a.pvalue == pytest.approx(b.pvalue, rel=1e-12, nan_ok=True)
    assert (a.r_plus, a.r_minus) == (b.r_minus, b.r_plus)


@settings(max_examples=80, deadline=None)
@given(data=st.data(), zero_method=st.sampled_from(ZERO_METHODS))
def test_rank_sums_add_up(data, zero_method):
    x = np.array(data.draw(scores), dtype=float)
    y = np.array(
        data.draw(st.lists(st.integers(0, 6), min_size=x.size, max_size=x.size)), dtype=float
    )
    res = wilcoxon(x, y, zero_method=zero_method)
    n_zero = int(np.sum(x == y))
    total = res.n * (res.n + 1) / 2
    if zero_method == "pratt":  # the zeros hold the lowest ranks and count on neither side
        total -= n_zero * (n_zero + 1) / 2
    assert res.r_plus + res.r_minus == total
    assert 0.0 <= res.pvalue <= 1.0 or np.isnan(res.pvalue)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_order_of_data_sets_does_not_matter(seed):
    rng = np.random.default_rng(seed)
    values = rng.integers(0, 4, size=(int(rng.integers(2, 30)), 4)).astype(float)
    perm = rng.permutation(values.shape[0])
    a, b = wilcoxon_pairs(values), wilcoxon_pairs(values[perm])
    np.testing.assert_array_equal(a.statistic, b.statistic)
    np.testing.assert_allclose(a.pvalue, b.pvalue, rtol=1e-12)


# Issue 13 item 6: Demšar (2006, section 3.1.3) splits the ranks of zero
# differences evenly "and if there is an odd number of them, one is ignored".
# Hand computation for d below: drop one of the three zeros; the other two hold
# ranks 1 and 2 (1.5 to each side); R+ = 1.5 + 3+5+6+7+8+9+11 = 50.5 and
# R- = 1.5 + 4 + 10 = 15.5 over n = 11; the normal approximation with the tie
# correction gives p = 0.1195 (scipy's zsplit keeps all three zeros: 59 / 19,
# p = 0.1161).
DEMSAR_ZEROS = np.array([0, 0, 0, 1.5, -2.5, 3, 4, 5, 6, 7, -8, 9])


def test_demsar_zero_rule_ignores_one_of_an_odd_number_of_zeros():
    res = wilcoxon(DEMSAR_ZEROS, zero_method="demsar", method="asymptotic")
    assert (res.r_plus, res.r_minus, res.n) == (50.5, 15.5, 11)
    assert round(res.pvalue, 4) == 0.1195
    # scipy 1.17 zsplit keeps every zero: R+ = 59, R- = 19, p = 0.1161
    scipy_rule = wilcoxon(DEMSAR_ZEROS, zero_method="zsplit", method="asymptotic")
    assert (scipy_rule.r_plus, scipy_rule.r_minus) == (59.0, 19.0)
    assert round(scipy_rule.pvalue, 4) == 0.1161


def test_demsar_is_the_default():
    assert wilcoxon(DEMSAR_ZEROS).zero_method == "demsar"


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("n_zero", [0, 1, 2, 3, 4])
def test_demsar_equals_scipy_zsplit_without_one_odd_zero(rng, method, n_zero):
    d = np.round(rng.normal(size=12), 1)
    d[:n_zero] = 0.0
    d[n_zero:] = np.where(d[n_zero:] == 0, 0.3, d[n_zero:])
    res = wilcoxon(d, zero_method="demsar", method=method)
    # peer: scipy.stats.wilcoxon(d', zero_method='zsplit', method=method), d' = d
    # without one zero when their number is odd
    kept = d[1:] if n_zero % 2 else d
    stat, p = _scipy(kept, np.zeros(kept.size), "zsplit", method)
    assert res.statistic == pytest.approx(stat, abs=1e-12)
    assert res.pvalue == pytest.approx(p, rel=1e-9)
    pairs_p = wilcoxon_pairs(np.column_stack([d, np.zeros(d.size)]), method=method).pvalue
    assert pairs_p[0, 1] == pytest.approx(p, rel=1e-9)


# Issue 31, item 3: Demšar's example has N = 14; with one zero his rule ranks 13
# differences, and 'auto' must decide from those 13 (all 2**13 sign changes, as scipy's
# 'zsplit' on the data without the zero), not from the 14 data sets (normal
# approximation, p = 0.04995, which crosses 0.05).
ISSUE31_N14 = np.array([0, 0.2, 0.3, 1.4, -0.4, -0.2, -0.2, 1.5, 1.3, 1.6, 0.3, 0.1, 1.2, -0.1])


def test_demsar_auto_decides_from_the_differences_ranked():
    res = wilcoxon(ISSUE31_N14)
    assert res.n == 13
    assert res.distribution == "permutation"
    # scipy 1.17.1: scipy.stats.wilcoxon(d[1:], zero_method='zsplit')
    # -> WilcoxonResult(statistic=17.5, pvalue=0.050537109375)
    assert res.statistic == 17.5
    assert res.pvalue == pytest.approx(0.050537109375, rel=1e-12)
    pairs_p = wilcoxon_pairs(np.column_stack([ISSUE31_N14, np.zeros(14)])).pvalue
    assert pairs_p[0, 1] == pytest.approx(0.050537109375, rel=1e-12)


def test_demsar_auto_at_51_with_one_zero_is_exact(rng):
    # 51 data sets, one zero: 50 differences ranked, no ties, so scipy's 'auto' on them is
    # the exact distribution (scipy 1.17.1: scipy.stats.wilcoxon(d[1:], zero_method='zsplit'))
    d = rng.normal(size=51)
    d[0] = 0.0
    res = wilcoxon(d)
    assert (res.n, res.distribution) == (50, "exact")
    stat, p = _scipy(d[1:], np.zeros(50), "zsplit", "auto")
    assert res.statistic == pytest.approx(stat, abs=1e-12)
    assert res.pvalue == pytest.approx(p, rel=1e-9)


def test_differences_beyond_the_float_range_keep_their_order():
    # Issue 14: x - y overflowed to inf for finite scores near 1e308, tying
    # differences that are not tied.  Halving is exact, so the ranks are those of
    # the same data divided by 1e300 (peer: scipy 1.17 wilcoxon on that data).
    x = np.array([1.7, 1.6, 1.5, 1.75, 1.2, 0.3, 1.1])
    y = np.array([-1.7, -1.5, -1.5, -1.4, -1.3, 0.5, -0.2])
    small = wilcoxon(x, y, zero_method="zsplit")
    stat, p = _scipy(x, y, "zsplit", "auto")
    big = wilcoxon(x * 1e308, y * 1e308, zero_method="zsplit")
    assert (big.statistic, big.pvalue) == (small.statistic, small.pvalue)
    assert big.statistic == pytest.approx(stat)
    assert big.pvalue == pytest.approx(p)
    pairs_p = wilcoxon_pairs(np.column_stack([x, y]) * 1e308, zero_method="zsplit").pvalue
    assert pairs_p[0, 1] == small.pvalue


@pytest.mark.parametrize("method", METHODS)
def test_pairs_in_blocks_equal_pairs_at_once(rng, monkeypatch, method):
    # Issue 14 (scale): pairs are ranked in blocks to bound memory; a block of
    # 7 pairs must give what one block of all 45 gives
    from cdplot.stats import _wilcoxon as w

    values = np.round(rng.normal(size=(12, 10)), 1)
    whole = w.wilcoxon_pairs(values, method=method)
    monkeypatch.setattr(w, "_BLOCK_CELLS", 7 * 12)
    blocks = w.wilcoxon_pairs(values, method=method)
    for name in ("statistic", "pvalue", "r_plus", "n"):
        np.testing.assert_array_equal(getattr(whole, name), getattr(blocks, name))
    np.testing.assert_array_equal(whole.direction(), blocks.direction())


def test_pairs_result_is_frozen_readable_and_json_safe():
    # C4.5+m against C4.5 on Demsar's (2006) Table 2: R+ = 93, R- = 12, p = 0.010968
    # (the scalar doctest; scipy 1.17.1 scipy.stats.wilcoxon(c45m, c45, zero_method='zsplit'))
    res = wilcoxon_pairs(np.column_stack([C45M, C45]))
    assert isinstance(res, WilcoxonPairsResult)
    with pytest.raises(AttributeError):
        res.pvalue = res.pvalue  # type: ignore[misc]
    with pytest.raises(ValueError, match="read-only"):
        res.r_plus[0, 1] = 0.0
    assert (res.r_plus[0, 1], res.r_plus[1, 0], res.statistic[0, 1]) == (93.0, 12.0, 12.0)
    np.testing.assert_array_equal(res.direction(), [[0.0, 1.0], [-1.0, 0.0]])
    d = json.loads(res.to_json())
    assert d["statistic"] == [[None, 12.0], [12.0, None]]
    assert d["r_plus"] == [[None, 93.0], [12.0, None]]
    assert (d["n"], d["zero_method"], d["distribution"]) == ([[0, 14], [14, 0]], "demsar", "auto")
    text = str(res)
    assert "Wilcoxon signed-rank tests" in text
    assert "1 pair of 2 columns tested" in text
    assert "p = 0.011" in text
    assert "columns 0 and 1" in text
