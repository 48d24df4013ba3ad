"""The values of a whole rank-based report: title block, summary, references, footer."""

from __future__ import annotations

import platform
import sys

from ..._version import __version__
from .._format import symbols_markup
from .._references import bibtex, bibtex_columns, methods_paragraphs, references_for
from ._choice import choice_methods
from ._common import datasets_of, ranks_only
from ._consistency import consistency_context

__all__ = ["document_context", "versions"]


def names_of(results) -> set[str]:
    return {n for r in results for n in (*r.methods, *datasets_of(r), r.metric or "")}


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


def versions() -> list[dict]:
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
            summary = [symbols_markup(mc.conclusion(), names_of(results))]
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
        "versions": versions(),
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
        "methods": ([choice_methods(auto, results)] if auto is not None else [])
        + [
            {
                "heading": label,
                "text": text,
                "html": symbols_markup(text, names_of(results)),
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
