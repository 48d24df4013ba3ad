"""``@font-face`` rules for the bundled fonts.

An HTML report carries its fonts inside (base64 ``data:`` URLs), so that it
looks the same on any machine and asks no server for anything.  A PDF
report names the font files by ``file:`` URL instead, which the restricted
fetcher (:mod:`cdplot.reporting._fetcher`) serves from the data folder;
WeasyPrint embeds the subset it uses in the PDF.
"""

from __future__ import annotations

import base64
import functools
from dataclasses import dataclass
from pathlib import Path

from .._resources import fonts_dir

__all__ = ["BundledFont", "bundled_fonts", "font_face_css", "subset_font", "SANS", "SERIF", "MONO"]

# the families the report's CSS asks for; each falls back to generic families
SANS = "Lato"
SERIF = "CMU Serif"
MONO = "DejaVu Sans Mono"

_SUFFIXES = (".ttf", ".otf")


@dataclass(frozen=True)
class BundledFont:
    """One bundled font file and the face it provides."""

    path: Path
    family: str
    weight: int
    style: str

    @property
    def mime(self) -> str:
        return "font/otf" if self.path.suffix.lower() == ".otf" else "font/ttf"


@functools.lru_cache(maxsize=1)
def bundled_fonts() -> tuple[BundledFont, ...]:
    """The fonts shipped in ``fonts/``, with the family and face each file declares."""
    from matplotlib import ft2font

    out = []
    folder = fonts_dir()
    if not folder.is_dir():
        return ()
    for path in sorted(p for p in folder.rglob("*") if p.suffix.lower() in _SUFFIXES):
        face = ft2font.FT2Font(str(path))
        style_name = face.style_name.lower()
        weight = 700 if "bold" in style_name else 400
        style = "italic" if ("italic" in style_name or "oblique" in style_name) else "normal"
        out.append(BundledFont(path=path, family=face.family_name, weight=weight, style=style))
    return tuple(out)


@functools.lru_cache(maxsize=8)
def _data_url(path: Path, mime: str) -> str:
    return f"data:{mime};base64," + base64.b64encode(path.read_bytes()).decode("ascii")


@functools.lru_cache(maxsize=32)
def subset_font(path: Path, text: str) -> tuple[bytes, str]:
    """``(data, format)``: the font at ``path`` cut down to the characters of ``text``.

    WOFF (zlib-compressed TrueType): WOFF2 would save another fifth of the
    size but its Brotli compression takes longer than the rest of an HTML
    report.  The PDF is not concerned: WeasyPrint embeds its own subsets,
    kerned and hinted.
    """
    import io
    import logging

    from fontTools import subset

    options = subset.Options()
    options.notdef_outline = True
    # no OpenType layout features (kerning, ligatures) and no hinting: subsetting Lato's
    # pair-kerning table alone takes three times as long as all the rest, longer than the
    # rest of the HTML report; browsers set the text unkerned, unhinted, and as legibly
    options.layout_features = []
    options.drop_tables += ["GSUB", "GPOS", "GDEF", "kern"]
    options.hinting = False
    log = logging.getLogger("fontTools")
    level = log.level
    # the old "created" date of a font header makes fontTools warn; the report is not the place
    log.setLevel(logging.ERROR)
    try:
        # closed at once: an open font file left to the garbage collector is a ResourceWarning
        with subset.load_font(str(path), options) as font:
            subsetter = subset.Subsetter(options)
            subsetter.populate(text=text)
            subsetter.subset(font)
            font.flavor = "woff"
            buf = io.BytesIO()
            font.save(buf)
        return buf.getvalue(), "woff"
    finally:
        log.setLevel(level)


def font_face_css(families, *, embed: bool, text: str | None = None) -> str:
    """``@font-face`` rules for the bundled faces of ``families``.

    Parameters
    ----------
    families : iterable of str
        Family names to declare; names not bundled are skipped (the CSS
        falls back to generic families for them).
    embed : bool
        Whether to embed the files as ``data:`` URLs (HTML) or point at
        them with ``file:`` URLs (PDF, through the restricted fetcher).
    text : str, optional
        Every character the document may show; embedded fonts are subset to
        these (WeasyPrint subsets a PDF's fonts itself).

    Returns
    -------
    str
        CSS text.
    """
    wanted = set(families)
    rules = []
    for font in bundled_fonts():
        if font.family not in wanted:
            continue
        fmt = "opentype" if font.mime == "font/otf" else "truetype"
        if embed and text is not None:
            data, fmt = subset_font(font.path, text)
            mime = f"font/{fmt}"
            url = f"data:{mime};base64," + base64.b64encode(data).decode("ascii")
        elif embed:
            url = _data_url(font.path, font.mime)
        else:
            url = font.path.resolve().as_uri()
        rules.append(
            "@font-face {\n"
            f'  font-family: "{font.family}";\n'
            f"  font-weight: {font.weight};\n"
            f"  font-style: {font.style};\n"
            f'  src: url("{url}") format("{fmt}");\n'
            "}"
        )
    return "\n".join(rules)
