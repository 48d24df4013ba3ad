"""The distributions written on scipy.special agree with scipy.stats."""

import numpy as np
import pytest
from scipy import stats

from cdplot.stats import distributions as d


@pytest.mark.parametrize("k", [2, 3, 4, 5, 10, 20, 50, 100])
def test_studentized_range_sf_matches_scipy(k):
    q = np.array([0.05, 0.5, 1.0, 2.0, 3.0, 3.6, 4.5, 5.5, 7.0])
    expected = stats.studentized_range.sf(q, k, np.inf)
    np.testing.assert_allclose(d.studentized_range_sf(q, k), expected, rtol=1e-7, atol=1e-13)


def test_studentized_range_k2_is_scaled_normal():
    # the range of two standard normals is |X - Y| ~ sqrt(2) |N(0, 1)|
    q = np.linspace(0.0, 9.0, 37)
    exact = 2.0 * stats.norm.sf(q / np.sqrt(2.0))
    np.testing.assert_allclose(d.studentized_range_sf(q, 2), exact, rtol=1e-10, atol=1e-16)


def test_studentized_range_cdf_plus_sf_is_one():
    q = np.linspace(0, 6, 13)
    np.testing.assert_allclose(d.studentized_range_cdf(q, 7) + d.studentized_range_sf(q, 7), 1.0)


@pytest.mark.parametrize("k", [2, 4, 9, 30])
@pytest.mark.parametrize("p", [0.10, 0.05, 0.01, 0.001])
def test_studentized_range_isf_matches_scipy(k, p):
    assert d.studentized_range_isf(p, k) == pytest.approx(
        stats.studentized_range.isf(p, k, np.inf), rel=1e-9
    )


def test_studentized_range_isf_inverts_sf():
    q = d.studentized_range_isf(np.array([0.2, 0.05, 1e-6]), 12)
    np.testing.assert_allclose(d.studentized_range_sf(q, 12), [0.2, 0.05, 1e-6], rtol=1e-9)


def test_studentized_range_isf_is_tight_at_every_size():
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
def test_studentized_range_isf_to_the_last_bits(k, p, expected):
    # the final secant step across the converged bracket lands on the root itself
    assert d.studentized_range_isf(p, k) == pytest.approx(expected, rel=1e-15, abs=0)


def test_gauss_legendre_nodes_match_numpy_and_integrate_exactly():
    # numpy.polynomial.legendre.leggauss (numpy 2.x) is the reference for the nodes;
    # the weights integrate x^(2m) exactly (2 / (2m + 1)) up to the rule's degree 2n - 1
    x, w = d._gauss_legendre(d._N_NODES)
    ref_x, ref_w = np.polynomial.legendre.leggauss(d._N_NODES)
    np.testing.assert_allclose(x, ref_x, rtol=0, atol=1e-15)
    np.testing.assert_allclose(w, ref_w, rtol=1e-10)
    for m in (0, 10, 50, 100, d._N_NODES - 1):
        assert w @ x ** (2 * m) == pytest.approx(2 / (2 * m + 1), rel=1e-13, abs=0)


def test_studentized_range_rejects_k_below_2():
    with pytest.raises(ValueError, match="k >= 2"):
        d.studentized_range_sf(1.0, 1)


def test_simple_distributions_match_scipy():
    x = np.array([0.0, 0.3, 1.7, 4.2, 11.0])
    np.testing.assert_allclose(d.chi2_sf(x, 3), stats.chi2.sf(x, 3))
    np.testing.assert_allclose(d.f_sf(x, 3, 39), stats.f.sf(x, 3, 39))
    np.testing.assert_allclose(d.t_sf(x, 5), stats.t.sf(x, 5))
    np.testing.assert_allclose(d.t_isf(0.025, 5), stats.t.isf(0.025, 5))
    np.testing.assert_allclose(d.norm_sf(x), stats.norm.sf(x))
    np.testing.assert_allclose(d.norm_isf(0.05 / 6), stats.norm.isf(0.05 / 6))
    k = np.arange(-1, 12)
    np.testing.assert_allclose(d.binom_cdf(k, 10, 0.5), stats.binom.cdf(k, 10, 0.5))
    np.testing.assert_allclose(d.binom_sf(k, 10, 0.5), stats.binom.sf(k, 10, 0.5))


@pytest.mark.parametrize(
    "size", [50, 30_000, 1_100_000], ids=["libm-path", "libm-path-dense", "scipy-special-path"]
)
def test_normal_both_paths_match_scipy(size):
    x = np.linspace(-45.0, 45.0, size)
    # atol: in the far tails libm's erfc gives subnormal values (1e-311) where
    # scipy flushes to zero
    tiny = 1e-300
    np.testing.assert_allclose(d.log_ndtr(x), stats.norm.logcdf(x), rtol=1e-10, atol=tiny)
    np.testing.assert_allclose(d.norm_sf(x), stats.norm.sf(x), rtol=1e-10, atol=tiny)
    np.testing.assert_allclose(d.norm_cdf(x), stats.norm.cdf(x), rtol=1e-10, atol=tiny)


def test_normal_quantiles_match_scipy():
    p = np.array([1e-12, 1e-6, 0.05 / 18, 0.025, 0.3, 0.5, 0.9, 1 - 1e-9])
    np.testing.assert_allclose(d.norm_ppf(p), stats.norm.ppf(p), rtol=1e-13)
    assert d.norm_ppf(0.0) == -np.inf
    assert d.norm_ppf(1.0) == np.inf


@pytest.mark.parametrize("df", [1, 2, 3, 4, 9, 10, 49, 100, 1001, 3000])
def test_chi2_integer_df_series_match_scipy(df):
    x = np.array([1e-6, 0.5, 3.0, df, 2.0 * df, df + 50.0, 500.0, 5000.0])
    np.testing.assert_allclose(d.chi2_sf(x, df), stats.chi2.sf(x, df), rtol=1e-10, atol=0)


@pytest.mark.parametrize(
    ("dfn", "dfd"), [(1, 1), (1, 10), (2, 2), (3, 39), (5, 3), (9, 261), (99, 990_000)]
)
def test_f_continued_fraction_matches_scipy(dfn, dfd):
    x = np.array([0.0, 0.01, 0.5, 1.0, 2.0, 3.686313, 10.0, 50.0, 1e3])
    np.testing.assert_allclose(d.f_sf(x, dfn, dfd), stats.f.sf(x, dfn, dfd), rtol=1e-8, atol=0)
    assert d.f_sf(np.inf, dfn, dfd) == 0.0


def test_studentized_range_tiny_ranges_stay_finite():
    # near-equal average ranks give q close to 0, where both logarithms round to ~0
    q = np.array([1e-12, 1e-9, 1e-6, 1e-3])
    with np.errstate(all="raise"):
        p = d.studentized_range_sf(q, 12)
    np.testing.assert_allclose(p, stats.studentized_range.sf(q, 12, np.inf), atol=1e-12)


@pytest.mark.parametrize("k", [3, 10, 100, 2000])
def test_studentized_range_sf_many_interpolates_within_1e9(k):
    # Issue 14 (scale): 2,000 methods make 2 million Nemenyi p-values; beyond
    # 20,000 distinct values they are interpolated on a grid.  Reference: the
    # quadrature itself (studentized_range_sf), checked against scipy elsewhere.
    from cdplot.stats.distributions import (
        _GRID_MIN,
        studentized_range_sf,
        studentized_range_sf_many,
    )

    rng = np.random.default_rng(k)
    q = np.concatenate([rng.uniform(0, 45, _GRID_MIN + 5000), [0.0, 1e-4, 0.004, 60.0, 200.0]])
    got = studentized_range_sf_many(q, k)
    probe = rng.choice(q.size, 3000, replace=False)
    probe = np.concatenate([probe, np.arange(q.size - 5, q.size)])
    want = studentized_range_sf(q[probe], k)
    np.testing.assert_allclose(got[probe], want, rtol=1e-9, atol=1e-300)


def test_t_isf_in_python_matches_scipy():
    # reference: scipy.stats.t.isf (scipy 1.x as installed); the Python path (no scipy.special
    # import, which a report paid for one CI) covers df <= 1000, tails and the centre
    df = np.array([0.5, 1, 2, 3, 4, 5, 7, 9, 13, 29, 30, 99, 141, 500, 1000, 2.5, 7.3])
    p = np.array([1e-30, 1e-10, 1e-4, 0.001, 0.01, 0.025, 0.05, 0.1, 0.2, 0.25, 0.3, 0.4, 0.45])
    pp, dd = np.meshgrid(p, df)
    ours = d.t_isf(pp, dd)
    np.testing.assert_allclose(ours, stats.t.isf(pp, dd), rtol=2e-12, atol=0)
    # symmetric, exact at the ends and the centre, nan outside the domain
    dyadic = np.array([0.0625, 0.125, 0.25, 0.375])  # 1 - p is exact for these
    np.testing.assert_array_equal(d.t_isf(1 - dyadic, 7), -d.t_isf(dyadic, 7))
    assert d.t_isf(0.5, 4) == 0.0
    assert d.t_isf(0.0, 4) == np.inf
    assert d.t_isf(1.0, 4) == -np.inf
    assert np.isnan(d.t_isf(1.5, 4))
    assert np.isnan(d.t_isf(0.1, 0))
    # many degrees of freedom go to scipy (lgamma's cancellation would cost digits)
    assert d.t_isf(0.025, 100_000) == pytest.approx(stats.t.isf(0.025, 100_000), rel=1e-15)


def test_effect_size_intervals_do_not_import_scipy():
    import subprocess
    import sys

    code = (
        "import sys, numpy as np\n"
        "from cdplot.stats.effect_sizes import method_summaries\n"
        "method_summaries(np.random.default_rng(0).uniform(size=(14, 4)))\n"
        "print('scipy.special' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
