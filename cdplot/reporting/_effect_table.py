"""The effect-size table of an analysis: how large each difference is, for a paper.

One row per pair of methods (the significant pairs by default), the larger
effect first: Cliff's δ and Cohen's d with their magnitude labels, oriented so
that a positive value means the first method is better.  LaTeX (booktabs),
Markdown or HTML, like :func:`cdplot.data_table`; every name is escaped for the
format.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

import numpy as np

from .._options import EFFECT_PAIRS as PAIRS
from .._options import TABLE_FORMATS as FORMATS
from .._options import check_option
from ..errors import CdplotError
from ..stats._effect_sizes import magnitude
from ..stats._parametric import AnovaResult, AutoResult
from ..stats._results import ComparisonResult
from ._format import fmt_number, latex_escape, markdown_escape
from ._tables import _check_caption, _latex_text, check_float_options

if TYPE_CHECKING:
    from ..stats import AutoResult, ComparisonResult

__all__ = ["effect_size_table", "effect_rows", "PAIRS"]

_NAMES = {"cliffs_delta": "Cliff's delta", "cohens_d": "Cohen's d"}


def _analysis(result):
    """The analysis behind ``result`` and its significant pairs, or a one-line error."""
    inner = result.analysis if isinstance(result, AutoResult) else result
    if isinstance(inner, ComparisonResult):
        return inner, inner.significant_pairs(), inner.procedure()
    if isinstance(inner, AnovaResult) and inner.scores is not None:
        return inner, inner.tukey.significant_pairs(), "Tukey's HSD"
    hint = ""
    if type(result).__name__ == "MetricsComparison":
        hint = "; pick one metric with .result(name)"
    raise CdplotError(
        "effect_size_table needs a ComparisonResult (cdplot.compare) or an AutoResult "
        f"(cdplot.compare_auto) of paired scores; got {type(result).__name__}{hint}"
    )


def effect_rows(result, *, pairs: str = "significant") -> dict:
    """The rows of the effect-size table as plain values, for templates and writers.

    Parameters
    ----------
    result : ComparisonResult or AutoResult
        The analysis whose effect sizes are tabulated.
    pairs : {'significant', 'all'}, default 'significant'
        The pairs the test found significant (as ``(better, worse)``), or
        every pair tested (better side by the analysis' measure first).

    Returns
    -------
    dict
        ``measure`` (the one that goes with the test, listed first),
        ``rows`` (each ``first``, ``second``, ``delta``, ``delta_label``,
        ``d``, ``d_label`` as text, largest effect first), ``n_pairs``,
        ``pairs``, ``procedure`` and ``alpha``.
    """
    check_option("pairs", pairs, PAIRS)
    inner, significant, procedure = _analysis(result)
    es = inner.effect_sizes
    measure = es.measure
    matrix = es.cliffs_delta if measure == "cliffs_delta" else es.cohens_d
    if pairs == "significant":
        chosen = list(significant)
    else:
        k = len(es.methods)
        control = getattr(inner, "control", None)
        chosen = []
        for i in range(k):
            for j in range(i + 1, k):
                a, b = es.methods[i], es.methods[j]
                if control is not None and control not in (a, b):
                    continue  # only pairs with the control were tested
                chosen.append((b, a) if matrix[i, j] < 0 else (a, b))
    idx = [(es.index(a), es.index(b)) for a, b in chosen]
    size = np.array([abs(matrix[i, j]) for i, j in idx], dtype=float)
    order = np.argsort(-np.nan_to_num(size, nan=-1.0), kind="stable")
    rows = []
    for t in order.tolist():
        i, j = idx[t]
        delta, d = float(es.cliffs_delta[i, j]), float(es.cohens_d[i, j])
        rows.append(
            {
                "first": chosen[t][0],
                "second": chosen[t][1],
                "delta": fmt_number(delta, 3),
                "delta_label": magnitude(delta, "cliffs_delta"),
                "d": fmt_number(d, 3),
                "d_label": magnitude(d, "cohens_d"),
            }
        )
    return {
        "measure": measure,
        "rows": rows,
        "n_pairs": len(rows),
        "pairs": pairs,
        "procedure": procedure,
        "alpha": f"{inner.alpha:g}",
    }


def _caption(model) -> str:
    what = (
        f"the pairs that differ significantly ({model['procedure']}, alpha = {model['alpha']})"
        if model["pairs"] == "significant"
        else "every pair tested"
    )
    first = _NAMES[model["measure"]]
    return (
        f"Effect sizes of {what}, largest {first} first; positive: the first method is better. "
        "Magnitudes after Romano et al. (2006) for Cliff's delta and Cohen (1988) for Cohen's d "
        "(paired differences)."
    )


def _columns(model, delta, d):
    """The value columns in the order of the measure (the test's own measure first)."""
    cols = [delta, d]
    return cols if model["measure"] == "cliffs_delta" else cols[::-1]


def _tex(number: str) -> str:
    """A printed number in LaTeX: a real minus sign, infinity as a symbol."""
    return number.replace("\u2212", "-").replace("-", "$-$").replace("\u221e", "$\\infty$")


def _latex(model, caption=None, label=None, as_float=False) -> str:
    head = _columns(model, ["$\\delta$", "magnitude"], ["$d$", "magnitude"])
    lines = ["% needs \\usepackage{booktabs}"]
    if as_float:
        lines += ["\\begin{table}[tbp]", "\\centering"]
        if caption:
            lines.append(f"\\caption{{{_latex_text(caption)}}}")
        if label:
            lines.append(f"\\label{{{label}}}")
    else:
        lines.insert(0, "% " + _caption(model))
    lines += [
        "\\begin{tabular}{llrlrl}",
        "\\toprule",
        " & ".join(["First", "Second", *head[0], *head[1]]) + " \\\\",
        "\\midrule",
    ]
    for r in model["rows"]:
        vals = _columns(model, [_tex(r["delta"]), r["delta_label"]], [_tex(r["d"]), r["d_label"]])
        cells = [latex_escape(r["first"]), latex_escape(r["second"]), *vals[0], *vals[1]]
        lines.append(" & ".join(cells) + " \\\\")
    if not model["rows"]:
        lines.append("\\multicolumn{6}{l}{No pair differs significantly.} \\\\")
    lines += ["\\bottomrule", "\\end{tabular}"]
    if as_float:
        # what the signs and magnitudes mean, printed under the table like data_table's notes
        lines += [
            "\\par\\smallskip",
            "{\\footnotesize\\raggedright " + _latex_text(_caption(model)) + "\\par}",
            "\\end{table}",
        ]
    return "\n".join(lines) + "\n"


def _markdown(model, caption=None) -> str:
    head = _columns(model, ["Cliff's δ", "magnitude"], ["Cohen's d", "magnitude"])
    lines = [f"Table: {markdown_escape(caption)}", ""] if caption else []
    lines += [
        "| " + " | ".join(["First", "Second", *head[0], *head[1]]) + " |",
        "|:--|:--|--:|:--|--:|:--|",
    ]
    for r in model["rows"]:
        vals = _columns(model, [r["delta"], r["delta_label"]], [r["d"], r["d_label"]])
        cells = [markdown_escape(r["first"]), markdown_escape(r["second"]), *vals[0], *vals[1]]
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "*" + markdown_escape(_caption(model)) + "*"]
    return "\n".join(lines) + "\n"


def _html(model, caption=None, label=None) -> str:
    esc = html.escape
    head = _columns(model, ["Cliff's &delta;", "magnitude"], ["Cohen's <i>d</i>", "magnitude"])
    th = "".join(f"<th scope='col'>{h}</th>" for h in ["First", "Second", *head[0], *head[1]])
    body = []
    for r in model["rows"]:
        vals = _columns(model, [r["delta"], r["delta_label"]], [r["d"], r["d_label"]])
        cells = "".join(f"<td>{esc(v)}</td>" for v in [*vals[0], *vals[1]])
        body.append(
            f"<tr><th scope='row'>{esc(r['first'])}</th><td>{esc(r['second'])}</td>{cells}</tr>"
        )
    if not model["rows"]:
        body.append("<tr><td colspan='6'>No pair differs significantly.</td></tr>")
    ident = f" id='{esc(label, quote=True)}'" if label else ""
    words = f"{caption} {_caption(model)}" if caption else _caption(model)
    return (
        f"<table class='effect-sizes'{ident}>\n"
        f"<caption>{esc(words)}</caption>\n"
        f"<thead><tr>{th}</tr></thead>\n<tbody>\n" + "\n".join(body) + "\n</tbody>\n</table>\n"
    )


def effect_size_table(
    result: ComparisonResult | AutoResult,
    *,
    format: str = "latex",
    pairs: str = "significant",
    caption: str | None = None,
    label: str | None = None,
    latex_float: bool | None = None,
) -> str:
    """The effect sizes of an analysis' pairs as a table for a paper.

    Parameters
    ----------
    result : ComparisonResult or AutoResult
        An analysis from :func:`cdplot.compare` or :func:`cdplot.compare_auto`.
    format : {'latex', 'markdown', 'html'}, default 'latex'
        ``'latex'`` is a booktabs ``tabular`` with the caption as a comment;
        ``'markdown'`` a pipe table with the caption below it; ``'html'`` a
        ``<table>`` with a ``<caption>``.  Names are escaped for the format.
    pairs : {'significant', 'all'}, default 'significant'
        The pairs the test found significant, or every pair tested.
    caption, label : str, optional
        The table's caption and cross-reference key, as in
        :func:`cdplot.data_table`: LaTeX sets the table in a ``table`` float
        with ``\\caption`` and ``\\label`` (a label needs a caption) and prints
        what the signs and magnitudes mean under it; Markdown gets a
        ``Table:`` line (no label); HTML a ``<caption>`` and an ``id``.
    latex_float : bool, optional
        LaTeX only: the ``table`` float even without a caption (default: a
        float exactly when there is a caption).

    Returns
    -------
    str
        The table, ending with a newline: one row per pair, largest effect
        first, with Cliff's δ and Cohen's d (``d_z`` of the paired
        differences) and their magnitudes; the measure that goes with the
        test (δ for the rank tests, d for ANOVA) comes first.

    Raises
    ------
    CdplotError
        If ``format`` or ``pairs`` is invalid, ``caption``, ``label`` or
        ``latex_float`` do not fit the format, or ``result`` is not an
        analysis of paired scores.

    Notes
    -----
    Signs: positive means the first method of the row is better, whatever
    the direction of the scores.  Magnitudes: Romano et al. (2006) for δ
    (negligible < 0.147 ≤ small < 0.33 ≤ medium < 0.474 ≤ large), Cohen
    (1988) for d (0.2, 0.5, 0.8).

    References
    ----------
    .. [1] N. Cliff (1993), Psychological Bulletin 114(3), 494-509.
    .. [2] J. Romano et al. (2006), magnitude thresholds of Cliff's delta.
    .. [3] J. Cohen (1988), Statistical Power Analysis for the Behavioral
           Sciences, 2nd ed.

    Examples
    --------
    >>> import cdplot
    >>> res = cdplot.compare(cdplot.load_example("demsar2006"), test="friedman-z", alpha=0.1)
    >>> print(cdplot.effect_size_table(res, format="markdown").splitlines()[2])
    | C4.5+m+cf | C4.5 | 0.117 | negligible | 0.735 | medium |
    """
    check_option("format", format, FORMATS)
    latex_float = check_float_options(format, caption, label, latex_float)
    caption = _check_caption(caption)
    model = effect_rows(result, pairs=pairs)
    if format == "latex":
        as_float = latex_float if latex_float is not None else caption is not None
        return _latex(model, caption, label, as_float)
    if format == "markdown":
        return _markdown(model, caption)
    return _html(model, caption, label)
