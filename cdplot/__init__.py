"""cdplot: statistical comparison of methods over many data sets.

Average ranks, the Friedman and Iman-Davenport tests, Nemenyi and
Bonferroni-Dunn critical differences, pairwise post-hoc tests with
multiple-testing corrections, critical-difference diagrams and reports.

The top level holds the entry points and the result types they return; the
statistics one at a time (``friedman``, ``nemenyi``, ``adjust``, ...) are in
:mod:`cdplot.stats`.  Every public name is loaded on first use (PEP 562), as
``scipy`` does, so ``import cdplot`` stays fast and never imports matplotlib,
jinja2, weasyprint or pandas; the plotting and report layers are imported only
when a figure or report is made.

>>> import cdplot
>>> res = cdplot.compare(cdplot.load_example("demsar2006"))
>>> res.order()[0]
'C4.5+m+cf'
"""

from __future__ import annotations

from ._lazy import attach
from ._version import __version__
from .errors import CdplotError, CdplotWarning, FigureSizeWarning

# public name -> module that defines it.  The top level holds the entry points (one per
# question) and the types they return; the statistics one at a time (friedman, nemenyi,
# rank_z, adjust, wilcoxon_pairs, critical_value, ...) live in cdplot.stats, as scipy keeps
# its building blocks in subpackages.
_LAZY = {
    # loading
    "read_scores": "cdplot.io",
    "read_fold_scores": "cdplot.io",
    "load_example": "cdplot.datasets",
    "EXAMPLES": "cdplot.datasets",
    "ScoreTable": "cdplot.io",
    # many methods over many data sets
    "compare": "cdplot.stats.compare",
    "compare_auto": "cdplot.stats.parametric",
    "compare_metrics": "cdplot.stats.consistency",
    "compare_ranks": "cdplot.stats.from_ranks",
    "RankComparison": "cdplot.stats.from_ranks",
    "ComparisonResult": "cdplot.stats.results",
    "FriedmanResult": "cdplot.stats.results",
    "ImanDavenportResult": "cdplot.stats.results",
    "AutoResult": "cdplot.stats.parametric",
    "MetricsComparison": "cdplot.stats.consistency",
    # two methods
    "compare_pair": "cdplot.stats.pair",
    "cv_test": "cdplot.stats.cv_tests",
    "mcnemar": "cdplot.stats.mcnemar",
    "mcnemar_from_predictions": "cdplot.stats.mcnemar",
    "bayesian_correlated_ttest": "cdplot.stats.bayesian",
    "bayesian_signed_rank": "cdplot.stats.bayesian",
    "PairResult": "cdplot.stats.pair",
    "CVTestResult": "cdplot.stats.cv_tests",
    "McNemarResult": "cdplot.stats.mcnemar",
    "BayesianTTestResult": "cdplot.stats.bayesian",
    "BayesianSignedRankResult": "cdplot.stats.bayesian",
    # drawing (matplotlib)
    # the defining modules: no module shares a name with a function, because
    # importing a submodule rebinds the package attribute of that name
    "cd_diagram": "cdplot.plot.critical_difference",
    "rank_intervals": "cdplot.plot.intervals",
    "significance_heatmap": "cdplot.plot.heatmap",
    "posterior_density": "cdplot.plot.bayesian",
    "posterior_simplex": "cdplot.plot.bayesian",
    "cd_diagrams": "cdplot.plot.panels",
    "rank_profile": "cdplot.plot.profile",
    "cd_tikz": "cdplot.plot.tikz",
    "intervals_tikz": "cdplot.plot.tikz",
    "save_figure": "cdplot.plot.save",
    # reports (jinja2, weasyprint)
    "report": "cdplot.reporting",
    "data_table": "cdplot.reporting",
    "effect_size_table": "cdplot.reporting.effect_table",
}

__all__ = ["__version__", "CdplotError", "CdplotWarning", "FigureSizeWarning", *sorted(_LAZY)]


__getattr__, __dir__ = attach(__name__, _LAZY, globals())
