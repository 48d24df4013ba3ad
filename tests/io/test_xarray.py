"""xarray DataArrays keep their names (issue 29, 6: they were read as bare arrays).

xarray is not a dependency and is not imported: cdplot reads the attributes a
``DataArray`` has (``dims``, ``coords[dim].values``, ``values``, ``name``; xarray's
documented API, https://docs.xarray.dev/en/stable/generated/xarray.DataArray.html).
``LabelledArray`` below has those and no more; the real class is used when installed.
"""

import numpy as np
import pytest

import cdplot
from cdplot.io import as_score_tables


class _Coord:
    def __init__(self, values):
        self.values = np.asarray(values)


class LabelledArray:
    """The attributes of ``xarray.DataArray`` that cdplot reads."""

    def __init__(self, values, dims, coords, name=None):
        self.values, self.dims, self.name = np.asarray(values), tuple(dims), name
        self.coords = {k: _Coord(v) for k, v in coords.items()}

    def __array__(self, dtype=None, copy=None):
        return self.values


def _arrays():
    yield LabelledArray
    try:
        import xarray
    except ImportError:
        return

    def real(values, dims, coords, name=None):
        return xarray.DataArray(values, dims=dims, coords=coords, name=name)

    yield real


@pytest.fixture(params=list(_arrays()), ids=lambda f: getattr(f, "__name__", "xarray"))
def make(request):
    return request.param


SCORES = np.array([[0.10, 0.30, 0.20, 0.25], [0.15, 0.35, 0.30, 0.20], [0.12, 0.28, 0.22, 0.24]])


def test_methods_and_data_sets_come_from_the_coordinates(make):
    da = make(SCORES, ("model", "task"), {"model": ["A", "B", "C"], "task": list("wxyz")})
    (t,) = as_score_tables(da)
    # 'model' names the methods, so its dimension becomes the columns
    assert t.methods == ("A", "B", "C")
    assert t.datasets == ("w", "x", "y", "z")
    np.testing.assert_array_equal(t.values, SCORES.T)
    assert t.source == "xarray DataArray"
    # the second dimension holds the methods when no name says otherwise
    db = make(SCORES, ("row", "col"), {"row": ["r1", "r2", "r3"], "col": list("ABCD")})
    (u,) = as_score_tables(db)
    assert u.methods == ("A", "B", "C", "D")
    assert u.datasets == ("r1", "r2", "r3")


def test_the_arrays_name_is_the_metric_and_says_the_direction(make):
    da = make(SCORES, ("model", "task"), {"model": ["A", "B", "C"], "task": list("wxyz")}, "error")
    res = cdplot.compare(da)
    assert res.metric == "error"
    assert res.higher_is_better is False
    assert res.direction_reason == "lower is better, inferred from the metric name 'error'"
    assert res.order()[0] == "A"  # the lowest error


def test_selection_applies_to_the_names(make):
    da = make(SCORES, ("model", "task"), {"model": ["A", "B", "C"], "task": list("wxyz")})
    (t,) = as_score_tables(da, methods=["C", "A"], datasets=["x", "w"])
    assert t.methods == ("C", "A")
    assert t.datasets == ("x", "w")
    with pytest.raises(cdplot.CdplotError, match="'D'"):
        as_score_tables(da, methods=["D", "A"])
