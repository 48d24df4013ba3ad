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

from ..errors import opt

__all__ = [
    "ROLE_NAMES",
    "GENERIC_SCORE_NAMES",
    "TRUTH_NAMES",
    "norm",
    "role_of",
    "fold_level",
    "lower_is_better_word",
    "higher_is_better_word",
    "direction_of",
    "weigh_direction",
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
        "systemname",
        "framework",
        "frameworkname",
        "config",
        "configname",
        "configuration",
        "pipeline",
        "approach",
        "technique",
        "variant",
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
# Words that make a score higher-is-better, matched against whole tokens and
# the end of compound tokens ("balancedaccuracy", "rocauc", "f1score").
_HIGHER_WORDS = (
    "accuracy",
    "acc",
    "auc",
    "auroc",
    "aupr",
    "f1",
    "fscore",
    "precision",
    "recall",
    "r2",
    "kappa",
    "mcc",
    "ndcg",
    "gain",
    "likelihood",
)
_HIGHER_SUFFIXES = ("accuracy", "auc", "auroc", "f1", "f1score", "fscore", "precision", "recall")


def norm(name) -> str:
    """``name`` lower-cased without spaces, underscores, hyphens and dots."""
    return re.sub(r"[\s_\-.]+", "", str(name).strip().lower())


# A compound name whose last word is one of these is a score column too
# (TabRepo's "metric_error", "test_accuracy", "val_loss", "mean_rmse").
_SCORE_LAST_WORDS = (
    "error",
    "loss",
    "accuracy",
    "acc",
    "auc",
    "f1",
    "rmse",
    "mae",
    "mse",
    "score",
)


def role_of(name, *, has_dataset: bool = True) -> str | None:
    """The role of a column name (``'dataset'``, ``'method'``, ...), or ``None``.

    ``has_dataset`` says whether another column already names data sets; it
    decides what ``instance`` means.

    Examples
    --------
    >>> role_of("framework"), role_of("metric_error"), role_of("metric_error_val")
    ('method', 'score', None)
    """
    key = norm(name)
    if key in _DATASET_IF_ALONE and not has_dataset:
        return "dataset"
    for role, names in ROLE_NAMES.items():
        # plural forms ("datasets", "folds") are as common as singular ones
        if key in names or (key.endswith("s") and key[:-1] in names):
            return role
    words = [t for t in re.split(r"[^0-9a-z]+", str(name).strip().lower()) if t]
    if len(words) > 1 and words[-1] in _SCORE_LAST_WORDS:
        return "score"
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


def higher_is_better_word(name) -> str | None:
    """The word of ``name`` that says higher is better (``'accuracy'``), or ``None``.

    A negated error (``neg_log_loss``, sklearn's scorers) is higher-is-better too.

    Examples
    --------
    >>> higher_is_better_word("balanced_accuracy"), higher_is_better_word("neg_rmse")
    ('accuracy', 'neg')
    >>> higher_is_better_word("metric_error") is None
    True
    """
    if name is None:
        return None
    tokens = [t for t in re.split(r"[^0-9a-z]+", str(name).lower()) if t]
    if not tokens:
        return None
    if tokens[0] in _NEGATED_PREFIXES and lower_is_better_word(" ".join(tokens[1:])):
        return tokens[0]
    if lower_is_better_word(name) is not None:
        return None
    for t in tokens:
        if t in _HIGHER_WORDS:
            return t
        for w in _HIGHER_SUFFIXES:
            if t.endswith(w):
                return w
    return None


def direction_of(name, *, file_name: bool = False) -> bool | None:
    """``False`` when ``name`` says lower is better, ``True`` when higher, else ``None``.

    In a file name, ``time`` is no evidence: ``time_series_results.csv``
    names the kind of data, not the score.
    """
    lower = lower_is_better_word(name)
    if lower is not None and not (file_name and lower == "time"):
        return False
    if higher_is_better_word(name) is not None:
        return True
    return None


def weigh_direction(
    evidence, *, whole_file_name: bool = False
) -> tuple[bool | None, str | None, str | None]:
    """Weigh what names say about direction: ``(higher_is_better, reason, conflict)``.

    ``evidence`` holds ``(what, name)`` pairs such as ``("column name", "loss")``
    or ``("metric name", "diagram1")``; every one is consulted.  When those
    that say something agree, ``reason`` says which ones, in words; when they
    disagree, ``higher_is_better`` is None and ``conflict`` names both sides and
    the option that settles it.  With ``whole_file_name`` a file name is a
    whole file's name (``time`` says nothing there), not the metric part of a
    results folder's ``<Method>_<metric>.csv``.
    """
    said = []
    for what, name in evidence:
        if name is None:
            continue
        hib = direction_of(name, file_name=whole_file_name and what == "file name")
        if hib is not None and (what, str(name)) not in [(w, n) for w, n, _ in said]:
            said.append((what, str(name), hib))
    if not said:
        return None, None, None
    if len({h for _, _, h in said}) > 1:
        hi = next(s for s in said if s[2])
        lo = next(s for s in said if not s[2])
        return (
            None,
            None,
            f"the {hi[0]} {hi[1]!r} says higher is better but the {lo[0]} {lo[1]!r} says "
            f"lower is better; pass {opt('higher_is_better', True)} or "
            f"{opt('higher_is_better', False)} "
            f"to say which",
        )
    hib = said[0][2]
    names = " and ".join(f"the {w} {n!r}" for w, n, _ in said)
    return (
        hib,
        f"{'higher' if hib else 'lower'} is better, inferred from {names}; pass "
        f"--{'lower' if hib else 'higher'}-is-better (higher_is_better={not hib}) to override",
        None,
    )
