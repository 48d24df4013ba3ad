import pytest

from cdplot.errors import CdplotError
from cdplot.stats._critical import critical_difference, critical_value

# Demsar (2006), JMLR 7, Table 5, as printed (three decimals, truncated).  The
# Bonferroni-Dunn entry for k = 9 at alpha 0.05 is printed 2.724, a typo for 2.734.
NEMENYI_05 = [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164]
NEMENYI_10 = [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920]
BD_05 = [1.960, 2.241, 2.394, 2.498, 2.576, 2.638, 2.690, 2.734, 2.773]
BD_10 = [1.645, 1.960, 2.128, 2.241, 2.326, 2.394, 2.450, 2.498, 2.539]

CASES = [
    pytest.param(test, alpha, k, q, id=f"demsar2006-table5-{test}-a{alpha}-k{k}")
    for test, alpha, row in [
        ("nemenyi", 0.05, NEMENYI_05),
        ("nemenyi", 0.10, NEMENYI_10),
        ("bonferroni-dunn", 0.05, BD_05),
        ("bonferroni-dunn", 0.10, BD_10),
    ]
    for k, q in zip(range(2, 11), row, strict=False)
]


@pytest.mark.parametrize(("test", "alpha", "k", "q"), CASES)
def test_table5(test, alpha, k, q):
    assert critical_value(k, alpha=alpha, test=test) == pytest.approx(q, abs=1.0e-3)


def test_exact_values_against_scipy_studentized_range():
    # scipy 1.17: studentized_range.isf(alpha, 4, np.inf) / np.sqrt(2) gives 2.569032 (0.05)
    # and 2.291341 (0.10); Demsar 2006, Table 5(a) prints 2.569 and 2.291; CD for N = 14 is
    # 2.569032 * sqrt(4 * 5 / (6 * 14)) = 1.253559 (Demsar's section 3.2.2 prints 1.25)
    assert critical_value(4, alpha=0.05) == pytest.approx(2.569032, abs=5e-7)
    assert critical_value(4, alpha=0.10) == pytest.approx(2.291341, abs=5e-7)
    assert critical_difference(4, 14, alpha=0.05) == pytest.approx(1.253559, abs=5e-7)
    assert critical_difference(4, 14, alpha=0.10) == pytest.approx(1.118060, abs=5e-7)
    assert critical_value(4, alpha=0.05, test="bonferroni-dunn") == pytest.approx(
        2.393980, abs=5e-7
    )
    assert critical_difference(4, 14, test="bonferroni-dunn") == pytest.approx(1.168143, abs=5e-7)
    assert critical_value(9, alpha=0.05, test="bonferroni-dunn") == pytest.approx(
        2.734369, abs=5e-7
    )


def test_large_k_works():
    assert critical_value(200, alpha=0.05) > critical_value(100, alpha=0.05) > 3.0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"k": 1}, "at least 2"),
        ({"k": 4, "alpha": 0}, "outside"),
        ({"k": 4, "alpha": 1.5}, "outside"),
        ({"k": 4, "test": "tukey"}, "test='tukey'"),
    ],
)
def test_bad_options(kwargs, message):
    k = kwargs.pop("k")
    with pytest.raises(CdplotError, match=message):
        critical_value(k, **kwargs)
