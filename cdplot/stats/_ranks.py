"""Ranking methods within each data set (rank 1 = best, mid-ranks for ties)."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .._docstrings import share
from ._validate import finite_table

__all__ = ["rank_data", "average_ranks"]


def _midranks(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Ascending mid-ranks of each row and, per element, the size of its tie group.

    Vectorised over rows: sort once, find where each run of equal values
    starts and ends, and give every element the mean position of its run.
    """
    n, k = values.shape
    order = np.argsort(values, axis=1, kind="stable")
    sv = np.take_along_axis(values, order, axis=1)
    pos = np.broadcast_to(np.arange(k), (n, k))
    new_run = np.ones((n, k), dtype=bool)
    new_run[:, 1:] = sv[:, 1:] != sv[:, :-1]
    start = np.maximum.accumulate(np.where(new_run, pos, 0), axis=1)
    end_run = np.ones((n, k), dtype=bool)
    end_run[:, :-1] = new_run[:, 1:]
    end = np.minimum.accumulate(np.where(end_run, pos, k - 1)[:, ::-1], axis=1)[:, ::-1]
    mid_sorted = (start + end) / 2.0 + 1.0
    size_sorted = (end - start + 1).astype(float)
    ranks = np.empty((n, k))
    sizes = np.empty((n, k))
    np.put_along_axis(ranks, order, mid_sorted, axis=1)
    np.put_along_axis(sizes, order, size_sorted, axis=1)
    return ranks, sizes


@share
def rank_data(scores: ArrayLike, *, higher_is_better: bool = True) -> np.ndarray:
    """Rank the methods within each data set.

    Parameters
    ----------
    %(scores_array)s
    %(higher_is_better_array)s

    Returns
    -------
    ndarray, shape (N, k)
        Ranks from 1 (best) to ``k`` (worst); tied methods share the mean of
        the ranks they span, so every row sums to ``k (k + 1) / 2``.

    Examples
    --------
    >>> rank_data([[0.9, 0.8, 0.8]])
    array([[1. , 2.5, 2.5]])
    """
    x = finite_table(scores)
    ranks, _ = _midranks(-x if higher_is_better else x)
    return ranks


def tie_sum(scores, *, higher_is_better: bool = True) -> np.ndarray:
    """Per data set, ``sum(t**3 - t)`` over groups of ``t`` tied methods."""
    return ranks_and_ties(scores, higher_is_better=higher_is_better)[1]


def ranks_and_ties(scores, *, higher_is_better: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """:func:`rank_data` and :func:`tie_sum` from one sort of the table."""
    x = np.asarray(scores, dtype=float)
    ranks, sizes = _midranks(-x if higher_is_better else x)
    # each member of a group of size t contributes t**2 - 1, the group t**3 - t
    return ranks, (sizes**2 - 1.0).sum(axis=1)


@share
def average_ranks(scores: ArrayLike, *, higher_is_better: bool = True) -> np.ndarray:
    """Mean rank of each method over the data sets.

    Parameters
    ----------
    %(scores_array)s
    %(higher_is_better_array)s

    Returns
    -------
    ndarray, shape (k,)
        Average of the ranks from :func:`rank_data`; 1 is best.

    Examples
    --------
    >>> average_ranks([[0.9, 0.8, 0.7], [0.6, 0.8, 0.7]])
    array([2. , 1.5, 2.5])
    """
    return rank_data(scores, higher_is_better=higher_is_better).mean(axis=0)
