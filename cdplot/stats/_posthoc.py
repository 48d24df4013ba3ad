"""Pairwise p-values of the rank-based post-hoc tests.

The Nemenyi and Friedman z-tests work on average ranks alone (Demsar 2006,
section 3.2.2): ``z = (R_i - R_j) / sqrt(k (k + 1) / (6 N))``.  The
Wilcoxon signed-rank and sign tests, which need the scores, live in
:mod:`.wilcoxon` and :mod:`.sign_test`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike
from scipy import special

from ..errors import CdplotError, opt
from ._critical import rank_standard_error
from ._results import RankTestResult
from ._studentized_range import studentized_range_sf_many
from ._validate import finite_vector, whole_number

__all__ = ["rank_z", "nemenyi", "RankTestResult"]


def _names(methods, k: int) -> tuple[str, ...]:
    if methods is None:
        return tuple(str(i) for i in range(1, k + 1))
    names = tuple(str(m) for m in methods)
    if len(names) != k or len(set(names)) != k:
        raise CdplotError(
            f"option {opt('methods')} needs {k} different names, one per average rank; got "
            f"{len(names)}",
            option="methods",
        )
    return names


def rank_z(
    average_ranks: ArrayLike, n_datasets: int, *, methods: Sequence[str] | None = None
) -> RankTestResult:
    """Friedman rank-difference z statistics and two-sided normal p-values for all pairs.

    Parameters
    ----------
    average_ranks : array_like, shape (k,)
        Average ranks of the ``k`` methods, finite (NaN raises
        :class:`~cdplot.errors.CdplotError`).
    n_datasets : int
        Number of data sets ``N`` the ranks were averaged over.
    methods : sequence of str, optional
        Names of the methods (default ``'1'``, ``'2'``, ...), for the
        accessors by name.

    Returns
    -------
    RankTestResult
        ``statistics``: ``z = (R_i - R_j) / sqrt(k (k + 1) / (6 N))``,
        antisymmetric; ``pvalues``: unadjusted two-sided p-values,
        ``2 (1 - Phi(|z|))``, 1 on the diagonal.

    References
    ----------
    .. [1] J. Demsar, "Statistical comparisons of classifiers over multiple
           data sets", JMLR 7 (2006) 1-30, section 3.2.2.
    """
    r = finite_vector(average_ranks, "average_ranks")
    z = _z(r, n_datasets)
    # the matrix is symmetric in |z|: evaluate the upper triangle once
    k = len(r)
    iu = np.triu_indices(k, 1)
    p = np.ones((k, k))
    p[iu] = np.minimum(2.0 * special.ndtr(-np.abs(z[iu])), 1.0)
    p.T[iu] = p[iu]
    return RankTestResult(
        test="friedman-z",
        methods=_names(methods, k),
        average_ranks=r,
        n_datasets=int(n_datasets),
        statistics=z,
        pvalues=p,
    )


def _z(r: np.ndarray, n_datasets: int) -> np.ndarray:
    n = whole_number(n_datasets, "n_datasets", minimum=1, what="data sets")
    z = r[:, None] - r[None, :]
    z /= rank_standard_error(len(r), n)  # in place: (k, k) is 200 MB at 5,000 methods
    return z


def _nemenyi_by_rank_sums(r: np.ndarray, n: int) -> np.ndarray | None:
    """Nemenyi's p-value matrix as a table look-up, when ``2 N R_i`` are integers.

    Average ranks of mid-ranks are multiples of ``1 / (2N)``, so every rank
    difference is ``m / (2N)`` for an integer ``0 <= m <= 2N (k - 1)``: the
    distinct ``m`` are marked in an array of that length (no sort of the
    ``k (k - 1) / 2`` differences, 12.5 million at 5,000 methods) and the
    p-value of each distinct one is computed once.  ``None`` for other
    average ranks (given directly, not from mid-ranks).
    """
    k = len(r)
    scaled = r * (2 * n)
    m = np.rint(scaled)
    if k < 2 or not np.all(np.abs(scaled - m) <= 1e-7) or m.max() - m.min() >= 2**31:
        return None
    m = (m - m.min()).astype(np.int32)
    d = m[:, None] - m[None, :]
    np.abs(d, out=d)
    present = np.zeros(int(m.max()) + 1, dtype=bool)
    present[d.ravel()] = True
    distinct = np.flatnonzero(present)
    table = np.ones(present.size)
    q = distinct / (2 * n) / rank_standard_error(k, n) * math.sqrt(2.0)
    table[distinct] = studentized_range_sf_many(q, k)
    p = table[d]
    np.fill_diagonal(p, 1.0)
    return p


def nemenyi_arrays(r: np.ndarray, n_datasets: int) -> tuple[np.ndarray, np.ndarray]:
    """The z statistics and Nemenyi p-values of :func:`nemenyi`, as fresh writable arrays."""
    k = len(r)
    z = _z(r, n_datasets)
    p = _nemenyi_by_rank_sums(r, int(n_datasets))
    if p is None:
        iu = np.triu_indices(k, 1)
        p = np.ones((k, k))
        # one evaluation per distinct rank difference
        p[iu] = studentized_range_sf_many(np.abs(z[iu]) * math.sqrt(2.0), k)
        p.T[iu] = p[iu]
    return z, p


def nemenyi(
    average_ranks: ArrayLike, n_datasets: int, *, methods: Sequence[str] | None = None
) -> RankTestResult:
    """Nemenyi all-pairs p-values from average ranks.

    The p-value of a pair is the probability that the range of ``k``
    standard normal variables exceeds ``sqrt(2) |z|``, the same computation
    as scikit-posthocs' ``posthoc_nemenyi_friedman``.

    Parameters
    ----------
    average_ranks : array_like, shape (k,)
        Average ranks of the ``k`` methods, finite (NaN raises
        :class:`~cdplot.errors.CdplotError`).
    n_datasets : int
        Number of data sets ``N``.
    methods : sequence of str, optional
        Names of the methods (default ``'1'``, ``'2'``, ...).

    Returns
    -------
    RankTestResult
        ``statistics``: the rank-difference z statistics, as in
        :func:`rank_z`; ``pvalues``: family-wise p-values, 1 on the diagonal.

    References
    ----------
    .. [1] P. B. Nemenyi, "Distribution-free multiple comparisons", PhD
           thesis, Princeton University, 1963.
    """
    r = finite_vector(average_ranks, "average_ranks")
    z, p = nemenyi_arrays(r, n_datasets)
    # fresh arrays: the result keeps them read-only instead of copying them
    z.setflags(write=False)
    p.setflags(write=False)
    return RankTestResult(
        test="nemenyi",
        methods=_names(methods, len(r)),
        average_ranks=r,
        n_datasets=int(n_datasets),
        statistics=z,
        pvalues=p,
    )
