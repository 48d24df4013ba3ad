"""Tests of the per-fold two-method tests (cdplot/stats/_cv_tests.py).

Reference values are computed here with test-only peers and written formulas:
scipy 1.17 (``scipy.stats.ttest_rel``, ``scipy.stats.t``, ``scipy.stats.f``) and
baycomp 1.0.3 (``baycomp.CorrelatedTTest.compute_statistics``, which applies
Nadeau and Bengio's correction 1/n + 1/(K - 1) for K-fold CV).
"""

import math

import numpy as np
import pytest
from scipy import stats

from cdplot.errors import CdplotError
from cdplot.stats._cv_tests import (
    alpaydin_5x2cv_ftest,
    blocked_cv_ttest,
    corrected_ttest,
    cv_test,
    dietterich_5x2cv_ttest,
    fitting_tests,
    fold_scores,
    kfold_ttest,
    parse_scheme,
    read_fold_scores,
)

# Ten-fold accuracies of two classifiers (made-up data, perturbed so no difference repeats).
A10 = np.array([0.812, 0.845, 0.791, 0.868, 0.833, 0.802, 0.857, 0.826, 0.839, 0.818])
B10 = np.array([0.781, 0.806, 0.800, 0.829, 0.794, 0.797, 0.811, 0.808, 0.815, 0.777])

# Five replications of two-fold CV (rows: replication, columns: fold).
A52 = np.array([[0.801, 0.823], [0.794, 0.832], [0.812, 0.805], [0.841, 0.822], [0.803, 0.811]])
B52 = np.array([[0.772, 0.801], [0.781, 0.794], [0.806, 0.783], [0.802, 0.813], [0.790, 0.779]])


def test_kfold_t_is_scipy_ttest_rel():
    # scipy 1.17: stats.ttest_rel(A10, B10); formula (23) of Yang's survey is the paired t
    ref = stats.ttest_rel(A10, B10)
    r = kfold_ttest(A10, B10)
    assert r.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert r.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
    assert r.dof == 9


def test_corrected_t_matches_baycomp_statistics():
    # baycomp 1.0.3: CorrelatedTTest.compute_statistics(B10, A10, runs=1) returns
    # mean(A - B) (its diff is y - x), var * (1/n + 1/(K-1)) and n - 1;
    # the t statistic is mean / sqrt(var).
    baycomp = pytest.importorskip("baycomp")
    mean, var, df = baycomp.CorrelatedTTest.compute_statistics(B10, A10, runs=1)
    r = corrected_ttest(A10, B10)  # rho = 1/10
    assert r.statistic == pytest.approx(mean / math.sqrt(var), rel=1e-12)
    assert r.dof == df
    assert r.rho == pytest.approx(0.1)


def test_corrected_t_of_nadeau_and_bengio():
    # Nadeau and Bengio (2003): t = mean / sqrt(s^2 (1/n + rho/(1-rho))), rho = n_test / n,
    # t(n-1) two-sided.  10x10 CV of 1000 examples: n_train = 900, n_test = 100.
    rng = np.random.default_rng(7)
    a = 0.80 + 0.02 * rng.standard_normal((10, 10))
    b = a - 0.01 + 0.015 * rng.standard_normal((10, 10))
    d = (a - b).ravel()
    n, rho = d.size, 100 / 1000
    t = d.mean() / math.sqrt(d.var(ddof=1) * (1 / n + rho / (1 - rho)))
    r = corrected_ttest(a, b, scheme="10x10", n_train=900, n_test=100)
    assert r.statistic == pytest.approx(t, rel=1e-12)
    assert r.pvalue == pytest.approx(2 * stats.t.sf(abs(t), n - 1), rel=1e-10)
    assert r.dof == 99
    # the same numbers from a flat vector in repetition-major order
    assert corrected_ttest(a.ravel(), b.ravel(), scheme="10x10").statistic == pytest.approx(t)


def test_corrected_t_resampled_needs_sizes():
    with pytest.raises(CdplotError, match="needs n_train and n_test"):
        corrected_ttest(A10, B10, scheme="resampled")
    r = corrected_ttest(A10, B10, scheme="resampled", n_train=200, n_test=100)
    assert r.rho == pytest.approx(1 / 3)


def test_dietterich_5x2cv_t_formula():
    # Dietterich 1998, section 3.5: t = p_1^(1) / sqrt(sum_i s_i^2 / 5), t(5);
    # s_i^2 = (p_i1 - pbar_i)^2 + (p_i2 - pbar_i)^2.
    p = A52 - B52
    s2 = ((p - p.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    t = p[0, 0] / math.sqrt(s2.sum() / 5)
    r = dietterich_5x2cv_ttest(A52, B52)
    assert r.statistic == pytest.approx(t, rel=1e-12)
    assert r.pvalue == pytest.approx(2 * stats.t.sf(abs(t), 5), rel=1e-10)
    assert r.dof == 5


def test_dietterich_uses_the_first_fold_of_the_first_replication():
    r1 = dietterich_5x2cv_ttest(A52, B52)
    r2 = dietterich_5x2cv_ttest(A52[::-1], B52[::-1])
    assert r1.statistic != pytest.approx(r2.statistic)


def test_alpaydin_5x2cv_f_formula():
    # Alpaydin 1999: f = sum_ij p_ij^2 / (2 sum_i s_i^2) ~ F(10, 5), upper tail.
    p = A52 - B52
    s2 = ((p - p.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    f = (p**2).sum() / (2 * s2.sum())
    r = alpaydin_5x2cv_ftest(A52, B52)
    assert r.statistic == pytest.approx(f, rel=1e-12)
    assert r.pvalue == pytest.approx(stats.f.sf(f, 10, 5), rel=1e-10)
    assert r.dof == (10, 5)
    # the F statistic squares the differences: swapping A and B changes nothing
    assert alpaydin_5x2cv_ftest(B52, A52).statistic == pytest.approx(f)


def test_alpaydin_critical_value_4_74():
    # Alpaydin 1999 rejects at the 0.05 level when f > 4.74 = F(10, 5) upper 5% point.
    assert stats.f.isf(0.05, 10, 5) == pytest.approx(4.735, abs=5e-4)


def test_blocked_3x2_formula_25_of_yangs_survey():
    # Yang's survey, formula (25): mu = sum d / 6, S = sum (d - mu)^2 / 6, t = mu / sqrt(S) ~ t(5)
    a, b = A52[:3], B52[:3]
    d = (a - b).ravel()
    mu = d.sum() / 6
    s = ((d - mu) ** 2).sum() / 6
    t = mu / math.sqrt(s)
    r = blocked_cv_ttest(a, b, scheme="blocked-3x2")
    assert r.statistic == pytest.approx(t, rel=1e-12)
    assert r.pvalue == pytest.approx(2 * stats.t.sf(abs(t), 5), rel=1e-10)
    assert r.dof == 5
    assert r.notes == ()


def test_blocked_mx2_generalisation():
    r = blocked_cv_ttest(A52, B52, scheme="blocked-5x2")
    d = (A52 - B52).ravel()
    t = d.mean() / math.sqrt(((d - d.mean()) ** 2).sum() / 10)
    assert r.statistic == pytest.approx(t, rel=1e-12)
    assert r.dof == 9
    assert "2m = 10" in r.notes[0]


def test_blocked_data_size_must_allow_blocks():
    with pytest.raises(CdplotError, match="needs 8 blocks"):
        blocked_cv_ttest(A52, B52, scheme="blocked-5x2", n_train=3, n_test=3)
    with pytest.raises(CdplotError, match="halves"):
        blocked_cv_ttest(A52[:3], B52[:3], n_train=60, n_test=40)


@pytest.mark.parametrize(
    ("test", "scheme", "fits"),
    [
        pytest.param("kfold-t", "10x10", "'corrected-t'", id="kfold-t-on-repeated"),
        pytest.param("5x2cv-t", "kfold", "'corrected-t' or 'kfold-t'", id="5x2-on-kfold"),
        pytest.param("blocked-t", "3x2", "'corrected-t'", id="blocked-on-random-3x2"),
        pytest.param("5x2cv-f", "blocked-3x2", "'blocked-t' or 'corrected-t'", id="f-on-blocked"),
        pytest.param(
            "kfold-t", "5x2", "'5x2cv-t' or '5x2cv-f' or 'corrected-t'", id="kfold-on-5x2"
        ),
    ],
)
def test_scheme_mismatch_names_the_tests_that_fit(test, scheme, fits):
    with pytest.raises(CdplotError, match=f"does not fit scheme='{scheme}'.*use {fits}$"):
        cv_test(np.arange(10.0), np.arange(10.0)[::-1], test=test, scheme=scheme)


def test_fitting_tests():
    assert fitting_tests("kfold") == ("corrected-t", "kfold-t")
    assert fitting_tests("5x2") == ("5x2cv-t", "5x2cv-f", "corrected-t")
    assert fitting_tests("10x10") == ("corrected-t",)
    assert fitting_tests("blocked-3x2") == ("blocked-t", "corrected-t")
    assert fitting_tests("resampled") == ("corrected-t",)


@pytest.mark.parametrize(
    ("scheme", "message"),
    [
        pytest.param("10-fold", "is not valid", id="unknown"),
        pytest.param("5x1", "at least 2", id="one-fold"),
        pytest.param("blocked-3x5", "two folds per", id="blocked-not-x2"),
        pytest.param("blocked-1x2", "at least 2 replications", id="blocked-one"),
        pytest.param(5, "is not valid", id="not-a-string"),
    ],
)
def test_bad_schemes(scheme, message):
    with pytest.raises(CdplotError, match=message):
        parse_scheme(scheme)


def test_wrong_fold_counts():
    with pytest.raises(CdplotError, match=r"5 repetitions x 2 folds = 10 scores per method, got 8"):
        dietterich_5x2cv_ttest(np.ones(8), np.zeros(8))
    with pytest.raises(CdplotError, match="different numbers of fold scores"):
        kfold_ttest(A10, B10[:9])
    with pytest.raises(CdplotError, match=r"give scheme='5x2'"):
        kfold_ttest(A52, B52)


def test_single_fold():
    with pytest.raises(CdplotError, match="a single fold"):
        kfold_ttest([0.8], [0.7])


def test_zero_variance_says_what_it_means():
    with pytest.raises(CdplotError, match=r"A - B = 0.05 on every fold.*zero variance"):
        kfold_ttest(B10 + 0.05, B10)
    with pytest.raises(CdplotError, match="identical scores on every fold"):
        corrected_ttest(A10, A10)
    # both folds of every replication agree: s_i^2 = 0 for all i
    same = np.repeat(np.array([[0.01], [0.02], [0.03], [0.0], [0.05]]), 2, axis=1)
    with pytest.raises(CdplotError, match="sum s_i\\^2 = 0"):
        alpaydin_5x2cv_ftest(B52 + same, B52)


def test_sizes_must_match_kfold():
    with pytest.raises(CdplotError, match="tests on about 1/10"):
        corrected_ttest(A10, B10, n_train=500, n_test=500)
    with pytest.raises(CdplotError, match="n_train=-3"):
        corrected_ttest(A10, B10, n_train=-3, n_test=10)


def test_conclusion_and_direction():
    r = corrected_ttest(A10, B10, methods=("svm", "tree"), dataset="iris")
    assert str(r).startswith("svm is significantly better than tree on iris")
    lower = corrected_ttest(A10, B10, methods=("svm", "tree"), higher_is_better=False)
    assert lower.better() == "tree"
    d = r.to_dict()
    import json

    json.dumps(d)
    assert d["better"] == "svm"
    assert d["dof"] == 9
    assert r.differences.flags.writeable is False


# Issue 31, item 1: the numerator of Dietterich's t is the first fold's difference p_1^(1)
# alone (Dietterich 1998, section 3.5, eq. t = p_1^(1) / sqrt(sum s_i^2 / 5)), so a
# significant t can favour the method with the worse mean.  A - B = 0.05 on replication 1,
# fold 1 and about -0.03 everywhere else.
B_ISSUE31 = np.array([[0.80, 0.81], [0.82, 0.80], [0.79, 0.81], [0.80, 0.82], [0.81, 0.80]])
P_ISSUE31 = np.array(
    [[0.05, 0.052], [-0.03, -0.031], [-0.03, -0.029], [-0.031, -0.03], [-0.03, -0.03]]
)


def test_5x2cv_t_takes_its_side_from_the_statistic():
    r = cv_test(B_ISSUE31 + P_ISSUE31, B_ISSUE31, test="5x2cv-t", scheme="5x2", methods=("A", "B"))
    # t = 0.05 / sqrt(sum s_i^2 / 5) > 0 favours A (higher is better), though B's mean is higher
    assert r.statistic == pytest.approx(59.7614, abs=5e-5)
    assert r.mean_b > r.mean_a
    assert r.better() == "A"
    text = " ".join(str(r).split())
    assert text.startswith("A is significantly better than B at alpha = 0.05")
    assert "first fold's difference only (A - B = 0.0500 in replication 1, fold 1)" in text
    assert "B has the better mean score over all 10 folds" in text
    assert r.to_dict()["better"] == "A"
    # lower is better: the same statistic favours B, and the means (lower for A) disagree again
    low = cv_test(
        B_ISSUE31 + P_ISSUE31,
        B_ISSUE31,
        test="5x2cv-t",
        scheme="5x2",
        methods=("A", "B"),
        higher_is_better=False,
    )
    assert low.better() == "B"
    assert "A has the better mean score" in " ".join(str(low).split())


def test_5x2cv_t_says_nothing_more_when_means_agree():
    r = dietterich_5x2cv_ttest(A52 + 0.05, B52, methods=("A", "B"))
    assert r.better() == "A"
    assert "disagree" not in str(r)


def test_5x2cv_f_has_no_side():
    # Alpaydin (1999): f = sum_i sum_j (p_i^(j))^2 / (2 sum_i s_i^2) squares the
    # differences, so rejecting says only that the methods differ.
    r = cv_test(B_ISSUE31 + P_ISSUE31, B_ISSUE31, test="5x2cv-f", scheme="5x2", methods=("A", "B"))
    assert r.significant
    assert r.better() is None
    assert r.to_dict()["better"] is None
    text = " ".join(str(r).split())
    assert text.startswith("A and B differ significantly at alpha = 0.05 by Alpaydin's")
    assert "significantly better" not in text
    assert "so names no side; B has the better mean score" in text


def test_names_must_differ():
    with pytest.raises(CdplotError, match="different names"):
        kfold_ttest(A10, B10, methods=("x", "x"))


def test_fold_scores_long_and_wide(tmp_path):
    rows = []
    for rep in (1, 2):
        for fold in (1, 2):
            rows.append(
                {
                    "Repeat": rep,
                    "fold": fold,
                    "model": "A",
                    "accuracy": 0.8 + rep / 100 + fold / 1000,
                }
            )
            rows.append({"Repeat": rep, "fold": fold, "model": "B", "accuracy": 0.7 + fold / 100})
    f = fold_scores(rows)
    assert f.methods == ("A", "B")
    assert f.repeats == ("1", "2")
    assert f.folds == ("1", "2")
    np.testing.assert_allclose(f.scores("A"), [[0.811, 0.812], [0.821, 0.822]], rtol=1e-14)
    p = tmp_path / "wide.csv"
    p.write_text("# per-fold accuracy\nfold;A;B\n1;0.8;0.7\n2;0.9;0.8\n")
    w = read_fold_scores(p)
    assert w.scores("B").tolist() == [[0.7, 0.8]]
    with pytest.raises(CdplotError, match="method 'C' is not in the data; methods are A, B"):
        w.scores("C")


def test_fold_scores_errors(tmp_path):
    with pytest.raises(CdplotError, match="appears twice"):
        fold_scores([{"fold": 1, "A": 1, "B": 2}, {"fold": 1, "A": 1, "B": 2}])
    with pytest.raises(CdplotError, match="has no score for repetition '1', fold '2'"):
        fold_scores(
            [
                {"fold": 1, "method": "A", "score": 1},
                {"fold": 1, "method": "B", "score": 1},
                {"fold": 2, "method": "A", "score": 1},
            ]
        )
    with pytest.raises(CdplotError, match="no fold column"):
        fold_scores([{"x": 1, "A": 1, "B": 2}])
    with pytest.raises(CdplotError, match=r"row 1, column 'A': 'n/a' is not a finite score"):
        fold_scores([{"fold": 1, "A": "n/a", "B": 2}])
    with pytest.raises(CdplotError, match="no such file"):
        read_fold_scores(tmp_path / "missing.csv")


def test_scores_whose_squares_overflow_are_refused_in_one_line():
    # Issue 14: finite fold scores near 1e308 gave t = nan; now a one-line message
    a = np.array([1.7, 1.6, 1.5, 1.2, 1.1, 1.3, 1.0, 1.6, 1.4, 1.5]) * 1e308
    with pytest.raises(CdplotError, match=r"scores as large as 1.7e\+308 make its sums"):
        kfold_ttest(a, -0.9 * a)
