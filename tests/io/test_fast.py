"""The vectorised reading path gives what the cell-by-cell path gives, bit for bit."""

import math

import numpy as np
import pytest

from cdplot.io import read_scores
from cdplot.io._build import fsum_rows
from cdplot.io._checks import Where, parse_column
from cdplot.io._fast import split_columns

hypothesis = pytest.importorskip("hypothesis")
st = pytest.importorskip("hypothesis.strategies")


def _fast_and_slow(tmp_path, text):
    fast = tmp_path / "fast.csv"
    fast.write_text(text, encoding="utf-8")
    # a quoted cell in the table sends a file down the csv module's path
    header, first, rest = text.split("\n", 2)
    name, cells = first.split(",", 1)
    slow = tmp_path / "slow.csv"
    slow.write_text(f'{header}\n"{name}",{cells}\n{rest}', encoding="utf-8")
    assert split_columns(fast.read_bytes(), 0, ",") is not None
    assert split_columns(slow.read_bytes(), 0, ",") is None
    return read_scores(fast), read_scores(slow)


NUMBERS = st.one_of(
    st.floats(-1e6, 1e6, allow_nan=False).map(repr),
    st.floats(0, 1).map(lambda v: f"{v:.4f}"),
    st.integers(-(10**18), 10**18).map(str),
    st.floats(-1e300, 1e300, allow_nan=False).map(lambda v: f"{v:.17e}"),
    st.decimals(-1000, 1000, places=8, allow_nan=False, allow_infinity=False).map(str),
)


@hypothesis.settings(max_examples=60, deadline=None)
@hypothesis.given(cells=st.lists(st.lists(NUMBERS, min_size=3, max_size=3), min_size=2, max_size=8))
def test_numbers_read_as_float_reads_them(tmp_path_factory, cells):
    tmp_path = tmp_path_factory.mktemp("t")
    text = "dataset,A,B,C\n" + "".join(
        f"d{i}," + ",".join(row) + "\n" for i, row in enumerate(cells)
    )
    (fast,), (slow,) = _fast_and_slow(tmp_path, text)
    expected = np.array([[float(c) for c in row] for row in cells])
    assert np.array_equal(fast.values, expected)
    assert np.array_equal(slow.values, expected)


def test_column_parse_agrees_with_float_on_awkward_cells():
    cells = ["0.1", "-0", "+.5", "5.", "007", "1e3", "123456789012345", "1234567890123456", "0.30"]
    raw = ("x\n" + "\n".join(cells) + "\n").encode()
    table = split_columns(b"h,x\n" + b"".join(f"r,{c}\n".encode() for c in cells), 0, ",")
    _, cols, _ = table
    values = parse_column(cols[1], False, lambda i: f"cell {i}")
    assert values.tolist() == [float(c) for c in cells]
    del raw


@pytest.mark.parametrize("bad", ["1e", "+-1", ".", "1.2.3", "0x10", "1_000", "inf", "1e400"])
def test_bad_cells_are_named_by_the_slow_path(tmp_path, bad):
    p = tmp_path / "s.csv"
    p.write_text(f"dataset,A,B\nd1,0.5,0.4\nd2,{bad},0.3\n", encoding="utf-8")
    from cdplot.errors import CdplotError

    with pytest.raises(CdplotError, match=r"s\.csv, row 3 \(data set 'd2'\), column 'A'"):
        read_scores(p)


def test_long_fast_path_matches_csv_path(tmp_path):
    rng = np.random.default_rng(5)
    rows = []
    for d in range(30):
        for m in ("alpha", "beta", "gamma ray", "δ"):
            for f in rng.permutation(7):
                rows.append(f"set {d},{m},{f},{rng.random():.6f}")
    rng.shuffle(rows)
    text = "dataset,method,fold,score\n" + "\n".join(rows) + "\n"
    fast, slow = _fast_and_slow(tmp_path, text)
    assert fast[0].methods == slow[0].methods
    assert fast[0].datasets == slow[0].datasets
    assert np.array_equal(fast[0].values, slow[0].values)


@hypothesis.settings(max_examples=80, deadline=None)
@hypothesis.given(
    rows=st.lists(
        st.lists(
            st.floats(allow_nan=False, allow_infinity=False, width=64).filter(
                lambda v: abs(v) < 1e300
            ),
            min_size=4,
            max_size=4,
        ),
        min_size=1,
        max_size=20,
    )
)
def test_fsum_rows_is_math_fsum(rows):
    x = np.array(rows)
    assert fsum_rows(x).tolist() == [math.fsum(r) for r in rows]


def test_fsum_rows_hard_cancellations():
    rows = [
        [1e16, 1.0, -1e16, 1e-16],
        [0.1] * 10,
        [1.0, 2.0**-53, 2.0**-106, 0.0],
        [2.0**53, 1.0, 1.0, 0.0],
        [1e308, -1e308, 1e308, -1e308],
    ]
    width = max(map(len, rows))
    x = np.array([r + [0.0] * (width - len(r)) for r in rows])
    assert fsum_rows(x).tolist() == [math.fsum(r) for r in rows]
    # beyond the largest float, as math.fsum refuses it: the readers then say so
    assert fsum_rows(np.array([[1e308, 1e308, 0.0]])).tolist() == [math.inf]


def test_where_rows_are_file_lines(tmp_path):
    p = tmp_path / "w.csv"
    p.write_text("# note\n\ndataset,A,B\nd1,0.5,0.4\nd2,0.3,x\n", encoding="utf-8")
    from cdplot.errors import CdplotError

    with pytest.raises(CdplotError, match=r"w\.csv, row 5 \(data set 'd2'\), column 'B'"):
        read_scores(p)
    assert Where("f", lambda i: f"row {i + 2}").row(3) == "row 5"


CELL = st.text(alphabet="abcXYZ019.-_ éλ", min_size=1, max_size=20).filter(lambda c: c.strip() == c)


@hypothesis.settings(max_examples=80, deadline=None)
@hypothesis.given(
    rows=st.lists(st.lists(CELL, min_size=3, max_size=3), min_size=1, max_size=12),
    trailing=st.sampled_from(["", "\n", "\n\n"]),
)
def test_split_columns_cells_are_the_csv_modules_cells(rows, trailing):
    # the last cells of the file (no newline after them, or short ones in the
    # buffer's last 8 bytes) are read apart from the rest: they must agree too
    import csv

    text = "a,b,c\n" + "\n".join(",".join(r) for r in rows) + trailing
    got = split_columns(text.encode(), 0, ",")
    assert got is not None
    header, cols, n_rows = got
    expected = [r for r in csv.reader(text.splitlines()) if r]
    assert header == b"a,b,c"
    assert n_rows == len(rows)
    for j, col in enumerate(cols):
        cells = [c.rstrip(b"\0").decode() for c in col.strings().tolist()]
        assert cells == [r[j] for r in expected[1:]]
        names, codes = col.codes()
        names = [v.decode() if isinstance(v, bytes) else str(v) for v in names]
        assert [names[c] for c in codes.tolist()] == [r[j] for r in expected[1:]]


@pytest.mark.parametrize(
    "text",
    [
        "a,b\nx,1\ny,2,3\n",  # a line with one cell too many
        "a,b\nx,1,\ny\n",  # ... and one with one too few: the counts add up
        "a,b\nx,1\n\ny,2\n",  # a blank line inside the table
        "a,b\n",  # a header and nothing else
        "a\nx\n",  # one column
        "a,b\nx, 1\ny,2\n",  # cells padded with spaces or tabs, first or last cell
        "a,b\nx,1\ny,2 \n",
        "a,b\nx,1\n y,2\n",
        "a,b\nx,1\ny\t,2",
    ],
)
def test_split_columns_leaves_irregular_tables_to_the_csv_path(text):
    assert split_columns(text.encode(), 0, ",") is None


def test_split_columns_takes_inner_spaces_and_a_padded_header():
    # the header is split and stripped apart; spaces inside names are data
    got = split_columns(b"dataset, A ,B\ndata set 1,0.5,0.25\nset 2,1,2", 0, ",")
    assert got is not None
    assert got[0] == b"dataset, A ,B"
    assert got[1][0].strings().tolist() == [b"data set 1", b"set 2"]


def _tables_alike(a, b):
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        assert (x.methods, x.datasets, x.notes, x.sha256) == (
            y.methods,
            y.datasets,
            y.notes,
            y.sha256,
        )
        assert np.array_equal(x.values, y.values, equal_nan=True)
        assert x.repetition_labels == y.repetition_labels
        if x.repetition_scores is not None:
            assert np.array_equal(x.repetition_scores, y.repetition_scores, equal_nan=True)


_LONG = "dataset,method,fold,score\n" + "".join(
    f"set {d},{m},{f},0.{(d * 7 + f * 3 + len(m)) % 97:02d}\n"
    for d in range(40)
    for m in ("alpha", "beta", "Gamma")
    for f in range(5)
)


@pytest.mark.parametrize(
    "content",
    [
        pytest.param(b"dataset,A,B\nd1,0.5,0.4\nd2,0.3,0.2\nd3,0.9,0.1\n", id="wide"),
        pytest.param(_LONG.encode(), id="long"),
        pytest.param(_LONG.replace("\n", "\r\n").encode(), id="crlf"),
        pytest.param(b"\xef\xbb\xbf" + _LONG.replace("set 3,", "s\xc3\xa9t 3,").encode(), id="bom"),
        pytest.param(b'dataset,A,B\n"d1",0.5,0.4\nd2,0.3,0.2\n', id="quoted"),
        pytest.param(b'{"d1": {"A": 0.5, "B": 0.4}, "d2": {"A": 0.3, "B": 0.2}}', id="json"),
        pytest.param(b"# scores\n#dataset,A,B\nd1,0.5,0.4\nd2,0.3,0.2\n", id="comment-header"),
        pytest.param(b" \n\t\n", id="blank"),
        pytest.param(b"dataset,A,B\nd1,0.5,x\nd2,0.3,0.2\n", id="bad-cell"),
        pytest.param(b"dataset,A,B\nd1,0.5,\xff\nd2,0.3,0.2\n", id="not-utf8"),
        pytest.param(_LONG.encode().replace(b"set 39,", b"s\xe9t 39,"), id="latin1-late"),
        pytest.param(
            b"\xef\xbb\xbf" + _LONG.encode().replace(b"alpha", b"\xce\xb1"), id="bom-utf8"
        ),
        pytest.param(
            b'\xef\xbb\xbf{"d\xc3\xa9": {"A": 0.5, "B": 0.4}, "d2": {"A": 0.3, "B": 0.2}}',
            id="bom-json",
        ),
        pytest.param("dataset,A\nd1,0.5\n".encode("utf-16"), id="utf16"),
        pytest.param(b'dataset,A,B\n"d\xc3\xa9",0.5,0.4\nd2,0.3,0.2\n', id="quoted-utf8"),
    ],
)
def test_mapped_files_read_as_copied_ones(tmp_path, monkeypatch, content):
    # files of 1 MiB or more are memory-mapped; force each way on the same bytes
    from cdplot.errors import CdplotError
    from cdplot.io import _text as text

    path = tmp_path / "s.csv"
    path.write_bytes(content)
    got = {}
    for label, limit in (("copied", 1 << 62), ("mapped", 0)):
        monkeypatch.setattr(text, "_MAP_MIN", limit)
        name, raw, _ = text.read_bytes(path, mapped=True)
        assert isinstance(raw, bytes) == (label == "copied")
        try:
            got[label] = read_scores(path, keep_repetitions=True)
        except CdplotError as e:
            got[label] = str(e)
    if isinstance(got["copied"], str):
        assert got["mapped"] == got["copied"]
    else:
        _tables_alike(got["mapped"], got["copied"])


def test_fold_labels_of_two_digits_and_leading_zeros_match_csv_path(tmp_path):
    # folds 0-99 are read by a look-up of their two bytes; '07' is a name of its own
    rng = np.random.default_rng(8)
    labels = [str(f) for f in range(100)] + ["07", "100"]
    rows = [
        f"d{d},{m},{f},{rng.random():.4f}" for d in range(3) for m in ("A", "B") for f in labels
    ]
    rng.shuffle(rows)
    fast, slow = _fast_and_slow(tmp_path, "dataset,method,fold,score\n" + "\n".join(rows) + "\n")
    assert fast[0].notes == slow[0].notes
    assert np.array_equal(fast[0].values, slow[0].values)
    only_small = [r for r in rows if r.split(",")[2] not in ("07", "100")]
    fast, slow = _fast_and_slow(
        tmp_path, "dataset,method,fold,score\n" + "\n".join(only_small) + "\n"
    )
    assert fast[0].notes == slow[0].notes
    assert np.array_equal(fast[0].values, slow[0].values)


def test_a_fold_first_seen_late_keeps_its_place(tmp_path):
    # first appearances of small labels are looked for in the leading rows first
    rows = [f"d{i // 5},{'AB'[i % 2]},{i % 5},0.{i % 9}" for i in range(10_000)]
    # two labels past the leading rows, the larger first: their order is the file's
    rows += ["d9999,A,7,0.5", "d9999,B,7,0.5", "d9998,A,6,0.25", "d9998,B,6,0.5"]
    text = "dataset,method,fold,score\n" + "\n".join(rows) + "\n"
    fast = tmp_path / "fast.csv"
    fast.write_text(text, encoding="utf-8")
    slow = tmp_path / "slow.csv"
    slow.write_text(text.replace("\nd0,", '\n"d0",', 1), encoding="utf-8")
    assert split_columns(slow.read_bytes(), 0, ",") is None
    (a,), (b,) = (read_scores(p, keep_repetitions=True, nan_policy="omit") for p in (fast, slow))
    assert a.repetition_labels == b.repetition_labels
    assert a.repetition_labels[-2:] == ("7", "6")
    assert a.notes == b.notes
    assert np.array_equal(a.values, b.values, equal_nan=True)


@pytest.mark.parametrize(
    ("cell", "fast"),
    [
        ('"d7"', False),  # a quote: the csv module reads it
        (" d7", False),  # padded: the csv path strips it
        ("d7\t", False),
        ("d 7", True),  # inner spaces are part of the name
        ("d\x017", True),  # a control character is data here (names are checked later)
    ],
)
def test_bytes_below_35_far_into_a_file_are_seen(cell, fast):
    # a file with no byte below 35 but separators skips four scans for quotes, carriage
    # returns, spaces and tabs; one such byte past the first MiB must bring them back
    rows = [f"d{i},0.{i % 97:02d},0.5" for i in range(100_000)]
    rows[90_000] = f"{cell},0.1,0.2"
    raw = ("dataset,A,B\n" + "\n".join(rows) + "\n").encode()
    assert raw.index(cell.encode()) > 1 << 20  # past the first block
    got = split_columns(raw, 0, ",")
    assert (got is not None) == fast
    if fast:
        _, columns, n_rows = got
        assert n_rows == 100_000
        assert columns[0][90_000] == cell.encode()


def _long_rows(rng, n_datasets):
    rows = [
        f"set {d},{m},{f},{rng.random():.6f}"
        for d in range(n_datasets)
        for m in ("alpha", "beta", "gamma ray", "δ")
        for f in rng.permutation(7)
    ]
    return "dataset,method,fold,score\n" + "\n".join(rows) + "\n"


def test_one_pass_over_a_mapped_file_reads_what_one_pass_per_column_reads(tmp_path, monkeypatch):
    # the long reader parses every column in one pass over blocks of rows and lets the
    # mapped file's pages go behind it; small blocks and pages make a small file take
    # every branch: many blocks, pages dropped while separators and cells are read
    from cdplot.io import _build, _fast
    from cdplot.io import _text as text

    path = tmp_path / "long.csv"
    path.write_text(_long_rows(np.random.default_rng(3), 300), encoding="utf-8")
    monkeypatch.setattr(text, "_MAP_MIN", 0)
    monkeypatch.setattr(_fast, "_BLOCK", 1 << 12)
    monkeypatch.setattr(_fast, "_ROWS", 1000)
    one_pass = read_scores(path, keep_repetitions=True)
    monkeypatch.setattr(_build, "read_columns", lambda labels, scores, point: None)
    per_column = read_scores(path, keep_repetitions=True)
    _tables_alike(one_pass, per_column)
    monkeypatch.setattr(text, "_MAP_MIN", 1 << 62)  # and the bytes read, not mapped
    _tables_alike(one_pass, read_scores(path, keep_repetitions=True))


def test_cells_come_back_after_the_separators_and_pages_are_dropped(tmp_path, monkeypatch):
    # a message asked for after the computing step began still names the right cell
    import mmap

    from cdplot.io import _fast

    monkeypatch.setattr(_fast, "_BLOCK", 1 << 12)
    monkeypatch.setattr(_fast, "_ROWS", 500)
    text = _long_rows(np.random.default_rng(4), 100)
    path = tmp_path / "long.csv"
    path.write_text(text, encoding="utf-8")
    lines = [line.split(",") for line in text.splitlines()[1:]]
    with open(path, "rb") as f:
        raw = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    _, columns, n = split_columns(raw, 0, ",")
    _fast.read_columns(columns[:3], columns[3:])
    names, codes = columns[1].codes()
    values, ok = columns[3].floats()
    columns[0].table.drop()
    assert columns[0].table._seps is None
    assert [names[c].decode() for c in codes] == [r[1] for r in lines]
    assert ok.all()
    assert values.tolist() == [float(r[3]) for r in lines]
    for i in (0, 1234, n - 1):
        assert columns[0][i] == lines[i][0].encode()
    assert columns[1].codes()[1].tolist() == codes.tolist()  # parsed again, the same
    del columns
