"""The report's figures as SVG, drawn by :mod:`cdplot.plot`.

The figures are vector graphics put straight into the page (no raster, no
file beside the report): inline in an HTML report, as ``data:`` images in a
PDF's (:func:`cdplot.reporting._render._svg_image`).  Before that, each SVG,
written by matplotlib's own SVG backend, passes through
:func:`clean_svg`, which keeps the drawing and removes whatever could run
or load something (scripts, event handlers, links and references outside
the figure), and gives every ``id`` a per-figure prefix so that several
figures in one page cannot take each other's clip paths or glyphs.
"""

from __future__ import annotations

import dataclasses
import re
import sys
import warnings
import xml.etree.ElementTree as ET

from .._options import REPORT_FORMATS, check_option
from ..errors import CdplotWarning, FigureSizeWarning
from ._layout import LANDSCAPE_WIDTH_PT, TEXT_HEIGHT_PT, figure_placement

__all__ = [
    "anova_figure_svgs",
    "clean_svg",
    "drawn_measures",
    "figure_svgs",
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


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


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
    return ET.tostring(root, encoding="unicode")


def _family_names(prop) -> list[str]:
    """The font families a matplotlib font asks for, generic names expanded as its rcParams do."""
    import matplotlib as mpl

    names = []
    for entry in prop.get_family():
        generic = "sans-serif" if entry in ("sans", "sans serif") else entry
        if f"font.{generic}" in mpl.rcParams:
            names.extend(mpl.rcParams[f"font.{generic}"])
        names.append(entry)
    return list(dict.fromkeys(names))


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


def drawn_measures(ax) -> dict:
    """A drawn figure's ``width`` and ``height`` (points), smallest type and text families.

    Read from the figure, not its SVG: a report decides from them whether to keep a
    figure before it pays for rendering it.
    """
    width, height = ax.figure.get_size_inches() * 72.0
    texts = [t for t in ax.figure.findobj(_is_text) if t.get_text().strip()]
    sizes = [t.get_fontsize() for t in texts]
    return {
        "width": float(width),
        "height": float(height),
        "min_font": float(min(sizes)) if sizes else 0.0,
        "families": {n for t in texts for n in _family_names(t.get_fontproperties())},
    }


def _report_style():
    """The full text width of the page (``paper-wide``), with no type below 6 pt.

    ``paper-wide`` lets names shrink to 5.5 pt and small type to 5 pt before a
    figure widens; in a report a figure may widen (onto a landscape page)
    rather than print type too small to read.
    """
    # cdplot.plot imports matplotlib, which a report pays for only when it draws
    from ..plot._styles import STYLES

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

    Returns
    -------
    list of dict
        ``key``, ``title``, ``caption`` and ``svg`` of each figure, its drawn
        ``width`` and ``height`` in points and its smallest type ``min_font``;
        ``families``, the font families of its text (to declare them for the
        page); ``for_print``, whether it is for a PDF.
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
        fig = _draw_one(
            result, key, title, name, options, prefix=prefix, font=font, for_print=for_print
        )
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
    whole = _draw_one(
        result, "cd", title, name, options, prefix=prefix, font=font, for_print=for_print
    )
    whole["caption"] = _caption("cd", result)
    if not for_print or _printed_min(whole) >= MIN_PRINTED_PT:
        return whole
    # the narrower of the landscape pages, so that the figure fits either paper
    wide_in = min(LANDSCAPE_WIDTH_PT.values()) / 72.0
    wide = _draw_one(
        result,
        "cd",
        title,
        name,
        {**options, "width": wide_in},
        prefix=prefix,
        font=font,
        for_print=True,
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
            _relabelled(result, labels),
            "cd",
            title,
            name,
            options,
            prefix=prefix,
            font=font,
            for_print=True,
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
    from ..plot._layout import common_prefix, shorten_name

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
                for_print=True,
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


def _draw_one(result, key, title, name, options, *, prefix, font, for_print) -> dict | None:
    """One figure as a cleaned SVG with its size; None for a heatmap too large to read."""
    from .. import plot
    from ..plot._fonts import rtl_characters

    # the report prints its own captions under the figures; paper-wide is the text width of
    # the PDF page (7 in), so the figures print at their drawn size and their type stays at
    # the style's sizes
    kwargs = {"caption": False, "style": _report_style(), **options}
    if font is not None:
        kwargs["font"] = font
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", CdplotWarning)
        if key == "heatmap":
            # a heatmap too large to read helps nobody in a report: the pairwise section lists
            # the significant pairs instead, and says why the figure is not there.  Its
            # warning, raised, stops the plot at its size check, before it draws what the
            # report would throw away (0.03-0.06 s at 60-104 methods)
            warnings.simplefilter("error", CdplotWarning)
        try:
            ax = getattr(plot, name)(result, **kwargs)
        except CdplotWarning:
            return None
    try:
        for w in caught:
            # the report places and splits its figures itself (a page-tall chart prints in
            # parts), so a style's page height is not the report's limit
            if not issubclass(w.category, FigureSizeWarning):
                warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        # no fonts inside each figure: the report declares its fonts once for the page (with
        # every character of the figures), and clean_svg would blank the figures' data: URLs.
        # Right-to-left names are drawn as glyph outlines, shaped by matplotlib: WeasyPrint
        # sets SVG text letter by letter, which reversed and unjoined Arabic in the PDF
        paths = bool(rtl_characters(result.methods))
        # the report drew this figure and added nothing outside it: no second layout pass
        svg = plot.render_svg(ax, embed_fonts=False, text_as_paths=paths, keep_outside=False)
    finally:
        _close(ax)
    return {
        "key": key,
        "title": title,
        "svg": clean_svg(svg, f"{prefix}-{key}"),
        "for_print": for_print,
        **drawn_measures(ax),
    }


def anova_figure_svgs(auto, *, prefix: str, font=None, format="pdf") -> list[dict]:
    """The figure of compare_auto's parametric path: the heatmap of Tukey's adjusted p-values.

    Parameters
    ----------
    auto : AutoResult
        A result whose analysis is repeated-measures ANOVA with Tukey's HSD.
    prefix : str
        Unique prefix for the ids of the figure.
    font : str, optional
        Font option passed to the plot function.
    format : {'pdf', 'html'}, default 'pdf'
        The report the figure is for (see :func:`figure_svgs`).

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
        for_print=check_option("format", format, REPORT_FORMATS) == "pdf",
    )
    if fig is None:
        return []
    fig["caption"] = (
        "Tukey-adjusted p-value of each pair of methods by level; methods in the order of their "
        "mean scores (best first)."
    )
    return [fig]
