"""The command line's own duties: safe terminal text, one-line warnings, pipes (cli.py)."""

import os
import subprocess
import sys

import pytest

from cdplot._version import __version__
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
import atexit, sys

atexit.register(print, "atexit ran")
sys.argv = ["cdplot", {args}]
from cdplot.cli import run
run()
"""


def test_the_program_keeps_its_exit_status(tmp_path):
    # run() leaves through Python's ordinary exit: main()'s status, atexit handlers run
    proc = _run_program(_PROGRAM.format(args='"stats", "--example", "demsar2006"'), tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "Friedman" in proc.stdout
    assert proc.stdout.rstrip().endswith("atexit ran")
    proc = _run_program(_PROGRAM.format(args='"stats", "missing.csv"'), tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1
    assert "missing.csv" in proc.stderr
    assert "atexit ran" in proc.stdout


def test_an_output_inside_an_input_folder_is_refused(tmp_path):
    # issue 32 item 3: `cdplot stats rf --format csv -o rf/A_acc.csv` overwrote a result file,
    # and a new file in a results folder is read as a result by the next run
    rf = tmp_path / "rf"
    rf.mkdir()
    result = "Resamples:,0,1\nArrowHead,0.8,0.9\nBeef,0.7,0.6\nCar,0.9,0.8\n"
    for method in ("A", "B", "C"):
        (rf / f"{method}_acc.csv").write_text(result)
    (tmp_path / "sub").mkdir()
    (tmp_path / "into-rf").symlink_to(rf)
    outputs = (
        ["stats", str(rf), "--format", "csv", "-o", str(rf / "A_acc.csv")],  # a result file
        ["stats", str(rf), "--format", "csv", "-o", str(rf / "new.csv")],  # a new file
        ["plot", str(rf), "-o", str(tmp_path / "into-rf" / "cd.png")],  # through a link
        ["stats", str(rf), "-o", str(rf / ".." / "rf" / "x.txt")],
    )
    for args in outputs:
        proc = cdplot(*args)
        assert proc.returncode == 2, args
        assert "lies inside the input folder" in proc.stderr, proc.stderr
        assert "choose an output outside it" in proc.stderr
        assert proc.stderr.count("\n") == 1
    assert sorted(p.name for p in rf.iterdir()) == ["A_acc.csv", "B_acc.csv", "C_acc.csv"]
    assert (rf / "A_acc.csv").read_text() == result
    # beside the folder (a name that merely starts like it) is fine
    proc = cdplot("stats", str(rf), "-o", str(tmp_path / "rf-stats.txt"))
    assert proc.returncode == 0, proc.stderr


def test_outputs_that_are_not_regular_files_are_written_not_replaced(tmp_path):
    # issue 32 items 1-2: as root, `-o /dev/null` replaced the system's device with a regular
    # file and `-o link.tex` replaced the link, leaving its target stale. Device nodes, FIFOs
    # and links are made in the temporary folder, never the system's.
    import os
    import stat
    import threading

    scores = tmp_path / "in.csv"
    scores.write_text("dataset,A,B,C\nd1,0.9,0.8,0.7\nd2,0.8,0.7,0.75\nd3,0.7,0.75,0.6\n")
    target = tmp_path / "target.tex"
    target.write_text("OLD")
    (tmp_path / "link.tex").symlink_to("target.tex")
    proc = cdplot("table", str(scores), "--format", "latex", "-o", "link.tex", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert os.readlink(tmp_path / "link.tex") == "target.tex"
    assert "\\begin{tabular}" in target.read_text()

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()), daemon=True)
    reader.start()
    proc = cdplot("stats", str(scores), "--format", "json", "-o", str(fifo))
    reader.join(60)
    assert proc.returncode == 0, proc.stderr
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert got[0].lstrip().startswith("{")

    try:
        os.mknod(tmp_path / "null", stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        return  # making device nodes needs root (as CI runs); the FIFO covered the rest
    proc = cdplot("stats", str(scores), "--format", "json", "-o", str(tmp_path / "null"))
    assert proc.returncode == 0, proc.stderr
    assert stat.S_ISCHR(os.stat(tmp_path / "null").st_mode)
    assert sorted(os.listdir(tmp_path)) == ["in.csv", "link.tex", "null", "pipe", "target.tex"]


def test_version_builds_no_subcommand_parser():
    # issue 28: `cdplot --version` built all five subcommands' parsers (and imported their
    # modules) to print one line
    code = (
        "import sys\n"
        "from cdplot.cli import main\n"
        "status = main(['--version'])\n"
        "print(status, sorted(m for m in sys.modules if m.startswith('cdplot._cli')))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    version, result = proc.stdout.splitlines()
    assert version == f"cdplot {__version__}"
    assert result == "0 []"


def test_the_version_command_loads_neither_the_command_line_nor_argparse():
    # issue 28: the `cdplot` command (cdplot.__main__:run) answers --version before
    # cdplot.cli, argparse and typing load, which cost more than the interpreter itself
    code = (
        "import sys\n"
        "sys.argv = ['cdplot', '--version']\n"
        "from cdplot.__main__ import run\n"
        "try:\n"
        "    run()\n"
        "except SystemExit as exc:\n"
        "    loaded = [m for m in ('cdplot.cli', 'argparse', 'typing') if m in sys.modules]\n"
        "    print(exc.code, loaded)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.splitlines() == [f"cdplot {__version__}", "0 []"]
