"""The vocabulary is defined once (cdplot/_options.py) and every layer agrees with it."""

import typing

from cdplot import _options


def test_every_literal_alias_names_the_same_words_as_its_tuple():
    pairs = {
        "Test": "TESTS",
        "Correction": "CORRECTIONS",
        "ZeroMethod": "ZERO_METHODS",
        "Distribution": "DISTRIBUTIONS",
        "NanPolicy": "NAN_POLICIES",
        "Style": "STYLES",
        "Kind": "KINDS",
    }
    for alias, choices in pairs.items():
        assert typing.get_args(getattr(_options, alias)) == getattr(_options, choices), alias


def test_the_drawing_layer_defines_exactly_the_styles_and_fonts_of_the_vocabulary():
    from cdplot.plot.fonts import FONTS
    from cdplot.plot.styles import STYLES

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
