"""Tests of cdplot.stats._sign_test.

Paper: Demšar (2006), JMLR 7, section 3.1.3 and Table 3 (critical numbers of
wins).  Peer tool: scipy 1.17.1, ``scipy.stats.binomtest(k, n, p=0.5).pvalue``
(two-sided) for the p-values.
"""

import json

import numpy as np
import pytest
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st

from cdplot.errors import CdplotError
from cdplot.stats import (
    SignTestPairsResult,
    SignTestResult,
    critical_wins,
    sign_test,
    sign_test_pairs,
)

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

# Demšar (2006), Table 3, alpha = 0.05, N = 5..25.
TABLE3_ALPHA05 = dict(
    zip(
        range(5, 26),
        [5, 6, 7, 7, 8, 9, 9, 10, 10, 11, 12, 12, 13, 13, 14, 15, 15, 16, 17, 18, 18],
        strict=True,
    )
)
# Entries where the printed table differs from its own rule N/2 + 1.96 sqrt(N)/2.
TABLE3_OFF_RULE = {13: 11, 18: 14, 24: 17}


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        pytest.param(n, w, id=f"demsar2006-table3-alpha0.05-N{n}")
        for n, w in TABLE3_ALPHA05.items()
        if n not in TABLE3_OFF_RULE
    ],
)
def test_critical_wins_demsar_table3(n, expected):
    assert critical_wins(n, alpha=0.05) == expected


@pytest.mark.parametrize(
    ("n", "rule"), [pytest.param(n, w, id=f"N{n}") for n, w in TABLE3_OFF_RULE.items()]
)
def test_critical_wins_where_table3_departs_from_the_rule(n, rule):
    # ceil(n/2 + 1.96 sqrt(n)/2) is 10.03 -> 11, 13.16 -> 14 and 16.80 -> 17;
    # Table 3 prints 10, 13 and 18 there (it is not this normal rule).
    assert critical_wins(n, alpha=0.05) == rule
    assert rule != TABLE3_ALPHA05[n]


def test_critical_wins_alpha_010_follows_the_rule():
    # No reference row: the same rule with scipy 1.17.1's scipy.stats.norm.isf(0.05).
    n = np.arange(5, 26)
    z = scipy.stats.norm.isf(0.05)
    np.testing.assert_array_equal(critical_wins(n, alpha=0.10), np.ceil(n / 2 + z * np.sqrt(n) / 2))
    assert list(critical_wins(n, alpha=0.10)) == [
        5,
        6,
        6,
        7,
        7,
        8,
        9,
        9,
        10,
        11,
        11,
        12,
        12,
        13,
        14,
        14,
        15,
        15,
        16,
        17,
        17,
    ]


def test_critical_wins_types():
    assert isinstance(critical_wins(14), int)
    assert critical_wins(np.array([5, 14])).tolist() == [5, 11]


def test_demsar_table2_counts():
    # Table 2: C4.5+m is better on 10 data sets, worse on 2, equal on 2;
    # split ties give 11 wins out of 14.
    res = sign_test(C45M, C45)
    assert (res.wins, res.losses, res.ties) == (10, 2, 2)
    assert (res.statistic, res.n) == (11, 14)
    # scipy 1.17.1: scipy.stats.binomtest(11, 14).pvalue == 0.05736...
    assert res.pvalue == pytest.approx(scipy.stats.binomtest(11, 14).pvalue, rel=1e-12)
    assert res.pvalue == pytest.approx(2 * 470 / 16384, rel=1e-12)


@pytest.mark.parametrize(
    ("x", "y", "expected"),
    [
        pytest.param([1, 1, 1], [1, 1, 1], (0, 0, 3, 1, 2), id="three-ties-one-ignored"),
        pytest.param([2, 1, 1, 1], [1, 1, 1, 0], (2, 0, 2, 3, 4), id="two-ties-split"),
        pytest.param([1], [1], (0, 0, 1, 0, 0), id="single-tie-ignored"),
    ],
)
def test_tie_splitting(x, y, expected):
    res = sign_test(x, y)
    assert (res.wins, res.losses, res.ties, res.statistic, res.n) == expected


def test_no_trials_gives_p_one():
    assert sign_test([1.0], [1.0]).pvalue == 1.0


def test_pvalues_match_scipy_binomtest(rng):
    for n in (1, 2, 5, 14, 30, 100, 500):
        x = rng.integers(0, 4, n).astype(float)
        y = rng.integers(0, 4, n).astype(float)
        res = sign_test(x, y)
        expected = scipy.stats.binomtest(res.statistic, res.n).pvalue if res.n else 1.0
        assert res.pvalue == pytest.approx(expected, rel=1e-10)


def test_pairs_match_scalar(rng):
    values = rng.integers(0, 4, size=(17, 5)).astype(float)
    res = sign_test_pairs(values)
    stat, p = res.statistic, res.pvalue
    for i in range(5):
        for j in range(5):
            if i == j:
                assert np.isnan(stat[i, j])
                assert p[i, j] == 1.0
                continue
            res = sign_test(values[:, i], values[:, j])
            assert stat[i, j] == res.statistic
            assert p[i, j] == pytest.approx(res.pvalue, rel=1e-14)
            assert stat[i, j] + stat[j, i] == res.n


def test_pairs_subset(rng):
    values = rng.normal(size=(9, 4))
    res = sign_test_pairs(values, pairs=[(2, 0)])
    stat, p = res.statistic, res.pvalue
    assert np.isfinite(stat[2, 0])
    assert np.isfinite(stat[0, 2])
    assert np.isnan(p[0, 1])
    assert np.isnan(stat[1, 3])


def test_result_is_frozen_and_readable():
    res = sign_test(C45M, C45)
    assert isinstance(res, SignTestResult)
    with pytest.raises(AttributeError):
        res.wins = 3
    text = str(res)
    assert "10 wins, 2 losses, 2 ties" in text
    assert "11 against 3" in text
    assert "p = 0.0574" in text


def test_pairs_result_is_frozen_readable_and_json_safe(rng):
    # C4.5+m against C4.5 on Demsar's (2006) Table 2: 10 wins, 2 losses, 2 ties (as sign_test)
    res = sign_test_pairs(np.column_stack([C45M, C45]))
    assert isinstance(res, SignTestPairsResult)
    with pytest.raises(AttributeError):
        res.pvalue = res.pvalue  # type: ignore[misc]
    with pytest.raises(ValueError, match="read-only"):
        res.statistic[0, 1] = 0.0
    assert res.statistic[0, 1] == 11
    assert res.statistic[1, 0] == 3
    np.testing.assert_array_equal(res.direction(), [[0.0, 1.0], [-1.0, 0.0]])
    assert json.loads(res.to_json()) == {
        "statistic": [[None, 11.0], [3.0, None]],
        "pvalue": [[1.0, res.pvalue[0, 1]], [res.pvalue[0, 1], 1.0]],
    }
    text = str(res)
    assert "1 pair of 2 columns tested" in text
    assert "p = 0.0574" in text
    assert "columns 0 and 1" in text
    assert "not adjusted" in text


@pytest.mark.parametrize(
    ("call", "match"),
    [
        pytest.param(lambda: sign_test([1, 2], [1]), "same length", id="lengths"),
        pytest.param(lambda: sign_test([1, np.inf], [1, 2]), r"x\[1\]=inf", id="inf"),
        pytest.param(
            lambda: sign_test_pairs(np.ones((3, 3)), pairs=[(0, 5)]), "out of range", id="pairs"
        ),
        pytest.param(lambda: critical_wins(0), "n=0", id="n-zero"),
        pytest.param(lambda: critical_wins(5.5), "n=5.5", id="n-float"),
        pytest.param(lambda: critical_wins(10, alpha=1.5), "alpha=1.5", id="alpha"),
    ],
)
def test_errors(call, match):
    with pytest.raises(CdplotError, match=match):
        call()


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_swapping_keeps_p_and_swaps_wins(data):
    x = np.array(data.draw(st.lists(st.integers(0, 3), min_size=1, max_size=40)), dtype=float)
    y = np.array(
        data.draw(st.lists(st.integers(0, 3), min_size=x.size, max_size=x.size)), dtype=float
    )
    a, b = sign_test(x, y), sign_test(y, x)
    assert a.pvalue == b.pvalue
    assert (a.wins, a.losses, a.ties) == (b.losses, b.wins, b.ties)
    assert a.statistic + b.statistic == a.n == b.n
    assert 0.0 < a.pvalue <= 1.0


def test_pairs_in_blocks_equal_pairs_at_once(monkeypatch):
    # Issue 14 (scale): pairs are counted in blocks to bound memory
    from cdplot.stats import _sign_test as s

    values = np.round(np.random.default_rng(3).normal(size=(11, 9)), 1)
    whole = s.sign_test_pairs(values)
    monkeypatch.setattr(s, "_BLOCK_CELLS", 5 * 11)
    blocks = s.sign_test_pairs(values)
    np.testing.assert_array_equal(whole.statistic, blocks.statistic)
    np.testing.assert_array_equal(whole.pvalue, blocks.pvalue)
    assert whole == blocks
