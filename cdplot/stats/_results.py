"""Result objects of the statistics core.

Results are frozen dataclasses with read-only arrays.  They hold numbers,
not opinions: every sentence in ``__str__`` is derived from the fields, so a
report, a figure and a terminal always say the same thing.
"""

from __future__ import annotations

import functools
import html
import math
from collections.abc import Mapping, Sequence
from dataclasses import field

import numpy as np

from .._options import PAIRED_TESTS, PairedTest, check_option
from ..errors import CdplotError, opt
from ..io import ScoreTable
from ..io._export import to_frame
from ._effect_sizes import (
    EffectSizes,
    _assemble,
    against_claim,
    describe_pairs,
    effect_sizes_dict,
    method_summaries,
    pair_matrices,
    pair_text,
)
from ._formatting import format_p
from ._per_dataset import VersusBest, versus_best
from ._resultkit import (
    JSON_MATRIX_MAX_METHODS,
    Result,
    join_names,
    json_matrices,
    matrix_dict,
    method_index,
    notes_lines,
    num,
    readonly,
    readonly_mapping,
    result,
    sentence,
    tuples,
    wrap,
)

__all__ = [
    "FriedmanResult",
    "ImanDavenportResult",
    "ComparisonResult",
    "RankTestResult",
    "TEST_LABELS",
    "CORRECTION_LABELS",
]

TEST_LABELS = {
    "nemenyi": "Nemenyi",
    "bonferroni-dunn": "Bonferroni-Dunn",
    "friedman-z": "Friedman rank z-test",
    "wilcoxon": "Wilcoxon signed-rank",
    "sign": "sign test",
}

CORRECTION_LABELS = {
    None: "no correction",
    "bonferroni": "Bonferroni",
    "holm": "Holm",
    "hochberg": "Hochberg",
    "hommel": "Hommel",
    "shaffer": "Shaffer's static",
    "bergmann": "Bergmann-Hommel",
}


#: Most pairs whose effect sizes ``str(result)`` lists (largest first); beyond, it counts.
MAX_LISTED_EFFECTS = 10
#: Largest ``n_datasets * n_methods**2`` for which ``str(result)`` computes every pair's
#: effect sizes to list the largest (about 0.1 s); beyond (10,000 data sets x 100 methods
#: is 1e8, about half a second), it lists the first significant pairs in rank order, each
#: computed alone, so that ``cdplot stats`` stays as fast as the analysis.
EFFECT_STR_BUDGET = 20_000_000
#: Most significant pairs the conclusion lists one by one; beyond, it summarises.
MAX_LISTED_PAIRS = 30
#: Most method names the conclusion lists in groups; beyond, it summarises.
MAX_LISTED_NAMES = 60


def _pairs_sentence(
    pairs, n_pairs: int, k: int, all_pairs: bool, *, max_pairs: int, more_pairs: str
) -> str:
    """``a is significantly better than b and c; ...``, summarised beyond ``max_pairs``.

    ``pairs`` holds the first pairs in rank order, ``n_pairs`` counts them all;
    ``more_pairs`` says where the rest are.
    """
    shown = pairs[:max_pairs]
    better: dict[str, list[str]] = {}
    for a, b in shown:
        better.setdefault(a, []).append(b)
    text = "; ".join(
        f"{a} is significantly better than {join_names(bs)}" for a, bs in better.items()
    )
    if n_pairs > len(shown):
        tested = k * (k - 1) // 2 if all_pairs else k - 1
        return (
            f"{n_pairs} of the {tested} pairs tested differ significantly; the first "
            f"{len(shown)} in rank order: {text} (the rest are in {more_pairs})."
        )
    return text + "."


@result
class FriedmanResult(Result):
    """Friedman's test of equal average ranks.

    Attributes
    ----------
    statistic : float
        The chi-square statistic, tie-corrected when ``tie_correction`` is true
        (as R's ``friedman.test`` and ``scipy.stats.friedmanchisquare``).
    pvalue : float
        Upper tail of chi-square with ``dof`` degrees of freedom at ``statistic``.
    dof : int
        ``k - 1``.
    statistic_uncorrected : float
        Demsar's (2006) textbook formula, which ignores ties.
    pvalue_uncorrected : float
        Its p-value.
    tie_correction : bool
        Whether ``statistic`` is the tie-corrected value.
    """

    statistic: float
    pvalue: float
    dof: int
    statistic_uncorrected: float
    pvalue_uncorrected: float
    tie_correction: bool = True

    def to_dict(self) -> dict:
        """Return a JSON-safe dictionary."""
        return {
            "statistic": num(self.statistic),
            "pvalue": num(self.pvalue),
            "dof": int(self.dof),
            "statistic_uncorrected": num(self.statistic_uncorrected),
            "pvalue_uncorrected": num(self.pvalue_uncorrected),
            "tie_correction": self.tie_correction,
        }

    def _headline(self) -> str:
        return f"chi2({self.dof}) = {self.statistic:.4f}, {format_p(self.pvalue, prefix=True)}"

    def __str__(self) -> str:
        kind = "tie-corrected" if self.tie_correction else "uncorrected"
        p = format_p(self.pvalue, prefix=True)
        return f"Friedman chi2({self.dof}) = {self.statistic:.4f} ({kind}), {p}"


@result
class ImanDavenportResult(Result):
    """Iman and Davenport's F statistic, ``F_F = (N-1) chi2 / (N(k-1) - chi2)``.

    Attributes
    ----------
    statistic : float
        ``F_F`` computed from the Friedman statistic that the analysis uses
        (tie-corrected unless ``tie_correction=False``); infinite when all
        data sets rank the methods identically.
    pvalue : float
        Upper tail of F with ``dof`` degrees of freedom.
    dof : tuple of int
        ``(k - 1, (k - 1)(N - 1))``.
    statistic_uncorrected : float
        ``F_F`` from Demsar's uncorrected chi-square, as printed in his paper.
    pvalue_uncorrected : float
        Its p-value.
    """

    statistic: float
    pvalue: float
    dof: tuple[int, int]
    statistic_uncorrected: float
    pvalue_uncorrected: float

    def to_dict(self) -> dict:
        """Return a JSON-safe dictionary."""
        return {
            "statistic": num(self.statistic) if math.isfinite(self.statistic) else None,
            "pvalue": num(self.pvalue),
            "dof": [int(self.dof[0]), int(self.dof[1])],
            "statistic_uncorrected": num(self.statistic_uncorrected)
            if math.isfinite(self.statistic_uncorrected)
            else None,
            "pvalue_uncorrected": num(self.pvalue_uncorrected),
        }

    def _headline(self) -> str:
        return (
            f"F({self.dof[0]}, {self.dof[1]}) = {self.statistic:.4f}, "
            f"{format_p(self.pvalue, prefix=True)}"
        )

    def __str__(self) -> str:
        return (
            f"Iman-Davenport F({self.dof[0]}, {self.dof[1]}) = "
            f"{self.statistic:.4f}, {format_p(self.pvalue, prefix=True)}"
        )


@result
class RankTestResult(Result):
    """All-pairs rank tests from average ranks, as returned by :func:`~cdplot.stats.nemenyi`
    and :func:`~cdplot.stats.rank_z`.

    Attributes
    ----------
    test : {'nemenyi', 'friedman-z'}
        Nemenyi's family-wise p-values, or the unadjusted rank z-tests.
    methods : tuple of str
        Names, in input order.
    average_ranks : ndarray, shape (k,)
    n_datasets : int
        ``N``, the number of data sets the ranks were averaged over.
    statistics : ndarray, shape (k, k)
        ``z = (R_i - R_j) / sqrt(k (k + 1) / (6 N))``; antisymmetric.
    pvalues : ndarray, shape (k, k)
        Two-sided p-values (family-wise for Nemenyi); 1 on the diagonal.
    """

    test: str
    methods: tuple[str, ...]
    average_ranks: np.ndarray
    n_datasets: int
    statistics: np.ndarray
    pvalues: np.ndarray

    def __post_init__(self):
        object.__setattr__(self, "methods", tuple(self.methods))
        for name in ("average_ranks", "statistics", "pvalues"):
            object.__setattr__(self, name, readonly(getattr(self, name)))

    @property
    def n_methods(self) -> int:
        """``k``."""
        return len(self.methods)

    def index(self, method: str) -> int:
        """Position of ``method``; raises :class:`CdplotError` for unknown names."""
        return method_index(self.methods, method)

    def order(self) -> tuple[str, ...]:
        """Method names from the best average rank to the worst (stable for ties)."""
        return tuple(self.methods[i] for i in np.argsort(self.average_ranks, kind="stable"))

    def average_rank(self, method: str) -> float:
        """Average rank of one method."""
        return float(self.average_ranks[self.index(method)])

    def pvalue(self, a: str, b: str) -> float:
        """p-value of the comparison of ``a`` with ``b``."""
        return float(self.pvalues[self.index(a), self.index(b)])

    def statistic(self, a: str, b: str) -> float:
        """``z`` of ``a`` against ``b`` (positive when ``a`` has the larger average rank)."""
        return float(self.statistics[self.index(a), self.index(b)])

    def _headline(self) -> str:
        label = TEST_LABELS[self.test]
        return f"{label}, {self.n_methods} methods on {self.n_datasets} data sets"

    def __str__(self) -> str:
        width = max(len(m) for m in self.methods)
        label = TEST_LABELS[self.test]
        kind = "family-wise" if self.test == "nemenyi" else "unadjusted"
        lines = [
            f"{label} ({kind} p-values), {self.n_methods} methods on {self.n_datasets} data sets",
            "",
        ]
        order = self.order()
        for i, a in enumerate(order):
            for b in order[i + 1 :]:
                lines.append(
                    f"{a:<{width}}  vs  {b:<{width}}  z = {self.statistic(a, b):+.4f}, "
                    f"{format_p(self.pvalue(a, b), prefix=True)}"
                )
        return "\n".join(lines)

    def to_dict(self) -> dict:
        """Return a JSON-safe dictionary."""
        return {
            "test": self.test,
            "methods": list(self.methods),
            "average_ranks": {
                m: float(r) for m, r in zip(self.methods, self.average_ranks, strict=True)
            },
            "n_datasets": int(self.n_datasets),
            "statistics": matrix_dict(self.statistics, self.methods),
            "pvalues": matrix_dict(self.pvalues, self.methods),
        }


def _control_sentences(result) -> list[str]:
    """With a control and a significant pair: the methods that do not differ from it."""
    out = []
    c = result.index(result.control)
    same = [
        m
        for m in result.order()
        if m != result.control and not result.significant[c, result.index(m)]
    ]
    if same:
        shown = join_names(same) if len(same) <= MAX_LISTED_PAIRS else f"{len(same)} methods"
        out.append(
            f"{shown} {'does' if len(same) == 1 else 'do'} not differ significantly "
            f"from the control {result.control}."
        )
    return out


def _conflict_sentences(result) -> list[str]:
    """Significant pairs whose direction goes against the average ranks (three named)."""
    out = []
    conflicts = result.direction_conflicts()
    if conflicts:
        label = TEST_LABELS.get(result.test, result.test)
        label = label if label.endswith("test") else f"{label} test"
        avg = dict(zip(result.methods, result.average_ranks.tolist(), strict=True))
        for a, b in conflicts[:3]:
            out.append(
                f"The {label} finds {a} significantly better than {b}, although {b} has the "
                f"better average rank ({avg[b]:.3f} against {avg[a]:.3f}): the pairwise test "
                "and the ranks over all methods disagree on this pair."
            )
        if len(conflicts) > 3:
            out.append(
                f"{len(conflicts) - 3} more significant pairs go against the average ranks "
                "in the same way (see direction_conflicts())."
            )
    return out


def _group_sentences(result, more_groups: str) -> list[str]:
    """The groups that do not differ inside, listed or summarised (none when one holds all)."""
    out = []
    if len(result.cliques) == 1 and len(result.cliques[0]) == result.n_methods:
        pass
    elif result.cliques:
        listed = sum(len(c) for c in result.cliques)
        if listed <= MAX_LISTED_NAMES:
            groups = "; ".join("{" + ", ".join(c) + "}" for c in result.cliques)
            out.append(f"Groups of methods that do not differ significantly: {groups}.")
        else:
            largest = max(len(c) for c in result.cliques)
            out.append(
                f"{len(result.cliques)} groups of methods do not differ significantly inside "
                f"(the largest has {largest} methods; see {more_groups})."
            )
    return out


def _remark_sentences(result) -> list[str]:
    """Bridges and unjoined pairs: one sentence each up to three, else one summary."""
    out = []
    if len(result.bridges) <= 3:
        for a, b, c in result.bridges:
            out.append(f"{a} and {c} differ significantly, although {b} differs from neither.")
    else:
        a, b, c = result.bridges[0]
        out.append(
            f"{len(result.bridges)} pairs differ significantly although a method ranked between "
            "them "
            f"differs from neither (for example {a} and {c}, with {b} between them), so "
            "overlapping "
            "groups must not be read as one."
        )
    if len(result.unjoined) <= 3:
        for a, b in result.unjoined:
            out.append(
                f"{a} and {b} do not differ significantly, but share no group because a method "
                "ranked between them differs from one of them."
            )
    else:
        a, b = result.unjoined[0]
        out.append(
            f"{len(result.unjoined)} pairs do not differ significantly but share no group, "
            "because a "
            f"method ranked between them differs from one of them (for example {a} and {b})."
        )
    return out


def freeze_rank_fields(res, arrays: tuple[str, ...]) -> None:
    """Make the fields every rank comparison has read-only, as its ``__post_init__``.

    ``arrays`` are the result's own arrays; the direction is derived from the
    average ranks when not given; significance, groups, names, notes and
    options are frozen the same way for :class:`ComparisonResult`,
    ``RankComparison`` and ``PosthocComparison``.
    """
    for name in arrays:
        object.__setattr__(res, name, readonly(getattr(res, name)))
    if res.direction is None:
        avg = res.average_ranks
        # a lower average rank is better: +1 where the row method ranks better
        diff = avg[None, :] - avg[:, None]
        np.sign(diff, out=diff)
        diff.setflags(write=False)  # fresh: kept as it is, not copied
        object.__setattr__(res, "direction", diff)
    object.__setattr__(res, "direction", readonly(res.direction))
    object.__setattr__(res, "significant", readonly(res.significant, dtype=bool))
    for name in ("cliques", "unjoined", "bridges"):
        object.__setattr__(res, name, tuples(getattr(res, name)))
    object.__setattr__(res, "methods", tuple(res.methods))
    object.__setattr__(res, "options", readonly_mapping(res.options))
    object.__setattr__(res, "notes", tuple(res.notes))


@result
class ComparisonResult(Result):
    """The complete analysis of a score table, as returned by :func:`cdplot.compare`.

    Methods are kept in input order in every array; :meth:`order` gives the
    rank order (best first).

    Attributes
    ----------
    scores : ScoreTable
        The table analysed (after any data sets were dropped).
    methods, datasets : tuple of str
        Names, in input order.
    n_methods, n_datasets : int
        ``k`` and ``N``.
    higher_is_better : bool
        The direction used for ranking.
    alpha : float
        Significance level.
    test : str
        Post-hoc procedure: ``'nemenyi'``, ``'bonferroni-dunn'``,
        ``'friedman-z'``, ``'wilcoxon'`` or ``'sign'``.
    correction : str or None
        Multiple-testing correction applied to the pairwise p-values
        (``None`` for Nemenyi, whose critical value already covers all pairs).
    control : str or None
        The control method for comparisons with a control, else ``None``.
    ranks : ndarray, shape (N, k)
        Rank of each method on each data set, 1 = best, mid-ranks for ties.
    average_ranks : ndarray, shape (k,)
        Mean rank of each method.
    friedman : FriedmanResult
    iman_davenport : ImanDavenportResult
    critical_value : float or None
        ``q_alpha`` of the CD-based tests (Nemenyi, Bonferroni-Dunn), else ``None``.
    critical_difference : float or None
        ``q_alpha * sqrt(k (k + 1) / (6 N))`` for the CD-based tests, else ``None``.
    statistics : ndarray, shape (k, k)
        The pairwise test statistic (z for rank tests, Wilcoxon's T, the
        sign test's wins); NaN for pairs that were not tested and on the diagonal.
    pvalues_unadjusted : ndarray, shape (k, k)
        Unadjusted two-sided p-values; NaN where not tested, 1 on the diagonal.
    pvalues : ndarray, shape (k, k)
        p-values adjusted by the procedure (Nemenyi's studentized range,
        or ``correction``); NaN where not tested, 1 on the diagonal.
    significant : ndarray of bool, shape (k, k)
        Whether each pair differs significantly at ``alpha``.  For the
        CD-based tests this is ``|R_i - R_j| >= CD``, as in Demsar's text.
    cliques : tuple of tuple of str
        Maximal groups of methods, consecutive in rank order, in which no
        two members differ significantly; best group first.
    unjoined : tuple of (str, str)
        Pairs that do not differ significantly but share no clique (the
        groups cannot show it, because a method between them differs from one).
    bridges : tuple of (str, str, str)
        ``(a, b, c)``: ``a`` and ``c`` differ significantly, while ``b``,
        ranked between them, differs from neither; one triple per such pair
        ``(a, c)``, with the first such ``b`` in rank order.
        A read-only sequence (:class:`~cdplot.stats._cliques.Bridges`, equal
        to the tuple of triples) that knows its length and first triple and
        lists the others on first use: there are O(k^2) of them.
    options : mapping
        Other options used (``tie_correction``, ``zero_method``,
        ``method``, ``nan_policy``), for reproducibility; read-only.
    notes : tuple of str
        Warnings and remarks in words (dropped or averaged data, small N).
    direction : ndarray, shape (k, k)
        Which side of each pair the pairwise test itself favours: ``+1`` where
        the row method is the better one, ``-1`` where the column method is,
        ``0`` for no side or an untested pair.  The rank tests (Nemenyi,
        Bonferroni-Dunn, rank z-tests) take it from the average ranks; the
        Wilcoxon test from ``R+ - R-`` and the sign test from the wins, which
        can disagree with the average ranks (see :meth:`direction_conflicts`).
        Defaults to the average-rank order.
    direction_reason : str or None
        Why ``higher_is_better`` is what it is, in words ("lower is better,
        inferred from the column name 'loss'", "higher is better by
        default", "higher is better, as asked"); captions and reports repeat
        it, and ``notes`` holds the full sentence.
    effect_sizes : EffectSizes
        Cliff's δ and Cohen's d of every pair of methods over the data sets'
        scores (positive: the row method is better) with magnitude labels,
        and each method's mean, standard deviation, median and their
        confidence intervals at ``1 - alpha``.  A property, computed on first
        use and kept, so that an analysis that never looks at it costs
        nothing more.

    Notes
    -----
    With a ``control`` only the pairs that contain it were tested.  Such an
    analysis says nothing about two other methods, so ``cliques``,
    ``unjoined`` and ``bridges`` are empty, :attr:`all_pairs_tested` is
    false and the words say that only comparisons with the control were
    made (García and Herrera 2008 group methods only from all-pairs tests).
    """

    scores: ScoreTable
    methods: tuple[str, ...]
    datasets: tuple[str, ...]
    n_methods: int
    n_datasets: int
    higher_is_better: bool
    alpha: float
    test: str
    correction: str | None
    control: str | None
    ranks: np.ndarray
    average_ranks: np.ndarray
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
    options: Mapping[str, bool | str] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    direction: np.ndarray | None = None
    direction_reason: str | None = None

    def __post_init__(self):
        freeze_rank_fields(
            self, ("ranks", "average_ranks", "statistics", "pvalues_unadjusted", "pvalues")
        )

    # ---- derived quantities -------------------------------------------------
    @property
    def metric(self) -> str | None:
        """The measure analysed, if the table names it."""
        return self.scores.metric

    @functools.cached_property
    def effect_sizes(self) -> EffectSizes:
        """Cliff's δ, Cohen's d and per-method summaries of the scores analysed.

        See :func:`cdplot.stats._effect_sizes`; Cliff's δ is the
        measure of the rank tests.  Computed on first use and kept.
        """
        return _assemble(
            self.scores.values,
            self.methods,
            self.higher_is_better,
            self.alpha,
            "cliffs_delta",
            matrices=self._effect_matrices,
        )

    def versus_best(self, test: PairedTest = "wilcoxon") -> VersusBest:
        """Each method against the best of each data set, over the scores' repetitions.

        The within-data-set question a paper table's underlines answer (the
        post-hoc tests compare methods over all data sets): :func:`versus_best`
        of ``scores.repetition_scores``, the best of each data set being its
        first method of the lowest rank (the one a table prints in bold).

        Parameters
        ----------
        test : {'wilcoxon', 't-test'}, default 'wilcoxon'
            The paired test over the repetitions both methods have.

        Returns
        -------
        VersusBest
            Holm-adjusted p-values within each data set; ``worse(alpha)``
            and ``describe(alpha)`` give the marks and their words.

        Raises
        ------
        CdplotError
            If the scores have fewer than two repetitions per cell, or rows
            that name no repetition (nothing to pair them by).
        """
        check_option("test", test, PAIRED_TESTS)
        table = self.scores
        reps = table.repetition_scores
        if reps is None or int(table.n_repetitions.max()) < 2:
            raise CdplotError(
                f"option {opt('test', test)} tests each data set over its repetitions, and these "
                "scores have none (a long table with a fold or seed column has them, read with the "
                "reader's keep_repetitions option)",
                option="test",
            )
        if table.repetition_labels is None:
            raise CdplotError(
                f"option {opt('test', test)} pairs the repetitions of two methods by their label, "
                f"and these rows name none (no fold/seed column); pass {opt('repetition_col')}",
                option="repetition_col",
            )
        # ranks are multiples of 1/2 (or averages of them): ties within a tolerance
        best = self.ranks <= self.ranks.min(axis=1, keepdims=True) + 1e-9
        return versus_best(
            reps, np.argmax(best, axis=1), test=test, higher_is_better=self.higher_is_better
        )

    @functools.cached_property
    def _effect_matrices(self) -> tuple[np.ndarray, np.ndarray]:
        # the pairs' delta and d alone: what str() needs, without the per-method summaries
        return pair_matrices(self.scores.values, higher_is_better=self.higher_is_better)

    def _effect_lines(self) -> list[str]:
        """The effect sizes of the significant pairs, for ``__str__``."""
        if self.n_methods > JSON_MATRIX_MAX_METHODS:
            return [
                f"Effect sizes (Cliff's delta, Cohen's d) of {self.n_methods} methods are left out "
                "of this summary; result.effect_sizes computes them."
            ]
        pairs = self.significant_pairs()
        if pairs and self.n_datasets * self.n_methods**2 > EFFECT_STR_BUDGET:
            return self._first_effect_lines(pairs)
        delta, d = self._effect_matrices
        if not pairs:
            # off the diagonal: with every delta 0 the argmax was (0, 0), "A vs A"
            size = np.abs(delta)
            np.fill_diagonal(size, -1.0)
            i, j = np.unravel_index(int(np.argmax(size)), delta.shape)
            if delta[i, j] < 0:
                i, j = j, i
            a, b = self.methods[i], self.methods[j]
            return wrap(
                f"Effect sizes: no pair differs significantly; the largest effect is {a} vs {b}: "
                f"{pair_text(delta[i, j], d[i, j])} (positive: the first method is better; "
                "magnitudes after Romano et al. 2006 and Cohen 1988; every pair in "
                "result.effect_sizes)."
            )
        return describe_pairs(
            self.methods, delta, d, pairs, limit=MAX_LISTED_EFFECTS, test=self._test_label()
        )

    def _test_label(self) -> str:
        """The pairwise test in words, ``'Wilcoxon signed-rank test'``, without the correction."""
        label = TEST_LABELS.get(self.test, self.test)
        return label if label.endswith("test") else f"{label} test"

    def _first_effect_lines(self, pairs) -> list[str]:
        """The first significant pairs in rank order, each pair's effects computed alone."""
        x = self.scores.values
        shown = pairs[:MAX_LISTED_EFFECTS]
        lines = wrap(
            f"Effect sizes of the first {len(shown)} of the {len(pairs)} significant pairs in "
            "rank order (Cliff's delta first; positive: the first method is better; magnitudes "
            "after Romano et al. 2006 for delta and Cohen 1988 for d):"
        )
        for a, b in shown:
            two = x[:, [self.index(a), self.index(b)]]
            delta, d = pair_matrices(two, higher_is_better=self.higher_is_better)
            lines.append(f"  {a} vs {b}: {pair_text(delta[0, 1], d[0, 1])}")
            lines += against_claim(delta[0, 1], d[0, 1], b, self._test_label())
        if len(pairs) > len(shown):
            lines.append(
                f"  ... and {len(pairs) - len(shown)} more (every pair, largest first, is in "
                "effect_sizes of the JSON output)"
            )
        return lines

    @property
    def rejected(self) -> bool:
        """Whether the omnibus test (Iman-Davenport ``F_F``) rejects equal performance."""
        return bool(self.iman_davenport.pvalue <= self.alpha)

    def index(self, method: str) -> int:
        """Column index of ``method``; raises :class:`CdplotError` for unknown names."""
        return method_index(self.methods, method)

    def order(self) -> tuple[str, ...]:
        """Method names sorted from the best average rank to the worst (stable for ties)."""
        idx = np.argsort(self.average_ranks, kind="stable")
        return tuple(self.methods[i] for i in idx)

    def average_rank(self, method: str) -> float:
        """Average rank of one method."""
        return float(self.average_ranks[self.index(method)])

    def pvalue(self, a: str, b: str) -> float:
        """Adjusted p-value of the comparison of ``a`` with ``b`` (NaN if not tested)."""
        return float(self.pvalues[self.index(a), self.index(b)])

    def is_significant(self, a: str, b: str) -> bool:
        """Whether ``a`` and ``b`` differ significantly at ``alpha``."""
        return bool(self.significant[self.index(a), self.index(b)])

    @property
    def all_pairs_tested(self) -> bool:
        """Whether every pair was tested; false with a control, whose analysis forms no groups."""
        return self.control is None

    @functools.cached_property
    def _significant_index_pairs_cached(self) -> tuple[np.ndarray, np.ndarray]:
        # the fields are frozen and read-only, so the pairs can be computed once
        return self._significant_index_pairs()

    def _significant_index_pairs(self) -> tuple[np.ndarray, np.ndarray]:
        """Column indices ``(better, worse)`` of the significant pairs, in rank order.

        Vectorised (no per-pair Python work), so that thousands of methods
        cost O(k^2).  ``better`` is the side the pairwise test favours
        (:attr:`direction`), which for the Wilcoxon and sign tests need not
        be the better average rank.
        """
        order = np.argsort(self.average_ranks, kind="stable")
        k = len(order)
        pos = np.arange(k)
        # blocks of about 4 million cells: the whole upper triangle's index arrays
        # and their temporaries cost over 300 MB at 5,000 methods (12.5 million pairs)
        step = max(1, (1 << 22) // max(k, 1))
        index = np.int32 if k < 2**31 else np.int64
        better, worse = [np.zeros(0, dtype=index)], [np.zeros(0, dtype=index)]
        for start in range(0, k, step):
            rows = order[start : start + step]
            block = self.significant[np.ix_(rows, order)]
            block &= pos[None, :] > pos[start : start + len(rows), None]
            pi, pj = np.nonzero(block)
            a, b = rows[pi].astype(index), order[pj].astype(index)
            flip = self.direction[a, b] < 0
            better.append(np.where(flip, b, a))
            worse.append(np.where(flip, a, b))
        return np.concatenate(better), np.concatenate(worse)

    def significant_pairs(self) -> tuple[tuple[str, str], ...]:
        """Pairs ``(better, worse)`` that differ significantly, best comparisons first.

        ``better`` is the method the pairwise test finds better: for the
        rank tests the one with the better average rank, for the Wilcoxon
        test the side of the larger rank sum, for the sign test the side
        with more wins.  Pairs are listed in the rank order of the methods.
        """
        better, worse = self._significant_index_pairs_cached
        m = self.methods
        return tuple(
            zip(
                map(m.__getitem__, better.tolist()), map(m.__getitem__, worse.tolist()), strict=True
            )
        )

    def _first_significant_pairs(self, limit: int) -> tuple[tuple[str, str], ...]:
        better, worse = self._significant_index_pairs_cached
        m = self.methods
        return tuple((m[i], m[j]) for i, j in zip(better[:limit], worse[:limit], strict=True))

    def direction_conflicts(self) -> tuple[tuple[str, str], ...]:
        """Significant pairs ``(better, worse)`` whose average ranks say the opposite.

        Only the Wilcoxon and sign tests can produce them: the pairwise test
        finds ``better`` significantly better although ``worse`` has the
        lower (better) average rank over all methods.
        """
        better, worse = self._significant_index_pairs_cached
        avg = self.average_ranks
        hit = avg[better] > avg[worse]
        m = self.methods
        return tuple(
            (m[i], m[j]) for i, j in zip(better[hit].tolist(), worse[hit].tolist(), strict=True)
        )

    # ---- words --------------------------------------------------------------
    def procedure(self) -> str:
        """The post-hoc procedure in words, e.g. ``'Nemenyi test'``."""
        label = TEST_LABELS.get(self.test, self.test)
        text = f"{label} test" if not label.endswith("test") else label
        if self.control is not None:
            text += f" against the control {self.control}"
        if self.correction is not None and self.test != "bonferroni-dunn":
            text += f" with {CORRECTION_LABELS.get(self.correction, self.correction)} correction"
        return text

    def omnibus_sentence(self) -> str:
        """The omnibus verdict, named after the test that decided it (Iman-Davenport's F_F).

        :attr:`rejected` is Iman and Davenport's ``F_F``, derived from the
        Friedman ``chi2_F`` and less conservative than it (Demšar 2006,
        section 3.2.2); when ``chi2_F``'s own p-value falls on the other side
        of ``alpha``, a second sentence says so.
        """
        f = self.friedman
        ff = self.iman_davenport
        verdict = "rejects" if self.rejected else "does not reject"
        ff_text = f"{ff.statistic:.3f}" if math.isfinite(ff.statistic) else "infinite"
        p_f, p_ff = format_p(f.pvalue, prefix=True), format_p(ff.pvalue, prefix=True)
        text = (
            f"With {self.n_methods} methods on {self.n_datasets} data sets, the Iman-Davenport "
            f"test of the Friedman statistic (chi2_F = {f.statistic:.3f}, {p_f}; F_F = "
            f"{ff_text} with ({ff.dof[0]}, {ff.dof[1]}) degrees of freedom, {p_ff}) {verdict} "
            f"the hypothesis that all methods perform equally at alpha = {self.alpha:g}."
        )
        if bool(f.pvalue <= self.alpha) != self.rejected:
            would = "would reject" if f.pvalue <= self.alpha else "would not reject"
            text += (
                f" The Friedman chi2_F test alone ({p_f}) {would} at this level; the verdict is "
                "Iman and Davenport's F_F, the less conservative of the two (Demšar 2006)."
            )
        return text

    def posthoc_sentences(
        self,
        *,
        remarks: bool = True,
        max_pairs: int = MAX_LISTED_PAIRS,
        more_pairs: str = "the list of significant pairs",
        more_groups: str = "the cliques",
    ) -> list[str]:
        """Sentences on the post-hoc results: CD, significant pairs, groups.

        Parameters
        ----------
        remarks : bool, default True
            Include the remarks on bridges and unjoined pairs (one sentence
            each up to three, else one summary sentence).
        max_pairs : int, default :data:`MAX_LISTED_PAIRS`
            Most significant pairs named one by one; beyond, the sentence
            counts them, names the first ``max_pairs`` and says where the
            rest are.
        more_pairs, more_groups : str
            Where a reader finds the pairs and the groups that a summarised
            sentence leaves out: by default the result's own attributes; a
            report names its sections instead.

        Each sentence claims only what the test showed: with a control,
        only pairs with the control are mentioned and no groups are formed;
        the direction of a pairwise claim is the side the pairwise test
        favours.  Long lists are summarised (at most :data:`MAX_LISTED_PAIRS`
        pairs and :data:`MAX_LISTED_NAMES` names in groups), so the text
        stays short at any number of methods.
        """
        out = []
        if self.critical_difference is not None:
            out.append(
                f"The {self.procedure()} has critical value q = {self.critical_value:.3f} "
                f"and critical difference CD = {self.critical_difference:.3f}."
            )
        else:
            out.append(f"Pairs were compared with the {self.procedure()}.")
        if not self.all_pairs_tested:
            out.append(
                f"Only comparisons with the control {self.control} were tested, so nothing is "
                "said about two other methods and no groups are formed."
            )
        n_pairs = len(self._significant_index_pairs_cached[0])
        pairs = self._first_significant_pairs(max_pairs)
        if pairs:
            out.append(
                _pairs_sentence(
                    pairs,
                    n_pairs,
                    self.n_methods,
                    self.all_pairs_tested,
                    max_pairs=max_pairs,
                    more_pairs=more_pairs,
                )
            )
        elif self.all_pairs_tested:
            out.append("No pair of methods differs significantly.")
        else:
            out.append(f"No method differs significantly from the control {self.control}.")
        if not self.all_pairs_tested and pairs:
            out += _control_sentences(self)
        out += _conflict_sentences(self)
        out += _group_sentences(self, more_groups)
        if not remarks:
            return out
        out += _remark_sentences(self)
        return out

    def conclusion(self) -> str:
        """The conclusion of the analysis in words, with the numbers (``notes`` apart)."""
        return " ".join([self.omnibus_sentence(), *self.posthoc_sentences()])

    def _headline(self) -> str:
        what = f"{self.n_methods} methods on {self.n_datasets} data sets"
        if self.metric:
            what += f" ({self.metric})"
        p = format_p(self.friedman.pvalue, prefix=True, space="")
        return f"{what}, Friedman {p}, {self.test}"

    def __str__(self) -> str:
        order = self.order()
        width = max(len(m) for m in self.methods)
        title = f"Comparison of {self.n_methods} methods on {self.n_datasets} data sets"
        if self.metric:
            title += f" ({self.metric}"
            title += ", higher is better)" if self.higher_is_better else ", lower is better)"
        else:
            title += " (higher is better)" if self.higher_is_better else " (lower is better)"
        lines = [title, "", f"{'rank':>4}  {'method':<{width}}  average rank"]
        for pos, m in enumerate(order, start=1):
            lines.append(f"{pos:>4}  {m:<{width}}  {self.average_rank(m):.3f}")
        lines += ["", str(self.friedman), str(self.iman_davenport)]
        if self.critical_difference is not None:
            lines.append(
                f"{TEST_LABELS[self.test]} critical value q = {self.critical_value:.6f}, "
                f"CD = {self.critical_difference:.6f} (alpha = {self.alpha:g})"
            )
        lines += ["", *wrap(self.conclusion())]
        # RankComparison (average ranks alone) borrows this method and has no scores
        effect_lines = getattr(type(self), "_effect_lines", None)
        if effect_lines is not None:
            lines += ["", *effect_lines(self)]
        lines += notes_lines(self.notes)
        return "\n".join(lines)

    # ---- serialisation --------------------------------------------------------
    def pvalue_dict(self, *, adjusted: bool = True) -> dict:
        """``{method: {method: p}}`` with ``None`` for pairs not tested."""
        return matrix_dict(self.pvalues if adjusted else self.pvalues_unadjusted, self.methods)

    def to_dict(self, *, matrices: bool | None = None) -> dict:
        """Return a JSON-safe dictionary of every field (see ``cdplot stats --json``).

        Parameters
        ----------
        matrices : bool, optional
            Whether to include the three ``k x k`` matrices (``statistics``,
            ``pvalues_unadjusted``, ``pvalues``) and the effect sizes'
            (``effect_sizes``: ``cliffs_delta``, ``cohens_d``, ``magnitude``) as
            ``{method: {method: value}}``; the per-method summaries of
            ``effect_sizes`` are always there.  By default they are included up to
            :data:`JSON_MATRIX_MAX_METHODS` methods (for 2,000 methods they
            would be 12 million numbers, over 400 MB of JSON).  Left out, they
            are ``None`` and ``matrices_omitted`` (and the effect sizes'
            ``tables_omitted``) says whether they were asked out or too many;
            ``cdplot stats --json --matrices`` / ``--no-matrices`` choose.  The
            significant pairs are always listed.
        """
        matrices, why = json_matrices(matrices, self.n_methods)
        k, m = self.n_methods, self.methods
        return {
            "metric": self.metric,
            "n_datasets": self.n_datasets,
            "n_methods": self.n_methods,
            "alpha": self.alpha,
            "higher_is_better": self.higher_is_better,
            "direction_reason": self.direction_reason,
            "test": self.test,
            "correction": self.correction,
            "control": self.control,
            "methods": list(self.methods),
            "datasets": list(self.datasets),
            "average_ranks": {
                m: float(r) for m, r in zip(self.methods, self.average_ranks, strict=False)
            },
            "rank_order": list(self.order()),
            "friedman": self.friedman.to_dict(),
            "iman_davenport": self.iman_davenport.to_dict(),
            "critical_value": num(self.critical_value),
            "critical_difference": num(self.critical_difference),
            "statistics": matrix_dict(self.statistics, m) if matrices else None,
            "pvalues_unadjusted": matrix_dict(self.pvalues_unadjusted, m) if matrices else None,
            "pvalues": matrix_dict(self.pvalues, m) if matrices else None,
            "matrices_omitted": None
            if matrices
            else (
                f"the {k} x {k} matrices of statistics and p-values are {why}; "
                "significant_pairs lists the decisions"
            ),
            "significant_pairs": list(map(list, self.significant_pairs())),
            "direction_conflicts": [list(p) for p in self.direction_conflicts()],
            "all_pairs_tested": self.all_pairs_tested,
            # with a control no groups are formed: null, not "no groups"
            "cliques": [list(c) for c in self.cliques] if self.all_pairs_tested else None,
            "unjoined": list(map(list, self.unjoined)) if self.all_pairs_tested else None,
            "bridges": list(map(list, self.bridges)) if self.all_pairs_tested else None,
            "options": dict(self.options),
            "notes": list(self.notes),
            "source": self.scores.source,
            "dropped_datasets": list(self.scores.dropped_datasets),
            "dropped_methods": list(self.scores.dropped_methods),
            "conclusion": self.conclusion(),
            "effect_sizes": self.effect_sizes.to_dict()
            if matrices
            else effect_sizes_dict(
                self.methods,
                method_summaries(self.scores.values, alpha=self.alpha),
                confidence=1.0 - self.alpha,
                omitted=(
                    f"the {k} x {k} tables of Cliff's delta and Cohen's d are {why}; in "
                    "Python, result.effect_sizes has them"
                ),
            ),
        }

    def to_frame(self):
        """One row per method (rank order, average rank, mean score, groups, p-values).

        Needs pandas, imported only here; ``cdplot stats --format csv`` writes the
        same table without it.
        """
        return to_frame(self)

    def _repr_html_(self) -> str:
        """A small HTML report for Jupyter; every name is escaped."""
        esc = html.escape
        rows = "".join(
            f"<tr><td>{pos}</td><td>{esc(m)}</td><td>{self.average_rank(m):.3f}</td></tr>"
            for pos, m in enumerate(self.order(), start=1)
        )
        title = f"Comparison of {self.n_methods} methods on {self.n_datasets} data sets"
        if self.metric:
            title += f" ({esc(self.metric)})"
        notes = "".join(f"<li>{esc(sentence(n))}</li>" for n in self.notes)
        notes = f"<p>Notes:</p><ul>{notes}</ul>" if notes else ""
        return (
            f"<div class='cdplot-result'><strong>{title}</strong>"
            f"<table><thead><tr><th>#</th><th>method</th><th>average rank</th></tr></thead>"
            f"<tbody>{rows}</tbody></table><p>{esc(self.conclusion())}</p>{notes}</div>"
        )
