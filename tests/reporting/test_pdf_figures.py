"""A PDF report's figures reach WeasyPrint as SVG images (issue 9: speed).

Inline, a figure's hundreds to thousands of SVG elements went through
WeasyPrint's pure-Python HTML parser and got a computed style each; as an
``<img>`` of a ``data:image/svg+xml`` URL WeasyPrint draws the same pages
(word boxes and pixels of the Demšar, Yang, 30- and 60-method reports
compared against the inline SVG, benchmarks/bench_report.py) and tags each a
Figure with the same text alternative (render._svg_image,
tests/reporting/test_figure_text.py); the HTML report keeps its figures inline.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html import unescape

import pytest

import cdplot
from cdplot.reporting import _render as render
from cdplot.reporting._fetcher import SVG_DATA_URL, svg_from_data_url
from cdplot.reporting._figures import clean_svg

SVG_NS = "{http://www.w3.org/2000/svg}"
IMAGE_RE = re.compile(r'<img class="fig-image" src="([^"]*)" alt="([^"]*)">')


@pytest.fixture(scope="module")
def context():
    ctx, _ = render.prepare_context(cdplot.load_example("demsar2006"), date="2026-01-01")
    return ctx


def test_print_figures_are_svg_images_with_their_title_as_alt(context):
    placed = [f for s in context["sections"] for f in s["figures"]]
    out = render.finish_context(context, embed_fonts=False, paper="a4")
    printed = [f for s in out["sections"] for f in s["figures"]]
    assert len(printed) == len(placed) == 3
    for inline, fig in zip(placed, printed, strict=True):
        markup = str(fig["svg"])
        assert "<svg" not in markup
        # one image, which report.css sizes
        assert markup.startswith('<img class="fig-image" src=')
        ((src, alt),) = IMAGE_RE.findall(markup)
        assert src.startswith(SVG_DATA_URL)
        root = ET.fromstring(svg_from_data_url(src))
        assert root.tag == f"{SVG_NS}svg"
        # the image is the figure's SVG, its text and its <title>: the alt is that title, the
        # Figure's /Alt in the tagged PDF as the inline SVG's <title> was
        assert root.find(f".//{SVG_NS}text") is not None
        title = ET.fromstring(str(inline["svg"])).find(f"{SVG_NS}title").text
        assert root.find(f"{SVG_NS}title").text == title == unescape(alt)
        assert title == f"{fig['title']}. {fig['alt']}"
    alts = [unescape(IMAGE_RE.search(str(f["svg"])).group(2)) for f in printed]
    assert any("No pair of methods differs significantly" in a for a in alts)
    assert any("0 of the 6 pairs tested differ significantly" in a for a in alts)


def test_the_html_report_keeps_its_figures_inline(context):
    page = render.render_html(cdplot.load_example("demsar2006"), embed_fonts=False)
    assert page.count("<svg") == 3
    assert "<img" not in page
    assert SVG_DATA_URL not in page


def test_an_image_alt_is_text_whatever_the_names():
    # the alt holds the figure's finding, with method names: escaped, it stays one attribute
    fig = {
        "title": "Critical-difference diagram",
        "alt": 'A "><script>alert(1)</script> & B differ.',
    }
    title = f"{fig['title']}. {fig['alt']}"
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="100pt" height="50pt" viewBox="0 0 100 50">'
        f"<title>{title.replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;')}</title>"
        '<text x="10" y="20" style="font-size: 8px; font-family: Lato">'
        "&lt;script&gt;alert(2)&lt;/script&gt;</text></svg>"
    )
    markup = str(render._svg_image(clean_svg(svg, "t"), fig["title"]))
    assert "<script" not in markup
    ((src, alt),) = IMAGE_RE.findall(markup)
    assert unescape(alt) == title
    assert ET.fromstring(svg_from_data_url(src)).find(f"{SVG_NS}title").text == title


def test_a_hostile_figure_svg_is_cleaned_before_it_becomes_an_image():
    # what clean_svg removes from inline SVG does not come back in the image: no script,
    # handler, foreignObject, image or reference outside the figure
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'width="100pt" height="50pt" viewBox="0 0 100 50">'
        "<title>Figure. Finding.</title>"
        "<script>alert(1)</script>"
        '<g onload="alert(2)"><rect width="10" height="10" fill="url(http://example.com/p)"/></g>'
        '<image xlink:href="file:///etc/passwd" width="5" height="5"/>'
        '<use xlink:href="http://example.com/a.svg#x"/>'
        '<a xlink:href="http://example.com"><path d="M0 0L1 1"/></a>'
        '<foreignObject><p xmlns="http://www.w3.org/1999/xhtml">x</p></foreignObject>'
        '<text x="10" y="20" style="font-size: 8px; font-family: Lato">label</text></svg>'
    )
    fig = {"title": "Figure", "alt": "Finding."}
    markup = str(render._svg_image(clean_svg(svg, "h"), fig["title"]))
    ((src, _),) = IMAGE_RE.findall(markup)
    root = ET.fromstring(svg_from_data_url(src))
    for el in root.iter():
        assert el.tag.rsplit("}", 1)[-1] not in ("script", "image", "foreignObject", "a")
        for name, value in el.attrib.items():
            assert not name.rsplit("}", 1)[-1].startswith("on"), name
            assert "url(" not in value or value.startswith("url(#"), value
            if name.rsplit("}", 1)[-1] in ("href", "src"):
                assert value.startswith("#"), value
    assert root.find(f".//{SVG_NS}text").text == "label"
