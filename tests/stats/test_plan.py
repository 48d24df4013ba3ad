"""Tests of cdplot.stats._plan: the critical difference solved for N, and CD at a given N."""

import json
import math

import numpy as np
import pytest

import cdplot
from cdplot.errors import CdplotError
from cdplot.stats import PlanResult, critical_difference, critical_value, plan


def _closed_form(k, d, q):
    """Demsar (2006, section 3.2.2): CD = q sqrt(k (k + 1) / (6 N)) <= d solved for N."""
    return math.ceil(q * q * k * (k + 1) / (6 * d * d))


# Demsar (2006), JMLR 7, Table 5, q_alpha as printed (three decimals).  The N computed from
# the printed q agrees with the N from the exact q for these cases (for some others, e.g.
# Nemenyi k = 10, d = 0.5, the printed rounding moves the bound across a whole number).
TABLE5 = [
    pytest.param("nemenyi", 0.05, 4, 2.569, 1.0, id="demsar2006-table5-nemenyi-a0.05-k4"),
    pytest.param("nemenyi", 0.05, 5, 2.728, 1.0, id="demsar2006-table5-nemenyi-a0.05-k5"),
    pytest.param("nemenyi", 0.05, 10, 3.164, 1.0, id="demsar2006-table5-nemenyi-a0.05-k10"),
    pytest.param("nemenyi", 0.10, 6, 2.589, 0.5, id="demsar2006-table5-nemenyi-a0.1-k6"),
    pytest.param(
        "bonferroni-dunn", 0.05, 5, 2.498, 1.0, id="demsar2006-table5-bonferroni-dunn-a0.05-k5"
    ),
    pytest.param(
        "bonferroni-dunn", 0.10, 8, 2.450, 0.5, id="demsar2006-table5-bonferroni-dunn-a0.1-k8"
    ),
]


@pytest.mark.parametrize(("test", "alpha", "k", "q", "d"), TABLE5)
def test_n_from_demsar_table5(test, alpha, k, q, d):
    res = plan(n_methods=k, rank_difference=d, alpha=alpha, test=test)
    assert res.critical_value == pytest.approx(q, abs=1e-3)
    assert res.n_datasets == _closed_form(k, d, q)


@pytest.mark.parametrize("test", ["nemenyi", "bonferroni-dunn"])
@pytest.mark.parametrize("alpha", [0.01, 0.05, 0.10])
@pytest.mark.parametrize(
    ("k", "d"),
    # average ranks of k methods differ by at most k - 1
    [(k, d) for k in (2, 3, 4, 7, 10, 20, 50) for d in (0.25, 0.5, 1.0, 1.7, 3.0) if d <= k - 1],
)
def test_n_is_the_closed_form_with_critical_value(test, alpha, k, d):
    res = plan(n_methods=k, rank_difference=d, alpha=alpha, test=test)
    q = critical_value(k, alpha=alpha, test=test)
    assert res.critical_value == q
    assert res.n_datasets == max(2, _closed_form(k, d, q))
    assert res.bound == pytest.approx(q * q * k * (k + 1) / (6 * d * d), rel=1e-12)
    # the definition, through the public critical_difference: the smallest N with CD <= d
    assert critical_difference(k, res.n_datasets, alpha=alpha, test=test) <= d
    if res.n_datasets > 2:
        assert critical_difference(k, res.n_datasets - 1, alpha=alpha, test=test) > d
    assert res.critical_difference == pytest.approx(
        critical_difference(k, res.n_datasets, alpha=alpha, test=test), rel=1e-14
    )


@pytest.mark.parametrize("k", [3, 4, 10, 25])
@pytest.mark.parametrize("n", [5, 14, 30, 100, 1000])
def test_a_difference_equal_to_the_cd_needs_exactly_that_n(k, n):
    # the bound is then a whole number in exact arithmetic; rounding must not add a data set
    d = critical_difference(k, n)
    assert d <= k - 1
    assert plan(n_methods=k, rank_difference=d).n_datasets == n


@pytest.mark.parametrize("test", ["nemenyi", "bonferroni-dunn"])
@pytest.mark.parametrize("k", [2, 4, 10])
@pytest.mark.parametrize("n", [2, 14, 57])
def test_detectable_difference_is_the_cd_and_inverts_the_plan(test, k, n):
    res = plan(n_methods=k, n_datasets=n, test=test)
    cd = critical_difference(k, n, test=test)
    assert res.solved_for == "rank_difference"
    assert res.n_datasets == n
    assert res.rank_difference == pytest.approx(cd, rel=1e-14)
    assert res.critical_difference == pytest.approx(cd, rel=1e-14)
    if cd <= k - 1:
        assert plan(n_methods=k, rank_difference=cd, test=test).n_datasets == n
    assert res.detectable_difference(4 * n) == pytest.approx(cd / 2, rel=1e-12)


def test_demsar_example_cd():
    # Demsar (2006), section 3.2.2: four methods on 14 data sets, Nemenyi at 0.05,
    # "CD = 2.569 sqrt(4 5 / (6 14)) = 1.25"
    assert plan(n_methods=4, n_datasets=14).critical_difference == pytest.approx(1.25, abs=5e-3)


def test_the_done_when_case_prints_n_and_its_derivation():
    res = plan(n_methods=10, rank_difference=1.0, alpha=0.05)
    q = critical_value(10, alpha=0.05)
    n = _closed_form(10, 1.0, q)
    assert n == 184  # 3.163684^2 * 110 / 6 = 183.4964
    assert res.n_datasets == n
    text = str(res)
    assert f"N = {n} data sets" in text
    assert f"{q:.6f}^2 * 10 * 11 / (6 * 1^2) = {res.bound:.4f}" in text
    assert f"CD at N = {n} is {critical_difference(10, n):.6f} <= 1" in text
    assert f"CD at N = {n - 1} is {critical_difference(10, n - 1):.6f} > 1" in text
    assert "For a methods section:" in text
    assert "Notes:" in text


def test_the_methods_sentence_claims_no_power():
    sentence = plan(n_methods=10, rank_difference=1.0).methods_sentence()
    assert "not a power calculation" in sentence
    assert "observed average-rank difference of 1" in sentence
    assert "N = 184" in sentence
    assert "power" not in sentence.replace("not a power calculation", "")
    given = plan(n_methods=4, n_datasets=14, test="bonferroni-dunn").methods_sentence()
    assert "Bonferroni-Dunn" in given
    assert "1.168 at N = 14" in given
    assert "power" not in given


def test_notes_say_what_the_numbers_do_not():
    res = plan(n_methods=5, rank_difference=3.5)
    assert res.n_datasets < 10
    assert any("not a power calculation" in n for n in res.notes)
    assert any("Friedman test rejects" in n for n in res.notes)
    assert any("approximate" in n for n in res.notes)
    assert not any("approximate" in n for n in plan(n_methods=5, rank_difference=0.5).notes)
    dunn = plan(n_methods=5, n_datasets=20, test="bonferroni-dunn")
    assert any("control" in n for n in dunn.notes)


def test_result_object():
    res = plan(n_methods=4, rank_difference=1.0)
    assert isinstance(res, PlanResult)
    d = json.loads(res.to_json())
    assert d["n_datasets"] == res.n_datasets == 22
    assert d["solved_for"] == "n_datasets"
    assert d["derivation"] == res.derivation()
    assert d["methods_sentence"] == res.methods_sentence()
    assert repr(res) == "<PlanResult: nemenyi, k=4, alpha=0.05: d=1 at N=22>"
    with pytest.raises(AttributeError):
        res.n_datasets = 3
    with pytest.raises(TypeError):
        res.options["alpha"] = 0.1
    assert res == plan(n_methods=4, rank_difference=1.0)
    assert res != plan(n_methods=4, rank_difference=1.0, alpha=0.1)
    assert "<table>" in res._repr_html_()


def test_numpy_counts_are_accepted():
    assert plan(n_methods=np.int64(4), n_datasets=np.int64(14)) == plan(n_methods=4, n_datasets=14)


def test_top_level_names():
    assert cdplot.plan is plan
    assert cdplot.PlanResult is PlanResult


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"n_methods": 4}, "exactly one of rank_difference= .* and n_datasets="),
        ({"n_methods": 4, "rank_difference": 1, "n_datasets": 9}, "exactly one"),
        ({"n_methods": 1, "n_datasets": 9}, r"option n_methods=1: there must be at least 2"),
        ({"n_methods": 3.5, "n_datasets": 9}, "not a whole number of methods"),
        ({"n_methods": 4, "n_datasets": 1}, r"n_datasets=1: a comparison over data sets needs"),
        ({"n_methods": 4, "rank_difference": 3.01}, r"rank_difference=3.01 is outside \(0, 3\]"),
        ({"n_methods": 4, "rank_difference": 0}, r"rank_difference=0 is outside \(0, 3\]"),
        ({"n_methods": 4, "rank_difference": float("nan")}, "is outside"),
        ({"n_methods": 4, "rank_difference": "big"}, "rank_difference='big' is not a number"),
        ({"n_methods": 4, "n_datasets": 9, "alpha": 1.5}, r"alpha=1.5 is outside \(0, 1\)"),
        ({"n_methods": 4, "n_datasets": 9, "test": "friedman-z"}, "test"),
    ],
)
def test_bad_input_is_one_line(kwargs, match):
    with pytest.raises(CdplotError, match=match) as info:
        plan(**kwargs)
    assert "\n" not in str(info.value)
