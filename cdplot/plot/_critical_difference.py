"""Critical-difference diagrams in Demsar's (2006) style."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .._docstrings import share
from .._options import check_bool
from ..errors import CdplotError
from . import _common
from ._auto import unwrap_auto
from ._layout import Named, Note, NotePart, axis_polylines, cd_layout
from ._styles import PALETTE

if TYPE_CHECKING:
    from .._options import Style
    from ._types import Axes, FontLike, Highlights, Kws, ResultLike

__all__ = ["cd_diagram"]


# said under a diagram whose note names only some of the pairs that no bar joins;
# neutral between the Python names (cdplot.significance_heatmap, cdplot.cd_explorer) and
# the command line (--kind heatmap, -o view.html), and one line at paper width; the
# command's no-break spaces keep it on one line
ALL_PAIRS = (
    "All pairs: the significance heatmap or the interactive explorer "
    "(cdplot\u00a0plot\u00a0-o\u00a0view.html)."
)

Parts = tuple[NotePart, ...]


def _joined(items: Sequence[Parts], sep: str) -> Parts:
    """``items`` one after the other with ``sep`` between them."""
    out: list[NotePart] = []
    for n, item in enumerate(items):
        if n:
            out.append(sep)
        out.extend(item)
    return tuple(out)


def _cut(items: Sequence[Parts], limit: int = 3) -> bool:
    """Whether :func:`_some` lists only ``limit`` of ``items``."""
    return len(items) > limit + 1


def _some(items: Sequence[Parts], limit: int = 3) -> Parts:
    """``a, b and c`` or ``a, b, c and 4 more``: notes stay a few lines long."""
    if _cut(items, limit):
        return (*_joined(items[:limit], ", "), f" and {len(items) - limit} more")
    if len(items) <= 1:
        return _joined(items, "")
    return (*_joined(items[:-1], ", "), " and ", *items[-1])


# marks the names of methods that differ significantly from the control, so that the
# figure does not rely on colour alone (greyscale print, colour-blind readers)
DIFFERS_MARK = "\u2020"


def _named(result) -> dict[str, Named]:
    """Each method's :class:`Named`, by name: notes name methods as the labels do."""
    return {m: Named(i, m) for i, m in enumerate(result.methods)}


def _notes(result, control_mode: bool) -> list[Note]:
    """Relations the bars cannot show, in words, naming methods by :class:`Named`.

    When the pairs that no bar joins are too many to name ("and 62 more"),
    a last sentence (:data:`ALL_PAIRS`) says which views show every pair.
    Bridges need none: the bars show them (methods that share no bar differ).
    """
    named = _named(result)
    if control_mode:
        ctrl = named[result.control]
        tested = (
            ". Only pairs with the control were tested: nothing is claimed about the other pairs."
        )
        if any(
            m != result.control and result.is_significant(m, result.control) for m in result.order()
        ):
            interval = (
                " (their ranks lie outside the control's CD interval)"
                if result.critical_difference
                else ""
            )
            return [
                (
                    f"Names marked {DIFFERS_MARK} differ significantly from the control ",
                    ctrl,
                    interval + tested,
                )
            ]
        return [("No method differs significantly from the control ", ctrl, tested)]
    out: list[Note] = []
    if result.bridges:
        # overlapping bars already show these (two methods that share no bar differ); one
        # sentence says how to read them, with one example
        a, b, c = (named[m] for m in result.bridges[0])
        n = len(result.bridges)
        more = f"{n} such cases, e.g. " if n > 1 else "as "
        out.append(
            (
                "Bars overlap: two methods that share no bar differ significantly even when a "
                f"method between them differs from neither ({more}",
                a,
                " and ",
                c,
                ", with ",
                b,
                " between them).",
            )
        )
    if result.unjoined:
        # pairs the bars would show as different: when only some can be named, the
        # reader is told where every pair is shown
        pairs = [(named[a], " and ", named[b]) for a, b in result.unjoined]
        pointer = (" " + ALL_PAIRS,) if _cut(pairs) else ()
        out.append(
            (
                "No bar joins ",
                *_some(pairs),
                ", although they do not differ significantly.",
                *pointer,
            )
        )
    return out


def _crossing_notes(result, lay) -> list[Note]:
    """Outsiders tied with a group's member, and lines that cross a bar (drawn with a gap)."""
    named = [Named(i, m) for i, m in enumerate(result.methods)]
    # Python floats: this runs over every (bar, method) pair, up to 100 x 100
    avg = [float(r) for r in result.average_ranks]
    out: list[Note] = []
    tied: dict[tuple[int, int], list[Parts]] = {}
    cases: list[tuple[int, Parts]] = []
    crossed_tie = False
    for bar in lay.bars:
        if bar.role != "clique":
            continue
        members = [named[i] for i in sorted(bar.members, key=lambda i: (avg[i], i))]
        group: Parts = (
            (members[0], " \u2026 ", members[-1])
            if len(members) > 2
            else _some([(m,) for m in members])
        )
        # each average rank of the group -> its first member with that rank
        twin_of: dict[float, int] = {}
        for i in bar.members:
            twin_of.setdefault(avg[i], i)
        inside = set(bar.members)
        for j in range(len(named)):
            if j not in inside and avg[j] in twin_of:
                tied.setdefault((j, twin_of[avg[j]]), []).append(group)
        for j in bar.crossed:
            if avg[j] in twin_of:
                crossed_tie = True
            else:
                cases.append((j, group))
    if tied:
        said = [
            (named[a], " has the same average rank as ", named[b], " but is not in its group")
            + (
                (" (", *groups[0], ")")
                if len(groups) == 1
                else ("s (", *_joined(groups, "; "), ")")
            )
            for (a, b), groups in tied.items()
        ]
        more = f" ({len(said)} such cases)" if len(said) > 2 else ""
        out.append(
            (
                *_joined(said[:2], "; "),
                f"{more}: lines of equal ranks are drawn side by side from their shared dot"
                + (
                    ", and one that must pass a bar of a group it is not in crosses it with a "
                    "white gap."
                    if crossed_tie
                    else "."
                ),
            )
        )
    if cases:
        j, group = cases[0]
        first = ("the line of ", named[j], " crosses the bar over ", *group)
        many = (
            (f" ({len(cases)} cases; e.g. ", *first, ")") if len(cases) > 1 else (" (", *first, ")")
        )
        out.append(
            (
                "A line crossing a bar with a white gap is not in that group: its average rank "
                "lies too close to a member's to be drawn apart",
                *many,
                ".",
            )
        )
    return out


def cd_axis(lay):
    """The diagram's rank axis and break mark as ``((xs, ys), (mark_xs, mark_ys))``."""
    return axis_polylines(
        lay.x(lay.rank_hi),
        lay.x(lay.rank_lo),
        lay.axis_y,
        axis_break=lay.axis_break,
        axis_end=lay.axis_end,
        font_size=lay.font_size,
        small_size=lay.small_size,
    )


def marks(result, hl, *, note: bool, caption: bool):
    """What a CD diagram marks, shared by the matplotlib figure and its TikZ picture.

    Returns ``(ctrl, bold, cliques, differ, labels, notes, caption)``: the
    control's index, the names set in bold, the groups as index tuples, the
    methods that differ from the control, the labels, the notes and the caption.
    """
    names = list(result.methods)
    k = len(names)
    control_mode = result.control is not None
    ctrl = names.index(result.control) if control_mode else None
    bold = sorted({i for i in (hl, ctrl) if i is not None})
    # against a control only the control's pairs were tested: no groups, whatever the result holds
    cliques = [] if control_mode else [tuple(names.index(m) for m in c) for c in result.cliques]
    differ: set[int] = set()
    labels = list(names)
    if control_mode:
        differ = {i for i in range(k) if i != ctrl and result.significant[i, ctrl]}
        labels = [f"{n}\u00a0{DIFFERS_MARK}" if i in differ else n for i, n in enumerate(names)]
    notes = _notes(result, control_mode) if note else []
    cap = _common.caption_text(result) if caption else None
    return ctrl, bold, cliques, differ, labels, notes, cap


@share
def cd_diagram(
    result_or_scores: ResultLike,
    *,
    ax: Axes | None = None,
    reverse: bool = False,
    style: Style = "paper",
    font: FontLike = None,
    highlight: Highlights = None,
    label_kws: Kws = None,
    line_kws: Kws = None,
    ranks: bool = True,
    caption: bool = True,
    note: bool = True,
    compare_kws: Kws = None,
    width: float | None = None,
    full_axis: bool | None = None,
) -> Axes:
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
    %(result_or_scores)s
    %(ax)s
    %(reverse)s
    %(style)s
    %(width)s
    %(font)s
    highlight : str, list of str or dict, optional
        Name of a method to emphasise; or several, as a list (all in the
        accent colour) or a mapping of method to a matplotlib colour
        (``{"ours": "C3"}``) or to a group name (``{"A": "ours", "B":
        "baselines"}``): each group gets a colour of its own and a legend
        above the diagram, which :func:`cdplot.save_figure` keeps.
    %(label_kws)s
    %(line_kws)s
    %(compare_kws)s
    ranks : bool, default True
        Print each method's average rank beside its name.
    caption : bool, default True
        Add a line with the test, alpha, N (and CD) under the diagram.
    note : bool, default True
        Say in words what the bars cannot show: pairs that differ although
        a method between them differs from neither, pairs that do not
        differ but share no bar, lines that cross a bar of a group they
        are not in, and (with a control) which methods differ from it.
    full_axis : bool, optional
        Run the rank axis from 1 to k.  By default it does for fewer than
        10 methods; with more it spans the occupied ranks, rounded out to
        integers, with a break mark when it does not start at 1.

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn into.  Artists carry stable ids, which also name
        their SVG elements, for restyling and tests (``i`` = input order,
        ``j`` = index in ``result.cliques``):

        ``cd-name-<i>``, ``cd-value-<i>``
            a method's name and average rank;
        ``cd-elbow-<i>``
            the line from its rank to its name;
        ``cd-clique-<j>``
            a bar joining a group that does not differ significantly;
        ``cd-crossing-<j>-<i>``
            the gap and line where method ``i``'s line crosses bar ``j``;
        ``cd-members-<j>``
            the dots marking bar ``j``'s members where it meets their lines;
        ``cd-cd-bar``, ``cd-cd-label``
            Nemenyi's CD scale bar and its label;
        ``cd-interval``, ``cd-control``
            the control's CD interval and its dot (tests with a control);
        ``cd-axis``, ``cd-axis-break``, ``cd-ticks``, ``cd-tick``, ``cd-markers``, ``cd-direction``
            the rank axis, its break mark, ticks, tick labels, rank dots
            and the "better" arrow;
        ``cd-note``, ``cd-caption``, ``cd-key``
            notes, caption and the key to shortened names.

    Warns
    -----
    CdplotWarning
        When the diagram cannot be made legible in its width (or the
        given Axes), with the size it needs or a style to use instead.

    Raises
    ------
    CdplotError
        For invalid options (with the option and value in the message).

    Notes
    -----
    The diagram draws the result; it never recomputes statistics.  No
    bar, including its line width, reaches the line of a method outside
    its group: bars stop short of such lines.  When an outsider's average
    rank equals a member's (or is too close to draw apart), its line is
    drawn across the bar with a white gap and the note says so.  With a
    control (Bonferroni-Dunn, z-tests against a control) no bars are
    drawn whatever the result holds, because only pairs with the control
    were tested.

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
    # a compare_auto result: its rank-based analysis (the parametric one has no ranks)
    result_or_scores = unwrap_auto(result_or_scores, "cd_diagram")
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
        many=True,
    )
    colours, legend = {}, []
    if highlight is not None and not isinstance(highlight, str):
        colours, legend = _common.highlight_groups(result, highlight)
    for name, value in (("ranks", ranks), ("caption", caption), ("note", note)):
        check_bool(name, value)
    k = len(result.methods)
    if k < 2:
        raise CdplotError(f"a CD diagram needs at least 2 methods; the result has {k}")

    width_pt = _common.check_width(width, ax)
    if full_axis is not None:
        check_bool("full_axis", full_axis)

    spec = _CdSpec(
        result=result,
        ax=ax,
        style=st,
        font=font,
        hl=hl,
        colours=colours,
        legend=legend,
        label_kws=_common.drawn_label_kws(label_kws),
        line_kws=line_kws or {},
        reverse=reverse,
        ranks=ranks,
        caption=caption,
        note=note,
        width_pt=width_pt,
        full_axis=full_axis,
    )
    ax = _render(spec)
    # what save_figure(ax, "cd.tex") needs to lay the same diagram out for LaTeX
    ax._cdplot_tikz = (
        "cd",
        result,
        {
            "reverse": reverse,
            "style": st.name,
            "highlight": highlight,
            "ranks": ranks,
            "caption": caption,
            "note": note,
            "width": width,
            "full_axis": full_axis,
        },
    )
    return ax


@dataclass(frozen=True, kw_only=True)
class _CdSpec:
    """A checked :func:`cd_diagram` call: the result and the options it draws with."""

    result: Any
    ax: Axes | None
    style: Any
    font: Any
    hl: int | None
    colours: dict[int, str]
    legend: list
    label_kws: dict
    line_kws: dict
    reverse: bool
    ranks: bool
    caption: bool
    note: bool
    width_pt: float | None
    full_axis: bool | None


def _render(spec: _CdSpec) -> Axes:
    """Lay the diagram out in its Axes (made to size when none was given) and draw it."""
    result, ax, st = spec.result, spec.ax, spec.style
    k = len(result.methods)
    ctrl, bold, cliques, differ, labels, notes, cap = marks(
        result, spec.hl, note=spec.note, caption=spec.caption
    )
    bold = sorted(set(bold) | set(spec.colours))

    with _common.canvas(ax, spec.font) as cv:
        avail_w, avail_h = cv.available()
        place = functools.partial(
            cd_layout,
            labels,
            [float(r) for r in result.average_ranks],
            measure=_common.measurer(spec.font),
            style=st,
            width=avail_w if ax is not None else spec.width_pt,
            height=avail_h,
            grow=ax is None,
            reverse=spec.reverse,
            cliques=cliques,
            cd=result.critical_difference,
            control=ctrl,
            bold=bold,
            show_ranks=spec.ranks,
            caption=cap,
            full_axis=spec.full_axis,
        )
        lay = place_explained(place, result, notes)
        what = f"a CD diagram of {k} methods"
        # warnings name the caller's line: check_size, _render, cd_diagram, the caller
        _common.check_size(
            what, lay.width, lay.height, style=st, ax=ax, warned=not lay.fits, stacklevel=4
        )
        warn_if_unfit(what, lay, style=st, ax=ax, width_pt=spec.width_pt, stacklevel=5)
        ax = cv.axes(lay.width, lay.height)
        _draw(
            ax,
            lay,
            result,
            spec.font,
            st,
            spec.hl,
            ctrl,
            differ,
            spec.label_kws,
            spec.line_kws,
            spec.colours,
        )
        if spec.legend:
            _common.add_group_legend(ax, spec.legend, spec.font, lay.small_size)
    return ax


def place_explained(place, result, notes, start_size=None):
    """``place(notes=, start_size=)``, again with the crossing notes when a line crosses a bar.

    ``place`` lays the diagram out (:func:`cd_layout` with all else bound);
    the second layout starts at the first one's type size.
    """
    lay = place(notes=notes, start_size=start_size)
    crossing = _crossing_notes(result, lay)
    if crossing:
        # crossed bars are always explained, even with note=False: the drawing alone
        # could be read as a member of the group
        lay = place(notes=notes + crossing, start_size=lay.font_size)
    return lay


def warn_if_unfit(what: str, lay, *, style, ax, width_pt, stacklevel: int) -> None:
    """Warn when the layout could not be made legible, with the size it needs.

    ``stacklevel`` counts from :func:`cdplot.plot._common.warn_unfit`, so that
    the warning names the line that called the figure function.
    """
    if not lay.fits:
        _common.warn_unfit(
            what,
            lay.extra["need"],
            style=style,
            ax=ax,
            width_pt=width_pt,
            alternative=_common.ALTERNATIVES.get(
                style.name if width_pt is None else "", "use a wider width= or fewer methods"
            ),
            stacklevel=stacklevel,
        )


def _draw(ax, lay, result, font, st, hl, ctrl, differ, label_kws, line_kws, colours=None):
    # the emphasised methods and their colours: highlight= (one, a list or groups), the control
    emph = dict(colours or {})
    for i in (hl, ctrl):
        if i is not None:
            emph.setdefault(i, PALETTE["accent"])
    # axis with ticks pointing up towards their labels; a broken axis runs on past its
    # first rank into a break mark, standing for the ranks left out
    _common.draw_axis(
        ax, cd_axis(lay), lay.axis_break, color=PALETTE["ink"], width=st.axis_width, gid="cd"
    )
    _draw_ticks(ax, lay, st)
    # bars: cliques, the CD scale bar or the control's interval
    nclique = 0
    for bar in lay.bars:
        if bar.role == "clique":
            _draw_clique(ax, lay, bar, nclique, st.line_width, emph)
            nclique += 1
        else:
            _draw_scale_bar(ax, lay, bar, result, st, ctrl)
    _draw_elbows(ax, lay, st, emph, differ, line_kws)
    _draw_labels(ax, lay, font, differ, colours or {}, label_kws)
    return ax


def _draw_ticks(ax, lay, st) -> None:
    """The rank axis's ticks, half ranks shorter when the layout asks for them."""
    y = lay.axis_y
    xs, ys = [], []
    for r in lay.major_ticks:
        xs += [lay.x(r), lay.x(r), None]
        ys += [y, y - lay.tick_length, None]
    if lay.half_ticks:
        for r in range(lay.rank_lo, lay.rank_hi):
            xs += [lay.x(r + 0.5), lay.x(r + 0.5), None]
            ys += [y, y - lay.tick_length * 0.55, None]
    _common.add_line(
        ax, xs, ys, color=PALETTE["ink"], lw=st.axis_width * 0.8, gid="cd-ticks", clip_on=False
    )


def _draw_clique(ax, lay, bar, nclique: int, lw: float, emph) -> None:
    """Clique bar ``nclique``, the gaps where outsiders' lines cross it, and its member dots."""
    add_line, ink = _common.add_line, PALETTE["ink"]
    add_line(
        ax,
        [bar.x0, bar.x1],
        [bar.y, bar.y],
        color=ink,
        lw=bar.width,
        solid_capstyle="butt",
        gid=f"cd-clique-{nclique}",
        clip_on=False,
        zorder=2,
    )
    line_x = {e.index: e.points[-2][0] for e in lay.elbows}
    for j in bar.crossed:
        # the outsider's line over the bar, set off by a white gap on each side
        x = line_x[j]
        wj = lw * (1.6 if j in emph else 1.0)
        half = bar.width / 2 + 0.6
        add_line(
            ax,
            [x, x],
            [bar.y - half, bar.y + half],
            color="white",
            lw=wj + 2 * max(0.8, 0.5 * wj),
            solid_capstyle="butt",
            gid=f"cd-crossing-{nclique}-{j}",
            clip_on=False,
            zorder=2.4,
        )
    # a dot where the bar meets each member's line, over any gap and line, so that
    # membership is read from the marks, not from which lines seem to touch the bar
    # (scikit-posthocs' convention); a member's line may lie within a point of an
    # outsider's gap
    add_line(
        ax,
        [line_x[i] for i in bar.members],
        [bar.y] * len(bar.members),
        marker="o",
        color=ink,
        ms=bar.width + 1.6,
        mec="white",
        mew=0.6,
        gid=f"cd-members-{nclique}",
        clip_on=False,
        zorder=2.8,
    )


def _draw_scale_bar(ax, lay, bar, result, st, ctrl) -> None:
    """Nemenyi's CD scale bar, or the control's CD interval with the control's dot."""
    color = PALETTE["ink"] if bar.role == "cd" else PALETTE["accent"]
    gid = "cd-cd-bar" if bar.role == "cd" else "cd-interval"
    cap = max(2.0, 0.9 * st.bar_width)
    bx, by = [bar.x0, bar.x1, None], [bar.y, bar.y, None]
    if not bar.open_left:
        bx += [bar.x0, bar.x0, None]
        by += [bar.y - cap, bar.y + cap, None]
    if not bar.open_right:
        bx += [bar.x1, bar.x1, None]
        by += [bar.y - cap, bar.y + cap, None]
    _common.add_line(
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
        _common.add_line(
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


def _draw_elbows(ax, lay, st, emph, differ, line_kws) -> None:
    """Elbows over the bars, with a dot where each meets the axis."""
    lw = st.line_width
    for e in lay.elbows:
        i = e.index
        color = PALETTE["line"]
        if i in emph:
            color = emph[i]
        elif i in differ:
            color = PALETTE["accent2"]
        kws = {
            "color": color,
            "lw": lw * (1.6 if i in emph else 1.0),
            "solid_joinstyle": "miter",
            "solid_capstyle": "butt",
            "zorder": 2.6,
        }
        kws.update(line_kws)
        _common.add_line(
            ax,
            [p[0] for p in e.points],
            [p[1] for p in e.points],
            gid=f"cd-elbow-{i}",
            clip_on=False,
            **kws,
        )
    mx = [e.points[0][0] for e in lay.elbows]
    _common.add_line(
        ax,
        mx,
        [lay.axis_y] * len(mx),
        marker="o",
        color=PALETTE["ink"],
        ms=max(1.8, 0.45 * lay.font_size),
        mew=0,
        gid="cd-markers",
        clip_on=False,
        zorder=3,
    )


def _draw_labels(ax, lay, font, differ, colours, label_kws) -> None:
    """Every text box: names and ranks (ids by method), notes, caption, key, scale label."""
    rows = {(e.points[-1][1], e.side): e.index for e in lay.elbows}
    for b in lay.boxes:
        color = b.color
        extra = {}
        gid = f"cd-{b.role}"
        if b.role in ("name", "value"):
            side = "left" if b.ha == "right" else "right"
            i = rows.get((b.y, side))
            gid = f"cd-{b.role}-{i}"
            if b.role == "name":
                if i in differ:
                    color = "accent2"
                elif i in colours:
                    color = colours[i]  # a name in its group's colour, as its line
                extra = label_kws
        kws = _common.text_kws(font, b.size, b.bold, color)
        kws.update(extra)
        _common.add_text(ax, b.x, b.y, b.text, ha=b.ha, va=b.va, gid=gid, **kws)
