"""The score table the statistics core analyses; defined and built in :mod:`cdplot.io`.

Kept so that ``from cdplot.stats.scores import ScoreTable, as_score_tables``
goes on working; the core itself reads no files.
"""

from ..io import ScoreTable, as_score_tables

__all__ = ["ScoreTable", "as_score_tables"]
