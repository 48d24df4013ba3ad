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
        import cdplot.plot._save as save
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


# --- outputs that are not regular files (issue 32, items 1 and 2) -------------------------------
# Device nodes and FIFOs are made in a temporary folder, never the system's: as root (Docker,
# CI) a rename onto /dev/null replaced the system's device with a regular file.


def _char_device(path):
    """A node for the kernel's null device (1, 3), or skip where nodes cannot be made."""
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("making a device node needs root (CI runs as root)")
    return path


def test_a_character_device_is_written_into_not_replaced(tmp_path):
    null = _char_device(tmp_path / "null")
    with atomic_write(null, "w") as fh:
        fh.write("discarded")
    assert stat.S_ISCHR(os.stat(null).st_mode)
    assert os.stat(null).st_rdev == os.makedev(1, 3)
    assert sorted(os.listdir(tmp_path)) == ["null"]  # no temporary file beside it


def test_a_fifo_is_written_into_and_its_reader_gets_the_whole_output(tmp_path):
    import threading

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    with atomic_write(fifo) as fh:
        fh.write(b"first ")
        fh.write(b"second")
    reader.join(10)
    assert got == [b"first second"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert sorted(os.listdir(tmp_path)) == ["pipe"]


def test_a_failing_write_into_a_device_writes_nothing_into_it(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)

    def write_half():
        with atomic_write(fifo) as fh:
            fh.write(b"half")
            raise RuntimeError("stop")

    # no reader is opened: had anything been written, the open would block the test
    with pytest.raises(RuntimeError):
        write_half()
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_a_descriptor_link_writes_into_what_the_descriptor_is_open_on(tmp_path):
    # /dev/stdout is a link to /proc/self/fd/1; the shell's "> out.txt" opened out.txt, so the
    # output must reach that open file, not a new file renamed onto its name.  The link is made
    # in the temporary folder: a test must never risk replacing the system's /dev/stdout.
    out = tmp_path / "out.txt"
    link = tmp_path / "stdout"
    link.symlink_to("/proc/self/fd/1")
    code = (
        "import sys\n"
        "from cdplot._atomic import atomic_write\n"
        "print('cdplot: ', end='')\n"
        "with atomic_write(sys.argv[1], 'w') as fh:\n"
        "    fh.write('table')\n"
        "print(' and more', end='')\n"
    )
    with open(out, "wb") as fh:
        subprocess.run([sys.executable, "-c", code, str(link)], stdout=fh, check=True)
    assert out.read_text() == "cdplot: table and more"
    assert link.is_symlink()
    assert sorted(os.listdir(tmp_path)) == ["out.txt", "stdout"]


@pytest.mark.parametrize(
    ("kind", "message"),
    [("socket", "is a socket"), ("block", "is a block device")],
)
def test_sockets_and_block_devices_are_refused(tmp_path, kind, message):
    import socket

    node = tmp_path / kind
    if kind == "socket":
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(str(node))
    else:
        try:
            os.mknod(node, stat.S_IFBLK | 0o600, os.makedev(7, 200))
        except PermissionError:
            pytest.skip("making a device node needs root (CI runs as root)")
    try:
        with pytest.raises(CdplotError, match=message), atomic_write(node):
            raise AssertionError("must be refused before the block runs")
    finally:
        if kind == "socket":
            sock.close()
    assert sorted(os.listdir(tmp_path)) == [kind]


def test_a_symlinked_output_replaces_its_target_and_stays_a_link(tmp_path):
    target = tmp_path / "target.tex"
    target.write_text("OLD")
    target.chmod(0o640)
    link = tmp_path / "link.tex"
    link.symlink_to("target.tex")  # relative, as `ln -s target.tex link.tex` makes it
    with atomic_write(link, "w") as fh:
        fh.write("NEW")
    assert link.is_symlink()
    assert os.readlink(link) == "target.tex"
    assert target.read_text() == "NEW"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert sorted(os.listdir(tmp_path)) == ["link.tex", "target.tex"]


def test_a_chain_of_links_into_another_folder_is_followed_to_the_end(tmp_path):
    (tmp_path / "paper").mkdir()
    final = tmp_path / "paper" / "table.tex"
    final.write_text("OLD")
    (tmp_path / "hop").symlink_to(final)
    link = tmp_path / "link.tex"
    link.symlink_to(tmp_path / "hop")
    with atomic_write(link, "w") as fh:
        fh.write("NEW")
    assert final.read_text() == "NEW"
    assert link.is_symlink()
    assert (tmp_path / "hop").is_symlink()
    assert os.listdir(tmp_path / "paper") == ["table.tex"]


def test_a_dangling_link_creates_its_target(tmp_path):
    link = tmp_path / "link.tex"
    link.symlink_to("new.tex")
    with atomic_write(link, "w") as fh:
        fh.write("NEW")
    assert link.is_symlink()
    assert (tmp_path / "new.tex").read_text() == "NEW"


def test_a_failed_write_through_a_link_keeps_the_target(tmp_path):
    target = tmp_path / "target.tex"
    target.write_text("OLD")
    link = tmp_path / "link.tex"
    link.symlink_to(target)

    def write_half():
        with atomic_write(link, "w") as fh:
            fh.write("half")
            raise RuntimeError("stop")

    with pytest.raises(RuntimeError):
        write_half()
    assert target.read_text() == "OLD"
    assert link.is_symlink()
    assert sorted(os.listdir(tmp_path)) == ["link.tex", "target.tex"]


def test_a_link_loop_is_one_line(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.symlink_to(b)
    b.symlink_to(a)
    with pytest.raises(CdplotError, match=r"output '.*a': .*symbolic links"), atomic_write(a):
        pass


def test_a_signal_right_after_the_temporary_is_created_leaves_nothing(tmp_path, monkeypatch):
    # issue 32's signal run: a SIGTERM landing between the open and the cleanup's try left
    # a .cdplot-PID-*.tmp file twice in 600 runs
    import cdplot._atomic as atomic

    real = atomic._open_exclusive

    def open_then_interrupted(tmp, mode):
        real(tmp, mode)
        raise KeyboardInterrupt

    monkeypatch.setattr(atomic, "_open_exclusive", open_then_interrupted)
    with pytest.raises(KeyboardInterrupt), atomic_write(tmp_path / "out.txt", "w"):
        raise AssertionError("never reached")
    assert os.listdir(tmp_path) == []


def test_another_process_temporary_of_the_same_name_is_never_removed(tmp_path, monkeypatch):
    import cdplot._atomic as atomic

    names = iter(["taken", "mine"])
    (tmp_path / "taken").write_text("another process's")
    monkeypatch.setattr(atomic, "temporary_name", lambda path: path.with_name(next(names)))
    with atomic_write(tmp_path / "out.txt", "w") as fh:
        fh.write("x")
    assert (tmp_path / "taken").read_text() == "another process's"
    assert (tmp_path / "out.txt").read_text() == "x"
