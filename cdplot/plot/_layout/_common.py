"""What every figure's layout shares: placed text boxes, wrapping and shortening of
names, rank axes and the key to shortened names (points, ``y`` down, no matplotlib)."""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from .._styles import Style

Measure = Callable[[str, float, bool], tuple[float, float, float]]


# the rank axis is never shorter than 1.25 in
MIN_AXIS = 90.0
# Renderers differ by a fraction of a percent in text width (and hinted
# screen rendering by more); every measured width gets this much room.
SAFETY = 1.03
# line spacing of two-line names (matplotlib's ``linespacing``)
LINE_SPACING = 1.1
# the widescreen slide of presentation software: the largest a 16:9 slide
# figure may grow before its type would be shown below the style's size
MAX_SLIDE_SCALE = 4.0 / 3.0


@dataclass(frozen=True)
class Room:
    """The room a figure is fitted into: base size and how far it may grow."""

    width: float
    height: float | None  # None: sized to the content
    fixed_height: bool  # a height was given (a grid cell): dense label rows may be tried
    grows: bool  # a fixed-aspect style that may grow, keeping its aspect
    scales: tuple[float, ...]

    @classmethod
    def of(cls, style: Style, width: float | None, height: float | None, grow: bool) -> Room:
        base_w = style.width_pt if width is None else float(width)
        aspect = None if style.height is None else style.height / style.width
        if height is not None:
            base_h = float(height)
        elif aspect is not None:
            base_h = base_w * aspect
        else:
            base_h = None
        grows = aspect is not None and height is None and grow
        scales = (1.0, 1.125, 1.25, MAX_SLIDE_SCALE) if grows else (1.0,)
        return cls(base_w, base_h, height is not None, grows, scales)


@dataclass(frozen=True)
class TypeSizes:
    """Type sizes of one attempt: names ``fs``, small text ``ss``, and their line heights."""

    fs: float
    ss: float
    lp: float  # height of a line of names
    lp_d: float  # its descent
    lps: float  # height of a line of small text

    @classmethod
    def of(cls, measure: Measure, style: Style, fs: float) -> TypeSizes:
        ss = style.small_for(fs)
        _w, lp, lp_d = measure("lp", fs, False)
        return cls(fs, ss, lp, lp_d, measure("lp", ss, False)[1])


@dataclass(frozen=True)
class Box:
    """A placed piece of text: its string, role, anchor and extent (points, y down)."""

    text: str
    role: str
    x: float
    y: float
    ha: str
    va: str
    size: float
    bold: bool
    x0: float
    y0: float
    x1: float
    y1: float
    rotation: float = 0.0
    color: str = "ink"

    def overlaps(self, other: Box, tol: float = 0.0) -> bool:
        return not (
            self.x1 <= other.x0 + tol
            or other.x1 <= self.x0 + tol
            or self.y1 <= other.y0 + tol
            or other.y1 <= self.y0 + tol
        )


def text_box(
    measure: Measure, text, role, x, y, ha, va, size, bold=False, color="ink", rotation=0.0
) -> Box:
    lines = text.split("\n")
    w = max(measure(t, size, bold)[0] for t in lines) * SAFETY
    _lw, lh, ld = measure("lp", size, bold)
    h = max(measure(lines[0], size, bold)[1], lh)
    if len(lines) > 1:
        h = block_height(len(lines), lh, ld, LINE_SPACING)
    if rotation:
        w, h = h, w
    x0 = {"left": x, "right": x - w, "center": x - w / 2}[ha]
    y0 = {"top": y, "bottom": y - h, "center": y - h / 2}[va]
    return Box(text, role, x, y, ha, va, size, bold, x0, y0, x0 + w, y0 + h, rotation, color)


def overlapping_boxes(boxes: Sequence[Box], tol: float = 0.0) -> list[tuple[Box, Box]]:
    """Pairs of boxes that overlap by more than ``tol`` points."""
    out = []
    items = sorted(boxes, key=lambda b: b.x0)
    for i, a in enumerate(items):
        for b in items[i + 1 :]:
            if b.x0 >= a.x1 - tol:
                break
            if a.overlaps(b, tol):
                out.append((a, b))
    return out


@dataclass(frozen=True)
class Named:
    """A method named in a note, by its index in the figure's methods and its name.

    The layout writes it as the method's key tag (``[7]``) when the label
    was shortened, and by name otherwise: a note then names a method as the
    figure's label does, and sixty-character names are not spelt out again
    under a diagram whose labels carry tags.
    """

    index: int
    name: str


# a note's text: plain strings and the methods it names, in reading order
NotePart = str | Named
Note = str | tuple[NotePart, ...]


def note_text(note: Note, tags: Mapping[int, str]) -> str:
    """The text of ``note`` once labels are decided: ``tags`` maps a shortened label's
    method index to its key tag; every other method is written by name."""
    if isinstance(note, str):
        return note
    return "".join(p if isinstance(p, str) else tags.get(p.index, p.name) for p in note)


def wrap_text(text: str, width: float, size: float, measure: Measure) -> list[str]:
    """Greedy word wrap of ``text`` to ``width`` points (an overlong word gets its own line)."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        current = ""
        # split on plain spaces only: no-break spaces keep "N = 14" together
        for word in (w for w in paragraph.split(" ") if w):
            trial = f"{current} {word}" if current else word
            if current and measure(trial, size, False)[0] * SAFETY > width:
                lines.append(current)
                current = word
            else:
                current = trial
        if current:
            lines.append(current)
    return lines


def tick_ranks(
    k: int, points_per_rank: float, label_width: float, lo: int = 1
) -> tuple[list[int], list[int], bool]:
    """Integer ticks from ``lo`` to ``k``, the labelled subset and whether half ticks fit.

    Labels are thinned to every 2nd, 5th, 10th... rank so that neighbours
    stay ``label_width`` apart; ``lo`` and ``k`` are always labelled.
    """
    step = 1
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 250, 500, 1000):
        if step * points_per_rank >= label_width:
            break
    first = -(-lo // step) * step
    wanted = sorted({lo, k} | set(range(max(first, step), k + 1, step)))
    need = label_width / points_per_rank
    kept: list[int] = []
    for r in wanted:
        if not kept or r - kept[-1] >= need - 1e-9:
            kept.append(r)
        elif r == k:
            # k must be labelled: drop the previous label instead (never the first)
            if len(kept) > 1:
                kept.pop()
            if r - kept[-1] >= need - 1e-9:
                kept.append(r)
    major = list(range(lo, k + 1)) if points_per_rank >= 2.0 else kept
    return major, kept, points_per_rank >= 9.0


def pack_rows(spans: Sequence[tuple[float, float]], gap: float) -> list[int]:
    """Assign intervals to rows so that intervals in a row are ``gap`` apart (first fit)."""
    rows_end: list[float] = []
    out = [0] * len(spans)
    for i in sorted(range(len(spans)), key=lambda i: (spans[i][0], spans[i][1])):
        lo, hi = spans[i]
        for r, end in enumerate(rows_end):
            if lo - end >= gap:
                rows_end[r] = hi
                out[i] = r
                break
        else:
            rows_end.append(hi)
            out[i] = len(rows_end) - 1
    return out


# characters after which a name may break (kept at the end of the first line)
_BREAK_AFTER = "-_/+.,;:)]"
# characters before which a name may break (start the second line)
_BREAK_BEFORE = "([{"
_ELLIPSIS = "\u2026"
# a common start without spaces shorter than this is kept (it says something: "SVM-")
_MIN_DROPPED_PREFIX = 6


def _is_cjk(ch: str) -> bool:
    o = ord(ch)
    return 0x2E80 <= o <= 0x9FFF or 0xAC00 <= o <= 0xD7AF or 0xF900 <= o <= 0xFAFF


@functools.lru_cache(maxsize=4096)
def _breaks(text: str) -> tuple[tuple[str, str], ...]:
    """Every two-line split of ``text`` at a natural break point, as (first, second)."""
    out = []
    n = len(text)
    for i in range(1, n):
        a, b = text[i - 1], text[i]
        if b == " ":
            # never around "=" or "×": "k = 15" and "2 × 256" stay on one line
            if text[i + 1 : i + 2] in ("=", "\u00d7") or a in ("=", "\u00d7"):
                continue
            out.append((text[:i].rstrip(), text[i:].lstrip()))
        elif a == " ":
            continue
        elif a in ".,:" and b.isdigit() and text[i - 2 : i - 1].isdigit():
            # inside a number ("C4.5", "1,000", "10:1"): one token, never broken
            continue
        elif a in _BREAK_AFTER or b in _BREAK_BEFORE or (_is_cjk(a) and _is_cjk(b)):
            out.append((text[:i].rstrip(), text[i:].lstrip()))
    return tuple((x, y) for x, y in out if x and y)


def wrap_name(
    text: str, width: float, size: float, bold: bool, measure: Measure
) -> list[str] | None:
    """``text`` on one line, or on two lines split at a natural break, within ``width``.

    Of the splits that fit, the one with the most even lines is taken;
    ``None`` when no split fits.
    """
    if measure(text, size, bold)[0] * SAFETY <= width:
        return [text]
    lines = _best_split(text, round(width, 3), size, bold, measure)
    return None if lines is None else list(lines)


@functools.lru_cache(maxsize=8192)
def _best_split(text, width, size, bold, measure):
    # the layout asks for the same names at the same sizes in many attempts
    best = None
    for first, second in _breaks(text):
        w = max(measure(first, size, bold)[0], measure(second, size, bold)[0]) * SAFETY
        if w <= width and (best is None or w < best[0]):
            best = (w, (first, second))
    return None if best is None else best[1]


def shorten_name(
    text: str, tag: str, width: float, size: float, bold: bool, measure: Measure
) -> str | None:
    """``text`` cut to fit ``width`` with an ellipsis and ``tag`` (a key number).

    The cut falls at a word boundary when that keeps most of the room used;
    ``None`` when not even the tag fits.
    """
    suffix = f"{_ELLIPSIS}\u00a0{tag}"
    if measure(tag, size, bold)[0] * SAFETY > width:
        return None
    keep = ""
    for i in range(len(text), 0, -1):
        trial = text[:i].rstrip() + suffix
        if measure(trial, size, bold)[0] * SAFETY <= width:
            keep = text[:i].rstrip()
            break
    if not keep:
        return tag
    cut = keep.rfind(" ")
    if cut > 0.6 * len(keep):
        keep = keep[:cut].rstrip(" ,;:-(")
    return keep + suffix


def block_height(n_lines: int, h: float, d: float, spacing: float) -> float:
    """Height of ``n_lines`` of text as matplotlib stacks them (``Text._get_layout``)."""
    return h + (n_lines - 1) * (d + (h - d) * spacing)


def common_prefix(names: Sequence[str]) -> str:
    """The words every name starts with (said once they are cut, they would say nothing)."""
    if len(names) < 2:
        return ""
    common = os.path.commonprefix(list(names))
    return common[: common.rfind(" ") + 1] if " " in common else ""


def fit_labels(
    names: Sequence[str],
    order: Sequence[int],
    budget: Callable[[int], float],
    size: float,
    bold: set,
    measure: Measure,
    mode: str,
    tags: Sequence[str] | None = None,
) -> tuple[dict[int, list[str]], list[tuple[str, str]], bool]:
    """Labels of at most ``budget(i)`` points: ``mode`` 'plain', 'wrap' or 'short'.

    'short' wraps what it can and shortens the rest; 'key' shortens without
    wrapping.  Returns the lines of each label, the key ``(tag, full name)``
    of the shortened ones (numbered in ``order``, or tagged ``tags[i]``
    when given, so that several figures of the same methods agree) and
    whether all fit.
    """
    labels = {i: [names[i]] for i in order}
    key: list[tuple[str, str]] = []
    ok = True
    common = common_prefix(names) if mode in ("short", "key") else ""
    lead = ""
    if mode in ("short", "key") and not common and len(names) > 1:
        # names sharing a long start without spaces ("VeryLongModelAlpha", "...Beta"): cut
        # from the end they would all read "VeryLongM… [n]"; the part after the common
        # start is what tells them apart, shown after an ellipsis
        raw = os.path.commonprefix(list(names))
        if len(raw) >= _MIN_DROPPED_PREFIX:
            common, lead = raw, _ELLIPSIS
    for i in order:
        room = budget(i)
        if measure(names[i], size, i in bold)[0] * SAFETY <= room:
            continue
        wraps = mode in ("wrap", "short")
        lines = wrap_name(names[i], room, size, i in bold, measure) if wraps else None
        if lines is None and mode in ("short", "key"):
            tag = f"[{len(key) + 1}]" if tags is None else tags[i]
            rest = names[i][len(common) :]
            whole = f"{lead}{rest}\u00a0{tag}"
            if lead and rest and measure(whole, size, i in bold)[0] * SAFETY <= room:
                short = whole  # the distinct end in full: no second ellipsis
            else:
                text = (lead + rest) if rest else names[i]
                short = shorten_name(text, tag, room, size, i in bold, measure)
            if short is not None:
                lines = [short]
                key.append((tag, names[i]))
        if lines is None:
            ok = False
            lines = [names[i]]
        labels[i] = lines
    return labels, key, ok


def rank_span(ranks: Sequence[float], k: int, full: bool | None) -> tuple[int, int]:
    """The integer ranks the axis runs between: 1..k, or the occupied ones rounded out.

    ``full=None`` is the default of every rank axis (CD diagram and
    rank-interval chart alike): the full axis for fewer than 10 methods,
    the occupied ranks from 10 on.
    """
    if full is None:
        full = k < 10
    if full or k < 2:
        return 1, max(k, 1)
    lo = max(1, math.floor(min(ranks) + 1e-9))
    hi = min(k, math.ceil(max(ranks) - 1e-9))
    if hi - lo < 1:
        hi = min(k, lo + 1)
        lo = hi - 1
    # a break saves nothing when only rank 1 would be left out of a short axis
    if lo == 2 and hi - lo < 4:
        lo = 1
    return lo, hi


def break_marks(x_first: float, best_dir: float, stub: float, broken: bool):
    """x of the break mark and of the axis end, in a stub beyond the first rank shown."""
    if not broken:
        return 0.0, x_first
    return x_first + best_dir * 0.45 * stub, x_first + best_dir * 0.9 * stub


def axis_polylines(
    x_far: float,
    x_near: float,
    y: float,
    *,
    axis_break: float,
    axis_end: float,
    font_size: float,
    small_size: float,
) -> tuple[tuple[list, list], tuple[list, list]]:
    """The rank axis and its break mark, as polylines (``None`` separates pieces).

    Unbroken (``axis_break == 0``) the axis runs from ``x_far`` to
    ``x_near``.  Broken, it runs on past ``x_near`` (the first rank shown)
    to a gap at ``axis_break`` crossed by two slanted strokes, standing for
    the ranks left out, and ends at ``axis_end``.  The CD diagram, the
    rank-interval chart and their TikZ pictures all draw these.
    """
    if not axis_break:
        return ([x_far, x_near], [y, y]), ([], [])
    gap = max(1.2, 0.25 * font_size)
    toward = 1.0 if axis_end > x_near else -1.0
    line = (
        [x_far, axis_break - toward * gap / 2, None, axis_break + toward * gap / 2, axis_end],
        [y, y, None, y, y],
    )
    h = max(2.0, 0.4 * small_size)
    mx, my = [], []
    for dx in (-gap / 2, gap / 2):
        cx = axis_break + dx
        mx += [cx - h * 0.35, cx + h * 0.35, None]
        my += [y + h / 2, y - h / 2, None]
    return line, (mx, my)


def key_boxes(boxes, key, x0, y, text_w, ss, measure) -> float:
    """The key to shortened names, in as many columns as the width holds; returns the new y."""
    line_h = measure("lp", ss, False)[1] * 1.25
    entries = [f"{tag}\u00a0{name}" for tag, name in key]
    col_gap = 1.2 * ss
    col_w = max(measure(e, ss, False)[0] * SAFETY for e in entries)
    n_cols = max(1, min(len(entries), int((text_w + col_gap) // (col_w + col_gap))))
    if n_cols == 1:
        for e in entries:
            for ln in wrap_text(e, text_w, ss, measure):
                boxes.append(text_box(measure, ln, "key", x0, y, "left", "top", ss))
                y += line_h
        return y
    per_col = math.ceil(len(entries) / n_cols)
    for n, e in enumerate(entries):
        c, r = divmod(n, per_col)
        boxes.append(
            text_box(
                measure, e, "key", x0 + c * (col_w + col_gap), y + r * line_h, "left", "top", ss
            )
        )
    return y + per_col * line_h


def moved(b: Box, dy: float) -> Box:
    return Box(
        b.text,
        b.role,
        b.x,
        b.y + dy,
        b.ha,
        b.va,
        b.size,
        b.bold,
        b.x0,
        b.y0 + dy,
        b.x1,
        b.y1 + dy,
        b.rotation,
        b.color,
    )
