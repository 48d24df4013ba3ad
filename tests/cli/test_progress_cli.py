"""Progress on stderr: shown on a terminal (a pseudo-terminal here) once a command runs a while.

The commands run in a subprocess whose stderr is the slave side of a ``pty``,
so that ``isatty()`` is really true; :data:`cdplot._cli.progress.DELAY` is set
to 0 in that process, so that a quick command counts as a long one.
"""

import io
import os
import pty
import subprocess
import sys
import textwrap
import time
from types import SimpleNamespace

import pytest

from cdplot._cli import progress

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pty needs a POSIX system")


def _run(argv, *, tty=True, delay=0.0):
    """Run ``cdplot argv`` with stderr on a pseudo-terminal (or a pipe); returns (rc, stderr)."""
    code = textwrap.dedent(
        f"""
        import sys
        from cdplot._cli import progress
        progress.DELAY = {delay!r}
        from cdplot.cli import main
        sys.exit(main({argv!r}))
        """
    )
    if not tty:
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=120
        )
        return out.returncode, out.stderr
    master, slave = pty.openpty()
    try:
        proc = subprocess.run(
            [sys.executable, "-c", code], stderr=slave, stdout=subprocess.PIPE, timeout=120
        )
    finally:
        os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # EIO: the slave side is closed and everything was read
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    return proc.returncode, b"".join(chunks).decode("utf-8").replace("\r\n", "\n")


def test_a_long_run_on_a_terminal_says_each_step_and_the_time(tmp_path):
    out = tmp_path / "cd.svg"
    rc, err = _run(["plot", "--example", "demsar2006", "-o", str(out)])
    assert rc == 0, err
    lines = err.splitlines()
    assert "cdplot plot: drawing the figure..." in lines
    assert f"cdplot plot: writing {out}..." in lines
    assert lines[-1].startswith("cdplot plot: done in ")
    assert lines[-1].endswith(" s")


def test_stats_says_what_it_analyses():
    rc, err = _run(["stats", "--example", "demsar2006"])
    assert rc == 0, err
    lines = err.splitlines()
    assert "cdplot stats: reading the example demsar2006..." in lines
    assert "cdplot stats: analysing AUC: 4 methods on 14 data sets..." in lines


@pytest.mark.parametrize("flag", ["--quiet", "--no-progress"])
def test_quiet_and_no_progress_silence_it(flag):
    rc, err = _run(["stats", "--example", "demsar2006", flag])
    assert rc == 0
    assert err == ""


def test_not_a_terminal_prints_nothing_unless_asked():
    rc, err = _run(["stats", "--example", "demsar2006"], tty=False)
    assert rc == 0
    assert err == ""
    rc, err = _run(["stats", "--example", "demsar2006", "--progress"], tty=False)
    assert rc == 0
    assert "cdplot stats: done in" in err


def test_an_error_ends_without_done(tmp_path):
    rc, err = _run(["stats", str(tmp_path / "missing.csv")])
    assert rc == 2
    assert "done in" not in err
    assert err.splitlines()[-1].startswith("cdplot stats: error:")


def test_a_short_run_prints_nothing(monkeypatch):
    """Before the delay nothing is said; after it, the step under way and the later ones."""
    stream = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stream)
    args = SimpleNamespace(command="stats", progress=True, quiet=False)
    monkeypatch.setattr(progress, "DELAY", 5.0)
    with progress.running(args):
        progress.step("reading x.csv")
    assert stream.getvalue() == ""
    monkeypatch.setattr(progress, "DELAY", 0.05)
    with progress.running(args):
        progress.step("reading x.csv")
        time.sleep(0.5)
        progress.step("analysing")
    assert stream.getvalue().splitlines()[:2] == [
        "cdplot stats: reading x.csv...",
        "cdplot stats: analysing...",
    ]
    progress.step("after the command")  # no command running: nothing said, no error
    assert "after the command" not in stream.getvalue()
