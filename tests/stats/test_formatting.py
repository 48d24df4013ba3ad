"""The one p-value formatter (cdplot/stats/_formatting.py) and the callers that use it."""

import math
import re
from pathlib import Path

import pytest

from cdplot.stats._formatting import format_p

PACKAGE = Path(__file__).resolve().parents[2] / "cdplot"


@pytest.mark.parametrize(
    ("p", "kwargs", "text"),
    [
        # sentences: "p = 0.0123", "p < 0.0001"
        pytest.param(0.012345, {"prefix": True}, "p = 0.0123", id="sentence"),
        pytest.param(0.00001, {"prefix": True}, "p < 0.0001", id="sentence-floor"),
        pytest.param(0.0001, {"prefix": True}, "p = 0.0001", id="sentence-at-floor"),
        pytest.param(math.nan, {"prefix": True}, "n/a", id="sentence-nan"),
        # table cells: "0.0123", "<0.0001", an en dash for a missing value
        pytest.param(0.012345, {}, "0.0123", id="cell"),
        pytest.param(1e-9, {}, "<0.0001", id="cell-floor"),
        pytest.param(None, {"missing": "\u2013"}, "\u2013", id="cell-missing"),
        pytest.param(1.0, {}, "1.0000", id="cell-one"),
        # captions: three significant digits, no-break spaces
        pytest.param(
            0.01234,
            {"digits": 3, "significant": True, "prefix": True, "space": "\u00a0"},
            "p\u00a0=\u00a00.0123",
            id="caption",
        ),
        pytest.param(
            0.0004,
            {"digits": 3, "significant": True, "prefix": True, "space": "\u00a0"},
            "p\u00a0<\u00a00.001",
            id="caption-floor",
        ),
        # heatmap cells: more decimals where three would change the colour class
        pytest.param(0.0501, {"digits": 3, "levels": [0.001, 0.01, 0.05]}, "0.0501", id="hm-05"),
        pytest.param(0.00104, {"digits": 3, "levels": [0.001, 0.01, 0.05]}, "0.00104", id="hm-001"),
        pytest.param(0.0004, {"digits": 3, "levels": [0.001, 0.01, 0.05]}, "<0.001", id="hm-floor"),
        pytest.param(0.2, {"digits": 3, "levels": [0.001, 0.01, 0.05]}, "0.200", id="hm-plain"),
    ],
)
def test_format_p(p, kwargs, text):
    assert format_p(p, **kwargs) == text


@pytest.mark.parametrize(
    ("p", "kwargs", "text"),
    [
        # issue 31, item 5: the sign test's 11/32 (3 against 7 of 10) arrives as
        # 0.34374999999999994; round half away from zero on the decimal, as the tables do
        pytest.param(0.34374999999999994, {}, "0.3438", id="eleven-32nds-less-an-ulp"),
        pytest.param(0.34375, {}, "0.3438", id="eleven-32nds"),
        pytest.param(0.34375, {"significant": True}, "0.3438", id="eleven-32nds-significant"),
        # a value truly below the half still rounds down
        pytest.param(0.3437499, {}, "0.3437", id="below-half"),
        # f"{0.00015:.4f}" is '0.0001' (the double is below 0.00015); half up gives 0.0002
        pytest.param(0.00015, {}, "0.0002", id="half-at-the-last-digit"),
        pytest.param(0.125, {"digits": 2}, "0.13", id="half-up-not-half-even"),
    ],
)
def test_round_half_away_from_zero_on_the_decimal(p, kwargs, text):
    assert format_p(p, **kwargs) == text


def test_sign_test_prints_eleven_32nds_as_the_tables_do():
    from cdplot.stats._sign_test import sign_test

    # 3 against 7 over 10 data sets: p = 2 * 176 / 1024 = 11/32 = 0.34375 (scipy 1.17.1:
    # scipy.stats.binomtest(3, 10).pvalue = 0.34375); cdplot's sum gives 0.34374999999999994
    res = sign_test([0.0] * 10, [0.0] * 6 + [1.0] * 4)
    assert res.pvalue == pytest.approx(11 / 32, rel=1e-15)
    assert "p = 0.3438 (two-sided)" in str(res)


def test_rounding_never_crosses_a_class_bound():
    # brute force over a grid: the printed value lies in the same class as the value
    levels = [0.001, 0.01, 0.05]

    def cls(v):
        return next((n for n, t in enumerate(levels) if v <= t), len(levels))

    for i in range(1, 20000):
        p = i / 200000
        text = format_p(p, digits=3, levels=levels)
        if text.startswith("<"):
            assert p < 0.001
        else:
            assert cls(float(text)) == cls(p), (p, text)


def test_no_other_p_value_formatter_in_the_package():
    # every p-value is printed through format_p: no hand-made "p < 0.0001" or
    # ``f"{p:.4f}"`` p-value formatting elsewhere
    pattern = re.compile(r"p\s*<\s*0\.0+1\"|\"<0\.0+1\"|p\{nb\}")
    bad = []
    for path in PACKAGE.rglob("*.py"):
        if path.name == "formatting.py":
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                bad.append(f"{path.relative_to(PACKAGE)}:{n}: {line.strip()}")
    assert not bad, bad
