"""New figures, and how a notebook shows them: a 2x (retina) PNG at the figure's own size.

matplotlib's inline backend shows a figure as a PNG at ``figure.dpi`` (100):
a 3.5 in paper figure becomes 370 x 133 pixels whose 6.5 pt caption is
about 9 pixels tall, blurred on every high-density screen.  A cdplot figure
made in a notebook kernel is a :class:`NotebookFigure`, for which IPython's
own ``retina_figure`` printer is registered: twice the pixels, shown at the
1x width and height, as ``InlineBackend.figure_formats = {'retina'}`` would
do for every figure.  Only cdplot's figure class is affected, and only when
the notebook shows PNGs at all (a user who chose SVG or PDF keeps that).
"""

from __future__ import annotations

import functools
import sys

from matplotlib.figure import Figure

from ._fontembed import keep_fonts_on_savefig

__all__ = ["NotebookFigure", "new_figure"]


class NotebookFigure(Figure):
    """A pyplot figure made by cdplot, which a notebook shows as a 2x PNG at its 1x size."""


def _show_retina() -> None:
    """Register IPython's retina PNG printer for :class:`NotebookFigure` in a running shell."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    formatters = getattr(getattr(shell, "display_formatter", None), "formatters", {})
    png = formatters.get("image/png")
    if png is None:
        return
    try:
        current = png.lookup_by_type(Figure)
    except KeyError:
        return  # figures are not shown as PNG here (SVG or PDF chosen, or no inline backend)
    from IPython.core.pylabtools import retina_figure

    # the inline backend's own options (bbox_inches='tight', ...), as it shows other figures
    options = {k: v for k, v in getattr(current, "keywords", {}).items() if k != "fmt"}
    options["base64"] = True
    png.for_type(NotebookFigure, functools.partial(retina_figure, **options))


def new_figure(size: tuple[float, float], **kwargs) -> Figure:
    """A white figure of ``size`` inches that keeps its fonts on ``savefig``.

    Through pyplot when the user has loaded it or runs a notebook kernel (the
    inline backend shows pyplot figures), else a bare Agg figure, so that the
    command line never loads pyplot or a GUI backend.
    """
    if "matplotlib.pyplot" in sys.modules or "ipykernel" in sys.modules:
        import matplotlib.pyplot as plt

        fig = plt.figure(figsize=size, FigureClass=NotebookFigure, **kwargs)
        if "ipykernel" in sys.modules:
            _show_retina()
    else:
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        fig = Figure(figsize=size, **kwargs)
        FigureCanvasAgg(fig)
    fig.patch.set_facecolor("white")
    keep_fonts_on_savefig(fig)
    return fig
