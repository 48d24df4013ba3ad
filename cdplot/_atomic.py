"""Write output files atomically: a complete file or no file at all.

The data go to a temporary file beside the output, which is renamed onto it
only when complete.  The temporary file's name says whose it is
(``.NAME.cdplot-PID-RANDOM.tmp``), so that when a process is killed
outright (SIGKILL, power loss) the next write of the same output removes
what the dead process left.  The command line turns SIGTERM into a normal
exit, so the ``except`` clause below cleans up after it too.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import stat
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


@contextlib.contextmanager
def atomic_write(path, mode: str = "wb"):
    """Open a temporary file beside ``path`` and rename it onto ``path`` on success.

    If the block raises (or the command is stopped with SIGTERM), the
    temporary file is removed and ``path`` is left as it was (absent, or the
    previous complete file).  A new file gets the permissions a plain
    ``open()`` would give it; a replaced file keeps its own.

    Parameters
    ----------
    path : str or Path
        Final destination.
    mode : {'wb', 'w'}, default 'wb'
        Binary or text (UTF-8) mode.

    Yields
    ------
    file object
        The open temporary file; its name is in ``.name``.

    Raises
    ------
    CdplotError
        When the output's folder does not exist or is not a folder, or the
        output is a folder (named in the message, not the temporary file).
    """
    path = Path(path)
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        what = "does not exist" if not directory.exists() else "is not a folder"
        raise CdplotError(f"output {str(path)!r}: the folder {str(directory)!r} {what}")
    try:
        existing = os.stat(path)
    except FileNotFoundError:
        existing = None
    if existing is not None and stat.S_ISDIR(existing.st_mode):
        raise CdplotError(f"output {str(path)!r} is a folder")
    _remove_stale(directory, path.name)
    # keep a replaced file's permissions (a private 0600 output stays private)
    perms = stat.S_IMODE(existing.st_mode) if existing is not None else 0o666
    while True:
        tmp = temporary_name(path)
        try:
            fd = _open_exclusive(tmp, perms)
            break
        except FileExistsError:
            continue
        except PermissionError as exc:
            raise CdplotError(
                f"output {str(path)!r}: cannot write in the folder {str(directory)!r} "
                f"({exc.strerror})"
            ) from None
    try:
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
            os.replace(tmp, path)
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
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
