"""Planning a comparison: how many data sets a critical difference needs, and the reverse.

Demsar's (2006, section 3.2.2) critical difference ``CD = q_alpha sqrt(k (k + 1) / (6 N))``
solved for ``N``, or evaluated at a given ``N``.  Closed form only: this is the number
of data sets at which an *observed* difference of average ranks is declared
significant, not the power to detect a true one (see :func:`plan`'s Notes).
"""

from __future__ import annotations

import math

from .._docstrings import share
from .._options import CD_TESTS, CDTest, check_alpha, check_option
from ..errors import CdplotError, opt
from ._critical import critical_difference, critical_value
from ._resultkit import Result, notes_lines, readonly_mapping, result, wrap
from ._validate import whole_number

__all__ = ["plan", "PlanResult"]

# what the two tests' critical values are, in words (for the derivation)
_Q_WORDS = {
    "nemenyi": "the upper {alpha:g} quantile of the studentized range of {k} normal variables "
    "with infinite degrees of freedom, divided by sqrt(2)",
    "bonferroni-dunn": "the normal quantile at 1 - {alpha:g} / (2 ({k} - 1)), for {m} "
    "comparisons with a control",
}
_TEST_NAMES = {"nemenyi": "Nemenyi", "bonferroni-dunn": "Bonferroni-Dunn"}
_PAIRS = {
    "nemenyi": "any two methods",
    "bonferroni-dunn": "a method and the control",
}
# a bound N* = q^2 k (k + 1) / (6 d^2) that is a whole number in exact arithmetic may come
# out a few ulps above it; ceil() would then ask for one data set more than needed
_RTOL = 1e-12


@result
class PlanResult(Result):
    """The critical-difference plan returned by :func:`cdplot.plan`.

    Attributes
    ----------
    n_methods : int
        ``k``, the number of methods compared.
    n_datasets : int
        ``N``: the smallest number of data sets at which :attr:`rank_difference`
        reaches the critical difference (when it was given), or the number of
        data sets given.
    rank_difference : float
        ``d``: the average-rank difference given, or the smallest one that is
        significant at :attr:`n_datasets` (the critical difference there).
    solved_for : {'n_datasets', 'rank_difference'}
        Which of the two was computed.
    alpha : float
        Significance level.
    test : {'nemenyi', 'bonferroni-dunn'}
        The post-hoc test whose critical value is used.
    critical_value : float
        ``q_alpha``.
    critical_difference : float
        ``CD`` at :attr:`n_datasets` data sets.
    bound : float
        ``q_alpha^2 k (k + 1) / (6 d^2)``, the real-valued ``N`` that ``N`` rounds
        up (equal to ``N`` when ``N`` was given).
    notes : tuple of str
        What the numbers do not say.
    options : mapping
        The arguments, read-only.
    """

    n_methods: int
    n_datasets: int
    rank_difference: float
    solved_for: str
    alpha: float
    test: str
    critical_value: float
    critical_difference: float
    bound: float
    notes: tuple = ()
    options: object = None

    def __post_init__(self):
        object.__setattr__(self, "notes", tuple(self.notes))
        object.__setattr__(self, "options", readonly_mapping(self.options))

    def _headline(self) -> str:
        return (
            f"{self.test}, k={self.n_methods}, alpha={self.alpha:g}: "
            f"d={self.rank_difference:.4g} at N={self.n_datasets}"
        )

    def detectable_difference(self, n_datasets: int) -> float:
        """The critical difference of this plan's test, ``k`` and ``alpha`` at ``n_datasets``.

        Parameters
        ----------
        n_datasets : int
            Number of data sets ``N``.

        Returns
        -------
        float
        """
        return critical_difference(self.n_methods, n_datasets, alpha=self.alpha, test=self.test)

    def conclusion(self) -> str:
        """The answer in one sentence."""
        pairs = _PAIRS[self.test]
        if self.solved_for == "n_datasets":
            return (
                f"An average-rank difference of {self.rank_difference:g} between {pairs} "
                f"reaches the critical difference from N = {self.n_datasets} data sets on "
                f"(CD = {self.critical_difference:.4f} at N = {self.n_datasets})."
            )
        return (
            f"With N = {self.n_datasets} data sets, average ranks of {pairs} must differ by "
            f"at least CD = {self.critical_difference:.4f} to be declared significant."
        )

    def derivation(self) -> list[str]:
        """The formula with the numbers, as lines of text."""
        k, q, n = self.n_methods, self.critical_value, self.n_datasets
        words = _Q_WORDS[self.test].format(alpha=self.alpha, k=k, m=k - 1)
        lines = [
            "CD = q_alpha * sqrt(k (k + 1) / (6 N))   (Demsar 2006, section 3.2.2)",
            *wrap(f"q_alpha = {q:.6f}: {words}.", 86),
        ]
        if self.solved_for == "rank_difference":
            lines.append(
                f"CD = {q:.6f} * sqrt({k} * {k + 1} / (6 * {n})) = {self.critical_difference:.6f}"
            )
            return lines
        d = self.rank_difference
        lines += [
            "CD <= d  <=>  N >= q_alpha^2 k (k + 1) / (6 d^2)",
            f"N >= {q:.6f}^2 * {k} * {k + 1} / (6 * {d:g}^2) = {self.bound:.4f}",
            f"N = {n}, the smallest whole number at least that:"
            if self.bound > 2
            else f"N = {n}, the fewest data sets a comparison can have:",
            f"  CD at N = {n} is {self.critical_difference:.6f} <= {d:g}",
        ]
        if n > 2:
            before = self.detectable_difference(n - 1)
            lines.append(f"  CD at N = {n - 1} is {before:.6f} > {d:g}")
        return lines

    def methods_sentence(self) -> str:
        """A sentence for a paper's methods section, claiming only what was computed."""
        name = _TEST_NAMES[self.test]
        k, q, n = self.n_methods, self.critical_value, self.n_datasets
        head = (
            f"With k = {k} methods and the {name} test at alpha = {self.alpha:g} "
            f"(q_alpha = {q:.3f}), the critical difference of average ranks "
            f"CD = q_alpha sqrt(k(k+1)/(6N)) (Demsar 2006)"
        )
        if self.solved_for == "n_datasets":
            return (
                f"{head} falls to {self.rank_difference:g} or below from N = {n} data sets on "
                f"(CD = {self.critical_difference:.3f} at N = {n}); this is the number of data "
                f"sets at which an observed average-rank difference of {self.rank_difference:g} "
                "would be declared significant, not a power calculation."
            )
        return (
            f"{head} is {self.critical_difference:.3f} at N = {n} data sets; smaller observed "
            "differences of average ranks are not declared significant."
        )

    def to_dict(self) -> dict:
        return {
            "n_methods": self.n_methods,
            "n_datasets": self.n_datasets,
            "rank_difference": self.rank_difference,
            "solved_for": self.solved_for,
            "alpha": self.alpha,
            "test": self.test,
            "critical_value": self.critical_value,
            "critical_difference": self.critical_difference,
            "bound": self.bound,
            "conclusion": self.conclusion(),
            "derivation": self.derivation(),
            "methods_sentence": self.methods_sentence(),
            "notes": list(self.notes),
        }

    def __str__(self) -> str:
        title = (
            f"Planning with the critical difference ({_TEST_NAMES[self.test]} test, "
            f"k = {self.n_methods} methods, alpha = {self.alpha:g})"
        )
        return "\n".join(
            [
                title,
                "",
                *wrap(self.conclusion()),
                "",
                "Derivation:",
                *("  " + line for line in self.derivation()),
                "",
                "For a methods section:",
                *("  " + line for line in wrap(self.methods_sentence(), 86)),
                *notes_lines(self.notes),
            ]
        )


def _validate_plan(n_methods, rank_difference, n_datasets, alpha, test):
    k = whole_number(n_methods, "option n_methods", minimum=2, what="methods")
    alpha = check_alpha(alpha)
    test = check_option("test", test, CD_TESTS)
    if (rank_difference is None) == (n_datasets is None):
        raise CdplotError(
            f"give exactly one of {opt('rank_difference')} (to find the number of data sets) "
            f"and {opt('n_datasets')} (to find the detectable rank difference)",
            option="rank_difference",
        )
    if n_datasets is not None:
        n = whole_number(
            n_datasets,
            "option n_datasets",
            minimum=2,
            what="data sets",
            why="a comparison over data sets needs at least 2 of them",
        )
        return k, None, n, alpha, test
    try:
        d = float(rank_difference)
    except (TypeError, ValueError):
        raise CdplotError(
            f"option {opt('rank_difference', rank_difference)} is not a number; give an "
            "average-rank difference in (0, k - 1]",
            option="rank_difference",
        ) from None
    # two average ranks over the same data sets differ by at most k - 1 (one method always
    # first, the other always last)
    if not 0.0 < d <= k - 1:
        raise CdplotError(
            f"option {opt('rank_difference', rank_difference)} is outside (0, {k - 1}]: the "
            f"average ranks of {k} methods differ by at most k - 1 = {k - 1}",
            option="rank_difference",
        )
    return k, d, None, alpha, test


def _required_n(k: int, d: float, q: float) -> tuple[int, float]:
    """The smallest ``N`` with ``CD(N) <= d``, and the real-valued bound it rounds up."""
    bound = q * q * k * (k + 1.0) / (6.0 * d * d)
    n = max(2, math.ceil(bound))
    if n > 2 and q * math.sqrt(k * (k + 1.0) / (6.0 * (n - 1))) <= d * (1.0 + _RTOL):
        n -= 1
    return n, bound


def _notes(k: int, n: int, test: str) -> tuple:
    notes = [
        "This is not a power calculation: an observed average-rank difference scatters "
        "around the true one, so a true difference equal to the critical difference is "
        "declared significant only about half the time (normal approximation); power "
        "needs a simulation",
        "Nemenyi's and Bonferroni-Dunn's tests are run after the Friedman test rejects; "
        "meeting the critical difference does not guarantee that it does",
    ]
    if test == "bonferroni-dunn":
        notes.append(f"Bonferroni-Dunn compares the {k - 1} other methods with one control only")
    if n < 10:
        notes.append(
            f"q_alpha comes from the large-sample distribution of average ranks; with "
            f"N = {n} data sets the critical difference is approximate"
        )
    return tuple(notes)


@share
def plan(
    *,
    n_methods: int,
    rank_difference: float | None = None,
    n_datasets: int | None = None,
    alpha: float = 0.05,
    test: CDTest = "nemenyi",
) -> PlanResult:
    """How many data sets a rank difference needs, or which difference ``N`` data sets show.

    Demsar's (2006) critical difference ``CD = q_alpha sqrt(k (k + 1) / (6 N))``
    solved for ``N``: the smallest ``N`` with ``CD <= d`` is
    ``ceil(q_alpha^2 k (k + 1) / (6 d^2))``.  Or, with ``N`` given, ``CD`` at
    ``N``: the smallest average-rank difference declared significant.

    Parameters
    ----------
    n_methods : int
        Number of methods ``k``, at least 2.
    rank_difference : float, optional
        The average-rank difference ``d`` to reach, in ``(0, k - 1]``: the
        number of data sets is computed.  Give this or ``n_datasets``.
    n_datasets : int, optional
        The number of data sets ``N``: the detectable rank difference (the
        critical difference) is computed.
    %(alpha)s
    %(cd_test)s

    Returns
    -------
    PlanResult
        ``str()`` of it gives the answer, the derivation with the numbers and
        a sentence for a paper's methods section.

    Raises
    ------
    CdplotError
        If both or neither of ``rank_difference`` and ``n_datasets`` are
        given, or a value is out of range.

    Notes
    -----
    The ``N`` found is where an *observed* average-rank difference of ``d``
    becomes significant.  It is not the ``N`` that detects a *true*
    difference ``d`` with a stated power: the observed difference scatters
    around the true one, so at this ``N`` a true difference ``d`` is found
    about half the time.  The post-hoc test follows a Friedman test that
    must reject first.

    References
    ----------
    .. [1] J. Demsar, "Statistical comparisons of classifiers over multiple
           data sets", JMLR 7 (2006) 1-30, section 3.2.2 and Table 5.

    Examples
    --------
    >>> res = plan(n_methods=10, rank_difference=1.0)
    >>> res.n_datasets
    184
    >>> round(plan(n_methods=4, n_datasets=14).critical_difference, 3)
    1.254
    """
    k, d, n, alpha, test = _validate_plan(n_methods, rank_difference, n_datasets, alpha, test)
    q = critical_value(k, alpha=alpha, test=test)
    if d is not None:
        n, bound = _required_n(k, d, q)
        solved_for = "n_datasets"
    else:
        bound = float(n)
        solved_for = "rank_difference"
    cd = q * math.sqrt(k * (k + 1.0) / (6.0 * n))
    return PlanResult(
        n_methods=k,
        n_datasets=n,
        rank_difference=d if d is not None else cd,
        solved_for=solved_for,
        alpha=alpha,
        test=test,
        critical_value=q,
        critical_difference=cd,
        bound=bound,
        notes=_notes(k, n, test),
        options={
            "rank_difference": rank_difference,
            "n_datasets": n_datasets,
            "alpha": alpha,
            "test": test,
        },
    )
