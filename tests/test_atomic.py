"""Outputs are whole or absent, keep their permissions, leave no litter (cdplot/_atomic.py)."""

import errno
import os
import stat
import subprocess
import sys
import textwrap
import time

import pytest

from cdplot._atomic import atomic_write, temporary_name
from cdplot.errors import CdplotError


def _dead_pid() -> int:
    pid = 4_000_000
    while True:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return pid
        except PermissionError:
            pass
        pid -= 1


def test_writes_whole_file(tmp_path):
    out = tmp_path / "a.txt"
    with atomic_write(out, "w") as fh:
        fh.write("héllo")
    assert out.read_text("utf-8") == "héllo"
    assert os.listdir(tmp_path) == ["a.txt"]


def test_failure_keeps_the_previous_file_and_removes_the_temporary(tmp_path):
    out = tmp_path / "a.bin"
    out.write_bytes(b"old")

    def write_half():
        with atomic_write(out) as fh:
            fh.write(b"new, half")
            raise RuntimeError("stop")

    with pytest.raises(RuntimeError):
        write_half()
    assert out.read_bytes() == b"old"
    assert os.listdir(tmp_path) == ["a.bin"]


def test_a_replaced_file_keeps_its_mode(tmp_path):
    out = tmp_path / "private.txt"
    out.write_text("x")
    out.chmod(0o600)
    with atomic_write(out, "w") as fh:
        fh.write("y")
    assert stat.S_IMODE(out.stat().st_mode) == 0o600


def test_a_new_file_gets_the_umask_and_the_umask_is_never_changed(tmp_path, monkeypatch):
    # changing the process umask, even briefly, races with other threads of the program
    def no_umask(mask):
        raise AssertionError("atomic_write must not call os.umask")

    current = os.umask(0o027)
    try:
        monkeypatch.setattr(os, "umask", no_umask)
        out = tmp_path / "new.txt"
        with atomic_write(out, "w") as fh:
            fh.write("x")
        monkeypatch.undo()
        assert stat.S_IMODE(out.stat().st_mode) == 0o640
    finally:
        os.umask(current)


def test_temporary_files_of_dead_processes_are_removed(tmp_path):
    out = tmp_path / "fig.png"
    stale = tmp_path / f".fig.png.cdplot-{_dead_pid()}-0123abcd.tmp"
    live = tmp_path / f".fig.png.cdplot-{os.getpid()}-0123abcd.tmp"
    other = tmp_path / f".other.png.cdplot-{_dead_pid()}-0123abcd.tmp"
    for p in (stale, live, other):
        p.write_bytes(b"partial")
    with atomic_write(out) as fh:
        fh.write(b"png")
    assert not stale.exists(), "a dead process's temporary file of this output is removed"
    assert live.exists(), "a running process's temporary file is its own business"
    assert other.exists(), "temporary files of other outputs are left alone"


def test_temporary_name_says_whose_it_is(tmp_path):
    name = temporary_name(tmp_path / "r.pdf").name
    assert name.startswith(f".r.pdf.cdplot-{os.getpid()}-")
    assert name.endswith(".tmp")


@pytest.mark.parametrize(
    ("sub", "message"),
    [("missing/x.png", "the folder .*missing' does not exist"), ("f.txt/x.png", "is not a folder")],
)
def test_a_bad_folder_is_named_not_the_temporary_file(tmp_path, sub, message):
    (tmp_path / "f.txt").write_text("x")
    with pytest.raises(CdplotError, match=message) as info, atomic_write(tmp_path / sub):
        pass
    assert ".tmp" not in str(info.value)


def test_an_output_that_is_a_folder_is_refused(tmp_path):
    with pytest.raises(CdplotError, match="is a folder"), atomic_write(tmp_path):
        pass


def test_sigterm_during_a_write_leaves_nothing(tmp_path):
    out = tmp_path / "cd.png"
    ready = tmp_path / "ready"
    script = textwrap.dedent(
        f"""
        import pathlib, sys, time
        import cdplot.plot.save as save
        from cdplot import cli

        def slow_write(fig, fh, fmt, dpi, text_as_paths=False):
            fh.write(b"half a PNG")
            fh.flush()
            pathlib.Path({str(ready)!r}).touch()
            time.sleep(60)

        save._write = slow_write
        sys.exit(cli.main(["plot", "--example", "demsar2006", "-o", {str(out)!r}]))
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", script], stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not ready.exists():
        assert proc.poll() is None, proc.stderr.read()
        assert time.monotonic() < deadline, "the write never started"
        time.sleep(0.05)
    assert any(p.name.endswith(".tmp") for p in tmp_path.iterdir())
    proc.terminate()
    assert proc.wait(30) == 143
    assert proc.stderr.read().strip() == "cdplot plot: terminated"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ready"]


@pytest.mark.parametrize("step", ["fsync", "replace"])
def test_a_failing_disk_names_the_output_not_the_temporary_file(tmp_path, monkeypatch, step):
    # ENOSPC on the last flush, or a rename the file system refuses: the message names what
    # the user asked for and its folder, and nothing half-written stays
    def fail(*args):
        raise OSError(errno.ENOSPC, "No space left on device", str(args[0]))

    monkeypatch.setattr(os, step, fail)
    out = tmp_path / "x.png"
    with pytest.raises(CdplotError) as info, atomic_write(out) as fh:
        fh.write(b"data")
    message = str(info.value)
    assert repr(str(out)) in message
    assert repr(str(tmp_path)) in message
    assert ".tmp" not in message
    assert list(tmp_path.iterdir()) == []
