"""The "methods" paragraph of a report, its references and their BibTeX.

The paragraph names every procedure the analysis used, with the source of
each (the test, the omnibus statistics, the correction), so that it can be
pasted into a paper as it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .._options import TEXT_FORMATS, check_option
from ..errors import CdplotError
from ..stats._resultkit import join_names
from ..stats._results import CORRECTION_LABELS
from ._format import latex_escape

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..stats import AutoResult, ComparisonResult

__all__ = [
    "Reference",
    "REFERENCES",
    "methods_paragraph",
    "methods_paragraphs",
    "consistency_paragraph",
    "references_for",
    "bibtex",
    "bibtex_columns",
    "choice_paragraph",
    "anova_paragraph",
    "effect_size_sentence",
]


@dataclass(frozen=True)
class Reference:
    """One cited work: a BibTeX key, an author-year citation and the entry."""

    key: str
    cite: str
    text: str
    bibtex: str


def _ref(key, cite, text, bibtex):
    return key, Reference(key, cite, text, bibtex.strip() + "\n")


REFERENCES = dict(
    [
        _ref(
            "friedman1937",
            "Friedman, 1937",
            "M. Friedman (1937). The use of ranks to avoid the assumption of normality implicit in "
            "the "
            "analysis of variance. Journal of the American Statistical Association 32(200), "
            "675\u2013701. "
            "doi:10.1080/01621459.1937.10503522",
            """
@article{friedman1937,
  author  = {Friedman, Milton},
  title   = {The Use of Ranks to Avoid the Assumption of Normality Implicit in the Analysis of Variance},
  journal = {Journal of the American Statistical Association},
  volume  = {32},
  number  = {200},
  pages   = {675--701},
  year    = {1937},
  doi     = {10.1080/01621459.1937.10503522}
}""",  # noqa: E501
        ),
        _ref(
            "iman1980",
            "Iman and Davenport, 1980",
            "R. L. Iman and J. M. Davenport (1980). Approximations of the critical region of the "
            "Friedman "
            "statistic. Communications in Statistics \u2013 Theory and Methods 9(6), 571\u2013595. "
            "doi:10.1080/03610928008827904",
            """
@article{iman1980,
  author  = {Iman, Ronald L. and Davenport, James M.},
  title   = {Approximations of the Critical Region of the {F}riedman Statistic},
  journal = {Communications in Statistics -- Theory and Methods},
  volume  = {9},
  number  = {6},
  pages   = {571--595},
  year    = {1980},
  doi     = {10.1080/03610928008827904}
}""",
        ),
        _ref(
            "nemenyi1963",
            "Nemenyi, 1963",
            "P. B. Nemenyi (1963). Distribution-free Multiple Comparisons. PhD thesis, Princeton "
            "University.",
            """
@phdthesis{nemenyi1963,
  author = {Nemenyi, Peter Bjorn},
  title  = {Distribution-free Multiple Comparisons},
  school = {Princeton University},
  year   = {1963}
}""",
        ),
        _ref(
            "demsar2006",
            "Dem\u0161ar, 2006",
            "J. Dem\u0161ar (2006). Statistical comparisons of classifiers over multiple data "
            "sets. "
            "Journal of Machine Learning Research 7, 1\u201330.",
            """
@article{demsar2006,
  author  = {Dem{\\v{s}}ar, Janez},
  title   = {Statistical Comparisons of Classifiers over Multiple Data Sets},
  journal = {Journal of Machine Learning Research},
  volume  = {7},
  pages   = {1--30},
  year    = {2006}
}""",
        ),
        _ref(
            "dunn1961",
            "Dunn, 1961",
            "O. J. Dunn (1961). Multiple comparisons among means. Journal of the American "
            "Statistical "
            "Association 56(293), 52\u201364. doi:10.1080/01621459.1961.10482090",
            """
@article{dunn1961,
  author  = {Dunn, Olive Jean},
  title   = {Multiple Comparisons among Means},
  journal = {Journal of the American Statistical Association},
  volume  = {56},
  number  = {293},
  pages   = {52--64},
  year    = {1961},
  doi     = {10.1080/01621459.1961.10482090}
}""",
        ),
        _ref(
            "holm1979",
            "Holm, 1979",
            "S. Holm (1979). A simple sequentially rejective multiple test procedure. Scandinavian "
            "Journal of Statistics 6(2), 65\u201370.",
            """
@article{holm1979,
  author  = {Holm, Sture},
  title   = {A Simple Sequentially Rejective Multiple Test Procedure},
  journal = {Scandinavian Journal of Statistics},
  volume  = {6},
  number  = {2},
  pages   = {65--70},
  year    = {1979}
}""",
        ),
        _ref(
            "hochberg1988",
            "Hochberg, 1988",
            "Y. Hochberg (1988). A sharper Bonferroni procedure for multiple tests of "
            "significance. "
            "Biometrika 75(4), 800\u2013802. doi:10.1093/biomet/75.4.800",
            """
@article{hochberg1988,
  author  = {Hochberg, Yosef},
  title   = {A Sharper {B}onferroni Procedure for Multiple Tests of Significance},
  journal = {Biometrika},
  volume  = {75},
  number  = {4},
  pages   = {800--802},
  year    = {1988},
  doi     = {10.1093/biomet/75.4.800}
}""",
        ),
        _ref(
            "hommel1988",
            "Hommel, 1988",
            "G. Hommel (1988). A stagewise rejective multiple test procedure based on a modified "
            "Bonferroni test. Biometrika 75(2), 383\u2013386. doi:10.1093/biomet/75.2.383",
            """
@article{hommel1988,
  author  = {Hommel, Gerhard},
  title   = {A Stagewise Rejective Multiple Test Procedure Based on a Modified {B}onferroni Test},
  journal = {Biometrika},
  volume  = {75},
  number  = {2},
  pages   = {383--386},
  year    = {1988},
  doi     = {10.1093/biomet/75.2.383}
}""",
        ),
        _ref(
            "shaffer1986",
            "Shaffer, 1986",
            "J. P. Shaffer (1986). Modified sequentially rejective multiple test procedures. "
            "Journal of "
            "the American Statistical Association 81(395), 826\u2013831. "
            "doi:10.1080/01621459.1986.10478341",
            """
@article{shaffer1986,
  author  = {Shaffer, Juliet Popper},
  title   = {Modified Sequentially Rejective Multiple Test Procedures},
  journal = {Journal of the American Statistical Association},
  volume  = {81},
  number  = {395},
  pages   = {826--831},
  year    = {1986},
  doi     = {10.1080/01621459.1986.10478341}
}""",
        ),
        _ref(
            "bergmann1988",
            "Bergmann and Hommel, 1988",
            "B. Bergmann and G. Hommel (1988). Improvements of general multiple test procedures "
            "for "
            "redundant systems of hypotheses. In P. Bauer, G. Hommel and E. Sonnemann (eds.), "
            "Multiple "
            "Hypothesenpr\u00fcfung \u2013 Multiple Hypotheses Testing, 100\u2013115. Springer, "
            "Berlin.",
            """
@incollection{bergmann1988,
  author    = {Bergmann, Beate and Hommel, Gerhard},
  title     = {Improvements of General Multiple Test Procedures for Redundant Systems of Hypotheses},
  booktitle = {Multiple Hypothesenpr{\\"u}fung -- Multiple Hypotheses Testing},
  editor    = {Bauer, Peter and Hommel, Gerhard and Sonnemann, Eckart},
  pages     = {100--115},
  publisher = {Springer},
  address   = {Berlin},
  year      = {1988}
}""",  # noqa: E501
        ),
        _ref(
            "wilcoxon1945",
            "Wilcoxon, 1945",
            "F. Wilcoxon (1945). Individual comparisons by ranking methods. Biometrics Bulletin "
            "1(6), "
            "80\u201383. doi:10.2307/3001968",
            """
@article{wilcoxon1945,
  author  = {Wilcoxon, Frank},
  title   = {Individual Comparisons by Ranking Methods},
  journal = {Biometrics Bulletin},
  volume  = {1},
  number  = {6},
  pages   = {80--83},
  year    = {1945},
  doi     = {10.2307/3001968}
}""",
        ),
        _ref(
            "garcia2008",
            "Garc\u00eda and Herrera, 2008",
            "S. Garc\u00eda and F. Herrera (2008). An extension on \u201cStatistical comparisons "
            "of "
            "classifiers over multiple data sets\u201d for all pairwise comparisons. Journal of "
            "Machine "
            "Learning Research 9, 2677\u20132694.",
            """
@article{garcia2008,
  author  = {Garc{\\'i}a, Salvador and Herrera, Francisco},
  title   = {An Extension on ``Statistical Comparisons of Classifiers over Multiple Data Sets''
             for all Pairwise Comparisons},
  journal = {Journal of Machine Learning Research},
  volume  = {9},
  pages   = {2677--2694},
  year    = {2008}
}""",
        ),
        _ref(
            "kendall1945",
            "Kendall, 1945",
            "M. G. Kendall (1945). The treatment of ties in ranking problems. Biometrika 33(3), "
            "239\u2013251. doi:10.1093/biomet/33.3.239",
            """
@article{kendall1945,
  author  = {Kendall, Maurice G.},
  title   = {The Treatment of Ties in Ranking Problems},
  journal = {Biometrika},
  volume  = {33},
  number  = {3},
  pages   = {239--251},
  year    = {1945},
  doi     = {10.1093/biomet/33.3.239}
}""",
        ),
        _ref(
            "tukey1949",
            "Tukey, 1949",
            "J. W. Tukey (1949). Comparing individual means in the analysis of variance. "
            "Biometrics 5(2), 99\u2013114. doi:10.2307/3001913",
            """
@article{tukey1949,
  author  = {Tukey, John W.},
  title   = {Comparing Individual Means in the Analysis of Variance},
  journal = {Biometrics},
  volume  = {5},
  number  = {2},
  pages   = {99--114},
  year    = {1949},
  doi     = {10.2307/3001913}
}""",
        ),
        _ref(
            "shapiro1965",
            "Shapiro and Wilk, 1965",
            "S. S. Shapiro and M. B. Wilk (1965). An analysis of variance test for normality "
            "(complete samples). Biometrika 52(3\u20134), 591\u2013611. "
            "doi:10.1093/biomet/52.3-4.591",
            """
@article{shapiro1965,
  author  = {Shapiro, Samuel S. and Wilk, Martin B.},
  title   = {An Analysis of Variance Test for Normality (Complete Samples)},
  journal = {Biometrika},
  volume  = {52},
  number  = {3--4},
  pages   = {591--611},
  year    = {1965},
  doi     = {10.1093/biomet/52.3-4.591}
}""",
        ),
        _ref(
            "mauchly1940",
            "Mauchly, 1940",
            "J. W. Mauchly (1940). Significance test for sphericity of a normal n-variate "
            "distribution. The Annals of Mathematical Statistics 11(2), 204\u2013209. "
            "doi:10.1214/aoms/1177731915",
            """
@article{mauchly1940,
  author  = {Mauchly, John W.},
  title   = {Significance Test for Sphericity of a Normal $n$-Variate Distribution},
  journal = {The Annals of Mathematical Statistics},
  volume  = {11},
  number  = {2},
  pages   = {204--209},
  year    = {1940},
  doi     = {10.1214/aoms/1177731915}
}""",
        ),
        _ref(
            "greenhouse1959",
            "Greenhouse and Geisser, 1959",
            "S. W. Greenhouse and S. Geisser (1959). On methods in the analysis of profile data. "
            "Psychometrika 24(2), 95\u2013112. doi:10.1007/BF02289823",
            """
@article{greenhouse1959,
  author  = {Greenhouse, Samuel W. and Geisser, Seymour},
  title   = {On Methods in the Analysis of Profile Data},
  journal = {Psychometrika},
  volume  = {24},
  number  = {2},
  pages   = {95--112},
  year    = {1959},
  doi     = {10.1007/BF02289823}
}""",
        ),
        _ref(
            "herbold2020",
            "Herbold, 2020",
            "S. Herbold (2020). Autorank: a Python package for automated ranking of classifiers. "
            "Journal of Open Source Software 5(48), 2173. doi:10.21105/joss.02173",
            """
@article{herbold2020,
  author  = {Herbold, Steffen},
  title   = {Autorank: A Python Package for Automated Ranking of Classifiers},
  journal = {Journal of Open Source Software},
  volume  = {5},
  number  = {48},
  pages   = {2173},
  year    = {2020},
  doi     = {10.21105/joss.02173}
}""",
        ),
        _ref(
            "cliff1993",
            "Cliff, 1993",
            "N. Cliff (1993). Dominance statistics: ordinal analyses to answer ordinal questions. "
            "Psychological Bulletin 114(3), 494\u2013509. doi:10.1037/0033-2909.114.3.494",
            """
@article{cliff1993,
  author  = {Cliff, Norman},
  title   = {Dominance Statistics: Ordinal Analyses to Answer Ordinal Questions},
  journal = {Psychological Bulletin},
  volume  = {114},
  number  = {3},
  pages   = {494--509},
  year    = {1993},
  doi     = {10.1037/0033-2909.114.3.494}
}""",
        ),
        _ref(
            "romano2006",
            "Romano et al., 2006",
            "J. Romano, J. D. Kromrey, J. Coraggio and J. Skowronek (2006). Appropriate "
            "statistics for ordinal level data: should we really be using t-test and Cohen's d "
            "for evaluating group differences on the NSSE and other surveys? Annual meeting of "
            "the Florida Association of Institutional Research.",
            """
@inproceedings{romano2006,
  author    = {Romano, Jeanine and Kromrey, Jeffrey D. and Coraggio, Jesse and Skowronek, Jeff},
  title     = {Appropriate Statistics for Ordinal Level Data: Should We Really Be Using t-test and {C}ohen's d for Evaluating Group Differences on the {NSSE} and Other Surveys?},
  booktitle = {Annual Meeting of the Florida Association of Institutional Research},
  year      = {2006}
}""",  # noqa: E501
        ),
        _ref(
            "cohen1988",
            "Cohen, 1988",
            "J. Cohen (1988). Statistical Power Analysis for the Behavioral Sciences, 2nd ed. "
            "Lawrence Erlbaum, Hillsdale, NJ.",
            """
@book{cohen1988,
  author    = {Cohen, Jacob},
  title     = {Statistical Power Analysis for the Behavioral Sciences},
  edition   = {2nd},
  publisher = {Lawrence Erlbaum},
  address   = {Hillsdale, NJ},
  year      = {1988}
}""",
        ),
    ]
)

# the source of each multiple-testing correction
_CORRECTION_REFS = {
    "bonferroni": ("dunn1961",),
    "holm": ("holm1979",),
    "hochberg": ("hochberg1988",),
    "hommel": ("hommel1988",),
    "shaffer": ("shaffer1986", "garcia2008"),
    "bergmann": ("bergmann1988", "garcia2008"),
}


# the effect sizes every report shows: Cliff's delta, its magnitudes, Cohen's d
EFFECT_SIZE_KEYS = ["cliff1993", "romano2006", "cohen1988"]


def _has_effect_sizes(result) -> bool:
    """Whether the analysis has scores to measure effects on (average ranks alone have not).

    Asked of the type: asking the instance would compute the effect sizes.
    """
    return hasattr(type(result), "effect_sizes")


def effect_size_sentence(*, format: str = "text", parametric: bool = False) -> str:
    """The sentence of a methods paragraph that names the effect sizes and their sources."""
    delta = "Cliff's $\\delta$" if format == "latex" else "Cliff's \u03b4"
    cliff = (
        f"{delta} {_cite(['cliff1993'], format)} with the magnitudes of "
        f"{_citet('romano2006', format)}"
    )
    cohen = "Cohen's $d$" if format == "latex" else "Cohen's d"
    cohen = f"{cohen} of the paired differences {_cite(['cohen1988'], format)}"
    first, second = (cohen, cliff) if parametric else (cliff, cohen)
    return f"Effect sizes: {first}, and {second}; positive when the first method is better."


def _cite(keys, format: str) -> str:
    if format == "latex":
        return "\\citep{" + ",".join(keys) + "}"
    return "(" + "; ".join(REFERENCES[k].cite for k in keys) + ")"


def _citet(key: str, format: str) -> str:
    """A citation in running text: "Demšar (2006)" or ``\\citet{demsar2006}``."""
    if format == "latex":
        return "\\citet{" + key + "}"
    authors, year = REFERENCES[key].cite.rsplit(", ", 1)
    return f"{authors} ({year})"


def _procedure_keys(result) -> list[str]:
    if result.test == "nemenyi":
        return ["nemenyi1963", "demsar2006"]
    if result.test == "bonferroni-dunn":
        return ["dunn1961", "demsar2006"]
    if result.test == "wilcoxon":
        return ["wilcoxon1945", "demsar2006"]
    return ["demsar2006"]


def references_for(results, *, consistency: bool = False, auto=None) -> list[Reference]:
    """The works a report on ``results`` cites, in order of first citation.

    ``auto`` is the :func:`cdplot.compare_auto` result the analyses came
    from, if any: its checks are cited first; on its parametric path
    (``results`` empty) so are ANOVA's.
    """
    keys = []
    if auto is not None:
        keys += ["herbold2020", "shapiro1965", "mauchly1940"]
        if not results:
            keys += ["greenhouse1959", "tukey1949", "cohen1988", "cliff1993", "romano2006"]
            return [REFERENCES[k] for k in dict.fromkeys(keys)]
    keys += ["friedman1937", "iman1980", "demsar2006"]
    for r in results:
        keys += _procedure_keys(r)
        if r.correction is not None and r.test != "nemenyi":
            keys += _CORRECTION_REFS.get(r.correction, ())
        if r.test == "friedman-z" and r.control is None:
            keys.append("garcia2008")
    if any(_has_effect_sizes(r) for r in results):
        keys += EFFECT_SIZE_KEYS
    if consistency:
        keys.append("kendall1945")
    seen: dict[str, None] = {}
    for k in keys:
        seen.setdefault(k, None)
    return [REFERENCES[k] for k in seen]


def _text(value: str, format: str) -> str:
    if format != "latex":
        return value
    return latex_escape(value)


def _metric_phrase(results, format: str) -> str:
    """`` by AUC (higher is better)``: the metric or metrics and their directions."""
    r = results[0]
    if not hasattr(r, "ranks"):
        # compare_ranks: the average ranks were given, not computed, and say no direction
        return f" by {_text(r.metric, format)}" if r.metric else ""
    if len(results) == 1:
        direction = "higher" if r.higher_is_better else "lower"
        return (
            f" by {_text(r.metric, format)} ({direction} is better)"
            if r.metric
            else f" ({direction} is better)"
        )
    groups: dict[bool, list[str]] = {}
    for i, x in enumerate(results, start=1):
        groups.setdefault(bool(x.higher_is_better), []).append(
            _text(x.metric or f"metric {i}", format)
        )
    dirs = "; ".join(
        f"{join_names(names)}: {'higher' if hib else 'lower'} is better"
        for hib, names in groups.items()
    )
    return f" under each of {len(results)} metrics ({dirs})"


def _omnibus_sentence(results, format: str) -> str:
    """What was compared, how it was ranked, and the Friedman and Iman-Davenport tests."""
    r = results[0]
    c = lambda *keys: _cite(keys, format)  # noqa: E731
    ff = "$F_F$" if format == "latex" else "F_F"
    alpha = f"$\\alpha = {r.alpha:g}$" if format == "latex" else f"\u03b1 = {r.alpha:g}"
    ties = (
        "with the correction for ties"
        if r.friedman.tie_correction
        else "without a correction for ties"
    )
    ranked = (
        "The methods were ranked on each data set (1 = best, average ranks for ties)"
        if hasattr(r, "ranks")
        # compare_ranks: the average ranks were given, not computed, and say no direction
        else "Only the methods' average ranks over the data sets were available (1 = best)"
    )
    return (
        f"We compared {r.n_methods} methods over {r.n_datasets} data sets"
        f"{_metric_phrase(results, format)} "
        f"following {_citet('demsar2006', format)}. {ranked}, "
        "and the null hypothesis that all methods perform equally was tested "
        "with the "
        f"Friedman test {c('friedman1937')} {ties}, using Iman and Davenport's {ff} statistic "
        f"{c('iman1980')} at a significance level of {alpha}"
        + (", separately for each metric." if len(results) > 1 else ".")
    )


def _posthoc_sentence(r, format: str) -> str:
    """The post-hoc test: Nemenyi's or Bonferroni-Dunn's CD, or tests with a correction."""
    c = lambda *keys: _cite(keys, format)  # noqa: E731
    if r.test == "nemenyi":
        return (
            f"All pairs of methods were then compared with the Nemenyi test {c('nemenyi1963')}: "
            "two "
            "methods differ significantly when their average ranks differ by at least the critical "
            f"difference CD = {r.critical_difference:.3f} (q = {r.critical_value:.3f})."
        )
    if r.test == "bonferroni-dunn":
        return (
            f"Each method was then compared with the control {_text(r.control, format)} with the "
            f"Bonferroni\u2013Dunn test {c('dunn1961', 'demsar2006')}: a method differs "
            "significantly "
            "from the control when their average ranks differ by at least the critical difference "
            f"CD = {r.critical_difference:.3f} (q = {r.critical_value:.3f})."
        )
    if r.test == "friedman-z":
        how = (
            "z-tests on the differences of average ranks "
            f"{c('demsar2006', 'garcia2008') if r.control is None else c('demsar2006')}"
        )
    elif r.test == "wilcoxon":
        zm = r.options.get("zero_method", "demsar")
        how = (
            f"the Wilcoxon signed-rank test {c('wilcoxon1945')} on "
            f"the scores (zero differences: {zm})"
        )
    else:
        how = f"the sign test on the numbers of wins {c('demsar2006')}"
    who = (
        "all pairs of methods"
        if r.control is None
        else f"each method with the control {_text(r.control, format)}"
    )
    corr = CORRECTION_LABELS.get(r.correction, str(r.correction))
    corr_keys = _CORRECTION_REFS.get(r.correction, ())
    corr_text = (
        f"{corr}'s procedure"
        if r.correction in ("holm", "hochberg", "hommel")
        else f"the {corr} procedure"
    )
    if r.correction == "bonferroni":
        corr_text = "the Bonferroni correction"
    return (
        f"Post hoc, {who} were compared with {how}, and the p-values were adjusted for "
        "multiple "
        f"testing with {corr_text} {c(*corr_keys)}."
    )


def methods_paragraph(
    result: ComparisonResult | Sequence[ComparisonResult], *, format: str = "text"
) -> str:
    """A paragraph describing the analysis, ready to paste into a paper.

    Parameters
    ----------
    result : ComparisonResult or sequence of ComparisonResult
        The analysis to describe; several analyses of one design (the same
        methods, data-set count, test and options under several metrics)
        are described in one paragraph.
    format : {'text', 'latex'}, default 'text'
        Plain text with author-year citations in parentheses, or LaTeX ``\\citep`` commands
        whose keys are those of :func:`bibtex` (names are LaTeX-escaped).

    Returns
    -------
    str
        The paragraph.

    Raises
    ------
    CdplotError
        If ``format`` is invalid, or several analyses differ in design
        (use :func:`methods_paragraphs` for them).

    Examples
    --------
    >>> import cdplot
    >>> from cdplot.reporting import methods_paragraph
    >>> res = cdplot.compare(cdplot.load_example("demsar2006"))
    >>> methods_paragraph(res, format="text").split(". ")[0]
    'We compared 4 methods over 14 data sets by AUC (higher is better) following Demšar (2006)'
    """
    check_option("format", format, TEXT_FORMATS)
    results = list(result) if isinstance(result, (list, tuple)) else [result]
    if len({_design(r) for r in results}) != 1:
        raise CdplotError(
            "the analyses differ in design; describe them one by one with methods_paragraphs"
        )
    r = results[0]
    parts = [_omnibus_sentence(results, format), _posthoc_sentence(r, format)]
    if _has_effect_sizes(r):
        parts.append(effect_size_sentence(format=format))
    if r.n_datasets < 10:
        parts.append(
            f"With only {r.n_datasets} data sets, the chi-square and F approximations are rough."
        )
    return " ".join(parts)


def _design(r) -> tuple:
    """What a methods paragraph says about an analysis, apart from its metric."""
    return (
        r.n_methods,
        r.n_datasets,
        r.test,
        r.correction,
        r.control,
        r.alpha,
        r.friedman.tie_correction,
        tuple(sorted(r.options.items())),
        r.critical_difference,
    )


def methods_paragraphs(results, *, format: str = "text") -> list[tuple[str | None, str]]:
    """``(metric, paragraph)`` pairs: one paragraph for analyses of one design, else one each.

    The metric is ``None`` when one paragraph covers every analysis.
    """
    results = list(results)
    if len({_design(r) for r in results}) == 1:
        return [(None, methods_paragraph(results, format=format))]
    return [(r.metric, methods_paragraph(r, format=format)) for r in results]


def consistency_paragraph(mc, *, format: str = "text") -> str:
    """A sentence on how the rankings under several metrics were compared."""
    check_option("format", format, TEXT_FORMATS)
    tau = "$\\tau_b$" if format == "latex" else "tau-b"
    return (
        f"The agreement between the rankings under the {mc.n_metrics} metrics was measured with "
        f"Kendall's {tau} {_cite(['kendall1945'], format)} between the methods' average ranks "
        "under each pair of metrics."
    )


def bibtex(
    results: Sequence[ComparisonResult],
    *,
    consistency: bool = False,
    auto: AutoResult | None = None,
) -> str:
    """BibTeX entries of every work the report on ``results`` cites.

    Parameters
    ----------
    results : sequence of ComparisonResult
        The analyses the report shows (empty on the parametric path of ``auto``).
    consistency : bool, default False
        Whether the report compares several metrics (Kendall's tau is then cited).
    auto : AutoResult, optional
        The :func:`cdplot.compare_auto` result the analyses came from: its checks
        (and, on its parametric path, ANOVA and Tukey's test) are cited first.

    Returns
    -------
    str
        One BibTeX entry per work, in order of first citation.
    """
    refs = references_for(results, consistency=consistency, auto=auto)
    return "\n".join(ref.bibtex for ref in refs)


# The print stylesheet's BibTeX (report.css, @media print): DejaVu Sans Mono (layout.mono_em)
# at .72 x 9.5 pt on a 1.2 leading, in a box of .6em/.8em padding and 1 px
# border, its two columns 1.5em apart.
_BIB_PT = 0.72 * 9.5
_BIB_LEADING = 1.2
_BIB_BOX_WIDTH_EM = 2 * 0.8 + 1.5 + 1.5 / _BIB_PT  # side paddings, the gap, two 0.75 pt borders
_BIB_BOX_HEIGHT_EM = 2 * 0.6 + 1.5 / _BIB_PT
# room kept on a block's page for the "BibTeX" heading that must not stand alone, with its
# margins (h3: 1.1 x 9.5 pt on a 1.2 leading, 1.3em + .4em around), and for a few lines that
# wrap where this count did not expect it (it breaks at spaces only; CSS also after hyphens)
_BIB_HEADING_PT = 40.0


def _wrapped_lines(entry: str, width: int) -> int:
    """Lines ``entry`` takes in a column of ``width`` characters (``white-space: pre-wrap``)."""
    import textwrap

    return sum(
        len(textwrap.wrap(line, width, break_on_hyphens=False, drop_whitespace=True)) or 1
        for line in entry.rstrip("\n").split("\n")
    )


def bibtex_columns(text: str, *, paper: str = "a4") -> list[list[str]]:
    """The BibTeX of :func:`bibtex` as two print columns of whole entries, page by page.

    Parameters
    ----------
    text : str
        Entries as :func:`bibtex` returns them (a blank line between two).
    paper : {'a4', 'letter'}, default 'a4'
        The page the columns are set on: its width gives the characters of a
        column's line, its height the lines of a column.

    Returns
    -------
    list of list of str
        Blocks, each of one or two columns of whole entries (written as
        :func:`bibtex` writes them), as many blocks as it takes for each to
        fit on one page: a single block unless the entries fill more than two
        columns of a page.  Each column ends in a newline; joined in order by
        newlines, they give ``text``.

    Notes
    -----
    The report's print stylesheet sets a block's columns side by side on one
    line (inline blocks), which no page break can cut, so that no entry is
    split between columns or pages.  The split between the two columns of a block is the one that
    makes the taller column shortest (the first the taller one on a tie, as
    balanced columns fill), counting the lines that wrap.  WeasyPrint's own
    balanced columns (``columns: 2``) cut entries in two, and lay the block
    out some 16 times to balance it (a fifth to a third of a second in every
    report).
    """
    from ._layout import TEXT_HEIGHT_PT, TEXT_WIDTH_PT, mono_em

    check_option("paper", paper, ("a4", "letter"))
    width = int((TEXT_WIDTH_PT[paper] / _BIB_PT - _BIB_BOX_WIDTH_EM) / 2 / mono_em())
    room = TEXT_HEIGHT_PT[paper] - _BIB_HEADING_PT - _BIB_BOX_HEIGHT_EM * _BIB_PT
    most = int(room / (_BIB_PT * _BIB_LEADING))
    entries = text.rstrip("\n").split("\n\n@")
    entries = [entries[0]] + ["@" + e for e in entries[1:]]
    heights = [_wrapped_lines(e, width) for e in entries]

    def column(part):
        # a blank line separates two entries of a column
        return sum(part) + max(len(part) - 1, 0)

    def balanced(hs):
        # (lines of the taller column, entries of the first) of the best split; of two
        # splits as tall, the one whose first column is the taller
        tallest, _shorter_first, cut = min(
            (max(column(hs[:cut]), column(hs[cut:])), column(hs[:cut]) < column(hs[cut:]), cut)
            for cut in range(1, len(hs) + 1)
        )
        return tallest, cut

    blocks = []
    start = 0
    while start < len(entries):
        # as many entries as two columns of a page hold (one at least, however long)
        stop = start + 1
        while stop < len(entries) and balanced(heights[start : stop + 1])[0] <= most:
            stop += 1
        cut = start + balanced(heights[start:stop])[1]
        blocks.append(
            ["\n\n".join(entries[a:b]) + "\n" for a, b in ((start, cut), (cut, stop)) if a < b]
        )
        start = stop
    return blocks


def choice_paragraph(auto, *, format: str = "text") -> str:
    """How :func:`cdplot.compare_auto` chose the analysis, ready to paste into a paper.

    Parameters
    ----------
    auto : AutoResult
        The result whose choice is described.
    format : {'text', 'latex'}, default 'text'
        Plain text with author-year citations, or LaTeX with ``\\citep``.

    Returns
    -------
    str
        The paragraph: the checks, with their sources, and the reason.
    """
    check_option("format", format, TEXT_FORMATS)
    alpha = f"$\\alpha = {auto.alpha:g}$" if format == "latex" else f"\u03b1 = {auto.alpha:g}"
    return (
        "The analysis was chosen from the data, as autorank does "
        f"{_cite(['herbold2020'], format)}: the residuals of a repeated-measures ANOVA were "
        f"tested for normality with the Shapiro\u2013Wilk test {_cite(['shapiro1965'], format)} "
        f"and the covariance of the methods for sphericity with Mauchly's test "
        f"{_cite(['mauchly1940'], format)}, both at {alpha}. {_text(auto.reason, format)}"
    )


def anova_paragraph(anova, *, format: str = "text") -> str:
    """A paragraph describing repeated-measures ANOVA with Tukey's HSD.

    Parameters
    ----------
    anova : AnovaResult
        The analysis of :func:`cdplot.compare_auto`'s parametric path.
    format : {'text', 'latex'}, default 'text'
        Plain text with author-year citations, or LaTeX with ``\\citep``.

    Returns
    -------
    str
        The paragraph.
    """
    check_option("format", format, TEXT_FORMATS)
    alpha = f"$\\alpha = {anova.alpha:g}$" if format == "latex" else f"\u03b1 = {anova.alpha:g}"
    direction = "higher" if anova.higher_is_better else "lower"
    metric = (
        f" by {_text(anova.metric, format)} ({direction} is better)"
        if anova.metric
        else f" ({direction} is better)"
    )
    return (
        f"We compared {anova.n_methods} methods over {anova.n_datasets} data sets{metric} with a "
        "repeated-measures analysis of variance (data sets as subjects), reporting also the "
        "p-value with the Greenhouse\u2013Geisser correction of the degrees of freedom "
        f"{_cite(['greenhouse1959'], format)}, and compared all pairs of methods with Tukey's "
        f"honestly significant difference test {_cite(['tukey1949'], format)} at {alpha}. "
        + effect_size_sentence(format=format, parametric=True)
    )
