"""Validation of keyword options shared by every public function.

One helper per kind of option keeps the wording of error messages identical
across the library and the command line (``--alpha`` and ``alpha=`` fail
with the same sentence).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from .errors import CdplotError

__all__ = ["check_option", "check_alpha", "check_bool", "MIN_DPI", "MAX_DPI"]

# resolution of PNG output: below 10 dpi a figure is a few pixels wide (0.001 gives none,
# which Agg refuses); above 2400 a wide figure passes Agg's 2**16-pixel limit
MIN_DPI, MAX_DPI = 10, 2400


def check_option(name: str, value, options: Iterable, *, allow_none: bool = False):
    """Return ``value`` if it is one of ``options``, else raise :class:`CdplotError`.

    Options are lowercase strings with no aliases, as seaborn's
    ``_check_argument`` does, so that one spelling is documented once.
    """
    options = tuple(options)
    if value is None and allow_none:
        return None
    if value not in options:
        choices = ", ".join(repr(o) for o in options)
        if allow_none:
            choices += " or None"
        raise CdplotError(f"option {name}={value!r} is not valid; expected one of {choices}")
    return value


def check_alpha(alpha, name: str = "alpha") -> float:
    """Return ``alpha`` as a float strictly between 0 and 1."""
    try:
        value = float(alpha)
    except (TypeError, ValueError):
        raise CdplotError(
            f"option {name}={alpha!r} is not a number; expected a value in (0, 1)"
        ) from None
    if not (0.0 < value < 1.0) or math.isnan(value):
        raise CdplotError(f"option {name}={alpha!r} is outside (0, 1)")
    return value


def check_bool(name: str, value) -> bool:
    """Return ``value`` if it is a bool (numpy bools included)."""
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        return bool(value)
    raise CdplotError(f"option {name}={value!r} must be True or False")
