"""The loading layer: every reader of scores, and nothing else (numpy only).

Files (CSV, TSV, JSON, results folders), arrays, mappings, records and
pandas or polars DataFrames (by duck typing) become validated
:class:`ScoreTable` objects; per-fold scores become :class:`FoldScores`.
One table of column names (:mod:`cdplot.io._roles`), one delimiter sniffer
and one set of checks and messages (:mod:`cdplot.io._checks`) serve every
reader.  The statistics core imports from here and never reads a file
itself.
"""

from ._api import as_score_tables
from ._average_ranks import AverageRanks, as_average_ranks, read_average_ranks
from ._files import load_json, read_scores
from ._folds import FoldScores, fold_scores, read_fold_scores, read_records
from ._table import Direction, ScoreTable, ScoreTables, resolve_direction
from ._text import MAX_BYTES, read_text

__all__ = [
    "AverageRanks",
    "Direction",
    "resolve_direction",
    "as_average_ranks",
    "read_average_ranks",
    "MAX_BYTES",
    "FoldScores",
    "ScoreTable",
    "ScoreTables",
    "as_score_tables",
    "fold_scores",
    "load_json",
    "read_fold_scores",
    "read_records",
    "read_scores",
    "read_text",
]
