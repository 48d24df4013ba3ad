"""Several metrics in one figure: one CD diagram per metric, stacked, methods kept in place."""

from __future__ import annotations

import dataclasses
import functools
from typing import TYPE_CHECKING, Any

import numpy as np

from .._docstrings import share
from .._options import check_bool
from ..errors import CdplotError
from . import _common
from ._critical_difference import DIFFERS_MARK, _draw, _notes, place_explained, warn_if_unfit
from ._layout import cd_layout
from ._layout import key_boxes as _key_boxes
from ._notebook import new_figure
from ._series import check_metrics, mean_order, method_looks

if TYPE_CHECKING:
    from .._options import Style
    from ._types import Figure, FontLike, Highlight, MetricsLike

__all__ = ["cd_diagrams", "panel_title"]


def panel_title(result) -> str:
    """``'accuracy, higher is better'``: the metric and its direction."""
    direction = "higher is better" if result.higher_is_better else "lower is better"
    return f"{result.metric}, {direction}" if result.metric else direction


def _caption(result) -> str:
    # the panel's title names the metric and its direction already
    text = _common.caption_text(result)
    if result.metric:
        head = f"{result.metric} ({'higher' if result.higher_is_better else 'lower'} is better). "
        if text.startswith(head):
            text = text[len(head) :]
    return text


@share
def cd_diagrams(
    metrics_result: MetricsLike,
    *,
    reverse: bool = False,
    style: Style = "paper",
    font: FontLike = None,
    highlight: Highlight = None,
    ranks: bool = True,
    caption: bool = True,
    note: bool = True,
    width: float | None = None,
    full_axis: bool | None = None,
) -> Figure:
    """Draw one critical-difference diagram per metric, stacked in one figure.

    Each panel is the diagram :func:`cdplot.cd_diagram` draws for one
    metric, under a title naming the metric and its direction
    (``'AUC, higher is better'``).  The panels share the style's width and
    type size, and each method keeps its place: named on the same side in
    every panel (the better half by mean average rank over the metrics on
    the best side) with its line in the same colour (the colours of
    :func:`cdplot.rank_profile`).

    Parameters
    ----------
    metrics_result : MetricsComparison
        The result of :func:`cdplot.compare_metrics`.
    %(reverse)s
    style : {'paper', 'paper-wide', 'slides'}, default 'paper'
        Width and type, as in :func:`cdplot.cd_diagram`; the figure is the
        style's width (slides: 10 in) and as tall as its panels, each as
        tall as its content (a slide's panels are not each 16:9).
    font : {'sans', 'serif'} or str, optional
        As in :func:`cdplot.cd_diagram`.
    highlight : str, optional
        Name of a method to emphasise in every panel.
    ranks : bool, default True
        Print each method's average rank beside its name.
    caption : bool, default True
        A caption line under each panel (test, alpha, N, CD, Friedman).
    note : bool, default True
        Under each panel, say in words what its bars cannot show.
    width : float, optional
        Figure width in inches instead of the style's.
    full_axis : bool, optional
        Run each rank axis from 1 to k (as in :func:`cdplot.cd_diagram`).

    Returns
    -------
    numpy.ndarray of matplotlib.axes.Axes
        One Axes per metric, top to bottom in ``metrics_result.metrics``
        order.  Their artists carry the ids of :func:`cdplot.cd_diagram`'s
        (method indices in each result's own order), plus ``cd-title``.

    Warns
    -----
    CdplotWarning
        When a panel cannot be made legible in the width.

    Raises
    ------
    CdplotError
        If ``metrics_result`` is not a MetricsComparison, or for invalid
        options.

    Notes
    -----
    Keeping a method on one side means that in a panel where its rank is
    far from its mean rank its line may cross another method's line; the
    lines never cross a clique bar they do not belong to (the guarantee of
    :func:`cdplot.cd_diagram` holds in every panel).

    Examples
    --------
    >>> import cdplot
    >>> mc = cdplot.compare_metrics(cdplot.load_example("yang-table9"))
    >>> axes = cdplot.cd_diagrams(mc)
    >>> len(axes), axes[0].texts[0].get_text()
    (6, '5CV, lower is better')
    """
    mc = check_metrics(metrics_result, "cd_diagrams")
    check_bool("reverse", reverse)
    for name, value in (("ranks", ranks), ("caption", caption), ("note", note)):
        check_bool(name, value)
    if full_axis is not None:
        check_bool("full_axis", full_axis)
    st, font, _hl = _common.check_common(
        mc.results[0],
        ax=None,
        reverse=reverse,
        style=style,
        font=font,
        highlight=highlight,
        label_kws=None,
        line_kws=None,
    )
    width_pt = _common.check_width(width, None)
    # each panel as tall as its content: a stack of 16:9 slides would be no slide at all
    st = dataclasses.replace(st, height=None)
    k = mc.n_methods
    if k < 2:
        raise CdplotError(f"a CD diagram needs at least 2 methods; the results have {k}")
    panels = _panels(mc, highlight, note=note, caption=caption)
    measure = _common.measurer(font)
    place = functools.partial(
        cd_layout,
        measure=measure,
        style=st,
        width=width_pt,
        reverse=reverse,
        show_ranks=ranks,
        full_axis=full_axis,
        show_key=False,
    )
    lays = _place_panels(panels, place)
    for p, lay in zip(panels, lays, strict=True):
        what = f"the CD diagram of {p.result.metric!r} ({k} methods)"
        # stacklevel: warn_unfit, warn_if_unfit, cd_diagrams, the caller
        warn_if_unfit(what, lay, style=st, ax=None, width_pt=width_pt, stacklevel=4)
    return _draw_panels(panels, lays, st, font, measure, method_looks(mc))


@dataclasses.dataclass(frozen=True, kw_only=True)
class _Panel:
    """What one metric's panel marks: :func:`marks`' answer, plus each method's side and tag."""

    result: Any
    labels: list[str]
    ctrl: int | None
    hl: int | None
    bold: list[int]
    cliques: list[tuple[int, ...]]
    differ: set[int]
    notes: list[str]
    caption: str | None
    sides: list[str]
    tags: list[str]


def _panels(mc, highlight, *, note: bool, caption: bool) -> list[_Panel]:
    """One :class:`_Panel` per metric, each method on its side and with its key number."""
    k = mc.n_methods
    order = mean_order(mc)
    best = {mc.methods[i] for i in order[: -(-k // 2)]}
    # a shortened name has one key number in every panel, and one key serves them all
    tag_of = {mc.methods[i]: f"[{pos + 1}]" for pos, i in enumerate(order)}
    panels = []
    for r in mc.results:
        names = list(r.methods)
        control_mode = r.control is not None
        ctrl = names.index(r.control) if control_mode else None
        hl = names.index(highlight) if highlight is not None else None
        differ: set[int] = set()
        labels = list(names)
        if control_mode:
            differ = {i for i in range(k) if i != ctrl and r.significant[i, ctrl]}
            labels = [f"{n}\u00a0{DIFFERS_MARK}" if i in differ else n for i, n in enumerate(names)]
        panels.append(
            _Panel(
                result=r,
                labels=labels,
                ctrl=ctrl,
                hl=hl,
                bold=sorted({i for i in (hl, ctrl) if i is not None}),
                cliques=[]
                if control_mode
                else [tuple(names.index(m) for m in c) for c in r.cliques],
                differ=differ,
                notes=_notes(r, control_mode) if note else [],
                caption=_caption(r) if caption else None,
                sides=["best" if m in best else "worst" for m in names],
                tags=[tag_of[m] for m in names],
            )
        )
    return panels


def _place_panels(panels: list[_Panel], place) -> list:
    """Each panel's layout, all at one type size: the smallest any panel needs.

    ``place`` is :func:`cd_layout` with the options every panel shares bound.
    """

    def place_all(start_size):
        return [
            place_explained(
                functools.partial(
                    place,
                    p.labels,
                    [float(v) for v in p.result.average_ranks],
                    cliques=p.cliques,
                    cd=p.result.critical_difference,
                    control=p.ctrl,
                    bold=p.bold,
                    caption=p.caption,
                    sides=p.sides,
                    tags=p.tags,
                ),
                p.result,
                p.notes,
                start_size,
            )
            for p in panels
        ]

    lays = place_all(None)
    for _ in range(3):
        size = min(lay.font_size for lay in lays)
        if all(lay.font_size == size for lay in lays):
            break
        lays = place_all(size)
    return lays


def _draw_panels(panels, lays, st, font, measure, looks):
    """The figure: each panel under its title, then the key to shortened names once."""
    fig_w = lays[0].width
    size = lays[0].font_size
    _w, lp, _d = measure("lp", size, True)
    title_h = lp * 1.6
    heights = [title_h + lay.height for lay in lays]
    key = sorted({entry for lay in lays for entry in lay.key}, key=lambda e: int(e[0][1:-1]))
    key_boxes: list = []
    key_h = 0.0
    if key:
        ss = lays[0].small_size
        end = _key_boxes(
            key_boxes, key, st.pad, 0.5 * ss, max(fig_w - 2 * st.pad, 20.0), ss, measure
        )
        key_h = end + st.pad
    fig_h = sum(heights) + key_h
    with _common.canvas(None, font):
        fig = _figure(fig_w, fig_h)
        axes = []
        top = 0.0
        for p, lay, h in zip(panels, lays, heights, strict=True):
            ax = fig.add_axes((0.0, 1.0 - (top + h) / fig_h, 1.0, h / fig_h))
            ax.set_xlim(0.0, fig_w)
            ax.set_ylim(lay.height, -title_h)
            ax.set_axis_off()
            _draw_panel(ax, p, lay, st, font, (size, lp, title_h), looks)
            axes.append(ax)
            top += h
        if key:
            # the key to shortened names, once for all panels, in the last panel's Axes
            last = axes[-1]
            lay = lays[-1]
            last.set_position((0.0, 0.0, 1.0, (heights[-1] + key_h) / fig_h))
            last.set_ylim(lay.height + key_h, -title_h)
            for b in key_boxes:
                _common.add_text(
                    last,
                    b.x,
                    lay.height + b.y,
                    b.text,
                    ha=b.ha,
                    va=b.va,
                    gid="cd-key",
                    clip_on=False,
                    **_common.text_kws(font, b.size, b.bold, "ink"),
                )
    return np.array(axes, dtype=object)


def _draw_panel(ax, p: _Panel, lay, st, font, title, looks) -> None:
    """One panel: its title, then the diagram with each method's line in its own colour.

    ``title`` is ``(type size, line height, title height)``, shared by every panel.
    """
    size, lp, title_h = title
    r = p.result
    _common.add_text(
        ax,
        lay.extra.get("pad", st.pad),
        -title_h + 0.35 * lp,
        panel_title(r),
        ha="left",
        va="top",
        gid="cd-title",
        clip_on=False,
        **_common.text_kws(font, size, True, "ink"),
    )
    _draw(ax, lay, r, font, st, p.hl, p.ctrl, p.differ, {}, {})
    for line in ax.lines:
        gid = line.get_gid() or ""
        if gid.startswith("cd-elbow-"):
            i = int(gid.rsplit("-", 1)[1])
            # the method's own colour in every panel; control and highlight keep
            # their heavier line, and differing methods their dagger
            line.set_color(looks[r.methods[i]][0])


def _figure(width, height):
    """A new figure of ``width`` x ``height`` points (pyplot only when the user loaded it)."""
    return new_figure((width / 72.0, height / 72.0))
