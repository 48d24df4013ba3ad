"""Unix habits: ``-`` reads standard input, ``-o -`` writes standard output (issue 29, item 5)."""

import json
import os
import subprocess
import sys

SCORES = b"dataset,A,B,C\nd1,0.9,0.8,0.7\nd2,0.7,0.75,0.6\nd3,0.8,0.6,0.5\nd4,0.85,0.7,0.72\n"


def run(*args, stdin=SCORES, cwd=None):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.run(
        [sys.executable, "-m", "cdplot", *args],
        input=stdin,
        capture_output=True,
        cwd=cwd,
        env=env,
        timeout=120,
    )


def test_stats_reads_standard_input_and_names_it(tmp_path):
    res = run("stats", "-", "--json", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["methods"] == ["A", "B", "C"]
    assert data["n_datasets"] == 4
    assert data["source"] == "<stdin>"
    assert not (tmp_path / "-").exists()


def test_standard_input_keeps_the_size_limit(tmp_path):
    res = run("stats", "-", "--max-input-size", "64", cwd=tmp_path)
    assert res.returncode == 2
    err = res.stderr.decode()
    assert err.count("\n") == 1
    assert "<stdin>" in err
    assert "more than 64 bytes" in err


def test_stats_to_standard_output_writes_no_file_named_dash(tmp_path):
    res = run("stats", "-", "-o", "-", "--format", "csv", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    lines = res.stdout.decode().splitlines()
    assert "method" in lines[0].split(",")
    assert len(lines) == 4  # a header and one row per method
    assert not (tmp_path / "-").exists()
    assert res.stderr == b""


def test_plot_needs_a_format_for_standard_output(tmp_path):
    res = run("plot", "-", "-o", "-", cwd=tmp_path)
    assert res.returncode == 2
    err = res.stderr.decode()
    assert err.count("\n") == 1
    assert "standard output" in err
    assert "--format" in err
    assert res.stdout == b""


def test_plot_writes_png_and_svg_to_standard_output(tmp_path):
    png = run("plot", "-", "-o", "-", "--format", "png", cwd=tmp_path)
    assert png.returncode == 0, png.stderr
    assert png.stdout.startswith(b"\x89PNG\r\n\x1a\n")
    assert png.stderr == b""  # no "wrote ..." line
    svg = run("plot", "-", "-o", "-", "--format", "svg", cwd=tmp_path)
    assert svg.returncode == 0, svg.stderr
    assert b"<svg" in svg.stdout
    assert not (tmp_path / "-").exists()


def test_table_reads_and_writes_the_standard_streams(tmp_path):
    res = run("table", "-", "-o", "-", "--format", "markdown", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert res.stdout.decode().startswith("| Data set | A | B | C |")
    assert not (tmp_path / "-").exists()
