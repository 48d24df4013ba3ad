"""The statistics core of cdplot: numpy and scipy, never matplotlib, jinja2 or pandas.

The entry points (:func:`cdplot.compare`, :func:`cdplot.compare_auto`,
:func:`cdplot.compare_pair`, ...) live at the top level; the pieces they are
built from live here, one module per topic, as ``scipy.stats`` documents its
functions.  A module and its main function share a name (``wilcoxon.wilcoxon``),
so the functions are named with their module below.  Every function returns a
result object of the same shape (:mod:`cdplot.stats.resultkit`): a frozen
dataclass with read-only arrays, ``to_dict()``, ``to_json()``, a readable
``str`` with its notes under "Notes:", a one-line ``repr`` and an HTML table
for Jupyter.

Whole analyses
--------------
``compare.compare``
    Ranks, Friedman and Iman-Davenport tests, a post-hoc test and groups
    (:class:`results.ComparisonResult`).
``parametric.compare_auto``
    Repeated-measures ANOVA with Tukey's HSD or the rank analysis, chosen by
    assumption checks (:class:`parametric.AutoResult`).
``consistency.compare_metrics``
    One analysis per metric and Kendall's tau-b between them
    (:class:`consistency.MetricsComparison`).
``from_ranks.compare_ranks``
    The same from average ranks alone, as printed in a paper
    (:class:`from_ranks.RankComparison`).
``pair.compare_pair``
    Two methods over data sets: paired t, Wilcoxon and sign tests
    (:class:`pair.PairResult`).

Ranks and omnibus tests
-----------------------
``ranks.rank_data``, ``ranks.average_ranks``
    Mid-ranks per data set, 1 = best.
``friedman.friedman``, ``friedman.iman_davenport``, ``friedman.friedman_from_ranks``
    Friedman's chi-square (tie-corrected and Demsar's uncorrected) and Iman
    and Davenport's F (:class:`results.FriedmanResult`,
    :class:`results.ImanDavenportResult`).

Post-hoc tests and critical differences
---------------------------------------
``critical.critical_value``, ``critical.critical_difference``
    Nemenyi's and Bonferroni-Dunn's ``q_alpha`` and CD (Demsar 2006, section 3.2.2).
``posthoc.nemenyi``, ``posthoc.rank_z``
    All-pairs rank tests from average ranks (:class:`results.RankTestResult`).
``wilcoxon.wilcoxon``, ``wilcoxon.wilcoxon_pairs``
    Wilcoxon's signed-rank test, one pair or many (:class:`wilcoxon.WilcoxonResult`).
``sign_test.sign_test``, ``sign_test.sign_test_pairs``, ``sign_test.critical_wins``
    The sign test and Demsar's (2006, Table 3) critical number of wins.
``corrections.adjust``, ``corrections.adjust_pairwise``
    Bonferroni, Holm, Hochberg, Hommel, Shaffer and Bergmann-Hommel.
``cliques.find_cliques``, ``cliques.unjoined_pairs``, ``cliques.bridges``
    Groups of methods that do not differ, and the pairs groups cannot show.

Two methods on one data set
---------------------------
``cv_tests.cv_test`` (``kfold_ttest``, ``corrected_ttest``, ``dietterich_5x2cv_ttest``,
``alpaydin_5x2cv_ftest``, ``blocked_cv_ttest``)
    t- and F-tests on cross-validation folds (:class:`cv_tests.CVTestResult`).
``mcnemar.mcnemar``, ``mcnemar.mcnemar_from_predictions``
    McNemar's test on one test set (:class:`mcnemar.McNemarResult`).
``bayesian.bayesian_correlated_ttest``, ``bayesian.bayesian_signed_rank``
    Benavoli et al.'s (2017) Bayesian tests with a region of practical equivalence.

Parametric analysis and effect sizes
------------------------------------
``parametric.rm_anova``, ``parametric.anova_oneway``
    ANOVA with Tukey's HSD (:class:`parametric.AnovaResult`,
    :class:`parametric.TukeyHSDResult`).
``parametric.shapiro_residuals``, ``parametric.mauchly``
    Normality of the residuals and sphericity.
``effect_sizes.effect_sizes``, ``effect_sizes.cliffs_delta``, ``effect_sizes.cohens_d``
    Effect sizes of every pair (:class:`effect_sizes.EffectSizes`).

Shared pieces
-------------
``formatting.format_p``
    The one p-value formatter (sentences, table cells, figure captions).
``resultkit``
    What every result class shares.
"""
