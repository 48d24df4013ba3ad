"""What a long command is doing, on stderr, once it has run for a while on a terminal.

A 3,000 x 40 report runs for about 15 s; silent, it looks hung.  Every
command runs inside :func:`running`: after :data:`DELAY` seconds a thread
prints the step under way (``cdplot report: drawing the figures and
writing the PDF...``), each later step prints its own line as it starts,
and the end prints ``done in 14.8 s``.  Short runs print nothing.  By
default only when stderr is a terminal and ``--quiet`` is not given;
``--progress`` asks for the lines anywhere, ``--no-progress`` never.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time

__all__ = ["DELAY", "running", "step"]

#: Seconds a command runs before its progress is shown.
DELAY = 2.0

_current: _Progress | None = None


class _Progress:
    def __init__(self, command: str, delay: float):
        self.command = command
        self.what = "working"
        self.start = time.monotonic()
        self.shown = False
        self.lock = threading.Lock()
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._wait, args=(delay,), daemon=True)

    def _say(self, text: str) -> None:
        with contextlib.suppress(OSError, ValueError):  # a closed or vanished terminal
            sys.stderr.write(f"cdplot {self.command}: {text}\n")
            sys.stderr.flush()

    def _wait(self, delay: float) -> None:
        if self.done.wait(delay):
            return
        with self.lock:
            if not self.done.is_set():
                self.shown = True
                self._say(f"{self.what}...")

    def step(self, what: str) -> None:
        with self.lock:
            self.what = what
            if self.shown:
                self._say(f"{what}...")

    def finish(self, ok: bool) -> None:
        with self.lock:
            self.done.set()
            if self.shown and ok:
                self._say(f"done in {time.monotonic() - self.start:.1f} s")


def enabled(args) -> bool:
    """``--progress``/``--no-progress``, else: stderr is a terminal and no ``--quiet``."""
    asked = getattr(args, "progress", None)
    if asked is not None:
        return bool(asked)
    if getattr(args, "quiet", False):
        return False
    stream = sys.stderr
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, ValueError):
        return False


@contextlib.contextmanager
def running(args):
    """Show the progress of the command of ``args`` while the ``with`` block runs."""
    global _current
    if not enabled(args):
        yield
        return
    progress = _Progress(args.command, DELAY)
    saved, _current = _current, progress
    progress.thread.start()
    ok = False
    try:
        yield
        ok = True
    finally:
        progress.finish(ok)
        _current = saved


def step(what: str) -> None:
    """Say that the running command starts ``what`` (printed once the delay has passed)."""
    progress = _current
    if progress is not None:
        progress.step(what)
