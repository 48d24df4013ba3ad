"""The command line's own duties: safe terminal text, one-line warnings, pipes (cli.py)."""

import os
import subprocess
import sys

import pytest

from cdplot.cli import terminal_safe


def cdplot(*args, cwd=None, **kwargs):
    return subprocess.run(
        [sys.executable, "-m", "cdplot", *args], capture_output=True, text=True, cwd=cwd, **kwargs
    )


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("\x1b[31mred", "\\u001b[31mred"),
        ("\x1b]0;title\x07", "\\u001b]0;title\\u0007"),
        ("\x1b]8;;http://x\x1b\\link", "\\u001b]8;;http://x\\u001b\\link"),
        ("a\rb", "a\\u000db"),
        ("\x9b31m", "\\u009b31m"),
        ("abc\u202edcba", "abc\\u202edcba"),
        ("x\ud800y", "x\\ud800y"),
        ("tab\tand\nnewline, é, 中文", "tab\tand\nnewline, é, 中文"),
    ],
)
def test_terminal_safe(text, shown):
    assert terminal_safe(text) == shown


def test_names_cannot_drive_the_terminal(tmp_path):
    # a right-to-left override in a method name would reorder what the terminal shows
    f = tmp_path / "s.csv"
    f.write_text("dataset,A\u202eB,C\nd1,0.9,0.8\nd2,0.8,0.7\nd3,0.7,0.75\n", encoding="utf-8")
    # the LaTeX table writes the control as LaTeX that prints \u202e (pdflatex stops at U+202E)
    shown = {"stats": "A\\u202eB", "table": "A\\textbackslash{}u202eB"}
    for command in ("stats", "table"):
        proc = cdplot(command, str(f))
        assert proc.returncode == 0, proc.stderr
        assert "\u202e" not in proc.stdout
        assert shown[command] in proc.stdout


def test_json_output_stays_json_with_escaped_names(tmp_path):
    import json

    f = tmp_path / "s.csv"
    f.write_text("dataset,A\u202eB,C\nd1,0.9,0.8\nd2,0.8,0.7\nd3,0.7,0.75\n", encoding="utf-8")
    proc = cdplot("stats", "--json", str(f))
    assert proc.returncode == 0, proc.stderr
    assert "\u202e" not in proc.stdout
    assert "A\u202eB" in json.loads(proc.stdout)["methods"]


def test_warnings_are_one_line(tmp_path):
    folder = tmp_path / "tpl"
    folder.mkdir()
    (folder / "title.html.j2").write_text('<img src="http://example.com/x.png">', "utf-8")
    proc = cdplot(
        "report", "--example", "demsar2006", "-o", "r.pdf", "--template", str(folder), cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if "warning" in line]
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("cdplot report: warning: the report refers to 1 outside resource")
    assert ".py" not in proc.stderr, "no source paths from Python's warning format"


def test_a_closed_pipe_ends_quietly():
    # ``cdplot stats ... | head -1`` once the reader has gone. The read end is closed before
    # cdplot starts, so its first write meets a closed pipe whatever the output's size (an
    # output smaller than the pipe's buffer could otherwise be written before the reader left)
    import os

    read_fd, write_fd = os.pipe()
    os.close(read_fd)
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "cdplot", "stats", "--example", "yang-table9"],
            stdout=write_fd,
            stderr=subprocess.PIPE,
            timeout=120,
        )
    finally:
        os.close(write_fd)
    assert proc.returncode == 141
    assert proc.stderr == b""


def test_an_output_that_is_an_input_is_refused(tmp_path):
    f = tmp_path / "s.csv"
    text = "dataset,A,B\nd1,0.9,0.8\nd2,0.8,0.7\nd3,0.7,0.75\n"
    f.write_text(text, encoding="utf-8")
    for args in (["plot", str(f), "-o", str(f)], ["report", str(f), "-o", str(f)]):
        proc = cdplot(*args)
        assert proc.returncode == 2
        assert "is also an input file" in proc.stderr
        assert proc.stderr.count("\n") == 1
    (tmp_path / "link.csv").symlink_to(f)
    proc = cdplot("plot", str(tmp_path / "link.csv"), "-o", str(f))
    assert "is also an input file" in proc.stderr
    assert f.read_text("utf-8") == text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["plot", "--example", "demsar2006", "-o", "x.png", "--dpi", "0.001"], "from 10 to 2400"),
        (["pair", "--help"], None),
    ],
)
def test_out_of_range_numbers_are_one_line(tmp_path, args, message):
    proc = cdplot(*args, cwd=tmp_path)
    if message is None:
        assert proc.returncode == 0
        return
    assert proc.returncode == 2
    assert message in proc.stderr
    assert proc.stderr.count("\n") == 1


def test_blas_runs_on_one_thread_unless_the_user_says(monkeypatch, capsys):
    # small products on spinning OpenBLAS threads cost up to 0.5 s of CPU time per run on
    # a busy machine (benchmarks/bench_stats.py); a value the user exported is kept
    from cdplot.cli import main

    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    assert main(["stats", "--example", "demsar2006"]) == 0
    assert os.environ["OPENBLAS_NUM_THREADS"] == "1"
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "3")
    assert main(["stats", "--example", "demsar2006"]) == 0
    assert os.environ["OPENBLAS_NUM_THREADS"] == "3"
    capsys.readouterr()


def _run_program(code, tmp_path):
    script = tmp_path / "prog.py"
    script.write_text(code, encoding="utf-8")
    return subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path, timeout=120
    )


_PROGRAM = """\
import atexit, sys, threading, time

class Noisy:
    def __del__(self):
        print("torn down", flush=True)

noisy = Noisy()
atexit.register(print, "atexit ran")
{setup}
sys.argv = ["cdplot", {args}]
from cdplot.cli import run
run()
"""


def test_the_program_exits_with_atexit_handlers_but_without_teardown(tmp_path):
    # run() skips the interpreter's teardown (0.1-0.15 s after a report): a module-level
    # object's __del__ never runs, while atexit handlers and buffered output still do
    proc = _run_program(
        _PROGRAM.format(setup="", args='"stats", "--example", "demsar2006"'), tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    assert "Friedman" in proc.stdout
    assert proc.stdout.rstrip().endswith("atexit ran")
    assert "torn down" not in proc.stdout


def test_the_program_keeps_its_exit_status(tmp_path):
    proc = _run_program(_PROGRAM.format(setup="", args='"stats", "missing.csv"'), tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1
    assert "missing.csv" in proc.stderr
    assert "atexit ran" in proc.stdout


def test_the_program_waits_for_a_thread_still_running(tmp_path):
    # with another thread alive the ordinary exit runs, which lets the thread finish
    setup = (
        "threading.Thread(target=lambda: (time.sleep(0.5), print('thread done', flush=True)))"
        ".start()"
    )
    proc = _run_program(
        _PROGRAM.format(setup=setup, args='"stats", "--example", "demsar2006"'), tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    assert "thread done" in proc.stdout
    assert "torn down" in proc.stdout
