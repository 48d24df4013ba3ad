"""Hostile and unusual inputs (issue 14): each is one line naming where, never a wrong result."""

import json
import os
import subprocess
import sys

import pytest

from cdplot.errors import CdplotError
from cdplot.io import as_score_tables, read_fold_scores, read_records, read_scores


def write(tmp_path, name, text, encoding="utf-8"):
    p = tmp_path / name
    if isinstance(text, bytes):
        p.write_bytes(text)
    else:
        p.write_text(text, encoding=encoding)
    return p


def error_of(fn, *args, **kwargs):
    with pytest.raises(CdplotError) as e:
        fn(*args, **kwargs)
    msg = str(e.value)
    assert "\n" not in msg
    return msg


def cli(*args):
    out = subprocess.run(
        [sys.executable, "-m", "cdplot", *map(str, args)], capture_output=True, text=True
    )
    return out.returncode, out.stdout, out.stderr


# --- wrong results with exit 0, now refused or read right ----------------------------


@pytest.mark.parametrize("header", ["#dataset,A,B", "# ,A,B", "#,A,B"])
def test_hash_header_is_the_header_when_numbers_follow(tmp_path, header):
    p = write(tmp_path, "h.csv", f"{header}\nd1,0.85,0.81\nd2,0.7,0.75\nd3,0.6,0.5\n")
    (t,) = read_scores(p)
    assert t.datasets == ("d1", "d2", "d3")
    assert t.methods == ("A", "B")
    assert "took the '#' line 1 as the header" in t.notes[0]


def test_hash_comments_before_a_header_stay_comments(tmp_path):
    p = write(tmp_path, "c.csv", "# AUC, Table 6\n# source: x\ndataset,A,B\nd1,1,2\nd2,3,4\n")
    (t,) = read_scores(p)
    assert t.datasets == ("d1", "d2")
    assert t.notes == ()


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('{"d1": {"A": 1, "A": 2}, "d2": {"A": 1, "B": 2}}', "A"),
        ('{"d1": {" A": 1, "A": 2}, "d2": {"A": 1, "B": 2}}', "A"),
        ('{"d1": {"A": 1, "B": 2}, "d1": {"A": 1, "B": 2}}', "d1"),
        ('[{"dataset": "x", "method": "A", "score": 1, "score": 2}]', "score"),
    ],
)
def test_duplicate_json_keys_are_refused(tmp_path, text, key):
    msg = error_of(read_scores, write(tmp_path, "d.json", text))
    assert f"key {key!r} appears twice in one JSON object" in msg


class _CountedKey(str):
    """A JSON key that counts how often it is stripped (the reader's per-key work)."""

    strips = 0

    def strip(self, *args):
        type(self).strips += 1
        return str.strip(self, *args)


def test_duplicate_key_check_is_linear_in_the_keys_of_one_object():
    # issue 32: rebuilding the set of stripped keys for every key made an object of n data sets
    # cost n^2/2 strips (40,000 data sets: 89 s); counting strips catches it without a clock
    from cdplot.io._files import _no_duplicates

    n = 2000
    _CountedKey.strips = 0
    obj = _no_duplicates([(_CountedKey(f"d{i}"), i) for i in range(n)])
    assert len(obj) == n
    assert _CountedKey.strips <= 2 * n, f"{_CountedKey.strips} strips for {n} keys"


def test_duplicate_key_check_still_refuses_late_duplicates(tmp_path):
    inner = ", ".join(f'"m{i}": {i}' for i in range(5000))
    text = '{"d1": {' + inner + ', " m17": 1}, "d2": {"m0": 1}}'
    msg = error_of(read_scores, write(tmp_path, "late.json", text))
    assert "key ' m17' appears twice in one JSON object" in msg


def test_two_score_columns_are_refused(tmp_path):
    p = write(tmp_path, "s.csv", "dataset,method,score,score\nd1,A,1,2\nd1,B,2,3\n")
    msg = error_of(read_scores, p)
    assert "column 'score' appears twice (columns 3 and 4)" in msg


@pytest.mark.parametrize(
    "text",
    [
        "fold,A,B,A\n1,0.8,0.7,0.1\n2,0.9,0.8,0.2\n3,0.85,0.8,0.3\n",
        "y_true,A,A\n1,1,0\n0,0,0\n",
    ],
    ids=["per-fold", "predictions"],
)
def test_pair_refuses_a_repeated_method_column(tmp_path, text):
    p = write(tmp_path, "p.csv", text)
    msg = error_of(read_records, p)
    assert "column 'A' appears twice" in msg
    code, out, err = cli("pair", p, "--methods", "A,B", "--scheme", "kfold")
    assert code == 2
    assert "appears twice" in err
    assert out == ""


# --- names that would corrupt later output --------------------------------------------


@pytest.mark.parametrize(
    ("name", "what"),
    [
        ("A\x1b[31m", "a control character (U+001B)"),
        ("A\x07", "a control character (U+0007)"),
        ("A\ufffe", "a noncharacter (U+FFFE)"),
        ("A\uffff", "a noncharacter (U+FFFF)"),
        ("A\ufeffB", "a byte-order mark (U+FEFF)"),
        ("A\x85B", "a control character (U+0085)"),
    ],
)
def test_unprintable_names_in_files_are_refused(tmp_path, name, what):
    p = write(tmp_path, "n.csv", f"dataset,{name},B\nd1,0.5,0.4\nd2,0.3,0.2\n")
    msg = error_of(read_scores, p)
    assert msg.startswith(f"{p}, row 1, column 2: method name ")
    assert what in msg
    assert "\x1b" not in msg
    assert "\ufeff" not in msg


def test_lone_surrogates_in_json_are_refused(tmp_path):
    p = write(tmp_path, "s.json", '{"d1": {"A\\ud800": 1, "B": 2}, "d2": {"A\\ud800": 1, "B": 2}}')
    msg = error_of(read_scores, p)
    assert "a lone surrogate (U+D800)" in msg
    msg.encode("utf-8")  # the message itself is printable


@pytest.mark.parametrize(
    "data",
    [
        {"d\x00": {"A": 1, "B": 2}, "e": {"A": 1, "B": 2}},
        [
            {"dataset": "x", "method": "A\x1b", "score": 1},
            {"dataset": "x", "method": "B", "score": 2},
        ],
    ],
)
def test_unprintable_names_in_python_objects_are_refused(data):
    msg = error_of(as_score_tables, data)
    assert "names must be printable text" in msg


def test_unprintable_rename_is_refused():
    msg = error_of(as_score_tables, [[1, 2], [3, 4]], rename={"method 1": "x\x1b"})
    assert "names must be printable text" in msg


# --- tracebacks turned into one line -------------------------------------------------


def test_deeply_nested_json(tmp_path):
    p = write(tmp_path, "deep.json", "[" * 100_000 + "]" * 100_000)
    assert "nested too deeply" in error_of(read_scores, p)


def test_json_integer_too_large_for_a_float(tmp_path):
    p = write(
        tmp_path, "big.json", '{"d1": {"A": 1' + "0" * 400 + ', "B": 2}, "d2": {"A": 1, "B": 2}}'
    )
    msg = error_of(read_scores, p)
    assert "the integer of 401 digits is too large for a float" in msg


def test_json_integer_over_python_digit_limit(tmp_path):
    p = write(
        tmp_path, "h.json", '{"d1": {"A": 1' + "0" * 5000 + ', "B": 2}, "d2": {"A": 1, "B": 2}}'
    )
    assert "4300 digits" in error_of(read_scores, p)


@pytest.mark.parametrize("key", ["notes", "dropped_datasets"])
def test_table_mapping_with_non_list_fields(tmp_path, key):
    data = {"methods": ["A", "B"], "datasets": ["x", "y"], "scores": [[1, 2], [3, 4]], key: "hi"}
    p = write(tmp_path, "t.json", json.dumps(data))
    assert f"{key!r} must be a list of strings, got 'hi'" in error_of(read_scores, p)
    assert f"{key!r} must be a list of strings" in error_of(as_score_tables, data)


def test_pair_records_missing_a_key(tmp_path):
    p = write(tmp_path, "r.json", '[{"fold": 1, "A": 0.5, "B": 0.4}, {"fold": 2, "A": 0.6}]')
    assert "record 1: lacks key 'B'" in error_of(read_fold_scores, p)


@pytest.mark.parametrize("command", ["stats", "pair"])
def test_field_over_128_kb(tmp_path, command):
    p = write(tmp_path, "f.csv", "dataset,A,B\nd1," + "x" * 200_000 + ",1\nd2,0.5,0.4\n")
    code, _, err = cli(command, p)
    assert code == 2
    assert "row 2: a field is longer than 131,072 characters" in err
    assert len(err) < 300


def test_long_cells_are_shortened_in_messages(tmp_path):
    p = write(tmp_path, "f.csv", "dataset,A,B\nd1," + "y" * 300 + ",1\nd2,0.5,0.4\n")
    msg = error_of(read_scores, p)
    assert "(300 characters) is not a number" in msg
    assert len(msg) < 200 + len(str(p))


# --- what is read at all -------------------------------------------------------------


def test_size_limit_and_how_to_raise_it(tmp_path):
    p = write(tmp_path, "s.csv", "dataset,A,B\nd1,1,2\nd2,3,4\n")
    msg = error_of(read_scores, p, max_bytes=10)
    assert "more than the limit of 10" in msg
    # Python names the keyword; the command its flag (tests/cli/test_voice.py), never both
    assert "raise it with max_bytes= if the file is right" in msg
    assert read_scores(p, max_bytes=1000)[0].n_methods == 2
    code, _, err = cli("stats", p, "--max-input-size", "10")
    assert code == 2
    assert "the limit of 10" in err
    assert cli("stats", p, "--max-input-size", "1K")[0] == 0


def test_character_device_is_refused():
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero on this system")
    assert "/dev/zero: is a device" in error_of(read_scores, "/dev/zero")


def test_fifo_is_refused_without_blocking(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this system")
    p = tmp_path / "fifo"
    os.mkfifo(p)
    assert "is a FIFO (named pipe)" in error_of(read_scores, p)


def test_utf16_without_bom(tmp_path):
    p = write(tmp_path, "u.csv", "dataset,A,B\nd1,0.5,0.4\n".encode("utf-16-le"))
    assert "looks like UTF-16 without a byte-order mark" in error_of(read_scores, p)


def test_symlink_loop_is_not_no_such_file(tmp_path):
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    a.symlink_to(b)
    b.symlink_to(a)
    msg = error_of(read_scores, a)
    assert "loop of symbolic links" in msg
    assert "no such file" not in msg


def test_dangling_symlink_names_its_target(tmp_path):
    a = tmp_path / "a.csv"
    a.symlink_to(tmp_path / "gone.csv")
    assert "which does not exist" in error_of(read_scores, a)


# --- pair says when an option does not apply ------------------------------------------


@pytest.mark.parametrize(
    "option", [["--scheme", "kfold"], ["--n-train", "5"], ["--n-test", "5"], ["--dataset", "d1"]]
)
def test_pair_options_that_do_not_apply_to_scores_over_data_sets(option):
    code, out, err = cli("pair", "--example", "demsar2006", "--methods", "C4.5,C4.5+m", *option)
    assert code == 2
    assert f"option {option[0]} does not apply to scores over many data sets" in err


def test_pair_scheme_with_several_data_sets_asks_for_one(tmp_path):
    rows = ["dataset,fold,A,B"] + [
        f"{d},{f},{0.5 + 0.01 * f},{0.4 + 0.02 * f}" for d in ("x", "y") for f in range(5)
    ]
    p = write(tmp_path, "f.csv", "\n".join(rows) + "\n")
    code, _, err = cli("pair", p, "--scheme", "kfold")
    assert code == 2
    assert "option --scheme applies to the per-fold tests of one data set" in err
    assert "--dataset NAME" in err


def test_pair_predictions_refuse_scheme(tmp_path):
    p = write(tmp_path, "p.csv", "y_true,A,B\n1,1,0\n0,0,0\n1,1,1\n")
    code, _, err = cli("pair", p, "--scheme", "kfold")
    assert code == 2
    assert "does not apply to predictions" in err


def test_overflowing_mean_is_an_error(tmp_path):
    rows = ["dataset,method,fold,score"] + [
        f"{d},{m},{f},1.7e308" for d in ("x", "y") for m in ("A", "B") for f in range(2)
    ]
    msg = error_of(read_scores, write(tmp_path, "o.csv", "\n".join(rows) + "\n"))
    assert "add up beyond the largest float" in msg


def test_every_reader_checks_the_separator(tmp_path):
    # found by tests/test_fuzz.py: the per-fold reader passed --sep to the csv module unchecked
    from cdplot.io._folds import read_records

    f = tmp_path / "folds.csv"
    f.write_text("fold,A,B\n0,0.1,0.2\n1,0.3,0.1\n", encoding="utf-8")
    with pytest.raises(CdplotError, match="option sep='abc' must be a single character"):
        read_records(f, sep="abc")


def test_average_ranks_of_empty_cells_only(tmp_path):
    # found by benchmarks/fuzz_run.py (issue 32): an IndexError on a file holding ",\n"
    from cdplot.io import read_average_ranks

    p = write(tmp_path, "r.csv", ",\n")
    assert "holds no average ranks (only empty cells)" in error_of(read_average_ranks, p)
