"""Each method against the best of its data set, over repetitions (cdplot/stats/_per_dataset.py).

Checked live against scipy.stats.wilcoxon and scipy.stats.ttest_rel (two-sided, on the
repetitions both methods have) with Holm's procedure from cdplot.stats._corrections, which
tests/stats/test_corrections.py checks against statsmodels.
"""

import numpy as np
import pytest
import scipy.stats

from cdplot.errors import CdplotError
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
