"""Text that matplotlib measures and draws unhinted, at the widths the layout measured.

The layout (:mod:`cdplot.plot._layout`) places every name with the fonts'
unhinted advance widths, which are the same at every resolution and in SVG
and PDF.  matplotlib reads ``text.hinting`` from the global rcParams when it
draws, so a figure drawn outside :func:`cdplot.save_figure` (``plt.show``,
Jupyter, ``fig.savefig``) was set with the default ``force_autohint``:
glyph advances snapped to whole pixels, names a little wider or narrower than
the room measured for them, and FreeType's auto-hinter run on every glyph,
which took half of the time of rendering a 100-method diagram on Agg.
"""

from __future__ import annotations

import warnings

import matplotlib as mpl
from matplotlib.artist import allow_rasterization
from matplotlib.text import Text

__all__ = ["LayoutText"]


# matplotlib warns once per missing character and per drawing ("Glyph 38543 (...) missing
# from font(s) Lato, DejaVu Sans."): 27 lines for one table of CJK names.  cdplot says it
# once for all of them, with the fix, when the figure is made (_common._check_glyphs).
_MISSING_GLYPH = r"Glyph \d+ \(.*\) missing from font"


class _Unhinted:
    """``text.hinting = 'no_hinting'`` while a text is measured or drawn, then as it was;
    matplotlib's per-character warnings about missing glyphs are left out meanwhile."""

    __slots__ = ("_old", "_warnings")

    def __enter__(self):
        params = mpl.rcParams
        self._old = params["text.hinting"]
        if self._old != "no_hinting":
            params["text.hinting"] = "no_hinting"
        self._warnings = warnings.catch_warnings()
        self._warnings.__enter__()
        warnings.filterwarnings("ignore", message=_MISSING_GLYPH, category=UserWarning)
        return self

    def __exit__(self, *exc):
        self._warnings.__exit__(*exc)
        if self._old != "no_hinting":
            mpl.rcParams["text.hinting"] = self._old
        return False


class LayoutText(Text):
    """A :class:`~matplotlib.text.Text` measured and drawn without hinting.

    Only the one rcParam is set, for the duration of the call, and restored
    (exceptions included); every other property is :class:`Text`'s.
    """

    @allow_rasterization
    def draw(self, renderer):
        with _Unhinted():
            return super().draw(renderer)

    def get_window_extent(self, renderer=None, dpi=None):
        with _Unhinted():
            return super().get_window_extent(renderer, dpi)
