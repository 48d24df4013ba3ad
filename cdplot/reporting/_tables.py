"""The data table of an analysis, as Demsar (2006) prints it, ready for a paper.

Each score with its rank in parentheses (mean ± standard deviation over
repetitions when the scores have them), the best score of each data set in
bold, optionally the methods not significantly worse than the best
underlined, the average ranks and a W/T/L row against a control, in LaTeX
(booktabs, bare or in a ``table`` float with caption and label), Markdown or
HTML.  The HTML version is the ``data_table_body`` block of the report
template, so that a report and a pasted table look the same.

Printed values are rounded on their decimal text, half away from zero
(0.165 prints as 0.17 at two decimals although the float is
0.16499999999999998); ranks, bold and every test use the unrounded scores,
and a footnote says so wherever rounding makes them look wrong.
"""

from __future__ import annotations

import math
import re
from decimal import ROUND_HALF_UP, Decimal, localcontext
from typing import TYPE_CHECKING

import numpy as np

from .._options import TABLE_FORMATS as FORMATS
from .._options import TABLE_MARKS as MARKS
from .._options import check_bool, check_option
from ..errors import CdplotError, opt
from ..stats._results import ComparisonResult
from ._format import (
    auto_decimals,
    check_decimals,
    latex_escape,
    markdown_escape,
)
from ._templating import render_block

if TYPE_CHECKING:
    from ..stats import ComparisonResult

__all__ = ["data_table", "table_model", "decimal_texts", "FORMATS", "MARKS"]


# ranks are multiples of 1/2 (or averages of them); compare with a tolerance
_TIE = 1e-9
# the Markdown stand-in for an underline (Markdown has none)
_DAGGER = "\u2020"
# at most this many data sets are named in a footnote
_NAMED = 3


def _check_result(result):
    if not isinstance(result, ComparisonResult):
        hint = ""
        if type(result).__name__ == "MetricsComparison":
            hint = "; pick one metric with .result(name)"
        raise CdplotError(
            "data_table needs a ComparisonResult (from cdplot.compare); got "
            f"{type(result).__name__}{hint}"
        )


# ---------------------------------------------------------------------------
# rounding


def decimal_texts(values, decimals: int):
    """Each value rounded to ``decimals`` on its decimal text, half away from zero.

    The decimal text is the shortest one that reads back as the same float
    (``repr``), so 0.165 (stored as 0.16499999999999998) gives ``'0.17'``
    and 0.845 gives ``'0.85'``, as a reader rounding the printed number
    would; ``round(0.165, 2)`` and ``f"{0.165:.2f}"`` give 0.16.  Values far
    without :mod:`decimal` (which only numbers of 10**14 units of the last
    decimal or more take), vectorised: 100,000 scores cost milliseconds.

    Notes
    -----
    The double ``h`` nearest to the half ``(2w + 1) / (2 * 10**d)`` between
    two printed values is one correctly rounded division of two exact
    integers.  Reading decimal text into a double is monotone, so a value's
    shortest text lies above that half exactly when the value is above
    ``h``, below it exactly when the value is below ``h``, and is the half
    itself exactly when the value equals ``h`` (a decimal of at most 15
    digits is the only one that short to read as its double).

    Parameters
    ----------
    values : array_like
        The numbers; NaN prints as an en dash.
    decimals : int
        Decimals after the point.

    Returns
    -------
    texts : ndarray of str
        Same shape as ``values``; never ``-0.00``.
    rounded : ndarray of float
        The printed numbers as floats (NaN for NaN), for comparing what a
        reader sees.

    Examples
    --------
    >>> texts, _ = decimal_texts([0.165, 0.845, 0.125, -0.165, 2.675], 2)
    >>> texts.tolist()
    ['0.17', '0.85', '0.13', '-0.17', '2.68']
    """
    x = np.asarray(values, dtype=float)
    scale = 10.0**decimals
    ax = np.abs(x)
    with np.errstate(invalid="ignore", over="ignore"):
        # the product may round across a whole number (floor one off either way): the
        # halves on both sides decide
        whole = np.floor(ax * scale)
        upper = (2.0 * whole + 1.0) / (2.0 * scale)
        lower = (2.0 * whole - 1.0) / (2.0 * scale)
        n = whole + (ax >= upper) - (ax < lower)  # at a half itself: up, away from zero
        # a half of at most 15 digits is the only text of its double (see Notes)
        exact = whole < 1e14
    n = np.where(np.isfinite(x), n, 0.0)
    flat_x, flat_n = x.ravel(), n.ravel()
    huge = {}
    with localcontext() as ctx:
        ctx.prec = 330 + decimals  # every digit of the largest float and the decimals
        for i in np.flatnonzero(~exact.ravel() & np.isfinite(flat_x)).tolist():
            q = Decimal(repr(float(flat_x[i]))).quantize(
                Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP
            )
            flat_n[i] = float(abs(q.scaleb(decimals)))
            huge[i] = format(q, "f")
    n = flat_n.reshape(x.shape)
    rounded = np.where(np.signbit(x) & (n != 0), -n, n) / scale
    rounded[~np.isfinite(x)] = np.nan
    texts = _texts_of(n, x, decimals)
    for i, text in huge.items():  # (beyond 2**53 units the float has no such digits)
        texts.flat[i] = text
        rounded.flat[i] = float(text)
    return texts, rounded


def _texts_of(n: np.ndarray, x: np.ndarray, decimals: int) -> np.ndarray:
    """The text of ``sign(x) * n / 10**decimals`` for whole numbers ``n >= 0``, vectorised.

    Numbers of 2**62 units or more are left to the caller (their digits are not the
    float's).
    """
    big = n >= 2.0**62
    ni = np.where(big | ~np.isfinite(x), 0, n).astype(np.int64)
    unit = 10**decimals
    whole = (ni // unit).astype(str)
    if decimals:
        frac = np.char.zfill((ni % unit).astype(str), decimals)
        texts = np.char.add(np.char.add(whole, "."), frac)
    else:
        texts = whole
    texts = np.where(np.signbit(x) & (ni != 0), np.char.add("-", texts), texts).astype(object)
    for i in np.flatnonzero(~np.isfinite(x).ravel()).tolist():
        texts.flat[i] = _text(float(x.flat[i]), decimals)
    return texts


def _text(v: float, decimals: int) -> str:
    if v != v:
        return "\u2013"
    if v == float("inf") or v == float("-inf"):
        return "\u221e" if v > 0 else "\u2212\u221e"
    text = f"{v:.{decimals}f}"
    return text[1:] if text.startswith("-") and float(text) == 0.0 else text


def _rank_texts(ranks: np.ndarray) -> np.ndarray:
    """Ranks as Demsar prints them (``4``, ``2.5``, ``2.333``), one format per distinct rank."""
    uniq, inv = np.unique(ranks, return_inverse=True)
    words = []
    for r in uniq.tolist():
        if abs(r - round(r)) < 1e-9:
            words.append(str(int(round(r))))
        elif abs(2 * r - round(2 * r)) < 1e-9:
            words.append(f"{r:.1f}")
        else:
            words.append(f"{r:.3f}")
    return np.array(words, dtype=object)[inv.ravel()].reshape(ranks.shape)


# ---------------------------------------------------------------------------
# the model


def _check_label(label):
    if label is None:
        return None
    if not isinstance(label, str) or not label or not label.isprintable():
        raise CdplotError(
            f"option {opt('label', label)} must be a non-empty key such as 'tab:auc'",
            option="label",
        )
    bad = sorted(set(re.findall(r"[\s\\{}%#$&~^]", label)))
    if bad:
        raise CdplotError(
            f"option {opt('label', label)} holds {''.join(bad)!r}, which a LaTeX \\label key "
            "cannot; use letters, digits and : - _ . /",
            option="label",
        )
    return label


def _check_caption(caption):
    if caption is None:
        return None
    if not isinstance(caption, str) or not caption.strip():
        raise CdplotError(
            f"option {opt('caption', caption)} must be a non-empty text", option="caption"
        )
    return " ".join(caption.split())


def check_float_options(format: str, caption, label, latex_float):
    """Check a paper table's caption, label and float against its format.

    Shared by :func:`data_table` and :func:`cdplot.effect_size_table`;
    returns ``latex_float`` as a bool or ``None``.
    """
    if latex_float is not None:
        latex_float = check_bool("latex_float", latex_float)
    _check_caption(caption)
    _check_label(label)
    if format == "markdown" and label is not None:
        raise CdplotError(
            f"option {opt('label', label)} does not apply to Markdown, which has no labels; use "
            f"{opt('format', 'latex')} or {opt('format', 'html')}",
            option="label",
        )
    if format == "latex" and label is not None and caption is None:
        raise CdplotError(
            f"option {opt('label', label)} needs a caption: LaTeX numbers a table by its \\caption",
            option="label",
        )
    if format == "latex" and caption is not None and latex_float is False:
        raise CdplotError(
            f"option {opt('caption')} needs the table float (a bare tabular has no caption); leave "
            "latex_float out or set it True",
            option="caption",
        )
    if format != "latex" and latex_float is not None:
        raise CdplotError(
            f"option {opt('latex_float', latex_float)} applies to {opt('format', 'latex')} only",
            option="latex_float",
        )
    return latex_float


def _spread_words(n: np.ndarray) -> str:
    lo, hi = int(n.min()), int(n.max())
    return f"{hi}" if lo == hi else f"{lo} to {hi}"


def _listed(names) -> str:
    names = list(names)
    shown = ", ".join(names[:_NAMED])
    more = f" and {len(names) - _NAMED} more" if len(names) > _NAMED else ""
    return shown + more


def table_model(
    result, *, decimals=None, std=False, marks="best", control=None, caption=None, label=None
) -> dict:
    """The data table as plain values, for templates and writers.

    Parameters
    ----------
    result : ComparisonResult
        The analysis whose scores and ranks are tabulated.
    decimals : int, optional
        Decimals of the scores; by default the fewest that print every score
        exactly, else three significant digits (see ``auto_decimals``).
    std : bool or None, default False
        Print mean ± standard deviation over the repetitions; None: when the
        scores have them (see :func:`data_table`).  False by default, so that
        the report's table, which prints no footnotes, stays as it was.
    marks : {'best', 'none', 'wilcoxon', 't-test', 'posthoc'}, default 'best'
        What is marked (see :func:`data_table`).
    control : str, optional
        The method of the W/T/L row (see :func:`data_table`).
    caption, label : str, optional
        The table's caption and cross-reference key.

    Returns
    -------
    dict
        ``methods``, ``rows`` (each ``dataset`` and ``cells`` with ``score``,
        ``rank``, ``best`` and ``under``), ``average`` (``text``, ``best``,
        ``under`` per method), ``wtl`` (None or ``label`` and ``cells``),
        ``notes`` (footnotes, plain text), ``caption``, ``label``,
        ``decimals``, ``metric`` and ``direction``.
    """
    t = _compute(
        result,
        decimals=decimals,
        std=std,
        marks=marks,
        control=control,
        caption=caption,
        label=label,
    )
    rows = []
    for i, name in enumerate(result.datasets):
        cells = [
            {
                "score": t["cell"][i, j],
                "rank": t["rank"][i, j],
                "best": bool(t["best"][i, j]),
                "under": bool(t["under"][i, j]),
            }
            for j in range(result.n_methods)
        ]
        rows.append({"dataset": name, "cells": cells})
    average = [
        {"text": t["avg"][j], "best": bool(t["avg_best"][j]), "under": bool(t["avg_under"][j])}
        for j in range(result.n_methods)
    ]
    return {
        "methods": list(result.methods),
        "rows": rows,
        "average": average,
        "wtl": t["wtl"],
        "notes": t["notes"],
        "caption": t["caption"],
        "label": t["label"],
        "decimals": t["decimals"],
        "metric": result.metric,
        "direction": t["direction"],
    }


def _check_std(std, table) -> bool:
    """Whether the cells print mean ± standard deviation (``std=None``: when there are some)."""
    reps = table.repetition_scores
    has_spread = reps is not None and int(table.n_repetitions.max()) > 1
    if std and not has_spread:
        raise CdplotError(
            f"option {opt('std', True)} needs the score of each repetition, and these scores have "
            "none (a long table with a fold or seed column has them, read with the reader's "
            "keep_repetitions option)",
            option="std",
        )
    return has_spread if std is None else std


def _score_cells(table, decimals: int, show_std: bool, notes: list) -> tuple:
    """Each score's text (with ± its standard deviation) and its rounded value."""
    texts, rounded = decimal_texts(table.values, decimals)
    if not show_std:
        return texts, rounded
    sd = table.std
    sd_texts, _ = decimal_texts(sd, decimals)
    with_sd = np.char.add(np.char.add(texts.astype(str), " \u00b1 "), sd_texts.astype(str))
    cell = np.where(np.isnan(sd), texts, with_sd.astype(object))
    one = int(np.count_nonzero(np.isnan(sd)))
    single = f"; {one} cells with a single repetition show the score alone" if one else ""
    notes.append(
        f"Mean \u00b1 standard deviation (n \u2212 1) over {_spread_words(table.n_repetitions)} "
        f"repetitions{single}."
    )
    return cell, rounded


def _marks(result, marks: str, notes: list) -> tuple:
    """Bold and underline of the cells and of the average ranks, as boolean arrays."""
    ranks = result.ranks
    best = ranks <= ranks.min(axis=1, keepdims=True) + _TIE
    avg = result.average_ranks
    avg_best = avg <= float(np.min(avg)) + _TIE
    if marks == "none":
        best, avg_best = np.zeros_like(best), np.zeros_like(avg_best)
    under = np.zeros(ranks.shape, dtype=bool)
    avg_under = np.zeros(result.n_methods, dtype=bool)
    if marks in ("wilcoxon", "t-test"):
        under, note = _paired_marks(result, marks)
        notes.append(note)
    elif marks == "posthoc":
        avg_under, note = _posthoc_marks(result, avg_best)
        notes.append(note)
    return best, under & ~best, avg_best, avg_under & ~avg_best


def _hidden_ties_note(result, rounded, marks: str) -> str | None:
    """Where rounding makes a reader see ties (or a bold value no better than another) that
    the unrounded scores do not have."""
    # (sorted by printed value, then rank: a group printed alike with two ranks has a
    # neighbour pair of equal value and different rank)
    ranks = result.ranks
    order = np.lexsort((ranks, rounded), axis=-1)
    pv = np.take_along_axis(rounded, order, axis=1)
    pr = np.take_along_axis(ranks, order, axis=1)
    hidden = ((pv[:, 1:] == pv[:, :-1]) & (np.abs(pr[:, 1:] - pr[:, :-1]) > _TIE)).any(axis=1)
    if not hidden.any():
        return None
    names = [result.datasets[i] for i in np.flatnonzero(hidden)]
    return (
        f"On {len(names)} data set{'s' if len(names) > 1 else ''} ({_listed(names)}) "
        f"scores printed alike have different ranks: ranks"
        f"{' and bold' if marks != 'none' else ''} come from the unrounded scores."
    )


def _wtl(result, rounded, control, decimals: int, notes: list) -> dict | None:
    """The W/T/L row of ``control`` (the analysis' control by default), ties as printed."""
    control = control if control is not None else result.control
    if control is None:
        return None
    n_d, k = rounded.shape
    c = result.methods.index(control)
    sign = 1.0 if result.higher_is_better else -1.0
    diff = sign * (rounded[:, [c]] - rounded)
    wins = (diff > 0).sum(axis=0)
    ties = (diff == 0).sum(axis=0)
    losses = (diff < 0).sum(axis=0)
    cells = ["\u2014" if j == c else f"{wins[j]}/{ties[j]}/{losses[j]}" for j in range(k)]
    notes.append(
        f"W/T/L: wins/ties/losses of {control} against each method over the {n_d} data "
        f"sets, ties being scores equal as printed ({decimals} decimals)."
    )
    return {"label": f"W/T/L of {control}", "cells": cells, "control": control}


def _compute(result, *, decimals, std, marks, control, caption, label) -> dict:
    """Every cell's text and mark as arrays (vectorised), with the footnotes."""
    _check_result(result)
    decimals = check_decimals(decimals)
    check_option("marks", marks, MARKS)
    if std is not None:
        std = check_bool("std", std)
    caption, label = _check_caption(caption), _check_label(label)
    if control is not None and control not in result.methods:
        raise CdplotError(
            f"option {opt('control', control)} is not a method; methods are "
            f"{_listed(result.methods)}",
            option="control",
        )
    if decimals is None:
        decimals = table_decimals(result.scores.values)
    show_std = _check_std(std, result.scores)
    notes: list[str] = []
    cell, rounded = _score_cells(result.scores, decimals, show_std, notes)
    best, under, avg_best, avg_under = _marks(result, marks, notes)
    hidden = _hidden_ties_note(result, rounded, marks)
    if hidden is not None:
        notes.append(hidden)
    wtl = _wtl(result, rounded, control, decimals, notes)
    direction = "higher is better" if result.higher_is_better else "lower is better"
    return {
        "cell": cell,
        "rank": _rank_texts(result.ranks),
        "best": best,
        "under": under,
        "avg": decimal_texts(result.average_ranks, 3)[0],
        "avg_best": avg_best,
        "avg_under": avg_under,
        "wtl": wtl,
        "notes": notes,
        "caption": caption,
        "label": label,
        "decimals": decimals,
        "direction": direction,
        "std": show_std,
        "marks": marks,
    }


def _paired_marks(result, test):
    """Underline what a paired test over the repetitions does not find worse than the best."""
    # ComparisonResult.versus_best refuses these scores too; checked here first so that the
    # message names the table's option and its alternative, marks='posthoc'
    table = result.scores
    reps = table.repetition_scores
    if reps is None or int(table.n_repetitions.max()) < 2:
        raise CdplotError(
            f"option {opt('marks', test)} tests each data set over its repetitions, and these "
            "scores have none (a long table with a fold or seed column has them, read with the "
            f"reader's keep_repetitions option); {opt('marks', 'posthoc')} tests over all data "
            "sets",
            option="marks",
        )
    if table.repetition_labels is None:
        raise CdplotError(
            f"option {opt('marks', test)} pairs the repetitions of two methods by their label, and "
            f"these rows name none (no fold/seed column); pass {opt('repetition_col')}",
            option="marks",
        )
    # the statistics (the best of each data set, the tests, their words) are the result's
    res = result.versus_best(test)
    return ~res.worse(result.alpha), "Underlined: " + res.describe(result.alpha)


def _posthoc_marks(result, avg_best):
    """Underline the average ranks the analysis' post-hoc test does not separate from the best."""
    b = int(np.argmax(avg_best))
    top = result.methods[b]
    if result.control is not None and result.control != top:
        raise CdplotError(
            f"option {opt('marks', 'posthoc')} marks the methods not significantly different from "
            f"the best-ranked method {top!r}, but the analysis tested only against "
            f"{opt('control')}{result.control!r}; leave control out or make it {top!r}",
            option="marks",
        )
    not_sig = ~result.significant[b]
    test = {
        "nemenyi": "Nemenyi test",
        "bonferroni-dunn": "Bonferroni-Dunn test",
        "friedman-z": "rank z-test",
        "wilcoxon": "Wilcoxon signed-rank test",
        "sign": "sign test",
    }.get(result.test, f"{result.test} test")
    corr = f" with {result.correction.capitalize()}'s correction" if result.correction else ""
    note = (
        f"Underlined average ranks: not significantly different from the best-ranked method "
        f"{top} by the {test}{corr} over all {result.n_datasets} data sets, "
        f"\u03b1 = {result.alpha:g}; this says nothing about any single data set."
    )
    return not_sig, note


# ---------------------------------------------------------------------------
# writers

# LaTeX spellings of the few non-ASCII characters of cdplot's own words
_LATEX_WORDS = {
    "\u00b1": r"$\pm$",
    "\u2212": "$-$",
    "\u2013": "--",
    "\u2014": "---",
    "\u03b1": r"$\alpha$",
    "\u2020": r"\dag{}",
}


def _latex_text(text: str) -> str:
    out = latex_escape(text)
    for c, word in _LATEX_WORDS.items():
        out = out.replace(c, word)
    return out


# Widths of Computer Modern Roman at 10 pt (cmr10, points), to decide whether a table
# fits an article's line of 345 pt: digits are 5 pt, capitals about 7.2, other characters
# as listed; bold (cmbx10) is about 15 % wider.  An estimate, not a measure: it only
# chooses the size of a float and whether to set the table in parts.
_LATEX_LINE_PT = 345.0
_LATEX_COLSEP_PT = 12.0
_BOLD = 1.15
_NARROW = {".": 2.78, ",": 2.78, " ": 3.33, "(": 3.89, ")": 3.89, "\u00b1": 7.78}
_CMR10 = {
    **_NARROW,
    **dict(
        zip(
            "abcdefghijklmnopqrstuvwxyz",
            [
                5.0,
                5.56,
                4.44,
                5.56,
                4.44,
                3.06,
                5.0,
                5.56,
                2.78,
                3.06,
                5.28,
                2.78,
                8.33,
                5.56,
                5.0,
                5.56,
                5.28,
                3.92,
                3.94,
                3.89,
                5.56,
                5.28,
                7.22,
                5.28,
                5.28,
                4.44,
            ],
            strict=True,
        )
    ),
    "+": 7.78,
    "=": 7.78,
    "&": 7.78,
    "%": 8.33,
    "-": 3.33,
    "/": 5.0,
    ":": 2.78,
    ";": 2.78,
    "_": 5.0,
    "M": 9.17,
    "W": 10.28,
    "I": 3.61,
    "J": 5.14,
}


def _latex_width(text: str) -> float:
    return sum(_CMR10.get(c, 7.2 if c.isupper() else 5.0) for c in text)


# the sizes a table float may be set in, with their scale
# (the 9 and 8 pt fonts are drawn relatively wider than 10 pt: pdflatex measured the
# text of a table at 0.85 of its 10 pt width in \footnotesize; the column gaps stay)
_LATEX_SIZES = (("", 1.0), ("\\small", 0.93), ("\\footnotesize", 0.85))


# a table prints at most this many decimals unless asked (more only to keep three
# significant digits of small scores): scores typed with five decimals (0.85432) differ in
# the fourth and fifth by noise, and the wider cells split a table of six methods in parts
_TABLE_DECIMALS = 3


def table_decimals(values) -> int:
    """The default decimals of a data table: the data's own precision, at most three.

    :func:`~cdplot.reporting._format.auto_decimals` gives the fewest decimals
    that print every score exactly (else three significant digits); a table
    keeps that up to ``_TABLE_DECIMALS``, or up to three significant digits
    of the largest score when scores are small (an error rate of 0.00123).
    """
    own = auto_decimals(values)
    x = np.abs(np.asarray(values, dtype=float))
    x = x[np.isfinite(x) & (x > 0)]
    significant = 2 - math.floor(math.log10(float(x.max()))) if x.size else 0
    return min(own, max(_TABLE_DECIMALS, significant))


def _latex_layout(t, names, datasets, rotate, first_pt, as_float, split=None):
    """``(size command, blocks of methods, estimated width)`` of the LaTeX table.

    A float is set at the largest of the normal, small and footnote sizes at
    which it fits the line; a table that does not fit at the footnote size
    is split into parts of fewer methods.  A bare tabular keeps the size of
    the text it is put in (its width is said in a comment).  ``split=False``
    keeps one tabular whatever its width (at the smallest size of a float);
    ``split=True`` sets a float at the normal size and splits it as soon as
    it is wider than the line.
    """
    k = len(names)
    texts = np.char.add(
        np.char.add(t["cell"].astype(str), " ("), np.char.add(t["rank"].astype(str), ")")
    )
    # cells hold digits (5 pt) and a few narrower characters: counted, all at once
    cell_pt = 5.0 * np.char.str_len(texts)
    for c, pt in _NARROW.items():
        cell_pt += (pt - 5.0) * np.char.count(texts, c)
    cell_max = (cell_pt * np.where(t["best"], _BOLD, 1.0)).max(axis=0)
    widths = []
    for j in range(k):
        body = float(cell_max[j])
        # a name on end is as wide as its lines: about 12 em of text per line
        lines = -(-_latex_width(names[j]) // 120.0)
        head = 11.0 * lines if rotate else _latex_width(names[j])
        widths.append(max(body, head, _latex_width(str(t["avg"][j]))) + _LATEX_COLSEP_PT)
    total = first_pt + sum(widths)

    def at(scale, width, n_gaps):
        return n_gaps * _LATEX_COLSEP_PT + (width - n_gaps * _LATEX_COLSEP_PT) * scale

    sizes = _LATEX_SIZES if as_float and split is not True else _LATEX_SIZES[:1]
    for command, scale in sizes:
        if at(scale, total, k + 1) <= _LATEX_LINE_PT:
            return command, [list(range(k))], at(scale, total, k + 1)
    if split is False:
        command, scale = sizes[-1]
        return command, [list(range(k))], at(scale, total, k + 1)
    command, scale = sizes[-1] if as_float else ("", _LATEX_SIZES[-1][1])
    room = max(_LATEX_LINE_PT / scale - first_pt, max(widths))
    # the fewest parts that fit, with as even a number of methods as they allow
    for n_parts in range(1, k + 1):
        per = -(-k // n_parts)
        blocks = [list(range(a, min(a + per, k))) for a in range(0, k, per)]
        if all(sum(widths[j] for j in b) <= room for b in blocks):
            break
    return command, blocks, at(scale, total, k + 1)


def _latex_mark(text: str, bold, under) -> str:
    if bold:
        return f"\\textbf{{{text}}}"
    return f"\\underline{{{text}}}" if under else text


def _latex_tabular(t, cells, block, datasets, first_col: str, header: list) -> list[str]:
    """The ``tabular`` of the methods ``block``: one row per data set, the average ranks and
    the W/T/L row."""
    lines = [
        "\\begin{tabular}{" + first_col + "r" * len(block) + "}",
        "\\toprule",
        " & ".join(header) + " \\\\",
        "\\midrule",
    ]
    for i, d in enumerate(datasets):
        row = [
            _latex_mark(f"{cells[i, j]} ({t['rank'][i, j]})", t["best"][i, j], t["under"][i, j])
            for j in block
        ]
        lines.append(" & ".join([latex_escape(d), *row]) + " \\\\")
    lines.append("\\midrule")
    avg = [_latex_mark(t["avg"][j], t["avg_best"][j], t["avg_under"][j]) for j in block]
    lines.append(" & ".join(["Average rank", *avg]) + " \\\\")
    if t["wtl"] is not None:
        w = [t["wtl"]["cells"][j].replace("\u2014", "---") for j in block]
        lines.append(" & ".join([_latex_text(t["wtl"]["label"]), *w]) + " \\\\")
    return [*lines, "\\bottomrule", "\\end{tabular}"]


def _latex(t, result) -> str:
    names = list(result.methods)
    datasets = list(result.datasets)
    what = f"{latex_escape(result.metric)}, " if result.metric else ""
    body = "mean +/- sd (rank)" if t["std"] else "score (rank)"
    bold = ", best of each data set in bold" if t["marks"] != "none" else ""
    as_float = t["float"]
    # long method names stand on end
    rotate = any(_latex_width(m) > 70.0 for m in names)
    firsts = [*datasets, "Average rank"]
    if t["wtl"] is not None:
        firsts.append(t["wtl"]["label"])
    widest = max(_latex_width(d) for d in firsts)
    # long data-set names wrap in a column of at most 130 pt (two lines for 60 characters)
    long_names = widest > 130.0
    first_pt = (130.0 if long_names else widest) + _LATEX_COLSEP_PT
    lines = [f"% {what}{t['direction']}: {body}{bold}"]
    needs = ["booktabs"] + (["graphicx"] if rotate else []) + (["array"] if long_names else [])
    lines.append("% needs " + " ".join(f"\\usepackage{{{p}}}" for p in needs))
    size, blocks, _ = _latex_layout(t, names, datasets, rotate, first_pt, as_float, t.get("split"))
    if len(blocks) > 1:
        # a float never breaks across pages: each part is a float of its own
        lines.append(f"% in {len(blocks)} parts of at most {max(map(len, blocks))} methods")
    if not as_float:
        lines += [f"% {_latex_text(n)}" for n in t["notes"]]
    first_col = ">{\\raggedright\\arraybackslash}p{130pt}" if long_names else "l"

    def head(name):
        esc = latex_escape(name)
        # on end, wrapped to 12 em so that 60 characters take a few lines, not a page
        return f"\\rotatebox{{90}}{{\\parbox{{12em}}{{\\raggedright {esc}}}}}" if rotate else esc

    cells = t["cell"]
    if t["std"]:
        cells = np.array([str(c).replace(" \u00b1 ", " $\\pm$ ") for c in cells.ravel()])
        cells = cells.reshape(t["cell"].shape)
    for n_block, block in enumerate(blocks):
        last = n_block + 1 == len(blocks)
        if as_float:
            lines += ["\\begin{table}[tbp]", "\\centering"]
            if t["caption"]:
                part = f" (part {n_block + 1} of {len(blocks)})" if len(blocks) > 1 else ""
                lines.append(f"\\caption{{{_latex_text(t['caption'])}{part}}}")
            if t["label"] and n_block == 0:
                lines.append(f"\\label{{{t['label']}}}")
            if size:
                lines.append(size)
        elif n_block:
            lines.append("")
        header = ["Data set", *(head(names[j]) for j in block)]
        lines += _latex_tabular(t, cells, block, datasets, first_col, header)
        if as_float:
            if last and t["notes"]:
                lines.append("\\par\\smallskip")
                lines.append(
                    "{\\footnotesize\\raggedright "
                    + "\\par\n".join(_latex_text(n) for n in t["notes"])
                    + "\\par}"
                )
            lines.append("\\end{table}")
    return "\n".join(lines) + "\n"


def _markdown(t, result) -> str:
    k = len(result.methods)
    lines = []
    if t["caption"]:
        lines += [f"Table: {markdown_escape(t['caption'])}", ""]

    def mark(text, b, u):
        if b:
            return f"**{text}**"
        return f"{text}{_DAGGER}" if u else text

    lines += [
        "| " + " | ".join(["Data set", *(markdown_escape(m) for m in result.methods)]) + " |",
        "|:--" + "|--:" * k + "|",
    ]
    for i, d in enumerate(result.datasets):
        row = [
            mark(f"{t['cell'][i, j]} ({t['rank'][i, j]})", t["best"][i, j], t["under"][i, j])
            for j in range(k)
        ]
        lines.append("| " + " | ".join([markdown_escape(d), *row]) + " |")
    avg = [mark(t["avg"][j], t["avg_best"][j], t["avg_under"][j]) for j in range(k)]
    lines.append("| " + " | ".join(["*Average rank*", *avg]) + " |")
    if t["wtl"] is not None:
        lines.append(
            "| "
            + " | ".join([f"*{markdown_escape(t['wtl']['label'])}*", *t["wtl"]["cells"]])
            + " |"
        )
    if t["notes"]:
        # Markdown has no underline: the dagger stands for it, and its note says so
        lines.append("")
        for n in t["notes"]:
            n = markdown_escape(n)
            n = n.replace("Underlined average ranks:", f"Average ranks marked {_DAGGER}:", 1)
            lines.append(n.replace("Underlined:", f"Scores marked {_DAGGER}:", 1))
    return "\n".join(lines) + "\n"


def _html(model) -> str:
    return render_block("data_table.html.j2", "data_table_body", {"table": model}) + "\n"


def data_table(
    result: ComparisonResult,
    *,
    format: str = "latex",
    decimals: int | None = None,
    caption: str | None = None,
    label: str | None = None,
    latex_float: bool | None = None,
    std: bool | None = None,
    marks: str = "best",
    control: str | None = None,
    split: bool | None = None,
) -> str:
    """The data table of an analysis: scores with ranks, marks, average ranks.

    Parameters
    ----------
    result : ComparisonResult
        An analysis from :func:`cdplot.compare`.
    format : {'latex', 'markdown', 'html'}, default 'latex'
        ``'latex'`` is a booktabs ``tabular`` (needs ``\\usepackage{booktabs}``)
        with ``\\textbf`` for the best score of each data set; ``'markdown'``
        a pipe table; ``'html'`` a ``<table>`` with every name escaped.
    decimals : int, optional
        Decimals of the scores (0 to 10).  By default the data's own
        precision (the fewest that print every score exactly: three for
        Demsar's AUCs) up to three, or up to three significant digits of
        the largest score when the scores are small.
    caption : str, optional
        The table's caption, escaped for the format: LaTeX ``\\caption`` in a
        ``table`` float, a ``Table: ...`` line above a Markdown table (as
        pandoc reads it), an HTML ``<caption>``.
    label : str, optional
        The key to refer to the table (``'tab:auc'``): LaTeX ``\\label``
        (needs ``caption``, which LaTeX numbers), HTML ``id``; Markdown has
        no labels, so it is refused there.
    latex_float : bool, optional
        LaTeX: put the ``tabular`` in a ``table`` float (centred, caption
        above, footnotes below).  By default a float exactly when
        ``caption`` or ``label`` is given, else the bare ``tabular``, with
        the footnotes as ``%`` comments.
    std : bool, optional
        Print each score as mean ± standard deviation (n - 1) over the
        repetitions, the deviation with the same decimals (LaTeX
        ``$\\pm$``).  By default when the scores were read with
        ``keep_repetitions=True`` from data with repetitions; ``True``
        without repetitions is an error.
    marks : {'best', 'none', 'wilcoxon', 't-test', 'posthoc'}, default 'best'
        ``'best'``: the best score of each data set (by the unrounded
        scores) and the best average rank in bold.  ``'wilcoxon'`` and
        ``'t-test'`` also underline, on each data set, the methods not
        significantly worse than its best by a paired two-sided test over
        the repetitions, Holm-corrected within the data set (needs
        repetitions with labels).  ``'posthoc'`` underlines the average
        ranks the analysis' post-hoc test does not separate from the best
        average rank, a statement over all data sets, never per data set.
        ``'none'`` marks nothing.  Markdown shows an underline as ``†``.
        The footnotes say which test was used.
    control : str, optional
        Add a W/T/L row: the wins, ties and losses of this method against
        each other one over the data sets, ties being scores equal as
        printed.  By default the analysis' control, if it has one.
    split : bool, optional
        LaTeX: whether a table wider than the text width (an article's
        345 pt) is set in parts of fewer methods.  By default one tabular
        while it fits the line (a float at the normal, small or footnote
        size), else parts; ``False`` keeps one tabular whatever its width,
        ``True`` splits a float rather than setting it smaller.

    Returns
    -------
    str
        The table, ending with a newline.

    Raises
    ------
    CdplotError
        If an option is invalid, ``result`` is not a
        :class:`~cdplot.ComparisonResult`, or an option needs what the
        scores lack (``std=True`` or ``marks='wilcoxon'`` without
        repetitions, ``label`` without ``caption`` in LaTeX).

    Notes
    -----
    Ranks are those of the analysis (1 = best, mid-ranks for ties), so the
    bold cells follow the direction of the scores.  Printed values are
    rounded on their shortest decimal text, half away from zero (0.165 ->
    0.17 and 0.845 -> 0.85 at two decimals, see :func:`decimal_texts`),
    while ranks, bold, underlines and W/T/L wins come from the unrounded
    scores (W/T/L ties from the printed ones); when rounding makes values
    with different ranks print alike, a footnote names those data sets.
    The paired tests of ``marks`` treat the repetitions as independent,
    which cross-validation folds are not (Nadeau and Bengio 2003), and the
    footnote says so.  Names are escaped for the format: LaTeX's special
    characters become commands, Markdown's punctuation is backslash-escaped,
    HTML is escaped by Jinja2.  A LaTeX table too wide for an article's line
    is set in parts of fewer methods, each with the data-set column.

    References
    ----------
    .. [1] J. Demsar, "Statistical comparisons of classifiers over multiple
           data sets", JMLR 7 (2006) 1-30, Table 6.
    .. [2] C. Nadeau and Y. Bengio, "Inference for the generalization
           error", Machine Learning 52 (2003) 239-281.

    Examples
    --------
    >>> import cdplot
    >>> res = cdplot.compare(cdplot.load_example("demsar2006"))
    >>> print(cdplot.data_table(res, format="markdown").splitlines()[2])
    | adult (sample) | 0.763 (4) | 0.768 (3) | 0.771 (2) | **0.798 (1)** |
    >>> print(cdplot.data_table(res, format="markdown", control="C4.5").splitlines()[-3])
    | *W/T/L of C4.5* | — | 2/2/10 | 6/1/7 | 2/1/11 |
    """
    check_option("format", format, FORMATS)
    latex_float = check_float_options(format, caption, label, latex_float)
    if split is not None:
        split = check_bool("split", split)
        if format != "latex":
            raise CdplotError(
                f"option {opt('split', split)} applies to LaTeX tables; {format} tables are "
                "one table",
                option="split",
            )
    kw = {
        "decimals": decimals,
        "std": std,
        "marks": marks,
        "control": control,
        "caption": caption,
        "label": label,
    }
    if format == "html":
        return _html(table_model(result, **kw))
    t = _compute(result, **kw)
    if format == "latex":
        t["float"] = bool(latex_float) or caption is not None or label is not None
        t["split"] = split
        return _latex(t, result)
    return _markdown(t, result)
