"""One-line messages stay lines a person can read (cdplot/errors.py, issue 32)."""

import pickle

import pytest

from cdplot.errors import NAME_LIMIT, CdplotError, bounded, opt, shown, spoken_as


def test_short_messages_are_unchanged():
    message = "scores.csv, row 3, column 2: 'abc' is not a number"
    assert bounded(message) == message


def test_a_long_quoted_name_is_cut_with_its_length():
    name = "m" * 280_000
    message = bounded(f"key {name!r} appears twice in one JSON object; remove one")
    assert len(message) < 2 * NAME_LIMIT + 100
    assert "..." in message
    assert "(280,002 characters) appears twice in one JSON object; remove one" in message
    assert message.startswith("key 'mmm")


def test_a_long_unquoted_word_is_cut():
    message = bounded("unrecognized arguments: --bogus" + "x" * 100_000)
    assert message.startswith("unrecognized arguments: --bogusxxx")
    assert "(100,007 characters)" in message
    assert len(message) < NAME_LIMIT + 100


def test_a_long_list_of_short_names_keeps_its_start_and_end():
    names = ", ".join(f"'m{i}'" for i in range(100_000))
    message = bounded(f"option --control 'x' is not a method; methods are {names}; pick one")
    assert message.startswith("option --control 'x' is not a method; methods are 'm0'")
    assert message.endswith("; pick one")
    assert "characters left out" in message
    assert len(message) < 6 * NAME_LIMIT


@pytest.mark.parametrize(
    "message",
    [
        "key " + repr("k" * 5000) + " twice",
        "--bogus" + "x" * 5000,
        "methods are " + ", ".join(["'abc'"] * 5000),
    ],
)
def test_cutting_twice_changes_nothing(message):
    once = bounded(message)
    assert bounded(once) == once


def test_errors_cut_their_message_and_survive_pickling():
    exc = CdplotError(f"method {'n' * 10_000!r} appears twice")
    assert len(str(exc)) < 2 * NAME_LIMIT + 100
    assert str(pickle.loads(pickle.dumps(exc))) == str(exc)


def test_an_apostrophe_is_not_a_quote():
    message = "Demsar's rule: " + "y" * 300
    assert bounded(message).startswith("Demsar's rule: yyy")


def test_shown_cuts_a_cell():
    assert shown("x" * 300) == "'" + "x" * 39 + "...xxxxxxxxxxx' (300 characters)"
    assert shown("0.5") == "'0.5'"


def test_an_option_is_written_as_python_writes_the_keyword():
    assert f"use {opt('test', 'friedman-z')}" == "use test='friedman-z'"
    assert f"pass {opt('score_col')} naming one" == "pass score_col= naming one"
    assert f"{opt('alpha', 1.5)} {opt('control', None)}" == "alpha=1.5 control=None"
    assert repr(opt("test", "sign")) == "opt('test', 'sign')"


def test_a_voice_writes_options_only_inside_its_block():
    def voice(name, value, given):
        return None if name == "ax" else f"<{name}{'=' + str(value) if given else ''}>"

    def message():
        return f"{opt('test', 'sign')}, {opt('score_col')}, {opt('ax', None)}"

    def spoken_then_fail():
        with spoken_as(voice):
            assert message() == "<test=sign>, <score_col>, ax=None"  # no word for ax: Python's
            raise KeyError

    with pytest.raises(KeyError):
        spoken_then_fail()
    assert message() == "test='sign', score_col=, ax=None"  # the voice ended with the error


def test_the_option_of_an_error_survives_pickling():
    exc = CdplotError(f"option {opt('alpha', 2)} is outside (0, 1)", option="alpha")
    assert (str(exc), exc.option) == ("option alpha=2 is outside (0, 1)", "alpha")
    back = pickle.loads(pickle.dumps(exc))
    assert (str(back), back.option) == (str(exc), "alpha")
    assert CdplotError("no option here").option is None
