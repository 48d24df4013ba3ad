"""Tests of cdplot.io.read_scores: CSV/TSV/JSON forms and every error.

Data: Demšar (2006), "Statistical Comparisons of Classifiers over Multiple Data
Sets", JMLR 7:1-30, Table 6 (first rows, AUC of C4.5 variants, as printed).
"""

import hashlib
import json

import numpy as np
import pytest

from cdplot.errors import CdplotError, CdplotWarning
from cdplot.io import read_scores

METHODS = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
DATASETS = ["adult (sample)", "breast cancer", "breast cancer wisconsin", "cmc"]
AUC = [
    [0.763, 0.768, 0.771, 0.798],
    [0.599, 0.591, 0.590, 0.569],
    [0.954, 0.971, 0.968, 0.967],
    [0.628, 0.661, 0.654, 0.657],
]


def wide_text(sep=",", first="dataset", fmt="{:.3f}"):
    lines = [sep.join([first] + METHODS)]
    for d, row in zip(DATASETS, AUC, strict=True):
        lines.append(sep.join([d] + [fmt.format(v) for v in row]))
    return "\n".join(lines) + "\n"


def write(tmp_path, text, name="scores.csv", encoding="utf-8"):
    p = tmp_path / name
    if isinstance(text, bytes):
        p.write_bytes(text)
    else:
        p.write_bytes(text.encode(encoding))
    return p


def check_auc(table):
    assert table.methods == tuple(METHODS)
    assert table.datasets == tuple(DATASETS)
    np.testing.assert_allclose(table.values, AUC)


def read_error(path, **kwargs):
    with pytest.raises(CdplotError) as e:
        read_scores(path, **kwargs)
    msg = str(e.value)
    assert "\n" not in msg
    return msg


# --- wide CSV ---------------------------------------------------------------


def test_wide_csv_source_and_sha256(tmp_path):
    p = write(tmp_path, wide_text())
    (t,) = read_scores(p)
    check_auc(t)
    assert t.source == str(p)
    assert t.sha256 == hashlib.sha256(p.read_bytes()).hexdigest()
    assert t.notes == ()
    (t,) = read_scores(str(p))
    assert t.source == str(p)


@pytest.mark.parametrize("first", ["", "dataset", "Data set", "anything"])
def test_wide_first_header_cell_may_be_anything(tmp_path, first):
    (t,) = read_scores(write(tmp_path, wide_text(first=first)))
    check_auc(t)


def test_comments_blank_lines_and_bom(tmp_path):
    text = "# Source: Demšar 2006, Table 6, with, commas\n#\n\n" + wide_text() + "\n\n\n"
    (t,) = read_scores(write(tmp_path, text, encoding="utf-8-sig"))
    check_auc(t)
    assert (tmp_path / "scores.csv").read_bytes()[:3] == b"\xef\xbb\xbf"


def test_crlf_line_endings(tmp_path):
    (t,) = read_scores(write(tmp_path, wide_text().replace("\n", "\r\n")))
    check_auc(t)


def test_quoted_names_with_commas(tmp_path):
    text = 'dataset,"C4.5, pruned",C4.5+m\n"wine, red",0.5,0.6\n"wine, white",0.7,0.8\n'
    (t,) = read_scores(write(tmp_path, text))
    assert t.methods == ("C4.5, pruned", "C4.5+m")
    assert t.datasets == ("wine, red", "wine, white")


def test_semicolons_and_decimal_commas(tmp_path):
    text = wide_text(sep=";").replace(".", ",").replace("C4,5", "C4.5")
    assert "0,763" in text
    (t,) = read_scores(write(tmp_path, text))
    check_auc(t)
    assert t.notes == ("read decimal commas ('0,763' as 0.763)",)


def test_semicolons_with_decimal_points(tmp_path):
    (t,) = read_scores(write(tmp_path, wide_text(sep=";")))
    check_auc(t)
    assert t.notes == ()


def test_mixed_decimal_marks_are_an_error(tmp_path):
    text = wide_text(sep=";").replace("0.763", "0,763")
    msg = read_error(write(tmp_path, text))
    assert "scores.csv, row 2 (data set 'adult (sample)'), column 'C4.5+m'" in msg
    assert "'0.768' has a decimal point but other cells use decimal commas" in msg


def test_tsv_by_content_not_extension(tmp_path):
    (t,) = read_scores(write(tmp_path, wide_text(sep="\t"), name="scores.txt"))
    check_auc(t)
    (t,) = read_scores(write(tmp_path, wide_text(sep="\t"), name="scores.tsv"))
    check_auc(t)


def test_explicit_sep(tmp_path):
    (t,) = read_scores(write(tmp_path, wide_text(sep="|")), sep="|")
    check_auc(t)
    msg = read_error(write(tmp_path, wide_text()), sep="ab")
    assert "option sep='ab' must be a single character" in msg


def test_trailing_delimiters_are_tolerated(tmp_path):
    text = "".join(line + ",\n" for line in wide_text().splitlines())
    (t,) = read_scores(write(tmp_path, text))
    check_auc(t)


def test_missing_cells(tmp_path):
    text = wide_text().replace("0.599", "NA").replace("0.657", "")
    p = write(tmp_path, text)
    msg = read_error(p)
    assert msg.startswith(f"{p}: 2 missing scores")
    assert "'breast cancer'/'C4.5' (row 3)" in msg
    assert "'cmc'/'C4.5+m+cf' (row 5)" in msg
    (t,) = read_scores(p, nan_policy="omit")
    assert t.datasets == ("adult (sample)", "breast cancer wisconsin")
    assert t.dropped_datasets == ("breast cancer", "cmc")
    assert "dropped 2 data sets with missing scores" in t.notes[0]


@pytest.mark.parametrize("cell", ["NaN", "nan", "NA", ""])
def test_missing_spellings(tmp_path, cell):
    text = wide_text().replace("0.599", cell)
    (t,) = read_scores(write(tmp_path, text), nan_policy="omit")
    assert t.dropped_datasets == ("breast cancer",)


# --- long CSV ----------------------------------------------------------------


def long_text(reps=(1,), metric=None, header="dataset,method,fold,score"):
    lines = [header + (",metric" if metric else "")]
    for i, d in enumerate(DATASETS):
        for j, m in enumerate(METHODS):
            for r in reps:
                line = f'"{d}",{m},{r},{AUC[i][j] + 0.001 * r:.4f}'
                lines.append(line + (f",{metric}" if metric else ""))
    return "\n".join(lines) + "\n"


def test_long_csv_repetitions_averaged_and_noted(tmp_path):
    (t,) = read_scores(write(tmp_path, long_text(reps=range(10))))
    np.testing.assert_allclose(t.values, np.array(AUC) + 0.0045)
    assert t.notes == ("averaged 10 repetitions per data set and method (column 'fold')",)


def test_long_csv_recognised_headers(tmp_path):
    text = long_text(reps=(1, 2), header="Problem,Classifier,Seed,Accuracy")
    (t,) = read_scores(write(tmp_path, text))
    assert t.metric == "Accuracy"
    assert t.methods == tuple(METHODS)
    assert "column 'Seed'" in t.notes[0]


def test_long_csv_explicit_columns(tmp_path):
    text = long_text(reps=(1, 2), header="where,who,attempt,how_good")
    p = write(tmp_path, text)
    msg = read_error(p)
    assert "column 1 'where': every cell" not in msg  # it is read as wide, and fails there
    (t,) = read_scores(
        p, dataset_col="where", method_col="who", score_col="how_good", repetition_col="attempt"
    )
    np.testing.assert_allclose(t.values, np.array(AUC) + 0.0015)


def test_long_layout_forced(tmp_path):
    text = long_text(header="dataset,method,fold,score")
    (t,) = read_scores(write(tmp_path, text), layout="long")
    assert t.n_methods == 4
    msg = read_error(write(tmp_path, wide_text()), layout="long")
    assert "no column of method names" in msg


def test_wide_layout_forced_with_col_option_is_an_error(tmp_path):
    msg = read_error(write(tmp_path, wide_text()), layout="wide", score_col="x")
    assert "score_col= only apply to layout='long'" in msg


def test_long_csv_duplicates_without_repetition_column(tmp_path):
    text = "dataset,method,score\n" + "".join(
        f"{d},{m},{0.1 * (i + j) + k}\n"
        for i, d in enumerate("abc")
        for j, m in enumerate("XY")
        for k in (0, 1)
    )
    # rows nothing tells apart may be separate analyses: said on stderr too (issue 26)
    with pytest.warns(CdplotWarning, match="pass repetition_col= or metric_col="):
        (t,) = read_scores(write(tmp_path, text))
    assert "averaged duplicate rows" in t.notes[0]
    assert t.values[0, 0] == pytest.approx(0.5)


def test_long_csv_multi_metric(tmp_path):
    text = long_text(metric="AUC") + "".join(long_text(metric="err").splitlines(True)[1:])
    p = write(tmp_path, text)
    tables = read_scores(p)
    assert [t.metric for t in tables] == ["AUC", "err"]
    assert all(t.source == str(p) for t in tables)
    (err,) = read_scores(p, metric="err")
    assert err.metric == "err"
    msg = read_error(p, metric="F1")
    assert msg == f"{p}: option metric='F1' matches no table; the metrics are 'AUC', 'err'"


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(wide_text(), id="wide"),
        pytest.param(long_text(reps=(1, 2)), id="long-score-column"),
    ],
)
def test_metric_that_the_file_does_not_name_is_an_error(tmp_path, text):
    # issue 11: metric='rmse' on a file that names no metric relabelled it silently, so
    # accuracies could be titled "rmse" (and ranked as lower-is-better downstream)
    p = write(tmp_path, text)
    msg = read_error(p, metric="rmse")
    assert msg.startswith(f"{p}: option metric='rmse' matches no table; the scores name no metric")


def test_metric_naming_the_single_metric_of_a_file_keeps_it(tmp_path):
    p = write(tmp_path, long_text(reps=(1, 2), header="dataset,method,fold,rmse"))
    (t,) = read_scores(p, metric="rmse")
    assert (t.metric, t.higher_is_better) == ("rmse", False)
    msg = read_error(p, metric="mae")
    assert msg == f"{p}: option metric='mae' matches no table; the metrics are 'rmse'"


def test_long_csv_not_a_number_names_line(tmp_path):
    text = long_text().replace("0.6290", "abc")
    msg = read_error(write(tmp_path, text, name="long.csv"))
    assert "long.csv, row 14 (data set 'cmc'), column 'score': 'abc' is not a number" in msg


def test_long_csv_missing_pair(tmp_path):
    lines = long_text().splitlines(True)
    del lines[5]  # breast cancer / C4.5
    msg = read_error(write(tmp_path, "".join(lines)))
    assert "'breast cancer'/'C4.5' (no row)" in msg


# --- JSON -------------------------------------------------------------------


def test_json_nested_mapping(tmp_path):
    data = {d: dict(zip(METHODS, row, strict=True)) for d, row in zip(DATASETS, AUC, strict=True)}
    p = write(tmp_path, json.dumps(data), name="auc.json")
    (t,) = read_scores(p)
    check_auc(t)
    assert t.source == str(p)


def test_json_table_mapping(tmp_path):
    data = {
        "methods": METHODS,
        "datasets": DATASETS,
        "scores": AUC,
        "metric": "AUC",
        "higher_is_better": True,
    }
    (t,) = read_scores(write(tmp_path, json.dumps(data), name="auc.json"))
    check_auc(t)
    assert (t.metric, t.higher_is_better) == ("AUC", True)


def test_json_records_by_content(tmp_path):
    recs = [
        {"dataset": d, "method": m, "seed": s, "score": AUC[i][j]}
        for i, d in enumerate(DATASETS)
        for j, m in enumerate(METHODS)
        for s in (0, 1)
    ]
    (t,) = read_scores(write(tmp_path, json.dumps(recs, indent=1), name="scores.txt"))
    check_auc(t)
    assert t.notes == ("averaged 2 repetitions per data set and method (column 'seed')",)


def test_json_errors(tmp_path):
    msg = read_error(write(tmp_path, '{"a": {"x": 1,}}', name="bad.json"))
    assert "bad.json, row 1, column 15: not valid JSON" in msg
    msg = read_error(write(tmp_path, "[[1, 2], [3, 4]]", name="lists.json"))
    assert "lists.json: a JSON list of lists has no names" in msg
    msg = read_error(write(tmp_path, "[]", name="empty.json"))
    assert "empty.json: the JSON list is empty" in msg
    data = {d: dict(zip(METHODS, row, strict=True)) for d, row in zip(DATASETS, AUC, strict=True)}
    data["cmc"]["C4.5"] = "high"
    msg = read_error(write(tmp_path, json.dumps(data), name="auc.json"))
    assert "auc.json, data set 'cmc', column 'C4.5': 'high' is not a number" in msg


# --- errors -----------------------------------------------------------------


def test_missing_file(tmp_path):
    p = tmp_path / "nope.csv"
    assert read_error(p) == f"{p}: no such file"


def test_directory(tmp_path):
    # a directory is read as a results folder (tests/io/test_folders.py); an empty one says so
    assert read_error(tmp_path) == (
        f"{tmp_path}: is a directory without results files; expected <Method>_<metric>.csv "
        "files (first header cell 'Resamples:'), as aeon and tsml-eval write"
    )


@pytest.mark.parametrize("ext", [".xlsx", ".xls", ".ods"])
def test_spreadsheet(tmp_path, ext):
    p = write(tmp_path, b"PK\x03\x04", name="scores" + ext)
    msg = read_error(p)
    assert msg.startswith(str(p))
    assert "export the sheet as CSV" in msg


def test_parquet_points_to_dataframes(tmp_path):
    msg = read_error(write(tmp_path, b"PAR1", name="s.parquet"))
    assert "pass the DataFrame to as_score_tables" in msg


@pytest.mark.parametrize("text", ["", "   \n\n", "\ufeff"])
def test_empty_file(tmp_path, text):
    p = write(tmp_path, text)
    assert read_error(p) == f"{p}: the file is empty"


def test_only_comments(tmp_path):
    p = write(tmp_path, "# nothing here\n# at all\n")
    assert read_error(p) == f"{p}: the file has only comments"


def test_header_only(tmp_path):
    p = write(tmp_path, "# comment\ndataset,A,B\n\n")
    assert read_error(p) == f"{p}, row 2: there is a header but no rows of scores"


def test_ragged_row(tmp_path):
    lines = wide_text().splitlines()
    lines[3] = "breast cancer wisconsin,0.954,0.971"
    p = write(tmp_path, "# c\n" + "\n".join(lines) + "\n")
    assert read_error(p) == f"{p}, row 5 has 3 cells, the header has 5"


def test_too_many_cells(tmp_path):
    lines = wide_text().splitlines()
    lines[1] += ",0.5"
    p = write(tmp_path, "\n".join(lines))
    assert read_error(p) == f"{p}, row 2 has 6 cells, the header has 5"


def test_not_a_number(tmp_path):
    text = "# c\ndataset,C4.5,NN\nwine,0.5,0.6\niris,abc,0.7\n"
    p = write(tmp_path, text, name="file.csv")
    assert read_error(p) == f"{p}, row 4 (data set 'iris'), column 'C4.5': 'abc' is not a number"


@pytest.mark.parametrize("cell", ["inf", "-inf", "Infinity"])
def test_infinite(tmp_path, cell):
    p = write(tmp_path, wide_text().replace("0.954", cell))
    msg = read_error(p)
    assert msg == (
        f"{p}, row 4 (data set 'breast cancer wisconsin'), column 'C4.5': {cell!r} is not finite"
    )


def test_undecodable_bytes(tmp_path):
    raw = wide_text().encode().replace(b"cmc", b"cm\xe9")  # latin-1 e-acute
    p = write(tmp_path, raw)
    assert read_error(p) == f"{p}, row 5: byte b'\\xe9' is not UTF-8; save the file as UTF-8"


def test_utf16(tmp_path):
    p = write(tmp_path, wide_text(), encoding="utf-16")
    assert "the file is UTF-16; save it as UTF-8" in read_error(p)


def test_duplicate_method(tmp_path):
    p = write(tmp_path, wide_text().replace("C4.5+cf", "C4.5+m"))
    assert read_error(p) == (
        f"{p}, row 1, column 4: method 'C4.5+m' appears twice (also row 1, column 3)"
    )


def test_duplicate_dataset(tmp_path):
    p = write(tmp_path, "# c\n" + wide_text().replace("cmc", "breast cancer"))
    assert read_error(p) == f"{p}, row 6: data set 'breast cancer' appears twice (also row 4)"


def test_empty_names(tmp_path):
    p = write(tmp_path, wide_text().replace("C4.5+cf", ""))
    assert read_error(p) == f"{p}, row 1, column 4: the method name is empty"
    p = write(tmp_path, wide_text().replace("cmc", ""))
    assert read_error(p) == f"{p}, row 5: the data set name is empty"


def test_one_method(tmp_path):
    p = write(tmp_path, "dataset,A\nx,0.1\ny,0.2\n")
    assert read_error(p) == f"{p}: found 1 method ('A'); comparing needs at least 2"


def test_one_dataset(tmp_path):
    p = write(tmp_path, "dataset,A,B\nx,0.1,0.2\n")
    assert read_error(p) == f"{p}: found 1 data set ('x'); comparing needs at least 2"


def test_scores_without_names_column(tmp_path):
    p = write(tmp_path, "A,B,C\n0.1,0.2,0.3\n0.2,0.3,0.4\n")
    msg = read_error(p)
    assert msg.startswith(f"{p}, column 1 'A': every cell is a number")


def test_unclosed_quote_is_reported(tmp_path):
    # the csv module takes the rest of the file into the quoted cell
    p = write(tmp_path, 'dataset,A,B\n"x,0.1,0.2\ny,0.3,0.4\n')
    msg = read_error(p)
    assert msg == f"{p}, row 2 has 1 cell, the header has 3 (a quote opened in it is not closed)"


def test_not_a_path():
    with pytest.raises(CdplotError, match=r"expected a file name, got int 3"):
        read_scores(3)


# --- round trip ---------------------------------------------------------------

hypothesis = pytest.importorskip("hypothesis")
st = hypothesis.strategies
hnp = pytest.importorskip("hypothesis.extra.numpy")


@hypothesis.settings(max_examples=60, deadline=None)
@hypothesis.given(
    values=hnp.arrays(
        float,
        hnp.array_shapes(min_dims=2, max_dims=2, min_side=2, max_side=6),
        elements=st.floats(-1e6, 1e6, allow_nan=False, allow_subnormal=False),
    ),
    sep=st.sampled_from([",", ";", "\t"]),
    decimal_comma=st.booleans(),
)
def test_written_tables_read_back_exactly(tmp_path_factory, values, sep, decimal_comma):
    decimal_comma = decimal_comma and sep == ";"
    n, k = values.shape
    methods = [f"m{j}, v2" if sep != "," else f"m{j}" for j in range(k)]
    datasets = [f"d {i}" for i in range(n)]

    def cell(v):
        text = repr(float(v))
        return text.replace(".", ",") if decimal_comma else text

    lines = ["# round trip", sep.join(["", *methods])]
    lines += [sep.join([d, *map(cell, row)]) for d, row in zip(datasets, values, strict=True)]
    p = tmp_path_factory.mktemp("rt") / "scores.csv"
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    (t,) = read_scores(p)
    assert t.methods == tuple(methods)
    assert t.datasets == tuple(datasets)
    np.testing.assert_array_equal(t.values, values)


def test_binary_stream_is_read_like_its_file(tmp_path):
    # the bytes cdplot stats - reads from sys.stdin.buffer (issue 29, item 5)
    import io

    text = b"dataset,A,B\niris,0.9,0.8\nwine,0.7,0.75\n"
    stream = io.BytesIO(text)
    stream.name = "<stdin>"
    (t,) = read_scores(stream)
    p = tmp_path / "s.csv"
    p.write_bytes(text)
    (f,) = read_scores(p)
    assert t.source == "<stdin>"
    assert t.sha256 == hashlib.sha256(text).hexdigest() == f.sha256
    np.testing.assert_array_equal(t.values, f.values)
    (j,) = read_scores(io.BytesIO(b'{"iris": {"A": 0.9, "B": 0.8}, "wine": {"A": 0.7, "B": 0.75}}'))
    assert j.source == "<stream>"
    with pytest.raises(CdplotError, match=r"^<stream>: the input has more than 20 bytes"):
        read_scores(io.BytesIO(text), max_bytes=20)
    with pytest.raises(CdplotError, match="text stream"):
        read_scores(io.StringIO(text.decode()))
