"""Number formatting and escaping shared by the tables and the report context.

Every name that comes from the input (methods, data sets, metrics, file
names) is data: the HTML templates escape it through Jinja2's autoescape,
and the LaTeX and Markdown writers escape it here.
"""

from __future__ import annotations

import math
import re

import numpy as np

from ..errors import CdplotError, opt
from ..stats._formatting import format_p

__all__ = [
    "auto_decimals",
    "check_decimals",
    "fmt_number",
    "fmt_rank",
    "fmt_p",
    "latex_escape",
    "markdown_escape",
]

# the widest precision a report prints; scores with more digits are rounded
_MAX_DECIMALS = 6


def check_decimals(decimals, name: str = "decimals"):
    """Return ``decimals`` as an int in 0..10 (or None), else raise :class:`CdplotError`."""
    if decimals is None:
        return None
    if isinstance(decimals, bool) or not isinstance(decimals, (int, np.integer)):
        raise CdplotError(
            f"option {opt(name, decimals)} must be a whole number from 0 to 10", option=name
        )
    if not 0 <= int(decimals) <= 10:
        raise CdplotError(f"option {opt(name, decimals)} is outside 0..10", option=name)
    return int(decimals)


def auto_decimals(values) -> int:
    """A sensible number of decimals for a table of scores.

    The fewest decimals (at most 6) that reproduce every score exactly, so
    a table typed with three decimals prints with three; computed scores
    with long expansions get three significant digits of the largest score
    (AUC 0.8532... prints as 0.853, a percentage 85.32... as 85.3).
    """
    x = np.asarray(values, dtype=float)
    x = x[np.isfinite(x)]
    if x.size == 0:
        return 3
    for d in range(_MAX_DECIMALS + 1):
        if np.all(np.abs(x - np.round(x, d)) <= 1e-9 * np.maximum(1.0, np.abs(x))):
            return d
    largest = float(np.max(np.abs(x)))
    if largest == 0.0:
        return 3
    return int(min(_MAX_DECIMALS, max(0, 2 - math.floor(math.log10(largest)))))


def fmt_number(x, decimals: int) -> str:
    """``x`` with a fixed number of decimals; an en dash for a missing value."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "\u2013"
    if math.isinf(x):
        return "\u221e" if x > 0 else "\u2212\u221e"
    text = f"{x:.{decimals}f}"
    # "-0.000" reads as a sign error
    if text.startswith("-") and float(text) == 0.0:
        text = text[1:]
    return text


def fmt_rank(r: float) -> str:
    """A rank as printed in Demsar's tables: ``4``, ``2.5``, ``2.333``."""
    if abs(r - round(r)) < 1e-9:
        return str(int(round(r)))
    if abs(2 * r - round(2 * r)) < 1e-9:
        return f"{r:.1f}"
    return f"{r:.3f}"


def fmt_p(p) -> str:
    """A p-value for a table cell: four decimals, ``<0.0001`` below that."""
    return format_p(p, missing="\u2013")


_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    # OT1-encoded fonts print < and > as inverted punctuation
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
}
# bidirectional controls reorder text invisibly and stop pdflatex ("Unicode character
# U+202E not set up for use with LaTeX"): printed as the terminal shows them, \u202e
# (the same list as cdplot.plot._tikz.BIDI_CONTROLS)
for _ch in "\u061c\u200e\u200f\u2028\u2029" + "".join(
    map(chr, [*range(0x202A, 0x202F), *range(0x2066, 0x206A)])
):
    _LATEX_SPECIAL[_ch] = rf"\textbackslash{{}}u{ord(_ch):04x}"


def latex_escape(text: str) -> str:
    """Escape the characters LaTeX treats as commands in running text."""
    text = " ".join(str(text).split())  # a newline in a name would end a table row
    return "".join(_LATEX_SPECIAL.get(c, c) for c in text)


# characters that change meaning inside a table cell; "#", "+", "-" and "." only
# matter at the start of a line, which a cell never is
_MARKDOWN_SPECIAL = set("\\`*_[]<>|~")


def markdown_escape(text: str) -> str:
    """Escape Markdown punctuation (and ``|``, which would split a table cell)."""
    text = " ".join(str(text).split())
    out = []
    for c in text:
        if c in _MARKDOWN_SPECIAL:
            out.append("\\" + c)
        else:
            out.append(c)
    return "".join(out)


# the core's sentences spell symbols in ASCII; the report sets them as its tables do
_SYMBOLS = (
    (re.compile(r"\bchi2_F\b"), "\u03c7<sup>2</sup><sub>F</sub>"),
    (re.compile(r"\bF_F\b"), "<i>F</i><sub>F</sub>"),
    (re.compile(r"\balpha\b"), "\u03b1"),
    (re.compile(r"\bcritical value q\b"), "critical value q<sub>\u03b1</sub>"),
    (re.compile(r"\bIman-Davenport\b"), "Iman\u2013Davenport"),
    (re.compile(r"\bShapiro-Wilk\b"), "Shapiro\u2013Wilk"),
    (re.compile(r"\bchi2\("), "\u03c7<sup>2</sup>("),
    (re.compile(r"\btau-b\b"), "\u03c4<sub>b</sub>"),
    # relations, as the tables print them (the text is escaped before these apply)
    (re.compile(r" &lt;= "), " \u2264 "),
    (re.compile(r" &gt;= "), " \u2265 "),
)


def symbols_markup(text: str, names=()):
    """``text`` escaped for HTML, with its ASCII symbols typeset (chi2_F as \u03c7\u00b2_F, ...).

    Parameters
    ----------
    text : str
        A sentence of the core (plain text).
    names : iterable of str
        Method and data-set names in ``text``: left exactly as they are.

    Returns
    -------
    markupsafe.Markup
        Safe HTML: every character of ``text`` escaped before symbols are set.
    """
    from markupsafe import Markup, escape

    names = sorted({n for n in names if n}, key=len, reverse=True)
    # a name counts only as a whole word: a metric called "F" must not split "chi2_F"
    pattern = "(" + "|".join(rf"(?<!\w){re.escape(n)}(?!\w)" for n in names) + ")"
    pieces = re.split(pattern, text) if names else [text]
    out = []
    for i, piece in enumerate(pieces):
        html = str(escape(piece))
        if i % 2 == 0:  # not a name
            for pattern, repl in _SYMBOLS:
                html = pattern.sub(repl, html)
        out.append(html)
    return Markup("".join(out))
