"""``cdplot stats`` end to end, in a subprocess as users run it."""

import json
import subprocess
import sys

import pytest


def run(*args, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "cdplot", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
    )


def test_example_text_output():
    out = run("stats", "--example", "demsar2006")
    assert out.returncode == 0, out.stderr
    assert "C4.5+m+cf" in out.stdout
    assert "CD = 1.253559" in out.stdout
    assert "rejects the hypothesis" in " ".join(out.stdout.split())


def test_json_output_keys():
    out = run("stats", "--example", "demsar2006-ranks", "--json", "--alpha", "0.1")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["n_datasets"] == 14
    assert d["n_methods"] == 4
    assert d["higher_is_better"] is False
    assert d["friedman"]["dof"] == 3
    assert d["iman_davenport"]["dof"] == [3, 39]
    assert d["critical_difference"] == pytest.approx(1.118060, abs=5e-7)
    assert d["cliques"] == [["C4.5+m+cf", "C4.5+m", "C4.5+cf"], ["C4.5+cf", "C4.5"]]
    assert set(d["pvalues"]) == {"C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"}


def test_multi_metric_json():
    out = run("stats", "--example", "yang-table9", "--json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert set(d["metrics"]) == {"5CV", "Boots.", "P", "R", "F", "AUC"}
    assert d["metrics"]["5CV"]["higher_is_better"] is False
    assert d["metrics"]["AUC"]["higher_is_better"] is True


def test_file_and_lower_is_better(tmp_path):
    f = tmp_path / "err.csv"
    f.write_text(
        "dataset,A,B,C\nd1,0.1,0.2,0.3\nd2,0.1,0.3,0.2\nd3,0.2,0.3,0.4\n", encoding="utf-8"
    )
    out = run("stats", str(f), "--lower-is-better", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["rank_order"][0] == "A"


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["stats", "missing.csv"], "missing.csv"),
        (["stats", "--example", "demsar2006", "--alpha", "1.5"], "--alpha"),
        (
            ["stats", "--example", "demsar2006", "--test", "bonferroni-dunn", "--control", "J48"],
            "J48",
        ),
        (["stats", "--example", "nope"], "nope"),
        (["stats"], "no input"),
        (["stats", "--example", "demsar2006", "--test", "tukey"], "tukey"),
    ],
)
def test_bad_input_exits_2_with_one_line(args, needle, tmp_path):
    out = run(*args, cwd=tmp_path)
    assert out.returncode == 2
    assert "Traceback" not in out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert needle in lines[0]


def test_version():
    out = run("--version")
    assert out.returncode == 0
    assert out.stdout.startswith("cdplot ")


def test_json_effect_sizes():
    out = run("stats", "--example", "demsar2006", "--json")
    assert out.returncode == 0, out.stderr
    es = json.loads(out.stdout)["effect_sizes"]
    # autorank 1.3.0: autorank._util._cliffs_delta on the same table (see tests/stats)
    assert es["cliffs_delta"]["C4.5+m+cf"]["C4.5"] == pytest.approx(0.117347, abs=5e-7)
    assert es["cohens_d"]["C4.5+m+cf"]["C4.5"] == pytest.approx(0.735, abs=5e-4)
    assert es["magnitude"]["cliffs_delta"]["C4.5+m+cf"]["C4.5"] == "negligible"
    assert es["magnitude"]["cohens_d"]["C4.5+m+cf"]["C4.5"] == "medium"
    assert set(es["per_method"]) == {"C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"}


def test_json_effect_sizes_of_compare_auto_at_the_top_level():
    out = run("stats", "--example", "demsar2006", "--test", "auto", "--json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["effect_sizes"]["measure"] in ("cliffs_delta", "cohens_d")
    assert "effect_sizes" not in d["analysis"]


def test_text_names_effect_sizes_and_help_says_so():
    out = run("stats", "--example", "demsar2006", "--alpha", "0.1", "--test", "friedman-z")
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    assert "C4.5+m+cf vs C4.5: delta = 0.117 (negligible), Cohen's d = 0.735 (medium)" in text
    helptext = " ".join(run("stats", "--help").stdout.split())
    assert "Cliff's delta and Cohen's d" in helptext


@pytest.mark.parametrize(
    ("command", "option"),
    [
        ("stats", ["--sep", ";"]),
        ("plot", ["--layout", "long"]),
        ("table", ["--method-col", "model"]),
        ("report", ["--repetition-col", "fold"]),
        ("stability", ["--orient", "methods"]),
        ("stats", ["--max-input-size", "10"]),
    ],
)
def test_file_reading_options_with_an_example_are_refused_not_ignored(
    command, option, capsys, tmp_path
):
    # a bundled example is read as it is: an option saying how to read a FILE did nothing
    from cdplot.cli import main

    argv = [command, "--example", "demsar2006", *option]
    if command in ("plot", "report"):
        argv += ["-o", str(tmp_path / "unused.pdf")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"option {option[0]} says how to read a FILE" in err
    assert list(tmp_path.iterdir()) == []


def test_a_fold_column_as_the_metric_column_is_refused(tmp_path):
    # --metric-col fold ran one analysis per fold and called the folds metrics
    f = tmp_path / "x.csv"
    f.write_text(
        "dataset,method,fold,score\nd1,A,0,0.5\nd1,A,1,0.6\nd1,B,0,0.4\nd1,B,1,0.3\n"
        "d2,A,0,0.5\nd2,A,1,0.6\nd2,B,0,0.7\nd2,B,1,0.3\n",
        "utf-8",
    )
    out = run("stats", str(f), "--metric-col", "fold")
    assert out.returncode == 2
    assert out.stdout == ""
    assert out.stderr == (
        f"cdplot stats: error: {f}: the metric column --metric-col fold holds whole numbers "
        "('0', '1'), not metric names; pass --repetition-col fold if they tell repeated runs "
        "(folds, seeds) apart, else name the metrics\n"
    )


def test_json_matrices_are_asked_for_or_left_out_and_the_file_says_which():
    # to_dict(matrices=...) had no flag: the k x k matrices could not be dropped from a
    # small analysis's JSON nor kept in a large one's from the command line
    out = run("stats", "--example", "yang-table9", "--json", "--no-matrices")
    assert out.returncode == 0, out.stderr
    for d in json.loads(out.stdout)["metrics"].values():
        assert [d["statistics"], d["pvalues"], d["effect_sizes"]["cliffs_delta"]] == [None] * 3
        assert (
            "are left out on request (matrices=False, or --no-matrices)" in (d["matrices_omitted"])
        )
        assert "left out on request" in d["effect_sizes"]["tables_omitted"]
        assert d["significant_pairs"] is not None
    out = run("stats", "--example", "demsar2006", "--json", "--matrices")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["matrices_omitted"] is None
    assert d["pvalues"]["C4.5"]["C4.5"] == 1.0
    out = run("stats", "--example", "demsar2006", "--no-matrices")
    assert out.returncode == 2
    assert out.stderr == (
        "cdplot stats: error: option --no-matrices applies to JSON output, not text; add "
        "--json or leave the option out\n"
    )
    assert out.stdout == ""
