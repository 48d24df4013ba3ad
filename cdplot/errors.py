"""The exception and warning types cdplot raises.

Every problem with a user's input is reported as :class:`CdplotError`, a
``ValueError`` subclass, with a one-line message that says where the problem
is (file, row, column or option), what is wrong and the value received.  The
command-line interface turns it into that line on stderr and exit status 2.

Messages quote names from the input, and a name may be a quarter of a
megabyte: :func:`bounded` cuts every long quoted text or unbroken word of a
message, so that one line stays a line a person can read.

A message names an option through :func:`opt`, never by spelling it out: the
option is written when the message is, in the voice of whoever will read it.
In Python that is the keyword a caller types (``test='friedman-z'``); while
the ``cdplot`` command runs, it installs its own voice with :func:`spoken_as`
and the same message says ``--test friedman-z``.  No message is rewritten
after it is written.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

__all__ = [
    "CdplotError",
    "CdplotWarning",
    "FigureSizeWarning",
    "Option",
    "Phrase",
    "bounded",
    "opt",
    "shown",
    "spoken_as",
]

#: Longest quoted text or unbroken word a message shows whole (a long file path fits).
NAME_LIMIT = 200

# a quoted text as repr() writes it (not an apostrophe: no letter right before the quote),
# or a run of characters without a space (argparse lists unknown arguments unquoted)
_QUOTED_OR_WORD = (
    r"""(?<![\w])(?P<quoted>'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")|(?P<word>[^\s'"]+)"""
)


def _cut(text: str, limit: int) -> str:
    head = max(limit - 50, 8)
    return f"{text[:head]}...{text[-(limit - head - 20) :]} ({len(text):,} characters)"


def bounded(message: str, limit: int = NAME_LIMIT) -> str:
    """``message`` with each quoted text or word longer than ``limit`` characters cut.

    The cut keeps the start and the end of the text (with its closing quote) around
    ``...`` and says how long it was, as ``'aaaa...zz' (280,000 characters)``.
    Applying it twice changes nothing more.
    """
    if len(message) <= limit:
        return message

    def cut(m):
        text = m[0]
        return text if len(text) <= limit else _cut(text, limit)

    # imported here, on the first long message: ``python -m cdplot`` imports this module
    # before the command line catches Ctrl-C, and that window stays as short as it was
    # (re and enum: 4 ms); re caches the compiled pattern
    import re

    message = re.sub(_QUOTED_OR_WORD, cut, message)
    # a list of 100,000 short names: keep the start (where, what) and the end (the advice)
    if len(message) > 5 * limit:
        left_out = len(message) - 4 * limit
        message = (
            f"{message[: 3 * limit]} ...({left_out:,} characters left out)... {message[-limit:]}"
        )
    return message


def shown(value, limit: int = 60) -> str:
    """``repr(value)``, cut to about ``limit`` characters so that one line stays one line."""
    text = repr(value)
    if len(text) > limit:
        text = f"{text[: limit - 20]}...{text[-12:]} ({len(str(value)):,} characters)"
    return text


# annotations only: importing typing for Any costs `cdplot --version` 2 ms (a third of
# what it adds to the interpreter); type checkers treat TYPE_CHECKING = False as True
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    #: A voice: ``(name, value, given) -> text``, or None where it has no word for ``name``.
    Voice = Callable[[str, Any, bool], "str | None"]

# the voice options are written in; None is Python's (the keyword a caller types)
_voice: Voice | None = None


@contextlib.contextmanager
def spoken_as(voice: Voice) -> Iterator[None]:
    """Write every :func:`opt` formatted inside the block with ``voice``.

    A module global, not a context variable: messages written by worker threads
    of the command speak with the command's voice as well.
    """
    global _voice
    saved, _voice = _voice, voice
    try:
        yield
    finally:
        _voice = saved


_NO_VALUE = object()


class Option:
    """An option named in a message; see :func:`opt`.

    Formatting it (``f"pass {opt('score_col')}"``) writes it in the current voice.
    """

    __slots__ = ("name", "value", "given")

    def __init__(self, name: str, value: Any = _NO_VALUE):
        self.name = name
        self.given = value is not _NO_VALUE
        self.value = value if self.given else None

    def python(self) -> str:
        """The keyword as a Python caller writes it: ``test='nemenyi'``, or ``score_col=``."""
        return f"{self.name}={self.value!r}" if self.given else f"{self.name}="

    def __str__(self) -> str:
        voice = _voice
        spoken = voice(self.name, self.value, self.given) if voice is not None else None
        return self.python() if spoken is None else spoken

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __repr__(self) -> str:
        value = f", {self.value!r}" if self.given else ""
        return f"opt({self.name!r}{value})"


class Phrase:
    """Text with options in it, written when it is formatted (in the voice of that moment).

    For words kept apart from their message, such as a table of advice made once:
    ``Phrase("use ", opt("style", "paper-wide"))``.
    """

    __slots__ = ("parts",)

    def __init__(self, *parts: object):
        self.parts = parts

    def __str__(self) -> str:
        return "".join(str(part) for part in self.parts)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __repr__(self) -> str:
        return f"Phrase{self.parts!r}"


def opt(name: str, value: Any = _NO_VALUE) -> Option:
    """The option ``name`` (a Python keyword), with the value it had or should have.

    ``f"use {opt('test', 'friedman-z')}"`` reads ``use test='friedman-z'`` in Python
    and ``use --test friedman-z`` on the command line; without a value,
    ``f"pass {opt('score_col')}"`` reads ``pass score_col=`` or ``pass --score-col``.
    """
    return Option(name, value)


class CdplotError(ValueError):
    """A wrong input or option; the message is one line and names the culprit.

    Long names in the message are cut by :func:`bounded`.

    Parameters
    ----------
    message : str
        One line: where, what is wrong, the value received and what fixes it.
        Options are named with :func:`opt`, so that the command line names its flags.
    option : str, optional
        The keyword of the option the error concerns (``"method_col"``), for
        programs that handle the error; also :attr:`option`.
    """

    #: The keyword of the option the error concerns, or None.
    option: str | None

    def __init__(self, *args, option: str | None = None):
        if len(args) == 1 and isinstance(args[0], str):
            args = (bounded(args[0]),)
        super().__init__(*args)
        self.option = option


class CdplotWarning(UserWarning):
    """Something the user should know about that does not stop the analysis."""


class FigureSizeWarning(CdplotWarning):
    """A figure is larger than its style's page or slide allows.

    The figure is drawn; the message names its size and what would make it
    fit.  Reports, which split and place figures themselves, do not pass it
    on; filter it with ``warnings.filterwarnings("ignore",
    category=FigureSizeWarning)`` where a tall figure is what you want.
    """
