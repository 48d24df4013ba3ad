"""The HTML report: valid, self-contained, complete (cdplot/reporting/_render.py)."""

import re
import xml.etree.ElementTree as ET
from html import unescape
from html.parser import HTMLParser

import numpy as np
import pytest

import cdplot
from cdplot.errors import CdplotError, CdplotWarning
from cdplot.reporting import render_html, report


class _Collector(HTMLParser):
    """Tags, attributes and the balance of open elements of an HTML document."""

    VOID = {"meta", "br", "img", "hr", "input", "link", "col", "area", "base", "wbr", "source"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors, self.attrs, self.ids, self.text = [], [], [], [], []

    def handle_starttag(self, tag, attrs):
        self.attrs += [(tag, k, v) for k, v in attrs]
        self.ids += [v for k, v in attrs if k == "id"]
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.attrs += [(tag, k, v) for k, v in attrs]
        self.ids += [v for k, v in attrs if k == "id"]

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
        else:
            self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


def parse(html):
    p = _Collector()
    p.feed(html)
    p.close()
    return p


@pytest.fixture(scope="module")
def demsar_html():
    return render_html(
        cdplot.load_example("demsar2006"),
        title="Demšar's example",
        author="A. N. Author",
        date="2024-05-01",
    )


@pytest.fixture(scope="module")
def yang_html():
    return render_html(cdplot.load_example("yang-table9"), date="2024-05-01")


def test_html_is_well_formed(demsar_html, yang_html):
    for html in (demsar_html, yang_html):
        p = parse(html)
        assert p.errors == []
        assert p.stack == []
        assert len(p.ids) == len(set(p.ids)), "duplicate ids"


def test_inline_svgs_parse_as_xml(demsar_html):
    svgs = re.findall(r"<svg\b.*?</svg>", demsar_html, flags=re.S)
    assert len(svgs) == 3
    for svg in svgs:
        root = ET.fromstring(svg)
        assert root.tag.endswith("svg")


def test_self_contained_no_external_url(demsar_html, yang_html):
    for html in (demsar_html, yang_html):
        for tag, attr, value in parse(html).attrs:
            if attr in ("src", "href") or attr.endswith(":href"):
                assert value.startswith("#"), (tag, attr, value)
        assert "<link" not in html
        assert "<script" not in html
        # every url() in the CSS is an embedded font
        for url in re.findall(r"url\(\s*['\"]?([^'\")]*)", html):
            assert url.startswith("data:font/") or url.startswith("#"), url[:40]


def test_fonts_are_embedded(demsar_html):
    assert '@font-face {\n  font-family: "Lato";' in demsar_html
    assert '@font-face {\n  font-family: "DejaVu Sans Mono";' in demsar_html
    assert "data:font/woff;base64," in demsar_html


def test_embedded_fonts_are_subset_so_the_file_stays_light(demsar_html):
    # issue 9: the whole TTFs made the Demsar report 1.8 MB; subsets keep it under 300 KB
    assert len(demsar_html.encode("utf-8")) < 300_000
    from fontTools.ttLib import TTFont

    url = re.search(
        r'font-family: "Lato";\s*font-weight: 400;.*?base64,([^"]+)"', demsar_html, re.S
    )
    import base64
    import io

    font = TTFont(io.BytesIO(base64.b64decode(url.group(1))))
    cmap = font.getBestCmap()
    # what the report prints is there (names, symbols), a script it does not print is not
    for ch in "C4.5+mcfAUCχα–":
        assert ord(ch) in cmap, ch
    assert ord("Ж") not in cmap


def test_title_author_date_and_statistics(demsar_html):
    text = " ".join(" ".join(parse(demsar_html).text).split())
    assert "Demšar's example" in text
    assert "A. N. Author" in text
    assert "2024-05-01" in text
    for method in ("C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"):
        assert method in text
    # tie-corrected chi-square of Demšar (2006) Table 6 as printed: scipy 1.17.1
    # friedmanchisquare(*columns).statistic = 10.952381
    assert "10.9524" in text
    assert "9.8571" in text  # Demsar's uncorrected formula
    assert "3.9867" in text  # F_F from the uncorrected statistic
    assert "CD = 1.2536" in text
    # the core's sentence, with the symbols the tables use (chi2_F, F_F and alpha typeset)
    result = cdplot.compare(cdplot.load_example("demsar2006"))
    sentence = " ".join(result.omnibus_sentence().split())
    typeset = (
        sentence.replace("chi2_F", "χ 2 F")
        .replace("F_F", "F F")
        .replace("alpha", "α")
        .replace("Iman-Davenport", "Iman–Davenport")
    )
    assert typeset in text
    assert "chi2_F" not in text
    assert "at alpha =" not in text


def test_data_table_has_ranks_bold_best_and_average_row(demsar_html):
    assert (
        '<td class="best"><strong>0.798 <span class="rank">(1)</span></strong></td>' in demsar_html
    )
    assert '<th scope="row" class="name">Average rank</th>' in demsar_html


def test_methods_paragraph_references_and_bibtex(demsar_html):
    text = " ".join(parse(demsar_html).text)
    assert "following Demšar (2006)" in text
    for key in ("friedman1937", "iman1980", "nemenyi1963", "demsar2006"):
        assert f"@{'phdthesis' if key == 'nemenyi1963' else 'article'}{{{key}," in text


def test_bibtex_columns_hold_the_whole_bibtex_without_an_entry_split(demsar_html):
    # print sets the columns side by side instead of WeasyPrint's balanced columns (issue 9);
    # the screen shows them one under the other in one box
    from cdplot.reporting._references import REFERENCES

    box = demsar_html.split('<div class="bibtex">')[1].split("</div></div>")[0]
    columns = [unescape(c) for c in re.findall(r"<pre>(.*?)</pre>", box, re.S)]
    assert len(columns) == 2
    keys = re.findall(r'<li id="ref-([^"]+)">', demsar_html)
    assert len(keys) >= 7
    # every work of the reference list, in its order, as REFERENCES has it
    assert "\n".join(columns) == "\n".join(REFERENCES[key].bibtex for key in keys)
    assert all(c.startswith("@") and c.endswith("}\n") for c in columns)


def test_reproducibility_footer(demsar_html):
    (table,) = cdplot.load_example("demsar2006")
    assert table.sha256 in demsar_html
    assert "example:demsar2006" in demsar_html
    assert f"cdplot {cdplot.__version__}" in demsar_html
    for option in ("alpha", "test", "tie_correction", "nan_policy", "paper"):
        assert f'<th scope="row" class="name">{option}</th>' in demsar_html


def test_single_metric_has_no_toc(demsar_html):
    assert 'class="toc"' not in demsar_html


def test_multi_metric_sections_toc_and_consistency(yang_html):
    metrics = ("5CV", "Boots.", "P", "R", "F", "AUC")
    sections = re.findall(r'<section class="metric" id="(metric-\d+)">', yang_html)
    assert sections == [f"metric-{i}" for i in range(1, 7)]
    headings = re.findall(r'<h2 class="metric-heading">(.*?) <span', yang_html)
    assert headings == list(metrics)
    assert '<nav class="toc"' in yang_html
    for i in range(1, 7):
        assert f'<a href="#metric-{i}">' in yang_html
    assert '<section class="consistency" id="consistency">' in yang_html
    assert 'class="stats-table tau-table' in yang_html
    tau_table = yang_html.split('class="stats-table tau-table', 1)[1].split("</table>", 1)[0]
    tau_rows = re.findall(r'<tr><th scope="row" class="name">([^<]*)</th>', tau_table)
    assert tau_rows == list(metrics)
    assert "-1.000" in yang_html  # 5CV against AUC


def test_report_writes_html_atomically(tmp_path):
    out = tmp_path / "r.html"
    assert report(cdplot.load_example("demsar2006"), out, date="2024-05-01") == out
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert [p.name for p in tmp_path.iterdir()] == ["r.html"]


def test_results_and_analysis_options_do_not_mix(tmp_path):
    res = cdplot.compare(cdplot.load_example("demsar2006"))
    with pytest.raises(
        CdplotError,
        match=r"option alpha=0.1 \(in compare_kws\) applies when the report analyses scores",
    ):
        report(res, tmp_path / "r.html", compare_kws={"alpha": 0.1})


def test_analysis_options_reach_the_analysis():
    html = render_html(
        cdplot.load_example("demsar2006"),
        compare_kws={"test": "friedman-z", "correction": "hommel", "alpha": 0.1},
    )
    assert "Hommel" in html
    assert "hommel1988" in html
    assert "α = 0.1" in html


@pytest.mark.parametrize(
    ("path", "kwargs", "match"),
    [
        ("r.txt", {}, "no .html or .pdf extension"),
        ("r.html", {"paper": "a3"}, "paper='a3'"),
        ("r.html", {"format": "docx"}, "format='docx'"),
        ("r.html", {"title": 3}, "title=3"),
        ("r.html", {"compare_kws": [("alpha", 0.1)]}, "compare_kws="),
        ("r.html", {"compare_kws": {"alpah": 0.1}}, "compare_kws: 'alpah' is not an analysis"),
    ],
)
def test_bad_options(tmp_path, path, kwargs, match):
    with pytest.raises(CdplotError, match=match):
        report(cdplot.load_example("demsar2006"), tmp_path / path, **kwargs)
    assert list(tmp_path.iterdir()) == []


def test_progress_on_stderr(tmp_path, capsys):
    report(cdplot.load_example("yang-table9"), tmp_path / "y.html", progress=True)
    err = capsys.readouterr().err
    assert "cdplot report: [1/6] drawing 5CV" in err
    assert "[6/6] drawing AUC" in err


def test_repr_html_for_notebooks():
    from cdplot.reporting import repr_html

    html = repr_html(cdplot.compare(cdplot.load_example("demsar2006")))
    assert html.startswith('<div class="cdplot-report">')
    assert "<svg" in html
    assert parse(html).errors == []


def test_cdplot_report_is_the_function_whatever_was_imported_first(tmp_path):
    # issue 11: the package is cdplot.reporting, so importing it never rebinds cdplot.report
    import cdplot.reporting._render
    import cdplot.reporting._tables  # noqa: F401

    assert cdplot.report is cdplot.reporting._render.report
    out = cdplot.report(cdplot.load_example("demsar2006"), tmp_path / "r.html")
    assert out.is_file()


def test_methods_keep_one_order_in_every_section_of_a_multi_metric_report(yang_html):
    # issue 9: the overall rank order (mean of the metrics' average ranks) everywhere
    mc = cdplot.compare_metrics(cdplot.load_example("yang-table9"))
    mean = np.mean(np.asarray(mc.average_ranks), axis=0)
    overall = [mc.methods[i] for i in np.argsort(mean, kind="stable")]
    tables = re.findall(
        r'<table class="stats-table ranking method-table.*?</table>', yang_html, re.S
    )
    assert len(tables) == 6
    for table in tables:
        rows = re.findall(r'<th scope="row" class="name">([^<]*)</th>', table)
        assert rows == overall
    avg = yang_html.split('class="stats-table average-ranks', 1)[1].split("</thead>", 1)[0]
    assert re.findall(r'<th scope="col">([^<]*)</th>', avg) == overall


def test_control_mode_report_claims_nothing_about_untested_pairs():
    # Bonferroni-Dunn tests only pairs with the control (Demšar 2006, section 3.2.2): the
    # report must not speak of bars, overlapping intervals or groups
    res = cdplot.compare(cdplot.load_example("demsar2006"), test="bonferroni-dunn", control="C4.5")
    html = render_html(res, embed_fonts=False)
    text = re.sub(
        r"\s+", " ", re.sub(r"<[^>]+>", " ", re.sub(r"<svg.*?</svg>", "", html, flags=re.S))
    )
    for claim in (
        "joined by a bar",
        "do not overlap",
        "Groups of methods",
        "sharing a group letter",
    ):
        assert claim not in text, claim
    assert text.count("Only pairs with the control C4.5 were tested") >= 3
    assert "differ significantly from the control at α = 0.05" in text


def test_a_heatmap_too_large_to_read_is_left_out_and_said_so(monkeypatch):
    import warnings

    from cdplot.plot import _heatmap
    from cdplot.reporting._figures import figure_svgs

    # left out before it is drawn: the report stops the plot at its size check
    drawn = []
    draw = _heatmap._draw
    monkeypatch.setattr(_heatmap, "_draw", lambda *a, **k: drawn.append(1) or draw(*a, **k))

    # 80 methods: their heatmap needs about 8.1 in of a 7 in text width with matplotlib
    # 3.11's fonts (60, the case before, fit once 3.11 made the lines a point shorter)
    rng = np.random.default_rng(60)
    scores = rng.uniform(size=(14, 80)) + np.linspace(0, 0.5, 80)
    res = cdplot.compare(scores, methods=[f"Method number {i:02d}" for i in range(80)])
    with warnings.catch_warnings():
        warnings.simplefilter("error", CdplotWarning)  # the heatmap's warning stays inside
        keys = [f["key"] for f in figure_svgs(res, prefix="t")]
    # 80 rows of intervals print in parts ("intervals-2"), each at 6 pt or more
    assert [k for k in keys if not k.startswith("intervals-")] == ["cd", "intervals"]
    assert drawn == []
    html = render_html(res, embed_fonts=False)
    assert "nor would a heatmap of them" in html
    assert "the heatmap above" not in html


def test_the_report_never_overwrites_its_data_file(tmp_path):
    # issue 14: an output path equal to an input path overwrote the input
    data = tmp_path / "scores.csv"
    text = "dataset,A,B\nd1,0.9,0.8\nd2,0.8,0.7\nd3,0.7,0.75\n"
    data.write_text(text, encoding="utf-8")
    same = tmp_path / "scores.html"
    same.symlink_to(data)
    with pytest.raises(CdplotError, match="is also the data file"):
        report(str(data), same)
    assert data.read_text(encoding="utf-8") == text


def test_prose_uses_the_symbols_of_the_tables(yang_html):
    # issue 9: the summary wrote "chi2_F" and "alpha" while the tables write the symbols; a
    # metric named "F" (Yang et al.) must not stop "chi2_F" from being typeset
    prose = re.sub(r"<pre\b.*?</pre>|<footer\b.*?</footer>", " ", yang_html, flags=re.S)
    text = unescape(re.sub(r"<[^>]+>", " ", prose))
    for ascii_symbol in ("chi2_F", "F_F", "alpha", "tau-b", "<="):
        assert ascii_symbol not in text, ascii_symbol
    assert "\u03c7" in text
    assert "\u03c4" in text


def test_groups_heading_over_no_group_says_none():
    # three methods far apart on 40 data sets: the Nemenyi test separates every pair, so no
    # two methods share a group; the heading must not stand over an empty list
    rng = np.random.default_rng(5)
    values = np.array([0.9, 0.7, 0.5])[None, :] + rng.normal(0, 0.01, (40, 3))
    table = cdplot.ScoreTable(
        values=values, methods=["A", "B", "C"], datasets=[f"d{i}" for i in range(40)]
    )
    result = cdplot.compare(table)
    assert result.cliques == ()
    html = render_html(result, date="2026-01-01")
    found = re.search(
        r"Groups of methods that do not differ significantly</h\d>\s*(<[^>]+>[^<]*)", html
    )
    assert found.group(1) == "<p>None: every pair of methods differs significantly."
    assert '<ul class="cliques' not in html


def test_summary_of_many_significant_pairs_names_few_and_points_to_the_report():
    # the 60-method summary named 30 pairs (30 long names, most of a page) and sent the
    # reader to "significant_pairs()" and "the cliques", which a report reader cannot call
    rng = np.random.default_rng(60)
    scores = rng.normal(0, 0.03, (40, 60)) + np.linspace(0.1, 0.0, 60)
    names = [f"Method {i:02d} with a long descriptive name" for i in range(60)]
    res = cdplot.compare(scores, methods=names)
    html = render_html(res, embed_fonts=False, date="2026-01-01")
    summary = unescape(
        re.sub(r"<[^>]+>", "", re.search(r'class="conclusion">(.*?)</p>', html, re.S)[1])
    )
    n = len(res.significant_pairs())
    assert f"{n} of the 1770 pairs tested differ significantly; the first 6 in rank" in summary
    assert "(the rest are in the pairwise comparisons)" in summary
    assert sum(summary.count(m) for m in names) <= 7
    text = unescape(re.sub(r"<[^>]+>", " ", html))
    assert "significant_pairs()" not in text
    assert "see the cliques" not in text
    # the library's own text is printed by the CLI too, so it names no Python call (issue 26)
    assert "(the rest are in the list of significant pairs)" in res.conclusion()
