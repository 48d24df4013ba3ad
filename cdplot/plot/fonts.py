"""The bundled fonts, registered with matplotlib when a figure is drawn.

Registering adds the files to matplotlib's font manager (it does not touch
``rcParams``); each figure then names its family explicitly, so nothing
depends on the fonts installed on the machine.
"""

from __future__ import annotations

import dataclasses
import functools

from .._options import check_option

__all__ = [
    "FONTS",
    "register_fonts",
    "font_family",
    "regular_kws",
    "bold_kws",
    "check_font",
    "font_rc",
]

# option -> (family name inside the files, files relative to fonts_dir())
FONTS = {
    "sans": ("Lato", ("lato/Lato-Regular.ttf", "lato/Lato-Bold.ttf")),
    "serif": ("CMU Serif", ("cmu-serif/cmunrm.ttf", "cmu-serif/cmunbx.ttf")),
}
# Glyphs missing from the bundled fonts (CJK, a few maths signs in CMU) come
# from DejaVu Sans, which matplotlib itself ships, never from the machine.
FALLBACK = "DejaVu Sans"


def check_font(font) -> str:
    """Return the font option, ``'sans'`` when ``None``."""
    if font is None:
        return "sans"
    return check_option("font", font, tuple(FONTS))


@functools.lru_cache(maxsize=1)
def register_fonts() -> tuple[str, ...]:
    """Add the bundled font files to matplotlib's font manager (once per process).

    Returns
    -------
    tuple of str
        The paths registered.
    """
    from matplotlib import font_manager

    from .._resources import fonts_dir

    folder = fonts_dir()
    paths = []
    for _family, files in FONTS.values():
        for name in files:
            path = folder / name
            if not path.is_file():
                raise FileNotFoundError(
                    f"cdplot's bundled font {name} is missing from {folder}; reinstall cdplot"
                )
            font_manager.fontManager.addfont(str(path))
            paths.append(str(path))
    # CMU Serif Roman declares weight 500 (medium), so matplotlib would log
    # "failed to find weight normal" for every regular text; file it as the
    # family's regular weight (400), which is what it is.
    roman = str(folder / "cmu-serif" / "cmunrm.ttf")
    ttf = font_manager.fontManager.ttflist
    for n, entry in enumerate(ttf):
        if entry.fname == roman and entry.weight == 500:
            ttf[n] = dataclasses.replace(entry, weight=400)
    font_manager.fontManager._findfont_cached.cache_clear()
    return tuple(paths)


def font_family(font) -> list[str]:
    """The ``font.family`` list for a font option: the bundled family, then the fallback."""
    return [FONTS[check_font(font)][0], FALLBACK]


def regular_kws(font) -> dict:
    """Text keywords for regular type in ``font``.

    Both bundled regular cuts are filed at weight 400 (see
    :func:`register_fonts`), so this is plain ``'normal'``.
    """
    check_font(font)
    return {"fontweight": "normal"}


def bold_kws(font) -> dict:
    """Text keywords for bold type in ``font``.

    CMU Serif's bold is the "Bold Extended" cut, which matplotlib files
    under ``stretch='expanded'``; asking for that stretch too makes its
    font matching pick the bold file instead of the regular one.
    """
    if check_font(font) == "serif":
        return {"fontweight": "bold", "fontstretch": "expanded"}
    return {"fontweight": "bold"}


def font_rc(font) -> dict:
    """rcParams for :func:`matplotlib.rc_context` while a figure is built."""
    return {
        "font.family": font_family(font),
        "text.usetex": False,
        "axes.unicode_minus": True,
        "svg.fonttype": "none",
        "pdf.fonttype": 42,
        "ps.fonttype": 42,
        "svg.hashsalt": "cdplot",
        # Hinting snaps glyph advances to whole pixels, so a name measured at
        # one resolution would come out wider at another; unhinted widths are
        # the same at every dpi and in SVG and PDF.
        "text.hinting": "no_hinting",
    }
