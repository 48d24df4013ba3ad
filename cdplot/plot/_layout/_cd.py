"""The critical-difference diagram, placed."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from .._styles import Style
from ._common import (
    LINE_SPACING,
    MIN_AXIS,
    SAFETY,
    Box,
    Measure,
    Note,
    Room,
    TypeSizes,
    block_height,
    break_marks,
    fit_labels,
    key_boxes,
    moved,
    note_text,
    pack_rows,
    rank_span,
    text_box,
    tick_ranks,
    wrap_text,
)

# spacing, in multiples of the name size, chosen by eye on the gallery figures
_ROW = 1.45  # label rows
_DENSE_ROW = 1.15  # label rows in a fixed height they would overrun (a grid cell)
_GAP_NAME_VALUE = 0.45  # name <-> rank value
_GAP_VALUE_LINE = 0.35  # rank value <-> start of the elbow line


@dataclass(frozen=True)
class Elbow:
    """The line from a method's average rank on the axis to its name."""

    index: int
    side: str
    row: int
    points: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class Bar:
    """A thick horizontal bar (clique, CD scale, control interval).

    ``crossed`` lists the methods outside a clique whose line passes through
    its bar (their average rank equals, or is indistinguishably close to,
    a member's); the drawing sets those lines off with a white gap.
    """

    role: str
    x0: float
    x1: float
    y: float
    members: tuple[int, ...] = ()
    open_left: bool = False
    open_right: bool = False
    crossed: tuple[int, ...] = ()
    width: float = 0.0


@dataclass
class CDLayout:
    """Everything the CD diagram draws, placed.

    ``labels`` are the texts shown for the methods (two lines joined by a
    newline when wrapped, shortened with a key number when needed) and
    ``key`` the ``(number, full name)`` pairs of the shortened ones.
    ``fits`` is False when the content could not be made legible in the
    room given; ``extra['need']`` then holds the (width, height) it needs.
    """

    width: float
    height: float
    font_size: float
    small_size: float
    axis_y: float
    axis_x0: float  # x of rank_lo
    axis_x1: float  # x of rank_hi
    k: int
    major_ticks: list[int]
    labelled_ticks: list[int]
    half_ticks: bool
    tick_length: float
    elbows: list[Elbow]
    bars: list[Bar]
    boxes: list[Box]
    fits: bool
    points_per_rank: float
    extra: dict = field(default_factory=dict)
    rank_lo: int = 1
    rank_hi: int = 0
    axis_break: float = 0.0  # x where the axis is broken (0: not broken)
    axis_end: float = 0.0  # x where the drawn axis line ends on the best side
    labels: list[str] = field(default_factory=list)
    key: list[tuple[str, str]] = field(default_factory=list)
    bar_width: float = 0.0

    def x(self, rank: float) -> float:
        """x of an average rank."""
        hi = self.rank_hi or self.k
        if hi == self.rank_lo:
            return (self.axis_x0 + self.axis_x1) / 2
        return self.axis_x0 + (rank - self.rank_lo) * (self.axis_x1 - self.axis_x0) / (
            hi - self.rank_lo
        )


def cd_layout(
    names: Sequence[str],
    ranks: Sequence[float],
    *,
    measure: Measure,
    style: Style,
    width: float | None = None,
    height: float | None = None,
    grow: bool = True,
    reverse: bool = False,
    cliques: Sequence[Sequence[int]] = (),
    cd: float | None = None,
    control: int | None = None,
    bold: Sequence[int] = (),
    show_ranks: bool = True,
    rank_format: str = "{:.2f}",
    cd_label: str | None = None,
    direction: str = "better",
    notes: Sequence[Note] = (),
    caption: str | None = None,
    full_axis: bool | None = None,
    start_size: float | None = None,
    sides: Sequence[str] | None = None,
    tags: Sequence[str] | None = None,
    show_key: bool = True,
) -> CDLayout:
    """Place a critical-difference diagram.

    The width is the style's (or ``width``) whatever the names are.  To fit,
    the type shrinks in half-point steps down to the style's minimum, names
    wider than their column are wrapped on two lines at natural breaks,
    and at the smallest type names that still do not fit are shortened
    with a key number (the full names are listed in the key under the
    diagram).  Styles with a fixed aspect (slides) grow, keeping it, up to
    a 13.33 in wide slide when the content is too tall.  When nothing
    makes the content legible, the layout is squeezed and ``fits`` is
    False, with the room it needs in ``extra['need']``.

    Parameters
    ----------
    names, ranks : sequence
        Method names and average ranks, in the same (any) order.
    measure : callable
        ``measure(text, size, bold) -> (width, height, descent)`` in points.
    style : Style
        Sizes and spacing.
    width, height : float, optional
        Target width and fixed height in points (default: the style's;
        a style with a fixed aspect keeps it for a given width).
        ``height=None`` sizes the height to the content.
    grow : bool
        Whether a fixed-aspect style may grow (keeping its aspect) when
        the content is too tall; inside a given Axes it may not.
    reverse : bool
        Best ranks on the left instead of Demsar's right.
    cliques : sequence of sequence of int
        Indices of the methods joined by each bar.
    cd : float, optional
        Critical difference: a scale bar, or the interval around
        ``control`` when one is given.
    control : int, optional
        Index of the control method (Bonferroni-Dunn interval).
    bold : sequence of int
        Methods whose names are bold (and whose lines are thicker).
    show_ranks : bool
        Print average ranks beside the names.
    rank_format : str
        Format of the printed ranks.
    cd_label : str, optional
        Text above the CD bar (default ``'CD = 1.25'``).
    direction : str
        Word at the better end of the axis (empty for none).
    notes : sequence of str or tuple, optional
        Paragraphs of notes, wrapped to the width.  A paragraph may be a
        tuple of strings and :class:`Named` methods, written once the
        labels are decided: by key tag when the label was shortened, by
        name otherwise (:func:`note_text`).
    caption : str, optional
        The caption, wrapped to the width.
    full_axis : bool, optional
        Run the axis from 1 to k; by default (``None``) it does for fewer
        than 10 methods and otherwise spans the occupied ranks, rounded out
        to integers, with a break mark when it does not start at 1.
    start_size : float, optional
        Try no name size above this one (a second pass after notes were
        added starts where the first ended).
    sides : sequence of {'best', 'worst'}, optional
        The side of the axis each method is named on (input order);
        by default the better half is named on the best side.  Several
        panels of the same methods use it to keep each name on one side.
    tags : sequence of str, optional
        The key number of each method (input order) should its name be
        shortened; by default shortened names are numbered in rank order.
    show_key : bool
        Place the key to shortened names under the diagram (``False``
        when the caller sets one key for several diagrams; ``key`` still
        lists the shortened names).

    Returns
    -------
    CDLayout
    """
    # (long only by its numpydoc: the body builds the spec and tries the sizes in order)
    spec = CDSpec(
        names=names,
        ranks=ranks,
        measure=measure,
        style=style,
        span=rank_span(ranks, len(names), full_axis),
        reverse=reverse,
        cliques=cliques,
        cd=cd,
        control=control,
        bold=frozenset(bold),
        show_ranks=show_ranks,
        rank_format=rank_format,
        cd_label=cd_label,
        direction=direction,
        notes=notes,
        caption=caption,
        sides=None if sides is None else tuple(sides),
        tags=None if tags is None else tuple(tags),
        show_key=show_key,
    )
    room = Room.of(style, width, height, grow)
    sizes = style.font_sizes()
    if start_size is not None:
        sizes = [s for s in sizes if s <= start_size + 1e-9] or sizes[-1:]
    # a balanced diagram (the axis keeps 30 % of the width) on a slide grown to 13.3 in
    # comes before one whose names squeeze the axis, or are shortened
    for share in (0.3, 0.0):
        for scale in room.scales:
            w = room.width * scale
            h = None if room.height is None else room.height * scale
            lay = _fit_cd(spec, sizes, w, h, share, room.fixed_height)
            if lay is not None:
                return _finish(lay, h, spec.k)
    return _squeezed(spec, sizes[-1], room)


@dataclass(frozen=True)
class CDSpec:
    """What one CD diagram shows, the same in every attempt to fit it (see :func:`cd_layout`).

    ``span`` is the pair of integer ranks the axis runs between
    (:func:`rank_span`); ``sides`` and ``tags`` are tuples in input order.
    """

    names: Sequence[str]
    ranks: Sequence[float]
    measure: Measure
    style: Style
    span: tuple[int, int]
    reverse: bool = False
    cliques: Sequence[Sequence[int]] = ()
    cd: float | None = None
    control: int | None = None
    bold: frozenset[int] = frozenset()
    show_ranks: bool = True
    rank_format: str = "{:.2f}"
    cd_label: str | None = None
    direction: str = "better"
    notes: Sequence[Note] = ()
    caption: str | None = None
    sides: tuple[str, ...] | None = None
    tags: tuple[str, ...] | None = None
    show_key: bool = True

    @property
    def k(self) -> int:
        return len(self.names)


def _squeezed(spec: CDSpec, fs: float, room: Room) -> CDLayout:
    """Nothing legible: measure what the diagram needs, then squeeze it into what there is."""
    w = room.width * room.scales[-1]
    dense = room.fixed_height
    need = _cd_at(spec, fs, w, "short", False, 0.0, dense)
    need_w = max(w, need.extra["min_width"])
    need_h = need.height
    if room.grows:
        # keep the aspect, grown as far as the content needs
        scale = max(need_h / room.height, need_w / room.width)
        w, h = room.width * scale, room.height * scale
        lay = _cd_at(spec, fs, w, "short", True, 0.0, dense)
        need_w, need_h = w, h
    else:
        h = None if room.height is None else room.height * room.scales[-1]
        lay = _cd_at(spec, fs, w, "short", True, 0.0, dense)
    lay.fits = False
    lay.extra["need"] = (need_w, need_h)
    return _finish(lay, h, spec.k)


def _fit_cd(spec, sizes, width, height, share, dense_ok=False):
    """The first legible layout: one-line names at the largest size that holds them, then
    wrapped names (largest size first), with the rank axis taking at least ``share`` of
    the width; in a fixed height (``dense_ok``), then the same with dense label rows; with
    no share asked, then the smallest size with a key."""
    row_modes = (False, True) if dense_ok else (False,)
    for dense in row_modes:
        for mode in ("plain", "wrap"):
            for fs in sizes:
                lay = _cd_at(spec, fs, width, mode, False, share, dense)
                if lay.fits and (height is None or lay.height <= height + 1e-6):
                    return lay
    if share:
        return None
    for dense in row_modes:
        lay = _cd_at(spec, sizes[-1], width, "short", False, 0.0, dense)
        if lay.fits and (height is None or lay.height <= height + 1e-6):
            return lay
    return None


def _finish(lay, height, k):
    if height is not None and lay.height < height:
        _shift(lay, (height - lay.height) / 2)
        lay.height = height
    lay.extra["k"] = k
    return lay


def _shift(lay, dy: float) -> None:
    """Move everything down by ``dy`` (centres content on a fixed-height slide)."""
    lay.axis_y += dy
    lay.elbows = [
        Elbow(e.index, e.side, e.row, tuple((x, y + dy) for x, y in e.points)) for e in lay.elbows
    ]
    lay.bars = [
        Bar(b.role, b.x0, b.x1, b.y + dy, b.members, b.open_left, b.open_right, b.crossed, b.width)
        for b in lay.bars
    ]
    lay.boxes = [moved(b, dy) for b in lay.boxes]


def _clique_bars(cliques, xs, half_lines, ext, tied_ext):
    """Bar spans that cover their members' lines and stop short of every other line.

    A bar reaches ``ext`` past its outer members (``tied_ext`` for a group
    of equal ranks, so that it stays clearly visible), but never closer to
    the line of a method outside the group than that line's half-width
    plus a clearance.  Outsiders whose lines fall within the members' span
    (an equal or indistinguishably close average rank) are returned as
    crossed, to be drawn over the bar with a gap.
    """
    out = []
    for members in cliques:
        mset = set(members)
        mx = [xs[i] for i in members]
        a, b = min(mx), max(mx)
        reach = tied_ext if b - a < 1e-6 else ext
        lo, hi = a - reach, b + reach
        crossed = []
        for j, xj in enumerate(xs):
            if j in mset:
                continue
            keep_off = half_lines[j]
            if a - keep_off < xj < b + keep_off:
                crossed.append(j)
            elif xj <= a - keep_off:
                lo = max(lo, xj + keep_off)
            else:
                hi = min(hi, xj - keep_off)
        out.append((min(lo, a), max(hi, b), tuple(crossed)))
    return out


def _unfit(width, fs, ss, k, min_width, plain_fits) -> CDLayout:
    """A layout attempt that does not fit, with only what the search reads."""
    return CDLayout(
        width=width,
        height=math.inf,
        font_size=fs,
        small_size=ss,
        axis_y=0.0,
        axis_x0=0.0,
        axis_x1=0.0,
        k=k,
        major_ticks=[],
        labelled_ticks=[],
        half_ticks=False,
        tick_length=0.0,
        elbows=[],
        bars=[],
        boxes=[],
        fits=False,
        points_per_rank=0.0,
        extra={"min_width": min_width, "plain_fits": plain_fits},
    )


def _fan_ties(ranks, dots, cliques, spacing):
    """x of each method's line: its dot's, with tied and nearly tied lines side by side.

    Methods whose dots lie within half a ``spacing`` of each other (exact
    ties share a dot; near ties all but do) get lines ``spacing`` apart,
    centred on their dots, so that each stays visible and a bar can stop
    between a member and a tied outsider.  A fan never reaches past half
    the way to the next dot (it packs its lines closer instead), so the
    lines keep the order of the ranks and the label rows, which follow the
    lines, stay in rank order.  Within an exact tie, a method whose groups
    lie further right is placed further right, so that bars need not cross.
    """
    centres = [sum(dots[m] for m in c) / len(c) if c else 0.0 for c in (tuple(c) for c in cliques)]

    def lean(i):
        mine = [centres[n] for n, c in enumerate(cliques) if i in c]
        return sum(mine) / len(mine) if mine else dots[i]

    order = sorted(range(len(ranks)), key=lambda i: (dots[i], lean(i), i))
    runs: list[list[int]] = []
    for i in order:
        if runs and dots[i] - dots[runs[-1][-1]] <= spacing / 2:
            runs[-1].append(i)
        else:
            runs.append([i])
    mids = [sum(dots[i] for i in run) / len(run) for run in runs]
    xs = list(dots)
    for n, run in enumerate(runs):
        if len(run) < 2:
            continue
        gaps = [mids[n] - mids[n - 1]] if n else []
        gaps += [mids[n + 1] - mids[n]] if n + 1 < len(runs) else []
        # the fan's half-width (len - 1) * step / 2 stays within 45 % of the nearest gap
        step = min([spacing] + [0.9 * g / (len(run) - 1) for g in gaps])
        for j, i in enumerate(run):
            xs[i] = mids[n] + (j - (len(run) - 1) / 2) * step
    return xs


@dataclass(frozen=True)
class _Columns:
    """The horizontal budget of one attempt, before the names are fitted.

    The rank values' columns (``wl_v``, ``wr_v``) and their gaps to the
    names (``g_nv``) and to the lines (``g_vl``), the stub at each end of
    the axis, the width of a tick label, the axis' minimum length and the
    room left for the two name columns together.
    """

    values: dict[int, str]
    wl_v: float
    wr_v: float
    g_nv: float
    g_vl: float
    stub: float
    tick_label_w: float
    min_axis: float
    room: float


@dataclass(frozen=True)
class _Axis:
    """Where the rank axis runs and where the lines to the names end."""

    ax0: float  # left end of the axis
    ax1: float
    x_lo: float  # x of the best rank shown (right, or left when reversed)
    x_hi: float
    r_lo: int
    n_ranks: int
    ppr: float  # points per rank
    line_end_l: float  # the lines to the left names end here
    line_end_r: float

    def x(self, r: float) -> float:
        if not self.n_ranks:
            return (self.ax0 + self.ax1) / 2
        return self.x_lo + (r - self.r_lo) * (self.x_hi - self.x_lo) / self.n_ranks


def _cd_at(
    spec: CDSpec,
    fs: float,
    width: float,
    mode: str,
    squeeze: bool,
    share: float = 0.0,
    dense: bool = False,
) -> CDLayout:
    """One attempt at the diagram, with names of size ``fs`` in ``width`` points.

    ``mode`` says what may be done to names that do not fit ('plain',
    'wrap' or 'short', as in :func:`fit_labels`); ``squeeze`` places
    everything even when it does not fit (the axis shrinks to 12 pt);
    ``share`` is the part of the width the axis keeps; ``dense`` sets the
    label rows as close as lines of body text.
    """
    k = spec.k
    t = TypeSizes.of(spec.measure, spec.style, fs)
    order = sorted(range(k), key=lambda i: (spec.ranks[i], i))
    side = _sides(spec, order)
    cols = _columns(spec, side, t, width, share)
    labels, key, fits, plain_fits = _cd_labels(spec, order, side, fs, cols.room, mode)
    left_block, right_block = _blocks(spec, side, labels, cols, fs)
    row_h = _row_height(labels, t, dense)
    min_width = left_block + right_block + 2 * cols.stub + cols.min_axis
    fits = fits and min_width <= width + 1e-9
    if not fits and not squeeze and mode != "short":
        # this attempt is discarded anyway: skip placing everything (large k tries many)
        return _unfit(width, fs, t.ss, k, min_width, plain_fits)
    axis = _axis(spec, cols.stub, left_block, right_block, width, squeeze)
    boxes: list[Box] = []
    bars: list[Bar] = []
    y = _place_header(spec, axis, t, width, boxes, bars)
    axis_y, (major, labelled, halves, tick_len) = _place_ticks(spec, axis, cols, t, y, boxes)
    # a broken axis: the line runs on past rank r_lo into the stub, with a mark
    r_lo, r_hi = spec.span
    best_dir = 1.0 if not spec.reverse else -1.0
    axis_break, axis_end = break_marks(axis.x(r_lo), best_dir, cols.stub, r_lo > 1)
    y, dots, xs, bar_w = _place_cliques(spec, axis, axis_y, fs, bars)
    fan_drop = max(0.7 * fs, 4.0) - bar_w / 2 - 0.5
    texts = {i: "\n".join(labels[i]) for i in range(k)}
    lines = (dots, xs, axis_y, fan_drop)
    y, elbows = _place_names(spec, cols, axis, side, texts, lines, y, row_h, t, boxes)
    y = _place_notes(spec, key, t, width, y, boxes)
    return CDLayout(
        width=width,
        height=y + spec.style.pad,
        font_size=fs,
        small_size=t.ss,
        axis_y=axis_y,
        axis_x0=axis.x_lo,
        axis_x1=axis.x_hi,
        k=k,
        major_ticks=major,
        labelled_ticks=labelled,
        half_ticks=halves,
        tick_length=tick_len,
        elbows=elbows,
        bars=bars,
        boxes=boxes,
        fits=fits,
        points_per_rank=axis.ppr,
        extra={
            "min_width": min_width,
            "axis_left": axis.ax0,
            "axis_right": axis.ax1,
            "row_height": row_h,
            "plain_fits": plain_fits,
        },
        rank_lo=r_lo,
        rank_hi=r_hi,
        axis_break=axis_break,
        axis_end=axis_end,
        labels=[texts[i] for i in range(k)],
        key=key,
        bar_width=bar_w,
    )


def _sides(spec: CDSpec, order: Sequence[int]) -> dict[int, str]:
    """The screen side each method is named on: the better half on the best side,
    unless the caller chose (several panels keep each name on one side)."""
    n_best = math.ceil(spec.k / 2)
    best_side, worst_side = ("left", "right") if spec.reverse else ("right", "left")
    if spec.sides is None:
        return {i: (best_side if pos < n_best else worst_side) for pos, i in enumerate(order)}
    return {i: best_side if spec.sides[i] == "best" else worst_side for i in range(spec.k)}


def _columns(spec: CDSpec, side: dict[int, str], t: TypeSizes, width: float, share: float):
    """Widths of everything beside the names, and the room the names have."""
    k, fs, ss = spec.k, t.fs, t.ss
    r_lo, r_hi = spec.span
    pad = spec.style.pad
    values = {i: spec.rank_format.format(spec.ranks[i]) for i in range(k)}
    value_w = (
        {i: spec.measure(values[i], ss, False)[0] * SAFETY for i in range(k)}
        if spec.show_ranks
        else {}
    )

    def value_col(s):
        return max((value_w[i] for i in range(k) if side[i] == s), default=0.0)

    wl_v = value_col("left") if spec.show_ranks else 0.0
    wr_v = value_col("right") if spec.show_ranks else 0.0
    g_nv = _GAP_NAME_VALUE * fs if spec.show_ranks else 0.0
    g_vl = _GAP_VALUE_LINE * fs
    stub = max(4.0, 0.8 * fs)
    tick_label_w = spec.measure(str(r_hi), ss, False)[0] + 0.9 * ss
    n_ranks = r_hi - r_lo
    # the axis may keep a share of the width: long names then wrap before they squeeze it
    min_axis = max(
        MIN_AXIS, spec.style.min_points_per_rank * n_ranks, 1.6 * tick_label_w, share * width
    )
    fixed = 2 * pad + wl_v + wr_v + 2 * (g_nv + g_vl) + 2 * stub
    room = width - fixed - min_axis  # for the two name columns together
    return _Columns(values, wl_v, wr_v, g_nv, g_vl, stub, tick_label_w, min_axis, room)


def _cd_labels(spec, order, side, fs, room, mode):
    """The lines of each name (one line, wrapped or shortened within its side's column),
    the key to shortened names, whether all fit and whether they fit on one line."""
    k, names, bold, measure = spec.k, spec.names, spec.bold, spec.measure
    name_w = {i: measure(names[i], fs, i in bold)[0] * SAFETY for i in range(k)}
    widest = {
        s: max((name_w[i] for i in range(k) if side[i] == s), default=0.0)
        for s in ("left", "right")
    }
    plain_fits = widest["left"] + widest["right"] <= room + 1e-9
    labels = {i: [names[i]] for i in range(k)}
    key: list[tuple[str, str]] = []
    fits = plain_fits
    if not plain_fits and mode != "plain":
        # each side gets half the room; a side that needs less leaves the rest to the other
        half = max(room / 2, 0.0)
        budget = {"left": half, "right": half}
        for s, o in (("left", "right"), ("right", "left")):
            if widest[s] < half:
                budget[o] = room - widest[s]
        labels, key, fits = fit_labels(
            names, order, lambda i: budget[side[i]], fs, bold, measure, mode, spec.tags
        )
        if spec.tags is not None:
            key.sort(key=lambda entry: spec.tags.index(entry[0]))
    return labels, key, fits, plain_fits


def _blocks(spec, side, labels, cols, fs) -> tuple[float, float]:
    """Width of the text block on each side of the axis: pad, names, values and gaps."""
    k, bold, measure = spec.k, spec.bold, spec.measure
    label_w = {i: max(measure(t, fs, i in bold)[0] for t in labels[i]) * SAFETY for i in range(k)}
    wl_n = max((label_w[i] for i in range(k) if side[i] == "left"), default=0.0)
    wr_n = max((label_w[i] for i in range(k) if side[i] == "right"), default=0.0)
    pad = spec.style.pad
    left_block = pad + wl_n + cols.g_nv + cols.wl_v + cols.g_vl
    right_block = pad + wr_n + cols.g_nv + cols.wr_v + cols.g_vl
    return left_block, right_block


def _row_height(labels, t: TypeSizes, dense: bool) -> float:
    """Height of a label row, from the most lines a label has."""
    lp = t.lp
    n_lines = max(len(v) for v in labels.values())
    label_h = block_height(n_lines, lp, t.lp_d, LINE_SPACING)
    row_h = max(lp * _ROW, lp + 2.0) if n_lines == 1 else label_h + 0.5 * lp
    if dense:
        # a fixed height (a grid cell) that normal rows overrun: rows as close as the lines
        # of body text, before names are shortened or the room is overrun
        row_h = _DENSE_ROW * lp if n_lines == 1 else label_h + (_DENSE_ROW - 1.0) * lp
    return row_h


def _axis(spec, stub, left_block, right_block, width, squeeze) -> _Axis:
    """The axis between the two text blocks, rank ``r_lo`` at the best end."""
    r_lo, r_hi = spec.span
    n_ranks = r_hi - r_lo
    axis_len = width - left_block - right_block - 2 * stub
    if squeeze:
        axis_len = max(axis_len, 12.0)
    ax0 = left_block + stub  # left end of the axis
    ax1 = ax0 + axis_len
    x_lo, x_hi = (ax1, ax0) if not spec.reverse else (ax0, ax1)
    ppr = axis_len / n_ranks if n_ranks else axis_len
    return _Axis(ax0, ax1, x_lo, x_hi, r_lo, n_ranks, ppr, left_block, width - right_block)


def _place_header(spec, axis, t, width, boxes, bars) -> float:
    """Above the axis: the CD label and the direction word (one row, or two when they
    would touch), then the CD bar.  Returns the y below them."""
    style, ss = spec.style, t.ss
    y = style.pad
    cd_bar, cd_box = _cd_scale(spec, axis, ss, width)
    dir_box = _direction_box(spec, axis, ss)
    if cd_box is not None and dir_box is not None and cd_box.overlaps(dir_box, -0.6 * ss):
        header_rows = [[dir_box], [cd_box]]
    else:
        header_rows = [[b for b in (cd_box, dir_box) if b is not None]]
    for row in header_rows:
        if not row:
            continue
        for b in row:
            boxes.append(
                text_box(spec.measure, b.text, b.role, b.x, y, b.ha, "top", b.size, b.bold, b.color)
            )
        y += t.lps + 0.15 * ss
    if cd_bar is not None:
        y += style.bar_width / 2 + 0.5
        bars.append(
            Bar(
                cd_bar.role,
                cd_bar.x0,
                cd_bar.x1,
                y,
                cd_bar.members,
                cd_bar.open_left,
                cd_bar.open_right,
                width=style.bar_width,
            )
        )
        y += style.bar_width / 2 + 0.6 * ss
    else:
        y += 0.3 * ss
    return y


def _cd_scale(spec, axis, ss, width) -> tuple[Bar | None, Box | None]:
    """The CD bar (at y = 0) and its label, kept inside the figure; none for one method."""
    if spec.cd is None or spec.k <= 1:
        return None, None
    if spec.control is None:
        cd_bar, x = _scale_bar(spec, axis)
    else:
        cd_bar, x = _control_interval(spec, axis)
    label = spec.cd_label or f"CD = {spec.cd:.2f}"
    measure, pad = spec.measure, spec.style.pad
    cd_box = text_box(measure, label, "cd-label", x, 0.0, "center", "top", ss)
    if cd_box.x0 < pad:
        cd_box = text_box(measure, cd_box.text, "cd-label", pad, 0.0, "left", "top", ss)
    if cd_box.x1 > width - pad:
        cd_box = text_box(measure, cd_box.text, "cd-label", width - pad, 0.0, "right", "top", ss)
    return cd_bar, cd_box


def _scale_bar(spec, axis) -> tuple[Bar, float]:
    """Demsar's scale bar, from the worse end of the axis; open when CD is longer."""
    cd, reverse, n_ranks = spec.cd, spec.reverse, axis.n_ranks
    length = min(cd, n_ranks) * axis.ppr
    start = axis.x_hi
    bx0, bx1 = (start, start + length) if not reverse else (start - length, start)
    bar = Bar(
        "cd",
        bx0,
        bx1,
        0.0,
        open_right=cd > n_ranks and not reverse,
        open_left=cd > n_ranks and reverse,
    )
    return bar, (bx0 + bx1) / 2


def _control_interval(spec, axis) -> tuple[Bar, float]:
    """The interval of CD around the control's rank, cut (and open) at the axis' ends."""
    cd, control = spec.cd, spec.control
    r_lo, r_hi = spec.span
    rc = spec.ranks[control]
    lo, hi = max(float(r_lo), rc - cd), min(float(r_hi), rc + cd)
    xa, xb = sorted((axis.x(lo), axis.x(hi)))
    open_lo, open_hi = rc - cd < r_lo, rc + cd > r_hi
    # which screen side is open depends on the orientation
    ol, orr = (open_hi, open_lo) if not spec.reverse else (open_lo, open_hi)
    bar = Bar("cd-interval", xa, xb, 0.0, members=(control,), open_left=ol, open_right=orr)
    return bar, axis.x(rc)


def _direction_box(spec, axis, ss) -> Box | None:
    """The word at the better end of the axis, with an arrow pointing there."""
    if not spec.direction:
        return None
    if not spec.reverse:
        arrow, dx, dha = f"{spec.direction} \u2192", axis.ax1, "right"
    else:
        arrow, dx, dha = f"\u2190 {spec.direction}", axis.ax0, "left"
    return text_box(spec.measure, arrow, "direction", dx, 0.0, dha, "top", ss, color="muted")


def _place_ticks(spec, axis, cols, t, y, boxes):
    """Tick labels above the axis; returns the axis' y and (major, labelled, halves, length)."""
    r_lo, r_hi = spec.span
    ss = t.ss
    ppr = axis.ppr if axis.n_ranks else 1e9
    major, labelled, halves = tick_ranks(r_hi, ppr, cols.tick_label_w, lo=r_lo)
    tick_len = max(2.5, 0.45 * ss)
    for r in labelled:
        boxes.append(text_box(spec.measure, str(r), "tick", axis.x(r), y, "center", "top", ss))
    y += t.lps + 0.25 * ss + tick_len
    return y, (major, labelled, halves, tick_len)


def _place_cliques(spec, axis, axis_y, fs, bars):
    """Clique bars stacked under the axis.  Returns the y below them, the dot of each
    method on the axis, the x of its line (tied lines fanned out) and the bar width."""
    style, k, bold = spec.style, spec.k, spec.bold
    y = axis_y + max(0.7 * fs, 4.0)
    dots = [axis.x(r) for r in spec.ranks]
    # half the drawn width of each line plus a clearance no bar may enter
    half_lines = [
        style.line_width * (1.6 if i in bold else 1.0) / 2 + max(0.5, 0.1 * fs) for i in range(k)
    ]
    xs = _fan_ties(spec.ranks, dots, spec.cliques, 2 * max(half_lines) + 0.4)
    ext = max(1.5, 0.25 * fs)
    spans = _clique_bars(spec.cliques, xs, half_lines, ext, max(ext, 0.9 * fs))
    rows = pack_rows([(lo, hi) for lo, hi, _c in spans], gap=max(3.0, 0.6 * fs))
    n_bar_rows = (max(rows) + 1) if rows else 0
    # many stacked bars get thinner, with a gap of at least their own thickness
    bar_w = style.bar_width if n_bar_rows <= 8 else max(1.0, style.bar_width * 0.6)
    step = bar_w + max(2.0, 0.35 * fs, bar_w)
    for members, (lo, hi, crossed), row in zip(spec.cliques, spans, rows, strict=True):
        bars.append(
            Bar("clique", lo, hi, y + row * step, tuple(members), crossed=crossed, width=bar_w)
        )
    if n_bar_rows:
        y += (n_bar_rows - 1) * step + bar_w / 2 + max(0.8 * fs, 4.0)
    return y, dots, xs, bar_w


def _place_names(spec, cols, axis, side, texts, lines, y, row_h, t, boxes):
    """Label rows: on each side the method nearest the edge takes the top row.
    Returns the y below them and the elbow line of each method."""
    dots, xs, axis_y, fan_drop = lines
    k = spec.k
    first_row = y + row_h / 2
    elbows: list[Elbow] = []
    left = sorted((i for i in range(k) if side[i] == "left"), key=lambda i: (xs[i], i))
    right = sorted((i for i in range(k) if side[i] == "right"), key=lambda i: (-xs[i], i))
    for s, members in (("left", left), ("right", right)):
        end = axis.line_end_l if s == "left" else axis.line_end_r
        for row, i in enumerate(members):
            ry = first_row + row * row_h
            x = xs[i]
            # tied lines leave their shared dot side by side, then run straight down
            pts = ((dots[i], axis_y), (x, axis_y + fan_drop), (x, ry), (end, ry))
            if x == dots[i]:
                pts = ((x, axis_y), (x, ry), (end, ry))
            elbows.append(Elbow(i, s, row, pts))
            _name_boxes(spec, cols, axis, i, s, ry, texts[i], t, boxes)
    n_rows = max(len(left), len(right))
    y = first_row + (n_rows - 1) * row_h + row_h / 2 if n_rows else y
    return y, elbows


def _name_boxes(spec, cols, axis, i, s, ry, text, t, boxes) -> None:
    """The rank value (when shown) and the name of method ``i``, at the end of its line."""
    if s == "left":
        vx = axis.line_end_l - cols.g_vl
        nx = vx - (cols.wl_v + cols.g_nv if spec.show_ranks else 0.0)
        ha = "right"
    else:
        vx = axis.line_end_r + cols.g_vl
        nx = vx + (cols.wr_v + cols.g_nv if spec.show_ranks else 0.0)
        ha = "left"
    if spec.show_ranks:
        boxes.append(
            text_box(
                spec.measure, cols.values[i], "value", vx, ry, ha, "center", t.ss, color="muted"
            )
        )
    bold = i in spec.bold
    color = "accent" if bold else "ink"
    boxes.append(text_box(spec.measure, text, "name", nx, ry, ha, "center", t.fs, bold, color))


def _place_notes(spec, key, t, width, y, boxes) -> float:
    """Notes, the caption and the key to shortened names, wrapped to the width.

    The notes name each method as its label does: by key tag when it was shortened.
    """
    measure, pad, ss = spec.measure, spec.style.pad, t.ss
    text_w = max(width - 2 * pad, 20.0)
    line_h = t.lps * 1.25
    captions = [spec.caption] if spec.caption else []
    # method names are unique, and the key lists each shortened one under its full label
    index = {name: i for i, name in enumerate(spec.names)}
    tags = {index[name]: tag for tag, name in key}
    notes = [note_text(n, tags) for n in spec.notes]
    for role, paragraphs in (("note", notes), ("caption", captions)):
        lines = [ln for p in paragraphs for ln in wrap_text(p, text_w, ss, measure)]
        if lines:
            y += 0.5 * ss
        color = "muted" if role == "note" else "ink"
        for ln in lines:
            boxes.append(text_box(measure, ln, role, pad, y, "left", "top", ss, color=color))
            y += line_h
    if key and spec.show_key:
        y += 0.5 * ss
        y = key_boxes(boxes, key, pad, y, text_w, ss, measure)
    return y
