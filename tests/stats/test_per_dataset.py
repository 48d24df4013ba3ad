"""Each method against the best of its data set, over repetitions (cdplot/stats/_per_dataset.py).

Checked live against scipy.stats.wilcoxon and scipy.stats.ttest_rel (two-sided, on the
repetitions both methods have) with Holm's procedure from cdplot.stats._corrections, which
tests/stats/test_corrections.py checks against statsmodels.
"""

import numpy as np
import pytest
import scipy.stats

import cdplot
from cdplot.errors import CdplotError
from cdplot.io import as_score_tables
from cdplot.stats._corrections import adjust
from cdplot.stats._per_dataset import versus_best


def brute_force(x, best, test):
    n_d, k, _ = x.shape
    out = np.full((n_d, k), np.nan)
    for i in range(n_d):
        others = [j for j in range(k) if j != best[i]]
        raw = []
        for j in others:
            a, b = x[i, best[i]], x[i, j]
            both = ~np.isnan(a) & ~np.isnan(b)
            if test == "wilcoxon":
                raw.append(scipy.stats.wilcoxon(a[both], b[both]).pvalue)
            else:
                raw.append(scipy.stats.ttest_rel(a[both], b[both]).pvalue)
        out[i, others] = adjust(raw, "holm")
    return out


@pytest.mark.parametrize("test", ["wilcoxon", "t-test"])
@pytest.mark.parametrize("r", [8, 30, 60])
def test_matches_scipy_with_holm_within_each_data_set(test, r):
    rng = np.random.default_rng(r)
    x = rng.normal(size=(20, 6, r)) + np.linspace(0.0, 0.8, 6)[None, :, None]
    x[3, 2, 1] = np.nan  # one missing repetition: that pair is tested on the rest
    best = np.nanmean(x, axis=2).argmax(axis=1)
    res = versus_best(x, best, test=test)
    np.testing.assert_allclose(res.pvalues, brute_force(x, best, test), rtol=1e-9)
    assert np.isnan(res.pvalues[np.arange(20), best]).all()
    assert res.n[3, 2] == r - 1


def test_lower_is_better_flips_the_side():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(5, 3, 12)) + np.array([0.0, 1.0, 2.0])[None, :, None]
    up = versus_best(x, np.full(5, 2))
    down = versus_best(-x, np.full(5, 2), higher_is_better=False)
    np.testing.assert_allclose(up.pvalues, down.pvalues)
    assert up.best_better[:, :2].all()
    assert down.best_better[:, :2].all()
    assert up.worse(0.05)[:, 0].all()


def test_a_method_better_than_the_chosen_best_is_never_called_worse():
    # method 1 wins every repetition but is not the one tested against
    x = np.array([[[0.5, 0.6, 0.55, 0.52, 0.58, 0.61, 0.5, 0.6], [0.9] * 8]])
    res = versus_best(x, [0])
    assert res.pvalues[0, 1] < 0.05
    assert not res.worse(0.05)[0, 1]


def test_shapes_are_checked():
    with pytest.raises(CdplotError, match=r"expected \(N, k, r\) and \(N,\)"):
        versus_best(np.zeros((2, 3)), [0, 0])
    with pytest.raises(CdplotError, match="test='z'"):
        versus_best(np.zeros((1, 2, 3)), [0], test="z")


def _fold_rows(n_datasets=4, n_folds=6, labelled=True):
    # three methods, the first best by 0.05 on average, 0.02 noise per fold
    rng = np.random.default_rng(5)
    rows = []
    for d in range(n_datasets):
        for m, mu in {"a": 0.85, "b": 0.80, "c": 0.84}.items():
            for f in range(n_folds):
                row = {"dataset": f"d{d}", "method": m, "score": mu + rng.normal(0, 0.02)}
                if labelled:
                    row["fold"] = f
                rows.append(row)
    return rows


def _analysis(**kw):
    (t,) = as_score_tables(_fold_rows(**kw), keep_repetitions=True)
    return cdplot.compare(t)


@pytest.mark.parametrize("test", ["wilcoxon", "t-test"])
def test_an_analysis_tests_against_the_first_best_ranked_method_of_each_data_set(test):
    res = _analysis()
    got = res.versus_best(test)
    best = np.argmin(res.ranks, axis=1)  # no ties in continuous noise: the first is the one
    want = versus_best(res.scores.repetition_scores, best, test=test)
    np.testing.assert_array_equal(got.pvalues, want.pvalues)
    assert got.test == test


def test_an_analysis_without_repetitions_or_their_labels_is_refused():
    with pytest.raises(CdplotError, match=r"^option test='wilcoxon' tests each data set over"):
        cdplot.compare(cdplot.load_example("demsar2006")).versus_best()
    with pytest.raises(CdplotError, match=r"pairs the repetitions of two methods by their label"):
        _analysis(labelled=False).versus_best("t-test")
    with pytest.raises(CdplotError, match="test='z'"):
        _analysis().versus_best("z")


def test_the_description_names_the_test_the_family_and_the_caveat():
    res = _analysis(n_folds=6).versus_best("t-test")
    text = res.describe(0.05)
    assert text.startswith(
        "not significantly worse than the best of the data set by a two-sided paired t-test "
        "over the 6 repetitions both methods have, Holm-corrected over the 2 comparisons within "
        "each data set (not across data sets), \u03b1 = 0.05."
    )
    assert text.endswith("so it may call too many methods worse.")


def test_the_description_says_when_wilcoxon_cannot_reject():
    # 5 repetitions: the smallest two-sided p-value is 2 / 2**5 = 0.0625 (the exact null
    # distribution of the signed-rank statistic), above alpha / (k - 1) = 0.025
    res = _analysis(n_folds=5).versus_best("wilcoxon")
    assert res.describe(0.05).endswith(
        "With 5 repetitions its smallest p-value is 0.0625, which Holm's first step (\u03b1/2) "
        "cannot reject: no method can be shown worse."
    )
    # at 6 repetitions the smallest p-value is 2 / 64 = 0.03125 > 0.025: still said
    assert "cannot reject" in _analysis(n_folds=6).versus_best().describe(0.05)
    # at 7, 2 / 128 = 0.0156 < 0.025: not said
    assert "cannot reject" not in _analysis(n_folds=7).versus_best().describe(0.05)
