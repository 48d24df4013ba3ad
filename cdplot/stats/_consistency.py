"""``compare_metrics``: one analysis per metric, and how far the metrics agree.

A comparison is often run under several measures (error rate, precision,
recall, AUC ...), and the measures need not pick the same winner.  Yang's
survey (section 5.5 and its Table 9) shows this for three
classifiers on five UCI data sets under six measures.  This module runs
:func:`cdplot.compare` on the table of each metric and summarises the
agreement between the metrics' rankings with Kendall's tau-b between their
average ranks, the overall winner under each metric and the best method on
each data set under each metric.

Only numpy is used here (the statistics core never imports ``scipy.stats``);
Kendall's tau-b is computed from the signs of all pairwise differences.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
from numpy.typing import ArrayLike

from .._docstrings import share
from .._options import Correction, NanPolicy, NullMethod, Test, ZeroMethod, check_bool
from ..errors import CdplotError
from ..io import as_score_tables
from ..io._types import ScoresLike
from ._compare import compare_table
from ._resultkit import Result, join_names, method_index, num, readonly, result, wrap
from ._results import ComparisonResult

__all__ = ["compare_metrics", "MetricsComparison", "kendall_tau_b"]


def kendall_tau_b(x: ArrayLike, y: ArrayLike) -> float:
    """Kendall's rank correlation tau-b between two vectors.

    Parameters
    ----------
    x, y : array_like, shape (n,)
        Paired observations, e.g. the average ranks of the same methods
        under two metrics.

    Returns
    -------
    float
        ``(n_c - n_d) / sqrt((n_0 - n_1) (n_0 - n_2))``, where ``n_c`` and
        ``n_d`` count concordant and discordant pairs, ``n_0 = n (n - 1) / 2``
        and ``n_1``, ``n_2`` count the pairs tied in ``x`` and in ``y``.
        NaN when either vector is constant (or ``n < 2``), as
        ``scipy.stats.kendalltau`` returns.

    Raises
    ------
    CdplotError
        If the vectors differ in length or are not finite.

    Notes
    -----
    Computed from the signs of all ``n (n - 1) / 2`` differences, which is
    O(n^2) in time and memory; ``n`` is a number of methods here, small.

    References
    ----------
    .. [1] M. G. Kendall, "The treatment of ties in ranking problems",
           Biometrika 33 (1945) 239-251.

    Examples
    --------
    >>> kendall_tau_b([1, 2, 3, 4], [1, 3, 2, 4])
    0.6666666666666666
    """
    x = np.asarray(x, dtype=float).ravel()
    y = np.asarray(y, dtype=float).ravel()
    if x.shape != y.shape:
        raise CdplotError(f"kendall_tau_b needs vectors of one length; got {x.size} and {y.size}")
    if not (np.all(np.isfinite(x)) and np.all(np.isfinite(y))):
        raise CdplotError("kendall_tau_b needs finite values")
    i, j = np.triu_indices(x.size, k=1)
    sx = np.sign(x[i] - x[j])
    sy = np.sign(y[i] - y[j])
    # pairs untied in x times pairs untied in y: (n0 - n1) (n0 - n2)
    denominator = float(np.count_nonzero(sx)) * float(np.count_nonzero(sy))
    if denominator == 0.0:
        return math.nan
    tau = float(np.sum(sx * sy)) / math.sqrt(denominator)
    # rounding can push a perfect agreement a hair past 1
    return min(1.0, max(-1.0, tau))


def _label(result: ComparisonResult, position: int) -> str:
    """What to call the metric of one result: its name, else its source, else its position."""
    if result.metric:
        return str(result.metric)
    source = result.scores.source
    if source:
        return str(source).replace("\\", "/").rsplit("/", 1)[-1]
    return f"metric {position}"


def _unique_labels(labels: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for lab in labels:
        seen[lab] = seen.get(lab, 0) + 1
        out.append(lab if seen[lab] == 1 else f"{lab} ({seen[lab]})")
    return out


@result
class MetricsComparison(Result):
    """The analyses of the same methods under several metrics, and their agreement.

    Attributes
    ----------
    metrics : tuple of str
        The metrics, in input order (file names stand in for unnamed metrics).
    results : tuple of ComparisonResult
        One complete analysis per metric, aligned with ``metrics``.
    methods : tuple of str
        The methods, in the order of the first metric's table.
    n_metrics, n_methods : int
        Number of metrics and of methods.
    average_ranks : ndarray, shape (n_metrics, n_methods)
        Average rank of each method (columns in ``methods`` order) under each
        metric, 1 = best; each metric's own direction has been applied.
    tau : ndarray, shape (n_metrics, n_metrics)
        Kendall's tau-b between the average ranks of each pair of metrics;
        1 on the diagonal; NaN when a metric ranks all methods equal.
    winners : tuple of tuple of str
        The method(s) with the best average rank under each metric (several
        when tied).
    alpha : float
        Significance level of every analysis.
    """

    metrics: tuple[str, ...]
    results: tuple[ComparisonResult, ...]
    methods: tuple[str, ...]
    n_metrics: int
    n_methods: int
    average_ranks: np.ndarray
    tau: np.ndarray
    winners: tuple[tuple[str, ...], ...]
    alpha: float

    def __post_init__(self):
        for name in ("average_ranks", "tau"):
            object.__setattr__(self, name, readonly(getattr(self, name)))
        object.__setattr__(self, "results", tuple(self.results))

    @classmethod
    def from_results(cls, results: Sequence[ComparisonResult]) -> MetricsComparison:
        """Summarise analyses already run, one per metric, of the same methods.

        Parameters
        ----------
        results : sequence of ComparisonResult
            At least two analyses; every one must compare the same set of
            methods (their column order may differ).

        Returns
        -------
        MetricsComparison

        Raises
        ------
        CdplotError
            If fewer than two results are given, or their methods differ.
        """
        results = tuple(results)
        if len(results) < 2:
            raise CdplotError(
                f"a comparison of metrics needs at least two metrics; got {len(results)}"
            )
        for r in results:
            if not isinstance(r, ComparisonResult):
                raise CdplotError(f"expected ComparisonResult objects; got {type(r).__name__}")
        labels = _unique_labels([_label(r, i + 1) for i, r in enumerate(results)])
        methods = results[0].methods
        for lab, r in zip(labels, results, strict=False):
            if set(r.methods) != set(methods):
                missing = sorted(set(methods) - set(r.methods))
                extra = sorted(set(r.methods) - set(methods))
                parts = []
                if missing:
                    parts.append("lacks " + ", ".join(map(repr, missing)))
                if extra:
                    parts.append("adds " + ", ".join(map(repr, extra)))
                raise CdplotError(
                    f"metric {lab!r} {' and '.join(parts)} compared with metric {labels[0]!r}; "
                    "the consistency of metrics needs the same methods under every metric"
                )
        alphas = {r.alpha for r in results}
        if len(alphas) != 1:
            raise CdplotError(
                f"the analyses use different alpha values {sorted(alphas)}; use one alpha for all "
                "metrics"
            )
        avg = np.array([[r.average_rank(m) for m in methods] for r in results], dtype=float)
        m = len(results)
        tau = np.eye(m)
        for a in range(m):
            for b in range(a + 1, m):
                tau[a, b] = tau[b, a] = kendall_tau_b(avg[a], avg[b])
        winners = tuple(
            tuple(
                methods[i] for i in np.flatnonzero(np.isclose(row, row.min(), rtol=0.0, atol=1e-12))
            )
            for row in avg
        )
        return cls(
            metrics=tuple(labels),
            results=results,
            methods=tuple(methods),
            n_metrics=m,
            n_methods=len(methods),
            average_ranks=avg,
            tau=tau,
            winners=winners,
            alpha=results[0].alpha,
        )

    # ---- derived quantities -------------------------------------------------
    def result(self, metric: str) -> ComparisonResult:
        """The analysis under one metric; raises :class:`CdplotError` for unknown names."""
        try:
            return self.results[self.metrics.index(metric)]
        except ValueError:
            raise CdplotError(
                f"unknown metric {metric!r}; metrics are {', '.join(self.metrics)}"
            ) from None

    def index(self, method: str) -> int:
        """Column of ``method`` in :attr:`average_ranks`; :class:`CdplotError` if unknown."""
        return method_index(self.methods, method)

    def average_rank(self, method: str, metric: str) -> float:
        """Average rank of one method under one metric."""
        return self.result(metric).average_rank(method)

    def order(self, metric: str) -> tuple[str, ...]:
        """Method names from the best average rank to the worst under one metric."""
        return self.result(metric).order()

    def pvalue(self, a: str, b: str, metric: str) -> float:
        """Adjusted p-value of ``a`` against ``b`` under one metric."""
        return self.result(metric).pvalue(a, b)

    def _headline(self) -> str:
        winners = "; ".join(
            f"{lab}: {', '.join(w)}" for lab, w in zip(self.metrics, self.winners, strict=True)
        )
        return f"{self.n_methods} methods under {self.n_metrics} metrics, best {winners}"

    def dataset_winners(self) -> dict[str, dict[str, tuple[str, ...]]]:
        """The best method(s) on each data set under each metric.

        Returns
        -------
        dict
            ``{metric: {dataset: (method, ...)}}``, several methods when they
            tie for rank 1; data sets in each table's order.
        """
        out: dict[str, dict[str, tuple[str, ...]]] = {}
        for label, r in zip(self.metrics, self.results, strict=False):
            best = r.ranks.min(axis=1, keepdims=True)
            hits = np.isclose(r.ranks, best, rtol=0.0, atol=1e-12)
            out[label] = {
                d: tuple(r.methods[j] for j in np.flatnonzero(row))
                for d, row in zip(r.datasets, hits, strict=False)
            }
        return out

    def datasets(self) -> tuple[str, ...]:
        """Every data set of any metric, in first-seen order."""
        seen: dict[str, None] = {}
        for r in self.results:
            for d in r.datasets:
                seen.setdefault(d, None)
        return tuple(seen)

    def tau_pairs(self) -> tuple[tuple[str, str, float], ...]:
        """``(metric_a, metric_b, tau)`` for every pair of metrics, in input order."""
        return tuple(
            (self.metrics[a], self.metrics[b], float(self.tau[a, b]))
            for a in range(self.n_metrics)
            for b in range(a + 1, self.n_metrics)
        )

    # ---- words --------------------------------------------------------------
    def winner_sentence(self) -> str:
        """Which method is best under each metric, in one sentence."""
        groups: dict[tuple[str, ...], list[str]] = {}
        for label, w in zip(self.metrics, self.winners, strict=False):
            groups.setdefault(w, []).append(label)
        if len(groups) == 1:
            (w,) = groups
            who = join_names(w) + (" tie for" if len(w) > 1 else " has")
            return f"{who} the best average rank under all {self.n_metrics} metrics."
        parts = []
        for w, labels in groups.items():
            who = join_names(w) + (" (tied)" if len(w) > 1 else "")
            parts.append(f"{who} under {join_names(labels)}")
        return "The best average rank goes to " + "; ".join(parts) + "."

    def tau_sentence(self) -> str:
        """The range of Kendall's tau-b between the metrics, in one sentence."""
        pairs = [(a, b, t) for a, b, t in self.tau_pairs() if not math.isnan(t)]
        undefined = [(a, b) for a, b, t in self.tau_pairs() if math.isnan(t)]
        if not pairs:
            return (
                "Kendall's tau-b is undefined for every pair of metrics "
                "because a metric ranks all methods equal."
            )
        lo = min(pairs, key=lambda p: p[2])
        hi = max(pairs, key=lambda p: p[2])
        mean = sum(p[2] for p in pairs) / len(pairs)
        if len(pairs) == 1:
            text = (
                "Kendall's tau-b between the average ranks under "
                f"{lo[0]} and {lo[1]} is {lo[2]:.3f}."
            )
        else:
            text = (
                f"Kendall's tau-b between the metrics' average ranks ranges from {lo[2]:.3f} "
                f"({lo[0]} vs {lo[1]}) to {hi[2]:.3f} ({hi[0]} vs {hi[1]}), with mean {mean:.3f} "
                f"over {len(pairs)} pairs of metrics."
            )
        if undefined:
            text += (
                f" It is undefined for {len(undefined)} pairs because "
                "a metric ranks all methods equal."
            )
        return text

    def conclusion(self) -> str:
        """The agreement of the metrics in words, with the numbers."""
        rejected = [lab for lab, r in zip(self.metrics, self.results, strict=False) if r.rejected]
        if not rejected:
            omnibus = (
                f"Under none of the {self.n_metrics} metrics does the "
                "Iman-Davenport test of the Friedman statistic reject equal performance"
            )
        elif len(rejected) == self.n_metrics:
            omnibus = (
                f"Under all {self.n_metrics} metrics the Iman-Davenport test of the Friedman "
                "statistic rejects equal performance"
            )
        else:
            omnibus = (
                "The Iman-Davenport test of the Friedman statistic rejects equal performance "
                f"under {join_names(rejected)} "
                f"({len(rejected)} of {self.n_metrics} metrics)"
            )
        omnibus += f" at alpha = {self.alpha:g}."
        return " ".join([self.winner_sentence(), self.tau_sentence(), omnibus])

    def __str__(self) -> str:
        width = max(len(m) for m in self.metrics)
        lines = [
            f"Comparison of {self.n_methods} methods under {self.n_metrics} metrics",
            "",
            f"{'metric':<{width}}  winner",
        ]
        for label, w in zip(self.metrics, self.winners, strict=False):
            lines.append(f"{label:<{width}}  {', '.join(w)}")
        lines += ["", *wrap(self.conclusion())]
        return "\n".join(lines)

    def to_dict(self) -> dict:
        """Return a JSON-safe dictionary (the per-metric analyses included)."""
        return {
            "metrics": list(self.metrics),
            "methods": list(self.methods),
            "alpha": self.alpha,
            "average_ranks": {
                lab: {m: float(v) for m, v in zip(self.methods, row, strict=False)}
                for lab, row in zip(self.metrics, self.average_ranks, strict=False)
            },
            "tau": {
                a: {b: num(self.tau[i, j]) for j, b in enumerate(self.metrics)}
                for i, a in enumerate(self.metrics)
            },
            "winners": {lab: list(w) for lab, w in zip(self.metrics, self.winners, strict=False)},
            "dataset_winners": {
                lab: {d: list(w) for d, w in per.items()}
                for lab, per in self.dataset_winners().items()
            },
            "results": {
                lab: r.to_dict() for lab, r in zip(self.metrics, self.results, strict=False)
            },
            "conclusion": self.conclusion(),
        }


def _direction_for(higher_is_better, table):
    """The direction option for one table: a bool for all, or a per-metric mapping."""
    if higher_is_better is None or isinstance(higher_is_better, (bool, np.bool_)):
        return higher_is_better
    name = table.metric
    if name in higher_is_better:
        return check_bool(f"higher_is_better[{name!r}]", higher_is_better[name])
    return None


@share
def compare_metrics(
    data: ScoresLike,
    *,
    higher_is_better: bool | Mapping[str, bool] | None = None,
    alpha: float = 0.05,
    test: Test = "nemenyi",
    correction: Correction | None = None,
    control: str | None = None,
    tie_correction: bool = True,
    zero_method: ZeroMethod = "demsar",
    method: NullMethod = "auto",
    nan_policy: NanPolicy = "raise",
    methods: Sequence[str] | None = None,
    datasets: Sequence[str] | None = None,
) -> MetricsComparison:
    """Compare methods under several metrics, and how far the metrics agree.

    Parameters
    ----------
    data : sequence of ScoreTable, long table with a metric column, mapping, path \
or sequence of ComparisonResult
        Scores under at least two metrics: anything :func:`cdplot.compare`
        accepts that holds several metrics (``{metric: {dataset: {method:
        score}}}``, a long table with a ``metric`` column, a list of
        :class:`ScoreTable`, one per metric or file), or analyses already run.
    higher_is_better : bool or mapping of str to bool, optional
        Direction of the scores: one bool for every metric, or
        ``{metric: bool}`` for some of them.  Metrics not given follow the
        direction their data declare, else higher is better.
    alpha, test, correction, control, tie_correction, zero_method, method, nan_policy
        As in :func:`cdplot.compare`, applied to every metric.
    %(methods_datasets)s

    Returns
    -------
    MetricsComparison
        The analysis under each metric, Kendall's tau-b between the metrics'
        average ranks and the winner under each metric; ``print`` it for
        the agreement in words.

    Raises
    ------
    CdplotError
        If the data hold fewer than two metrics, the metrics compare
        different methods, a ``higher_is_better`` key is not a metric, or
        an option is invalid.

    Notes
    -----
    Each metric is analysed on its own table, so the data sets may differ
    between metrics; Kendall's tau-b compares only the average ranks,
    which need the same methods.  With ``k`` methods tau-b takes few
    values (for ``k = 3``: -1, -1/3, 1/3, 1), so it describes agreement
    rather than testing it.

    References
    ----------
    .. [1] M. G. Kendall, "The treatment of ties in ranking problems",
           Biometrika 33 (1945) 239-251.
    .. [2] Yang, Wang et al., survey of performance measures in machine
           learning, section 5.5 and Table 9 (the consistency of six measures).

    Examples
    --------
    >>> import cdplot
    >>> mc = cdplot.compare_metrics(cdplot.load_example("yang-table9"))
    >>> mc.metrics
    ('5CV', 'Boots.', 'P', 'R', 'F', 'AUC')
    """
    if isinstance(higher_is_better, Mapping):
        higher_is_better = dict(higher_is_better)
    elif higher_is_better is not None:
        check_bool("higher_is_better", higher_is_better)
    items = list(data) if isinstance(data, (list, tuple)) else None
    if items and all(isinstance(r, ComparisonResult) for r in items):
        return MetricsComparison.from_results(items)

    tables = as_score_tables(data, methods=methods, datasets=datasets, nan_policy=nan_policy)
    if len(tables) < 2:
        raise CdplotError(
            f"the data hold {len(tables)} metric; compare_metrics needs at least two (use compare "
            "for one)"
        )
    if isinstance(higher_is_better, dict):
        known = {t.metric for t in tables}
        for name in higher_is_better:
            if name not in known:
                names = ", ".join(str(t.metric) for t in tables)
                raise CdplotError(
                    f"option higher_is_better has metric {name!r}, which is not in the data; "
                    f"metrics are {names}"
                )
    results = [
        compare_table(
            t,
            higher_is_better=_direction_for(higher_is_better, t),
            alpha=alpha,
            test=test,
            correction=correction,
            control=control,
            tie_correction=tie_correction,
            zero_method=zero_method,
            method=method,
            nan_policy=nan_policy,
        )
        for t in tables
    ]
    return MetricsComparison.from_results(results)
