"""``cdplot stats --format csv`` and ``ComparisonResult.to_frame()``."""

import csv
import io
import subprocess
import sys
from dataclasses import replace

import pytest

import cdplot
from cdplot.io import as_score_tables
from cdplot.io._export import rows, to_csv


def test_rows_follow_the_rank_order_and_carry_the_p_values():
    res = cdplot.compare(cdplot.load_example("demsar2006"))
    header, body = rows(res)
    assert header[:5] == ["rank_order", "method", "average_rank", "mean_score", "groups"]
    assert [r[1] for r in body] == list(res.order())
    first = body[0]
    assert first[2] == res.average_rank(first[1])
    # Demšar 2006, Table 6: mean AUC of C4.5+m+cf over the 14 data sets (printed values)
    assert round(first[3], 4) == 0.8272
    j = header.index("p_vs_C4.5")
    assert first[j] == res.pvalue(first[1], "C4.5")
    assert body[-1][j] is None  # C4.5 against itself


def test_cli_csv_parses_back():
    out = subprocess.run(
        [sys.executable, "-m", "cdplot", "stats", "--example", "demsar2006", "--format", "csv"],
        capture_output=True,
        text=True,
        check=True,
    )
    table = list(csv.DictReader(io.StringIO(out.stdout)))
    assert [r["method"] for r in table] == ["C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5"]
    assert float(table[0]["average_rank"]) == pytest.approx(1.928571, abs=1e-6)


def test_several_metrics_get_a_metric_column():
    results = [cdplot.compare(t) for t in cdplot.load_example("yang-table9")]
    text = to_csv(results)
    assert text.startswith("metric,rank_order,method")
    assert "\n5CV," in text


def test_to_frame_imports_pandas_only_when_called():
    code = (
        "import sys, cdplot\n"
        "r = cdplot.compare(cdplot.load_example('demsar2006'))\n"
        "assert 'pandas' not in sys.modules\n"
        "f = r.to_frame()\n"
        "assert 'pandas' in sys.modules\n"
        "print(list(f.index))\n"
    )
    pytest.importorskip("pandas")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "C4.5+m+cf" in out.stdout


def test_json_and_csv_together_disagree():
    out = subprocess.run(
        [sys.executable, "-m", "cdplot", "stats", "--example", "demsar2006", "--json"]
        + ["--format", "csv"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 2
    assert "disagree" in out.stderr


# OWASP "CSV Injection" (https://owasp.org/www-community/attacks/CSV_Injection): cells that
# start with = + - @ (or tab, carriage return) run as formulas in spreadsheets; prefix a '
FORMULAS = ['=HYPERLINK("http://x")', "+1+1", "-2+3", "@SUM(A1)"]


def test_csv_names_that_spreadsheets_would_run_start_with_a_quote(tmp_path):
    f = tmp_path / "s.csv"
    header = "dataset," + ",".join(f'"{n}"'.replace('"http://x"', '""http://x""') for n in FORMULAS)
    f.write_text(
        header + "\nd1,0.1,0.2,0.3,0.4\nd2,0.4,0.3,0.2,0.1\nd3,0.2,0.4,0.1,0.3\n", encoding="utf-8"
    )
    out = subprocess.run(
        [sys.executable, "-m", "cdplot", "stats", str(f), "--format", "csv"],
        capture_output=True,
        text=True,
        check=True,
    )
    table = list(csv.DictReader(io.StringIO(out.stdout)))
    assert sorted(r["method"] for r in table) == sorted("'" + n for n in FORMULAS)
    # numbers stay numbers, negative ones included
    assert all(float(r["average_rank"]) > 0 for r in table)


def test_csv_metric_names_are_protected_and_negative_numbers_are_not():
    scores = {"d1": {"A": -0.5, "B": -0.25}, "d2": {"A": -0.1, "B": -0.3}}
    table = as_score_tables(scores)[0]
    results = [cdplot.compare(replace(table, metric=m)) for m in ("=1+2", "-loss")]
    table = list(csv.DictReader(io.StringIO(to_csv(results))))
    # each metric block repeats the header
    assert {r["metric"] for r in table} - {"metric"} == {"'=1+2", "'-loss"}
    text = to_csv([cdplot.compare(as_score_tables(scores)[0])])
    assert "1,A,1.5,-0.3,a," in text  # mean score of A, (-0.5 - 0.1) / 2: a number, no quote
