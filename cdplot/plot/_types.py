"""Types of the plotting functions' parameters, for type checkers (no run-time cost).

Only annotations name them (``from __future__ import annotations``), and the
modules import this one under ``TYPE_CHECKING``: drawing imports nothing more.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any, TypeAlias

from matplotlib.axes import Axes
from matplotlib.figure import Figure

from .._options import Font
from ..io._types import ScoresLike
from ..stats import AutoResult, ComparisonResult, MetricsComparison, RankComparison

__all__ = [
    "Axes",
    "Figure",
    "FontLike",
    "Highlight",
    "Highlights",
    "Kws",
    "MetricsLike",
    "ResultLike",
]

#: What a figure of many methods draws: a result, or raw scores analysed with compare_kws
ResultLike: TypeAlias = ComparisonResult | RankComparison | AutoResult | ScoresLike
#: A figure of several metrics: compare_metrics' result, or raw scores of several metrics
MetricsLike: TypeAlias = MetricsComparison | ScoresLike
#: The bundled 'sans' or 'serif', a font file's path or an installed family's name
FontLike: TypeAlias = Font | str | os.PathLike[str] | None
#: The method to draw in the accent colour
Highlight: TypeAlias = str | None
#: cd_diagram: one method, several, or methods mapped to colours or group names
Highlights: TypeAlias = str | Sequence[str] | Mapping[str, str] | None
#: Keyword arguments passed on to matplotlib (as seaborn's ``*_kws``)
Kws: TypeAlias = Mapping[str, Any] | None
