"""Geometry of the figures, in points, with no matplotlib.

Every position is computed here from text sizes that the caller measures
(``measure(text, size, bold) -> (width, height, descent)`` in points), so
the arithmetic that keeps names, ticks, bars and notes apart can be tested
with any measuring function and the drawing modules only place what they
are given.  Coordinates run in points from the top-left corner of the
figure, ``y`` growing downwards.

Names never overlap because each method gets its own row and each side its
own column whose width is the widest measured name; bars and notes get
rows of their own.  When the names do not fit the target width, the type
shrinks in half-point steps down to the style's minimum, and only then does
the figure widen (or, inside a given Axes, the rank axis shortens).

One module per figure kind (``_cd``, ``_intervals``, ``_heatmap``,
``_profile``) over what they share (``_common``: text boxes, name fitting,
rank axes, the key to shortened names).  The TikZ writers place their
pictures with the same functions.
"""

from ._cd import Bar, CDLayout, Elbow, cd_layout
from ._common import (
    LINE_SPACING,
    Box,
    Measure,
    Named,
    Note,
    NotePart,
    axis_polylines,
    common_prefix,
    fit_labels,
    key_boxes,
    note_text,
    overlapping_boxes,
    pack_rows,
    rank_span,
    shorten_name,
    tick_ranks,
    wrap_name,
    wrap_text,
)
from ._heatmap import HeatmapLayout, heatmap_layout
from ._intervals import IntervalLayout, interval_layout
from ._profile import ProfileLayout, profile_layout, spread

__all__ = [
    "Box",
    "CDLayout",
    "IntervalLayout",
    "HeatmapLayout",
    "cd_layout",
    "interval_layout",
    "heatmap_layout",
    "wrap_text",
    "wrap_name",
    "shorten_name",
    "rank_span",
    "axis_polylines",
    "tick_ranks",
    "pack_rows",
    "overlapping_boxes",
    "ProfileLayout",
    "profile_layout",
    "spread",
    # used by the other figure modules and the report (not for users)
    "Bar",
    "Elbow",
    "LINE_SPACING",
    "Measure",
    "common_prefix",
    "fit_labels",
    "key_boxes",
    "Named",
    "Note",
    "NotePart",
    "note_text",
]
