"""Wilcoxon signed-rank test for two methods over many data sets.

Demšar (2006, section 3.1.3) recommends it over the paired t-test for
comparing two classifiers: it ranks the absolute differences of the scores,
so it needs no normality and is less upset by outliers.

:func:`wilcoxon` tests one pair and :func:`wilcoxon_pairs` tests many pairs
of columns of a score table at once, vectorised over the pairs.  Both
reproduce ``scipy.stats.wilcoxon(x, y, zero_method=..., method=...)`` (two
sided, ``correction=False``) for the statistic and the p-value, without
importing :mod:`scipy.stats`: the exact null distributions are built here
with numpy.

Zero differences (data sets where both methods score the same) follow
Demšar's (2006, section 3.1.3) rule by default, ``zero_method='demsar'``:
their ranks are split evenly between the two sides, and when their number
is odd one of them is ignored.  scipy's ``'zsplit'`` keeps all of them (so
with an odd number of zeros it ranks one more difference than Demšar);
``'wilcox'`` drops them all and ``'pratt'`` ranks them but counts them on
neither side.  With an even number of zeros ``'demsar'`` and ``'zsplit'``
agree; with an odd number ``'demsar'`` equals scipy's ``'zsplit'`` on the
data without one zero.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import special

from .._options import NULL_METHODS, ZERO_METHODS, NullMethod, ZeroMethod, check_option
from ..errors import CdplotError, opt
from ._formatting import format_p
from ._resultkit import Result, jsonable, num, readonly, result

__all__ = [
    "WilcoxonResult",
    "wilcoxon",
    "WilcoxonPairsResult",
    "wilcoxon_pairs",
    "ZERO_METHODS",
    "NULL_METHODS",
]


# scipy's method='auto' uses the normal approximation above 50 differences,
# and with ties or zeros enumerates all 2**n sign flips up to n = 13 (2**13
# is below its default 9999 resamples, so its permutation test is exact).
_AUTO_EXACT_MAX_N = 50
_AUTO_PERMUTATION_MAX_N = 13

_ASYMPTOTIC, _EXACT, _PERMUTATION = 0, 1, 2
_METHOD_NAMES = {_ASYMPTOTIC: "asymptotic", _EXACT: "exact", _PERMUTATION: "permutation"}


@result
class WilcoxonResult(Result):
    """Result of :func:`wilcoxon`.

    Attributes
    ----------
    statistic : float
        ``T = min(R+, R-)``, as scipy reports for the two-sided test.
    pvalue : float
        Two-sided p-value.
    r_plus, r_minus : float
        Sums of the ranks of the positive (``x > y``) and negative
        differences; with ``zero_method='demsar'`` or ``'zsplit'`` each
        includes half the ranks of the zero differences.
    n : int
        Number of differences ranked (zeros excluded under ``'wilcox'``;
        one zero excluded under ``'demsar'`` when their number is odd).
    zero_method : str
        How zero differences were treated.
    distribution : str
        The null distribution the p-value came from (the ``method`` asked for,
        with ``'auto'`` resolved): ``'exact'`` (null distribution of the
        signed-rank statistic without ties), ``'permutation'`` (all ``2**n``
        sign changes of the observed differences, exact with ties and zeros)
        or ``'asymptotic'`` (normal approximation with tie correction).
    """

    statistic: float
    pvalue: float
    r_plus: float
    r_minus: float
    n: int
    zero_method: str
    distribution: str

    def _headline(self) -> str:
        return (
            f"T = {self.statistic:g} over n = {self.n}, "
            f"{format_p(self.pvalue, prefix=True)} ({self.distribution})"
        )

    def to_dict(self) -> dict:
        """Return a JSON-safe dictionary."""
        return {
            "statistic": num(self.statistic),
            "pvalue": num(self.pvalue),
            "r_plus": num(self.r_plus),
            "r_minus": num(self.r_minus),
            "n": int(self.n),
            "zero_method": self.zero_method,
            "distribution": self.distribution,
        }

    def __str__(self) -> str:
        p = format_p(self.pvalue, prefix=True, missing="p = n/a")
        if self.r_plus > self.r_minus:
            lean = "the differences favour x"
        elif self.r_plus < self.r_minus:
            lean = "the differences favour y"
        else:
            lean = "neither side is favoured"
        return (
            f"Wilcoxon signed-rank test ({self.distribution}, zero_method={self.zero_method!r}): "
            f"R+ = {self.r_plus:g}, R- = {self.r_minus:g}, T = {self.statistic:g} "
            f"over n = {self.n} differences, {p} (two-sided); {lean}."
        )


# ----------------------------------------------------------------------------
# validation


def validate_vector(name, a) -> np.ndarray:
    try:
        arr = np.asarray(a, dtype=float)
    except (TypeError, ValueError):
        raise CdplotError(f"{opt(name, a)} is not an array of numbers", option=name) from None
    if arr.ndim != 1:
        raise CdplotError(f"{name} must be one-dimensional; got shape {arr.shape!r}")
    if arr.size == 0:
        raise CdplotError(f"{name} is empty; it needs one score per data set")
    if not np.all(np.isfinite(arr)):
        i = int(np.flatnonzero(~np.isfinite(arr))[0])
        raise CdplotError(f"{name}[{i}]={float(arr[i])!r} is not a finite number")
    return arr


def _validate_wilcoxon(x, y, zero_method, method):
    check_option("zero_method", zero_method, ZERO_METHODS)
    check_option("method", method, NULL_METHODS)
    x = validate_vector("x", x)
    if y is None:
        return x
    y = validate_vector("y", y)
    if x.shape != y.shape:
        raise CdplotError(f"x and y must have the same length; got {x.size!r} and {y.size!r}")
    return _differences(np.column_stack([x, y]), np.array([0]), np.array([1]))[0]


def validate_values(values) -> np.ndarray:
    # score tables and DataFrames both carry their matrix as .values
    raw = getattr(values, "values", values)
    if callable(raw):
        raw = values
    try:
        arr = np.asarray(raw, dtype=float)
    except (TypeError, ValueError):
        raise CdplotError(f"{opt('values', values)} is not a matrix of numbers") from None
    if arr.ndim != 2:
        raise CdplotError(f"values must be a (data sets, methods) matrix; got shape {arr.shape!r}")
    if arr.shape[0] < 1 or arr.shape[1] < 2:
        raise CdplotError(
            f"values needs at least 1 data set and 2 methods; got shape {arr.shape!r}"
        )
    if not np.all(np.isfinite(arr)):
        r, c = np.argwhere(~np.isfinite(arr))[0]
        raise CdplotError(f"values[{r}, {c}]={float(arr[r, c])!r} is not a finite number")
    return arr


def validate_pairs(pairs, k: int) -> tuple[np.ndarray, np.ndarray]:
    if pairs is None:
        return np.triu_indices(k, 1)
    try:
        arr = np.asarray(list(pairs))
    except TypeError:
        raise CdplotError(
            f"{opt('pairs', pairs)} is not a list of (i, j) column pairs", option="pairs"
        ) from None
    if arr.size == 0:
        raise CdplotError(
            f"{opt('pairs', pairs)} is empty; give at least one (i, j) pair or None", option="pairs"
        )
    if arr.ndim != 2 or arr.shape[1] != 2 or not np.issubdtype(arr.dtype, np.integer):
        raise CdplotError(
            f"{opt('pairs', pairs)} is not a list of (i, j) pairs of column indices", option="pairs"
        )
    bad = (arr < 0) | (arr >= k)
    if np.any(bad):
        i, j = arr[np.any(bad, axis=1)][0]
        raise CdplotError(f"pairs entry ({i!r}, {j!r}) is out of range for {k} methods")
    same = arr[:, 0] == arr[:, 1]
    if np.any(same):
        i = arr[same][0, 0]
        raise CdplotError(f"pairs entry ({i!r}, {i!r}) compares a method with itself")
    return arr[:, 0], arr[:, 1]


# ----------------------------------------------------------------------------
# computation, vectorised over the rows of a (P, n) matrix of differences


@functools.lru_cache(maxsize=256)
def _exact_tails(n: int) -> tuple[np.ndarray, np.ndarray]:
    """``P(W+ <= w)`` and ``P(W+ >= w)`` for w = 0..n(n+1)/2 without ties.

    The same recursion as scipy's ``_get_wilcoxon_distr``: adding rank k
    shifts half the probability mass by k.  Both tails are summed from
    their small end so that small p-values keep their relative precision.
    """
    pmf = np.ones(1)
    for k in range(1, n + 1):
        prev = pmf
        pmf = np.zeros(k * (k + 1) // 2 + 1)
        pmf[: prev.size] = 0.5 * prev
        pmf[-prev.size :] += 0.5 * prev
    cdf = np.cumsum(pmf)
    sf = np.cumsum(pmf[::-1])[::-1]
    cdf.setflags(write=False)
    sf.setflags(write=False)
    return cdf, sf


def _midranks(a: np.ndarray):
    """Average ranks within each row of ``a``; NaNs rank last, each untied.

    Returns the ranks, and for every group of equal values its row, its
    size and its value (``value`` is NaN for the NaN entries).
    """
    rows, n = a.shape
    order = np.argsort(a, axis=1)  # ties get one average rank, so any order will do
    srt = np.take_along_axis(a, order, axis=1)
    start = np.ones((rows, n), dtype=bool)
    start[:, 1:] = srt[:, 1:] != srt[:, :-1]  # NaN != NaN, so NaNs stay single
    flat = start.ravel()
    first = np.flatnonzero(flat)
    size = np.diff(np.append(first, flat.size))
    avg = (first % n) + 1.0 + (size - 1) / 2.0
    group = np.cumsum(flat) - 1
    ranks = np.empty((rows, n))
    np.put_along_axis(ranks, order, avg[group].reshape(rows, n), axis=1)
    return ranks, first // n, size, srt.ravel()[first]


def _permutation_pvalues(weights: np.ndarray, observed: np.ndarray) -> np.ndarray:
    """Two-sided p-values of ``sum(w_i B_i)`` over all ``2**n`` fair coin vectors B.

    ``weights`` are integer (doubled ranks, 0 for zeros), one row per test;
    the distribution is built by dynamic programming, all rows at once.
    """
    # the distribution depends only on the multiset of weights, and tests of
    # many pairs share few tie patterns: build one distribution per pattern
    patterns, which = np.unique(np.sort(weights, axis=1), axis=0, return_inverse=True)
    which = which.ravel()
    size = int(patterns.sum(axis=1).max()) + 1
    # patterns in blocks of at most _PMF_CELLS probabilities, so that the exact
    # distribution of many long Pratt-ranked pairs stays within a few MB
    step = max(1, _PMF_CELLS // size)
    below = np.empty(len(patterns))
    above = np.empty(len(patterns))
    p = np.empty(observed.shape)
    for start in range(0, len(patterns), step):
        block = patterns[start : start + step]
        pmf = np.zeros((block.shape[0], size))
        pmf[:, 0] = 1.0
        grid = np.arange(size)[None, :]
        for w in block.T:
            if not w.any():  # a zero weight (Pratt's zeros) changes nothing
                continue
            src = grid - w[:, None]
            shifted = np.where(src >= 0, np.take_along_axis(pmf, np.maximum(src, 0), axis=1), 0.0)
            pmf = 0.5 * (pmf + shifted)
        cdf = np.cumsum(pmf, axis=1)
        sf = np.cumsum(pmf[:, ::-1], axis=1)[:, ::-1]
        at = (which >= start) & (which < start + step)
        local = which[at] - start
        below = cdf[local, observed[at]]
        above = sf[local, observed[at]]
        p[at] = np.minimum(1.0, 2.0 * np.minimum(below, above))
    return p


#: Probabilities held at once by :func:`_permutation_pvalues` (32 MB of floats).
_PMF_CELLS = 4_000_000


def _signed_rank(d: np.ndarray, zero_method: str, method: str) -> dict:
    """The signed-rank test on each row of the (P, n) difference matrix ``d``."""
    rows, n = d.shape
    a, zero, n_zero, dropped = _set_zeros_aside(d, zero_method)
    ranks, g_row, g_size, g_value = _midranks(a)

    r_plus = np.where(d > 0, ranks, 0.0).sum(axis=1)
    r_minus = np.where(d < 0, ranks, 0.0).sum(axis=1)
    if zero_method in ("zsplit", "demsar"):
        half_zero = np.where(zero, ranks, 0.0).sum(axis=1) / 2.0
        r_plus_all, r_minus_all = r_plus + half_zero, r_minus + half_zero
    else:
        r_plus_all, r_minus_all = r_plus, r_minus

    count = (n - n_zero if zero_method == "wilcox" else n - dropped).astype(float)
    real = ~np.isnan(g_value)
    has_ties = np.bincount(g_row, weights=(real & (g_size > 1)), minlength=rows) > 0

    # normal approximation with the tie correction (and Pratt's zero correction)
    tie_term = (g_size.astype(float) ** 3 - g_size) * real
    mean = count * (count + 1.0) * 0.25
    var = count * (count + 1.0) * (2.0 * count + 1.0)
    if zero_method == "pratt":
        nz = n_zero.astype(float)
        mean = mean - nz * (nz + 1.0) * 0.25
        var = var - nz * (nz + 1.0) * (2.0 * nz + 1.0)
        tie_term = tie_term * (g_value != 0)  # the zeros' tie is not a tie among ranks
    tie = np.bincount(g_row, weights=tie_term, minlength=rows)
    with np.errstate(divide="ignore", invalid="ignore"):
        se = np.sqrt((var - tie / 2.0) / 24.0)
        z = (r_plus_all - mean) / se

    how = _distributions(method, zero_method, count, n, untied=~has_ties & (n_zero == 0))
    p = np.full(rows, np.nan)
    sel = how == _ASYMPTOTIC
    if np.any(sel):
        p[sel] = 2.0 * special.ndtr(-np.abs(z[sel]))
    sel = how == _EXACT
    if np.any(sel):
        p[sel] = _exact_pvalues(count[sel], r_plus_all[sel])
    sel = how == _PERMUTATION
    if np.any(sel):
        p[sel] = _sign_change_pvalues(d[sel], a[sel], ranks[sel], r_plus[sel])

    return {
        "statistic": np.minimum(r_plus_all, r_minus_all),
        "pvalue": p,
        "r_plus": r_plus_all,
        "r_minus": r_minus_all,
        "n": count.astype(np.int64),
        "distribution": how,
    }


def _set_zeros_aside(d: np.ndarray, zero_method: str):
    """``(|d| with NaN where a zero leaves the ranking, zeros, zero counts, dropped counts)``.

    'wilcox' takes every zero out of the ranking; 'demsar' one of an odd
    number of zeros; 'pratt' and 'zsplit' rank them all.
    """
    rows = d.shape[0]
    zero = d == 0
    n_zero = zero.sum(axis=1)
    a = np.abs(d)
    dropped = np.zeros(rows, dtype=np.int64)
    if zero_method == "wilcox":
        # zeros leave the ranking; as NaNs they sort last, each on its own
        a[zero] = np.nan
    elif zero_method == "demsar":
        # Demsar (2006, section 3.1.3): "if there is an odd number of them, one
        # is ignored"; the rest are ranked and their ranks split evenly below
        odd = np.flatnonzero(n_zero % 2 == 1)
        first = np.argmax(zero[odd], axis=1)
        a[odd, first] = np.nan
        zero[odd, first] = False
        n_zero = n_zero.copy()
        n_zero[odd] -= 1
        dropped[odd] = 1
    return a, zero, n_zero, dropped


def _distributions(method: str, zero_method: str, count, n: int, *, untied) -> np.ndarray:
    """Per row, the p-value's distribution: exact, sign-change permutations or normal."""
    rows = count.shape[0]
    # scipy decides from the number of differences it is given; Demsar's rule
    # is scipy's 'zsplit' on the data without the ignored zero, so it decides
    # from the differences left after that zero is dropped (N = 14 with one
    # zero ranks 13 differences: all 2**13 sign changes, not the normal
    # approximation)
    size = count if zero_method == "demsar" else np.full(rows, float(n))
    if method == "exact":
        # Pratt's zeros hold the lowest ranks and count on neither side, so the
        # untied null distribution of ranks 1..n is off centre for it (R+ = R-
        # can look significant); its exact null distribution is the one of all
        # sign changes of the nonzero Pratt ranks (Pratt 1959)
        return np.full(rows, _PERMUTATION if zero_method == "pratt" else _EXACT)
    if method == "asymptotic":
        return np.full(rows, _ASYMPTOTIC)
    fallback = np.where(size <= _AUTO_PERMUTATION_MAX_N, _PERMUTATION, _ASYMPTOTIC)
    return np.where(size > _AUTO_EXACT_MAX_N, _ASYMPTOTIC, np.where(untied, _EXACT, fallback))


def _exact_pvalues(count, r_plus_all) -> np.ndarray:
    """Two-sided p-values from the untied null distribution of ``count`` ranks."""
    # With ties the statistic may be a half integer, which the untied
    # null distribution does not take; round it away from the centre of
    # each tail (conservative), as scipy does (gh-19872).
    cnt = count.astype(np.int64)
    lo_stat = np.floor(r_plus_all).astype(np.int64)
    hi_stat = np.ceil(r_plus_all).astype(np.int64)
    ps = np.empty(cnt.size)
    for c in np.unique(cnt):  # one cached distribution per sample size
        at = cnt == c
        cdf, sf = _exact_tails(int(c))
        top = cdf.size - 1
        ps[at] = 2.0 * np.minimum(
            sf[np.clip(lo_stat[at], 0, top)], cdf[np.clip(hi_stat[at], 0, top)]
        )
    return np.minimum(ps, 1.0)


def _sign_change_pvalues(d, a, ranks, r_plus) -> np.ndarray:
    """Two-sided p-values over all sign changes of each row's nonzero ranked differences."""
    # Sign changes leave the ranks in place; only the nonzero differences
    # move between R+ and R-.  Doubled midranks are integers.
    nonzero = (d != 0) & ~np.isnan(a)
    weights = np.where(nonzero, np.rint(2.0 * ranks), 0).astype(np.int64)
    observed = np.rint(2.0 * r_plus).astype(np.int64)
    return _permutation_pvalues(weights, observed)


# ----------------------------------------------------------------------------
# public functions


def wilcoxon(
    x: ArrayLike,
    y: ArrayLike | None = None,
    *,
    zero_method: ZeroMethod = "demsar",
    method: NullMethod = "auto",
) -> WilcoxonResult:
    """Wilcoxon signed-rank test of two methods over ``N`` data sets.

    Parameters
    ----------
    x : array_like, shape (N,)
        Scores of the first method, one per data set (or the differences,
        when ``y`` is None).
    y : array_like, shape (N,), optional
        Scores of the second method on the same data sets.
    zero_method : {'demsar', 'zsplit', 'wilcox', 'pratt'}, default 'demsar'
        Treatment of data sets where the two scores are equal.  ``'demsar'``
        ranks the zero differences and gives half of their ranks to each
        side, ignoring one zero when their number is odd (Demšar 2006,
        section 3.1.3); ``'zsplit'`` does the same with every zero, as
        scipy's ``'zsplit'``; ``'wilcox'`` drops them; ``'pratt'`` ranks
        them but counts them on neither side.
    method : {'auto', 'exact', 'asymptotic'}, default 'auto'
        The null distribution of the p-value (scipy's word).  ``'auto'`` takes the exact
        distribution for at most 50 differences without ties or zeros, all
        ``2**n`` sign changes for at most 13 differences with ties or zeros,
        and the normal approximation otherwise, as scipy does; under
        ``'demsar'`` ``n`` counts the differences ranked (after one zero of
        an odd number is ignored), as for scipy's ``'zsplit'`` on the data
        without that zero.  With ``zero_method='pratt'``, ``'exact'`` is the
        exact null distribution of Pratt's statistic, all sign changes of the
        nonzero Pratt ranks (reported as ``'permutation'``).

    Returns
    -------
    WilcoxonResult
        ``statistic`` ``T = min(R+, R-)``, the two-sided ``pvalue``, both
        rank sums, ``n`` and the methods used.

    Raises
    ------
    CdplotError
        If an option is not valid, the arrays are empty, not 1-D, of
        different lengths or hold non-finite values.

    Notes
    -----
    Absolute differences ``|x - y|`` are ranked with average ranks for ties.
    The normal approximation uses the tie-corrected variance
    ``(n(n+1)(2n+1) - sum(t^3 - t)/2) / 24`` and no continuity correction
    (scipy's ``correction=False``).  With ``method='exact'`` and ties, the
    untied null distribution is used with the statistic rounded outwards,
    which is conservative.  When every difference is zero and
    ``zero_method='wilcox'`` leaves nothing to rank, the normal
    approximation has no variance and the p-value is NaN, as in scipy.
    With ``zero_method='pratt'`` the zeros hold the lowest ranks and count
    on neither side, so the untied null distribution of the ranks ``1..n``
    (scipy's ``method='exact'``) is off centre: ``R+ = R-`` can come out
    "significant" and the p-value changes when ``x`` and ``y`` are swapped.
    ``method='exact'`` therefore builds Pratt's exact null
    distribution instead: the ``2**m`` equally likely sign changes of the
    ``m`` nonzero differences, each keeping its Pratt rank, summed by
    dynamic programming over the doubled (integer) ranks.

    The statistic and p-value equal those of ``scipy.stats.wilcoxon(x, y,
    zero_method=zero_method, method=method)`` in scipy 1.17 for
    ``'zsplit'``, ``'wilcox'`` and ``'pratt'`` (except ``'pratt'`` with
    ``'exact'``, which equals scipy's ``method=PermutationMethod()`` where
    that enumerates every sign change); ``'demsar'`` equals scipy's
    ``'zsplit'`` after one zero difference is removed when their number is
    odd, the choice of ``'auto'`` included.

    References
    ----------
    .. [1] Wilcoxon, F. (1945). Individual comparisons by ranking methods.
       Biometrics Bulletin, 1, 80-83.
    .. [2] Demšar, J. (2006). Statistical comparisons of classifiers over
       multiple data sets. JMLR, 7, 1-30, section 3.1.3 and Table 2.
    .. [3] Pratt, J. W. (1959). Remarks on zeros and ties in the Wilcoxon
       signed rank procedures. JASA, 54, 655-667.

    Examples
    --------
    C4.5 against C4.5 with a tuned ``m`` on Demšar's (2006) Table 2:

    >>> from cdplot.stats._wilcoxon import wilcoxon
    >>> c45 = [0.763, 0.599, 0.954, 0.628, 0.882, 0.936, 0.661, 0.583, 0.775,
    ...        1.000, 0.940, 0.619, 0.972, 0.957]
    >>> c45m = [0.768, 0.591, 0.971, 0.661, 0.888, 0.931, 0.668, 0.583, 0.838,
    ...         1.000, 0.962, 0.666, 0.981, 0.978]
    >>> res = wilcoxon(c45m, c45)
    >>> float(res.r_plus), float(res.r_minus), round(float(res.pvalue), 6)
    (93.0, 12.0, 0.010968)
    """
    d = _validate_wilcoxon(x, y, zero_method, method)
    out = _signed_rank(d[None, :], zero_method, method)
    return WilcoxonResult(
        statistic=float(out["statistic"][0]),
        pvalue=float(out["pvalue"][0]),
        r_plus=float(out["r_plus"][0]),
        r_minus=float(out["r_minus"][0]),
        n=int(out["n"][0]),
        zero_method=zero_method,
        distribution=_METHOD_NAMES[int(out["distribution"][0])],
    )


@result
class WilcoxonPairsResult(Result):
    """Result of :func:`wilcoxon_pairs`: one signed-rank test per pair of columns.

    Attributes
    ----------
    statistic : ndarray, shape (k, k)
        Symmetric matrix of ``T = min(R+, R-)``; NaN on the diagonal and for
        pairs not tested.
    pvalue : ndarray, shape (k, k)
        Symmetric matrix of two-sided p-values; 1.0 on the diagonal, NaN for
        pairs not tested.
    r_plus : ndarray, shape (k, k)
        ``r_plus[i, j]`` is the sum of the ranks of the differences
        ``values[:, i] - values[:, j]`` that are positive (with half the ranks
        of the zeros under ``'demsar'`` and ``'zsplit'``), so ``r_plus[j, i]``
        is the ``R-`` of the same test; NaN on the diagonal and for pairs not
        tested.
    n : ndarray of int, shape (k, k)
        Differences ranked for each pair (symmetric); 0 on the diagonal and for
        pairs not tested.
    zero_method : str
        How zero differences were treated.
    distribution : str
        The null distribution asked for (the ``method`` argument: ``'auto'``,
        ``'exact'`` or ``'asymptotic'``); with ``'auto'`` it was chosen pair by
        pair.
    """

    statistic: NDArray[np.float64]
    pvalue: NDArray[np.float64]
    r_plus: NDArray[np.float64]
    n: NDArray[np.int64]
    zero_method: str
    distribution: str

    def __post_init__(self) -> None:
        for name in ("statistic", "pvalue", "r_plus"):
            object.__setattr__(self, name, readonly(getattr(self, name)))
        object.__setattr__(self, "n", readonly(self.n, dtype=np.int64))

    def direction(self) -> NDArray[np.float64]:
        """The side each test favours: ``sign(R+ - R-)`` of column ``i`` against ``j``.

        Returns
        -------
        ndarray, shape (k, k)
            ``+1`` where column ``i`` has the larger rank sum, ``-1`` where ``j``
            has, antisymmetric; 0 on the diagonal, for ties and for pairs not
            tested.
        """
        return np.nan_to_num(np.sign(self.r_plus - self.r_plus.T), nan=0.0)

    def _headline(self) -> str:
        options = f"zero_method={self.zero_method!r}, distribution={self.distribution!r}"
        return pairs_headline(self.pvalue, options)

    def to_dict(self) -> dict:
        """Return a JSON-safe dictionary (matrices as lists of rows, NaN as ``None``)."""
        return {
            "statistic": jsonable(self.statistic),
            "pvalue": jsonable(self.pvalue),
            "r_plus": jsonable(self.r_plus),
            "n": jsonable(self.n),
            "zero_method": self.zero_method,
            "distribution": self.distribution,
        }

    def __str__(self) -> str:
        return (
            f"Wilcoxon signed-rank tests (zero_method={self.zero_method!r}, "
            f"distribution={self.distribution!r}): " + pairs_summary(self.pvalue)
        )


def pairs_headline(pvalue: np.ndarray, options: str) -> str:
    i, j = np.triu_indices(pvalue.shape[0], 1)
    tested = int(np.sum(~np.isnan(pvalue[i, j])))
    return f"{_count_pairs(tested)} of {pvalue.shape[0]} columns tested ({options})"


def _count_pairs(n: int) -> str:
    return f"{n} pair" if n == 1 else f"{n} pairs"


def pairs_summary(pvalue: np.ndarray) -> str:
    """In words: how many pairs were tested and the smallest p-value, with its pair."""
    i, j = np.triu_indices(pvalue.shape[0], 1)
    p = pvalue[i, j]
    tested = ~np.isnan(p)
    k = pvalue.shape[0]
    if not np.any(tested):
        return f"no pair of the {k} columns has a p-value."
    best = int(np.flatnonzero(tested)[np.argmin(p[tested])])
    return (
        f"{_count_pairs(int(tested.sum()))} of {k} columns tested; the smallest two-sided p-value, "
        f"{format_p(p[best], prefix=True)}, is for columns {int(i[best])} and {int(j[best])} "
        "(not adjusted for multiplicity)."
    )


def wilcoxon_pairs(
    values: ArrayLike,
    *,
    pairs: Sequence[tuple[int, int]] | None = None,
    zero_method: ZeroMethod = "demsar",
    method: NullMethod = "auto",
) -> WilcoxonPairsResult:
    """Wilcoxon signed-rank tests between columns of a score table.

    Parameters
    ----------
    values : array_like, shape (N, k)
        Scores, one row per data set and one column per method (higher is
        better).  Objects with a ``values`` matrix (DataFrames, score
        tables) are accepted.
    pairs : sequence of (int, int), optional
        Column pairs to test; by default all pairs ``i < j``.
    zero_method : {'demsar', 'zsplit', 'wilcox', 'pratt'}, default 'demsar'
        Treatment of zero differences, as in :func:`wilcoxon`.
    method : {'auto', 'exact', 'asymptotic'}, default 'auto'
        How p-values are computed, as in :func:`wilcoxon`; with ``'auto'``
        the choice is made pair by pair.

    Returns
    -------
    WilcoxonPairsResult
        ``statistic`` and ``pvalue`` as symmetric ``(k, k)`` matrices, the
        rank sums ``r_plus`` and the side each test favours
        (:meth:`WilcoxonPairsResult.direction`).

    Raises
    ------
    CdplotError
        If an option is not valid, ``values`` is not a finite matrix with at
        least one row and two columns, or ``pairs`` names a column that does
        not exist or a column with itself.

    Notes
    -----
    Each entry equals :func:`wilcoxon` on the two columns.  All pairs are
    computed together: the (P, N) matrix of differences is midranked row by
    row with one sort, exact p-values come from one cached null
    distribution per sample size, and permutation distributions are built
    for all pairs at once.  The p-values are not adjusted for multiplicity;
    see :func:`cdplot.stats.adjust_pairwise`.

    References
    ----------
    .. [1] Demšar, J. (2006). Statistical comparisons of classifiers over
       multiple data sets. JMLR, 7, 1-30, section 3.1.3.

    Examples
    --------
    >>> import numpy as np
    >>> from cdplot.stats import wilcoxon_pairs
    >>> values = np.array([[0.1, 0.3, 0.2], [0.2, 0.5, 0.1], [0.4, 0.6, 0.3],
    ...                    [0.3, 0.9, 0.5], [0.5, 0.7, 0.6], [0.6, 0.8, 0.2]])
    >>> res = wilcoxon_pairs(values)
    >>> res.statistic[0, 1], res.pvalue[0, 1]
    (np.float64(0.0), np.float64(0.03125))
    >>> res.direction()[0, 1]  # column 1 scores higher
    np.float64(-1.0)
    """
    check_option("zero_method", zero_method, ZERO_METHODS)
    check_option("method", method, NULL_METHODS)
    v = validate_values(values)
    k = v.shape[1]
    i, j = validate_pairs(pairs, k)
    statistic = np.full((k, k), np.nan)
    pvalue = np.full((k, k), np.nan)
    r_plus = np.full((k, k), np.nan)
    count = np.zeros((k, k), dtype=np.int64)
    # pairs in blocks of about _BLOCK_CELLS differences, so that memory stays
    # O(k^2 + block) instead of O(k^2 N) (2,000 methods x 100 data sets would
    # need several GB at once)
    step = max(1, _BLOCK_CELLS // max(1, v.shape[0]))
    for start in range(0, len(i), step):
        bi, bj = i[start : start + step], j[start : start + step]
        out = _signed_rank(_differences(v, bi, bj), zero_method, method)
        statistic[bi, bj] = statistic[bj, bi] = out["statistic"]
        pvalue[bi, bj] = pvalue[bj, bi] = out["pvalue"]
        r_plus[bi, bj] = out["r_plus"]
        r_plus[bj, bi] = out["r_minus"]
        count[bi, bj] = count[bj, bi] = out["n"]
    np.fill_diagonal(pvalue, 1.0)
    return WilcoxonPairsResult(
        statistic=statistic,
        pvalue=pvalue,
        r_plus=r_plus,
        n=count,
        zero_method=zero_method,
        distribution=method,
    )


#: Differences ranked at once by :func:`wilcoxon_pairs` (16 MB of floats per array).
_BLOCK_CELLS = 2_000_000


def _differences(v: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """``(v[:, i] - v[:, j]).T`` without overflow.

    Finite scores near the ends of the float range (|x| > 8.9e307) can
    differ by more than the largest float; halving both sides is exact
    (a power of two) and keeps the order and ties of the differences, which
    is all the signed-rank test uses.
    """
    with np.errstate(over="ignore", invalid="ignore"):
        d = (v[:, i] - v[:, j]).T
    if not np.all(np.isfinite(d)):
        d = (0.5 * v[:, i] - 0.5 * v[:, j]).T
    return d
