"""The values a report template shows, computed from the results.

Everything here is plain data (strings, numbers, lists and dicts): the
templates only lay it out, and a user's template in the sandbox sees no
object it could call into.  Numbers are formatted here, once, so that a
report, a LaTeX table and the terminal print the same digits.
"""

from __future__ import annotations

import math
import platform

import numpy as np

from .._version import __version__
from ._format import fmt_p
from .references import bibtex, consistency_paragraph, methods_paragraphs, references_for
from .tables import table_model

__all__ = ["section_context", "consistency_context", "document_context"]


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


def _pairwise(r) -> dict:
    order = list(r.order())
    idx = [r.methods.index(m) for m in order]
    rows = []
    for a, i in zip(order, idx, strict=False):
        cells = []
        for j in idx:
            p = float(r.pvalues[i, j])
            if i == j:
                cells.append({"text": "", "kind": "diag", "significant": False})
            elif math.isnan(p):
                cells.append({"text": "\u00b7", "kind": "untested", "significant": False})
            else:
                sig = bool(r.significant[i, j])
                cells.append({"text": fmt_p(p), "kind": "p", "significant": sig})
        rows.append({"method": a, "cells": cells})
    if r.test == "nemenyi":
        label = "Nemenyi p-values (studentized range of the rank differences)"
    elif r.test == "bonferroni-dunn":
        label = "Bonferroni-adjusted p-values of the rank z-tests against the control"
    else:
        from ..stats.results import CORRECTION_LABELS

        label = (
            "p-values adjusted with "
            f"{CORRECTION_LABELS.get(r.correction, r.correction)}'s procedure"
        )
    if r.critical_difference is not None:
        rule = f"|R_i \u2212 R_j| \u2265 CD = {r.critical_difference:.3f}"
    else:
        rule = f"adjusted p \u2264 \u03b1 = {r.alpha:g}"
    remarks = [
        f"{a} and {c} differ significantly, although {b} differs from neither."
        for a, b, c in r.bridges
    ]
    remarks += [
        f"{a} and {b} do not differ significantly, but share no group because a method ranked "
        "between "
        "them differs from one of them."
        for a, b in r.unjoined
    ]
    return {
        "methods": order,
        "rows": rows,
        "label": label,
        "rule": rule,
        "cliques": [list(c) for c in r.cliques],
        "remarks": remarks,
        "pairs": [list(p) for p in r.significant_pairs()],
    }


def _posthoc(r) -> dict:
    from ..stats.results import CORRECTION_LABELS

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
    return r.posthoc_sentences(remarks=False)


def section_context(
    r, *, index: int, label: str | None, multi: bool, figures, decimals=None
) -> dict:
    """The values of one metric's section of a report."""
    return {
        "id": f"metric-{index}",
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
        "n_remarks": len(r.bridges) + len(r.unjoined),
        "notes": list(r.notes),
        "conclusion": r.conclusion(),
        "dropped_datasets": list(r.scores.dropped_datasets),
        "table": table_model(r, decimals=decimals),
        "omnibus": _omnibus_rows(r),
        "posthoc": _posthoc(r),
        "pairwise": _pairwise(r),
        "figures": figures,
    }


def consistency_context(mc) -> dict:
    """The values of the consistency section of a multi-metric report."""
    avg_rows = []
    for label, row in zip(mc.metrics, mc.average_ranks, strict=False):
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
    # a data set on which every metric picks the same winner is the "consistent" case of seed 004
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
        "methods": list(mc.methods),
        "average_ranks": avg_rows,
        "tau": tau_rows,
        "datasets": datasets,
        "dataset_winners": winner_rows,
        "agreeing_datasets": agree,
        "summary": directions,
        "conclusion": mc.conclusion(),
        "paragraph": consistency_paragraph(mc),
    }


def _inputs(results) -> list[dict]:
    seen = {}
    for r in results:
        t = r.scores
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
    if len(results) == 1:
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
        try:
            out.append({"name": name, "version": md.version(name)})
        except md.PackageNotFoundError:
            continue
    return out


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
) -> dict:
    """The values of a whole report: title block, sections, consistency, references, footer."""
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
            summary = [mc.conclusion()]
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
    refs = references_for(results, consistency=mc is not None)
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
        "consistency": consistency_context(mc) if mc is not None else None,
        "consistency_note": consistency_note,
        "references": [{"key": ref.key, "cite": ref.cite, "text": ref.text} for ref in refs],
        "bibtex": bibtex(results, consistency=mc is not None),
        "methods": [
            {"heading": label, "text": text, "latex": latex}
            for (label, text), (_, latex) in zip(
                methods_paragraphs(results),
                methods_paragraphs(results, style="latex"),
                strict=False,
            )
        ],
        "footer": {
            "versions": _versions(),
            "inputs": _inputs(results),
            "options": _options(results, extra_options),
            "date": date,
        },
        "generator": f"cdplot {__version__}",
    }
