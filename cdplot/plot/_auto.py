"""Figures of a :func:`cdplot.compare_auto` result: the chosen analysis, drawn honestly.

On the rank-based path the result holds a :class:`ComparisonResult`, which
every chart draws.  On the parametric path it holds repeated-measures ANOVA
with Tukey's HSD: there are no average ranks and no critical difference, so
the CD diagram and the rank intervals cannot show it; the significance
heatmap can, with Tukey's adjusted p-values and the methods in the order of
their mean scores.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..errors import CdplotError, opt
from ..stats._formatting import format_p

if TYPE_CHECKING:
    from ..stats._parametric import AnovaResult

__all__ = ["TukeyView", "as_result", "unwrap_auto"]


@dataclass(frozen=True, eq=False)
class TukeyView:
    """What the heatmap reads, taken from an ANOVA with Tukey's HSD.

    ``average_ranks`` is the position of each method by mean score (1 =
    best): the heatmap uses it only to order its rows.
    """

    anova: AnovaResult

    @property
    def methods(self) -> tuple[str, ...]:
        return self.anova.methods

    @property
    def pvalues(self) -> np.ndarray:
        return self.anova.tukey.pvalues

    @property
    def alpha(self) -> float:
        return self.anova.alpha

    @property
    def control(self) -> None:
        return None

    @property
    def average_ranks(self) -> np.ndarray:
        means = np.asarray(self.anova.means, dtype=float)
        key = -means if self.anova.higher_is_better else means
        out = np.empty(len(means))
        out[np.argsort(key, kind="stable")] = np.arange(1, len(means) + 1)
        return out

    def procedure(self) -> str:
        return "Tukey's HSD"

    def caption(self) -> str:
        """The heatmap's caption: the test, alpha, N and the ANOVA's verdict."""
        a = self.anova
        nb = "\u00a0"
        p = a.pvalue
        # the same digits as the rank-based caption (plot._common.caption_text)
        p_text = format_p(p, digits=3, significant=True, prefix=True, space=nb)
        verdict = "rejects" if a.rejected else "does not reject"
        text = (
            f"Tukey's HSD, \u03b1{nb}={nb}{a.alpha:g}, N{nb}={nb}{a.n_datasets} data sets; "
            f"repeated-measures ANOVA {verdict} equal means "
            f"(F({a.dof[0]},{nb}{a.dof[1]}){nb}={nb}{a.statistic:.2f}, {p_text})"
        )
        if a.metric:
            direction = "higher is better" if a.higher_is_better else "lower is better"
            text = f"{a.metric} ({direction}). " + text
        return text + "."


def unwrap_auto(value, chart: str):
    """The analysis a chart draws of ``value``: ``value`` itself unless it is an AutoResult.

    Parameters
    ----------
    value : object
        What the figure function was given.
    chart : {'cd_diagram', 'rank_intervals', 'significance_heatmap'}
        The figure asking.

    Returns
    -------
    object
        The ComparisonResult of the rank-based path, a :class:`TukeyView`
        for the heatmap on the parametric path, or ``value`` unchanged.

    Raises
    ------
    CdplotError
        When ``chart`` cannot show the parametric path's analysis.
    """
    # An AutoResult exists only once the module defining it is loaded, so drawing any
    # other result never loads the parametric analysis (about 5 ms of a cdplot plot run)
    parametric = sys.modules.get("cdplot.stats._parametric")
    if parametric is None or not isinstance(value, parametric.AutoResult):
        return value
    if not isinstance(value.analysis, parametric.AnovaResult):
        return value.analysis
    if chart == "significance_heatmap":
        return TukeyView(value.analysis)
    raise CdplotError(
        f"{chart} draws average ranks, but compare_auto chose repeated-measures ANOVA with "
        "Tukey's HSD for these scores (no ranks, no critical difference): draw "
        "significance_heatmap(result) for Tukey's adjusted p-values"
    )


def checked_options(compare_kws) -> dict:
    """The keywords ``compare_kws`` sets (``None`` values are unset); it must be a dict."""
    if compare_kws is not None and not isinstance(compare_kws, dict):
        raise CdplotError(
            f"option {opt('compare_kws', compare_kws)} must be a dict or None", option="compare_kws"
        )
    return {k: v for k, v in (compare_kws or {}).items() if v is not None}


def refuse_options(compare_kws, *, what: str = "compare_auto result", hint: str = "") -> None:
    """A figure's ``compare_kws`` apply to raw scores only: refuse them with a result."""
    given = checked_options(compare_kws)
    if given:
        name = sorted(given)[0]
        raise CdplotError(
            f"option {opt(name, given[name])} (in compare_kws) applies only to raw scores; "
            f"this {what} was computed already{hint}",
            option=name,
        )


def as_result(result_or_scores, compare_kws):
    """A ComparisonResult: the one given, or compare() of the scores given.

    ``compare_kws`` are keyword arguments of :func:`cdplot.compare`, for raw
    scores only: a result was computed already, so options given with it
    would be silently ignored, and are refused instead.
    """
    checked_options(compare_kws)
    # a compare_ranks result is drawn like a compare result: it has the same fields.  A
    # result exists only once the module defining its type is loaded, so asking never
    # loads the modules of results that were not made (compare_ranks' for a cdplot plot)
    types = tuple(
        getattr(sys.modules[module], name)
        for module, name in (
            ("cdplot.stats._results", "ComparisonResult"),
            ("cdplot.stats._from_ranks", "RankComparison"),
            ("cdplot.stats._from_posthoc", "PosthocComparison"),
        )
        if module in sys.modules
    )
    if types and isinstance(result_or_scores, types):
        refuse_options(compare_kws, what="result", hint=" (call cdplot.compare with it instead)")
        return result_or_scores
    from ..stats._compare import compare

    return compare(result_or_scores, **(compare_kws or {}))
