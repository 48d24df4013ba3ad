"""McNemar's test: two classifiers on the same test set.

Only the examples on which the two classifiers disagree carry information.
With ``n01`` the examples A misclassifies and B classifies correctly and
``n10`` the reverse, under the null hypothesis of equal error rates each
disagreement is a fair coin toss, so ``n01 ~ Binomial(n01 + n10, 1/2)``.

The continuity-corrected chi-square statistic (Yang, formula (22); Dietterich
1998, section 3.1),

.. math:: \\chi^2 = (|n_{01} - n_{10}| - 1)^2 / (n_{01} + n_{10}) \\sim \\chi^2(1),

approximates that binomial test; with few disagreements the exact binomial
p-value is used instead.
"""

from __future__ import annotations

from dataclasses import field

import numpy as np
from numpy.typing import ArrayLike
from scipy import special

from .._docstrings import share
from .._options import NULL_METHODS, NullMethod, check_alpha, check_bool, check_option
from ..errors import CdplotError, opt
from ._formatting import format_p
from ._resultkit import Result, notes_lines, num, readonly, result, wrap

__all__ = [
    "McNemarResult",
    "mcnemar",
    "mcnemar_from_predictions",
    "NULL_METHODS",
    "EXACT_BELOW",
]

# method='auto' switches to the exact binomial test below this many
# disagreements; statsmodels' documentation gives the same rule of thumb
# (the chi-square approximation needs n01 + n10 >= 25).
EXACT_BELOW = 25


@result
class McNemarResult(Result):
    """McNemar's test on a 2x2 table of paired outcomes.

    Attributes
    ----------
    statistic : float
        The chi-square statistic (continuity-corrected unless
        ``continuity=False``) for ``method='asymptotic'``; for the exact
        test, ``min(n01, n10)`` (as statsmodels reports).
    pvalue : float
        Two-sided p-value.
    distribution : str
        The null distribution the p-value came from (the ``method`` asked for,
        with ``'auto'`` resolved): ``'exact'`` (binomial) or ``'asymptotic'``
        (chi-square, 1 df).
    continuity : bool
        Whether the continuity correction was applied (asymptotic only).
    table : ndarray, shape (2, 2)
        ``[[n00, n01], [n10, n11]]``: rows A wrong/right, columns B
        wrong/right (Dietterich's 1998 notation), read-only.
    method_a, method_b : str
    alpha : float
    notes : tuple of str
    """

    statistic: float
    pvalue: float
    distribution: str
    continuity: bool
    table: np.ndarray
    method_a: str = "A"
    method_b: str = "B"
    alpha: float = 0.05
    notes: tuple[str, ...] = field(default=())

    def __post_init__(self):
        object.__setattr__(self, "table", readonly(self.table, dtype=np.int64))
        object.__setattr__(self, "notes", tuple(self.notes))

    @property
    def n01(self) -> int:
        """Examples A gets wrong and B right."""
        return int(self.table[0, 1])

    @property
    def n10(self) -> int:
        """Examples A gets right and B wrong."""
        return int(self.table[1, 0])

    @property
    def significant(self) -> bool:
        """Whether ``pvalue <= alpha``."""
        return bool(self.pvalue <= self.alpha)

    def better(self) -> str | None:
        """The method that is right more often on the disagreements, if significant."""
        if not self.significant or self.n01 == self.n10:
            return None
        return self.method_b if self.n01 > self.n10 else self.method_a

    def conclusion(self) -> str:
        """The conclusion in words, with the numbers."""
        n = int(self.table.sum())
        acc_a = (self.table[1].sum()) / n
        acc_b = (self.table[:, 1].sum()) / n
        how = (
            "exact binomial"
            if self.distribution == "exact"
            else "chi-square" + (" with continuity correction" if self.continuity else "")
        )
        nums = (
            f"{self.method_a} right and {self.method_b} wrong on {self.n10}, the reverse on "
            f"{self.n01} of {n} examples; {how} "
            f"{'chi2(1) = ' if self.distribution != 'exact' else 'min count = '}"
            f"{self.statistic:.4f}, {format_p(self.pvalue, prefix=True)}; "
            f"accuracy {acc_a:.4f} vs {acc_b:.4f}"
        )
        winner = self.better()
        if winner is not None:
            loser = self.method_b if winner == self.method_a else self.method_a
            text = (
                f"McNemar's test: {winner} has a significantly lower error rate than {loser} "
                f"at alpha = {self.alpha:g} ({nums})."
            )
        else:
            text = (
                f"McNemar's test finds no significant difference between the error rates of "
                f"{self.method_a} and {self.method_b} at alpha = {self.alpha:g} ({nums})."
            )
        return text

    @property
    def methods(self) -> tuple[str, str]:
        """``(method_a, method_b)``."""
        return (self.method_a, self.method_b)

    def _headline(self) -> str:
        return (
            f"{self.method_a} vs {self.method_b}, n01 = {self.n01}, n10 = {self.n10}, "
            f"{format_p(self.pvalue, prefix=True)} ({self.distribution})"
        )

    def __str__(self) -> str:
        return "\n".join([*wrap(self.conclusion()), *notes_lines(self.notes)])

    def to_dict(self) -> dict:
        """Return a JSON-safe dictionary."""
        return {
            "test": "mcnemar",
            "statistic": num(self.statistic),
            "pvalue": num(self.pvalue),
            "distribution": self.distribution,
            "continuity": self.continuity,
            "table": [[int(v) for v in row] for row in self.table],
            "n01": self.n01,
            "n10": self.n10,
            "method_a": self.method_a,
            "method_b": self.method_b,
            "alpha": self.alpha,
            "significant": self.significant,
            "better": self.better(),
            "notes": list(self.notes),
            "conclusion": self.conclusion(),
        }


def _validate_table(table):
    try:
        t = np.asarray(table, dtype=float)
    except (TypeError, ValueError):
        raise CdplotError(f"{opt('table', table)}: expected a 2x2 table of counts") from None
    if t.shape == (4,):
        t = t.reshape(2, 2)
    if t.shape != (2, 2):
        raise CdplotError(
            f"table: expected a 2x2 table of counts [[n00, n01], [n10, n11]], got shape {t.shape}"
        )
    if not np.all(np.isfinite(t)) or np.any(t < 0) or np.any(t != np.floor(t)):
        raise CdplotError(
            f"{opt('table', t.astype(object).tolist())}: counts must be whole numbers >= 0"
        )
    return t.astype(np.int64)


def _validate_names(methods):
    if methods is None:
        return "A", "B"
    if isinstance(methods, str) or len(methods) != 2 or str(methods[0]) == str(methods[1]):
        raise CdplotError(
            f"option {opt('methods', methods)} must be two different method names", option="methods"
        )
    return str(methods[0]), str(methods[1])


@share
def mcnemar(
    table: ArrayLike,
    *,
    method: NullMethod = "auto",
    continuity: bool = True,
    alpha: float = 0.05,
    methods: tuple[str, str] | None = None,
) -> McNemarResult:
    """McNemar's test from the 2x2 table of paired outcomes.

    Parameters
    ----------
    table : array_like, shape (2, 2)
        ``[[n00, n01], [n10, n11]]``: ``n00`` both wrong, ``n01`` A wrong
        and B right, ``n10`` A right and B wrong, ``n11`` both right
        (Dietterich 1998, section 3.1).  Four numbers in that order are accepted too.
    method : {'auto', 'exact', 'asymptotic'}, default 'auto'
        ``'exact'``: two-sided binomial test on ``n01`` out of ``n01 +
        n10``; ``'asymptotic'``: chi-square with one degree of freedom;
        ``'auto'``: exact when ``n01 + n10 < 25``.
    continuity : bool, default True
        Continuity correction of the chi-square statistic (Yang,
        formula (22)).
    %(alpha)s
    %(pair_names)s

    Returns
    -------
    McNemarResult

    Raises
    ------
    CdplotError
        Not a 2x2 table of counts, or no disagreements at all
        (``n01 = n10 = 0``), where there is nothing to test.

    Notes
    -----
    The test uses one training/test split, so it says nothing about the
    variability due to the choice of training set (Dietterich 1998).

    References
    ----------
    .. [1] Q. McNemar, "Note on the sampling error of the difference between
           correlated proportions or percentages", Psychometrika 12 (1947) 153-157.
    .. [2] T. G. Dietterich, Neural Computation 10(7) (1998) 1895-1923, section 3.1.
    .. [3] X. Yang, "Survey for performance measure index of classification
           learning algorithm" (in Chinese), formula (22).

    Examples
    --------
    >>> r = mcnemar([[10, 5], [15, 70]], method="asymptotic")
    >>> round(r.statistic, 4), round(r.pvalue, 4)
    (4.05, 0.0442)
    >>> round(mcnemar([[10, 5], [15, 70]], method="exact").pvalue, 4)
    0.0414
    """
    check_option("method", method, NULL_METHODS)
    check_bool("continuity", continuity)
    alpha = check_alpha(alpha)
    names = _validate_names(methods)
    t = _validate_table(table)
    n01, n10 = int(t[0, 1]), int(t[1, 0])
    m = n01 + n10
    if m == 0:
        raise CdplotError(
            f"{names[0]} and {names[1]} are right and wrong on exactly the same examples "
            f"(n01 = n10 = 0), so McNemar's test has no disagreements to compare"
        )
    notes = []
    # the null distribution used: the method asked for, with 'auto' resolved
    distribution = method
    if method == "auto":
        distribution = "exact" if m < EXACT_BELOW else "asymptotic"
        if distribution == "exact":
            notes.append(
                f"With {m} disagreements (fewer than {EXACT_BELOW}) the exact binomial "
                "test was used instead of the chi-square approximation."
            )
    if distribution == "exact":
        stat = float(min(n01, n10))
        p = min(1.0, 2.0 * float(special.bdtr(min(n01, n10), m, 0.5)))
    else:
        diff = abs(n01 - n10)
        if continuity:
            diff = max(diff - 1, 0)
        stat = diff * diff / m
        p = float(special.chdtrc(1, stat))
    return McNemarResult(
        statistic=stat,
        pvalue=p,
        distribution=distribution,
        continuity=bool(continuity) and distribution == "asymptotic",
        table=t,
        method_a=names[0],
        method_b=names[1],
        alpha=alpha,
        notes=tuple(notes),
    )


def mcnemar_from_predictions(
    y_true: ArrayLike,
    pred_a: ArrayLike,
    pred_b: ArrayLike,
    *,
    method: NullMethod = "auto",
    continuity: bool = True,
    alpha: float = 0.05,
    methods: tuple[str, str] | None = None,
) -> McNemarResult:
    """McNemar's test from the true labels and the two methods' predictions.

    Parameters
    ----------
    y_true, pred_a, pred_b : array_like
        Labels of the same test examples, in the same order; any comparable
        values (strings, integers).
    method, continuity, alpha, methods
        As in :func:`mcnemar`.

    Returns
    -------
    McNemarResult

    Raises
    ------
    CdplotError
        Different lengths, no examples, or no disagreements.

    Examples
    --------
    >>> y = [0, 1, 1, 0, 1, 0, 1, 1]
    >>> r = mcnemar_from_predictions(y, [0, 1, 1, 0, 1, 0, 1, 1], [1, 0, 1, 0, 0, 1, 1, 0])
    >>> r.table.tolist(), round(r.pvalue, 4)
    ([[0, 0], [5, 3]], 0.0625)
    """
    arrays = []
    for name, v in (("y_true", y_true), ("pred_a", pred_a), ("pred_b", pred_b)):
        arr = np.asarray(v, dtype=object).ravel() if not isinstance(v, str) else None
        if arr is None or arr.size == 0:
            raise CdplotError(f"{name}: expected a non-empty sequence of labels, got {v!r}")
        arrays.append(arr)
    y, a, b = arrays
    if not (y.size == a.size == b.size):
        raise CdplotError(
            f"y_true, pred_a and pred_b must label the same examples; got {y.size}, {a.size} "
            f"and {b.size} labels"
        )
    ca = np.array([p == t for p, t in zip(a, y, strict=False)], dtype=bool)
    cb = np.array([p == t for p, t in zip(b, y, strict=False)], dtype=bool)
    table = [
        [int(np.sum(~ca & ~cb)), int(np.sum(~ca & cb))],
        [int(np.sum(ca & ~cb)), int(np.sum(ca & cb))],
    ]
    return mcnemar(table, method=method, continuity=continuity, alpha=alpha, methods=methods)
