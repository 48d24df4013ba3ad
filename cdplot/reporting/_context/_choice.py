"""How compare_auto chose its analysis: the checks, the verdict and the methods paragraph."""

from __future__ import annotations

from .._format import fmt_p, symbols_markup
from .._references import choice_paragraph

__all__ = ["choice_methods", "choice_context"]


def choice_methods(auto, results) -> dict:
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
