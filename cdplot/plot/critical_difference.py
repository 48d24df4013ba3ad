"""Critical-difference diagrams in Demsar's (2006) style."""

from __future__ import annotations

from .._options import check_bool
from ..errors import CdplotError
from . import _common
from .layout import cd_layout
from .styles import PALETTE

__all__ = ["cd_diagram"]


def _tied_outsiders(result, members, tol=1e-9):
    """Methods outside a clique whose average rank lies within its bar's span."""
    avg = result.average_ranks
    idx = [result.methods.index(m) for m in members]
    lo, hi = min(avg[i] for i in idx), max(avg[i] for i in idx)
    return [
        result.methods[j]
        for j in range(result.n_methods)
        if j not in idx and lo - tol <= avg[j] <= hi + tol
    ]


def _some(items, limit=3) -> str:
    """``a, b and c`` or ``a, b, c and 4 more``: notes stay a few lines long."""
    items = list(items)
    if len(items) > limit + 1:
        return ", ".join(items[:limit]) + f" and {len(items) - limit} more"
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _notes(result, control_mode: bool) -> list[str]:
    """Relations the bars cannot show, in words."""
    out = []
    if control_mode:
        differ = [
            m
            for m in result.order()
            if m != result.control and result.is_significant(m, result.control)
        ]
        if differ:
            out.append(
                f"Names in orange differ significantly from the control {result.control}"
                + (
                    " (their ranks lie outside its CD interval)."
                    if result.critical_difference
                    else "."
                )
            )
        else:
            out.append(f"No method differs significantly from the control {result.control}.")
        return out
    if result.bridges:
        # overlapping bars already show these; one sentence says how to read them
        a, b, c = result.bridges[0]
        n = len(result.bridges)
        more = f"{n} such cases, e.g." if n > 1 else "as"
        out.append(
            "Bars overlap: two methods that share no bar differ significantly even when a method "
            f"between them differs from neither ({more} {a} and {c}, with {b} between them)."
        )
    if result.unjoined:
        pairs = [f"{a} and {b}" for a, b in result.unjoined]
        out.append(f"No bar joins {_some(pairs)}, although they do not differ significantly.")
    for members in result.cliques:
        outsiders = _tied_outsiders(result, members)
        if outsiders:
            out.append(
                f"The bar over {_some(list(members))} does not include {_some(outsiders)}, "
                "which has an equal average rank."
            )
    return out


def cd_diagram(
    result_or_scores,
    *,
    ax=None,
    reverse=False,
    style="paper",
    font=None,
    highlight=None,
    label_kws=None,
    line_kws=None,
    ranks=True,
    caption=True,
    note=True,
    higher_is_better=None,
    alpha=None,
    test=None,
    correction=None,
    control=None,
    metric=None,
    nan_policy=None,
    compare_kws=None,
):
    """Draw a critical-difference diagram.

    A horizontal axis of average ranks from 1 to k (best on the right, as
    in Demsar's figures), each method joined by an elbow line to its rank,
    the better half named on the best side.  Thick bars under the axis join
    groups (cliques) of methods that do not differ significantly.  Nemenyi
    diagrams show the critical difference as a scale bar above the axis;
    comparisons with a control (Bonferroni-Dunn) show the control's CD
    interval on both sides of its rank instead of bars; pairwise tests
    (Wilcoxon, sign, Friedman z with a correction) show their groups and no
    CD.

    Parameters
    ----------
    {shared}
    ranks : bool, default True
        Print each method's average rank beside its name.
    caption : bool, default True
        Add a line with the test, alpha, N (and CD) under the diagram.
    note : bool, default True
        Say in words what the bars cannot show: pairs that differ although
        a method between them differs from neither, pairs that do not
        differ but share no bar, and (with a control) which methods differ
        from it.

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn into.  Artists carry ids for tests and SVG users:
        ``cd-name-<i>``, ``cd-elbow-<i>`` (``i`` = input order),
        ``cd-clique-<j>``, ``cd-bar``, ``cd-interval``, ``cd-axis``.

    Raises
    ------
    CdplotError
        For invalid options (with the option and value in the message).

    Notes
    -----
    The diagram draws the result; it never recomputes statistics.  A bar
    never spans a method outside its group, because the core's groups are
    consecutive in rank order; when a method outside a group has the same
    average rank as one of its ends, the note says so.

    References
    ----------
    .. [1] J. Demsar, "Statistical comparisons of classifiers over multiple
           data sets", JMLR 7 (2006) 1-30, Figures 1 and 2.

    Examples
    --------
    >>> import cdplot
    >>> ax = cdplot.cd_diagram(cdplot.load_example("demsar2006"))
    >>> sorted(t.get_text() for t in ax.texts if t.get_gid().startswith("cd-name"))
    ['C4.5', 'C4.5+cf', 'C4.5+m', 'C4.5+m+cf']
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
    for name, value in (("ranks", ranks), ("caption", caption), ("note", note)):
        check_bool(name, value)
    names = list(result.methods)
    avg = [float(r) for r in result.average_ranks]
    k = len(names)
    if k < 2:
        raise CdplotError(f"a CD diagram needs at least 2 methods; the result has {k}")

    control_mode = result.control is not None
    ctrl = names.index(result.control) if control_mode else None
    bold = sorted({i for i in (hl, ctrl) if i is not None})
    cliques = [] if control_mode else [tuple(names.index(m) for m in c) for c in result.cliques]
    differ = set()
    if control_mode:
        differ = {i for i in range(k) if i != ctrl and result.significant[i, ctrl]}
    notes = _notes(result, control_mode) if note else []
    cap = _common.caption_text(result) if caption else None

    with _common.canvas(ax, font) as cv:
        measure = _common.measurer(font)
        avail_w, avail_h = cv.available()
        lay = cd_layout(
            names,
            avg,
            measure=measure,
            style=st,
            width=avail_w,
            height=avail_h,
            grow=ax is None,
            reverse=reverse,
            cliques=cliques,
            cd=result.critical_difference,
            control=ctrl,
            bold=bold,
            show_ranks=ranks,
            notes=notes,
            caption=cap,
        )
        ax = cv.axes(lay.width, lay.height)
        _draw(ax, lay, result, font, st, hl, ctrl, differ, label_kws or {}, line_kws or {})
    return ax


if cd_diagram.__doc__:
    cd_diagram.__doc__ = cd_diagram.__doc__.replace("    {shared}", _common.SHARED_PARAMS)


def _draw(ax, lay, result, font, st, hl, ctrl, differ, label_kws, line_kws):
    add_line = _common.add_line
    ink, line = PALETTE["ink"], PALETTE["line"]
    lw = st.line_width
    k = lay.k
    y = lay.axis_y
    # axis with ticks pointing up towards their labels
    add_line(
        ax,
        [lay.x(1), lay.x(k)],
        [y, y],
        color=ink,
        lw=st.axis_width,
        solid_capstyle="projecting",
        gid="cd-axis",
        clip_on=False,
    )
    xs, ys = [], []
    for r in lay.major_ticks:
        xs += [lay.x(r), lay.x(r), None]
        ys += [y, y - lay.tick_length, None]
    if lay.half_ticks:
        for r in range(1, k):
            xs += [lay.x(r + 0.5), lay.x(r + 0.5), None]
            ys += [y, y - lay.tick_length * 0.55, None]
    add_line(ax, xs, ys, color=ink, lw=st.axis_width * 0.8, gid="cd-ticks", clip_on=False)

    # bars: cliques, the CD scale bar or the control's interval
    cap = max(2.0, 0.9 * st.bar_width)
    nclique = 0
    for bar in lay.bars:
        if bar.role == "clique":
            add_line(
                ax,
                [bar.x0, bar.x1],
                [bar.y, bar.y],
                color=ink,
                lw=st.bar_width,
                solid_capstyle="butt",
                gid=f"cd-clique-{nclique}",
                clip_on=False,
            )
            nclique += 1
        else:
            color = ink if bar.role == "cd" else PALETTE["accent"]
            gid = "cd-bar" if bar.role == "cd" else "cd-interval"
            bx, by = [bar.x0, bar.x1, None], [bar.y, bar.y, None]
            if not bar.open_left:
                bx += [bar.x0, bar.x0, None]
                by += [bar.y - cap, bar.y + cap, None]
            if not bar.open_right:
                bx += [bar.x1, bar.x1, None]
                by += [bar.y - cap, bar.y + cap, None]
            add_line(
                ax,
                bx,
                by,
                color=color,
                lw=st.bar_width * 0.55,
                solid_capstyle="butt",
                gid=gid,
                clip_on=False,
            )
            if bar.role == "cd-interval":
                add_line(
                    ax,
                    [lay.x(result.average_ranks[ctrl])],
                    [bar.y],
                    marker="o",
                    color=color,
                    ms=st.bar_width * 1.6,
                    mec="white",
                    mew=0.5,
                    gid="cd-control",
                    clip_on=False,
                )

    # elbows, with a dot where each meets the axis
    for e in lay.elbows:
        i = e.index
        color = line
        if i in (hl, ctrl):
            color = PALETTE["accent"]
        elif i in differ:
            color = PALETTE["accent2"]
        kws = {
            "color": color,
            "lw": lw * (1.6 if i in (hl, ctrl) else 1.0),
            "solid_joinstyle": "miter",
            "solid_capstyle": "butt",
        }
        kws.update(line_kws)
        add_line(
            ax,
            [p[0] for p in e.points],
            [p[1] for p in e.points],
            gid=f"cd-elbow-{i}",
            clip_on=False,
            **kws,
        )
    mx = [e.points[0][0] for e in lay.elbows]
    add_line(
        ax,
        mx,
        [y] * len(mx),
        marker="o",
        color=ink,
        ms=max(1.8, 0.45 * lay.font_size),
        mew=0,
        gid="cd-markers",
        clip_on=False,
        zorder=3,
    )

    # text
    names = result.methods
    for b in lay.boxes:
        color = b.color
        extra = {}
        gid = f"cd-{b.role}"
        if b.role == "name":
            i = names.index(b.text) if b.text in names else None
            gid = f"cd-name-{i}"
            if i in differ:
                color = "accent2"
            extra = label_kws
        elif b.role == "value":
            gid = "cd-value"
        kws = _common.text_kws(font, b.size, b.bold, color)
        kws.update(extra)
        ax.text(b.x, b.y, b.text, ha=b.ha, va=b.va, gid=gid, clip_on=False, **kws)
    return ax
