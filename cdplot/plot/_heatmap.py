"""Significance heatmaps of the pairwise adjusted p-values."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .._docstrings import share
from .._options import check_bool
from ..errors import CdplotError
from ..stats._formatting import format_p as _format_p
from . import _common
from ._auto import TukeyView, refuse_options, unwrap_auto
from ._layout import heatmap_layout
from ._styles import PALETTE

if TYPE_CHECKING:
    from .._options import Style
    from ._types import Axes, FontLike, Highlight, Kws, ResultLike

__all__ = ["significance_heatmap", "significance_levels", "format_p"]


def significance_levels(alpha: float) -> list[float]:
    """Upper bounds of the colour classes: 0.001 and 0.01 where below ``alpha``, then ``alpha``."""
    return [t for t in (0.001, 0.01) if t < alpha] + [alpha]


def _level_colours(n: int) -> list[str]:
    dark, mid, light = PALETTE["levels"][:3]
    return {1: [mid], 2: [dark, light], 3: [dark, mid, light]}[n]


def _class(p: float, levels) -> int:
    return next((n for n, t in enumerate(levels) if p <= t), len(levels))


def format_p(p: float, levels) -> str:
    """A cell's p-value, rounded so that it reads in the cell's own colour class.

    Three decimals, with one leading-zero style (``<0.001``, ``0.003``);
    where three decimals would put the value on the other side of a class
    bound (0.00145 as "0.001" in a "p > 0.001" cell, 0.0501 as "0.050" in
    a "p > 0.05" cell), more digits are shown until it does not.
    """
    return _format_p(p, digits=3, levels=levels)


@share
def significance_heatmap(
    result_or_scores: ResultLike,
    *,
    ax: Axes | None = None,
    reverse: bool = False,
    style: Style = "paper",
    font: FontLike = None,
    highlight: Highlight = None,
    label_kws: Kws = None,
    line_kws: Kws = None,
    annotate: bool | None = None,
    caption: bool = True,
    compare_kws: Kws = None,
    width: float | None = None,
) -> Axes:
    """Draw the adjusted p-values of all pairs as a lower-triangle heatmap.

    Methods are in rank order (best first, at the top left; ``reverse``
    puts the worst first).  Each cell is coloured by the class of its
    adjusted p-value: at most 0.001, at most 0.01, at most ``alpha``, and
    not significant; pairs that were not tested (comparisons with a
    control) are white and hatched.

    Parameters
    ----------
    %(result_or_scores)s
    %(ax)s
    %(reverse)s
    %(style)s
    %(width)s
    %(font)s
    %(highlight)s
    %(label_kws)s
    %(line_kws)s
    %(compare_kws)s
    annotate : bool, optional
        Print the p-value in each cell; by default when the cells are large
        enough for it.
    caption : bool, default True
        Add a line with the test, alpha and N.

    Returns
    -------
    matplotlib.axes.Axes
        Artists carry stable ids: ``hm-cells``, ``hm-untested``,
        ``hm-value``, ``hm-row-label``, ``hm-col-label``, ``hm-legend``,
        ``hm-legend-swatch``, ``hm-caption``, ``hm-key``.

    Warns
    -----
    CdplotWarning
        When the cells cannot hold the style's type in its width (or the
        given Axes).

    Raises
    ------
    CdplotError
        For invalid options.

    Notes
    -----
    ``line_kws`` sets the cell edges (``edgecolor``, ``linewidth``);
    ``highlight`` sets the method's labels in bold blue.  Printed p-values
    agree with their cell's class: 0.00145 is printed "0.0015" in a
    "p <= 0.01" cell, never "0.001" (see :func:`format_p`).

    Examples
    --------
    >>> import cdplot
    >>> ax = cdplot.significance_heatmap(cdplot.load_example("demsar2006"))
    >>> len([t for t in ax.texts if t.get_gid() == "hm-row-label"])
    3
    """
    # a compare_auto result: its rank-based analysis, or Tukey's HSD on the parametric path
    result_or_scores = unwrap_auto(result_or_scores, "significance_heatmap")
    if isinstance(result_or_scores, TukeyView):
        refuse_options(compare_kws)
        result = result_or_scores
    else:
        result = _common.as_result(result_or_scores, compare_kws)
    st, font, hl = _common.check_common(
        result,
        ax=ax,
        reverse=reverse,
        style=style,
        font=font,
        highlight=highlight,
        label_kws=label_kws,
        line_kws=line_kws,
    )
    check_bool("caption", caption)
    width_pt = _common.check_width(width, ax)
    if annotate is not None:
        check_bool("annotate", annotate)
    if result.pvalues is None:
        raise CdplotError(
            f"the {result.procedure()} was supplied as a significance matrix, which has no "
            "p-values to colour; draw it with cd_diagram, or supply the p-values"
        )
    names = list(result.methods)
    if len(names) < 2:
        raise CdplotError(f"a heatmap needs at least 2 methods; the result has {len(names)}")
    avg = [float(r) for r in result.average_ranks]
    key = [-r for r in avg] if reverse else avg
    levels, legend, untested, cap = _key_and_caption(result, caption)
    with _common.canvas(ax, font) as cv:
        measure = _common.measurer(font)
        avail_w, avail_h = cv.available()
        lay = heatmap_layout(
            names,
            key,
            legend,
            measure=measure,
            style=st,
            width=avail_w if ax is not None else width_pt,
            height=avail_h,
            grow=ax is None,
            bold=[] if hl is None else [hl],
            annotate=annotate,
            value_sample="0.0000",
            caption=cap,
        )
        _check_room(lay, len(names), style=st, ax=ax, width_pt=width_pt)
        ax = cv.axes(lay.width, lay.height)
        _draw(
            ax,
            lay,
            result,
            levels,
            untested,
            font,
            st,
            _common.drawn_label_kws(label_kws),
            line_kws or {},
        )
    return ax


def _key_and_caption(result, caption: bool):
    """``(levels, legend, untested, caption)``: the p-value classes and their legend.

    The legend says "not tested" when a pair was not (``untested``); the
    caption is Tukey's own on the parametric path.
    """
    levels = significance_levels(result.alpha)
    legend = [f"p \u2264 {t:g}" for t in levels] + [f"p > {result.alpha:g} (not significant)"]
    untested = bool(np.isnan(result.pvalues).any())
    if untested:
        legend.append("not tested")
    if not caption:
        cap = None
    elif isinstance(result, TukeyView):
        cap = result.caption()
    else:
        cap = _common.caption_text(result)
    return levels, legend, untested, cap


def _check_room(lay, k: int, *, style, ax, width_pt) -> None:
    """Refuse a heatmap too large to draw; warn when it is too tall or not legible."""
    what = f"a heatmap of {k} methods"
    # warnings name the caller's line: check_size or warn_unfit, _check_room,
    # significance_heatmap, the caller
    _common.check_size(
        what, lay.width, lay.height, style=style, ax=ax, warned=not lay.fits, stacklevel=4
    )
    if not lay.fits:
        _common.warn_unfit(
            what,
            lay.need,
            style=style,
            ax=ax,
            width_pt=width_pt,
            alternative=(
                _common.ALTERNATIVES["paper"]
                if style.name == "paper" and width_pt is None
                else "use cd_diagram or rank_intervals, which need one row per method"
            ),
            squeezed="its cells are",
            stacklevel=4,
        )


def _draw(ax, lay, result, levels, untested, font, st, label_kws, line_kws):
    colours = _level_colours(len(levels)) + [PALETTE["levels"][3]]
    polys, faces, blank, texts = _cells(lay, result.pvalues, levels, colours)
    _common.add_polygons(
        ax,
        polys,
        facecolors=faces,
        gid="hm-cells",
        clip_on=False,
        **_edge_kws(st, line_kws),
    )
    if blank:
        _common.add_polygons(
            ax,
            blank,
            facecolors=PALETTE["untested"],
            edgecolors=PALETTE["faint"],
            linewidths=st.line_width,
            hatch="////",
            gid="hm-untested",
            clip_on=False,
        )
    for x, y, s, color in texts:
        _common.add_text(
            ax,
            x,
            y,
            s,
            ha="center",
            va="center",
            gid="hm-value",
            clip_on=False,
            **_common.text_kws(font, lay.small_size, False, color),
        )
    _draw_swatches(ax, lay, colours + ([PALETTE["untested"]] if untested else []))
    _draw_labels(ax, lay, font, label_kws)
    return ax


def _cells(lay, p, levels, colours):
    """The lower triangle's cells as ``(polygons, face colours, untested polygons, values)``.

    ``values`` holds ``(x, y, text, colour)`` for each printed p-value (none
    unless the layout annotates).
    """
    order = lay.order
    polys, faces, blank = [], [], []
    texts = []
    for r in range(len(order) - 1):
        i = order[r + 1]
        for c in range(r + 1):
            j = order[c]
            x0, y0, x1, y1 = lay.cell_box(r, c)
            poly = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
            v = p[i, j]
            if np.isnan(v):
                blank.append(poly)
                continue
            cls = _class(v, levels)
            polys.append(poly)
            faces.append(colours[cls])
            if lay.annotate:
                # white type on the two dark classes, ink on the light ones
                dark = colours[cls] in PALETTE["levels"][:2]
                label = format_p(v, levels)
                texts.append(((x0 + x1) / 2, (y0 + y1) / 2, label, "white" if dark else "ink"))
    return polys, faces, blank, texts


def _edge_kws(st, line_kws) -> dict:
    """The cells' edges: white lines of the style's width, restyled by ``line_kws``.

    A line's ``edgecolor``/``ec`` and ``linewidth``/``lw`` become a collection's
    ``edgecolors`` and ``linewidths``.
    """
    edge = {"edgecolors": "white", "linewidths": st.line_width}
    edge.update(
        {
            (
                "edgecolors"
                if k in ("edgecolor", "ec")
                else "linewidths"
                if k in ("linewidth", "lw")
                else k
            ): v
            for k, v in line_kws.items()
        }
    )
    return edge


def _draw_swatches(ax, lay, legend_colours) -> None:
    """One square per legend entry, hatched for "not tested" as its cells are."""
    for (x, y, side), colour in zip(lay.legend_swatches, legend_colours, strict=False):
        _common.add_rect(
            ax,
            x - side / 2,
            y - side / 2,
            side,
            side,
            facecolor=colour,
            edgecolor=PALETTE["faint"],
            lw=0.5,
            hatch="////" if colour == PALETTE["untested"] else None,
            gid="hm-legend-swatch",
            clip_on=False,
        )


def _draw_labels(ax, lay, font, label_kws) -> None:
    """Row and column labels (restyled by ``label_kws``), legend text and caption."""
    for b in lay.boxes:
        kws = _common.text_kws(font, b.size, b.bold, b.color)
        if b.role in ("row-label", "col-label"):
            kws.update(label_kws)
        _common.add_text(
            ax,
            b.x,
            b.y,
            b.text,
            ha=b.ha,
            va=b.va,
            rotation=b.rotation,
            rotation_mode="default",
            gid=f"hm-{b.role}",
            clip_on=False,
            **kws,
        )
