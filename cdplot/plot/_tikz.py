"""Critical-difference diagrams as TikZ code, set by LaTeX in the paper's own font.

The positions come from :func:`cdplot.plot._layout.cd_layout`, the layout the
matplotlib diagram uses, with the same guarantees (bars stop short of every
outsider's line, crossings drawn with a gap and explained, control mode
without groups, tied methods side by side).  Only the text is LaTeX's: it
is measured with Computer Modern's widths (CMU Serif, the bundled serif
font) plus a margin for wider paper fonts, and every text is anchored at
the end that touches a line (names at their elbow, rank values beside
them), so a wider font grows away from the drawing, into room the layout
left for it.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from .._atomic import atomic_write
from .._docstrings import share
from .._options import check_bool
from .._version import __version__
from ..errors import CdplotError, opt
from . import _common
from ._auto import unwrap_auto
from ._critical_difference import cd_axis, marks, place_explained
from ._intervals import _interval_axis, _verdicts, shown_methods
from ._layout import cd_layout, interval_layout
from ._styles import PALETTE, get_style

if TYPE_CHECKING:
    import os
    from collections.abc import Sequence

    from .._options import Style
    from ._types import Highlight, Kws, ResultLike

__all__ = ["cd_tikz", "intervals_tikz", "latex_escape", "TEX_ROOM"]

# LaTeX sets the text in whatever font the paper uses, which cdplot cannot measure.
# The layout measures Computer Modern at its 10 pt design (CMU Serif has its metrics)
# and leaves this much more room.  At the sizes of figures Computer Modern uses its
# small optical sizes, which are wider: compiled by pdflatex with fix-cm and measured
# with pdftotext, "C4.5+cf" at 7.5 pt (cmr7) is 14 % wider than cmr10 scaled to 7.5 pt
# and "2.93" at 6.5 pt (cmr6) 23 %; with the layout's own 3 % (_SAFETY) this leaves
# 25.7 %.  Other paper fonts were not measured: Times is narrower than Computer Modern,
# a sans serif such as Helvetica may need more (anchors keep such text off the lines).
TEX_ROOM = 1.22

_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    # in LaTeX's default OT1 encoding these print as other characters
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
    # typographic characters cdplot itself writes (captions, notes, keys): commands,
    # so that pdflatex without extra Unicode set-up prints them
    "\u00a0": "~",
    "\u2026": r"\dots{}",
    "\u2020": r"\dag{}",
    "\u2192": r"\ensuremath{\rightarrow}",
    "\u2190": r"\ensuremath{\leftarrow}",
    "\u03b1": r"\ensuremath{\alpha}",
    "\u00d7": r"\ensuremath{\times}",
    "\u2212": r"\ensuremath{-}",
}
# Greek letters, common in names ("SVM (RBF; γ = scale)"), as the maths letters every
# engine has: pdflatex has no text Greek without extra packages
_GREEK = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "varepsilon",
    "zeta",
    "eta",
    "theta",
    "iota",
    "kappa",
    "lambda",
    "mu",
    "nu",
    "xi",
    "o",
    "pi",
    "rho",
    "varsigma",
    "sigma",
    "tau",
    "upsilon",
    "varphi",
    "chi",
    "psi",
    "omega",
]
for _n, _name in enumerate(_GREEK):
    if _name != "o":  # omicron looks like o
        _SPECIAL.setdefault(chr(0x3B1 + _n), rf"\ensuremath{{\{_name}}}")
for _ch, _name in zip(
    "ΓΔΘΛΞΠΣΥΦΨΩ",
    ["Gamma", "Delta", "Theta", "Lambda", "Xi", "Pi", "Sigma", "Upsilon", "Phi", "Psi", "Omega"],
    strict=True,
):
    _SPECIAL[_ch] = rf"\ensuremath{{\{_name}}}"
# bidirectional controls reorder the text around them invisibly, and pdflatex stops at
# them ("Unicode character U+202E not set up for use with LaTeX"); they print as the
# terminal shows them (cdplot.cli.terminal_safe): \u202e.  Also in reporting/_format.py.
BIDI_CONTROLS = "\u061c\u200e\u200f\u2028\u2029" + "".join(
    map(chr, [*range(0x202A, 0x202F), *range(0x2066, 0x206A)])
)
for _ch in BIDI_CONTROLS:
    _SPECIAL[_ch] = rf"\textbackslash{{}}u{ord(_ch):04x}"


def latex_escape(text: str) -> str:
    """``text`` as LaTeX that prints it: special characters escaped, other Unicode kept.

    The ten characters with a meaning in LaTeX (``& % $ # _ { } ~ ^ \\``)
    and ``< > |`` (other glyphs in LaTeX's default encoding) are escaped,
    ``--`` and ``---`` stay hyphens (no en or em dash ligature), and a few
    characters cdplot writes itself (no-break space, ellipsis, dagger,
    arrows, times) and Greek letters become commands (Greek as the maths
    letters every engine has); bidirectional controls (U+202E...), which
    pdflatex refuses, print as ``\u202e``; every other character is passed through as
    UTF-8, which LaTeX's ``inputenc`` (pdflatex) or the engine
    (LuaLaTeX, XeLaTeX) sets.

    Parameters
    ----------
    text : str
        Any text, such as a method name.

    Returns
    -------
    str

    Examples
    --------
    >>> from cdplot.plot._tikz import latex_escape
    >>> print(latex_escape("k-NN (50% of data) & C4.5_m"))
    k-NN (50\\% of data) \\& C4.5\\_m
    """
    out = []
    for i, ch in enumerate(text):
        out.append(_SPECIAL.get(ch, ch))
        if ch == "-" and text[i + 1 : i + 2] == "-":
            # "--" would be an en dash; a kern, unlike "{}", also parts them in LuaTeX
            out.append(r"\kern0pt ")
    return "".join(out)


def _tex_measure(measure):
    @functools.lru_cache(maxsize=16384)
    def tex(text, size, bold=False):
        w, h, d = measure(text, size, bold)
        return w * TEX_ROOM, h, d

    return tex


def _num(v: float) -> str:
    text = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


_COLORS = {
    "cdplotink": PALETTE["ink"],
    "cdplotline": PALETTE["line"],
    "cdplotmuted": PALETTE["muted"],
    "cdplotaccent": PALETTE["accent"],
    "cdplotaccenttwo": PALETTE["accent2"],
}
_ROLE_COLOR = {
    "ink": "cdplotink",
    "line": "cdplotline",
    "muted": "cdplotmuted",
    "accent": "cdplotaccent",
    "accent2": "cdplotaccenttwo",
}
_ANCHOR = {
    ("right", "center"): "east",
    ("left", "center"): "west",
    ("center", "center"): "center",
    ("right", "top"): "north east",
    ("left", "top"): "north west",
    ("center", "top"): "north",
    ("right", "bottom"): "south east",
    ("left", "bottom"): "south west",
    ("center", "bottom"): "south",
}


class _Picture:
    """The commands of one tikzpicture, in drawing order, in points (bp) with y down."""

    def __init__(self):
        self.lines: list[str] = []

    def path(self, xs, ys, *, color, width, cap="butt", join="miter", dash=None):
        parts, pen_down = [], False
        for x, y in zip(xs, ys, strict=True):
            if x is None:
                pen_down = False
                continue
            parts.append(("-- " if pen_down else "") + f"({_num(x)},{_num(y)})")
            pen_down = True
        opts = f"{color}, line width={_num(width)}bp, line cap={cap}, line join={join}"
        if dash:
            opts += f", {dash}"
        self.lines.append(rf"\draw[{opts}] {' '.join(parts)};")

    def dots(self, xs, ys, *, color, diameter, edge=None, edge_width=0.0):
        r = _num(diameter / 2)
        for x, y in zip(xs, ys, strict=True):
            if edge:
                self.lines.append(
                    rf"\filldraw[fill={color}, draw={edge}, line width={_num(edge_width)}bp] "
                    rf"({_num(x)},{_num(y)}) circle[radius={r}bp];"
                )
            else:
                self.lines.append(rf"\fill[{color}] ({_num(x)},{_num(y)}) circle[radius={r}bp];")

    def text(self, box, color, metrics):
        size = box.size
        lead = size * 1.2
        font = rf"\fontsize{{{_num(size)}bp}}{{{_num(lead)}bp}}\selectfont"
        if box.bold:
            font += r"\bfseries"
        lines = [latex_escape(t) for t in box.text.split("\n")]
        opts = [
            f"anchor={_ANCHOR[(box.ha, box.va)]}",
            "inner sep=0pt",
            "outer sep=0pt",
            f"text={color}",
            f"font={font}",
        ]
        if len(lines) > 1:
            opts.append(f"align={box.ha if box.ha != 'center' else 'center'}")
            # "\\{}": a second line starting with "[" or "*" is not an argument of \\
            body = r"\\{}".join(lines)
        else:
            # a fixed height and depth: names with and without descenders sit alike
            h, d = metrics(size, box.bold)
            opts += [f"text height={_num(h - d)}bp", f"text depth={_num(d)}bp"]
            body = lines[0]
        self.lines.append(rf"\node[{', '.join(opts)}] at ({_num(box.x)},{_num(box.y)}) {{{body}}};")


@share
def cd_tikz(
    result_or_scores: ResultLike,
    *,
    path: str | os.PathLike[str] | None = None,
    standalone: bool = False,
    reverse: bool = False,
    style: Style = "paper",
    highlight: Highlight = None,
    ranks: bool = True,
    caption: bool = True,
    note: bool = True,
    width: float | None = None,
    full_axis: bool | None = None,
    compare_kws: Kws = None,
) -> str:
    """A critical-difference diagram as a TikZ picture, its text set by LaTeX.

    The same diagram as :func:`cdplot.cd_diagram`, positioned by the same
    layout code, written as a ``tikzpicture`` whose names, ranks, notes
    and caption LaTeX sets in the paper's own font.  ``\\input`` it in a
    document that loads ``tikz``.

    Parameters
    ----------
    result_or_scores : ComparisonResult, AutoResult or scores
        A result of :func:`cdplot.compare`, or anything it accepts, which
        is then compared with ``compare_kws``.
    path : str or Path, optional
        Also write the code to this file (atomically).
    standalone : bool, default False
        Write a complete document (``article`` class, its page cut to the
        picture) that compiles on its own with pdflatex, LuaLaTeX or
        XeLaTeX, instead of a bare ``tikzpicture``.
    %(reverse)s
    style : {'paper', 'paper-wide', 'slides'}, default 'paper'
        Width and type sizes, as in :func:`cdplot.cd_diagram`; the picture
        is exactly the style's width (3.5 in, 7 in; slides 10 in).
    %(highlight)s
    ranks : bool, default True
        Print each method's average rank beside its name.
    caption : bool, default True
        Add a line with the test, alpha, N (and CD) under the diagram.
    note : bool, default True
        Say in words what the bars cannot show (as the figure does).
    width : float, optional
        Width in inches instead of the style's.
    full_axis : bool, optional
        Run the rank axis from 1 to k (as in :func:`cdplot.cd_diagram`).
    compare_kws : dict, optional
        Keyword arguments of :func:`cdplot.compare`, for raw scores only
        (as in :func:`cdplot.cd_diagram`).

    Returns
    -------
    str
        The TikZ code (or the complete document).

    Warns
    -----
    CdplotWarning
        When the diagram cannot be made legible in its width.

    Raises
    ------
    CdplotError
        For invalid options (with the option and value in the message).

    Notes
    -----
    Text widths are LaTeX's, which cdplot cannot know: the layout measures
    Computer Modern (the metrics of CMU Serif) and leaves 22 % more room
    (:data:`TEX_ROOM`), enough for Computer Modern's wider small optical
    sizes (cmr6, cmr7, as pdflatex sets them; measured), and for fonts no
    wider than those (other fonts were not measured); each text is
    anchored at its line's end (``anchor=east`` or ``west``), so a wider
    font grows away from the drawing.  Sizes are
    set with ``\\fontsize``: with Computer Modern in pdflatex load
    ``fix-cm`` (or ``lmodern``) to get them exactly rather than the nearest
    design size.  Method names are escaped for LaTeX
    (:func:`latex_escape`), Greek letters become LaTeX's maths letters,
    other Unicode is passed through as UTF-8 (for CJK names use LuaLaTeX
    or XeLaTeX with a font that has them).
    Colours are defined inside the picture (``cdplotink``, ``cdplotline``,
    ``cdplotaccent``...), so they clash with nothing in the preamble.

    Examples
    --------
    >>> import cdplot
    >>> tex = cdplot.cd_tikz(cdplot.load_example("demsar2006"))
    >>> tex.splitlines()[1]
    '\\\\begin{tikzpicture}[x=1bp, y=-1bp]'
    >>> r"{C4.5+m+cf}" in tex
    True
    """
    result_or_scores = unwrap_auto(result_or_scores, "cd_diagram")
    result = _common.as_result(
        result_or_scores,
        compare_kws,
    )
    for name, value in (
        ("standalone", standalone),
        ("reverse", reverse),
        ("ranks", ranks),
        ("caption", caption),
        ("note", note),
    ):
        check_bool(name, value)
    if full_axis is not None:
        check_bool("full_axis", full_axis)
    st = get_style(style)
    width_pt = _common.check_width(width, None)
    names = list(result.methods)
    k = len(names)
    if k < 2:
        raise CdplotError(f"a CD diagram needs at least 2 methods; the result has {k}")
    hl = _highlight_index(result, highlight)

    ctrl, bold, cliques, differ, labels, notes, cap = marks(result, hl, note=note, caption=caption)
    base = _common.measurer("serif")
    measure = _tex_measure(base)
    avg = [float(r) for r in result.average_ranks]

    def place(notes, start_size=None):
        return cd_layout(
            labels,
            avg,
            measure=measure,
            style=st,
            width=width_pt,
            reverse=reverse,
            cliques=cliques,
            cd=result.critical_difference,
            control=ctrl,
            bold=bold,
            show_ranks=ranks,
            notes=notes,
            caption=cap,
            full_axis=full_axis,
            start_size=start_size,
        )

    lay = place_explained(place, result, notes)
    if not lay.fits:
        _common.warn_unfit(
            f"a CD diagram of {k} methods",
            lay.extra["need"],
            style=st,
            ax=None,
            width_pt=width_pt,
            alternative=_common.ALTERNATIVES.get(
                st.name if width_pt is None else "", "use a wider width= or fewer methods"
            ),
        )

    def metrics(size, bold):
        _w, h, d = base("lp", size, bold)
        return h, d

    pic = _draw(lay, result, st, hl, ctrl, differ, metrics)
    return _finish(pic, lay, "Critical-difference diagram", standalone, path)


def _finish(pic, lay, what, standalone, path) -> str:
    """The picture's code (or a complete document), written to ``path`` when given."""
    body = "\n".join(
        [
            f"% {what} by cdplot {__version__}; "
            r"\input it in a document that loads tikz",
            r"\begin{tikzpicture}[x=1bp, y=-1bp]",
            *(
                rf"\definecolor{{{n}}}{{HTML}}{{{c.lstrip('#').upper()}}}"
                for n, c in _COLORS.items()
            ),
            # the picture is exactly the layout's size, whatever LaTeX's text extents
            rf"\useasboundingbox (0,0) rectangle ({_num(lay.width)},{_num(lay.height)});",
            *pic.lines,
            r"\end{tikzpicture}",
        ]
    )
    if standalone:
        body = _document(body, lay.width, lay.height)
    text = body + "\n"
    if path is not None:
        with atomic_write(Path(path), "w") as fh:
            fh.write(text)
    return text


def _document(picture: str, width: float, height: float) -> str:
    """A complete document whose one page is the picture.

    The ``standalone`` class would do this, but it is not part of TeX Live's
    base packages (Debian: texlive-latex-extra); the kernel's ``article``
    with its page set to the picture's size needs nothing beyond ``tikz``.
    """
    w, h = _num(width), _num(height)
    return "\n".join(
        [
            # fix-cm: Computer Modern at any size, not the nearest design size
            r"\RequirePackage{fix-cm}",
            r"\documentclass{article}",
            r"\usepackage{tikz}",
            rf"\paperwidth={w}bp \paperheight={h}bp",
            r"\textwidth=\paperwidth \textheight=\paperheight",
            r"\oddsidemargin=-1in \evensidemargin=-1in \topmargin=-1in",
            r"\headheight=0pt \headsep=0pt \footskip=0pt \topskip=0pt \parindent=0pt",
            r"\ifdefined\pdfpagewidth \pdfpagewidth=\paperwidth \pdfpageheight=\paperheight",
            r"\else \pagewidth=\paperwidth \pageheight=\paperheight \fi",
            r"\pagestyle{empty}",
            r"\begin{document}",
            r"\noindent",
            picture,
            r"\end{document}",
        ]
    )


def _highlight_index(result, highlight):
    if highlight is None:
        return None
    if isinstance(highlight, (list, tuple, Mapping)):
        raise CdplotError(
            f"option {opt('highlight', highlight)} names several methods; a TikZ picture "
            "highlights one (cd_diagram draws several as PNG, SVG or PDF)"
        )
    if not isinstance(highlight, str) or highlight not in result.methods:
        raise CdplotError(
            f"option {opt('highlight', highlight)} is not a method; methods are "
            f"{', '.join(result.methods)}",
            option="highlight",
        )
    if result.control is not None and highlight != result.control:
        raise CdplotError(
            f"option {opt('highlight', highlight)} is not the control {result.control!r} of this "
            f"{result.procedure()}, which tested only pairs with the control; highlight the "
            "control or compare without a control",
            option="highlight",
        )
    return result.methods.index(highlight)


def _draw(lay, result, st, hl, ctrl, differ, metrics) -> _Picture:
    """The same marks as :func:`cdplot.plot._critical_difference._draw`, as TikZ commands."""
    pic = _Picture()
    ink, line = "cdplotink", "cdplotline"
    lw = st.line_width
    y = lay.axis_y
    (axx, axy), (mx, my) = cd_axis(lay)
    pic.path(axx, axy, color=ink, width=st.axis_width, cap="butt" if lay.axis_break else "rect")
    if mx:
        pic.path(mx, my, color=ink, width=st.axis_width * 0.8)
    xs, ys = [], []
    for r in lay.major_ticks:
        xs += [lay.x(r), lay.x(r), None]
        ys += [y, y - lay.tick_length, None]
    if lay.half_ticks:
        for r in range(lay.rank_lo, lay.rank_hi):
            xs += [lay.x(r + 0.5), lay.x(r + 0.5), None]
            ys += [y, y - lay.tick_length * 0.55, None]
    pic.path(xs, ys, color=ink, width=st.axis_width * 0.8)

    cap = max(2.0, 0.9 * st.bar_width)
    line_x = {e.index: e.points[-2][0] for e in lay.elbows}
    for bar in lay.bars:
        if bar.role == "clique":
            pic.path([bar.x0, bar.x1], [bar.y, bar.y], color=ink, width=bar.width)
            for j in bar.crossed:
                wj = lw * (1.6 if j in (hl, ctrl) else 1.0)
                half = bar.width / 2 + 0.6
                pic.path(
                    [line_x[j], line_x[j]],
                    [bar.y - half, bar.y + half],
                    color="white",
                    width=wj + 2 * max(0.8, 0.5 * wj),
                )
        else:
            color = ink if bar.role == "cd" else "cdplotaccent"
            bx, by = [bar.x0, bar.x1, None], [bar.y, bar.y, None]
            if not bar.open_left:
                bx += [bar.x0, bar.x0, None]
                by += [bar.y - cap, bar.y + cap, None]
            if not bar.open_right:
                bx += [bar.x1, bar.x1, None]
                by += [bar.y - cap, bar.y + cap, None]
            pic.path(bx, by, color=color, width=st.bar_width * 0.55)
            if bar.role == "cd-interval":
                pic.dots(
                    [lay.x(result.average_ranks[ctrl])],
                    [bar.y],
                    color=color,
                    diameter=st.bar_width * 1.6,
                    edge="white",
                    edge_width=0.5,
                )
    for e in lay.elbows:
        i = e.index
        color = line
        if i in (hl, ctrl):
            color = "cdplotaccent"
        elif i in differ:
            color = "cdplotaccenttwo"
        pic.path(
            [p[0] for p in e.points],
            [p[1] for p in e.points],
            color=color,
            width=lw * (1.6 if i in (hl, ctrl) else 1.0),
        )
    pic.dots(
        [e.points[0][0] for e in lay.elbows],
        [y] * len(lay.elbows),
        color=ink,
        diameter=max(1.8, 0.45 * lay.font_size),
    )
    rows = {(e.points[-1][1], e.side): e.index for e in lay.elbows}
    for b in lay.boxes:
        color = b.color
        if b.role == "name":
            i = rows.get((b.y, "left" if b.ha == "right" else "right"))
            if i in differ:
                color = "accent2"
        pic.text(b, _ROLE_COLOR.get(color, "cdplotink"), metrics)
    return pic


@share
def intervals_tikz(
    result_or_scores: ResultLike,
    *,
    path: str | os.PathLike[str] | None = None,
    standalone: bool = False,
    reverse: bool = False,
    style: Style = "paper",
    highlight: Highlight = None,
    caption: bool = True,
    width: float | None = None,
    full_axis: bool | None = None,
    methods: Sequence[str] | None = None,
    compare_kws: Kws = None,
) -> str:
    """A rank-interval chart as a TikZ picture, its text set by LaTeX.

    The chart :func:`cdplot.rank_intervals` draws, placed by the same
    layout, with text measured and anchored as in :func:`cd_tikz`.

    Parameters
    ----------
    result_or_scores : ComparisonResult, AutoResult or scores
        A result of :func:`cdplot.compare` with a critical difference
        (Nemenyi or Bonferroni-Dunn), or anything compare accepts.
    path : str or Path, optional
        Also write the code to this file (atomically).
    standalone : bool, default False
        Write a complete document instead of a bare ``tikzpicture``.
    %(reverse)s
    style : {'paper', 'paper-wide', 'slides'}, default 'paper'
        Width and type sizes, as in :func:`cdplot.rank_intervals`.
    highlight : str, optional
        Name of a method whose interval is the reference (with a control,
        only the control may be highlighted; it is by default).
    caption : bool, default True
        Add the caption line and the legend of filled and open dots.
    width : float, optional
        Width in inches instead of the style's.
    full_axis : bool, optional
        Run the rank axis from 1 to k; by default, as in
        :func:`cdplot.rank_intervals`, from 10 methods on it spans only the
        ranks the segments cover, with a break mark.
    methods : sequence of str, optional
        Draw only these methods' rows, on the whole chart's axis (as in
        :func:`cdplot.rank_intervals`).
    compare_kws : dict, optional
        Keyword arguments of :func:`cdplot.compare`, for raw scores only
        (as in :func:`cdplot.cd_diagram`).

    Returns
    -------
    str
        The TikZ code (or the complete document).

    Warns
    -----
    CdplotWarning
        When the chart cannot be made legible in its width.

    Raises
    ------
    CdplotError
        For a test without a critical difference, or invalid options.

    Notes
    -----
    Text is measured and escaped as in :func:`cd_tikz` (see its Notes);
    names are anchored at their right end beside the chart (``anchor=east``).

    Examples
    --------
    >>> import cdplot
    >>> tex = cdplot.intervals_tikz(cdplot.load_example("demsar2006"), highlight="C4.5")
    >>> r"\\begin{tikzpicture}[x=1bp, y=-1bp]" in tex
    True
    """
    result_or_scores = unwrap_auto(result_or_scores, "rank_intervals")
    result = _common.as_result(
        result_or_scores,
        compare_kws,
    )
    for name, value in (("standalone", standalone), ("reverse", reverse), ("caption", caption)):
        check_bool(name, value)
    if full_axis is not None:
        check_bool("full_axis", full_axis)
    st = get_style(style)
    width_pt = _common.check_width(width, None)
    hl = _highlight_index(result, highlight)
    cd = result.critical_difference
    _common.refuse_supplied_without_cd(result, "cd_tikz")
    if cd is None:
        raise CdplotError(
            f"a rank-interval chart needs a critical difference, which {opt('test', result.test)} "
            f"does not have; use {opt('test', 'nemenyi')} or 'bonferroni-dunn', or cd_tikz",
            option="test",
        )
    names = list(result.methods)
    shown = shown_methods(methods, names)
    avg = [float(r) for r in result.average_ranks]
    ctrl = None if result.control is None else names.index(result.control)
    if ctrl is not None:
        hl = ctrl
    differ, legend = _verdicts(result, names, hl, ctrl)
    cap = _common.caption_text(result) if caption else None
    base = _common.measurer("serif")
    lay = interval_layout(
        names,
        avg,
        cd if ctrl is not None else cd / 2,
        measure=_tex_measure(base),
        style=st,
        width=width_pt,
        reverse=reverse,
        bold=[] if hl is None else [hl],
        caption=cap,
        legend=legend if caption else [],
        full_axis=full_axis,
        shown=shown,
    )
    if not lay.fits:
        _common.warn_unfit(
            f"a rank-interval chart of {len(names)} methods",
            lay.extra_need,
            style=st,
            ax=None,
            width_pt=width_pt,
            alternative=_common.ALTERNATIVES.get(
                st.name if width_pt is None else "", "use a wider width= or fewer methods"
            ),
        )

    def metrics(size, bold):
        _w, h, d = base("lp", size, bold)
        return h, d

    pic = _draw_intervals(lay, avg, cd, st, hl, differ, ctrl, metrics)
    return _finish(pic, lay, "Rank-interval chart", standalone, path)


def _draw_intervals(lay, avg, cd, st, hl, differ, control, metrics) -> _Picture:
    """The same marks as :func:`cdplot.plot._intervals._draw`, as TikZ commands."""
    pic = _Picture()
    top, bottom = lay.plot_top, lay.axis_y
    gx, gy = [], []
    for r in lay.ticks:
        gx += [lay.x(r), lay.x(r), None]
        gy += [top, bottom, None]
    faint = PALETTE["faint"].lstrip("#").upper()
    pic.lines.append(rf"\definecolor{{cdplotfaint}}{{HTML}}{{{faint}}}")
    pic.path(gx, gy, color="cdplotfaint", width=st.line_width * 0.8)
    half = cd if control is not None else cd / 2
    if hl is not None:
        xa, xb = sorted((lay.x(avg[hl] - half), lay.x(avg[hl] + half)))
        pic.lines.append(
            rf"\fill[cdplotaccent, fill opacity=0.08] ({_num(xa)},{_num(top)}) "
            rf"rectangle ({_num(xb)},{_num(bottom)});"
        )
    cap = max(1.8, 0.28 * lay.font_size)
    ms = max(2.5, 0.55 * lay.font_size)
    open_w = max(0.8, 0.6 * st.line_width)
    for i, y in lay.rows:
        if hl is None:
            color = "cdplotink"
        elif i == hl or i in differ:
            color = "cdplotaccent"
        else:
            color = "cdplotmuted"
        lw = st.line_width * (2.6 if i == hl else 1.7)
        if control is None or i == control:
            xa, xb = lay.x(avg[i] - half), lay.x(avg[i] + half)
            pic.path(
                [xa, xb, None, xa, xa, None, xb, xb],
                [y, y, None, y - cap, y + cap, None, y - cap, y + cap],
                color=color,
                width=lw,
            )
        filled = hl is None or i == hl or i in differ
        _dot(pic, lay.x(avg[i]), y, color, ms, filled, open_w)
    y = lay.axis_y
    (axx, axy), (mx, my) = _interval_axis(lay)
    pic.path(axx, axy, color="cdplotink", width=st.axis_width)
    if mx:
        pic.path(mx, my, color="cdplotink", width=st.axis_width * 0.8)
    tx, ty = [], []
    for r in lay.ticks:
        tx += [lay.x(r), lay.x(r), None]
        ty += [y, y + lay.tick_length, None]
    pic.path(tx, ty, color="cdplotink", width=st.axis_width * 0.8)
    side = max(2.0, 0.7 * lay.small_size)
    for b in lay.boxes:
        if b.role.startswith("legend:"):
            role = b.role.split(":", 1)[1]
            if b.y0 == min(c.y0 for c in lay.boxes if c.role == b.role):
                _dot(
                    pic,
                    b.x0 - 1.3 * b.size + side / 2,
                    b.y0 + (b.y1 - b.y0) / 2,
                    _ROLE_COLOR[role],
                    ms,
                    role == "accent",
                    open_w,
                )
        pic.text(b, _ROLE_COLOR.get(b.color, "cdplotink"), metrics)
    return pic


def _dot(pic, x, y, color, diameter, filled, open_width):
    """A filled dot with a thin white rim, or an open one drawn in ``color``."""
    if filled:
        pic.dots([x], [y], color=color, diameter=diameter, edge="white", edge_width=0.4)
    else:
        pic.dots([x], [y], color="white", diameter=diameter, edge=color, edge_width=open_width)
