"""A small report for Jupyter: the CD diagram, the average ranks and the conclusion.

The statistics core's ``_repr_html_`` uses only ``html.escape`` and draws
nothing (the core never imports matplotlib).  :func:`repr_html` is the
richer view from the report layer, built from the same pieces as a full
report.
"""

from __future__ import annotations

import numpy as np

from ..stats._pair import PairResult
from ._format import auto_decimals
from ._pairs import pair_context
from ._render import finish_context, prepare_context
from ._templating import render_block, render_template

__all__ = ["repr_html"]


def repr_html(result: object) -> str:
    """HTML for a notebook cell: the main figure, the ranking or means and the conclusion.

    Parameters
    ----------
    result : ComparisonResult, MetricsComparison, AutoResult or PairResult
        The analysis to show: a comparison with its CD diagram and average
        ranks; each metric of a :class:`MetricsComparison` and how far they
        agree; a :func:`cdplot.compare_auto` result with its choice and the
        chosen analysis (Tukey's heatmap and the mean scores on the
        parametric path); a :class:`PairResult` with its three tests and
        the scores of both methods.

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
    if isinstance(result, PairResult):
        places = auto_decimals(np.concatenate([result.scores_a, result.scores_b]))
        pair = pair_context(result, decimals=places)
        return render_block("notebook.html.j2", "notebook_pair", {"pair": pair})
    # a notebook is a screen: no figure drawn for the printed page only
    ctx, _ = prepare_context(result, progress=False, format="html")
    html = render_template("notebook.html.j2", finish_context(ctx, embed_fonts=False, paper="a4"))
    return html.strip()
