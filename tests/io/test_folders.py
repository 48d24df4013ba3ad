"""Results folders (aeon / tsml-eval ``<Method>_<metric>.csv``) and selecting methods."""

import subprocess
import sys

import numpy as np
import pytest

from cdplot.errors import CdplotError
from cdplot.io import as_score_tables, read_scores


@pytest.fixture
def results(tmp_path):
    rng = np.random.default_rng(4)
    data = {}
    for skill, method in ((0.0, "DrCIF"), (0.03, "HC2"), (0.01, "ROCKET")):
        x = np.round(0.8 + skill + 0.05 * rng.random((5, 3)), 4)
        data[method] = x
        lines = ["Resamples:,0,1,2"] + [
            f"{d}," + ",".join(map(repr, row.tolist()))
            for d, row in zip(("ArrowHead", "Beef", "Car", "Coffee", "ECG200"), x, strict=True)
        ]
        (tmp_path / f"{method}_accuracy.csv").write_text("\n".join(lines) + "\n")
        (tmp_path / f"{method}_fittime.csv").write_text(
            "\n".join(["Resamples:,0,1,2"] + [f"{d},1,2,{3 + skill}" for d in "ABC"]) + "\n"
        )
    return tmp_path, data


def test_folder_gives_one_table_per_metric(results):
    folder, data = results
    acc, fit = read_scores(folder)
    assert acc.metric == "accuracy"
    assert acc.methods == ("DrCIF", "HC2", "ROCKET")
    assert acc.datasets == ("ArrowHead", "Beef", "Car", "Coffee", "ECG200")
    import math

    expected = [[math.fsum(data[m][i]) / 3 for m in acc.methods] for i in range(5)]
    assert acc.values.tolist() == expected
    assert acc.higher_is_better is True
    assert "file name 'accuracy'" in acc.direction
    assert fit.metric == "fittime"
    assert fit.higher_is_better is False
    assert "file name 'fittime'" in fit.direction


def test_folder_on_the_command_line(results):
    folder, _ = results
    out = subprocess.run(
        [sys.executable, "-m", "cdplot", "stats", str(folder), "--metric", "accuracy"]
        + ["--exclude", "DrCIF", "--rename", "HC2=HIVE-COTE 2"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    assert "HIVE-COTE 2" in out.stdout
    assert "DrCIF" not in out.stdout.split("Friedman")[0]


def test_folder_without_result_files(tmp_path):
    with pytest.raises(CdplotError, match="without results files"):
        read_scores(tmp_path)


def test_first_header_cell_must_be_resamples(tmp_path):
    (tmp_path / "A_acc.csv").write_text("dataset,0,1\nx,1,2\n")
    with pytest.raises(CdplotError, match="not 'Resamples:'"):
        read_scores(tmp_path)


# --- selecting and renaming, for every kind of input ---------------------------------

AUC = [[0.763, 0.768, 0.771], [0.599, 0.591, 0.590], [0.954, 0.971, 0.968]]


def inputs():
    methods, datasets = ["C4.5", "C4.5+m", "C4.5+cf"], ["adult", "breast", "wisc"]
    yield {d: dict(zip(methods, row, strict=True)) for d, row in zip(datasets, AUC, strict=True)}
    yield [
        {"dataset": d, "method": m, "score": v}
        for d, row in zip(datasets, AUC, strict=True)
        for m, v in zip(methods, row, strict=True)
    ]
    pd = pytest.importorskip("pandas")
    yield pd.DataFrame(AUC, index=datasets, columns=methods)


@pytest.mark.parametrize("make", range(3))
def test_selection_for_every_input_kind(make):
    data = list(inputs())[make]
    (t,) = as_score_tables(
        data,
        methods=["C4.5+cf", "C4.5"],
        datasets=["wisc", "adult"],
        rename={"C4.5": "J48"},
    )
    assert t.methods == ("C4.5+cf", "J48")
    assert t.datasets == ("wisc", "adult")
    assert t.values.tolist() == [[0.968, 0.954], [0.771, 0.763]]
    (t,) = as_score_tables(data, exclude=["C4.5+m"])
    assert t.methods == ("C4.5", "C4.5+cf")


def test_unknown_names_list_the_known_ones():
    data = list(inputs())[0]
    with pytest.raises(CdplotError, match=r"names 'J48', which is not one of the methods; the "):
        as_score_tables(data, methods=["J48", "C4.5"])
    with pytest.raises(CdplotError, match=r"'wine', which is not one of the data sets"):
        as_score_tables(data, datasets=["wine", "adult"])
    with pytest.raises(CdplotError, match=r"option rename= names 'X'"):
        as_score_tables(data, rename={"X": "Y"})


def test_selection_comes_before_nan_policy():
    data = {
        "a": {"A": 1, "B": 2, "C": None},
        "b": {"A": 2, "B": 1, "C": 3},
        "c": {"A": 2, "B": 3, "C": 1},
    }
    (t,) = as_score_tables(data, exclude=["C"])
    assert t.datasets == ("a", "b", "c")
    with pytest.raises(CdplotError, match="missing score"):
        as_score_tables(data)


def test_folder_keeps_each_resample_when_asked(results):
    # resample i of every method is the same split (aeon/tsml-eval), so they are paired
    folder, data = results
    acc, fit = read_scores(folder, keep_repetitions=True)
    assert acc.repetition_labels == ("0", "1", "2")
    for j, m in enumerate(acc.methods):
        assert acc.repetition_scores[:, j, :].tolist() == data[m].tolist()
    np.testing.assert_allclose(
        acc.std, np.stack([data[m].std(axis=1, ddof=1) for m in acc.methods], axis=1)
    )
    assert read_scores(folder)[0].repetition_scores is None
