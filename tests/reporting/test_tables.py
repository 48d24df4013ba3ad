"""The data table in LaTeX, Markdown and HTML (cdplot/reporting/_tables.py)."""

import numpy as np
import pytest

import cdplot
from cdplot.errors import CdplotError
from cdplot.io import ScoreTable
from cdplot.reporting import data_table

# Demsar (2006), Table 6, as printed with 3 decimals; ranks of the printed values
# (the "voting" row ties C4.5+cf and C4.5+m+cf at 0.975 as printed; Demšar ranked unrounded AUCs)
DEMSAR_LATEX = r"""% AUC, higher is better: score (rank), best of each data set in bold
% needs \usepackage{booktabs}
\begin{tabular}{lrrrr}
\toprule
Data set & C4.5 & C4.5+m & C4.5+cf & C4.5+m+cf \\
\midrule
adult (sample) & 0.763 (4) & 0.768 (3) & 0.771 (2) & \textbf{0.798 (1)} \\
breast cancer & \textbf{0.599 (1)} & 0.591 (2) & 0.590 (3) & 0.569 (4) \\
breast cancer wisconsin & 0.954 (4) & \textbf{0.971 (1)} & 0.968 (2) & 0.967 (3) \\
cmc & 0.628 (4) & \textbf{0.661 (1)} & 0.654 (3) & 0.657 (2) \\
ionosphere & 0.882 (4) & 0.888 (2) & 0.886 (3) & \textbf{0.898 (1)} \\
iris & \textbf{0.936 (1)} & 0.931 (2.5) & 0.916 (4) & 0.931 (2.5) \\
liver disorders & 0.661 (3) & 0.668 (2) & 0.609 (4) & \textbf{0.685 (1)} \\
lung cancer & 0.583 (2.5) & 0.583 (2.5) & 0.563 (4) & \textbf{0.625 (1)} \\
lymphography & 0.775 (4) & 0.838 (3) & 0.866 (2) & \textbf{0.875 (1)} \\
mushroom & \textbf{1.000 (2.5)} & \textbf{1.000 (2.5)} & \textbf{1.000 (2.5)} & \textbf{1.000 (2.5)} \\
primary tumor & 0.940 (4) & 0.962 (2.5) & \textbf{0.965 (1)} & 0.962 (2.5) \\
rheum & 0.619 (3) & 0.666 (2) & 0.614 (4) & \textbf{0.669 (1)} \\
voting & 0.972 (4) & \textbf{0.981 (1)} & 0.975 (2.5) & 0.975 (2.5) \\
wine & 0.957 (3) & \textbf{0.978 (1)} & 0.946 (4) & 0.970 (2) \\
\midrule
Average rank & 3.143 & 2.000 & 2.929 & \textbf{1.929} \\
\bottomrule
\end{tabular}
"""  # noqa: E501


@pytest.fixture
def demsar():
    return cdplot.compare(cdplot.load_example("demsar2006"))


def test_demsar_latex_golden(demsar):
    assert data_table(demsar, format="latex") == DEMSAR_LATEX


def test_demsar_markdown_rows(demsar):
    lines = data_table(demsar, format="markdown").splitlines()
    assert lines[0] == "| Data set | C4.5 | C4.5+m | C4.5+cf | C4.5+m+cf |"
    assert lines[1] == "|:--|--:|--:|--:|--:|"
    assert lines[2] == "| adult (sample) | 0.763 (4) | 0.768 (3) | 0.771 (2) | **0.798 (1)** |"
    assert lines[-1] == "| *Average rank* | 3.143 | 2.000 | 2.929 | **1.929** |"
    assert len(lines) == 2 + 14 + 1


def test_html_table_is_the_report_block(demsar):
    html = data_table(demsar, format="html")
    assert html.startswith('<table class="data-table">')
    assert '<td class="best"><strong>0.798 <span class="rank">(1)</span></strong></td>' in html
    assert html.count("<tr>") == 1 + 14 + 1


def _table(methods, datasets=("d1", "d2", "d3"), values=None, **kw):
    values = (
        np.array([[0.5, 0.6, 0.7], [0.4, 0.6, 0.5], [0.9, 0.1, 0.3]]) if values is None else values
    )
    return cdplot.compare(ScoreTable(values=values, methods=methods, datasets=datasets, **kw))


def test_latex_escapes_special_characters():
    res = _table(["a_b", "50% & $x$", "{#1}~^\\"], datasets=("set_1", "d2", "d3"))
    out = data_table(res, format="latex")
    header = out.splitlines()[4]
    assert header == (
        r"Data set & a\_b & 50\% \& \$x\$ & "
        r"\{\#1\}\textasciitilde{}\textasciicircum{}\textbackslash{} \\"
    )
    assert r"set\_1 & " in out


def test_markdown_escapes_pipes_and_emphasis():
    res = _table(["a|b", "*x*", "<b>"])
    header = data_table(res, format="markdown").splitlines()[0]
    assert header == r"| Data set | a\|b | \*x\* | \<b\> |"


def test_html_escapes_names():
    res = _table(["<img src=x onerror=alert(1)>", "b", "c"])
    out = data_table(res, format="html")
    assert "<img" not in out
    assert "&lt;img src=x onerror=alert(1)&gt;" in out


def test_lower_is_better_bolds_the_smallest():
    res = _table(["a", "b", "c"], higher_is_better=False)
    first = data_table(res, format="markdown").splitlines()[2]
    assert first == "| d1 | **0.5 (1)** | 0.6 (2) | 0.7 (3) |"


@pytest.mark.parametrize(
    ("values", "decimals", "expected"),
    [
        pytest.param([[0.5, 0.25, 0.125], [0.1, 0.2, 0.3]], None, "0.500 (1)", id="as-typed-3"),
        pytest.param([[85.3, 80.0, 70.1], [1.0, 2.0, 3.0]], None, "85.3 (1)", id="as-typed-1"),
        pytest.param(
            [[1 / 3, 0.2, 0.1], [0.1, 0.2, 0.3]], None, "0.333 (1)", id="computed-3-significant"
        ),
        pytest.param([[1 / 3, 0.2, 0.1], [0.1, 0.2, 0.3]], 5, "0.33333 (1)", id="explicit"),
    ],
)
def test_decimals(values, decimals, expected):
    res = _table(["a", "b", "c"], datasets=("d1", "d2"), values=np.array(values))
    first = data_table(res, format="markdown", decimals=decimals).splitlines()[2]
    assert f"**{expected}**" in first


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"format": "rst"}, "format='rst'"),
        ({"decimals": -1}, "decimals=-1"),
        ({"decimals": 2.5}, "decimals=2.5"),
    ],
)
def test_bad_options(demsar, kwargs, match):
    with pytest.raises(CdplotError, match=match):
        data_table(demsar, **kwargs)


def test_needs_a_result():
    mc = cdplot.compare_metrics(cdplot.load_example("yang-table9"))
    with pytest.raises(CdplotError, match="pick one metric"):
        data_table(mc)


# --- issue 12: paper-ready tables ------------------------------------------------------

import re  # noqa: E402
import shutil  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
from decimal import ROUND_HALF_UP, Decimal, localcontext  # noqa: E402

import scipy.stats  # noqa: E402

from cdplot.io import as_score_tables  # noqa: E402
from cdplot.reporting._tables import decimal_texts  # noqa: E402
from cdplot.stats._corrections import adjust  # noqa: E402


@pytest.mark.parametrize(
    ("value", "decimals", "text"),
    [
        # the examples of issue 12: round the decimal text, not the binary float
        pytest.param(0.165, 2, "0.17", id="issue12-0.165"),
        pytest.param(0.845, 2, "0.85", id="issue12-0.845"),
        # Python's round() and format() give 2.67, 1.00 and 0.12 for these three
        pytest.param(2.675, 2, "2.68", id="binary-below-half"),
        pytest.param(1.005, 2, "1.01", id="binary-below-half-2"),
        pytest.param(0.125, 2, "0.13", id="exact-half-up-not-even"),
        pytest.param(-0.165, 2, "-0.17", id="half-away-from-zero"),
        pytest.param(-0.004, 2, "0.00", id="no-negative-zero"),
        pytest.param(0.5, 0, "1", id="zero-decimals"),
        pytest.param(0.16499, 2, "0.16", id="below-half"),
        pytest.param(float("nan"), 2, "\u2013", id="nan"),
    ],
)
def test_decimal_rounding(value, decimals, text):
    assert decimal_texts([value], decimals)[0].tolist() == [text]


def test_decimal_rounding_equals_decimal_module_on_typed_values():
    # brute force: Decimal(repr(x)).quantize(..., ROUND_HALF_UP) for every value: exact
    # halves of values typed with one more decimal, their float neighbours, values of
    # 16 and 17 significant digits (where the product x * 10**d rounds across a whole
    # number) and values beyond 2**53
    rng = np.random.default_rng(12)
    for d in range(0, 11):
        halves = (rng.integers(0, 10**6, 1500) + 0.5) / 10**d
        x = np.concatenate(
            [
                np.round(rng.random(1500) * 10.0 ** rng.integers(-3, 6, 1500), d + 1),
                halves,
                np.nextafter(halves, np.inf),
                np.nextafter(halves, -np.inf),
                rng.random(1500) * 10.0 ** rng.integers(-3, 18, 1500),
                rng.random(50) * 1e300,
            ]
        )
        x = np.concatenate([x, -x])
        texts, rounded = decimal_texts(x, d)
        with localcontext() as ctx:
            ctx.prec = 400
            for v, got, back in zip(x.tolist(), texts.tolist(), rounded.tolist(), strict=True):
                q = Decimal(repr(v)).quantize(Decimal(1).scaleb(-d), rounding=ROUND_HALF_UP)
                want = format(q, "f")
                if want.startswith("-") and float(want) == 0.0:
                    want = want[1:]
                assert got == want, (v, d)
                assert back == float(want)


def test_table_cells_round_half_up_and_say_when_rounding_hides_a_rank():
    values = np.array([[0.165, 0.845, 0.1], [0.8449, 0.8401, 0.9], [0.3, 0.2, 0.1]])
    res = _table(["a", "b", "c"], values=values)
    lines = data_table(res, format="markdown", decimals=2).splitlines()
    assert lines[2] == "| d1 | 0.17 (2) | **0.85 (1)** | 0.10 (3) |"
    # d2: 0.8449 and 0.8401 both print 0.84 with ranks 2 and 3
    assert lines[3] == "| d2 | 0.84 (2) | 0.84 (3) | **0.90 (1)** |"
    assert lines[-1] == (
        "On 1 data set (d2) scores printed alike have different ranks: ranks and bold come "
        "from the unrounded scores."
    )
    # at three decimals nothing is hidden, and the table has no footnote
    assert "printed alike" not in data_table(res, format="markdown", decimals=3)


def test_demsar_wtl_against_c45_is_a_count_of_table_6(demsar):
    # brute force on Demsar (2006) Table 6 as printed (3 decimals): C4.5 against each
    # method, ties where the printed AUCs are equal (lung cancer, mushroom, ...)
    lines = data_table(demsar, format="markdown", control="C4.5").splitlines()
    wtl_row = next(x for x in lines if x.startswith("| *W/T/L of C4.5*"))
    (table,) = cdplot.load_example("demsar2006")
    v = np.round(np.asarray(table.values), 3)
    want = []
    for j in range(1, 4):
        d = v[:, 0] - v[:, j]
        want.append(f"{(d > 0).sum()}/{(d == 0).sum()}/{(d < 0).sum()}")
    assert wtl_row == "| *W/T/L of C4.5* | \u2014 | " + " | ".join(want) + " |"
    assert want == ["2/2/10", "6/1/7", "2/1/11"]
    assert lines[-1].startswith("W/T/L: wins/ties/losses of C4.5 against each method over the 14")


def test_the_analysis_control_gives_the_wtl_row(demsar):
    res = cdplot.compare(cdplot.load_example("demsar2006"), test="bonferroni-dunn", control="C4.5")
    assert "W/T/L of C4.5 & --- & 2/2/10 & 6/1/7 & 2/1/11 \\\\" in data_table(res)


def test_caption_and_label_in_every_format(demsar):
    caption = "AUC of C4.5 variants & 50% of $x_1$ (Dem\u0161ar 2006)"
    tex = data_table(demsar, caption=caption, label="tab:auc")
    assert "\\begin{table}[tbp]\n\\centering\n" in tex
    assert "\\caption{AUC of C4.5 variants \\& 50\\% of \\$x\\_1\\$ (Dem\u0161ar 2006)}" in tex
    assert "\\label{tab:auc}" in tex
    assert tex.rstrip().endswith("\\end{table}")
    md = data_table(demsar, format="markdown", caption="a *b* | c")
    assert md.startswith("Table: a \\*b\\* \\| c\n\n| Data set |")
    html = data_table(demsar, format="html", caption="<b>AUC</b>", label='x"y')
    assert "<caption>&lt;b&gt;AUC&lt;/b&gt;</caption>" in html
    assert 'id="x&#34;y"' in html


def test_float_without_caption_and_bare_tabular_by_default(demsar):
    assert data_table(demsar) == DEMSAR_LATEX
    floated = data_table(demsar, latex_float=True)
    assert floated.count("\\begin{table}") == 1
    assert "\\caption" not in floated


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"label": "tab:x"}, r"label='tab:x' needs a caption"),
        ({"label": "tab x", "caption": "c"}, r"holds ' '"),
        ({"label": "a{b}", "caption": "c"}, r"holds '\{\}'"),
        ({"caption": "c", "latex_float": False}, "needs the table float"),
        ({"caption": "  "}, "caption='  ' must be a non-empty text"),
        ({"format": "markdown", "label": "t"}, "does not apply to Markdown"),
        ({"format": "html", "latex_float": True}, "applies to format='latex' only"),
        ({"marks": "bold"}, "marks='bold' is not valid"),
        ({"control": "C5"}, "control='C5' is not a method"),
        ({"std": True}, "std=True needs the score of each repetition"),
        ({"marks": "wilcoxon"}, "marks='wilcoxon' tests each data set over its repetitions"),
    ],
)
def test_bad_paper_options(demsar, kwargs, match):
    with pytest.raises(CdplotError, match=match):
        data_table(demsar, **kwargs)


def _folds(n_datasets=6, n_folds=10, seed=3, labelled=True):
    rng = np.random.default_rng(seed)
    means = {"RandF": 0.85, "SVM": 0.845, "kNN": 0.80, "C4.5": 0.78}
    rows = []
    for d in range(n_datasets):
        off = rng.normal(0, 0.03)
        for m, mu in means.items():
            for f in range(n_folds):
                row = {"dataset": f"set{d}", "method": m, "score": mu + off + rng.normal(0, 0.02)}
                if labelled:
                    row["fold"] = f
                rows.append(row)
    return rows


def _folds_result(**kw):
    (t,) = as_score_tables(_folds(**kw), keep_repetitions=True)
    return cdplot.compare(t)


def test_mean_and_std_over_repetitions():
    rows = _folds()
    res = _folds_result()
    md = data_table(res, format="markdown", decimals=3).splitlines()
    cell = md[2].split(" | ")[1].strip("* ")
    scores = [r["score"] for r in rows if r["dataset"] == "set0" and r["method"] == "RandF"]
    mean, sd = statistics.fmean(scores), statistics.stdev(scores)
    assert cell.startswith(f"{mean:.3f} \u00b1 {sd:.3f} (")
    assert md[-1] == "Mean \u00b1 standard deviation (n \u2212 1) over 10 repetitions."
    tex = data_table(res, decimals=3)
    assert f"{mean:.3f} $\\pm$ {sd:.3f} (" in tex
    assert "\u00b1" not in tex
    assert "\u00b1" not in data_table(res, format="markdown", std=False)


@pytest.mark.parametrize("test", ["wilcoxon", "t-test"])
def test_underlines_are_what_the_paired_test_does_not_find_worse(test):
    # brute force: scipy's two-sided test of each method against the data set's best,
    # Holm over the k - 1 comparisons of the data set
    res = _folds_result()
    model = cdplot.reporting._tables.table_model(res, marks=test)
    reps = res.scores.repetition_scores
    for i, row in enumerate(model["rows"]):
        b = int(np.argmin(res.ranks[i]))
        others = [j for j in range(4) if j != b]
        raw = [
            (
                scipy.stats.wilcoxon(reps[i, b], reps[i, j])
                if test == "wilcoxon"
                else scipy.stats.ttest_rel(reps[i, b], reps[i, j])
            ).pvalue
            for j in others
        ]
        p = adjust(raw, "holm")
        worse = {j for j, pj in zip(others, p, strict=True) if pj <= 0.05}
        assert row["cells"][b]["best"]
        assert not row["cells"][b]["under"]
        for j in others:
            assert row["cells"][j]["under"] == (j not in worse), (i, j)
    assert any(c["under"] for r in model["rows"] for c in r["cells"])
    assert not all(c["under"] or c["best"] for r in model["rows"] for c in r["cells"])
    note = next(n for n in model["notes"] if n.startswith("Underlined"))
    assert "Holm-corrected over the 3 comparisons within each data set" in note
    assert "Nadeau and Bengio 2003" in note


def test_underline_marks_in_every_format():
    res = _folds_result()
    md = data_table(res, format="markdown", marks="t-test")
    assert "\u2020 |" in md
    assert "Scores marked \u2020: not significantly worse" in md
    tex = data_table(res, marks="t-test")
    assert "\\underline{" in tex
    assert "% Underlined: not significantly worse" in tex
    html = data_table(res, format="html", marks="t-test")
    assert "<u>" in html
    assert '<tr class="note">' in html


def test_too_few_repetitions_say_no_method_can_be_shown_worse():
    res = _folds_result(n_folds=5)
    note = data_table(res, format="markdown", marks="wilcoxon").splitlines()[-1]
    assert note.endswith(
        "With 5 repetitions its smallest p-value is 0.0625, which Holm's first step (\u03b1/3) "
        "cannot reject: no method can be shown worse."
    )


def test_paired_marks_need_labelled_repetitions():
    (t,) = as_score_tables(_folds(labelled=False), keep_repetitions=True)
    with pytest.raises(CdplotError, match="pairs the repetitions of two methods by their label"):
        data_table(cdplot.compare(t), marks="wilcoxon")


def test_posthoc_marks_the_average_ranks_of_the_best_methods_clique(demsar):
    # Nemenyi, alpha 0.05, N = 14: CD = 1.254 (Demsar 2006, section 3.2.2); every average
    # rank lies within the CD of the best (1.929 + 1.254 > 3.143), so all are underlined
    tex = data_table(demsar, marks="posthoc")
    assert "Average rank & \\underline{3.143} & \\underline{2.000} & \\underline{2.929} & " in tex
    res = cdplot.compare(cdplot.load_example("demsar2006"), alpha=0.10)
    # at alpha 0.10, CD = 1.118: C4.5 (3.143) differs from C4.5+m+cf (1.929)
    tex = data_table(res, marks="posthoc")
    assert "Average rank & 3.143 & \\underline{2.000} & \\underline{2.929} & " in tex
    assert "this says nothing about any single data set" in tex


def test_posthoc_marks_refuse_a_control_that_is_not_the_best():
    res = cdplot.compare(cdplot.load_example("demsar2006"), test="bonferroni-dunn", control="C4.5")
    with pytest.raises(CdplotError, match="tested only against control='C4.5'"):
        data_table(res, marks="posthoc")


def test_marks_none_marks_nothing(demsar):
    out = data_table(demsar, format="markdown", marks="none")
    assert "**" not in out
    assert "\u2020" not in out


def test_hostile_names_are_escaped_everywhere():
    evil = ["<script>alert(1)</script>", "a & b", "x\"y'z"]
    res = _table(evil, datasets=("<img src=x onerror=1>", "d2", "d3"))
    html = data_table(res, format="html", caption="<i>c</i>", control=evil[0], marks="posthoc")
    assert "<script" not in html
    assert "<img" not in html
    assert "<i>" not in html
    assert "W/T/L of &lt;script&gt;alert(1)&lt;/script&gt;" in html
    tex = data_table(res, caption="a_b", control="a & b")
    assert "W/T/L of a \\& b" in tex
    md = data_table(res, format="markdown", control=evil[0])
    assert "W/T/L of \\<script\\>alert(1)\\</script\\>" in md


def test_a_big_table_of_100_methods():
    rng = np.random.default_rng(100)
    k, n = 100, 60
    values = 0.7 + np.linspace(0.1, 0.0, k)[None, :] + rng.normal(0, 0.03, (n, k))
    names = [f"method {j:03d} with a long name, tuned" for j in range(k)]
    res = cdplot.compare(
        ScoreTable(values=values, methods=names, datasets=[f"d{i}" for i in range(n)])
    )
    md = data_table(res, format="markdown", control=names[0]).splitlines()
    assert len(md[0].split(" | ")) == k + 1
    assert all(row.count("**") >= 2 for row in md[2 : 2 + n])
    tex = data_table(res, caption="k = 100", label="tab:k100")
    parts = tex.count("\\begin{tabular}")
    assert parts > 1
    assert tex.count("\\begin{table}") == parts
    assert tex.count("\\label{tab:k100}") == 1
    assert f"(part {parts} of {parts})" in tex
    # every method is printed exactly once, in order
    heads = re.findall(r"\\rotatebox\{90\}\{\\parbox\{12em\}\{\\raggedright (method \d{3})", tex)
    assert heads == [n[:10] for n in names]
    html = data_table(res, format="html")
    assert html.count("<tr>") == 1 + n + 1


# --- compiled with pdflatex ----------------------------------------------------------

PDFLATEX = shutil.which("pdflatex")


def _latex_ready() -> bool:
    kpsewhich = shutil.which("kpsewhich")
    if PDFLATEX is None or kpsewhich is None:
        return False
    found = subprocess.run(
        [kpsewhich, "booktabs.sty", "graphicx.sty", "array.sty"], capture_output=True, text=True
    )
    return len(found.stdout.split()) == 3


needs_latex = pytest.mark.skipif(
    not _latex_ready(),
    reason="pdflatex, booktabs, graphicx or array is missing (Debian packages "
    "texlive-latex-base, texlive-latex-recommended); the LaTeX tables are not compiled",
)

ARTICLE = r"""\documentclass{article}
\usepackage{booktabs}
\usepackage{graphicx}
\usepackage{array}
\pagestyle{empty}
\begin{document}
See Table~\ref{tab:t}.
\input{table.tex}
\end{document}
"""


def _compile(tmp_path, tex):
    (tmp_path / "table.tex").write_text(tex, encoding="utf-8")
    (tmp_path / "doc.tex").write_text(ARTICLE, encoding="utf-8")
    for _ in range(2):  # twice, for the reference
        run = subprocess.run(
            [PDFLATEX, "-interaction=nonstopmode", "-halt-on-error", "doc.tex"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert run.returncode == 0, run.stdout[-2000:]
    from pypdf import PdfReader

    pages = PdfReader(str(tmp_path / "doc.pdf")).pages
    return ["".join(p.extract_text().split()) for p in pages], run.stdout


def _long_name(i: int) -> str:
    """60 characters, as in tests/plot/test_tikz.py."""
    base = f"Model {i:03d} gradient boosted trees (depth 6; lr 0.05), tuned"
    return (base + " x" * 30)[:60]


@needs_latex
def test_demsar_table_compiles_with_every_mark(tmp_path, demsar):
    tex = data_table(
        demsar,
        caption="AUC of four C4.5 variants_1 & 50%",
        label="tab:t",
        marks="posthoc",
        control="C4.5",
        decimals=2,
    )
    pages, log = _compile(tmp_path, tex)
    text = "".join(pages)
    assert "SeeTable1." in text
    # (the OT1 font draws the underscore as a rule, which has no text)
    assert "Table1:AUCoffourC4.5variants" in text
    assert "1&50%" in text
    for name in ("C4.5+m+cf", "breastcancerwisconsin", "W/T/LofC4.5", "2/2/10"):
        assert name in text
    # adult (sample): 0.771 and 0.798 at 2 decimals
    assert "0.77(2)" in text
    assert "0.80(1)" in text
    assert "Overfull" not in log


@needs_latex
def test_thirty_methods_with_long_names_compile_in_parts(tmp_path):
    rng = np.random.default_rng(30)
    k, n = 30, 12
    values = 0.7 + np.linspace(0.08, 0.0, k)[None, :] + rng.normal(0, 0.03, (n, k))
    names = [_long_name(i) for i in range(k)]
    datasets = [f"Data set {i} with a rather long name_{i} & more" for i in range(n)]
    res = cdplot.compare(ScoreTable(values=values, methods=names, datasets=datasets))
    tex = data_table(res, caption="Thirty methods", label="tab:t", marks="posthoc")
    pages, log = _compile(tmp_path, tex)
    text = "".join(pages)
    for name in names:
        assert "".join(name.split()) in text
    assert "Dataset11witharatherlongname" in text
    assert "Underlinedaverageranks:notsignificantlydifferent" in text
    # the parts are floats of their own: each fits a page, none is much too wide
    parts = tex.count("\\begin{table}")
    assert parts > 1
    assert [sum(f"(part{i}of{parts})" in p for p in pages) for i in range(1, parts + 1)] == [
        1
    ] * parts
    assert "Float too large" not in log
    widths = [float(w) for w in re.findall(r"Overfull \\hbox \((\d+\.\d+)pt too wide", log)]
    assert all(w < 10 for w in widths), widths


@needs_latex
def test_a_name_with_a_right_to_left_override_compiles(tmp_path):
    # issue 32: U+202E in a name stopped pdflatex ("Unicode character U+202E not set up");
    # bidirectional controls print as the terminal shows them
    values = np.array([[0.9, 0.8, 0.7], [0.8, 0.7, 0.75], [0.7, 0.75, 0.6]])
    scores = ScoreTable(values=values, methods=["A\u202eB", "C\u2066D", "E"], datasets=list("xyz"))
    tex = data_table(cdplot.compare(scores), caption="Names\u202e", label="tab:t")
    assert "\u202e" not in tex
    pages, _ = _compile(tmp_path, tex)
    assert "A\\u202eB" in "".join(pages)


# six methods with long names and scores typed with five decimals: the table of issue 29,
# item 7, which printed five decimals and split into parts
LONG_NAMES = [
    "RandomForest",
    "GradientBoosting",
    "LogisticRegression",
    "SVM-RBF",
    "kNeighbors",
    "NaiveBayes",
]


@pytest.fixture
def five_decimals():
    from cdplot.io import as_score_tables

    rng = np.random.default_rng(0)
    values = np.round(rng.uniform(0.6, 0.95, (10, 6)), 5)
    (t,) = as_score_tables(values, methods=LONG_NAMES)
    return cdplot.compare(t)


def test_default_decimals_are_the_data_precision_up_to_three(five_decimals):
    row = data_table(five_decimals, format="markdown").splitlines()[2]
    cells = [c.strip(" *") for c in row.split("|")[2:-1]]
    assert all(len(c.split(" (")[0].split(".")[1]) == 3 for c in cells), cells
    assert "." in data_table(five_decimals, format="markdown", decimals=5).splitlines()[2]
    five = data_table(five_decimals, format="markdown", decimals=5).splitlines()[2]
    assert len(five.split("|")[2].strip(" *").split(" (")[0].split(".")[1]) == 5
    # typed with two decimals: two, as before
    two = ScoreTable(values=[[0.5, 0.25], [0.75, 0.5], [0.25, 0.5]], methods=["A", "B"],
                     datasets=["x", "y", "z"])  # fmt: skip
    assert "| **0.50 (1)** | 0.25 (2) |" in data_table(cdplot.compare(two), format="markdown")
    # small scores keep three significant digits
    from cdplot.reporting._tables import table_decimals

    assert table_decimals([0.00123, 0.0005]) == 5
    assert table_decimals([85.3217, 70.1]) == 3
    assert table_decimals([0.85432, 0.7]) == 3


def test_one_tabular_while_it_fits_and_the_option_to_force_either(five_decimals):
    def parts(**kw):
        return data_table(five_decimals, **kw).count("\\begin{tabular}")

    assert parts() == 1  # three decimals fit the line
    assert parts(decimals=5) == 2
    assert parts(decimals=5, split=False) == 1
    # a float that fits as one; split=True sets it in parts rather than smaller
    assert parts(caption="AUC", decimals=2) == 1
    assert parts(caption="AUC", decimals=2, split=True) == 2
    with pytest.raises(CdplotError, match="split="):
        data_table(five_decimals, format="markdown", split=False)
