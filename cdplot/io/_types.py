"""The types of what the readers accept, for annotations: a checker then refuses ``compare(123)``.

Only names for annotations live here; what each form means is documented once,
in :func:`cdplot.io.as_score_tables`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, TypeAlias

import numpy as np

from ._table import ScoreTable

__all__ = ["DataFrameLike", "PathLike", "ScoresLike", "Names"]


class DataFrameLike(Protocol):
    """A pandas or polars DataFrame, recognised by duck typing (pandas is never imported)."""

    @property
    def columns(self) -> Any: ...

    @property
    def shape(self) -> tuple[int, ...]: ...


#: a file or results folder
PathLike: TypeAlias = str | os.PathLike[str]

#: method or data-set names: a sequence of str (a bare str is refused at run time)
Names: TypeAlias = Sequence[str]

#: every form of scores :func:`cdplot.io.as_score_tables` reads; a bare number is none of them
ScoresLike: TypeAlias = (
    ScoreTable
    | Sequence[ScoreTable]
    | np.ndarray[Any, Any]
    | Sequence[Sequence[float | None] | np.ndarray[Any, Any]]
    | Sequence[Mapping[str, Any]]
    | Mapping[str, Any]
    | DataFrameLike
    | str
    | os.PathLike[str]
)
