"""The statistics of cdplot, one function per test: numpy and scipy, never matplotlib or pandas.

Every name below is a function or a result class, as in :mod:`scipy.stats`;
the modules that implement them are private.  The whole analyses
(:func:`compare`, :func:`compare_auto`, :func:`compare_pair`, ...) are also
at the top level, :mod:`cdplot`.  Every function returns a result object of
the same shape: a frozen dataclass with read-only arrays, ``to_dict()``,
``to_json()``, a readable ``str`` with its notes under "Notes:", a one-line
``repr`` and an HTML table for Jupyter.

Whole analyses
--------------
compare
    Ranks, Friedman and Iman-Davenport tests, a post-hoc test and groups
    (:class:`ComparisonResult`).
compare_auto
    Repeated-measures ANOVA with Tukey's HSD or the rank analysis, chosen by
    assumption checks (:class:`AutoResult`).
compare_metrics
    One analysis per metric and Kendall's tau-b between them
    (:class:`MetricsComparison`).
compare_ranks
    The same from average ranks alone, as printed in a paper
    (:class:`RankComparison`).
from_posthoc
    Average ranks with the p-values of a post-hoc test run elsewhere
    (Conover, Dunn, your own), drawn like the others
    (:class:`PosthocComparison`).
compare_pair
    Two methods over data sets: paired t, Wilcoxon and sign tests
    (:class:`PairResult`).
analyse_pairs
    :func:`compare_pair` for named pairs, with the scores and options of an
    analysis (the pairs a report shows).
relate_metrics
    Analyses of several metrics, compared (:class:`MetricsComparison`) or,
    when their methods differ, apart with the reason (:class:`SeparateAnalyses`).

Ranks and omnibus tests
-----------------------
rank_data, average_ranks
    Mid-ranks per data set, 1 = best.
friedman, iman_davenport, friedman_from_ranks, friedman_from_average_ranks
    Friedman's chi-square (tie-corrected and Demsar's uncorrected) and Iman
    and Davenport's F (:class:`FriedmanResult`, :class:`ImanDavenportResult`).

Post-hoc tests and critical differences
---------------------------------------
critical_value, critical_difference
    Nemenyi's and Bonferroni-Dunn's ``q_alpha`` and CD (Demsar 2006, section 3.2.2).
nemenyi, rank_z
    All-pairs rank tests from average ranks (:class:`RankTestResult`).
wilcoxon, wilcoxon_pairs
    Wilcoxon's signed-rank test, one pair or many (:class:`WilcoxonResult`,
    :class:`WilcoxonPairsResult`).
sign_test, sign_test_pairs, critical_wins
    The sign test and Demsar's (2006, Table 3) critical number of wins
    (:class:`SignTestResult`, :class:`SignTestPairsResult`).
adjust, adjust_pairwise
    Bonferroni, Holm, Hochberg, Hommel, Shaffer and Bergmann-Hommel.
find_cliques, unjoined_pairs, bridges
    Groups of methods that do not differ, and the pairs groups cannot show.
versus_best
    Each method against the best one on every data set (:class:`VersusBest`;
    ``ComparisonResult.versus_best`` runs it on an analysis' repetitions).

Two methods on one data set
---------------------------
cv_test, kfold_ttest, corrected_ttest, blocked_cv_ttest
    t-tests on cross-validation folds (:class:`CVTestResult`).
dietterich_5x2cv_ttest, alpaydin_5x2cv_ftest
    t- and F-tests on cross-validation folds (:class:`CVTestResult`).
mcnemar, mcnemar_from_predictions
    McNemar's test on one test set (:class:`McNemarResult`).
bayesian_correlated_ttest, bayesian_signed_rank
    Benavoli et al.'s (2017) Bayesian tests with a region of practical
    equivalence (:class:`BayesianTTestResult`, :class:`BayesianSignedRankResult`).
paired_ttest
    The paired t-test over data sets (:class:`PairedTTestResult`).

Parametric analysis and effect sizes
------------------------------------
rm_anova, anova_oneway
    ANOVA with Tukey's HSD (:class:`AnovaResult`, :class:`TukeyHSDResult`).
shapiro_residuals, mauchly
    Normality of the residuals and sphericity (:class:`ShapiroResult`,
    :class:`MauchlyResult`).
effect_sizes, cliffs_delta, cohens_d
    Effect sizes of every pair (:class:`EffectSizes`).
kendall_tau_b
    Agreement of two rankings.

Planning
--------
plan
    How many data sets an average-rank difference needs to reach the critical
    difference, or the difference ``N`` data sets can show (:class:`PlanResult`).
simulate_power
    Power of the Friedman and Nemenyi tests at ``N`` data sets, by simulation
    from a score table or a shift model (:class:`PowerResult`).
simulate_power_curve
    The same at several ``N`` for the cost of one (:class:`PowerCurveResult`).

Rank stability
--------------
stability
    A bootstrap over data sets: average-rank intervals, the probability of
    each rank, how often significant pairs stay significant, and the data
    sets whose removal changes a conclusion (:class:`StabilityResult`,
    :class:`DatasetInfluence`).

Formatting
----------
format_p
    The one p-value formatter (sentences, table cells, figure captions).
"""

from ._analysis import SeparateAnalyses, analyse_pairs, relate_metrics
from ._bayesian import (
    BayesianSignedRankResult,
    BayesianTTestResult,
    bayesian_correlated_ttest,
    bayesian_signed_rank,
)
from ._cliques import bridges, find_cliques, unjoined_pairs
from ._compare import compare
from ._consistency import MetricsComparison, compare_metrics, kendall_tau_b
from ._corrections import adjust, adjust_pairwise
from ._critical import critical_difference, critical_value
from ._cv_tests import (
    CVTestResult,
    alpaydin_5x2cv_ftest,
    blocked_cv_ttest,
    corrected_ttest,
    cv_test,
    dietterich_5x2cv_ttest,
    kfold_ttest,
)
from ._effect_sizes import EffectSizes, cliffs_delta, cohens_d, effect_sizes
from ._formatting import format_p
from ._friedman import friedman, friedman_from_average_ranks, friedman_from_ranks, iman_davenport
from ._from_posthoc import PosthocComparison, from_posthoc
from ._from_ranks import RankComparison, compare_ranks
from ._mcnemar import McNemarResult, mcnemar, mcnemar_from_predictions
from ._pair import PairedTTestResult, PairResult, compare_pair, paired_ttest
from ._parametric import (
    AnovaResult,
    AutoResult,
    MauchlyResult,
    ShapiroResult,
    TukeyHSDResult,
    anova_oneway,
    compare_auto,
    mauchly,
    rm_anova,
    shapiro_residuals,
)
from ._per_dataset import VersusBest, versus_best
from ._plan import PlanResult, plan
from ._posthoc import nemenyi, rank_z
from ._power import PowerResult, simulate_power
from ._power_curve import PowerCurveResult, simulate_power_curve
from ._ranks import average_ranks, rank_data
from ._results import ComparisonResult, FriedmanResult, ImanDavenportResult, RankTestResult
from ._sign_test import (
    SignTestPairsResult,
    SignTestResult,
    critical_wins,
    sign_test,
    sign_test_pairs,
)
from ._stability import DatasetInfluence, StabilityResult, stability
from ._wilcoxon import WilcoxonPairsResult, WilcoxonResult, wilcoxon, wilcoxon_pairs

__all__ = [
    # whole analyses
    "compare",
    "compare_auto",
    "compare_metrics",
    "compare_ranks",
    "from_posthoc",
    "compare_pair",
    "analyse_pairs",
    "relate_metrics",
    # ranks and omnibus tests
    "rank_data",
    "average_ranks",
    "friedman",
    "iman_davenport",
    "friedman_from_ranks",
    "friedman_from_average_ranks",
    # post-hoc tests, critical differences, groups
    "critical_value",
    "critical_difference",
    "nemenyi",
    "rank_z",
    "wilcoxon",
    "wilcoxon_pairs",
    "sign_test",
    "sign_test_pairs",
    "critical_wins",
    "adjust",
    "adjust_pairwise",
    "find_cliques",
    "unjoined_pairs",
    "bridges",
    "versus_best",
    # two methods
    "cv_test",
    "kfold_ttest",
    "corrected_ttest",
    "dietterich_5x2cv_ttest",
    "alpaydin_5x2cv_ftest",
    "blocked_cv_ttest",
    "mcnemar",
    "mcnemar_from_predictions",
    "bayesian_correlated_ttest",
    "bayesian_signed_rank",
    "paired_ttest",
    # parametric analysis and effect sizes
    "rm_anova",
    "anova_oneway",
    "shapiro_residuals",
    "mauchly",
    "effect_sizes",
    "cliffs_delta",
    "cohens_d",
    "kendall_tau_b",
    "format_p",
    # planning
    "plan",
    "simulate_power",
    "simulate_power_curve",
    # rank stability
    "stability",
    # result classes
    "ComparisonResult",
    "FriedmanResult",
    "ImanDavenportResult",
    "RankTestResult",
    "RankComparison",
    "PosthocComparison",
    "MetricsComparison",
    "SeparateAnalyses",
    "AutoResult",
    "AnovaResult",
    "TukeyHSDResult",
    "ShapiroResult",
    "MauchlyResult",
    "PairResult",
    "PairedTTestResult",
    "WilcoxonResult",
    "WilcoxonPairsResult",
    "SignTestResult",
    "SignTestPairsResult",
    "CVTestResult",
    "McNemarResult",
    "BayesianTTestResult",
    "BayesianSignedRankResult",
    "EffectSizes",
    "VersusBest",
    "PlanResult",
    "PowerResult",
    "PowerCurveResult",
    "StabilityResult",
    "DatasetInfluence",
]
