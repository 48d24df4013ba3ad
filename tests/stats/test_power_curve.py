"""Tests of cdplot.stats._power_curve: the curve against a brute-force loop of compare."""

import json

import numpy as np
import pytest

from cdplot.errors import CdplotError
from cdplot.stats import PowerCurveResult, compare, simulate_power, simulate_power_curve


def _brute_force(tables_by_n, alpha):
    """Share of comparisons in which Iman-Davenport rejects and each pair is significant."""
    out = []
    for tables in tables_by_n:
        hits_id = 0
        hits = None
        for x in tables:
            r = compare(x, alpha=alpha)
            hits_id += r.iman_davenport.pvalue < alpha
            hits = r.significant.astype(float) if hits is None else hits + r.significant
        out.append((hits_id / len(tables), hits / len(tables)))
    return out


def test_resampling_curve_equals_a_loop_of_compare(c45):
    sims, ns, alpha = 60, [4, 7, 12], 0.05
    curve = simulate_power_curve(c45, n_datasets=ns, n_simulations=sims, alpha=alpha, rng=3)
    # the same draws: one (simulations x largest N) matrix of row numbers
    gen = np.random.default_rng(3)
    rows = gen.integers(0, c45.values.shape[0], size=(sims, max(ns)))
    x = np.asarray(c45.values)
    tables = [[x[rows[s, :n]] for s in range(sims)] for n in ns]
    for res, (p_id, p_pairs) in zip(curve.results, _brute_force(tables, alpha), strict=True):
        assert res.iman_davenport_power == pytest.approx(p_id, abs=1e-12)
        off = ~np.eye(4, dtype=bool)
        np.testing.assert_allclose(res.pair_power[off], p_pairs[off], atol=1e-12)


def test_shift_curve_equals_a_loop_of_compare():
    sims, ns, mu = 40, [3, 6, 10], np.array([0.0, 0.5, 1.5])
    curve = simulate_power_curve(shift=mu, n_datasets=ns, n_simulations=sims, rng=5)
    gen = np.random.default_rng(5)
    draws = gen.standard_normal((sims, max(ns), 3)) + mu
    tables = [[draws[s, :n] for s in range(sims)] for n in ns]
    for res, (p_id, p_pairs) in zip(curve.results, _brute_force(tables, 0.05), strict=True):
        assert res.iman_davenport_power == pytest.approx(p_id, abs=1e-12)
        off = ~np.eye(3, dtype=bool)
        np.testing.assert_allclose(res.pair_power[off], p_pairs[off], atol=1e-12)


def test_agrees_with_simulate_power_within_monte_carlo_error():
    mu = [0.0, 0.3, 0.8]
    curve = simulate_power_curve(shift=mu, n_datasets=[10, 25], n_simulations=4000, rng=1)
    for t, n in enumerate([10, 25]):
        single = simulate_power(shift=mu, n_datasets=n, n_simulations=4000, rng=2)
        se = np.hypot(curve.results[t].pair_se[0, 2], single.pair_se[0, 2])
        assert abs(curve.results[t].pair_power[0, 2] - single.pair_power[0, 2]) < 4 * se


def test_curve_accessors_and_text():
    curve = simulate_power_curve(shift=[0, 0, 1], n_datasets=[20, 5, 10], n_simulations=500)
    assert isinstance(curve, PowerCurveResult)
    assert curve.n_datasets == (5, 10, 20)  # sorted
    p = curve.power("method 1", "method 3")
    assert p.shape == (3,)
    assert p[-1] > p[0]
    assert curve.se("method 1", "method 3").shape == (3,)
    assert curve.strongest_pairs(1) == [("method 1", "method 3")]
    n = curve.smallest_n(0.5)
    assert n is None or n in curve.n_datasets
    text = str(curve)
    assert "For a methods section:" in text
    assert "Power was estimated from 500 simulated comparisons at each of N = 5, 10, 20" in text
    assert "Monte-Carlo" in text
    d = json.loads(curve.to_json())
    assert d["n_datasets"] == [5, 10, 20]
    assert len(d["results"]) == 3


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"n_datasets": []}, "n_datasets"),
        ({"n_datasets": [5, 5]}, "n_datasets"),
        ({"n_datasets": [1, 5]}, "n_datasets"),
        ({"n_datasets": [5], "n_simulations": 0}, "n_simulations"),
    ],
)
def test_bad_options_are_one_line_errors(kwargs, match):
    with pytest.raises(CdplotError, match=match) as info:
        simulate_power_curve(shift=[0, 1], **kwargs)
    assert "\n" not in str(info.value)


def test_fast_enough_for_the_issue():
    import time

    # issue 30: k = 10, N up to 200, 2,000 simulations within 10 s; here the whole curve
    start = time.process_time()
    simulate_power_curve(
        shift=np.linspace(0, 1, 10), n_datasets=range(10, 201, 10), n_simulations=2000
    )
    assert time.process_time() - start < 10
