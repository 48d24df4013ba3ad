"""The pairwise comparisons of a rank-based section: the p-value matrix, the significant
pairs, the groups and the remarks on single pairs.
"""

from __future__ import annotations

import math

import numpy as np

from ...stats._results import CORRECTION_LABELS
from .._format import fmt_p
from .._layout import matrix_fits, rank_ranges

__all__ = [
    "MAX_LISTED_PAIRS",
    "MAX_REMARK_CHARS",
    "MAX_NAMED_CLIQUES",
    "MAX_REMARK_SENTENCES",
    "pairwise",
    "lettered_cliques",
    "group_letters",
]


# up to this many significant pairs are listed by name, sorted by p-value; beyond that by
# number (and the method table's "differs from" column lists them all)
MAX_LISTED_PAIRS = 12
# the longest text of one kind of remark on single pairs (about a quarter page each)
MAX_REMARK_CHARS = 1400
# up to this many methods the groups are listed by name, beyond by number
MAX_NAMED_CLIQUES = 10
# up to this many remarks are written out as sentences with the methods' names
MAX_REMARK_SENTENCES = 6


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


def _matrix_rows(order, pvalues, significant) -> tuple[list[dict], list[str]]:
    """The rows of the p-value matrix in printed order, and every p-value's printed text."""
    # a p-value's text is formatted once (the matrix is symmetric)
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
    return rows, texts


def _matrix_size(order, texts, paper) -> tuple[float | None, bool]:
    """The type size at which the matrix fits the page (None: it does not), and whether its
    columns are named."""
    row_labels = [f"{n} {m}" for n, m in enumerate(order, start=1)]
    size = matrix_fits(row_labels, texts, paper=paper)
    # up to six methods the columns are named, when their names fit (one long word each
    # may not); else numbered as the rows
    named = None
    if size is not None and len(order) <= 6:
        named = matrix_fits(row_labels, texts, paper=paper, column_labels=order)
    if named is not None:
        return named, True
    return size, False


def _label_and_rule(r) -> tuple[str, str]:
    """What the matrix holds, and when a pair counts as significant."""
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
    return label, rule


def _significant(order, pvalues, significant) -> list[tuple]:
    """Every significant pair as ``(p, na, nb, a, b)``, smallest p-value first (ties in rank
    order)."""
    sig = []
    for a_i, a in enumerate(order):
        for b_i in range(a_i + 1, len(order)):
            if significant[a_i][b_i]:
                sig.append((pvalues[a_i][b_i], a_i + 1, b_i + 1, a, order[b_i]))
    sig.sort(key=lambda t: (t[0], t[1], t[2]))
    return sig


def _listing(sig) -> tuple[list[dict], list[dict], int]:
    """The significant pairs by name (few), or by number grouped by p-value (many), and how
    many of the latter are left out."""
    if len(sig) <= MAX_LISTED_PAIRS:
        listed = [{"p": fmt_p(p), "a": a, "b": b, "na": na, "nb": nb} for p, na, nb, a, b in sig]
        return listed, [], 0
    # by number, grouped by the printed p-value, smallest first, cut at about a quarter page
    groups: dict[str, list[str]] = {}
    length = n_unlisted = 0
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
    return [], compact, n_unlisted


def pairwise(r, order, *, paper: str = "a4") -> dict:
    """The pairwise comparisons of ``r`` in ``order``: the matrix (when it fits the page),
    the significant pairs, the groups and the remarks on single pairs."""
    idx = [r.methods.index(m) for m in order]
    pos = {m: i for i, m in enumerate(order, start=1)}
    # the k x k matrix in printed order as Python floats and bools at once (indexing the
    # arrays cell by cell cost more than the rest)
    ordered = np.ix_(idx, idx)
    pvalues = np.asarray(r.pvalues, dtype=float)[ordered].tolist()
    significant = np.asarray(r.significant, dtype=bool)[ordered].tolist()
    rows, texts = _matrix_rows(order, pvalues, significant)
    size, named = _matrix_size(order, texts, paper)
    label, rule = _label_and_rule(r)
    sig = _significant(order, pvalues, significant)
    n_tested = int(np.sum(~np.isnan(r.pvalues[np.triu_indices(r.n_methods, 1)])))
    listed, compact, n_unlisted = _listing(sig)
    return {
        "methods": list(order),
        "numbers": list(range(1, len(order) + 1)),
        "rows": rows,
        "matrix": size is not None,
        "size_class": f"fs-{int(round(size * 10))}" if size is not None else "",
        "named_columns": named,
        "label": label,
        "rule": rule,
        "cliques": [
            {
                "letter": group_letters(n),
                "names": clique,
                "numbers": rank_ranges(pos[m] for m in clique),
            }
            for n, clique in enumerate(lettered_cliques(r, pos))
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


def lettered_cliques(r, pos) -> list[list[str]]:
    """The cliques with their members in printed order, sorted by their best member."""
    return sorted((sorted(c, key=pos.get) for c in r.cliques), key=lambda c: [pos[m] for m in c])


def group_letters(n: int) -> str:
    """a, b, ..., z, A, ..., Z, then a2, b2, ...: the compact letter display's names."""
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return letters[n % 52] + (str(n // 52 + 1) if n >= 52 else "")
