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
