"""A small report for Jupyter: the CD diagram, the average ranks and the conclusion.

The statistics core's ``_repr_html_`` uses only ``html.escape`` and draws
nothing (the core never imports matplotlib).  :func:`repr_html` is the
richer view from the report layer, built from the same pieces as a full
report.
"""

from __future__ import annotations

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
    from .render import _finish_context, _prepare, _render

    ctx, _ = _prepare(result, None, None, None, None, "a4", None, None, False, {})
    return _render("notebook.html.j2", _finish_context(ctx, embed_fonts=False, paper="a4")).strip()
