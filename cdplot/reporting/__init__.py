"""Reports: every statistic, figure and conclusion of an analysis in one HTML or PDF file.

This package only composes: the statistics come from :mod:`cdplot.stats`,
the figures from :mod:`cdplot.plot`, the layout from the Jinja2 templates in
``templates/`` (``cdplot/_data/templates`` when installed).  jinja2,
matplotlib and weasyprint are imported inside the functions that need them,
and :mod:`cdplot` loads this package only when a report is asked for.

The package is named ``reporting`` so that ``cdplot.report`` is always the
function :func:`report`, whatever was imported before.
"""

from ._effect_table import effect_size_table
from ._jupyter import repr_html
from ._references import bibtex, methods_paragraph
from ._render import render_html, report
from ._tables import data_table

__all__ = [
    "report",
    "render_html",
    "data_table",
    "effect_size_table",
    "methods_paragraph",
    "bibtex",
    "repr_html",
]
