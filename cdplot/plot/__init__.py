"""Figures: critical-difference diagrams, rank-interval charts and significance heatmaps.

Geometry lives in :mod:`cdplot.plot._layout` (no matplotlib), drawing in one
module per figure.  The drawing names are loaded on first use (PEP 562), so
``import cdplot.plot._layout`` or ``cdplot.plot._styles`` never imports
matplotlib; pyplot is never imported by cdplot itself.
"""

from __future__ import annotations

from .._lazy import attach

_LAZY = {
    "cd_diagram": "cdplot.plot._critical_difference",
    "rank_intervals": "cdplot.plot._intervals",
    "significance_heatmap": "cdplot.plot._heatmap",
    "save_figure": "cdplot.plot._save",
    "render_svg": "cdplot.plot._save",
    "STYLES": "cdplot.plot._styles",
    "posterior_density": "cdplot.plot._bayesian",
    "posterior_simplex": "cdplot.plot._bayesian",
    "cd_tikz": "cdplot.plot._tikz",
    "intervals_tikz": "cdplot.plot._tikz",
    "cd_diagrams": "cdplot.plot._panels",
    "rank_profile": "cdplot.plot._profile",
}

__all__ = sorted(_LAZY)


__getattr__, __dir__ = attach(__name__, _LAZY, globals())
