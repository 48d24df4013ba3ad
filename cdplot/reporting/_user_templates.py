"""User templates (``--template DIR``): confined to their folder, sandboxed and bounded.

Three walls stand between a template folder and the rest of the machine:

1. :class:`ConfinedLoader` resolves every template path, symbolic links
   included, and refuses any that leaves the folder, so a link to
   ``/etc/passwd`` (directly, through a linked subfolder or an include) puts
   nothing into the report.  Only regular files of a bounded size are read.
2. Jinja2's :class:`~jinja2.sandbox.SandboxedEnvironment` keeps templates
   away from Python's internals; :class:`BoundedSandbox` also refuses
   arithmetic whose result would be enormous (``9 ** (9 ** 9)``).
3. :func:`render_bounded` renders in a forked child with a deadline and a
   memory budget, so loops and huge strings end in a one-line error, and
   every failure (division by zero, a self-include...) names the template
   and line instead of printing a traceback.  For a PDF the same child also
   lays the page out with WeasyPrint and writes it (``finish``), under the
   same deadline and budget and at most :data:`MAX_PAGES` pages: a template
   that makes thousands of pages is stopped too, not only one that loops.

Where ``os.fork`` does not exist (Windows) no child can be bounded, and user
templates are refused with a one-line error rather than run without their
bounds (:func:`check_bounded`).
"""

from __future__ import annotations

import os
import stat
import sys
import traceback
from pathlib import Path

import jinja2
from jinja2.loaders import split_template_path
from jinja2.sandbox import SandboxedEnvironment, SecurityError

from .._child import BoundExceeded, NoFork, can_fork, run_bounded
from ..errors import CdplotError, opt

__all__ = [
    "MAX_PAGES",
    "MAX_TEMPLATE_BYTES",
    "RENDER_MEMORY",
    "RENDER_SECONDS",
    "BoundedSandbox",
    "ConfinedLoader",
    "check_bounded",
    "render_bounded",
]

# a template is a page of markup: a megabyte is far more than any needs
MAX_TEMPLATE_BYTES = 1 << 20
# the bounds of everything a user's templates drive: rendering them, and for a PDF, WeasyPrint's
# import, layout and writing.  Rendering the bundled templates for 100 methods takes well under
# a second and a few MB; WeasyPrint takes 7-13 ms and 0.2 MB a page, so a PDF of MAX_PAGES
# pages fits the time and memory four times over, and a template that makes 8,000 pages
# (> 240 s and 1.1 GB unbounded) is stopped by the deadline or, laid out sooner, the pages
RENDER_SECONDS = 60.0
RENDER_MEMORY = 2 << 30
MAX_PAGES = 1000
# results of ** and * past these sizes are refused before they are computed
_MAX_POWER_BITS = 1 << 16
_MAX_REPEAT = 10_000_000


class ConfinedLoader(jinja2.BaseLoader):
    """A Jinja2 loader that reads only regular files inside one folder.

    Parameters
    ----------
    folder : str or Path
        The template folder.  Paths are resolved (``os.path.realpath``)
        before the check, so links are followed and judged by their target.
    """

    def __init__(self, folder):
        self.folder = Path(folder)
        self.root = os.path.realpath(folder)

    def _where(self) -> str:
        return f"{opt('template_dir', str(self.folder))}: "

    def get_source(self, environment, template):
        pieces = split_template_path(template)
        candidate = os.path.join(self.root, *pieces)
        if not os.path.lexists(candidate):
            raise jinja2.TemplateNotFound(template)
        resolved = os.path.realpath(candidate)
        if os.path.commonpath([self.root, resolved]) != self.root:
            raise CdplotError(
                f"{self._where()}{template} leads to {resolved!r}, outside the template "
                "folder; templates must be files inside it (copy the file in instead of linking)"
            )
        try:
            # non-blocking, so that a FIFO planted in the folder cannot hang the open
            fd = os.open(resolved, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        except FileNotFoundError:
            raise jinja2.TemplateNotFound(template) from None
        except OSError as exc:
            raise CdplotError(f"{self._where()}{template} cannot be read: {exc.strerror}") from None
        with os.fdopen(fd, "rb") as fh:
            info = os.fstat(fh.fileno())
            if stat.S_ISDIR(info.st_mode):
                raise jinja2.TemplateNotFound(template)
            if not stat.S_ISREG(info.st_mode):
                raise CdplotError(f"{self._where()}{template} is not a regular file")
            if info.st_size > MAX_TEMPLATE_BYTES:
                raise CdplotError(
                    f"{self._where()}{template} is {info.st_size:,} bytes; templates are "
                    f"limited to {MAX_TEMPLATE_BYTES:,}"
                )
            data = fh.read(MAX_TEMPLATE_BYTES + 1)
        try:
            source = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise CdplotError(
                f"{self._where()}{template} is not UTF-8 text (byte {exc.start})"
            ) from None
        mtime = info.st_mtime

        def uptodate() -> bool:
            try:
                return os.path.getmtime(resolved) == mtime
            except OSError:
                return False

        return source, resolved, uptodate

    def list_templates(self):
        out = []
        for base, _dirs, files in os.walk(self.root):
            for name in files:
                rel = os.path.relpath(os.path.join(base, name), self.root)
                out.append(rel.replace(os.sep, "/"))
        return sorted(out)


class BoundedSandbox(SandboxedEnvironment):
    """Jinja2's sandbox, also refusing ``**`` and ``*`` results too large to build."""

    intercepted_binops = frozenset({"**", "*"})

    def call_binop(self, context, operator, left, right):
        if (
            operator == "**"
            and _is_int(left)
            and _is_int(right)
            and abs(left) > 1
            and right * abs(left).bit_length() > _MAX_POWER_BITS
        ):
            raise SecurityError(f"{left} ** {right} is too large to compute in a template")
        if operator == "*":
            for seq, times in ((left, right), (right, left)):
                if (
                    isinstance(seq, (str, list, tuple))
                    and _is_int(times)
                    and len(seq) * times > _MAX_REPEAT
                ):
                    raise SecurityError(
                        f"repeating a sequence {times:,} times is too large for a template"
                    )
        return super().call_binop(context, operator, left, right)


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _location(exc, root: str) -> str:
    """``name line N: `` of the innermost template frame of ``exc``'s traceback."""
    found = ""
    for frame in traceback.extract_tb(exc.__traceback__):
        filename = frame.filename or ""
        if filename.startswith(root + os.sep):
            found = f"{os.path.relpath(filename, root)} line {frame.lineno}: "
        elif filename.endswith(".j2"):
            found = f"{Path(filename).name} line {frame.lineno}: "
    return found


def check_bounded(template_dir) -> None:
    """Refuse user templates where they cannot be bounded (no ``os.fork``: Windows).

    Raises
    ------
    CdplotError
        One line naming ``template_dir`` and the system.
    """
    if not can_fork():
        raise CdplotError(_no_fork_message(template_dir))


def _no_fork_message(template_dir) -> str:
    return (
        f"{opt('template_dir', str(template_dir))}: user templates run in a child process "
        f"bounded in time and memory, which this system ({sys.platform}) cannot start; leave out "
        f"{opt('template_dir')} to use the bundled templates"
    )


def render_bounded(render, template_dir, template_error, finish=None):
    """Render user templates in a bounded child; every failure becomes a CdplotError.

    Parameters
    ----------
    render : callable
        Takes no argument and returns the rendered text.
    template_dir : Path
        The user's folder (named in messages).
    template_error : callable
        Turns a :class:`jinja2.TemplateError` into a CdplotError.
    finish : callable, optional
        Called in the child with the rendered text, under the same bounds;
        its value (which must pickle) is returned instead of the text.  A
        PDF report lays out and writes its PDF here
        (:func:`cdplot.reporting._pdf.pdf_bytes` with ``max_pages``).

    Returns
    -------
    object
        The rendered text, or ``finish``'s value.

    Raises
    ------
    CdplotError
        One line naming the folder: a template's error (with its template
        and line), a bound exceeded, a failure of ``finish``, or a system
        without ``os.fork``.
    """
    where = f"{opt('template_dir', str(template_dir))}: "
    root = os.path.realpath(template_dir)

    def rendered():
        try:
            return render()
        except CdplotError:
            raise
        except jinja2.TemplateError as exc:
            raise template_error(exc) from None
        except RecursionError as exc:
            raise CdplotError(
                f"{where}{_location(exc, root)}templates include or call each other without end"
            ) from None
        except MemoryError:
            raise
        except Exception as exc:  # noqa: BLE001 - a template's own failure, named in one line
            message = " ".join(str(exc).split())
            raise CdplotError(
                f"{where}{_location(exc, root)}{type(exc).__name__}: {message}"
            ) from None

    def work():
        text = rendered()
        if finish is None:
            return text
        try:
            return finish(text)
        except (CdplotError, MemoryError):
            raise
        except SystemError:
            # under the address-space bound, a C library (Pango, cffi) whose allocation fails
            # returns an error without setting one: the bound, not the page, is what stopped it
            raise MemoryError from None
        except Exception as exc:  # noqa: BLE001 - what the templates made could not be laid out
            message = " ".join(str(exc).split())[:200]
            raise CdplotError(
                f"{where}the page the templates made cannot be laid out: "
                f"{type(exc).__name__}: {message}"
            ) from None

    what = "rendering the templates" if finish is None else "rendering and laying out the templates"
    try:
        return run_bounded(work, seconds=RENDER_SECONDS, memory=RENDER_MEMORY)
    except BoundExceeded as exc:
        raise CdplotError(f"{where}{what} {exc}; simplify the templates") from None
    except NoFork:
        raise CdplotError(_no_fork_message(template_dir)) from None
