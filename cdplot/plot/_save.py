"""Writing figures: PNG, SVG and PDF, byte-identical across runs, written atomically."""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING

from .._atomic import atomic_write
from .._options import FIGURE_FORMATS as FORMATS
from .._options import MAX_DPI, MIN_DPI, SVG_TEXTS, check_bool, check_option
from ..errors import CdplotError, opt
from ._fontembed import embed_fonts as with_font_faces
from ._fontembed import font_face_css, keep_fonts_on_savefig, quiet_fonttools
from ._fonts import register_fonts

if TYPE_CHECKING:
    import os
    from typing import Literal

    from .._options import FigureFormat, SvgText
    from ._types import Axes, Figure

__all__ = ["save_figure", "render_svg", "FORMATS", "keep_fonts_on_savefig"]


def _figure(ax_or_fig):
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure, SubFigure

    if isinstance(ax_or_fig, Axes):
        return (
            ax_or_fig.figure.get_figure(root=True)
            if hasattr(ax_or_fig.figure, "get_figure")
            else ax_or_fig.figure
        )
    if isinstance(ax_or_fig, SubFigure):
        return ax_or_fig.get_figure(root=True)
    if isinstance(ax_or_fig, Figure):
        return ax_or_fig
    raise CdplotError(
        f"expected a matplotlib Axes or Figure to save, got {type(ax_or_fig).__name__}"
    )


def format_of(path, format=None) -> str:
    """The output format: ``format`` if given, else the extension; unknown ones raise."""
    if format is not None:
        if not isinstance(format, str) or format.lower() not in FORMATS:
            raise CdplotError(
                f"option {opt('format', format)} is not valid; expected one of 'png', 'svg', 'pdf'",
                option="format",
            )
        return format.lower()
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix == "tex":
        # TikZ is laid out anew for LaTeX's text, from the result rather than a drawing
        raise CdplotError(
            f"output {str(path)!r}: TikZ is written from the result, not from a drawn figure; use "
            # a call written out in Python: its keyword is code, not an option to translate
            "cdplot.cd_tikz(result, path=...) (cdplot plot -o cd.tex on the command line)",
            option="path",
        )
    if suffix not in FORMATS:
        raise CdplotError(
            f"output {str(path)!r} has extension {('.' + suffix) if suffix else '(none)'!r}; "
            "expected .png, .svg or .pdf"
        )
    return suffix


def _rc(text_as_paths: bool = False) -> dict:
    return {
        # SVG text stays text (editable, searchable) unless paths are asked for
        "svg.fonttype": "path" if text_as_paths else "none",
        # fixed salt: the ids of clip paths and glyphs are the same on every run
        "svg.hashsalt": "cdplot",
        # TrueType (Type 42) embedding, never Type 3 bitmaps-as-procedures
        "pdf.fonttype": 42,
        "ps.fonttype": 42,
        "pdf.compression": 6,
        # PNG text at the widths the layout measured (see fonts.font_rc)
        "text.hinting": "no_hinting",
    }


def _metadata(fmt: str):
    from .._version import __version__

    creator = f"cdplot {__version__}"
    if fmt == "svg":
        return {"Date": None, "Creator": creator}
    if fmt == "pdf":
        return {"CreationDate": None, "ModDate": None, "Creator": creator, "Producer": creator}
    # PNG: matplotlib writes "Software"; keep it fixed too
    return {"Software": creator}


# room kept beyond what the user added outside the figure (a title), in points
_OVERFLOW_PAD = 3.0


def _kept_area(fig):
    """The area to save, in inches: the figure, grown to hold what lies outside it.

    A cdplot figure is sized to its content, so a title the user sets with
    ``ax.set_title`` (or a legend placed above) sits above the figure's top
    edge, where a plain save cuts it off.  The saved area grows on the sides
    where something sticks out (by the overflow and a small margin); it
    never shrinks, so a figure without additions is saved exactly as before
    (``None``: matplotlib's default area).
    """
    from matplotlib.backends.backend_agg import RendererAgg
    from matplotlib.transforms import Bbox

    if fig.get_layout_engine() is not None:
        # a layout engine (constrained, as power_curve uses) moves the axes at draw time:
        # measured before it has run, a legend above the axes sticks out of the figure
        # and the saved area grew by that, a blank band over the figure once it had run
        fig.draw_without_rendering()
    # a renderer of its own: a bare Figure's canvas has none, and the figure stays untouched
    renderer = RendererAgg(int(fig.bbox.width), int(fig.bbox.height), fig.dpi)
    tight = fig.get_tightbbox(renderer)  # inches
    box = fig.bbox_inches
    pad = _OVERFLOW_PAD / 72.0
    tol = 0.5 / 72.0  # half a point: rounding of text extents, never a user's artist
    x0 = tight.x0 - pad if tight.x0 < box.x0 - tol else box.x0
    y0 = tight.y0 - pad if tight.y0 < box.y0 - tol else box.y0
    x1 = tight.x1 + pad if tight.x1 > box.x1 + tol else box.x1
    y1 = tight.y1 + pad if tight.y1 > box.y1 + tol else box.y1
    if (x0, y0, x1, y1) == tuple(box.extents):
        return None
    return Bbox.from_extents(x0, y0, x1, y1)


def _write(
    fig,
    fh,
    fmt: str,
    dpi: float,
    text_as_paths: bool = False,
    embed_fonts: bool = True,
    keep_outside: bool = True,
) -> None:
    import matplotlib as mpl

    register_fonts()
    with quiet_fonttools(), mpl.rc_context(_rc(text_as_paths)):
        area = _kept_area(fig) if keep_outside else None
        extra = {} if area is None else {"bbox_inches": area}
        if fmt == "svg" and not text_as_paths and embed_fonts:
            # text stays <text> (editable), with the fonts it uses embedded
            buf = io.BytesIO()
            type(fig).savefig(  # matplotlib's own, not keep_fonts_on_savefig's
                fig,
                buf,
                format=fmt,
                dpi=dpi,
                metadata=_metadata(fmt),
                facecolor=fig.get_facecolor(),
                **extra,
            )
            fh.write(with_font_faces(buf.getvalue(), font_face_css(fig)))
        else:
            type(fig).savefig(  # matplotlib's own, not keep_fonts_on_savefig's
                fig,
                fh,
                format=fmt,
                dpi=dpi,
                metadata=_metadata(fmt),
                facecolor=fig.get_facecolor(),
                **extra,
            )


def _save_tikz(ax_or_fig, path: Path, standalone: bool) -> Path:
    """Write the TikZ picture of the one CD diagram or interval chart drawn in ``ax_or_fig``."""
    fig = _figure(ax_or_fig)
    axes = [ax_or_fig] if hasattr(ax_or_fig, "_cdplot_tikz") else fig.get_axes()
    drawn = [a for a in axes if hasattr(a, "_cdplot_tikz")]
    if len(drawn) != 1:
        raise CdplotError(
            f"output {str(path)!r}: a TikZ picture is written from one CD diagram or rank-interval "
            f"chart drawn by cdplot; this figure holds {len(drawn)}; pass that chart's Axes, or "
            "use cdplot.cd_tikz(result, path=...)",
            option="path",
        )
    from ._tikz import cd_tikz, intervals_tikz

    kind, result, options = drawn[0]._cdplot_tikz
    write = cd_tikz if kind == "cd" else intervals_tikz
    write(result, path=path, standalone=standalone, **options)
    return path


def save_figure(
    ax_or_fig: Axes | Figure,
    path: str | os.PathLike[str] | None,
    *,
    dpi: float = 300,
    format: FigureFormat | Literal["tex"] | None = None,
    standalone: bool = False,
    svg_text: SvgText = "paths",
) -> Path:
    """Save a figure as PNG, SVG or PDF, chosen by the extension of ``path``, or as TikZ.

    Parameters
    ----------
    ax_or_fig : matplotlib.axes.Axes or matplotlib.figure.Figure
        What a cdplot drawing function returned, or its figure.
    path : str or Path
        Output file, ending in ``.png``, ``.svg`` or ``.pdf``; or ``.tex`` for a
        TikZ picture of the CD diagram or rank-interval chart drawn in
        ``ax_or_fig``, laid out anew for LaTeX's text by
        :func:`cdplot.cd_tikz` / :func:`cdplot.intervals_tikz` with the options
        the chart was drawn with (its matplotlib font and ``label_kws`` do not
        apply: LaTeX sets the text in the paper's font).
    dpi : int, default 300
        Resolution of PNG output (vector formats ignore it).
    format : {'png', 'svg', 'pdf'}, optional
        Format to write whatever the extension (not for ``.tex``).
    standalone : bool, default False
        For ``.tex`` only: a complete LaTeX document instead of a picture to
        ``\\input``.
    svg_text : {'paths', 'text'}, default 'paths'
        For SVG only: how the text is written.  ``'paths'`` draws each glyph
        as an outline, so every viewer (browsers, librsvg and so GNOME,
        ImageMagick and pandoc, Inkscape, Illustrator) shows the text exactly
        as measured, but it cannot be edited or searched as text.
        ``'text'`` keeps ``<text>`` elements, editable and searchable, and
        embeds the subset of each font they use as an ``@font-face`` data
        URL: browsers draw them exactly, but renderers that ignore
        ``@font-face`` (librsvg, Inkscape) substitute an installed font,
        which may be wider than the room the layout measured (a name may
        then run past the figure's edge) unless the font (Lato, bundled
        with cdplot) is installed.

    Returns
    -------
    pathlib.Path
        The path written.

    Raises
    ------
    CdplotError
        For an unknown extension or format, or a ``dpi`` outside 10 to
        2400; nothing is written then.

    Notes
    -----
    SVG draws text as glyph outlines unless ``svg_text='text'`` (see
    above); PDF embeds the fonts as TrueType (``pdf.fonttype=42``), which
    IEEE's and ACM's checkers accept.  Neither holds a date or a
    random id, so the same figure gives the same bytes on every run.  The
    file is written to a temporary name and renamed, so after an error no
    file (and no half-written file) is left at ``path``.

    A figure holding cdplot text saved with matplotlib's own
    ``fig.savefig`` or ``plt.savefig`` gets the same TrueType fonts and
    SVG glyph outlines (each such figure carries its own ``savefig``;
    matplotlib's global rcParams are never changed; with
    ``svg.fonttype='none'`` set, its SVG text gets the embedded fonts), but
    not the fixed metadata or the atomic write.

    Examples
    --------
    >>> import cdplot, tempfile, os
    >>> ax = cdplot.cd_diagram(cdplot.load_example("demsar2006"))
    >>> out = cdplot.save_figure(ax, os.path.join(tempfile.mkdtemp(), "cd.svg"))
    >>> out.suffix
    '.svg'
    """
    check_bool("standalone", standalone)
    check_option("svg_text", svg_text, SVG_TEXTS)
    if Path(path).suffix.lower() == ".tex" and format is None:
        return _save_tikz(ax_or_fig, Path(path), standalone)
    if standalone:
        raise CdplotError(
            f"option {opt('standalone', True)} applies to .tex output, not {str(path)!r}",
            option="standalone",
        )
    fmt = format_of(path, format)
    if isinstance(dpi, bool) or not isinstance(dpi, (int, float)) or not MIN_DPI <= dpi <= MAX_DPI:
        raise CdplotError(
            f"option {opt('dpi', dpi)} must be a number from {MIN_DPI} to {MAX_DPI}", option="dpi"
        )
    path = Path(path)
    fig = _figure(ax_or_fig)
    with atomic_write(path, "wb") as fh:
        _write(fig, fh, fmt, dpi, text_as_paths=svg_text == "paths")
    return path


def render_svg(ax_or_fig, *, text_as_paths=False, embed_fonts=True, keep_outside=True) -> str:
    """Return the figure as an SVG document (a string), for embedding in reports.

    Parameters
    ----------
    ax_or_fig : matplotlib.axes.Axes or matplotlib.figure.Figure
        The figure to render.
    text_as_paths : bool, default False
        Draw glyphs as paths; by default text stays text, with the subset
        of each font it uses embedded (``@font-face`` data URLs), so that a
        renderer without the fonts (a browser) shows the same shapes.
    embed_fonts : bool, default True
        Embed those font subsets.  ``False`` leaves them out, for a page
        that declares the fonts once for all its figures (cdplot's reports
        do; subsetting the fonts of every figure is then wasted time).
    keep_outside : bool, default True
        Grow the saved area to hold what was added outside the figure after
        cdplot drew it (a title set with ``ax.set_title``), as
        :func:`save_figure` does.  Finding it lays the whole figure out a
        second time; ``False`` skips that, for a figure nothing was added to
        (cdplot's reports draw their own: 0.65 of 5.8 s of a 60-method
        report).

    Returns
    -------
    str
        The SVG, identical for identical figures.
    """
    from .._options import check_bool

    check_bool("text_as_paths", text_as_paths)
    check_bool("embed_fonts", embed_fonts)
    check_bool("keep_outside", keep_outside)
    fig = _figure(ax_or_fig)
    buf = io.BytesIO()
    _write(fig, buf, "svg", 72, text_as_paths, embed_fonts, keep_outside)
    return buf.getvalue().decode("utf-8")
