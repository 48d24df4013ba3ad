"""Two methods on one data set: t- and F-tests on per-fold cross-validation scores.

The scores of two methods on the folds of one cross-validation are not
independent samples: training sets overlap, so the fold differences are
positively correlated and the textbook paired t-test understates their
variance.  Each test here fits one way of producing the folds, and the
input must say which (``scheme``):

``'kfold'``
    One run of k-fold cross-validation (k from the data).
``'RxK'``, e.g. ``'10x10'``, ``'5x2'``
    ``R`` independent repetitions of ``K``-fold cross-validation; ``'5x2'``
    is Dietterich's five replications of two-fold cross-validation.
``'blocked-mx2'``, e.g. ``'blocked-3x2'``
    ``m`` replications of two-fold cross-validation whose partitions are
    blocked so that the test sets of any two replications share exactly
    half their examples (Wang et al. 2014).
``'resampled'``
    Independent random training/test splits (give ``n_train``, ``n_test``).

============== ================================================ ==================
test           procedure                                        schemes
============== ================================================ ==================
``kfold-t``    paired t over k-fold CV (Yang, formula (23))     ``kfold``
``corrected-t`` Nadeau & Bengio's corrected resampled t          all
               (Nadeau and Bengio 2003)
``5x2cv-t``    Dietterich's 5x2cv paired t                      ``5x2``
``5x2cv-f``    Alpaydin's 5x2cv combined F                      ``5x2``
``blocked-t``  Wang et al.'s blocked m x 2 CV t (Yang, (25))    ``blocked-mx2``
============== ================================================ ==================

A test whose scheme does not match the data is refused with a message that
names the tests that fit.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike
from scipy import special

from .._docstrings import share
from .._options import CV_TESTS, CVTest, check_alpha, check_bool, check_option
from ..errors import CdplotError, opt
from ..io._folds import FoldScores, fold_scores, read_fold_scores
from ._formatting import format_p
from ._resultkit import Result, notes_lines, num, readonly, result, wrap
from ._validate import refuse_large

__all__ = [
    "CV_TESTS",
    "CVScheme",
    "CVTestResult",
    "FoldScores",
    "parse_scheme",
    "fitting_tests",
    "cv_test",
    "kfold_ttest",
    "corrected_ttest",
    "dietterich_5x2cv_ttest",
    "alpaydin_5x2cv_ftest",
    "blocked_cv_ttest",
    "read_fold_scores",
    "fold_scores",
]

CV_TEST_LABELS = {
    "kfold-t": "k-fold cross-validated paired t-test",
    "corrected-t": "Nadeau-Bengio corrected resampled t-test",
    "5x2cv-t": "Dietterich's 5x2cv paired t-test",
    "5x2cv-f": "Alpaydin's 5x2cv combined F-test",
    "blocked-t": "blocked m x 2 cross-validated t-test",
}

_SCHEME_RE = re.compile(r"^(blocked-)?(\d+)x(\d+)$")


# ---------------------------------------------------------------------------
# schemes
# ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class CVScheme:
    """How the folds were produced.

    Attributes
    ----------
    kind : {'kfold', 'repeated', 'blocked', 'resampled'}
        One k-fold run, ``R`` independent repetitions of k-fold, blocked
        ``m x 2`` cross-validation, or independent random splits.
    n_repeats, n_folds : int or None
        ``R`` and ``K`` when the scheme names them (``'10x10'``); ``None``
        when they come from the data (``'kfold'``, ``'resampled'``).
    text : str
        The scheme as the user wrote it.
    """

    kind: str
    n_repeats: int | None
    n_folds: int | None
    text: str

    def __str__(self) -> str:
        return self.text


def parse_scheme(scheme) -> CVScheme:
    """Parse a scheme string (``'kfold'``, ``'10x10'``, ``'5x2'``, ``'blocked-3x2'``,
    ``'resampled'``).

    Parameters
    ----------
    scheme : str or CVScheme
        How the folds were produced (see the module docstring).

    Returns
    -------
    CVScheme

    Raises
    ------
    CdplotError
        For anything else, with the accepted spellings.
    """
    if isinstance(scheme, CVScheme):
        return scheme
    if not isinstance(scheme, str):
        raise CdplotError(
            f"option {opt('scheme', scheme)} is not valid; expected 'kfold', 'RxK' such as '10x10' "
            "or '5x2', 'blocked-mx2' such as 'blocked-3x2', or 'resampled'",
            option="scheme",
        )
    if scheme in ("kfold", "resampled"):
        return CVScheme(
            kind=scheme, n_repeats=1 if scheme == "kfold" else None, n_folds=None, text=scheme
        )
    m = _SCHEME_RE.match(scheme)
    if m is None:
        raise CdplotError(
            f"option {opt('scheme', scheme)} is not valid; expected 'kfold', 'RxK' such as '10x10' "
            "or '5x2', 'blocked-mx2' such as 'blocked-3x2', or 'resampled'",
            option="scheme",
        )
    blocked, r, k = m.group(1) is not None, int(m.group(2)), int(m.group(3))
    if r < 1:
        raise CdplotError(
            f"option {opt('scheme', scheme)} has {r} repetitions; at least 1 is needed",
            option="scheme",
        )
    if k < 2:
        raise CdplotError(
            f"option {opt('scheme', scheme)} has {k} fold{'s' if k != 1 else ''} per repetition; "
            f"cross-validation needs at least 2 (use {opt('scheme', 'resampled')} for random "
            "train/test splits)",
            option="scheme",
        )
    if blocked:
        if k != 2:
            raise CdplotError(
                f"option {opt('scheme', scheme)}: blocked cross-validation is m x 2 (two folds per "
                f"replication), not {r}x{k}",
                option="scheme",
            )
        if r < 2:
            raise CdplotError(
                f"option {opt('scheme', scheme)}: blocking needs at least 2 replications; one "
                f"2-fold run is {opt('scheme', '1x2')} (test 'kfold-t')",
                option="scheme",
            )
        return CVScheme(kind="blocked", n_repeats=r, n_folds=2, text=scheme)
    kind = "kfold" if r == 1 else "repeated"
    return CVScheme(kind=kind, n_repeats=r, n_folds=k, text=scheme)


def fitting_tests(scheme) -> tuple[str, ...]:
    """The tests of :data:`CV_TESTS` that fit a scheme, best suited first.

    Parameters
    ----------
    scheme : str or CVScheme
        How the folds were produced.

    Returns
    -------
    tuple of str

    Examples
    --------
    >>> fitting_tests("5x2")
    ('5x2cv-t', '5x2cv-f', 'corrected-t')
    >>> fitting_tests("blocked-3x2")
    ('blocked-t', 'corrected-t')
    """
    s = parse_scheme(scheme)
    if s.kind == "kfold":
        return ("corrected-t", "kfold-t")
    if s.kind == "repeated":
        if (s.n_repeats, s.n_folds) == (5, 2):
            return ("5x2cv-t", "5x2cv-f", "corrected-t")
        return ("corrected-t",)
    if s.kind == "blocked":
        return ("blocked-t", "corrected-t")
    return ("corrected-t",)


def _refuse(test: str, scheme: CVScheme) -> None:
    fits = fitting_tests(scheme)
    why = {
        "kfold-t": f"needs one run of k-fold cross-validation ({opt('scheme', 'kfold')}); "
        "repeated or overlapping runs make its variance far too small",
        "5x2cv-t": (
            f"needs five independent replications of two-fold cross-validation "
            f"({opt('scheme', '5x2')})"
        ),
        "5x2cv-f": (
            f"needs five independent replications of two-fold cross-validation "
            f"({opt('scheme', '5x2')})"
        ),
        "blocked-t": f"needs blocked m x 2 cross-validation ({opt('scheme', 'blocked-3x2')} or "
        "another 'blocked-mx2'); random replications do not have the equal overlaps it assumes",
    }[test]
    raise CdplotError(
        f"test {test!r} does not fit {opt('scheme', scheme.text)}: it {why}; for this scheme use "
        + " or ".join(repr(t) for t in fits),
        option="scheme",
    )


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------


def _as_scores(x, name):
    try:
        arr = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise CdplotError(f"{name}: expected numbers (one score per fold), got {x!r}") from None
    if arr.ndim == 0:
        raise CdplotError(
            f"{name}: expected one score per fold, got the single number {float(arr)!r}"
        )
    if arr.ndim > 2:
        raise CdplotError(
            f"{name}: expected a vector or a (repetitions, folds) array, got shape {arr.shape}"
        )
    bad = ~np.isfinite(arr)
    if bad.any():
        i = int(np.flatnonzero(bad.ravel())[0])
        raise CdplotError(
            f"{name}: score {i + 1} is {arr.ravel()[i]!r}; every fold needs a finite score"
        )
    return arr


def validate_sizes(n_train, n_test):
    out = []
    for name, v in (("n_train", n_train), ("n_test", n_test)):
        if v is None:
            out.append(None)
            continue
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
            raise CdplotError(
                f"option {opt(name, v)} must be a positive whole number of examples", option=name
            )
        out.append(int(v))
    return tuple(out)


def validate_pair_names(names):
    if names is None:
        return ("A", "B")
    if isinstance(names, str) or len(names) != 2:
        raise CdplotError(
            f"option {opt('methods', names)} must be two method names", option="methods"
        )
    a, b = (str(n) for n in names)
    if a == b:
        raise CdplotError(
            f"option {opt('methods', names)}: the two methods need different names",
            option="methods",
        )
    return a, b


def arrange(a, b, scheme: CVScheme, test: str):
    """Return the differences as an (R, K) array after checking them against the scheme."""
    a = _as_scores(a, "scores of A")
    b = _as_scores(b, "scores of B")
    if a.shape != b.shape:
        raise CdplotError(
            f"the two methods have different numbers of fold scores: {a.size} {a.shape} and "
            f"{b.size} {b.shape}; the folds must be paired"
        )
    n = a.size
    if n < 2:
        raise CdplotError(
            f"a single fold (n = {n}) gives no estimate of the variance of the difference; "
            "cross-validate with at least 2 folds"
        )
    if scheme.kind == "resampled":
        shape = (n, 1)
        if a.ndim == 2 and a.shape[1] != 1 and a.shape[0] != 1:
            raise CdplotError(
                f"{opt('scheme', 'resampled')} expects one score per random split, got a {a.shape} "
                f"array; for repeated k-fold give {opt('scheme', 'RxK')}",
                option="scheme",
            )
    elif scheme.n_folds is None:  # 'kfold': K from the data
        if a.ndim == 2 and a.shape[0] != 1:
            raise CdplotError(
                f"{opt('scheme', 'kfold')} is one k-fold run, but the scores form a {a.shape} "
                f"array of repetitions x folds; give {opt('scheme', f'{a.shape[0]}x{a.shape[1]}')}",
                option="scheme",
            )
        shape = (1, n)
    else:
        r, k = scheme.n_repeats, scheme.n_folds
        if n != r * k or (a.ndim == 2 and a.shape != (r, k)):
            got = f"{n} per method" + (
                f" in a {a.shape[0]}x{a.shape[1]} array" if a.ndim == 2 else ""
            )
            raise CdplotError(
                f"{opt('scheme', scheme.text)} means {r} repetition{'s' if r > 1 else ''} x {k} "
                f"folds = {r * k} scores per method, got {got}",
                option="scheme",
            )
        shape = (r, k)
    a2 = a.reshape(shape)
    b2 = b.reshape(shape)
    return a2, b2


def check_variance(d, test, names, what="the fold differences"):
    """Refuse, in words, a difference vector with no spread."""
    if np.ptp(d) == 0.0:
        a, b = names
        if d.flat[0] == 0.0:
            raise CdplotError(
                f"{a} and {b} have identical scores on every fold, so there is no difference to "
                f"test and {CV_TEST_LABELS.get(test, test)} is undefined (zero variance)"
            )
        raise CdplotError(
            f"{a} - {b} = {d.flat[0]:.6g} on every fold: {what} have zero variance, so the "
            f"{CV_TEST_LABELS.get(test, test)} is undefined (its statistic would be infinite); "
            "the difference is perfectly consistent across folds"
        )


# ---------------------------------------------------------------------------
# result
# ---------------------------------------------------------------------------


@result
class CVTestResult(Result):
    """A test of two methods on the folds of one data set.

    Attributes
    ----------
    test : str
        One of :data:`CV_TESTS`.
    statistic : float
        The t statistic (``'5x2cv-f'``: the F statistic).
    pvalue : float
        Two-sided p-value of the t-tests, upper-tail p-value of the F-test.
    dof : int or tuple of int
        Degrees of freedom; ``(10, 5)`` for the F-test.
    method_a, method_b : str
        The names; differences are ``a - b``.
    mean_a, mean_b : float
        Mean score of each method over all folds.
    mean_difference : float
        Mean of ``a - b`` over all folds.
    differences : ndarray, shape (R, K)
        ``a - b`` per repetition and fold, read-only.
    variance : float
        The variance estimate in the denominator (of the mean difference
        for the t-tests, ``sum s_i^2`` for the 5x2cv tests).
    scheme : str
        The cross-validation scheme, as given.
    n_repeats, n_folds : int
        ``R`` and ``K`` of the data (``K = 1`` for random splits).
    n_train, n_test : int or None
        Training and test set sizes, when given.
    rho : float or None
        The correlation used by the corrected t-test, ``n_test / (n_train + n_test)``.
    higher_is_better : bool
    alpha : float
    dataset : str or None
        The data set, when known.
    notes : tuple of str
        Remarks in words (assumptions, defaults that were used).
    """

    test: str
    statistic: float
    pvalue: float
    dof: int | tuple[int, int]
    method_a: str
    method_b: str
    mean_a: float
    mean_b: float
    mean_difference: float
    differences: np.ndarray
    variance: float
    scheme: str
    n_repeats: int
    n_folds: int
    n_train: int | None = None
    n_test: int | None = None
    rho: float | None = None
    higher_is_better: bool = True
    alpha: float = 0.05
    dataset: str | None = None
    notes: tuple[str, ...] = field(default=())

    def __post_init__(self):
        object.__setattr__(self, "differences", readonly(self.differences))
        object.__setattr__(self, "notes", tuple(self.notes))

    @property
    def methods(self) -> tuple[str, str]:
        """``(method_a, method_b)``."""
        return (self.method_a, self.method_b)

    @property
    def significant(self) -> bool:
        """Whether ``pvalue <= alpha``."""
        return bool(self.pvalue <= self.alpha)

    def _side(self, value: float) -> str | None:
        """The method that a positive or negative ``a - b`` quantity favours (``None`` at 0)."""
        if value == 0 or not math.isfinite(value):
            return None
        a_ahead = (value > 0) == self.higher_is_better
        return self.method_a if a_ahead else self.method_b

    def better(self) -> str | None:
        """The method the test finds significantly better, else ``None``.

        The side is the sign of the t statistic, since that is what the test
        rejected on; for Dietterich's 5x2cv t it is the first fold's difference
        ``p_1^(1)``, which can point the other way from the mean (the
        conclusion then says so).  Alpaydin's F squares every difference, so
        it has no side and this is ``None`` (the conclusion says the methods
        differ and why the better mean is named).
        """
        if not self.significant or self.test == "5x2cv-f":
            return None
        return self._side(self.statistic)

    def _stat_text(self) -> str:
        if self.test == "5x2cv-f":
            return f"F({self.dof[0]}, {self.dof[1]}) = {self.statistic:.4f}"
        return f"t({self.dof}) = {self.statistic:.4f}"

    def _mean_side_text(self, winner: str | None) -> str:
        """Words on the means when they point away from the claim (or the claim has no side)."""
        by_mean = self._side(self.mean_difference)
        if self.test == "5x2cv-f":
            if by_mean is None:
                return " The two mean scores are equal."
            return (
                f" The F-test squares the fold differences and so names no side; {by_mean} has "
                "the better mean score, a description that the test did not test."
            )
        if winner is None or by_mean == winner:
            return ""
        first = float(self.differences.flat[0])
        if by_mean is None:
            means = "the two mean scores are equal"
        else:
            means = f"{by_mean} has the better mean score over all {self.differences.size} folds"
        return (
            f" The t statistic takes its sign from the first fold's difference only "
            f"({self.method_a} - {self.method_b} = {first:.4f} in replication 1, fold 1), "
            f"while {means}: the test and the means disagree on the side."
        )

    def conclusion(self) -> str:
        """The conclusion in words, with the numbers."""
        where = f" on {self.dataset}" if self.dataset else ""
        label = CV_TEST_LABELS[self.test]
        means = (
            f"mean {self.method_a} = {self.mean_a:.4f}, {self.method_b} = {self.mean_b:.4f} over "
            f"{self.differences.size} folds ({self.scheme})"
        )
        nums = f"{self._stat_text()}, {format_p(self.pvalue, prefix=True)}"
        winner = self.better()
        # "Dietterich's test", but "the corrected resampled t-test"
        the = "" if "'s " in label else "the "
        if winner is not None:
            loser = self.method_b if winner == self.method_a else self.method_a
            text = (
                f"{winner} is significantly better than {loser}{where} at alpha = {self.alpha:g} "
                f"by {the}{label} ({nums}; {means})." + self._mean_side_text(winner)
            )
        elif self.significant and self.test == "5x2cv-f":
            text = (
                f"{self.method_a} and {self.method_b} differ significantly{where} at alpha = "
                f"{self.alpha:g} by {the}{label} ({nums}; {means})." + self._mean_side_text(None)
            )
        else:
            text = (
                f"{(the + label)[0].upper()}{(the + label)[1:]} finds no significant difference "
                f"between {self.method_a} and {self.method_b}{where} at alpha = {self.alpha:g} "
                f"({nums}; {means})."
            )
        return text

    def _headline(self) -> str:
        where = f" on {self.dataset}" if self.dataset else ""
        return (
            f"{self.method_a} vs {self.method_b}{where}, {self.test}, {self._stat_text()}, "
            f"{format_p(self.pvalue, prefix=True)}"
        )

    def __str__(self) -> str:
        return "\n".join([*wrap(self.conclusion()), *notes_lines(self.notes)])

    def to_dict(self) -> dict:
        """Return a JSON-safe dictionary."""
        return {
            "test": self.test,
            "label": CV_TEST_LABELS[self.test],
            "statistic": num(self.statistic),
            "pvalue": num(self.pvalue),
            "dof": list(self.dof) if isinstance(self.dof, tuple) else int(self.dof),
            "method_a": self.method_a,
            "method_b": self.method_b,
            "mean_a": num(self.mean_a),
            "mean_b": num(self.mean_b),
            "mean_difference": num(self.mean_difference),
            "differences": [[float(v) for v in row] for row in self.differences],
            "variance": num(self.variance),
            "scheme": self.scheme,
            "n_repeats": int(self.n_repeats),
            "n_folds": int(self.n_folds),
            "n_train": self.n_train,
            "n_test": self.n_test,
            "rho": num(self.rho),
            "higher_is_better": self.higher_is_better,
            "alpha": self.alpha,
            "significant": self.significant,
            "better": self.better(),
            "dataset": self.dataset,
            "notes": list(self.notes),
            "conclusion": self.conclusion(),
        }


# ---------------------------------------------------------------------------
# the tests
# ---------------------------------------------------------------------------


def _prepare(a, b, scheme, test, names, alpha, higher_is_better, n_train, n_test):
    s = parse_scheme(scheme)
    alpha = check_alpha(alpha)
    check_bool("higher_is_better", higher_is_better)
    names = validate_pair_names(names)
    n_train, n_test = validate_sizes(n_train, n_test)
    if test not in fitting_tests(s):
        _refuse(test, s)
    a2, b2 = arrange(a, b, s, test)
    # variances of fold differences square them: refuse scores that would overflow
    # (one line instead of t = nan from finite input)
    refuse_large(f"{test.replace('_', ' ')}", a2, b2)
    return s, a2, b2, names, alpha, n_train, n_test


def _result(test, stat, p, dof, a2, b2, var, s, names, **kw):
    d = a2 - b2
    return CVTestResult(
        test=test,
        statistic=float(stat),
        pvalue=float(min(1.0, p)),
        dof=dof,
        method_a=names[0],
        method_b=names[1],
        mean_a=float(a2.mean()),
        mean_b=float(b2.mean()),
        mean_difference=float(d.mean()),
        differences=d,
        variance=float(var),
        scheme=s.text,
        n_repeats=d.shape[0],
        n_folds=d.shape[1],
        **kw,
    )


_DOC_COMMON = """
    a, b : array_like
        Per-fold scores of the two methods, paired fold by fold: a vector in
        repetition-major order or a ``(repetitions, folds)`` array."""


@share
def kfold_ttest(
    a: ArrayLike,
    b: ArrayLike,
    *,
    scheme: str = "kfold",
    higher_is_better: bool = True,
    alpha: float = 0.05,
    methods: tuple[str, str] | None = None,
    dataset: str | None = None,
) -> CVTestResult:
    """Paired t-test over the folds of one k-fold cross-validation.

    ``t = mean(d) / sqrt(s^2 / K)`` with ``K - 1`` degrees of freedom, where
    ``d`` are the ``K`` fold differences ``a - b`` and ``s^2`` their sample
    variance (Yang, formula (23); Dietterich 1998, section 3.4).  This is
    ``scipy.stats.ttest_rel`` on the folds.

    Parameters
    ----------
    a, b : array_like
        Per-fold scores of the two methods on the same folds.
    scheme : str, default 'kfold'
        Must describe one k-fold run (``'kfold'`` or ``'1xK'``).
    %(higher_is_better_array)s
        It decides which method is "better".
    %(alpha)s
    %(pair_names)s
    dataset : str, optional
        Name of the data set, for the conclusion.

    Returns
    -------
    CVTestResult

    Raises
    ------
    CdplotError
        For another scheme (the message names the tests that fit), fewer
        than two folds, unpaired folds or zero variance of the differences.

    Notes
    -----
    Folds share most of their training data, so the differences are
    positively correlated and ``s^2 / K`` underestimates the variance of
    the mean: the test rejects too often (Dietterich 1998; Nadeau and
    Bengio 2003).  Prefer ``corrected_ttest``.

    References
    ----------
    .. [1] T. G. Dietterich, "Approximate statistical tests for comparing
           supervised classification learning algorithms", Neural
           Computation 10(7) (1998) 1895-1923.

    Examples
    --------
    >>> r = kfold_ttest([0.81, 0.84, 0.79, 0.86, 0.83], [0.78, 0.80, 0.80, 0.82, 0.79])
    >>> round(r.statistic, 4), round(r.pvalue, 4)
    (2.888, 0.0447)
    """
    test = "kfold-t"
    s, a2, b2, names, alpha, _, _ = _prepare(
        a, b, scheme, test, methods, alpha, higher_is_better, None, None
    )
    d = (a2 - b2).ravel()
    check_variance(d, test, names)
    k = d.size
    var = d.var(ddof=1) / k
    t = d.mean() / math.sqrt(var)
    p = 2.0 * float(special.stdtr(k - 1, -abs(t)))
    return _result(
        test,
        t,
        p,
        k - 1,
        a2,
        b2,
        var,
        s,
        names,
        higher_is_better=higher_is_better,
        alpha=alpha,
        dataset=dataset,
        notes=(
            "The k-fold paired t-test ignores the overlap of training sets and "
            "tends to reject too often; the corrected resampled t-test allows for it.",
        ),
    )


def corrected_ttest(
    a: ArrayLike,
    b: ArrayLike,
    *,
    scheme: str = "kfold",
    n_train: int | None = None,
    n_test: int | None = None,
    higher_is_better: bool = True,
    alpha: float = 0.05,
    methods: tuple[str, str] | None = None,
    dataset: str | None = None,
) -> CVTestResult:
    """Nadeau and Bengio's corrected resampled (correlated) t-test.

    With ``n`` fold differences ``d`` (all repetitions and folds together),

    .. math:: t = \\frac{\\bar d}{\\sqrt{\\hat\\sigma^2 (1/n + \\rho / (1 - \\rho))}},
              \\qquad \\rho = n_{test} / (n_{train} + n_{test}),

    with ``n - 1`` degrees of freedom (Nadeau and Bengio 2003, as used by
    Bouckaert and Frank 2004).  ``rho / (1 -
    rho)`` is ``n_test / n_train``.

    Parameters
    ----------
    a, b : array_like
        Per-fold scores, a vector in repetition-major order or an ``(R, K)`` array.
    scheme : str, default 'kfold'
        ``'kfold'``, ``'RxK'``, ``'blocked-mx2'`` or ``'resampled'``.
    n_train, n_test : int, optional
        Training and test set sizes.  For k-fold schemes they default to
        ``rho = 1 / K`` (the test fold is a ``K``-th of the data), as
        baycomp does; random splits (``'resampled'``) need them.
    higher_is_better, alpha, methods, dataset
        As in :func:`kfold_ttest`.

    Returns
    -------
    CVTestResult

    Raises
    ------
    CdplotError
        Bad scheme, fold counts that do not match it, a single fold, zero
        variance of the differences, or ``'resampled'`` without sizes.

    Notes
    -----
    The correction ``rho / (1 - rho)`` accounts for the correlation of the
    differences that overlapping training sets cause; it is a heuristic,
    exact only under Nadeau and Bengio's assumptions, but it keeps the
    type I error near its nominal level where the plain test does not.

    References
    ----------
    .. [1] C. Nadeau and Y. Bengio, "Inference for the generalization
           error", Machine Learning 52 (2003) 239-281.
    .. [2] R. R. Bouckaert and E. Frank, "Evaluating the replicability of
           significance tests for comparing learning algorithms", PAKDD 2004.

    Examples
    --------
    >>> a = [0.81, 0.84, 0.79, 0.86, 0.83]
    >>> b = [0.78, 0.80, 0.80, 0.82, 0.79]
    >>> r = corrected_ttest(a, b)          # rho = 1/5 for 5-fold CV
    >>> round(r.statistic, 4), round(r.pvalue, 4)
    (1.9253, 0.1265)
    """
    test = "corrected-t"
    s, a2, b2, names, alpha, n_train, n_test = _prepare(
        a, b, scheme, test, methods, alpha, higher_is_better, n_train, n_test
    )
    notes = []
    if (n_train is None) != (n_test is None):
        raise CdplotError(
            f"give both n_train and n_test or neither (got {opt('n_train', n_train)}, "
            f"{opt('n_test', n_test)})",
            option="n_train",
        )
    if n_train is None:
        if s.kind == "resampled":
            raise CdplotError(
                f"{opt('scheme', 'resampled')} needs n_train and n_test (the sizes of the training "
                "and test sets) for the correction rho = n_test / (n_train + n_test)",
                option="scheme",
            )
        k = a2.shape[1]
        rho = 1.0 / k
        notes.append(
            f"rho = 1/{k} (each test fold holds 1/{k} of the data) because n_train "
            "and n_test were not given."
        )
    else:
        rho = n_test / (n_train + n_test)
        if s.kind != "resampled":
            k = a2.shape[1]
            if abs(rho - 1.0 / k) > 0.5 / k:
                raise CdplotError(
                    f"{opt('n_test', n_test)} and {opt('n_train', n_train)} give rho = {rho:.3g}, "
                    f"but {k}-fold cross-validation tests on about 1/{k} of the data; check the "
                    "sizes or the scheme"
                )
    d = (a2 - b2).ravel()
    check_variance(d, test, names)
    n = d.size
    var = d.var(ddof=1) * (1.0 / n + rho / (1.0 - rho))
    t = d.mean() / math.sqrt(var)
    p = 2.0 * float(special.stdtr(n - 1, -abs(t)))
    return _result(
        test,
        t,
        p,
        n - 1,
        a2,
        b2,
        var,
        s,
        names,
        n_train=n_train,
        n_test=n_test,
        rho=rho,
        higher_is_better=higher_is_better,
        alpha=alpha,
        dataset=dataset,
        notes=tuple(notes),
    )


def _five_by_two(a, b, scheme, test, names, alpha, higher_is_better):
    s, a2, b2, names, alpha, _, _ = _prepare(
        a, b, scheme, test, names, alpha, higher_is_better, None, None
    )
    d = a2 - b2  # (5, 2): p_i^(j)
    mean_i = d.mean(axis=1, keepdims=True)
    s2 = ((d - mean_i) ** 2).sum(axis=1)  # s_i^2
    if np.all(s2 == 0.0):
        if np.all(d == 0.0):
            check_variance(d, test, names)
        raise CdplotError(
            f"in every replication both folds give the same difference {names[0]} - {names[1]}, "
            f"so sum s_i^2 = 0 and the {CV_TEST_LABELS[test]} is undefined; the folds show no "
            "variability to judge the difference against"
        )
    return s, a2, b2, d, s2, names, alpha


def dietterich_5x2cv_ttest(
    a: ArrayLike,
    b: ArrayLike,
    *,
    scheme: str = "5x2",
    higher_is_better: bool = True,
    alpha: float = 0.05,
    methods: tuple[str, str] | None = None,
    dataset: str | None = None,
) -> CVTestResult:
    """Dietterich's 5x2cv paired t-test.

    With ``p_i^(j)`` the difference ``a - b`` on fold ``j`` of replication
    ``i`` of five two-fold cross-validations, ``s_i^2 = sum_j (p_i^(j) -
    mean_j p_i^(j))^2`` and

    .. math:: t = p_1^{(1)} / \\sqrt{\\tfrac15 \\sum_{i=1}^5 s_i^2}

    has (approximately) 5 degrees of freedom (Dietterich 1998, section 3.5;
    Yang, formula (24)).

    Parameters
    ----------
    a, b : array_like
        Ten scores per method, as a ``(5, 2)`` array or in the order
        replication 1 fold 1, replication 1 fold 2, replication 2 fold 1, ...
        The numerator uses only the first one, so the order matters.
    scheme : str, default '5x2'
        Must be ``'5x2'``.
    higher_is_better, alpha, methods, dataset
        As in :func:`kfold_ttest`.

    Returns
    -------
    CVTestResult

    Raises
    ------
    CdplotError
        For another scheme, another number of scores, or ``sum s_i^2 = 0``.

    Notes
    -----
    The numerator depends on one fold only, which makes the statistic
    unstable under reordering of the replications; Alpaydin's combined F
    (:func:`alpaydin_5x2cv_ftest`) uses all ten differences.

    References
    ----------
    .. [1] T. G. Dietterich, "Approximate statistical tests for comparing
           supervised classification learning algorithms", Neural
           Computation 10(7) (1998) 1895-1923, section 3.5.

    Examples
    --------
    >>> a = [[0.80, 0.82], [0.79, 0.83], [0.81, 0.80], [0.84, 0.82], [0.80, 0.81]]
    >>> b = [[0.77, 0.80], [0.78, 0.79], [0.80, 0.78], [0.80, 0.81], [0.79, 0.78]]
    >>> r = dietterich_5x2cv_ttest(a, b)
    >>> round(r.statistic, 4), round(r.pvalue, 4)
    (1.9365, 0.1106)
    """
    test = "5x2cv-t"
    s, a2, b2, d, s2, names, alpha = _five_by_two(
        a, b, scheme, test, methods, alpha, higher_is_better
    )
    var = s2.sum() / 5.0
    t = d[0, 0] / math.sqrt(var)
    p = 2.0 * float(special.stdtr(5, -abs(t)))
    return _result(
        test,
        t,
        p,
        5,
        a2,
        b2,
        var,
        s,
        names,
        higher_is_better=higher_is_better,
        alpha=alpha,
        dataset=dataset,
    )


def alpaydin_5x2cv_ftest(
    a: ArrayLike,
    b: ArrayLike,
    *,
    scheme: str = "5x2",
    higher_is_better: bool = True,
    alpha: float = 0.05,
    methods: tuple[str, str] | None = None,
    dataset: str | None = None,
) -> CVTestResult:
    """Alpaydin's combined 5x2cv F-test.

    .. math:: f = \\frac{\\sum_{i=1}^5 \\sum_{j=1}^2 (p_i^{(j)})^2}{2 \\sum_{i=1}^5 s_i^2}

    is approximately F-distributed with (10, 5) degrees of freedom; the
    p-value is its upper tail.  Notation as in :func:`dietterich_5x2cv_ttest`.

    Parameters
    ----------
    a, b : array_like
        Ten scores per method, a ``(5, 2)`` array or replication-major.
    scheme : str, default '5x2'
        Must be ``'5x2'``.
    higher_is_better, alpha, methods, dataset
        As in :func:`kfold_ttest`.

    Returns
    -------
    CVTestResult
        ``dof`` is ``(10, 5)``.  The F-test has no direction (it squares
        the differences): when it rejects, the conclusion says the methods
        differ and names the better mean only as the mean, and
        :meth:`CVTestResult.better` is ``None``.

    Raises
    ------
    CdplotError
        For another scheme, another number of scores, or ``sum s_i^2 = 0``.

    References
    ----------
    .. [1] E. Alpaydin, "Combined 5 x 2 cv F test for comparing supervised
           classification learning algorithms", Neural Computation 11(8)
           (1999) 1885-1892.

    Examples
    --------
    >>> a = [[0.80, 0.82], [0.79, 0.83], [0.81, 0.80], [0.84, 0.82], [0.80, 0.81]]
    >>> b = [[0.77, 0.80], [0.78, 0.79], [0.80, 0.78], [0.80, 0.81], [0.79, 0.78]]
    >>> r = alpaydin_5x2cv_ftest(a, b)
    >>> round(r.statistic, 4), round(r.pvalue, 4)
    (2.5833, 0.1532)
    """
    test = "5x2cv-f"
    s, a2, b2, d, s2, names, alpha = _five_by_two(
        a, b, scheme, test, methods, alpha, higher_is_better
    )
    var = s2.sum()
    f = (d**2).sum() / (2.0 * var)
    p = float(special.fdtrc(10, 5, f))
    return _result(
        test,
        f,
        p,
        (10, 5),
        a2,
        b2,
        var,
        s,
        names,
        higher_is_better=higher_is_better,
        alpha=alpha,
        dataset=dataset,
    )


def blocked_cv_ttest(
    a: ArrayLike,
    b: ArrayLike,
    *,
    scheme: str = "blocked-3x2",
    n_train: int | None = None,
    n_test: int | None = None,
    higher_is_better: bool = True,
    alpha: float = 0.05,
    methods: tuple[str, str] | None = None,
    dataset: str | None = None,
) -> CVTestResult:
    """Blocked ``m x 2`` cross-validated t-test (Wang et al. 2014), for ``m >= 2``.

    With the ``2m`` hold-out differences ``d`` of blocked ``m x 2``
    cross-validation, ``mu = mean(d)`` and ``S = sum (d - mu)^2 / (2m)``,

    .. math:: t = \\mu / \\sqrt{S}

    has ``2m - 1`` degrees of freedom.  For ``m = 3`` this is Yang,
    formula (25): ``t_{3x2} = mu_{3x2} / sqrt(S_{3x2})`` with 5 degrees of
    freedom.

    Parameters
    ----------
    a, b : array_like
        ``2m`` scores per method, an ``(m, 2)`` array or replication-major.
    scheme : str, default 'blocked-3x2'
        ``'blocked-mx2'`` with the number of replications ``m``.
    n_train, n_test : int, optional
        Sizes of the halves; when given they must be equal up to one
        example, and ``n_train + n_test`` must allow ``m`` blocked
        replications (at least ``2^ceil(log2(m + 1))`` examples).
    higher_is_better, alpha, methods, dataset
        As in :func:`kfold_ttest`.

    Returns
    -------
    CVTestResult

    Raises
    ------
    CdplotError
        For random (non-blocked) schemes, wrong counts, a data size that
        cannot be blocked, or zero variance of the differences.

    Notes
    -----
    Blocked replications split the data into blocks so that the test sets
    of any two replications share exactly half their examples.  The
    generalisation from 3 to ``m`` replications keeps the variance
    estimator ``S = sum (d - mu)^2 / (2m)``: it is unbiased for ``Var(mu)``
    when the two hold-out estimates of one replication are uncorrelated
    and estimates of different replications have correlation 1/2, which is
    the assumption under which the ``m = 3`` form of formula (25) is
    unbiased (our derivation: ``E[sum (d - mu)^2] = m sigma^2`` and
    ``Var(mu) = sigma^2 / 2`` for every ``m``).  Blocking ``m``
    replications needs an orthogonal array with ``m`` two-level columns,
    that is ``2^p > m`` blocks (Wang et al. 2017).

    References
    ----------
    .. [1] Y. Wang, R. Wang, H. Jia and J. Li, "Blocked 3 x 2
           cross-validated t-test for comparing supervised classification
           learning algorithms", Neural Computation 26(1) (2014) 208-235.
    .. [2] R. Wang, Y. Wang, J. Li, X. Yang and J. Yang, "Block-regularized
           m x 2 cross-validated estimator of the generalization error",
           Neural Computation 29(2) (2017) 519-554.

    Examples
    --------
    >>> a = [[0.80, 0.82], [0.79, 0.83], [0.81, 0.80]]
    >>> b = [[0.77, 0.80], [0.78, 0.79], [0.80, 0.78]]
    >>> r = blocked_cv_ttest(a, b)
    >>> round(r.statistic, 4), round(r.pvalue, 4), r.dof
    (2.0303, 0.0981, 5)
    """
    test = "blocked-t"
    s, a2, b2, names, alpha, n_train, n_test = _prepare(
        a, b, scheme, test, methods, alpha, higher_is_better, n_train, n_test
    )
    m = s.n_repeats
    if n_train is not None and n_test is not None:
        n = n_train + n_test
        if abs(n_train - n_test) > 1:
            raise CdplotError(
                "blocked m x 2 cross-validation trains and tests on halves, but "
                f"{opt('n_train', n_train)} and {opt('n_test', n_test)} differ by more than one "
                "example"
            )
        blocks = 2 ** math.ceil(math.log2(m + 1))
        if n < blocks:
            raise CdplotError(
                f"{opt('scheme', s.text)} needs {blocks} blocks of data, but n_train + n_test = "
                f"{n}",
                option="scheme",
            )
    d = (a2 - b2).ravel()
    check_variance(d, test, names)
    mu = d.mean()
    var = ((d - mu) ** 2).sum() / d.size
    t = mu / math.sqrt(var)
    p = 2.0 * float(special.stdtr(d.size - 1, -abs(t)))
    notes = ()
    if m != 3:
        notes = (
            f"The blocked {m}x2 test uses formula (25) of the 3x2 case with 2m = {2 * m} "
            f"estimates and {2 * m - 1} degrees of freedom.",
        )
    return _result(
        test,
        t,
        p,
        d.size - 1,
        a2,
        b2,
        var,
        s,
        names,
        n_train=n_train,
        n_test=n_test,
        higher_is_better=higher_is_better,
        alpha=alpha,
        dataset=dataset,
        notes=notes,
    )


_FUNCS = {
    "kfold-t": kfold_ttest,
    "corrected-t": corrected_ttest,
    "5x2cv-t": dietterich_5x2cv_ttest,
    "5x2cv-f": alpaydin_5x2cv_ftest,
    "blocked-t": blocked_cv_ttest,
}


def cv_test(
    a: ArrayLike,
    b: ArrayLike,
    *,
    test: CVTest,
    scheme: str,
    n_train: int | None = None,
    n_test: int | None = None,
    higher_is_better: bool = True,
    alpha: float = 0.05,
    methods: tuple[str, str] | None = None,
    dataset: str | None = None,
) -> CVTestResult:
    """Run one of :data:`CV_TESTS` by name; see the individual functions.

    Parameters
    ----------
    a, b : array_like
        Per-fold scores of the two methods, paired.
    test : {'kfold-t', 'corrected-t', '5x2cv-t', '5x2cv-f', 'blocked-t'}
        The test.
    scheme : str
        How the folds were produced.
    n_train, n_test : int, optional
        Training and test sizes (``'corrected-t'`` and ``'blocked-t'`` only).
    higher_is_better, alpha, methods, dataset
        As in :func:`kfold_ttest`.

    Returns
    -------
    CVTestResult

    Raises
    ------
    CdplotError
        For an unknown test, or one that does not fit ``scheme`` (the
        message says which tests fit).

    Examples
    --------
    >>> cv_test([0.8, 0.9, 0.85], [0.7, 0.8, 0.8], test="5x2cv-t", scheme="kfold")
    Traceback (most recent call last):
    ...
    cdplot.errors.CdplotError: test '5x2cv-t' does not fit scheme='kfold': it needs five independent replications of two-fold cross-validation (scheme='5x2'); for this scheme use 'corrected-t' or 'kfold-t'
    """  # noqa: E501
    check_option("test", test, CV_TESTS)
    kw = {
        "scheme": scheme,
        "higher_is_better": higher_is_better,
        "alpha": alpha,
        "methods": methods,
        "dataset": dataset,
    }
    if test in ("corrected-t", "blocked-t"):
        kw.update(n_train=n_train, n_test=n_test)
    elif n_train is not None or n_test is not None:
        parse_scheme(scheme)
        if test not in fitting_tests(scheme):
            _refuse(test, parse_scheme(scheme))
    return _FUNCS[test](a, b, **kw)
