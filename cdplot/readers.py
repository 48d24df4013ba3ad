"""Reading score tables from files; the readers live in :mod:`cdplot.io`.

Kept so that ``from cdplot.readers import read_scores`` goes on working.
"""

from .io import read_scores, read_text

__all__ = ["read_scores", "read_text"]
