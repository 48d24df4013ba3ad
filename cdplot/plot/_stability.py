"""The rank-probability figure of :func:`cdplot.stability`: a method x rank heat strip.

Rows are the methods in the order of their average ranks (best at the top),
columns the ranks 1..k; a cell's shade is the share of bootstrap samples in
which the method had that rank, printed in the cell when there are at most
20 methods.  It draws a :class:`~cdplot.stats.StabilityResult` and never
recomputes it.  Like the other figures, it changes rcParams only inside
:func:`matplotlib.rc_context`, uses the bundled type and the palette of
:mod:`cdplot.plot._styles`; with no ``ax``, the figure is sized to the grid.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import matplotlib as mpl
import numpy as np

from .._docstrings import share
from .._options import check_bool
from ..errors import CdplotError
from . import _common
from ._bayesian import _check_kws, _new_axes, _rc
from ._fonts import check_font, register_fonts
from ._styles import PALETTE, get_style

if TYPE_CHECKING:
    from .._options import Style
    from ..stats import StabilityResult
    from ._types import Axes, FontLike, Kws

__all__ = ["rank_probabilities", "cell_text"]

# the most methods whose cells carry their probability by default
_ANNOTATE_MAX = 20
# what a cell must hold: the widest text cell_text() writes
_WIDEST = "<.01"
# room around a cell's number, in points, on each side
_CELL_PAD = 2.5
# a colour bar and its tick labels, in points (beside the grid)
_COLORBAR_PT = 48.0
# the narrowest cell without a number, in points: narrower, the shades stop reading
_MIN_CELL = 4.0
# below this cell width the white cell edges are left out (they would hide the shade)
_EDGE_CELL = 8.0
# the tallest colour bar, in points
_BAR_MAX = 160.0
# rank-axis ticks are thinned to steps of these sizes until their labels stay apart
_STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)


def cell_text(p: float) -> str:
    """A probability as printed in a cell: ``.58``, ``1``, ``0``, ``<.01`` or ``>.99``.

    Two decimals without the leading zero, so that every cell holds at most
    four characters; a share that is not exactly 0 or 1 never reads as one.
    """
    if p <= 0.0:
        return "0"
    if p >= 1.0:
        return "1"
    if p < 0.005:
        return "<.01"
    if p >= 0.995:
        return ">.99"
    return f"{p:.2f}".lstrip("0")


def _cmap():
    from matplotlib.colors import LinearSegmentedColormap

    # white (never) to the darkest significance blue (always): lightness steps that
    # read in greyscale, as the heatmap's classes do
    return LinearSegmentedColormap.from_list(
        "cdplot-probability", ["#ffffff", PALETTE["levels"][2], PALETTE["levels"][0]]
    )


def _caption(result) -> str:
    worst = result.monte_carlo_error(0.5)
    return (
        f"P(rank) in {result.n_boot} bootstrap samples of the {result.n_datasets} data sets "
        f"(seed {result.seed}); Monte-Carlo error at most \u00b1{worst:.3f}"
    )


def _tick_step(k: int, cell_w: float, label_w: float) -> int:
    """The smallest step of rank ticks whose labels stay at least their own width apart."""
    for step in _STEPS:
        if step * cell_w >= 1.6 * label_w:
            return step
    return _STEPS[-1]


def _size(result, st, font, annotate: bool, colorbar: bool):
    """``(width, height)`` in inches of a new figure: the style's width, wider when the
    printed probabilities need it, and rows tall enough for names and numbers."""
    measure = _common.measurer(font)
    k = result.n_methods
    label_w = max(measure(m, st.small_size, False)[0] for m in result.methods)
    row_h = st.small_size * 1.45
    cell_min = _MIN_CELL
    if annotate:
        cell_min = measure(_WIDEST, st.small_size, False)[0] + 2 * _CELL_PAD
        row_h = max(row_h, st.small_size * 1.9)
    width = max(st.width * 72.0, _side(st, label_w, colorbar) + k * cell_min)
    caption_lines = 2 if width < 300 else 1
    top_bottom = 2 * st.pad + st.small_size * (3.2 + 1.3 * caption_lines)
    return width / 72.0, (k * row_h + top_bottom) / 72.0


def _side(st, label_w: float, colorbar: bool) -> float:
    """Points of a figure's width beside the grid: margins, names and the colour bar."""
    return 2 * st.pad + label_w + 8.0 + (_COLORBAR_PT if colorbar else 0.0)


def _wrap(text: str, width: float, measure, size: float) -> str:
    """``text`` broken at spaces into lines no wider than ``width`` points (measured)."""
    lines: list[str] = []
    for word in text.split():
        if lines and measure(f"{lines[-1]} {word}", size, False)[0] <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return "\n".join(lines)


def _validate(result, annotate, colorbar, caption):
    from ..stats._stability import StabilityResult

    if not isinstance(result, StabilityResult):
        raise CdplotError(
            f"rank_probabilities draws the StabilityResult of cdplot.stability, got "
            f"{type(result).__name__}; run cdplot.stability(cdplot.compare(scores)) first",
            option="result",
        )
    if annotate is None:
        annotate = result.n_methods <= _ANNOTATE_MAX
    else:
        check_bool("annotate", annotate)
    check_bool("colorbar", colorbar)
    check_bool("caption", caption)
    return bool(annotate)


@share
def rank_probabilities(
    result: StabilityResult,
    *,
    ax: Axes | None = None,
    style: Style = "paper",
    font: FontLike = None,
    label_kws: Kws = None,
    mesh_kws: Kws = None,
    annotate: bool | None = None,
    colorbar: bool = True,
    caption: bool = True,
) -> Axes:
    """Draw the probability of each rank of each method: a method x rank heat strip.

    Rows are the methods by average rank (best at the top), columns the
    ranks 1 to k (1 = best); a cell's shade is the share of bootstrap
    samples in which the method had that rank, from white (never) to dark
    blue (always).  The first column is P(best).

    Parameters
    ----------
    result : StabilityResult
        From :func:`cdplot.stability`.
    %(ax_plain)s
        It is made wider when the printed probabilities need it, and of a height
        that gives every method a row.
    %(style_plain)s
    %(font_bundled)s
    label_kws : dict, optional
        Extra :class:`matplotlib.text.Text` properties for the method names.
    mesh_kws : dict, optional
        Extra :meth:`matplotlib.axes.Axes.pcolormesh` properties for the
        cells (``edgecolors``, ``linewidth``, ``cmap``).
    annotate : bool, optional
        Print each probability in its cell (see :func:`cell_text`); by
        default when there are at most 20 methods.
    colorbar : bool, default True
        Add a colour bar of the probability.
    caption : bool, default True
        Add a line with the number of samples, the seed and the largest
        Monte-Carlo error.

    Returns
    -------
    matplotlib.axes.Axes
        Artists carry ids: ``rp-cells`` (the mesh), ``rp-value`` (the
        numbers), ``rp-colorbar`` (the colour bar's Axes).

    Raises
    ------
    CdplotError
        If ``result`` is not a :class:`~cdplot.stats.StabilityResult` or an
        option is invalid.

    Notes
    -----
    The rank axis says the direction the comparison ranked by (rank 1 is
    the best; higher or lower scores are better).  Each probability is a
    share of ``n_boot`` samples, with the Monte-Carlo error the caption
    states; tied average ranks in a sample share their positions, so every
    row and column sums to 1.

    Examples
    --------
    >>> import cdplot
    >>> st = cdplot.stability(cdplot.compare(cdplot.load_example("demsar2006")), seed=1)
    >>> ax = cdplot.rank_probabilities(st)
    >>> len([t for t in ax.texts if t.get_gid() == "rp-value"])
    16
    """
    annotate = _validate(result, annotate, colorbar, caption)
    st = get_style(style)
    font = check_font(font)
    label_kws = _check_kws("label_kws", label_kws)
    mesh_kws = _check_kws("mesh_kws", mesh_kws)
    k = result.n_methods
    order = [result.methods.index(m) for m in result.order()]
    probs = np.asarray(result.rank_probabilities)[order]
    register_fonts()
    with mpl.rc_context(_rc(font, st)):
        width, height = _size(result, st, font, annotate, colorbar)
        ax = _new_axes(ax, width, height)
        measure = _common.measurer(font)
        label_w = max(measure(m, st.small_size, False)[0] for m in result.methods)
        fig_w = ax.figure.get_figwidth() * 72.0
        grid_w = max(1.0, fig_w - _side(st, label_w, colorbar))
        kws = {
            "cmap": _cmap(),
            "vmin": 0.0,
            "vmax": 1.0,
            "edgecolors": "white" if grid_w / k >= _EDGE_CELL else "face",
            "linewidth": st.line_width if grid_w / k >= _EDGE_CELL else 0.0,
            **mesh_kws,
        }
        edges = np.arange(k + 1) + 0.5
        mesh = ax.pcolormesh(edges, edges, probs, **kws)
        mesh.set_gid("rp-cells")
        ax.set_xlim(0.5, k + 0.5)
        ax.set_ylim(k + 0.5, 0.5)  # the best method at the top
        if annotate:
            _numbers(ax, probs, st, font, mesh.cmap)
        _axes_labels(ax, result, order, st, grid_w / k, measure, label_kws)
        if colorbar:
            grid_h = ax.figure.get_figheight() * 72.0 * 0.8
            shrink = min(1.0, _BAR_MAX / grid_h)
            bar = ax.figure.colorbar(mesh, ax=ax, fraction=0.06, pad=0.02, shrink=shrink)
            bar.ax.set_gid("rp-colorbar")
            bar.set_label("P(rank)", fontsize=st.small_size)
            bar.outline.set_linewidth(st.line_width)
        if caption:
            ax.set_title(
                _wrap(_caption(result), grid_w + label_w, measure, st.small_size),
                loc="left",
                fontsize=st.small_size,
                color=PALETTE["muted"],
                pad=st.small_size * 0.6,
            )
    return ax


def _numbers(ax, probs, st, font, cmap) -> None:
    from matplotlib.colors import to_rgb

    k = probs.shape[0]
    base = _common.text_kws(font, st.small_size)
    for r in range(k):
        for c in range(k):
            p = float(probs[r, c])
            red, green, blue = to_rgb(cmap(p))
            # white type where the shade is dark (relative luminance below one half), ink
            # elsewhere; exact zeros, the cells that say least, in the muted grey
            dark = 0.2126 * red + 0.7152 * green + 0.0722 * blue < 0.5
            colour = "white" if dark else PALETTE["muted" if p <= 0.0 else "ink"]
            ax.text(
                c + 1,
                r + 1,
                cell_text(p),
                ha="center",
                va="center_baseline",
                gid="rp-value",
                **{**base, "color": colour},
            )


def _axes_labels(ax, result, order, st, cell_w, measure, label_kws) -> None:
    k = result.n_methods
    ax.set_yticks(np.arange(1, k + 1))
    ax.set_yticklabels([result.methods[i] for i in order], fontsize=st.small_size)
    for t in ax.get_yticklabels():
        t.set(**label_kws)
    step = _tick_step(k, cell_w, measure(str(k), st.small_size, False)[0])
    ticks = [1, *range(step, k + 1, step)] if step > 1 else list(range(1, k + 1))
    ax.set_xticks(sorted(set(ticks)))
    ax.tick_params(length=0, pad=2)
    direction = "higher" if result.higher_is_better else "lower"
    ax.set_xlabel(
        f"rank by average rank (1 = best; {direction} scores are better)",
        fontsize=st.small_size,
    )
    for side in ax.spines.values():
        side.set_visible(False)
