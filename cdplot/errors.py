"""The exception and warning types cdplot raises.

Every problem with a user's input is reported as :class:`CdplotError`, a
``ValueError`` subclass, with a one-line message that says where the problem
is (file, row, column or option), what is wrong and the value received.  The
command-line interface turns it into that line on stderr and exit status 2.

Messages quote names from the input, and a name may be a quarter of a
megabyte: :func:`bounded` cuts every long quoted text or unbroken word of a
message, so that one line stays a line a person can read.
"""

__all__ = ["CdplotError", "CdplotWarning", "FigureSizeWarning", "bounded", "shown"]

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


class CdplotError(ValueError):
    """A wrong input or option; the message is one line and names the culprit.

    Long names in the message are cut by :func:`bounded`.
    """

    def __init__(self, *args):
        if len(args) == 1 and isinstance(args[0], str):
            args = (bounded(args[0]),)
        super().__init__(*args)


class CdplotWarning(UserWarning):
    """Something the user should know about that does not stop the analysis."""


class FigureSizeWarning(CdplotWarning):
    """A figure is larger than its style's page or slide allows.

    The figure is drawn; the message names its size and what would make it
    fit.  Reports, which split and place figures themselves, do not pass it
    on; filter it with ``warnings.filterwarnings("ignore",
    category=FigureSizeWarning)`` where a tall figure is what you want.
    """
