"""What the readers return: a tuple of tables that reads like the table when it holds one
(issue 29, 6: ``read_scores(path).methods`` failed on the tuple of a one-metric file)."""

import copy
import pickle
from pathlib import Path

import pytest

import cdplot
from cdplot.io import ScoreTable, ScoreTables, as_score_tables

SHAPES = Path(__file__).parent / "data" / "shapes"


def test_one_metric_reads_like_its_table():
    tables = cdplot.read_scores(SHAPES / "tabrepo_long.csv")
    assert isinstance(tables, ScoreTables)
    assert isinstance(tables, tuple)
    (t,) = tables  # unpacking, as before
    assert tables.methods == t.methods
    assert tables.higher_is_better is False
    assert tables.column("CatBoost_c1_BAG_L1").tolist() == t.column("CatBoost_c1_BAG_L1").tolist()
    assert tables["metric_error"] is t
    assert tables[0] is t
    # and every function that takes scores takes it whole
    assert cdplot.compare(tables).methods == t.methods


def test_several_metrics_refuse_to_guess():
    tables = cdplot.load_example("yang-table9")
    assert isinstance(tables, ScoreTables)
    assert len(tables) == 6
    with pytest.raises(AttributeError, match=r"6 metrics \('5CV', 'Boots.'.*pick one"):
        _ = tables.methods
    assert not hasattr(tables, "values")  # duck typing sees no table
    assert tables["AUC"].metric == "AUC"
    with pytest.raises(KeyError, match="no metric 'auc'"):
        _ = tables["auc"]
    # names a table does not have are plain attribute errors, whatever the count
    with pytest.raises(AttributeError, match="no attribute 'colums'"):
        _ = cdplot.load_example("demsar2006").colums


def test_it_survives_copy_and_pickle_and_slices_as_a_tuple():
    tables = as_score_tables([[0.8, 0.7], [0.9, 0.6]], methods=["A", "B"])
    assert type(pickle.loads(pickle.dumps(tables))) is ScoreTables
    assert copy.deepcopy(tables).methods == ("A", "B")
    assert isinstance(tables[:1], tuple)
    assert all(isinstance(t, ScoreTable) for t in tables)
