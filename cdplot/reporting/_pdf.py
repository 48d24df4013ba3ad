"""HTML to PDF with WeasyPrint: the layout, the page count of untrusted templates, the bytes.

WeasyPrint is imported inside the functions (about a second), so that
importing the report package stays light.  The URL fetcher serves only
cdplot's bundled fonts and the figures (:mod:`cdplot.reporting._fetcher`);
what it refused comes back with the PDF, to be told as one warning.
"""

from __future__ import annotations

import logging

from ..errors import CdplotError, CdplotWarning, opt
from . import _fetcher as fetching

__all__ = ["pdf_bytes", "warn_refused"]

# PDF/UA: a tagged PDF (headings, tables, figures with their text alternatives, the
# document's language and title) that screen readers and reflow can use
_VARIANT = "pdf/ua-1"


def pdf_bytes(
    html: str, *, fetcher=None, max_pages: int | None = None, where: str = ""
) -> tuple[bytes, list[str]]:
    """Lay out ``html`` and return the PDF and the URLs the fetcher refused.

    Parameters
    ----------
    html : str
        A whole HTML document.
    fetcher : callable, optional
        WeasyPrint's URL fetcher; by default :func:`fetcher.make_fetcher`.
    max_pages : int, optional
        Refuse a document of more pages, after its layout and before it
        is written (a user's templates; their time and memory are bounded
        by the process they run in).
    where : str, optional
        The start of the message of that refusal (``"template_dir='x': "``).

    Returns
    -------
    tuple of (bytes, list of str)
        The PDF file's bytes, and the URLs that were not loaded.

    Raises
    ------
    CdplotError
        When the document has more than ``max_pages`` pages.
    """
    weasyprint = _import_weasyprint()

    # looked up on the module when called, so that tests can record what it fetches
    fetcher = fetching.make_fetcher() if fetcher is None else fetcher
    # fontTools, which WeasyPrint uses on the embedded fonts, warns on stderr about harmless
    # quirks of font headers (an old "created" date in CMU Serif); the report is not the place
    fonttools_log = logging.getLogger("fontTools")
    level = fonttools_log.level
    fonttools_log.setLevel(logging.ERROR)
    try:
        document = weasyprint.HTML(string=html, base_url=None, url_fetcher=fetcher).render(
            pdf_variant=_VARIANT
        )
        if max_pages is not None and len(document.pages) > max_pages:
            raise CdplotError(
                f"{where}the templates make a PDF of {len(document.pages):,} pages; a report "
                f"from user templates may have at most {max_pages:,}: shorten the templates"
            )
        pdf = document.write_pdf(pdf_variant=_VARIANT)
    except RecursionError:
        # WeasyPrint lays boxes out recursively: a user template nesting a few thousand
        # elements exhausts Python's stack (the bundled templates nest a dozen)
        raise CdplotError(
            f"{where}writing the PDF: the HTML nests its elements too deeply for WeasyPrint to lay "
            f"out; the templates ({opt('template_dir')}) should nest fewer elements",
            option="template_dir",
        ) from None
    finally:
        fonttools_log.setLevel(level)
    return pdf, list(getattr(fetcher, "refused", ()))


def warn_refused(refused, *, stacklevel: int) -> None:
    """Warn once about the outside resources a report referred to and did not get."""
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


# the system libraries WeasyPrint loads when it is imported, by where they come from
PANGO_HINT = (
    "Pango is missing: install it (Debian/Ubuntu: apt install libpango-1.0-0 "
    "libpangoft2-1.0-0; Fedora: dnf install pango; macOS: brew install pango; Windows: see "
    "WeasyPrint's installation guide), or write an HTML report (-o report.html)"
)


def _import_weasyprint():
    """WeasyPrint, or a one-line error saying which system library to install.

    WeasyPrint loads Pango through cffi when imported; without it the error is
    cffi's raw "cannot load library 'libpango-1.0-0'" and a traceback.
    """
    try:
        import weasyprint
    except OSError as exc:
        raise CdplotError(
            f"writing a PDF needs WeasyPrint, which could not start: {PANGO_HINT} "
            f"({' '.join(str(exc).split())[:200]})"
        ) from None
    return weasyprint
