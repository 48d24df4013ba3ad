"""The bootstrap samples of :func:`cdplot.stability`, at one or two levels.

``resample='datasets'`` draws the ``N`` data sets with replacement.  The
ranks of each data set are computed once and a sample is a multinomial count
per data set, so the rank sums of a whole chunk of samples are one matrix
product.

``resample='datasets-and-folds'`` is the two-stage bootstrap of a nested
design (Davison and Hinkley 1997, section 3.8): each sample draws ``N`` data
sets with replacement and then, within each drawn data set, its folds (the
repetitions the table was read with) with replacement, the same folds for
every method, as the folds of a cross-validation are shared.  Each method's
score on a drawn data set is the mean over the drawn folds, and the methods
are ranked on those means, as the analysis ranks the means over all folds.
A chunk of samples is one gather of the fold scores, one weighted mean and
one ranking of every row of the chunk.
"""

from __future__ import annotations

import numpy as np

from ..errors import CdplotError, opt
from ._ranks import ranks_and_ties

__all__ = ["DatasetDraws", "FoldDraws", "fold_draws"]

# cells held at once (a chunk of samples x N data sets, or x folds x methods), about 32 MB
CHUNK_CELLS = 1 << 22


class DatasetDraws:
    """Samples of the data sets; the ranks of each data set are computed once.

    Parameters
    ----------
    ranks : ndarray, shape (N, k)
        The comparison's ranks.
    ties : ndarray, shape (N,)
        Each data set's tie term ``sum(t**2 - 1)`` (see ``ranks_and_ties``).
    oriented : ndarray or None, shape (N, k)
        The scores, higher better, for the p-value tests; None for the rank tests.
    """

    levels = "datasets"

    def __init__(self, ranks, ties, oriented):
        self.ranks = ranks
        self.ties = ties
        self.oriented = oriented
        self.n = ranks.shape[0]
        self.chunk = max(1, CHUNK_CELLS // self.n)

    def draw(self, gen, s):
        """``(sums, tie_totals, rows)`` of ``s`` samples.

        ``sums`` (s, k) are the rank sums, ``tie_totals`` (s,) the tie terms
        summed over the sample, and ``rows(t)`` gives sample ``t``'s ranks
        and oriented scores, one row per drawn data set, for the tests that
        need more than the rank sums.
        """
        n = self.n
        counts = gen.multinomial(n, np.full(n, 1.0 / n), size=s).astype(float)
        # rank sums: whole multiples of 1/2, exact in floating point, so ties are exact
        sums = counts @ self.ranks
        tie_totals = counts @ self.ties

        def rows(t):
            idx = np.repeat(np.arange(n), counts[t].astype(int))
            x = None if self.oriented is None else self.oriented[idx]
            return self.ranks[idx], x

        return sums, tie_totals, rows


class FoldDraws:
    """Samples of the data sets and, within each, of its folds.

    Parameters
    ----------
    reps : ndarray, shape (N, k, r)
        The score of each fold, NaN where a method has none.
    means : ndarray, shape (N, k)
        Each method's mean over its folds (the comparison's scores), used for
        a method none of whose drawn folds holds a score.
    higher_is_better : bool
        The direction of the scores.
    """

    levels = "datasets-and-folds"

    def __init__(self, reps, means, higher_is_better):
        have = ~np.isnan(reps)
        n, k, r = reps.shape
        # the folds of a data set are the repetitions any method has a score for,
        # moved to the front so that a draw of m_d positions indexes them
        used = have.any(axis=1)
        self.folds = np.argsort(~used, axis=1, kind="stable")
        self.n_folds = used.sum(axis=1)
        # (N, r, k): a gather by (data set, fold) gives every method's score at once
        self.scores = np.where(have, reps, 0.0).transpose(0, 2, 1).copy()
        self.weights = have.transpose(0, 2, 1).astype(float)
        self.means = np.asarray(means, dtype=float)
        self.ragged = bool((have != used[:, None, :]).any())
        self.higher_is_better = higher_is_better
        self.n, self.k, self.r = n, k, r
        self.chunk = max(1, CHUNK_CELLS // (n * r * k))

    def sample_means(self, gen, s):
        """``(s, N, k)`` method means of ``s`` samples of data sets and folds."""
        n, r = self.n, self.r
        d = gen.integers(0, n, size=(s, n))
        m = self.n_folds[d]
        # position p < m_d of each draw of a fold; draws at p >= m_d are not used
        pos = (gen.random((s, n, r)) * m[..., None]).astype(np.intp)
        live = (np.arange(r) < m[..., None]).astype(float)
        fold = np.take_along_axis(self.folds[d], pos, axis=2)
        dd = d[..., None]
        w = self.weights[dd, fold] * live[..., None]
        # every method is summed over the same drawn folds in the same order: methods with
        # equal fold scores get equal means to the last bit, and tie as in the analysis
        total = np.einsum("snrk,snrk->snk", self.scores[dd, fold], w)
        count = w.sum(axis=2)
        out = self.means[d].copy()
        # a method without a score in any drawn fold keeps its mean over its own folds
        hit = count > 0
        out[hit] = total[hit] / count[hit]
        return out

    def draw(self, gen, s):
        """As :meth:`DatasetDraws.draw`, the ranks recomputed on each sample's means."""
        n, k = self.n, self.k
        means = self.sample_means(gen, s)
        ranks, ties = ranks_and_ties(
            means.reshape(s * n, k), higher_is_better=self.higher_is_better
        )
        ranks = ranks.reshape(s, n, k)
        sums = ranks.sum(axis=1)
        tie_totals = ties.reshape(s, n).sum(axis=1)
        sign = 1.0 if self.higher_is_better else -1.0

        def rows(t):
            return ranks[t], sign * means[t]

        return sums, tie_totals, rows


def fold_draws(result) -> FoldDraws:
    """The :class:`FoldDraws` of a comparison, or a one-line refusal when it has no folds."""
    table = result.scores
    reps = table.repetition_scores
    if reps is None or int(table.n_repetitions.max()) < 2:
        raise CdplotError(
            f"option {opt('resample', 'datasets-and-folds')} resamples the folds of each data "
            "set, and these scores have none (a long table with a fold or seed column has them, "
            "read with the reader's keep_repetitions option)",
            option="resample",
        )
    if table.repetition_labels is None:
        raise CdplotError(
            f"option {opt('resample', 'datasets-and-folds')} draws the same folds for every "
            f"method by their label, and these rows name none (no fold/seed column); pass "
            f"{opt('repetition_col')}",
            option="repetition_col",
        )
    return FoldDraws(np.asarray(reps, dtype=float), table.values, result.higher_is_better)
