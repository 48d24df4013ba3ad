"""The data table of an analysis, as Demsar (2006) prints it.

Each score with its rank in parentheses, the best score of each data set in
bold and the average ranks as the last row, in LaTeX (booktabs), Markdown
or HTML.  The HTML version is the ``data_table_body`` block of the report
template, so that a report and a pasted table look the same.
"""

from __future__ import annotations

import numpy as np

from .._options import TABLE_FORMATS as FORMATS
from .._options import check_option
from ..errors import CdplotError
from ..stats.results import ComparisonResult
from ._format import (
    auto_decimals,
    check_decimals,
    fmt_number,
    fmt_rank,
    latex_escape,
    markdown_escape,
)
from .templating import render_block

__all__ = ["data_table", "table_model", "FORMATS"]


# ranks are multiples of 1/2 (or averages of them); compare with a tolerance
_TIE = 1e-9


def _check_result(result):
    if not isinstance(result, ComparisonResult):
        hint = ""
        if type(result).__name__ == "MetricsComparison":
            hint = "; pick one metric with .result(name)"
        raise CdplotError(
            "data_table needs a ComparisonResult (from cdplot.compare); got "
            f"{type(result).__name__}{hint}"
        )


def table_model(result, *, decimals=None) -> dict:
    """The data table as plain values, for templates and writers.

    Parameters
    ----------
    result : ComparisonResult
        The analysis whose scores and ranks are tabulated.
    decimals : int, optional
        Decimals of the scores; by default the fewest that print every score
        exactly, else three significant digits (see ``auto_decimals``).

    Returns
    -------
    dict
        ``methods``, ``rows`` (each ``dataset`` and ``cells`` with ``score``,
        ``rank`` and ``best``), ``average`` (``text`` and ``best`` per
        method), ``decimals``, ``metric`` and ``direction``.
    """
    _check_result(result)
    decimals = check_decimals(decimals)
    values = result.scores.values
    if decimals is None:
        decimals = auto_decimals(values)
    ranks = result.ranks
    best_rank = ranks.min(axis=1)
    rows = []
    for i, name in enumerate(result.datasets):
        cells = [
            {
                "score": fmt_number(float(values[i, j]), decimals),
                "rank": fmt_rank(float(ranks[i, j])),
                "best": bool(ranks[i, j] <= best_rank[i] + _TIE),
            }
            for j in range(result.n_methods)
        ]
        rows.append({"dataset": name, "cells": cells})
    avg = result.average_ranks
    best_avg = float(np.min(avg))
    average = [{"text": f"{float(r):.3f}", "best": bool(r <= best_avg + _TIE)} for r in avg]
    return {
        "methods": list(result.methods),
        "rows": rows,
        "average": average,
        "decimals": decimals,
        "metric": result.metric,
        "direction": "higher is better" if result.higher_is_better else "lower is better",
    }


def _latex(model) -> str:
    k = len(model["methods"])
    what = f"{latex_escape(model['metric'])}, " if model["metric"] else ""
    lines = [
        f"% {what}{model['direction']}: score (rank), best of each data set in bold",
        "% needs \\usepackage{booktabs}",
        "\\begin{tabular}{l" + "r" * k + "}",
        "\\toprule",
        " & ".join(["Data set", *(latex_escape(m) for m in model["methods"])]) + " \\\\",
        "\\midrule",
    ]
    for row in model["rows"]:
        cells = []
        for c in row["cells"]:
            text = f"{c['score']} ({c['rank']})"
            cells.append(f"\\textbf{{{text}}}" if c["best"] else text)
        lines.append(" & ".join([latex_escape(row["dataset"]), *cells]) + " \\\\")
    lines.append("\\midrule")
    avg = [f"\\textbf{{{a['text']}}}" if a["best"] else a["text"] for a in model["average"]]
    lines.append(" & ".join(["Average rank", *avg]) + " \\\\")
    lines += ["\\bottomrule", "\\end{tabular}"]
    return "\n".join(lines) + "\n"


def _markdown(model) -> str:
    k = len(model["methods"])
    lines = [
        "| " + " | ".join(["Data set", *(markdown_escape(m) for m in model["methods"])]) + " |",
        "|:--" + "|--:" * k + "|",
    ]
    for row in model["rows"]:
        cells = []
        for c in row["cells"]:
            text = f"{c['score']} ({c['rank']})"
            cells.append(f"**{text}**" if c["best"] else text)
        lines.append("| " + " | ".join([markdown_escape(row["dataset"]), *cells]) + " |")
    avg = [f"**{a['text']}**" if a["best"] else a["text"] for a in model["average"]]
    lines.append("| " + " | ".join(["*Average rank*", *avg]) + " |")
    return "\n".join(lines) + "\n"


def _html(model) -> str:
    return render_block("data_table.html.j2", "data_table_body", {"table": model}) + "\n"


def data_table(result, *, format: str = "latex", decimals: int | None = None) -> str:
    """The data table of an analysis: scores with ranks, best in bold, average ranks.

    Parameters
    ----------
    result : ComparisonResult
        An analysis from :func:`cdplot.compare`.
    format : {'latex', 'markdown', 'html'}, default 'latex'
        ``'latex'`` is a booktabs ``tabular`` (needs ``\\usepackage{booktabs}``)
        with ``\\textbf`` for the best score of each data set; ``'markdown'``
        a pipe table; ``'html'`` a ``<table>`` with every name escaped.
    decimals : int, optional
        Decimals of the scores (0 to 10).  By default the fewest that print
        every score exactly (three for Demsar's AUCs), else three
        significant digits of the largest score.

    Returns
    -------
    str
        The table, ending with a newline.

    Raises
    ------
    CdplotError
        If ``format`` or ``decimals`` is invalid or ``result`` is not a
        :class:`~cdplot.ComparisonResult`.

    Notes
    -----
    Ranks are those of the analysis (1 = best, mid-ranks for ties), so the
    bold cells follow the direction of the scores.  Names are escaped for
    the format: LaTeX's special characters become commands, Markdown's
    punctuation is backslash-escaped, HTML is escaped by Jinja2.

    References
    ----------
    .. [1] J. Demsar, "Statistical comparisons of classifiers over multiple
           data sets", JMLR 7 (2006) 1-30, Table 6.

    Examples
    --------
    >>> import cdplot
    >>> res = cdplot.compare(cdplot.load_example("demsar2006"))
    >>> print(cdplot.data_table(res, format="markdown").splitlines()[2])
    | adult (sample) | 0.763 (4) | 0.768 (3) | 0.771 (2) | **0.798 (1)** |
    """
    check_option("format", format, FORMATS)
    model = table_model(result, decimals=decimals)
    if format == "latex":
        return _latex(model)
    if format == "markdown":
        return _markdown(model)
    return _html(model)
