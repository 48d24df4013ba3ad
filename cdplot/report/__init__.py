"""Reports: every statistic, figure and conclusion of an analysis in one HTML or PDF file.

``cdplot.report`` only composes: the statistics come from :mod:`cdplot.stats`,
the figures from :mod:`cdplot.plot`, the layout from the Jinja2 templates in
``templates/`` (``cdplot/_data/templates`` when installed).  jinja2 and
weasyprint are imported inside the functions that need them.
"""

import sys
import types

from .jupyter import repr_html
from .references import bibtex, methods_paragraph
from .render import render_html, report
from .tables import data_table

__all__ = ["report", "render_html", "data_table", "methods_paragraph", "bibtex", "repr_html"]


class _CallableModule(types.ModuleType):
    """This package, callable as :func:`report`.

    ``cdplot.report`` names both this package and the function.  Importing
    any ``cdplot.report.*`` module makes Python bind the package to the
    ``report`` attribute of :mod:`cdplot`, hiding the function that
    ``cdplot.__getattr__`` would give; calling the package calls the function,
    so ``cdplot.report(results, "out.pdf")`` works either way.
    """

    def __call__(self, *args, **kwargs):
        return report(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
