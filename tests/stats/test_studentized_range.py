"""The studentized range (cdplot/stats/_studentized_range.py) against scipy, closed forms
and mpmath."""

import numpy as np
import pytest
from scipy import special, stats

from cdplot.stats import _studentized_range as d


@pytest.mark.parametrize("k", [2, 3, 4, 5, 10, 20, 50, 100, 1000])
def test_sf_matches_scipy(k):
    # scipy 1.17 studentized_range.sf(q, k, np.inf): adaptive quadrature to epsabs 1e-11
    q = np.array([0.05, 0.5, 1.0, 2.0, 3.0, 3.6, 4.5, 5.5, 7.0, 8.0])
    expected = stats.studentized_range.sf(q, k, np.inf)
    np.testing.assert_allclose(d.studentized_range_sf(q, k), expected, rtol=0, atol=1e-12)


def test_sf_k2_is_scaled_normal_to_the_far_tail():
    # the range of two standard normals is |X - Y| ~ sqrt(2) |N(0, 1)|, so
    # P(Q > q) = erfc(q / 2); the nodes follow the integrand out to 1e-300
    q = np.linspace(0.0, 52.0, 209)
    exact = special.erfc(q / 2.0)
    np.testing.assert_allclose(d.studentized_range_sf(q, 2), exact, rtol=1e-12, atol=0)


@pytest.mark.parametrize("df", [1, 2, 3, 7.5, 10, 39, 200, 1131, 100_000])
def test_sf_finite_df_k2_is_student_t_to_the_far_tail(df):
    # with df degrees of freedom the range of two is sqrt(2) |T_df|:
    # P(Q > q) = 2 P(T_df > q / sqrt(2)), here down to 1e-290
    q = np.concatenate([np.linspace(0.0, 80.0, 161), [200.0, 1e3, 1e4]])
    exact = 2.0 * special.stdtr(df, -q / np.sqrt(2.0))
    keep = exact > 1e-290
    got = d.studentized_range_sf(q[keep], 2, df)
    np.testing.assert_allclose(got, exact[keep], rtol=1e-10, atol=0)


@pytest.mark.parametrize(
    ("k", "df"), [(3, 2), (4, 5), (4, 39), (5, 3.5), (10, 10), (30, 1131), (50, 200), (100, 5000)]
)
def test_sf_finite_df_matches_scipy(k, df):
    # scipy 1.17 studentized_range.sf(q, k, df): 1 - cdf by nested adaptive quadrature
    # (epsabs 1e-11), so an absolute tolerance; issue 28 asks for 1e-8
    q = np.array([0.0, 0.01, 0.3, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 12.0, 20.0])
    expected = stats.studentized_range.sf(q, k, df)
    np.testing.assert_allclose(d.studentized_range_sf(q, k, df), expected, rtol=0, atol=1e-11)


@pytest.mark.parametrize("k", [2, 10, 100, 1000, 2000, 5000])
def test_sf_has_converged_in_the_nodes(k, monkeypatch):
    # the window of z holds the integrand: five times the nodes change nothing
    q = np.linspace(0.0, 12.0, 97)
    p = d.studentized_range_sf(q, k)
    d._nodes.cache_clear()
    monkeypatch.setattr(d, "_N_NODES", 800)
    try:
        fine = d.studentized_range_sf(q, k)
    finally:
        d._nodes.cache_clear()
    np.testing.assert_allclose(p, fine, rtol=1e-13, atol=0)


@pytest.mark.parametrize("k", [2, 4, 9, 30, 1000])
@pytest.mark.parametrize("p", [0.10, 0.05, 0.01, 0.001])
def test_isf_matches_scipy(k, p):
    assert d.studentized_range_isf(p, k) == pytest.approx(
        stats.studentized_range.isf(p, k, np.inf), rel=1e-12
    )


@pytest.mark.parametrize(("k", "df"), [(3, 2), (4, 39), (30, 1131)])
def test_isf_finite_df_matches_scipy(k, df):
    for p in (0.1, 0.05, 0.01):
        assert d.studentized_range_isf(p, k, df) == pytest.approx(
            stats.studentized_range.isf(p, k, df), rel=1e-10
        )


def test_isf_inverts_sf():
    q = d.studentized_range_isf(np.array([0.2, 0.05, 1e-6]), 12)
    np.testing.assert_allclose(d.studentized_range_sf(q, 12), [0.2, 0.05, 1e-6], rtol=1e-9)
    q = d.studentized_range_isf(np.array([0.2, 0.05, 1e-6]), 12, 20)
    np.testing.assert_allclose(d.studentized_range_sf(q, 12, 20), [0.2, 0.05, 1e-6], rtol=1e-9)


def test_isf_is_tight_at_every_size():
    # the Illinois iteration stops on the bracket's width, as the bisection it replaced did
    k = np.array([2, 3, 10, 100, 2000] * 4)
    p = np.repeat([0.9, 0.05, 1e-6, 1e-100], 5)
    q = d.studentized_range_isf(p, k)
    np.testing.assert_allclose(d.studentized_range_sf(q, k), p, rtol=1e-10)
    below = d.studentized_range_sf(q * (1 - 1e-12), k)
    above = d.studentized_range_sf(q * (1 + 1e-12), k)
    assert np.all(below >= p)
    assert np.all(above <= p)


@pytest.mark.parametrize(
    ("k", "p", "expected"),
    [
        # mpmath 1.3.0, mp.dps = 30: findroot(lambda q: sf(q) - p, guess) with
        # sf(q) = quad(lambda z: k * npdf(z) * (ncdf(z) ** (k - 1)
        #                 - (ncdf(z) - ncdf(z - q)) ** (k - 1)), [-inf, -5, 0, 5, inf])
        pytest.param(2, 0.05, 2.7718076486993558906, id="mpmath-k2-p05"),
        pytest.param(4, 0.05, 3.633159574902629049, id="mpmath-k4-p05"),
        pytest.param(10, 0.01, 5.1566349600896220716, id="mpmath-k10-p01"),
        pytest.param(30, 0.1, 4.9971128654016106565, id="mpmath-k30-p10"),
    ],
)
def test_isf_to_the_last_bits(k, p, expected):
    # the final secant step across the converged bracket lands on the root itself
    assert d.studentized_range_isf(p, k) == pytest.approx(expected, rel=1e-15, abs=0)


def test_rejects_bad_k_and_df():
    with pytest.raises(ValueError, match="k >= 2"):
        d.studentized_range_sf(1.0, 1)
    with pytest.raises(ValueError, match="df > 0"):
        d.studentized_range_sf(1.0, 3, 0.0)
    with pytest.raises(ValueError, match="one k and one df"):
        d.studentized_range_sf(1.0, [3, 4], 10.0)


def test_sf_edges():
    q = np.array([-1.0, 0.0, np.inf, np.nan])
    for df in (np.inf, 12.0):
        p = d.studentized_range_sf(q, 5, df)
        np.testing.assert_array_equal(p[:3], [1.0, 1.0, 0.0])
        assert np.isnan(p[3])


def test_tiny_ranges_stay_finite():
    # near-equal average ranks give q close to 0, where both logarithms round to ~0
    q = np.array([1e-12, 1e-9, 1e-6, 1e-3])
    with np.errstate(all="raise"):
        p = d.studentized_range_sf(q, 12)
    np.testing.assert_allclose(p, stats.studentized_range.sf(q, 12, np.inf), atol=1e-12)


@pytest.mark.parametrize("k", [3, 10, 100, 2000])
def test_sf_many_interpolates_within_1e9(k):
    # Issue 14 (scale): 2,000 methods make 2 million Nemenyi p-values; beyond
    # 20,000 distinct values they are interpolated on a grid.  Reference: the
    # quadrature itself (studentized_range_sf), checked against scipy above.
    rng = np.random.default_rng(k)
    q = np.concatenate([rng.uniform(0, 45, d._GRID_MIN + 5000), [0.0, 1e-4, 0.004, 60.0, 200.0]])
    got = d.studentized_range_sf_many(q, k)
    probe = rng.choice(q.size, 3000, replace=False)
    probe = np.concatenate([probe, np.arange(q.size - 5, q.size)])
    want = d.studentized_range_sf(q[probe], k)
    np.testing.assert_allclose(got[probe], want, rtol=1e-9, atol=1e-300)
