"""The report's optional stability section: a bootstrap over data sets, in words and a figure.

Off by default (``report(..., stability=None)``): with ``True`` the section
computes :func:`cdplot.stability` of each rank analysis (seed 0, so that a
report is reproducible); with a :class:`~cdplot.stats.StabilityResult` it
shows that one.  It composes only: the statistics come from
:mod:`cdplot.stats._stability`, the figure from :func:`cdplot.plot.rank_probabilities`,
the markup from ``templates/stability.html.j2``.
"""

from __future__ import annotations

import warnings

from .._options import check_bool
from ..errors import CdplotError, FigureSizeWarning, opt
from ..stats._from_ranks import RankComparison
from ..stats._results import ComparisonResult
from ..stats._stability import StabilityResult
from ._figures import (
    MIN_PRINTED_PT,
    _close,
    _printed_min,
    _report_style,
    clean_svg,
    drawn_measures,
)
from ._layout import figure_placement

__all__ = [
    "check_stability",
    "refuse_without_ranks",
    "stability_for",
    "stability_context",
    "STABILITY_REFERENCES",
]

# the seed of the samples a report draws itself (stability=True)
REPORT_SEED = 0
# least stable pairs and influential data sets listed (the JSON of the result has all)
_SHOWN = 10
# methods in the table of intervals; the figure shows all
_SHOWN_METHODS = 30

STABILITY_REFERENCES = (
    "B. Efron and R. J. Tibshirani, An Introduction to the Bootstrap, Chapman & Hall, 1993.",
    "T. Hothorn, F. Leisch, A. Zeileis and K. Hornik, The design and analysis of benchmark "
    "experiments, Journal of Computational and Graphical Statistics 14(3) (2005) 675-699.",
    "J. Dem\u0161ar, Statistical comparisons of classifiers over multiple data sets, JMLR 7 "
    "(2006) 1-30.",
)


# what the two-stage bootstrap over data sets and folds adds
FOLD_REFERENCES = (
    "A. C. Davison and D. V. Hinkley, Bootstrap Methods and their Application, Cambridge "
    "University Press, 1997.",
    "Y. Bengio and Y. Grandvalet, No unbiased estimator of the variance of K-fold "
    "cross-validation, JMLR 5 (2004) 1089-1105.",
)


def check_stability(value):
    """``stability=`` of :func:`cdplot.report`: None or False (off), True, or a result."""
    if value is None or isinstance(value, StabilityResult):
        return value
    try:
        on = check_bool("stability", value)
    except CdplotError:
        raise CdplotError(
            f"option {opt('stability', value)} must be True, False or the StabilityResult of "
            "cdplot.stability",
            option="stability",
        ) from None
    return True if on else None


def refuse_without_ranks(value, what: str) -> None:
    """Refuse ``stability=`` for a report with no ranks on each data set to resample."""
    if value is not None:
        raise CdplotError(
            f"option {opt('stability')} needs the ranks on each data set, and {what} has "
            "none; leave it out",
            option="stability",
        )


def stability_for(result, value) -> StabilityResult | bool | None:
    """The stability of one section's analysis: the one given, True (to be computed), or None.

    The report obtains a stability it computes itself where it obtains its analyses
    (``_render``, through :mod:`cdplot.stats._analysis`), with the seed ``REPORT_SEED``.
    """
    if value is None:
        return None
    if not isinstance(result, ComparisonResult):
        refuse_without_ranks(
            value,
            "an analysis of average ranks alone"
            if isinstance(result, RankComparison)
            else f"a {type(result).__name__}",
        )
    if value is True:
        return True
    if (
        tuple(value.methods) != tuple(result.methods)
        or tuple(value.datasets) != tuple(result.datasets)
        or value.test != result.test
        or value.alpha != result.alpha
    ):
        raise CdplotError(
            f"option {opt('stability')} holds the stability of another analysis (methods, data "
            "sets, test or alpha differ); give stability=True to compute it for this one",
            option="stability",
        )
    return value


def _figure(st: StabilityResult, *, prefix: str, for_print: bool, paper: str) -> dict | None:
    """The rank-probability strip; None in a PDF where it would print below 6 pt.

    A screen zooms, a page cannot: with many methods and long names the
    strip scaled to a page would set its names at about 4 pt (100 methods
    with 60-character names), so a PDF says where to get it whole instead,
    as it does for a heatmap too large to read.
    """
    from .. import plot

    with warnings.catch_warnings():
        # the report places a tall figure itself (see figures._draw_one)
        warnings.simplefilter("ignore", FigureSizeWarning)
        ax = plot.rank_probabilities(st, style=_report_style(), caption=False)
    drawn = drawn_measures(ax)
    try:
        # measured before it is rendered: a strip the page cannot hold is not rendered
        if for_print and _printed_min(drawn) < MIN_PRINTED_PT:
            return None
        svg = plot.render_svg(ax, embed_fonts=False)
    finally:
        _close(ax)
    place = figure_placement(drawn["width"], drawn["height"], drawn["min_font"], paper=paper)
    return {
        "key": "stability",
        "title": "Rank probabilities",
        "svg": clean_svg(svg, f"{prefix}-stability"),
        "for_print": for_print,
        **drawn,
        "print_width": f"{place.print_width:.1f}pt",
        "caption": (
            f"Share of {st.n_boot} bootstrap samples of the {st.n_datasets} data sets in which "
            f"each method (rows, by average rank) has each rank (columns; 1 = best, "
            f"{'higher' if st.higher_is_better else 'lower'} scores are better); seed "
            f"{st.seed}, Monte-Carlo error at most \u00b1{st.monte_carlo_error(0.5):.3f}."
        ),
    }


def _influence_context(st: StabilityResult) -> dict:
    """The leave-one-out list: each data set when few, else a summary and the notable ones."""
    notable = st.notable_influences()
    if notable == st.influential:
        return {
            "influence_summary": None,
            "influential": [
                {"dataset": d.dataset, "change": d.describe()} for d in notable[:_SHOWN]
            ],
            "more_influential": max(0, len(notable) - _SHOWN),
        }
    # many data sets change a pair at the critical difference: counted, the notable named
    return {
        "influence_summary": st.influence_summary(),
        "influential": [
            {"dataset": d.dataset, "change": d.count_words()} for d in notable[:_SHOWN]
        ],
        "more_influential": max(0, len(notable) - _SHOWN),
    }


def stability_context(
    st: StabilityResult, *, prefix: str, format: str = "pdf", paper: str = "a4"
) -> dict:
    """The values of ``stability.html.j2`` for one section: words, tables and the figure."""
    order = st.order()
    rows = []
    for m in order[:_SHOWN_METHODS]:
        i = st.methods.index(m)
        rows.append(
            {
                "method": m,
                "average_rank": f"{st.average_ranks[i]:.3f}",
                "low": f"{st.interval_low[i]:.2f}",
                "high": f"{st.interval_high[i]:.2f}",
                "p_best": f"{st.p_best[i]:.3f}",
            }
        )
    by_share = sorted(range(len(st.pairs)), key=lambda c: (float(st.pair_share[c]), c))
    pairs = [
        {
            "a": st.pairs[c][0],
            "b": st.pairs[c][1],
            "share": f"{st.pair_share[c]:.3f}",
            "error": f"{st.monte_carlo_error(float(st.pair_share[c]), st.n_boot_pairs):.3f}",
        }
        for c in by_share[:_SHOWN]
    ]
    return {
        "paragraph": st.paragraph(),
        "confidence": f"{st.confidence:.0%}",
        "rows": rows,
        "n_methods": len(order),
        "more_methods": max(0, len(order) - _SHOWN_METHODS),
        "pairs": pairs,
        "more_pairs": max(0, len(st.pairs) - _SHOWN),
        "n_boot_pairs": st.n_boot_pairs,
        "leave_one_out": st.leave_one_out,
        **_influence_context(st),
        "notes": list(st.notes),
        "references": list(STABILITY_REFERENCES)
        + (list(FOLD_REFERENCES) if st.resample == "datasets-and-folds" else []),
        "figure": _figure(st, prefix=prefix, for_print=format == "pdf", paper=paper),
    }
