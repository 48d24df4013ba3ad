"""compare_ranks: Demsar's analysis from average ranks alone.

Reference values: J. Demšar (2006), "Statistical comparisons of classifiers
over multiple data sets", JMLR 7:1-30, section 3.2.4 (the C4.5 example of
Table 6): average ranks 3.143, 2.000, 2.893, 1.964 on N = 14 data sets give
chi2_F = 9.28, F_F = 3.69 and, with Nemenyi at alpha = 0.05, q = 2.569 and
CD = 1.25; Bonferroni-Dunn q_0.05 = 2.394 (Table 5b).  The exact
Bonferroni-Dunn CD 1.168143 is from /work/shared/seeds/README.md (checked
against the paper and scipy there).  The paper prints two decimals; the
tolerances are half a unit of the last printed digit.
"""

import json
import math
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cdplot
from cdplot.errors import CdplotError
from cdplot.io import AverageRanks
from cdplot.stats._from_ranks import LIMITATIONS, RankComparison, compare_ranks

# Demšar (2006), Table 6, last row
DEMSAR = {"C4.5": 3.143, "C4.5+m": 2.000, "C4.5+cf": 2.893, "C4.5+m+cf": 1.964}


def test_demsar_section_3_2_4_nemenyi():
    res = compare_ranks(DEMSAR, 14)
    assert isinstance(res, RankComparison)
    assert res.friedman.statistic == pytest.approx(9.28, abs=0.005)
    assert res.friedman.dof == 3
    assert not res.friedman.tie_correction
    assert res.iman_davenport.statistic == pytest.approx(3.69, abs=0.005)
    assert res.iman_davenport.dof == (3, 39)
    assert res.critical_value == pytest.approx(2.569, abs=0.0005)
    assert res.critical_difference == pytest.approx(1.25, abs=0.005)
    # Demšar: "the data is not sufficient to conclude" at alpha 0.05 (1.179 < CD)
    assert res.significant_pairs() == ()
    assert res.cliques == (("C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5"),)


def test_demsar_alpha_010_finds_the_papers_two_differences():
    # Demšar, section 3.2.4: at alpha = 0.10 (CD = 1.12) C4.5+m and C4.5+m+cf are
    # significantly better than C4.5
    res = compare_ranks(DEMSAR, 14, alpha=0.10)
    assert res.critical_difference == pytest.approx(1.12, abs=0.005)
    assert set(res.significant_pairs()) == {("C4.5+m+cf", "C4.5"), ("C4.5+m", "C4.5")}


def test_demsar_bonferroni_dunn():
    res = compare_ranks(DEMSAR, 14, test="bonferroni-dunn", control="C4.5")
    assert res.critical_value == pytest.approx(2.394, abs=0.0005)  # Table 5b
    assert res.critical_difference == pytest.approx(1.168143, abs=5e-7)  # seeds README
    assert res.correction == "bonferroni"
    # 3.143 - 1.964 = 1.179 >= 1.168; 3.143 - 2.000 = 1.143 < 1.168
    assert res.significant_pairs() == (("C4.5+m+cf", "C4.5"),)
    assert res.cliques == ()
    assert not res.all_pairs_tested


def test_bonferroni_dunn_defaults_to_the_best_ranked_control():
    assert compare_ranks(DEMSAR, 14, test="bonferroni-dunn").control == "C4.5+m+cf"


def test_friedman_z_uses_the_rank_z_test_with_holm():
    res = compare_ranks(DEMSAR, 14, test="friedman-z")
    assert res.correction == "holm"
    assert res.critical_difference is None
    z = (3.143 - 1.964) / math.sqrt(4 * 5 / (6 * 14))
    assert res.statistics[0, 3] == pytest.approx(z, rel=1e-12)
    p = math.erfc(abs(z) / math.sqrt(2))
    assert res.pvalues_unadjusted[0, 3] == pytest.approx(p, rel=1e-12)
    # Holm: the smallest of six p-values is multiplied by 6
    assert res.pvalues[0, 3] == pytest.approx(min(1.0, 6 * p), rel=1e-12)


@pytest.mark.parametrize(
    "example",
    [
        # the paper's own rank matrix (average ranks 3.143, 2.000, 2.893, 1.964)
        pytest.param("demsar2006-ranks", id="demsar2006-ranks"),
        # the printed 3-decimal AUCs (a tie in the voting row)
        pytest.param("demsar2006", id="demsar2006-printed-auc"),
    ],
)
@pytest.mark.parametrize("test", ["nemenyi", "bonferroni-dunn", "friedman-z"])
@pytest.mark.parametrize("alpha", [0.05, 0.10])
def test_same_answer_as_compare_on_the_full_table(example, test, alpha):
    full = cdplot.compare(cdplot.load_example(example), test=test, alpha=alpha)
    ranks = dict(zip(full.methods, full.average_ranks.tolist(), strict=True))
    res = compare_ranks(ranks, full.n_datasets, test=test, alpha=alpha)
    assert res.critical_value == full.critical_value
    assert res.critical_difference == full.critical_difference
    assert res.cliques == full.cliques
    assert res.control == full.control
    np.testing.assert_array_equal(res.significant, full.significant)
    np.testing.assert_allclose(res.pvalues, full.pvalues, rtol=1e-12, atol=0)
    # average ranks allow only the untied statistic: compare reports it beside the corrected one
    assert res.friedman.statistic == pytest.approx(full.friedman.statistic_uncorrected, rel=1e-12)
    assert res.iman_davenport.statistic == pytest.approx(
        full.iman_davenport.statistic_uncorrected, rel=1e-12
    )
    # the post-hoc words depend on the same fields, so they are the same words
    assert res.posthoc_sentences() == full.posthoc_sentences()


def test_unrounded_ranks_give_the_seed_statistics():
    # /work/shared/seeds/README.md: the paper's rank matrix gives chi2_F = 9.278571
    # (p = 0.025807) and F_F = 3.686313 on (3, 39) (p = 0.019823)
    full = cdplot.compare(cdplot.load_example("demsar2006-ranks"))
    res = compare_ranks(dict(zip(full.methods, full.average_ranks, strict=True)), 14)
    assert res.friedman.statistic == pytest.approx(9.278571, abs=5e-7)
    assert res.friedman.pvalue == pytest.approx(0.025807, abs=5e-7)
    assert res.iman_davenport.statistic == pytest.approx(3.686313, abs=5e-7)
    assert res.iman_davenport.pvalue == pytest.approx(0.019823, abs=5e-7)


def test_rank_sums_that_do_not_add_up():
    bad = dict(DEMSAR, **{"C4.5": 3.5})
    with pytest.raises(CdplotError) as e:
        compare_ranks(bad, 14)
    msg = str(e.value)
    assert "\n" not in msg
    assert "sum to 10.357" in msg  # found
    assert "k(k+1)/2 = 10" in msg  # expected
    assert "rounding of 3 decimals" in msg
    assert "a method is missing or extra" in msg  # the likely cause


def test_rank_sums_given_instead_of_average_ranks():
    sums = {m: r * 14 for m, r in DEMSAR.items()}
    with pytest.raises(CdplotError, match="look like rank sums, not average ranks; divide"):
        compare_ranks(sums, 14)


def test_rounding_within_the_decimals_given_is_accepted():
    # 1/3-type averages printed with 2 decimals: 1.33 + 1.67 + 3.00 = 6.00 but 2.33 + 2.33 +
    # 1.33 = 5.99, within 3 x 0.005
    res = compare_ranks({"a": 2.33, "b": 2.33, "c": 1.33}, 3)
    assert res.n_methods == 3
    with pytest.raises(CdplotError, match="sum to 5.97"):
        compare_ranks({"a": 2.32, "b": 2.32, "c": 1.33}, 3)


def test_exact_ranks_get_no_rounding_slack():
    # Python integers are exact: a sum off by 1 is not rounding
    with pytest.raises(CdplotError, match=r"sum to 5, .* = 6 .* off by more than 6e-09"):
        compare_ranks({"a": 1, "b": 1, "c": 3}, 5)
    assert compare_ranks({"a": 1, "b": 2, "c": 3}, 5).n_methods == 3


@pytest.mark.parametrize(
    ("ranks", "n", "match"),
    [
        pytest.param({"a": 1.0}, 5, "at least 2 methods", id="one-method"),
        pytest.param({}, 5, "at least 2 methods", id="no-method"),
        pytest.param({"a": 0.5, "b": 2.5}, 5, r"0.5 is outside \[1, 2\]", id="below-1"),
        pytest.param({"a": 1.0, "b": 2.5}, 5, r"2.5 is outside \[1, 2\]", id="above-k"),
        pytest.param(DEMSAR, 1, "at least 2 data sets", id="n-1"),
        pytest.param(DEMSAR, 14.5, "not a whole number", id="n-fraction"),
        pytest.param(DEMSAR, "14", "must be the number of data sets", id="n-text"),
        pytest.param(DEMSAR, True, "must be the number of data sets", id="n-bool"),
        pytest.param(DEMSAR, float("nan"), "not a whole number", id="n-nan"),
        pytest.param({"a": "x", "b": 1}, 5, "'x' is not a number", id="not-a-number"),
        pytest.param({"a": float("nan"), "b": 1}, 5, "missing", id="nan-rank"),
        pytest.param([1.5, 1.5], 5, "without names", id="no-names"),
    ],
)
def test_input_errors_are_one_line(ranks, n, match):
    with pytest.raises(CdplotError, match=match) as e:
        compare_ranks(ranks, n)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("test", ["wilcoxon", "sign", "auto"])
def test_tests_that_need_scores_are_refused_by_name(test):
    with pytest.raises(CdplotError, match=rf"option test={test!r}: .* needs the scores"):
        compare_ranks(DEMSAR, 14, test=test)


def test_options_are_checked_as_compare_checks_them():
    with pytest.raises(CdplotError, match="option control='x' is not a method"):
        compare_ranks(DEMSAR, 14, test="bonferroni-dunn", control="x")
    with pytest.raises(CdplotError, match="option correction='holm' does not apply"):
        compare_ranks(DEMSAR, 14, correction="holm")
    with pytest.raises(CdplotError, match="option alpha=1.5 is outside"):
        compare_ranks(DEMSAR, 14, alpha=1.5)


def test_sequence_with_methods_and_average_ranks_object():
    res = compare_ranks([3.143, 2.0, 2.893, 1.964], 14, methods=list(DEMSAR))
    same = compare_ranks(DEMSAR, 14)
    assert res.source != same.source
    assert res == replace(same, source=res.source)
    obj = AverageRanks(methods=tuple(DEMSAR), values=list(DEMSAR.values()), decimals=3)
    assert compare_ranks(obj, 14).critical_difference == res.critical_difference
    with pytest.raises(CdplotError, match="methods= does not apply"):
        compare_ranks(DEMSAR, 14, methods=list(DEMSAR))


def test_pandas_series_is_a_mapping_and_to_frame():
    pd = pytest.importorskip("pandas")
    res = compare_ranks(pd.Series(DEMSAR), 14)
    assert res.methods == tuple(DEMSAR)
    frame = res.to_frame()
    assert frame.index[0] == "C4.5+m+cf"
    assert frame["mean_score"].isna().all()  # no scores


def test_says_what_it_cannot_do():
    res = compare_ranks(DEMSAR, 14)
    assert res.notes[0] == LIMITATIONS
    text = " ".join(str(res).split())
    for phrase in (
        "from their average ranks alone",
        "no Wilcoxon or sign tests",
        "tie correction needs the ranks on each data set",
        "no table of scores or ranks per data set",
        "rank z-tests",
        "(uncorrected)",
    ):
        assert phrase in text
    assert "average ranks only" in repr(res)


def test_to_json_is_compare_shaped():
    res = compare_ranks(DEMSAR, 14)
    d = json.loads(res.to_json())
    full = cdplot.compare(cdplot.load_example("demsar2006")).to_dict()
    assert d["input"] == "average_ranks"
    assert d["limitations"] == LIMITATIONS
    # every key it has means what it means in compare's JSON; what needs scores is absent
    assert set(d) - set(full) == {"input", "limitations"}
    assert set(full) - set(d) <= {"datasets", "dropped_datasets", "dropped_methods", "effect_sizes"}
    assert d["direction_reason"] == "lower is better: the values are average ranks, 1 = best"
    assert d["friedman"]["tie_correction"] is False
    assert d["critical_difference"] == pytest.approx(1.253559, abs=5e-7)
    assert d["cliques"] == [["C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5"]]
    assert d["pvalues"]["C4.5"]["C4.5"] == 1.0


def test_result_is_frozen_and_read_only():
    res = compare_ranks(DEMSAR, 14)
    with pytest.raises(AttributeError):
        res.alpha = 0.1
    with pytest.raises(ValueError, match="read-only"):
        res.average_ranks[0] = 1.0
    assert res.higher_is_better is False
    assert res.order()[0] == "C4.5+m+cf"
    assert res.is_significant("C4.5", "C4.5+m") is False


@settings(max_examples=40, deadline=None)
@given(
    k=st.integers(2, 12),
    n=st.integers(2, 40),
    seed=st.integers(0, 2**32 - 1),
    decimals=st.sampled_from([None, 3, 2]),
)
def test_any_rank_matrix_agrees_with_compare(k, n, seed, decimals):
    # average ranks of a real rank matrix always pass the checks, rounded or not, and give
    # compare's CD and groups when unrounded, whatever the order of the methods
    rng = np.random.default_rng(seed)
    scores = rng.integers(0, 4, size=(n, k)).astype(float)  # many ties
    full = cdplot.compare(scores, methods=[f"m{i}" for i in range(k)])
    avg = full.average_ranks
    if decimals is not None:
        res = compare_ranks(
            dict(zip(full.methods, np.round(avg, decimals).tolist(), strict=True)), n
        )
        assert res.n_methods == k
        return
    perm = rng.permutation(k)
    res = compare_ranks({full.methods[i]: float(avg[i]) for i in perm}, n)
    assert res.critical_difference == full.critical_difference
    assert {frozenset(c) for c in res.cliques} == {frozenset(c) for c in full.cliques}
    assert res.friedman.statistic == pytest.approx(full.friedman.statistic_uncorrected, rel=1e-9)
