"""The values of a report on compare_auto's parametric path: ANOVA, Tukey's HSD, the document."""

from __future__ import annotations

import numpy as np

from ..._version import __version__
from ...stats._effect_sizes import magnitude
from ...stats._formatting import format_p
from ...stats._results import JSON_MATRIX_MAX_METHODS
from .._format import fmt_number, fmt_p, symbols_markup
from .._layout import rank_ranges
from .._references import anova_paragraph, bibtex, bibtex_columns, references_for
from ._choice import choice_context, choice_methods
from ._common import fixed, place_figure
from ._document import versions

__all__ = ["MAX_TUKEY_ROWS", "MAX_TUKEY_LISTED", "anova_section_context", "anova_document_context"]


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
                    "q": fixed(float(t.statistics[i, j]), 3),
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
            "statistic": fixed(a.statistic, 4),
            "dof": f"{a.dof[0]}, {a.dof[1]}",
            "p": fmt_p(a.pvalue),
        }
    ]
    if a.pvalue_gg is not None and a.sphericity is not None:
        anova_rows.append(
            {
                "test": f"Greenhouse\u2013Geisser corrected (\u03b5 = {a.sphericity.epsilon:.4f})",
                "statistic": fixed(a.statistic, 4),
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
        placed.append(place_figure(fig, alt, paper))
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
        "versions": versions(),
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
            choice_methods(auto, []),
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
