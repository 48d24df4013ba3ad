"""The one p-value formatter of cdplot.

Sentences (``p = 0.0123``), table cells (``0.0123``, ``<0.0001``), heatmap
cells (rounded so that the text stays in its cell's colour class) and
figure captions (``p = 0.0123`` with no-break spaces) all call
:func:`format_p` with different options, so a p-value reads the same way
wherever it is printed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal

__all__ = ["format_p"]


#: Significant digits that every double holds exactly as a decimal (C's DBL_DIG):
#: rounding to them first removes the last-bit noise of a computation and nothing else.
_DECIMAL_DIGITS = 15


def _rounded(p: float, digits: int, significant: bool = False) -> str:
    """``p`` rounded half away from zero on its decimal value, as tables round.

    ``f"{p:.4f}"`` rounds the binary value: the sign test's 11/32 comes out of
    the binomial sum as 0.34374999999999994 (``repr``, one unit in the last
    place below 0.34375) and prints as 0.3437, where the p-value 11/32 rounds
    to 0.3438.  Even ``repr`` keeps that noise, so the value is read at 15
    significant digits (which every double holds exactly) and then rounded
    half up; a p-value that truly lies below a half, such as 0.3437499, still
    rounds down.
    """
    exact = Decimal(f"{p:.{_DECIMAL_DIGITS}g}")
    if significant:
        if exact == 0:
            return f"{p:.{digits}g}"
        step = Decimal(1).scaleb(exact.adjusted() - digits + 1)
        return f"{float(exact.quantize(step, rounding=ROUND_HALF_UP)):.{digits}g}"
    return f"{exact.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP):.{digits}f}"


def _class(p: float, levels) -> int:
    return next((n for n, t in enumerate(levels) if p <= t), len(levels))


def format_p(
    p: float | None,
    *,
    digits: int = 4,
    significant: bool = False,
    prefix: bool = False,
    space: str = " ",
    missing: str = "n/a",
    levels: Sequence[float] | None = None,
) -> str:
    """Format a p-value.

    Parameters
    ----------
    p : float or None
        The p-value.
    digits : int, default 4
        Decimals (or significant digits with ``significant``); values below
        ``10**-digits`` print as ``<0.0001`` (for ``digits=4``).
    significant : bool, default False
        Round to ``digits`` significant digits instead of decimals.
    prefix : bool, default False
        Write ``p = 0.0123`` and ``p < 0.0001`` instead of ``0.0123`` and
        ``<0.0001``.
    space : str, default ' '
        The space around ``=`` and ``<`` with ``prefix`` (a no-break space
        keeps a caption's ``p = ...`` on one line).
    missing : str, default 'n/a'
        The text for ``None`` or NaN (tables use an en dash).
    levels : sequence of float, optional
        Upper bounds of colour classes (ascending): more decimals are shown
        where ``digits`` would round the value into another class (0.0501 as
        ``0.050`` in a "p > 0.05" cell).

    Returns
    -------
    str

    Examples
    --------
    >>> format_p(0.01234, prefix=True)
    'p = 0.0123'
    >>> format_p(0.00001)
    '<0.0001'
    >>> format_p(0.0501, digits=3, levels=[0.001, 0.01, 0.05])
    '0.0501'
    >>> format_p(0.34374999999999994)  # 11/32 less 2**-54: half away from zero, as 11/32
    '0.3438'
    >>> format_p(float("nan"), missing="\u2013")
    '\u2013'
    """
    if p is None or math.isnan(p):
        return missing
    p = float(p)
    floor = 10.0**-digits
    floor_text = f"{floor:.{digits}f}"
    if p < floor and (levels is None or levels[0] >= floor):
        return f"p{space}<{space}{floor_text}" if prefix else f"<{floor_text}"
    if levels is not None:
        cls = _class(p, levels)
        for d in range(digits, digits + 5):
            text = _rounded(p, d)
            if _class(float(text), levels) == cls:
                break
        else:
            text = _rounded(p, digits, significant=True)
    elif significant:
        text = _rounded(p, digits, significant=True)
    else:
        text = _rounded(p, digits)
    return f"p{space}={space}{text}" if prefix else text
