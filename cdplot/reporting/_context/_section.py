"""The values of one metric's rank-based section, and its figures once drawn."""

from __future__ import annotations

import numpy as np

from .._format import auto_decimals, symbols_markup
from ._common import RANKS_ONLY_OMITTED, datasets_of, place_figure, ranks_only
from ._data_table import data_table
from ._methods import effect_pairs, method_table, one_line
from ._omnibus import main_posthoc_sentences, omnibus_rows, posthoc
from ._pairwise import pairwise

__all__ = ["section_context", "with_figures"]


def section_context(
    r,
    *,
    index: int,
    label: str | None,
    multi: bool,
    figures,
    decimals=None,
    order=None,
    paper: str = "a4",
) -> dict:
    """The values of one metric's section of a report.

    ``order`` is the order of the methods in every table (by default this
    metric's rank order; a multi-metric report passes the overall one).
    ``figures=None`` leaves them out, for :func:`with_figures` to add once
    they are drawn (a report gathers the rest while other processes draw).
    """
    order = list(r.order()) if order is None else list(order)
    scored = not ranks_only(r)
    places = decimals
    if decimals is None and scored:
        places = auto_decimals(r.scores.values)
    table = data_table(r, order, decimals=decimals, paper=paper, multi=multi) if scored else None
    names = [*r.methods, *datasets_of(r), r.metric or ""]
    pairs = pairwise(r, order, paper=paper)
    mt = one_line(method_table(r, order, decimals=places), paper)
    omnibus = omnibus_rows(r)
    section = {
        "id": f"metric-{index}",
        "kind": "ranks",
        "choice": None,
        "index": index,
        "label": label,
        "heading": label if label else "Analysis",
        "level": 3 if multi else 2,
        "direction": "higher is better" if r.higher_is_better else "lower is better",
        "n_methods": r.n_methods,
        "n_datasets": r.n_datasets,
        "rejected": r.rejected,
        "omnibus_sentence": r.omnibus_sentence(),
        "posthoc_sentences": main_posthoc_sentences(r),
        # the same sentences with the symbols of the tables (chi-square_F, alpha, F_F)
        "omnibus_html": symbols_markup(r.omnibus_sentence(), names),
        "posthoc_html": [symbols_markup(t, names) for t in main_posthoc_sentences(r)],
        "n_remarks": len(r.bridges) + len(r.unjoined),
        "notes": [symbols_markup(n, names) for n in r.notes],
        "conclusion": r.conclusion(),
        "dropped_datasets": list(r.scores.dropped_datasets) if scored else [],
        # one sentence where the sections that need scores would stand
        "omitted": None if scored else RANKS_ONLY_OMITTED.format(n=r.n_datasets),
        "order": order,
        "rank_order": list(order) == list(r.order()),
        "table": table,
        "method_table": mt,
        "omnibus": omnibus,
        "posthoc": posthoc(r),
        "pairwise": pairs,
        # average ranks alone (compare_ranks) have no scores to measure effects on
        "effects": effect_pairs(r, order) if scored else None,
    }
    return section if figures is None else with_figures(section, r, figures, paper=paper)


def with_figures(section: dict, r, figures, *, paper: str = "a4") -> dict:
    """Put the drawn figures of ``r`` into its :func:`section_context` (in place) and return it."""
    matrix = section["pairwise"]["matrix"]
    section["figures"] = [_placed(f, r, paper, matrix=matrix) for f in figures]
    # left out by the figure step when it cannot be drawn legibly (many methods)
    section["heatmap_drawn"] = any(f.get("key") == "heatmap" for f in figures)
    return section


def _placed(fig: dict, r, paper: str, *, matrix: bool = True) -> dict:
    """A figure with its printed size, screen sizes and a text alternative stating its finding."""
    if "width" not in fig:
        return fig
    if fig["key"] == "heatmap" and not matrix:
        fig = dict(
            fig,
            caption=f"Adjusted p-value of each pair of methods by level ({r.procedure()}); the "
            "significant pairs are listed by number under the pairwise comparisons below.",
        )
    if fig["key"] == "heatmap":
        n_sig = int(np.sum(np.triu(np.asarray(r.significant, dtype=bool), 1)))
        n_tested = int(np.sum(~np.isnan(r.pvalues[np.triu_indices(r.n_methods, 1)])))
        alt = (
            f"Heatmap of the adjusted p-values: {n_sig} of the {n_tested} pairs tested differ "
            f"significantly at \u03b1 = {r.alpha:g}."
        )
    else:
        alt = " ".join(main_posthoc_sentences(r)) or r.conclusion()
    return place_figure(fig, alt, paper)
