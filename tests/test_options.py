"""The vocabulary is defined once (cdplot/_options.py) and every layer agrees with it."""

import typing

import pytest

from cdplot import _options

# every choice tuple and the Literal alias the annotations use for it
LITERALS = {
    "TESTS": "Test",
    "CD_TESTS": "CDTest",
    "RANK_TESTS": "RankTest",
    "CORRECTIONS": "Correction",
    "PAIRWISE_CORRECTIONS": "PairwiseCorrection",
    "ALL_PAIRS_ONLY": "AllPairsCorrection",
    "ZERO_METHODS": "ZeroMethod",
    "NULL_METHODS": "NullMethod",
    "NAN_POLICIES": "NanPolicy",
    "LAYOUTS": "Layout",
    "ORIENTS": "Orient",
    "CV_TESTS": "CVTest",
    "PAIRED_TESTS": "PairedTest",
    "EFFECT_MEASURES": "EffectMeasure",
    "STYLES": "Style",
    "FONTS": "Font",
    "KINDS": "Kind",
    "FIGURE_FORMATS": "FigureFormat",
    "REPORT_FORMATS": "ReportFormat",
    "PAPERS": "Paper",
    "TABLE_FORMATS": "TableFormat",
    "TABLE_MARKS": "TableMark",
    "TEXT_FORMATS": "TextFormat",
    "STATS_FORMATS": "StatsFormat",
    "EFFECT_PAIRS": "EffectPairs",
    "RESAMPLES": "Resample",
}


def test_every_choice_tuple_has_a_literal_alias_with_the_same_words():
    tuples = {
        name
        for name in _options.__all__
        if isinstance(getattr(_options, name), tuple)
        and all(isinstance(v, str) for v in getattr(_options, name))
    }
    assert tuples == set(LITERALS)
    for choices, alias in LITERALS.items():
        assert alias in _options.__all__, alias
        assert typing.get_args(getattr(_options, alias)) == getattr(_options, choices), alias


def test_choice_lists_kept_beside_their_code_agree_with_the_vocabulary():
    from cdplot.io import _build
    from cdplot.reporting import _render
    from cdplot.stats import _cv_tests, _effect_sizes, _per_dataset

    assert _build._LAYOUTS == _options.LAYOUTS
    assert _build.ORIENTS == _options.ORIENTS
    assert _render.PAPERS == _options.PAPERS
    assert typing.get_args(_render.Paper) == _options.PAPERS
    assert typing.get_args(_render.ReportFormat) == _options.REPORT_FORMATS
    assert _cv_tests.CV_TESTS == _options.CV_TESTS
    assert _per_dataset.PAIRED_TESTS == _options.PAIRED_TESTS
    assert tuple(_effect_sizes._THRESHOLDS) == _options.EFFECT_MEASURES


def test_the_drawing_layer_defines_exactly_the_styles_and_fonts_of_the_vocabulary():
    from cdplot.plot._fonts import FONTS
    from cdplot.plot._styles import STYLES

    assert tuple(STYLES) == _options.STYLES
    assert tuple(FONTS) == _options.FONTS


def test_the_command_line_offers_the_vocabulary_choices():
    from cdplot.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command").choices
    stats_choices = {a.dest: a.choices for a in sub["stats"]._actions if a.choices}
    assert tuple(stats_choices["test"])[: len(_options.TESTS)] == _options.TESTS
    assert tuple(stats_choices["correction"]) == _options.CORRECTIONS
    plot_choices = {a.dest: a.choices for a in sub["plot"]._actions if a.choices}
    assert tuple(plot_choices["style"]) == _options.STYLES
    assert tuple(plot_choices["kind"]) == _options.KINDS


# --- every Python option is reachable from the command line, and every option is Python ----

# the public functions each command calls
COMMAND_FUNCTIONS = {
    "stats": ("read_scores", "compare", "compare_auto", "compare_ranks", "from_posthoc"),
    "plot": (
        "read_scores",
        "compare",
        "compare_ranks",
        "cd_diagram",
        "rank_intervals",
        "significance_heatmap",
        "cd_diagrams",
        "rank_profile",
        "cd_tikz",
        "intervals_tikz",
        "save_figure",
        "from_posthoc",
    ),
    "report": ("read_scores", "compare", "compare_ranks", "report"),
    "table": ("read_scores", "compare", "data_table"),
    "pair": (
        "read_scores",
        "read_fold_scores",
        "compare_pair",
        "cv_test",
        "mcnemar_from_predictions",
        "bayesian_correlated_ttest",
    ),
    "plan": ("plan", "simulate_power", "simulate_power_curve", "power_curve", "save_figure"),
    "stability": ("read_scores", "compare", "stability", "rank_probabilities", "save_figure"),
    # prints a shell script made from the parsers; it has no options and calls no analysis
    "completion": (),
}


def test_every_command_is_listed_with_the_functions_it_calls():
    from cdplot.cli import SUBCOMMANDS

    assert set(COMMAND_FUNCTIONS) == set(SUBCOMMANDS)


# Python keywords a command line has no use for, with the reason
PYTHON_ONLY = {
    "ax": "an Axes exists only in a Python session",
    "label_kws": "matplotlib keyword dictionaries",
    "line_kws": "matplotlib keyword dictionaries",
    "compare_kws": "the command line gives the analysis options themselves",
    "keep_repetitions": "cdplot table (for --std and --marks) and cdplot stability (for "
    "--resample datasets-and-folds) read the repetitions by themselves",
    "mesh_kws": "matplotlib keyword dictionaries",
    "standalone": "save_figure's .tex (TikZ) output, which cdplot plot alone writes (--standalone)",
}
# command-line options with no keyword of the functions the command calls, with the reason
CLI_ONLY = {
    "example": "load_example(NAME) in Python",
    "quiet": "the 'wrote OUT' lines exist only on the command line",
    "json": "the same as --format json",
    "output": "the path argument",
    "plot": "the path argument of save_figure",
    "kind": "chooses cd_diagram, rank_intervals or significance_heatmap",
    "lower_is_better_metric": "higher_is_better=False per metric, for data with several",
    "truth_col": "the column read as y_true of mcnemar_from_predictions",
    "format": "stats and pair: str(), to_json() or to_csv() of the result",
    "matrices": "stats --json: the result's to_dict(matrices=...)",
    "ranks_input": "compare_ranks(FILE, N) instead of compare(FILE)",
    "n_datasets": "the second argument of compare_ranks",
    "effect_sizes": "table: effect_size_table(result, pairs=PAIRS) instead of data_table",
    "title": "plot: ax.set_title(TEXT) on the Axes returned, which save_figure keeps",
    "font_size": "plot: label_kws={'fontsize': PT}",
    "progress": "lines on standard error while a command runs (report(progress=) for reports)",
    "pvalues": "the second argument of from_posthoc(ranks, PVALUES, test=NAME)",
    "test_name": "from_posthoc's test=NAME (--test chooses among cdplot's own tests)",
}


def _keywords(command):
    import inspect

    import cdplot

    return {
        name
        for f in COMMAND_FUNCTIONS[command]
        for name, p in inspect.signature(getattr(cdplot, f)).parameters.items()
        if p.kind is p.KEYWORD_ONLY
    }


def _dests(command):
    from cdplot.cli import build_parser, command_flags

    return set(command_flags(build_parser().commands[command]))


@pytest.mark.parametrize("command", sorted(COMMAND_FUNCTIONS))
def test_every_keyword_is_an_option_and_every_option_a_keyword(command):
    from cdplot.cli import _KEYWORD_DESTS

    dests, keywords = _dests(command), _keywords(command)
    # the keyword a dest stands for: the same word, or the older keyword it translates
    spoken = dests | {kw for kw, dest in _KEYWORD_DESTS.items() if dest in dests}
    unreachable = sorted(keywords - spoken - set(PYTHON_ONLY))
    assert not unreachable, f"cdplot {command} has no option for {unreachable}"
    python_name = {dest: {kw for kw, d in _KEYWORD_DESTS.items() if d == dest} for dest in dests}
    no_keyword = sorted(d for d in dests - set(CLI_ONLY) if not ({d} | python_name[d]) & keywords)
    assert not no_keyword, f"cdplot {command}: options {no_keyword} reach no keyword"


def test_the_readers_orients_are_the_vocabularys():
    from cdplot.io._build import ORIENTS

    assert tuple(ORIENTS) == _options.ORIENTS
