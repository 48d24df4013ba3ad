"""A small report for Jupyter: the CD diagram, the average ranks and the conclusion.

The statistics core's ``_repr_html_`` uses only ``html.escape`` and draws
nothing (the core never imports matplotlib).  :func:`repr_html` is the
richer view from the report layer, built from the same pieces as a full
report.
"""

from __future__ import annotations

from .render import finish_context, prepare_context
from .templating import render_template

__all__ = ["repr_html"]


def repr_html(result) -> str:
    """HTML for a notebook cell: the CD diagram, the ranking and the conclusion.

    Parameters
    ----------
    result : ComparisonResult or MetricsComparison
        The analysis to show.

    Returns
    -------
    str
        An HTML fragment with the figure inline as SVG and every name
        escaped; show it with ``IPython.display.HTML``.

    Examples
    --------
    >>> import cdplot
    >>> from cdplot.reporting import repr_html
    >>> html = repr_html(cdplot.compare(cdplot.load_example("demsar2006")))
    >>> html.startswith('<div class="cdplot-report">')
    True
    """
    ctx, _ = prepare_context(result, progress=False)
    html = render_template("notebook.html.j2", finish_context(ctx, embed_fonts=False, paper="a4"))
    return html.strip()
