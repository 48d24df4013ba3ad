"""Missing scores in the low-level functions (issue 13, item 4).

Their docstrings say the scores must be finite; before this check
``rank_data([[1, nan, 2]])`` gave ``[[2, 3, 1]]`` (NaN sorted last) and
``friedman`` returned a p-value for a table with a hole in it.
"""

import numpy as np
import pytest

import cdplot
from cdplot.errors import CdplotError
from cdplot.stats.cliques import find_cliques
from cdplot.stats.friedman import friedman, friedman_from_ranks, iman_davenport
from cdplot.stats.posthoc import nemenyi, rank_z
from cdplot.stats.ranks import average_ranks, rank_data

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
