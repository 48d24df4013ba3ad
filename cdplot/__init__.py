"""cdplot: statistical comparison of methods over many data sets.

Average ranks, the Friedman and Iman-Davenport tests, Nemenyi and
Bonferroni-Dunn critical differences, pairwise post-hoc tests with
multiple-testing corrections, critical-difference diagrams and reports.

Every public name is loaded on first use (PEP 562), as ``scipy`` does, so
``import cdplot`` stays fast and never imports matplotlib, jinja2,
weasyprint or pandas; the plotting and report layers are imported only when
a figure or report is made.

>>> import cdplot
>>> res = cdplot.compare(cdplot.load_example("demsar2006"))
>>> res.order()[0]
'C4.5+m+cf'
"""

from __future__ import annotations

import importlib

from ._version import __version__
from .errors import CdplotError, CdplotWarning

# public name -> module that defines it
_LAZY = {
    # statistics core (numpy and scipy.special only)
    "compare": "cdplot.stats.compare",
    "ScoreTable": "cdplot.io",
    "as_score_tables": "cdplot.io",
    "ComparisonResult": "cdplot.stats.results",
    "FriedmanResult": "cdplot.stats.results",
    "ImanDavenportResult": "cdplot.stats.results",
    "rank_data": "cdplot.stats.ranks",
    "average_ranks": "cdplot.stats.ranks",
    "friedman": "cdplot.stats.friedman",
    "iman_davenport": "cdplot.stats.friedman",
    "critical_value": "cdplot.stats.critical",
    "critical_difference": "cdplot.stats.critical",
    "nemenyi": "cdplot.stats.posthoc",
    "rank_z": "cdplot.stats.posthoc",
    "find_cliques": "cdplot.stats.cliques",
    "wilcoxon": "cdplot.stats.wilcoxon",
    "wilcoxon_pairs": "cdplot.stats.wilcoxon",
    "sign_test": "cdplot.stats.sign_test",
    "sign_test_pairs": "cdplot.stats.sign_test",
    "adjust": "cdplot.stats.corrections",
    "adjust_pairwise": "cdplot.stats.corrections",
    "compare_metrics": "cdplot.stats.consistency",
    "MetricsComparison": "cdplot.stats.consistency",
    # two methods, parametric and Bayesian comparisons
    "compare_pair": "cdplot.stats.pair",
    "cv_test": "cdplot.stats.cv_tests",
    "read_fold_scores": "cdplot.io",
    "mcnemar": "cdplot.stats.mcnemar",
    "mcnemar_from_predictions": "cdplot.stats.mcnemar",
    "rm_anova": "cdplot.stats.parametric",
    "compare_auto": "cdplot.stats.parametric",
    "bayesian_correlated_ttest": "cdplot.stats.bayesian",
    "bayesian_signed_rank": "cdplot.stats.bayesian",
    "critical_wins": "cdplot.stats.sign_test",
    # loading
    "read_scores": "cdplot.io",
    "load_example": "cdplot.datasets",
    "EXAMPLES": "cdplot.datasets",
    # drawing (matplotlib)
    # the defining modules: no module shares a name with a function, because
    # importing a submodule rebinds the package attribute of that name
    "cd_diagram": "cdplot.plot.critical_difference",
    "rank_intervals": "cdplot.plot.intervals",
    "significance_heatmap": "cdplot.plot.heatmap",
    "save_figure": "cdplot.plot.save",
    "render_svg": "cdplot.plot.save",
    "posterior_density": "cdplot.plot.bayesian",
    "posterior_simplex": "cdplot.plot.bayesian",
    "cd_tikz": "cdplot.plot.tikz",
    "intervals_tikz": "cdplot.plot.tikz",
    "cd_diagrams": "cdplot.plot.panels",
    "rank_profile": "cdplot.plot.profile",
    # reports (jinja2, weasyprint)
    "report": "cdplot.reporting",
    "data_table": "cdplot.reporting",
}

__all__ = ["__version__", "CdplotError", "CdplotWarning", *sorted(_LAZY)]


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'cdplot' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
