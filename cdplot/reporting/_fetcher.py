"""The only door through which WeasyPrint may read anything: cdplot's own data folder.

WeasyPrint fetches every ``url()`` and ``src``/``href`` it meets.  A report
holds names from the user's input, and a user template may hold anything,
so the fetcher given to WeasyPrint serves ``file:`` URLs of bundled files
under cdplot's data folder (``cdplot/_data/fonts`` and ``.../templates`` when
installed, ``fonts/`` and ``templates/`` in a checkout) and refuses every other
URL before touching the file system or the network: no ``http:``, no
``data:`` but base64 SVG images, no file elsewhere, no way out through ``..``
or a symbolic link.  A PDF report's figures come as ``data:image/svg+xml``
images (:data:`SVG_DATA_URL`): such a URL carries its content, so serving it
reads nothing, and whatever the SVG refers to passes this fetcher too.
"""

from __future__ import annotations

import base64
import binascii
import os
from pathlib import Path
from urllib.parse import unquote, urlsplit

from .._resources import fonts_dir, templates_dir

__all__ = [
    "RefusedURL",
    "check_url",
    "make_fetcher",
    "svg_from_data_url",
    "SERVED_SUFFIXES",
    "SVG_DATA_URL",
]

# what a report may load from the data folder
SERVED_SUFFIXES = {
    ".ttf": "font/ttf",
    ".otf": "font/otf",
    ".woff": "font/woff",
    ".woff2": "font/woff2",
    ".css": "text/css",
}


# the one kind of data: URL served: a PDF report's figures (cdplot.reporting._render._svg_image)
SVG_DATA_URL = "data:image/svg+xml;base64,"


class RefusedURL(ValueError):
    """WeasyPrint asked for a URL outside cdplot's data folder."""


def svg_from_data_url(url: str) -> bytes:
    """The SVG document a :data:`SVG_DATA_URL` carries.

    Parameters
    ----------
    url : str
        The URL WeasyPrint asks for.

    Returns
    -------
    bytes
        The decoded SVG.

    Raises
    ------
    RefusedURL
        For any other URL, and for one whose base64 does not decode.
    """
    if not url.startswith(SVG_DATA_URL):
        raise RefusedURL(f"cdplot reports load no such data URL: {url[:80]!r}")
    try:
        return base64.b64decode(url[len(SVG_DATA_URL) :], validate=True)
    except (binascii.Error, ValueError):
        raise RefusedURL(f"cdplot reports load no malformed data URL: {url[:80]!r}") from None


def _roots(roots) -> tuple[Path, ...]:
    if roots is None:
        # in a checkout the data folder is the repository itself; serve only its two data folders
        roots = (fonts_dir(), templates_dir())
    elif isinstance(roots, (str, os.PathLike)):
        roots = (roots,)
    return tuple(Path(r).resolve() for r in roots)


def check_url(url: str, roots=None) -> Path:
    """The file a URL names, if it is a bundled file cdplot may serve.

    The URL is judged from its text alone, then the path is resolved (which
    follows symbolic links) and judged again; nothing is opened or requested
    for a refused URL.

    Parameters
    ----------
    url : str
        The URL WeasyPrint asks for.
    roots : Path or sequence of Path, optional
        The folders to serve from (default: the bundled fonts and templates).

    Returns
    -------
    Path
        The resolved file under one of ``roots``.

    Raises
    ------
    RefusedURL
        For any other URL.
    """
    roots = _roots(roots)
    parts = urlsplit(url)
    if parts.scheme.lower() != "file":
        raise RefusedURL(f"cdplot reports load no {parts.scheme or 'relative'!s} URL: {url[:80]!r}")
    if parts.netloc not in ("", "localhost") or parts.query:
        raise RefusedURL(f"cdplot reports load no remote or parameterised file URL: {url[:80]!r}")
    raw = unquote(parts.path)
    if os.name == "nt" and raw.startswith("/") and len(raw) > 2 and raw[2] == ":":
        raw = raw[1:]  # file:///C:/... on Windows
    # judge the text first, so that a refused path is never even looked at
    normal = os.path.normpath(raw)
    root = next((r for r in roots if normal.startswith(os.path.join(str(r), ""))), None)
    if root is None:
        raise RefusedURL(f"cdplot reports load only their bundled files, not {url[:80]!r}")
    suffix = Path(normal).suffix.lower()
    if suffix not in SERVED_SUFFIXES:
        raise RefusedURL(f"cdplot reports load no {suffix or 'extension-less'} files: {url[:80]!r}")
    resolved = Path(normal).resolve()
    if not resolved.is_relative_to(root) or not resolved.is_file():
        raise RefusedURL(f"cdplot reports load only their bundled files, not {url[:80]!r}")
    return resolved


def make_fetcher(roots=None):
    """A WeasyPrint URL fetcher that serves only files under ``roots``.

    Parameters
    ----------
    roots : Path or sequence of Path, optional
        Folders to serve (default: the bundled fonts and templates).

    Returns
    -------
    weasyprint.urls.URLFetcher
        Its ``fetch`` raises :class:`RefusedURL` for every other URL, which
        WeasyPrint skips; the refused URLs are listed in ``refused``.
    """
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    served = _roots(roots)

    class DataDirFetcher(URLFetcher):
        """Serves cdplot's bundled files; never opens a connection."""

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.refused: list[str] = []

        def fetch(self, url, headers=None):
            if url.startswith(SVG_DATA_URL):
                try:
                    svg = svg_from_data_url(url)
                except RefusedURL:
                    self.refused.append(url)
                    raise
                return URLFetcherResponse(url, svg, headers={"Content-Type": "image/svg+xml"})
            try:
                path = check_url(url, served)
            except RefusedURL:
                self.refused.append(url)
                raise
            return URLFetcherResponse(
                path.as_uri(),
                path.read_bytes(),
                headers={"Content-Type": SERVED_SUFFIXES[path.suffix.lower()]},
            )

    # no protocol at all is allowed through the urllib machinery the base class holds
    return DataDirFetcher(allowed_protocols=(), allow_redirects=False)
