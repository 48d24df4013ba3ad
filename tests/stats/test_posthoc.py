import numpy as np
import pytest

from cdplot.stats._posthoc import nemenyi, rank_z
from cdplot.stats._ranks import average_ranks

# scikit-posthocs 0.17.1: sp.posthoc_nemenyi_friedman(data) on Demsar's Table 6 as printed
# (Demsar 2006, Table 6), columns C4.5, C4.5+m, C4.5+cf, C4.5+m+cf.
SKPH_NEMENYI = np.array(
    [
        [1.0, 0.08867271, 0.97168647, 0.06168326],
        [0.08867271, 1.0, 0.22669689, 0.99888234],
        [0.97168647, 0.22669689, 1.0, 0.17005164],
        [0.06168326, 0.99888234, 0.17005164, 1.0],
    ]
)


def test_nemenyi_matches_scikit_posthocs(c45):
    res = nemenyi(average_ranks(c45.values), c45.n_datasets, methods=c45.methods)
    np.testing.assert_allclose(res.pvalues, SKPH_NEMENYI, atol=5e-9)
    assert res.test == "nemenyi"
    assert res.pvalue("C4.5", "C4.5+m+cf") == pytest.approx(0.06168326, abs=5e-9)
    assert res.order()[0] == "C4.5+m+cf"


def test_rank_z_demsar_holm_example(c45_ranks):
    # Demsar 2006 section 3.2.2 (Holm against the control C4.5), from the paper's own
    # rank matrix: z = 2.415353, 2.342160, 0.512348 (Demsar prints 2.416, 2.342, 0.512).
    avg = average_ranks(c45_ranks.values, higher_is_better=False)
    res = rank_z(avg, 14)
    z, p = res.statistics, res.pvalues
    assert res.test == "friedman-z"
    assert res.methods == ("1", "2", "3", "4")
    assert z[0, 3] == pytest.approx(2.415353, abs=5e-7)
    assert z[0, 1] == pytest.approx(2.342160, abs=5e-7)
    assert z[0, 2] == pytest.approx(0.512348, abs=5e-7)
    assert p[0, 3] == pytest.approx(0.015720, abs=5e-7)
    assert p[0, 1] == pytest.approx(0.019172, abs=5e-7)
    assert p[0, 2] == pytest.approx(0.608408, abs=5e-7)
    np.testing.assert_allclose(z, -z.T)


@pytest.mark.parametrize(("n", "k"), [(5, 4), (30, 60), (100, 400)])
def test_nemenyi_rank_sum_table_matches_the_direct_path(n, k, rng):
    # Issue 28: average ranks of mid-ranks are multiples of 1/(2N), so nemenyi looks the
    # p-values up by integer rank-sum difference; the same ranks nudged off that grid
    # (by 1e-6, far beyond the 1e-7 test) take the direct path over the distinct
    # differences.  Ties included (scores on a coarse grid).
    scores = rng.integers(0, 4, size=(n, k)).astype(float) + np.linspace(0, 2, k)
    avg = average_ranks(scores)
    assert np.allclose(avg * 2 * n, np.rint(avg * 2 * n))
    table = nemenyi(avg, n).pvalues
    nudged = avg + 1e-6 * (np.arange(k) % 2)
    direct = nemenyi(nudged, n).pvalues
    # the nudge moves q by about 1e-6 / se; dp/dq is at most about k
    np.testing.assert_allclose(table, direct, rtol=0, atol=1e-5 * k)
    assert np.array_equal(np.diag(table), np.ones(k))
    np.testing.assert_array_equal(table, table.T)
    # the ranks themselves through the direct path: p-values of the distinct rank
    # differences, pair by pair, are the table's (beyond 20,000 distinct values both
    # interpolate a grid, within about 1e-11 relative of the quadrature, and floats
    # that differ by an ulp may put the direct path on the other side of that switch)
    from cdplot.stats._studentized_range import studentized_range_sf_many

    i, j = np.triu_indices(k, 1)
    se = np.sqrt(k * (k + 1) / (6.0 * n))
    want = studentized_range_sf_many(np.abs(avg[i] - avg[j]) / se * np.sqrt(2.0), k)
    np.testing.assert_allclose(table[i, j], want, rtol=2e-11, atol=1e-300)
