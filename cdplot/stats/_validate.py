"""Input checks shared by the low-level statistics functions.

:func:`cdplot.compare` reads its scores through the score-table readers,
which refuse missing and infinite cells with one line that names them.  The
low-level functions (``rank_data``, ``friedman``, ``nemenyi``, ...) take
plain arrays; without these checks a NaN would silently sort last and
produce a p-value from data that has a hole in it.
"""

from __future__ import annotations

import math
import os

import numpy as np

from ..errors import CdplotError, opt

#: How many offending cells a message lists before it says "and N more".
_SHOW = 5


def _cells(mask: np.ndarray) -> str:
    where = np.argwhere(mask)
    shown = ", ".join(f"'dataset {i + 1}'/'method {j + 1}'" for i, j in where[:_SHOW])
    more = len(where) - _SHOW
    return shown + (f" and {more} more" if more > 0 else "")


def finite_table(scores, name: str = "scores") -> np.ndarray:
    """``scores`` as a float (N, k) array, or a one-line :class:`CdplotError`.

    Missing (NaN) cells get the message :func:`cdplot.compare` gives, naming
    the cells as ``'dataset i'/'method j'`` (1-based, as the readers name
    unlabelled rows and columns).
    """
    try:
        x = np.asarray(scores, dtype=float)
    except (TypeError, ValueError):
        raise CdplotError(f"{name} is not a table of numbers: {scores!r:.80}") from None
    if x.ndim != 2:
        raise CdplotError(f"{name} must be a 2-D table (data sets x methods), got shape {x.shape}")
    bad = ~np.isfinite(x)
    if bad.any():
        missing = np.isnan(x)
        if missing.any():
            n = int(missing.sum())
            raise CdplotError(
                f"{name}: {n} missing score{'s' if n != 1 else ''} (data set/method): "
                f"{_cells(missing)}; fill them in or use cdplot.compare(..., "
                f"{opt('nan_policy', 'omit')}) to drop those data sets",
                option="nan_policy",
            )
        i, j = np.argwhere(bad)[0]
        raise CdplotError(
            f"{name}: 'dataset {i + 1}'/'method {j + 1}': {float(x[i, j])!r} is not finite"
        )
    return x


def finite_vector(values, name: str) -> np.ndarray:
    """A finite 1-D float array (average ranks), or a one-line :class:`CdplotError`."""
    try:
        x = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise CdplotError(f"{name} is not an array of numbers: {values!r:.80}") from None
    if x.ndim != 1:
        raise CdplotError(f"{name} must be one-dimensional, got shape {x.shape}")
    if not np.all(np.isfinite(x)):
        i = int(np.flatnonzero(~np.isfinite(x))[0])
        raise CdplotError(f"{name}[{i}] = {float(x[i])!r} is not finite; average ranks must be")
    return x


def whole_number(value, name: str, *, minimum: int, what: str, why: str = "") -> int:
    """``value`` as an ``int`` of at least ``minimum``, or a one-line :class:`CdplotError`.

    For the counts (methods, data sets) that the low-level functions take
    beside their arrays: a NaN or an infinity would otherwise reach
    ``int()`` and raise a bare ``ValueError`` or ``OverflowError``, and a
    fraction would be truncated silently.

    Parameters
    ----------
    value : int or float
        The count as given.
    name : str
        How the message names it, e.g. ``'option n_datasets'``.
    minimum : int
        The smallest count allowed.
    what : str
        What it counts, plural (``'data sets'``).
    why : str, optional
        Why ``minimum`` is needed, said when the count is below it.
    """
    # "option n_datasets" names a keyword; "the number of methods k" a quantity
    prefix, keyword = ("option ", name[7:]) if name.startswith("option ") else ("", name)
    option = keyword if keyword.isidentifier() else None
    if isinstance(value, bool) or not isinstance(value, (int, np.integer, float, np.floating)):
        raise CdplotError(
            f"{prefix}{opt(keyword, value)} must be the number of {what} (an integer of at least "
            f"{minimum})",
            option=option,
        )
    if not math.isfinite(value) or int(value) != value:
        raise CdplotError(
            f"{prefix}{opt(keyword, value)} is not a whole number of {what}", option=option
        )
    if value < minimum:
        raise CdplotError(
            f"{prefix}{opt(keyword, value)}: {why or f'there must be at least {minimum} {what}'}",
            option=option,
        )
    return int(value)


#: Scores beyond this magnitude are scaled by a power of two before sums,
#: differences and squares: above about 1.3e154 a square overflows, above
#: 8.9e307 a difference or a sum of two.  Below it nothing is scaled, so
#: ordinary data give bit-identical results.
LARGE = 2.0**500


def pow2_scale(*arrays) -> float:
    """A power of two ``s`` with ``max |x| * s <= 1``, or 1 when the values are not large.

    Multiplying by a power of two is exact (short of the subnormal range), so
    order, ties and ratios such as ``t`` and ``F`` are unchanged.
    """
    top = max((float(np.max(np.abs(a))) for a in arrays if np.size(a)), default=0.0)
    if not top < np.inf or top < LARGE:
        return 1.0
    return math.ldexp(1.0, -math.frexp(top)[1])


def stable_mean(x) -> float:
    """The mean of finite ``x`` without overflow (a mean never exceeds the largest value)."""
    x = np.asarray(x, dtype=float)
    s = pow2_scale(x)
    return float(np.mean(x * s) / s)


def refuse_large(name: str, *arrays) -> None:
    """One-line error when sums of squares of ``arrays`` would overflow (|x| >= 2**500)."""
    top = max((float(np.max(np.abs(a))) for a in arrays if np.size(a)), default=0.0)
    if top >= LARGE:
        raise CdplotError(
            f"{name}: scores as large as {top:.3g} make its sums of squares overflow "
            f"(the limit is about {LARGE:.3g}); rescale the scores, e.g. divide them by a "
            "power of ten"
        )


#: k x k float64 matrices a comparison holds at once: statistics, raw and adjusted
#: p-values, significance, directions, effect sizes, and numpy's temporaries
PAIRWISE_MATRICES = 8


def physical_memory() -> int | None:
    """Bytes of memory of this machine, or None where the system does not say."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):  # Windows has no sysconf
        return None


def _gib(n: float) -> str:
    return f"{n / (1 << 30):,.1f} GiB"


def check_pairwise_size(k: int, what: str = "the comparison") -> None:
    """One-line error when ``k`` methods' k x k matrices would not fit in memory.

    Every pairwise analysis holds several k x k arrays of floats; with 100,000
    methods one of them is 74.5 GiB, and numpy would fail (or the system would
    start swapping) halfway through.  Checked before any is allocated, the
    message says the size needed.
    """
    need = PAIRWISE_MATRICES * 8 * k * k
    have = physical_memory()
    if have is not None and need > have:
        raise CdplotError(
            f"{what} of {k:,} methods needs about {_gib(need)} of memory for its {k:,} x {k:,} "
            f"matrices of pairwise comparisons, more than the {_gib(have)} of this machine; "
            f"compare fewer methods ({opt('methods')} or {opt('exclude')})",
            option="methods",
        )
