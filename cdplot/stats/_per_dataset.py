"""Within each data set, every method against that data set's best, over the repetitions.

The post-hoc tests of an analysis compare methods over all data sets: they
say nothing about one data set.  A paper table that underlines, on each
data set, the methods "not significantly worse than the best" needs a test
within the data set, and that needs the scores of the repetitions (folds,
seeds, resamples) the table's means average.  :func:`versus_best` runs a
paired test of each method against the best one of each data set over the
repetitions both have, and corrects the ``k - 1`` p-values of each data set
with Holm's procedure (valid under any dependence), vectorised over all data
sets at once.

The repetitions of cross-validation are not independent (training sets
overlap), which these tests assume: their p-values are too small (Nadeau and
Bengio 2003; Dietterich 1998), so they find "significantly worse" more often
than they should.  Whoever prints their result should say so.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy import special

from .._docstrings import share
from .._options import (
    PAIRED_TESTS,  # the paired tests over repetitions
    PairedTest,
    check_option,
)
from ..errors import CdplotError
from ._wilcoxon import _signed_rank

__all__ = ["VersusBest", "versus_best", "PAIRED_TESTS"]


@dataclass(frozen=True, kw_only=True)
class VersusBest:
    """Result of :func:`versus_best`, arrays of shape ``(N, k)``.

    Attributes
    ----------
    pvalues : ndarray
        Two-sided p-values, Holm-adjusted within each data set; NaN for the
        best method itself and where fewer than two repetitions are shared.
    best_better : ndarray of bool
        Whether the test leans towards the best method (rank sum ``R+`` of
        the differences best minus method above ``R-``; for the t-test a
        positive mean difference).
    n : ndarray of int
        Repetitions both methods have (the test's sample size).
    test : str
        ``'wilcoxon'`` or ``'t-test'``.
    """

    pvalues: np.ndarray
    best_better: np.ndarray
    n: np.ndarray
    test: str

    def __post_init__(self):
        for name in ("pvalues", "best_better", "n"):
            a = np.array(getattr(self, name), copy=True)
            a.setflags(write=False)
            object.__setattr__(self, name, a)

    def __str__(self) -> str:
        n_d, k = self.pvalues.shape
        hits = int(np.count_nonzero(self.worse(0.05)))
        return (
            f"{self.test} of each method against the best of its data set over the "
            f"repetitions ({n_d} data sets, {k} methods, Holm within each data set): "
            f"{hits} of {n_d * (k - 1)} comparisons significantly worse at 0.05"
        )

    def worse(self, alpha: float) -> np.ndarray:
        """Methods significantly worse than the best at ``alpha`` (bool, (N, k))."""
        return (np.nan_to_num(self.pvalues, nan=1.0) <= alpha) & self.best_better

    def describe(self, alpha: float) -> str:
        """What the methods not :meth:`worse` at ``alpha`` are, in words, with the caveats.

        Parameters
        ----------
        alpha : float
            The significance level, as given to :meth:`worse`.

        Returns
        -------
        str
            Sentences beginning "not significantly worse than the best of the
            data set by ...", to follow a label (a table prints
            ``"Underlined: " + res.describe(alpha)``): the test, the
            repetitions it pairs, Holm's family, and that folds are not
            independent; for Wilcoxon's test with too few repetitions to reach
            Holm's first step, that no method can be shown worse.

        Examples
        --------
        >>> import numpy as np
        >>> reps = np.array([[[0.9, 0.8, 0.85, 0.9, 0.95], [0.7, 0.6, 0.65, 0.7, 0.75]]])
        >>> print(versus_best(reps, [0]).describe(0.05))  # doctest: +ELLIPSIS
        not significantly worse than the best of the data set by a two-sided Wilcoxon ...
        """
        k = self.pvalues.shape[1]
        n = self.n[self.n > 0]
        name = "Wilcoxon signed-rank test" if self.test == "wilcoxon" else "paired t-test"
        lo, hi = (int(n.min()), int(n.max())) if n.size else (0, 0)
        spread = f"{hi}" if lo == hi else f"{lo} to {hi}"
        text = (
            f"not significantly worse than the best of the data set by a two-sided "
            f"{name} over the {spread} repetitions both methods have, Holm-corrected "
            f"over the {k - 1} comparisons within "
            f"each data set (not across data sets), \u03b1 = {alpha:g}. It treats the "
            "repetitions as independent, which cross-validation folds are not (Nadeau and "
            "Bengio 2003), so it may call too many methods worse."
        )
        if self.test == "wilcoxon":
            # with n paired repetitions no two-sided p-value is below 2 / 2**n
            smallest = 2.0 / 2.0**hi if n.size else 1.0
            if hi <= 50 and smallest > alpha / max(1, k - 1):
                text += (
                    f" With {hi} repetitions its smallest p-value is {smallest:.3g}, "
                    f"which Holm's first step (\u03b1/{k - 1}) cannot reject: no method can be "
                    "shown worse."
                )
        return text


def _holm_rows(p: np.ndarray) -> np.ndarray:
    """Holm's step-down adjustment of each row of ``p`` as one family (NaNs left out)."""
    rows, m_max = p.shape
    m = np.count_nonzero(~np.isnan(p), axis=1)
    order = np.argsort(np.where(np.isnan(p), np.inf, p), axis=1, kind="stable")
    ps = np.take_along_axis(p, order, axis=1)
    factor = m[:, None] - np.arange(m_max)[None, :]
    with np.errstate(invalid="ignore"):
        adj = np.fmax.accumulate(np.where(factor > 0, ps * factor, np.nan), axis=1)
    adj = np.minimum(adj, 1.0)
    adj[np.isnan(ps)] = np.nan
    out = np.empty_like(adj)
    np.put_along_axis(out, order, adj, axis=1)
    return out


def _wilcoxon(d: np.ndarray):
    out = _signed_rank(d, "demsar", "auto")
    return out["pvalue"], out["r_plus"] > out["r_minus"]


def _t(d: np.ndarray):
    n = d.shape[1]
    mean = d.mean(axis=1)
    sd = d.std(axis=1, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = mean / (sd / np.sqrt(n))
    p = 2.0 * special.stdtr(n - 1, -np.abs(t))
    p = np.where(sd == 0, np.where(mean == 0, 1.0, 0.0), p)
    return np.asarray(p, dtype=float), mean > 0


@share
def versus_best(
    repetitions: ArrayLike,
    best: ArrayLike,
    *,
    test: PairedTest = "wilcoxon",
    higher_is_better: bool = True,
) -> VersusBest:
    """Paired tests of each method against the best one of its data set, over repetitions.

    Parameters
    ----------
    repetitions : array_like, shape (N, k, r)
        The score of each repetition, NaN where a method lacks one
        (``ScoreTable.repetition_scores``).
    best : array_like of int, shape (N,)
        The method each data set's others are tested against.
    test : {'wilcoxon', 't-test'}, default 'wilcoxon'
        Wilcoxon's signed-rank test (zero differences as in Demšar 2006,
        exact p-values up to 50 repetitions) or the paired t-test.
    %(higher_is_better_array)s

    Returns
    -------
    VersusBest
        Holm-adjusted p-values within each data set and the side each test
        leans to.

    Raises
    ------
    CdplotError
        If ``test`` is not one of the options or the shapes disagree.

    Notes
    -----
    The family of each data set is its ``k - 1`` comparisons with the best;
    nothing is corrected across data sets.  Only repetitions that both
    methods have are paired.  The tests treat the repetitions as
    independent, which cross-validation folds are not (Nadeau and Bengio
    2003): the p-values are optimistic.

    References
    ----------
    .. [1] S. Holm, "A simple sequentially rejective multiple test
           procedure", Scandinavian Journal of Statistics 6 (1979) 65-70.
    .. [2] C. Nadeau and Y. Bengio, "Inference for the generalization
           error", Machine Learning 52 (2003) 239-281.

    Examples
    --------
    >>> import numpy as np
    >>> reps = np.array([[[0.9, 0.8, 0.85, 0.9, 0.95, 0.9], [0.7, 0.6, 0.65, 0.7, 0.75, 0.7]]])
    >>> res = versus_best(reps, [0])
    >>> float(res.pvalues[0, 1]), bool(res.best_better[0, 1])
    (0.03125, True)
    """
    check_option("test", test, PAIRED_TESTS)
    x = np.asarray(repetitions, dtype=float)
    best = np.asarray(best, dtype=np.intp)
    if x.ndim != 3 or best.shape != (x.shape[0],):
        raise CdplotError(
            f"repetitions of shape {x.shape} and best of shape {best.shape} do not fit: "
            f"expected (N, k, r) and (N,)"
        )
    if not higher_is_better:
        x = -x
    n_d, k, _ = x.shape
    ref = x[np.arange(n_d), best]  # (N, r)
    d = ref[:, None, :] - x  # best minus method: positive where the best is better
    both = ~np.isnan(d)
    n = both.sum(axis=2)
    p = np.full((n_d, k), np.nan)
    side = np.zeros((n_d, k), dtype=bool)
    run = _wilcoxon if test == "wilcoxon" else _t
    is_best = np.zeros((n_d, k), dtype=bool)
    is_best[np.arange(n_d), best] = True
    todo = ~is_best & (n >= 2)
    # comparisons where every repetition is shared are tested in one batch per size
    complete = todo & both.all(axis=2)
    if complete.any():
        rows = d[complete]
        p[complete], side[complete] = run(rows)
    for i, j in zip(*np.nonzero(todo & ~complete), strict=True):
        row = d[i, j][both[i, j]][None, :]
        pv, sd = run(row)
        p[i, j], side[i, j] = pv[0], sd[0]
    return VersusBest(pvalues=_holm_rows(p), best_better=side, n=n, test=test)
