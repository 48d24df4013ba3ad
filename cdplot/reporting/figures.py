"""The report's figures as inline SVG, drawn by :mod:`cdplot.plot`.

The figures are vector graphics put straight into the HTML (no raster, no
file beside the report).  Before that, each SVG passes through
:func:`clean_svg`, which keeps the drawing and removes whatever could run
or load something (scripts, event handlers, links and references outside
the figure), and gives every ``id`` a per-figure prefix so that several
figures in one page cannot take each other's clip paths or glyphs.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
import signal
import sys
import warnings
import xml.etree.ElementTree as ET

from .. import _child
from .._child import Helper, die_with_parent, forking_allowed
from .._options import REPORT_FORMATS, check_option
from ..errors import CdplotError, CdplotWarning
from .fonts import bundled_fonts
from .layout import LANDSCAPE_WIDTH_PT, TEXT_HEIGHT_PT, figure_placement

__all__ = [
    "anova_figure_svgs",
    "clean_svg",
    "figure_svgs",
    "figure_svgs_many",
    "svg_font_families",
    "split_svg_text",
    "text_overlay",
    "SvgText",
]

_SVG = "http://www.w3.org/2000/svg"
_XLINK = "http://www.w3.org/1999/xlink"
_DROP_TAGS = {
    "script",
    "foreignObject",
    "iframe",
    "object",
    "embed",
    "audio",
    "video",
    "metadata",
    "image",
}
_HREF_ATTRS = {"href", f"{{{_XLINK}}}href", "src"}
_URL_RE = re.compile(r"url\(\s*(['\"]?)(.*?)\1\s*\)", re.IGNORECASE | re.DOTALL)
# a font-family declaration in CSS (``font-family: 'Lato', sans``) or as an attribute
_FAMILY_RE = re.compile(r"font-family\s*(?::\s*([^;\"}]+)|=\s*\"([^\"]*)\")", re.IGNORECASE)

# SVG properties that may stand as presentation attributes; a ``style`` attribute made only
# of these becomes attributes (see _slim).  The inherited ones may also move from a ``*`` rule
# to the elements that need them.
_INHERITED_PROPS = frozenset(
    {
        "fill",
        "fill-opacity",
        "fill-rule",
        "stroke",
        "stroke-width",
        "stroke-linecap",
        "stroke-linejoin",
        "stroke-miterlimit",
        "stroke-dasharray",
        "stroke-dashoffset",
        "stroke-opacity",
        "font-family",
        "font-size",
        "font-style",
        "font-weight",
        "text-anchor",
        "color",
        "visibility",
    }
)
_PRESENTATION_PROPS = _INHERITED_PROPS | {"opacity", "clip-path", "display"}
# elements whose character data is drawn: their whitespace is content
_TEXT_TAGS = {"text", "tspan", "textPath", "title", "desc", "style"}
_STAR_RULES_RE = re.compile(r"\s*(?:\*\s*\{([^{}]*)\}\s*)+", re.DOTALL)
_STAR_RULE_RE = re.compile(r"\*\s*\{([^{}]*)\}", re.DOTALL)


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _declarations(text: str):
    """``[(property, value), ...]`` of a simple declaration list, or None if it is not one.

    Only presentation properties with plain values qualify: anything else
    (``!important``, comments, escapes, other properties) keeps its ``style``
    attribute, which is correct, only slower to render.
    """
    out = []
    for part in text.split(";"):
        if not part.strip():
            continue
        name, sep, value = part.partition(":")
        name, value = name.strip().lower(), value.strip()
        if not sep or name not in _PRESENTATION_PROPS or not value:
            return None
        if any(c in value for c in '!\\/*{}<>"') and not value.lower().startswith("url("):
            return None
        out.append((name, value))
    return out


def _star_rules(root):
    """The declarations of the ``<style>`` elements if they hold only ``* {...}`` rules."""
    styles = [e for e in root.iter() if isinstance(e.tag, str) and _local(e.tag) == "style"]
    if not styles:
        return [], []
    star = []
    for style in styles:
        text = style.text or ""
        if len(style) or not _STAR_RULES_RE.fullmatch(text):
            return None, styles
        for block in _STAR_RULE_RE.findall(text):
            decls = _declarations(block)
            if decls is None or any(name not in _INHERITED_PROPS for name, _ in decls):
                return None, styles
            star.extend(decls)
    return star, styles


def _slim(root) -> None:
    """Make an SVG cheaper for WeasyPrint without changing how it looks.

    WeasyPrint draws a PDF report's figures as SVG images (``data:`` URLs,
    :func:`cdplot.reporting.render._print_figure`) and parses every ``style``
    attribute with its CSS parser to draw it (an inline SVG, as the reports
    once had, was parsed a second time as HTML, with a warning for each SVG
    property).  Presentation attributes (``fill="none"``) carry the same
    values and are read directly; the HTML report is smaller too.
    So a ``style`` attribute of plain presentation properties becomes
    attributes, and matplotlib's ``<style>*{stroke-linejoin: round; ...}</style>``
    becomes attributes on the elements whose value it would set differently
    from what they inherit (the root, everything in ``<defs>`` or referenced
    by ``<use>``, and the children of an element that sets its own value).
    Whitespace between elements outside text goes too: it is not drawn, but
    every character of it is parsed.

    CSS ranks a ``style`` attribute over a ``*`` rule over presentation
    attributes; the rewrite keeps that order: an element's own declaration
    wins, then the ``*`` value, and a ``*`` value replaces an attribute.
    """
    star, styles = _star_rules(root)
    # a real stylesheet stays, and so do the style attributes, which must keep outranking it
    convert = star is not None
    if convert:
        for parent in root.iter():
            for child in list(parent):
                if child in styles:
                    parent.remove(child)
    star_values = dict(star or ())
    # a <use> may draw an element anywhere; give those elements every value explicitly
    referenced = set()
    for elem in root.iter():
        for name, value in elem.attrib.items():
            if _local(name) == "href" and value.startswith("#"):
                referenced.add(value[1:])

    def walk(elem, inherited: dict, in_text: bool, explicit: bool):
        tag = _local(elem.tag)
        in_text = in_text or tag in _TEXT_TAGS
        style = elem.attrib.get("style")
        own = _declarations(style) if (style is not None and convert) else []
        if own is not None and (star_values or (style is not None and convert)):
            if style is not None:
                del elem.attrib["style"]
            own = dict(own)
            effective = dict(inherited)
            for name, value in star_values.items():
                want = own.get(name, value)
                if (
                    explicit
                    or name in elem.attrib
                    or inherited.get(name) != want
                    or (elem.attrib.get("id") in referenced)
                ):
                    elem.attrib[name] = want
                effective[name] = want
            for name, value in own.items():
                elem.attrib[name] = value
        else:
            # a style attribute kept as it is still outranks the * values it names
            effective = dict(inherited)
            kept = dict(_loose_declarations(style)) if style else {}
            for name, value in star_values.items():
                want = kept.get(name, value)
                elem.attrib[name] = value
                effective[name] = want
        explicit = explicit or tag == "defs"
        for child in elem:
            if isinstance(child.tag, str):
                walk(child, effective, in_text, explicit)
            if not in_text and child.tail is not None and not child.tail.strip():
                child.tail = None
        if not in_text and len(elem) and elem.text is not None and not elem.text.strip():
            elem.text = None

    walk(root, {}, False, False)
    # an emptied <defs> holds nothing to draw or reference
    for parent in root.iter():
        for child in list(parent):
            if (
                isinstance(child.tag, str)
                and _local(child.tag) == "defs"
                and not len(child)
                and not (child.text or "").strip()
            ):
                parent.remove(child)


def _loose_declarations(style: str):
    """Best-effort ``(property, value)`` pairs of any style attribute (to rank * values)."""
    out = []
    for part in style.split(";"):
        name, sep, value = part.partition(":")
        if sep:
            out.append((name.strip().lower(), value.strip()))
    return out


def _rewrite_urls(text: str, rename) -> str:
    """Point ``url(#id)`` at the renamed id; blank any other ``url(...)``."""

    def sub(match):
        target = match.group(2).strip()
        if target.startswith("#"):
            return f"url(#{rename(target[1:])})"
        return "none"

    text = _URL_RE.sub(sub, text)
    # @import needs no url(): drop it whatever follows
    return re.sub(r"@import[^;]*;?", "", text, flags=re.IGNORECASE)


def clean_svg(svg: str, prefix: str) -> str:
    """Make an SVG document safe and unique for inlining into a report.

    Parameters
    ----------
    svg : str
        An SVG document, as matplotlib writes it.
    prefix : str
        Prefix for every ``id`` (and every reference to one).

    Returns
    -------
    str
        The ``<svg>`` element alone (no XML declaration or DOCTYPE), with
        scripts, event handlers, ``<foreignObject>`` and ``<image>`` elements,
        links (``<a>`` becomes ``<g>``) and every reference outside the
        document removed.
    """
    ET.register_namespace("", _SVG)
    ET.register_namespace("xlink", _XLINK)
    # the DOCTYPE names an external DTD; the parser never loads it, but it must not reach the HTML
    svg = re.sub(r"<!DOCTYPE[^>]*>", "", svg, count=1)
    root = ET.fromstring(svg)

    def rename(ident: str) -> str:
        return f"{prefix}-{ident}"

    # matplotlib gids may repeat (one per tick); in a page of several figures an id must be
    # unique, so the second and later copies get a suffix (references keep the first)
    seen: dict[str, int] = {}

    def unique(ident: str) -> str:
        seen[ident] = seen.get(ident, 0) + 1
        return rename(ident) if seen[ident] == 1 else f"{rename(ident)}-{seen[ident]}"

    def clean(elem):
        for child in list(elem):
            if not isinstance(child.tag, str) or _local(child.tag) in _DROP_TAGS:
                elem.remove(child)
                continue
            if _local(child.tag) == "a":
                # a link (matplotlib's set_url) becomes a plain group: keep the drawing only
                child.tag = f"{{{_SVG}}}g"
            clean(child)
        for name in list(elem.attrib):
            value = elem.attrib[name]
            local = _local(name)
            if local.lower().startswith("on"):
                del elem.attrib[name]
            elif name in _HREF_ATTRS or local == "href":
                if value.strip().startswith("#"):
                    elem.attrib[name] = "#" + rename(value.strip()[1:])
                else:
                    del elem.attrib[name]
            elif local == "id":
                elem.attrib[name] = unique(value)
            elif "url(" in value.lower():
                elem.attrib[name] = _rewrite_urls(value, rename)
        if _local(elem.tag) == "style" and elem.text:
            elem.text = _rewrite_urls(elem.text, rename)

    clean(root)
    _slim(root)
    return ET.tostring(root, encoding="unicode")


def svg_font_families(svg: str) -> set[str]:
    """The font families an SVG's text asks for (to embed only those)."""
    out = set()
    for match in _FAMILY_RE.finditer(svg):
        for name in (match.group(1) or match.group(2)).split(","):
            name = name.strip().strip("'\"").strip()
            if name:
                out.add(name)
    return out


# ---------------------------------------------------------------------------
# figure text set as HTML in print
# ---------------------------------------------------------------------------
# WeasyPrint sets an SVG <text> one letter at a time (a Pango layout per letter); a PDF
# report moves each figure's text out of its SVG into HTML boxes laid over it, one box per
# line of text (text_overlay), and the figure looks the same.  Only text whose drawing the
# boxes reproduce exactly moves: one plain line in a bundled face that has all its
# characters, under no clip, mask, filter or opacity; anything else stays SVG text.


@dataclasses.dataclass(frozen=True)
class SvgText:
    """One line of an SVG's text as the SVG draws it, in the SVG's user units.

    ``(x, y)`` is the anchor point on the baseline, ``angle`` the clockwise
    rotation about it in degrees, ``anchor`` the ``text-anchor``
    (``'start'``, ``'middle'`` or ``'end'``), ``family`` the CSS
    ``font-family`` list as the SVG gives it and ``ascent``/``descent`` the
    metrics (in em) of its first face, as HarfBuzz (and so Pango) reads them.
    """

    text: str
    x: float
    y: float
    angle: float
    anchor: str
    size: float
    family: str
    weight: int
    style: str
    fill: str
    ascent: float
    descent: float


# the attributes a moved <text> may carry; any other (dx, rotate, textLength, opacity,
# clip-path, dominant-baseline, ...) changes its drawing, and the text stays in the SVG
_MOVABLE_ATTRS = frozenset(
    {
        "x",
        "y",
        "id",
        "transform",
        "style",
        "font",
        "font-family",
        "font-size",
        "font-weight",
        "font-style",
        "text-anchor",
        "fill",
    }
)
# properties of an ancestor that change how the text inside it draws, beyond what is tracked
_BLOCKING_PROPS = frozenset({"clip-path", "mask", "filter", "opacity", "display", "visibility"})
_TEXT_PROPS = ("font-family", "font-size", "font-weight", "font-style", "text-anchor", "fill")
_TEXT_PREFIXES = (
    "font",
    "letter",
    "word",
    "text",
    "writing",
    "glyph",
    "kerning",
    "unicode",
    "direction",
    "dominant",
    "alignment",
    "baseline",
)
_SAFE_FAMILY_RE = re.compile(r"[\w\s'\",.\-]+")
_SAFE_COLOR_RE = re.compile(r"#[0-9a-fA-F]{3,8}|[a-zA-Z]+|rgb\(\s*[\d.%\s,]+\)")
_NUMBER_RE = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_FONT_RE = re.compile(
    r"\s*((?:(?:normal|italic|oblique|bold|[1-9]00)\s+)*)"
    r"([-+]?(?:\d+\.?\d*|\.\d+)(?:px)?)(?:\s*/\s*\S+)?\s+(.+?)\s*",
    re.IGNORECASE | re.DOTALL,
)
_TRANSFORM_RE = re.compile(r"\s*(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)\s*,?")


def _blocks(name: str, value: str) -> bool:
    """Whether a group's property changes how the text in it draws beyond what is tracked."""
    if name in _BLOCKING_PROPS:
        return True
    if name in _TEXT_PROPS:
        return False
    if name == "stroke":
        return value != "none"
    # spacing, decoration, baselines, direction, other font properties
    return name.startswith(_TEXT_PREFIXES) or name in ("fill-opacity", "paint-order")


def _matmul(m, n):
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (
        a * a2 + c * b2,
        b * a2 + d * b2,
        a * c2 + c * d2,
        b * c2 + d * d2,
        a * e2 + c * f2 + e,
        b * e2 + d * f2 + f,
    )


def _transform(text: str | None):
    """The matrix ``(a, b, c, d, e, f)`` of an SVG ``transform`` attribute, or None."""
    m = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    if not text or not text.strip():
        return m
    pos = 0
    while pos < len(text):
        match = _TRANSFORM_RE.match(text, pos)
        if match is None:
            return None if text[pos:].strip() else m
        pos = match.end()
        name, args = match.group(1), [float(v) for v in _NUMBER_RE.findall(match.group(2))]
        if name == "matrix" and len(args) == 6:
            step = tuple(args)
        elif name == "translate" and len(args) in (1, 2):
            step = (1.0, 0.0, 0.0, 1.0, args[0], args[1] if len(args) == 2 else 0.0)
        elif name == "scale" and len(args) in (1, 2):
            step = (args[0], 0.0, 0.0, args[-1], 0.0, 0.0)
        elif name == "rotate" and len(args) in (1, 3):
            t = math.radians(args[0])
            step = (math.cos(t), math.sin(t), -math.sin(t), math.cos(t), 0.0, 0.0)
            if len(args) == 3:
                cx, cy = args[1], args[2]
                step = _matmul(
                    _matmul((1.0, 0.0, 0.0, 1.0, cx, cy), step), (1.0, 0.0, 0.0, 1.0, -cx, -cy)
                )
        elif name == "skewX" and len(args) == 1:
            step = (1.0, 0.0, math.tan(math.radians(args[0])), 1.0, 0.0, 0.0)
        elif name == "skewY" and len(args) == 1:
            step = (1.0, math.tan(math.radians(args[0])), 0.0, 1.0, 0.0, 0.0)
        else:
            return None
        m = _matmul(m, step)
    return m


def _own_props(elem) -> dict | None:
    """The presentation values an element sets (its ``style`` outranks its attributes)."""
    props = {_local(k): v.strip() for k, v in elem.attrib.items()}
    style = props.pop("style", None)
    if style:
        for name, value in _loose_declarations(style):
            props[name] = value
    font = props.pop("font", None)
    if font is not None:
        # the shorthand resets what it does not name
        match = _FONT_RE.fullmatch(font)
        if match is None:
            return None
        props.update({"font-style": "normal", "font-weight": "normal"})
        for word in match.group(1).split():
            key = "font-style" if word.lower() in ("italic", "oblique") else "font-weight"
            props[key] = word.lower()
        props["font-size"] = match.group(2)
        props["font-family"] = match.group(3)
    return props


@functools.lru_cache(maxsize=8)
def _face_metrics(path) -> tuple[float, float, frozenset]:
    """``(ascent, descent, characters)`` of a font file, ascent and descent in em.

    HarfBuzz, through which Pango and so WeasyPrint read a font's line
    metrics, takes the OS/2 typographic ascender and descender when the font
    sets USE_TYPO_METRICS (Lato does) and the ``hhea`` ones otherwise.
    """
    import logging

    from fontTools.ttLib import TTFont

    log = logging.getLogger("fontTools")
    level = log.level
    # fontTools warns about the old "created" date of some font headers; harmless
    log.setLevel(logging.ERROR)
    try:
        font = TTFont(str(path), lazy=True)
        upem = font["head"].unitsPerEm
        os2 = font.get("OS/2")
        if os2 is not None and os2.fsSelection & (1 << 7):
            ascent, descent = os2.sTypoAscender, -os2.sTypoDescender
        else:
            ascent, descent = font["hhea"].ascent, -font["hhea"].descent
        # glyphs named by index: the cmap's codepoints without building names from the post
        # table and the Adobe glyph list (as layout._face_advances reads the advances)
        font.setGlyphOrder([f"g{i}" for i in range(font["maxp"].numGlyphs)])
        chars = frozenset(font.getBestCmap())
        font.close()
    finally:
        log.setLevel(level)
    return ascent / upem, descent / upem, chars


def _bundled_face(family: str, weight: int, style: str):
    first = family.split(",")[0].strip().strip("'\"").strip()
    for face in bundled_fonts():
        if face.family == first and face.weight == weight and face.style == style:
            return face
    return None


def _movable(props: dict, text: str):
    """``(size, family, weight, style, anchor, fill, ascent, descent)`` or None to keep it."""
    if any(p not in _MOVABLE_ATTRS for p in props if p not in _TEXT_PROPS):
        return None
    if not text or text != text.strip() or "  " in text or any(c in text for c in "\n\r\t"):
        # SVG collapses and trims white space where the HTML would keep it
        return None
    size = props.get("font-size", "")
    if not re.fullmatch(r"(?:\d+\.?\d*|\.\d+)(?:px)?", size):
        return None
    weight = {"normal": "400", "bold": "700"}.get(props.get("font-weight", "normal"))
    weight = weight or props.get("font-weight")
    style = props.get("font-style", "normal")
    family = props.get("font-family", "")
    anchor = props.get("text-anchor", "start")
    fill = props.get("fill", "#000000")
    if (
        not weight.isdigit()
        or anchor not in ("start", "middle", "end")
        or not _SAFE_FAMILY_RE.fullmatch(family)
        or not _SAFE_COLOR_RE.fullmatch(fill)
        # keywords that mean something else, or nothing, for an HTML box's colour
        or fill.lower() in ("none", "currentcolor", "inherit", "initial", "unset", "revert")
    ):
        return None
    face = _bundled_face(family, int(weight), style)
    if face is None:
        return None
    ascent, descent, chars = _face_metrics(face.path)
    if any(ord(c) not in chars for c in text):
        # a fallback font would set those letters, with its own line metrics
        return None
    return float(size.removesuffix("px")), family, int(weight), style, anchor, fill, ascent, descent


def split_svg_text(svg: str) -> tuple[str, float, list[SvgText]]:
    """Take out of an SVG the text that HTML can set over it exactly.

    Parameters
    ----------
    svg : str
        A cleaned SVG (:func:`clean_svg`), drawn in points with a ``viewBox``.

    Returns
    -------
    tuple
        The SVG without the texts moved, the width of its ``viewBox`` (the
        user units across it) and the texts moved, in document order.  An
        SVG with a stylesheet or without a ``viewBox`` keeps all its text.
    """
    ET.register_namespace("", _SVG)
    ET.register_namespace("xlink", _XLINK)
    root = ET.fromstring(svg)
    box = [float(v) for v in _NUMBER_RE.findall(root.attrib.get("viewBox", ""))]
    styled = any(isinstance(e.tag, str) and _local(e.tag) == "style" for e in root.iter())
    if len(box) != 4 or box[2] <= 0 or styled:
        return svg, (box[2] if len(box) == 4 else 0.0), []
    if box[0] or box[1]:
        return svg, box[2], []
    moved: list[SvgText] = []

    def walk(elem, inherited: dict, matrix):
        for child in list(elem):
            if not isinstance(child.tag, str):
                continue
            tag = _local(child.tag)
            props = _own_props(child)
            if props is None:
                continue
            step = _transform(props.get("transform"))
            if tag == "g":
                if step is None or any(_blocks(p, v) for p, v in props.items()):
                    continue
                walk(child, {**inherited, **props}, _matmul(matrix, step))
            elif tag == "text" and not len(child) and step is not None:
                mine = {**inherited, **{k: v for k, v in props.items() if k in _TEXT_PROPS}}
                own = {k: v for k, v in props.items() if k not in _TEXT_PROPS}
                found = _movable({**own, **{k: mine[k] for k in mine}}, child.text or "")
                if found is None:
                    continue
                xs, ys = props.get("x", "0"), props.get("y", "0")
                if not (_NUMBER_RE.fullmatch(xs) and _NUMBER_RE.fullmatch(ys)):
                    continue
                a, b, c, d, e, f = _matmul(matrix, step)
                scale = (a * a + b * b) ** 0.5
                # a rotation and a uniform scale only: no skew, no mirror
                if scale <= 0 or abs(a - d) > 1e-6 * scale or abs(b + c) > 1e-6 * scale:
                    continue
                x, y = float(xs), float(ys)
                size, family, weight, style, anchor, fill, ascent, descent = found
                moved.append(
                    SvgText(
                        text=child.text,
                        x=a * x + c * y + e,
                        y=b * x + d * y + f,
                        angle=math.degrees(math.atan2(b, a)),
                        anchor=anchor,
                        size=size * scale,
                        family=family,
                        weight=weight,
                        style=style,
                        fill=fill,
                        ascent=ascent,
                        descent=descent,
                    )
                )
                # outside text the cleaned SVG has no tails (_slim), so nothing else goes
                elem.remove(child)

    root_props = _own_props(root) or {}
    inherited = {k: v for k, v in root_props.items() if k in _TEXT_PROPS}
    if any(_blocks(p, v) for p, v in root_props.items()):
        return svg, box[2], []
    walk(root, inherited, (1.0, 0.0, 0.0, 1.0, 0.0, 0.0))
    if not moved:
        return svg, box[2], []
    return ET.tostring(root, encoding="unicode"), box[2], moved


def _trim(value: float, places: int) -> str:
    """``value`` to ``places`` decimals without trailing zeros (-90.0 as ``-90``)."""
    text = f"{value:.{places}f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def text_overlay(texts, *, scale: float, reach: float) -> str:
    """HTML boxes that set ``texts`` where their SVG, printed ``scale`` pt per unit, drew them.

    Parameters
    ----------
    texts : sequence of SvgText
        The texts taken out of the SVG (:func:`split_svg_text`).
    scale : float
        Printed points per user unit of the SVG (its print width over its
        ``viewBox`` width).
    reach : float
        Points wider than any of the texts (the figure's print width): a
        text anchored at its end or middle is set right-aligned or centred in
        a box that wide starting, ending or centred at its anchor.

    Returns
    -------
    str
        A ``<div class="fig-text">`` of absolutely positioned boxes, one per
        text, for a positioned container exactly as large as the printed SVG
        (report.css gives each box one line, at ``line-height: 1``, unkerned
        and without ligatures, as WeasyPrint sets SVG text letter by letter).
        The texts are escaped: names from the input stay text.
    """
    from collections import Counter
    from html import escape

    if not texts:
        return ""
    # the most frequent family and colour go on the container, the others on their boxes
    family = Counter(t.family for t in texts).most_common(1)[0][0]
    fill = Counter(t.fill for t in texts).most_common(1)[0][0]
    out = [
        f'<div class="fig-text" aria-hidden="true" '
        f'style="font-family: {escape(family)}; color: {escape(fill)}">'
    ]
    for t in texts:
        size = t.size * scale
        # the baseline of a one-line box of line-height 1 lies half the leading (1 less the
        # ascent and descent) below the ascent: (1 + ascent - descent) / 2 em from its top
        base = (1.0 + t.ascent - t.descent) / 2.0 * size
        x, y = t.x * scale, t.y * scale
        # text-align puts the line's start, end or middle at the anchor: exact, no measuring;
        # a box of given width also spares WeasyPrint the shrink-to-fit (two more layouts)
        if t.anchor == "start":
            left, width, origin = x, reach, 0.0
        else:
            left, origin = x - reach, reach
            width = reach if t.anchor == "end" else 2.0 * reach
        style = [
            f"left: {left:.3f}pt",
            f"top: {y - base:.3f}pt",
            f"font-size: {size:.3f}pt",
            f"width: {width:.3f}pt",
        ]
        if t.anchor != "start":
            style.append(f"text-align: {'right' if t.anchor == 'end' else 'center'}")
        if abs(t.angle) > 1e-9:
            style += [
                f"transform: rotate({_trim(t.angle, 4)}deg)",
                f"transform-origin: {origin:.3f}pt {base:.3f}pt",
            ]
        if t.family != family:
            style.append(f"font-family: {t.family}")
        if t.fill != fill:
            style.append(f"color: {t.fill}")
        if t.weight != 400:
            style.append(f"font-weight: {t.weight}")
        if t.style != "normal":
            style.append(f"font-style: {t.style}")
        out.append(f'<span style="{escape("; ".join(style))}">{escape(t.text, quote=False)}</span>')
    out.append("</div>")
    return "".join(out)


# (key, title, plot function name, options).  The report says in words what the
# diagram's note would (pairwise remarks).  The heatmap prints its p-values when its
# cells are large enough for them (few methods), which keeps the SVG text, which
# WeasyPrint lays out one letter at a time, bounded.
_FIGURES = (
    ("cd", "Critical-difference diagram", "cd_diagram", {"note": False}),
    ("intervals", "Average ranks with intervals", "rank_intervals", {}),
    ("heatmap", "Pairwise significance", "significance_heatmap", {}),
)


def _caption(key: str, result) -> str:
    alpha = f"\u03b1 = {result.alpha:g}"
    cd = (
        f", CD = {result.critical_difference:.3f}" if result.critical_difference is not None else ""
    )
    control = getattr(result, "control", None)
    if control is not None and not getattr(result, "all_pairs_tested", True):
        # tests against a control say nothing about the other pairs: no bars, no overlaps
        only = (
            f"Only pairs with the control {control} were tested ({result.procedure()}{cd}); "
            "nothing is claimed about the other pairs."
        )
        if key == "cd":
            return (
                "Average rank of each method (1 = best, on the right); methods marked \u2020 "
                f"differ significantly from the control at {alpha}. {only}"
            )
        if key == "intervals":
            return (
                "Average rank of each method; the interval is the control's average rank "
                f"\u00b1 CD, and methods outside it differ significantly from the control at "
                f"{alpha}. {only}"
            )
        return f"Adjusted p-value of each method against the control. {only}"
    if key == "cd":
        return (
            "Average rank of each method (1 = best, on the right). Methods joined by a bar do not "
            f"differ significantly at {alpha} ({result.procedure()}{cd})."
        )
    if key == "intervals":
        if result.critical_difference is not None:
            return (
                f"Average rank of each method with an interval of length CD = "
                f"{result.critical_difference:.3f}: methods whose intervals do not overlap differ "
                f"significantly at {alpha}."
            )
        return f"Average rank of each method with its interval ({result.procedure()}, {alpha})."
    return (
        f"Adjusted p-value of each pair of methods by level ({result.procedure()}); the values are "
        "in the table of pairwise comparisons below."
    )


def _is_text(artist) -> bool:
    from matplotlib.text import Text

    return isinstance(artist, Text) and artist.get_visible()


def _report_style():
    """The full text width of the page (``paper-wide``), with no type below 6 pt.

    ``paper-wide`` lets names shrink to 5.5 pt and small type to 5 pt before a
    figure widens; in a report a figure may widen (onto a landscape page)
    rather than print type too small to read.
    """
    # cdplot.plot imports matplotlib, which a report pays for only when it draws
    from ..plot.styles import STYLES

    return dataclasses.replace(STYLES["paper-wide"], min_font_size=6.5)


def _close(ax) -> None:
    # the plot functions make figures through pyplot only when the user has loaded it (a
    # notebook); then pyplot keeps them until closed
    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close(ax.figure)


def figure_svgs(result, *, prefix: str, font=None, order=None, format="pdf") -> list[dict]:
    """Draw the report's figures of one analysis as cleaned inline SVG.

    Parameters
    ----------
    result : ComparisonResult
        The analysis to draw.
    prefix : str
        Unique prefix for the ids of this analysis' figures.
    font : str, optional
        Font option passed to the plot functions.
    order : sequence of str, optional
        The methods in the order of the report's method table (by default
        the analysis' rank order): a CD diagram whose names must be
        shortened tags each with its number there.
    format : {'pdf', 'html'}, default 'pdf'
        The report the figures are for.  For a PDF each figure is drawn so
        that its type prints at 6 pt or more on the page: a CD diagram as
        wide as a landscape page or with shortened names, rank intervals in
        parts.  A screen scrolls and zooms: an HTML report takes each
        figure as drawn at the text width, whole, and pays for no drawing
        that only the printed page needs.

        .. versionadded:: 0.1.0

    Returns
    -------
    list of dict
        ``key``, ``title``, ``caption`` and ``svg`` of each figure, its drawn
        ``width`` and ``height`` in points and its smallest type ``min_font``.
        The heatmap is left out when it cannot be drawn legibly (the plot
        function warns); other figures' warnings pass on.
    """
    for_print = check_option("format", format, REPORT_FORMATS) == "pdf"
    out = []
    for key, title, name, options in _FIGURES:
        if key == "intervals" and result.critical_difference is None:
            # the intervals are CD long; pairwise tests have no CD (their groups are in the others)
            continue
        if key == "cd":
            fig = _cd_figure(
                result,
                title,
                name,
                options,
                prefix=prefix,
                font=font,
                order=order,
                for_print=for_print,
            )
            out.append(fig)
            continue
        fig = _draw_one(result, key, title, name, options, prefix=prefix, font=font)
        if fig is None:
            continue
        fig["caption"] = _caption(key, result)
        if key == "intervals" and for_print and _printed_min(fig) < MIN_PRINTED_PT:
            out.extend(_interval_parts(result, fig, title, name, options, prefix, font))
        else:
            out.append(fig)
    return out


# no figure text in a PDF report prints smaller than this (issue 9)
MIN_PRINTED_PT = 6.0


def _printed_min(fig: dict) -> float:
    """The smallest type of a figure as printed on the smaller of the report's papers."""
    return min(
        figure_placement(fig["width"], fig["height"], fig["min_font"], paper=p).printed_min_font
        for p in TEXT_HEIGHT_PT
    )


def _cd_figure(result, title, name, options, *, prefix, font, order, for_print=True) -> dict:
    """The CD diagram drawn so that its type prints at 6 pt or more, if any drawing does.

    A CD diagram cannot be cut into parts (its bars join methods from both
    ends of the axis), so when the text width is too narrow or the page too
    short for it, it is drawn (1) as wide as a landscape page, where long
    names take one line instead of two, which makes it about half as tall;
    else (2) at the text width with names longer than a third of it
    shortened, each ending with its number in the method table (which gives
    it in full), so that every name takes one line.  With many methods (2)
    is what fits: one row per method and side is the height of a page.
    Not ``for_print`` (a screen, which scrolls), the drawing at the text width
    is the figure.
    """
    whole = _draw_one(result, "cd", title, name, options, prefix=prefix, font=font)
    whole["caption"] = _caption("cd", result)
    if not for_print or _printed_min(whole) >= MIN_PRINTED_PT:
        return whole
    # the narrower of the landscape pages, so that the figure fits either paper
    wide_in = min(LANDSCAPE_WIDTH_PT.values()) / 72.0
    wide = _draw_one(
        result, "cd", title, name, {**options, "width": wide_in}, prefix=prefix, font=font
    )
    wide["caption"] = whole["caption"]
    best = max((whole, wide), key=_printed_min)
    if _printed_min(best) >= MIN_PRINTED_PT:
        return best
    numbers = {m: n for n, m in enumerate(order or result.order(), start=1)}
    style = _report_style()
    # a name column of a third of the width (less its rank values and lines) at the names'
    # size; narrower when the layout still needs a smaller size or a second line
    for share in (0.3, 0.24, 0.19):
        labels = _short_labels(result.methods, numbers, share * style.width_pt, style, font)
        short = _draw_one(
            _relabelled(result, labels), "cd", title, name, options, prefix=prefix, font=font
        )
        short["caption"] = (
            whole["caption"] + " Names too long for the page are shortened (\u2026) and end "
            "with [n], their number in the table of methods above, which gives them in full."
        )
        best = max((best, short), key=_printed_min)
        if _printed_min(short) >= MIN_PRINTED_PT:
            break
    return best


def _short_labels(methods, numbers, room: float, style, font) -> dict[str, str]:
    """Each method's label: its name, or when wider than ``room`` points, cut and tagged."""
    from ..plot._common import measurer
    from ..plot.layout import common_prefix, shorten_name

    measure = measurer(font)
    size = style.font_size
    common = common_prefix(list(methods))
    out = {}
    for m in methods:
        tag = f"[{numbers[m]}]"
        if measure(m, size, False)[0] <= room:
            out[m] = m
            continue
        # the words every name starts with say nothing once the names are cut
        out[m] = shorten_name(m[len(common) :] or m, tag, room, size, False, measure) or tag
    # cut names differ by their numbers; a kept name that reads like a cut one (it would
    # have to end with the same ellipsis and [n]) gives way to its number alone
    seen: dict[str, int] = {}
    for label in out.values():
        seen[label] = seen.get(label, 0) + 1
    return {m: (label if seen[label] == 1 else f"[{numbers[m]}]") for m, label in out.items()}


def _relabelled(result, labels: dict[str, str]):
    """A copy of ``result`` for drawing only, with every method name replaced by its label."""
    fields = {f.name for f in dataclasses.fields(result)}
    swap = {"methods": tuple(labels[m] for m in result.methods)}
    if "cliques" in fields:
        swap["cliques"] = tuple(tuple(labels[m] for m in c) for c in result.cliques)
    if "unjoined" in fields:
        swap["unjoined"] = tuple(tuple(labels[m] for m in p) for p in result.unjoined)
    if "bridges" in fields:
        swap["bridges"] = tuple(tuple(labels[m] for m in b) for b in result.bridges)
    if getattr(result, "control", None) is not None:
        swap["control"] = labels[result.control]
    return dataclasses.replace(result, **swap)


def _interval_parts(result, whole, title, name, options, prefix, font) -> list[dict]:
    """The rank-interval chart in as few parts (rows in rank order) as print at 6 pt.

    One row per method makes a 100-method chart about 1270 pt tall: on a
    page of text it would print at half size, its type under 4 pt.  The
    parts share the whole chart's axis and name column, so they line up.
    """
    order = list(result.order())
    k = len(order)
    parts = [whole]
    for n in range(2, k + 1):
        bounds = [round(j * k / n) for j in range(n + 1)]
        chunks = [order[a:b] for a, b in zip(bounds[:-1], bounds[1:], strict=True)]
        parts = []
        for j, chunk in enumerate(chunks, 1):
            key = "intervals" if j == 1 else f"intervals-{j}"
            first, last = bounds[j - 1] + 1, bounds[j]
            fig = _draw_one(
                result,
                key,
                f"{title} ({j} of {n}: ranks {first}\u2013{last})",
                name,
                {**options, "methods": chunk},
                prefix=prefix,
                font=font,
            )
            fig["caption"] = (
                whole["caption"]
                if j == 1
                else f"Continued: the methods ranked {first}\u2013{last} of {k}, on the same axis."
            )
            parts.append(fig)
        if min(_printed_min(f) for f in parts) >= MIN_PRINTED_PT:
            break
    return parts


def _draw_one(result, key, title, name, options, *, prefix, font) -> dict | None:
    """One figure as a cleaned SVG with its size; None for a heatmap too large to read."""
    from .. import plot
    from ..plot import _svg

    # the report prints its own captions under the figures; paper-wide is the text width of
    # the PDF page (7 in), so the figures print at their drawn size and their type stays at
    # the style's sizes
    kwargs = {"caption": False, "style": _report_style(), **options}
    if font is not None:
        kwargs["font"] = font
    # the figures become SVG only: the SVG canvas records and writes them without loading
    # matplotlib's figures and backends (figures with options it cannot draw go through them)
    with warnings.catch_warnings(record=True) as caught, _svg.recording():
        warnings.simplefilter("always", CdplotWarning)
        ax = getattr(plot, name)(result, **kwargs)
    recorded = _svg.is_canvas(ax)
    unfit = [w for w in caught if issubclass(w.category, CdplotWarning)]
    if key == "heatmap" and unfit:
        # a heatmap too large to read helps nobody in a report: the pairwise section lists
        # the significant pairs instead, and says why the figure is not there
        if not recorded:
            _close(ax)
        return None
    for w in caught:
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    if recorded:
        # no fonts inside each figure: the report declares its fonts once for the page (with
        # every character of the figures), and clean_svg would blank the figures' data: URLs
        svg = plot.render_svg(ax, embed_fonts=False)
        width, height = ax.width, ax.height
        sizes = [size for text, *_f, size, _gid in ax.texts() if text.strip()]
    else:
        try:
            svg = plot.render_svg(ax, embed_fonts=False)
        finally:
            _close(ax)
        width, height = ax.figure.get_size_inches() * 72.0
        sizes = [t.get_fontsize() for t in ax.figure.findobj(_is_text) if t.get_text().strip()]
    return {
        "key": key,
        "title": title,
        "svg": clean_svg(svg, f"{prefix}-{key}"),
        "width": float(width),
        "height": float(height),
        "min_font": float(min(sizes)) if sizes else 0.0,
    }


def anova_figure_svgs(auto, *, prefix: str, font=None) -> list[dict]:
    """The figure of compare_auto's parametric path: the heatmap of Tukey's adjusted p-values.

    Parameters
    ----------
    auto : AutoResult
        A result whose analysis is repeated-measures ANOVA with Tukey's HSD.
    prefix : str
        Unique prefix for the ids of the figure.
    font : str, optional
        Font option passed to the plot function.

    Returns
    -------
    list of dict
        As :func:`figure_svgs`: the heatmap, or nothing when it cannot be
        drawn legibly (the Tukey table lists the significant pairs).
    """
    fig = _draw_one(
        auto,
        "heatmap",
        "Pairwise significance",
        "significance_heatmap",
        {},
        prefix=prefix,
        font=font,
    )
    if fig is None:
        return []
    fig["caption"] = (
        "Tukey-adjusted p-value of each pair of methods by level; methods in the order of their "
        "mean scores (best first)."
    )
    return [fig]


# ---------------------------------------------------------------------------
# several analyses at once
# ---------------------------------------------------------------------------
# the analyses a forked worker draws: set in the parent before the fork, so that the
# workers inherit them instead of receiving pickles
_JOBS: list = []


def _draw_job(index: int) -> list[dict]:
    # a forked worker opens its own font faces (plot._common clears them at fork)
    result, prefix, order, format = _JOBS[index]
    return figure_svgs(result, prefix=prefix, order=order, format=format)


def _worker_count(n_jobs: int, busy_parent: bool) -> int:
    """How many processes to draw in; 0 means in this process.

    Workers are forked, which is cheap and inherits everything already
    imported, when :func:`cdplot._child.forking_allowed` (Linux, a single
    thread).  They pay off when there is more than one analysis to draw, or
    when this process has something else to do meanwhile (the tables and
    words of a report).  A PDF report's writer process
    (:mod:`cdplot.reporting.pdf_writer`) takes a CPU while it imports
    WeasyPrint (:meth:`cdplot._child.Helper.preparing`): with two CPUs, one
    worker then draws while this process gathers the tables and words (the
    writer, forked first thing by ``cdplot report``, is then at the end of
    its import); once the writer waits for the HTML, on no CPU, a worker per
    CPU (``benchmarks/bench_report.py``).
    """
    # looked up on the module when called, so that tests can pretend to have more or fewer CPUs
    usable = _child.usable_cpus()
    if n_jobs == 0 or usable < 2 or not forking_allowed():
        return 0
    cpus = usable - Helper.preparing()
    if n_jobs == 1 and not busy_parent:
        return 0
    if cpus < 2:
        # beside a writer still importing: one worker, and only when this process has work
        return 1 if busy_parent else 0
    return min(n_jobs, cpus)


def _worker_start(mask) -> None:
    """A figure worker's start: it dies with its parent and takes SIGINT and SIGTERM again.

    Ctrl-C reaches the whole process group: the parent acts on it and stops the
    workers, so a worker ignores SIGINT (with the parent's handler it printed its own
    KeyboardInterrupt traceback); SIGTERM ends a worker at once, without one.
    """
    die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def figure_svgs_many(
    results, prefixes, *, while_drawing=None, progress=None, orders=None, format="pdf"
) -> list[list[dict]]:
    """:func:`figure_svgs` of several analyses, drawn in worker processes when that is faster.

    Parameters
    ----------
    results : sequence of ComparisonResult
        The analyses to draw.
    prefixes : sequence of str
        The id prefix of each analysis' figures.
    while_drawing : callable, optional
        Work for this process while the workers draw (for instance importing
        WeasyPrint); called exactly once, also when everything is drawn here.
    progress : callable, optional
        Called as ``progress(i)`` (from 1) before waiting for the figures of
        the i-th analysis.
    orders : sequence of (sequence of str or None), optional
        The ``order`` of :func:`figure_svgs` for each analysis.
    format : {'pdf', 'html'}, default 'pdf'
        The ``format`` of :func:`figure_svgs`.

        .. versionadded:: 0.1.0

    Returns
    -------
    list of list of dict
        The figures of each analysis, as :func:`figure_svgs` returns them: the
        same text whether drawn here or in a worker.

    Raises
    ------
    CdplotError
        If a worker process died (the caller writes nothing then).  An error
        raised while drawing is raised here as it is.
    """
    global _JOBS

    orders = [None] * len(results) if orders is None else orders
    jobs = [(r, p, o, format) for r, p, o in zip(results, prefixes, orders, strict=True)]
    workers = _worker_count(len(jobs), while_drawing is not None)
    if workers:
        import concurrent.futures as cf
        import multiprocessing

        # read the fonts (and so import matplotlib) before forking: every worker inherits both
        bundled_fonts()
        _JOBS = jobs
        pool = None
        # SIGTERM or Ctrl-C during the fork would raise in an at-fork hook, where Python prints
        # the exception and drops it (as in Helper.start): they wait until the workers exist
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, _child.STOPS)
        try:
            # workers end with the parent, even when it is killed outright (SIGKILL)
            pool = cf.ProcessPoolExecutor(
                max_workers=workers,
                mp_context=multiprocessing.get_context("fork"),
                initializer=_worker_start,
                initargs=(mask,),
            )
            # the first submit forks every worker
            futures = [pool.submit(_draw_job, i) for i in range(len(jobs))]
        except OSError:
            # no processes to be had here (a sandbox, a limit): draw in this process
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
            workers = 0
        finally:
            _JOBS = []
            try:
                signal.pthread_sigmask(signal.SIG_SETMASK, mask)
            except BaseException:
                # the signal that waited ends the drawing
                if pool is not None:
                    pool.shutdown(wait=False, cancel_futures=True)
                raise
    if not workers:
        if while_drawing is not None:
            while_drawing()
        out = []
        for i, (result, prefix, order, fmt) in enumerate(jobs, start=1):
            if progress is not None:
                progress(i)
            out.append(figure_svgs(result, prefix=prefix, order=order, format=fmt))
        return out
    try:
        if while_drawing is not None:
            while_drawing()
        out = []
        for i, future in enumerate(futures, start=1):
            if progress is not None:
                progress(i)
            try:
                out.append(future.result())
            except cf.process.BrokenProcessPool:
                raise CdplotError(
                    "drawing the figures failed: a worker process ended unexpectedly; "
                    "set CDPLOT_NO_WORKERS=1 to draw in one process"
                ) from None
        return out
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
