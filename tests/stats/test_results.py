"""What the comparison result says (issue 13 item 1, issue 8 item 2, issue 14 scale)."""

import json
import sys

import numpy as np
import pytest
import scipy.stats

import cdplot


def _sign_case():
    # Issue 13 item 1: A beats B on 65 of 100 data sets, yet B's average rank
    # (1.65) is below A's (1.70) because of C.
    x = np.array([[0.90, 0.89, 0.50]] * 65 + [[0.50, 0.90, 0.60]] * 35)
    return cdplot.compare(x, test="sign", correction="holm", methods=["A", "B", "C"])


def test_sign_test_claims_follow_the_wins_not_the_ranks():
    res = _sign_case()
    np.testing.assert_allclose(res.average_ranks, [1.70, 1.65, 2.65])
    # peer: scipy 1.17 scipy.stats.binomtest(65, 100).pvalue = 0.00352 (issue: 0.0035,
    # Holm 0.0070)
    assert res.pvalues_unadjusted[0, 1] == pytest.approx(scipy.stats.binomtest(65, 100).pvalue)
    assert round(res.pvalues[0, 1], 4) == 0.0070
    assert ("A", "B") in res.significant_pairs()
    assert ("B", "A") not in res.significant_pairs()
    assert res.direction_conflicts() == (("A", "B"),)
    text = " ".join(str(res).split())
    assert "A is significantly better than B and C" in text
    assert "B is significantly better than A" not in text
    assert "although B has the better average rank (1.650 against 1.700)" in text
    d = json.loads(res.to_json())
    assert ["A", "B"] in d["significant_pairs"]
    assert d["direction_conflicts"] == [["A", "B"]]


def test_wilcoxon_claims_follow_the_rank_sums_not_the_ranks():
    # A wins by 0.8 on 40 data sets, B by 0.01 on 60; C sits between them, so B
    # has the better average rank (1.8 against 2.2) while Wilcoxon's R+ favours A.
    x = np.array([[0.9, 0.1, 0.5]] * 40 + [[0.5, 0.51, 0.505]] * 60)
    res = cdplot.compare(x, test="wilcoxon", correction="holm", methods=["A", "B", "C"])
    np.testing.assert_allclose(res.average_ranks, [2.2, 1.8, 2.0])
    # peer: scipy 1.17 scipy.stats.wilcoxon(x[:, 0], x[:, 1]) (two-sided, normal
    # approximation with tie correction, no continuity correction)
    ref = scipy.stats.wilcoxon(x[:, 0], x[:, 1], method="asymptotic")
    assert res.pvalues_unadjusted[0, 1] == pytest.approx(ref.pvalue, rel=1e-9)
    assert res.direction[0, 1] == 1
    assert res.direction[1, 0] == -1
    assert round(res.pvalues[0, 1], 4) == 0.0398  # Holm over the three pairs
    assert ("A", "B") in res.significant_pairs()
    assert ("A", "B") in res.direction_conflicts()
    text = " ".join(str(res).split())
    assert "The Wilcoxon signed-rank test finds A significantly better than B, although" in text


@pytest.mark.parametrize("test", ["nemenyi", "friedman-z"])
def test_rank_tests_take_the_side_of_the_average_ranks(test):
    res = cdplot.compare(cdplot.load_example("demsar2006"), test=test)
    assert res.direction_conflicts() == ()
    for a, b in res.significant_pairs():
        assert res.average_rank(a) < res.average_rank(b)


@pytest.mark.parametrize(
    ("test", "correction"),
    [("bonferroni-dunn", None), ("friedman-z", "holm"), ("wilcoxon", "holm"), ("sign", "hommel")],
)
def test_control_mode_makes_no_statement_about_untested_pairs(test, correction):
    # Issue 8 item 2: tests against a control say nothing about two other
    # methods, so no groups and no "differs from neither".
    data = cdplot.load_example("demsar2006")
    res = cdplot.compare(data, test=test, correction=correction, control="C4.5+cf")
    assert not res.all_pairs_tested
    assert (res.cliques, res.unjoined, res.bridges) == ((), (), ())
    for a, b in res.significant_pairs():
        assert "C4.5+cf" in (a, b)
    text = " ".join(str(res).split())
    assert "Only comparisons with the control C4.5+cf were tested" in text
    assert "Groups of methods" not in text
    assert "differs from neither" not in text
    d = json.loads(res.to_json())
    assert d["all_pairs_tested"] is False
    assert [d["cliques"], d["unjoined"], d["bridges"]] == [None, None, None]


def test_all_pairs_mode_still_forms_groups():
    res = cdplot.compare(cdplot.load_example("demsar2006"))
    assert res.all_pairs_tested
    d = json.loads(res.to_json())
    assert d["all_pairs_tested"] is True
    assert d["cliques"] == [list(c) for c in res.cliques]


def test_conclusion_stays_bounded_at_many_methods(rng):
    # Issue 14 (scale): 2,000 methods gave a 7 MB conclusion; listing stops at
    # MAX_LISTED_PAIRS pairs and MAX_LISTED_NAMES names in groups.
    k, n = 300, 40
    x = rng.normal(size=(n, k)) + np.linspace(0, 6, k)
    res = cdplot.compare(x)
    n_sig = len(res.significant_pairs())
    assert n_sig > 1000
    text = res.conclusion()
    assert len(text) < 6000
    assert f"{n_sig} of the {k * (k - 1) // 2} pairs tested differ significantly" in text


def test_json_leaves_the_matrices_out_above_the_limit_and_says_so(rng):
    from cdplot.stats._results import JSON_MATRIX_MAX_METHODS

    k = JSON_MATRIX_MAX_METHODS + 1
    res = cdplot.compare(rng.normal(size=(6, k)) + np.linspace(0, 5, k))
    d = json.loads(res.to_json())
    assert [d["statistics"], d["pvalues_unadjusted"], d["pvalues"]] == [None, None, None]
    assert f"the {k} x {k} matrices" in d["matrices_omitted"]
    assert len(d["significant_pairs"]) == len(res.significant_pairs())
    full = res.to_dict(matrices=True)
    assert full["matrices_omitted"] is None
    assert full["pvalues"]["method 1"]["method 2"] == res.pvalue("method 1", "method 2")
    small = cdplot.compare(cdplot.load_example("demsar2006")).to_dict()
    assert small["matrices_omitted"] is None
    assert small["pvalues"]["C4.5"]["C4.5"] == 1.0


def test_posthoc_sentences_without_remarks_keep_everything_else():
    # the report leaves the remarks on bridges and unjoined pairs to its pairwise
    # section; cutting sentences off the end removed real ones when the remarks
    # were summarised (more than three) or the direction sentences came first
    rng = np.random.default_rng(7)
    res = cdplot.compare(rng.normal(size=(30, 25)) + np.linspace(0, 2, 25))
    assert len(res.bridges) > 3
    full = res.posthoc_sentences()
    short = res.posthoc_sentences(remarks=False)
    assert full[: len(short)] == short
    assert not any("differs from neither" in s for s in short)
    assert any("differs from neither" in s for s in full[len(short) :])


# Issue 31, item 5: the omnibus verdict is Iman and Davenport's F_F (Demšar 2006, section
# 3.2.2); on this table the Friedman chi2_F alone does not reject at 0.05.
# scipy 1.17.1: scipy.stats.friedmanchisquare(*OMNIBUS_SPLIT.T) -> statistic 5.851852,
# pvalue 0.053615; F_F = 7 * 5.851852 / (8 * 2 - 5.851852) = 4.036 on (2, 14) df,
# scipy.stats.f.sf(4.036, 2, 14) = 0.0413.
OMNIBUS_SPLIT = np.array(
    [
        [0.7, 0.8, 0.0],
        [0.5, 0.4, 0.2],
        [0.4, 0.4, 0.4],
        [0.8, 0.8, 0.6],
        [0.7, 0.9, 0.6],
        [0.3, 0.0, 0.5],
        [0.2, 0.5, 0.0],
        [0.8, 0.9, 0.1],
    ]
)


def test_omnibus_sentence_names_the_test_that_decided():
    res = cdplot.compare(OMNIBUS_SPLIT, methods=["A", "B", "C"])
    ref = scipy.stats.friedmanchisquare(*OMNIBUS_SPLIT.T)
    assert res.friedman.pvalue == pytest.approx(ref.pvalue, rel=1e-9)
    assert round(res.friedman.pvalue, 4) == 0.0536
    assert round(res.iman_davenport.pvalue, 4) == 0.0413
    assert res.rejected
    text = " ".join(res.omnibus_sentence().split())
    assert text.startswith(
        "With 3 methods on 8 data sets, the Iman-Davenport test of the Friedman statistic "
        "(chi2_F = 5.852, p = 0.0536; F_F = 4.036 with (2, 14) degrees of freedom, p = 0.0413) "
        "rejects"
    )
    assert "The Friedman chi2_F test alone (p = 0.0536) would not reject at this level" in text
    # where both agree, the second sentence is left out
    demsar = cdplot.compare(cdplot.load_example("demsar2006")).omnibus_sentence()
    assert "alone" not in demsar
    assert "the Iman-Davenport test of the Friedman statistic (chi2_F = " in demsar


def test_effect_size_against_the_claim_says_why():
    # A wins on 12 of 14 data sets by 0.01 and loses 2 by 0.3: the sign test (12 of 14,
    # scipy 1.17.1 scipy.stats.binomtest(12, 14).pvalue = 0.0129) finds A better, while
    # Cliff's delta and Cohen's d of the pooled scores favour B.
    base = np.linspace(0.5, 0.9, 14)
    a = base + 0.01
    a[[3, 9]] = base[[3, 9]] - 0.3
    res = cdplot.compare(np.column_stack([a, base]), methods=["A", "B"], test="sign")
    assert res.pvalues_unadjusted[0, 1] == pytest.approx(scipy.stats.binomtest(12, 14).pvalue)
    assert res.significant_pairs() == (("A", "B"),)
    text = " ".join(str(res).split())
    assert "A vs B: delta = -0.071 (negligible), Cohen's d = -0.305 (small)" in text
    assert (
        "delta and d point to B: they compare the scores pooled over the data sets, unpaired, "
        "while the sign test compared the two data set by data set." in text
    )
    # an effect in the claim's direction gets no remark
    agree = cdplot.compare(np.column_stack([base + 0.01, base]), methods=["A", "B"], test="sign")
    assert "point to" not in str(agree)
    assert "points to" not in str(agree)


def test_no_significant_pair_never_names_a_method_against_itself():
    # with every delta 0 the largest effect was the diagonal: "the largest effect is A vs A"
    x = np.tile(np.linspace(0.5, 0.9, 10)[:, None], (1, 2))
    text = " ".join(str(cdplot.compare(x, methods=["A", "B"])).split())
    assert "the largest effect is A vs B" in text
    assert "A vs A" not in text


def test_to_frame_without_pandas_says_what_to_install(monkeypatch):
    """A missing optional pandas is one line naming the install command, not a bare import error."""
    res = cdplot.compare(cdplot.load_example("demsar2006"))
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas now fails
    with pytest.raises(ModuleNotFoundError, match=r"needs pandas.*pip install pandas") as info:
        res.to_frame()
    assert "\n" not in str(info.value)
    assert info.value.__cause__ is None


def test_json_says_whether_the_matrices_were_asked_out_or_too_many(rng):
    # matrices=False on 4 methods said "left out above 300 methods", which was not why
    from cdplot.stats._results import JSON_MATRIX_MAX_METHODS

    demsar = cdplot.load_example("demsar2006")
    res = cdplot.compare(demsar)
    ranks = dict(zip(res.methods, res.average_ranks.tolist(), strict=True))
    asked = "left out on request (matrices=False, or --no-matrices)"
    dicts = {
        "compare": res.to_dict(matrices=False),
        "compare_ranks": cdplot.compare_ranks(ranks, 14).to_dict(matrices=False),
        "from_posthoc": cdplot.from_posthoc(ranks, res.pvalues, test="Nemenyi").to_dict(
            matrices=False
        ),
        "compare_auto": cdplot.compare_auto(demsar).to_dict(matrices=False)["analysis"],
    }
    for name, d in dicts.items():
        assert asked in d["matrices_omitted"], name
        assert "above" not in d["matrices_omitted"], name
    assert asked in res.to_dict(matrices=False)["effect_sizes"]["tables_omitted"]
    k = JSON_MATRIX_MAX_METHODS + 1
    big = cdplot.compare(rng.normal(size=(6, k)) + np.linspace(0, 5, k)).to_dict()
    assert (
        f"left out above {JSON_MATRIX_MAX_METHODS} methods (matrices=True, or --matrices"
        in (big["matrices_omitted"])
    )
