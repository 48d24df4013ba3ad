"""A recording canvas: cdplot's charts written as SVG without matplotlib's figure machinery.

The charts draw through four primitives of :mod:`cdplot.plot._common`
(``add_line``, ``add_text``, ``add_rect``, ``add_polygons``).  Inside
:func:`recording`, a chart drawn into a new figure gets a :class:`Canvas`
instead of a matplotlib Axes: the primitives record what they would have
drawn, and :meth:`Canvas.svg` writes the document matplotlib's SVG backend
writes for the same artists -- the same size, the same ``<g id>`` per
artist, lines, markers, patches and hatches in the same styles, text as
``<text>`` placed by matplotlib's own layout rule (``Text._get_layout``,
measured with the same unhinted FreeType faces) -- in draw order (zorder,
then insertion).  Importing ``matplotlib.figure`` with its axes, artists
and backends costs about 0.3-0.7 s per process; this module needs only
``matplotlib.colors``, ``font_manager`` and ``ft2font``, which measuring
text loads anyway.

Anything the canvas cannot honour is decided before drawing
(:func:`can_record`): a chart then draws with matplotlib as before.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import hashlib
import math

__all__ = ["recording", "can_record", "is_canvas", "Canvas"]

_active: contextvars.ContextVar[bool] = contextvars.ContextVar("cdplot_svg", default=False)


@contextlib.contextmanager
def recording():
    """Charts drawn into new figures inside this block are recorded :class:`Canvas` objects.

    Only for output that becomes SVG: a canvas can write nothing else.
    """
    token = _active.set(True)
    try:
        yield
    finally:
        _active.reset(token)


# property aliases, as matplotlib's Line2D, Text and Patch accept them
_ALIASES = {
    "c": "color",
    "lw": "linewidth",
    "ls": "linestyle",
    "ms": "markersize",
    "mec": "markeredgecolor",
    "mew": "markeredgewidth",
    "mfc": "markerfacecolor",
    "ec": "edgecolor",
    "fc": "facecolor",
    "family": "fontfamily",
    "size": "fontsize",
    "weight": "fontweight",
    "stretch": "fontstretch",
    "horizontalalignment": "ha",
    "verticalalignment": "va",
}
_CAPS = {"butt", "projecting", "round"}
_JOINS = {"miter", "round", "bevel"}
_SOLID = {"-", "solid"}
_NO_LINE = {"None", "none", " ", ""}
# what user label_kws / line_kws may hold for the canvas to draw them as matplotlib would
LABEL_KEYS = {"color", "c", "alpha"}
LINE_KEYS = {
    "color",
    "c",
    "alpha",
    "linewidth",
    "lw",
    "solid_capstyle",
    "solid_joinstyle",
    "linestyle",
    "ls",
    "zorder",
}
EDGE_KEYS = {"edgecolor", "ec", "linewidth", "lw"}


# the values the canvas draws, per property (anything else goes through matplotlib)
_CHOICES = {"solid_capstyle": _CAPS, "solid_joinstyle": _JOINS, "linestyle": _SOLID}


def _known(kws, keys) -> bool:
    from matplotlib.colors import is_color_like

    for key, value in (kws or {}).items():
        name = _ALIASES.get(key, key)
        if key not in keys:
            return False
        if name in ("linewidth", "alpha", "zorder"):
            ok = not isinstance(value, bool) and isinstance(value, (int, float))
        elif name in _CHOICES:
            ok = isinstance(value, str) and value in _CHOICES[name]
        else:  # colours
            ok = is_color_like(value)
        if not ok:
            return False
    return True


def can_record(ax, label_kws, line_kws, *, line_keys=LINE_KEYS) -> bool:
    """Whether a chart drawn now with these options is recorded on a :class:`Canvas`.

    Only inside :func:`recording`, only into a new figure, and only when
    every user property is one the canvas draws exactly as matplotlib does.
    """
    return (
        _active.get()
        and ax is None
        and _known(label_kws, LABEL_KEYS)
        and _known(line_kws, line_keys)
    )


def is_canvas(obj) -> bool:
    return isinstance(obj, Canvas)


def _norm(kws: dict) -> dict:
    out = {}
    for key, value in kws.items():
        name = _ALIASES.get(key, key)
        if name in out:
            raise TypeError(f"Got both {name!r} and {key!r}, which are aliases of one another")
        out[name] = value
    return out


def _fmt(x: float) -> str:
    # matplotlib's _short_float_fmt, and what its path writer prints (6 decimals, trimmed)
    return f"{x:f}".rstrip("0").rstrip(".")


def _css(style: dict) -> str:
    return "; ".join(f"{k}: {v}" for k, v in style.items())


def _rgba(color, alpha=None) -> tuple[float, float, float, float]:
    from matplotlib.colors import to_rgba

    return to_rgba(color, alpha)


def _hex(rgba) -> str:
    from matplotlib.colors import to_hex

    return to_hex(rgba, keep_alpha=False)


def _escape_cdata(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _attr(v: str) -> str:
    # matplotlib's XMLWriter quoting
    if '"' not in v:
        return '"' + _escape_cdata(v) + '"'
    if "'" not in v:
        return "'" + _escape_cdata(v) + "'"
    esc = v.replace("&", "&amp;").replace("'", "&apos;").replace('"', "&quot;")
    return '"' + esc.replace("<", "&lt;").replace(">", "&gt;") + '"'


def _np_floats(values):
    import numpy as np

    return None if values is None else tuple(np.float64(v) for v in values)


def _make_id(kind: str, content) -> str:
    # matplotlib's RendererSVG._make_id with cdplot's fixed svg.hashsalt
    m = hashlib.sha256()
    m.update(b"cdplot")
    m.update(str(content).encode("utf8"))
    return f"{kind}{m.hexdigest()[:10]}"


def _num(x: float) -> str:
    # a path coordinate: matplotlib's path writer never prints "-0"
    return _fmt(x + 0.0)


def _polyline(xs, ys) -> str:
    """A line's ``d``: ``None`` (or NaN) vertices break it, as in ``ax.plot``."""
    out = []
    move = True
    for x, y in zip(xs, ys, strict=True):
        if x is None or y is None or x != x or y != y:
            move = True
            continue
        out.append(f"{'M' if move else 'L'} {_num(x)} {_num(y)} \n")
        move = False
    from matplotlib import rcParams

    if len(xs) >= 128 and rcParams["path.simplify"] and out and out[-1][0] == "L":
        # matplotlib simplifies lines of 128 vertices or more (Path.should_simplify); for the
        # charts' lines (separate straight strokes) its simplifier changes nothing but
        # repeating the last vertex
        out.append(out[-1])
    return "".join(out)


def _closed(points) -> str:
    first, *rest = points
    d = f"M {_num(first[0])} {_num(first[1])} \n"
    d += "".join(f"L {_num(x)} {_num(y)} \n" for x, y in rest)
    return d + "z\n"


@functools.lru_cache(maxsize=64)
def _circle_path(r: float) -> str:
    """matplotlib's unit circle (8 cubic Beziers) scaled to radius ``r``, y flipped."""
    magic = 0.2652031
    sh = math.sqrt(0.5)
    m45 = sh * magic
    v = [
        (0.0, -1.0),
        (magic, -1.0),
        (sh - m45, -sh - m45),
        (sh, -sh),
        (sh + m45, -sh + m45),
        (1.0, -magic),
        (1.0, 0.0),
        (1.0, magic),
        (sh + m45, sh - m45),
        (sh, sh),
        (sh - m45, sh + m45),
        (magic, 1.0),
        (0.0, 1.0),
        (-magic, 1.0),
        (-sh + m45, sh + m45),
        (-sh, sh),
        (-sh - m45, sh - m45),
        (-1.0, magic),
        (-1.0, 0.0),
        (-1.0, -magic),
        (-sh - m45, -sh + m45),
        (-sh, -sh),
        (-sh + m45, -sh - m45),
        (-magic, -1.0),
        (0.0, -1.0),
    ]
    pts = [(x * r, -y * r) for x, y in v]
    d = f"M {_num(pts[0][0])} {_num(pts[0][1])} \n"
    for i in range(1, len(pts), 3):
        d += "C " + " ".join(f"{_num(x)} {_num(y)}" for x, y in pts[i : i + 3]) + " \n"
    return d + "z\n"


@functools.lru_cache(maxsize=16)
def _hatch_path(hatch: str, size: int = 72) -> str:
    """The ``////`` hatch of matplotlib (density 6 lines per unit per '/'), in a 72-unit tile."""
    n = int(hatch.count("/") * 6)
    if hatch.strip("/") or n == 0:
        raise ValueError(f"hatch {hatch!r}: the SVG canvas draws only '/' hatches")
    out = []
    for i in range(n + 1):
        s = -0.5 + i / n
        out.append(f"M {_num(size * s)} {_num(size + size * s)} \n")
        out.append(f"L {_num(size * (1 + s))} {_num(size * s)} \n")
    return "".join(out)


def _stroke_style(style: dict, rgba, lw: float, join: str, cap: str, *, forced: bool) -> None:
    # matplotlib's RendererSVG._get_style_dict, the stroke half
    if lw:
        style["stroke"] = _hex(rgba)
        if not forced and rgba[3] != 1.0:
            style["stroke-opacity"] = _fmt(rgba[3])
        if lw != 1.0:
            style["stroke-width"] = _fmt(lw)
        if join != "round":
            style["stroke-linejoin"] = join
        if cap != "butt":
            style["stroke-linecap"] = {"projecting": "square"}.get(cap, cap)


def _fill_style(style: dict, face, *, hatch_id=None, forced: bool = False) -> None:
    if hatch_id is not None:
        style["fill"] = f"url(#{hatch_id})"
        if face is not None and face[3] != 1.0 and not forced:
            style["fill-opacity"] = _fmt(face[3])
    elif face is None:
        style["fill"] = "none"
    else:
        if tuple(face[:3]) != (0, 0, 0):
            style["fill"] = _hex(face)
        if face[3] != 1.0 and not forced:
            style["fill-opacity"] = _fmt(face[3])


# ---- text: matplotlib's faces and layout --------------------------------------------


@functools.lru_cache(maxsize=32)
def _face_files(families: tuple[str, ...], weight, stretch) -> tuple[str, ...]:
    """The files matplotlib sets text of these families in (FontManager._find_fonts_by_props)."""
    from matplotlib.font_manager import FontProperties, findfont

    files = []
    for family in families:
        prop = FontProperties(family=family, weight=weight, stretch=stretch)
        try:
            files.append(findfont(prop, fallback_to_default=False))
        except ValueError:  # as matplotlib: a family it cannot find is left out
            continue
    if not files:
        files.append(findfont(FontProperties(weight=weight, stretch=stretch)))
    return tuple(files)


def _extent(families, weight, stretch, size: float, text: str) -> tuple[float, float, float]:
    """``(width, height, descent)`` as matplotlib's SVG renderer measures text (TextToPath)."""
    from matplotlib.font_manager import get_font
    from matplotlib.ft2font import LoadFlags

    face = get_font(list(_face_files(families, weight, stretch)))
    # TextToPath sets every text at 100 pt, 72 dpi, unhinted, and scales the result
    face.set_size(100.0, 72)
    face.set_text(text, 0.0, flags=LoadFlags.NO_HINTING)
    w, h = face.get_width_height()
    d = face.get_descent()
    scale = size / 100.0
    return w / 64.0 * scale, h / 64.0 * scale, d / 64.0 * scale


def _rotation(value) -> float:
    # matplotlib's Text.set_rotation / get_rotation
    if value is None or value == "horizontal":
        return 0.0
    if value == "vertical":
        return 90.0
    return float(value) % 360


def _text_layout(lines, measure, *, ha, va, angle, rotation_mode, linespacing):
    """matplotlib's ``Text._get_layout``: each line's offset from the anchor (y up)."""
    _, lp_h, lp_d = measure("lp")
    min_dy = (lp_h - lp_d) * linespacing
    ws, xs, ys = [], [], []
    thisy = 0.0
    baseline = d = 0.0
    for i, line in enumerate(lines):
        w, h, d = measure(line) if line else (0.0, 0.0, 0.0)
        h = max(h, lp_h)
        d = max(d, lp_d)
        ws.append(w)
        baseline = (h - d) - thisy
        if i == 0:
            thisy = -(h - d)
        else:
            thisy -= max(min_dy, (h - d) * linespacing)
        xs.append(0.0)
        ys.append(thisy)
        thisy -= d
    descent = d
    width = max(ws)
    ymin0 = ys[-1] - descent
    if ha == "center":
        offsets = [(x + width / 2 - w / 2, y) for x, y, w in zip(xs, ys, ws, strict=True)]
    elif ha == "right":
        offsets = [(x + width - w, y) for x, y, w in zip(xs, ys, ws, strict=True)]
    else:
        offsets = list(zip(xs, ys, strict=True))
    rad = math.radians(angle)
    cos, sin = math.cos(rad), math.sin(rad)

    def rot(x, y):
        return (cos * x - sin * y, sin * x + cos * y)

    corners = [rot(x, y) for x, y in ((0.0, ymin0), (0.0, 0.0), (width, 0.0), (width, ymin0))]
    xmin = min(c[0] for c in corners)
    xmax = max(c[0] for c in corners)
    ymin = min(c[1] for c in corners)
    ymax = max(c[1] for c in corners)
    height = ymax - ymin
    if rotation_mode != "anchor":
        offsetx = {"center": (xmin + xmax) / 2, "right": xmax}.get(ha, xmin)
        offsety = {
            "center": (ymin + ymax) / 2,
            "top": ymax,
            "baseline": ymin + descent,
            "center_baseline": ymin + height - baseline / 2.0,
        }.get(va, ymin)
    else:
        ox = {"center": width / 2.0, "right": width}.get(ha, 0.0)
        oy = {
            "center": (ymin0 + 0.0) / 2.0,
            "top": 0.0,
            "baseline": 0.0 - baseline,
            "center_baseline": 0.0 - baseline / 2.0,
        }.get(va, ymin0)
        offsetx, offsety = rot(ox, oy)
    return [(rx - offsetx, ry - offsety) for rx, ry in (rot(x, y) for x, y in offsets)]


# ---- the canvas ------------------------------------------------------------------------

_ZORDER = {"line": 2.0, "text": 3.0, "rect": 1.0, "polygons": 1.0}


class Canvas:
    """What a chart drew, in points from the top-left corner, ready to be written as SVG.

    Stands where the chart's Axes would: the ``_common`` primitives record
    into it, :func:`cdplot.save_figure` and :func:`cdplot.render_svg`
    write it (SVG only).
    """

    def __init__(self, width: float, height: float):
        self.width = float(width)
        self.height = float(height)
        self._items: list[tuple[float, int, str, dict]] = []

    # the primitives -----------------------------------------------------------------
    def _add(self, kind: str, item: dict) -> dict:
        z = item.pop("zorder", None)
        self._items.append((_ZORDER[kind] if z is None else float(z), len(self._items), kind, item))
        return item

    def line(self, xs, ys, marker=None, **kws):
        from matplotlib import rcParams

        kws = _norm(kws)
        kws.pop("clip_on", None)
        if marker is not None:
            if marker != "o":
                raise ValueError(f"the SVG canvas draws only 'o' markers, not {marker!r}")
            kws = {"linestyle": "None", **kws}
        style = kws.pop("linestyle", rcParams["lines.linestyle"])
        if style not in _SOLID | _NO_LINE:
            raise ValueError(f"the SVG canvas draws only solid lines, not {style!r}")
        color = kws.pop("color", rcParams["lines.color"])
        alpha = kws.pop("alpha", None)
        item = {
            "gid": kws.pop("gid", None),
            "zorder": kws.pop("zorder", None),
            "xs": list(xs),
            "ys": list(ys),
            "solid": style in _SOLID,
            "rgba": _rgba(color, alpha),
            "lw": float(kws.pop("linewidth", rcParams["lines.linewidth"])),
            "cap": kws.pop("solid_capstyle", rcParams["lines.solid_capstyle"]),
            "join": kws.pop("solid_joinstyle", rcParams["lines.solid_joinstyle"]),
            "marker": marker,
        }
        if marker is not None:
            mec = kws.pop("markeredgecolor", "auto")
            mfc = kws.pop("markerfacecolor", "auto")
            fc = _rgba(color if mfc == "auto" else mfc, alpha)
            ec = _rgba(color if mec == "auto" else mec, alpha)
            if mec == "auto" and mfc != "none":
                ec = ec[:3] + (fc[3],)
            item.update(
                ms=float(kws.pop("markersize", rcParams["lines.markersize"])),
                mew=float(kws.pop("markeredgewidth", rcParams["lines.markeredgewidth"])),
                fc=fc,
                ec=ec,
            )
        if kws:
            raise ValueError(f"the SVG canvas cannot draw line properties {sorted(kws)}")
        return self._add("line", item)

    def text(self, x, y, s, **kws):
        from matplotlib import rcParams

        kws = _norm(kws)
        for key in ("clip_on", "parse_math"):
            kws.pop(key, None)
        family = kws.pop("fontfamily", rcParams["font.family"])
        item = {
            "gid": kws.pop("gid", None),
            "zorder": kws.pop("zorder", None),
            "x": float(x),
            "y": float(y),
            "text": str(s),
            "families": (family,) if isinstance(family, str) else tuple(family),
            "size": float(kws.pop("fontsize", rcParams["font.size"])),
            "weight": kws.pop("fontweight", "normal"),
            "stretch": kws.pop("fontstretch", "normal"),
            "rgba": _rgba(kws.pop("color", rcParams["text.color"])),
            "alpha": kws.pop("alpha", None),
            "ha": kws.pop("ha", "left"),
            "va": kws.pop("va", "baseline"),
            "angle": _rotation(kws.pop("rotation", 0.0)),
            "rotation_mode": kws.pop("rotation_mode", None) or "default",
            "linespacing": float(kws.pop("linespacing", 1.2)),
        }
        if kws:
            raise ValueError(f"the SVG canvas cannot draw text properties {sorted(kws)}")
        return self._add("text", item)

    def rect(self, x, y, w, h, *, facecolor, edgecolor="none", lw=1.0, alpha=None, **kws):
        kws = _norm(kws)
        item = {
            "gid": kws.pop("gid", None),
            "zorder": kws.pop("zorder", None),
            "polys": [[(x, y), (x + w, y), (x + w, y + h), (x, y + h)]],
            "faces": [_rgba(facecolor, alpha)],
            "edge": _rgba(edgecolor, alpha if edgecolor != "none" else None),
            "lw": float(lw),
            "alpha": alpha,
            "hatch": kws.pop("hatch", None),
            "join": "miter",  # a patch's default
            # a patch added to an Axes is clipped to it unless told otherwise; the canvas
            # writes the clip path matplotlib writes (the whole figure: nothing is cut)
            "clip": bool(kws.pop("clip_on", True)),
        }
        if kws:
            raise ValueError(f"the SVG canvas cannot draw rectangle properties {sorted(kws)}")
        return self._add("rect", item)

    def polygons(self, polys, *, facecolors, edgecolors, linewidths, hatch=None, **kws):
        kws = _norm(kws)
        faces = [facecolors] * len(polys) if isinstance(facecolors, str) else list(facecolors)
        item = {
            "gid": kws.pop("gid", None),
            "zorder": kws.pop("zorder", None),
            "polys": [list(p) for p in polys],
            "faces": [_rgba(f) for f in faces],
            "edge": _rgba(edgecolors),
            "lw": float(linewidths),
            "alpha": None,
            "hatch": hatch,
            "join": "round",  # a collection's default
            "clip": False,  # the charts' collections are never clipped
        }
        kws.pop("clip_on", None)
        if kws:
            raise ValueError(f"the SVG canvas cannot draw polygon properties {sorted(kws)}")
        return self._add("polygons", item)

    # what save and the reports ask of a drawing ---------------------------------------
    def texts(self):
        """``(text, families, weight, stretch, size, gid)`` of every text, in drawing order."""
        return [
            (i["text"], i["families"], i["weight"], i["stretch"], i["size"], i["gid"])
            for _z, _n, kind, i in sorted(self._items, key=lambda t: (t[0], t[1]))
            if kind == "text" and i["text"]
        ]

    def svg(self, *, creator: str, font_css: str = "") -> str:
        """The SVG document, as matplotlib's backend writes it for the same artists."""
        w = _Writer(self.width, self.height)
        return w.document(self._items, creator=creator, font_css=font_css)


class _Writer:
    def __init__(self, width: float, height: float):
        self.width, self.height = width, height
        self.out: list[str] = []
        self.markers: dict[tuple[str, str], str] = {}
        self.hatches: dict[tuple, tuple[str, str, tuple, tuple, float]] = {}
        self.counts: dict[str, int] = {}
        self.clip: tuple[str, tuple] | None = None

    def group(self, kind: str, gid) -> str:
        if gid:
            return f"   <g id={_attr(gid)}>\n"
        n = self.counts[kind] = self.counts.get(kind, 0) + 1
        return f'   <g id="{kind}_{n}">\n'

    def document(self, items, *, creator: str, font_css: str) -> str:
        o = self.out
        sw, sh = _fmt(self.width), _fmt(self.height)
        o.append(
            '<?xml version="1.0" encoding="utf-8" standalone="no"?>\n'
            '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN"\n'
            '  "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n'
            f'<svg xmlns:xlink="http://www.w3.org/1999/xlink" width="{sw}pt" height="{sh}pt" '
            f'viewBox="0 0 {sw} {sh}" xmlns="http://www.w3.org/2000/svg" version="1.1">\n'
            " <metadata>\n"
            '  <rdf:RDF xmlns:dc="http://purl.org/dc/elements/1.1/" '
            'xmlns:cc="http://creativecommons.org/ns#" '
            'xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n'
            "   <cc:Work>\n"
            '    <dc:type rdf:resource="http://purl.org/dc/dcmitype/StillImage"/>\n'
            "    <dc:format>image/svg+xml</dc:format>\n"
            "    <dc:creator>\n"
            "     <cc:Agent>\n"
            f"      <dc:title>{_escape_cdata(creator)}</dc:title>\n"
            "     </cc:Agent>\n"
            "    </dc:creator>\n"
            "   </cc:Work>\n"
            "  </rdf:RDF>\n"
            " </metadata>\n"
            " <defs>\n"
            '  <style type="text/css">'
            + (font_css + "\n" if font_css else "")
            + "*{stroke-linejoin: round; stroke-linecap: butt}</style>\n"
            " </defs>\n"
            ' <g id="figure_1">\n'
            '  <g id="patch_1">\n'
            f'   <path d="M 0 {sh} \nL {sw} {sh} \nL {sw} 0 \nL 0 0 \nz\n" '
            'style="fill: #ffffff"/>\n'
            "  </g>\n"
            '  <g id="axes_1">\n'
        )
        self.counts["patch"] = 1
        for _z, _n, kind, item in sorted(items, key=lambda t: (t[0], t[1])):
            getattr(self, f"_{kind}")(item)
        o.append("  </g>\n </g>\n")
        if self.clip is not None:
            cid, (x, y, w, h) = self.clip
            o.append(
                f' <defs>\n  <clipPath id="{cid}">\n   <rect x="{_fmt(x)}" y="{_fmt(y)}" '
                f'width="{_fmt(w)}" height="{_fmt(h)}"/>\n  </clipPath>\n </defs>\n'
            )
        if self.hatches:
            o.append(" <defs>\n")
            for hid, fill, stroke, lw, hatch in self.hatches.values():
                hstyle = {
                    "fill": _hex(stroke),
                    "stroke": _hex(stroke),
                    "stroke-width": str(lw),
                    "stroke-linecap": "butt",
                    "stroke-linejoin": "miter",
                }
                if stroke[3] < 1:
                    hstyle["stroke-opacity"] = str(stroke[3])
                o.append(
                    f'  <pattern id="{hid}" patternUnits="userSpaceOnUse" x="0" y="0" '
                    'width="72" height="72">\n'
                    f'   <rect x="0" y="0" width="73" height="73" fill="{fill}"/>\n'
                    f'   <path d="{_hatch_path(hatch)}" style="{_css(hstyle)}"/>\n'
                    "  </pattern>\n"
                )
            o.append(" </defs>\n")
        o.append("</svg>\n")
        return "".join(o)

    # artists ---------------------------------------------------------------------------
    def _line(self, it) -> None:
        o = self.out
        o.append(self.group("line2d", it["gid"]))
        if it["solid"] and it["xs"]:
            style = {"fill": "none"}
            _stroke_style(style, it["rgba"], it["lw"], it["join"], it["cap"], forced=False)
            d = _polyline(it["xs"], it["ys"])
            if d:
                o.append(f'    <path d="{d}" style={_attr(_css(style))}/>\n')
        if it["marker"] is not None and it["ms"] > 0:
            pts = [
                (x, y)
                for x, y in zip(it["xs"], it["ys"], strict=True)
                if x is not None and y is not None and x == x and y == y
            ]
            if pts:
                path = _circle_path(0.5 * it["ms"])
                style: dict = {}
                _fill_style(style, it["fc"])
                _stroke_style(style, it["ec"], it["mew"], "round", "butt", forced=False)
                css = _css(style)
                key = (path, css)
                oid = self.markers.get(key)
                if oid is None:
                    oid = self.markers[key] = _make_id("m", key)
                    stroke = _css({k: v for k, v in style.items() if k.startswith("stroke")})
                    attrs = f" style={_attr(stroke)}" if stroke else ""
                    o.append(
                        f'    <defs>\n     <path id="{oid}" d="{path}"{attrs}/>\n    </defs>\n'
                    )
                o.append("    <g>\n")
                for x, y in pts:
                    o.append(
                        f'     <use xlink:href="#{oid}" x="{_fmt(x)}" y="{_fmt(y)}" '
                        f"style={_attr(css)}/>\n"
                    )
                o.append("    </g>\n")
        o.append("   </g>\n")

    def _clip_id(self) -> str:
        if self.clip is None:
            box = (0.0, self.height - (0.0 + self.height), self.width, self.height)
            self.clip = (_make_id("p", _np_floats(box)), box)
        return self.clip[0]

    def _hatch_id(self, hatch, face, edge) -> str:
        from matplotlib import rcParams

        lw = rcParams["hatch.linewidth"]
        key = (hatch, face, edge, lw)
        got = self.hatches.get(key)
        if got is None:
            # the id matplotlib gives the same pattern (it hashes the colours as numpy floats)
            hid = _make_id("h", (hatch, _np_floats(face), _np_floats(edge), lw))
            fill = "none" if face is None else _hex(face)
            self.hatches[key] = (hid, fill, edge, lw, hatch)
            return hid
        return got[0]

    def _shapes(self, it, kind: str) -> None:
        o = self.out
        o.append(self.group(kind, it["gid"]))
        alpha = it["alpha"]
        forced = alpha is not None
        edge = it["edge"]
        lw = it["lw"] if edge[3] != 0 else 0.0
        for poly, face in zip(it["polys"], it["faces"], strict=True):
            face = None if face[3] == 0 else face
            style: dict = {}
            hid = self._hatch_id(it["hatch"], face, edge) if it["hatch"] else None
            _fill_style(style, face, hatch_id=hid, forced=forced)
            if forced and alpha != 1.0:
                style["opacity"] = _fmt(alpha)
            _stroke_style(style, edge, lw, it["join"], "butt", forced=forced)
            clip = f' clip-path="url(#{self._clip_id()})"' if it["clip"] else ""
            o.append(f'    <path d="{_closed(poly)}"{clip} style={_attr(_css(style))}/>\n')
        o.append("   </g>\n")

    def _rect(self, it) -> None:
        self._shapes(it, "patch")

    def _polygons(self, it) -> None:
        self._shapes(it, "PolyCollection")

    def _text(self, it) -> None:
        from matplotlib import font_manager as fm

        text = it["text"]
        if not text:
            return
        o = self.out
        fam, weight, stretch, size = it["families"], it["weight"], it["stretch"], it["size"]

        def measure(s):
            return _extent(fam, weight, stretch, size, s)

        lines = text.split("\n")
        offsets = _text_layout(
            lines,
            measure,
            ha=it["ha"],
            va=it["va"],
            angle=it["angle"],
            rotation_mode=it["rotation_mode"],
            linespacing=it["linespacing"],
        )
        rgba = it["rgba"]
        alpha = it["alpha"] if it["alpha"] is not None else rgba[3]
        font_style: dict = {}
        color_style: dict = {}
        color = _hex(rgba)
        if color != "#000000":
            color_style["fill"] = color
        if alpha != 1:
            color_style["opacity"] = _fmt(alpha)
        w = fm.weight_dict.get(weight, weight)
        if w != 400:
            font_style["font-weight"] = f"{w}"
        font_style["font-size"] = f"{_fmt(size)}px"
        names = [
            name if name in fm.font_family_aliases else repr(name)
            for name in (("sans-serif" if f in ("sans", "sans serif") else f) for f in fam)
        ]
        font_style["font-family"] = ", ".join(dict.fromkeys(names))
        if stretch != "normal":
            font_style["font-stretch"] = stretch
        angle = it["angle"]
        o.append(self.group("text", it["gid"]))
        for line, (dx, dy) in zip(lines, offsets, strict=True):
            x = it["x"] + dx
            y = it["y"] - dy
            if len(lines) == 1 and (angle == 0 or it["rotation_mode"] == "anchor"):
                # the anchor point with text-anchor, as matplotlib writes single lines
                rad = math.radians(angle)
                sin, cos = math.sin(rad), math.cos(rad)
                ax, ay = it["x"], it["y"]
                v = sin * (x - ax) + cos * (y - ay)
                ax, ay = ax + v * sin, ay + v * cos
                anchor = {"left": "start", "right": "end", "center": "middle"}[it["ha"]]
                style = _css({**font_style, "text-anchor": anchor, **color_style})
                attrs = (
                    f'style={_attr(style)} x="{_fmt(ax)}" y="{_fmt(ay)}" '
                    f'transform="rotate({_fmt(-angle)} {_fmt(ax)} {_fmt(ay)})"'
                )
            else:
                style = _css({**font_style, **color_style})
                parts = []
                if (x, y) != (0, 0):
                    parts.append(f"translate({_fmt(x)} {_fmt(y)})")
                if angle != 0:
                    parts.append(f"rotate({_fmt(-angle)})")
                attrs = f"style={_attr(style)}"
                if parts:
                    attrs += f" transform={_attr(' '.join(parts))}"
            if line:
                o.append(f"    <text {attrs}>{_escape_cdata(line)}</text>\n")
            else:
                o.append(f"    <text {attrs}/>\n")
        o.append("   </g>\n")
