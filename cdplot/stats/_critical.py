"""Critical values and critical differences of the rank-based post-hoc tests.

Computed from the distributions for any number of methods, so there is no
lookup table to run out of (Demsar's Table 5 stops at ten methods and has a
typo at k = 9).
"""

from __future__ import annotations

import math

from scipy import special

from .._docstrings import share
from .._options import CD_TESTS, CDTest, check_alpha, check_option
from ._studentized_range import studentized_range_isf
from ._validate import whole_number

__all__ = ["critical_value", "critical_difference", "rank_standard_error", "CD_TESTS"]


def _validate_k_n(k, n=None):
    # NaN and infinite counts get the same one line as fractions (int() would raise a
    # bare ValueError or OverflowError)
    whole_number(k, "the number of methods k", minimum=2, what="methods")
    if n is not None:
        whole_number(n, "the number of data sets N", minimum=1, what="data sets")


@share
def critical_value(k: int, *, alpha: float = 0.05, test: CDTest = "nemenyi") -> float:
    """Critical value ``q_alpha`` of the Nemenyi or Bonferroni-Dunn test.

    Parameters
    ----------
    k : int
        Number of methods, at least 2.
    %(alpha)s
    test : {'nemenyi', 'bonferroni-dunn'}, default 'nemenyi'
        Nemenyi: the upper ``alpha`` quantile of the studentized range of
        ``k`` normal variables (infinite degrees of freedom) divided by
        ``sqrt(2)``.  Bonferroni-Dunn: the normal quantile at
        ``1 - alpha / (2 (k - 1))``, for ``k - 1`` comparisons with a control.

    Returns
    -------
    float

    References
    ----------
    .. [1] J. Demsar, "Statistical comparisons of classifiers over multiple
           data sets", JMLR 7 (2006) 1-30, Table 5.

    Examples
    --------
    >>> round(critical_value(4, alpha=0.05), 6)
    2.569032
    >>> round(critical_value(4, alpha=0.05, test="bonferroni-dunn"), 6)
    2.39398
    """
    _validate_k_n(k)
    alpha = check_alpha(alpha)
    test = check_option("test", test, CD_TESTS)
    if test == "nemenyi":
        return float(studentized_range_isf(alpha, int(k))) / math.sqrt(2.0)
    return -float(special.ndtri(alpha / (2.0 * (k - 1))))


def rank_standard_error(k: int, n: int) -> float:
    """Standard error of a difference of two average ranks, ``sqrt(k (k + 1) / (6 N))``."""
    _validate_k_n(k, n)
    return math.sqrt(k * (k + 1.0) / (6.0 * n))


@share
def critical_difference(k: int, n: int, *, alpha: float = 0.05, test: CDTest = "nemenyi") -> float:
    """Critical difference ``CD = q_alpha sqrt(k (k + 1) / (6 N))`` of average ranks.

    Two methods differ significantly when their average ranks differ by at
    least ``CD`` (Demsar 2006, section 3.2.2).

    Parameters
    ----------
    k : int
        Number of methods.
    n : int
        Number of data sets.
    %(alpha)s
    %(cd_test)s

    Returns
    -------
    float

    Examples
    --------
    >>> round(critical_difference(4, 14, alpha=0.05), 6)
    1.253559
    """
    return critical_value(k, alpha=alpha, test=test) * rank_standard_error(k, n)
