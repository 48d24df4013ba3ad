"""Figures: critical-difference diagrams, rank intervals, significance heatmaps, rank probabilities.

Geometry lives in :mod:`cdplot.plot._layout` (no matplotlib), drawing in one
module per figure.  The drawing names are loaded on first use (PEP 562), so
``import cdplot.plot._layout`` or ``cdplot.plot._styles`` never imports
matplotlib; pyplot is never imported by cdplot itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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
    "cd_explorer": "cdplot.plot._explorer",
    "rank_probabilities": "cdplot.plot._stability",
    "power_curve": "cdplot.plot._power_curve",
}

# written out (not sorted(_LAZY)) so that type checkers read it; a test keeps them equal
__all__ = [
    "STYLES",
    "cd_diagram",
    "cd_diagrams",
    "cd_explorer",
    "cd_tikz",
    "intervals_tikz",
    "posterior_density",
    "posterior_simplex",
    "power_curve",
    "rank_intervals",
    "rank_probabilities",
    "rank_profile",
    "render_svg",
    "save_figure",
    "significance_heatmap",
]

if TYPE_CHECKING:
    # What a type checker sees: the real functions (through __getattr__ alone, each is Any);
    # the run time stays lazy.  tests/test_typing.py checks this block against _LAZY.
    from ._bayesian import posterior_density, posterior_simplex
    from ._critical_difference import cd_diagram
    from ._explorer import cd_explorer
    from ._heatmap import significance_heatmap
    from ._intervals import rank_intervals
    from ._panels import cd_diagrams
    from ._power_curve import power_curve
    from ._profile import rank_profile
    from ._save import render_svg, save_figure
    from ._stability import rank_probabilities
    from ._styles import STYLES
    from ._tikz import cd_tikz, intervals_tikz
else:
    __getattr__, __dir__ = attach(__name__, _LAZY, globals())
