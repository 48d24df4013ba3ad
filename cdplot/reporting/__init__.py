"""Reports: every statistic, figure and conclusion of an analysis in one HTML or PDF file.

This package only composes: the statistics come from :mod:`cdplot.stats`,
the figures from :mod:`cdplot.plot`, the layout from the Jinja2 templates in
``templates/`` (``cdplot/_data/templates`` when installed).  jinja2 and
weasyprint are imported inside the functions that need them.

The package is named ``reporting`` so that ``cdplot.report`` is always the
function :func:`report`, whatever was imported before.  Its names load
lazily (PEP 562, as :mod:`cdplot` does): ``cdplot report`` imports the light
:mod:`cdplot.reporting.pdf_writer` and forks its writer process before
numpy and the rest of cdplot are imported.
"""

from .._lazy import attach

_LAZY = {
    "report": "cdplot.reporting.render",
    "render_html": "cdplot.reporting.render",
    "data_table": "cdplot.reporting.tables",
    "methods_paragraph": "cdplot.reporting.references",
    "bibtex": "cdplot.reporting.references",
    "repr_html": "cdplot.reporting.jupyter",
}

__all__ = ["report", "render_html", "data_table", "methods_paragraph", "bibtex", "repr_html"]


__getattr__, __dir__ = attach(__name__, _LAZY, globals())
