"""What every result object of the statistics core shares.

One small module, imported by every result class, so that the results behave
alike: frozen keyword-only dataclasses (:data:`result`) with read-only arrays
and mappings, :meth:`Result.to_json`, a one-line ``repr``, an escaped HTML
table for Jupyter, an ``==`` that compares arrays element by element, and
notes printed one per line under a "Notes:" heading.  It imports numpy only,
and nothing of reporting (the HTML is built with :func:`html.escape`).
"""

from __future__ import annotations

import dataclasses
import html
import json
import math
import textwrap
from collections.abc import Mapping
from types import MappingProxyType

import numpy as np

from .._options import JSON_MATRIX_MAX_METHODS
from ..errors import CdplotError
from ._cliques import Bridges

__all__ = [
    "JSON_MATRIX_MAX_METHODS",
    "json_matrices",
    "result",
    "Result",
    "num",
    "readonly",
    "readonly_mapping",
    "tuples",
    "jsonable",
    "values_equal",
    "wrap",
    "join_names",
    "sentence",
    "notes_lines",
    "matrix_dict",
    "method_index",
]

#: The decorator of every result class: frozen, keyword-only; ``Result``
#: supplies ``__eq__`` and ``__repr__``, so the dataclass makes neither.
result = dataclasses.dataclass(frozen=True, kw_only=True, eq=False, repr=False)

#: Longest one-line ``repr`` before it is shortened.
REPR_MAX = 200


def num(x) -> float | None:
    """A float for JSON: ``None`` for NaN, infinities or missing."""
    if x is None:
        return None
    x = float(x)
    return x if math.isfinite(x) else None


def readonly(a, dtype=float) -> np.ndarray:
    """A read-only copy of ``a`` as an array of ``dtype``.

    An array that is already read-only and owns its data is kept as it is: no
    one can write it, and at thousands of methods each (k, k) copy costs 200 MB.
    """
    if isinstance(a, np.ndarray) and a.dtype == dtype and not a.flags.writeable and a.flags.owndata:
        return a
    a = np.array(a, dtype=dtype, copy=True)
    a.setflags(write=False)
    return a


def readonly_mapping(d) -> Mapping:
    """A read-only view of a copy of ``d`` (a result's ``options`` cannot be changed)."""
    return MappingProxyType(dict(d or {}))


def tuples(items) -> tuple:
    """``items`` as a tuple of tuples, without copying when it already is one;
    a lazy :class:`~cdplot.stats._cliques.Bridges` is kept as it is (listing its
    hundreds of thousands of triples is what it saves)."""
    if isinstance(items, Bridges):
        return items
    if isinstance(items, tuple) and all(type(x) is tuple for x in items):
        return items
    return tuple(map(tuple, items))


def jsonable(x):
    """``x`` with mappings as dicts, sequences and arrays as lists, NaN as ``None``."""
    if isinstance(x, Mapping):
        return {str(k): jsonable(v) for k, v in x.items()}
    if isinstance(x, np.ndarray):
        return jsonable(x.tolist())
    if isinstance(x, list | tuple):
        return [jsonable(v) for v in x]
    if isinstance(x, bool | np.bool_):
        return bool(x)
    if isinstance(x, int | np.integer):
        return int(x)
    if isinstance(x, float | np.floating):
        return num(x)
    return x


def values_equal(a, b) -> bool:
    """Whether two field values are equal: arrays element by element (NaN equals NaN),
    results and dataclasses field by field; never raises."""
    if a is b:
        return True
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        if a.shape != b.shape:
            return False
        try:
            return bool(np.array_equal(a, b, equal_nan=True))
        except TypeError:  # equal_nan needs numbers
            return bool(np.array_equal(a, b))
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        if type(a) is not type(b):
            return False
        return all(
            values_equal(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a)
        )
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(values_equal(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(values_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return False


def wrap(text: str, width: int = 88) -> list[str]:
    """``text`` as lines of at most ``width`` characters, never breaking a word."""
    return textwrap.wrap(text, width=width, break_long_words=False, break_on_hyphens=False)


def join_names(names) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def sentence(text: str) -> str:
    """``text`` as a full sentence: a capital first letter and a final full stop."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def notes_lines(notes, width: int = 88) -> list[str]:
    """A blank line, ``Notes:`` and each note as a sentence on its own (wrapped) lines."""
    if not notes:
        return []
    out = ["", "Notes:"]
    for note in notes:
        lines = wrap(sentence(note), width - 4) or [""]
        out.append("  - " + lines[0])
        out += ["    " + line for line in lines[1:]]
    return out


def json_matrices(matrices: bool | None, n_methods: int) -> tuple[bool, str]:
    """Whether ``to_dict(matrices=...)`` includes the k x k matrices, and if not, why.

    ``None`` (the default) includes them up to :data:`JSON_MATRIX_MAX_METHODS`
    methods; the reason ends every ``*_omitted`` key's words, so that a file
    says whether it was asked to leave them out or had too many methods.
    """
    if matrices is None:
        if n_methods <= JSON_MATRIX_MAX_METHODS:
            return True, ""
        return False, (
            f"left out above {JSON_MATRIX_MAX_METHODS} methods (matrices=True, or --matrices, "
            "keeps them)"
        )
    if matrices:
        return True, ""
    return False, "left out on request (matrices=False, or --no-matrices)"


def matrix_dict(matrix: np.ndarray, names) -> dict:
    """``{row name: {column name: value}}``, NaN as ``None``, built row by row in C
    (``dict(zip(...))``) so that thousands of methods stay O(k^2) with a small constant."""
    rows = np.where(np.isnan(matrix), None, matrix.astype(object)).tolist()
    return {a: dict(zip(names, row, strict=True)) for a, row in zip(names, rows, strict=True)}


def method_index(methods, method: str) -> int:
    """Position of ``method`` in ``methods``; :class:`CdplotError` naming them otherwise."""
    try:
        return tuple(methods).index(method)
    except ValueError:
        raise CdplotError(
            f"unknown method {method!r}; methods are {', '.join(map(str, methods))}"
        ) from None


def _rebuild(cls, kwargs):
    """Unpickle a result (see :meth:`Result.__reduce__`)."""
    return cls(**kwargs)


def _html_value(v) -> str:
    if isinstance(v, float):
        return f"{v:.6g}"
    if v is None:
        return "\u2013"
    return str(v)


class Result:
    """Behaviour shared by every result class (used with the :data:`result` decorator).

    A subclass defines ``to_dict()`` and ``__str__``, and ``_headline()``: what
    was compared and the headline numbers, for the one-line ``repr``.
    """

    __slots__ = ()

    def _headline(self) -> str:  # pragma: no cover - every result defines its own
        return ""

    def to_dict(self) -> dict:  # pragma: no cover - every result defines its own
        raise NotImplementedError

    def to_json(self, *, indent: int | None = 2) -> str:
        """Return :meth:`to_dict` as a JSON string."""
        # to_dict() is JSON-safe already; ``default`` only meets what it left (numpy
        # scalars, read-only mappings), so large results are not walked twice
        return json.dumps(
            self.to_dict(), indent=indent, ensure_ascii=False, allow_nan=False, default=jsonable
        )

    def __repr__(self) -> str:
        text = " ".join(f"<{type(self).__name__}: {self._headline()}>".split())
        if len(text) > REPR_MAX:
            text = text[: REPR_MAX - 4] + "...>"
        return text

    def __eq__(self, other) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(
            values_equal(getattr(self, f.name), getattr(other, f.name))
            for f in dataclasses.fields(self)
        )

    # equal results need equal hashes, and arrays have none: results are unhashable
    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self):
        # a read-only mapping cannot be pickled: rebuild from plain fields, so that
        # pickle, copy.deepcopy and process pools work and __post_init__ makes the
        # arrays and mappings read-only again
        kwargs = {
            f.name: dict(v) if isinstance(v, MappingProxyType) else v
            for f in dataclasses.fields(self)
            for v in (getattr(self, f.name),)
        }
        return (_rebuild, (type(self), kwargs))

    def _html_rows(self) -> list[tuple[str, str]]:
        """``(label, value)`` rows of the HTML table: the scalar entries of ``to_dict()``."""
        rows = []
        methods = getattr(self, "methods", None)
        if isinstance(methods, tuple) and methods:
            order = getattr(self, "order", None)
            try:
                shown = order() if callable(order) else methods
            except TypeError:  # an order per metric: input order
                shown = methods
            rows.append(("methods", ", ".join(map(str, shown))))
        for key, value in self.to_dict().items():
            if key in ("notes", "conclusion"):
                continue
            if value is None or isinstance(value, str | int | float | bool):
                rows.append((key.replace("_", " "), _html_value(value)))
        return rows

    def _repr_html_(self) -> str:
        """A small HTML table for Jupyter; every name and value is escaped."""
        esc = html.escape
        rows = "".join(
            f"<tr><th style='text-align:left'>{esc(k)}</th><td>{esc(v)}</td></tr>"
            for k, v in self._html_rows()
        )
        conclusion = getattr(self, "conclusion", None)
        text = conclusion() if callable(conclusion) else ""
        notes = getattr(self, "notes", ()) or ()
        notes_html = "".join(f"<li>{esc(sentence(n))}</li>" for n in notes)
        return (
            f"<div class='cdplot-result'><strong>{esc(type(self).__name__)}: "
            f"{esc(self._headline())}</strong><table>{rows}</table>"
            + (f"<p>{esc(text)}</p>" if text else "")
            + (f"<p>Notes:</p><ul>{notes_html}</ul>" if notes_html else "")
            + "</div>"
        )
