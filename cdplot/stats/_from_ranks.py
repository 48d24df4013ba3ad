"""``compare_ranks``: Demsar's analysis from average ranks alone (Orange's ``graph_ranks`` case).

Authors often have only the average ranks another paper printed.  The
Friedman statistic, the Iman-Davenport ``F_F``, the critical difference and
the rank z-tests need nothing else (Demsar 2006, section 3.2.2), so they
are computed here with the same functions :func:`cdplot.compare` uses; what
needs the rank or score of each method on each data set (the tie
correction, Wilcoxon and sign tests, a data table) is not offered, and the
result says so.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import field

import numpy as np
from numpy.typing import ArrayLike

from .._docstrings import share
from .._options import Correction, RankTest, check_alpha
from ..errors import CdplotError, opt
from ..io import AverageRanks, as_average_ranks
from ._compare import RANK_TESTS, _validate_options, decide, groups, omnibus_notes, rank_statistics
from ._formatting import format_p
from ._friedman import friedman_from_average_ranks
from ._resultkit import Result, json_matrices, matrix_dict, num, result
from ._results import (
    ComparisonResult,
    FriedmanResult,
    ImanDavenportResult,
    freeze_rank_fields,
)
from ._validate import check_pairwise_size, whole_number

__all__ = ["compare_ranks", "RankComparison", "LIMITATIONS"]

#: What average ranks cannot give, said in every output of a :class:`RankComparison`.
LIMITATIONS = (
    "Only average ranks were given, so the Friedman statistic is Demšar's uncorrected one "
    "(the tie correction needs the ranks on each data set), no Wilcoxon or sign tests can be "
    "made, the only p-values are those of the rank z-tests (and Nemenyi's, from the same "
    "z), and there is no table of scores or ranks per data set."
)

# what the tests that need scores are, for the message that refuses them
_SCORE_TESTS = {
    "wilcoxon": "Wilcoxon signed-rank test",
    "sign": "sign test",
    "auto": "choice between ANOVA and the rank tests",
}


@result
class RankComparison(Result):
    """Demsar's analysis of average ranks alone, as returned by :func:`cdplot.compare_ranks`.

    The fields have the names and meanings of :class:`~cdplot.ComparisonResult`'s;
    what needs per-data-set ranks or scores (``scores``, ``ranks``,
    ``datasets``) does not exist.  Figures and reports accept it: the CD
    diagram, rank-interval chart, heatmap and their TikZ pictures draw it
    as they draw a ComparisonResult, and a report leaves out the sections
    that need scores.

    Attributes
    ----------
    methods : tuple of str
        Names, in input order.
    n_methods, n_datasets : int
        ``k`` and ``N``.
    average_ranks : ndarray, shape (k,)
        The average ranks given (1 = best).
    alpha : float
        Significance level.
    test : {'nemenyi', 'bonferroni-dunn', 'friedman-z'}
        Post-hoc procedure.
    correction : str or None
        Multiple-testing correction of the rank z-tests (``None`` for Nemenyi).
    control : str or None
        The control method of comparisons with a control.
    friedman : FriedmanResult
        Demsar's uncorrected statistic (``tie_correction`` is false).
    iman_davenport : ImanDavenportResult
        ``F_F`` from it.
    critical_value, critical_difference : float or None
        ``q_alpha`` and CD of Nemenyi and Bonferroni-Dunn, else ``None``.
    statistics : ndarray, shape (k, k)
        Rank z statistics, NaN where not tested and on the diagonal.
    pvalues_unadjusted : ndarray, shape (k, k)
        Two-sided p-values of the rank z-tests.
    pvalues : ndarray, shape (k, k)
        Nemenyi's family-wise p-values, or the corrected z-test p-values.
    significant : ndarray of bool, shape (k, k)
        Whether each pair differs significantly at ``alpha``.
    cliques, unjoined, bridges : tuple
        Groups that do not differ and the relations they cannot show, as in
        :class:`~cdplot.ComparisonResult`.
    notes : tuple of str
        What average ranks cannot give (always the first note), and remarks.
    direction : ndarray, shape (k, k)
        ``+1`` where the row method has the better average rank.
    higher_is_better : bool
        Always false: the values analysed are ranks, lower is better.
    direction_reason : str
        Why: the values are ranks, 1 is best (as for
        :attr:`ComparisonResult.direction_reason`).
    metric : None
        Always ``None`` (average ranks do not name their measure); there for
        the consumers that print a ComparisonResult's metric.
    source, sha256 : str or None
        Where the ranks came from (a file name, or a description).
    options : mapping
        ``{"tie_correction": False}``: read-only, for reports.
    """

    methods: tuple[str, ...]
    n_methods: int
    n_datasets: int
    average_ranks: np.ndarray
    alpha: float
    test: str
    correction: str | None
    control: str | None
    friedman: FriedmanResult
    iman_davenport: ImanDavenportResult
    critical_value: float | None
    critical_difference: float | None
    statistics: np.ndarray
    pvalues_unadjusted: np.ndarray
    pvalues: np.ndarray
    significant: np.ndarray
    cliques: tuple[tuple[str, ...], ...]
    unjoined: tuple[tuple[str, str], ...] = ()
    bridges: Sequence[tuple[str, str, str]] = ()
    notes: tuple[str, ...] = ()
    direction: np.ndarray | None = None
    higher_is_better: bool = False
    direction_reason: str = "lower is better: the values are average ranks, 1 = best"
    metric: str | None = None
    source: str | None = None
    sha256: str | None = None
    options: Mapping[str, bool | str] = field(default_factory=lambda: {"tie_correction": False})

    def __post_init__(self):
        freeze_rank_fields(self, ("average_ranks", "statistics", "pvalues_unadjusted", "pvalues"))

    # The questions a ComparisonResult answers from these same fields are answered by
    # its own methods, so that a report, a figure and a terminal say the same words
    # whether the analysis started from scores or from average ranks.
    rejected = ComparisonResult.rejected
    all_pairs_tested = ComparisonResult.all_pairs_tested
    index = ComparisonResult.index
    order = ComparisonResult.order
    average_rank = ComparisonResult.average_rank
    pvalue = ComparisonResult.pvalue
    is_significant = ComparisonResult.is_significant
    pvalue_dict = ComparisonResult.pvalue_dict
    _significant_index_pairs_cached = ComparisonResult._significant_index_pairs_cached
    _significant_index_pairs = ComparisonResult._significant_index_pairs
    significant_pairs = ComparisonResult.significant_pairs
    _first_significant_pairs = ComparisonResult._first_significant_pairs
    direction_conflicts = ComparisonResult.direction_conflicts
    procedure = ComparisonResult.procedure
    omnibus_sentence = ComparisonResult.omnibus_sentence
    posthoc_sentences = ComparisonResult.posthoc_sentences
    conclusion = ComparisonResult.conclusion
    to_frame = ComparisonResult.to_frame  # its mean_score column is empty

    @property
    def limitations(self) -> str:
        """What average ranks cannot give, in one paragraph."""
        return LIMITATIONS

    def _headline(self) -> str:
        p = format_p(self.friedman.pvalue, prefix=True, space="")
        return (
            f"{self.n_methods} methods on {self.n_datasets} data sets (average ranks only), "
            f"Friedman {p}, {self.test}"
        )

    def __str__(self) -> str:
        title = (
            f"Comparison of {self.n_methods} methods on {self.n_datasets} data sets, "
            "from their average ranks alone"
        )
        if self.metric:
            title += f" ({self.metric})"
        # the ranking, tests and conclusion laid out as a ComparisonResult lays them out
        return title + "\n" + ComparisonResult.__str__(self).split("\n", 1)[1]

    def to_dict(self, *, matrices: bool | None = None) -> dict:
        """Return a JSON-safe dictionary (see ``cdplot stats --ranks --json``).

        The keys are :meth:`ComparisonResult.to_dict`'s for what exists;
        ``input`` is ``"average_ranks"`` and ``limitations`` says what
        cannot be computed.

        Parameters
        ----------
        matrices : bool, optional
            Include the ``k x k`` matrices (default: up to
            :data:`~cdplot.stats._resultkit.JSON_MATRIX_MAX_METHODS` methods).
        """
        matrices, why = json_matrices(matrices, self.n_methods)
        m = self.methods

        def matrix(a):
            return matrix_dict(a, m) if matrices else None

        return {
            "input": "average_ranks",
            "metric": self.metric,
            "n_datasets": self.n_datasets,
            "n_methods": self.n_methods,
            "alpha": self.alpha,
            "higher_is_better": self.higher_is_better,
            "direction_reason": self.direction_reason,
            "test": self.test,
            "correction": self.correction,
            "control": self.control,
            "methods": list(m),
            "average_ranks": dict(zip(m, self.average_ranks.tolist(), strict=True)),
            "rank_order": list(self.order()),
            "friedman": self.friedman.to_dict(),
            "iman_davenport": self.iman_davenport.to_dict(),
            "critical_value": num(self.critical_value),
            "critical_difference": num(self.critical_difference),
            "statistics": matrix(self.statistics),
            "pvalues_unadjusted": matrix(self.pvalues_unadjusted),
            "pvalues": matrix(self.pvalues),
            "matrices_omitted": None if matrices else f"the k x k matrices are {why}",
            "significant_pairs": list(map(list, self.significant_pairs())),
            # the rank tests take the side of the better average rank: never a conflict
            "direction_conflicts": [],
            "all_pairs_tested": self.all_pairs_tested,
            "cliques": [list(c) for c in self.cliques] if self.all_pairs_tested else None,
            "unjoined": list(map(list, self.unjoined)) if self.all_pairs_tested else None,
            "bridges": list(map(list, self.bridges)) if self.all_pairs_tested else None,
            "options": dict(self.options),
            "limitations": LIMITATIONS,
            "notes": list(self.notes),
            "source": self.source,
            "conclusion": self.conclusion(),
        }


def _validate_n(n_datasets) -> int:
    return whole_number(
        n_datasets,
        "option n_datasets",
        minimum=2,
        what="data sets the ranks were averaged over",
        why="the Friedman test needs at least 2 data sets",
    )


def _validate_ranks(ranks: AverageRanks, n: int | None) -> np.ndarray:
    k = ranks.n_methods
    src = f"{ranks.source}: " if ranks.source else ""
    if k < 2:
        raise CdplotError(
            f"{src}{k} average rank{'s' if k != 1 else ''} given; a comparison "
            "needs at least 2 methods"
        )
    check_pairwise_size(k)
    if len(set(ranks.methods)) != k:
        twice = next(m for m in ranks.methods if ranks.methods.count(m) > 1)
        raise CdplotError(f"{src}method {twice!r} appears twice; each method has one average rank")
    avg = np.asarray(ranks.values, dtype=float)
    expected = k * (k + 1) / 2.0
    found = math.fsum(avg.tolist())
    # each printed rank is off by at most half a unit of its last decimal
    rounding = 0.0 if ranks.decimals is None else k * 0.5 * 10.0**-ranks.decimals
    tol = rounding + 1e-9 * expected
    if n is not None and abs(found - n * expected) <= n * tol:
        raise CdplotError(
            f"{src}the values sum to {found:.6g}, N k(k+1)/2 = {n * expected:g} for N = {n} and "
            f"k = {k}: these look like rank sums, not average ranks; divide them by N"
        )
    bad = np.flatnonzero((avg < 1.0) | (avg > k))
    if bad.size:
        i = int(bad[0])
        raise CdplotError(
            f"{ranks.where(i)}: average rank {avg[i]:g} is outside [1, {k}]; with {k} methods "
            "every average rank lies between 1 (best everywhere) and k (worst everywhere)"
            + ("; is a method missing?" if avg[i] > k else "")
        )
    if abs(found - expected) > tol:
        printed = (
            f"more than the rounding of {ranks.decimals} decimals allows ({tol:.2g})"
            if ranks.decimals is not None
            else f"more than {tol:.2g}"
        )
        raise CdplotError(
            f"{src}the average ranks sum to {found:.6g}, but the average ranks of {k} methods sum "
            f"to k(k+1)/2 = {expected:g} (rank sums N k(k+1)/2), off by {printed}; likely a "
            f"method is missing or extra, or the values are not average ranks of these {k} "
            "methods (1 = best)"
        )
    return avg


@share
def compare_ranks(
    average_ranks: Mapping[str, float] | AverageRanks | str | os.PathLike[str] | ArrayLike,
    n_datasets: int,
    *,
    alpha: float = 0.05,
    test: RankTest = "nemenyi",
    correction: Correction | None = None,
    control: str | None = None,
    methods: Sequence[str] | None = None,
) -> RankComparison:
    """Compare methods from their average ranks alone: Friedman, Iman-Davenport, CD, groups.

    For the average ranks printed in another paper (Orange's
    ``graph_ranks`` use case).  Everything Demsar's procedure computes from
    average ranks is computed with the functions :func:`cdplot.compare`
    uses, so both give the same CD, groups and uncorrected statistics for
    the same ranks.

    Parameters
    ----------
    %(average_ranks)s
    n_datasets : int
        Number of data sets ``N`` the ranks were averaged over, at least 2.
    %(alpha)s
    test : {'nemenyi', 'bonferroni-dunn', 'friedman-z'}, default 'nemenyi'
        Post-hoc procedure, as in :func:`cdplot.compare`; ``'friedman-z'``
        corrects the rank z-test p-values with ``correction``.  The tests
        that need scores (``'wilcoxon'``, ``'sign'``) are refused.
    correction : {'bonferroni', 'holm', 'hochberg', 'hommel', 'shaffer', 'bergmann'}, optional
        Correction of the rank z-tests for ``'friedman-z'`` (default ``'holm'``).
    control : str, optional
        Compare only with this method (``'bonferroni-dunn'`` defaults to the
        best-ranked one).
    %(ranks_methods)s

    Returns
    -------
    RankComparison
        Ranks, tests, p-values, critical difference and groups, with what
        average ranks cannot give in ``notes``; ``print`` it for the
        conclusion in words.

    Raises
    ------
    CdplotError
        With a one-line message: fewer than 2 methods, a rank outside
        ``[1, k]``, ranks whose sum is not ``k (k + 1) / 2`` within the
        rounding of the decimals given (the message gives the sum found,
        the sum expected and the likely cause), ``n_datasets`` below 2 or
        not whole, a test that needs scores, or an invalid option.

    Notes
    -----
    ``chi2_F = 12 N / (k (k+1)) [sum_j R_j**2 - k (k+1)**2 / 4]`` and
    ``F_F = (N - 1) chi2_F / (N (k - 1) - chi2_F)``, Demsar's formulas
    without the tie correction, which needs the ranks on each data set
    (``cdplot.compare`` reports both).  Printed average ranks are rounded,
    so the statistics are as exact as the ranks given: Demsar's Table 6
    ranks (3 decimals) give ``chi2_F = 9.2836`` where the unrounded ranks
    give ``9.2786``.

    References
    ----------
    .. [1] J. Demsar, "Statistical comparisons of classifiers over multiple
           data sets", JMLR 7 (2006) 1-30, sections 3.2.2 and 3.2.4.

    Examples
    --------
    >>> import cdplot
    >>> res = cdplot.compare_ranks(
    ...     {"C4.5": 3.143, "C4.5+m": 2.000, "C4.5+cf": 2.893, "C4.5+m+cf": 1.964}, 14
    ... )
    >>> round(res.friedman.statistic, 2), round(res.iman_davenport.statistic, 2)
    (9.28, 3.69)
    >>> round(res.critical_difference, 2)
    1.25
    >>> res.significant_pairs()
    ()
    >>> ranks = dict(zip(res.methods, res.average_ranks))
    >>> cdplot.compare_ranks(ranks, 14, alpha=0.10).significant_pairs()
    (('C4.5+m+cf', 'C4.5'), ('C4.5+m', 'C4.5'))
    """
    if test in _SCORE_TESTS:
        raise CdplotError(
            f"option {opt('test', test)}: the {_SCORE_TESTS[test]} needs the scores on each data "
            "set, which average ranks do not have; use 'nemenyi', 'bonferroni-dunn' or "
            "'friedman-z'",
            option="test",
        )
    n = _validate_n(n_datasets)
    check_alpha(alpha)
    ranks = as_average_ranks(average_ranks, methods=methods)
    avg = _validate_ranks(ranks, n)
    names = ranks.methods
    test, correction, alpha = _validate_options(
        test, correction, control, names, alpha, "demsar", "auto"
    )
    if test not in RANK_TESTS:  # a test added to TESTS that needs scores
        raise CdplotError(
            f"option {opt('test', test)} needs scores; average ranks allow {RANK_TESTS}",
            option="test",
        )
    fr, idr = friedman_from_average_ranks(avg, n)
    if test == "bonferroni-dunn" and control is None:
        control = names[int(np.argmin(avg))]
    ctrl = None if control is None else names.index(control)
    stats, p_raw, p_adj = rank_statistics(avg, n, test)
    stats, p_raw, p_adj, cv, cd, significant = decide(
        avg, n, stats, p_raw, p_adj, test=test, correction=correction, ctrl=ctrl, alpha=alpha
    )
    cliques, unjoined, bridge_names = groups(names, avg, significant, ctrl)
    notes = [LIMITATIONS, *ranks.notes, *omnibus_notes(idr.pvalue, alpha, n)]
    return RankComparison(
        methods=names,
        n_methods=len(names),
        n_datasets=n,
        average_ranks=avg,
        alpha=alpha,
        test=test,
        correction=None if test == "nemenyi" else correction,
        control=control,
        friedman=fr,
        iman_davenport=idr,
        critical_value=cv,
        critical_difference=cd,
        statistics=stats,
        pvalues_unadjusted=p_raw,
        pvalues=p_adj,
        significant=significant,
        cliques=cliques,
        unjoined=unjoined,
        bridges=bridge_names,
        notes=tuple(notes),
        source=ranks.source,
        sha256=ranks.sha256,
    )
