"""Figures: critical-difference diagrams, rank-interval charts and significance heatmaps.

Geometry lives in :mod:`cdplot.plot.layout` (no matplotlib), drawing in one
module per figure.  The drawing names are loaded on first use (PEP 562), so
``import cdplot.plot.layout`` or ``cdplot.plot.styles`` never imports
matplotlib; pyplot is never imported by cdplot itself.
"""

from __future__ import annotations

import importlib

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


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'cdplot.plot' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
