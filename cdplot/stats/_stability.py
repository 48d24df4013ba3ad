"""Rank stability: would the conclusion survive other data sets?

A bootstrap over data sets (Efron and Tibshirani 1993), as Hothorn et al.
(2005) propose for benchmark experiments: the data sets of a comparison are
treated as a sample of the population of data sets of interest, drawn again
with replacement, and the ranking recomputed on each draw.  The ranks of each
data set are computed once; a bootstrap sample is a multinomial count per data
set, so the rank sums of a whole chunk of samples are one matrix product.

Leave-one-data-set-out sensitivity removes each data set in turn and names
those whose removal changes a conclusion (a pair's significance or the best
method): a reviewer's "would it still hold without that data set?".
"""

from __future__ import annotations

import math

import numpy as np

from .._options import RANK_TESTS, RESAMPLES, Resample, check_bool, check_option
from ..errors import CdplotError, opt
from ._compare import decide, rank_statistics
from ._critical import rank_standard_error
from ._power import _omnibus
from ._ranks import ranks_and_ties
from ._resultkit import (
    Result,
    join_names,
    notes_lines,
    readonly,
    readonly_mapping,
    result,
    wrap,
)
from ._results import ComparisonResult
from ._sign_test import sign_test_pairs
from ._stability_draws import DatasetDraws, fold_draws
from ._validate import whole_number
from ._wilcoxon import wilcoxon_pairs

__all__ = ["stability", "StabilityResult", "DatasetInfluence"]

# leave-one-out significance cells held at once (a chunk of data sets x k x k booleans)
_LOO_CELLS = 1 << 24
# pair-by-data-set cells the reruns of a p-value test (and its correction) may cover by
# default, about 10 s of the Wilcoxon test; each rerun tests every pair on every data set
_RERUN_BUDGET = 1 << 27
_RERUN_WEIGHT = {"wilcoxon": 1.0, "sign": 0.1}
# the fewest reruns a default makes, however large the table
_MIN_RERUNS = 10
# methods and pairs printed by str(); to_dict() holds them all
_SHOWN = 20
# pairs named per data set left out
_SHOWN_PAIRS = 5
# influential data sets listed one by one; beyond this many the text summarises them
# (with many pairs, one nearly always sits at the critical difference, and every data
# set's removal moves it) and names those that change the best method or the most pairs
_LISTED_LOO = 10
# data sets named for changing the most pairs, in a summary
_TOP_LOO = 5
_CD_TESTS = ("nemenyi", "bonferroni-dunn")
_TEST_NAMES = {
    "nemenyi": "Nemenyi",
    "bonferroni-dunn": "Bonferroni-Dunn",
    "friedman-z": "Friedman z",
    "wilcoxon": "Wilcoxon signed-rank",
    "sign": "sign",
}
# z for the normal-approximation band of a Monte-Carlo share
_Z95 = 1.959963984540054
# a rank sum is a multiple of 1/2 and below 2^53: compared exactly, but the CD is a
# real number, and a difference equal to it is significant (as compare's >= CD)
_RTOL = 1e-12


def _listed(pairs) -> str:
    """Pairs as ``a vs b; c vs d``, the first few and how many more (to_dict() has all)."""
    text = "; ".join(f"{a} vs {b}" for a, b in pairs[:_SHOWN_PAIRS])
    more = len(pairs) - _SHOWN_PAIRS
    return text + (f" and {more} more" if more > 0 else "")


@result
class DatasetInfluence(Result):
    """What removing one data set changes (an entry of :attr:`StabilityResult.influential`).

    Attributes
    ----------
    dataset : str
        The data set left out.
    best_before, best_after : tuple of str
        The best-ranked method(s) with all data sets and without this one.
    lost : tuple of (str, str)
        Significant pairs that are no longer significant without it.
    gained : tuple of (str, str)
        Pairs that become significant without it.
    """

    dataset: str
    best_before: tuple
    best_after: tuple
    lost: tuple = ()
    gained: tuple = ()

    def _headline(self) -> str:
        return f"{self.dataset}: {self.describe()}"

    @property
    def best_changes(self) -> bool:
        """Whether the best method(s) differ without this data set."""
        return self.best_before != self.best_after

    @property
    def n_changed(self) -> int:
        """How many pairs change significance without this data set (lost and gained)."""
        return len(self.lost) + len(self.gained)

    def count_words(self) -> str:
        """What changes, with the pairs counted rather than named (for long lists)."""
        parts = []
        if self.best_changes:
            parts.append(
                f"the best method changes from {join_names(self.best_before)} to "
                f"{join_names(self.best_after)}"
            )
        if self.n_changed:
            parts.append(
                f"{self.n_changed} pair{'s' if self.n_changed != 1 else ''} change significance "
                f"({len(self.lost)} lost, {len(self.gained)} gained)"
            )
        return ", ".join(parts)

    def describe(self) -> str:
        """What changes, in words (starting lower case, without the data set's name)."""
        parts = []
        if self.best_changes:
            parts.append(
                f"the best method changes from {join_names(self.best_before)} to "
                f"{join_names(self.best_after)}"
            )
        if self.lost:
            parts.append("no longer significant: " + _listed(self.lost))
        if self.gained:
            parts.append("newly significant: " + _listed(self.gained))
        return ", ".join(parts)

    def to_dict(self) -> dict:
        return {
            "dataset": self.dataset,
            "best_before": list(self.best_before),
            "best_after": list(self.best_after),
            "lost": [list(p) for p in self.lost],
            "gained": [list(p) for p in self.gained],
        }

    def __str__(self) -> str:
        return f"without {self.dataset}: {self.describe()}"


@result
class StabilityResult(Result):
    """Bootstrap and leave-one-out stability of a comparison, from :func:`cdplot.stability`.

    Arrays are in the input order of the methods; :meth:`order` gives the
    order of the average ranks (best first).

    Attributes
    ----------
    methods, datasets : tuple of str
        Names, as in the comparison.
    n_methods, n_datasets : int
        ``k`` and ``N``.
    higher_is_better : bool
        The direction the comparison ranked by (rank 1 = best).
    alpha, test, correction, control
        The comparison's post-hoc test, rerun on each sample.
    n_boot : int
        Number of bootstrap samples of the ``N`` data sets.
    resample : {'datasets', 'datasets-and-folds'}
        What each sample draws: the data sets, or the data sets and then the
        folds within each.
    seed : int
        The seed of the samples (drawn from the operating system when none
        was given, and recorded so that the result can be reproduced).
    confidence : float
        Level of the percentile intervals.
    average_ranks : ndarray, shape (k,)
        The comparison's average ranks.
    interval_low, interval_high : ndarray, shape (k,)
        Percentile interval of each method's average rank over the samples.
    rank_probabilities : ndarray, shape (k, k)
        Row ``i``, column ``r``: the share of samples in which method ``i``
        has rank ``r + 1`` by average rank (tied average ranks share their
        positions equally); rows and columns sum to 1.
    pairs : tuple of (str, str)
        The pairs the comparison found significant, better-ranked first.
    pair_share : ndarray, shape (len(pairs),)
        Share of samples in which each pair is significant again under the
        same test, correction, control and ``alpha``.
    n_boot_pairs : int
        The number of samples (the first ones) on which the test was rerun.
    omnibus_share : float
        Share of samples in which the Iman-Davenport test (tie-corrected)
        rejects at ``alpha``.
    leave_one_out : bool
        Whether the leave-one-data-set-out analysis was run.
    influential : tuple of DatasetInfluence
        Every data set whose removal changes a pair's significance or the
        best method, in table order.
    notes : tuple of str
        Assumptions and Monte-Carlo error.
    options : mapping
        The arguments, read-only.
    """

    methods: tuple
    datasets: tuple
    n_methods: int
    n_datasets: int
    higher_is_better: bool
    alpha: float
    test: str
    correction: str | None
    control: str | None
    critical_difference: float | None
    n_boot: int
    resample: str
    seed: int
    confidence: float
    average_ranks: np.ndarray
    interval_low: np.ndarray
    interval_high: np.ndarray
    rank_probabilities: np.ndarray
    pairs: tuple
    pair_share: np.ndarray
    n_boot_pairs: int
    omnibus_share: float
    leave_one_out: bool
    influential: tuple = ()
    notes: tuple = ()
    options: object = None

    def __post_init__(self):
        object.__setattr__(self, "methods", tuple(self.methods))
        object.__setattr__(self, "datasets", tuple(self.datasets))
        object.__setattr__(self, "pairs", tuple(tuple(p) for p in self.pairs))
        object.__setattr__(self, "influential", tuple(self.influential))
        for name in (
            "average_ranks",
            "interval_low",
            "interval_high",
            "rank_probabilities",
            "pair_share",
        ):
            object.__setattr__(self, name, readonly(getattr(self, name)))
        object.__setattr__(self, "notes", tuple(self.notes))
        object.__setattr__(self, "options", readonly_mapping(self.options))

    def _headline(self) -> str:
        best = self.order()[0]
        return (
            f"k={self.n_methods}, N={self.n_datasets}, {self.n_boot} bootstrap samples, "
            f"P({best} best)={self.p_best[self.methods.index(best)]:.3f}"
        )

    @property
    def p_best(self) -> np.ndarray:
        """P(rank 1) of each method: the first column of :attr:`rank_probabilities`."""
        return self.rank_probabilities[:, 0]

    def order(self) -> tuple[str, ...]:
        """Method names by average rank, best first (ties in input order)."""
        idx = np.argsort(self.average_ranks, kind="stable")
        return tuple(self.methods[i] for i in idx)

    def monte_carlo_error(self, p, n: int | None = None):
        """Half-width of the 95% Monte-Carlo band of a share ``p`` of ``n`` samples.

        ``1.96 sqrt(p (1 - p) / n)``: how far a share computed from ``n``
        samples may lie from the one infinitely many samples would give.

        Parameters
        ----------
        p : float or array_like
            A share (a probability of :attr:`rank_probabilities`, a
            :attr:`pair_share`).
        n : int, optional
            Number of samples; default :attr:`n_boot`.

        Returns
        -------
        float or ndarray
        """
        n = self.n_boot if n is None else n
        p = np.asarray(p, dtype=float)
        out = _Z95 * np.sqrt(p * (1.0 - p) / n)
        return float(out) if out.ndim == 0 else out

    def _direction(self) -> str:
        return "higher scores are better" if self.higher_is_better else "lower scores are better"

    def _test_words(self) -> str:
        name = _TEST_NAMES[self.test]
        words = f"the {name} test at alpha = {self.alpha:g}"
        if self.correction is not None and self.test != "bonferroni-dunn":
            words += f" with {self.correction.capitalize()}'s correction"
        if self.control is not None:
            words += f" against {self.control}"
        return words

    def conclusion(self) -> str:
        """The headline in one or two sentences."""
        order = self.order()
        i = self.methods.index(order[0])
        p = float(self.p_best[i])
        text = (
            f"{order[0]} has the best average rank in {p:.1%} of {self.n_boot} bootstrap "
            f"samples of {self._sampled()} (+/- {self.monte_carlo_error(p):.1%})."
        )
        if self.pairs:
            low = int(np.argmin(self.pair_share))
            a, b = self.pairs[low]
            text += (
                f" Of the {len(self.pairs)} significant pairs, the least stable ({a} vs {b}) "
                f"stays significant in {self.pair_share[low]:.1%} of samples."
            )
        return text

    def _sampled(self) -> str:
        """What each sample drew, as a noun phrase."""
        text = f"the {self.n_datasets} data sets"
        if self.resample == "datasets-and-folds":
            text += " and, within each, of its folds"
        return text

    def _drawn(self) -> str:
        """How the samples were drawn, for the paragraph."""
        if self.resample == "datasets-and-folds":
            return (
                f"drawn again with replacement {self.n_boot} times, and within each drawn data "
                "set its folds were drawn again with replacement, the same folds for every "
                "method (a two-stage bootstrap over data sets and folds; Efron and Tibshirani "
                "1993; Davison and Hinkley 1997; Hothorn et al. 2005"
            )
        return (
            f"drawn again with replacement {self.n_boot} times (a bootstrap over data sets; "
            "Efron and Tibshirani 1993; Hothorn et al. 2005"
        )

    @property
    def n_tested_pairs(self) -> int:
        """How many pairs the post-hoc test decides (all pairs, or each against the control)."""
        k = self.n_methods
        return k - 1 if self.control is not None else k * (k - 1) // 2

    def notable_influences(self) -> tuple[DatasetInfluence, ...]:
        """The data sets a summary names: all when few, else those that matter most.

        Up to 10 influential data sets are all returned.  Beyond that (many
        methods, where some pair nearly always sits at the critical difference
        and every removal moves it), the ones that change the best method and
        the 5 that change the most pairs, in table order; :attr:`influential`
        holds them all.
        """
        if len(self.influential) <= _LISTED_LOO:
            return self.influential
        by_count = sorted(
            range(len(self.influential)), key=lambda c: -self.influential[c].n_changed
        )
        keep = {c for c, d in enumerate(self.influential) if d.best_changes}
        keep |= {c for c in by_count[:_TOP_LOO] if self.influential[c].n_changed}
        return tuple(self.influential[c] for c in sorted(keep))

    def influence_summary(self) -> str:
        """The leave-one-out result in one or two sentences, with counts instead of names."""
        infl = self.influential
        n = self.n_datasets
        if not infl:
            return (
                "No single data set's removal changes a pair's significance or the best method "
                f"({n} data sets left out one at a time)."
            )
        pair_movers = [d for d in infl if d.n_changed]
        best_movers = [d for d in infl if d.best_changes]
        pairs = {p for d in infl for p in d.lost + d.gained}
        text = ""
        if pair_movers:
            who = (
                f"any one of the {n}" if len(pair_movers) == n else f"{len(pair_movers)} of the {n}"
            )
            most = max(d.n_changed for d in pair_movers)
            text = (
                f"Removing {who} data sets changes the significance of at least one pair (at "
                f"most {most} of the {self.n_tested_pairs} pairs tested, {len(pairs)} different "
                f"pair{'s' if len(pairs) != 1 else ''} in all); "
            )
        else:
            text = "No single data set's removal changes a pair's significance; "
        if best_movers:
            names = [d.dataset for d in best_movers]
            shown = join_names(names) if len(names) <= 5 else f"{len(names)} of them"
            text += f"the best method changes without {shown}."
        else:
            text += "the best method never changes."
        return text[0].upper() + text[1:]

    def paragraph(self) -> str:
        """A paragraph for a report or paper, claiming only what was computed."""
        order = self.order()
        i = self.methods.index(order[0])
        p = float(self.p_best[i])
        text = (
            f"To judge whether the ranking would hold on other data sets, the {self.n_datasets} "
            f"data sets were treated as a sample of the population of interest and "
            f"{self._drawn()}; seed {self.seed}). Ranks are 1 = best, "
            f"{self._direction()}. {order[0]} had the best average rank in {p:.1%} of the "
            f"samples (Monte-Carlo error +/- {self.monte_carlo_error(p):.1%}); "
            f"{self.confidence:.0%} percentile intervals of the average ranks are given for "
            "every method."
        )
        if self.pairs:
            share = self.pair_share
            text += (
                f" Under {self._test_words()}, the {len(self.pairs)} pairs found significant "
                f"stayed significant in {share.min():.1%} to {share.max():.1%} of "
                f"{self.n_boot_pairs} samples."
            )
        else:
            text += " The comparison found no significant pair."
        if self.leave_one_out:
            if len(self.influential) > _LISTED_LOO:
                text += " " + self.influence_summary()
            elif self.influential:
                names = [d.dataset for d in self.influential]
                if len(names) > 5:
                    shown = ", ".join(names[:5]) + f" and {len(names) - 5} more"
                else:
                    shown = join_names(names)
                text += (
                    f" Leaving out a single data set changes a conclusion for "
                    f"{len(names)} of them ({shown})."
                )
            else:
                text += (
                    " No single data set's removal changes a pair's significance or the "
                    "best method."
                )
        return text

    def to_dict(self) -> dict:
        return {
            "methods": list(self.methods),
            "datasets": list(self.datasets),
            "n_methods": self.n_methods,
            "n_datasets": self.n_datasets,
            "higher_is_better": self.higher_is_better,
            "alpha": self.alpha,
            "test": self.test,
            "correction": self.correction,
            "control": self.control,
            "critical_difference": self.critical_difference,
            "n_boot": self.n_boot,
            "resample": self.resample,
            "seed": self.seed,
            "confidence": self.confidence,
            "average_ranks": dict(zip(self.methods, self.average_ranks.tolist(), strict=True)),
            "interval_low": dict(zip(self.methods, self.interval_low.tolist(), strict=True)),
            "interval_high": dict(zip(self.methods, self.interval_high.tolist(), strict=True)),
            "p_best": dict(zip(self.methods, self.p_best.tolist(), strict=True)),
            # method -> [P(rank 1), P(rank 2), ...]
            "rank_probabilities": dict(
                zip(self.methods, self.rank_probabilities.tolist(), strict=True)
            ),
            "pairs": [
                {"a": a, "b": b, "share": float(s)}
                for (a, b), s in zip(self.pairs, self.pair_share.tolist(), strict=True)
            ],
            "n_boot_pairs": self.n_boot_pairs,
            "omnibus_share": self.omnibus_share,
            "leave_one_out": self.leave_one_out,
            "influential": [d.to_dict() for d in self.influential],
            "conclusion": self.conclusion(),
            "paragraph": self.paragraph(),
            "notes": list(self.notes),
        }

    def _method_lines(self) -> list[str]:
        order = self.order()
        width = max(6, *(len(m) for m in order[:_SHOWN]))
        level = f"{self.confidence:.0%} interval"
        lines = [f"  {'method':<{width}}  avg rank  {level:>15}  P(best)  most likely rank"]
        for m in order[:_SHOWN]:
            i = self.methods.index(m)
            row = self.rank_probabilities[i]
            r = int(np.argmax(row))
            lines.append(
                f"  {m:<{width}}  {self.average_ranks[i]:8.3f}  "
                f"{self.interval_low[i]:6.2f} - {self.interval_high[i]:6.2f}  "
                f"{self.p_best[i]:7.3f}  {r + 1} (P = {row[r]:.3f})"
            )
        if len(order) > _SHOWN:
            lines.append(f"  ... {len(order) - _SHOWN} more methods (to_dict() has all)")
        return lines

    def _pair_lines(self) -> list[str]:
        if not self.pairs:
            return ["  The comparison found no significant pair."]
        idx = np.argsort(self.pair_share, kind="stable")
        lines = []
        for o in idx[:_SHOWN]:
            a, b = self.pairs[o]
            s = float(self.pair_share[o])
            err = self.monte_carlo_error(s, self.n_boot_pairs)
            lines.append(f"  {a} vs {b}: {s:.3f} +/- {err:.3f}")
        if len(idx) > _SHOWN:
            lines.append(f"  ... {len(idx) - _SHOWN} more pairs, all more stable")
        return lines

    def _loo_lines(self) -> list[str]:
        if not self.leave_one_out:
            return ["  Not run (see the notes)."]
        if not self.influential:
            return [
                *(
                    "  " + line
                    for line in wrap(
                        f"No single data set's removal changes a pair's significance or the "
                        f"best method ({self.n_datasets} data sets left out one at a time).",
                        84,
                    )
                )
            ]
        if len(self.influential) <= _LISTED_LOO:
            lines = []
            for d in self.influential:
                lines += ["  " + line for line in wrap(f"Without {d.dataset}: {d.describe()}.", 84)]
            return lines
        return self._loo_summary_lines()

    def _loo_summary_lines(self) -> list[str]:
        """Many influential data sets: the counts, then those that matter most."""
        lines = ["  " + line for line in wrap(self.influence_summary(), 84)]
        notable = self.notable_influences()
        if notable:
            lines.append(
                "  The data sets that change the best method or the most pairs (to_dict() has all):"
            )
            for d in notable[:_SHOWN]:
                lines += [
                    "    " + line for line in wrap(f"Without {d.dataset}: {d.count_words()}.", 82)
                ]
            if len(notable) > _SHOWN:
                lines.append(f"    ... {len(notable) - _SHOWN} more")
        return lines

    def __str__(self) -> str:
        lines = [
            *wrap(
                f"Stability of the ranking: {self.n_boot} bootstrap samples of "
                f"{self._sampled()} (k = {self.n_methods} methods, seed {self.seed})",
                # the title line as wide as a terminal allows; the folds' words wrap it
                100,
            ),
            "",
            *wrap(self.conclusion()),
            "",
            *wrap(
                f"Average ranks (1 = best, {self._direction()}), their {self.confidence:.0%} "
                "percentile intervals over the samples, and the probability of each rank:"
            ),
            *self._method_lines(),
            "",
            *wrap(
                f"How often each significant pair stays significant under {self._test_words()} "
                f"({self.n_boot_pairs} samples; +/- is the 95% Monte-Carlo error), least "
                "stable first:"
            ),
            *self._pair_lines(),
            f"  The Iman-Davenport test rejects in {self.omnibus_share:.1%} of the samples.",
            "",
            "Leaving one data set out:",
            *self._loo_lines(),
        ]
        return "\n".join(lines + notes_lines(self.notes))


def _validate(result, n_boot, seed, confidence, n_boot_pairs, leave_one_out):
    if not isinstance(result, ComparisonResult):
        raise CdplotError(
            f"stability needs the ComparisonResult of cdplot.compare (the ranks on each data "
            f"set), got {type(result).__name__}; run cdplot.compare on the scores first",
            option="result",
        )
    if result.n_datasets < 3:
        raise CdplotError(
            f"stability needs at least 3 data sets to resample, the comparison has "
            f"{result.n_datasets}",
            option="result",
        )
    b = whole_number(n_boot, "option n_boot", minimum=1, what="bootstrap samples")
    if seed is None:
        # a seed drawn now and recorded, so that any result can be reproduced
        seed = int(np.random.SeedSequence().entropy % (1 << 63))
    elif isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise CdplotError(f"option {opt('seed', seed)} must be a whole number >= 0", option="seed")
    try:
        conf = float(confidence)
    except (TypeError, ValueError):
        conf = math.nan
    if not 0.0 < conf < 1.0:
        raise CdplotError(
            f"option {opt('confidence', confidence)} is outside (0, 1); give e.g. 0.95",
            option="confidence",
        )
    k, n = result.n_methods, result.n_datasets
    tested = k - 1 if result.control is not None else k * (k - 1) // 2
    # what one rerun of a p-value test costs, in pair-by-data-set cells of Wilcoxon's
    # test: the sign test counts signs (about a tenth of it), the rank z-test needs the
    # average ranks and a correction only
    if result.test == "friedman-z":
        rerun = tested + n * k
    else:
        rerun = max(1, int(tested * n * _RERUN_WEIGHT.get(result.test, 1.0)))
    if n_boot_pairs is None:
        cheap = result.test in _CD_TESTS
        bp = b if cheap else min(b, max(_MIN_RERUNS, _RERUN_BUDGET // rerun))
    else:
        bp = whole_number(n_boot_pairs, "option n_boot_pairs", minimum=0, what="samples")
        if bp > b:
            raise CdplotError(
                f"option {opt('n_boot_pairs', n_boot_pairs)} exceeds {opt('n_boot', b)}: the "
                "test is rerun on some of the bootstrap samples",
                option="n_boot_pairs",
            )
    if leave_one_out is None:
        loo = result.test in _CD_TESTS or rerun * n <= _RERUN_BUDGET
    else:
        loo = check_bool("leave_one_out", leave_one_out)
    return b, int(seed), conf, bp, loo


class _Decider:
    """Which pairs the comparison's post-hoc test declares significant on a set of rows.

    The CD-based tests need only the rank sums and are vectorised over samples;
    the p-value tests are rerun as :func:`cdplot.compare` runs them.
    """

    def __init__(self, res: ComparisonResult, ranks: np.ndarray):
        self.res = res
        self.ranks = ranks
        self.k = res.n_methods
        self.ctrl = None if res.control is None else res.methods.index(res.control)
        self.oriented = None
        if res.test not in RANK_TESTS:
            x = np.asarray(res.scores.values, dtype=float)
            self.oriented = x if res.higher_is_better else -x
        self.cv = res.critical_value

    def tested_pairs(self) -> tuple[np.ndarray, np.ndarray]:
        """Index arrays ``(i, j)``, ``i < j``, of the pairs the test decides."""
        if self.ctrl is None:
            return np.triu_indices(self.k, 1)
        c = self.ctrl
        others = np.array([j for j in range(self.k) if j != c], dtype=int)
        return np.minimum(c, others), np.maximum(c, others)

    def cd_sum(self, n: int) -> float:
        """The critical difference in rank sums over ``n`` data sets."""
        return self.cv * rank_standard_error(self.k, n) * n * (1.0 - _RTOL)

    def significant_rows(self, rows: np.ndarray) -> np.ndarray:
        """The (k, k) significance matrix of the comparison on the data sets ``rows``."""
        x = None if self.oriented is None else self.oriented[rows]
        return self.significant(self.ranks[rows], x)

    def significant(self, ranks: np.ndarray, x: np.ndarray | None) -> np.ndarray:
        """The (k, k) significance matrix on data sets with these ranks and oriented scores."""
        res = self.res
        n = len(ranks)
        avg = ranks.mean(axis=0)
        if res.test in RANK_TESTS:
            stats, p_raw, p_adj = rank_statistics(avg, n, res.test)
        else:
            pairs = None
            if self.ctrl is not None:
                c = self.ctrl
                pairs = [(min(c, j), max(c, j)) for j in range(self.k) if j != c]
            if res.test == "wilcoxon":
                opts = res.options
                pw = wilcoxon_pairs(
                    x,
                    pairs=pairs,
                    zero_method=opts.get("zero_method", "demsar"),
                    method=opts.get("method", "auto"),
                )
            else:
                pw = sign_test_pairs(x, pairs=pairs)
            stats, p_raw = pw.statistic, np.array(pw.pvalue, dtype=float)
            # compare gives a pair with no nonzero difference p = 1, so that it stays in
            # the correction's family: the same here
            # (decide() masks the pairs a control leaves untested)
            p_raw[np.isnan(p_raw)] = 1.0
            p_adj = np.full((self.k, self.k), np.nan)
        significant = decide(
            avg,
            n,
            stats,
            p_raw,
            p_adj,
            test=res.test,
            correction=res.correction,
            ctrl=self.ctrl,
            alpha=res.alpha,
        )[5]
        return significant


def _bootstrap(gen, draws, b, conf, decider, pi, pj, bp, alpha):
    """Intervals, rank probabilities, pair shares and the omnibus share of ``b`` samples."""
    n, k = draws.n, decider.k
    avg = np.empty((b, k))
    # rank r of method i, accumulated as a difference array: +w at the first position a
    # method's (tied) rank sum occupies, -w after the last
    hist = np.zeros(k * (k + 1))
    offs = np.arange(k) * (k + 1)
    pair_hits = np.zeros(len(pi))
    omnibus = 0
    cd_test = decider.res.test in _CD_TESTS
    cd_sum = decider.cd_sum(n) if cd_test else None
    done_pairs = 0
    for start in range(0, b, draws.chunk):
        s = min(draws.chunk, b - start)
        sums, tie_totals, rows = draws.draw(gen, s)
        avg[start : start + s] = sums / n
        _add_positions(hist, sums, offs, k)
        omnibus += int(_omnibus(sums / n, tie_totals, n, k, alpha)[1].sum())
        take = min(s, bp - done_pairs)
        if take > 0 and len(pi):
            if cd_test:
                diff = np.abs(sums[:take, pi] - sums[:take, pj])
                pair_hits += (diff >= cd_sum).sum(axis=0)
            else:
                for t in range(take):
                    pair_hits += decider.significant(*rows(t))[pi, pj]
            done_pairs += take
    probs = np.cumsum(hist.reshape(k, k + 1), axis=1)[:, :k] / b
    lo, hi = np.quantile(avg, [(1.0 - conf) / 2.0, (1.0 + conf) / 2.0], axis=0)
    share = pair_hits / bp if bp else np.full(len(pi), np.nan)
    return lo, hi, probs, share, omnibus / b


def _add_positions(hist, sums, offs, k):
    """Add each sample's positions of the methods to ``hist`` (tied methods share theirs)."""
    s = sums.shape[0]
    srt = np.sort(sums, axis=1)
    # one searchsorted for all samples: sample t's sums shifted by t * span never meet
    # another sample's (rank sums lie in [n, k n])
    span = float(srt.max() + 1.0)
    shift = (np.arange(s) * span)[:, None]
    flat = (srt + shift).ravel()
    keys = (sums + shift).ravel()
    base = np.repeat(np.arange(s) * k, k)
    first = np.searchsorted(flat, keys, side="left") - base
    last = np.searchsorted(flat, keys, side="right") - base
    w = 1.0 / (last - first)
    method = np.tile(offs, s)
    size = hist.size
    hist += np.bincount(method + first, weights=w, minlength=size)
    hist -= np.bincount(method + last, weights=w, minlength=size)


def _best(sums: np.ndarray) -> np.ndarray:
    """Boolean mask of the best (lowest rank sum) methods, per row."""
    return sums == sums.min(axis=-1, keepdims=True)


def _leave_one_out(res, ranks, decider, pi, pj):
    """Every data set whose removal changes a pair's significance or the best method."""
    n, k = ranks.shape
    total = ranks.sum(axis=0)
    before_sig = np.asarray(res.significant)[pi, pj]
    best_before = _best(total)
    names = res.methods
    best_names = tuple(names[i] for i in np.flatnonzero(best_before))
    out = []
    chunk = max(1, _LOO_CELLS // max(1, len(pi)))
    cd_test = res.test in _CD_TESTS
    cd_sum = decider.cd_sum(n - 1) if cd_test else None
    everything = np.arange(n)
    for start in range(0, n, chunk):
        d = np.arange(start, min(n, start + chunk))
        sums = total - ranks[d]
        best = _best(sums)
        if cd_test:
            sig = np.abs(sums[:, pi] - sums[:, pj]) >= cd_sum
        else:
            sig = np.stack(
                [decider.significant_rows(np.delete(everything, i))[pi, pj] for i in d.tolist()]
            )
        flip = sig != before_sig
        changed = flip.any(axis=1) | (best != best_before).any(axis=1)
        for row in np.flatnonzero(changed).tolist():
            lost = np.flatnonzero(flip[row] & before_sig)
            gained = np.flatnonzero(flip[row] & ~before_sig)
            out.append(
                DatasetInfluence(
                    dataset=res.datasets[int(d[row])],
                    best_before=best_names,
                    best_after=tuple(names[i] for i in np.flatnonzero(best[row])),
                    lost=tuple(_pair_names(res, pi[c], pj[c]) for c in lost),
                    gained=tuple(_pair_names(res, pi[c], pj[c]) for c in gained),
                )
            )
    return tuple(out)


def _pair_names(res, i, j) -> tuple[str, str]:
    """A pair by name, the better average rank first."""
    i, j = int(i), int(j)
    if res.average_ranks[j] < res.average_ranks[i]:
        i, j = j, i
    return res.methods[i], res.methods[j]


def _fold_notes(draws) -> list:
    """What resampling the folds assumes, and what it did where a method lacks folds."""
    notes = [
        "the folds of each drawn data set are drawn again with replacement, the same folds for "
        "every method, and each method's mean over them is ranked: the intervals include the "
        "variation over folds as well as over data sets; folds of one cross-validation share "
        "training data and are not independent, so this variation is, if anything, "
        "understated (Bengio and Grandvalet 2004)"
    ]
    if draws.ragged:
        notes.append(
            "some methods lack scores for some folds of a data set; a method none of whose "
            "drawn folds holds a score keeps its mean over its own folds in that sample"
        )
    if int(draws.n_folds.min()) < 2:
        one = int((draws.n_folds < 2).sum())
        notes.append(
            f"{one} data set{'s have' if one != 1 else ' has'} a single fold, not resampled"
        )
    return notes


def _notes(res, b, bp, seed, leave_one_out) -> tuple:
    worst = _Z95 * 0.5 / math.sqrt(b)
    notes = [
        "data sets are treated as a sample of the population of interest: the bootstrap "
        "says how the ranking would vary over other data sets drawn like these, and no more",
        f"every probability and share is a proportion of {b} samples; its 95% Monte-Carlo "
        f"error is 1.96 sqrt(p(1-p)/{b}) (at most {worst:.3f})",
        f"seed {seed}: the same seed, table and options give the same result",
        "ranks are recomputed from the scores of each sampled data set, so a data set drawn "
        "twice counts twice; the post-hoc decisions are counted whether or not the omnibus "
        "test rejects, as cdplot.compare reports them",
    ]
    if bp < b:
        notes.append(
            f"the {_TEST_NAMES[res.test]} test was rerun on the first {bp} of the {b} samples "
            "(each rerun tests every pair); n_boot_pairs sets how many"
        )
    if not leave_one_out:
        notes.append(
            f"the leave-one-data-set-out analysis was not run ({res.n_datasets} reruns of the "
            f"{_TEST_NAMES[res.test]} test); leave_one_out=True runs it"
        )
    if res.n_datasets < 10:
        notes.append(
            f"with N = {res.n_datasets} data sets a bootstrap sample has few distinct data sets; "
            "the intervals are rough"
        )
    return tuple(notes)


def stability(
    result: ComparisonResult,
    *,
    n_boot: int = 1000,
    seed: int | None = None,
    confidence: float = 0.95,
    n_boot_pairs: int | None = None,
    leave_one_out: bool | None = None,
    resample: Resample = "datasets",
) -> StabilityResult:
    """Would the conclusion survive other data sets?  Bootstrap and leave-one-out.

    Draws the comparison's ``N`` data sets with replacement ``n_boot``
    times (a bootstrap over data sets) and recomputes the average ranks on
    each sample: each method's percentile interval of its average rank, the
    probability of each rank (``P(best)`` is the first column), and, for
    each pair the comparison found significant, the share of samples in
    which the same post-hoc test (with the same correction, control and
    ``alpha``) finds it significant again.  Then leaves each data set out in
    turn and names every one whose removal changes a pair's significance or
    the best method.

    Parameters
    ----------
    result : ComparisonResult
        The analysis to examine, as :func:`cdplot.compare` returns it.
    n_boot : int, default 1000
        Number of bootstrap samples.
    seed : int, optional
        Seed of the samples.  By default one is drawn from the operating
        system; it is recorded in the result either way.
    confidence : float, default 0.95
        Level of the percentile intervals of the average ranks.
    n_boot_pairs : int, optional
        On how many of the samples (the first ones) the post-hoc test is
        rerun.  By default all of them for Nemenyi and Bonferroni-Dunn (a
        comparison of rank sums, vectorised); for the p-value tests, whose
        every rerun tests and corrects every pair, as many as about 10 s
        allow (at least 10, at most ``n_boot``).  0 skips it.
    leave_one_out : bool, optional
        Run the leave-one-data-set-out analysis.  By default it runs for
        Nemenyi and Bonferroni-Dunn (vectorised) and for the p-value tests
        when its ``N`` reruns fit in about 10 s; the result says when it
        was not run.
    resample : {'datasets', 'datasets-and-folds'}, default 'datasets'
        What each sample draws.  ``'datasets-and-folds'`` draws the data sets
        and then, within each drawn data set, its folds (the same folds for
        every method), ranking each method's mean over the drawn folds: a
        two-stage bootstrap that adds the variation over folds to that over
        data sets.  It needs the score of each fold: read the table with
        ``keep_repetitions=True`` (a long table with a fold or seed column,
        named by ``repetition_col``).  Leave-one-out always removes whole
        data sets.

    Returns
    -------
    StabilityResult
        ``str()`` of it says the result in words with the numbers.

    Raises
    ------
    CdplotError
        If ``result`` is not a :class:`ComparisonResult` of at least 3 data
        sets, or an option is out of range, or ``resample`` asks for folds
        the scores do not hold.

    Notes
    -----
    The bootstrap (Efron and Tibshirani 1993) treats the data sets as an
    independent sample of the population of data sets of interest, as
    Hothorn et al. (2005) do for benchmark experiments; its intervals and
    probabilities say how the ranking would vary over other data sets drawn
    like these, not over data sets of another kind.  Each probability is a
    proportion of ``n_boot`` samples with Monte-Carlo error
    ``1.96 sqrt(p (1 - p) / n_boot)``.  Tied average ranks in a sample share
    their positions equally, so every row and column of
    ``rank_probabilities`` sums to 1.  The post-hoc decisions are those of
    :func:`cdplot.compare` (Demsar 2006), counted whether or not the
    omnibus test rejects.

    References
    ----------
    .. [1] B. Efron and R. J. Tibshirani, *An Introduction to the
           Bootstrap*, Chapman & Hall (1993), chapters 6 and 13.
    .. [2] T. Hothorn, F. Leisch, A. Zeileis and K. Hornik, "The design and
           analysis of benchmark experiments", Journal of Computational and
           Graphical Statistics 14(3) (2005) 675-699.
    .. [3] J. Demsar, "Statistical comparisons of classifiers over multiple
           data sets", JMLR 7 (2006) 1-30.
    .. [4] A. C. Davison and D. V. Hinkley, *Bootstrap Methods and their
           Application*, Cambridge University Press (1997), section 3.8
           (multi-stage sampling).
    .. [5] Y. Bengio and Y. Grandvalet, "No unbiased estimator of the
           variance of K-fold cross-validation", JMLR 5 (2004) 1089-1105.

    Examples
    --------
    >>> import cdplot
    >>> res = cdplot.compare(cdplot.load_example("demsar2006"))
    >>> st = cdplot.stability(res, n_boot=2000, seed=1)
    >>> st.order()[0]
    'C4.5+m+cf'
    >>> float(st.rank_probabilities.sum(axis=1).min().round(12))
    1.0
    """
    b, seed, conf, bp, loo = _validate(
        result, n_boot, seed, confidence, n_boot_pairs, leave_one_out
    )
    res = result
    resample = check_option("resample", resample, RESAMPLES)
    ranks = np.asarray(res.ranks, dtype=float)
    decider = _Decider(res, ranks)
    if resample == "datasets":
        _, ties = ranks_and_ties(res.scores.values, higher_is_better=res.higher_is_better)
        draws = DatasetDraws(ranks, ties, decider.oriented)
        fold_notes = []
    else:
        draws = fold_draws(res)
        fold_notes = _fold_notes(draws)
    ti, tj = decider.tested_pairs()
    sig = np.asarray(res.significant)[ti, tj]
    pi, pj = ti[sig], tj[sig]
    gen = np.random.default_rng(seed)
    lo, hi, probs, share, omnibus = _bootstrap(gen, draws, b, conf, decider, pi, pj, bp, res.alpha)
    influential = _leave_one_out(res, ranks, decider, ti, tj) if loo else ()
    pairs = tuple(_pair_names(res, i, j) for i, j in zip(pi, pj, strict=True))
    return StabilityResult(
        methods=res.methods,
        datasets=res.datasets,
        n_methods=res.n_methods,
        n_datasets=res.n_datasets,
        higher_is_better=res.higher_is_better,
        alpha=res.alpha,
        test=res.test,
        correction=res.correction,
        control=res.control,
        critical_difference=res.critical_difference,
        n_boot=b,
        resample=resample,
        seed=seed,
        confidence=conf,
        average_ranks=res.average_ranks,
        interval_low=lo,
        interval_high=hi,
        rank_probabilities=probs,
        pairs=pairs,
        pair_share=share,
        n_boot_pairs=bp,
        omnibus_share=omnibus,
        leave_one_out=loo,
        influential=influential,
        notes=_notes(res, b, bp, seed, loo) + tuple(fold_notes),
        options={
            "n_boot": n_boot,
            "seed": seed,
            "confidence": conf,
            "n_boot_pairs": n_boot_pairs,
            "leave_one_out": leave_one_out,
            "resample": resample,
        },
    )
