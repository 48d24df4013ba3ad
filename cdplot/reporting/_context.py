"""The values a report template shows, computed from the results.

Everything here is plain data (strings, numbers, lists and dicts): the
templates only lay it out, and a user's template in the sandbox sees no
object it could call into.  Numbers are formatted here, once, so that a
report, a LaTeX table and the terminal print the same digits.
"""

from __future__ import annotations

import math
import platform
import re
import sys
from html import escape as html_escape

import numpy as np

from .._version import __version__
from ..stats._effect_sizes import magnitude
from ..stats._formatting import format_p
from ..stats._results import CORRECTION_LABELS, JSON_MATRIX_MAX_METHODS
from ._format import auto_decimals, fmt_number, fmt_p, symbols_markup
from ._layout import (
    LANDSCAPE_WIDTH_PT,
    LEAD_PT,
    MULTI_LEAD_PT,
    TEXT_WIDTH_PT,
    block_page_starts,
    data_table_layout,
    figure_placement,
    matrix_fits,
    one_line_size,
    rank_ranges,
)
from ._references import (
    anova_paragraph,
    bibtex,
    bibtex_columns,
    choice_paragraph,
    consistency_paragraph,
    methods_paragraphs,
    references_for,
)
from ._tables import table_model

__all__ = [
    "section_context",
    "with_figures",
    "consistency_context",
    "document_context",
    "choice_context",
    "anova_section_context",
    "anova_document_context",
]


#: What a report of average ranks alone (:func:`cdplot.compare_ranks`) leaves out, said once.
RANKS_ONLY_OMITTED = (
    "The input held only the average ranks over {n} data sets, so the table of scores and "
    "ranks per data set, the mean scores, wins, ties and losses, the tie correction and the "
    "Wilcoxon and sign tests are left out."
)


def ranks_only(r) -> bool:
    """Whether ``r`` was computed from average ranks alone (it has no per-data-set ranks)."""
    return not hasattr(r, "ranks")


def _datasets(r) -> tuple:
    return () if ranks_only(r) else tuple(r.datasets)


def _f(x, d=3) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "\u2013"
    if math.isinf(x):
        return "\u221e"
    return f"{x:.{d}f}"


def _omnibus_rows(r) -> list[dict]:
    # "symbol" picks the typeset statistic in the template (chi2: chi-square_F, ff: F_F)
    f, ff = r.friedman, r.iman_davenport
    k1, dof2 = ff.dof
    rows = []
    if f.tie_correction:
        rows.append(
            {
                "test": "Friedman",
                "symbol": "chi2",
                "variant": "tie-corrected",
                "statistic": _f(f.statistic, 4),
                "dof": str(f.dof),
                "p": fmt_p(f.pvalue),
                "used": False,
            }
        )
    rows.append(
        {
            "test": "Friedman",
            "symbol": "chi2",
            "variant": "Dem\u0161ar's formula, no tie correction",
            "statistic": _f(f.statistic_uncorrected, 4),
            "dof": str(f.dof),
            "p": fmt_p(f.pvalue_uncorrected),
            "used": False,
        }
    )
    source = "tie-corrected" if f.tie_correction else "uncorrected"
    rows.append(
        {
            "test": "Iman\u2013Davenport",
            "symbol": "ff",
            "variant": f"from the {source} \u03c7\u00b2",
            "statistic": _f(ff.statistic, 4),
            "dof": f"{k1}, {dof2}",
            "p": fmt_p(ff.pvalue),
            "used": True,
        }
    )
    if f.tie_correction:
        rows.append(
            {
                "test": "Iman\u2013Davenport",
                "symbol": "ff",
                "variant": "from the uncorrected \u03c7\u00b2",
                "statistic": _f(ff.statistic_uncorrected, 4),
                "dof": f"{k1}, {dof2}",
                "p": fmt_p(ff.pvalue_uncorrected),
                "used": False,
            }
        )
    return rows


# up to this many significant pairs are listed by name, sorted by p-value; beyond that by
# number (and the method table's "differs from" column lists them all)
MAX_LISTED_PAIRS = 12
# the longest text of one kind of remark on single pairs (about a quarter page each)
MAX_REMARK_CHARS = 1400
# up to this many methods the groups are listed by name, beyond by number
MAX_NAMED_CLIQUES = 10
# up to this many remarks are written out as sentences with the methods' names
MAX_REMARK_SENTENCES = 6
# the summary names this many significant pairs, then says the pairwise section has them
# all (thirty 60-character names made the 60-method summary a page of names)
REPORT_LISTED_PAIRS = 6


def _pairs_by_first(pairs, pos) -> list[tuple[int, list[int]]]:
    """``[(i, [j, ...]), ...]``: each pair as printed numbers, grouped by the better-ranked one."""
    grouped: dict[int, list[int]] = {}
    for a, b in pairs:
        i, j = sorted((pos[a], pos[b]))
        grouped.setdefault(i, []).append(j)
    return sorted(grouped.items())


def _condensed(pairs, pos) -> tuple[str, int]:
    """Pairs as ``'3 with 12, 14\u201320; 4 with 13'``, cut at ``MAX_REMARK_CHARS``.

    Returns the text and how many pairs it leaves out.
    """
    parts, shown, total = [], 0, len(pairs)
    length = 0
    for i, js in _pairs_by_first(pairs, pos):
        part = f"{i} with {rank_ranges(js)}"
        if length + len(part) > MAX_REMARK_CHARS and parts:
            break
        parts.append(part)
        length += len(part) + 2
        shown += len(js)
    return "; ".join(parts), total - shown


def _remarks(r, pos) -> dict:
    """The remarks on single pairs that the bars of a CD diagram cannot show, condensed."""
    n = len(r.bridges) + len(r.unjoined)
    if n <= MAX_REMARK_SENTENCES:
        sentences = [
            f"{a} and {c} differ significantly, although {b} differs from neither."
            for a, b, c in r.bridges
        ]
        sentences += [
            f"{a} and {b} do not differ significantly, but share no group because a method "
            "ranked between them differs from one of them."
            for a, b in r.unjoined
        ]
        return {"sentences": sentences, "kinds": []}
    kinds = []
    if r.bridges:
        bridged = sorted({tuple(sorted((a, c), key=pos.get)) for a, _, c in r.bridges})
        text, more = _condensed(bridged, pos)
        kinds.append(
            {
                "lead": f"{len(bridged)} pair{'s' if len(bridged) != 1 else ''} differ "
                "significantly although a method ranked between them differs from neither",
                "pairs": text,
                "more": more,
            }
        )
    if r.unjoined:
        text, more = _condensed(r.unjoined, pos)
        kinds.append(
            {
                "lead": f"{len(r.unjoined)} pair{'s' if len(r.unjoined) != 1 else ''} do not "
                "differ significantly but share no group",
                "pairs": text,
                "more": more,
            }
        )
    return {"sentences": [], "kinds": kinds}


def _pairwise(r, order, *, paper: str = "a4") -> dict:
    idx = [r.methods.index(m) for m in order]
    pos = {m: i for i, m in enumerate(order, start=1)}
    # the k x k matrix in printed order as Python floats and bools at once (indexing the
    # arrays cell by cell cost more than the rest); a p-value's text is formatted once
    # (the matrix is symmetric)
    ordered = np.ix_(idx, idx)
    pvalues = np.asarray(r.pvalues, dtype=float)[ordered].tolist()
    significant = np.asarray(r.significant, dtype=bool)[ordered].tolist()
    p_texts: dict[float, str] = {}
    rows = []
    texts = []
    for n, a in enumerate(order, start=1):
        cells = []
        for m, (p, sig) in enumerate(zip(pvalues[n - 1], significant[n - 1], strict=True)):
            if m == n - 1:
                cells.append({"text": "", "kind": "diag", "significant": False})
            elif math.isnan(p):
                cells.append({"text": "\u00b7", "kind": "untested", "significant": False})
            else:
                text = p_texts.get(p)
                if text is None:
                    text = p_texts[p] = fmt_p(p)
                texts.append(text + ("*" if sig else ""))
                cells.append({"text": text, "kind": "p", "significant": sig})
        rows.append({"number": n, "method": a, "cells": cells})
    row_labels = [f"{n} {m}" for n, m in enumerate(order, start=1)]
    size = matrix_fits(row_labels, texts, paper=paper)
    # up to six methods the columns are named, when their names fit (one long word each
    # may not); else numbered as the rows
    named = None
    if size is not None and len(order) <= 6:
        named = matrix_fits(row_labels, texts, paper=paper, column_labels=order)
    if named is not None:
        size = named
    if r.test == "nemenyi":
        label = "Nemenyi p-values (studentized range of the rank differences)"
    elif r.test == "bonferroni-dunn":
        label = "Bonferroni-adjusted p-values of the rank z-tests against the control"
    else:
        label = (
            "p-values adjusted with "
            f"{CORRECTION_LABELS.get(r.correction, r.correction)}'s procedure"
        )
    if r.critical_difference is not None:
        rule = f"|R_i \u2212 R_j| \u2265 CD = {r.critical_difference:.3f}"
    else:
        rule = f"adjusted p \u2264 \u03b1 = {r.alpha:g}"
    # every significant pair, smallest p-value first (ties in rank order)
    sig = []
    for a_i, a in enumerate(order):
        for b_i in range(a_i + 1, len(order)):
            if significant[a_i][b_i]:
                sig.append((pvalues[a_i][b_i], a_i + 1, b_i + 1, a, order[b_i]))
    sig.sort(key=lambda t: (t[0], t[1], t[2]))
    n_tested = int(np.sum(~np.isnan(r.pvalues[np.triu_indices(r.n_methods, 1)])))
    listed, compact, n_unlisted = [], [], 0
    if len(sig) <= MAX_LISTED_PAIRS:
        listed = [{"p": fmt_p(p), "a": a, "b": b, "na": na, "nb": nb} for p, na, nb, a, b in sig]
    else:
        # by number, grouped by the printed p-value, smallest first, cut at about a quarter page
        groups: dict[str, list[str]] = {}
        length = 0
        for p, na, nb, _, _ in sig:
            text = fmt_p(p)
            item = f"{na}/{nb}"
            if length + len(item) > MAX_REMARK_CHARS:
                n_unlisted += 1
                continue
            groups.setdefault(text, []).append(item)
            length += len(item) + 2
        compact = [
            {"p": f"p < {t[1:]}" if t.startswith("<") else f"p = {t}", "pairs": ", ".join(items)}
            for t, items in groups.items()
        ]
    return {
        "methods": list(order),
        "numbers": list(range(1, len(order) + 1)),
        "rows": rows,
        "matrix": size is not None,
        "size_class": f"fs-{int(round(size * 10))}" if size is not None else "",
        "named_columns": named is not None,
        "label": label,
        "rule": rule,
        "cliques": [
            {
                "letter": _group_letters(n),
                "names": clique,
                "numbers": rank_ranges(pos[m] for m in clique),
            }
            for n, clique in enumerate(_lettered_cliques(r, pos))
        ],
        "named_cliques": len(order) <= MAX_NAMED_CLIQUES,
        # tests against a control say nothing about the other pairs: no groups to list
        "all_pairs_tested": r.all_pairs_tested,
        "control": r.control,
        "remarks": _remarks(r, pos),
        "n_remarks": len(r.bridges) + len(r.unjoined),
        "pairs": [[a, b] for _, _, _, a, b in sig],
        "n_significant": len(sig),
        "n_tested": n_tested,
        "listed": listed,
        "compact": compact,
        "n_unlisted": n_unlisted,
    }


def _one_line(mt: dict, paper: str) -> dict:
    """The method table with the size at which its rows print on one line (None: they wrap).

    Auto table layout shares out the line by the columns' widest content,
    headers included, so long names wrap although the cells fit; measured
    here, the names are kept on one line when every row fits.
    """
    rows = mt["rows"]
    columns = [("#", [str(row["number"]) for row in rows], False)]
    columns.append(("Method", [row["method"] for row in rows], False))
    if mt["duels"] is not None:
        columns.append(("Mean score", [row["mean"] for row in rows], False))
    if mt["effect"]:
        columns.append(
            (f"\u03b4 vs {mt['effect']['number']}", [row["effect"] for row in rows], False)
        )
    columns.append(("Average rank", [row["average_rank"] for row in rows], True))
    if mt["duels"] is not None:
        columns.append(("W / T / L", [row["wtl"] for row in rows], False))
    columns.append(("Group", [row["groups"] for row in rows], False))
    columns.append(("Differs from #", [row["differs"] for row in rows], False))
    size = one_line_size(columns, paper=paper)
    return dict(mt, one_line=None if size is None else f"fs-{int(round(size * 10))}")


def _lettered_cliques(r, pos) -> list[list[str]]:
    """The cliques with their members in printed order, sorted by their best member."""
    return sorted((sorted(c, key=pos.get) for c in r.cliques), key=lambda c: [pos[m] for m in c])


def _group_letters(n: int) -> str:
    """a, b, ..., z, A, ..., Z, then a2, b2, ...: the compact letter display's names."""
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return letters[n % 52] + (str(n // 52 + 1) if n >= 52 else "")


def method_table(r, order, *, decimals: int) -> dict:
    """One row per method in ``order``: mean score, average rank, wins/ties/losses, groups.

    Wins, ties and losses count the duels with every other method on every
    data set (``n_datasets * (n_methods - 1)`` in all).  Groups are the
    cliques of methods that do not differ significantly, lettered in rank
    order: two methods sharing a letter are in one group.  "Differs from"
    lists the printed numbers of the methods a method differs from
    significantly.
    """
    idx = [r.methods.index(m) for m in order]
    pos = {m: i for i, m in enumerate(order, start=1)}
    # average ranks alone (compare_ranks) have no scores to average and no duels to count
    scored = not ranks_only(r)
    if scored:
        ranks = np.asarray(r.ranks, dtype=float)[:, idx]
        values = np.asarray(r.scores.values, dtype=float)[:, idx]
        diff = ranks[:, :, None] - ranks[:, None, :]
        wins = (diff < -1e-9).sum(axis=(0, 2))
        losses = (diff > 1e-9).sum(axis=(0, 2))
        ties = ranks.shape[0] * (len(order) - 1) - wins - losses
    cliques = _lettered_cliques(r, pos)
    letters: dict[str, str] = dict.fromkeys(order, "")
    for n, clique in enumerate(cliques):
        for m in clique:
            letters[m] += _group_letters(n)
    sig = np.asarray(r.significant, dtype=bool)[np.ix_(idx, idx)]
    best = float(np.min(r.average_ranks))
    effect = _effect_column(r, order) if scored else None
    rows = []
    for n, m in enumerate(order):
        rows.append(
            {
                "number": n + 1,
                "method": m,
                "mean": fmt_number(float(np.mean(values[:, n])), decimals) if scored else None,
                "effect": effect["cells"][n] if effect else "",
                "average_rank": f"{r.average_rank(m):.3f}",
                "best": bool(r.average_rank(m) <= best + 1e-9),
                "wtl": f"{int(wins[n])}\u2009/\u2009{int(ties[n])}\u2009/\u2009{int(losses[n])}"
                if scored
                else None,
                "groups": letters[m] or "\u2013",
                "differs": rank_ranges(np.flatnonzero(sig[n]) + 1) or "\u2013",
            }
        )
    duels = r.n_datasets * (len(order) - 1) if scored else None
    return {"rows": rows, "n_groups": len(cliques), "duels": duels, "effect": effect}


# the significant pairs whose effect sizes the report lists, largest |delta| first; the rest
# are in the JSON output (a quarter of a page at this many; 60 methods x 40 data sets must fit
# in 12 pages)
MAX_EFFECT_ROWS = 8


# up to this many methods the method table has a column of Cliff's delta against the best
# method; beyond, the narrower name column would wrap most names (a 60-method table grew by
# 40 % of a page), and the Effect sizes section lists the largest effects instead
MAX_EFFECT_COLUMN_METHODS = 30


def _effect_column(r, order) -> dict | None:
    """Cliff's delta of the reference method (the control, else the best) against each method.

    ``None`` above :data:`MAX_EFFECT_COLUMN_METHODS` methods.
    """
    if r.n_methods > MAX_EFFECT_COLUMN_METHODS:
        return None
    es = r.effect_sizes
    ref = r.control if r.control is not None else order[0]
    i = es.index(ref)
    cells = []
    for m in order:
        if m == ref:
            cells.append("\u2013")
            continue
        # the value only: a magnitude word would narrow the name column until names wrap
        # (the table of the significant pairs gives the magnitudes)
        cells.append(fmt_number(float(es.cliffs_delta[i, es.index(m)]), 2))
    return {"reference": ref, "number": order.index(ref) + 1, "cells": cells}


def _effect_pairs(r, order) -> dict:
    """The effect sizes of the significant pairs, largest |delta| first, capped."""
    pos = {m: i for i, m in enumerate(order, start=1)}
    if r.n_methods > JSON_MATRIX_MAX_METHODS:
        return {"computed": False, "limit": JSON_MATRIX_MAX_METHODS, "rows": [], "largest": None}
    es = r.effect_sizes
    pairs = r.significant_pairs()
    index = {m: i for i, m in enumerate(es.methods)}
    rows = []
    for a, b in pairs:
        i, j = index[a], index[b]
        delta, d = float(es.cliffs_delta[i, j]), float(es.cohens_d[i, j])
        rows.append(
            {
                "na": pos[a],
                "a": a,
                "nb": pos[b],
                "b": b,
                "size": abs(delta),
                "delta": fmt_number(delta, 3),
                "delta_label": magnitude(delta),
                "d": fmt_number(d, 2),
                "d_label": magnitude(d, "cohens_d"),
            }
        )
    rows.sort(key=lambda row: (-row["size"], row["na"], row["nb"]))
    largest = None
    if not pairs:
        delta = np.abs(es.cliffs_delta)
        i, j = np.unravel_index(int(np.argmax(delta)), delta.shape)
        if es.cliffs_delta[i, j] < 0:
            i, j = j, i
        v, d = float(es.cliffs_delta[i, j]), float(es.cohens_d[i, j])
        largest = {
            "a": es.methods[i],
            "b": es.methods[j],
            "delta": fmt_number(v, 3),
            "delta_label": magnitude(v),
            "d": fmt_number(d, 2),
            "d_label": magnitude(d, "cohens_d"),
        }
    return {
        "computed": True,
        "rows": rows[:MAX_EFFECT_ROWS],
        "n_significant": len(rows),
        "n_unlisted": max(0, len(rows) - MAX_EFFECT_ROWS),
        "largest": largest,
        "numbered": len(order) > 6,
    }


def _posthoc(r) -> dict:
    ranking = [
        {"position": pos, "method": m, "average_rank": f"{r.average_rank(m):.3f}"}
        for pos, m in enumerate(r.order(), start=1)
    ]
    return {
        "procedure": r.procedure(),
        "alpha": f"{r.alpha:g}",
        "critical_value": None if r.critical_value is None else f"{r.critical_value:.4f}",
        "critical_difference": None
        if r.critical_difference is None
        else f"{r.critical_difference:.4f}",
        "correction": None
        if r.correction is None
        else CORRECTION_LABELS.get(r.correction, r.correction),
        "control": r.control,
        "ranking": ranking,
        "sentences": r.posthoc_sentences(),
    }


def _main_posthoc_sentences(r) -> list[str]:
    """The core's post-hoc sentences without its remarks on single pairs.

    ``posthoc_sentences`` ends with one sentence per bridge and per unjoined
    pair; with many methods they run to dozens, so the summary leaves them to
    the pairwise section, which lists them.
    """
    return r.posthoc_sentences(
        remarks=False,
        max_pairs=REPORT_LISTED_PAIRS,
        more_pairs="the pairwise comparisons",
        more_groups="the pairwise comparisons",
    )


def _data_table(r, order, *, decimals, paper: str, multi: bool = False) -> dict:
    """The data table in ``order``, with the layout that fits the page.

    ``blocks`` holds one table model per printed table: the whole table when
    it fits the text width at a legible size, else column blocks of the
    methods, each repeating the data-set column and the average-rank row.
    """
    model = table_model(r, decimals=decimals)
    idx = [r.methods.index(m) for m in order]
    rows = [
        {"dataset": row["dataset"], "cells": [row["cells"][j] for j in idx]}
        for row in model["rows"]
    ]
    average = [model["average"][j] for j in idx]
    cell_texts = [
        [f"{row['cells'][n]['score']} ({row['cells'][n]['rank']})" for row in rows]
        + [average[n]["text"]]
        for n in range(len(order))
    ]
    # the headers of a split table carry the method's number (measured with it)
    numbered = [f"{n} {m}" for n, m in enumerate(order, start=1)]
    datasets = [row["dataset"] for row in rows]
    lay = data_table_layout(list(order), datasets, cell_texts, paper=paper)
    split = lay.split
    width_pt = TEXT_WIDTH_PT[paper]
    if split:
        # the appendix has landscape pages: fewer, wider blocks
        lay = data_table_layout(numbered, datasets, cell_texts, paper=paper, landscape=True)
        width_pt = LANDSCAPE_WIDTH_PT[paper]
    # in the appendix, a block that cannot fit below the last starts a page of its own
    starts = (False,) * len(lay.blocks)
    if split:
        starts = block_page_starts(
            [[numbered[j] for j in block] for block in lay.blocks],
            datasets,
            [[lay.widths[j] * width_pt for j in block] for block in lay.blocks],
            lay.name_width * width_pt,
            paper=paper,
            lead=MULTI_LEAD_PT if multi else LEAD_PT,
        )
    blocks = []
    for n, block in enumerate(lay.blocks, start=1):
        used = lay.name_width + sum(lay.widths[j] for j in block)
        # a block narrower than the line keeps its measured widths (no stretched columns)
        scale = 1.0 / used if used > 1.0 else 1.0
        blocks.append(
            {
                "methods": [order[j] for j in block],
                "rows": [
                    {"dataset": row["dataset"], "cells": [row["cells"][j] for j in block]}
                    for row in rows
                ],
                "average": [average[j] for j in block],
                "metric": model["metric"],
                "direction": model["direction"],
                "decimals": model["decimals"],
                "size_class": lay.size_class,
                # names turned upright: the header's height, in em of the table's type so
                # that it grows with the type on a screen
                "header_height": f"{lay.header_height / lay.size:.2f}em" if lay.rotated else None,
                "width": f"{min(used, 1.0) * 100:.2f}%",
                # on a narrow screen the table keeps this width and scrolls
                "min_width": f"{used * width_pt / lay.size:.1f}em",
                "name_width": f"{lay.name_width * scale / min(used, 1.0) * 100:.2f}%",
                "col_widths": [
                    f"{lay.widths[j] * scale / min(used, 1.0) * 100:.2f}%" for j in block
                ],
                "part": n,
                "new_page": starts[n - 1],
                "first": block[0] + 1,
                "last": block[-1] + 1,
            }
        )
    return {
        "methods": list(order),
        "metric": model["metric"],
        "direction": model["direction"],
        "decimals": model["decimals"],
        "split": split,
        "blocks": blocks,
    }


def section_context(
    r,
    *,
    index: int,
    label: str | None,
    multi: bool,
    figures,
    decimals=None,
    order=None,
    paper: str = "a4",
) -> dict:
    """The values of one metric's section of a report.

    ``order`` is the order of the methods in every table (by default this
    metric's rank order; a multi-metric report passes the overall one).
    ``figures=None`` leaves them out, for :func:`with_figures` to add once
    they are drawn (a report gathers the rest while other processes draw).
    """
    order = list(r.order()) if order is None else list(order)
    scored = not ranks_only(r)
    places = decimals
    if decimals is None and scored:
        places = auto_decimals(r.scores.values)
    table = _data_table(r, order, decimals=decimals, paper=paper, multi=multi) if scored else None
    names = [*r.methods, *_datasets(r), r.metric or ""]
    pairwise = _pairwise(r, order, paper=paper)
    mt = _one_line(method_table(r, order, decimals=places), paper)
    omnibus = _omnibus_rows(r)
    section = {
        "id": f"metric-{index}",
        "kind": "ranks",
        "choice": None,
        "index": index,
        "label": label,
        "heading": label if label else "Analysis",
        "level": 3 if multi else 2,
        "direction": "higher is better" if r.higher_is_better else "lower is better",
        "n_methods": r.n_methods,
        "n_datasets": r.n_datasets,
        "rejected": r.rejected,
        "omnibus_sentence": r.omnibus_sentence(),
        "posthoc_sentences": _main_posthoc_sentences(r),
        # the same sentences with the symbols of the tables (chi-square_F, alpha, F_F)
        "omnibus_html": symbols_markup(r.omnibus_sentence(), names),
        "posthoc_html": [symbols_markup(t, names) for t in _main_posthoc_sentences(r)],
        "n_remarks": len(r.bridges) + len(r.unjoined),
        "notes": [symbols_markup(n, names) for n in r.notes],
        "conclusion": r.conclusion(),
        "dropped_datasets": list(r.scores.dropped_datasets) if scored else [],
        # one sentence where the sections that need scores would stand
        "omitted": None if scored else RANKS_ONLY_OMITTED.format(n=r.n_datasets),
        "order": order,
        "rank_order": list(order) == list(r.order()),
        "table": table,
        "method_table": mt,
        "omnibus": omnibus,
        "posthoc": _posthoc(r),
        "pairwise": pairwise,
        # average ranks alone (compare_ranks) have no scores to measure effects on
        "effects": _effect_pairs(r, order) if scored else None,
    }
    return section if figures is None else with_figures(section, r, figures, paper=paper)


def with_figures(section: dict, r, figures, *, paper: str = "a4") -> dict:
    """Put the drawn figures of ``r`` into its :func:`section_context` (in place) and return it."""
    matrix = section["pairwise"]["matrix"]
    section["figures"] = [_placed(f, r, paper, matrix=matrix) for f in figures]
    # left out by the figure step when it cannot be drawn legibly (many methods)
    section["heatmap_drawn"] = any(f.get("key") == "heatmap" for f in figures)
    return section


def _placed(fig: dict, r, paper: str, *, matrix: bool = True) -> dict:
    """A figure with its printed size, screen sizes and a text alternative stating its finding."""
    if "width" not in fig:
        return fig
    if fig["key"] == "heatmap" and not matrix:
        fig = dict(
            fig,
            caption=f"Adjusted p-value of each pair of methods by level ({r.procedure()}); the "
            "significant pairs are listed by number under the pairwise comparisons below.",
        )
    if fig["key"] == "heatmap":
        n_sig = int(np.sum(np.triu(np.asarray(r.significant, dtype=bool), 1)))
        n_tested = int(np.sum(~np.isnan(r.pvalues[np.triu_indices(r.n_methods, 1)])))
        alt = (
            f"Heatmap of the adjusted p-values: {n_sig} of the {n_tested} pairs tested differ "
            f"significantly at \u03b1 = {r.alpha:g}."
        )
    else:
        alt = " ".join(_main_posthoc_sentences(r)) or r.conclusion()
    return _place_figure(fig, alt, paper)


def consistency_context(mc, order=None) -> dict:
    """The values of the consistency section of a multi-metric report.

    ``order`` is the order of the methods in its tables (the report's overall
    order; by default that of ``mc.methods``).
    """
    methods = list(mc.methods)
    order = methods if order is None else list(order)
    cols = [methods.index(m) for m in order]
    avg_rows = []
    for label, row in zip(mc.metrics, np.asarray(mc.average_ranks)[:, cols], strict=False):
        best = float(np.min(row))
        avg_rows.append(
            {
                "metric": label,
                "cells": [{"text": f"{v:.3f}", "best": bool(abs(v - best) < 1e-12)} for v in row],
            }
        )
    tau_rows = []
    for i, label in enumerate(mc.metrics):
        cells = []
        for j in range(mc.n_metrics):
            t = float(mc.tau[i, j])
            cells.append(
                {
                    "text": "" if i == j else _f(t, 3),
                    "diag": i == j,
                    "negative": (not math.isnan(t)) and t < 0 and i != j,
                }
            )
        tau_rows.append({"metric": label, "cells": cells})
    per = mc.dataset_winners()
    datasets = list(mc.datasets())
    winner_rows = [
        {"metric": label, "cells": [", ".join(per[label].get(d, ())) or "\u2013" for d in datasets]}
        for label in mc.metrics
    ]
    # a data set on which every metric picks the same winner: the metrics agree there (the
    # "consistent" case of Yang et al.'s comparison of six measures, section 5.5)
    agree = [
        d
        for d in datasets
        if len({per[label].get(d) for label in mc.metrics if d in per[label]}) == 1
    ]
    directions = [
        {
            "metric": label,
            "direction": "higher is better" if r.higher_is_better else "lower is better",
            "winner": ", ".join(w),
            "rejected": r.rejected,
            "id": f"metric-{i}",
        }
        for i, (label, r, w) in enumerate(
            zip(mc.metrics, mc.results, mc.winners, strict=False), start=1
        )
    ]
    return {
        "metrics": list(mc.metrics),
        "methods": order,
        "average_ranks": avg_rows,
        "tau": tau_rows,
        "datasets": datasets,
        "dataset_winners": winner_rows,
        "agreeing_datasets": agree,
        "summary": directions,
        "conclusion": symbols_markup(mc.conclusion(), mc.methods),
        "paragraph": symbols_markup(consistency_paragraph(mc), mc.methods),
    }


def _names(results) -> set[str]:
    return {n for r in results for n in (*r.methods, *_datasets(r), r.metric or "")}


def _inputs(results) -> list[dict]:
    seen = {}
    for r in results:
        t = r if ranks_only(r) else r.scores
        key = (t.source, t.sha256)
        if key not in seen:
            seen[key] = {"name": t.source or "Python object", "sha256": t.sha256 or "\u2013"}
    return list(seen.values())


def _options(results, extra: dict) -> list[dict]:
    r0 = results[0]
    opts = [
        ("alpha", f"{r0.alpha:g}"),
        ("test", r0.test),
        ("correction", str(r0.correction) if r0.correction is not None else "none"),
        ("control", r0.control if r0.control is not None else "none"),
    ]
    if len(results) == 1 and ranks_only(r0):
        # average ranks carry no scores, so no direction of scores was chosen
        opts.append(("input", "average ranks (1 = best)"))
    elif len(results) == 1:
        opts.append(("higher_is_better", str(r0.higher_is_better)))
    else:
        dirs = "; ".join(
            f"{(r.metric or f'metric {i}')}: {r.higher_is_better}"
            for i, r in enumerate(results, start=1)
        )
        opts.append(("higher_is_better", dirs))
    for key, value in r0.options.items():
        opts.append((key, str(value)))
    for key, value in extra.items():
        opts.append((key, "default" if value is None else str(value)))
    return [{"name": k, "value": v} for k, v in opts]


def _versions() -> list[dict]:
    import importlib.metadata as md

    out = [
        {"name": "cdplot", "version": __version__},
        {"name": "Python", "version": platform.python_version()},
    ]
    for name in ("numpy", "scipy", "matplotlib", "jinja2", "weasyprint"):
        # the version of the module this process runs, when it is imported (numpy, scipy,
        # matplotlib state it themselves); else what the installed metadata says, which
        # costs a search of sys.path per name
        module = sys.modules.get(name) if name in _OWN_VERSION else None
        version = getattr(module, "__version__", None)
        if version is None:
            try:
                version = md.version(name)
            except md.PackageNotFoundError:
                continue
        out.append({"name": name, "version": version})
    return out


# packages whose __version__ is their release, kept up to date (no deprecation warning)
_OWN_VERSION = frozenset({"numpy", "scipy", "matplotlib"})


def document_context(
    results,
    *,
    sections,
    mc,
    title,
    subtitle,
    author,
    date,
    paper,
    extra_options,
    consistency_note=None,
    order=None,
    auto=None,
) -> dict:
    """The values of a whole report: title block, sections, consistency, references, footer.

    ``auto`` is the :func:`cdplot.compare_auto` result the analysis came from, if any: the
    methods section then opens with how the analysis was chosen.
    """
    multi = len(results) > 1
    if title is None:
        r0 = results[0]
        title = f"Comparison of {r0.n_methods} methods on {r0.n_datasets} data sets"
        if multi:
            title = f"Comparison of {r0.n_methods} methods under {len(results)} metrics"
        elif r0.metric:
            title += f" ({r0.metric})"
    if multi:
        if mc is not None:
            summary = [symbols_markup(mc.conclusion(), _names(results))]
        else:
            summary = [consistency_note] if consistency_note else []
    else:
        # one metric: its Summary section opens the report; an abstract would repeat it
        summary = []
    toc = []
    if multi:
        toc = [{"id": s["id"], "heading": s["heading"]} for s in sections]
        if mc is not None:
            toc.append({"id": "consistency", "heading": "Consistency of the metrics"})
        toc.append({"id": "methods", "heading": "Methods and references"})
        toc.append({"id": "reproducibility", "heading": "Reproducibility"})
    refs = references_for(results, consistency=mc is not None, auto=auto)
    consistency = consistency_context(mc, order) if mc is not None else None
    footer = {
        "versions": _versions(),
        "inputs": _inputs(results),
        "options": _options(results, extra_options),
        "date": date,
    }
    return {
        "title": title,
        "subtitle": subtitle,
        "author": author,
        "date": date,
        "paper": paper,
        "multi": multi,
        "summary": summary,
        "toc": toc,
        "sections": sections,
        "consistency": consistency,
        "consistency_note": consistency_note,
        "references": [{"key": ref.key, "cite": ref.cite, "text": ref.text} for ref in refs],
        "bibtex": (bib := bibtex(results, consistency=mc is not None, auto=auto)),
        # the same entries in print's two columns, none split (report.css)
        "bibtex_columns": bibtex_columns(bib, paper=paper),
        "methods": ([_choice_methods(auto, results)] if auto is not None else [])
        + [
            {
                "heading": label,
                "text": text,
                "html": symbols_markup(text, _names(results)),
                "latex": latex,
            }
            for (label, text), (_, latex) in zip(
                methods_paragraphs(results),
                methods_paragraphs(results, format="latex"),
                strict=False,
            )
        ],
        "footer": footer,
        "generator": f"cdplot {__version__}",
    }


# ---------------------------------------------------------------------------
# compare_auto: the choice, and the parametric path
# ---------------------------------------------------------------------------
def _choice_methods(auto, results) -> dict:
    text = choice_paragraph(auto)
    names = {*auto.scores.methods, *auto.scores.datasets, auto.metric or ""}
    return {
        "heading": "Choice of analysis" if results else None,
        "text": text,
        "html": symbols_markup(text, names),
        "latex": choice_paragraph(auto, format="latex"),
    }


def choice_context(auto) -> dict:
    """The values of the "Choice of analysis" block of a :func:`cdplot.compare_auto` report."""
    checks = []
    norm = auto.normality
    if norm is None:
        checks.append(
            {
                "test": "Shapiro\u2013Wilk (normality of the residuals)",
                "statistic": "not run",
                "p": "\u2013",
                "verdict": "could not be checked",
            }
        )
    else:
        checks.append(
            {
                "test": "Shapiro\u2013Wilk (normality of the residuals)",
                "statistic": f"W = {norm.statistic:.4f} ({norm.n} residuals)",
                "p": fmt_p(norm.pvalue),
                "verdict": "rejected" if norm.rejected else "not rejected",
            }
        )
    sph = auto.sphericity
    if not sph.testable:
        sph_row = ("not run", "\u2013", "could not be checked")
    elif sph.dof == 0:
        sph_row = ("two methods", "\u2013", "holds trivially")
    else:
        sph_row = (
            f"W = {sph.statistic:.4f}, \u03c7\u00b2({sph.dof}) = {sph.chi2:.4f}",
            fmt_p(sph.pvalue),
            "rejected" if sph.rejected else "not rejected",
        )
    checks.append(
        {
            "test": "Mauchly (sphericity)",
            "statistic": sph_row[0],
            "p": sph_row[1],
            "verdict": sph_row[2],
        }
    )
    names = {*auto.scores.methods, *auto.scores.datasets, auto.metric or ""}
    return {
        "path": auto.path,
        "chosen": (
            "repeated-measures ANOVA with Tukey's HSD"
            if auto.path == "parametric"
            else "the Friedman test with a rank-based post-hoc test"
        ),
        "alpha": f"{auto.alpha:g}",
        "reason": auto.reason,
        "reason_html": symbols_markup(auto.reason, names),
        "checks": checks,
    }


# more pairs than this are listed only when significant (the heatmap shows them all)
MAX_TUKEY_ROWS = 45
# and at most this many significant ones (about half a page; "Differs from" has them all)
MAX_TUKEY_LISTED = 20


def _tukey_rows(a, order, places) -> dict:
    t = a.tukey
    k = len(t.methods)
    es = a.effect_sizes if k <= JSON_MATRIX_MAX_METHODS else None
    low, high = t.confidence_interval(1 - t.alpha)
    pos = {m: i for i, m in enumerate(order, start=1)}
    pairs = []
    for i in range(k):
        for j in range(i + 1, k):
            # better first, so that the difference reads as a gain
            d = float(t.mean_differences[i, j])
            i_better = (
                (d > 0) == a.higher_is_better if d != 0 else pos[t.methods[i]] < pos[t.methods[j]]
            )
            b, w = (i, j) if i_better else (j, i)
            diff, lo, hi = float(t.mean_differences[b, w]), float(low[b, w]), float(high[b, w])
            d = None if es is None else es.d(t.methods[b], t.methods[w])
            pairs.append(
                {
                    "d": "\u2013" if d is None else fmt_number(d, 2),
                    "d_label": "" if d is None else magnitude(d, "cohens_d"),
                    "better": t.methods[b],
                    "worse": t.methods[w],
                    "difference": fmt_number(diff, places + 1),
                    "interval": f"[{fmt_number(lo, places + 1)}, {fmt_number(hi, places + 1)}]",
                    "q": _f(float(t.statistics[i, j]), 3),
                    "p": fmt_p(float(t.pvalues[i, j])),
                    "pvalue": float(t.pvalues[i, j]),
                    "significant": bool(t.pvalues[i, j] <= t.alpha),
                }
            )
    pairs.sort(key=lambda r: (r["pvalue"], pos[r["better"]], pos[r["worse"]]))
    n_sig = sum(r["significant"] for r in pairs)
    if len(pairs) <= MAX_TUKEY_ROWS:
        shown = pairs
    else:
        shown = [r for r in pairs if r["significant"]][:MAX_TUKEY_LISTED]
    return {
        "rows": shown,
        "n_pairs": len(pairs),
        "n_significant": n_sig,
        "all_shown": len(shown) == len(pairs),
        "n_unlisted": n_sig - sum(r["significant"] for r in shown),
        "confidence": f"{(1 - t.alpha) * 100:g}%",
        "critical_value": f"{t.critical_value:.4f}",
        "kramer": t.kramer,
        "effects": es is not None,
    }


def anova_section_context(auto, *, figures, decimals: int, paper: str = "a4") -> dict:
    """The values of the one section of a report on compare_auto's parametric path.

    Parameters
    ----------
    auto : AutoResult
        A result whose analysis is repeated-measures ANOVA with Tukey's HSD.
    figures : list of dict
        The drawn figures (:func:`cdplot.reporting._figures.anova_figure_svgs`).
    decimals : int
        Decimals of the scores.
    paper : {'a4', 'letter'}
        Page size, for the figures' printed size.

    Returns
    -------
    dict
        Plain values for ``anova.html.j2`` and the shared partials.
    """
    a = auto.analysis
    means = np.asarray(a.means, dtype=float)
    key = -means if a.higher_is_better else means
    order = [a.methods[i] for i in np.argsort(key, kind="stable")]
    sig = np.asarray(a.tukey.significant, dtype=bool)
    idx = [a.methods.index(m) for m in order]
    sig = sig[np.ix_(idx, idx)]
    best = float(np.max(means) if a.higher_is_better else np.min(means))
    es = a.effect_sizes if a.n_methods <= JSON_MATRIX_MAX_METHODS else None

    def d_vs_first(m):
        if es is None:
            return ""
        return "\u2013" if m == order[0] else fmt_number(es.d(order[0], m), 2)

    mean_rows = [
        {
            "number": n,
            "method": m,
            "mean": fmt_number(float(means[a.methods.index(m)]), decimals + 1),
            "best": bool(means[a.methods.index(m)] == best),
            "effect": d_vs_first(m),
            "differs": rank_ranges(np.flatnonzero(sig[n - 1]) + 1) or "\u2013",
        }
        for n, m in enumerate(order, start=1)
    ]
    anova_rows = [
        {
            "test": "Repeated-measures ANOVA",
            "statistic": _f(a.statistic, 4),
            "dof": f"{a.dof[0]}, {a.dof[1]}",
            "p": fmt_p(a.pvalue),
        }
    ]
    if a.pvalue_gg is not None and a.sphericity is not None:
        anova_rows.append(
            {
                "test": f"Greenhouse\u2013Geisser corrected (\u03b5 = {a.sphericity.epsilon:.4f})",
                "statistic": _f(a.statistic, 4),
                "dof": ", ".join(f"{d * a.sphericity.epsilon:.2f}" for d in a.dof),
                "p": fmt_p(a.pvalue_gg),
            }
        )
    names = [*a.methods, *auto.scores.datasets, a.metric or ""]
    summary = _anova_summary(a)
    placed = []
    for fig in figures:
        n_sig = int(np.sum(np.triu(sig, 1)))
        alt = (
            f"Heatmap of Tukey-adjusted p-values: {n_sig} of the "
            f"{len(order) * (len(order) - 1) // 2} pairs differ significantly at "
            f"\u03b1 = {a.alpha:g}."
        )
        placed.append(_place_figure(fig, alt, paper))
    return {
        "id": "metric-1",
        "kind": "anova",
        "index": 1,
        "label": a.metric,
        "heading": a.metric or "Analysis",
        "level": 2,
        "direction": "higher is better" if a.higher_is_better else "lower is better",
        "n_methods": a.n_methods,
        "n_datasets": a.n_datasets,
        "rejected": a.rejected,
        "conclusion": summary,
        "conclusion_html": symbols_markup(summary, names),
        "notes": [symbols_markup(n, names) for n in a.notes],
        "dropped_datasets": list(auto.scores.dropped_datasets),
        "anova": anova_rows,
        "means": mean_rows,
        "means_effect": es is not None,
        "tukey": _tukey_rows(a, order, decimals),
        "choice": choice_context(auto),
        "table": None,
        "figures": placed,
        "heatmap_drawn": bool(placed),
    }


def _anova_summary(a) -> str:
    """The ANOVA's verdict and how many pairs Tukey's HSD separates, in a few sentences.

    The core's conclusion names every significant pair in one sentence each way; with
    many methods that is a wall of text, and the table of pairs lists them anyway.
    """
    verdict = "rejects" if a.rejected else "does not reject"
    t = a.tukey
    n_pairs = len(t.methods) * (len(t.methods) - 1) // 2
    n_sig = len(t.significant_pairs())
    how = f"Tukey's HSD (q = {t.critical_value:.4f} at alpha = {a.alpha:g}, {t.dof} df) " + (
        f"finds {n_sig} of the {n_pairs} pairs of methods significantly different; the "
        "pairs are listed below."
        if n_sig
        else "finds no pair of methods that differ significantly."
    )
    out = [
        f"Repeated-measures ANOVA of {a.n_methods} methods on {a.n_datasets} data sets: "
        f"F({a.dof[0]}, {a.dof[1]}) = {a.statistic:.4f}, {format_p(a.pvalue, prefix=True)}, "
        f"{verdict} equal means at alpha = {a.alpha:g}.",
        how,
    ]
    if not a.rejected:
        out.append(
            "Because ANOVA does not reject equal means, the pairwise results are shown for "
            "completeness only."
        )
    return " ".join(out)


def _place_figure(fig: dict, alt: str, paper: str) -> dict:
    """``fig`` with its printed and screen sizes, and ``alt`` as its text alternative."""
    place = figure_placement(fig["width"], fig["height"], fig["min_font"], paper=paper)
    # the figure's text alternative, as the SVG's <title> (what a tagged PDF's Figure carries
    # as /Alt and what screen readers announce); escaped, it is text
    title = f"<title>{html_escape(fig['title'] + '. ' + alt, quote=False)}</title>"
    svg = re.sub(r"^(<svg\b[^>]*>)", lambda m: m.group(1) + title, fig["svg"], count=1)
    return dict(
        fig,
        svg=svg,
        alt=alt,
        landscape=place.landscape,
        print_width=f"{place.print_width:.1f}pt",
        print_height=f"{place.print_height:.1f}pt",
        min_px=f"{place.min_px:.0f}px",
        max_px=f"{place.max_px:.0f}px",
        printed_min_font=place.printed_min_font,
    )


def anova_document_context(
    auto, *, section, title, subtitle, author, date, paper, extra_options
) -> dict:
    """The values of a whole report on compare_auto's parametric path (one section)."""
    a = auto.analysis
    if title is None:
        title = f"Comparison of {a.n_methods} methods on {a.n_datasets} data sets"
        if a.metric:
            title += f" ({a.metric})"
    names = {*a.methods, *auto.scores.datasets, a.metric or ""}
    refs = references_for([], auto=auto)
    text = anova_paragraph(a)
    t = auto.scores
    options = [
        ("test", "auto (compare_auto)"),
        ("path", auto.path),
        ("alpha", f"{auto.alpha:g}"),
        ("higher_is_better", str(a.higher_is_better)),
    ]
    options += [(k, "default" if v is None else str(v)) for k, v in extra_options.items()]
    footer = {
        "versions": _versions(),
        "inputs": [{"name": t.source or "Python object", "sha256": t.sha256 or "\u2013"}],
        "options": [{"name": k, "value": v} for k, v in options],
        "date": date,
    }
    return {
        "title": title,
        "subtitle": subtitle,
        "author": author,
        "date": date,
        "paper": paper,
        "multi": False,
        "summary": [],
        "toc": [],
        "sections": [section],
        "consistency": None,
        "consistency_note": None,
        "references": [{"key": ref.key, "cite": ref.cite, "text": ref.text} for ref in refs],
        "bibtex": (bib := bibtex([], auto=auto)),
        "bibtex_columns": bibtex_columns(bib, paper=paper),
        "methods": [
            _choice_methods(auto, []),
            {
                "heading": None,
                "text": text,
                "html": symbols_markup(text, names),
                "latex": anova_paragraph(a, format="latex"),
            },
        ],
        "footer": footer,
        "generator": f"cdplot {__version__}",
    }
