"""Write output files atomically: a complete file or no file at all.

The data go to a temporary file beside the output, which is renamed onto it
only when complete.  What is not a regular file is never replaced: a
symbolic link's target is written (the link stays), a device or pipe is
written into, and folders, block devices and sockets are refused.

The temporary file's name says whose it is (``.NAME.cdplot-PID-RANDOM.tmp``),
so that when a process is killed outright (SIGKILL, power loss) the next
write of the same output removes what the dead process left.  The command
line turns SIGTERM into a normal exit, so the ``except`` clause below cleans up after it too.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import re
import secrets
import stat
import sys
from pathlib import Path

from .errors import CdplotError

__all__ = ["atomic_write", "remove_stale", "temporary_name"]

_TMP = re.compile(r"^\.(?P<name>.+)\.cdplot-(?P<pid>\d+)-[0-9a-f]{8}\.tmp$")


def temporary_name(path: Path) -> Path:
    """A fresh temporary name beside ``path`` that names this process."""
    return path.with_name(f".{path.name}.cdplot-{os.getpid()}-{secrets.token_hex(4)}.tmp")


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _remove_stale(directory: Path, name: str) -> None:
    """Remove temporary files of ``name`` left by processes that no longer run."""
    with contextlib.suppress(OSError), os.scandir(directory) as entries:
        for entry in entries:
            m = _TMP.match(entry.name)
            if m and m["name"] == name and not _pid_alive(int(m["pid"])):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)


def remove_stale(path) -> None:
    """Remove the temporary files of ``path`` left by processes that no longer run.

    For a parent whose child was killed while writing ``path`` (the child's
    temporary file names the child).
    """
    path = Path(path)
    _remove_stale(path.parent if str(path.parent) else Path("."), path.name)


def _open_exclusive(tmp: Path, mode: int) -> int:
    # the kernel applies the process umask to ``mode``: no need to read (or change) it
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    return os.open(tmp, flags, mode)


# more links than this in one chain is a loop (Linux's own limit is 40)
_MAX_LINKS = 40


def _link_chain(path: Path) -> list[str]:
    """The paths that following the symbolic link ``path`` passes through, ``path`` first."""
    chain = [str(path)]
    while os.path.islink(chain[-1]):
        if len(chain) > _MAX_LINKS:
            raise CdplotError(f"output {str(path)!r}: too many levels of symbolic links")
        target = os.readlink(chain[-1])
        chain.append(os.path.join(os.path.dirname(chain[-1]), target))
    return chain


def _describe(mode: int) -> str | None:
    """What an output of this file type is, when cdplot must not write it."""
    if stat.S_ISDIR(mode):
        return "is a folder"
    if stat.S_ISBLK(mode):
        return "is a block device (a disk): cdplot writes no devices but character ones"
    if stat.S_ISSOCK(mode):
        return "is a socket: cdplot writes files, character devices and pipes"
    return None


def _own_descriptor(path: Path) -> int | None:
    """The descriptor of this process that ``path`` names (``/dev/stdout``, ``/dev/fd/3``).

    ``/dev/stdout`` leads through ``/proc/self/fd/1``, whose link names what the
    descriptor is open on (a terminal, a pipe, or the file the shell redirected
    to).  Writing through the descriptor itself keeps the order of what the
    process writes there; a rename onto the file would not reach its reader.
    """
    own = (f"/proc/{os.getpid()}/fd/", "/proc/self/fd/", "/dev/fd/")
    for p in _link_chain(path):
        head, _, number = p.rpartition("/")
        if head + "/" in own and number.isdigit():
            return int(number)
    return None


@contextlib.contextmanager
def _stream_write(path: Path, mode: str, descriptor: int | None):
    """Collect the output in memory and write it into ``path`` once it is complete.

    Nothing is created, renamed or truncated: the device, pipe or descriptor
    stays what it is, and a failure before the end writes nothing into it.
    """
    buffer = io.BytesIO() if "b" in mode else io.StringIO(newline="")
    yield buffer
    data = buffer.getvalue()
    if isinstance(data, str):
        data = data.encode("utf-8")
    try:
        if descriptor is not None:
            for stream in (sys.stdout, sys.stderr):  # what the program wrote there comes first
                with contextlib.suppress(AttributeError, OSError, ValueError):
                    stream.flush()
            fd, close = descriptor, False
        else:
            flags = os.O_WRONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0)
            fd, close = os.open(path, flags), True
    except OSError as exc:
        raise CdplotError(f"output {str(path)!r}: cannot write ({exc.strerror or exc})") from None
    try:
        reason = _describe(os.fstat(fd).st_mode)
        if reason is not None:  # replaced between the check and the open
            raise CdplotError(f"output {str(path)!r} {reason}")
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    except OSError as exc:
        raise CdplotError(f"output {str(path)!r}: cannot write ({exc.strerror or exc})") from None
    finally:
        if close:
            os.close(fd)


@contextlib.contextmanager
def atomic_write(path, mode: str = "wb"):
    """Write ``path`` whole or not at all, never replacing what is not a regular file.

    A regular file (new or existing) is written to a temporary file beside it
    and renamed onto it on success.  If the block raises (or the command is
    stopped with SIGTERM), the temporary file is removed and ``path`` is left
    as it was (absent, or the previous complete file).  A new file gets the
    permissions a plain ``open()`` would give it; a replaced file keeps its own.

    A symbolic link is followed: its final target is replaced the same way and
    the link stays a link.  A character device (``/dev/null``, a terminal), a
    named pipe or an open descriptor (``/dev/stdout``) is written in place
    once the output is complete, never replaced by a file.  Folders, block
    devices and sockets are refused.

    Parameters
    ----------
    path : str or Path
        Final destination.
    mode : {'wb', 'w'}, default 'wb'
        Binary or text (UTF-8) mode.

    Yields
    ------
    file object
        The file to write to.

    Raises
    ------
    CdplotError
        When the output's folder does not exist or is not a folder, or the
        output is a folder, a block device or a socket (named in the message,
        not the temporary file).
    """
    path = Path(path)
    try:
        existing = os.stat(path)  # follows links: the kind of file that would be written
    except (FileNotFoundError, NotADirectoryError):  # a new file (its folder is checked below)
        existing = None
    except OSError as exc:
        raise CdplotError(f"output {str(path)!r}: {exc.strerror or exc}") from None
    if existing is not None and (reason := _describe(existing.st_mode)) is not None:
        raise CdplotError(f"output {str(path)!r} {reason}")
    descriptor = _own_descriptor(path) if existing is not None else None
    if descriptor is not None or (
        existing is not None and (stat.S_ISCHR(existing.st_mode) or stat.S_ISFIFO(existing.st_mode))
    ):
        with _stream_write(path, mode, descriptor) as fh:
            yield fh
        return
    # a link's target is replaced, so that the link and what else names the target see it
    target = Path(os.path.realpath(path)) if os.path.islink(path) else path
    with _replace(path, target, existing, mode) as fh:
        yield fh


@contextlib.contextmanager
def _replace(path: Path, target: Path, existing: os.stat_result | None, mode: str):
    """Write a temporary file beside ``target`` and rename it onto ``target``.

    Messages name ``path``, the output the user gave.
    """
    directory = target.parent if str(target.parent) else Path(".")
    if not directory.is_dir():
        what = "does not exist" if not directory.exists() else "is not a folder"
        raise CdplotError(f"output {str(path)!r}: the folder {str(directory)!r} {what}")
    _remove_stale(directory, target.name)
    # keep a replaced file's permissions (a private 0600 output stays private)
    perms = stat.S_IMODE(existing.st_mode) if existing is not None else 0o666
    tmp = None
    try:
        # inside the try: a signal that lands right after the open removes the file too
        while True:
            tmp = temporary_name(target)
            try:
                fd = _open_exclusive(tmp, perms)
                break
            except FileExistsError:
                tmp = None  # another process's: never removed here
                continue
            except PermissionError as exc:
                tmp = None
                raise CdplotError(
                    f"output {str(path)!r}: cannot write in the folder {str(directory)!r} "
                    f"({exc.strerror})"
                ) from None
        if existing is not None:
            # O_CREAT's mode went through the umask; a replaced file keeps its exact mode
            os.fchmod(fd, perms)
        kwargs = {"encoding": "utf-8", "newline": ""} if "b" not in mode else {}
        with os.fdopen(fd, mode, **kwargs) as fh:
            yield fh
            try:
                fh.flush()
                os.fsync(fh.fileno())
            except OSError as exc:  # a full disk, a quota: name the output, not the temporary
                raise CdplotError(
                    f"output {str(path)!r}: cannot write in the folder {str(directory)!r} "
                    f"({exc.strerror or exc})"
                ) from None
        try:
            os.replace(tmp, target)
        except OSError as exc:
            if exc.errno in (errno.EISDIR, errno.ENOTDIR):
                raise CdplotError(
                    f"output {str(path)!r} cannot be replaced: {exc.strerror}"
                ) from None
            raise CdplotError(
                f"output {str(path)!r}: cannot be put in place in the folder "
                f"{str(directory)!r} ({exc.strerror or exc})"
            ) from None
    except BaseException:
        if tmp is not None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
        raise
