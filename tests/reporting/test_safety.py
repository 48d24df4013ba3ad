"""Names and templates are data: escaped in HTML, never fetched by the PDF renderer."""

import base64
import builtins
import os
import re
import socket
import urllib.request
import warnings
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import cdplot
from cdplot._resources import fonts_dir, templates_dir
from cdplot.errors import CdplotWarning
from cdplot.io import ScoreTable
from cdplot.reporting import render_html, report
from cdplot.reporting._fetcher import (
    SVG_DATA_URL,
    RefusedURL,
    check_url,
    make_fetcher,
    svg_from_data_url,
)

HOSTILE_METHODS = [
    "<img src=x onerror=alert(1)>",
    "file:///etc/passwd",
    "http://example.com/x.png",
    "x{background:url(http://example.com/a.png)}",
]
HOSTILE_DATASETS = [
    "</style><script>alert(1)</script>",
    '"><iframe src="http://example.com">',
    "d3",
    "d4",
    "d5",
]
HOSTILE_TITLE = "<script>alert('title')</script> url(file:///etc/passwd)"


@pytest.fixture(scope="module")
def hostile():
    rng = np.random.default_rng(7)
    values = rng.uniform(0.5, 0.9, size=(5, 4)) + np.array([0.0, 0.02, 0.05, 0.1])
    return cdplot.compare(
        ScoreTable(
            values=values,
            methods=HOSTILE_METHODS,
            datasets=HOSTILE_DATASETS,
            metric="<b>AUC</b>",
            source="<img src=file:///etc/passwd>.csv",
        )
    )


class _Records:
    """Values appended by this process or by one it forked (user templates' bounded child).

    The child that renders and lays out a user's templates inherits the patched functions
    below, but not this process's memory: what it fetches and opens comes back through the
    file (written with ``os.write``, which the patched ``open`` does not see).
    """

    def __init__(self, path):
        self.path = os.fspath(path)

    def append(self, value):
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, value.encode("utf-8", "surrogateescape") + b"\0")
        finally:
            os.close(fd)

    def _values(self):
        try:
            fd = os.open(self.path, os.O_RDONLY)
        except FileNotFoundError:
            return []
        try:
            data = b"".join(iter(lambda: os.read(fd, 1 << 16), b""))
        finally:
            os.close(fd)
        return [v.decode("utf-8", "surrogateescape") for v in data.split(b"\0")[:-1]]

    def __iter__(self):
        return iter(self._values())

    def __len__(self):
        return len(self._values())


@pytest.fixture
def guarded(monkeypatch, tmp_path_factory):
    """Record every URL given to the fetcher and every file opened; fail on any network use."""
    from cdplot.reporting import _fetcher as fetcher_module

    folder = tmp_path_factory.mktemp("guarded")
    calls = {"urls": _Records(folder / "urls"), "opened": _Records(folder / "opened")}
    real_make = fetcher_module.make_fetcher

    def recording_make(*args, **kwargs):
        f = real_make(*args, **kwargs)
        real_fetch = f.fetch

        def fetch(url, headers=None):
            calls["urls"].append(url)
            return real_fetch(url, headers)

        f.fetch = fetch
        return f

    real_open = builtins.open

    def recording_open(file, *args, **kwargs):
        if isinstance(file, (str, bytes, os.PathLike)):
            calls["opened"].append(os.fsdecode(file))
        return real_open(file, *args, **kwargs)

    def no_network(*args, **kwargs):
        raise AssertionError(f"network use: {args!r}")

    monkeypatch.setattr(fetcher_module, "make_fetcher", recording_make)
    monkeypatch.setattr(builtins, "open", recording_open)
    monkeypatch.setattr(urllib.request.OpenerDirector, "open", no_network)
    monkeypatch.setattr(socket.socket, "connect", no_network)
    return calls


def _assert_no_reads_outside_cdplot(calls):
    # no file named by the input or the template was opened: only cdplot's own files
    for path in calls["opened"]:
        if isinstance(path, str):
            assert "passwd" not in path, path
            assert "example.com" not in path, path


def test_html_escapes_every_name(hostile):
    html = render_html(
        hostile,
        title=HOSTILE_TITLE,
        subtitle="<i>sub</i>",
        author='<a href="http://example.com">me</a>',
    )
    assert "<img" not in html
    assert "<script" not in html
    assert "<iframe" not in html
    assert "<i>sub</i>" not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    assert "&lt;script&gt;alert(&#39;title&#39;)&lt;/script&gt;" in html
    # the only url() in the page are the embedded fonts; names appear as text
    style = html.split("<style>", 1)[1].split("</style>", 1)[0]
    for url in re.findall(r"url\(\s*['\"]?([^'\")]*)", style):
        assert url.startswith("data:font/")
    for attr, value in re.findall(r'\s(src|href)="([^"]*)"', html):
        assert value.startswith("#"), (attr, value)


def test_pdf_with_hostile_names_fetches_only_fonts(hostile, guarded, tmp_path):
    from pypdf import PdfReader

    out = tmp_path / "hostile.pdf"
    with warnings.catch_warnings():
        warnings.simplefilter("error", CdplotWarning)  # nothing was refused: no warning
        report(hostile, out, title=HOSTILE_TITLE, paper="letter")
    assert guarded["urls"], "the fonts come through the fetcher"
    allowed = str(fonts_dir().resolve())
    figures = [u for u in guarded["urls"] if u.startswith(SVG_DATA_URL)]
    # the figures come as images that carry their SVG (render._svg_image): one per figure,
    # and nothing in them refers outside the figure; the names are its text, never markup
    assert len(figures) == 3
    for url in figures:
        root = ET.fromstring(svg_from_data_url(url))
        for el in root.iter():
            tag = el.tag.rsplit("}", 1)[-1]
            assert tag not in ("script", "image", "foreignObject")
            if tag == "style":
                # matplotlib's own stylesheet (``*{stroke-linejoin: round; ...}``) stays, and
                # refers to nothing: no @import, no url() but to an element of the figure
                assert "@import" not in (el.text or "").lower()
                assert all(
                    u.startswith("#") for u in re.findall(r"url\(\s*['\"]?([^)]*)", el.text or "")
                )
            for name, value in el.attrib.items():
                assert "url(" not in value or value.startswith("url(#"), value
                if name.rsplit("}", 1)[-1] in ("href", "src"):
                    assert value.startswith("#"), value
    for url in guarded["urls"]:
        if not url.startswith(SVG_DATA_URL):
            assert str(check_url(url)).startswith(allowed), url
    _assert_no_reads_outside_cdplot(guarded)
    reader = PdfReader(out)
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)  # US Letter
    text = "".join("".join(p.extract_text() for p in reader.pages).split())
    for name in HOSTILE_METHODS:
        assert "".join(name.split()) in text
    assert "<script>alert('title')</script>" in text


def test_hostile_template_causes_no_read_and_no_request(tmp_path, guarded):
    folder = tmp_path / "tpl"
    folder.mkdir()
    (folder / "title.html.j2").write_text(
        "<h1>{{ title }}</h1>"
        '<img src="file:///etc/passwd"><img src="http://example.com/x.png">'
        '<link rel="stylesheet" href="http://example.com/a.css">'
        '<div style="background: url(file:///etc/passwd)">x</div>'
        '<object data="file:///etc/passwd"></object>'
        # an SVG image is served (a PDF's figures are such images), but what it refers to is not
        f'<img alt="x" src="{SVG_DATA_URL}{base64.b64encode(_OUTSIDE_SVG).decode()}">',
        encoding="utf-8",
    )
    res = cdplot.compare(cdplot.load_example("demsar2006"))
    with pytest.warns(CdplotWarning, match="not loaded"):
        report(res, tmp_path / "t.pdf", template_dir=folder)
    refused = [u for u in guarded["urls"] if not u.endswith(".ttf")]
    assert "file:///etc/passwd" in refused
    assert "http://example.com/x.png" in refused
    assert "http://example.com/inside-an-svg.png" in refused
    _assert_no_reads_outside_cdplot(guarded)


_OUTSIDE_SVG = (
    b'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
    b'width="10" height="10"><image xlink:href="http://example.com/inside-an-svg.png" '
    b'width="10" height="10"/><image xlink:href="file:///etc/passwd" width="5" height="5"/></svg>'
)


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "http://example.com/x.png",
        "https://example.com/f.ttf",
        "data:font/ttf;base64,AAAA",
        "ftp://example.com/a.ttf",
        "x.ttf",
        "file://example.com/etc/passwd",
        "FILE:///etc/passwd",
    ],
)
def test_fetcher_refuses_everything_but_bundled_files(url):
    with pytest.raises(RefusedURL):
        check_url(url)
    with pytest.raises(RefusedURL):
        make_fetcher().fetch(url)


def test_fetcher_serves_svg_data_urls_only():
    # a PDF report's figures are base64 data:image/svg+xml images (render._svg_image);
    # no other data URL passes, nor a malformed one, and check_url (files) refuses them all
    svg = b'<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>'
    url = SVG_DATA_URL + base64.b64encode(svg).decode("ascii")
    fetch = make_fetcher()
    got = fetch.fetch(url)
    assert (got.read(), got.content_type) == (svg, "image/svg+xml")
    assert svg_from_data_url(url) == svg
    with pytest.raises(RefusedURL):
        check_url(url)
    refused = [
        "data:image/svg+xml,<svg/>",
        "data:image/svg+xml;utf8,<svg/>",
        "DATA:image/svg+xml;base64," + base64.b64encode(svg).decode("ascii"),
        "data:image/svg+xml;charset=utf-8;base64," + base64.b64encode(svg).decode("ascii"),
        "data:image/png;base64,AAAA",
        "data:text/html;base64,PHNjcmlwdD4=",
        "data:font/ttf;base64,AAAA",
        SVG_DATA_URL + "not base64!",
    ]
    for bad in refused:
        with pytest.raises(RefusedURL):
            fetch.fetch(bad)
    assert fetch.refused == refused


def test_fetcher_refuses_escapes_from_the_font_folder(tmp_path):
    font = next(fonts_dir().rglob("*.ttf"))
    with pytest.raises(RefusedURL):
        check_url(font.as_uri() + "/../../../../../../etc/passwd")
    with pytest.raises(RefusedURL):
        check_url(font.parent.as_uri() + "/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd")
    # a symbolic link inside the served folder that leads outside it
    link = tmp_path / "evil.ttf"
    link.symlink_to("/etc/passwd")
    with pytest.raises(RefusedURL):
        check_url(link.as_uri(), roots=[tmp_path / "sub"])
    (tmp_path / "sub").mkdir()
    inner = tmp_path / "sub" / "evil.ttf"
    inner.symlink_to("/etc/passwd")
    with pytest.raises(RefusedURL):
        check_url(inner.as_uri(), roots=[tmp_path / "sub"])
    # wrong kind of file, even inside
    with pytest.raises(RefusedURL):
        check_url((templates_dir() / "base.html.j2").as_uri())


def test_fetcher_serves_bundled_fonts():
    from cdplot.reporting._fetcher import make_fetcher

    font = next(fonts_dir().rglob("*.ttf"))
    response = make_fetcher()(font.as_uri())
    assert response.read(4) in (b"\x00\x01\x00\x00", b"true", b"OTTO")
    assert response.content_type == "font/ttf"
