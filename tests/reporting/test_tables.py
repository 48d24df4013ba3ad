"""The data table in LaTeX, Markdown and HTML (cdplot/reporting/tables.py)."""

import numpy as np
import pytest

import cdplot
from cdplot.errors import CdplotError
from cdplot.reporting import data_table
from cdplot.stats.scores import ScoreTable

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
