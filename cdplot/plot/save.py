"""Writing figures: PNG, SVG and PDF, byte-identical across runs, written atomically."""

from __future__ import annotations

import io
import logging
from pathlib import Path

from .._atomic import atomic_write
from .._options import MAX_DPI, MIN_DPI
from ..errors import CdplotError
from .fonts import register_fonts

__all__ = ["save_figure", "render_svg", "FORMATS"]

FORMATS = ("png", "svg", "pdf")


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
                f"option format={format!r} is not valid; expected one of 'png', 'svg', 'pdf'"
            )
        return format.lower()
    suffix = Path(path).suffix.lower().lstrip(".")
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


def _write(fig, fh, fmt: str, dpi: float, text_as_paths: bool = False) -> None:
    import matplotlib as mpl

    register_fonts()
    # While the PDF's fonts are subset, fontTools warns about the bundled
    # files themselves: CMU's private 'TeX ' table, which the subsetter rightly
    # drops, and Lato's 'created' date, stored as a Unix time.  Neither is
    # anything a user can act on, so they should not see them on every PDF.
    loggers = [
        logging.getLogger(name) for name in ("fontTools.subset", "fontTools.ttLib.tables._h_e_a_d")
    ]
    levels = [log.level for log in loggers]
    for log in loggers:
        log.setLevel(logging.ERROR)
    try:
        with mpl.rc_context(_rc(text_as_paths)):
            fig.savefig(
                fh, format=fmt, dpi=dpi, metadata=_metadata(fmt), facecolor=fig.get_facecolor()
            )
    finally:
        for log, level in zip(loggers, levels, strict=True):
            log.setLevel(level)


def save_figure(ax_or_fig, path, *, dpi=300, format=None):
    """Save a figure as PNG, SVG or PDF, chosen by the extension of ``path``.

    Parameters
    ----------
    ax_or_fig : matplotlib.axes.Axes or matplotlib.figure.Figure
        What a cdplot drawing function returned, or its figure.
    path : str or Path
        Output file, ending in ``.png``, ``.svg`` or ``.pdf``.
    dpi : int, default 300
        Resolution of PNG output (vector formats ignore it).
    format : {'png', 'svg', 'pdf'}, optional
        Format to write whatever the extension.

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
    SVG keeps text as text (``svg.fonttype='none'``) and PDF embeds the
    fonts as TrueType (``pdf.fonttype=42``).  Neither holds a date or a
    random id, so the same figure gives the same bytes on every run.  The
    file is written to a temporary name and renamed, so after an error no
    file (and no half-written file) is left at ``path``.

    Examples
    --------
    >>> import cdplot, tempfile, os
    >>> ax = cdplot.cd_diagram(cdplot.load_example("demsar2006"))
    >>> out = cdplot.save_figure(ax, os.path.join(tempfile.mkdtemp(), "cd.svg"))
    >>> out.suffix
    '.svg'
    """
    fmt = format_of(path, format)
    if isinstance(dpi, bool) or not isinstance(dpi, (int, float)) or not MIN_DPI <= dpi <= MAX_DPI:
        raise CdplotError(f"option dpi={dpi!r} must be a number from {MIN_DPI} to {MAX_DPI}")
    fig = _figure(ax_or_fig)
    path = Path(path)
    with atomic_write(path, "wb") as fh:
        _write(fig, fh, fmt, dpi)
    return path


def render_svg(ax_or_fig, *, text_as_paths=False) -> str:
    """Return the figure as an SVG document (a string), for embedding in reports.

    Parameters
    ----------
    ax_or_fig : matplotlib.axes.Axes or matplotlib.figure.Figure
        The figure to render.
    text_as_paths : bool, default False
        Draw glyphs as paths, so that a renderer without the fonts
        (WeasyPrint, a browser) shows the same shapes; by default text
        stays text in the bundled font's family.

    Returns
    -------
    str
        The SVG, identical for identical figures.
    """
    from .._options import check_bool

    check_bool("text_as_paths", text_as_paths)
    fig = _figure(ax_or_fig)
    buf = io.BytesIO()
    _write(fig, buf, "svg", 72, text_as_paths)
    return buf.getvalue().decode("utf-8")
