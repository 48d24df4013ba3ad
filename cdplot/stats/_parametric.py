"""The parametric path: ANOVA with Tukey's HSD, its assumption checks, and ``test='auto'``.

Demšar (2006, section 3.2.1) describes repeated-measures ANOVA followed by
Tukey's honestly significant difference test as the parametric alternative
to Friedman and Nemenyi, and explains why it is usually the wrong choice
for comparing classifiers: it assumes normally distributed scores and
sphericity (equal variances of all pairwise differences), which scores on
different data sets rarely have.  :func:`compare_auto` checks both
assumptions, as autorank does, and takes the parametric path only when
neither check rejects; otherwise it runs :func:`cdplot.compare`'s
Friedman/Nemenyi analysis, and it says why.

``scipy.stats`` is imported inside the function that needs it (the
Shapiro-Wilk test), because these analyses are not on ``cdplot stats``'
default path.  Tukey's p-values come from
:mod:`cdplot.stats._studentized_range`, which computes all pairs as one
vectorised integral where ``scipy.stats.studentized_range`` integrates each
p-value adaptively (11 s for 30 methods).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import field, replace

import numpy as np
from numpy.typing import ArrayLike
from scipy import special

from .._docstrings import share
from .._options import (
    CORRECTIONS,
    NAN_POLICIES,
    Correction,
    NanPolicy,
    NullMethod,
    ZeroMethod,
    check_alpha,
    check_bool,
    check_option,
)
from ..errors import CdplotError, opt
from ..io import ScoreTable, as_score_tables, resolve_direction
from ..io._types import ScoresLike
from ._compare import check_control_correction, compare_table, single_table
from ._effect_sizes import EffectSizes
from ._effect_sizes import effect_sizes as _effect_sizes
from ._formatting import format_p
from ._resultkit import Result, join_names, method_index, notes_lines, num, readonly, result, wrap
from ._results import MAX_LISTED_EFFECTS, ComparisonResult
from ._studentized_range import studentized_range_isf, studentized_range_sf
from ._validate import check_pairwise_size, finite_table, pow2_scale, refuse_large

__all__ = [
    "AnovaResult",
    "TukeyHSDResult",
    "ShapiroResult",
    "MauchlyResult",
    "AutoResult",
    "anova_oneway",
    "rm_anova",
    "shapiro_residuals",
    "mauchly",
    "compare_auto",
]


# ---------------------------------------------------------------------------
# results
# ---------------------------------------------------------------------------


@result
class TukeyHSDResult(Result):
    """Tukey's HSD test of all pairs of means.

    Attributes
    ----------
    methods : tuple of str
    means : ndarray, shape (k,)
    mean_differences : ndarray, shape (k, k)
        ``means[i] - means[j]`` (scipy's ``tukey_hsd`` convention).
    statistics : ndarray, shape (k, k)
        ``|means[i] - means[j]| / standard_error``, the studentized range
        statistic ``q``; NaN on the diagonal.
    pvalues : ndarray, shape (k, k)
        Upper tail of the studentized range with ``k`` groups and ``dof``
        degrees of freedom; 1 on the diagonal.
    standard_error : float
        ``sqrt(MS_error / n)`` with ``n`` observations per mean; NaN when the
        groups differ in size (each pair then has its own, see
        ``standard_errors``).
    dof : int
        Error degrees of freedom.
    alpha : float
    critical_value : float
        ``q`` at ``alpha``.
    higher_is_better : bool
    standard_errors : ndarray, shape (k, k)
        The standard error of each pair: ``sqrt(MS_error / 2 (1/n_i +
        1/n_j))`` (Tukey-Kramer), equal to ``standard_error`` everywhere when
        the groups have equal sizes.

    Notes
    -----
    With unequal group sizes the Tukey-Kramer procedure is used, as
    ``scipy.stats.tukey_hsd`` does: each pair's statistic is divided by its
    own standard error.  (The harmonic mean of the sizes, used before, gave
    p-values off by up to 0.32 and a family-wise error rate of 0.070 at
    nominal 0.05 with sizes 3, 3, 40, 40.)
    """

    methods: tuple[str, ...]
    means: np.ndarray
    mean_differences: np.ndarray
    statistics: np.ndarray
    pvalues: np.ndarray
    standard_error: float
    dof: int
    alpha: float
    critical_value: float
    higher_is_better: bool = True
    standard_errors: np.ndarray | None = None

    def __post_init__(self):
        for name in ("means", "mean_differences", "statistics", "pvalues"):
            object.__setattr__(self, name, readonly(getattr(self, name)))
        object.__setattr__(self, "methods", tuple(self.methods))
        if self.standard_errors is None:
            k = len(self.methods)
            object.__setattr__(self, "standard_errors", np.full((k, k), self.standard_error))
        object.__setattr__(self, "standard_errors", readonly(self.standard_errors))

    @property
    def kramer(self) -> bool:
        """Whether the pairs have different standard errors (unequal group sizes)."""
        return bool(math.isnan(self.standard_error))

    @property
    def significant(self) -> np.ndarray:
        """``(k, k)`` booleans: ``pvalues <= alpha`` (diagonal False)."""
        s = self.pvalues <= self.alpha
        np.fill_diagonal(s, False)
        return s

    def confidence_interval(self, confidence_level: float = 0.95):
        """Simultaneous intervals of ``means[i] - means[j]``.

        Returns
        -------
        low, high : ndarray, shape (k, k)
            ``mean_differences -/+ q * standard_error``, with ``q`` the
            studentized range quantile at ``confidence_level`` (as
            ``scipy.stats.tukey_hsd(...).confidence_interval()``).
        """
        level = check_alpha(confidence_level, name="confidence_level")
        q = float(studentized_range_isf(1.0 - level, len(self.methods), self.dof))
        half = q * self.standard_errors
        low = readonly(self.mean_differences - half)
        high = readonly(self.mean_differences + half)
        return low, high

    def index(self, method: str) -> int:
        """Position of ``method``; raises :class:`CdplotError` for unknown names."""
        return method_index(self.methods, method)

    def order(self) -> tuple[str, ...]:
        """Method names from the best mean to the worst (stable for ties)."""
        key = -self.means if self.higher_is_better else self.means
        return tuple(self.methods[i] for i in np.argsort(key, kind="stable"))

    def mean(self, method: str) -> float:
        """Mean score of one method."""
        return float(self.means[self.index(method)])

    def pvalue(self, a: str, b: str) -> float:
        """Tukey's p-value of ``a`` against ``b``."""
        return float(self.pvalues[self.index(a), self.index(b)])

    def is_significant(self, a: str, b: str) -> bool:
        """Whether ``a`` and ``b`` differ significantly at ``alpha``."""
        return bool(self.significant[self.index(a), self.index(b)])

    def _headline(self) -> str:
        n_sig = len(self.significant_pairs())
        return (
            f"{len(self.methods)} methods, {n_sig} significant pairs at alpha = {self.alpha:g}, "
            f"q = {self.critical_value:.4f}"
        )

    def __str__(self) -> str:
        width = max(len(m) for m in self.methods)
        lines = [f"{'method':<{width}}  mean"]
        lines += [f"{m:<{width}}  {self.mean(m):.4f}" for m in self.order()]
        lines += ["", f"{'pair':<{2 * width + 4}}  difference        q  p-value"]
        order = self.order()
        for i, a in enumerate(order):
            for b in order[i + 1 :]:
                ia, ib = self.index(a), self.index(b)
                lines.append(
                    f"{a:<{width}} vs {b:<{width}}  {self.mean_differences[ia, ib]:10.4f}  "
                    f"{self.statistics[ia, ib]:7.4f}  {format_p(self.pvalues[ia, ib])}"
                )
        lines += ["", *wrap(" ".join(self.sentences()))]
        return "\n".join(lines)

    def significant_pairs(self) -> tuple[tuple[str, str], ...]:
        """``(better, worse)`` for each significant pair, in the direction of the scores."""
        out = []
        k = len(self.methods)
        for i in range(k):
            for j in range(i + 1, k):
                if self.pvalues[i, j] <= self.alpha:
                    d = self.mean_differences[i, j]
                    i_better = (d > 0) == self.higher_is_better
                    a, b = (i, j) if i_better else (j, i)
                    out.append((self.methods[a], self.methods[b]))
        return tuple(out)

    def sentences(self) -> list[str]:
        """The pairwise conclusions in words."""
        pairs = self.significant_pairs()
        if self.kramer:
            head = (
                f"Tukey-Kramer's HSD for unequal group sizes (q = {self.critical_value:.4f} at "
                f"alpha = {self.alpha:g}, {self.dof} df, one standard error per pair)"
            )
        else:
            head = (
                f"Tukey's HSD (q = {self.critical_value:.4f} at alpha = {self.alpha:g}, "
                f"{self.dof} df, standard error {self.standard_error:.4g})"
            )
        if not pairs:
            return [f"{head} finds no pair of methods that differ significantly."]
        better: dict[str, list[str]] = {}
        for a, b in pairs:
            better.setdefault(a, []).append(b)
        parts = [f"{a} is significantly better than {join_names(bs)}" for a, bs in better.items()]
        return [f"{head}: " + "; ".join(parts) + "."]

    def to_dict(self) -> dict:
        """Return a JSON-safe dictionary."""
        low, high = self.confidence_interval(1 - self.alpha)
        pairs = []
        k = len(self.methods)
        for i in range(k):
            for j in range(i + 1, k):
                pairs.append(
                    {
                        "group1": self.methods[i],
                        "group2": self.methods[j],
                        "meandiff": num(
                            -self.mean_differences[i, j]
                        ),  # statsmodels: group2 - group1
                        "q": num(self.statistics[i, j]),
                        "standard_error": num(self.standard_errors[i, j]),
                        "pvalue": num(self.pvalues[i, j]),
                        "lower": num(-high[i, j]),
                        "upper": num(-low[i, j]),
                        "reject": bool(self.pvalues[i, j] <= self.alpha),
                    }
                )
        return {
            "methods": list(self.methods),
            "means": [float(m) for m in self.means],
            "standard_error": num(self.standard_error),
            "dof": int(self.dof),
            "alpha": self.alpha,
            "critical_value": num(self.critical_value),
            "pairs": pairs,
            "significant_pairs": [list(p) for p in self.significant_pairs()],
        }


@result
class ShapiroResult(Result):
    """Shapiro-Wilk test of normality of the ANOVA residuals.

    Attributes
    ----------
    statistic : float
        ``W``.
    pvalue : float
    n : int
        Number of residuals tested.
    alpha : float
    """

    statistic: float
    pvalue: float
    n: int
    alpha: float = 0.05

    @property
    def rejected(self) -> bool:
        """Whether normality is rejected at ``alpha``."""
        return bool(self.pvalue <= self.alpha)

    def _headline(self) -> str:
        return (
            f"W = {self.statistic:.4f} on {self.n} residuals, {format_p(self.pvalue, prefix=True)}"
        )

    def __str__(self) -> str:
        verdict = "rejects" if self.rejected else "does not reject"
        return (
            f"Shapiro-Wilk W = {self.statistic:.4f} on {self.n} residuals, "
            f"{format_p(self.pvalue, prefix=True)}: "
            f"{verdict} normality at alpha = {self.alpha:g}"
        )

    def to_dict(self) -> dict:
        """Return a JSON-safe dictionary."""
        return {
            "statistic": num(self.statistic),
            "pvalue": num(self.pvalue),
            "n": int(self.n),
            "alpha": self.alpha,
            "rejected": self.rejected,
        }


@result
class MauchlyResult(Result):
    """Mauchly's test of sphericity, with the Greenhouse-Geisser epsilon.

    Attributes
    ----------
    statistic : float
        Mauchly's ``W`` in (0, 1]; 1 when sphericity holds exactly.
    chi2 : float
        The chi-square approximation of ``-log W``; NaN when not testable.
    dof : int
        ``p (p + 1) / 2 - 1`` with ``p = k - 1``.
    pvalue : float
        1 for two methods (sphericity holds trivially); NaN when there are
        too few data sets to estimate the covariance.
    epsilon : float
        Greenhouse-Geisser epsilon, between ``1 / (k - 1)`` and 1.
    alpha : float
    note : str
        Why the test could not be run, if so.
    """

    statistic: float
    chi2: float
    dof: int
    pvalue: float
    epsilon: float
    alpha: float = 0.05
    note: str = ""

    @property
    def testable(self) -> bool:
        """Whether a p-value could be computed."""
        return not math.isnan(self.pvalue)

    def _headline(self) -> str:
        if not self.testable:
            return "not testable"
        return f"W = {self.statistic:.4f}, {format_p(self.pvalue, prefix=True)}"

    @property
    def rejected(self) -> bool:
        """Whether sphericity is rejected at ``alpha`` (False when untestable)."""
        return self.testable and bool(self.pvalue <= self.alpha)

    def __str__(self) -> str:
        if not self.testable:
            return f"Mauchly's test of sphericity could not be run: {self.note}"
        if self.dof == 0:
            return "Mauchly's test: with two methods sphericity holds trivially"
        verdict = "rejects" if self.rejected else "does not reject"
        return (
            f"Mauchly's W = {self.statistic:.4f}, chi2({self.dof}) = {self.chi2:.4f}, "
            f"{format_p(self.pvalue, prefix=True)}: {verdict} sphericity at alpha = {self.alpha:g} "
            f"(Greenhouse-Geisser epsilon = {self.epsilon:.4f})"
        )

    def to_dict(self) -> dict:
        """Return a JSON-safe dictionary."""
        return {
            "statistic": num(self.statistic),
            "chi2": num(self.chi2),
            "dof": int(self.dof),
            "pvalue": num(self.pvalue),
            "epsilon": num(self.epsilon),
            "alpha": self.alpha,
            "rejected": self.rejected,
            "testable": self.testable,
            "note": self.note,
        }


@result
class AnovaResult(Result):
    """One-way or repeated-measures ANOVA with Tukey's HSD and the assumption checks.

    Attributes
    ----------
    design : {'repeated-measures', 'one-way'}
    statistic : float
        ``F``.
    pvalue : float
    dof : tuple of int
        ``(k - 1, error df)``: ``(k - 1)(N - 1)`` for repeated measures,
        ``n_total - k`` for one-way.
    ss_effect, ss_error : float
        Sums of squares of the methods and of the error.
    ss_subjects : float or None
        Sum of squares of the data sets (repeated measures only).
    ms_error : float
    methods : tuple of str
    means : ndarray, shape (k,)
    n_methods : int
    n_datasets : int
        ``N`` (repeated measures) or observations per group (one-way, when equal).
    alpha : float
    higher_is_better : bool
    tukey : TukeyHSDResult
    normality : ShapiroResult or None
        Shapiro-Wilk on the residuals (repeated measures).
    sphericity : MauchlyResult or None
        Mauchly's test (repeated measures).
    pvalue_gg : float or None
        p-value with Greenhouse-Geisser corrected degrees of freedom.
    scores : ScoreTable or None
        The table analysed (repeated measures).
    notes : tuple of str
    """

    design: str
    statistic: float
    pvalue: float
    dof: tuple[int, int]
    ss_effect: float
    ss_error: float
    ms_error: float
    methods: tuple[str, ...]
    means: np.ndarray
    n_methods: int
    n_datasets: int
    alpha: float
    higher_is_better: bool
    tukey: TukeyHSDResult
    ss_subjects: float | None = None
    normality: ShapiroResult | None = None
    sphericity: MauchlyResult | None = None
    pvalue_gg: float | None = None
    scores: ScoreTable | None = None
    notes: tuple[str, ...] = field(default=())

    def __post_init__(self):
        object.__setattr__(self, "means", readonly(self.means))
        object.__setattr__(self, "methods", tuple(self.methods))
        object.__setattr__(self, "notes", tuple(self.notes))

    @functools.cached_property
    def effect_sizes(self) -> EffectSizes | None:
        """Cohen's d (the measure of ANOVA), Cliff's δ and per-method summaries.

        Computed on first use from the repeated-measures scores; ``None`` for
        a one-way design, whose groups are not paired.
        """
        if self.scores is None:
            return None
        return _effect_sizes(
            self.scores.values,
            methods=self.methods,
            higher_is_better=self.higher_is_better,
            alpha=self.alpha,
            measure="cohens_d",
        )

    def _effect_lines(self) -> list[str]:
        es = self.effect_sizes
        pairs = self.tukey.significant_pairs()
        if es is None or not pairs:
            return []
        return ["", *es.describe_pairs(pairs, limit=MAX_LISTED_EFFECTS, test="Tukey HSD test")]

    @property
    def metric(self) -> str | None:
        """The measure analysed, if the table names it."""
        return None if self.scores is None else self.scores.metric

    @property
    def rejected(self) -> bool:
        """Whether ANOVA rejects equal means at ``alpha``."""
        return bool(self.pvalue <= self.alpha)

    def index(self, method: str) -> int:
        """Position of ``method``; raises :class:`CdplotError` for unknown names."""
        return method_index(self.methods, method)

    def order(self) -> tuple[str, ...]:
        """Method names from the best mean to the worst (stable for ties)."""
        return self.tukey.order()

    def mean(self, method: str) -> float:
        """Mean score of one method."""
        return float(self.means[self.index(method)])

    # ``pvalue`` is the F-test's (scipy's word); a pair's p-value is ``tukey.pvalue(a, b)``
    def is_significant(self, a: str, b: str) -> bool:
        """Whether Tukey's HSD finds ``a`` and ``b`` different at ``alpha``."""
        return self.tukey.is_significant(a, b)

    def _headline(self) -> str:
        where = (
            f"{self.n_methods} methods on {self.n_datasets} data sets"
            if self.design == "repeated-measures"
            else f"{self.n_methods} groups"
        )
        return (
            f"{self.design} ANOVA of {where}, F({self.dof[0]}, {self.dof[1]}) = "
            f"{self.statistic:.4f}, {format_p(self.pvalue, prefix=True)}"
        )

    def conclusion(self) -> str:
        """The conclusion in words, with the numbers."""
        kind = "Repeated-measures ANOVA" if self.design == "repeated-measures" else "One-way ANOVA"
        verdict = "rejects" if self.rejected else "does not reject"
        where = (
            f"{self.n_methods} methods on {self.n_datasets} data sets"
            if self.design == "repeated-measures"
            else f"{self.n_methods} groups"
        )
        out = [
            f"{kind} of {where}: F({self.dof[0]}, {self.dof[1]}) = {self.statistic:.4f}, "
            f"{format_p(self.pvalue, prefix=True)}, {verdict} equal means at "
            f"alpha = {self.alpha:g}."
        ]
        out += self.tukey.sentences()
        if not self.rejected:
            out.append(
                "Because ANOVA does not reject equal means, the pairwise results are shown "
                "for completeness only."
            )
        return " ".join(out)

    def __str__(self) -> str:
        width = max(len("method"), *(len(m) for m in self.methods))
        lines = [f"{'method':<{width}}  mean"]
        for m, v in zip(self.methods, self.means, strict=False):
            lines.append(f"{m:<{width}}  {v:.4f}")
        lines.append("")
        if self.normality is not None:
            lines.append(str(self.normality))
        if self.sphericity is not None:
            lines.append(str(self.sphericity))
        if self.pvalue_gg is not None:
            lines.append(f"Greenhouse-Geisser corrected {format_p(self.pvalue_gg, prefix=True)}")
        lines += ["", *wrap(self.conclusion()), *self._effect_lines(), *notes_lines(self.notes)]
        return "\n".join(lines)

    def to_dict(self, *, matrices: bool | None = None) -> dict:
        """Return a JSON-safe dictionary.

        Parameters
        ----------
        matrices : bool, optional
            Include the k x k tables of the effect sizes (default: up to
            :data:`~cdplot.stats._resultkit.JSON_MATRIX_MAX_METHODS` methods).
            Tukey's pairs are always listed.
        """
        es = self.effect_sizes
        return {
            "test": "anova",
            "design": self.design,
            "statistic": num(self.statistic),
            "pvalue": num(self.pvalue),
            "dof": [int(self.dof[0]), int(self.dof[1])],
            "ss_effect": num(self.ss_effect),
            "ss_subjects": num(self.ss_subjects),
            "ss_error": num(self.ss_error),
            "ms_error": num(self.ms_error),
            "methods": list(self.methods),
            "means": {m: float(v) for m, v in zip(self.methods, self.means, strict=False)},
            "n_methods": int(self.n_methods),
            "n_datasets": int(self.n_datasets),
            "alpha": self.alpha,
            "higher_is_better": self.higher_is_better,
            "metric": self.metric,
            "tukey": self.tukey.to_dict(),
            "normality": None if self.normality is None else self.normality.to_dict(),
            "sphericity": None if self.sphericity is None else self.sphericity.to_dict(),
            "pvalue_gg": num(self.pvalue_gg),
            "notes": list(self.notes),
            "conclusion": self.conclusion(),
            "effect_sizes": None if es is None else es.to_dict(matrices=matrices),
        }


# ---------------------------------------------------------------------------
# computations
# ---------------------------------------------------------------------------


def _tukey(means, ms_error, n_per, dof, methods, alpha, higher_is_better):
    """Tukey's HSD; ``n_per`` is one size for all means or one per mean (Tukey-Kramer)."""
    k = len(means)
    sizes = np.broadcast_to(np.asarray(n_per, dtype=float), (k,))
    # Tukey-Kramer: sqrt(MSE / 2 (1/n_i + 1/n_j)), which is sqrt(MSE / n) for equal sizes
    inv = 1.0 / sizes
    ses = np.sqrt(ms_error / 2.0 * (inv[:, None] + inv[None, :]))
    equal = bool(np.all(sizes == sizes[0]))
    se = math.sqrt(ms_error / sizes[0]) if equal else float("nan")
    if equal:
        ses = np.full((k, k), se)
    diff = means[:, None] - means[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        q = np.abs(diff) / ses
    iu = np.triu_indices(k, 1)
    p = np.ones((k, k))
    p[iu] = studentized_range_sf(q[iu], k, dof)
    p.T[iu] = p[iu]
    np.fill_diagonal(q, np.nan)
    crit = float(studentized_range_isf(alpha, k, dof))
    return TukeyHSDResult(
        methods=methods,
        means=means,
        mean_differences=diff,
        statistics=q,
        pvalues=np.minimum(p, 1.0),
        standard_error=se,
        dof=int(dof),
        alpha=alpha,
        critical_value=crit,
        higher_is_better=higher_is_better,
        standard_errors=ses,
    )


@share
def anova_oneway(
    *groups: ArrayLike,
    methods: Sequence[str] | None = None,
    alpha: float = 0.05,
    higher_is_better: bool = True,
) -> AnovaResult:
    """One-way ANOVA of independent groups, with Tukey's HSD.

    Parameters
    ----------
    *groups : array_like
        The observations of each group (at least two groups, each with at
        least one observation and two in total more than the number of groups).
    methods : sequence of str, optional
        Names of the groups (default ``'A'``, ``'B'``, ...).
    %(alpha)s
        It is the level of the F-test and of Tukey's HSD.
    %(higher_is_better_array)s
        It gives the word "better" in the conclusion.

    Returns
    -------
    AnovaResult
        ``design='one-way'``; ``statistic`` and ``pvalue`` equal
        ``scipy.stats.f_oneway``'s, and the pairwise p-values and intervals
        ``scipy.stats.tukey_hsd``'s (Tukey-Kramer when the group sizes
        differ).

    Raises
    ------
    CdplotError
        Fewer than two groups, empty groups, non-finite values, mismatched
        names, or no variation within groups.

    References
    ----------
    .. [1] J. W. Tukey, "Comparing individual means in the analysis of
           variance", Biometrics 5(2) (1949) 99-114.
    .. [2] C. Y. Kramer, "Extension of multiple range tests to group means
           with unequal numbers of replications", Biometrics 12(3) (1956)
           307-310.

    Examples
    --------
    Three groups of five observations:

    >>> A = [24.5, 23.5, 26.4, 27.1, 29.9]
    >>> B = [28.4, 34.2, 29.5, 32.2, 30.1]
    >>> C = [26.1, 28.3, 24.3, 26.2, 27.8]
    >>> r = anova_oneway(A, B, C, methods=["A", "B", "C"])
    >>> round(r.statistic, 3), round(r.pvalue, 4)
    (7.138, 0.0091)
    >>> r.tukey.significant_pairs()
    (('B', 'A'), ('B', 'C'))
    """
    alpha = check_alpha(alpha)
    check_bool("higher_is_better", higher_is_better)
    names, arrays = _iv_groups(groups, methods)
    refuse_large("one-way ANOVA", *arrays)
    k = len(arrays)
    check_pairwise_size(k, "one-way ANOVA")
    n = np.array([a.size for a in arrays])
    total = n.sum()
    if total - k < 1:
        raise CdplotError(
            f"one-way ANOVA of {k} groups needs more than {k} observations, got {total}"
        )
    means = np.array([a.mean() for a in arrays])
    grand = np.concatenate(arrays).mean()
    ss_b = float((n * (means - grand) ** 2).sum())
    ss_w = float(sum(((a - a.mean()) ** 2).sum() for a in arrays))
    if ss_w == 0:
        raise CdplotError(
            "every group is constant, so the within-group variance is zero and F is undefined"
        )
    df1, df2 = k - 1, int(total - k)
    ms_w = ss_w / df2
    f = (ss_b / df1) / ms_w
    p = float(special.fdtrc(df1, df2, f))
    notes = []
    if not np.all(n == n[0]):
        notes.append(
            "Groups have different sizes, so each pair is compared with its own standard "
            "error (Tukey-Kramer)."
        )
    tukey = _tukey(means, ms_w, n, df2, tuple(names), alpha, higher_is_better)
    return AnovaResult(
        design="one-way",
        statistic=f,
        pvalue=p,
        dof=(df1, df2),
        ss_effect=ss_b,
        ss_error=ss_w,
        ms_error=ms_w,
        methods=tuple(names),
        means=means,
        n_methods=k,
        n_datasets=int(n[0]) if np.all(n == n[0]) else int(total),
        alpha=alpha,
        higher_is_better=higher_is_better,
        tukey=tukey,
        notes=tuple(notes),
    )


def _iv_groups(groups, methods):
    """The names and the arrays of one-way ANOVA's groups, refusing bad input."""
    if len(groups) < 2:
        raise CdplotError(f"one-way ANOVA needs at least 2 groups, got {len(groups)}")
    names = (
        [chr(ord("A") + i) if i < 26 else f"G{i + 1}" for i in range(len(groups))]
        if methods is None
        else [str(n) for n in methods]
    )
    if len(names) != len(groups) or len(set(names)) != len(names):
        raise CdplotError(
            f"option {opt('methods', names)} must give {len(groups)} different group names",
            option="methods",
        )
    arrays = []
    for name, g in zip(names, groups, strict=False):
        try:
            a = np.asarray(g, dtype=float).ravel()
        except (TypeError, ValueError):
            raise CdplotError(f"group {name!r}: expected numbers, got {g!r}") from None
        if a.size == 0:
            raise CdplotError(f"group {name!r} is empty")
        if not np.all(np.isfinite(a)):
            raise CdplotError(f"group {name!r} holds a value that is not finite")
        arrays.append(a)
    return names, arrays


def _residuals(x):
    return x - x.mean(axis=1, keepdims=True) - x.mean(axis=0, keepdims=True) + x.mean()


@share
def shapiro_residuals(values: ArrayLike, *, alpha: float = 0.05) -> ShapiroResult:
    """Shapiro-Wilk test of the residuals of the two-way (data set + method) model.

    Parameters
    ----------
    values : array_like, shape (N, k)
        Scores, data sets in rows.
    %(alpha)s

    Returns
    -------
    ShapiroResult

    Raises
    ------
    CdplotError
        Fewer than 3 residuals, or residuals that are all zero (the scores
        are additive in data set and method, so there is nothing to test).
    """
    alpha = check_alpha(alpha)
    # a NaN would give W = nan and chi2 = inf, read as a rejection
    x = finite_table(values, "values")
    r = _residuals(x).ravel()
    if r.size < 3:
        raise CdplotError(f"the Shapiro-Wilk test needs at least 3 residuals, got {r.size}")
    if np.allclose(r, 0.0, atol=1e-14 * max(1.0, float(np.abs(x).max()))):
        raise CdplotError(
            "the residuals of the ANOVA model are all zero (every method differs from every other "
            "by the same amount on each data set), so normality cannot be tested"
        )
    from scipy.stats import shapiro

    res = shapiro(r)
    return ShapiroResult(
        statistic=float(res.statistic), pvalue=float(res.pvalue), n=r.size, alpha=alpha
    )


@share
def mauchly(values: ArrayLike, *, alpha: float = 0.05) -> MauchlyResult:
    """Mauchly's test of sphericity of repeated measures, with Greenhouse-Geisser epsilon.

    Parameters
    ----------
    values : array_like, shape (N, k)
        Scores, data sets in rows and methods in columns.
    %(alpha)s

    Returns
    -------
    MauchlyResult
        With two methods sphericity holds trivially (``W = 1``, p = 1); with
        ``N <= k - 1`` data sets the covariance cannot be estimated and
        ``pvalue`` is NaN with a note.

    Notes
    -----
    With ``C`` a ``k x (k-1)`` orthonormal contrast matrix and ``S`` the
    sample covariance of ``X C``, ``W = det(S) / (tr(S) / p)^p``, ``p = k -
    1``, and ``-(N - 1 - (2p^2 + p + 2) / (6p)) log W`` is approximately
    chi-square with ``p (p + 1) / 2 - 1`` degrees of freedom; the p-value
    adds Anderson's second-order term, as R's ``mauchly.test`` and
    pingouin's ``sphericity`` do.

    References
    ----------
    .. [1] J. W. Mauchly, "Significance test for sphericity of a normal
           n-variate distribution", Annals of Mathematical Statistics 11
           (1940) 204-209.
    .. [2] S. W. Greenhouse and S. Geisser, "On methods in the analysis of
           profile data", Psychometrika 24 (1959) 95-112.
    .. [3] T. W. Anderson, An Introduction to Multivariate Statistical
           Analysis, 3rd ed., Wiley (2003), section 10.7.
    """
    alpha = check_alpha(alpha)
    # a NaN would give W = nan and chi2 = inf, read as a rejection
    x = finite_table(values, "values")
    n, k = x.shape
    p = k - 1
    if p == 1:
        return MauchlyResult(
            statistic=1.0,
            chi2=0.0,
            dof=0,
            pvalue=1.0,
            epsilon=1.0,
            alpha=alpha,
            note="with two methods there is one difference, so sphericity holds",
        )
    # orthonormal contrasts: the null space of the all-ones vector
    q, _ = np.linalg.qr(np.column_stack([np.ones(k), np.eye(k)[:, : k - 1]]))
    c = q[:, 1:]
    s = np.cov(x @ c, rowvar=False, ddof=1)
    tr = float(np.trace(s))
    if tr == 0:
        return MauchlyResult(
            statistic=math.nan,
            chi2=math.nan,
            dof=p * (p + 1) // 2 - 1,
            pvalue=math.nan,
            epsilon=math.nan,
            alpha=alpha,
            note="the differences between methods are the same on every data set",
        )
    eps = tr * tr / (p * float(np.trace(s @ s)))
    if n - 1 < p:
        return MauchlyResult(
            statistic=math.nan,
            chi2=math.nan,
            dof=p * (p + 1) // 2 - 1,
            pvalue=math.nan,
            epsilon=eps,
            alpha=alpha,
            note=f"{n} data sets are too few to estimate the covariance of "
            f"{p} contrasts (at least {p + 1} are needed)",
        )
    w = float(np.linalg.det(s) / (tr / p) ** p)
    w = min(max(w, 0.0), 1.0)
    dof = p * (p + 1) // 2 - 1
    factor = (n - 1) - (2 * p * p + p + 2) / (6 * p)
    chi2 = -factor * math.log(w) if w > 0 else math.inf
    pv = _mauchly_pvalue(chi2, dof, factor, n, p, k)
    return MauchlyResult(statistic=w, chi2=chi2, dof=dof, pvalue=pv, epsilon=eps, alpha=alpha)


def _mauchly_pvalue(chi2, dof, factor, n, p, k):
    """The p-value of Mauchly's chi-square with Anderson's second-order term."""
    if not math.isfinite(chi2):
        return 0.0
    # second-order term of the chi-square approximation (Anderson 2003), with k rather
    # than p in one place as R's mauchly.test has it, so p-values agree with R
    w2 = (
        (p + 2)
        * (p - 1)
        * (p - 2)
        * (2 * p**3 + 6 * p**2 + 3 * k + 2)
        / (288 * ((n - 1) * p * (factor / (n - 1))) ** 2)
    )
    p1 = float(special.chdtrc(dof, chi2))
    return p1 + w2 * (float(special.chdtrc(dof + 4, chi2)) - p1)


def _table(scores, *, methods, datasets, nan_policy, metric):
    # the same loading as compare(), so that both accept the same inputs
    tables = as_score_tables(
        scores, methods=methods, datasets=datasets, nan_policy=nan_policy, metric=metric
    )
    return single_table(tables)


def _rm_anova_table(table, *, higher_is_better, alpha):
    x = table.values
    refuse_large("repeated-measures ANOVA", x)
    n, k = x.shape
    check_pairwise_size(k, "repeated-measures ANOVA")
    if n < 2 or k < 2:
        raise CdplotError(
            f"repeated-measures ANOVA needs at least 2 methods and 2 data sets, got {k} and {n}"
        )
    grand = x.mean()
    col = x.mean(axis=0)
    row = x.mean(axis=1)
    ss_m = float(n * ((col - grand) ** 2).sum())
    ss_s = float(k * ((row - grand) ** 2).sum())
    ss_e = float(((x - grand) ** 2).sum()) - ss_m - ss_s
    df1, df2 = k - 1, (k - 1) * (n - 1)
    if ss_e <= 1e-12 * max(1.0, ss_m + ss_s):
        raise CdplotError(
            "the ANOVA error variance is zero: each method differs from the others by the same "
            "amount on every data set, so F is undefined (the ordering is perfectly consistent)"
        )
    ms_e = ss_e / df2
    f = (ss_m / df1) / ms_e
    p = float(special.fdtrc(df1, df2, f))
    sph = mauchly(x, alpha=alpha)
    p_gg = None
    if math.isfinite(sph.epsilon):
        p_gg = float(special.fdtrc(sph.epsilon * df1, sph.epsilon * df2, f))
    try:
        norm = shapiro_residuals(x, alpha=alpha)
    except CdplotError:
        norm = None
    tukey = _tukey(col, ms_e, n, df2, table.methods, alpha, higher_is_better)
    notes = list(table.notes)
    return AnovaResult(
        design="repeated-measures",
        statistic=f,
        pvalue=p,
        dof=(df1, df2),
        ss_effect=ss_m,
        ss_subjects=ss_s,
        ss_error=ss_e,
        ms_error=ms_e,
        methods=table.methods,
        means=col,
        n_methods=k,
        n_datasets=n,
        alpha=alpha,
        higher_is_better=higher_is_better,
        tukey=tukey,
        normality=norm,
        sphericity=sph,
        pvalue_gg=p_gg,
        scores=table,
        notes=tuple(notes),
    )


@share
def rm_anova(
    scores: ScoresLike,
    *,
    higher_is_better: bool | None = None,
    alpha: float = 0.05,
    nan_policy: NanPolicy = "raise",
    metric: str | None = None,
    methods: Sequence[str] | None = None,
    datasets: Sequence[str] | None = None,
) -> AnovaResult:
    """Repeated-measures ANOVA of methods over data sets, with Tukey's HSD and assumption checks.

    Parameters
    ----------
    %(scores)s
    %(higher_is_better)s
        It gives the word "better" in the conclusion.
    %(alpha)s
        It is the level of the F-test, Tukey's HSD and the checks.
    %(nan_policy)s
    %(metric)s
    %(methods_datasets)s

    Returns
    -------
    AnovaResult
        ``design='repeated-measures'``, with the Shapiro-Wilk test of the
        residuals, Mauchly's test and the Greenhouse-Geisser p-value.

    Raises
    ------
    CdplotError
        Bad input, or zero error variance.

    Notes
    -----
    Data sets are the subjects and methods the within-subject factor.
    Tukey's HSD uses the ANOVA error mean square with ``(k - 1)(N - 1)``
    degrees of freedom, as Demšar (2006, section 3.2.1) describes.

    References
    ----------
    .. [1] J. Demšar, "Statistical comparisons of classifiers over multiple
           data sets", JMLR 7 (2006) 1-30, section 3.2.1.

    Examples
    --------
    >>> import cdplot
    >>> r = rm_anova(cdplot.load_example("demsar2006"))
    >>> r.dof, round(r.statistic, 4), round(r.pvalue, 4)
    ((3, 39), 4.4472, 0.0088)
    """
    check_option("nan_policy", nan_policy, NAN_POLICIES)
    alpha = check_alpha(alpha)
    if higher_is_better is not None:
        check_bool("higher_is_better", higher_is_better)
    table = _table(scores, methods=methods, datasets=datasets, nan_policy=nan_policy, metric=metric)
    decided = resolve_direction(table, higher_is_better)
    out = _rm_anova_table(table, higher_is_better=decided.higher_is_better, alpha=alpha)
    return replace(out, notes=(*out.notes, decided.note))  # the direction and why


# ---------------------------------------------------------------------------
# test='auto'
# ---------------------------------------------------------------------------


@result
class AutoResult(Result):
    """The analysis ``test='auto'`` chose, with the checks that decided it.

    Attributes
    ----------
    path : {'parametric', 'nonparametric'}
    reason : str
        Why, in words, with the numbers of the checks.
    normality : ShapiroResult or None
        ``None`` when it could not be run (the reason says why).
    sphericity : MauchlyResult
    analysis : AnovaResult or ComparisonResult
        The chosen analysis.
    alpha : float
    """

    path: str
    reason: str
    normality: ShapiroResult | None
    sphericity: MauchlyResult
    analysis: AnovaResult | ComparisonResult
    alpha: float

    @property
    def methods(self) -> tuple[str, ...]:
        """The methods, in input order."""
        return self.analysis.methods

    def index(self, method: str) -> int:
        """Position of ``method``; raises :class:`CdplotError` for unknown names."""
        return self.analysis.index(method)

    def order(self) -> tuple[str, ...]:
        """Method names from the best to the worst, by the chosen analysis."""
        return self.analysis.order()

    def pvalue(self, a: str, b: str) -> float:
        """The chosen analysis' p-value of ``a`` against ``b`` (Tukey's on the parametric path)."""
        if isinstance(self.analysis, AnovaResult):
            return self.analysis.tukey.pvalue(a, b)
        return self.analysis.pvalue(a, b)

    def is_significant(self, a: str, b: str) -> bool:
        """Whether the chosen analysis finds ``a`` and ``b`` different."""
        return self.analysis.is_significant(a, b)

    def _headline(self) -> str:
        return f"{self.path}, {self.analysis._headline()}"

    @property
    def scores(self) -> ScoreTable:
        """The table analysed."""
        return self.analysis.scores

    @property
    def effect_sizes(self) -> EffectSizes:
        """The chosen analysis' effect sizes: Cohen's d first on the parametric path,
        Cliff's δ on the rank-based one."""
        return self.analysis.effect_sizes

    @property
    def metric(self) -> str | None:
        """The measure analysed, if the table names it."""
        return self.analysis.metric

    def conclusion(self) -> str:
        """The choice and the chosen analysis' conclusion, in words."""
        return f"{self.reason} {self.analysis.conclusion()}"

    def __str__(self) -> str:
        checks = [
            str(self.normality)
            if self.normality is not None
            else "Shapiro-Wilk test of the residuals: not run",
            str(self.sphericity),
        ]
        return "\n".join(
            [
                "Choice of analysis (compare_auto)",
                *checks,
                "",
                *wrap(self.reason),
                "",
                "=" * 72,
                "",
                str(self.analysis),
            ]
        )

    def to_dict(self, *, matrices: bool | None = None) -> dict:
        """Return a JSON-safe dictionary (``effect_sizes`` at the top level).

        Parameters
        ----------
        matrices : bool, optional
            As the analysis' ``to_dict`` (default: the k x k tables up to
            :data:`~cdplot.stats._resultkit.JSON_MATRIX_MAX_METHODS` methods).
        """
        analysis = self.analysis.to_dict(matrices=matrices)
        return {
            "test": "auto",
            "path": self.path,
            "reason": self.reason,
            "alpha": self.alpha,
            "normality": None if self.normality is None else self.normality.to_dict(),
            "sphericity": self.sphericity.to_dict(),
            "analysis": analysis,
            "conclusion": self.conclusion(),
            # at the top level, as for compare's results (moved, not copied: k x k tables)
            "effect_sizes": analysis.pop("effect_sizes"),
        }


@share
def compare_auto(
    scores: ScoresLike,
    *,
    higher_is_better: bool | None = None,
    alpha: float = 0.05,
    correction: Correction | None = None,
    control: str | None = None,
    tie_correction: bool = True,
    zero_method: ZeroMethod = "demsar",
    method: NullMethod = "auto",
    nan_policy: NanPolicy = "raise",
    metric: str | None = None,
    methods: Sequence[str] | None = None,
    datasets: Sequence[str] | None = None,
) -> AutoResult:
    """Choose ANOVA/Tukey or Friedman/Nemenyi from assumption checks on the data.

    The parametric path (repeated-measures ANOVA with Tukey's HSD) is taken
    only when the Shapiro-Wilk test does not reject normality of the
    residuals and Mauchly's test does not reject sphericity, both at
    ``alpha``; otherwise, or when a check cannot be run, the rank-based
    analysis of :func:`cdplot.compare` is used (Nemenyi; Bonferroni-Dunn
    with ``control``; the rank z-tests with ``correction``, against
    ``control`` when both are given).

    Parameters
    ----------
    %(scores)s
    %(higher_is_better)s
    %(alpha)s
        It is the level of the checks and of the chosen analysis.
    correction : str, optional
        On the rank-based path, the rank z-tests (``test='friedman-z'``)
        with this correction, against ``control`` when one is given; the
        parametric path's Tukey HSD needs none and says so in its notes.
        ``'shaffer'`` and ``'bergmann'`` need all pairs, so with ``control``
        they are refused up front, on both paths, with the message
        :func:`cdplot.compare` gives.
    control : str, optional
        On the rank-based path, Bonferroni-Dunn against this method (or,
        with ``correction``, the corrected rank z-tests against it);
        Tukey's HSD compares all pairs and says the control was not used.
    tie_correction, zero_method, method, nan_policy, metric, methods, datasets
        As in :func:`cdplot.compare`.

    Returns
    -------
    AutoResult

    Raises
    ------
    CdplotError
        For bad input or options, as :func:`cdplot.compare`.

    Notes
    -----
    autorank (Herbold 2020) makes the same choice from normality and
    homoscedasticity checks; here sphericity, the assumption of
    repeated-measures ANOVA, replaces homoscedasticity.  Failing to reject
    an assumption is not evidence that it holds: with few data sets the
    checks have little power, and the rank-based path stays the safer
    default (Demšar 2006).

    References
    ----------
    .. [1] S. Herbold, "Autorank: a Python package for automated ranking of
           classifiers", JOSS 5(48) (2020) 2173.

    Examples
    --------
    >>> import cdplot
    >>> r = compare_auto(cdplot.load_example("demsar2006"))
    >>> r.path
    'nonparametric'
    """
    check_option("nan_policy", nan_policy, NAN_POLICIES)
    alpha = check_alpha(alpha)
    # checked before the data choose a path, so that an option is refused (or
    # accepted) whatever the assumption checks find
    correction = check_option("correction", correction, CORRECTIONS, allow_none=True)
    check_control_correction(control, correction)
    if higher_is_better is not None:
        check_bool("higher_is_better", higher_is_better)
    table = _table(scores, methods=methods, datasets=datasets, nan_policy=nan_policy, metric=metric)
    if control is not None and control not in table.methods:
        raise CdplotError(
            f"option {opt('control', control)} is not a method; methods are "
            f"{', '.join(table.methods)}",
            option="control",
        )
    decided = resolve_direction(table, higher_is_better)
    hib = decided.higher_is_better
    x = table.values
    # Mauchly's test builds k x k matrices before either path does
    check_pairwise_size(x.shape[1])
    # both checks are scale free: scale huge scores (exactly, by a power of two)
    # so that their covariances and residuals stay finite
    scale = pow2_scale(x)
    sph = mauchly(x * scale, alpha=alpha)
    norm_err = None
    try:
        norm = shapiro_residuals(x * scale, alpha=alpha)
    except CdplotError as e:
        norm, norm_err = None, str(e)
    parametric, reason = _choose_path(x, scale, norm, norm_err, sph, alpha)
    if parametric:
        analysis = _anova_path(table, hib, alpha, decided.note, control, correction)
        return AutoResult(
            path="parametric",
            reason=reason,
            normality=norm,
            sphericity=sph,
            analysis=analysis,
            alpha=alpha,
        )
    if control is not None and correction is None:
        test = "bonferroni-dunn"
    elif correction is not None:
        # rank z-tests, against the control when one is given, with the correction
        test = "friedman-z"
    else:
        test = "nemenyi"
    analysis = compare_table(
        table,
        higher_is_better=higher_is_better,
        alpha=alpha,
        test=test,
        correction=correction,
        control=control,
        tie_correction=tie_correction,
        zero_method=zero_method,
        method=method,
        nan_policy=nan_policy,
    )
    return AutoResult(
        path="nonparametric",
        reason=reason,
        normality=norm,
        sphericity=sph,
        analysis=analysis,
        alpha=alpha,
    )


def _choose_path(x, scale, norm, norm_err, sph, alpha) -> tuple[bool, str]:
    """Whether repeated-measures ANOVA may be used, and why (or why not), in words."""
    if scale != 1.0:
        return False, (
            f"The rank-based analysis was chosen because scores as large as "
            f"{float(np.max(np.abs(x))):.3g} make ANOVA's sums of squares overflow."
        )
    if norm is None:
        return False, (
            "The rank-based analysis was chosen because normality "
            f"could not be checked ({norm_err})."
        )
    if norm.rejected:
        return False, (
            f"The rank-based analysis was chosen because the Shapiro-Wilk test rejects "
            f"normality of the ANOVA residuals (W = {norm.statistic:.4f}, "
            f"{format_p(norm.pvalue, prefix=True)} "
            f"<= alpha = {alpha:g})."
        )
    if not sph.testable:
        return False, (
            f"The rank-based analysis was chosen because sphericity could not be checked "
            f"({sph.note}); the residuals look normal "
            f"(Shapiro-Wilk {format_p(norm.pvalue, prefix=True)})."
        )
    if sph.rejected:
        return False, (
            f"The rank-based analysis was chosen because Mauchly's test rejects sphericity "
            f"(W = {sph.statistic:.4f}, {format_p(sph.pvalue, prefix=True)} <= "
            f"alpha = {alpha:g}), although "
            f"the residuals look normal (Shapiro-Wilk {format_p(norm.pvalue, prefix=True)})."
        )
    sph_text = (
        "sphericity holds trivially with two methods"
        if sph.dof == 0
        else f"Mauchly's test does not reject sphericity ({format_p(sph.pvalue, prefix=True)})"
    )
    return True, (
        f"Repeated-measures ANOVA with Tukey's HSD was chosen because the Shapiro-Wilk "
        f"test does not reject normality of the residuals (W = {norm.statistic:.4f}, "
        f"{format_p(norm.pvalue, prefix=True)} > alpha = {alpha:g}) and {sph_text}."
    )


def _anova_path(table, hib, alpha, direction_note, control, correction):
    """Repeated-measures ANOVA with Tukey's HSD, noting the options it does not use."""
    analysis = _rm_anova_table(table, higher_is_better=hib, alpha=alpha)
    extra = [direction_note]
    if control is not None:
        extra.append(f"Tukey's HSD compares all pairs; the control {control} was not used.")
    if correction is not None:
        extra.append(f"Tukey's HSD needs no correction; correction={correction!r} was not used.")
    return replace(analysis, notes=(*analysis.notes, *extra))
