"""The PDF report's writer process: WeasyPrint imported early, the HTML laid out and written.

A PDF is written by a process forked as early as possible (:func:`start`):
it imports WeasyPrint (0.65 s alone, about 1 s beside other work: cffi
parsing Pango's declarations, ctypes looking for the libraries) while the
main process analyses, draws and renders the HTML, then receives the HTML
through a pipe (:class:`cdplot._child.Helper`), lays it out and writes the
file.  ``cdplot report`` forks it before it imports numpy, scipy and the
rest of cdplot (:func:`start_early`), so that the import starts about 0.2 s
into the process instead of after those imports.  This module therefore
imports only the standard library and cdplot's light foundations: a child
forked from the command line inherits nothing heavy and must not pay for
it again.
"""

from __future__ import annotations

import logging
from pathlib import Path

from .. import _child
from .._atomic import atomic_write, remove_stale
from .._child import ChildDied, Helper, forking_allowed
from ..errors import CdplotError, CdplotWarning
from . import fetcher as fetching

__all__: list[str] = []

# the writer forked by ``cdplot report`` before its heavy imports, for report() to take
_early: Helper | None = None


def _import_weasyprint() -> None:
    """Import WeasyPrint and what its ``write_pdf`` and the fetcher import lazily (~1 s)."""
    import weasyprint  # noqa: F401
    import weasyprint.pdf.fonts  # noqa: F401  (imported lazily by write_pdf otherwise)
    import weasyprint.urls  # noqa: F401  (the fetcher's base class)


def _render_pdf(html: str, path: Path, fetcher=None) -> list[str]:
    """Lay out ``html``, write the PDF atomically at ``path``; return the URLs refused."""
    import gc

    import weasyprint

    # looked up on the module when called, so that tests can record what it fetches
    fetcher = fetching.make_fetcher() if fetcher is None else fetcher
    # fontTools, which WeasyPrint uses on the embedded fonts, warns on stderr about harmless
    # quirks of font headers (an old "created" date in CMU Serif); the report is not the place
    fonttools_log = logging.getLogger("fontTools")
    level = fonttools_log.level
    fonttools_log.setLevel(logging.ERROR)
    # WeasyPrint builds hundreds of thousands of small objects (boxes, styles) that live until
    # the PDF is written; the cyclic collector would walk them again and again for nothing
    # (a tenth of the time of a long report), so it rests until the document is done
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        document = weasyprint.HTML(string=html, base_url=None, url_fetcher=fetcher)
        # PDF/UA: a tagged PDF (headings, tables, figures with their text alternatives, the
        # document's language and title) that screen readers and reflow can use
        pdf = document.write_pdf(pdf_variant="pdf/ua-1")
    except RecursionError:
        # WeasyPrint lays boxes out recursively: a user template nesting a few thousand
        # elements exhausts Python's stack (the bundled templates nest a dozen)
        raise CdplotError(
            "writing the PDF: the HTML nests its elements too deeply for WeasyPrint to lay "
            "out; the templates (template_dir=) should nest fewer elements"
        ) from None
    finally:
        fonttools_log.setLevel(level)
        if gc_was_enabled:
            gc.enable()
    with atomic_write(path, "wb") as fh:
        fh.write(pdf)
    return list(getattr(fetcher, "refused", ()))


def _warn_refused(refused, *, stacklevel: int) -> None:
    if not refused:
        return
    import warnings

    shown = ", ".join(repr(u[:60]) for u in refused[:3])
    more = f" and {len(refused) - 3} more" if len(refused) > 3 else ""
    warnings.warn(
        f"the report refers to {len(refused)} outside resources that were not loaded: "
        f"{shown}{more}",
        CdplotWarning,
        stacklevel=stacklevel + 1,
    )


def _serve(request) -> list[str]:
    html, path = request
    return _render_pdf(html, Path(path))


def _wanted() -> bool:
    # a writer pays off with a second CPU, under the conditions of the figures' workers
    return _child.usable_cpus() >= 2 and forking_allowed()


def _start() -> Helper | None:
    """A process that imports WeasyPrint now and writes the PDF later; None: write in this one."""
    if not _wanted():
        return None
    return Helper.start(_import_weasyprint, _serve)


def start_early() -> None:
    """Fork the writer now, before this process imports numpy and the rest, for report() to take.

    ``cdplot report -o OUT.pdf`` calls it first thing: the writer's import of
    WeasyPrint then overlaps this process's imports too.  Whoever calls it
    calls :func:`stop_early` in a ``finally``: a writer that report() did not
    take (an error before it, Ctrl-C) is ended there.
    """
    global _early
    stop_early()
    _early = _start()


def take_early() -> Helper | None:
    """The writer :func:`start_early` forked, if any (it is then the caller's to stop)."""
    global _early
    writer, _early = _early, None
    return writer


def stop_early() -> None:
    """End the writer :func:`start_early` forked and nobody took (idempotent)."""
    writer = take_early()
    if writer is not None:
        writer.stop()


def _write_in(writer: Helper, html: str, path: Path) -> list[str]:
    """Have the writer process write the PDF; return its refused URLs, raise its errors here."""
    try:
        return writer.ask((html, str(path)))
    except ChildDied as exc:
        # its temporary file names it: gone with it
        remove_stale(path)
        raise CdplotError(
            f"writing the PDF {str(path)!r} failed: the writer process ended unexpectedly "
            f"({exc}); set CDPLOT_NO_WORKERS=1 to write it in one process"
        ) from None
    except BaseException:
        # interrupted here (Ctrl-C, SIGTERM): ask() ended the writer, maybe amid its file
        remove_stale(path)
        raise
