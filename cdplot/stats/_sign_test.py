"""Sign test (counts of wins, losses and ties) for two methods over many data sets.

Demšar (2006, section 3.1.3) describes it as the simplest comparison of two
classifiers: count the data sets on which each one wins.  Under the null
hypothesis each wins on a data set with probability 1/2, so the number of
wins is binomial.  Ties count as half a win for each; an odd tie is dropped.
The test is weak (it ignores the size of the differences) but makes no
assumption about them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import overload

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import special

from .._docstrings import share
from .._options import check_alpha
from ..errors import CdplotError, opt
from ._formatting import format_p
from ._resultkit import Result, jsonable, num, readonly, result
from ._wilcoxon import (
    pairs_headline,
    pairs_summary,
    validate_pairs,
    validate_values,
    validate_vector,
)

__all__ = ["SignTestResult", "SignTestPairsResult", "sign_test", "sign_test_pairs", "critical_wins"]


@result
class SignTestResult(Result):
    """Result of :func:`sign_test`.

    Attributes
    ----------
    wins, losses, ties : int
        Data sets where ``x`` scores higher than, lower than and equal to ``y``.
    statistic : int
        Wins of ``x`` after the ties are split: ``wins + ties // 2``.
    pvalue : float
        Two-sided exact binomial p-value.
    n : int
        Number of trials of the binomial test, ``wins + losses + 2 * (ties // 2)``
        (one tie is left out when their number is odd).
    """

    wins: int
    losses: int
    ties: int
    statistic: int
    pvalue: float
    n: int

    def _headline(self) -> str:
        return (
            f"{self.wins}/{self.ties}/{self.losses} wins/ties/losses, "
            f"{format_p(self.pvalue, prefix=True)}"
        )

    def to_dict(self) -> dict:
        """Return a JSON-safe dictionary."""
        return {
            "wins": int(self.wins),
            "losses": int(self.losses),
            "ties": int(self.ties),
            "statistic": int(self.statistic),
            "pvalue": num(self.pvalue),
            "n": int(self.n),
        }

    def __str__(self) -> str:
        p = format_p(self.pvalue, prefix=True)
        split = self.ties // 2
        w, lo = self.wins + split, self.losses + split
        if w > lo:
            lean = f"x wins more often ({w} of {self.n})"
        elif w < lo:
            lean = f"y wins more often ({lo} of {self.n})"
        else:
            lean = "neither wins more often"
        return (
            f"sign test: {self.wins} wins, {self.losses} losses, {self.ties} ties for x; "
            f"{w} against {lo} after splitting ties, {p} (two-sided); {lean}."
        )


@result
class SignTestPairsResult(Result):
    """Result of :func:`sign_test_pairs`: one sign test per pair of columns.

    Attributes
    ----------
    statistic : ndarray, shape (k, k)
        ``statistic[i, j]`` is the number of wins of column ``i`` over column
        ``j`` after splitting ties, so ``statistic[i, j] + statistic[j, i]``
        is the ``n`` of the test; NaN on the diagonal and for pairs not
        tested.
    pvalue : ndarray, shape (k, k)
        Symmetric matrix of two-sided p-values; 1.0 on the diagonal, NaN for
        pairs not tested.
    """

    statistic: NDArray[np.float64]
    pvalue: NDArray[np.float64]

    def __post_init__(self) -> None:
        object.__setattr__(self, "statistic", readonly(self.statistic))
        object.__setattr__(self, "pvalue", readonly(self.pvalue))

    def direction(self) -> NDArray[np.float64]:
        """The side each test favours: the column with more wins (ties split).

        Returns
        -------
        ndarray, shape (k, k)
            ``+1`` where column ``i`` wins more often than column ``j``, ``-1``
            where it wins less often, antisymmetric; 0 on the diagonal, for
            equal counts and for pairs not tested.
        """
        return np.nan_to_num(np.sign(self.statistic - self.statistic.T), nan=0.0)

    def _headline(self) -> str:
        return pairs_headline(self.pvalue, "exact binomial")

    def to_dict(self) -> dict:
        """Return a JSON-safe dictionary (matrices as lists of rows, NaN as ``None``)."""
        return {"statistic": jsonable(self.statistic), "pvalue": jsonable(self.pvalue)}

    def __str__(self) -> str:
        return "Sign tests (exact binomial, ties split): " + pairs_summary(self.pvalue)


def _split_ties(wins, losses, ties):
    half = ties // 2
    return wins + half, losses + half


def _binomial_pvalue(w, lo):
    """``min(1, 2 P(X >= max(w, lo)))`` for ``X ~ Binomial(w + lo, 1/2)``."""
    n = w + lo
    top = np.maximum(w, lo)
    return np.minimum(1.0, 2.0 * special.bdtrc(top - 1, n, 0.5))


def sign_test(x: ArrayLike, y: ArrayLike) -> SignTestResult:
    """Sign test of two methods over ``N`` data sets.

    Parameters
    ----------
    x, y : array_like, shape (N,)
        Scores of the two methods on the same data sets (higher is better).

    Returns
    -------
    SignTestResult
        Counts of wins, losses and ties of ``x``, the wins after splitting
        ties (``statistic``), the two-sided ``pvalue`` and ``n``.

    Raises
    ------
    CdplotError
        If the arrays are empty, not 1-D, of different lengths or hold
        non-finite values.

    Notes
    -----
    As Demšar (2006) prescribes, ties are split evenly between the two
    methods, and if their number is odd one of them is ignored.  The p-value
    is the exact two-sided binomial test with success probability 1/2,
    ``min(1, 2 P(X >= max(w, l)))`` with ``X ~ Binomial(w + l, 1/2)`` on the
    counts after splitting; it equals ``scipy.stats.binomtest(w, w + l).pvalue``.
    Scores are compared exactly: round them first if small differences
    should count as ties.

    References
    ----------
    .. [1] Demšar, J. (2006). Statistical comparisons of classifiers over
       multiple data sets. JMLR, 7, 1-30, section 3.1.3 and Table 3.

    Examples
    --------
    >>> from cdplot.stats._sign_test import sign_test
    >>> res = sign_test([0.9, 0.8, 0.7, 0.6, 0.5, 0.5], [0.8, 0.7, 0.6, 0.5, 0.6, 0.5])
    >>> res.wins, res.losses, res.ties, res.statistic, round(res.pvalue, 4)
    (4, 1, 1, 4, 0.375)
    """
    x = validate_vector("x", x)
    y = validate_vector("y", y)
    if x.shape != y.shape:
        raise CdplotError(f"x and y must have the same length; got {x.size!r} and {y.size!r}")
    wins = int(np.sum(x > y))
    losses = int(np.sum(x < y))
    ties = x.size - wins - losses
    w, lo = _split_ties(wins, losses, ties)
    return SignTestResult(
        wins=wins,
        losses=losses,
        ties=ties,
        statistic=w,
        pvalue=float(_binomial_pvalue(w, lo)),
        n=w + lo,
    )


def sign_test_pairs(
    values: ArrayLike, *, pairs: Sequence[tuple[int, int]] | None = None
) -> SignTestPairsResult:
    """Sign tests between columns of a score table.

    Parameters
    ----------
    values : array_like, shape (N, k)
        Scores, one row per data set and one column per method (higher is
        better).  Objects with a ``values`` matrix (DataFrames, score
        tables) are accepted.
    pairs : sequence of (int, int), optional
        Column pairs to test; by default all pairs ``i < j``.

    Returns
    -------
    SignTestPairsResult
        ``statistic`` (wins of column ``i`` over column ``j`` after splitting
        ties) and the two-sided ``pvalue``, as ``(k, k)`` matrices, and the
        side each test favours (:meth:`SignTestPairsResult.direction`).

    Raises
    ------
    CdplotError
        If ``values`` is not a finite matrix with at least one row and two
        columns, or ``pairs`` names a column that does not exist or a column
        with itself.

    Notes
    -----
    Each entry equals :func:`sign_test` on the two columns; all pairs are
    counted at once.  The p-values are not adjusted for multiplicity.

    References
    ----------
    .. [1] Demšar, J. (2006). Statistical comparisons of classifiers over
       multiple data sets. JMLR, 7, 1-30, section 3.1.3.

    Examples
    --------
    >>> import numpy as np
    >>> from cdplot.stats import sign_test_pairs
    >>> values = np.array([[0.1, 0.3], [0.2, 0.5], [0.4, 0.4], [0.3, 0.9]])
    >>> res = sign_test_pairs(values)
    >>> res.statistic
    array([[nan,  0.],
           [ 3., nan]])
    >>> res.pvalue[0, 1]
    np.float64(0.25)
    """
    v = validate_values(values)
    k = v.shape[1]
    i, j = validate_pairs(pairs, k)
    wins = np.empty(len(i), dtype=np.int64)
    losses = np.empty(len(i), dtype=np.int64)
    # pairs in blocks, so that memory stays O(k^2 + block) rather than O(k^2 N)
    step = max(1, _BLOCK_CELLS // v.shape[0])
    for start in range(0, len(i), step):
        a, b = v[:, i[start : start + step]], v[:, j[start : start + step]]
        wins[start : start + step] = np.sum(a > b, axis=0)
        losses[start : start + step] = np.sum(a < b, axis=0)
    ties = v.shape[0] - wins - losses
    w, lo = _split_ties(wins, losses, ties)
    statistic = np.full((k, k), np.nan)
    pvalue = np.full((k, k), np.nan)
    statistic[i, j] = w
    statistic[j, i] = lo
    pvalue[i, j] = pvalue[j, i] = _binomial_pvalue(w, lo)
    np.fill_diagonal(pvalue, 1.0)
    return SignTestPairsResult(statistic=statistic, pvalue=pvalue)


#: Score pairs compared at once by :func:`sign_test_pairs` (16 MB of floats per array).
_BLOCK_CELLS = 2_000_000


def _validate_n(n):
    arr = np.asarray(n)
    if arr.dtype == bool or not np.issubdtype(arr.dtype, np.integer):
        raise CdplotError(f"{opt('n', n)} must be a whole number of data sets")
    if np.any(arr < 1):
        raise CdplotError(f"{opt('n', n)} must be at least 1")
    return arr


# an int for an int, an array for an array, as the docstring says
@overload
def critical_wins(n: int, alpha: float = ...) -> int: ...
@overload
def critical_wins(n: ArrayLike, alpha: float = ...) -> int | NDArray[np.int64]: ...


@share
def critical_wins(n: ArrayLike, alpha: float = 0.05) -> int | NDArray[np.int64]:
    """Wins needed for a significant sign test, by Demšar's normal approximation.

    Parameters
    ----------
    n : int or array_like of int
        Number of data sets (at least 1).
    %(alpha)s
        The test is two-sided.

    Returns
    -------
    int or ndarray
        ``ceil(n/2 + z_{alpha/2} sqrt(n)/2)``: a method that wins (counting
        split ties) on at least this many data sets is significantly better
        at level ``alpha``.

    Raises
    ------
    CdplotError
        If ``n`` is not a whole number of at least 1 or ``alpha`` is not in
        (0, 1).

    Notes
    -----
    Under the null hypothesis the number of wins is approximately normal
    with mean ``n/2`` and standard deviation ``sqrt(n)/2``; this is the rule
    in Demšar's (2006) text.  His Table 3 agrees with it for alpha = 0.05
    except at ``n`` = 13, 18 and 24, where it prints 10, 13 and 18 instead
    of 11, 14 and 17 (the table looks computed from the binomial
    distribution instead).  For small ``n`` the exact test of
    :func:`sign_test` can also disagree by a win: prefer its p-value.

    References
    ----------
    .. [1] Demšar, J. (2006). Statistical comparisons of classifiers over
       multiple data sets. JMLR, 7, 1-30, section 3.1.3 and Table 3.

    Examples
    --------
    >>> from cdplot.stats._sign_test import critical_wins
    >>> critical_wins(14)
    11
    >>> critical_wins([5, 10, 25], alpha=0.05)
    array([ 5,  9, 18])
    """
    arr = _validate_n(n)
    alpha = check_alpha(alpha)
    z = -special.ndtri(alpha / 2.0)
    out = np.ceil(arr / 2.0 + z * np.sqrt(arr) / 2.0).astype(np.int64)
    return int(out) if out.ndim == 0 else out
