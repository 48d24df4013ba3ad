"""Figures: critical-difference diagrams, rank-interval charts and significance heatmaps.

This package imports matplotlib (without pyplot); :mod:`cdplot` loads it only
when one of these names is first used.  Geometry lives in
:mod:`cdplot.plot.layout` (no matplotlib), drawing in one module per figure.
"""

from .cd_diagram import cd_diagram
from .heatmap import significance_heatmap
from .rank_intervals import rank_intervals
from .save import render_svg, save_figure
from .styles import STYLES

__all__ = ["cd_diagram", "rank_intervals", "significance_heatmap", "save_figure", "render_svg", "STYLES"]
