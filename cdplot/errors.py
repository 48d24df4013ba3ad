"""The exception and warning types cdplot raises.

Every problem with a user's input is reported as :class:`CdplotError`, a
``ValueError`` subclass, with a one-line message that says where the problem
is (file, row, column or option), what is wrong and the value received.  The
command-line interface turns it into that line on stderr and exit status 2.
"""

__all__ = ["CdplotError", "CdplotWarning", "FigureSizeWarning"]


class CdplotError(ValueError):
    """A wrong input or option; the message is one line and names the culprit."""


class CdplotWarning(UserWarning):
    """Something the user should know about that does not stop the analysis."""


class FigureSizeWarning(CdplotWarning):
    """A figure is larger than its style's page or slide allows.

    The figure is drawn; the message names its size and what would make it
    fit.  Reports, which split and place figures themselves, do not pass it
    on; filter it with ``warnings.filterwarnings("ignore",
    category=FigureSizeWarning)`` where a tall figure is what you want.
    """
