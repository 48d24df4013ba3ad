"""The bundled fonts, registered with matplotlib when a figure is drawn.

Registering adds the files to matplotlib's font manager (it does not touch
``rcParams``); each figure then names its family explicitly, so nothing
depends on the fonts installed on the machine.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import re
from pathlib import Path

from ..errors import CdplotError, opt

__all__ = [
    "FONTS",
    "register_fonts",
    "font_family",
    "regular_kws",
    "bold_kws",
    "check_font",
    "font_rc",
    "font_files",
    "face_files",
    "prepare_text",
    "rtl_characters",
    "fallback_families",
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
    """Return the font option: ``'sans'`` (for ``None``), ``'serif'``, or a font file's path.

    Besides the bundled ``'sans'`` and ``'serif'``, ``font`` may be the path
    of a TrueType/OpenType file, or the family name of a font installed on
    the machine; both are returned as the absolute path of the file.
    """
    if font is None:
        return "sans"
    if isinstance(font, str) and font in FONTS:
        return font
    if isinstance(font, (str, os.PathLike)):
        return _user_font(os.fspath(font))
    raise CdplotError(f"option {opt('font', font)} is not valid; {_FONT_CHOICES}", option="font")


_FONT_CHOICES = (
    "expected 'sans', 'serif', the path of a .ttf/.otf file or the family name of an installed font"
)


@functools.lru_cache(maxsize=16)
def _user_font(font: str) -> str:
    from matplotlib import font_manager

    path = Path(font).expanduser()
    if path.suffix.lower() in (".ttf", ".otf", ".ttc"):
        if not path.is_file():
            raise CdplotError(f"option {opt('font', font)}: no such font file", option="font")
        try:
            font_manager.fontManager.addfont(str(path))
        except Exception as exc:  # FreeType's own error for a file it cannot read
            raise CdplotError(
                f"option {opt('font', font)}: not a readable font file ({exc})", option="font"
            ) from None
        return str(path.resolve())
    if os.sep in font:
        raise CdplotError(
            f"option {opt('font', font)} is not valid; {_FONT_CHOICES}", option="font"
        )
    try:
        found = font_manager.findfont(
            font_manager.FontProperties(family=font), fallback_to_default=False
        )
    except ValueError:
        raise CdplotError(
            f"option {opt('font', font)} is not valid; {_FONT_CHOICES}", option="font"
        ) from None
    return found


def font_files(font) -> tuple[str, tuple[str, str]]:
    """``(family, (regular file, bold file))`` of a checked font option.

    A user's font file serves for both weights (bold text is then drawn in
    it as it is, never thickened by the renderer).
    """
    font = check_font(font)
    if font in FONTS:
        return _bundled_files(font)
    from matplotlib.font_manager import get_font

    return get_font(font).family_name, (font, font)


@functools.lru_cache(maxsize=len(FONTS))
def _bundled_files(font: str) -> tuple[str, tuple[str, str]]:
    # asked for by every text of a figure: the paths are built once
    from .._resources import fonts_dir

    family, (regular, bold) = FONTS[font]
    return family, (str(fonts_dir() / regular), str(fonts_dir() / bold))


# ---- glyphs no chosen font has: fallback fonts found on the machine --------------

# Families of the machine's fonts that are worth asking for a missing glyph (CJK,
# other scripts, emoji); the whole font list is not searched, to stay fast.
_FALLBACK_HINTS = (
    "cjk",
    "notosans",
    "notoserif",
    "notoemoji",
    "emoji",
    "wenquanyi",
    "droid sans fallback",
    "symbola",
    "unifont",
    "arphic",
    "ipa",
    "takao",
    "nanum",
    "unbatang",
    "freesans",
)
# fallback families found so far in this process, in the order found
_extra_fallbacks: list[str] = []


def fallback_families() -> tuple[str, ...]:
    """DejaVu Sans, then the machine's fonts added for glyphs the bundled fonts lack."""
    return (FALLBACK, *_extra_fallbacks)


@functools.lru_cache(maxsize=1)
def _candidates() -> tuple[str, ...]:
    """Files of the machine's fonts that may hold other scripts, CJK first.

    The files are listed afresh (``findSystemFonts``), not taken from
    matplotlib's font cache, which does not see fonts installed after it
    was built.
    """
    from matplotlib import font_manager

    paths = {
        p
        for p in font_manager.findSystemFonts()
        if p.lower().endswith((".ttf", ".otf", ".ttc"))
        and any(h.replace(" ", "") in Path(p).name.lower() for h in _FALLBACK_HINTS)
    }
    # regular cuts before bold ones, CJK before the rest, then by name for a fixed order
    return tuple(
        sorted(
            paths,
            key=lambda p: (
                "cjk" not in p.lower(),
                any(w in Path(p).name.lower() for w in ("bold", "black", "light", "thin")),
                p,
            ),
        )
    )


def _covers(path: str, ch: str) -> bool:
    from matplotlib.font_manager import get_font

    try:
        return bool(get_font(path).get_char_index(ord(ch)))
    except (OSError, RuntimeError):
        return False


def prepare_text(texts, font) -> list[str]:
    """Find fonts for every character of ``texts``; return the characters none has.

    Characters the chosen font and DejaVu Sans lack are looked up in the
    machine's fonts (Noto CJK and the like); a font that has them is added
    to the fallback list of every later figure of the process.
    """
    family, files = font_files(font)
    chars = {ch for t in texts for ch in t if ord(ch) > 0x7F and not ch.isspace()}
    if not chars:
        return []
    from matplotlib.font_manager import FontProperties, findfont

    known = [files[0], findfont(FontProperties(family=FALLBACK))]
    known += [findfont(FontProperties(family=f)) for f in _extra_fallbacks]
    missing = sorted(ch for ch in chars if not any(_covers(p, ch) for p in known))
    still = []
    for ch in missing:
        if any(_covers(findfont(FontProperties(family=f)), ch) for f in _extra_fallbacks):
            continue
        for path in _candidates():
            if _covers(path, ch):
                from matplotlib.font_manager import fontManager, get_font

                fontManager.addfont(path)
                # callers that cache measurements compare fallback_families() around this call
                _extra_fallbacks.append(get_font(path).family_name)
                break
        else:
            still.append(ch)
    return still


# Right-to-left scripts: matplotlib 3.11 shapes them (libraqm: joined Arabic letters, in
# right-to-left order); before it, it draws their characters one by one, left to right,
# unshaped (Arabic letters disconnected), so names in them are warned about there.
_RTL_RANGES = ((0x0590, 0x08FF), (0xFB1D, 0xFDFF), (0xFE70, 0xFEFF))
# the same ranges as one character class: names are searched, not walked in Python
_RTL = re.compile("[" + "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in _RTL_RANGES) + "]")


def rtl_characters(texts) -> list[str]:
    """The right-to-left characters (Hebrew, Arabic, Syriac, Thaana...) in ``texts``."""
    return sorted({ch for t in texts for ch in _RTL.findall(t)})


@functools.lru_cache(maxsize=1)
def shapes_right_to_left() -> bool:
    """Whether this matplotlib shapes Arabic (joins its letters), as 3.11's libraqm does.

    Asked of the text layout itself rather than the version number: two
    BEH letters in a row take their joining forms, glyphs other than the
    letter alone.  DejaVu Sans, which matplotlib ships, has those forms.
    """
    try:
        from matplotlib import _text_helpers
        from matplotlib.font_manager import FontProperties, findfont, get_font

        font = get_font(findfont(FontProperties(family="DejaVu Sans")))
        font.set_size(12, 72)

        def glyphs(text):
            return [getattr(g, "glyph_index", None) for g in _text_helpers.layout(text, font)]

        alone, joined = glyphs("\u0628"), glyphs("\u0628\u0628")
        return None not in joined and alone[0] not in joined
    except Exception:  # an older or changed private layout: assume letters stay unjoined
        return False


# a left-to-right mark: a line that starts with a right-to-left name but is an English
# sentence keeps its left-to-right order (else the bidi algorithm moves its punctuation)
LRM = "\u200e"
_LTR_LETTER = re.compile(r"[A-Za-z0-9]")


def left_to_right(text: str) -> str:
    """``text``, led by a left-to-right mark when it mixes right-to-left and Latin text."""
    if shapes_right_to_left() and _RTL.search(text) and _LTR_LETTER.search(text):
        return LRM + text
    return text


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


@functools.lru_cache(maxsize=32)
def face_files(families: tuple[str, ...], weight, stretch) -> tuple[str, ...]:
    """The files matplotlib sets text of these families, weight and stretch in.

    As ``FontManager._find_fonts_by_props`` finds them for drawing: a
    family it cannot find is left out, and with none found the default
    font is used.  Callers that clear their measurements when a fallback
    font joins clear this cache too.
    """
    from matplotlib.font_manager import FontProperties, findfont

    files = []
    for family in families:
        prop = FontProperties(family=family, weight=weight, stretch=stretch)
        try:
            files.append(findfont(prop, fallback_to_default=False))
        except ValueError:
            continue
    if not files:
        files.append(findfont(FontProperties(weight=weight, stretch=stretch)))
    return tuple(files)


def font_family(font) -> list[str]:
    """The ``font.family`` list for a font option: its family, then the fallbacks."""
    return [font_files(font)[0], *fallback_families()]


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
    font = check_font(font)
    if font == "serif":
        return {"fontweight": "bold", "fontstretch": "expanded"}
    if font not in FONTS:
        # a user's single file: the same face, never a renderer-thickened fake bold
        return {"fontweight": "normal"}
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
