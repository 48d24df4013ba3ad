"""Fonts of saved figures: SVG text with its font subsets, TrueType in matplotlib's savefig.

Shared by :func:`cdplot.plot.save_figure` and the ``savefig`` that
every figure holding cdplot text gets (:func:`keep_fonts_on_savefig`).
This module imports nothing of cdplot's drawing, so the drawing modules can
use it without an import circle.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import io
import logging
from pathlib import Path

__all__ = ["keep_fonts_on_savefig", "font_face_css", "embed_fonts", "quiet_fonttools"]


_GENERIC = {"sans-serif", "sans", "serif", "monospace", "cursive", "fantasy"}


def _drawn_texts(artist):
    """The visible Text artists that drawing ``artist`` draws, depth first.

    Unlike ``Figure.findobj``, this leaves out what is not drawn: invisible
    artists with their children, and the axis of an Axes whose axis is off
    (``set_axis_off``), whose children matplotlib would otherwise make, tick
    by tick, only to be looked at here (a third of an SVG's saving time).
    """
    from matplotlib.axes import Axes
    from matplotlib.axis import Axis
    from matplotlib.text import Text

    todo = [artist]
    while todo:
        a = todo.pop()
        if not a.get_visible():
            continue
        if isinstance(a, Text):
            yield a
        children = a.get_children()
        if isinstance(a, Axes) and not a.axison:
            children = [c for c in children if not isinstance(c, Axis)]
        todo.extend(reversed(children))


def _figure_texts(fig):
    """``(text, families, weight, stretch)`` of every drawn text of a matplotlib figure."""
    for t in _drawn_texts(fig):
        prop = t.get_fontproperties()
        yield t.get_text(), tuple(prop.get_family()), prop.get_weight(), prop.get_stretch()


def _text_faces(texts) -> dict:
    """``{(file, css family, css weight): characters}`` for ``(text, families, weight,
    stretch)`` tuples: the drawn texts of a figure.

    Each character is assigned to the first font of its text's family list
    that has it, as matplotlib draws it.
    """
    from matplotlib.font_manager import FontProperties, findfont, get_font

    # a figure's texts share a few font settings: look each chain of files up once
    chains: dict[tuple, list[tuple[str, str]]] = {}
    faces: dict[str, object] = {}
    uses: dict[tuple[str, str, int], set[str]] = {}
    for text, families, weight, stretch in texts:
        if not text:
            continue
        css_weight = 700 if weight in ("bold", "heavy", "black", "extra bold") else 400
        if isinstance(weight, (int, float)):
            css_weight = int(weight)
        key = (families, weight, stretch)
        chain = chains.get(key)
        if chain is None:
            chain = []
            for family in key[0]:
                path = findfont(FontProperties(family=family, weight=weight, stretch=key[2]))
                if path not in faces:
                    faces[path] = get_font(path)
                name = faces[path].family_name if family in _GENERIC else family
                chain.append((path, name))
            chains[key] = chain
        for ch in set(text) - {"\n"}:
            for path, name in chain:
                if ch == " " or faces[path].get_char_index(ord(ch)):
                    uses.setdefault((path, name, css_weight), set()).add(ch)
                    break
    return uses


def font_face_css(fig) -> str:
    """``@font-face`` rules embedding the subset of each font that ``fig``'s text uses.

    Subsets keep the glyphs' outlines, advances and the legacy ``kern``
    table that FreeType (and so matplotlib) kerns with, and drop OpenType
    layout (ligatures, GPOS kerning) that a browser would apply and
    matplotlib does not, so that text runs as wide as matplotlib drew it.
    """
    return "\n".join(
        _font_face_rule(path, family, weight, "".join(sorted(chars)))
        for (path, family, weight), chars in sorted(_text_faces(_figure_texts(fig)).items())
    )


@functools.lru_cache(maxsize=64)
def _font_face_rule(path: str, family: str, weight: int, chars: str) -> str:
    """One ``@font-face`` rule: the subset of ``path`` for ``chars``, made once per process.

    Figures drawn one after another (a gallery, a notebook) usually show the
    same names in the same fonts.
    """
    data = _subset(path, chars)
    kind = "truetype" if data[:4] in (b"\x00\x01\x00\x00", b"true") else "opentype"
    b64 = base64.b64encode(data).decode("ascii")
    return (
        f"@font-face {{font-family: '{family}'; font-weight: {weight}; "
        f"src: url(data:font/{'ttf' if kind == 'truetype' else 'otf'};base64,{b64}) "
        f"format('{kind}')}}"
    )


def _subset(path: str, chars) -> bytes:
    """The font file at ``path`` cut down to ``chars``, with fontTools.

    Outlines (TrueType or CFF, the first face of a collection), advances
    and the legacy ``kern`` table are kept; OpenType layout and hinting are
    dropped.  No timestamp is recomputed, so the bytes depend only on the
    file and the characters.
    """
    from fontTools import subset
    from fontTools.ttLib import TTFont

    opts = subset.Options()
    opts.layout_features = []
    opts.drop_tables += ["GPOS", "GSUB", "GDEF", "BASE", "JSTF", "DSIG"]
    # FreeType, and so matplotlib, kerns with the legacy table: a browser given the subset
    # must too, so fontTools may not drop it for the GPOS kerning it would otherwise prefer
    opts.legacy_kern = True
    opts.hinting = False
    opts.name_IDs = [1, 2]
    opts.notdef_outline = True
    opts.recalc_timestamp = False
    with TTFont(path, fontNumber=0, recalcTimestamp=False, lazy=True) as font:
        sub = subset.Subsetter(opts)
        sub.populate(unicodes=sorted(ord(c) for c in chars))
        sub.subset(font)
        buf = io.BytesIO()
        font.save(buf)
    return buf.getvalue()


def embed_fonts(svg: bytes, css: str) -> bytes:
    """Put ``css`` in the SVG's first style element (matplotlib writes one in its defs)."""
    marker = b'<style type="text/css">'
    if not css or marker not in svg:
        return svg
    return svg.replace(marker, marker + css.encode("ascii") + b"\n", 1)


@contextlib.contextmanager
def quiet_fonttools():
    """fontTools' warnings about the bundled files silenced while fonts are subset.

    While the PDF's fonts are subset, fontTools warns about the bundled
    files themselves: CMU's private 'TeX ' table, which the subsetter rightly
    drops, and Lato's 'created' date, stored as a Unix time.  Neither is
    anything a user can act on, so they should not see them on every PDF.
    """
    loggers = [
        logging.getLogger(name)
        for name in ("fontTools.subset", "fontTools.ttLib.tables._h_e_a_d", "fontTools.ttLib")
    ]
    levels = [log.level for log in loggers]
    for log in loggers:
        log.setLevel(logging.ERROR)
    try:
        yield
    finally:
        for log, level in zip(loggers, levels, strict=True):
            log.setLevel(level)


# What a figure holding cdplot text needs from matplotlib's own savefig: TrueType (Type 42)
# fonts in PDF and PostScript, which IEEE's and ACM's checkers accept (matplotlib's default
# Type 3 they reject).  SVG keeps matplotlib's glyph outlines, exact in every viewer, as
# save_figure's default does; a user who sets svg.fonttype='none' gets the fonts embedded.
_SAVEFIG_RC = {"pdf.fonttype": 42, "ps.fonttype": 42}


def keep_fonts_on_savefig(fig) -> None:
    """Make ``fig.savefig`` (and ``plt.savefig`` of it) embed TrueType fonts.

    matplotlib reads ``pdf.fonttype`` when it finishes writing the file,
    after the figure is drawn, so no artist can choose it; and cdplot never
    changes the global rcParams a user's other figures use.  The one
    figure that holds cdplot text instead gets its own ``savefig`` (an
    instance attribute, per figure): matplotlib's, run with the settings of
    ``_SAVEFIG_RC`` that are still at matplotlib's defaults (a user's own
    setting wins), restored afterwards.  SVG text (``svg.fonttype='none'``,
    set by the user) gets the same embedded font subsets as
    ``save_figure(..., svg_text='text')`` writes.  ``del fig.savefig`` undoes it.
    """
    root = fig.get_figure(root=True) if hasattr(fig, "get_figure") else fig
    if "savefig" not in vars(root):
        root.savefig = functools.partial(_savefig, root)


def _savefig(fig, fname, **kwargs):
    """``Figure.savefig`` with TrueType fonts (see keep_fonts_on_savefig)."""
    import os

    import matplotlib as mpl

    params = mpl.rcParams
    rc = {key: v for key, v in _SAVEFIG_RC.items() if params[key] == mpl.rcParamsDefault[key]}
    old = {key: params[key] for key in rc}
    fmt = kwargs.get("format")
    if fmt is None and isinstance(fname, (str, os.PathLike)):
        fmt = Path(fname).suffix.lstrip(".").lower() or None
    fmt = (fmt or params["savefig.format"]).lower()
    # only the keys set here are put back (as canvas does): rc_context would restore all
    params.update(rc)
    try:
        with quiet_fonttools():
            if fmt != "svg" or params["svg.fonttype"] != "none":
                return type(fig).savefig(fig, fname, **kwargs)
            buf = io.BytesIO()
            type(fig).savefig(fig, buf, **{**kwargs, "format": "svg"})
            data = embed_fonts(buf.getvalue(), font_face_css(fig))
    finally:
        params.update(old)
    if isinstance(fname, (str, os.PathLike)):
        with open(fname, "wb") as fh:
            fh.write(data)
    else:
        try:
            fname.write(data)
        except TypeError:  # a text stream, as matplotlib's SVG writer also accepts
            fname.write(data.decode("utf-8"))
    return None
