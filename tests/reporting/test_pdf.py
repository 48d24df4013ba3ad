"""The PDF report: its text, pages and fonts (WeasyPrint; kept to a few renders)."""

import warnings

import pytest

import cdplot
from cdplot.errors import CdplotError
from cdplot.reporting import report

pypdf = pytest.importorskip("pypdf")


@pytest.fixture(scope="module")
def demsar_pdf(tmp_path_factory):
    out = tmp_path_factory.mktemp("pdf") / "demsar.pdf"
    report(
        cdplot.load_example("demsar2006"),
        out,
        title="Classifier comparison",
        subtitle="C4.5 variants",
        author="Report Tester",
        date="2024-05-01",
    )
    return out


@pytest.fixture(scope="module")
def reader(demsar_pdf):
    return pypdf.PdfReader(demsar_pdf)


def _squash(text: str) -> str:
    # extraction breaks lines wherever the layout did; compare without whitespace
    return "".join(text.split())


@pytest.fixture(scope="module")
def text(reader):
    return _squash("".join(page.extract_text() for page in reader.pages))


def test_a4_pages_with_numbers(reader):
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (595, 842)
    n = len(reader.pages)
    assert 2 <= n <= 8
    last = _squash(reader.pages[-1].extract_text())
    assert f"Page{n}of{n}" in last
    # the footer is one unit: its option table never stands on a page without its heading
    pages = [_squash(p.extract_text()) for p in reader.pages]
    with_options = [i for i, p in enumerate(pages) if "OptionValue" in p]
    assert with_options
    assert all("Reproducibility" in pages[i] for i in with_options)


def test_title_methods_statistics_and_conclusion(text):
    assert _squash("Classifier comparison") in text
    assert _squash("C4.5 variants") in text
    assert _squash("Report Tester") in text
    for method in ("C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"):
        assert method in text
    # Demšar (2006) Table 6 as printed: tie-corrected chi2 (scipy 1.17.1
    # friedmanchisquare(*columns) = 10.952381), Demšar's uncorrected chi2, F_F, CD, q_alpha
    for number in ("10.9524", "9.8571", "4.5859", "3.9867", "1.2536", "2.5690"):
        assert number in text
    # the core's sentences, with the tables' symbols typeset (chi2_F as chi-square_F, ...)
    result = cdplot.compare(cdplot.load_example("demsar2006"))
    for sentence in [result.omnibus_sentence(), *result.posthoc_sentences()]:
        typeset = (
            sentence.replace("chi2_F", "χ2F")
            .replace("F_F", "FF")
            .replace("alpha", "α")
            .replace("critical value q", "critical value qα")
            .replace("Iman-Davenport", "Iman–Davenport")
        )
        assert _squash(typeset) in text


def test_methods_references_and_footer(text):
    assert _squash("following Demšar (2006)") in text
    assert _squash("Nemenyi (1963). Distribution-free Multiple Comparisons") in text
    assert "@article{friedman1937," in text
    (table,) = cdplot.load_example("demsar2006")
    assert table.sha256 in text
    assert f"cdplot{cdplot.__version__}" in text


def test_bundled_fonts_are_embedded(reader):
    fonts = set()
    for page in reader.pages:
        resources = page["/Resources"]
        for font in resources.get("/Font", {}).values():
            font = font.get_object()
            fonts.add(str(font["/BaseFont"]).split("+", 1)[-1])
            descendants = font.get("/DescendantFonts")
            if descendants:
                descriptor = descendants[0].get_object()["/FontDescriptor"].get_object()
                assert any(k in descriptor for k in ("/FontFile2", "/FontFile3", "/FontFile"))
    assert any(f.startswith("Lato") for f in fonts), fonts


def test_figures_are_vector(reader):
    # no raster image anywhere: the figures are drawn as paths and text
    for page in reader.pages:
        xobjects = page["/Resources"].get("/XObject", {})
        for xo in xobjects.values():
            assert xo.get_object().get("/Subtype") != "/Image"


def test_multi_metric_pdf_has_contents_and_bookmarks(tmp_path):
    out = tmp_path / "yang.pdf"
    report(cdplot.load_example("yang-table9"), out, date="2024-05-01")
    r = pypdf.PdfReader(out)
    first = _squash(r.pages[0].extract_text())
    assert "Contents" in first
    for metric in ("5CV", "Boots.", "AUC", "Consistencyofthemetrics"):
        assert metric in first

    def titles(outline):
        for item in outline:
            if isinstance(item, list):
                yield from titles(item)
            else:
                yield item.title

    found = list(titles(r.outline))
    assert "Consistency of the metrics" in found
    assert found.count("Summary") == 6


def _walk_struct(node, out):
    node = node.get_object()
    if isinstance(node, pypdf.generic.ArrayObject):
        for child in node:
            _walk_struct(child, out)
        return
    if not isinstance(node, pypdf.generic.DictionaryObject):
        return
    if "/S" in node:
        out.append((str(node["/S"]), str(node.get("/Alt", ""))))
    if "/K" in node:
        _walk_struct(node["/K"], out)


def test_pdf_is_tagged_with_figure_alternatives_stating_the_finding(reader):
    root = reader.trailer["/Root"]
    assert root["/MarkInfo"]["/Marked"]
    assert str(root["/Lang"]) == "en"
    elements = []
    _walk_struct(root["/StructTreeRoot"], elements)
    kinds = {k for k, _ in elements}
    assert {"/H1", "/H2", "/Table", "/Figure"} <= kinds
    alts = [alt for k, alt in elements if k == "/Figure"]
    assert len(alts) == 3
    # each figure's alternative says what it shows: here that no pair differs (Demsar's AUCs)
    assert all(alt for alt in alts)
    assert any("No pair of methods differs significantly" in alt for alt in alts)
    assert any("0 of the 6 pairs tested differ significantly" in alt for alt in alts)


# --- failures while the PDF is made: raised as they are, nothing written ----------------------
@pytest.fixture(scope="module")
def demsar():
    return cdplot.compare(cdplot.load_example("demsar2006"))


def test_an_output_that_cannot_be_replaced_is_one_line_and_nothing_is_left(demsar, tmp_path):
    (tmp_path / "r.pdf").mkdir()
    with pytest.raises(CdplotError, match=r"^output '.*r\.pdf' is a folder") as info:
        report(demsar, tmp_path / "r.pdf")
    assert "\n" not in str(info.value)
    assert [p.name for p in tmp_path.iterdir()] == ["r.pdf"]
    assert list((tmp_path / "r.pdf").iterdir()) == []


def test_a_weasyprint_error_keeps_its_type(demsar, tmp_path, monkeypatch):
    import weasyprint

    def broken(self, *args, **kwargs):
        raise ValueError("no layout today")

    monkeypatch.setattr(weasyprint.HTML, "render", broken)
    with pytest.raises(ValueError, match="^no layout today$"):
        report(demsar, tmp_path / "r.pdf")
    assert list(tmp_path.iterdir()) == []


def test_ctrl_c_while_writing_leaves_no_file(demsar, tmp_path, monkeypatch):
    import weasyprint

    def interrupted(self, *args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(weasyprint.Document, "write_pdf", interrupted)
    with pytest.raises(KeyboardInterrupt):
        report(demsar, tmp_path / "r.pdf")
    assert list(tmp_path.iterdir()) == []


def test_bad_input_writes_nothing(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(CdplotError, match="alpha"):
            report(
                cdplot.load_example("demsar2006"), tmp_path / "r.pdf", compare_kws={"alpha": 2.0}
            )
    assert list(tmp_path.iterdir()) == []


def test_a_missing_pango_is_one_line_naming_the_package(monkeypatch, tmp_path, capsys):
    # issue 29, 6: without Pango, WeasyPrint's import fails with cffi's raw "cannot load
    # library" and a traceback; now one line says which package brings it
    import builtins
    import sys

    from cdplot.cli import main

    real_import = builtins.__import__

    def no_pango(name, *args, **kwargs):
        if name == "weasyprint":
            raise OSError("cannot load library 'libpango-1.0-0': libpango-1.0-0: cannot open")
        return real_import(name, *args, **kwargs)

    monkeypatch.delitem(sys.modules, "weasyprint", raising=False)
    monkeypatch.setattr(builtins, "__import__", no_pango)
    out = tmp_path / "r.pdf"
    assert main(["report", "--example", "demsar2006", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "apt install libpango-1.0-0" in err
    assert "brew install pango" in err
    assert "-o report.html" in err
    assert "Traceback" not in err
    assert not out.exists()
