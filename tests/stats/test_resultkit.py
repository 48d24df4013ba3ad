"""Every result class of the statistics core behaves alike (cdplot/stats/_resultkit.py).

Each result is built by the public function that returns it, on data with a method
named ``<b>x</b>`` wherever the result carries names, so that the HTML test sees
markup in the data.
"""

import dataclasses
import json
import typing

import numpy as np
import pytest

import cdplot
from cdplot.stats import _resultkit as resultkit
from cdplot.stats._bayesian import bayesian_correlated_ttest, bayesian_signed_rank
from cdplot.stats._compare import compare
from cdplot.stats._consistency import compare_metrics
from cdplot.stats._cv_tests import kfold_ttest
from cdplot.stats._effect_sizes import effect_sizes
from cdplot.stats._friedman import friedman, iman_davenport
from cdplot.stats._mcnemar import mcnemar
from cdplot.stats._pair import compare_pair, paired_ttest
from cdplot.stats._parametric import (
    anova_oneway,
    compare_auto,
    mauchly,
    rm_anova,
    shapiro_residuals,
)
from cdplot.stats._posthoc import nemenyi, rank_z
from cdplot.stats._sign_test import sign_test, sign_test_pairs
from cdplot.stats._wilcoxon import wilcoxon, wilcoxon_pairs

MARKUP = "<b>x</b>"
SCORES = np.array(
    [
        [0.81, 0.74, 0.70],
        [0.92, 0.85, 0.88],
        [0.66, 0.61, 0.60],
        [0.75, 0.77, 0.69],
        [0.88, 0.79, 0.80],
        [0.71, 0.70, 0.64],
        [0.95, 0.90, 0.91],
        [0.58, 0.55, 0.57],
    ]
)
NAMES = [MARKUP, "B", "C"]
DATA = {f"d{i}": dict(zip(NAMES, row, strict=True)) for i, row in enumerate(SCORES.tolist())}
FOLDS_A = [0.81, 0.84, 0.79, 0.86, 0.83, 0.85, 0.80, 0.82, 0.87, 0.84]
FOLDS_B = [0.78, 0.80, 0.79, 0.81, 0.80, 0.83, 0.76, 0.80, 0.82, 0.80]


def _metrics_data():
    rows = []
    for metric in ("AUC", "F1"):
        for i, row in enumerate(SCORES.tolist()):
            for name, v in zip(NAMES, row, strict=True):
                rows.append({"dataset": f"d{i}", "method": name, "metric": metric, "score": v})
    return rows


BUILDERS = {
    "FriedmanResult": lambda: friedman(SCORES),
    "ImanDavenportResult": lambda: iman_davenport(SCORES),
    "ComparisonResult": lambda: compare(DATA),
    "ComparisonResult-wilcoxon": lambda: compare(DATA, test="wilcoxon"),
    "RankTestResult-nemenyi": lambda: nemenyi([1.5, 2.0, 2.5], 8, methods=NAMES),
    "RankTestResult-rank-z": lambda: rank_z([1.5, 2.0, 2.5], 8, methods=NAMES),
    "MetricsComparison": lambda: compare_metrics(_metrics_data()),
    "EffectSizes": lambda: effect_sizes(SCORES, methods=NAMES),
    "WilcoxonResult": lambda: wilcoxon(SCORES[:, 0], SCORES[:, 1]),
    "SignTestResult": lambda: sign_test(SCORES[:, 0], SCORES[:, 1]),
    "WilcoxonPairsResult": lambda: wilcoxon_pairs(SCORES),
    "SignTestPairsResult": lambda: sign_test_pairs(SCORES),
    "PairedTTestResult": lambda: paired_ttest(SCORES[:, 0], SCORES[:, 1]),
    "PairResult": lambda: compare_pair(DATA, methods=(MARKUP, "B")),
    "PairResult-bayes": lambda: compare_pair(
        DATA, methods=(MARKUP, "B"), rope=0.01, n_samples=2000
    ),
    "McNemarResult": lambda: mcnemar([[10, 5], [15, 70]], methods=(MARKUP, "B")),
    "CVTestResult": lambda: kfold_ttest(FOLDS_A, FOLDS_B, methods=(MARKUP, "B")),
    "TukeyHSDResult": lambda: anova_oneway(*SCORES.T, methods=NAMES).tukey,
    "ShapiroResult": lambda: shapiro_residuals(SCORES),
    "MauchlyResult": lambda: mauchly(SCORES),
    "AnovaResult": lambda: rm_anova(DATA),
    "AutoResult": lambda: compare_auto(DATA),
    "BayesianTTestResult": lambda: bayesian_correlated_ttest(
        FOLDS_A, FOLDS_B, rope=0.01, methods=(MARKUP, "B")
    ),
    "BayesianSignedRankResult": lambda: bayesian_signed_rank(
        SCORES[:, 0], SCORES[:, 1], rope=0.01, methods=(MARKUP, "B"), n_samples=2000
    ),
}
# results that carry no method names, so no markup can reach their HTML
NAMELESS = {
    "FriedmanResult",
    "ImanDavenportResult",
    "WilcoxonResult",
    "SignTestResult",
    "WilcoxonPairsResult",
    "SignTestPairsResult",
    "PairedTTestResult",
    "ShapiroResult",
    "MauchlyResult",
}


@pytest.fixture(scope="module")
def built():
    return {key: build() for key, build in BUILDERS.items()}


def test_every_result_class_is_covered():
    # a new result class must be added to BUILDERS
    classes = {c.__name__ for c in _result_classes()}
    covered = {key.split("-")[0] for key in BUILDERS}
    assert classes <= covered, classes - covered


def _result_classes():
    import cdplot.stats as stats_pkg

    seen = set()
    for mod_name in (
        "results",
        "wilcoxon",
        "sign_test",
        "pair",
        "mcnemar",
        "cv_tests",
        "parametric",
        "bayesian",
        "consistency",
        "effect_sizes",
    ):
        mod = __import__(f"{stats_pkg.__name__}._{mod_name}", fromlist=["x"])
        for value in vars(mod).values():
            if (
                isinstance(value, type)
                and issubclass(value, resultkit.Result)
                and value is not resultkit.Result
            ):
                seen.add(value)
    return seen


@pytest.mark.parametrize("key", BUILDERS)
def test_frozen_keyword_only_dataclass(built, key):
    r = built[key]
    assert isinstance(r, resultkit.Result)
    assert dataclasses.is_dataclass(r)
    assert type(r).__dataclass_params__.frozen
    assert all(f.kw_only for f in dataclasses.fields(r))
    first = dataclasses.fields(r)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(r, first, None)


@pytest.mark.parametrize("key", BUILDERS)
def test_arrays_and_mappings_are_read_only(built, key):
    r = built[key]
    for f in dataclasses.fields(r):
        value = getattr(r, f.name)
        if isinstance(value, np.ndarray):
            assert not value.flags.writeable, f.name
            with pytest.raises(ValueError, match="read-only"):
                value.flat[0] = 0
        elif isinstance(value, typing.Mapping):
            with pytest.raises(TypeError):
                value["new"] = 1  # type: ignore[index]


@pytest.mark.parametrize("key", BUILDERS)
def test_field_types_are_precise_and_no_class_tags(built, key):
    cls = type(built[key])
    hints = {f.name: str(f.type) for f in dataclasses.fields(cls)}
    assert not [n for n, t in hints.items() if t == "object" or "| object" in t], hints
    # type tags such as ``test = "pair"`` are gone: results are told apart with isinstance
    fields = set(hints)
    tags = [
        n
        for n, v in vars(cls).items()
        if isinstance(v, str) and not n.startswith("__") and n not in fields
    ]
    assert not tags, tags


@pytest.mark.parametrize("key", BUILDERS)
def test_to_json_round_trips(built, key):
    r = built[key]
    text = r.to_json()
    back = json.loads(text)
    assert back == json.loads(json.dumps(resultkit.jsonable(r.to_dict())))
    assert "NaN" not in text
    assert "Infinity" not in text
    assert json.loads(r.to_json(indent=None)) == back


@pytest.mark.parametrize("key", BUILDERS)
def test_repr_is_one_short_line(built, key):
    r = built[key]
    text = repr(r)
    assert "\n" not in text
    assert len(text) <= 200
    assert text.startswith(f"<{type(r).__name__}: ")
    assert text.endswith(">")


@pytest.mark.parametrize("key", BUILDERS)
def test_equality_never_raises(built, key):
    r = built[key]
    again = BUILDERS[key]()
    assert r == again
    assert (r != again) is False
    assert r != 5
    assert (r == "text") is False
    other = next(v for k, v in built.items() if type(v) is not type(r))
    assert r != other


def test_equality_sees_a_changed_array(built):
    r = built["ComparisonResult"]
    changed = dataclasses.replace(r, average_ranks=r.average_ranks + 0.5)
    assert r != changed
    assert r == dataclasses.replace(r)


@pytest.mark.parametrize("key", BUILDERS)
def test_html_escapes_names(built, key):
    r = built[key]
    text = r._repr_html_()
    assert MARKUP not in text
    if key.split("-")[0] not in NAMELESS:
        assert "&lt;b&gt;x&lt;/b&gt;" in text


@pytest.mark.parametrize("key", BUILDERS)
def test_str_reads_and_notes_stand_on_their_own_lines(built, key):
    r = built[key]
    text = str(r)
    assert text.strip()
    notes = getattr(r, "notes", ())
    if notes:
        head, _, tail = text.partition("\nNotes:\n")
        assert tail, "notes are printed under a Notes: heading"
        for note in notes:
            first_words = " ".join(resultkit.sentence(note).split()[:3])
            assert first_words in " ".join(tail.split())
        assert all(line.startswith(("  - ", "    ")) for line in tail.splitlines())
        # the conclusion no longer carries the notes glued to its end
        if hasattr(r, "conclusion"):
            assert notes[-1] not in r.conclusion()


def test_notes_are_sentences():
    assert resultkit.sentence("ignored 1 column 'resample'") == "Ignored 1 column 'resample'."
    assert resultkit.sentence("Done.") == "Done."
    lines = resultkit.notes_lines(["averaged duplicate rows: d1", "second note"])
    assert lines == ["", "Notes:", "  - Averaged duplicate rows: d1.", "  - Second note."]
    assert resultkit.notes_lines(()) == []


def test_per_method_accessors_by_name(built):
    # the same words on every result with per-method values
    c = built["ComparisonResult"]
    assert c.average_rank(MARKUP) == pytest.approx(1.125)  # 7 wins and one second place
    assert c.order()[0] == MARKUP
    assert 0 <= c.pvalue(MARKUP, "C") <= 1
    nem = built["RankTestResult-nemenyi"]
    assert nem.order() == tuple(NAMES)
    assert nem.average_rank("B") == 2.0
    assert nem.pvalue(MARKUP, "C") == nem.pvalues[0, 2]
    anova = built["AnovaResult"]
    assert anova.order()[0] == MARKUP
    assert anova.mean("B") == pytest.approx(SCORES[:, 1].mean())
    assert anova.tukey.pvalue(MARKUP, "B") == anova.tukey.pvalues[0, 1]
    assert anova.is_significant(MARKUP, "B") == bool(anova.tukey.significant[0, 1])
    auto = built["AutoResult"]
    assert auto.order() == auto.analysis.order()
    assert auto.path == "parametric"
    assert auto.pvalue("B", "C") == auto.analysis.tukey.pvalue("B", "C")
    es = built["EffectSizes"]
    assert es.order()[0] == MARKUP
    mc = built["MetricsComparison"]
    assert mc.average_rank(MARKUP, "AUC") == c.average_rank(MARKUP)
    assert mc.order("F1") == c.order()
    for r in (c, nem, anova, auto, es, mc):
        with pytest.raises(cdplot.CdplotError, match="unknown method 'nope'"):
            r.index("nope")


def test_options_cannot_be_changed(built):
    r = built["ComparisonResult-wilcoxon"]
    assert r.options["method"] == "auto"
    with pytest.raises(TypeError):
        r.options["method"] = "exact"  # type: ignore[index]
    assert r.to_dict()["options"]["method"] == "auto"


@pytest.mark.parametrize(
    "key",
    [
        "PairResult",
        "McNemarResult",
        "CVTestResult",
        "BayesianTTestResult",
        "BayesianSignedRankResult",
    ],
)
def test_two_method_results_name_their_pair_as_methods(built, key):
    # the pair is ``methods=(a, b)`` going in and ``.methods`` coming out
    r = built[key]
    assert r.methods == (MARKUP, "B")
    assert (r.method_a, r.method_b) == r.methods


@pytest.mark.parametrize("key", BUILDERS)
def test_pickle_and_deepcopy_keep_results_equal_and_read_only(built, key):
    # results travel to worker processes and caches
    import copy
    import pickle

    r = built[key]
    for back in (pickle.loads(pickle.dumps(r)), copy.deepcopy(r)):
        assert back == r
        for f in dataclasses.fields(back):
            value = getattr(back, f.name)
            if isinstance(value, np.ndarray):
                assert not value.flags.writeable, f.name
