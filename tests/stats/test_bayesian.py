"""Tests of the Bayesian tests (cdplot/stats/_bayesian.py), Benavoli et al., JMLR 18 (2017).

Peer: baycomp 1.0.3 (the implementation by Benavoli, Corani and Demšar's group),
``baycomp.CorrelatedTTest.probs(x, y, rope)`` and
``baycomp.SignedRankTest.probs(x, y, rope, random_state=0)`` (default prior 0.5, 50000
samples).  baycomp's differences are ``y - x`` and its probabilities are
``(p_left, p_rope, p_right)``, so ``p_right`` is "y better".  Its literals below were
printed with those calls; the signed-rank test samples with numpy's legacy RandomState,
cdplot with a Generator, so they agree up to Monte Carlo error (sd about 0.002 per
probability with 50000 samples; tolerance 0.015).
"""

import json
import math

import numpy as np
import pytest
from scipy import stats

from cdplot.errors import CdplotError
from cdplot.stats._bayesian import bayesian_correlated_ttest, bayesian_signed_rank

A10 = np.array([0.81, 0.84, 0.79, 0.86, 0.83, 0.80, 0.85, 0.82, 0.84, 0.81])
B10 = np.array([0.78, 0.80, 0.80, 0.82, 0.79, 0.79, 0.81, 0.80, 0.81, 0.77])


def test_correlated_ttest_matches_baycomp_literals():
    # baycomp 1.0.3: CorrelatedTTest.probs(B10, A10, rope=0.01)
    # -> (0.00042163093372300434, 0.02221598448381079, 0.9773623845824662)
    r = bayesian_correlated_ttest(A10, B10, rope=0.01)
    assert r.p_b_better == pytest.approx(0.00042163093372300434, rel=1e-8)
    assert r.p_rope == pytest.approx(0.02221598448381079, rel=1e-8)
    assert r.p_a_better == pytest.approx(0.9773623845824662, rel=1e-10)


def test_correlated_ttest_is_a_scaled_student_t():
    # Benavoli et al. 2017, section 3: St(n-1, mean, s^2 (1/n + rho/(1-rho)))
    d = A10 - B10
    scale = math.sqrt(d.var(ddof=1) * (1 / 10 + 0.1 / 0.9))
    post = stats.t(9, loc=d.mean(), scale=scale)
    r = bayesian_correlated_ttest(A10, B10, rope=0.005)
    assert r.p_a_better == pytest.approx(post.sf(0.005), rel=1e-10)
    assert r.p_b_better == pytest.approx(post.cdf(-0.005), rel=1e-8)
    x = np.linspace(-0.02, 0.08, 7)
    np.testing.assert_allclose(r.pdf(x), post.pdf(x), rtol=1e-10)
    lo, hi = r.interval(0.9)
    assert (lo, hi) == pytest.approx(post.interval(0.9), rel=1e-10)


def test_correlated_ttest_lower_is_better_swaps_sides():
    r = bayesian_correlated_ttest(
        A10, B10, rope=0.01, higher_is_better=False, methods=("err_a", "err_b")
    )
    assert r.p_b_better == pytest.approx(0.9773623845824662, rel=1e-10)
    assert (
        "With posterior probability 0.977, err_b is practically better than err_a."
        in r.conclusion()
    )


def test_correlated_ttest_repeated_cv_with_sizes():
    rng = np.random.default_rng(3)
    a = 0.8 + 0.02 * rng.standard_normal((10, 10))
    b = a - 0.005 + 0.01 * rng.standard_normal((10, 10))
    r = bayesian_correlated_ttest(a, b, rope=0.01, scheme="10x10", n_train=900, n_test=100)
    d = (a - b).ravel()
    scale = math.sqrt(d.var(ddof=1) * (1 / 100 + 100 / 900))
    assert r.scale == pytest.approx(scale)
    assert r.df == 99
    assert sum(r.probabilities) == pytest.approx(1.0)


def test_signed_rank_matches_baycomp_on_demsar_table6(c45):
    # baycomp 1.0.3: SignedRankTest.probs(C4.5, C4.5+m, rope=0.01, random_state=0)
    # -> (0.0, 0.32904, 0.67096); with random_state=1: (0.0, 0.33084, 0.66916)
    x, y = c45.values[:, 1], c45.values[:, 0]
    r = bayesian_signed_rank(x, y, rope=0.01, methods=("C4.5+m", "C4.5"))
    assert r.p_a_better == pytest.approx(0.67096, abs=0.015)
    assert r.p_rope == pytest.approx(0.32904, abs=0.015)
    assert r.p_b_better == 0.0
    # baycomp 1.0.3: SignedRankTest.probs(C4.5, C4.5+m, rope=0, random_state=0)
    #   -> (0.00106, 0.99894)
    r0 = bayesian_signed_rank(x, y, rope=0)
    assert r0.p_a_better == pytest.approx(0.99894, abs=0.005)
    assert r0.p_rope == 0.0


def test_signed_rank_live_baycomp_comparison(rng):
    baycomp = pytest.importorskip("baycomp")
    a = 0.8 + 0.05 * rng.standard_normal(20)
    b = a + 0.004 + 0.01 * rng.standard_normal(20)
    pl, pe, pr = baycomp.SignedRankTest.probs(a, b, rope=0.005, random_state=0)
    r = bayesian_signed_rank(a, b, rope=0.005)
    assert r.probabilities == pytest.approx((pl, pe, pr), abs=0.015)


def test_signed_rank_is_reproducible_and_seeded(c45):
    x, y = c45.values[:, 3], c45.values[:, 0]
    r1 = bayesian_signed_rank(x, y, rope=0.01, n_samples=5000)
    r2 = bayesian_signed_rank(x, y, rope=0.01, n_samples=5000)
    assert r1.probabilities == r2.probabilities
    np.testing.assert_array_equal(r1.samples, r2.samples)
    r3 = bayesian_signed_rank(x, y, rope=0.01, n_samples=5000, rng=np.random.default_rng(0))
    np.testing.assert_array_equal(r1.samples, r3.samples)
    assert r3.seed is None
    np.testing.assert_allclose(r1.samples.sum(axis=1), 1.0)
    assert not r1.samples.flags.writeable


def test_signed_rank_chunking_does_not_change_samples(monkeypatch, c45):
    import cdplot.stats._bayesian as mod

    x, y = c45.values[:, 3], c45.values[:, 0]
    whole = bayesian_signed_rank(x, y, rope=0.01, n_samples=3000)
    monkeypatch.setattr(mod, "_CHUNK_CELLS", 225 * 7)
    chunked = bayesian_signed_rank(x, y, rope=0.01, n_samples=3000)
    # the Generator draws the same stream whether asked for all rows at once or in chunks
    np.testing.assert_allclose(whole.samples, chunked.samples, rtol=1e-12)


def test_signed_rank_direction_flip(c45):
    x, y = c45.values[:, 1], c45.values[:, 0]
    up = bayesian_signed_rank(x, y, rope=0.01, n_samples=4000)
    down = bayesian_signed_rank(-x, -y, rope=0.01, n_samples=4000, higher_is_better=False)
    assert up.probabilities == down.probabilities


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        pytest.param(
            {"rope": -0.01}, "rope=-0.01 must be a finite number >= 0", id="negative-rope"
        ),
        pytest.param({"rope": None}, "rope is required", id="no-rope"),
        pytest.param({"rope": "x"}, "is not a number", id="text-rope"),
    ],
)
def test_bad_rope(kwargs, message):
    with pytest.raises(CdplotError, match=message):
        bayesian_correlated_ttest(A10, B10, **kwargs)
    with pytest.raises(CdplotError, match=message):
        bayesian_signed_rank(A10, B10, **kwargs)


def test_bad_inputs():
    with pytest.raises(CdplotError, match="identical scores on every fold"):
        bayesian_correlated_ttest(A10, A10, rope=0.01)
    with pytest.raises(CdplotError, match="has 10 scores and B has 9"):
        bayesian_signed_rank(A10, B10[:9], rope=0.01)
    with pytest.raises(CdplotError, match="at least 2 data sets"):
        bayesian_signed_rank([0.8], [0.7], rope=0.01)
    with pytest.raises(CdplotError, match="prior_strength=-1"):
        bayesian_signed_rank(A10, B10, rope=0.01, prior_strength=-1)
    with pytest.raises(CdplotError, match="rng='x'"):
        bayesian_signed_rank(A10, B10, rope=0.01, rng="x")
    with pytest.raises(CdplotError, match="scheme='5x2' means 5 repetitions"):
        bayesian_correlated_ttest(A10[:8], B10[:8], rope=0.01, scheme="5x2")


def test_to_dict_is_json(c45):
    r = bayesian_correlated_ttest(A10, B10, rope=0.01, dataset="iris")
    d = json.loads(json.dumps(r.to_dict()))
    assert d["test"] == "bayes-correlated-t"
    assert d["dataset"] == "iris"
    s = bayesian_signed_rank(c45.values[:, 1], c45.values[:, 0], rope=0.01, n_samples=2000)
    d = json.loads(json.dumps(s.to_dict()))
    assert d["seed"] == 0
    assert "samples" not in d
    assert "No region reaches" in s.conclusion() or "practically" in s.conclusion()
