"""read_average_ranks: files of ``method,average_rank`` rows, with file/row/column messages.

The ranks are those of Demšar (2006), JMLR 7:1-30, Table 6 (last row).
"""

import pytest

from cdplot.errors import CdplotError
from cdplot.io import AverageRanks, as_average_ranks, read_average_ranks

DEMSAR_ROWS = "C4.5,3.143\nC4.5+m,2.000\nC4.5+cf,2.893\nC4.5+m+cf,1.964\n"
METHODS = ("C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf")


def write(tmp_path, text, name="ranks.csv"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(DEMSAR_ROWS, id="no-header"),
        pytest.param("method,average_rank\n" + DEMSAR_ROWS, id="header"),
        pytest.param(
            "# Demšar (2006), Table 6\n\nmethod,average rank\n# a comment\n" + DEMSAR_ROWS,
            id="comments-and-blank-lines",
        ),
        pytest.param(DEMSAR_ROWS.replace(",", "\t"), id="tsv"),
        pytest.param(
            "C4.5;3,143\nC4.5+m;2,000\nC4.5+cf;2,893\nC4.5+m+cf;1,964\n", id="decimal-comma"
        ),
        pytest.param(DEMSAR_ROWS.replace("\n", ",\n"), id="trailing-delimiter"),
        pytest.param(DEMSAR_ROWS.replace("\n", "\r\n"), id="crlf"),
        pytest.param('"C4.5",3.143\n"C4.5+m",2.000\n"C4.5+cf",2.893\n"C4.5+m+cf",1.964\n', id="q"),
    ],
)
def test_reads_demsar_ranks(tmp_path, text):
    r = read_average_ranks(write(tmp_path, text))
    assert isinstance(r, AverageRanks)
    assert r.methods == METHODS
    assert r.values.tolist() == [3.143, 2.0, 2.893, 1.964]
    assert r.decimals == 3
    assert r.source.endswith("ranks.csv")
    assert len(r.sha256) == 64
    assert r.locations[0].startswith(r.source + ", row ")


def test_locations_are_file_lines(tmp_path):
    r = read_average_ranks(write(tmp_path, "# c\nmethod,rank\n\nA,1.5\nB,1.5\n"))
    assert r.locations == (f"{r.source}, row 4", f"{r.source}, row 5")
    assert r.where(1) == f"{r.source}, row 5 (method 'B')"
    assert r.decimals == 1


@pytest.mark.parametrize(
    ("text", "match"),
    [
        pytest.param("", "holds no average ranks", id="empty"),
        pytest.param("# only a comment\n", "holds no average ranks", id="comments-only"),
        pytest.param("method,rank\n", r"row 1: there is a header .* but no rows", id="header-only"),
        pytest.param("A,1.5,2\nB,1.5,1\n", r"row 1 has 3 cells; .* has two", id="three-cells"),
        pytest.param("A,1.5\nB\n", r"row 2 has 1 cell;", id="one-cell"),
        pytest.param(
            "A,1.5\nA,1.5\n", r"row 2: method 'A' appears twice \(also row 1\)", id="twice"
        ),
        pytest.param("A,1.5\n,1.5\n", r"row 2: the method name is empty", id="empty-name"),
        pytest.param("m,r\nA,x\nB,1.5\n", r"row 2, column 'r': 'x' is not a number", id="word"),
        pytest.param("m,r\nA,\nB,1.5\n", r"row 2, column 'r': the average rank of 'A' is", id="na"),
        pytest.param("m,r\nA,inf\nB,1.5\n", r"row 2, column 'r': 'inf' is not finite", id="inf"),
        pytest.param("A,1.5\nB\x01,1.5\n", r"row 2: method name .* control character", id="ctl"),
    ],
)
def test_errors_name_file_row_and_column(tmp_path, text, match):
    p = write(tmp_path, text)
    with pytest.raises(CdplotError, match=match) as e:
        read_average_ranks(p)
    msg = str(e.value)
    assert "\n" not in msg
    assert msg.startswith(str(p))


def test_missing_file_and_bad_sep(tmp_path):
    with pytest.raises(CdplotError, match="no such file"):
        read_average_ranks(tmp_path / "nope.csv")
    with pytest.raises(CdplotError, match="option sep="):
        read_average_ranks(write(tmp_path, DEMSAR_ROWS), sep="ab")


def test_explicit_sep(tmp_path):
    r = read_average_ranks(write(tmp_path, DEMSAR_ROWS.replace(",", "|")), sep="|")
    assert r.methods == METHODS


def test_mapping_decimals():
    r = as_average_ranks({"a": 2.33, "b": 2.5, "c": 1.17})
    assert r.decimals == 2
    # integers and computed floats are exact: no rounding is assumed
    assert as_average_ranks({"a": 1, "b": 2}).decimals is None
    assert as_average_ranks({"a": 4 / 3, "b": 5 / 3}).decimals is None


def test_mapping_errors():
    with pytest.raises(CdplotError, match="method 'a' appears twice"):
        as_average_ranks({"a": 1.5, " a": 1.5})
    with pytest.raises(CdplotError, match="must be a mapping"):
        as_average_ranks(3.5)
    with pytest.raises(CdplotError, match="names 1 methods for 2 average ranks"):
        as_average_ranks([1.5, 1.5], methods=["a"])
