"""Parameter docs written once, spliced into every docstring that takes the parameter.

A docstring names a shared entry with a line that holds only ``%(name)s``, indented
as the entry's ``name : type`` line would be; :func:`share` replaces that line with
the entry of :data:`PARAMS`, every line indented alike, so numpydoc sees the usual
four-space description.  Lines indented further right after the slot continue the
entry's description with what is particular to the function.  Only whole-line
slots are replaced, so a ``%`` elsewhere in a docstring needs no escaping (unlike
matplotlib's ``%``-interpolation, whose idea this is).

This module imports nothing heavy: the modules that define docstrings import it,
and ``import cdplot`` stays light.
"""

from __future__ import annotations

import re
from typing import TypeVar

__all__ = ["PARAMS", "share", "splice"]

T = TypeVar("T")

# One entry per parameter that means the same in several public functions, in numpydoc
# form, unindented (the slot gives the indent).  Where the same name means something
# else (a pair of names, a result's field), the function keeps its own words.
PARAMS: dict[str, str] = {
    # --- the data ---
    "scores": """\
scores : ScoreTable, array_like, mapping, DataFrame or path
    Scores of ``k`` methods on ``N`` data sets: a wide table (rows are data
    sets, columns methods), a long table (data set, method, score and
    optional repetition and metric columns), a file (CSV, TSV, JSON) or
    anything :func:`cdplot.read_scores` accepts.""",
    "scores_array": """\
scores : array_like, shape (N, k)
    Scores of ``k`` methods (columns) on ``N`` data sets (rows), finite
    (a missing score raises :class:`~cdplot.errors.CdplotError` naming
    the cell, as :func:`cdplot.compare` does).""",
    "methods_datasets": """\
methods, datasets : sequence of str, optional
    Names for the columns and rows of an unlabelled array (default
    ``"method 1"``, ... and ``"dataset 1"``, ...); for inputs that name
    their own, the methods and data sets to keep, in this order, where an
    unknown name is an error listing the known ones
    (:func:`cdplot.io.as_score_tables` also takes ``exclude`` and
    ``rename``).""",
    "metric": """\
metric : str, optional
    Which metric to use when the data hold several; a name that is not a
    metric of the data is an error listing the metrics.""",
    "nan_policy": """\
nan_policy : {'raise', 'omit'}, default 'raise'
    Missing scores (empty cells, ``NA``, ``NaN``) raise an error that names
    the cells, or ``'omit'`` drops the incomplete data sets (the notes say
    which).""",
    "average_ranks": """\
average_ranks : mapping, str, path-like or AverageRanks
    ``{method: average rank}`` (1 = best; a pandas Series works), a
    file of ``method,average_rank`` rows (see
    :func:`cdplot.io.read_average_ranks`), or a sequence of ranks with
    ``methods``.""",
    "ranks_methods": """\
methods : sequence of str, optional
    Names for a plain sequence of ranks.""",
    "pair_names": """\
methods : pair of str, optional
    Names of the two methods, A and B (default ``('A', 'B')``).""",
    # --- the analysis ---
    "higher_is_better": """\
higher_is_better : bool, optional
    Direction of the scores.  By default the direction the data declare
    (the bundled examples do), else higher is better.""",
    "higher_is_better_array": """\
higher_is_better : bool, default True
    Whether a larger score is better (accuracy, AUC) or worse (error, loss).""",
    "alpha": """\
alpha : float, default 0.05
    Significance level, in (0, 1).""",
    "test": """\
test : {'nemenyi', 'bonferroni-dunn', 'friedman-z', 'wilcoxon', 'sign'}, default 'nemenyi'
    Post-hoc procedure.  ``'nemenyi'`` compares all pairs with the
    studentized range critical value; ``'bonferroni-dunn'`` compares each
    method with ``control``; ``'friedman-z'`` runs z-tests on the
    average-rank differences; ``'wilcoxon'`` and ``'sign'`` run the
    Wilcoxon signed-rank and sign tests on the scores of each pair.""",
    "cd_test": """\
test : {'nemenyi', 'bonferroni-dunn'}, default 'nemenyi'
    The post-hoc test whose critical value is used: Nemenyi's for all
    pairs, Bonferroni-Dunn's for comparisons with a control (see
    :func:`cdplot.stats.critical_value`).""",
    "correction": """\
correction : {'bonferroni', 'holm', 'hochberg', 'hommel', 'shaffer', 'bergmann'}, optional
    Multiple-testing correction for ``'friedman-z'``, ``'wilcoxon'`` and
    ``'sign'`` (default ``'holm'``).  ``'shaffer'`` (Shaffer's static
    procedure) and ``'bergmann'`` (Bergmann-Hommel) use the logical
    relations among all pairwise hypotheses and need all pairs.
    Nemenyi takes no correction; Bonferroni-Dunn is the Bonferroni one.""",
    "control": """\
control : str, optional
    Compare only with this method.  ``'bonferroni-dunn'`` defaults to
    the best-ranked method; the pairwise tests default to all pairs.
    With a control nothing is tested between two other methods, so the
    result forms no groups (``cliques`` is empty, ``all_pairs_tested``
    false) and its words say that only pairs with the control were
    tested.""",
    "tie_correction": """\
tie_correction : bool, default True
    Report the tie-corrected Friedman statistic (as R and scipy) and
    compute ``F_F`` from it; Demsar's uncorrected values are always
    reported too.""",
    "zero_method": """\
zero_method : {'demsar', 'zsplit', 'wilcox', 'pratt'}, default 'demsar'
    Treatment of zero differences in the Wilcoxon test.  ``'demsar'``
    splits their ranks evenly between the two sides and ignores one zero
    when their number is odd, as Demsar (2006, section 3.1.3) says;
    ``'zsplit'`` is scipy's rule, which keeps every zero; ``'wilcox'``
    drops them and ``'pratt'`` ranks them on neither side (see
    :func:`cdplot.stats.wilcoxon`).""",
    "null_method": """\
method : {'auto', 'exact', 'asymptotic'}, default 'auto'
    Null distribution of the Wilcoxon statistic (scipy's word);
    ``'auto'`` follows scipy's choice (see :func:`cdplot.stats.wilcoxon`).""",
    "rng": """\
rng : int or numpy.random.Generator, default 0
    Seed (>= 0) or generator of the random draws.  The fixed default makes
    repeated runs give the same result.""",
    # --- reading ---
    "sep": """\
sep : str, optional
    The delimiter; by default sniffed among ``,``, ``;``, tab and ``|``. When it is not
    ``,``, numbers written with decimal commas (``0,763``) are read as such.""",
    "long_columns": """\
dataset_col, method_col, score_col, metric_col : str, optional
    Columns of long data, when their names are not recognised. Recognised names,
    compared case-insensitively and ignoring spaces, underscores and hyphens, are
    dataset/data set/problem/task/benchmark; method/algorithm/classifier/model/learner;
    score/value/accuracy/auc/error/result/performance; metric/measure.""",
    "repetition_col": """\
repetition_col : str or list of str, optional
    Column(s) telling repeated runs apart (recognised: fold, seed, rep, repetition, run,
    repeat, iteration, split, trial; several, e.g. ``["seed", "fold"]``). Repeated rows
    of one data set and method are averaged, with or without such a column, and
    ``notes`` says so.""",
    "rename": """\
rename : mapping of str to str, optional
    New names for methods (``{"RandF": "Random forest"}``), applied after the
    selection.""",
    "orient": """\
orient : {'auto', 'datasets', 'methods'}, default 'auto'
    What the outer keys of a mapping of mappings (a JSON object of objects) are.
    ``{dataset: {method: score}}`` is the documented form ('datasets');
    ``DataFrame.to_dict()`` gives ``{method: {dataset: score}}`` ('methods'). 'auto'
    reads the documented form but refuses a mapping with fewer outer than inner keys
    (it would become a table of more methods than data sets, the usual sign of the
    other orientation).""",
    "max_bytes": """\
max_bytes : int, default 1 GiB
    Larger files are refused with a message.""",
    "keep_repetitions": """\
keep_repetitions : bool, default False
    Also keep the score of every repetition of long data (folds, seeds,
    resamples) in ``ScoreTable.repetition_scores``, for the spread
    (``ScoreTable.std``) and tests over the repetitions of one data set
    (:func:`cdplot.data_table` uses both). Off by default: it costs a
    pass over every row.""",
    # --- the figures ---
    "result_or_scores": """\
result_or_scores : ComparisonResult, AutoResult or scores
    A result of :func:`cdplot.compare`, or anything it accepts (array,
    mapping, DataFrame, :class:`~cdplot.ScoreTable`, file path), which is
    then compared with ``compare_kws``.  A result of
    :func:`cdplot.compare_auto` is drawn by its chosen analysis: the
    rank-based one by every chart; repeated-measures ANOVA only by
    :func:`significance_heatmap` (Tukey's adjusted p-values, methods by
    mean score), the other charts naming it in their error.""",
    "ax": """\
ax : matplotlib.axes.Axes, optional
    Draw into this Axes (its frame and ticks are turned off, and the
    content is fitted to its width and height with the same rules as
    a style's width; a :class:`~cdplot.errors.CdplotWarning` names the
    size needed when it cannot be made legible).  In a grid
    (``plt.subplots``) the content also takes the room matplotlib keeps
    left of and below the Axes for its tick labels, and the figure's
    outer margins; text starts at the figure's tick-label size
    (``xtick.labelsize``) and shrinks to 6 pt as needed.  By default a
    new figure sized to the content is made.""",
    "reverse": """\
reverse : bool, default False
    Put the best (lowest) ranks on the left instead of the right.""",
    "style": """\
style : {'paper', 'paper-wide', 'slides'}, default 'paper'
    ``'paper'``: one column, exactly 3.5 in wide; ``'paper-wide'``:
    exactly 7 in; ``'slides'``: exactly 16:9, 10 x 5.625 in (growing,
    at the same aspect, when the content needs more height), large
    type.  The height follows the content.  No text is smaller than
    6 pt (paper) or 14 pt (slides): to fit, names are wrapped on two
    lines at natural breaks, then shortened with a key number (the
    full names are listed under the figure); when even that cannot
    make the figure legible a :class:`~cdplot.errors.CdplotWarning`
    names a style or chart to use instead.""",
    "width": """\
width : float, optional
    Figure width in inches instead of the style's, with the same
    rules (and the style's type sizes).""",
    "font": """\
font : {'sans', 'serif'} or str, optional
    Bundled font: Lato (``'sans'``, the default) or CMU Serif (the
    look of LaTeX papers); or the path of a TrueType/OpenType file, or
    the family name of an installed font.  Characters the font lacks
    come from DejaVu Sans, then from the machine's fonts (Noto CJK and
    the like); a :class:`~cdplot.errors.CdplotWarning` names those no
    font has.  Right-to-left names are shaped by matplotlib 3.11 and
    later; older versions draw them unjoined, and say so in a warning.""",
    "highlight": """\
highlight : str, optional
    Name of a method to emphasise.""",
    "label_kws": """\
label_kws : dict, optional
    Extra :class:`matplotlib.text.Text` properties for method names
    (colour, style, alpha).  ``fontsize`` (points, or a name such as
    ``'large'``; not below the style's smallest type) is the size the
    layout starts names from instead of the style's, shrinking them
    only when they do not fit the width; font and alignment are set by
    the layout and may not be overridden.""",
    "line_kws": """\
line_kws : dict, optional
    Extra :class:`matplotlib.lines.Line2D` properties for the lines
    joining names to ranks (or the rank segments).""",
    "compare_kws": """\
compare_kws : dict, optional
    Keyword arguments of :func:`cdplot.compare` (``higher_is_better``,
    ``alpha``, ``test``, ``correction``, ``control``, ``metric``,
    ``nan_policy``, ``methods``, ...), used only when raw scores are
    given.  Giving them with a result is an error, because the result
    was computed already: the figure draws a result and never runs an
    analysis of its own choosing.""",
    # the smaller figures of one result (posterior, power curve, rank probabilities)
    "ax_plain": """\
ax : matplotlib.axes.Axes, optional
    Draw into this Axes; by default a new figure of the style's width is made.""",
    "style_plain": """\
style : {'paper', 'paper-wide', 'slides'}, default 'paper'
    Width and type sizes, as for the other cdplot figures.""",
    "font_bundled": """\
font : {'sans', 'serif'}, optional
    Bundled font: Lato (``'sans'``, the default) or CMU Serif.""",
}

# a line that holds only a slot: its indent, then %(name)s
_SLOT = re.compile(r"^( *)%\((\w+)\)s$", re.MULTILINE)


def _entry(match: re.Match[str]) -> str:
    indent, name = match.groups()
    return "\n".join(indent + line if line else line for line in PARAMS[name].splitlines())


def splice(doc: str | None) -> str | None:
    """``doc`` with each ``%(name)s`` slot line replaced by the shared entry ``name``.

    An unknown name raises :class:`KeyError` when the defining module is imported, so a
    misspelt slot never reaches a user.  ``None`` (docstrings stripped by
    ``python -OO``) stays ``None``.
    """
    if doc is None:
        return None
    return _SLOT.sub(_entry, doc)


def share(obj: T) -> T:
    """Decorator: splice the shared parameter entries into ``obj``'s docstring."""
    obj.__doc__ = splice(obj.__doc__)
    return obj
