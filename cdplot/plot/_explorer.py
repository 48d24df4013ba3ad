"""An interactive view of a comparison of many methods: one self-contained HTML page.

From 50 methods on no static critical-difference diagram can show every
relation legibly.  :func:`cd_explorer` writes them all into a page that a
browser shows without a network: every method on a rank axis (inline SVG),
its groups, and, for the method under the pointer or tapped, which methods
differ from it significantly and which do not, with the adjusted p-values;
a search box, zoom, and a table sorted by rank.  A small inline script does
the highlighting; without it the page still shows the axis, the groups and
the table.

Nothing is recomputed: the page reads the result's ``pvalues``,
``significant``, ``direction`` and ``cliques``.  Names from the input are
data: escaped in the markup, and carried to the script in a JSON block in
which every ``<``, ``>`` and ``&`` is a ``\\u`` escape, so no name can end
the block or open a tag.  No matplotlib is needed.
"""

from __future__ import annotations

import html
import json
import math
import re
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .._atomic import atomic_write
from .._resources import templates_dir
from .._version import __version__
from ..errors import CdplotError, opt
from ..stats._formatting import format_p
from ._auto import as_result, unwrap_auto

if TYPE_CHECKING:
    import os

    from ._types import Kws, ResultLike

__all__ = ["cd_explorer", "explorer_fragment", "EXPLORER_MIN_METHODS"]

#: The HTML report adds the explorer to a comparison of at least this many methods.
EXPLORER_MIN_METHODS = 30

# geometry of the drawing, in CSS pixels at zoom 1
_FONT = 12.0  # type of names and values: above the 9 px a screen needs
_ROW = 18.0  # one method per row
_TOP = 58.0  # room for the axis, its ticks and the CD bracket
_PLOT = 440.0  # width of the rank axis
_LANE = 6.0  # one group per lane, side by side right of the axis
_STATUS = 215.0  # the verdict beside each row ("significantly better, p = 0.0010")
_MAX_LABEL = 330.0  # longer names are shortened in the drawing (whole in the table)
_PAD = 10.0


def _text_width(text: str) -> float:
    """Rough width in pixels of ``text`` at :data:`_FONT` in a sans-serif face.

    Only the drawing's label column depends on it: East Asian wide and full
    width characters take an em, others a little over half of one (Lato's
    and DejaVu Sans' mean advance).  A name that is wider than estimated
    reaches into the gap left of its row's guide line, never over the axis.
    """
    em = sum(1.0 if unicodedata.east_asian_width(c) in "WF" else 0.58 for c in text)
    return em * _FONT


def _shorten(text: str, room: float) -> str:
    """``text`` cut to fit ``room`` pixels with an ellipsis (the table shows it whole)."""
    if _text_width(text) <= room:
        return text
    out = ""
    for c in text:
        if _text_width(out + c + "\u2026") > room:
            break
        out += c
    return out.rstrip() + "\u2026"


def _json_for_script(value) -> str:
    """JSON that is safe inside ``<script type="application/json">``.

    ``<``, ``>`` and ``&`` only occur inside JSON strings, where their
    ``\\u`` escapes mean the same characters: ``</script>`` and ``<!--`` in a
    name can then neither end the block nor change how the HTML parser reads it.
    """
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _nice_step(span: float) -> float:
    """A tick step of 1, 2 or 5 times a power of ten giving at most about 12 ticks."""
    raw = max(span, 1e-9) / 12.0
    power = 10.0 ** math.floor(math.log10(raw))
    for m in (1.0, 2.0, 5.0, 10.0):
        if m * power >= raw:
            return max(m * power, 0.5) if span > 2 else m * power
    return 10.0 * power


def _lanes(spans: list[tuple[int, int]]) -> list[int]:
    """A lane for each row span, spans that share a row never in the same lane (greedy)."""
    ends: list[int] = []  # last row of the span occupying each lane
    lanes = []
    for first, last in spans:
        for lane, end in enumerate(ends):
            if end < first:
                ends[lane] = last
                lanes.append(lane)
                break
        else:
            ends.append(last)
            lanes.append(len(ends) - 1)
    return lanes


def _ranges(positions: list[int]) -> str:
    """``[1, 2, 3, 7]`` as ``'1\u20133, 7'``: a method's groups, short enough for a table cell."""
    out, i = [], 0
    while i < len(positions):
        j = i
        while j + 1 < len(positions) and positions[j + 1] == positions[j] + 1:
            j += 1
        out.append(f"{positions[i]}\u2013{positions[j]}" if j > i else str(positions[i]))
        i = j + 1
    return ", ".join(out)


@dataclass(frozen=True)
class _View:
    """What the page shows of a result: names, rank order, groups, and every pair's verdict."""

    methods: tuple[str, ...]
    ranks: tuple[float, ...]
    order: tuple[int, ...]  # column indices, best average rank first
    groups: tuple[tuple[int, ...], ...]  # member column indices of each clique, best first
    relation: tuple[str, ...]  # row i, char j: + better, - worse, = no difference, . untested
    pvalues: tuple[str, ...]  # formatted adjusted p-value of each pair i < j, row by row


def _relations(result) -> tuple[str, ...]:
    """Each method's verdict against every other, from ``significant`` and ``direction``."""
    sig = np.asarray(result.significant, dtype=bool)
    p = np.asarray(result.pvalues, dtype=float)
    k = sig.shape[0]
    direction = getattr(result, "direction", None)
    if direction is None:  # a compare_ranks result may lack it: the average ranks decide
        avg = np.asarray(result.average_ranks, dtype=float)
        direction = np.sign(avg[None, :] - avg[:, None])
    direction = np.asarray(direction)
    chars = np.full((k, k), "=", dtype="<U1")
    chars[np.isnan(p)] = "."
    chars[sig & (direction > 0)] = "+"
    chars[sig & (direction < 0)] = "-"
    chars[sig & (direction == 0)] = "!"  # significant with no side: said as "differs"
    np.fill_diagonal(chars, ".")
    return tuple("".join(row) for row in chars)


def _view(result) -> _View:
    methods = tuple(str(m) for m in result.methods)
    index = {m: i for i, m in enumerate(methods)}
    k = len(methods)
    p = np.asarray(result.pvalues, dtype=float)
    iu, ju = np.triu_indices(k, 1)
    return _View(
        methods=methods,
        ranks=tuple(float(r) for r in result.average_ranks),
        order=tuple(index[m] for m in result.order()),
        groups=tuple(tuple(index[m] for m in clique) for clique in result.cliques),
        relation=_relations(result),
        pvalues=tuple(format_p(float(v)) for v in p[iu, ju]),
    )


def _axis_svg(lo: float, hi: float, x, cd: float | None, height: float) -> list[str]:
    """The rank axis at the top: line, ticks, values, and the CD bracket if there is one."""
    y = _TOP - 8.0
    out = [
        f'<line class="axis" x1="{x(lo):.1f}" y1="{y}" x2="{x(hi):.1f}" y2="{y}"/>',
        f'<text class="axis-title" x="{x(lo):.1f}" y="14">average rank (1 = best)</text>',
    ]
    step = _nice_step(hi - lo)
    tick = math.ceil(lo / step) * step
    while tick <= hi + 1e-9:
        xt = x(tick)
        out.append(
            f'<line class="tick" x1="{xt:.1f}" y1="{y - 4}" x2="{xt:.1f}" y2="{height}"/>'
            f'<text class="tick-label" x="{xt:.1f}" y="{y - 7}">{tick:g}</text>'
        )
        tick += step
    if cd is not None and math.isfinite(cd) and cd > 0:
        x0, x1 = x(lo), x(min(lo + cd, hi))
        out.append(
            f'<path class="cd" d="M{x0:.1f} 24 v6 H{x1:.1f} v-6"/>'
            f'<text class="cd-label" x="{x1 + 4:.1f}" y="31">CD = {cd:.3f}</text>'
        )
    return out


def _rows_svg(view: _View, x, label_end: float, status_x: float, width: float) -> list[str]:
    """One ``<g>`` per method in rank order: name, guide line, dot and the verdict's text."""
    out = []
    room = label_end - _PAD
    for pos, i in enumerate(view.order):
        y = _TOP + pos * _ROW
        mid = y + _ROW / 2
        name = view.methods[i]
        title = f"{pos + 1}. {name}: average rank {view.ranks[i]:.3f}"
        xr = x(view.ranks[i])
        out.append(
            f'<g class="m" data-i="{i}" data-state="" tabindex="0" role="button">'
            f"<title>{html.escape(title)}</title>"
            f'<rect class="hit" x="0" y="{y:.1f}" width="{width:.1f}" height="{_ROW}"/>'
            f'<text class="name" x="{label_end - 6:.1f}" y="{mid + 4:.1f}">'
            f"{html.escape(_shorten(name, room))}</text>"
            f'<line class="guide" x1="{label_end:.1f}" y1="{mid:.1f}" x2="{xr:.1f}" '
            f'y2="{mid:.1f}"/>'
            f'<circle class="dot" cx="{xr:.1f}" cy="{mid:.1f}" r="4"/>'
            f'<text class="verdict" x="{status_x:.1f}" y="{mid + 4:.1f}"></text></g>'
        )
    return out


def _groups_svg(view: _View, lane_x0: float) -> tuple[list[str], int]:
    """One lane per group, right of the axis: a bar over its rows with a mark at each member."""
    row_of = {i: pos for pos, i in enumerate(view.order)}
    spans = [(min(row_of[i] for i in g), max(row_of[i] for i in g)) for g in view.groups]
    lanes = _lanes(spans)
    out = []
    for c, (group, (first, last), lane) in enumerate(zip(view.groups, spans, lanes, strict=True)):
        gx = lane_x0 + lane * _LANE
        y0, y1 = _TOP + first * _ROW + 3, _TOP + (last + 1) * _ROW - 3
        marks = "".join(
            f"M{gx - 2.5:.1f} {_TOP + row_of[i] * _ROW + _ROW / 2:.1f}h5" for i in group
        )
        out.append(
            f'<g class="group" data-c="{c}" data-member="">'
            f"<title>group {c + 1}: {len(group)} methods, none of which differ significantly"
            f"</title>"
            f'<line x1="{gx:.1f}" y1="{y0:.1f}" x2="{gx:.1f}" y2="{y1:.1f}"/>'
            f'<path d="{marks}"/></g>'
        )
    return out, (max(lanes) + 1 if lanes else 0)


def _svg(view: _View, cd: float | None) -> str:
    """The drawing: the rank axis, every method on it, and the groups beside it."""
    k = len(view.methods)
    label = min(_MAX_LABEL, max(_text_width(m) for m in view.methods)) + 2 * _PAD
    lo = math.floor(min(view.ranks))
    hi = max(math.ceil(max(view.ranks)), lo + 1)
    x0 = label + _PAD

    def x(r: float) -> float:
        return x0 + (r - lo) / (hi - lo) * _PLOT

    lane_x0 = x0 + _PLOT + 2 * _PAD
    groups, n_lanes = _groups_svg(view, lane_x0)
    status_x = lane_x0 + n_lanes * _LANE + _PAD
    width = status_x + _STATUS
    height = _TOP + k * _ROW + _PAD
    parts = [
        f'<svg class="cdx-svg" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} '
        f'{height:.0f}" width="{width:.0f}" height="{height:.0f}" data-width="{width:.0f}" '
        f'role="group" aria-label="average ranks of {k} methods and their groups">',
        *_axis_svg(lo, hi, x, cd, height - _PAD),
        *_rows_svg(view, x, label, status_x, width),
        *groups,
        "</svg>",
    ]
    return "\n".join(parts)


def _table(view: _View) -> str:
    """Every method in rank order with its groups; the script fills the verdict columns."""
    groups_of: dict[int, list[int]] = {}
    for c, group in enumerate(view.groups):
        for i in group:
            groups_of.setdefault(i, []).append(c + 1)
    rows = []
    for pos, i in enumerate(view.order, start=1):
        groups = _ranges(groups_of.get(i, [])) or "\u2013"
        rows.append(
            f'<tr data-i="{i}" data-state=""><td class="num">{pos}</td>'
            f"<td>{html.escape(view.methods[i])}</td>"
            f'<td class="num">{view.ranks[i]:.3f}</td>'
            f"<td>{groups}</td>"
            f'<td class="verdict"></td><td class="num p"></td></tr>'
        )
    return (
        '<table class="cdx-table"><thead><tr><th class="num">#</th><th>method</th>'
        '<th class="num">average rank</th><th>groups</th><th>against the selected method</th>'
        '<th class="num">adjusted p</th></tr></thead><tbody>\n'
        + "\n".join(rows)
        + "\n</tbody></table>"
    )


def _describe(result) -> str:
    """The direction, the test and what the colours mean, in words (HTML, escaped)."""
    esc = html.escape
    reason = getattr(result, "direction_reason", None) or (
        "higher is better" if result.higher_is_better else "lower is better"
    )
    cd = result.critical_difference
    test = f"{result.procedure()} at \u03b1 = {result.alpha:g}"
    if cd is not None:
        test += f", critical difference CD = {cd:.3f}"
    if result.all_pairs_tested:
        groups = (
            f"{len(result.cliques)} groups: each a run of methods, consecutive in rank order, "
            "no two of which differ significantly (the bars right of the axis)."
        )
    else:
        groups = (
            f"Only the comparisons with the control {esc(result.control)} were tested, so "
            "no groups are formed and other pairs show as not tested."
        )
    return (
        f"<p>{result.n_methods} methods on {result.n_datasets} data sets. Direction: "
        f"{esc(reason[:1].upper() + reason[1:])}; each data set ranks the methods, 1 = the "
        f"best, and the axis shows average ranks, best on the left. Test: {esc(test)}; "
        f"p-values are adjusted for multiple comparisons. {groups}</p>"
        "<p>Point at a method or tap it: its groups are marked and every other method is "
        'coloured <span class="key better">significantly better</span>, '
        '<span class="key worse">significantly worse</span> or '
        '<span class="key same">not significantly different</span>, with the adjusted '
        "p-value. A click or tap keeps the selection, and the address then links to it.</p>"
    )


def _asset(name: str) -> str:
    return (templates_dir() / name).read_text(encoding="utf-8")


_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")


def explorer_fragment(
    result, *, uid: str = "cdx", highlight: str | None = None, heading: str = ""
) -> str:
    """The explorer as an HTML fragment (its style, drawing, table, data and script).

    Parameters
    ----------
    result : ComparisonResult or RankComparison
        The analysis to show.
    uid : str, default 'cdx'
        Prefix of the element ids, unique in the page that holds the fragment.
    highlight : str, optional
        A method selected when the page opens (a ``#select=NAME`` address wins).
    heading : str, default ''
        Escaped HTML put before the description (the stand-alone page's title).

    Returns
    -------
    str
        The fragment; every name in it is escaped.
    """
    if not _ID.match(uid):
        raise CdplotError(f"option {opt('uid', uid)} must be letters, digits, '-' or '_'")
    view = _view(result)
    data = {
        "methods": list(view.methods),
        "ranks": [round(r, 6) for r in view.ranks],
        "order": list(view.order),
        "groups": [list(g) for g in view.groups],
        "relation": list(view.relation),
        "p": list(view.pvalues),
        "highlight": highlight,
        "procedure": result.procedure(),
    }
    controls = (
        f'<div class="cdx-controls"><label for="{uid}-search">Search</label> '
        f'<input id="{uid}-search" class="cdx-search" type="search" autocomplete="off" '
        'placeholder="part of a name; Enter selects">'
        '<span class="cdx-found" aria-live="polite"></span>'
        '<span class="cdx-zoom"><button type="button" data-zoom="out" aria-label="zoom out">'
        "\u2212</button>"
        '<button type="button" data-zoom="in" aria-label="zoom in">+</button>'
        '<button type="button" data-zoom="fit">fit width</button>'
        '<button type="button" data-zoom="one">100 %</button>'
        '<button type="button" data-zoom="clear">clear selection</button></span></div>'
    )
    return "\n".join(
        [
            f'<div class="cdx" id="{uid}">',
            f"<style>{_asset('explorer.css')}</style>",
            heading,
            _describe(result),
            controls,
            '<p class="cdx-summary" aria-live="polite">No method selected.</p>',
            f'<div class="cdx-box">{_svg(view, result.critical_difference)}</div>',
            f'<div class="cdx-table-box">{_table(view)}</div>',
            f'<script type="application/json" class="cdx-data">{_json_for_script(data)}</script>',
            f"<script>{_asset('explorer.js')}</script>",
            "</div>",
        ]
    )


def _check_highlight(result, highlight) -> None:
    if highlight is None:
        return
    if not isinstance(highlight, str) or highlight not in result.methods:
        raise CdplotError(
            f"option {opt('highlight', highlight)} is not one of the {len(result.methods)} "
            "methods of the result",
            option="highlight",
        )


def cd_explorer(
    result_or_scores: ResultLike,
    *,
    path: str | os.PathLike[str] | None = None,
    title: str | None = None,
    highlight: str | None = None,
    compare_kws: Kws = None,
) -> str:
    """An interactive, self-contained HTML page of a comparison of many methods.

    Every method sits on a rank axis with its groups beside it.  Pointing
    at a method (or tapping it) marks the groups it belongs to and colours
    every other method by whether it differs significantly from it, with
    the adjusted p-value; a search box finds methods, buttons (or Ctrl and
    the mouse wheel) zoom, and a table lists the methods by rank.  The
    address ``page.html#select=NAME`` opens the page with ``NAME`` selected,
    and a click keeps the selection in the address, so it can be shared.

    The page needs no network and loads nothing: its drawing is inline
    SVG, its script inline, its data a JSON block.  It is meant for the
    50 to a few hundred methods no static diagram can show legibly.

    Parameters
    ----------
    result_or_scores : ComparisonResult, AutoResult or scores
        A result of :func:`cdplot.compare` (or :func:`cdplot.compare_ranks`),
        or anything :func:`cdplot.compare` accepts, which is then compared
        with ``compare_kws``.
    path : str or Path, optional
        Also write the page to this file (atomically, UTF-8).
    title : str, optional
        The page's title; by default it names the number of methods.
    highlight : str, optional
        A method to select when the page opens.
    compare_kws : dict, optional
        Keyword arguments of :func:`cdplot.compare`, for raw scores only.

    Returns
    -------
    str
        The HTML document.

    Raises
    ------
    CdplotError
        For fewer than two methods, an unknown ``highlight``, options given
        with a result, or a :func:`cdplot.compare_auto` result that chose
        ANOVA (which has no ranks: draw its heatmap).

    Notes
    -----
    The page reads the result's adjusted p-values (``pvalues``), its
    verdicts (``significant``: for Nemenyi and Bonferroni-Dunn the
    critical difference decides), the side each pairwise test favours
    (``direction``) and its groups (``cliques``); it recomputes nothing.
    With a control only the pairs with it were tested: the others show as
    not tested, and there are no groups.  Names are escaped in the markup
    and reach the script as JSON in which ``<``, ``>`` and ``&`` are
    ``\\u`` escapes.

    Examples
    --------
    >>> import cdplot
    >>> page = cdplot.cd_explorer(cdplot.load_example("demsar2006"))
    >>> page.startswith("<!DOCTYPE html>")
    True
    >>> "C4.5+m+cf" in page
    True
    """
    result = as_result(unwrap_auto(result_or_scores, "cd_explorer"), compare_kws)
    if len(result.methods) < 2:
        raise CdplotError(
            f"the explorer needs at least 2 methods; the result has {len(result.methods)}"
        )
    _check_highlight(result, highlight)
    if title is not None and not isinstance(title, str):
        raise CdplotError(f"option {opt('title', title)} must be a string", option="title")
    name = title or f"Comparison of {result.n_methods} methods on {result.n_datasets} data sets"
    page = "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f'<meta name="generator" content="cdplot {__version__}">',
            f"<title>{html.escape(name)}</title>",
            "<style>body{margin:0;padding:1rem;font:15px/1.45 system-ui,sans-serif;"
            "color:#1d2430}</style></head><body>",
            explorer_fragment(result, highlight=highlight, heading=f"<h1>{html.escape(name)}</h1>"),
            "</body></html>",
            "",
        ]
    )
    if path is not None:
        with atomic_write(path, "w") as fh:
            fh.write(page)
    return page
