"""The in-suite part of benchmarks/sweep_claims.py (issue 31's "done when").

200 random analyses over tests, corrections, zero methods, distributions and the
per-fold tests; every significant claim must take its side from the statistic that
made it, recomputed with scipy (``scipy.stats.rankdata``) rather than cdplot's code.
The full 2,000-analysis run is ``python benchmarks/sweep_claims.py``.
"""

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "sweep_claims.py"


@pytest.fixture(scope="module")
def sweep_module():
    spec = importlib.util.spec_from_file_location("sweep_claims", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["sweep_claims"] = module  # dataclasses look their module up there
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.modules.pop("sweep_claims", None)


def test_no_claim_takes_its_side_against_the_statistic(sweep_module):
    tally = sweep_module.sweep(200, seed=31)
    assert tally.analyses == 200
    assert tally.claims > 100  # the sweep checks claims, not only silence
    assert tally.wrong == []


@pytest.mark.parametrize(
    ("d", "zero_method", "sums"),
    [
        # Demšar (2006), section 3.1.3: C4.5+m against C4.5, R+ = 93, R- = 12 (two zeros)
        pytest.param(
            np.subtract(
                [
                    0.768,
                    0.591,
                    0.971,
                    0.661,
                    0.888,
                    0.931,
                    0.668,
                    0.583,
                    0.838,
                    1.0,
                    0.962,
                    0.666,
                    0.981,
                    0.978,
                ],
                [
                    0.763,
                    0.599,
                    0.954,
                    0.628,
                    0.882,
                    0.936,
                    0.661,
                    0.583,
                    0.775,
                    1.0,
                    0.940,
                    0.619,
                    0.972,
                    0.957,
                ],
            ),
            "zsplit",
            (93.0, 12.0),
            id="demsar2006-table2",
        ),
        # issue 31, item 2: 16 zeros and +-1, +-2 under Pratt: R+ = R- = 37
        pytest.param(np.array([0.0] * 16 + [1, -1, 2, -2]), "pratt", (37.0, 37.0), id="pratt"),
        # one of three zeros dropped (Demšar's rule), two split: 1.5 each side
        pytest.param(np.array([0.0, 0.0, 0.0, 1.0, -2.0]), "demsar", (1.5 + 3, 1.5 + 4), id="odd"),
        pytest.param(np.array([0.0, 1.0, -2.0, 3.0]), "wilcox", (4.0, 2.0), id="wilcox"),
    ],
)
def test_the_sweeps_rank_sums_are_the_papers(sweep_module, d, zero_method, sums):
    assert sweep_module.rank_sums(d, zero_method) == sums


class _Said:
    """A per-fold result that says ``text`` about a t statistic (the checker's input)."""

    def __init__(self, statistic, text):
        self.statistic, self.text = statistic, text
        self.higher_is_better, self.method_a, self.method_b = True, "A", "B"
        self.significant = True

    def better(self):
        return None

    def __str__(self):
        return self.text


def test_the_sweep_catches_a_claim_against_the_statistic(sweep_module):
    # the checker itself: issue 31's sentence before the fix, t = 59.76 from A - B
    tally = sweep_module.Tally()
    sweep_module._check_cv(
        tally, _Said(59.76, "B is significantly better than A at ..."), "5x2cv-t"
    )
    assert len(tally.wrong) == 1
    sweep_module._check_cv(
        tally, _Said(59.76, "A is significantly better than B at ..."), "5x2cv-t"
    )
    assert len(tally.wrong) == 1
    # the F-test names no side
    sweep_module._check_cv(tally, _Said(1781.0, "B is significantly better than A by"), "5x2cv-f")
    assert len(tally.wrong) == 2
