"""One entry point for "analyse these scores", whatever they hold: one metric or several.

:func:`analyse` reads the scores into tables (:func:`cdplot.io.as_score_tables`)
and decides from the tables, never from the wording of an error, what to
return: the :class:`ComparisonResult` of one metric, the
:class:`MetricsComparison` of several metrics that compare the same methods,
or :class:`SeparateAnalyses` (one :class:`ComparisonResult` per metric and
the reason) when the metrics compare different methods (their agreement,
Kendall's tau-b between average ranks, needs the same methods).  The report
layer calls it when it is given raw scores, so that a report and
``cdplot.compare`` agree number for number; :func:`relate_metrics` makes the
same decision for analyses already run, so that a report only formats.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .._options import check_bool
from ..errors import CdplotError, opt
from ..io import as_score_tables
from ._compare import compare_table
from ._consistency import MetricsComparison
from ._pair import PairResult, compare_pair
from ._parametric import AutoResult
from ._resultkit import Result, result, wrap
from ._results import ComparisonResult
from ._stability import stability

# stability is re-exported for the report, which obtains analyses from this module alone
__all__ = [
    "analyse",
    "analyse_pairs",
    "relate_metrics",
    "methods_differ",
    "SeparateAnalyses",
    "stability",
]


def _direction(higher_is_better, metric):
    """One table's direction from a bool, None or ``{metric: bool}``."""
    if isinstance(higher_is_better, Mapping):
        if metric in higher_is_better:
            return check_bool(f"higher_is_better[{metric!r}]", higher_is_better[metric])
        return None
    return higher_is_better


def methods_differ(results: Sequence[ComparisonResult]) -> str | None:
    """Why several analyses cannot be compared metric against metric, or None if they can.

    Parameters
    ----------
    results : sequence of ComparisonResult
        One analysis per metric.

    Returns
    -------
    str or None
        A clause naming the first metric whose methods differ from the first
        metric's (``"metric 'B' lacks 'x' compared with metric 'A'"``), or
        ``None`` when every analysis compares the same set of methods.
    """
    labels = [r.metric or f"metric {i}" for i, r in enumerate(results, start=1)]
    first = set(results[0].methods)
    for label, r in zip(labels[1:], results[1:], strict=True):
        these = set(r.methods)
        if these == first:
            continue
        parts = []
        missing = sorted(first - these)
        extra = sorted(these - first)
        if missing:
            parts.append("lacks " + ", ".join(map(repr, missing)))
        if extra:
            parts.append("adds " + ", ".join(map(repr, extra)))
        return f"metric {label!r} {' and '.join(parts)} compared with metric {labels[0]!r}"
    return None


@result
class SeparateAnalyses(Result):
    """Analyses of several metrics that are not compared with each other, and why.

    What :func:`relate_metrics` (and a report given such metrics) gives when
    the metrics compare different methods: Kendall's tau-b between their
    average ranks, the agreement a :class:`MetricsComparison` measures,
    needs the same methods under every metric.

    Attributes
    ----------
    results : tuple of ComparisonResult
        One analysis per metric, in input order.
    reason : str
        The clause saying which metric's methods differ from the first's
        (``"metric 'B' lacks 'x' compared with metric 'A'"``, from
        :func:`methods_differ`).

    Examples
    --------
    >>> import numpy as np, cdplot
    >>> from cdplot.stats import relate_metrics
    >>> x = np.arange(30.0).reshape(10, 3) % 7
    >>> a = cdplot.compare(x, methods=["p", "q", "r"])
    >>> b = cdplot.compare(x, methods=["p", "q", "s"])
    >>> print(relate_metrics([a, b]).sentence)  # doctest: +NORMALIZE_WHITESPACE
    The metrics are not compared with each other because metric 'metric 2' lacks 'r' and
    adds 's' compared with metric 'metric 1': their agreement needs the same methods under
    every metric.
    """

    results: tuple[ComparisonResult, ...]
    reason: str

    def __post_init__(self):
        object.__setattr__(self, "results", tuple(self.results))

    @property
    def sentence(self) -> str:
        """Why the metrics are not compared, as the sentence a report prints."""
        return (
            f"The metrics are not compared with each other because {self.reason}: their "
            "agreement needs the same methods under every metric."
        )

    def _headline(self) -> str:
        return f"{len(self.results)} metrics analysed apart; {self.reason}"

    def __str__(self) -> str:
        lines = [f"Separate analyses of {len(self.results)} metrics", "", *wrap(self.sentence)]
        for i, r in enumerate(self.results, start=1):
            lines += ["", *wrap(f"{r.metric or f'metric {i}'}: {r.omnibus_sentence()}")]
        return "\n".join(lines)

    def to_dict(self) -> dict:
        """``results`` (each one's ``to_dict()``) and ``reason``, JSON-safe."""
        return {"results": [r.to_dict() for r in self.results], "reason": self.reason}


def relate_metrics(
    results: Sequence[ComparisonResult],
) -> ComparisonResult | MetricsComparison | SeparateAnalyses:
    """How analyses of several metrics go together: compared, or apart with the reason.

    Parameters
    ----------
    results : sequence of ComparisonResult
        One analysis per metric.

    Returns
    -------
    ComparisonResult or MetricsComparison or SeparateAnalyses
        The analysis itself when there is one; the
        :class:`MetricsComparison` (Kendall's tau-b between the metrics'
        average ranks) when every analysis compares the same methods;
        otherwise :class:`SeparateAnalyses`, saying which metric's methods
        differ.

    Raises
    ------
    CdplotError
        If ``results`` is empty or holds anything but ComparisonResult
        objects, or the analyses use different alpha values (see
        :meth:`MetricsComparison.from_results`).

    Examples
    --------
    >>> import cdplot
    >>> from cdplot.stats import relate_metrics
    >>> data = cdplot.load_example("yang-table9")
    >>> results = [cdplot.compare(data, metric=m) for m in ("AUC", "F")]
    >>> type(relate_metrics(results)).__name__
    'MetricsComparison'
    """
    results = tuple(results)
    if not results:
        raise CdplotError("relate_metrics needs at least one ComparisonResult; got none")
    for r in results:
        if not isinstance(r, ComparisonResult):
            raise CdplotError(f"expected ComparisonResult objects; got {type(r).__name__}")
    if len(results) == 1:
        return results[0]
    why = methods_differ(results)
    if why is not None:
        return SeparateAnalyses(results=results, reason=why)
    return MetricsComparison.from_results(results)


def analyse(
    scores,
    *,
    higher_is_better: bool | Mapping[str, bool] | None = None,
    alpha: float = 0.05,
    test: str = "nemenyi",
    correction: str | None = None,
    control: str | None = None,
    tie_correction: bool = True,
    zero_method: str = "demsar",
    method: str = "auto",
    nan_policy: str = "raise",
    metric: str | None = None,
    methods=None,
    datasets=None,
) -> ComparisonResult | MetricsComparison | SeparateAnalyses:
    """Analyse scores of one metric or several, as :func:`cdplot.compare` does for each.

    Parameters
    ----------
    scores : ScoreTable, sequence of ScoreTable, array_like, mapping, DataFrame or path
        Anything :func:`cdplot.compare` or :func:`cdplot.compare_metrics`
        accepts.
    higher_is_better : bool or mapping of str to bool, optional
        Direction of the scores: one bool for every metric, or
        ``{metric: bool}`` for some of them; metrics not given follow the
        direction their data declare, else higher is better.
    alpha : float, default 0.05
        Significance level.
    test : {'nemenyi', 'bonferroni-dunn', 'friedman-z', 'wilcoxon', 'sign'}, default 'nemenyi'
        The post-hoc test.  The choice between ANOVA and Friedman from the
        data is :func:`cdplot.compare_auto`, whose result a report also
        takes.
    correction : str, optional
        Multiple-testing procedure of the pairwise tests.
    control : str, optional
        Compare every method with this one only.
    tie_correction : bool, default True
        Friedman's correction for ties.
    zero_method : {'demsar', 'zsplit', 'wilcox', 'pratt'}, default 'demsar'
        Zero differences in the Wilcoxon test.
    method : {'auto', 'exact', 'asymptotic'}, default 'auto'
        Null distribution of the Wilcoxon statistic.
    nan_policy : {'raise', 'omit'}, default 'raise'
        Missing scores.
    metric : str, optional
        Analyse only this metric of scores holding several.
    methods, datasets : sequence of str, optional
        Names for the columns and rows of an unlabelled array.

    Returns
    -------
    ComparisonResult or MetricsComparison or SeparateAnalyses
        A :class:`ComparisonResult` for one metric; a
        :class:`MetricsComparison` for several metrics of the same methods;
        :class:`SeparateAnalyses` (one :class:`ComparisonResult` per metric,
        in the order of the data, and the reason) when the metrics compare
        different methods (see :func:`relate_metrics`).

    Raises
    ------
    CdplotError
        For invalid scores or options, ``test='auto'`` (use
        :func:`cdplot.compare_auto`), or a ``higher_is_better`` key that is
        not a metric of the data.

    Notes
    -----
    Each metric is analysed on its own table with the same options, as
    :func:`cdplot.compare_metrics` does, so the numbers of each section of a
    multi-metric report are those :func:`cdplot.compare` gives for that
    metric alone.

    Examples
    --------
    >>> import cdplot
    >>> from cdplot.stats._analysis import analyse
    >>> type(analyse(cdplot.load_example("demsar2006"))).__name__
    'ComparisonResult'
    >>> type(analyse(cdplot.load_example("yang-table9"))).__name__
    'MetricsComparison'
    """
    if test == "auto":
        raise CdplotError(
            f"option {opt('test', 'auto')} chooses between ANOVA and Friedman; run "
            "compare_auto(scores) and pass its result instead",
            option="test",
        )
    if isinstance(higher_is_better, Mapping):
        higher_is_better = dict(higher_is_better)
    elif higher_is_better is not None:
        check_bool("higher_is_better", higher_is_better)
    tables = as_score_tables(
        scores, methods=methods, datasets=datasets, nan_policy=nan_policy, metric=metric
    )
    if isinstance(higher_is_better, dict):
        known = {t.metric for t in tables}
        unknown = [name for name in higher_is_better if name not in known]
        if unknown:
            names = ", ".join(str(t.metric) for t in tables)
            raise CdplotError(
                f"option higher_is_better has metric {unknown[0]!r}, which is not in the data; "
                f"metrics are {names}"
            )
    results = tuple(
        compare_table(
            t,
            higher_is_better=_direction(higher_is_better, t.metric),
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
    )
    if len(results) == 1:
        return results[0]
    return relate_metrics(results)


def analyse_pairs(result: ComparisonResult | AutoResult, pairs) -> tuple[PairResult, ...]:
    """Compare pairs of methods head to head on the scores of an analysis.

    Parameters
    ----------
    result : ComparisonResult or AutoResult
        The analysis whose scores, direction, alpha and Wilcoxon options
        (``zero_method``, ``method``) are reused, so that the pairs
        agree with it.  The parametric path of an :class:`AutoResult` keeps
        no Wilcoxon options: the defaults of :func:`cdplot.compare_pair` are
        used.
    pairs : sequence of (str, str)
        The pairs of methods.  A report shows the results
        (``cdplot.report(result, path, pairs=analyse_pairs(result, pairs))``);
        it computes none itself.

    Returns
    -------
    tuple of PairResult
        One per pair, in order (see :func:`cdplot.compare_pair`).

    Raises
    ------
    CdplotError
        If a name is not a method of ``result``, a pair is not two different
        names, or ``result`` holds average ranks alone (no scores to compare).
    """
    if getattr(result, "scores", None) is None:
        raise CdplotError(
            "option pairs: a head-to-head comparison needs the scores on each data set, which "
            "average ranks do not have"
        )
    if isinstance(result, AutoResult):
        inner = result.analysis
        options = getattr(inner, "options", {})
    else:
        inner, options = result, result.options
    if isinstance(pairs, str) or not hasattr(pairs, "__iter__"):
        raise CdplotError(f"option pairs={pairs!r} must be a list of (method, method) pairs")
    out = []
    for p in pairs:
        if isinstance(p, str) or not hasattr(p, "__len__") or len(p) != 2:
            raise CdplotError(f"option pairs: {p!r} is not a pair of two method names")
        a, b = str(p[0]), str(p[1])
        if a == b:
            raise CdplotError(f"option pairs: ({a!r}, {b!r}) compares a method with itself")
        for name in (a, b):
            if name not in result.scores.methods:
                raise CdplotError(
                    f"option pairs: method {name!r} is not in the data; methods are "
                    f"{', '.join(result.scores.methods)}"
                )
        out.append(
            compare_pair(
                result.scores,
                methods=(a, b),
                higher_is_better=inner.higher_is_better,
                alpha=inner.alpha,
                zero_method=options.get("zero_method", "demsar"),
                method=options.get("method", "auto"),
            )
        )
    return tuple(out)
