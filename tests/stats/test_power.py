"""Tests of cdplot.stats._power: simulated power against a brute-force loop, and its claims."""

import json
import math

import numpy as np
import pytest
from scipy import stats

import cdplot
from cdplot.errors import CdplotError
from cdplot.stats import (
    PowerResult,
    compare,
    critical_difference,
    friedman_from_ranks,
    rank_data,
    simulate_power,
)


def _brute_force(tables, alpha):
    """One comparison at a time, through cdplot's own analysis and scipy's Friedman test."""
    k = tables[0].shape[1]
    hits_f = hits_id = 0
    hits = np.zeros((k, k))
    for x in tables:
        ranks = rank_data(x)
        fr, idr = friedman_from_ranks(ranks)
        if x.shape[0] > 2 and np.ptp(ranks, axis=1).all():
            # scipy 1.17 friedmanchisquare (tie-corrected) agrees where it is defined
            assert fr.statistic == pytest.approx(stats.friedmanchisquare(*x.T).statistic)
        hits_f += fr.pvalue < alpha
        hits_id += idr.pvalue < alpha
        hits += compare(x, alpha=alpha, test="nemenyi").significant
    return hits_f, hits_id, hits


def test_shift_model_equals_a_brute_force_loop():
    sims, n, mu, alpha = 300, 8, np.array([0.0, 0.3, 0.6, 1.2]), 0.05
    res = simulate_power(shift=mu, n_datasets=n, n_simulations=sims, alpha=alpha, rng=7)
    # the same draws, one comparison at a time (one chunk holds all 300 simulations)
    draws = np.random.default_rng(7).standard_normal((sims, n, mu.size)) + mu
    hits_f, hits_id, hits = _brute_force(list(draws), alpha)
    assert res.friedman_power == hits_f / sims
    assert res.iman_davenport_power == hits_id / sims
    off = ~np.eye(mu.size, dtype=bool)
    np.testing.assert_array_equal(res.pair_power[off], (hits / sims)[off])
    assert np.isnan(np.diag(res.pair_power)).all()
    assert res.friedman_se == pytest.approx(math.sqrt(hits_f / sims * (1 - hits_f / sims) / sims))


def test_resampling_equals_a_brute_force_loop():
    (table,) = cdplot.load_example("demsar2006")
    x = table.values
    sims, n, alpha = 200, 10, 0.10
    res = simulate_power(table, n_datasets=n, n_simulations=sims, alpha=alpha, rng=3)
    counts = np.random.default_rng(3).multinomial(n, np.full(len(x), 1 / len(x)), size=sims)
    tables = [np.repeat(x, c, axis=0) for c in counts]  # the rows each simulation drew
    hits_f, hits_id, hits = _brute_force(tables, alpha)
    assert res.friedman_power == hits_f / sims
    assert res.iman_davenport_power == hits_id / sims
    off = ~np.eye(4, dtype=bool)
    np.testing.assert_array_equal(res.pair_power[off], (hits / sims)[off])
    assert res.methods == table.methods
    assert res.critical_difference == pytest.approx(critical_difference(4, n, alpha=alpha))


@pytest.mark.parametrize("model", ["shift", "resample"])
def test_chunks_do_not_change_the_result(monkeypatch, model):
    from cdplot.stats import _power

    data = {"shift": [0, 0.2, 0.5]} if model == "shift" else {"scores": [[1, 2, 3], [3, 1, 2]]}
    whole = simulate_power(**data, n_datasets=20, n_simulations=250, rng=5)
    monkeypatch.setattr(_power, "_CHUNK_CELLS", 20 * 3 * 7)  # 7 simulations per chunk
    # numpy draws a big array and its pieces from the same stream, in the same order
    assert simulate_power(**data, n_datasets=20, n_simulations=250, rng=5) == whole


def test_under_the_null_the_rejection_rate_is_alpha():
    res = simulate_power(shift=np.zeros(6), n_datasets=40, n_simulations=4000, rng=11)
    # 4 Monte-Carlo standard errors of alpha = 0.05 with 4000 simulations: 0.0138
    tol = 4 * math.sqrt(0.05 * 0.95 / 4000)
    assert abs(res.friedman_power - 0.05) < tol
    assert abs(res.iman_davenport_power - 0.05) < tol
    # Nemenyi's family-wise error rate is at most alpha (any pair significant)
    assert np.nanmax(res.pair_power) < 0.05


def test_power_grows_with_n_and_is_seedable():
    small = simulate_power(shift=[0, 0, 0.4], n_datasets=10, n_simulations=1000, rng=2)
    large = simulate_power(shift=[0, 0, 0.4], n_datasets=60, n_simulations=1000, rng=2)
    assert large.friedman_power > small.friedman_power + 0.2
    assert large.power("method 1", "method 3") > small.power("method 1", "method 3")
    assert small == simulate_power(shift=[0, 0, 0.4], n_datasets=10, n_simulations=1000, rng=2)
    gen = np.random.default_rng(2)
    again = simulate_power(shift=[0, 0, 0.4], n_datasets=10, n_simulations=1000, rng=gen)
    assert again.friedman_power == small.friedman_power
    np.testing.assert_array_equal(again.pair_power, small.pair_power)


def test_lower_is_better_flips_the_shift():
    up = simulate_power(shift={"a": 0, "b": 1}, n_datasets=10, n_simulations=50, rng=4)
    down = simulate_power(
        shift={"a": 0, "b": -1}, n_datasets=10, n_simulations=50, higher_is_better=False, rng=4
    )
    assert up.friedman_power == down.friedman_power
    np.testing.assert_array_equal(up.pair_power, down.pair_power)
    assert up.methods == down.methods == ("a", "b")
    assert down.options["shift"] == [0, -1]  # as given
    assert "method means 0, -1" in down.methods_sentence()


def test_result_object_and_text():
    res = simulate_power(shift=[0, 0.5, 1.0], n_datasets=12, n_simulations=400, rng=0)
    assert isinstance(res, PowerResult)
    assert cdplot.simulate_power is simulate_power
    d = json.loads(res.to_json())
    assert d["n_simulations"] == 400
    assert d["pair_power"]["method 1"]["method 3"] == res.power("method 1", "method 3")
    assert d["pair_power"]["method 1"]["method 1"] is None
    text = str(res)
    assert f"{res.friedman_power:.3f} +/- {res.friedman_se:.3f}" in text
    assert "Monte-Carlo standard error" in text
    assert "normal" in text
    assert not res.pair_power.flags.writeable
    with pytest.raises(CdplotError, match="unknown method 'x'"):
        res.power("x", "method 1")


def test_the_stated_speed_case_runs():
    # issue 30: k = 10, N = 200, 2,000 simulations within 10 s (here well under a second)
    res = simulate_power(shift=np.linspace(0, 1, 10), n_datasets=200, n_simulations=2000)
    assert res.n_simulations == 2000
    assert res.friedman_power == 1.0


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"n_datasets": 10}, "exactly one of scores"),
        ({"scores": [[1, 2], [2, 1]], "shift": [0, 1], "n_datasets": 10}, "exactly one"),
        ({"shift": [0.5], "n_datasets": 10}, "at least 2 methods"),
        ({"shift": [0, np.nan], "n_datasets": 10}, "not finite"),
        ({"shift": [0, 1], "n_datasets": 1}, r"n_datasets=1"),
        ({"shift": [0, 1], "n_datasets": 5, "n_simulations": 0}, "n_simulations=0"),
        ({"shift": [0, 1], "n_datasets": 5, "alpha": 0}, r"alpha=0 is outside"),
        ({"shift": [0, 1], "n_datasets": 5, "rng": -1}, "rng=-1"),
        ({"shift": [0, 1], "n_datasets": 5, "rng": "x"}, "rng='x'"),
    ],
)
def test_bad_input_is_one_line(kwargs, match):
    with pytest.raises(CdplotError, match=match) as info:
        simulate_power(**kwargs)
    assert "\n" not in str(info.value)
