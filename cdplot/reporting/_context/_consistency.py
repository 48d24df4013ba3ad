"""The values of the section on how far several metrics agree."""

from __future__ import annotations

import math

import numpy as np

from .._format import symbols_markup
from .._references import consistency_paragraph
from ._common import fixed

__all__ = ["consistency_context"]


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
                    "text": "" if i == j else fixed(t, 3),
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
