"""The README runs as written: every ```python and ```console block, in order, in one folder.

Python blocks are executed in one namespace (a later block uses what an earlier
one made); console blocks run each ``$ `` line in a shell with the installed
``cdplot`` first on the PATH, and the lines under a command must appear in its
output in order (``...`` matches anything).  The options table is checked
against ``cdplot/_options.py``, where each option's words are defined once.
"""

import contextlib
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import matplotlib.pyplot as plt

from cdplot import _options
from cdplot.cli import build_parser, command_flags

README = Path(__file__).resolve().parent.parent / "README.md"
TEXT = README.read_text(encoding="utf-8")
BLOCKS = re.findall(r"^```(python|console)\n(.*?)^```$", TEXT, flags=re.DOTALL | re.MULTILINE)


def options_table() -> list[str]:
    """The rows of the README's options table, made from the table in ``_options.py``."""
    rows = []
    for line in _options.__doc__.splitlines():
        m = re.match(r"^``(\w+)``\s+``([^`]+)``\s+(.+)$", line)
        if m:
            meaning = re.sub(
                r":data:`(\w+)`", lambda d: ", ".join(getattr(_options, d[1])), m[3]
            ).replace("``", "`")
            rows.append(f"| `{m[1]}` | `{m[2]}` | {meaning} |")
    return rows


def test_the_options_table_is_the_vocabulary():
    rows = options_table()
    assert len(rows) >= 15, "the table in cdplot/_options.py was not found"
    found = [line for line in TEXT.splitlines() if re.match(r"^\| `\w+` \| `--", line)]
    assert found == rows


def test_every_flag_of_the_table_is_an_option_of_the_command_line():
    parser = build_parser()
    flags = {
        option
        for sub in parser.commands.values()
        for actions in command_flags(sub).values()
        for action in actions
        for option in action.option_strings
    }
    missing = [row for row in options_table() if row.split("`")[3] not in flags]
    assert not missing, missing


def _check_output(command, output, expected):
    """Each expected line matches a line of ``output``, in order; ``...`` matches anything."""
    lines = output.splitlines()
    at = 0
    for want in expected:
        pattern = re.compile(".*".join(map(re.escape, want.split("..."))) + r"\Z")
        while at < len(lines) and not pattern.match(lines[at]):
            at += 1
        assert at < len(lines), f"{command!r}: no line {want!r} in\n{output}"
        at += 1


def _run_console(block, cwd):
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    commands = []
    for line in block.splitlines():
        if line.startswith("$ "):
            commands.append((line[2:], []))
        else:
            assert commands, f"output before any command: {line!r}"
            commands[-1][1].append(line)
    for command, expected in commands:
        proc = subprocess.run(
            ["bash", "-c", command],
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert proc.returncode == 0, (command, proc.stderr)
        _check_output(command, proc.stdout + proc.stderr, expected)


def test_the_tour_runs_as_written(tmp_path, monkeypatch):
    assert [kind for kind, _ in BLOCKS].count("python") >= 3
    assert "console" in [kind for kind, _ in BLOCKS]
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": "__readme__"}
    for i, (kind, block) in enumerate(BLOCKS):
        if kind == "python":
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(block, f"README.md block {i + 1}", "exec"), namespace)
            plt.close("all")
        else:
            _run_console(block, tmp_path)
    # what the tour says it writes
    for name in ("results.csv", "cd.pdf", "report.html", "stats.json", "cd.svg"):
        assert (tmp_path / name).stat().st_size > 0, name
