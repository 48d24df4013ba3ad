"""Tests of McNemar's test (cdplot/stats/_mcnemar.py).

Peer values are literals from statsmodels 0.15.0:
``statsmodels.stats.contingency_tables.mcnemar(table, exact=E, correction=True)``.
"""

import json

import numpy as np
import pytest

from cdplot.errors import CdplotError
from cdplot.stats._mcnemar import mcnemar, mcnemar_from_predictions


@pytest.mark.parametrize(
    ("table", "exact_p", "chi2", "chi2_p"),
    [
        pytest.param(
            [[10, 5], [15, 70]],
            0.04138946533203125,
            4.05,
            0.04417134490844271,
            id="statsmodels-0.15-10-5-15-70",
        ),
        pytest.param(
            [[59, 6], [16, 80]],
            0.052478790283203125,
            3.6818181818181817,
            0.055008833629265896,
            id="statsmodels-0.15-59-6-16-80",
        ),
        pytest.param(
            [[101, 121], [59, 33]],
            4.4344492637551645e-06,
            20.67222222222222,
            5.450094825427117e-06,
            id="statsmodels-0.15-101-121-59-33",
        ),
    ],
)
def test_against_statsmodels(table, exact_p, chi2, chi2_p):
    ex = mcnemar(table, method="exact")
    assert ex.pvalue == pytest.approx(exact_p, rel=1e-9)
    assert ex.statistic == min(table[0][1], table[1][0])
    asy = mcnemar(table, method="asymptotic")
    assert asy.statistic == pytest.approx(chi2, rel=1e-12)
    assert asy.pvalue == pytest.approx(chi2_p, rel=1e-9)


def test_formula_22_of_yangs_survey():
    # (|n01 - n10| - 1)^2 / (n01 + n10) ~ chi2(1)
    r = mcnemar([[3, 12], [30, 55]], method="asymptotic")
    assert r.statistic == pytest.approx((abs(12 - 30) - 1) ** 2 / 42)
    assert r.continuity is True
    plain = mcnemar([[3, 12], [30, 55]], method="asymptotic", continuity=False)
    assert plain.statistic == pytest.approx(18**2 / 42)


def test_auto_switches_to_exact_for_few_disagreements():
    assert mcnemar([[10, 5], [15, 70]]).distribution == "exact"
    assert "exact binomial" in mcnemar([[10, 5], [15, 70]]).notes[0]
    assert mcnemar([[59, 10], [16, 80]]).distribution == "asymptotic"


def test_from_predictions_builds_the_table():
    y = ["a", "b", "a", "a", "b", "b", "a", "b"]
    pa = ["a", "b", "a", "a", "b", "b", "a", "a"]  # one error (last)
    pb = ["b", "a", "a", "b", "b", "a", "a", "a"]  # errors on 0, 1, 3, 5, 7
    r = mcnemar_from_predictions(y, pa, pb, methods=("svm", "knn"))
    assert r.table.tolist() == [[1, 0], [4, 3]]
    assert r.n10 == 4
    assert r.n01 == 0
    assert r.pvalue == pytest.approx(0.125)  # 2 * 0.5**4
    assert "no significant difference" in str(r)


def test_better_direction():
    # n01 = A wrong, B right: 121 > 59 so B is better
    r = mcnemar([[101, 121], [59, 33]], methods=("A", "B"))
    assert r.better() == "B"
    assert str(r).startswith("McNemar's test: B has a significantly lower error rate than A")
    assert json.loads(json.dumps(r.to_dict()))["better"] == "B"


@pytest.mark.parametrize(
    ("table", "message"),
    [
        pytest.param([[1, 2, 3]], "2x2 table", id="shape"),
        pytest.param([[1, -2], [3, 4]], "whole numbers >= 0", id="negative"),
        pytest.param([[1, 0.5], [3, 4]], "whole numbers >= 0", id="fraction"),
        pytest.param([[10, 0], [0, 20]], "no disagreements", id="no-disagreement"),
    ],
)
def test_bad_tables(table, message):
    with pytest.raises(CdplotError, match=message):
        mcnemar(table)


def test_bad_options_and_predictions():
    with pytest.raises(CdplotError, match="option method='chi2'"):
        mcnemar([[1, 2], [3, 4]], method="chi2")
    with pytest.raises(CdplotError, match="same examples; got 3, 2 and 3"):
        mcnemar_from_predictions([1, 0, 1], [1, 0], [1, 1, 1])
    assert np.asarray(mcnemar([1, 2, 3, 4]).table).shape == (2, 2)
