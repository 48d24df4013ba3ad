"""What the three figures share: turning input into a result, measuring text, making the canvas."""

from __future__ import annotations

import dataclasses
import functools
import math
import os
import warnings
from collections.abc import Mapping

import matplotlib as mpl

from .._options import check_bool
from ..errors import CdplotError, CdplotWarning, FigureSizeWarning, Phrase, opt
from ..stats._formatting import format_p
from ._auto import as_result  # with the compare_kws checks, which need no matplotlib
from ._fontembed import keep_fonts_on_savefig
from ._fonts import (
    bold_kws,
    check_font,
    face_files,
    fallback_families,
    font_family,
    font_files,
    font_rc,
    left_to_right,
    prepare_text,
    register_fonts,
    regular_kws,
    rtl_characters,
    shapes_right_to_left,
)
from ._layout import LINE_SPACING
from ._notebook import new_figure
from ._styles import PALETTE, get_style

__all__ = [
    "as_result",
    "check_common",
    "measurer",
    "canvas",
    "text_kws",
    "add_line",
    "add_text",
    "add_rect",
    "add_polygons",
    "caption_text",
    "check_width",
    "warn_unfit",
]

# Keys of label_kws that set the names' size: the layout starts from it (see check_common).
_NAME_SIZE_KEYS = ("fontsize", "size")
# Keys that would change the face or place of names after they were measured.
_SIZE_KEYS = {
    "fontfamily",
    "family",
    "fontweight",
    "weight",
    "fontname",
    "fontproperties",
    "font",
    "font_properties",
    "fontstretch",
    "stretch",
    "rotation",
    "math_fontfamily",
    "linespacing",
    "usetex",
    "parse_math",
    "ha",
    "va",
    "horizontalalignment",
    "verticalalignment",
    "x",
    "y",
    "s",
    "text",
}


def refuse_supplied_without_cd(result, alternatives: str) -> None:
    """A rank-interval chart of a post-hoc test the user supplied: it has no CD to draw."""
    if getattr(result, "supplied", False):
        raise CdplotError(
            f"a rank-interval chart needs a critical difference, which the {result.procedure()} "
            f"does not give; draw {alternatives}"
        )


def check_width(width, ax) -> float | None:
    """The ``width`` option in points (``None`` for the style's)."""
    if width is None:
        return None
    if ax is not None:
        raise CdplotError(
            f"option {opt('width', width)} cannot be used with {opt('ax')}; the figure takes the "
            "Axes' width",
            option="width",
        )
    if isinstance(width, bool) or not isinstance(width, (int, float)) or not 1.0 <= width <= 50:
        raise CdplotError(
            f"option {opt('width', width)} must be a number of inches in [1, 50]", option="width"
        )
    return float(width) * 72.0


# what to use instead when a style cannot hold a figure legibly
# (Phrases: written when a message is, with the command's flags on the command line)
ALTERNATIVES = {
    "paper": Phrase("use ", opt("style", "paper-wide")),
    "paper-wide": "show fewer methods (or shorter names) per figure",
    "slides": Phrase(
        "use ", opt("style", "paper-wide"), " for a handout, or show fewer methods per slide"
    ),
    # a width was given (the figure functions look up "" then)
    "": Phrase("use a wider ", opt("width"), " or fewer methods"),
}


def warn_unfit(
    what: str,
    lay_need,
    *,
    style,
    ax,
    width_pt,
    alternative: str | Phrase,
    squeezed: str = "its rank axis is",
    stacklevel: int = 3,
) -> None:
    """Say, as a CdplotWarning, that a figure could not be made legible in its room.

    ``squeezed`` names what the figure gives up to fit its width (a heatmap has no
    rank axis: its cells shrink).  ``stacklevel`` is :func:`warnings.warn`'s: the
    default names the line that called the figure function calling this; a figure's
    private helper passes one more per frame.
    """
    need_w, need_h = (v / 72.0 for v in lay_need)
    if ax is not None:
        room_w, room_h = (v / 72.0 for v in room_size(ax))
        msg = (
            f"{what} does not fit the given Axes ({room_w:.2f} x {room_h:.2f}"
            f" in, with the room of its tick labels) with text of at least "
            f"{style.min_font_size:g} pt; it needs about "
            f"{need_w:.2f} x {need_h:.2f} in: enlarge the figure or the Axes (text may overlap)"
        )
    elif style.height is not None:
        msg = (
            f"{what} needs a {need_w:.1f} x {need_h:.1f} in slide to keep its text at "
            f"{style.min_font_size:g} pt; on a 13.3 in wide slide the text would be smaller: "
            f"{alternative}"
        )
    else:
        # the width as it was given, in inches (2, not 2.0)
        inches = float(f"{width_pt / 72.0:g}") if width_pt else 0.0
        inches = int(inches) if inches.is_integer() else inches
        label = opt("width", inches) if width_pt else opt("style", style.name)
        msg = (
            f"{what} cannot be drawn legibly with {label} (it needs {need_w:.2f} in at "
            f"{style.min_font_size:g} pt, so {squeezed} squeezed): {alternative}"
        )
    warnings.warn(msg, CdplotWarning, stacklevel=stacklevel)


# No figure is made larger than this (inches a side): beyond it a figure is no page or
# slide, and its canvas alone can take gigabytes (a 186 x 105 in heatmap at 100 dpi).
MAX_FIGURE_INCHES = 50.0


def check_size(
    what: str, width: float, height: float, *, style, ax, warned: bool, stacklevel: int = 3
) -> None:
    """Refuse a new figure too large to draw; warn when it is taller than its style allows.

    ``width`` and ``height`` are the laid-out size in points; ``warned``
    says a warning that the figure does not fit was given already (it names
    the size needed, so no second one is).  A chart drawn into a given Axes
    takes the Axes' size and is not checked here.  ``stacklevel`` as for
    :func:`warn_unfit`.
    """
    if ax is not None:
        return
    w_in, h_in = width / 72.0, height / 72.0
    if max(w_in, h_in) > MAX_FIGURE_INCHES:
        raise CdplotError(
            f"option {opt('style', style.name)}: {what} would need a {w_in:.1f} x {h_in:.1f} in "
            f"figure to keep its text at {style.min_font_size:g} pt, larger than the "
            f"{MAX_FIGURE_INCHES:g} in cdplot draws: "
            f"{ALTERNATIVES.get(style.name, 'show fewer methods per figure')}",
            option="style",
        )
    if not warned and style.max_height is not None and h_in > style.max_height + 1e-6:
        warnings.warn(
            f"{what} is {w_in:.2f} x {h_in:.2f} in, taller than the {style.max_height:g} in "
            f"{opt('style', style.name)} allows on a page: "
            f"{ALTERNATIVES.get(style.name, 'show fewer methods per figure')}",
            FigureSizeWarning,
            stacklevel=stacklevel,
        )


def _clear_measure_caches() -> None:
    for cached in (
        _font_files,
        _em_widths,
        _em_sum,
        _measure_for,
        _line_metrics,
        _metric_face,
        face_files,
    ):
        cached.cache_clear()


def _check_glyphs(names, font) -> None:
    """Warn about names no font can draw, and right-to-left names drawn unshaped."""
    before = fallback_families()
    missing = prepare_text(names, font)
    if fallback_families() != before:
        # a machine font joined the fallbacks: glyph widths measured so far may be wrong
        _clear_measure_caches()
    if missing:
        chars = "".join(missing[:12]) + ("\u2026" if len(missing) > 12 else "")
        warnings.warn(
            f"method names contain {len(missing)} characters that neither {opt('font', font)} nor "
            f"any font on this machine has ({chars}); they would be drawn as empty boxes: install "
            "a font that has them (Debian: fonts-noto-cjk for Chinese, Japanese and Korean, "
            f"fonts-symbola for emoji) or pass {opt('font', '/path/to/font.ttf')}",
            CdplotWarning,
            stacklevel=4,
        )
    rtl = rtl_characters(names)
    if rtl and not shapes_right_to_left():
        import matplotlib

        warnings.warn(
            f"method names contain right-to-left text ({''.join(rtl[:8])}); matplotlib "
            f"{matplotlib.__version__} draws it left to right without shaping (Arabic letters "
            "unjoined): upgrade to matplotlib 3.11 or later, which shapes it, or transliterate "
            "the names",
            CdplotWarning,
            stacklevel=4,
        )


def check_common(result, *, ax, reverse, style, font, highlight, label_kws, line_kws, many=False):
    """Validate the drawing options shared by the figures; return (style, font, highlight index).

    With ``many`` (a CD diagram), ``highlight`` may also be a list or a mapping
    (see :func:`highlight_groups`); the index returned is then ``None``.
    """
    check_bool("reverse", reverse)
    st = get_style(style)
    font = check_font(font)
    if ax is not None:
        from matplotlib.axes import Axes

        if not isinstance(ax, Axes):
            raise CdplotError(f"option {opt('ax', ax)} is not a matplotlib Axes", option="ax")
        st = axes_style(st)
    _check_glyphs(result.methods, font)
    hl = None
    if highlight is not None and not isinstance(highlight, str):
        if not many:
            raise CdplotError(
                f"option {opt('highlight', highlight)} must name one method here; several (a list "
                "or a mapping to colours or groups) are drawn by cd_diagram"
            )
        highlight_groups(result, highlight)  # validated here, applied by the diagram
    elif highlight is not None:
        if highlight not in result.methods:
            raise CdplotError(
                f"option {opt('highlight', highlight)} is not a method; methods are "
                f"{', '.join(result.methods)}",
                option="highlight",
            )
        if result.control is not None and highlight != result.control:
            # only the pairs with the control were tested: nothing about this method's
            # relation to the others is known, so a figure centred on it would mislead
            raise CdplotError(
                f"option {opt('highlight', highlight)} is not the control {result.control!r} of "
                f"this {result.procedure()}, which tested only pairs with the control; highlight "
                "the control or compare without a control",
                option="highlight",
            )
        hl = result.methods.index(highlight)
    for name, kws in (("label_kws", label_kws), ("line_kws", line_kws)):
        if kws is not None and not isinstance(kws, dict):
            raise CdplotError(f"option {opt(name, kws)} must be a dict or None", option=name)
    for key in label_kws or {}:
        if key in _SIZE_KEYS:
            raise CdplotError(
                f"option label_kws={{{key!r}: ...}} would change the font or place of names, "
                f"which the layout measured; use {opt('style')} and {opt('font')} instead",
                option="style",
            )
    return _with_name_size(st, label_kws or {}), font, hl


# colours of highlighted groups, in order of first appearance: Okabe-Ito's blue,
# vermillion (darkened as PALETTE's accent2), bluish green, reddish purple, orange and sky
# blue, darkened where needed to 3:1 on white (lines, not text)
GROUP_COLOURS = ("#0072B2", "#B34F00", "#007A5A", "#AA4F86", "#A86800", "#3A89B8")


def highlight_groups(result, highlight) -> tuple[dict, list]:
    """``({method index: colour}, [(group, colour), ...])`` of a list or mapping ``highlight``.

    A list emphasises each method alike (in the accent colour), with no
    legend.  A mapping whose values are all matplotlib colours draws each
    method in its colour, with no legend; otherwise its values are group
    labels ("ours", "baselines"), each drawn in a colour of its own and named
    in a legend.
    """
    from matplotlib.colors import is_color_like

    names = list(result.methods)
    if isinstance(highlight, Mapping):
        chosen = list(highlight)
        values = list(highlight.values())
    elif isinstance(highlight, (list, tuple)):
        chosen, values = list(highlight), None
    else:
        raise CdplotError(
            f"option {opt('highlight', highlight)} must be a method name, a list of them or a "
            "mapping of method to colour or group"
        )
    if not chosen:
        raise CdplotError("option highlight= is empty; give a method name or leave it out")
    for m in chosen:
        if not isinstance(m, str) or m not in names:
            raise CdplotError(
                f"option highlight names {m!r}, which is not a method; methods are "
                f"{', '.join(names)}"
            )
    if len(set(chosen)) != len(chosen):
        raise CdplotError(f"option {opt('highlight', highlight)} names a method twice")
    if result.control is not None:
        raise CdplotError(
            f"option {opt('highlight', highlight)} names several methods, but this "
            f"{result.procedure()} tested only pairs with the control {result.control!r}; "
            "highlight the control or compare without a control"
        )
    if values is None:
        return {names.index(m): PALETTE["accent"] for m in chosen}, []
    for v in values:
        if not isinstance(v, str) or not v.strip():
            raise CdplotError(
                f"option {opt('highlight', highlight)}: {v!r} is neither a colour nor a group name"
            )
    if all(is_color_like(v) for v in values):
        return {names.index(m): v for m, v in zip(chosen, values, strict=True)}, []
    groups = list(dict.fromkeys(values))
    if len(groups) > len(GROUP_COLOURS):
        raise CdplotError(
            f"option highlight= has {len(groups)} groups, more than the "
            f"{len(GROUP_COLOURS)} colours that stay apart; merge groups or give colours"
        )
    colour = dict(zip(groups, GROUP_COLOURS, strict=False))
    return (
        {names.index(m): colour[v] for m, v in zip(chosen, values, strict=True)},
        [(g, colour[g]) for g in groups],
    )


def add_group_legend(ax, legend, font, size) -> None:
    """A legend of highlight groups above the chart, one row, its names as plain text.

    It lies above the figure's top edge: :func:`cdplot.save_figure` grows the
    saved area to hold it (as for a title).
    """
    from matplotlib.lines import Line2D

    handles = [Line2D([], [], color=c, lw=2.0, label=g) for g, c in legend]
    kws = text_kws(font, size)
    leg = ax.legend(
        handles=handles,
        loc="lower left",
        bbox_to_anchor=(0.0, 1.0),
        ncols=len(handles),
        frameon=False,
        fontsize=size,
        borderaxespad=0.2,
        handlelength=1.6,
        columnspacing=1.2,
    )
    leg.set_gid("cd-highlight-legend")
    for t in leg.get_texts():
        # group names are data: never mathtext, in the chart's own font
        t.set(parse_math=False, fontfamily=kws["fontfamily"], color=kws["color"])


def _with_name_size(st, label_kws: dict):
    """``st`` whose names start at ``label_kws['fontsize']`` (or ``'size'``), if given.

    The layout measures names at that size and shrinks them only when they do
    not fit the width (as it does from the style's own size); small text keeps
    its size.  Sizes below the style's minimum are refused: no text is
    smaller than it.
    """
    keys = [k for k in _NAME_SIZE_KEYS if k in label_kws]
    if not keys:
        return st
    if len(keys) > 1:
        raise CdplotError("option label_kws gives both 'fontsize' and 'size'; give one")
    value = label_kws[keys[0]]
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise CdplotError(
            f"option label_kws={{{keys[0]!r}: {value!r}}} is not a size; give points (14) "
            "or a matplotlib size name ('large')"
        )
    from matplotlib.font_manager import FontProperties

    try:
        size = float(FontProperties(size=value).get_size_in_points())
    except ValueError:
        raise CdplotError(
            f"option label_kws={{{keys[0]!r}: {value!r}}} is not a size; give points (14) "
            "or a matplotlib size name ('large')"
        ) from None
    if not math.isfinite(size) or not st.min_font_size <= size <= MAX_NAME_SIZE:
        raise CdplotError(
            f"option label_kws={{{keys[0]!r}: {value!r}}} is outside "
            f"{st.min_font_size:g} to {MAX_NAME_SIZE:g} pt (the {st.name} style's smallest "
            "type to the largest)"
        )
    return dataclasses.replace(st, font_size=round(size, 2))


# names larger than this are a mistake (a size meant in pixels or percent)
MAX_NAME_SIZE = 72.0


def drawn_label_kws(label_kws) -> dict:
    """``label_kws`` without the name size, which the layout has applied (and may have
    shrunk to fit): passing it on would undo the shrinking."""
    return {k: v for k, v in (label_kws or {}).items() if k not in _NAME_SIZE_KEYS}


def axes_style(st):
    """The style of a chart drawn into a given Axes: the surrounding figure's type size.

    Names start at matplotlib's tick-label size (``xtick.labelsize``, 10 pt by
    default) and the small text in the style's proportion, so that the chart
    reads like the figure around it; both shrink to fit down to the
    style's minimum (6 pt).  Slides keep their own sizes.
    """
    if st.name == "slides":
        return st
    from matplotlib.font_manager import FontProperties

    size = FontProperties(size=mpl.rcParams["xtick.labelsize"]).get_size_in_points()
    size = round(max(float(size), st.min_font_size), 2)
    small = round(max(size * st.small_size / st.font_size, st.min_font_size), 2)
    return dataclasses.replace(st, font_size=size, small_size=small)


@functools.lru_cache(maxsize=8)
def _font_files(font: str, bold: bool) -> tuple[str, ...]:
    """The font's file and its fallbacks' (DejaVu Sans, then machine fonts found for
    other scripts) for a font option and weight, in the order matplotlib uses them."""
    from matplotlib.font_manager import FontProperties, findfont

    primary = font_files(font)[1][1 if bold else 0]
    weight = "bold" if bold else "normal"
    return (
        primary,
        *(findfont(FontProperties(family=f, weight=weight)) for f in fallback_families()),
    )


@functools.lru_cache(maxsize=8)
def _em_widths(font: str, bold: bool):
    """``em(ch)``: the advance width of one character in ems, and its cache.

    The advance is read unscaled from FreeType (the font's ``hmtx`` entry
    for the glyph its cmap gives), through the same cached ``FT2Font``
    objects matplotlib draws with; this is what fontTools reported, without
    importing it or decoding whole cmap tables in Python (~70 ms per
    process).
    """
    from matplotlib.font_manager import get_font
    from matplotlib.ft2font import LoadFlags

    flags = LoadFlags.NO_SCALE | LoadFlags.NO_HINTING
    faces = [get_font(path) for path in _font_files(font, bold)]
    cache: dict[str, float] = {}

    def em(ch: str) -> float:
        w = cache.get(ch)
        if w is None:
            w = 1.0  # a glyph no bundled font has (CJK): a full em
            for face in faces:
                glyph = face.get_char_index(ord(ch))
                if glyph:
                    w = face.load_glyph(glyph, flags).horiAdvance / face.units_per_EM
                    # load_glyph keeps the glyph in the face's list; leave the
                    # shared face as clean as matplotlib expects it
                    face.clear()
                    break
            cache[ch] = w
        return w

    return em


def _forget_faces() -> None:
    # A FreeType face reads its file through a descriptor whose offset forked
    # processes share: two children loading glyphs from inherited faces at once read
    # each other's positions ("Could not load glyph").  matplotlib clears its own face
    # cache in a forked child (get_font); the faces held by _em_widths and _metric_face
    # go the same way, so every child (a user's multiprocessing pool with the fork start
    # method, the bounded child of a user template) opens its own.
    _em_widths.cache_clear()
    _metric_face.cache_clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_faces)


@functools.lru_cache(maxsize=16384)
def _em_sum(font: str, text: str, bold: bool) -> float:
    # one sum per string, shared by every size the layout tries
    em = _em_widths(font, bold)
    return sum(em(ch) for ch in text)


@functools.lru_cache(maxsize=8)
def _metric_face(font: str, bold: bool):
    """The FreeType face (with its fallbacks) that matplotlib sets text of a weight in.

    The files are the ones matplotlib's text drawing finds for the families
    :func:`text_kws` names, with the same weight and stretch, in order.
    """
    from matplotlib.font_manager import get_font

    bold_w = bold_kws(font)
    weight = bold_w["fontweight"] if bold else "normal"
    stretch = bold_w.get("fontstretch", "normal") if bold else "normal"
    return get_font(list(face_files(tuple(font_family(font)), weight, stretch)))


@functools.lru_cache(maxsize=256)
def _line_metrics(font: str, size: float, bold: bool) -> tuple[float, float]:
    # Heights and descents are vertical, so they depend on the face, size
    # and hinting only (hinting_factor and kerning_factor act horizontally):
    # one measurement per size and process is exact.  It is what Agg's
    # get_text_width_height_descent does at 72 dpi, unhinted; asking the renderer
    # looked the fonts up again for every size (findfont's cache key holds the size),
    # about 3 ms per size, and a 100-method diagram tries a dozen sizes.
    from matplotlib.ft2font import LoadFlags

    face = _metric_face(font, bold)
    face.clear()
    face.set_size(size, 72)
    face.set_text("lp", 0.0, flags=LoadFlags.NO_HINTING)
    _w, h = face.get_width_height()
    return h / 64.0, face.get_descent() / 64.0


@functools.lru_cache(maxsize=4)
def _measure_for(font: str):
    @functools.lru_cache(maxsize=16384)
    def measure(text: str, size: float, is_bold: bool = False):
        h, d = _line_metrics(font, size, is_bold)
        return size * _em_sum(font, text, is_bold), h, d

    return measure


def measurer(font):
    """``measure(text, size, bold) -> (width, height, descent)`` in points, with the bundled font.

    Widths add up the fonts' advance widths (unscaled, from their ``hmtx``
    tables, falling back to DejaVu Sans glyph by glyph as matplotlib does);
    kerning, which only ever narrows text, is left out, so widths err on
    the wide side.  This is exact for unhinted output and takes
    microseconds, where asking matplotlib's renderer costs about a
    millisecond per string.  Heights come from the renderer, once per size.
    The function and its caches are shared by every figure of a process,
    because the layout measures the same names at several sizes and the
    next figure usually shows the same names again.
    """
    register_fonts()
    return _measure_for(check_font(font))


def text_kws(font, size, bold=False, color="ink") -> dict:
    """Keyword arguments of ``ax.text`` for one piece of cdplot text."""
    kws = {
        "fontsize": size,
        "fontfamily": font_family(font),
        "parse_math": False,
        "linespacing": LINE_SPACING,
        "color": PALETTE.get(color, color),
    }
    kws.update(bold_kws(font) if bold else regular_kws(font))
    return kws


def draw_axis(ax, polylines, broken: bool, *, color, width: float, gid: str) -> None:
    """Draw a rank axis and its break mark (``polylines`` from ``layout.axis_polylines``).

    The artists get the stable ids ``{gid}-axis`` and ``{gid}-axis-break``; a
    broken axis ends flat where the break mark takes over.
    """
    (axx, axy), (mx, my) = polylines
    add_line(
        ax,
        axx,
        axy,
        color=color,
        lw=width,
        solid_capstyle="butt" if broken else "projecting",
        gid=f"{gid}-axis",
        clip_on=False,
    )
    if mx:
        add_line(ax, mx, my, color=color, lw=width * 0.8, gid=f"{gid}-axis-break", clip_on=False)


def add_line(ax, xs, ys, marker=None, **kws):
    """Add one :class:`~matplotlib.lines.Line2D` to ``ax`` and return it.

    The line is the one ``ax.plot(xs, ys, **kws)`` adds (``marker='o'``
    standing for the format string ``'o'``), for about half the time:
    ``plot`` also parses format strings, draws colours from the property
    cycle and asks for the view to be rescaled on every call, none of which
    changes a line whose colour is given in an Axes whose limits are fixed,
    and a 50-method diagram adds 70 lines.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        The Axes, with its limits set already.
    xs, ys : sequence of float or None
        Vertices; ``None`` breaks the line, as in ``ax.plot``.
    marker : str, optional
        Draw only this marker at each vertex, no line.
    **kws
        :class:`~matplotlib.lines.Line2D` properties; aliases (``lw``,
        ``ms``) are accepted and conflicting ones rejected, as by ``plot``.

    Returns
    -------
    matplotlib.lines.Line2D
    """
    import numpy as np
    from matplotlib import cbook
    from matplotlib.lines import Line2D

    kws = cbook.normalize_kwargs(kws, Line2D)
    if marker is not None:
        kws = {"linestyle": "None", "marker": marker, **kws}
    # np.atleast_1d is how plot turns the lists into data (None -> object arrays)
    return ax.add_line(Line2D(np.atleast_1d(xs), np.atleast_1d(ys), **kws))


def add_text(ax, x, y, text, **kws):
    """Add one piece of laid-out text to ``ax`` (data coordinates) and return it.

    As ``ax.text(x, y, text, clip_on=False, **kws)``, but the artist is a
    :class:`~cdplot.plot._text.LayoutText`, which matplotlib measures and
    draws unhinted wherever the figure is drawn, as the layout measured it.
    """
    # matplotlib.text is imported with the drawing, not with this module: the TikZ
    # writer shares this module and never draws
    from ._text import LayoutText

    # a line mixing a right-to-left name with Latin text reads left to right, as in the report
    text = left_to_right(text)
    t = LayoutText(x, y, text, transform=ax.transData, **{"clip_on": False, **kws})
    return ax.add_artist(t)


def add_rect(ax, x, y, width, height, *, facecolor, edgecolor="none", lw=1.0, **kws):
    """Add a rectangle (top-left corner ``x, y`` in data coordinates, points) to ``ax``.

    A :class:`~matplotlib.patches.Rectangle` patch.  ``kws``: ``alpha``,
    ``hatch``, ``zorder``, ``gid``, ``clip_on``.
    """
    from matplotlib.patches import Rectangle

    return ax.add_patch(
        Rectangle((x, y), width, height, facecolor=facecolor, edgecolor=edgecolor, lw=lw, **kws)
    )


def add_polygons(ax, polys, *, facecolors, edgecolors, linewidths, **kws):
    """Add closed polygons (lists of vertices) to ``ax`` as one collection.

    A :class:`~matplotlib.collections.PolyCollection`.  ``kws``: ``hatch``,
    ``gid``, ``clip_on``, ``zorder``.
    """
    from matplotlib.collections import PolyCollection

    return ax.add_collection(
        PolyCollection(
            polys, facecolors=facecolors, edgecolors=edgecolors, linewidths=linewidths, **kws
        )
    )


def _spec_room(spec, fig, top_free: bool) -> tuple[float, float, float, float]:
    """``(x0, y0, x1, y1)`` (figure fraction) of a grid cell with the room it may take.

    Left of a cell and below it lies the room matplotlib reserves for its
    Axes' tick labels (y labels on the left, x labels below): up to the
    neighbouring cell, or to the edge of the grid's area.  Right of it and
    above it lie the neighbours' labels, so only the grid's outer margins
    (and above, only when no title is set) are taken there.
    """
    gs = spec.get_gridspec()
    nrows, ncols = gs.get_geometry()
    bottoms, tops, lefts, rights = gs.get_grid_positions(fig)
    parent = getattr(gs, "_subplot_spec", None)  # a GridSpecFromSubplotSpec's cell
    outer = (0.0, 0.0, 1.0, 1.0) if parent is None else _spec_room(parent, fig, top_free)
    r0, r1 = spec.rowspan.start, spec.rowspan.stop - 1
    c0, c1 = spec.colspan.start, spec.colspan.stop - 1
    x0 = outer[0] if c0 == 0 else rights[c0 - 1]
    y0 = outer[1] if r1 == nrows - 1 else tops[r1 + 1]
    x1 = outer[2] if c1 == ncols - 1 else rights[c1]
    y1 = outer[3] if r0 == 0 and top_free else tops[r0]
    return x0, y0, x1, y1


def axes_room(ax) -> tuple[float, float, float, float]:
    """``(x0, y0, x1, y1)``, in figure fraction, of the room a figure drawn into ``ax`` takes.

    The Axes box, widened by the room matplotlib keeps around a grid cell for
    the tick labels, title and margins that a cdplot chart (whose axis is
    off) does not draw.  An Axes outside a grid, or in a figure whose layout
    engine moves Axes when drawn, keeps its box.
    """
    pos = ax.get_position()
    box = (pos.x0, pos.y0, pos.x1, pos.y1)
    spec = ax.get_subplotspec()
    fig = ax.figure
    if spec is None or fig.get_figure(root=True).get_layout_engine() is not None:
        return box
    titled = any(ax.get_title(loc=loc) for loc in ("left", "center", "right"))
    room = _spec_room(spec, fig, top_free=not titled)
    # never less than the Axes itself (an Axes moved by hand after it was made)
    return (
        min(room[0], box[0]),
        min(room[1], box[1]),
        max(room[2], box[2]),
        max(room[3], box[3]),
    )


def room_size(ax) -> tuple[float, float]:
    """(width, height) in points of :func:`axes_room`."""
    x0, y0, x1, y1 = axes_room(ax)
    bbox = ax.figure.bbox  # display pixels of the (sub)figure
    dpi = ax.figure.get_figure(root=True).dpi
    return (x1 - x0) * bbox.width / dpi * 72.0, (y1 - y0) * bbox.height / dpi * 72.0


class canvas:
    """Context manager: rcParams for the figure, and the Axes to draw into.

    With ``ax=None`` a new figure is made (through pyplot when the user has
    imported it, so that Jupyter shows it; otherwise as a bare Agg figure so
    the command line never loads pyplot or a GUI backend).  PNG, SVG and PDF
    are all written from that one figure by matplotlib's own backends.
    """

    def __init__(self, ax, font):
        self.ax = ax
        self.font = font
        self._rc = None

    def __enter__(self):
        register_fonts()
        # Only the keys cdplot sets are saved and put back.  mpl.rc_context
        # restores every rcParam on exit, the interactive flag and backend
        # included, which in a fresh Jupyter kernel undoes what the inline
        # backend set up while the first figure was made: no later figure
        # (the user's own included) would be shown.
        rc = font_rc(self.font)
        params = mpl.rcParams
        self._rc = {key: params[key] for key in rc}
        for key, value in rc.items():
            params[key] = value
        return self

    def __exit__(self, *exc):
        params = mpl.rcParams
        for key, value in self._rc.items():
            params[key] = value
        return False

    def available(self):
        """(width, height) in points of the given Axes' room, or (None, None) for a new figure."""
        if self.ax is None:
            return None, None
        return room_size(self.ax)

    def axes(self, width: float, height: float):
        """The Axes, with data coordinates in points from the top-left corner."""
        ax = self.ax
        if ax is None:
            # in a notebook kernel a pyplot figure is what the inline backend shows
            fig = new_figure((width / 72.0, height / 72.0))
            ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
            ax.set_xlim(0.0, width)
            ax.set_ylim(height, 0.0)
        else:
            # data coordinates: points from the top-left corner of the room, which may
            # reach past the Axes box (the content is drawn unclipped)
            rx0, ry0, rx1, ry1 = axes_room(ax)
            pos = ax.get_position()
            avail_w, avail_h = self.available()
            # centre the content vertically; one data unit stays one point unless the
            # content is larger than the room, which then squeezes it
            extra = max(avail_h - height, 0.0) / 2
            span_w, span_h = max(width, avail_w), max(height, avail_h)
            ax.set_xlim(
                (pos.x0 - rx0) / (rx1 - rx0) * span_w, (pos.x1 - rx0) / (rx1 - rx0) * span_w
            )
            ax.set_ylim(
                (ry1 - pos.y0) / (ry1 - ry0) * span_h - extra,
                (ry1 - pos.y1) / (ry1 - ry0) * span_h - extra,
            )
        ax.set_axis_off()
        # the user's own fig.savefig / plt.savefig must embed fonts as save_figure does
        keep_fonts_on_savefig(ax.figure)
        return ax


def caption_text(result, *, extra: str = "") -> str:
    """``'AUC: Nemenyi test, α = 0.05, N = 14 data sets, CD = 1.25 (Friedman p = 0.012)'``."""
    if getattr(result, "supplied", False):
        # a result that ran no Friedman test (a post-hoc test the user supplied) words its own
        return result.caption(extra=extra)
    parts = [result.procedure()[0].upper() + result.procedure()[1:]]
    nb = "\u00a0"  # no-break spaces keep each "name = value" on one line when wrapped
    parts.append(f"\u03b1{nb}={nb}{result.alpha:g}")
    parts.append(f"N{nb}={nb}{result.n_datasets} data sets")
    if result.critical_difference is not None:
        parts.append(f"CD{nb}={nb}{result.critical_difference:.2f}")
    text = ", ".join(parts)
    p = result.iman_davenport.pvalue
    verdict = "rejects" if result.rejected else "does not reject"
    p_text = format_p(p, digits=3, significant=True, prefix=True, space=nb)
    # the decision rests on Iman-Davenport's F_F, so name it beside its p-value
    text += f"; Friedman test (Iman\u2013Davenport F) {verdict} equal ranks ({p_text})"
    # the direction and why it was used (inferred, asked, declared or the default)
    direction = getattr(result, "direction_reason", None) or (
        "higher is better" if result.higher_is_better else "lower is better"
    )
    if result.metric:
        text = f"{result.metric} ({direction}). " + text
    else:
        text = f"{direction[0].upper()}{direction[1:]}. " + text
    if result.control is not None:
        # a test against a control says nothing about the other pairs
        text += f"; only pairs with the control {result.control} were tested"
    if extra:
        text += f". {extra}"
    return text + "."
