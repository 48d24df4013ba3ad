"""Two methods over many data sets: paired t, Wilcoxon signed-rank and sign tests together.

Demšar (2006, section 3.1) compares the three: the paired t-test assumes
normal differences that are commensurable across data sets; the sign test
counts wins and needs many data sets; the Wilcoxon signed-rank test ranks
the differences and is his recommendation.  :func:`compare_pair` runs all
three on one table, with the wins, ties and losses and Demšar's critical
number of wins, and optionally the Bayesian signed-rank test with a rope,
and says in words what they conclude.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import field

import numpy as np
from numpy.typing import ArrayLike
from scipy import special

from .._docstrings import share
from .._options import (
    NAN_POLICIES,
    NULL_METHODS,
    ZERO_METHODS,
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
from ._bayesian import BayesianSignedRankResult, bayesian_signed_rank
from ._compare import single_table
from ._formatting import format_p
from ._resultkit import Result, notes_lines, num, readonly, result, wrap
from ._sign_test import SignTestResult, critical_wins, sign_test
from ._validate import pow2_scale, stable_mean
from ._wilcoxon import WilcoxonResult, wilcoxon

__all__ = ["PairedTTestResult", "PairResult", "paired_ttest", "compare_pair"]


@result
class PairedTTestResult(Result):
    """Paired t-test of the differences over data sets.

    Attributes
    ----------
    statistic : float
        ``t = mean(d) / (sd(d) / sqrt(N))``.
    pvalue : float
        Two-sided.
    dof : int
        ``N - 1``.
    mean_difference : float
        ``mean(x - y)``.
    standard_error : float
        ``sd(d) / sqrt(N)``.

    The statistic and p-value are NaN when the test is undefined (the
    differences have zero variance); :func:`compare_pair` says why in its notes.
    """

    statistic: float
    pvalue: float
    dof: int
    mean_difference: float
    standard_error: float

    @property
    def defined(self) -> bool:
        """Whether the statistic could be computed (the differences vary)."""
        return not math.isnan(self.statistic)

    def _headline(self) -> str:
        return f"t({self.dof}) = {self.statistic:.4f}, {format_p(self.pvalue, prefix=True)}"

    def __str__(self) -> str:
        if not self.defined:
            return f"paired t-test: t({self.dof}) undefined (the differences do not vary)"
        return f"paired t-test: {self._headline()}"

    def to_dict(self) -> dict:
        """Return a JSON-safe dictionary."""
        return {
            "statistic": num(self.statistic),
            "pvalue": num(self.pvalue),
            "dof": int(self.dof),
            "mean_difference": num(self.mean_difference),
            "standard_error": num(self.standard_error),
        }


def paired_ttest(x: ArrayLike, y: ArrayLike) -> PairedTTestResult:
    """Paired t-test of two methods over data sets (``scipy.stats.ttest_rel``).

    Parameters
    ----------
    x, y : array_like, shape (N,)
        Scores of the two methods on the same data sets.

    Returns
    -------
    PairedTTestResult

    Raises
    ------
    CdplotError
        Different lengths, fewer than two data sets, non-finite scores, or
        differences with zero variance (the t statistic is then undefined:
        the two methods differ by exactly the same amount everywhere).

    References
    ----------
    .. [1] J. Demšar, JMLR 7 (2006) 1-30, section 3.1.1.

    Examples
    --------
    >>> r = paired_ttest([0.9, 0.8, 0.85, 0.7], [0.85, 0.78, 0.80, 0.71])
    >>> round(r.statistic, 4), round(r.pvalue, 4)
    (1.9149, 0.1514)
    """
    x = np.asarray(x, dtype=float).ravel()
    y = np.asarray(y, dtype=float).ravel()
    if x.size != y.size:
        raise CdplotError(f"x and y must have the same length; got {x.size} and {y.size}")
    if x.size < 2:
        raise CdplotError(f"the paired t-test needs at least 2 data sets, got {x.size}")
    if not (np.all(np.isfinite(x)) and np.all(np.isfinite(y))):
        raise CdplotError("every data set needs a finite score for both methods")
    # scores near the ends of the float range (|x| >= 2**500) are scaled by a
    # power of two: t is scale free, and the differences and squares stay finite
    s = pow2_scale(x, y)
    d = x * s - y * s
    if np.ptp(d) == 0:
        if d[0] == 0:
            raise CdplotError(
                "the two methods have identical scores on every data set, so there "
                "is no difference to test (zero variance)"
            )
        raise CdplotError(
            f"the difference is {d[0] / s:.6g} on every data set: zero variance, so the "
            "paired t statistic is undefined (the difference is perfectly consistent)"
        )
    n = d.size
    se = d.std(ddof=1) / math.sqrt(n)
    t = d.mean() / se
    with np.errstate(over="ignore"):  # an overflow is reported below, in words
        mean_difference, standard_error = float(d.mean() / s), float(se / s)
    if not (math.isfinite(mean_difference) and math.isfinite(standard_error)):
        raise CdplotError(
            "the mean difference of the scores is beyond the float range (about 1.8e308), "
            "so the paired t-test cannot report it; rescale the scores"
        )
    return PairedTTestResult(
        statistic=float(t),
        pvalue=float(2 * special.stdtr(n - 1, -abs(t))),
        dof=n - 1,
        mean_difference=float(mean_difference),
        standard_error=float(standard_error),
    )


@result
class PairResult(Result):
    """Two methods compared over data sets with the paired t, Wilcoxon and sign tests.

    Attributes
    ----------
    method_a, method_b : str
    datasets : tuple of str
    n_datasets : int
    higher_is_better : bool
    alpha : float
    scores_a, scores_b : ndarray, shape (N,)
        Read-only.
    wins, ties, losses : int
        Data sets on which A is better than, equal to and worse than B.
    ttest : PairedTTestResult
        With a NaN statistic and p-value when undefined (zero variance);
        ``notes`` says why.
    wilcoxon : WilcoxonResult
        Oriented so that ``r_plus`` sums the ranks where A is better.
    sign : SignTestResult
        Oriented so that ``wins`` are A's.
    critical_wins : int
        Wins (counting half the ties) A or B needs for the sign test to be
        significant at ``alpha`` (Demšar 2006, Table 3).
    bayes : BayesianSignedRankResult or None
        With ``rope`` given.
    zero_method, distribution : str
        The Wilcoxon options (``distribution`` is the ``method`` argument, the
        null distribution asked for).
    scores : ScoreTable or None
    notes : tuple of str
    """

    method_a: str
    method_b: str
    datasets: tuple[str, ...]
    n_datasets: int
    higher_is_better: bool
    alpha: float
    scores_a: np.ndarray
    scores_b: np.ndarray
    wins: int
    ties: int
    losses: int
    ttest: PairedTTestResult
    wilcoxon: WilcoxonResult
    sign: SignTestResult
    critical_wins: int
    bayes: BayesianSignedRankResult | None = None
    zero_method: str = "demsar"
    distribution: str = "auto"
    scores: ScoreTable | None = None
    notes: tuple[str, ...] = field(default=())

    def __post_init__(self):
        object.__setattr__(self, "scores_a", readonly(self.scores_a))
        object.__setattr__(self, "scores_b", readonly(self.scores_b))
        object.__setattr__(self, "datasets", tuple(self.datasets))
        object.__setattr__(self, "notes", tuple(self.notes))

    @property
    def metric(self) -> str | None:
        """The measure compared, if the table names it."""
        return None if self.scores is None else self.scores.metric

    @property
    def methods(self) -> tuple[str, str]:
        """``(method_a, method_b)``."""
        return (self.method_a, self.method_b)

    def _headline(self) -> str:
        return (
            f"{self.method_a} vs {self.method_b} on {self.n_datasets} data sets, "
            f"Wilcoxon {format_p(self.wilcoxon.pvalue, prefix=True, space='')}"
        )

    def _verdict(self, p) -> str:
        return "significant" if p <= self.alpha else "not significant"

    def conclusion(self) -> str:
        """The conclusion in words, with the numbers (the Wilcoxon test decides, per Demšar)."""
        a, b = self.method_a, self.method_b
        w = self.wilcoxon
        # r_plus sums the ranks of the data sets where A is better
        better = a if w.r_plus > w.r_minus else b
        worse = b if better == a else a
        out = []
        if w.pvalue <= self.alpha:
            out.append(
                f"{better} is significantly better than {worse} over {self.n_datasets} data "
                f"sets by the Wilcoxon signed-rank test (R+ = {w.r_plus:g}, R- = "
                f"{w.r_minus:g}, {format_p(w.pvalue, prefix=True)}, alpha = {self.alpha:g})."
            )
        else:
            out.append(
                f"The Wilcoxon signed-rank test finds no significant difference between "
                f"{a} and {b} over {self.n_datasets} data sets (R+ = {w.r_plus:g}, "
                f"R- = {w.r_minus:g}, {format_p(w.pvalue, prefix=True)}, alpha = {self.alpha:g})."
            )
        half = self.ties // 2
        top = max(self.wins, self.losses) + half
        leader = a if self.wins > self.losses else b
        if self.wins == self.losses:
            sign_text = (
                f"{a} and {b} win equally often ({self.wins} wins each, {self.ties} ties), "
                "so the sign test finds no difference"
            )
        else:
            reach = "reaches" if top >= self.critical_wins else "does not reach"
            sign_text = (
                f"{leader} wins on {top} of {self.n_datasets} data sets counting half the "
                f"ties ({self.wins}/{self.ties}/{self.losses} wins/ties/losses for {a}), "
                f"which {reach} Demšar's critical count of {self.critical_wins} for "
                f"alpha = {self.alpha:g} (his normal approximation; the exact binomial "
                f"sign test gives {format_p(self.sign.pvalue, prefix=True)})"
            )
        # it starts with a method's name, which is data: never capitalised
        out.append(sign_text + ".")
        t = self.ttest
        if t.defined:
            out.append(
                f"The paired t-test is {self._verdict(t.pvalue)} (t({t.dof}) = "
                f"{t.statistic:.4f}, {format_p(t.pvalue, prefix=True)}), but it assumes normal "
                "differences that are commensurable across data sets."
            )
        if self.bayes is not None:
            out.append(self.bayes.conclusion())
        return " ".join(out)

    def __str__(self) -> str:
        a, b = self.method_a, self.method_b
        title = f"{a} vs {b} over {self.n_datasets} data sets"
        if self.metric:
            title += f" ({self.metric}, {'higher' if self.higher_is_better else 'lower'} is better)"
        else:
            title += f" ({'higher' if self.higher_is_better else 'lower'} is better)"
        w = self.wilcoxon
        lines = [
            title,
            "",
            f"mean {a} = {_fmt_mean(self.scores_a)}, mean {b} = {_fmt_mean(self.scores_b)}",
            f"wins/ties/losses of {a}: {self.wins}/{self.ties}/{self.losses}",
            str(self.ttest),
            f"Wilcoxon signed-rank ({self.zero_method}, {w.distribution}): R+ = {w.r_plus:g}, "
            f"R- = {w.r_minus:g}, T = {w.statistic:g}, {format_p(w.pvalue, prefix=True)}",
            f"sign test: {self.sign.statistic} of {self.sign.n} after splitting ties, "
            f"{format_p(self.sign.pvalue, prefix=True)}; critical count {self.critical_wins} "
            f"(alpha = {self.alpha:g}, N = {self.n_datasets})",
        ]
        if self.bayes is not None:
            pa, pe, pb = self.bayes.probabilities
            lines.append(
                f"Bayesian signed-rank (rope = {self.bayes.rope:g}): P({a} better) = "
                f"{pa:.3f}, P(rope) = {pe:.3f}, P({b} better) = {pb:.3f}"
            )
        lines += ["", *wrap(self.conclusion()), *notes_lines(self.notes)]
        return "\n".join(lines)

    def to_dict(self) -> dict:
        """Return a JSON-safe dictionary."""
        return {
            "test": "pair",
            "method_a": self.method_a,
            "method_b": self.method_b,
            "metric": self.metric,
            "datasets": list(self.datasets),
            "n_datasets": int(self.n_datasets),
            "higher_is_better": self.higher_is_better,
            "alpha": self.alpha,
            "scores_a": [float(v) for v in self.scores_a],
            "scores_b": [float(v) for v in self.scores_b],
            "wins": self.wins,
            "ties": self.ties,
            "losses": self.losses,
            "ttest": self.ttest.to_dict(),
            "wilcoxon": self.wilcoxon.to_dict(),
            "sign": {**self.sign.to_dict(), "critical_wins": int(self.critical_wins)},
            "distribution": self.distribution,
            "bayes": None if self.bayes is None else self.bayes.to_dict(),
            "source": None if self.scores is None else self.scores.source,
            "notes": list(self.notes),
            "conclusion": self.conclusion(),
        }


def _fmt_mean(x) -> str:
    # stable_mean never overflows; large means in scientific notation, not "inf"
    m = stable_mean(x)
    return f"{m:.4f}" if abs(m) < 1e9 else f"{m:.6g}"


def _validate_pair(table, methods):
    names = table.methods
    if methods is None:
        if len(names) == 2:
            return names
        raise CdplotError(
            f"option methods is required with {len(names)} methods: name two of "
            f"{', '.join(names)}, e.g. {opt('methods', (names[0], names[1]))}",
            option="methods",
        )
    if isinstance(methods, str) or len(methods) != 2:
        raise CdplotError(
            f"option {opt('methods', methods)} must name exactly two methods", option="methods"
        )
    a, b = methods
    for m in (a, b):
        if m not in names:
            raise CdplotError(
                f"option methods: {m!r} is not a method; methods are {', '.join(names)}"
            )
    if a == b:
        raise CdplotError(f"option methods names {a!r} twice; compare two different methods")
    return a, b


@share
def compare_pair(
    scores: ScoresLike,
    *,
    methods: Sequence[str] | None = None,
    higher_is_better: bool | None = None,
    alpha: float = 0.05,
    zero_method: ZeroMethod = "demsar",
    method: NullMethod = "auto",
    rope: float | None = None,
    prior_strength: float = 0.5,
    n_samples: int = 50_000,
    rng: int | np.random.Generator = 0,
    nan_policy: NanPolicy = "raise",
    metric: str | None = None,
    datasets: Sequence[str] | None = None,
) -> PairResult:
    """Compare two methods over many data sets with the paired t, Wilcoxon and sign tests.

    Parameters
    ----------
    %(scores)s
        Two methods at least; repeated (per-fold) scores are averaged per data
        set by the reader, and its notes say so.
    methods : pair of str, optional
        The two methods to compare, ``(a, b)``; with exactly two methods in
        the data they default to those, in order.  For an unlabelled array
        of two columns they name the columns.
    %(higher_is_better)s
    %(alpha)s
    %(zero_method)s
    %(null_method)s
    rope : float, optional
        With a rope (``>= 0``), also run the Bayesian signed-rank test.
    prior_strength, n_samples, rng
        Options of :func:`cdplot.stats.bayesian_signed_rank`.
    %(nan_policy)s
    %(metric)s
    datasets : sequence of str, optional
        Names of the rows of an unlabelled array, or the data sets to keep.

    Returns
    -------
    PairResult

    Raises
    ------
    CdplotError
        Unknown or equal method names, fewer than two data sets, bad options.

    References
    ----------
    .. [1] J. Demšar, "Statistical comparisons of classifiers over multiple
           data sets", JMLR 7 (2006) 1-30, section 3.1 and Tables 2-3.

    Examples
    --------
    >>> import cdplot
    >>> r = compare_pair(cdplot.load_example("demsar2006"), methods=("C4.5+m", "C4.5"))
    >>> r.wins, r.ties, r.losses, round(r.wilcoxon.pvalue, 6)
    (10, 2, 2, 0.010968)
    """
    alpha = check_alpha(alpha)
    check_option("zero_method", zero_method, ZERO_METHODS)
    check_option("method", method, NULL_METHODS)
    check_option("nan_policy", nan_policy, NAN_POLICIES)
    if higher_is_better is not None:
        check_bool("higher_is_better", higher_is_better)
    if methods is not None and (isinstance(methods, str) or len(methods) != 2):
        raise CdplotError(
            f"option {opt('methods', methods)} must name exactly two methods", option="methods"
        )
    tables = as_score_tables(
        scores, methods=methods, datasets=datasets, nan_policy=nan_policy, metric=metric
    )
    table = single_table(tables)
    a, b = _validate_pair(table, methods)
    decided = resolve_direction(table, higher_is_better)
    hib = decided.higher_is_better
    xa = table.values[:, table.methods.index(a)]
    xb = table.values[:, table.methods.index(b)]
    n = xa.size
    if n < 2:
        raise CdplotError(
            f"comparing two methods over data sets needs at least 2 data sets, got {n}"
        )
    # orient so that "higher" means "better" for the rank and sign tests
    oa, ob = (xa, xb) if hib else (-xa, -xb)
    notes = [*table.notes, decided.note]  # the direction and why, in every output
    tt, undefined = _ttest(oa, ob)
    if undefined:
        notes.append(undefined)
    wil = wilcoxon(oa, ob, zero_method=zero_method, method=method)
    sg = sign_test(oa, ob)
    crit = int(critical_wins(n, alpha))
    bayes = None
    if rope is not None:
        bayes = bayesian_signed_rank(
            xa,
            xb,
            rope=rope,
            prior_strength=prior_strength,
            n_samples=n_samples,
            rng=rng,
            higher_is_better=hib,
            methods=(a, b),
            datasets=table.datasets,
        )
    too_few = _too_few_for_sign_test(n, alpha, crit)
    if too_few:
        notes.append(too_few)
    return PairResult(
        method_a=a,
        method_b=b,
        datasets=table.datasets,
        n_datasets=n,
        higher_is_better=hib,
        alpha=alpha,
        scores_a=xa,
        scores_b=xb,
        wins=sg.wins,
        ties=sg.ties,
        losses=sg.losses,
        ttest=tt,
        wilcoxon=wil,
        sign=sg,
        critical_wins=crit,
        bayes=bayes,
        zero_method=zero_method,
        distribution=method,
        scores=table,
        notes=tuple(notes),
    )


def _ttest(oa, ob) -> tuple[PairedTTestResult, str | None]:
    """The paired t-test, or a NaN one and the note saying why it is undefined."""
    try:
        return paired_ttest(oa, ob), None
    except CdplotError as e:
        # undefined, not an error: the rank tests still answer, and every output
        # (text, JSON, report) shows a NaN statistic with this note
        # scaled by a power of two (exact), as paired_ttest does, so that scores near
        # the float limit give their difference instead of an overflow
        sc = pow2_scale(oa, ob)
        with np.errstate(over="ignore"):
            d = float(np.mean(oa * sc - ob * sc) / sc)
        tt = PairedTTestResult(
            statistic=math.nan,
            pvalue=math.nan,
            dof=oa.size - 1,
            mean_difference=d,
            standard_error=0.0,
        )
        return tt, f"The paired t-test is undefined: {e}."


def _too_few_for_sign_test(n: int, alpha: float, crit: int) -> str | None:
    """The note when no count of wins of ``n`` makes the exact sign test significant."""
    # the smallest two-sided p-value of the exact sign test: one method wins everywhere
    best_p = min(1.0, 2.0 * 0.5**n)
    if best_p <= alpha:
        return None
    text = (
        f"With {n} data sets the exact sign test cannot reject at alpha = {alpha:g} "
        f"whatever the wins: even {n} wins of {n} give p = {best_p:.4f}."
    )
    if crit <= n:
        text += (
            f" Demšar's normal approximation (his Table 3) would call {crit} of {n} wins "
            "significant; the exact p-value is the one to trust at this size."
        )
    return text
