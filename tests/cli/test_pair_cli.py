"""Tests of ``cdplot pair`` (cdplot/_cli/pair.py): the tests that fit each kind of input."""

import json
from pathlib import Path

import numpy as np
import pytest

from cdplot.cli import main
from cdplot.stats._cv_tests import corrected_ttest, dietterich_5x2cv_ttest
from cdplot.stats._mcnemar import mcnemar_from_predictions


@pytest.fixture
def folds_5x2(tmp_path):
    rng = np.random.default_rng(11)
    a = 0.82 + 0.02 * rng.standard_normal((5, 2))
    b = a - 0.01 + 0.015 * rng.standard_normal((5, 2))
    rows = ["rep,fold,svm,tree"]
    for r in range(5):
        for k in range(2):
            rows.append(f"{r + 1},{k + 1},{float(a[r, k])!r},{float(b[r, k])!r}")
    p = tmp_path / "folds.csv"
    p.write_text("\n".join(rows) + "\n")
    return p, a, b


@pytest.fixture
def predictions(tmp_path):
    rng = np.random.default_rng(12)
    y = rng.integers(0, 2, 120)
    pa = np.where(rng.random(120) < 0.9, y, 1 - y)
    pb = np.where(rng.random(120) < 0.75, y, 1 - y)
    p = tmp_path / "pred.csv"
    p.write_text(
        "y_true,svm,tree\n" + "".join(f"{u},{v},{w}\n" for u, v, w in zip(y, pa, pb, strict=False))
    )
    return p, y, pa, pb


def _json(capsys, argv):
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_5x2_runs_the_tests_that_fit(folds_5x2, capsys):
    p, a, b = folds_5x2
    out = _json(capsys, ["pair", str(p), "--scheme", "5x2", "--json"])
    assert out["kind"] == "folds"
    assert [r["test"] for r in out["results"]] == ["5x2cv-t", "5x2cv-f", "corrected-t"]
    ref = dietterich_5x2cv_ttest(a, b)
    assert out["results"][0]["statistic"] == pytest.approx(ref.statistic)
    assert out["results"][2]["pvalue"] == pytest.approx(corrected_ttest(a, b, scheme="5x2").pvalue)


def test_rope_adds_the_bayesian_test_and_plot(folds_5x2, tmp_path, capsys):
    p, _, _ = folds_5x2
    out_png = tmp_path / "post.png"
    assert (
        main(
            [
                "pair",
                str(p),
                "--scheme",
                "5x2",
                "--rope",
                "0.01",
                "--test",
                "bayes",
                "--plot",
                str(out_png),
            ]
        )
        == 0
    )
    text = capsys.readouterr().out
    assert text.startswith("Bayesian correlated t-test (rope = 0.01, 10 folds, 5x2")
    assert out_png.stat().st_size > 1000


def test_predictions_give_mcnemar(predictions, capsys):
    p, y, pa, pb = predictions
    out = _json(capsys, ["pair", str(p), "--json"])
    assert out["kind"] == "predictions"
    ref = mcnemar_from_predictions([str(v) for v in y], [str(v) for v in pa], [str(v) for v in pb])
    assert out["results"][0]["table"] == ref.table.tolist()
    assert out["results"][0]["pvalue"] == pytest.approx(ref.pvalue)


def test_many_datasets_example(capsys):
    assert main(["pair", "--example", "demsar2006", "--methods", "C4.5+m,C4.5"]) == 0
    text = capsys.readouterr().out
    assert "wins/ties/losses of C4.5+m: 10/2/2" in text
    assert "C4.5+m is significantly better than C4.5" in text


def test_per_fold_scores_of_several_datasets_are_averaged(tmp_path, capsys):
    rows = ["dataset,fold,method,score"]
    rng = np.random.default_rng(2)
    for d in range(6):
        for k in range(3):
            rows.append(f"d{d},{k},x,{0.8 + 0.01 * d + 0.01 * rng.random()}")
            rows.append(f"d{d},{k},y,{0.79 + 0.01 * d + 0.01 * rng.random()}")
    p = tmp_path / "long.csv"
    p.write_text("\n".join(rows) + "\n")
    out = _json(capsys, ["pair", str(p), "--json"])
    assert out["kind"] == "datasets"
    assert out["results"][0]["n_datasets"] == 6
    assert "mean over 3 folds" in out["results"][0]["notes"][0]
    one = _json(capsys, ["pair", str(p), "--dataset", "d2", "--scheme", "kfold", "--json"])
    assert one["results"][0]["dataset"] == "d2"


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        pytest.param([], "need --scheme", id="no-scheme"),
        pytest.param(
            ["--scheme", "5x2", "--test", "kfold-t"], "does not fit scheme '5x2'", id="wrong-test"
        ),
        pytest.param(["--scheme", "10x10"], "= 100 scores per method, got 10", id="wrong-count"),
        pytest.param(
            ["--scheme", "5x2", "--methods", "svm,knn"], "'knn' is not a method", id="bad-name"
        ),
        pytest.param(
            ["--scheme", "5x2", "--rope", "-0.1"], "--rope -0.1 must be", id="negative-rope"
        ),
        pytest.param(
            ["--scheme", "5x2", "--plot", "x.png"], "needs --rope", id="plot-without-rope"
        ),
        pytest.param(["--scheme", "5x"], "option --scheme 5x is not valid", id="bad-scheme"),
    ],
)
def test_errors_are_one_line_exit_2(folds_5x2, capsys, extra, message):
    p, _, _ = folds_5x2
    assert main(["pair", str(p), *extra]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1
    assert "Traceback" not in err


def test_single_fold_and_zero_variance(tmp_path, capsys):
    one = tmp_path / "one.csv"
    one.write_text("fold,a,b\n1,0.8,0.7\n")
    assert main(["pair", str(one), "--scheme", "kfold"]) == 2
    assert "a single fold" in capsys.readouterr().err
    flat = tmp_path / "flat.csv"
    flat.write_text("fold,a,b\n1,0.75,0.5\n2,0.5,0.25\n3,1.0,0.75\n")
    assert main(["pair", str(flat), "--scheme", "kfold", "--test", "kfold-t"]) == 2
    assert "zero variance" in capsys.readouterr().err


def test_stats_test_auto(capsys):
    out = _json(capsys, ["stats", "--example", "demsar2006", "--test", "auto", "--json"])
    assert out["test"] == "auto"
    assert out["path"] == "nonparametric"


# --- issue 26's shapes through cdplot pair's per-fold reader -------------------------------

SHAPES = Path(__file__).parent.parent / "io" / "data" / "shapes"


def test_pair_ties_fold_means_that_agree_to_rounding(capsys):
    # HC2's and ROCKET's means of k/11 accuracies are equal; without the tie the Wilcoxon
    # test saw 3 wins of one method out of rounding alone
    path = str(SHAPES / "resamples_k_over_n.csv")
    assert main(["pair", path, "--methods", "HC2,ROCKET", "--format", "json"]) == 0
    (res,) = json.loads(capsys.readouterr().out)["results"]
    assert "ties" in " ".join(res["notes"])
    assert res["wins"] == 0
    assert res["losses"] == 0


def test_pair_names_method_col_for_an_unknown_method_column(capsys):
    path = str(SHAPES / "tabrepo_unknown_method.csv")
    assert main(["pair", path, "--methods", "CatBoost_c1_BAG_L1,LightGBM_c1_BAG_L1"]) == 2
    err = capsys.readouterr().err
    assert "--method-col" in err
    assert "'tabrepo_config'" in err
    argv = ["pair", path, "--methods", "CatBoost_c1_BAG_L1,LightGBM_c1_BAG_L1"]
    assert main([*argv, "--method-col", "tabrepo_config", "--format", "json"]) == 0
    (res,) = json.loads(capsys.readouterr().out)["results"]
    assert res["n_datasets"] == 5


def test_pair_reads_the_direction_from_a_fold_files_score_column(capsys):
    # 'metric_error' is lower-is-better: cdplot pair once treated it as higher-is-better on
    # the per-fold path and called the method with the larger error the winner
    path = str(SHAPES / "tabrepo_long.csv")
    argv = ["pair", path, "--methods", "CatBoost_c1_BAG_L1,LightGBM_c1_BAG_L1"]
    assert main([*argv, "--format", "json"]) == 0
    (res,) = json.loads(capsys.readouterr().out)["results"]
    assert res["higher_is_better"] is False
    assert (res["wins"], res["losses"]) == (5, 0)  # CatBoost's error is lower on all five
    assert main([*argv, "--dataset", "10090", "--scheme", "kfold"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "CatBoost_c1_BAG_L1 is significantly better than LightGBM_c1_BAG_L1" in out
    assert "Lower is better, inferred from the column name 'metric_error'" in out
    # asked otherwise, the answer follows and says so
    assert main([*argv, "--dataset", "10090", "--scheme", "kfold", "--higher-is-better"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "LightGBM_c1_BAG_L1 is significantly better than CatBoost_c1_BAG_L1" in out
    assert "although the data say otherwise" in out


def test_pair_refuses_a_fold_file_whose_names_disagree(tmp_path, capsys):
    path = tmp_path / "error_folds.csv"
    path.write_text("fold,method,accuracy\n1,A,0.8\n1,B,0.7\n2,A,0.9\n2,B,0.6\n3,A,0.7\n3,B,0.5\n")
    assert main(["pair", str(path), "--scheme", "kfold"]) == 2
    err = capsys.readouterr().err
    assert "'accuracy'" in err
    assert "--higher-is-better" in err
    assert err.count("\n") == 1


def test_pair_reads_one_metric_of_a_fold_file_with_a_metric_column(tmp_path, capsys):
    # --metric and --metric-col were once ignored on per-fold files: a file of accuracy and
    # log-loss folds was refused as "fold 1 appears twice", and one of log-loss alone was
    # read as higher-is-better (made-up scores: A has the higher accuracy and lower loss)
    rows = ["fold,method,measure,value"]
    for k in range(1, 6):
        rows += [f"{k},A,accuracy,0.{80 + k}", f"{k},B,accuracy,0.{70 + 2 * k}"]
        rows += [f"{k},A,log_loss,0.{30 + k}", f"{k},B,log_loss,0.{40 + 2 * k}"]
    path = tmp_path / "folds.csv"
    path.write_text("\n".join(rows) + "\n")
    argv = ["pair", str(path), "--scheme", "kfold"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "column 'measure' holds 2 metrics ('accuracy', 'log_loss')" in err
    assert "choose one with --metric" in err
    assert err.count("\n") == 1
    for metric, hib in (("accuracy", True), ("log_loss", False)):
        out = _json(capsys, [*argv, "--metric", metric, "--json"])
        assert {r["higher_is_better"] for r in out["results"]} == {hib}
        assert [r["better"] for r in out["results"]] == ["A", "A"], out
    assert main([*argv, "--metric", "auc"]) == 2
    assert "option --metric auc matches no metric" in capsys.readouterr().err
    # --metric-col names it when its name is not one the reader knows
    path.write_text(path.read_text().replace("measure", "quantity", 1))
    out = _json(capsys, [*argv, "--metric", "log_loss", "--metric-col", "quantity", "--json"])
    assert {r["higher_is_better"] for r in out["results"]} == {False}


# --- every option either applies to the input or is refused, naming what it is for --------

# what an option the bundled example does not use is told
EXAMPLE = "does not apply to scores over many data sets (a bundled example, --example)"
# options every kind of input uses
EVERYWHERE = {"example", "test", "methods", "alpha", "format", "json", "plot", "quiet", "progress"}


def test_every_pair_option_says_which_inputs_use_it():
    # a new option of cdplot pair must say where it applies, or it could be ignored unseen
    from cdplot._cli import pair
    from cdplot.cli import build_parser, command_flags

    flags = set(command_flags(build_parser().commands["pair"]))
    assert flags - EVERYWHERE == set(pair._APPLIES)
    assert not EVERYWHERE & set(pair._APPLIES)


@pytest.fixture
def averaged(tmp_path):
    rows = ["dataset,fold,method,score"]
    for d in range(4):
        for k in range(3):
            rows += [f"d{d},{k},svm,0.{80 + d + k}", f"d{d},{k},tree,0.{70 + d + 2 * k}"]
    p = tmp_path / "several.csv"
    p.write_text("\n".join(rows) + "\n")
    return p


@pytest.fixture
def table(tmp_path):
    p = tmp_path / "table.csv"
    p.write_text("dataset,svm,tree\nd1,0.8,0.7\nd2,0.9,0.6\nd3,0.7,0.75\nd4,0.85,0.8\n")
    return p


@pytest.mark.parametrize(
    ("kind", "extra", "message"),
    [
        # predictions: McNemar's test reads labels, not scores
        ("pred", ["--metric", "acc"], "option --metric does not apply to predictions"),
        ("pred", ["--lower-is-better"], "option --lower-is-better does not apply to predictions"),
        ("pred", ["--exclude", "svm"], "option --exclude does not apply to predictions"),
        ("pred", ["--zero-method", "pratt"], "option --zero-method does not apply to pred"),
        ("pred", ["--score-col", "svm"], "option --score-col does not apply to predictions"),
        ("pred", ["--seed", "3"], "option --seed does not apply to predictions"),
        ("pred", ["--layout", "long"], "option --layout does not apply to predictions"),
        ("pred", ["--rope", "0.1"], "option --rope does not apply to predictions"),
        # the per-fold tests of one data set
        ("folds", ["--zero-method", "pratt"], "--zero-method does not apply to the per-fold"),
        ("folds", ["--distribution", "exact"], "--distribution does not apply to the per-fold"),
        ("folds", ["--samples", "100"], "option --samples does not apply to the per-fold"),
        ("folds", ["--rope", "0.01", "--prior-strength", "1"], "--prior-strength does not"),
        ("folds", ["--no-continuity"], "option --no-continuity does not apply to the per-fold"),
        ("folds", ["--layout", "wide"], "it is for score tables read whole"),
        ("folds", ["--orient", "datasets"], "option --orient does not apply to the per-fold"),
        ("folds", ["--nan-policy", "omit"], "per-fold scores must have every fold"),
        ("folds", ["--rename", "svm=S"], "option --rename does not apply to the per-fold"),
        ("folds", ["--datasets", "d1"], "(per-fold tests: --dataset)"),
        ("folds", ["--test", "5x2cv-t", "--rope", "0.01"], "add --test bayes or leave --rope"),
        # per-fold scores of several data sets, averaged
        ("avg", ["--layout", "long"], "option --layout does not apply to per-fold scores of"),
        ("avg", ["--nan-policy", "omit"], "option --nan-policy does not apply to per-fold"),
        ("avg", ["--no-continuity"], "option --no-continuity does not apply to per-fold"),
        ("avg", ["--samples", "10"], "--samples applies to the Bayesian signed-rank test, which"),
        # a score table, and the bundled example
        ("table", ["--no-continuity"], "--no-continuity does not apply to scores over many"),
        ("table", ["--prior-strength", "2"], "--prior-strength applies to the Bayesian signed"),
        ("table", ["--test", "pair", "--rope", "0.01"], "add --test bayes or leave --rope out"),
        ("example", ["--sep", ";"], f"--sep {EXAMPLE}"),
        ("example", ["--score-col", "x"], f"--score-col {EXAMPLE}"),
        ("example", ["--truth-col", "y"], f"--truth-col {EXAMPLE}"),
        ("example", ["--fold-col", "f"], f"--fold-col {EXAMPLE}"),
    ],
)
def test_options_an_input_does_not_use_are_refused(
    kind, extra, message, folds_5x2, predictions, averaged, table, capsys
):
    # each was once accepted and silently ignored
    source = {
        "pred": [str(predictions[0])],
        "folds": [str(folds_5x2[0]), "--scheme", "5x2"],
        "avg": [str(averaged)],
        "table": [str(table)],
        "example": ["--example", "demsar2006", "--methods", "C4.5,C4.5+m"],
    }[kind]
    assert main(["pair", *source, *extra]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("kind", "extra"),
    [
        ("pred", ["--distribution", "exact", "--no-continuity"]),
        ("folds", ["--rope", "0.01", "--test", "bayes", "--lower-is-better"]),
        ("avg", ["--rope", "0.01", "--samples", "1000", "--seed", "2", "--zero-method", "pratt"]),
        ("table", ["--rope", "0.01", "--prior-strength", "1", "--layout", "wide"]),
        ("example", ["--rope", "0.01", "--samples", "1000", "--metric", "AUC"]),
    ],
)
def test_options_an_input_uses_are_taken(
    kind, extra, folds_5x2, predictions, averaged, table, capsys
):
    source = {
        "pred": [str(predictions[0])],
        "folds": [str(folds_5x2[0]), "--scheme", "5x2"],
        "avg": [str(averaged)],
        "table": [str(table)],
        "example": ["--example", "demsar2006", "--methods", "C4.5,C4.5+m"],
    }[kind]
    assert main(["pair", *source, *extra]) == 0, capsys.readouterr().err


def test_fold_col_makes_a_file_per_fold_scores(tmp_path, capsys):
    # a fold column the reader does not recognise, named by --fold-col: once the file was read
    # as a score table over data sets and --fold-col ignored
    p = tmp_path / "cv.csv"
    p.write_text("part,svm,tree\n1,0.8,0.7\n2,0.9,0.6\n3,0.7,0.65\n4,0.85,0.8\n")
    out = _json(capsys, ["pair", str(p), "--fold-col", "part", "--scheme", "kfold", "--json"])
    assert out["kind"] == "folds"
    assert out["results"][0]["n_folds"] == 4


def test_test_bayes_alone_gives_the_bayesian_test_alone(capsys):
    # --test bayes on scores over many data sets printed the paired tests as well
    argv = ["pair", "--example", "demsar2006", "--methods", "C4.5+m,C4.5", "--rope", "0.01"]
    assert main([*argv, "--test", "bayes"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Bayesian signed-rank test over 14 data sets")
    assert "paired t-test" not in out
    assert "Higher is better, as the data declare" in out  # the direction, still said
    assert main(argv) == 0
    both = capsys.readouterr().out
    assert "paired t-test" in both
    assert "Bayesian signed-rank" in both
