"""``cdplot stats --format csv`` and ``ComparisonResult.to_frame()``."""

import csv
import io
import subprocess
import sys

import pytest

import cdplot
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
