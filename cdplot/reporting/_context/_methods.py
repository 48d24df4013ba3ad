"""The method table of a rank-based section and the effect sizes of its pairs."""

from __future__ import annotations

import numpy as np

from ...stats._effect_sizes import magnitude
from ...stats._results import JSON_MATRIX_MAX_METHODS
from .._format import fmt_number
from .._layout import one_line_size, rank_ranges
from ._common import ranks_only
from ._pairwise import group_letters, lettered_cliques

__all__ = [
    "MAX_EFFECT_ROWS",
    "MAX_EFFECT_COLUMN_METHODS",
    "method_table",
    "one_line",
    "effect_pairs",
]


def one_line(mt: dict, paper: str) -> dict:
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
    cliques = lettered_cliques(r, pos)
    letters: dict[str, str] = dict.fromkeys(order, "")
    for n, clique in enumerate(cliques):
        for m in clique:
            letters[m] += group_letters(n)
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


def effect_pairs(r, order) -> dict:
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
