"""What several parts of a report's values share: average ranks alone, numbers, figures."""

from __future__ import annotations

import math
import re
from html import escape as html_escape

from .._layout import figure_placement

__all__ = ["RANKS_ONLY_OMITTED", "ranks_only", "datasets_of", "fixed", "place_figure"]


#: What a report of average ranks alone (:func:`cdplot.compare_ranks`) leaves out, said once.
RANKS_ONLY_OMITTED = (
    "The input held only the average ranks over {n} data sets, so the table of scores and "
    "ranks per data set, the mean scores, wins, ties and losses, the tie correction and the "
    "Wilcoxon and sign tests are left out."
)


def ranks_only(r) -> bool:
    """Whether ``r`` was computed from average ranks alone (it has no per-data-set ranks)."""
    return not hasattr(r, "ranks")


def datasets_of(r) -> tuple:
    return () if ranks_only(r) else tuple(r.datasets)


def fixed(x, d=3) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "\u2013"
    if math.isinf(x):
        return "\u221e"
    return f"{x:.{d}f}"


def place_figure(fig: dict, alt: str, paper: str) -> dict:
    """``fig`` with its printed and screen sizes, and ``alt`` as its text alternative."""
    place = figure_placement(fig["width"], fig["height"], fig["min_font"], paper=paper)
    # the figure's text alternative, as the SVG's <title> (what a tagged PDF's Figure carries
    # as /Alt and what screen readers announce); escaped, it is text
    title = f"<title>{html_escape(fig['title'] + '. ' + alt, quote=False)}</title>"
    svg = re.sub(r"^(<svg\b[^>]*>)", lambda m: m.group(1) + title, fig["svg"], count=1)
    return dict(
        fig,
        svg=svg,
        alt=alt,
        landscape=place.landscape,
        print_width=f"{place.print_width:.1f}pt",
        print_height=f"{place.print_height:.1f}pt",
        min_px=f"{place.min_px:.0f}px",
        max_px=f"{place.max_px:.0f}px",
        printed_min_font=place.printed_min_font,
    )
