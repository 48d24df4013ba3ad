"""The score table: methods x data sets, validated and named.

Everything cdplot analyses is a :class:`ScoreTable`.  The readers of this
package build it from files and from in-memory objects (arrays, mappings,
pandas or polars DataFrames, by duck typing), and record in ``notes``
whatever they did to the data (averaged repetitions, dropped incomplete data
sets, decimal commas) so that reports can say so.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import CdplotError

__all__ = ["ScoreTable", "ScoreTables", "Direction", "resolve_direction"]


def _readonly(a) -> np.ndarray:
    a = np.array(a, dtype=float, copy=True)
    a.setflags(write=False)
    return a


@dataclass(frozen=True, kw_only=True)
class ScoreTable:
    """Scores of ``n_methods`` methods on ``n_datasets`` data sets.

    Attributes
    ----------
    values : ndarray, shape (n_datasets, n_methods)
        The scores, read-only; finite unless ``nan_policy`` kept gaps out.
    methods : tuple of str
        Method names, one per column, unique.
    datasets : tuple of str
        Data-set names, one per row, unique.
    metric : str or None
        The measure the scores are of (``"AUC"``, ``"error"``), when known.
    higher_is_better : bool or None
        The direction the source declares (bundled examples do) or that the
        metric's name implies (``rmse``, ``error``, ``loss``, ``time``...:
        lower is better, see ``direction``); ``None`` when neither says, in
        which case higher is better unless the user says otherwise.
    direction : str or None
        Why ``higher_is_better`` was inferred, in words, for every output to
        repeat ("lower is better, inferred from the column name 'rmse'; ...");
        ``None`` when it was declared or not inferred.
    direction_conflict : str or None
        Set when names say opposite directions (the column ``accuracy`` of
        the metric ``error``): the one-line message every analysis raises
        unless ``higher_is_better`` is given explicitly.
    source : str or None
        Where the table came from: a file name, ``"example:NAME"`` or a
        description of the Python object.
    sha256 : str or None
        SHA-256 of the source file, for reproducibility footers.
    notes : tuple of str
        What loading did to the data, in words.
    dropped_datasets : tuple of str
        Data sets removed because they were incomplete (``nan_policy='omit'``,
        ``'omit-fewest'``).
    dropped_methods : tuple of str
        Methods removed because they were incomplete (``nan_policy='omit-methods'``,
        ``'omit-fewest'``).
    repetition_scores : ndarray or None, shape (n_datasets, n_methods, r)
        The score of each repetition (fold, seed, resample) that ``values``
        averages, NaN where a method lacks one; kept only when the reader
        was asked (``keep_repetitions=True``) and the data has repetitions,
        else None.  See :attr:`std` and :attr:`n_repetitions`.
    repetition_labels : tuple of str or None
        The label of each repetition (``"3"``, or ``"1/3"`` for several
        repetition columns); None when no column named them, in which case
        the repetitions are in the order of the rows and not paired across
        methods.
    """

    values: np.ndarray
    methods: tuple[str, ...]
    datasets: tuple[str, ...]
    metric: str | None = None
    higher_is_better: bool | None = None
    direction: str | None = None
    direction_conflict: str | None = None
    source: str | None = None
    sha256: str | None = None
    notes: tuple[str, ...] = field(default=())
    dropped_datasets: tuple[str, ...] = field(default=())
    dropped_methods: tuple[str, ...] = field(default=())
    repetition_scores: np.ndarray | None = None
    repetition_labels: tuple[str, ...] | None = None

    def __post_init__(self):
        object.__setattr__(self, "values", _readonly(self.values))
        object.__setattr__(self, "methods", tuple(str(m) for m in self.methods))
        object.__setattr__(self, "datasets", tuple(str(d) for d in self.datasets))
        object.__setattr__(self, "notes", tuple(self.notes))
        object.__setattr__(self, "dropped_datasets", tuple(self.dropped_datasets))
        object.__setattr__(self, "dropped_methods", tuple(self.dropped_methods))
        if self.repetition_scores is not None:
            object.__setattr__(self, "repetition_scores", _readonly(self.repetition_scores))
        if self.repetition_labels is not None:
            object.__setattr__(
                self, "repetition_labels", tuple(str(x) for x in self.repetition_labels)
            )

    @property
    def n_datasets(self) -> int:
        """Number of data sets (rows)."""
        return self.values.shape[0]

    @property
    def n_methods(self) -> int:
        """Number of methods (columns)."""
        return self.values.shape[1]

    @property
    def n_repetitions(self) -> np.ndarray | None:
        """Repetitions averaged per data set and method, shape (N, k); None if not kept."""
        if self.repetition_scores is None:
            return None
        return np.count_nonzero(~np.isnan(self.repetition_scores), axis=2)

    @property
    def std(self) -> np.ndarray | None:
        """Sample standard deviation (n - 1) over the repetitions, shape (N, k).

        Around the mean in ``values``; NaN where a data set and method has
        a single repetition; None when the repetitions were not kept.
        """
        if self.repetition_scores is None:
            return None
        n = self.n_repetitions
        dev = self.repetition_scores - self.values[:, :, None]
        with np.errstate(invalid="ignore", divide="ignore"):
            var = np.nansum(dev * dev, axis=2) / (n - 1)
        var[n < 2] = np.nan
        return np.sqrt(var)

    def column(self, method: str) -> np.ndarray:
        """Return the scores of one method over all data sets."""
        return self.values[:, self.methods.index(method)]

    def to_dict(self) -> dict:
        """Return a JSON-safe dictionary of the table."""
        return {
            "methods": list(self.methods),
            "datasets": list(self.datasets),
            "scores": self.values.tolist(),
            "metric": self.metric,
            "higher_is_better": self.higher_is_better,
            "direction": self.direction,
            "direction_conflict": self.direction_conflict,
            "source": self.source,
            "sha256": self.sha256,
            "notes": list(self.notes),
            "dropped_datasets": list(self.dropped_datasets),
            "dropped_methods": list(self.dropped_methods),
        }

    def __str__(self) -> str:
        what = f" of {self.metric}" if self.metric else ""
        src = f" from {self.source}" if self.source else ""
        return f"ScoreTable{what}{src}: {self.n_datasets} data sets x {self.n_methods} methods"


@dataclass(frozen=True, kw_only=True)
class Direction:
    """The direction an analysis uses and why, in words for every output.

    Attributes
    ----------
    higher_is_better : bool
        The direction used.
    reason : str
        Short, for captions: ``"lower is better, inferred from the column name 'loss'"``,
        ``"higher is better by default"``, ``"higher is better, as asked"``.
    note : str
        The sentence for the notes of every output, with the option that changes it.
    """

    higher_is_better: bool
    reason: str
    note: str


def resolve_direction(table: ScoreTable, higher_is_better: bool | None) -> Direction:
    """The direction to analyse ``table`` with: the explicit option, else what the data say.

    Every analysis of scores calls this, so the direction is decided, and
    explained, in one place.

    Parameters
    ----------
    table : ScoreTable
        The scores, with what their names say (``higher_is_better``,
        ``direction``, ``direction_conflict``).
    higher_is_better : bool or None
        The analysis' explicit option; None to follow the data.

    Returns
    -------
    Direction
        The direction used, a short reason and the sentence for the notes.

    Raises
    ------
    CdplotError
        When names in the data say opposite directions (``table.direction_conflict``)
        and ``higher_is_better`` is None.
    """

    def cap(text):
        return text[0].upper() + text[1:] + "."

    if higher_is_better is not None:
        hib = bool(higher_is_better)
        word = "higher" if hib else "lower"
        reason = f"{word} is better, as asked"
        option = f"higher_is_better={hib}, --{word}-is-better"
        said = ""
        if table.direction_conflict is not None:
            said = "; the names in the data disagree on the direction"
        elif table.higher_is_better is not None and bool(table.higher_is_better) != hib:
            what = table.direction.split(";")[0] if table.direction else "declared by the data"
            said = f", although the data say otherwise ({what})"
        return Direction(
            higher_is_better=hib, reason=reason, note=cap(f"{reason} ({option}){said}")
        )
    if table.direction_conflict is not None:
        raise CdplotError(table.direction_conflict, option="higher_is_better")
    if table.higher_is_better is not None:
        hib = bool(table.higher_is_better)
        if table.direction:
            return Direction(
                higher_is_better=hib,
                reason=table.direction.split(";")[0],
                note=cap(table.direction),
            )
        reason = f"{'higher' if hib else 'lower'} is better, as the data declare"
        return Direction(
            higher_is_better=hib,
            reason=reason,
            note=cap(f"{reason} (their 'higher_is_better' is {str(hib).lower()})"),
        )
    reason = "higher is better by default"
    return Direction(
        higher_is_better=True,
        reason=reason,
        note=cap(
            f"{reason}: no column, metric or file name says which; pass --lower-is-better "
            f"(higher_is_better=False) if lower scores are better"
        ),
    )


class ScoreTables(tuple[ScoreTable, ...]):
    """The tables a reader returns, one per metric, in the order the metrics appear.

    A tuple of :class:`ScoreTable` (``(table,) = cdplot.read_scores(path)``
    unpacks it, and every function that takes scores takes it whole), with
    two conveniences:

    * data with one metric read like that table: ``read_scores(path).methods``;
      with several, asking for a table's attribute is an error naming the
      metrics, never a silent choice of one;
    * ``tables["AUC"]`` is the table of a metric by its name.
    """

    __slots__ = ()

    def _metrics(self) -> str:
        return ", ".join(repr(t.metric) for t in self)

    def __getattr__(self, name: str) -> Any:
        # dunders and private names are Python's protocols (copy, pickle), never forwarded
        if name.startswith("_") or not hasattr(ScoreTable, name) and name not in _FIELDS:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        if len(self) == 1:
            return getattr(self[0], name)
        raise AttributeError(
            f"these scores hold {len(self)} metrics ({self._metrics()}), one table each: "
            f"pick one (tables[0], tables['{self[0].metric}'] or metric= of the reader) "
            f"before asking for .{name}"
        )

    def __getitem__(self, key):  # type: ignore[override]
        if isinstance(key, str):
            for t in self:
                if t.metric == key:
                    return t
            raise KeyError(f"no metric {key!r} among {self._metrics()}")
        return tuple.__getitem__(self, key)


_FIELDS = frozenset(ScoreTable.__dataclass_fields__)
