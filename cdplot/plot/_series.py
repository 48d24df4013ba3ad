"""One look per method across the figures of several metrics: colour, marker, line style.

The panels of :func:`cdplot.cd_diagrams` and the lines of
:func:`cdplot.rank_profile` give each method the same colour, so a reader
follows it from figure to figure.  Colours alone do not survive greyscale
print or colour-blind readers, so the profile also varies marker and line
style (and names sit at the line ends).
"""

from __future__ import annotations

import numpy as np

from ..errors import CdplotError

__all__ = ["COLORS", "MARKERS", "DASHES", "method_looks", "check_metrics", "mean_order"]

# Okabe & Ito's colour-blind-safe palette with near-black; yellow left out, orange
# darkened (#E69F00 -> #A87400) and sky blue replaced by a violet, so that every colour
# has at least 3:1 contrast on white (WCAG 1.4.11 for graphical objects; 3.06:1 to 17:1)
COLORS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#1a1a1a", "#A87400", "#6B3FA0")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
# line styles in points (matplotlib dash tuples): solid, dashed, dotted, dash-dot
DASHES = ((0, ()), (0, (4.0, 1.5)), (0, (1.0, 1.2)), (0, (4.0, 1.2, 1.0, 1.2)))


def check_metrics(metrics_result, what: str):
    """The MetricsComparison given, or a CdplotError naming what was given instead."""
    from ..stats._consistency import MetricsComparison

    if not isinstance(metrics_result, MetricsComparison):
        raise CdplotError(
            f"{what} draws a MetricsComparison (the result of cdplot.compare_metrics); got "
            f"{type(metrics_result).__name__}"
        )
    return metrics_result


def mean_order(mc) -> list[int]:
    """Methods (indices into ``mc.methods``) by their mean average rank over the metrics."""
    mean = np.asarray(mc.average_ranks, dtype=float).mean(axis=0)
    return sorted(range(mc.n_methods), key=lambda i: (mean[i], i))


def method_looks(mc) -> dict[str, tuple[str, str, tuple]]:
    """``{method: (colour, marker, dash)}``, assigned by mean rank (best first).

    Colours, markers and dashes cycle with periods 7, 8 and 4, so no two of
    the first 56 methods (the least common multiple) look alike, in colour
    or in greyscale (marker and dash).
    """
    looks = {}
    for pos, i in enumerate(mean_order(mc)):
        looks[mc.methods[i]] = (
            COLORS[pos % len(COLORS)],
            MARKERS[pos % len(MARKERS)],
            DASHES[pos % len(DASHES)],
        )
    return looks
