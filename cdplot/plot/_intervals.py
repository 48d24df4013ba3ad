"""Rank-interval charts: the "Friedman test chart" of Zhou's *Machine Learning* (2016, section 2.4).

Zhou Zhi-Hua, *Machine Learning* (Tsinghua University Press, 2016), section 2.4.

One row per method in rank order, a dot at its average rank and a segment of
length CD centred on it; two methods differ significantly exactly when their
segments do not overlap (like the MCB plot of R's tsutils).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .._docstrings import share
from .._options import check_bool
from ..errors import CdplotError, opt
from . import _common
from ._auto import unwrap_auto
from ._layout import axis_polylines, interval_layout
from ._styles import PALETTE

if TYPE_CHECKING:
    from collections.abc import Sequence

    from .._options import Style
    from ._types import Axes, FontLike, Highlight, Kws, ResultLike

__all__ = ["rank_intervals"]


@share
def rank_intervals(
    result_or_scores: ResultLike,
    *,
    ax: Axes | None = None,
    reverse: bool = False,
    style: Style = "paper",
    font: FontLike = None,
    highlight: Highlight = None,
    label_kws: Kws = None,
    line_kws: Kws = None,
    caption: bool = True,
    compare_kws: Kws = None,
    width: float | None = None,
    full_axis: bool | None = None,
    methods: Sequence[str] | None = None,
) -> Axes:
    """Draw a rank-interval chart: average ranks with segments of length CD.

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
    caption : bool, default True
        Add a line with the test, alpha, N and CD, and a key to the colours.
    full_axis : bool, optional
        Run the rank axis from 1 to k.  By default it does for fewer than
        10 methods and otherwise, as in :func:`cd_diagram`, spans only the
        ranks the segments cover, rounded out to integers, with a break
        mark when it does not start at 1.
    methods : sequence of str, optional
        Draw only these methods' rows, on the axis, name column and key
        numbers of the whole chart: the parts of a chart too tall for a
        page, drawn one by one, line up.  Default: every method.

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn into; artists carry the stable ids ``ri-name-<i>``,
        ``ri-segment-<i>``, ``ri-dot-<i>`` (``i`` = input order),
        ``ri-band``, ``ri-grid``, ``ri-axis``, ``ri-axis-break``, ``ri-ticks``, ``ri-tick``,
        ``ri-legend``, ``ri-legend-swatch``, ``ri-caption`` and ``ri-key``.

    Raises
    ------
    CdplotError
        For invalid options, a result without a critical difference (the
        pairwise tests have none: use :func:`cd_diagram` or
        :func:`significance_heatmap` for them), or a ``highlight`` other
        than the control of a comparison with a control.

    Warns
    -----
    CdplotWarning
        When the chart cannot be made legible in its width (or the given
        Axes).

    Notes
    -----
    Without a control, each method gets a segment of half-length CD/2:
    two segments overlap exactly when the average ranks differ by less
    than CD, the Nemenyi criterion.  With ``highlight``, its segment and
    those of the methods that differ significantly from it are blue with
    filled dots, the rest grey with open dots, and its span is shaded.

    With a control (Bonferroni-Dunn), only pairs with the control were
    tested, so only the control gets an interval: its rank plus and minus
    CD, shaded as the reference.  Every other method is a dot, filled and
    blue when it lies outside the interval (differs significantly from the
    control), open and grey otherwise; nothing is drawn that could be read
    as a comparison of two other methods.

    Examples
    --------
    >>> import cdplot
    >>> ax = cdplot.rank_intervals(cdplot.load_example("demsar2006"), highlight="C4.5")
    >>> len([t for t in ax.texts if t.get_gid().startswith("ri-name")])
    4
    """
    # a compare_auto result: its rank-based analysis (the parametric one has no ranks)
    result_or_scores = unwrap_auto(result_or_scores, "rank_intervals")
    result = _common.as_result(
        result_or_scores,
        compare_kws,
    )
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
    if full_axis is not None:
        check_bool("full_axis", full_axis)
    cd = result.critical_difference
    _common.refuse_supplied_without_cd(result, "cd_diagram or significance_heatmap")
    if cd is None:
        raise CdplotError(
            f"a rank-interval chart needs a critical difference, which {opt('test', result.test)} "
            f"does not have; use {opt('test', 'nemenyi')} or 'bonferroni-dunn', or draw cd_diagram "
            "or significance_heatmap",
            option="test",
        )
    width_pt = _common.check_width(width, ax)
    names = list(result.methods)
    shown = shown_methods(methods, names)
    control = None if result.control is None else names.index(result.control)
    if control is not None:
        hl = control
    differ, legend = _verdicts(result, names, hl, control)
    spec = _IntervalSpec(
        names=names,
        avg=[float(r) for r in result.average_ranks],
        cd=cd,
        ax=ax,
        style=st,
        font=font,
        hl=hl,
        differ=differ,
        control=control,
        caption=_common.caption_text(result) if caption else None,
        legend=legend if caption else [],
        shown=shown,
        reverse=reverse,
        full_axis=full_axis,
        width_pt=width_pt,
        label_kws=_common.drawn_label_kws(label_kws),
        line_kws=line_kws or {},
    )
    ax = _render(spec)
    # what save_figure(ax, "intervals.tex") needs to lay the same chart out for LaTeX
    ax._cdplot_tikz = (
        "intervals",
        result,
        {
            "reverse": reverse,
            "style": st.name,
            "highlight": highlight,
            "caption": caption,
            "width": width,
            "full_axis": full_axis,
            "methods": methods,
        },
    )
    return ax


@dataclass(frozen=True, kw_only=True)
class _IntervalSpec:
    """A checked :func:`rank_intervals` call: what the chart shows and how it is drawn."""

    names: list[str]
    avg: list[float]
    cd: float
    ax: Axes | None
    style: Any
    font: Any
    hl: int | None
    differ: set[int]
    control: int | None
    caption: str | None
    legend: list
    shown: list[int] | None
    reverse: bool
    full_axis: bool | None
    width_pt: float | None
    label_kws: dict
    line_kws: dict


def _render(spec: _IntervalSpec) -> Axes:
    """Lay the chart out in its Axes (made to size when none was given) and draw it."""
    ax, st, hl = spec.ax, spec.style, spec.hl
    with _common.canvas(ax, spec.font) as cv:
        measure = _common.measurer(spec.font)
        avail_w, avail_h = cv.available()
        lay = interval_layout(
            spec.names,
            spec.avg,
            spec.cd if spec.control is not None else spec.cd / 2,
            measure=measure,
            style=st,
            width=avail_w if ax is not None else spec.width_pt,
            height=avail_h,
            grow=ax is None,
            reverse=spec.reverse,
            bold=[] if hl is None else [hl],
            caption=spec.caption,
            legend=spec.legend,
            full_axis=spec.full_axis,
            shown=spec.shown,
        )
        what = f"a rank-interval chart of {len(spec.names)} methods"
        # warnings name the caller's line: check_size or warn_unfit, _render,
        # rank_intervals, the caller
        _common.check_size(
            what, lay.width, lay.height, style=st, ax=ax, warned=not lay.fits, stacklevel=4
        )
        if not lay.fits:
            _common.warn_unfit(
                what,
                lay.extra_need,
                style=st,
                ax=ax,
                width_pt=spec.width_pt,
                alternative=_common.ALTERNATIVES.get(
                    st.name if spec.width_pt is None else "", "use a wider width= or fewer methods"
                ),
                stacklevel=4,
            )
        ax = cv.axes(lay.width, lay.height)
        _draw(
            ax,
            lay,
            spec.avg,
            spec.cd,
            spec.font,
            st,
            hl,
            spec.differ,
            spec.control,
            spec.label_kws,
            spec.line_kws,
        )
    return ax


def shown_methods(methods, names) -> list[int] | None:
    """Indices of the ``methods=`` option's names (None: all), checked."""
    if methods is None:
        return None
    if isinstance(methods, str) or not all(isinstance(m, str) for m in methods):
        raise CdplotError(
            f"option {opt('methods', methods)} must be a list of method names", option="methods"
        )
    unknown = [m for m in methods if m not in names]
    if unknown or not methods or len(set(methods)) != len(methods):
        what = f"has unknown names {unknown!r}" if unknown else "is empty or repeats a name"
        raise CdplotError(
            f"option {opt('methods')} {what}; methods are {', '.join(names)}", option="methods"
        )
    return [names.index(m) for m in methods]


def _verdicts(result, names, hl, control):
    """The methods drawn as differing from the reference, and the legend that says so."""
    differ = set()
    legend = []
    if control is not None:
        differ = {j for j in range(len(names)) if j != hl and result.significant[hl, j]}
        legend = [
            (
                "accent",
                f"filled dots: differ significantly from the control {names[hl]} (outside its "
                "interval, rank \u00b1 CD)",
            ),
            (
                "muted",
                "open dots: do not differ significantly from it; only pairs with the control "
                "were tested",
            ),
        ]
    elif hl is not None:
        differ = {j for j in range(len(names)) if j != hl and result.significant[hl, j]}
        legend = [
            ("accent", f"filled: {names[hl]} and the methods that differ significantly from it"),
            ("muted", "open: methods that do not differ significantly from it"),
        ]
    return differ, legend


def _interval_axis(lay):
    """The chart's rank axis and break mark (as the CD diagram's), from its worst end."""
    worst, best = (lay.x1, lay.x0) if lay.reverse else (lay.x0, lay.x1)
    return axis_polylines(
        worst,
        lay.x(lay.rank_lo) if lay.axis_break else best,
        lay.axis_y,
        axis_break=lay.axis_break,
        axis_end=lay.axis_end,
        font_size=lay.font_size,
        small_size=lay.small_size,
    )


def _draw(ax, lay, avg, cd, font, st, hl, differ, control, label_kws, line_kws):
    ink = PALETTE["ink"]
    half = cd if control is not None else cd / 2
    _draw_grid(ax, lay, avg, st, hl, half)
    ms = max(2.5, 0.55 * lay.font_size)
    for i, y in lay.rows:
        _draw_row(ax, lay, i, y, avg, st, hl, differ, control, half, ms, line_kws)
    # the rank axis at the bottom, ticks pointing down to their labels
    y = lay.axis_y
    _common.draw_axis(
        ax, _interval_axis(lay), lay.axis_break, color=ink, width=st.axis_width, gid="ri"
    )
    tx, ty = [], []
    for r in lay.ticks:
        tx += [lay.x(r), lay.x(r), None]
        ty += [y, y + lay.tick_length, None]
    _common.add_line(ax, tx, ty, color=ink, lw=st.axis_width * 0.8, gid="ri-ticks", clip_on=False)
    _draw_labels(ax, lay, font, st, ms, label_kws)
    return ax


def _draw_grid(ax, lay, avg, st, hl, half) -> None:
    """Guides at the labelled ranks, and the highlighted method's span (rank +- ``half``)."""
    top, bottom = lay.plot_top, lay.axis_y
    gx, gy = [], []
    for r in lay.ticks:
        gx += [lay.x(r), lay.x(r), None]
        gy += [top, bottom, None]
    _common.add_line(
        ax,
        gx,
        gy,
        color=PALETTE["faint"],
        lw=st.line_width * 0.8,
        zorder=0,
        gid="ri-grid",
        clip_on=False,
    )
    # the reference span: the highlighted segment, or the control's rank +- CD
    if hl is not None:
        xa, xb = sorted((lay.x(avg[hl] - half), lay.x(avg[hl] + half)))
        _common.add_rect(
            ax,
            xa,
            top,
            xb - xa,
            bottom - top,
            facecolor=PALETTE["accent"],
            alpha=0.08,
            edgecolor="none",
            zorder=0,
            gid="ri-band",
        )


def _dot_face(color, filled: bool, st) -> dict:
    """A filled dot (differs, or no reference) or an open one (does not differ)."""
    return {
        "mfc": color if filled else "white",
        "mec": color if not filled else "white",
        "mew": 0.4 if filled else max(0.8, 0.6 * st.line_width),
    }


def _draw_row(ax, lay, i, y, avg, st, hl, differ, control, half, ms, line_kws) -> None:
    """Method ``i``'s segment (rank +- ``half``) and dot on row ``y``."""
    if hl is None:
        color = PALETTE["ink"]
    elif i == hl or i in differ:
        color = PALETTE["accent"]
    else:
        color = PALETTE["muted"]
    lw = st.line_width * (2.6 if i == hl else 1.7)
    kws = {"color": color, "lw": lw, "solid_capstyle": "butt"}
    kws.update(line_kws)
    # against a control only the control has an interval: other methods' segments
    # would suggest comparisons among them that were never made
    if control is None or i == control:
        cap = max(1.8, 0.28 * lay.font_size)
        xa, xb = lay.x(avg[i] - half), lay.x(avg[i] + half)
        _common.add_line(
            ax,
            [xa, xb, None, xa, xa, None, xb, xb],
            [y, y, None, y - cap, y + cap, None, y - cap, y + cap],
            gid=f"ri-segment-{i}",
            clip_on=False,
            **kws,
        )
    # filled or open dots carry the verdict without relying on colour
    filled = hl is None or i == hl or i in differ
    _common.add_line(
        ax,
        [lay.x(avg[i])],
        [y],
        marker="o",
        color=kws["color"],
        ms=ms,
        **_dot_face(kws["color"], filled, st),
        gid=f"ri-dot-{i}",
        clip_on=False,
        zorder=3,
    )


def _draw_labels(ax, lay, font, st, ms, label_kws) -> None:
    """Names (ids by method), tick labels, caption, and the legend with its dots."""
    side = max(2.0, 0.7 * lay.small_size)
    for b in lay.boxes:
        color = b.color
        extra = {}
        gid = f"ri-{b.role}"
        if b.role == "name":
            i = next(j for j, _y in lay.rows if abs(_y - b.y) < 1e-6)
            gid = f"ri-name-{i}"
            extra = label_kws
        elif b.role.startswith("legend:"):
            role = b.role.split(":", 1)[1]
            gid = "ri-legend"
            if b.y0 == min(c.y0 for c in lay.boxes if c.role == b.role):
                # one dot per legend entry, as drawn in the chart: filled or open
                _common.add_line(
                    ax,
                    [b.x0 - 1.3 * b.size + side / 2],
                    [b.y0 + (b.y1 - b.y0) / 2],
                    marker="o",
                    color=PALETTE[role],
                    ms=ms,
                    **_dot_face(PALETTE[role], role == "accent", st),
                    gid="ri-legend-swatch",
                    clip_on=False,
                )
        kws = _common.text_kws(font, b.size, b.bold, color)
        kws.update(extra)
        _common.add_text(ax, b.x, b.y, b.text, ha=b.ha, va=b.va, gid=gid, **kws)
