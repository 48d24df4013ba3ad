"""The rank profile: each method's average rank across several metrics, one line per method."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import Phrase
from . import _common
from ._layout import profile_layout
from ._series import check_metrics, method_looks
from ._styles import PALETTE

if TYPE_CHECKING:
    from .._options import Style
    from ._types import Axes, FontLike, Highlight, MetricsLike

__all__ = ["rank_profile"]


def rank_profile(
    metrics_result: MetricsLike,
    *,
    ax: Axes | None = None,
    style: Style = "paper",
    font: FontLike = None,
    highlight: Highlight = None,
    width: float | None = None,
) -> Axes:
    """Draw each method's average rank under each metric, joined by a line.

    Metrics run across (in ``metrics_result.metrics`` order), average rank
    down (1, the best, at the top), one line per method, named at its
    right end.  It shows at a glance how consistently the metrics rank the
    methods, which :class:`~cdplot.MetricsComparison`'s Kendall tau table
    gives in numbers.  Each method has the colour of its lines in
    :func:`cdplot.cd_diagrams`, and its own marker and line style, so
    the chart reads in greyscale too.

    Parameters
    ----------
    metrics_result : MetricsComparison
        The result of :func:`cdplot.compare_metrics`.
    ax : matplotlib.axes.Axes, optional
        Draw into this Axes (fitted to its width; a
        :class:`~cdplot.errors.CdplotWarning` names the size needed when
        the chart does not fit).  By default a new figure is made, the
        style's width and as tall as one row per method needs.
    style : {'paper', 'paper-wide', 'slides'}, default 'paper'
        Width and type sizes, as in :func:`cdplot.cd_diagram`.
    font : {'sans', 'serif'} or str, optional
        As in :func:`cdplot.cd_diagram`.
    highlight : str, optional
        Name of a method to emphasise (bold name, heavier line).
    width : float, optional
        Figure width in inches instead of the style's.

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn into.  Artists carry ids: ``profile-line-<i>``
        (``i`` in ``metrics_result.methods`` order), ``profile-name-<i>``,
        ``profile-leader-<i>``, ``profile-metric-<j>``, ``profile-tick``,
        ``profile-grid``, ``profile-axis-title`` and ``profile-key``.

    Warns
    -----
    CdplotWarning
        When the chart cannot be made legible in its width or Axes.

    Raises
    ------
    CdplotError
        If ``metrics_result`` is not a MetricsComparison, or for invalid
        options.

    Notes
    -----
    The lines join average ranks of different analyses: they show
    agreement, not a trend between metrics, and a crossing is no test.
    Which differences are significant under each metric is in
    :func:`cdplot.cd_diagrams`.

    Examples
    --------
    >>> import cdplot
    >>> mc = cdplot.compare_metrics(cdplot.load_example("yang-table9"))
    >>> ax = cdplot.rank_profile(mc)
    >>> sorted(t.get_text() for t in ax.texts if t.get_gid().startswith("profile-name"))
    ['C4.5', 'LDA', 'NN']
    """
    mc = check_metrics(metrics_result, "rank_profile")
    st, font, hl = _common.check_common(
        mc.results[0],
        ax=ax,
        reverse=False,
        style=style,
        font=font,
        highlight=highlight,
        label_kws=None,
        line_kws=None,
    )
    if hl is not None:
        hl = mc.methods.index(highlight)
    width_pt = _common.check_width(width, ax)
    names = list(mc.methods)
    k = len(names)
    looks = method_looks(mc)
    ranks = [[float(v) for v in row] for row in mc.average_ranks]
    metrics = [str(m) for m in mc.metrics]
    bold = [] if hl is None else [hl]
    marker = max(3.0, 0.55 * st.font_size)
    with _common.canvas(ax, font) as cv:
        measure = _common.measurer(font)
        avail_w, avail_h = cv.available()
        lay = profile_layout(
            names,
            ranks,
            metrics,
            measure=measure,
            style=st,
            width=avail_w if ax is not None else width_pt,
            height=avail_h,
            bold=bold,
            marker_size=marker,
        )
        _common.check_size(
            f"a rank profile of {k} methods",
            lay.width,
            lay.height,
            style=st,
            ax=ax,
            warned=not lay.fits,
        )
        if not lay.fits:
            _common.warn_unfit(
                f"a rank profile of {k} methods",
                lay.need,
                style=st,
                ax=ax,
                width_pt=width_pt,
                alternative=Phrase(_common.ALTERNATIVES["paper"], " or fewer methods"),
                squeezed="its metrics' columns are",
            )
        ax = cv.axes(lay.width, lay.height)
        _draw(ax, lay, names, ranks, looks, st, font, hl, marker)
    return ax


def _draw(ax, lay, names, ranks, looks, st, font, hl, marker):
    add_line = _common.add_line
    # faint guides: one per metric and per labelled rank
    gx, gy = [], []
    for x in lay.x_metrics:
        gx += [x, x, None]
        gy += [lay.y(1), lay.y(lay.k), None]
    for r in lay.y_ticks:
        gx += [lay.x_metrics[0], lay.x_metrics[-1], None]
        gy += [lay.y(r), lay.y(r), None]
    add_line(ax, gx, gy, color=PALETTE["faint"], lw=0.5, gid="profile-grid", clip_on=False)
    lw = st.line_width * 1.6
    for i, name in enumerate(names):
        color, mk, dash = looks[name]
        heavy = 1.6 if i == hl else 1.0
        xs = [row[i] for row in lay.x_points]
        add_line(
            ax,
            xs,
            [lay.y(row[i]) for row in ranks],
            color=color,
            lw=lw * heavy,
            linestyle=dash,
            marker=None,
            gid=f"profile-line-{i}",
            clip_on=False,
            zorder=2.5,
        )
        add_line(
            ax,
            xs,
            [lay.y(row[i]) for row in ranks],
            marker=mk,
            color=color,
            ms=marker,
            mec="white",
            mew=0.4,
            gid=f"profile-markers-{i}",
            clip_on=False,
            zorder=3,
        )
        pts = lay.leaders[i]
        add_line(
            ax,
            [p[0] for p in pts],
            [p[1] for p in pts],
            color=color,
            lw=st.line_width,
            gid=f"profile-leader-{i}",
            clip_on=False,
            zorder=2,
        )
    n_metric = 0
    for b in lay.boxes:
        gid = f"profile-{b.role}"
        if b.role == "name":
            gid = f"profile-name-{next(i for i, p in lay.leaders.items() if p[-1][1] == b.y)}"
        elif b.role == "metric":
            gid = f"profile-metric-{n_metric}"
            n_metric += 1
        color = "muted" if b.role in ("tick", "axis-title") else b.color
        _common.add_text(
            ax,
            b.x,
            b.y,
            b.text,
            ha=b.ha,
            va=b.va,
            gid=gid,
            clip_on=False,
            **_common.text_kws(font, b.size, b.bold, color),
        )
    return ax
