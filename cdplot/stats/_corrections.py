"""Multiple-testing corrections that return adjusted p-values.

Two kinds of family are handled:

* :func:`adjust` takes any family of ``m`` p-values and applies a correction
  that only needs the p-values themselves (Bonferroni, Holm, Hochberg,
  Hommel).  The results equal those of ``statsmodels.stats.multitest.
  multipletests`` with ``method='bonferroni'``, ``'holm'``,
  ``'simes-hochberg'`` and ``'hommel'``.
* :func:`adjust_pairwise` takes the all-pairs family of ``k`` methods as a
  symmetric ``(k, k)`` matrix.  Besides the four corrections above it offers
  the two that exploit the logical relations between pairwise hypotheses
  (if A = B and B = C then A = C): Shaffer's static procedure and
  Bergmann and Hommel's procedure, as García and Herrera (2008) recommend.

An adjusted p-value is the smallest family-wise level at which the
hypothesis would be rejected, so a hypothesis is rejected at level ``alpha``
exactly when its adjusted p-value is at most ``alpha``.  All adjusted
p-values are at least the raw ones, capped at 1, and ordered like them.
"""

from __future__ import annotations

import functools

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .._options import PAIRWISE_CORRECTIONS as CORRECTIONS
from .._options import Correction, PairwiseCorrection, check_option
from ..errors import CdplotError, opt

__all__ = ["adjust", "adjust_pairwise", "CORRECTIONS", "PAIRWISE_CORRECTIONS", "MAX_BERGMANN_K"]

#: Corrections that apply to any family of p-values.

#: Corrections available for the all-pairs family.
PAIRWISE_CORRECTIONS = CORRECTIONS + ("shaffer", "bergmann")

#: Largest number of methods for Bergmann and Hommel's procedure.  It visits
#: every set partition of the methods: 678,570 for k = 11 (a boolean table of
#: 37 MB), but 4,213,597 for k = 12, which would need about 280 MB.
MAX_BERGMANN_K = 11

#: Relative difference up to which ``pmatrix[i, j]`` and ``pmatrix[j, i]``
#: count as equal; the upper triangle is the one used.
SYMMETRY_RTOL = 1e-9

# ----------------------------------------------------------------------------
# validation


def _validate_pvalues(pvalues) -> np.ndarray:
    try:
        p = np.array(pvalues, dtype=float)
    except (TypeError, ValueError):
        raise CdplotError(f"{opt('pvalues', pvalues)} are not numbers") from None
    finite = p[~np.isnan(p)]
    if np.any((finite < 0) | (finite > 1)):
        bad = finite[(finite < 0) | (finite > 1)][0]
        raise CdplotError(f"pvalues must lie in [0, 1]; got {float(bad)!r}")
    return p


def _validate_pmatrix(pmatrix, correction) -> np.ndarray:
    p = _validate_pvalues(pmatrix)
    if p.ndim != 2 or p.shape[0] != p.shape[1]:
        raise CdplotError(f"pmatrix must be a square (k, k) matrix; got shape {p.shape!r}")
    if p.shape[0] < 2:
        raise CdplotError(f"pmatrix must compare at least 2 methods; got shape {p.shape!r}")
    off = ~np.eye(p.shape[0], dtype=bool)
    # symmetric up to printing precision: matrices read back from files or
    # computed twice differ in the last bits; only the upper triangle is used
    same = np.isclose(p, p.T, rtol=SYMMETRY_RTOL, atol=0.0) | (np.isnan(p) & np.isnan(p.T))
    if not np.all(same[off]):
        i, j = np.argwhere(off & ~same)[0]
        raise CdplotError(
            f"pmatrix must be symmetric; pmatrix[{i}, {j}]={float(p[i, j])!r} "
            f"but pmatrix[{j}, {i}]={float(p[j, i])!r} (relative tolerance {SYMMETRY_RTOL:g})"
        )
    if correction in ("shaffer", "bergmann") and np.any(np.isnan(p[off])):
        i, j = np.argwhere(off & np.isnan(p))[0]
        raise CdplotError(
            f"{opt('correction', correction)} needs every pair tested; pmatrix[{i}, {j}] is nan",
            option="correction",
        )
    if correction == "bergmann" and p.shape[0] > MAX_BERGMANN_K:
        raise CdplotError(
            f"{opt('correction', 'bergmann')} supports at most {MAX_BERGMANN_K} methods; got "
            f"k={p.shape[0]!r}; use {opt('correction', 'shaffer')} instead",
            option="correction",
        )
    return p


# ----------------------------------------------------------------------------
# corrections of a plain family (sorted p-values in, adjusted sorted out)


def _bonferroni(ps: np.ndarray) -> np.ndarray:
    return ps * ps.size


def _holm(ps: np.ndarray) -> np.ndarray:
    m = ps.size
    return np.maximum.accumulate(ps * np.arange(m, 0, -1))


def _hochberg(ps: np.ndarray) -> np.ndarray:
    m = ps.size
    return np.minimum.accumulate((np.arange(m, 0, -1) * ps)[::-1])[::-1]


def _simes_tails(ps: np.ndarray) -> np.ndarray:
    """``c[s] = min_{r=1..s} s p_(m-s+r) / r``, Simes' p-value of the ``s`` largest p-values.

    ``c[s] / s`` is the smallest slope from the point ``(m - s, 0)`` to the
    points ``(j, p_(j))`` with ``j > m - s``, so only the lower convex hull of
    those points matters.  The points are added from the right, the hull is
    kept on a stack and the tangent is found by bisection: O(m log m)
    instead of the O(m^2) of the textbook loop.
    """
    m = ps.size
    y = ps.tolist()
    c = np.zeros(m + 1)
    hull: list[int] = []  # x-coordinates j (1-based), leftmost last
    for s in range(1, m + 1):
        a = m - s + 1
        ya = y[a - 1]
        while len(hull) >= 2:
            b, cc = hull[-1], hull[-2]
            yb, yc = y[b - 1], y[cc - 1]
            # drop b unless it lies strictly below the segment from a to cc
            if (b - a) * (yc - ya) - (yb - ya) * (cc - a) <= 0:
                hull.pop()
            else:
                break
        hull.append(a)
        v = a - 1
        # the slope from (v, 0) is unimodal along the hull: bisect for its minimum
        lo, hi = 0, len(hull) - 1
        while lo < hi:
            mid = (lo + hi) // 2
            j0, j1 = hull[mid], hull[mid + 1]
            if y[j0 - 1] * (j1 - v) <= y[j1 - 1] * (j0 - v):
                hi = mid
            else:
                lo = mid + 1
        j = hull[lo]
        c[s] = s * y[j - 1] / (j - v)
    return c


def _hommel(ps: np.ndarray) -> np.ndarray:
    # Hommel's adjusted p-value is the largest Simes p-value over the
    # intersections that contain the hypothesis (closed testing).  For a
    # subset size s the worst case is the hypothesis plus the s - 1 largest
    # other p-values, which gives statsmodels' loop over s = m..2 (i is
    # 1-based):
    #   a_i = max(a_i, c_s)               if i > m - s (i is among the s largest),
    #   a_i = max(a_i, min(s p_i, c_s))   otherwise.
    # Each branch is a maximum over a range of s, or over an interval of i,
    # so all are evaluated with prefix maxima instead of the quadratic loop.
    m = ps.size
    a = ps.copy()
    if m < 2:
        return a
    c = _simes_tails(ps)
    s = np.arange(2, m + 1)
    cs = c[2:]
    # first branch: max of c_s over s >= m - i + 1
    suffix = np.maximum.accumulate(cs[::-1])[::-1]  # suffix[s - 2] = max_{s' >= s} c_s'
    i = np.arange(1, m + 1)
    lower = np.maximum(m - i + 1, 2)
    a = np.maximum(a, suffix[lower - 2])
    # second branch, for i <= m - s: s p_i when p_i <= c_s / s, else c_s
    last_small = np.searchsorted(ps, cs / s, side="right")  # i <= this has s p_i <= c_s
    # (A) s p_i for i <= min(last_small, m - s): the largest such s per i
    right = np.minimum(last_small, m - s)
    best = np.zeros(m + 2, dtype=np.int64)
    np.maximum.at(best, right, s)
    best = np.maximum.accumulate(best[::-1])[::-1][1 : m + 1]
    a = np.maximum(a, best * ps)
    # (B) c_s for last_small < i <= m - s: a maximum over intervals of i
    lo = last_small  # 0-based first index of the interval
    hi = m - s - 1  # 0-based last index
    ok = lo <= hi
    a = np.maximum(a, _interval_max(lo[ok], hi[ok], cs[ok], m))
    return a


def _interval_max(lo: np.ndarray, hi: np.ndarray, value: np.ndarray, m: int) -> np.ndarray:
    """``out[i] = max(value[t] for intervals t with lo[t] <= i <= hi[t])``, 0 if none.

    Each interval is covered by two blocks of length 2**k (a sparse table
    run backwards), then the blocks are pushed down to single positions.
    """
    levels = max(1, int(m).bit_length())
    table = np.zeros((levels, m))
    if lo.size:
        k = np.floor(np.log2(hi - lo + 1)).astype(np.int64)
        np.maximum.at(table, (k, lo), value)
        np.maximum.at(table, (k, hi - (1 << k) + 1), value)
    for level in range(levels - 1, 0, -1):
        half = 1 << (level - 1)
        n = m - (1 << level) + 1  # blocks of this level that fit
        if n <= 0:
            continue
        table[level - 1, :n] = np.maximum(table[level - 1, :n], table[level, :n])
        table[level - 1, half : half + n] = np.maximum(
            table[level - 1, half : half + n], table[level, :n]
        )
    return table[0]


_PLAIN = {"bonferroni": _bonferroni, "holm": _holm, "hochberg": _hochberg, "hommel": _hommel}


def _adjust_flat(p: np.ndarray, correction: str) -> np.ndarray:
    """Adjust a 1-D float array, NaNs left out of the family and passed through."""
    out = np.full(p.shape, np.nan)
    keep = np.flatnonzero(~np.isnan(p))
    if keep.size == 0:
        return out
    order = np.argsort(p[keep], kind="stable")
    adjusted = _PLAIN[correction](p[keep][order])
    out[keep[order]] = np.minimum(adjusted, 1.0)
    return out


def adjust(pvalues: ArrayLike, correction: PairwiseCorrection) -> NDArray[np.float64]:
    """Adjust a family of p-values for multiple testing.

    Parameters
    ----------
    pvalues : array_like
        Raw p-values, of any shape; together they form one family of
        ``m`` hypotheses.  NaNs are left out of the family (``m`` counts only
        the others) and come back as NaN.
    correction : {'bonferroni', 'holm', 'hochberg', 'hommel'}
        The procedure: Bonferroni's single step, Holm's step-down,
        Hochberg's step-up or Hommel's closed Simes procedure.

    Returns
    -------
    ndarray
        Adjusted p-values, same shape as ``pvalues``, capped at 1.

    Raises
    ------
    CdplotError
        If ``correction`` is not one of the options or a p-value lies outside
        ``[0, 1]``.

    Notes
    -----
    Bonferroni and Holm are valid under any dependence between the tests.
    Hochberg and Hommel assume the Simes inequality holds, which is true for
    independent or positively dependent tests; they are uniformly more
    powerful than Holm (Hommel more than Hochberg).  Hommel's procedure is
    computed in O(m log m) time from the lower convex hull of the sorted
    p-values, instead of the usual quadratic loop.

    The values equal those of ``statsmodels.stats.multitest.multipletests``
    with ``method='bonferroni'``, ``'holm'``, ``'simes-hochberg'`` and
    ``'hommel'``.

    References
    ----------
    .. [1] Holm, S. (1979). A simple sequentially rejective multiple test
       procedure. Scandinavian Journal of Statistics, 6, 65-70.
    .. [2] Hochberg, Y. (1988). A sharper Bonferroni procedure for multiple
       tests of significance. Biometrika, 75, 800-802.
    .. [3] Hommel, G. (1988). A stagewise rejective multiple test procedure
       based on a modified Bonferroni test. Biometrika, 75, 383-386.
    .. [4] Demšar, J. (2006). Statistical comparisons of classifiers over
       multiple data sets. JMLR, 7, 1-30, section 3.2.2.

    Examples
    --------
    Holm's procedure on the three comparisons with C4.5 in Demšar (2006):

    >>> from cdplot.stats._corrections import adjust
    >>> adjust([0.015720, 0.019172, 0.608408], "holm").round(6)
    array([0.04716 , 0.04716 , 0.608408])
    """
    correction = check_option("correction", correction, CORRECTIONS)
    p = _validate_pvalues(pvalues)
    return _adjust_flat(p.ravel(), correction).reshape(p.shape)


# ----------------------------------------------------------------------------
# the all-pairs family


@functools.cache
def _shaffer_sizes(k: int) -> frozenset:
    """Possible numbers of true hypotheses among the k(k-1)/2 pairs (Shaffer 1986)."""
    if k <= 1:
        return frozenset({0})
    out = set()
    for j in range(1, k + 1):
        base = j * (j - 1) // 2
        out.update(base + x for x in _shaffer_sizes(k - j))
    return frozenset(out)


@functools.cache
def _shaffer_multipliers(k: int) -> np.ndarray:
    """``t_j = max{s in S(k): s <= m - j + 1}`` for j = 1..m."""
    m = k * (k - 1) // 2
    sizes = np.array(sorted(_shaffer_sizes(k)))
    remaining = np.arange(m, 0, -1)
    t = sizes[np.searchsorted(sizes, remaining, side="right") - 1].astype(float)
    t.setflags(write=False)
    return t


def _shaffer(ps: np.ndarray, k: int) -> np.ndarray:
    return np.maximum.accumulate(ps * _shaffer_multipliers(k))


@functools.lru_cache(maxsize=2)
def _partition_masks(k: int) -> np.ndarray:
    """Every set partition of ``k`` methods as a boolean row over the pairs ``i < j``.

    A partition says which methods are equal; the pairs within its blocks are
    an exhaustive set of hypotheses that can all be true together.  The
    partition into singletons (no true hypothesis) is left out.
    """
    # restricted growth strings: labels[:, 0] = 0 and each label is at most
    # one more than the largest before it, which lists each partition once
    labels = np.zeros((1, 1), dtype=np.int8)
    top = np.zeros(1, dtype=np.int8)
    for _ in range(1, k):
        parts, tops = [], []
        for v in range(int(top.max()) + 2):
            rows = v <= top + 1
            parts.append(np.column_stack([labels[rows], np.full(rows.sum(), v, dtype=np.int8)]))
            tops.append(np.maximum(top[rows], v))
        labels = np.concatenate(parts)
        top = np.concatenate(tops)
    i, j = np.triu_indices(k, 1)
    masks = labels[:, i] == labels[:, j]
    masks = masks[masks.any(axis=1)]
    masks.setflags(write=False)
    return masks


def _bergmann(p: np.ndarray, k: int) -> np.ndarray:
    """Bergmann-Hommel adjusted p-values of the pairs in ``np.triu_indices`` order."""
    masks = _partition_masks(k)
    order = np.argsort(p, kind="stable")
    # smallest p-value in each exhaustive set: its first member in p order
    first = masks[:, order].argmax(axis=1)
    value = masks.sum(axis=1) * p[order][first]
    # largest value over the sets holding each pair: the first such set when
    # the sets are visited by decreasing value
    by_value = np.argsort(-value, kind="stable")
    best = masks[by_value].argmax(axis=0)
    return _monotone(p, value[by_value][best])


def _monotone(raw: np.ndarray, adjusted: np.ndarray) -> np.ndarray:
    """``adjusted`` made non-decreasing in ``raw``: a running maximum in raw-p order.

    Bergmann and Hommel's values, taken set by set, can invert the order of
    the raw p-values (on García and Herrera's 2008 example, k-NN-Kernel has
    raw p 0.00796 and adjusted 0.03185, k-NN-NaiveBayes raw 0.01011 and
    adjusted 0.03034).  A smaller raw p-value must never be harder to
    reject, so García and Herrera (2008) and scmamp's
    ``correct.for.monotocity`` take the running maximum; equal raw p-values
    get the same adjusted value.
    """
    order = np.argsort(raw, kind="stable")
    running = np.maximum.accumulate(adjusted[order])
    ranked = raw[order]
    # the last member of each run of equal raw p-values holds the run's maximum
    last = np.searchsorted(ranked, ranked, side="right") - 1
    out = np.empty_like(adjusted)
    out[order] = running[last]
    return out


def adjust_pairwise(pmatrix: ArrayLike, correction: Correction) -> NDArray[np.float64]:
    """Adjust the p-values of all pairwise comparisons of ``k`` methods.

    Parameters
    ----------
    pmatrix : array_like, shape (k, k)
        Symmetric matrix of raw p-values; entry ``(i, j)`` is the p-value of
        the hypothesis that methods ``i`` and ``j`` perform equally.  The
        diagonal is ignored.  The two triangles may differ by a relative
        :data:`SYMMETRY_RTOL` (1e-9, printing precision); the upper one is
        used.  With the four plain corrections, NaN marks an untested pair,
        which is left out of the family.
    correction : {'bonferroni', 'holm', 'hochberg', 'hommel', 'shaffer', 'bergmann'}
        The procedure.  ``'shaffer'`` is Shaffer's static procedure and
        ``'bergmann'`` is Bergmann and Hommel's procedure; both need every
        pair tested.  ``'bergmann'`` handles at most :data:`MAX_BERGMANN_K`
        methods.

    Returns
    -------
    ndarray, shape (k, k)
        Symmetric matrix of adjusted p-values, capped at 1, with 1.0 on the
        diagonal.

    Raises
    ------
    CdplotError
        If ``correction`` is not one of the options, the matrix is not square
        and symmetric, a p-value is outside ``[0, 1]``, a pair is missing for
        ``'shaffer'`` or ``'bergmann'``, or ``k`` exceeds
        :data:`MAX_BERGMANN_K` for ``'bergmann'``.

    Notes
    -----
    The ``m = k(k-1)/2`` pairwise hypotheses are logically related: not every
    subset of them can be true at once.  The true hypotheses are exactly the
    pairs inside the blocks of some partition of the methods into groups of
    equal performance, so their number lies in

    .. math:: S(k) = \\bigcup_{j=1}^{k} \\{\\tbinom{j}{2} + x : x \\in S(k-j)\\},
              \\quad S(0) = S(1) = \\{0\\}.

    Shaffer's static procedure replaces Holm's multiplier ``m - j + 1`` by
    ``t_j = max{s in S(k): s <= m - j + 1}``; with p-values sorted
    ascending, ``APV_i = min(1, max_{j <= i} t_j p_(j))``.

    Bergmann and Hommel's procedure uses the exhaustive sets themselves (the
    pairs within the blocks of each partition): ``APV_i = min(1, max{|I|
    min_{j in I} p_j : I exhaustive, H_i in I})``, then, as García and
    Herrera (2008) and R's ``scmamp::adjustBergmannHommel`` do, a running
    maximum in the order of the raw p-values, so that a smaller raw p-value
    never gets a larger adjusted one (set by set, the values can invert the
    raw order).  The
    partitions of ``k`` methods are generated once per ``k`` and cached (the
    Bell numbers: 115,975 for k = 10).

    The adjusted p-values satisfy Bergmann <= Shaffer <= Holm pair by pair.
    All procedures here control the family-wise error rate; Hochberg and
    Hommel also assume the Simes inequality holds.

    References
    ----------
    .. [1] Shaffer, J. P. (1986). Modified sequentially rejective multiple
       test procedures. JASA, 81, 826-831.
    .. [2] Bergmann, B. and Hommel, G. (1988). Improvements of general
       multiple test procedures for redundant systems of hypotheses. In
       Multiple Hypotheses Testing, 100-115. Springer.
    .. [3] García, S. and Herrera, F. (2008). An extension on "Statistical
       comparisons of classifiers over multiple data sets" for all pairwise
       comparisons. JMLR, 9, 2677-2694.

    Examples
    --------
    >>> import numpy as np
    >>> from cdplot.stats._corrections import adjust_pairwise
    >>> p = np.array([[1.0, 0.01, 0.02, 0.04],
    ...               [0.01, 1.0, 0.3, 0.5],
    ...               [0.02, 0.3, 1.0, 0.6],
    ...               [0.04, 0.5, 0.6, 1.0]])
    >>> adjust_pairwise(p, "shaffer")[0]
    array([1.  , 0.06, 0.06, 0.12])
    >>> adjust_pairwise(p, "bergmann")[0]
    array([1.  , 0.06, 0.06, 0.08])
    """
    correction = check_option("correction", correction, PAIRWISE_CORRECTIONS)
    p = _validate_pmatrix(pmatrix, correction)
    k = p.shape[0]
    i, j = np.triu_indices(k, 1)
    upper = p[i, j]
    if correction == "shaffer":
        order = np.argsort(upper, kind="stable")
        adjusted = np.empty_like(upper)
        adjusted[order] = np.minimum(_shaffer(upper[order], k), 1.0)
    elif correction == "bergmann":
        adjusted = np.minimum(_bergmann(upper, k), 1.0)
    else:
        adjusted = _adjust_flat(upper, correction)
    out = np.ones((k, k))
    out[i, j] = adjusted
    out[j, i] = adjusted
    return out
