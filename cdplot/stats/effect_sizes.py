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

import numpy as np

from .._options import check_alpha
from ..errors import CdplotError
from .resultkit import Result, method_index, num, readonly, result

__all__ = [
    "CLIFFS_DELTA_THRESHOLDS",
    "COHENS_D_THRESHOLDS",
    "EffectSizes",
    "cliffs_delta",
    "cohens_d",
    "effect_sizes",
    "magnitude",
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
        raise CdplotError(f"option measure={measure!r} is not 'cliffs_delta' or 'cohens_d'")
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
        raise CdplotError(f"option higher_is_better={higher_is_better!r} must be True or False")
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


def cliffs_delta(scores, *, higher_is_better: bool = True) -> np.ndarray:
    """Cliff's δ between every pair of methods' scores over the data sets.

    Parameters
    ----------
    scores : array_like, shape (n_datasets, n_methods)
        One score per data set and method.
    higher_is_better : bool, default True
        Direction of the scores; δ is positive when the row method is better.

    Returns
    -------
    ndarray, shape (n_methods, n_methods)
        ``delta[i, j] = (#(s_i > s_j) - #(s_i < s_j)) / N²`` over all N × N
        pairs of a score of method i and a score of method j (ties count
        for neither); antisymmetric, zero on the diagonal.

    Notes
    -----
    Computed with one sort per method and binary searches, O(k² N log N),
    instead of the O(k² N²) double loop.

    Examples
    --------
    >>> cliffs_delta([[3, 1], [4, 2], [5, 6]]).round(4).tolist()
    [[0.0, 0.3333], [-0.3333, 0.0]]
    """
    return _cliffs(_matrix(scores, higher_is_better))


def _cliffs(x: np.ndarray) -> np.ndarray:
    """Cliff's delta of validated scores oriented so that higher is better."""
    n, k = x.shape
    delta = np.zeros((k, k))
    columns = np.sort(x, axis=0)
    flat = x.T.ravel()
    for j in range(k):
        # for every score of every method: how many of method j's scores it beats and loses to
        below = np.searchsorted(columns[:, j], flat, side="left")
        above = n - np.searchsorted(columns[:, j], flat, side="right")
        delta[:, j] = (below - above).reshape(k, n).sum(axis=1) / (n * n)
    np.fill_diagonal(delta, 0.0)
    return delta


def cohens_d(scores, *, higher_is_better: bool = True) -> np.ndarray:
    """Cohen's d of the paired differences (``d_z``) between every pair of methods.

    Parameters
    ----------
    scores : array_like, shape (n_datasets, n_methods)
        One score per data set and method.
    higher_is_better : bool, default True
        Direction of the scores; d is positive when the row method is better.

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
    mean = np.empty((k, k))
    sd = np.empty((k, k))
    # one method against all at a time: N x k differences, where all pairs at once would
    # hold N x k x k (3.2 GB for 2,000 methods on 100 data sets)
    for i in range(k):
        diff = x[:, i : i + 1] - x
        mean[i] = diff.mean(axis=0)
        sd[i] = diff.std(axis=0, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        d = mean / sd
    # differences equal to the last bit are no spread at all: keep inf/NaN honest
    flat = sd <= 1e-12 * np.maximum(np.abs(mean), np.finfo(float).tiny)
    d[flat & (mean == 0)] = np.nan
    d[flat & (mean != 0)] = np.sign(mean[flat & (mean != 0)]) * np.inf
    np.fill_diagonal(d, 0.0)
    return d


def _median_ci(sorted_col: np.ndarray, confidence: float) -> tuple[float, float]:
    """Order-statistic interval of the median with binomial coverage >= ``confidence``."""
    from scipy.special import bdtr

    n = sorted_col.size
    tail = (1.0 - confidence) / 2.0
    # the largest r with P(Bin(n, 1/2) <= r - 1) <= tail: [x_(r), x_(n-r+1)] (1-based)
    r = 0
    while r + 1 <= n // 2 and bdtr(r, n, 0.5) <= tail:
        r += 1
    if r == 0:
        return float(sorted_col[0]), float(sorted_col[-1])
    return float(sorted_col[r - 1]), float(sorted_col[n - r])


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

    def to_dict(self) -> dict:
        """A JSON-safe dictionary (``None`` for undefined values)."""

        def table(matrix, fn=num):
            return {
                a: {b: fn(matrix[i, j]) for j, b in enumerate(self.methods)}
                for i, a in enumerate(self.methods)
            }

        def finite(x):
            x = float(x)
            return None if not math.isfinite(x) else x

        return {
            "cliffs_delta": table(self.cliffs_delta),
            "cohens_d": table(self.cohens_d, finite),
            "magnitude": {
                "cliffs_delta": table(self.cliffs_delta, lambda v: magnitude(v, "cliffs_delta")),
                "cohens_d": table(self.cohens_d, lambda v: magnitude(v, "cohens_d")),
            },
            "thresholds": dict(_SOURCES),
            "sign": "positive: the row method is better than the column method",
            "confidence": self.confidence,
            "per_method": {
                m: {
                    "mean": num(self.mean[i]),
                    "std": num(self.std[i]),
                    "median": num(self.median[i]),
                    "mean_ci": [num(v) for v in self.mean_ci[i]],
                    "median_ci": [num(v) for v in self.median_ci[i]],
                }
                for i, m in enumerate(self.methods)
            },
        }

    def _headline(self) -> str:
        return (
            f"{len(self.methods)} methods on {self.n_datasets} data sets, "
            f"largest |delta| = {np.max(np.abs(self.cliffs_delta)):.3f}"
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
        pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
        pairs.sort(key=lambda p: -abs(self.cliffs_delta[p]))
        shown = pairs[:10]
        lines.append(
            "Largest effects (Cliff's delta, positive: the first method is better; "
            "magnitudes after Romano et al. 2006):"
        )
        for i, j in shown:
            a, b = self.methods[i], self.methods[j]
            if self.cliffs_delta[i, j] < 0:
                a, b, i, j = b, a, j, i
            lines.append(
                f"  {a} vs {b}: delta = {self.cliffs_delta[i, j]:.3f} "
                f"({magnitude(self.cliffs_delta[i, j])}), Cohen's d = {self.cohens_d[i, j]:.3f} "
                f"({magnitude(self.cohens_d[i, j], 'cohens_d')})"
            )
        if len(pairs) > len(shown):
            lines.append(f"  ... and {len(pairs) - len(shown)} more pairs (see to_dict())")
        return "\n".join(lines)


def effect_sizes(
    scores, *, methods=None, higher_is_better: bool = True, alpha: float = 0.05
) -> EffectSizes:
    """Effect sizes of every pair of methods and a summary of each method.

    Parameters
    ----------
    scores : array_like, shape (n_datasets, n_methods)
        One finite score per data set and method.
    methods : sequence of str, optional
        Method names (default ``'M1'``, ``'M2'``, ...).
    higher_is_better : bool, default True
        Direction of the scores.  Effect sizes are oriented so that positive
        means better; means and medians stay in the scores' own direction.
    alpha : float, default 0.05
        The confidence intervals have level ``1 - alpha``.

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
    n, k = x.shape
    if methods is None:
        methods = tuple(f"M{i + 1}" for i in range(k))
    methods = tuple(str(m) for m in methods)
    if len(methods) != k:
        raise CdplotError(f"option methods has {len(methods)} names for {k} columns of scores")
    confidence = 1.0 - alpha
    x, scale = _scaled(x)
    mean = x.mean(axis=0)
    std = x.std(axis=0, ddof=1) if n > 1 else np.full(k, np.nan)
    median = np.median(x, axis=0)
    if n > 1:
        from scipy.special import stdtrit

        half = stdtrit(n - 1, 1.0 - alpha / 2.0) * std / math.sqrt(n)
        mean_ci = np.column_stack([mean - half, mean + half])
    else:
        mean_ci = np.full((k, 2), np.nan)
    ordered = np.sort(x, axis=0)
    median_ci = np.array([_median_ci(ordered[:, j], confidence) for j in range(k)])
    if scale != 1.0:
        with np.errstate(over="raise"):
            try:
                mean, std, median, mean_ci, median_ci = (
                    v * scale for v in (mean, std, median, mean_ci, median_ci)
                )
            except FloatingPointError:
                raise CdplotError(
                    "the scores' standard deviations or confidence intervals are beyond the "
                    "largest float (about 1.8e308); rescale the scores"
                ) from None
    return EffectSizes(
        methods=methods,
        cliffs_delta=_cliffs(x if higher_is_better else -x),
        cohens_d=_cohens(x if higher_is_better else -x),
        higher_is_better=bool(higher_is_better),
        confidence=confidence,
        mean=mean,
        std=std,
        median=median,
        mean_ci=mean_ci,
        median_ci=median_ci,
        n_datasets=n,
    )
