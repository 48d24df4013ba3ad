"""Effect sizes: how large the differences between methods are, not only whether they exist.

A significant difference in average rank says nothing about its size.  For
every pair of methods this module gives

* **Cliff's δ** between the two methods' scores over the data sets: the
  share of all N × N pairs of scores in which the first method's score is
  better, minus the share in which it is worse (Cliff 1993; as autorank
  computes it).  Non-parametric, the measure that goes with rank-based
  tests.
* **Cohen's d** of the paired differences (``d_z``, Cohen 1988): the mean
  of the per-data-set differences divided by their standard deviation.  The
  measure that goes with the paired t-test and repeated-measures ANOVA.

Both are oriented so that a **positive value means the first method is
better**, whether higher or lower scores are better.  Magnitudes use the
published thresholds: for δ, Romano et al. (2006) — negligible < 0.147 ≤
small < 0.33 ≤ medium < 0.474 ≤ large; for d, Cohen (1988) — negligible <
0.2 ≤ small < 0.5 ≤ medium < 0.8 ≤ large.

For every method it also gives the mean, standard deviation and median
over the data sets, a t-based confidence interval of the mean, and a
distribution-free confidence interval of the median from order statistics
(exact binomial coverage; autorank 1.3 uses a normal approximation of the
same order statistics, with ``sqrt(n/2)`` where the textbook has
``sqrt(n)/2``, which gives wider intervals).

References
----------
N. Cliff (1993). Dominance statistics: ordinal analyses to answer ordinal
questions. Psychological Bulletin 114(3), 494–509.
J. Cohen (1988). Statistical Power Analysis for the Behavioral Sciences,
2nd ed. Lawrence Erlbaum.
J. Romano, J. D. Kromrey, J. Coraggio and J. Skowronek (2006). Appropriate
statistics for ordinal level data: should we really be using t-test and
Cohen's d for evaluating group differences on the NSSE and other surveys?
Annual meeting of the Florida Association of Institutional Research.
W. J. Conover (1999). Practical Nonparametric Statistics, 3rd ed. Wiley,
section 3.2 (confidence interval for a quantile).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike
from scipy import special

from .._docstrings import share
from .._options import EffectMeasure, check_alpha, check_option
from ..errors import CdplotError, opt
from ._resultkit import (
    Result,
    json_matrices,
    matrix_dict,
    method_index,
    num,
    readonly,
    result,
    wrap,
)

__all__ = [
    "CLIFFS_DELTA_THRESHOLDS",
    "COHENS_D_THRESHOLDS",
    "EffectSizes",
    "cliffs_delta",
    "cohens_d",
    "effect_sizes",
    "magnitude",
    "method_summaries",
    "effect_sizes_dict",
]

# (upper bound of the label, label): Romano et al. (2006) for δ, Cohen (1988) for d
CLIFFS_DELTA_THRESHOLDS = ((0.147, "negligible"), (0.33, "small"), (0.474, "medium"))
COHENS_D_THRESHOLDS = ((0.2, "negligible"), (0.5, "small"), (0.8, "medium"))
_THRESHOLDS = {"cliffs_delta": CLIFFS_DELTA_THRESHOLDS, "cohens_d": COHENS_D_THRESHOLDS}
_SOURCES = {
    "cliffs_delta": "Romano et al. (2006): negligible < 0.147 <= small < 0.33 <= medium "
    "< 0.474 <= large",
    "cohens_d": "Cohen (1988): negligible < 0.2 <= small < 0.5 <= medium < 0.8 <= large",
}


def magnitude(value: float, measure: str = "cliffs_delta") -> str:
    """The published magnitude label of an effect size.

    Parameters
    ----------
    value : float
        Cliff's δ or Cohen's d (the sign is ignored).
    measure : {'cliffs_delta', 'cohens_d'}, default 'cliffs_delta'
        Which thresholds apply.

    Returns
    -------
    str
        ``'negligible'``, ``'small'``, ``'medium'`` or ``'large'``;
        ``'undefined'`` for NaN.

    Examples
    --------
    >>> magnitude(0.2), magnitude(-0.5), magnitude(0.5, "cohens_d")
    ('small', 'large', 'medium')
    """
    if measure not in _THRESHOLDS:
        raise CdplotError(
            f"option {opt('measure', measure)} is not 'cliffs_delta' or 'cohens_d'",
            option="measure",
        )
    if value is None or math.isnan(value):
        return "undefined"
    size = abs(value)
    for bound, label in _THRESHOLDS[measure]:
        if size < bound:
            return label
    return "large"


def _matrix(scores, higher_is_better) -> np.ndarray:
    x = np.asarray(scores, dtype=float)
    if x.ndim != 2 or x.shape[0] < 1 or x.shape[1] < 1:
        raise CdplotError(
            f"scores must be a table of data sets (rows) x methods (columns); got shape {x.shape}"
        )
    if not np.all(np.isfinite(x)):
        i, j = np.argwhere(~np.isfinite(x))[0]
        raise CdplotError(f"scores must be finite; row {i}, column {j} is {x[i, j]!r}")
    return x if _check_direction(higher_is_better) else -x


def _check_direction(higher_is_better) -> bool:
    if not isinstance(higher_is_better, (bool, np.bool_)):
        raise CdplotError(
            f"option {opt('higher_is_better', higher_is_better)} must be True or False",
            option="higher_is_better",
        )
    return bool(higher_is_better)


def _scaled(x: np.ndarray) -> tuple[np.ndarray, float]:
    """``x / s`` and ``s``, a power of two (so the division is exact) that keeps sums finite.

    Scores near the largest float (1e308) overflow in differences and squares;
    scaled down they do not, and every quantity here is either scale-free
    (Cohen's d, Cliff's delta) or scales back linearly.
    """
    top = float(np.max(np.abs(x))) if x.size else 0.0
    if top <= 2.0**500:
        return x, 1.0
    # top = m * 2**e with 1/2 <= m < 1: divided by 2**(e - 1), every score is below 2
    scale = math.ldexp(1.0, math.frexp(top)[1] - 1)
    return x / scale, scale


@share
def cliffs_delta(scores: ArrayLike, *, higher_is_better: bool = True) -> np.ndarray:
    """Cliff's δ between every pair of methods' scores over the data sets.

    Parameters
    ----------
    %(scores_array)s
    %(higher_is_better_array)s
        δ is positive when the row method is better.

    Returns
    -------
    ndarray, shape (n_methods, n_methods)
        ``delta[i, j] = (#(s_i > s_j) - #(s_i < s_j)) / N²`` over all N × N
        pairs of a score of method i and a score of method j (ties count
        for neither); antisymmetric, zero on the diagonal.

    Notes
    -----
    Computed from one sort of all scores and a k x k matrix product, not
    the O(k² N²) double loop (see the tests for the direct count).

    Examples
    --------
    >>> cliffs_delta([[3, 1], [4, 2], [5, 6]]).round(4).tolist()
    [[0.0, 0.3333], [-0.3333, 0.0]]
    """
    return _cliffs(_matrix(scores, higher_is_better))


def _block(k: int) -> int:
    """Positions per block of the sorted scores in :func:`_cliffs`.

    Smaller blocks make the k x k product per block dearer, larger ones the pair
    counts inside blocks; the best size grows with k (CPU time, one BLAS thread:
    32 at k = 100, 64 vs 80 ms; 128 at k = 2,000, 0.55 vs 0.61 s for 64).
    """
    return min(max(32, k // 16), 128)


def _cliffs(x: np.ndarray) -> np.ndarray:
    """Cliff's delta of validated scores oriented so that higher is better.

    All k N scores are sorted once (ties in method order).  For the pair
    (i, j), ``#(s_i > s_j)`` plus the ties in which j's score comes first
    is the number of (i, j) pairs of positions with j's first: it is counted
    exactly inside blocks of :func:`_block` positions, and across blocks as
    one k x k matrix product of the per-block counts with their prefix sums.
    The ties, counted per run of equal scores, are then taken out again.
    O(k N log(k N) + k N B + k^3 N / B) for blocks of B positions with small constants:
    10,000 data sets x 100 methods take about half a second, where one
    binary search per score and method took twenty.
    """
    n, k = x.shape
    total = n * k
    # δ depends on each method's scores as a set, not on their data sets: sorting every
    # method's scores first (k short sorts) leaves the stable sort below k sorted runs to
    # merge, a third of the time of sorting them shuffled (45 vs 120 ms at 10,000 x 100)
    flat = np.sort(x.T, axis=1).ravel()
    # a stable sort keeps equal scores in method order (flat is method-major)
    order = np.argsort(flat, kind="stable")
    v = flat[order]
    lab = order // n
    m = min(_block(k), total)
    n_blocks = -(-total // m)
    width = k + 1  # label k pads the last block
    code_type = np.int32 if width * width < 2**31 else np.int64
    padded = np.full(n_blocks * m, k, dtype=code_type)
    padded[:total] = lab
    padded = padded.reshape(n_blocks, m)
    # before[i, j]: pairs (score of i, score of j) with j's score earlier in the sorted order
    within = np.zeros(width * width, dtype=np.int64)
    for d in range(1, m):
        codes = padded[:, d:] * width + padded[:, :-d]
        within += np.bincount(codes.ravel(), minlength=width * width)
    before = within.reshape(width, width)[:k, :k].astype(float)
    blocks = np.repeat(np.arange(n_blocks, dtype=np.int64) * width, m) + padded.ravel()
    counts = np.bincount(blocks, minlength=n_blocks * width).reshape(n_blocks, width)[:, :k]
    counts = counts.astype(float)
    before += counts.T @ (np.cumsum(counts, axis=0) - counts)
    delta = before - before.T
    # equal scores count for neither side; the sort put the lower method first, so a tie
    # between i and j was counted as j first when j < i: take those out again
    ties = _ties(v, lab, k)
    if ties is not None:
        idx = np.arange(k)
        delta -= ties * np.sign(idx[:, None] - idx[None, :])
    delta /= float(n) * float(n)
    np.fill_diagonal(delta, 0.0)
    return delta


def _ties(v: np.ndarray, lab: np.ndarray, k: int) -> np.ndarray | None:
    """``ties[i, j]``: pairs of equal scores of methods i and j (None when there are none).

    ``v`` are the sorted scores and ``lab`` their methods, equal scores in
    method order.  Only the runs of equal scores that hold more than one
    method count.  Each run is one (method, count) entry per method, sorted
    by method; the entries ``d`` apart in the same run are paired in one
    vectorised step per ``d`` (at most k - 1 steps, each over the entries at
    least ``d`` deep in their run), so the work is the number of pairs, with
    no index arrays built per pair.  When the runs hold many methods each
    (few distinct scores), the (run x method) counts are multiplied as dense
    blocks instead.  The diagonal is not filled (a method is never tied
    against itself in :func:`_cliffs`).
    """
    total = v.size
    new_value = np.empty(total, dtype=bool)
    new_value[0] = True
    np.not_equal(v[1:], v[:-1], out=new_value[1:])
    new_run = new_value.copy()
    new_run[1:] |= lab[1:] != lab[:-1]
    starts = np.flatnonzero(new_run)
    sizes = np.diff(np.append(starts, total))
    group = np.cumsum(new_value)[starts] - 1
    per_group = np.bincount(group)
    shared = (per_group >= 2)[group]
    if not shared.any():
        return None
    sizes, labels, group = sizes[shared], lab[starts][shared], group[shared]
    # renumber the groups that are kept 0, 1, ...; entries stay sorted by group
    first = np.r_[True, group[1:] != group[:-1]]
    gid = np.cumsum(first) - 1
    length = np.bincount(gid)
    n_pairs = int(np.sum(length.astype(np.int64) ** 2))
    if n_pairs <= _TIE_PAIRS_MAX:
        return _tie_pairs(sizes, labels, gid, np.flatnonzero(first), k)
    # few groups, each with many methods: dense blocks of the (group x method) counts
    out = np.zeros((k, k))
    n_groups = int(gid[-1]) + 1
    step = max(1, 4_000_000 // k)
    for lo in range(0, n_groups, step):
        hi = min(n_groups, lo + step)
        sel = (gid >= lo) & (gid < hi)
        block = np.zeros((hi - lo, k))
        np.add.at(block, (gid[sel] - lo, labels[sel]), sizes[sel])
        out += block.T @ block
    return out


#: Above this many entry pairs (sum of squared group sizes) :func:`_ties` multiplies dense
#: (group x method) blocks instead of pairing entries one step at a time.
_TIE_PAIRS_MAX = 20_000_000


def _tie_pairs(sizes, labels, gid, begin, k: int) -> np.ndarray:
    """Sum of ``sizes[a] * sizes[b]`` per ``(labels[a], labels[b])`` over the pairs of
    distinct entries ``a, b`` of each group, as a symmetric (k, k) array.

    Entry ``a`` at depth ``pos[a]`` in its group (``begin`` holds the groups'
    first entries) is paired with ``a - d`` for ``d = 1 .. pos[a]``: step ``d``
    keeps the entries at least ``d`` deep.  Each step adds into the k x k
    array in place (``np.add.at``, as fast as ``bincount`` in numpy 2 and
    without a k * k array per step).
    """
    pos = np.arange(gid.size) - begin[gid]
    row = labels.astype(np.int64) * k
    # with one score per method and value (the usual case) the weights are all 1
    weights = sizes.astype(float) if (sizes > 1).any() else None
    out = np.zeros(k * k)
    a = np.flatnonzero(pos >= 1)
    d = 1
    while a.size:
        b = a - d
        np.add.at(out, row[a] + labels[b], 1.0 if weights is None else weights[a] * weights[b])
        d += 1
        a = a[pos[a] >= d]
    out = out.reshape(k, k)
    # entries are sorted by method within a group: only the lower triangle was counted
    return out + out.T


@share
def cohens_d(scores: ArrayLike, *, higher_is_better: bool = True) -> np.ndarray:
    """Cohen's d of the paired differences (``d_z``) between every pair of methods.

    Parameters
    ----------
    %(scores_array)s
    %(higher_is_better_array)s
        d is positive when the row method is better.

    Returns
    -------
    ndarray, shape (n_methods, n_methods)
        ``d[i, j] = mean(s_i - s_j) / std(s_i - s_j, ddof=1)``; NaN when
        there are fewer than two data sets or the differences are all
        equal and zero, ±inf when they are all equal and not zero.

    Examples
    --------
    >>> cohens_d([[3, 1], [4, 2], [5, 6]]).round(4).tolist()
    [[0.0, 0.5774], [-0.5774, 0.0]]
    """
    x, _ = _scaled(_matrix(scores, higher_is_better))
    return _cohens(x)


def _cohens(x: np.ndarray) -> np.ndarray:
    """Cohen's d_z of validated, scaled scores oriented so that higher is better."""
    n, k = x.shape
    if n < 2:
        d = np.full((k, k), np.nan)
        np.fill_diagonal(d, 0.0)
        return d
    centred = x - x.mean(axis=0)
    mean = x.mean(axis=0)[:, None] - x.mean(axis=0)[None, :]
    # var(s_i - s_j) = var_i + var_j - 2 cov_ij: one k x k product instead of k passes
    # over N x k differences (0.4 s at 10,000 x 100)
    gram = centred.T @ centred
    var = np.diag(gram)
    ss = var[:, None] + var[None, :] - 2.0 * gram
    # where the difference varies far less than the methods do, the sum above cancels
    # to noise: those pairs (near-copies, constant offsets) are computed directly
    close = ss <= 1e-6 * (var[:, None] + var[None, :])
    np.fill_diagonal(close, False)
    ss = np.maximum(ss, 0.0)
    for i in np.flatnonzero(close.any(axis=1)):
        js = np.flatnonzero(close[i])
        diff = x[:, i : i + 1] - x[:, js]
        dev = diff - diff.mean(axis=0)
        ss[i, js] = np.einsum("ij,ij->j", dev, dev)
        mean[i, js] = diff.mean(axis=0)
    sd = np.sqrt(ss / (n - 1))
    with np.errstate(divide="ignore", invalid="ignore"):
        d = mean / sd
    # differences equal to the last bit are no spread at all: keep inf/NaN honest
    flat = sd <= 1e-12 * np.maximum(np.abs(mean), np.finfo(float).tiny)
    d[flat & (mean == 0)] = np.nan
    d[flat & (mean != 0)] = np.sign(mean[flat & (mean != 0)]) * np.inf
    np.fill_diagonal(d, 0.0)
    return d


def _median_rank(n: int, confidence: float) -> int:
    """The order statistic r of the median interval ``[x_(r), x_(n-r+1)]`` (1-based; 0: none).

    The largest r with ``P(Bin(n, 1/2) <= r - 1) <= (1 - confidence) / 2``, so that the
    coverage is at least ``confidence`` (Conover 1999, section 3.2).  It depends on n
    only, so it is found once for every method.

    The binomial tail is taken from scipy (``special.bdtr``, one call for every
    candidate r); only when a tail probability at the boundary lies within 1e-9
    (relative) of the bound, where rounding could decide, is r counted again with
    exact integers (:func:`_median_rank_exact`).  The exact count alone grows as
    n² (big integers of n bits, n/2 of them): 10 ms at n = 10,000, 0.12 s at 40,000.
    """
    half = n // 2
    tail = (1.0 - confidence) / 2.0
    cdf = special.bdtr(np.arange(half), n, 0.5)
    r = int(np.count_nonzero(cdf <= tail))
    boundary = cdf[max(r - 1, 0) : r + 1]
    if np.any(np.abs(boundary - tail) <= 1e-9 * tail):
        return _median_rank_exact(n, confidence)
    return r


def _median_rank_exact(n: int, confidence: float) -> int:
    """:func:`_median_rank` with exact integers: the tail as a fraction of 2**n."""
    from fractions import Fraction

    # the tail as an exact fraction of the float given, times 2**n
    bound = Fraction(1.0 - confidence) / 2 * 2**n
    r, term, cum = 0, 1, 0
    while r + 1 <= n // 2:
        cum += term  # sum of C(n, i) for i <= r
        if cum > bound:
            break
        r += 1
        term = term * (n - r + 1) // r
    return r


def _median_ci(ordered: np.ndarray, confidence: float) -> np.ndarray:
    """Order-statistic intervals of the medians of the sorted columns, shape (k, 2)."""
    n = ordered.shape[0]
    r = _median_rank(n, confidence)
    if r == 0:
        return np.column_stack([ordered[0], ordered[-1]])
    return np.column_stack([ordered[r - 1], ordered[n - r]])


@result
class EffectSizes(Result):
    """Effect sizes of every pair of methods and summaries of every method.

    Attributes
    ----------
    methods : tuple of str
        Method names, in the order of the rows and columns.
    cliffs_delta, cohens_d : ndarray, shape (k, k)
        Entry ``[i, j]`` is positive when method i is better than method j.
    higher_is_better : bool
        Direction of the scores.
    confidence : float
        Level of the confidence intervals (``1 - alpha``).
    mean, std, median : ndarray, shape (k,)
        Over the data sets, in the scores' own direction and unit.
    mean_ci, median_ci : ndarray, shape (k, 2)
        Confidence intervals of the mean (t-based) and of the median (order
        statistics, coverage at least ``confidence``).
    n_datasets : int
    measure : {'cliffs_delta', 'cohens_d'}
        The measure that goes with the test the effect sizes accompany:
        Cliff's δ for the rank tests, Cohen's d for ANOVA.  Listed first
        and used to sort pairs in the words.
    """

    methods: tuple[str, ...]
    cliffs_delta: np.ndarray
    cohens_d: np.ndarray
    higher_is_better: bool
    confidence: float
    mean: np.ndarray
    std: np.ndarray
    median: np.ndarray
    mean_ci: np.ndarray
    median_ci: np.ndarray
    n_datasets: int
    measure: str = "cliffs_delta"

    def __post_init__(self):
        object.__setattr__(self, "methods", tuple(self.methods))
        for name in ("cliffs_delta", "cohens_d", "mean", "std", "median", "mean_ci", "median_ci"):
            object.__setattr__(self, name, readonly(getattr(self, name)))

    def index(self, method: str) -> int:
        """Position of ``method``; raises :class:`CdplotError` for unknown names."""
        return method_index(self.methods, method)

    def order(self) -> tuple[str, ...]:
        """Method names from the best mean score to the worst (stable for ties)."""
        key = -self.mean if self.higher_is_better else self.mean
        return tuple(self.methods[i] for i in np.argsort(key, kind="stable"))

    def delta(self, a: str, b: str) -> float:
        """Cliff's δ of method ``a`` against ``b`` (positive: ``a`` is better)."""
        return float(self.cliffs_delta[self.index(a), self.index(b)])

    def d(self, a: str, b: str) -> float:
        """Cohen's d of the paired differences ``a - b`` (positive: ``a`` is better)."""
        return float(self.cohens_d[self.index(a), self.index(b)])

    def magnitude(self, a: str, b: str, measure: str = "cliffs_delta") -> str:
        """The magnitude label of the effect of ``a`` against ``b``."""
        value = self.delta(a, b) if measure == "cliffs_delta" else self.d(a, b)
        return magnitude(value, measure)

    def magnitudes(self, measure: str = "cliffs_delta") -> np.ndarray:
        """The magnitude label of every pair, shape (k, k) (``'undefined'`` for NaN)."""
        return _labels(self._matrix_of(measure), measure)

    def _matrix_of(self, measure: str) -> np.ndarray:
        if measure not in _THRESHOLDS:
            raise CdplotError(
                f"option {opt('measure', measure)} is not 'cliffs_delta' or 'cohens_d'",
                option="measure",
            )
        return self.cliffs_delta if measure == "cliffs_delta" else self.cohens_d

    def per_method_dict(self) -> dict:
        """``{method: {mean, std, median, mean_ci, median_ci}}``, JSON-safe."""
        return _per_method_dict(
            self.methods, (self.mean, self.std, self.median, self.mean_ci, self.median_ci)
        )

    def to_dict(self, *, matrices: bool | None = True) -> dict:
        """A JSON-safe dictionary (``None`` for undefined values and infinities).

        Parameters
        ----------
        matrices : bool or None, default True
            Whether to include the k x k tables ``cliffs_delta``, ``cohens_d``
            and ``magnitude`` as ``{method: {method: value}}`` (row method
            against column method); without them only the per-method
            summaries are given, the tables are ``None`` and
            ``tables_omitted`` says why.  ``None`` includes them up to
            :data:`~cdplot.stats._resultkit.JSON_MATRIX_MAX_METHODS` methods,
            as the analyses' ``to_dict`` does.
        """
        summaries = (self.mean, self.std, self.median, self.mean_ci, self.median_ci)
        matrices, why = json_matrices(matrices, len(self.methods))
        if not matrices:
            return effect_sizes_dict(
                self.methods,
                summaries,
                confidence=self.confidence,
                measure=self.measure,
                omitted=f"the k x k tables are {why}",
            )
        m = self.methods
        return effect_sizes_dict(
            m,
            summaries,
            confidence=self.confidence,
            measure=self.measure,
            tables={
                "cliffs_delta": matrix_dict(self.cliffs_delta, m),
                # an infinite d (constant, nonzero differences) has no JSON number: null
                "cohens_d": matrix_dict(
                    np.where(np.isfinite(self.cohens_d), self.cohens_d, np.nan), m
                ),
                "magnitude": {
                    "cliffs_delta": _label_dict(self.magnitudes("cliffs_delta"), m),
                    "cohens_d": _label_dict(self.magnitudes("cohens_d"), m),
                },
            },
        )

    def _headline(self) -> str:
        return (
            f"{len(self.methods)} methods on {self.n_datasets} data sets, "
            f"largest |delta| = {np.max(np.abs(self.cliffs_delta)):.3f}"
        )

    def pair_text(self, a: str, b: str) -> str:
        """``"delta = 0.117 (negligible), Cohen's d = 0.735 (medium)"``, measure first."""
        i, j = self.index(a), self.index(b)
        return pair_text(self.cliffs_delta[i, j], self.cohens_d[i, j], measure=self.measure)

    def describe_pairs(
        self, pairs, *, limit: int = 10, what: str = "significant pairs", test: str | None = None
    ) -> list[str]:
        """Lines naming the effect sizes of ``pairs``, largest first, capped at ``limit``.

        Parameters
        ----------
        pairs : sequence of (str, str)
            Pairs ``(better, worse)`` as a test found them.
        limit : int, default 10
            Most pairs listed; the rest are counted (``... and N more``).
        what : str, default 'significant pairs'
            What the pairs are, for the heading.
        test : str, optional
            The test that found each first method better, in words; a pair
            whose effect size points the other way then says why.

        Returns
        -------
        list of str
            A heading naming the measure, its sign convention and the source
            of its magnitude thresholds, then one line per pair (none without
            pairs).
        """
        return describe_pairs(
            self.methods,
            self.cliffs_delta,
            self.cohens_d,
            pairs,
            measure=self.measure,
            limit=limit,
            what=what,
            test=test,
        )

    def __str__(self) -> str:
        pct = f"{self.confidence * 100:g}%"
        width = max(len(m) for m in self.methods)
        lines = [
            f"Scores over {self.n_datasets} data sets (mean ± std, {pct} CI of the mean; "
            f"median, {pct} CI of the median):"
        ]
        for i, m in enumerate(self.methods):
            lo, hi = self.mean_ci[i]
            mlo, mhi = self.median_ci[i]
            lines.append(
                f"  {m:<{width}}  {self.mean[i]:.4g} ± {self.std[i]:.3g} [{lo:.4g}, {hi:.4g}];"
                f"  {self.median[i]:.4g} [{mlo:.4g}, {mhi:.4g}]"
            )
        k = len(self.methods)
        iu = np.triu_indices(k, 1)
        # every pair once, the better side (by the measure) first
        matrix = self._matrix_of(self.measure)
        pairs = [
            (self.methods[i], self.methods[j])
            if not matrix[i, j] < 0
            else (self.methods[j], self.methods[i])
            for i, j in zip(iu[0].tolist(), iu[1].tolist(), strict=True)
        ]
        lines += self.describe_pairs(pairs, what="pairs")
        return "\n".join(lines)


_SIGN = "positive: the row method is better than the column method"


def pair_text(delta: float, d: float, *, measure: str = "cliffs_delta") -> str:
    """One pair's effect sizes in words, the analysis' own measure first.

    Parameters
    ----------
    delta, d : float
        Cliff's δ and Cohen's d of the pair.
    measure : {'cliffs_delta', 'cohens_d'}, default 'cliffs_delta'
        Which comes first.

    Returns
    -------
    str
        ``"delta = 0.117 (negligible), Cohen's d = 0.735 (medium)"``.
    """
    delta_text = f"delta = {_fmt(delta)} ({magnitude(delta)})"
    d_text = f"Cohen's d = {_fmt(d)} ({magnitude(d, 'cohens_d')})"
    return f"{d_text}, {delta_text}" if measure == "cohens_d" else f"{delta_text}, {d_text}"


def against_claim(delta: float, d: float, worse: str, test: str | None) -> list[str]:
    """Indented lines on why an effect size points to ``worse`` of a significant pair.

    Cliff's delta and Cohen's d compare the two methods' scores pooled over
    all data sets, without pairing them; the tests compare the methods data
    set by data set (signed ranks, wins, ranks among all methods), so a
    significant claim and an effect size can point different ways.  Empty
    when nothing points to ``worse`` or no ``test`` is named.
    """
    if test is None:
        return []
    against = [name for name, v in (("delta", delta), ("d", d)) if v < 0]
    if not against:
        return []
    both = len(against) > 1
    text = (
        f"{' and '.join(against)} {'point' if both else 'points'} to {worse}: "
        f"{'they compare' if both else 'it compares'} the scores pooled over the data sets, "
        f"unpaired, while the {test} compared the two data set by data set."
    )
    return ["    " + line for line in wrap(text, width=84)]


def describe_pairs(
    methods,
    delta: np.ndarray,
    d: np.ndarray,
    pairs,
    *,
    measure: str = "cliffs_delta",
    limit: int = 10,
    what: str = "significant pairs",
    test: str | None = None,
) -> list[str]:
    """Lines naming the effect sizes of ``pairs``, largest first (see
    :meth:`EffectSizes.describe_pairs`); ``delta`` and ``d`` are the k x k
    matrices in the order of ``methods``.

    With ``test`` (the test that found each ``better`` better, in words), a
    line whose effect size points to ``worse`` says why the two disagree.
    """
    if not pairs:
        return []
    index = {m: i for i, m in enumerate(methods)}
    matrix = d if measure == "cohens_d" else delta
    name = "Cohen's d" if measure == "cohens_d" else "Cliff's delta"
    lines = wrap(
        f"Effect sizes of the {what} ({name} first; positive: the first method is better; "
        "magnitudes after Romano et al. 2006 for delta and Cohen 1988 for d):"
    )
    rows = np.array([index[a] for a, _ in pairs])
    cols = np.array([index[b] for _, b in pairs])
    size = np.abs(matrix[rows, cols])
    # largest first; NaN last; ties in the order given
    order = np.argsort(-np.nan_to_num(size, nan=-1.0), kind="stable")[:limit]
    for t in order.tolist():
        a, b = pairs[t]
        i, j = rows[t], cols[t]
        lines.append(f"  {a} vs {b}: {pair_text(delta[i, j], d[i, j], measure=measure)}")
        lines += against_claim(delta[i, j], d[i, j], b, test)
    if len(pairs) > limit:
        symbol = "d" if measure == "cohens_d" else "delta"
        lines.append(
            f"  ... and {len(pairs) - limit} more (largest |{symbol}| first; all pairs are in "
            "effect_sizes of the JSON output)"
        )
    return lines


def pair_matrices(values, *, higher_is_better: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Cliff's δ and Cohen's d of every pair, with numpy alone (no per-method summaries).

    Parameters
    ----------
    values : array_like, shape (n_datasets, n_methods)
        Finite scores.
    higher_is_better : bool, default True
        Direction of the scores.

    Returns
    -------
    tuple of ndarray
        ``(cliffs_delta, cohens_d)``, each (k, k), positive when the row
        method is better.  What ``str(result)`` needs.
    """
    x = _matrix(values, higher_is_better)
    x, _ = _scaled(x)
    return _cliffs(x), _cohens(x)


def _fmt(x) -> str:
    x = float(x)
    if math.isnan(x):
        return "undefined"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return f"{x:.3f}"


def _labels(matrix: np.ndarray, measure: str) -> np.ndarray:
    """Magnitude labels of a whole array at once."""
    size = np.abs(np.asarray(matrix, dtype=float))
    bounds = [b for b, _ in _THRESHOLDS[measure]]
    names = np.array([label for _, label in _THRESHOLDS[measure]] + ["large", "undefined"])
    pos = np.searchsorted(np.array(bounds), size, side="right")
    pos = np.where(np.isnan(size), len(bounds) + 1, pos)
    return names[pos]


def _label_dict(labels: np.ndarray, names) -> dict:
    rows = labels.tolist()
    return {a: dict(zip(names, row, strict=True)) for a, row in zip(names, rows, strict=True)}


def _per_method_dict(methods, arrays) -> dict:
    mean, std, median, mean_ci, median_ci = (np.asarray(v, dtype=float).tolist() for v in arrays)
    return {
        m: {
            "mean": num(mean[i]),
            "std": num(std[i]),
            "median": num(median[i]),
            "mean_ci": [num(v) for v in mean_ci[i]],
            "median_ci": [num(v) for v in median_ci[i]],
        }
        for i, m in enumerate(methods)
    }


def effect_sizes_dict(
    methods,
    summaries,
    *,
    confidence: float,
    measure: str = "cliffs_delta",
    tables: dict | None = None,
    omitted: str | None = None,
) -> dict:
    """The JSON form of effect sizes (``to_dict()['effect_sizes']`` of every analysis).

    Parameters
    ----------
    methods : sequence of str
        Method names.
    summaries : tuple of ndarray
        ``(mean, std, median, mean_ci, median_ci)`` as :func:`method_summaries` gives.
    confidence : float
        Level of the intervals.
    measure : {'cliffs_delta', 'cohens_d'}, default 'cliffs_delta'
        The measure that goes with the analysis' test.
    tables : dict, optional
        ``cliffs_delta``, ``cohens_d`` and ``magnitude`` as ``{method: {method:
        value}}``; without them these keys are ``None``.
    omitted : str, optional
        Why the tables are left out (the key ``tables_omitted``).

    Returns
    -------
    dict
        JSON-safe: ``measure``, ``cliffs_delta``, ``cohens_d``, ``magnitude``,
        ``tables_omitted``, ``thresholds``, ``sign``, ``confidence`` and
        ``per_method``.
    """
    tables = tables or {}
    return {
        "measure": measure,
        "cliffs_delta": tables.get("cliffs_delta"),
        "cohens_d": tables.get("cohens_d"),
        "magnitude": tables.get("magnitude"),
        "tables_omitted": None if tables else omitted,
        "thresholds": dict(_SOURCES),
        "sign": _SIGN,
        "confidence": confidence,
        "per_method": _per_method_dict(methods, summaries),
    }


def method_summaries(values, *, alpha: float = 0.05) -> tuple[np.ndarray, ...]:
    """Mean, standard deviation, median and the two intervals of each column of ``values``.

    Parameters
    ----------
    values : array_like, shape (n_datasets, n_methods)
        Finite scores.
    alpha : float, default 0.05
        The intervals have level ``1 - alpha``.

    Returns
    -------
    tuple of ndarray
        ``(mean, std, median, mean_ci, median_ci)``; the intervals have shape (k, 2).
        The cheap part of :func:`effect_sizes`, without the k x k tables.
    """
    alpha = check_alpha(alpha)
    x = _matrix(values, True)
    n, k = x.shape
    x, scale = _scaled(x)
    mean = x.mean(axis=0)
    std = x.std(axis=0, ddof=1) if n > 1 else np.full(k, np.nan)
    # one sort of the columns gives the medians and their intervals (np.median would
    # partition every column again); the two middle values averaged as np.median does
    ordered = np.sort(x, axis=0)
    median = ordered[n // 2].copy() if n % 2 else (ordered[n // 2 - 1] + ordered[n // 2]) / 2.0
    if n > 1:
        half = -special.stdtrit(n - 1, alpha / 2.0) * std / math.sqrt(n)
        mean_ci = np.column_stack([mean - half, mean + half])
    else:
        mean_ci = np.full((k, 2), np.nan)
    median_ci = _median_ci(ordered, 1.0 - alpha)
    out = (mean, std, median, mean_ci, median_ci)
    if scale != 1.0:
        with np.errstate(over="raise"):
            try:
                out = tuple(v * scale for v in out)
            except FloatingPointError:
                raise CdplotError(
                    "the scores' standard deviations or confidence intervals are beyond the "
                    "largest float (about 1.8e308); rescale the scores"
                ) from None
    return out


@share
def effect_sizes(
    scores: ArrayLike,
    *,
    methods: Sequence[str] | None = None,
    higher_is_better: bool = True,
    alpha: float = 0.05,
    measure: EffectMeasure = "cliffs_delta",
) -> EffectSizes:
    """Effect sizes of every pair of methods and a summary of each method.

    Parameters
    ----------
    %(scores_array)s
    methods : sequence of str, optional
        Method names (default ``'M1'``, ``'M2'``, ...).
    %(higher_is_better_array)s
        Effect sizes are oriented so that positive means better; means and
        medians stay in the scores' own direction.
    alpha : float, default 0.05
        The confidence intervals have level ``1 - alpha``.
    measure : {'cliffs_delta', 'cohens_d'}, default 'cliffs_delta'
        The measure that goes with the test (Cliff's δ with rank tests,
        Cohen's d with ANOVA): listed first and used to sort pairs in the
        words.  Both are always computed.

    Returns
    -------
    EffectSizes

    Raises
    ------
    CdplotError
        For scores that are not a finite 2-D table, names that do not match
        the columns, or ``alpha`` outside (0, 1).

    References
    ----------
    .. [1] N. Cliff (1993), Psychological Bulletin 114(3), 494–509.
    .. [2] J. Cohen (1988), Statistical Power Analysis for the Behavioral
           Sciences, 2nd ed.
    .. [3] J. Romano et al. (2006), magnitude thresholds of Cliff's delta.

    Examples
    --------
    >>> import cdplot
    >>> (t,) = cdplot.load_example("demsar2006")
    >>> es = effect_sizes(t.values, methods=t.methods)
    >>> round(es.delta("C4.5+m+cf", "C4.5"), 3), es.magnitude("C4.5+m+cf", "C4.5")
    (0.117, 'negligible')
    >>> round(es.d("C4.5+m+cf", "C4.5"), 3), es.magnitude("C4.5+m+cf", "C4.5", "cohens_d")
    (0.735, 'medium')
    """

    alpha = check_alpha(alpha)
    x = _matrix(scores, True)
    higher_is_better = _check_direction(higher_is_better)
    measure = check_option("measure", measure, tuple(_THRESHOLDS))
    n, k = x.shape
    if methods is None:
        methods = tuple(f"M{i + 1}" for i in range(k))
    methods = tuple(str(m) for m in methods)
    if len(methods) != k:
        raise CdplotError(f"option methods has {len(methods)} names for {k} columns of scores")
    return _assemble(x, methods, higher_is_better, alpha, measure)


def _assemble(x, methods, higher_is_better, alpha, measure, matrices=None) -> EffectSizes:
    """:class:`EffectSizes` of validated scores; ``matrices`` are (δ, d) if already known."""
    n = x.shape[0]
    mean, std, median, mean_ci, median_ci = method_summaries(x, alpha=alpha)
    if matrices is None:
        matrices = pair_matrices(x, higher_is_better=higher_is_better)
    return EffectSizes(
        methods=methods,
        cliffs_delta=matrices[0],
        cohens_d=matrices[1],
        higher_is_better=bool(higher_is_better),
        confidence=1.0 - alpha,
        mean=mean,
        std=std,
        median=median,
        mean_ci=mean_ci,
        median_ci=median_ci,
        n_datasets=n,
        measure=measure,
    )
