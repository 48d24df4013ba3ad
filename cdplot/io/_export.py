"""One row per method: the table that ``cdplot stats --format csv`` and ``to_frame()`` give.

Columns: the position in the rank order, the method, its average rank, its
mean score over the data sets (correctly rounded), the groups it belongs to
(``a``, ``b``, ... one letter per group of methods that do not differ
significantly, ``;``-separated), and its adjusted p-value against every
method (``p_vs_<method>``; empty where a pair was not tested).
pandas is imported only when a DataFrame is asked for.

Names are data, and a spreadsheet runs a cell starting with ``=``, ``+``,
``-`` or ``@`` (or a tab or carriage return) as a formula: ``=HYPERLINK(...)``
as a method name would become a link when the CSV is opened.  As the OWASP
advice on CSV injection says, such a text cell is written with a leading
``'`` (``'=cmd``), which spreadsheets show as text; numbers are written as
they are.
"""

from __future__ import annotations

import csv
import io
import itertools
import math
import string

__all__ = ["rows", "to_csv", "to_frame"]


def _letters(k: int) -> list[str]:
    """``a``, ``b``, ..., ``z``, ``aa``, ``ab``, ... for any number of groups."""
    names = (
        "".join(t)
        for width in itertools.count(1)
        for t in itertools.product(string.ascii_lowercase, repeat=width)
    )
    return list(itertools.islice(names, k))


def rows(result) -> tuple[list[str], list[list]]:
    """``(header, rows)`` of one result, best-ranked method first."""
    if not hasattr(result, "cliques"):
        from ..errors import CdplotError

        raise CdplotError(
            f"a {type(result).__name__} has no rank groups to export; the CSV export is for "
            "the rank-based analysis (leave out --test auto)"
        )
    methods = list(result.methods)
    letters = _letters(len(result.cliques))
    groups = {m: [] for m in methods}
    for letter, clique in zip(letters, result.cliques, strict=True):
        for m in clique:
            groups[m].append(letter)
    # a compare_ranks result has average ranks alone: its mean_score cells stay empty
    table = getattr(result, "scores", None)
    values = None if table is None else table.values
    header = ["rank_order", "method", "average_rank", "mean_score", "groups"] + [
        f"p_vs_{m}" for m in methods
    ]
    out = []
    for pos, m in enumerate(result.order(), start=1):
        j = result.index(m)
        mean = None
        if values is not None:
            column = values[:, j].tolist()
            mean = math.fsum(column) / len(column)
        pvals = []
        for other in methods:
            p = result.pvalue(m, other)
            pvals.append(None if other == m or math.isnan(p) else p)
        out.append([pos, m, result.average_rank(m), mean, ";".join(groups[m]), *pvals])
    return header, out


# first characters that make a spreadsheet read a cell as a formula (OWASP, CSV injection)
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _text_cell(text: str) -> str:
    """``text`` with a leading ``'`` when a spreadsheet would run it as a formula."""
    return "'" + text if text.startswith(_FORMULA_STARTS) else text


def to_csv(results) -> str:
    """CSV text of one or several results (a ``metric`` column first when several).

    Text cells (names) that a spreadsheet would run as a formula start with ``'``
    (see the module's notes).
    """
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    many = len(results) > 1
    for n, result in enumerate(results):
        header, body = rows(result)
        if n == 0 or many:
            if n > 0:
                buf.write("\n")
            writer.writerow([_text_cell(h) for h in (["metric"] if many else []) + header])
        for r in body:
            cells = [
                ""
                if v is None
                else repr(v)
                if isinstance(v, float)
                else _text_cell(v)
                if isinstance(v, str)
                else v
                for v in r
            ]
            writer.writerow(([_text_cell(result.metric or "")] if many else []) + cells)
    return buf.getvalue()


def to_frame(result):
    """A pandas DataFrame of :func:`rows`, indexed by method (pandas imported here only)."""
    try:
        import pandas as pd
    except ModuleNotFoundError:
        # pandas is optional: say what to install, and the way without it, in one line
        raise ModuleNotFoundError(
            "to_frame() needs pandas, which is not installed: pip install pandas "
            "(cdplot stats --format csv writes the same table without it)",
            name="pandas",
        ) from None

    header, body = rows(result)
    frame = pd.DataFrame(body, columns=header)
    return frame.set_index("method")
