"""A PDF report sets its figures' text as HTML over the SVG, where the SVG text would be.

WeasyPrint lays out an SVG ``<text>`` one letter at a time; the PDF report moves
each line of figure text into an absolutely positioned HTML box
(:func:`cdplot.reporting.figures.split_svg_text` and ``text_overlay``).  The
proof is a comparison with the figures as SVG text: both PDFs are read back with
poppler's ``pdftotext -bbox-layout`` and every word must lie within 0.3 pt of
itself.  The HTML report keeps its SVG text.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from html import unescape

import numpy as np
import pytest

import cdplot
from cdplot.reporting import render
from cdplot.reporting.figures import (
    MIN_PRINTED_PT,
    _printed_min,
    figure_svgs,
    split_svg_text,
    text_overlay,
)
from cdplot.reporting.templating import TEMPLATE_NAMES, render_template
from cdplot.stats.scores import ScoreTable

_NS = 'xmlns="http://www.w3.org/2000/svg"'
# Lato's OS/2 table sets USE_TYPO_METRICS: ascender 1610, descender -390, 2000 units per em
LATO_ASCENT, LATO_DESCENT = 1610 / 2000, 390 / 2000
# the brief of issue 9's speed work: every figure word within 0.3 pt of its SVG-text self
TOL_PT = 0.3


def _svg(body: str, extra: str = "") -> str:
    return f'<svg {_NS} width="200pt" height="100pt" viewBox="0 0 200 100"{extra}>{body}</svg>'


def _mpl_text(text: str, x=50.0, y=40.0, *, angle=0.0, anchor="end", style_extra="") -> str:
    # as matplotlib (and cdplot's SVG writer) write a one-line text
    return (
        f"<text style=\"font-size: 8.5px; font-family: 'Lato', 'DejaVu Sans'; "
        f'text-anchor: {anchor}; fill: #1a1a1a{style_extra}" x="{x}" y="{y}" '
        f'transform="rotate({-angle:g} {x} {y})">{text}</text>'
    )


def test_a_matplotlib_text_moves_with_its_anchor_size_font_and_colour():
    svg, units, texts = split_svg_text(_svg("<g>" + _mpl_text("C4.5+m") + "<path d='M0 0'/></g>"))
    assert units == 200.0
    assert "<text" not in svg
    assert "<path" in svg
    (t,) = texts
    assert (t.text, t.x, t.y, t.angle, t.anchor, t.size) == ("C4.5+m", 50.0, 40.0, 0.0, "end", 8.5)
    assert (t.family, t.weight, t.style, t.fill) == (
        "'Lato', 'DejaVu Sans'",
        400,
        "normal",
        "#1a1a1a",
    )
    assert (t.ascent, t.descent) == (LATO_ASCENT, LATO_DESCENT)


@pytest.mark.parametrize(
    ("body", "where", "angle"),
    [
        pytest.param(_mpl_text("label", 30, 60, angle=90), (30, 60), -90, id="rotate-about-anchor"),
        pytest.param(
            '<text font-size="8" font-family="Lato" transform="translate(10 20) rotate(-45)">'
            "a</text>",
            (10, 20),
            -45,
            id="translate-rotate",
        ),
        pytest.param(
            '<g transform="translate(5 7)"><text font-size="8" font-family="Lato" x="1" y="2">'
            "a</text></g>",
            (6, 9),
            0,
            id="group-translate",
        ),
    ],
)
def test_transforms_give_the_anchor_point_and_the_turn(body, where, angle):
    _, _, (t,) = split_svg_text(_svg(body))
    assert (t.x, t.y) == pytest.approx(where)
    assert t.angle == pytest.approx(angle)


def test_a_group_scale_scales_the_type():
    _, _, (t,) = split_svg_text(
        _svg('<g transform="scale(2)"><text font-size="8" font-family="Lato" y="10">a</text></g>')
    )
    assert (t.y, t.size) == (20.0, 16.0)


def test_the_font_shorthand_and_inherited_values():
    body = (
        '<g fill="#ff0000" font-family="Lato"><text style="font: bold 9px Lato" x="1" y="2">'
        "a</text><text font-size='7' x='1' y='2'>b</text></g>"
    )
    _, _, (a, b) = split_svg_text(_svg(body))
    assert (a.weight, a.size, a.fill) == (700, 9.0, "#ff0000")
    assert (b.weight, b.size, b.family, b.anchor) == (400, 7.0, "Lato", "start")


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(
            '<text font-size="8" font-family="Lato" x="1" y="2">a<tspan>b</tspan></text>',
            id="tspan",
        ),
        pytest.param('<text font-size="8" font-family="Lato" x="1" y="2" dx="3">a</text>', id="dx"),
        pytest.param(
            '<text font-size="8" font-family="Lato" x="1 5" y="2">ab</text>', id="per-letter-x"
        ),
        pytest.param(
            '<g clip-path="url(#c)"><text font-size="8" font-family="Lato" y="2">a</text></g>',
            id="clipped",
        ),
        pytest.param(
            '<g opacity="0.5"><text font-size="8" font-family="Lato" y="2">a</text></g>',
            id="translucent",
        ),
        pytest.param(
            '<text font-size="8" font-family="Comic Sans" y="2">a</text>', id="not-bundled"
        ),
        # a letter Lato lacks comes from a fallback font with line metrics of its own
        pytest.param('<text font-size="8" font-family="Lato" y="2">\u6f22\u5b57</text>', id="cjk"),
        pytest.param('<text font-size="8" font-family="Lato" y="2"> a</text>', id="leading-space"),
        pytest.param('<text font-size="8pt" font-family="Lato" y="2">a</text>', id="size-in-pt"),
        pytest.param(
            '<text font-size="8" font-family="Lato" y="2" stroke="#000">a</text>', id="stroked"
        ),
        pytest.param(
            '<text font-size="8" font-family="Lato" y="2" fill="currentColor">a</text>',
            id="current-color",
        ),
        pytest.param(
            '<text font-size="8" font-family="Lato" y="2" transform="skewX(10)">a</text>', id="skew"
        ),
        pytest.param(
            '<text font-size="8" font-family="Lato; color: red" y="2">a</text>', id="odd-family"
        ),
        pytest.param(
            '<defs><text font-size="8" font-family="Lato" y="2">a</text></defs>', id="in-defs"
        ),
        pytest.param(
            "<style>text { fill: red }</style>"
            '<text font-size="8" font-family="Lato" y="2">a</text>',
            id="stylesheet",
        ),
    ],
)
def test_text_html_cannot_set_exactly_stays_in_the_svg(body):
    svg = _svg(body)
    out, _, texts = split_svg_text(svg)
    assert texts == []
    assert out == svg


def test_names_stay_text_in_the_overlay():
    name = "<b>bold</b> & <script>x()</script>"
    escaped = name.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    _, _, texts = split_svg_text(_svg(_mpl_text(escaped)))
    assert texts[0].text == name
    html = text_overlay(texts, scale=1.0, reach=200.0)
    assert "<b>" not in html
    assert "<script" not in html
    assert unescape(re.sub(r"<[^>]+>", "", html)) == name
    assert 'aria-hidden="true"' in html


def test_each_anchor_lands_its_baseline_and_end_where_the_svg_put_it():
    texts = split_svg_text(
        _svg(
            _mpl_text("s", 100, 50, anchor="start")
            + _mpl_text("m", 100, 50, anchor="middle")
            + _mpl_text("e", 100, 50, anchor="end")
            + _mpl_text("r", 100, 50, anchor="end", angle=90)
        )
    )[2]
    html = text_overlay(texts, scale=0.5, reach=100.0)
    spans = re.findall(r'<span style="([^"]*)">', html)
    props = [dict(p.split(": ", 1) for p in unescape(s).split("; ")) for s in spans]
    size = 8.5 * 0.5
    # the baseline of a line-height 1 box of Lato: (1 + ascent - descent) / 2 em from its top
    top = 50 * 0.5 - (1 + LATO_ASCENT - LATO_DESCENT) / 2 * size
    for p in props:
        assert float(p["top"].removesuffix("pt")) == pytest.approx(top, abs=1e-3)
        assert float(p["font-size"].removesuffix("pt")) == pytest.approx(size, abs=1e-3)
    start, middle, end, turned = props
    assert (start["left"], start["width"]) == ("50.000pt", "100.000pt")
    assert "text-align" not in start  # left, as report.css sets it
    assert (middle["left"], middle["width"], middle["text-align"]) == (
        "-50.000pt",
        "200.000pt",
        "center",
    )
    assert (end["left"], end["width"], end["text-align"]) == ("-50.000pt", "100.000pt", "right")
    assert turned["transform"] == "rotate(-90deg)"
    # turned about the anchor: the box's right end, on the baseline
    origin = [float(v.removesuffix("pt")) for v in turned["transform-origin"].split()]
    assert origin == pytest.approx([100.0, 50 * 0.5 - top], abs=1e-3)


# ---------------------------------------------------------------------------
# the proof: PDFs with the figures' text as SVG and as HTML
# ---------------------------------------------------------------------------
needs_poppler = pytest.mark.skipif(
    shutil.which("pdftotext") is None,
    reason="pdftotext is missing (Debian package poppler-utils); word boxes are not compared",
)


def _long_names(k: int, n: int) -> ScoreTable:
    # long names with the letters of real benchmark tables (as benchmarks/bench_report.py)
    families = (
        "Gradient boosting (500 trees; depth 6)",
        "Random forest (1000 trees; sqrt features)",
        "Support vector machine (RBF kernel; \u03b3 = scale)",
        "Na\u00efve Bayes (Gaussian)",
        "Multilayer perceptron (2 \u00d7 256 units; Adam)",
        "D\u00e9cision tree (CART; min. 5 samples per leaf)",
    )
    names = [f"{families[j % 6]} \u00b7 variant {j // 6 + 1}" for j in range(k)]
    rng = np.random.default_rng(k)
    values = np.linspace(0.85, 0.7, k)[None, :] + rng.normal(0, 0.03, (n, k))
    return ScoreTable(values=values, methods=names, datasets=[f"d{i:02d}" for i in range(n)])


CASES = {
    "demsar-k4": lambda: cdplot.load_example("demsar2006"),
    "k30": lambda: _long_names(30, 40),
    "k60": lambda: _long_names(60, 40),
    "yang-six-metrics": lambda: cdplot.load_example("yang-table9"),
}


def _word_boxes(pdf) -> list[tuple[int, str, tuple[float, ...]]]:
    out = subprocess.run(
        ["pdftotext", "-bbox-layout", str(pdf), "-"], capture_output=True, check=True
    ).stdout.decode("utf-8")
    words = []
    for page, body in enumerate(re.findall(r"<page\b.*?</page>", out, re.S)):
        for m in re.finditer(
            r'<word xMin="([^"]+)" yMin="([^"]+)" xMax="([^"]+)" yMax="([^"]+)">([^<]*)</word>',
            body,
        ):
            words.append((page, unescape(m.group(5)), tuple(float(v) for v in m.group(1, 2, 3, 4))))
    return words


@pytest.fixture(scope="module", params=sorted(CASES))
def figure_pdfs(request, tmp_path_factory):
    """The report's figures alone (every other partial emptied), as SVG text and as HTML."""
    folder = tmp_path_factory.mktemp(f"figtext-{request.param}")
    templates = folder / "templates"
    templates.mkdir()
    for name in TEMPLATE_NAMES:
        if name not in ("base.html.j2", "figures.html.j2"):
            (templates / name).write_text("", encoding="utf-8")
    ctx, _ = render.prepare_context(CASES[request.param](), date="2026-01-01")
    out = {}
    for mode in ("svg", "html"):
        page = render_template(
            "base.html.j2",
            render.finish_context(ctx, embed_fonts=False, paper="a4", overlay_text=mode == "html"),
            templates,
        )
        out[mode] = (page, folder / f"{mode}.pdf")
        render._write_pdf(page, out[mode][1])
    return request.param, out


@needs_poppler
def test_figure_words_print_where_the_svg_text_printed_them(figure_pdfs):
    _, out = figure_pdfs
    svg_page, svg_pdf = out["svg"]
    html_page, html_pdf = out["html"]
    # every line of figure text moved out of the SVG, and the HTML report's SVG keeps them
    assert "<text" not in html_page
    assert svg_page.count("<text") == html_page.count('<span style="left')
    before, after = _word_boxes(svg_pdf), _word_boxes(html_pdf)
    # the same words on the same pages (the text stays text: pdftotext finds it)
    assert [(p, w) for p, w, _ in after] == [(p, w) for p, w, _ in before]
    assert len(before) > 20
    # in reading order they pair up one to one; each box within 0.3 pt of its SVG-text self
    worst = max(
        max(abs(a - b) for a, b in zip(box_a, box_b, strict=True))
        for (_, _, box_a), (_, _, box_b) in zip(before, after, strict=True)
    )
    assert worst <= TOL_PT


@needs_poppler
def test_the_tagged_pdf_keeps_each_figure_and_its_alternative_text(figure_pdfs):
    pypdf = pytest.importorskip("pypdf")
    _, out = figure_pdfs
    reader = pypdf.PdfReader(out["html"][1])
    root = reader.trailer["/Root"]
    assert root["/MarkInfo"]["/Marked"]
    figures = []

    def walk(node):
        node = node.get_object()
        if isinstance(node, pypdf.generic.ArrayObject):
            for child in node:
                walk(child)
        elif isinstance(node, pypdf.generic.DictionaryObject):
            if node.get("/S") == "/Figure":
                figures.append(str(node.get("/Alt", "")))
            if "/K" in node:
                walk(node["/K"])

    walk(root["/StructTreeRoot"])
    # each figure stays a Figure with its alternative text (the SVG's <title>)
    assert figures
    assert all(figures)
    assert len(figures) == out["html"][0].count('class="svg-box" role="img"')


def test_the_html_report_keeps_its_svg_text():
    page = render.render_html(cdplot.load_example("demsar2006"), embed_fonts=False)
    assert page.count("<text") > 20
    assert "fig-text" not in page.split("</style>", 1)[1]


def test_an_html_report_draws_no_figure_for_the_printed_page_only():
    # 64 methods: drawn at the text width, the CD diagram and the rank intervals would print
    # under 6 pt on a page, so the PDF's CD diagram is as wide as a landscape page and its
    # rank intervals come in two parts; a screen scrolls, and takes them whole
    result = cdplot.compare(_long_names(64, 40))
    pdf = {f["key"]: f for f in figure_svgs(result, prefix="p")}
    html = {f["key"]: f for f in figure_svgs(result, prefix="h", format="html")}
    # the premise, measured by matplotlib's fonts rather than assumed: a text-width drawing
    # is too small for print (60 methods stopped being so when matplotlib 3.11 changed the
    # line height by a point)
    assert _printed_min(html["cd"]) < MIN_PRINTED_PT
    assert _printed_min(html["intervals"]) < MIN_PRINTED_PT
    assert pdf["cd"]["width"] > 504.0 + 1
    assert _printed_min(pdf["cd"]) >= MIN_PRINTED_PT
    assert "intervals-2" in pdf
    assert html["cd"]["width"] == pytest.approx(504.0)
    assert list(html) == ["cd", "intervals"]
    # one chart of every method
    shown = {
        unescape(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", html["intervals"]["svg"])
    }
    assert set(result.methods) <= shown
