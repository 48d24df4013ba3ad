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
    "compare": "cdplot.stats",
    "compare_auto": "cdplot.stats",
    "compare_metrics": "cdplot.stats",
    "compare_ranks": "cdplot.stats",
    "RankComparison": "cdplot.stats",
    "from_posthoc": "cdplot.stats",
    "PosthocComparison": "cdplot.stats",
    "ComparisonResult": "cdplot.stats",
    "FriedmanResult": "cdplot.stats",
    "ImanDavenportResult": "cdplot.stats",
    "AutoResult": "cdplot.stats",
    "MetricsComparison": "cdplot.stats",
    # two methods
    "compare_pair": "cdplot.stats",
    "cv_test": "cdplot.stats",
    "mcnemar": "cdplot.stats",
    "mcnemar_from_predictions": "cdplot.stats",
    "bayesian_correlated_ttest": "cdplot.stats",
    "bayesian_signed_rank": "cdplot.stats",
    "PairResult": "cdplot.stats",
    "CVTestResult": "cdplot.stats",
    "McNemarResult": "cdplot.stats",
    "BayesianTTestResult": "cdplot.stats",
    "BayesianSignedRankResult": "cdplot.stats",
    # planning a comparison
    "plan": "cdplot.stats",
    "PlanResult": "cdplot.stats",
    "simulate_power": "cdplot.stats",
    "PowerResult": "cdplot.stats",
    "simulate_power_curve": "cdplot.stats",
    "PowerCurveResult": "cdplot.stats",
    # would the conclusion survive other data sets?
    "stability": "cdplot.stats",
    "StabilityResult": "cdplot.stats",
    # drawing (matplotlib)
    "cd_diagram": "cdplot.plot",
    "rank_intervals": "cdplot.plot",
    "significance_heatmap": "cdplot.plot",
    "posterior_density": "cdplot.plot",
    "posterior_simplex": "cdplot.plot",
    "cd_diagrams": "cdplot.plot",
    "cd_explorer": "cdplot.plot",
    "rank_profile": "cdplot.plot",
    "rank_probabilities": "cdplot.plot",
    "power_curve": "cdplot.plot",
    "cd_tikz": "cdplot.plot",
    "intervals_tikz": "cdplot.plot",
    "save_figure": "cdplot.plot",
    # reports (jinja2, weasyprint)
    "report": "cdplot.reporting",
    "data_table": "cdplot.reporting",
    "effect_size_table": "cdplot.reporting",
}

# written out (not sorted(_LAZY)) so that type checkers read it; a test keeps them equal
__all__ = [
    "__version__",
    "CdplotError",
    "CdplotWarning",
    "FigureSizeWarning",
    "AutoResult",
    "BayesianSignedRankResult",
    "BayesianTTestResult",
    "CVTestResult",
    "ComparisonResult",
    "EXAMPLES",
    "FriedmanResult",
    "ImanDavenportResult",
    "McNemarResult",
    "MetricsComparison",
    "PairResult",
    "PlanResult",
    "PosthocComparison",
    "PowerCurveResult",
    "PowerResult",
    "RankComparison",
    "ScoreTable",
    "StabilityResult",
    "bayesian_correlated_ttest",
    "bayesian_signed_rank",
    "cd_diagram",
    "cd_diagrams",
    "cd_explorer",
    "cd_tikz",
    "compare",
    "compare_auto",
    "compare_metrics",
    "compare_pair",
    "compare_ranks",
    "cv_test",
    "data_table",
    "effect_size_table",
    "from_posthoc",
    "intervals_tikz",
    "load_example",
    "mcnemar",
    "mcnemar_from_predictions",
    "plan",
    "posterior_density",
    "posterior_simplex",
    "power_curve",
    "rank_intervals",
    "rank_probabilities",
    "rank_profile",
    "read_fold_scores",
    "read_scores",
    "report",
    "save_figure",
    "significance_heatmap",
    "simulate_power",
    "simulate_power_curve",
    "stability",
]

# typing.TYPE_CHECKING without importing typing (2 ms of `cdplot --version`); type
# checkers treat a module-level TYPE_CHECKING = False as True
TYPE_CHECKING = False
if TYPE_CHECKING:
    # What a type checker sees: the same names, imported from where they are defined, so
    # that each has its real signature (through the lazy __getattr__ alone, every name would
    # be Any).  tests/test_typing.py checks that this block and _LAZY name the same things.
    from .datasets import EXAMPLES, load_example
    from .io import ScoreTable, read_fold_scores, read_scores
    from .plot import (
        cd_diagram,
        cd_diagrams,
        cd_explorer,
        cd_tikz,
        intervals_tikz,
        posterior_density,
        posterior_simplex,
        power_curve,
        rank_intervals,
        rank_probabilities,
        rank_profile,
        save_figure,
        significance_heatmap,
    )
    from .reporting import data_table, effect_size_table, report
    from .stats import (
        AutoResult,
        BayesianSignedRankResult,
        BayesianTTestResult,
        ComparisonResult,
        CVTestResult,
        FriedmanResult,
        ImanDavenportResult,
        McNemarResult,
        MetricsComparison,
        PairResult,
        PlanResult,
        PosthocComparison,
        PowerCurveResult,
        PowerResult,
        RankComparison,
        StabilityResult,
        bayesian_correlated_ttest,
        bayesian_signed_rank,
        compare,
        compare_auto,
        compare_metrics,
        compare_pair,
        compare_ranks,
        cv_test,
        from_posthoc,
        mcnemar,
        mcnemar_from_predictions,
        plan,
        simulate_power,
        simulate_power_curve,
        stability,
    )
else:
    # Not seen by type checkers, so that a misspelt name is an error there, not Any.
    __getattr__, __dir__ = attach(__name__, _LAZY, globals())
