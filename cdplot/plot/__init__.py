"""Figures: critical-difference diagrams, rank-interval charts and significance heatmaps.

Geometry lives in :mod:`cdplot.plot.layout` (no matplotlib), drawing in one
module per figure.  The drawing names are loaded on first use (PEP 562), so
``import cdplot.plot.layout`` or ``cdplot.plot.styles`` never imports
matplotlib; pyplot is never imported by cdplot itself.
"""

from __future__ import annotations

from .._lazy import attach

_LAZY = {
    "cd_diagram": "cdplot.plot.critical_difference",
    "rank_intervals": "cdplot.plot.intervals",
    "significance_heatmap": "cdplot.plot.heatmap",
    "save_figure": "cdplot.plot.save",
    "render_svg": "cdplot.plot.save",
    "STYLES": "cdplot.plot.styles",
    "posterior_density": "cdplot.plot.bayesian",
    "posterior_simplex": "cdplot.plot.bayesian",
    "cd_tikz": "cdplot.plot.tikz",
    "intervals_tikz": "cdplot.plot.tikz",
    "cd_diagrams": "cdplot.plot.panels",
    "rank_profile": "cdplot.plot.profile",
}

__all__ = sorted(_LAZY)


__getattr__, __dir__ = attach(__name__, _LAZY, globals())
