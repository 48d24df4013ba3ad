"""A PDF report sets its figures' text as HTML over the SVG, where the SVG text would be.

WeasyPrint lays out an SVG ``<text>`` one letter at a time; the PDF report sets
each line of figure text as an absolutely positioned HTML box instead, taken
from matplotlib while it writes the SVG without it
(:func:`cdplot.reporting.figures._svg_and_text` and ``text_overlay``).  The
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
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

import cdplot
from cdplot.reporting import figures, render
from cdplot.reporting.fetcher import svg_from_data_url
from cdplot.reporting.figures import (
    MIN_PRINTED_PT,
    FigureText,
    _printed_min,
    _svg_and_text,
    figure_svgs,
    text_overlay,
)
from cdplot.reporting.templating import TEMPLATE_NAMES, render_template
from cdplot.stats.scores import ScoreTable

# Lato's OS/2 table sets USE_TYPO_METRICS: ascender 1610, descender -390, 2000 units per em
LATO_ASCENT, LATO_DESCENT = 1610 / 2000, 390 / 2000
# the brief of issue 9's speed work: every figure word within 0.3 pt of its SVG-text self
TOL_PT = 0.3
LATO = ["Lato", "DejaVu Sans"]
# matplotlib's SVG text with svg.fonttype "none": a style, an anchor point and a transform
_SVG_TEXT_RE = re.compile(r"<text\b([^>]*)>([^<]*)</text>")


def _figure() -> Figure:
    # 200 x 100 pt: SVG user units are the figure's points
    return Figure(figsize=(200 / 72, 100 / 72))


def _svg_lines(svg: str) -> list[tuple]:
    """``(text, x, y, angle, anchor, size, fill)`` of each <text> as matplotlib wrote it."""
    out = []
    for attrs, text in _SVG_TEXT_RE.findall(svg):
        style = dict(
            p.split(": ", 1) for p in re.search(r'style="([^"]*)"', attrs).group(1).split("; ")
        )
        transform = re.search(r'transform="([^"]*)"', attrs).group(1)
        turned = re.fullmatch(r"rotate\(([-\d.e]+) ([-\d.e]+) ([-\d.e]+)\)", transform)
        if turned:
            angle, x, y = (float(v) for v in turned.groups())
        else:
            # matplotlib leaves out a rotation by 0
            moved = re.fullmatch(
                r"translate\(([-\d.e]+) ([-\d.e]+)\)(?: rotate\(([-\d.e]+)\))?", transform
            )
            x, y, angle = (float(v or 0) for v in moved.groups())
        out.append(
            (
                unescape(text),
                x,
                y,
                angle,
                style.get("text-anchor", "start"),
                float(style["font-size"].removesuffix("px")),
                style.get("fill", "#000000"),
            )
        )
    return out


def test_a_text_moves_with_its_anchor_size_font_and_colour():
    fig = _figure()
    fig.text(0.25, 0.6, "C4.5+m", ha="right", va="baseline", size=8.5, color="#1a1a1a", family=LATO)
    fig.add_artist(Line2D([0, 1], [0, 1]))
    svg, (t,), families = _svg_and_text(fig, move=True)
    assert "<text" not in svg
    assert "<path" in svg
    assert (t.text, t.anchor, t.size, t.angle) == ("C4.5+m", "end", 8.5, 0.0)
    assert (t.x, t.y) == pytest.approx((50.0, 40.0))
    assert (t.family, t.weight, t.style, t.fill) == ("'Lato'", 400, "normal", "#1a1a1a")
    assert (t.ascent, t.descent) == (LATO_ASCENT, LATO_DESCENT)
    assert {"Lato", "DejaVu Sans"} <= families


def test_each_line_is_where_matplotlibs_own_svg_text_would_be():
    # the same figure written with its text as SVG (move=False) is the reference
    def draw():
        fig = _figure()
        ax = fig.add_axes((0.2, 0.3, 0.7, 0.6))
        ax.set_xticks([0, 1], ["left tick", "right tick"], rotation=90, family=LATO, size=7)
        ax.set_yticks([0, 1], ["low", "high"], family=LATO, size=7)
        fig.text(0.5, 0.95, "centred", ha="center", va="top", family=LATO, weight="bold")
        fig.text(
            0.9,
            0.5,
            "turned about its anchor",
            ha="right",
            va="center",
            rotation=30,
            rotation_mode="anchor",
            family=LATO,
            color="#6b6b6b",
        )
        fig.text(0.1, 0.1, "two\nlines", family=LATO)
        return fig

    svg, _, _ = _svg_and_text(draw(), move=False)
    kept, lines, _ = _svg_and_text(draw(), move=True)
    assert "<text" not in kept
    want = _svg_lines(svg)
    got = [(t.text, t.x, t.y, t.angle, t.anchor, t.size, t.fill) for t in lines]
    assert [g[0] for g in got] == [w[0] for w in want]
    assert len(got) == 8
    for g, w in zip(got, want, strict=True):
        # matplotlib writes 6 significant digits
        assert g[1:4] == pytest.approx(w[1:4], abs=1e-3), g[0]
        assert g[4:] == w[4:], g[0]
    assert {t.weight for t in lines} == {400, 700}


@pytest.mark.parametrize(
    "options",
    [
        pytest.param({"s": r"$\alpha$"}, id="mathtext"),
        pytest.param({"alpha": 0.5}, id="translucent"),
        pytest.param({"clip_on": True}, id="clipped"),
        pytest.param({"family": ["DejaVu Serif"]}, id="not-bundled"),
        pytest.param({"style": "italic"}, id="no-bundled-italic"),
        pytest.param({"variant": "small-caps"}, id="small-caps"),
        # a letter Lato lacks comes from a fallback font with line metrics of its own
        pytest.param({"s": "\u6f22\u5b57"}, id="cjk"),
        pytest.param({"s": " a"}, id="leading-space"),
        pytest.param({"s": "a  b"}, id="double-space"),
        pytest.param({"url": "https://example.com"}, id="link"),
    ],
)
@pytest.mark.filterwarnings("ignore:Glyph .* missing from font")
def test_text_html_cannot_set_exactly_stays_in_the_svg(options):
    fig = _figure()
    ax = fig.add_axes((0.1, 0.1, 0.8, 0.8))
    ax.set_axis_off()
    options = {"s": "a", "family": LATO, **options}
    ax.text(0.5, 0.5, options.pop("s"), **options)
    svg, lines, _ = _svg_and_text(fig, move=True)
    assert lines == []
    assert svg.count("<text") == 1


def test_names_stay_text_in_the_overlay():
    name = "<b>bold</b> & <script>x()</script>"
    fig = _figure()
    fig.text(0.5, 0.5, name, family=LATO)
    _, texts, _ = _svg_and_text(fig, move=True)
    assert texts[0].text == name
    html = text_overlay(texts, scale=1.0, reach=200.0)
    assert "<b>" not in html
    assert "<script" not in html
    assert unescape(re.sub(r"<[^>]+>", "", html)) == name
    assert 'aria-hidden="true"' in html


def _line(text, x, y, anchor, angle=0.0):
    return FigureText(
        text=text,
        x=x,
        y=y,
        angle=angle,
        anchor=anchor,
        size=8.5,
        family="'Lato'",
        weight=400,
        style="normal",
        fill="#1a1a1a",
        ascent=LATO_ASCENT,
        descent=LATO_DESCENT,
    )


def test_each_anchor_lands_its_baseline_and_end_where_the_svg_put_it():
    texts = [
        _line("s", 100, 50, "start"),
        _line("m", 100, 50, "middle"),
        _line("e", 100, 50, "end"),
        _line("r", 100, 50, "end", angle=-90),
    ]
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
    out = {}
    for mode in ("svg", "html"):
        with pytest.MonkeyPatch.context() as mp:
            if mode == "svg":
                # no line is taken out of the SVG: WeasyPrint sets all the figures' text
                mp.setattr(figures, "_html_line", lambda *args: None)
            ctx, _ = render.prepare_context(CASES[request.param](), date="2026-01-01")
        page = render_template(
            "base.html.j2", render.finish_context(ctx, embed_fonts=False, paper="a4"), templates
        )
        out[mode] = (page, folder / f"{mode}.pdf")
        render._write_pdf(page, out[mode][1])
    return request.param, out


def _image_texts(page: str) -> int:
    """How many <text> the figures' SVG images of a page hold."""
    urls = re.findall(r'<img class="fig-image" src="([^"]*)"', page)
    assert urls
    return sum(svg_from_data_url(unescape(u)).count(b"<text") for u in urls)


@needs_poppler
def test_figure_words_print_where_the_svg_text_printed_them(figure_pdfs):
    _, out = figure_pdfs
    svg_page, svg_pdf = out["svg"]
    html_page, html_pdf = out["html"]
    # every line of figure text moved out of the SVG, and the HTML report's SVG keeps them
    assert _image_texts(html_page) == 0
    assert "fig-text" not in svg_page.split("</style>", 1)[1]
    assert _image_texts(svg_page) == html_page.count('<span style="left')
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
