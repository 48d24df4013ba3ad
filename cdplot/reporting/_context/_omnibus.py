"""The omnibus tests and the post-hoc test of a rank-based section: rows and sentences."""

from __future__ import annotations

from ...stats._results import CORRECTION_LABELS
from .._format import fmt_p
from ._common import fixed

__all__ = ["REPORT_LISTED_PAIRS", "omnibus_rows", "posthoc", "main_posthoc_sentences"]


# the summary names this many significant pairs, then says the pairwise section has them
# all (thirty 60-character names made the 60-method summary a page of names)
REPORT_LISTED_PAIRS = 6


def omnibus_rows(r) -> list[dict]:
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
                "statistic": fixed(f.statistic, 4),
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
            "statistic": fixed(f.statistic_uncorrected, 4),
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
            "statistic": fixed(ff.statistic, 4),
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
                "statistic": fixed(ff.statistic_uncorrected, 4),
                "dof": f"{k1}, {dof2}",
                "p": fmt_p(ff.pvalue_uncorrected),
                "used": False,
            }
        )
    return rows


def posthoc(r) -> dict:
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


def main_posthoc_sentences(r) -> list[str]:
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
