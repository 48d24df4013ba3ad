"""Friedman's test and the Iman-Davenport F statistic (Demsar 2006, section 3.2.2)."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike
from scipy import special

from .._docstrings import share
from ._ranks import rank_data, tie_sum
from ._results import FriedmanResult, ImanDavenportResult
from ._validate import finite_table, finite_vector, whole_number

__all__ = ["friedman", "iman_davenport", "friedman_from_ranks", "friedman_from_average_ranks"]


def friedman_from_ranks(
    ranks: ArrayLike, ties: ArrayLike | None = None, *, tie_correction: bool = True
) -> tuple[FriedmanResult, ImanDavenportResult]:
    """Friedman and Iman-Davenport statistics from a rank matrix.

    Parameters
    ----------
    ranks : array_like, shape (N, k)
        Within-data-set ranks (mid-ranks for ties).
    ties : array_like, shape (N,), optional
        ``sum(t**3 - t)`` over the tie groups of each data set; computed from
        ``ranks`` when omitted.
    tie_correction : bool, default True
        Divide the statistic by ``1 - sum(ties) / (N k (k**2 - 1))``, as R's
        ``friedman.test`` and ``scipy.stats.friedmanchisquare`` do.

    Returns
    -------
    FriedmanResult, ImanDavenportResult
    """
    r = finite_table(ranks, "ranks")
    n, k = r.shape
    if ties is None:
        ties = tie_sum(r, higher_is_better=False)
    chi2_u = _chi2_uncorrected(r.mean(axis=0), n)
    denom = 1.0 - float(np.sum(ties)) / (n * k * (k * k - 1.0))
    # when every data set ties all methods there is no evidence of any difference
    chi2_c = 0.0 if denom <= 1e-12 else chi2_u / denom
    return _results(chi2_c if tie_correction else chi2_u, chi2_u, n, k, tie_correction)


def friedman_from_average_ranks(
    average_ranks: ArrayLike, n_datasets: int
) -> tuple[FriedmanResult, ImanDavenportResult]:
    """Demsar's uncorrected Friedman and Iman-Davenport statistics from average ranks alone.

    Without the rank of each method on each data set the tie correction
    cannot be computed, so ``statistic`` is the uncorrected value and
    ``tie_correction`` is false.

    Parameters
    ----------
    average_ranks : array_like, shape (k,)
        Average rank of each method (1 = best), finite.
    n_datasets : int
        Number of data sets ``N`` the ranks were averaged over.

    Returns
    -------
    FriedmanResult, ImanDavenportResult

    References
    ----------
    .. [1] J. Demsar, "Statistical comparisons of classifiers over multiple
           data sets", JMLR 7 (2006) 1-30, section 3.2.2.

    Examples
    --------
    >>> fr, idr = friedman_from_average_ranks([3.143, 2.000, 2.893, 1.964], 14)
    >>> round(fr.statistic, 2), round(idr.statistic, 2)
    (9.28, 3.69)
    """
    avg = finite_vector(average_ranks, "average_ranks")
    n = whole_number(n_datasets, "n_datasets", minimum=1, what="data sets")
    k = len(avg)
    chi2_u = _chi2_uncorrected(avg, n)
    return _results(chi2_u, chi2_u, n, k, False)


def _chi2_uncorrected(mean: np.ndarray, n: int) -> float:
    """``12 N / (k (k+1)) [sum_j R_j**2 - k (k+1)**2 / 4]``, never below 0."""
    k = len(mean)
    # a correctly rounded sum: the same whatever the order of the methods, so that a
    # file with its columns shuffled gives the same statistic and p-value, bit for bit
    squares = math.fsum((mean * mean).tolist())
    chi2_u = 12.0 * n / (k * (k + 1.0)) * (squares - k * (k + 1.0) ** 2 / 4.0)
    return max(float(chi2_u), 0.0)


def _results(chi2: float, chi2_u: float, n: int, k: int, tie_correction: bool):
    dof = k - 1
    fr = FriedmanResult(
        statistic=chi2,
        pvalue=float(special.chdtrc(dof, chi2)),
        dof=dof,
        statistic_uncorrected=chi2_u,
        pvalue_uncorrected=float(special.chdtrc(dof, chi2_u)),
        tie_correction=tie_correction,
    )
    d1, d2 = k - 1, (k - 1) * (n - 1)
    ff, pf = _iman_davenport(chi2, n, k)
    ffu, pfu = _iman_davenport(chi2_u, n, k)
    idr = ImanDavenportResult(
        statistic=ff, pvalue=pf, dof=(d1, d2), statistic_uncorrected=ffu, pvalue_uncorrected=pfu
    )
    return fr, idr


def _iman_davenport(chi2: float, n: int, k: int) -> tuple[float, float]:
    denom = n * (k - 1.0) - chi2
    if denom <= 1e-12 * n * k:
        # all data sets rank the methods identically
        return float("inf"), 0.0
    ff = (n - 1.0) * chi2 / denom
    return float(ff), float(special.fdtrc(k - 1, (k - 1) * (n - 1), ff))


@share
def friedman(
    scores: ArrayLike, *, higher_is_better: bool = True, tie_correction: bool = True
) -> FriedmanResult:
    """Friedman's test of the hypothesis that all methods have equal average rank.

    Parameters
    ----------
    %(scores_array)s
    %(higher_is_better_array)s
    tie_correction : bool, default True
        Report the tie-corrected statistic as ``statistic`` (Demsar's
        uncorrected value is always in ``statistic_uncorrected``).

    Returns
    -------
    FriedmanResult

    Notes
    -----
    ``chi2_F = 12 N / (k (k+1)) [sum_j R_j**2 - k (k+1)**2 / 4]`` with ``R_j``
    the average ranks, distributed as chi-square with ``k - 1`` degrees of
    freedom for large ``N`` and ``k`` (Friedman 1937).

    References
    ----------
    .. [1] M. Friedman, "The use of ranks to avoid the assumption of normality
           implicit in the analysis of variance", JASA 32 (1937) 675-701.
    .. [2] J. Demsar, "Statistical comparisons of classifiers over multiple
           data sets", JMLR 7 (2006) 1-30.

    Examples
    --------
    >>> res = friedman([[1, 2, 3], [1, 3, 2], [1, 2, 3], [2, 1, 3]], higher_is_better=False)
    >>> round(res.statistic, 4)
    4.5
    """
    x = finite_table(scores)
    r = rank_data(x, higher_is_better=higher_is_better)
    return friedman_from_ranks(
        r, tie_sum(x, higher_is_better=higher_is_better), tie_correction=tie_correction
    )[0]


@share
def iman_davenport(
    scores: ArrayLike, *, higher_is_better: bool = True, tie_correction: bool = True
) -> ImanDavenportResult:
    """Iman and Davenport's ``F_F = (N - 1) chi2_F / (N (k - 1) - chi2_F)``.

    Parameters
    ----------
    %(scores_array)s
    %(higher_is_better_array)s
    tie_correction : bool, default True
        Compute ``F_F`` from the tie-corrected Friedman statistic.

    Returns
    -------
    ImanDavenportResult
        ``F_F`` follows the F distribution with ``k - 1`` and
        ``(k - 1)(N - 1)`` degrees of freedom.

    References
    ----------
    .. [1] R. L. Iman and J. M. Davenport, "Approximations of the critical
           region of the Friedman statistic", Communications in Statistics
           A9 (1980) 571-595.
    """
    x = finite_table(scores)
    r = rank_data(x, higher_is_better=higher_is_better)
    return friedman_from_ranks(
        r, tie_sum(x, higher_is_better=higher_is_better), tie_correction=tie_correction
    )[1]
