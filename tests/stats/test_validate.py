"""Missing scores in the low-level functions (issue 13, item 4).

Their docstrings say the scores must be finite; before this check
``rank_data([[1, nan, 2]])`` gave ``[[2, 3, 1]]`` (NaN sorted last) and
``friedman`` returned a p-value for a table with a hole in it.
"""

import numpy as np
import pytest

import cdplot
from cdplot.errors import CdplotError
from cdplot.stats._cliques import bridges, find_cliques, unjoined_pairs
from cdplot.stats._critical import critical_difference, critical_value
from cdplot.stats._friedman import (
    friedman,
    friedman_from_average_ranks,
    friedman_from_ranks,
    iman_davenport,
)
from cdplot.stats._parametric import mauchly, shapiro_residuals
from cdplot.stats._posthoc import nemenyi, rank_z
from cdplot.stats._ranks import average_ranks, rank_data

NAN_TABLE = [[1, np.nan, 2], [1, 2, 3], [3, 2, 1]]


@pytest.mark.parametrize(
    "func",
    [rank_data, average_ranks, friedman, iman_davenport],
    ids=lambda f: f.__name__,
)
def test_nan_scores_raise_the_message_compare_gives(func):
    with pytest.raises(CdplotError) as low:
        func(NAN_TABLE)
    with pytest.raises(CdplotError) as high:
        cdplot.compare(NAN_TABLE)
    message = str(low.value)
    assert "\n" not in message
    # the same words and the same cell name as compare's message
    assert "1 missing score (data set/method): 'dataset 1'/'method 2'" in message
    assert "'dataset 1'/'method 2'" in str(high.value)
    assert "nan_policy='omit'" in message


@pytest.mark.parametrize("func", [rank_data, friedman], ids=lambda f: f.__name__)
def test_infinite_scores_raise(func):
    with pytest.raises(CdplotError, match=r"'dataset 2'/'method 3': inf is not finite"):
        func([[1, 2, 3], [1, 2, np.inf]])


def test_nan_ranks_raise():
    with pytest.raises(CdplotError, match="ranks: 1 missing score"):
        friedman_from_ranks([[1.0, np.nan], [1.0, 2.0]])


@pytest.mark.parametrize("func", [nemenyi, rank_z], ids=lambda f: f.__name__)
def test_nan_average_ranks_raise(func):
    with pytest.raises(CdplotError, match=r"average_ranks\[1\] = nan is not finite"):
        func([1.5, np.nan, 2.5], 10)


def test_find_cliques_refuses_nan_ranks_and_nan_decisions():
    sig = np.zeros((3, 3), dtype=bool)
    with pytest.raises(CdplotError, match=r"average_ranks\[2\] = nan"):
        find_cliques([1.0, 2.0, np.nan], sig)
    with pytest.raises(CdplotError, match=r"significant\[0, 1\] is nan"):
        find_cliques([1.0, 2.0, 3.0], np.array([[0, np.nan, 0], [np.nan, 0, 0], [0, 0, 0]]))
    with pytest.raises(CdplotError, match=r"must be a \(3, 3\) matrix"):
        find_cliques([1.0, 2.0, 3.0], np.zeros((2, 2), dtype=bool))


# Issue 31, item 4: the edges that still let a NaN or an infinity through.


@pytest.mark.parametrize("func", [mauchly, shapiro_residuals], ids=lambda f: f.__name__)
def test_parametric_checks_refuse_nan_scores_as_compare_does(func):
    # mauchly used to report "W = nan, chi2 = inf, p < 0.0001: rejects sphericity"
    table = [[1, 2, 3], [2, np.nan, 4], [3, 4, 6], [1, 1, 1], [2, 3, 1]]
    with pytest.raises(CdplotError) as low:
        func(table)
    message = str(low.value)
    assert "\n" not in message
    assert "1 missing score (data set/method): 'dataset 2'/'method 2'" in message
    with pytest.raises(CdplotError, match=r"'dataset 3'/'method 1': inf is not finite"):
        func([[1, 2, 3], [2, 3, 4], [np.inf, 4, 6], [1, 1, 1], [2, 3, 1]])


@pytest.mark.parametrize("func", [unjoined_pairs, bridges], ids=lambda f: f.__name__)
def test_groups_remarks_refuse_nan_ranks(func):
    # both returned () for NaN ranks, as if every pair were joined
    sig = np.zeros((3, 3), dtype=bool)
    args = (((0, 1, 2),),) if func is unjoined_pairs else ()
    with pytest.raises(CdplotError, match=r"average_ranks\[1\] = nan is not finite"):
        func([1.0, np.nan, 3.0], sig, *args)
    flags = np.zeros((3, 3))
    flags[0, 2] = flags[2, 0] = np.nan
    with pytest.raises(CdplotError, match=r"significant\[0, 2\] is nan"):
        func([1.0, 2.0, 3.0], flags, *args)


@pytest.mark.parametrize("func", [find_cliques, unjoined_pairs, bridges], ids=lambda f: f.__name__)
def test_infinite_significance_flag_is_refused(func):
    # an inf in a float matrix counted as "significant" and split the groups
    flags = np.zeros((3, 3))
    flags[0, 2] = flags[2, 0] = np.inf
    args = (((0, 1, 2),),) if func is unjoined_pairs else ()
    with pytest.raises(CdplotError, match=r"significant\[0, 2\] is inf; give True or False"):
        func([1.0, 2.0, 3.0], flags, *args)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf], ids=["nan", "inf", "-inf"])
@pytest.mark.parametrize(
    ("call", "name"),
    [
        pytest.param(lambda n: friedman_from_average_ranks([1.5, 2.0, 2.5], n), "n_datasets"),
        pytest.param(lambda n: nemenyi([1.5, 2.0, 2.5], n), "n_datasets"),
        pytest.param(lambda n: rank_z([1.5, 2.0, 2.5], n), "n_datasets"),
        pytest.param(lambda n: critical_value(n), "the number of methods k"),
        pytest.param(lambda n: critical_difference(n, 10), "the number of methods k"),
        pytest.param(lambda n: critical_difference(4, n), "the number of data sets N"),
    ],
    ids=[
        "friedman_from_average_ranks",
        "nemenyi",
        "rank_z",
        "critical_value",
        "critical_difference-k",
        "critical_difference-n",
    ],
)
def test_non_finite_counts_raise_one_line(call, name, bad):
    # a bare ValueError (int(nan)) or OverflowError (int(inf)) before
    with pytest.raises(CdplotError) as err:
        call(bad)
    message = str(err.value)
    assert "\n" not in message
    assert message.startswith(f"{name}={bad!r} is not a whole number of")
