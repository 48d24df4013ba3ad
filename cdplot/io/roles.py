"""The one table of column names cdplot recognises, and what a name says about direction.

Every reader (long score tables, per-fold scores, predictions, DataFrames,
records) asks this module what a column is, so that ``fold`` or
``regressor`` means the same thing wherever it appears.  Names are compared
after lower-casing and removing spaces, underscores, hyphens and dots
(``"Data set"`` == ``"data_set"`` == ``"dataset"``); a plural ``s`` is
ignored (``"folds"``).
"""

from __future__ import annotations

import re

__all__ = [
    "ROLE_NAMES",
    "GENERIC_SCORE_NAMES",
    "TRUTH_NAMES",
    "norm",
    "role_of",
    "fold_level",
    "lower_is_better_word",
]

# role -> recognised names (normalised).  The order inside a tuple is the order
# in which error messages suggest them.
ROLE_NAMES = {
    "dataset": (
        "dataset",
        "datasetname",
        "problem",
        "problemname",
        "task",
        "taskname",
        "instanceset",
        "benchmark",
    ),
    "method": (
        "method",
        "methodname",
        "classifier",
        "classifiername",
        "regressor",
        "regressorname",
        "algorithm",
        "algorithmname",
        "model",
        "modelname",
        "estimator",
        "learner",
        "solver",
        "system",
    ),
    "repetition": (
        "fold",
        "resample",
        "seed",
        "run",
        "rep",
        "repetition",
        "repeat",
        "split",
        "iteration",
        "trial",
        "replication",
        "foldid",
        "foldindex",
        "cvfold",
        "instance",
    ),
    "score": (
        "score",
        "value",
        "result",
        "performance",
        "accuracy",
        "acc",
        "balancedaccuracy",
        "auc",
        "auroc",
        "rocauc",
        "f1",
        "f1score",
        "precision",
        "recall",
        "r2",
        "error",
        "errorrate",
        "loss",
        "logloss",
        "nll",
        "rmse",
        "mae",
        "mse",
        "mape",
        "runtime",
        "time",
        "regret",
    ),
    "metric": ("metric", "measure", "metricname"),
}

# Score columns with these names say nothing about the metric; the others
# ("accuracy", "rmse", ...) name it.
GENERIC_SCORE_NAMES = ("score", "value", "result", "performance")

# Columns of true labels in a file of predictions (McNemar).
TRUTH_NAMES = ("ytrue", "true", "truth", "target", "label", "actual", "class", "gold", "y")

# Repetition names that index the folds of one cross-validation run; the
# others (seed, run, resample, ...) index whole repetitions.
_FOLD_NAMES = ("fold", "split", "foldid", "foldindex", "cvfold")

# "instance" is a repetition (an instance of a stochastic solver's run) when a
# data-set column is present, else it names the problem instance itself.
_DATASET_IF_ALONE = ("instance",)

# Words that make a score lower-is-better, matched against the tokens of a
# metric or column name: whole tokens, and the end of compound tokens
# ("logloss", "runtime", "fit_time").
_LOWER_WORDS = ("error", "loss", "rmse", "mae", "mse", "mape", "time", "regret", "rank")
_LOWER_SUFFIXES = ("error", "loss", "time", "regret", "rmse", "mse", "mae")
# sklearn's scorers negate errors so that higher is better ("neg_log_loss")
_NEGATED_PREFIXES = ("neg", "negative", "minus")


def norm(name) -> str:
    """``name`` lower-cased without spaces, underscores, hyphens and dots."""
    return re.sub(r"[\s_\-.]+", "", str(name).strip().lower())


def role_of(name, *, has_dataset: bool = True) -> str | None:
    """The role of a column name (``'dataset'``, ``'method'``, ...), or ``None``.

    ``has_dataset`` says whether another column already names data sets; it
    decides what ``instance`` means.
    """
    key = norm(name)
    if key in _DATASET_IF_ALONE and not has_dataset:
        return "dataset"
    for role, names in ROLE_NAMES.items():
        # plural forms ("datasets", "folds") are as common as singular ones
        if key in names or (key.endswith("s") and key[:-1] in names):
            return role
    return None


def fold_level(name) -> str:
    """``'fold'`` for a column of fold indices, ``'repetition'`` for other repetitions."""
    key = norm(name)
    if key in _FOLD_NAMES or (key.endswith("s") and key[:-1] in _FOLD_NAMES):
        return "fold"
    return "repetition"


def lower_is_better_word(name) -> str | None:
    """The word of ``name`` that says lower is better (``'rmse'``), or ``None``.

    Examples
    --------
    >>> lower_is_better_word("RMSE"), lower_is_better_word("fit_time")
    ('rmse', 'time')
    >>> lower_is_better_word("logloss"), lower_is_better_word("neg_log_loss")
    ('loss', None)
    >>> lower_is_better_word("accuracy") is None
    True
    """
    if name is None:
        return None
    tokens = [t for t in re.split(r"[^0-9a-z]+", str(name).lower()) if t]
    if not tokens or tokens[0] in _NEGATED_PREFIXES:
        return None
    for t in tokens:
        if t in _LOWER_WORDS:
            return t
        for w in _LOWER_SUFFIXES:
            if t.endswith(w):
                return w
    return None
