import json
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import cdplot
from cdplot.errors import CdplotError
from cdplot.io import ScoreTable
from cdplot.stats._compare import compare_table


def table(x, methods=None, datasets=None):
    x = np.asarray(x, dtype=float)
    n, k = x.shape
    return ScoreTable(
        values=x,
        methods=methods or [f"m{j}" for j in range(k)],
        datasets=datasets or [f"d{i}" for i in range(n)],
    )


def test_demsar_printed_auc_nemenyi(c45):
    res = cdplot.compare(c45)
    assert res.order() == ("C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5")
    np.testing.assert_allclose(res.average_ranks, [44 / 14, 28 / 14, 41 / 14, 27 / 14])
    assert res.critical_difference == pytest.approx(1.253559, abs=5e-7)
    # no difference reaches CD = 1.254 at alpha 0.05: one group of all four
    assert res.cliques == (("C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5"),)
    assert not res.significant.any()
    assert res.rejected


def test_demsar_paper_ranks_nemenyi_at_010(c45_ranks):
    # Demsar 2006 section 3.2.2: at alpha = 0.10 (CD = 1.12) C4.5 is significantly worse
    # than C4.5+m and C4.5+m+cf, and the data cannot tell where C4.5+cf belongs.
    res = cdplot.compare(c45_ranks, alpha=0.10)
    assert res.higher_is_better is False  # the example declares its direction
    assert res.critical_difference == pytest.approx(1.118060, abs=5e-7)
    assert set(res.significant_pairs()) == {("C4.5+m+cf", "C4.5"), ("C4.5+m", "C4.5")}
    assert res.cliques == (("C4.5+m+cf", "C4.5+m", "C4.5+cf"), ("C4.5+cf", "C4.5"))
    assert ("C4.5+m+cf", "C4.5+cf", "C4.5") in res.bridges
    assert "C4.5+m+cf is significantly better than C4.5" in res.conclusion()


def test_demsar_bonferroni_dunn_control(c45_ranks):
    # Demsar 2006 section 3.2.2, Bonferroni-Dunn with C4.5 as control: CD = 1.168 at 0.05;
    # only C4.5+m+cf (difference 1.179) is significantly better.
    res = cdplot.compare(c45_ranks, test="bonferroni-dunn", control="C4.5")
    assert res.critical_difference == pytest.approx(1.168143, abs=5e-7)
    assert res.significant_pairs() == (("C4.5+m+cf", "C4.5"),)
    assert res.correction == "bonferroni"
    assert math.isnan(res.pvalue("C4.5+m", "C4.5+cf"))


def test_bonferroni_dunn_defaults_to_best_control(c45):
    assert cdplot.compare(c45, test="bonferroni-dunn").control == "C4.5+m+cf"


def test_demsar_holm_against_control(c45_ranks):
    # Demsar 2006 section 3.2.2: Holm's procedure rejects C4.5 vs C4.5+m+cf (p = 0.0157 <
    # 0.05/3) and vs C4.5+m (p = 0.0192 < 0.05/2), not vs C4.5+cf (p = 0.6084).
    res = cdplot.compare(c45_ranks, test="friedman-z", correction="holm", control="C4.5")
    assert res.pvalues_unadjusted[0, 3] == pytest.approx(0.015720, abs=5e-7)
    assert res.pvalue("C4.5", "C4.5+m+cf") == pytest.approx(3 * 0.015720, abs=2e-6)
    assert res.pvalue("C4.5", "C4.5+m") == pytest.approx(3 * 0.015720, abs=2e-6)
    assert res.pvalue("C4.5", "C4.5+cf") == pytest.approx(0.608408, abs=5e-7)
    assert set(res.significant_pairs()) == {("C4.5+m+cf", "C4.5"), ("C4.5+m", "C4.5")}


def test_wilcoxon_pairwise_uses_scores(c45):
    res = cdplot.compare(c45, test="wilcoxon", correction="holm")
    # Demsar Table 2: C4.5 vs C4.5+m, zsplit: T = 12, p = 0.010968 (scipy 1.17)
    assert res.statistics[0, 1] == pytest.approx(12.0)
    assert res.pvalues_unadjusted[0, 1] == pytest.approx(0.010968, abs=5e-7)
    assert res.correction == "holm"
    assert res.critical_difference is None


def test_sign_test_runs(c45):
    res = cdplot.compare(c45, test="sign", correction="bonferroni")
    assert res.pvalues.shape == (4, 4)
    assert np.all((res.pvalues >= res.pvalues_unadjusted - 1e-15) | np.isnan(res.pvalues))


@pytest.mark.parametrize(
    "correction", ["bonferroni", "holm", "hochberg", "hommel", "shaffer", "bergmann"]
)
def test_every_correction_runs(c45, correction):
    res = cdplot.compare(c45, test="friedman-z", correction=correction)
    assert res.correction == correction
    assert np.all(res.pvalues >= res.pvalues_unadjusted - 1e-12)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"alpha": 0.0}, "alpha=0.0 is outside"),
        ({"alpha": 1}, "outside"),
        ({"test": "tukey"}, "test='tukey'"),
        ({"correction": "holm"}, "does not apply to test='nemenyi'"),
        ({"control": "C4.5"}, "does not apply to test='nemenyi'"),
        ({"test": "bonferroni-dunn", "control": "J48"}, "control='J48' is not a method"),
        (
            {"test": "bonferroni-dunn", "correction": "holm"},
            "does not apply to test='bonferroni-dunn'",
        ),
        ({"test": "wilcoxon", "correction": "shaffer", "control": "C4.5"}, "needs all pairwise"),
        ({"test": "wilcoxon", "zero_method": "drop"}, "zero_method='drop'"),
        ({"higher_is_better": "yes"}, "higher_is_better='yes'"),
        ({"nan_policy": "ignore"}, "nan_policy='ignore'"),
    ],
)
def test_bad_options_raise_cdplot_error(c45, kwargs, message):
    with pytest.raises(CdplotError, match=message):
        cdplot.compare(c45, **kwargs)


def test_json_has_documented_keys(c45):
    d = json.loads(cdplot.compare(c45).to_json())
    for key in [
        "n_datasets",
        "n_methods",
        "alpha",
        "higher_is_better",
        "test",
        "average_ranks",
        "friedman",
        "iman_davenport",
        "critical_value",
        "critical_difference",
        "pvalues",
        "cliques",
    ]:
        assert key in d
    assert set(d["friedman"]) >= {"statistic", "pvalue", "dof"}
    assert d["iman_davenport"]["dof"] == [3, 39]
    assert d["pvalues"]["C4.5"]["C4.5+m"] == pytest.approx(0.08867271, abs=5e-9)
    assert d["cliques"] == [["C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5"]]


def test_result_is_immutable(c45):
    res = cdplot.compare(c45)
    with pytest.raises(ValueError, match="read-only"):
        res.average_ranks[0] = 0
    with pytest.raises(AttributeError):
        res.alpha = 0.1


def test_str_states_conclusion(c45_ranks):
    text = " ".join(str(cdplot.compare(c45_ranks, alpha=0.10)).split())
    assert "rejects the hypothesis that all methods perform equally at alpha = 0.1" in text
    assert "CD = 1.118" in text


def test_not_rejected_says_so():
    x = np.array([[1, 2, 3], [3, 2, 1], [2, 3, 1], [1, 3, 2]], dtype=float)
    res = compare_table(table(x))
    assert not res.rejected
    assert "does not reject" in res.conclusion()
    # a note, printed under "Notes:" on its own line
    assert any("for completeness only" in n for n in res.notes)
    assert "for completeness only" not in res.conclusion()
    text = str(res)
    assert "\nNotes:\n" in text
    assert text.split("Notes:\n")[1].startswith("  - ")


scores = st.integers(2, 12).flatmap(
    lambda n: st.integers(2, 7).flatmap(
        lambda k: arrays(
            np.float64, (n, k), elements=st.sampled_from([0.0, 0.2, 0.5, 0.51, 0.9, 1.0])
        )
    )
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    scores,
    st.randoms(use_true_random=False),
    st.sampled_from(["nemenyi", "friedman-z", "wilcoxon", "sign"]),
)
def test_invariant_to_row_and_column_order(x, random, test):
    n, k = x.shape
    a = compare_table(table(x), test=test)
    rows = list(range(n))
    cols = list(range(k))
    random.shuffle(rows)
    random.shuffle(cols)
    b = compare_table(
        table(x[np.ix_(rows, cols)], [f"m{j}" for j in cols], [f"d{i}" for i in rows]), test=test
    )
    for m in a.methods:
        assert b.average_rank(m) == pytest.approx(a.average_rank(m))
        for m2 in a.methods:
            assert b.is_significant(m, m2) == a.is_significant(m, m2)
            pa, pb = a.pvalue(m, m2), b.pvalue(m, m2)
            assert (math.isnan(pa) and math.isnan(pb)) or pb == pytest.approx(
                pa, rel=1e-9, abs=1e-12
            )
    assert {frozenset(c) for c in a.cliques} == {frozenset(c) for c in b.cliques}
    assert a.friedman.statistic == pytest.approx(b.friedman.statistic)


@settings(max_examples=60, deadline=None)
@given(scores)
def test_flipping_direction_mirrors(x):
    a = compare_table(table(x), higher_is_better=True)
    b = compare_table(table(-x), higher_is_better=False)
    c = compare_table(table(x), higher_is_better=False)
    np.testing.assert_allclose(a.average_ranks, b.average_ranks)
    np.testing.assert_allclose(c.average_ranks, a.n_methods + 1 - a.average_ranks)
    assert a.cliques == b.cliques


@pytest.mark.parametrize("test", ["nemenyi", "bonferroni-dunn", "friedman-z", "wilcoxon", "sign"])
def test_constant_data_never_crashes(test):
    res = compare_table(table(np.full((5, 4), 0.7)), test=test)
    assert res.friedman.pvalue == 1.0
    assert not res.significant.any()
    # a control analysis (Bonferroni-Dunn) forms no groups (issue 8 item 2)
    assert len(res.cliques) == (0 if test == "bonferroni-dunn" else 1)
    json.dumps(res.to_dict())
    str(res)


def test_pratt_exact_never_turns_a_tie_of_rank_sums_into_a_side():
    # Issue 31, item 2: B - A = 16 zeros and +-1, +-2 gives R+ = R- = 37.  scipy 1.17.1's
    # method='exact' (the untied distribution of ranks 1..20) gives p = 0.0094 for Pratt,
    # and the claim took its side from the column order.  Pratt's exact distribution of
    # the nonzero ranks is symmetric about 37 (Pratt 1959): p = 1, no claim.
    d = np.array([0.0] * 16 + [1, -1, 2, -2]) / 100
    a = np.linspace(0.5, 0.9, 20)
    res = cdplot.compare(
        np.column_stack([a, a + d]),
        methods=["A", "B"],
        test="wilcoxon",
        zero_method="pratt",
        method="exact",
    )
    assert res.pvalues_unadjusted[0, 1] == 1.0
    assert res.significant_pairs() == ()
    assert "significantly better" not in str(res)


@pytest.mark.parametrize(
    "correction", ["bonferroni", "holm", "hochberg", "hommel", "shaffer", "bergmann"]
)
@pytest.mark.parametrize("zero_method", ["wilcox", "pratt"])
def test_identical_columns_get_p_one_under_every_correction(rng, correction, zero_method):
    # Issue 13 item 7: with N > 13 the normal approximation of the Wilcoxon
    # test has no variance for two identical columns (scipy 1.17 gives NaN);
    # Holm used to drop the pair silently and Shaffer/Bergmann refused it.
    x = rng.random((20, 4))
    x[:, 1] = x[:, 0]
    res = cdplot.compare(
        x, test="wilcoxon", zero_method=zero_method, correction=correction, methods=list("ABCD")
    )
    assert res.pvalues_unadjusted[0, 1] == 1.0
    assert res.pvalues[0, 1] == 1.0
    assert not res.is_significant("A", "B")
    assert np.isfinite(res.pvalues).all()
    assert any("A and B have no nonzero score difference" in n for n in res.notes)
    # the other pairs are adjusted in a family of all 6 pairs (Bonferroni: 6 p)
    if correction == "bonferroni":
        np.testing.assert_allclose(
            res.pvalues[2, 3], min(1.0, 6 * res.pvalues_unadjusted[2, 3]), rtol=1e-12
        )
