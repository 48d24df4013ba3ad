"""Rank-interval charts: the "Friedman test chart" of Zhou's *Machine Learning* (seed 002).

One row per method in rank order, a dot at its average rank and a segment of
length CD centred on it; two methods differ significantly exactly when their
segments do not overlap (like the MCB plot of R's tsutils).
"""

from __future__ import annotations

from ..errors import CdplotError
from . import _common
from .layout import interval_layout
from .styles import PALETTE

__all__ = ["rank_intervals"]


def rank_intervals(
    result_or_scores,
    *,
    ax=None,
    reverse=False,
    style="paper",
    font=None,
    highlight=None,
    label_kws=None,
    line_kws=None,
    caption=True,
    higher_is_better=None,
    alpha=None,
    test=None,
    correction=None,
    control=None,
    metric=None,
    nan_policy=None,
    compare_kws=None,
):
    """Draw a rank-interval chart: average ranks with segments of length CD.

    Parameters
    ----------
    {shared}
    caption : bool, default True
        Add a line with the test, alpha, N and CD, and a key to the colours.

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn into; artists carry the ids ``ri-name-<i>``,
        ``ri-segment-<i>`` (``i`` = input order) and ``ri-axis``.

    Raises
    ------
    CdplotError
        For invalid options, or a result without a critical difference
        (the pairwise tests have none: use :func:`cd_diagram` or
        :func:`significance_heatmap` for them).

    Notes
    -----
    With ``highlight`` (by default the control of a comparison with a
    control), the highlighted method's segment and the segments of the
    methods that differ significantly from it are drawn in blue, the rest in
    grey, and the highlighted segment's span is shaded.

    Segments of half-length CD/2 overlap exactly when the average ranks
    differ by less than CD, which is the Nemenyi (or, against a control,
    Bonferroni-Dunn) criterion.

    Examples
    --------
    >>> import cdplot
    >>> ax = cdplot.rank_intervals(cdplot.load_example("demsar2006"), highlight="C4.5")
    >>> len([t for t in ax.texts if t.get_gid().startswith("ri-name")])
    4
    """
    result = _common.as_result(
        result_or_scores,
        {
            "higher_is_better": higher_is_better,
            "alpha": alpha,
            "test": test,
            "correction": correction,
            "control": control,
            "metric": metric,
            "nan_policy": nan_policy,
        },
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
    from .._options import check_bool

    check_bool("caption", caption)
    cd = result.critical_difference
    if cd is None:
        raise CdplotError(
            f"a rank-interval chart needs a critical difference, which test={result.test!r} does "
            "not have; "
            "use test='nemenyi' or 'bonferroni-dunn', or draw cd_diagram or significance_heatmap"
        )
    names = list(result.methods)
    avg = [float(r) for r in result.average_ranks]
    if hl is None and result.control is not None:
        hl = names.index(result.control)
    differ = set()
    legend = []
    if hl is not None:
        differ = {j for j in range(len(names)) if j != hl and result.significant[hl, j]}
        if result.control is not None and hl != names.index(result.control):
            # against a control only the control's pairs were tested
            differ = set()
        legend = [
            ("accent", f"{names[hl]} and the methods that differ significantly from it"),
            ("muted", "methods that do not differ significantly from it"),
        ]
    cap = _common.caption_text(result) if caption else None
    with _common.canvas(ax, font) as cv:
        measure = _common.measurer(font)
        avail_w, avail_h = cv.available()
        lay = interval_layout(
            names,
            avg,
            cd / 2,
            measure=measure,
            style=st,
            width=avail_w,
            height=avail_h,
            grow=ax is None,
            reverse=reverse,
            bold=[] if hl is None else [hl],
            caption=cap,
            legend=legend if caption else [],
        )
        ax = cv.axes(lay.width, lay.height)
        _draw(ax, lay, avg, cd, font, st, hl, differ, label_kws or {}, line_kws or {})
    return ax


if rank_intervals.__doc__:
    rank_intervals.__doc__ = rank_intervals.__doc__.replace("    {shared}", _common.SHARED_PARAMS)


def _draw(ax, lay, avg, cd, font, st, hl, differ, label_kws, line_kws):
    add_line = _common.add_line
    from matplotlib.patches import Rectangle

    ink, faint = PALETTE["ink"], PALETTE["faint"]
    top, bottom = lay.plot_top, lay.axis_y
    # guides at the labelled ranks
    gx, gy = [], []
    for r in lay.ticks:
        gx += [lay.x(r), lay.x(r), None]
        gy += [top, bottom, None]
    add_line(
        ax, gx, gy, color=faint, lw=st.line_width * 0.8, zorder=0, gid="ri-grid", clip_on=False
    )
    if hl is not None:
        xa, xb = sorted((lay.x(avg[hl] - cd / 2), lay.x(avg[hl] + cd / 2)))
        ax.add_patch(
            Rectangle(
                (xa, top),
                xb - xa,
                bottom - top,
                facecolor=PALETTE["accent"],
                alpha=0.08,
                edgecolor="none",
                zorder=0,
                gid="ri-band",
            )
        )
    cap = max(1.8, 0.28 * lay.font_size)
    for i, y in lay.rows:
        if hl is None:
            color = ink
        elif i == hl or i in differ:
            color = PALETTE["accent"]
        else:
            color = PALETTE["muted"]
        lw = st.line_width * (2.6 if i == hl else 1.7)
        xa, xb = lay.x(avg[i] - cd / 2), lay.x(avg[i] + cd / 2)
        kws = {"color": color, "lw": lw, "solid_capstyle": "butt"}
        kws.update(line_kws)
        add_line(
            ax,
            [xa, xb, None, xa, xa, None, xb, xb],
            [y, y, None, y - cap, y + cap, None, y - cap, y + cap],
            gid=f"ri-segment-{i}",
            clip_on=False,
            **kws,
        )
        add_line(
            ax,
            [lay.x(avg[i])],
            [y],
            marker="o",
            color=kws["color"],
            ms=max(2.5, 0.55 * lay.font_size),
            mec="white",
            mew=0.4,
            gid=f"ri-dot-{i}",
            clip_on=False,
            zorder=3,
        )
    # the rank axis at the bottom, ticks pointing down to their labels
    y = lay.axis_y
    add_line(
        ax, [lay.x0, lay.x1], [y, y], color=ink, lw=st.axis_width, gid="ri-axis", clip_on=False
    )
    tx, ty = [], []
    for r in lay.ticks:
        tx += [lay.x(r), lay.x(r), None]
        ty += [y, y + lay.tick_length, None]
    add_line(ax, tx, ty, color=ink, lw=st.axis_width * 0.8, gid="ri-ticks", clip_on=False)
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
            ax.add_patch(
                Rectangle(
                    (b.x0 - 1.3 * b.size, b.y0 + (b.y1 - b.y0 - side) / 2),
                    side,
                    side,
                    facecolor=PALETTE[role],
                    edgecolor="none",
                    gid="ri-legend-swatch",
                    clip_on=False,
                )
            )
        kws = _common.text_kws(font, b.size, b.bold, color)
        kws.update(extra)
        ax.text(b.x, b.y, b.text, ha=b.ha, va=b.va, gid=gid, clip_on=False, **kws)
    return ax
