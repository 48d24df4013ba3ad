"""A PDF report's figure text is text: found by pdftotext, in the bundled fonts, tagged.

WeasyPrint draws each figure's SVG (as an image, render._svg_image) with its
``<text>`` set in the fonts the report declares.  Each report's figures are read
back with poppler's ``pdftotext -bbox-layout`` and ``pdffonts``.  The HTML report
keeps its figures inline, with their SVG text.

(A PDF report once set the figures' text as HTML boxes over a text-less SVG,
because WeasyPrint set SVG text a letter at a time; measured by turns, that saved
no CPU time any more on Demsar's, the 30- and the 60-method reports, for the same
word boxes within 0.03 pt: benchmarks/bench_pdf_transforms.py.)
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections import Counter
from html import unescape

import numpy as np
import pytest

import cdplot
from cdplot.io import ScoreTable
from cdplot.reporting import _render as render
from cdplot.reporting._fetcher import svg_from_data_url
from cdplot.reporting._figures import MIN_PRINTED_PT, _printed_min, figure_svgs
from cdplot.reporting._templating import TEMPLATE_NAMES, render_template

needs_poppler = pytest.mark.skipif(
    shutil.which("pdftotext") is None or shutil.which("pdffonts") is None,
    reason="pdftotext or pdffonts is missing (Debian package poppler-utils)",
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
    """The report's figures alone (every other partial emptied): the page and its PDF."""
    folder = tmp_path_factory.mktemp(f"figtext-{request.param}")
    templates = folder / "templates"
    templates.mkdir()
    for name in TEMPLATE_NAMES:
        if name not in ("base.html.j2", "figures.html.j2"):
            (templates / name).write_text("", encoding="utf-8")
    ctx, _ = render.prepare_context(CASES[request.param](), date="2026-01-01")
    page = render_template(
        "base.html.j2", render.finish_context(ctx, embed_fonts=False, paper="a4"), templates
    )
    render._write_pdf(page, folder / "figures.pdf")
    return page, folder / "figures.pdf"


def _figure_words(page: str) -> Counter:
    """The words of the <text> of the figures' SVG images of a page."""
    urls = re.findall(r'<img class="fig-image" src="([^"]*)"', page)
    assert urls
    words: Counter = Counter()
    for url in urls:
        svg = svg_from_data_url(unescape(url)).decode("utf-8")
        for text in re.findall(r"<text\b[^>]*>([^<]*)</text>", svg):
            words.update(unescape(text).split())
    return words


@needs_poppler
def test_figure_words_are_text_in_the_bundled_fonts(figure_pdfs):
    page, pdf = figure_pdfs
    figure_words = _figure_words(page)
    assert sum(figure_words.values()) > 20
    # every word of the figures is text that pdftotext finds (searchable, selectable)
    found = Counter(w for _, w, _ in _word_boxes(pdf))
    assert not figure_words - found
    # in the report's Lato, embedded
    fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, check=True).stdout
    lines = fonts.decode("utf-8").splitlines()[2:]
    assert any("Lato" in line and line.split()[-5] == "yes" for line in lines), lines


@needs_poppler
def test_the_tagged_pdf_keeps_each_figure_and_its_alternative_text(figure_pdfs):
    pypdf = pytest.importorskip("pypdf")
    page, pdf = figure_pdfs
    reader = pypdf.PdfReader(pdf)
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
    assert len(figures) == page.count('class="svg-box" role="img"')


def test_the_html_report_keeps_its_svg_text():
    page = render.render_html(cdplot.load_example("demsar2006"), embed_fonts=False)
    assert page.count("<text") > 20
    assert "<img" not in page


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


def test_right_to_left_names_are_drawn_shaped_in_report_figures():
    # issue 27, 9: WeasyPrint sets SVG text a letter at a time, which drew Arabic names
    # reversed and unjoined in the PDF; such figures carry matplotlib's shaped glyph outlines
    arabic = "\u0627\u0644\u063a\u0627\u0628\u0629"
    rng = np.random.default_rng(5)
    values = 0.7 + np.linspace(0.05, 0, 3)[None, :] + rng.normal(0, 0.03, (12, 3))
    table = ScoreTable(
        values=values, methods=[arabic, "beta", "gamma"], datasets=list("abcdefghijkl")
    )
    result = cdplot.compare(table)
    plain = cdplot.compare(
        ScoreTable(values=values, methods=["alpha", "beta", "gamma"], datasets=table.datasets)
    )
    for fmt in ("pdf", "html"):
        figs = figure_svgs(result, prefix="r", format=fmt)
        assert figs
        for fig in figs:
            assert "<text" not in fig["svg"], fig["key"]
            assert arabic not in unescape(fig["svg"])
        # names without right-to-left letters keep their SVG text (searchable in the PDF)
        assert any("<text" in f["svg"] for f in figure_svgs(plain, prefix="p", format=fmt))
