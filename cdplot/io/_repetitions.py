"""The score of every repetition, kept beside the means when a reader is asked to.

Long data with folds, seeds or resamples is averaged to one score per data
set and method.  ``keep_repetitions=True`` (of :func:`cdplot.io.read_scores`
and :func:`cdplot.io.as_score_tables`) also keeps each repetition's score in
``ScoreTable.repetition_scores``, for the spread of a table (mean ± standard
deviation) and for tests over the repetitions of one data set.  It is off by
default: building the array costs a pass over every row, which a ranking of
the means does not need.

The setting is scoped (a context variable) rather than a parameter handed
down through the ten readers that end in the one function that averages
rows, so that each reader stays as it is; :func:`keeping_repetitions` sets it
for the duration of a read.
"""

from __future__ import annotations

import contextvars
from contextlib import contextmanager
from dataclasses import replace

import numpy as np

__all__ = ["keeping_repetitions", "wanted", "repetition_array", "attach", "carry"]

_KEEP = contextvars.ContextVar("cdplot_keep_repetitions", default=False)


@contextmanager
def keeping_repetitions(keep: bool):
    """Within the block, readers keep every repetition's score when ``keep``."""
    token = _KEEP.set(bool(keep))
    try:
        yield
    finally:
        _KEEP.reset(token)


def wanted() -> bool:
    """Whether the read in progress was asked to keep the repetitions."""
    return _KEEP.get()


def repetition_array(values, groups, rep_codes, n_groups, rep_names):
    """``(array, labels)``: each group's score per repetition, or ``(None, None)``.

    ``groups`` numbers the (data set, method) pairs row by row, ``rep_codes``
    the repetition of each row (mixed radix over the repetition columns,
    whose label lists are ``rep_names``), or None when no column tells the
    repetitions apart: the rows of a pair are then placed in the order they
    appear and ``labels`` is None (they are not paired across methods).
    Rows that share a pair and a repetition label are averaged.  The array
    has shape ``(n_groups, r)`` with NaN where a pair lacks a repetition;
    ``(None, None)`` when no pair has more than one row.
    """
    counts = np.bincount(groups, minlength=n_groups)
    if counts.size == 0 or counts.max() <= 1:
        return None, None
    labels = None
    if rep_codes is None:
        order = np.argsort(groups, kind="stable")
        starts = np.r_[0, np.cumsum(counts)[:-1]]
        pos = np.empty(len(groups), dtype=np.int64)
        pos[order] = np.arange(len(groups)) - np.repeat(starts, counts)
        r = int(counts.max())
    else:
        # codes are small integers: a lookup table numbers the ones in use, without a sort
        present = np.bincount(rep_codes)
        used = np.flatnonzero(present)
        lookup = np.cumsum(present > 0) - 1
        pos = lookup[rep_codes]
        r = len(used)
        # mixed radix back to one label per column, joined as "seed 1/fold 3" reads
        radix = [len(n) for n in rep_names]
        labels = []
        for code in used.tolist():
            parts = []
            for names, base in zip(reversed(rep_names), reversed(radix), strict=True):
                code, digit = divmod(code, base)
                parts.append(names[digit])
            labels.append("/".join(reversed(parts)))
        labels = tuple(labels)
    keys = groups.astype(np.int64) * r + pos
    sums = np.bincount(keys, weights=values, minlength=n_groups * r)
    hits = np.bincount(keys, minlength=n_groups * r)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = sums / hits
    out[hits == 0] = np.nan
    return out.reshape(n_groups, r), labels


def attach(table, array, labels, datasets):
    """``table`` with ``array`` (rows as in ``datasets``) cut to the data sets it kept."""
    if array is None:
        return table
    at = {d: i for i, d in enumerate(datasets)}
    rows = [at[d] for d in table.datasets]
    return replace(table, repetition_scores=array[rows], repetition_labels=labels)


def carry(source, table, rows, cols):
    """``table``, built from ``source``'s rows and columns, with its repetitions carried over.

    ``rows`` and ``cols`` index ``source``; the data sets ``table`` dropped
    (``nan_policy='omit'``) are dropped from the repetitions too.
    """
    reps = getattr(source, "repetition_scores", None)
    if reps is None:
        return table
    picked = np.asarray(reps)[np.ix_(rows, cols)]
    return attach(table, picked, source.repetition_labels, [source.datasets[i] for i in rows])
