"""The report's ``@font-face`` subsets (cdplot/reporting/_fonts.py)."""

from __future__ import annotations

import gc
import io
import warnings

from cdplot.reporting._fonts import bundled_fonts, subset_font


def test_a_subset_closes_its_font_file_and_keeps_only_the_text():
    # issue 26: under -W always, every subset font file left open warned at collection
    from fontTools.ttLib import TTFont

    lato = next(f for f in bundled_fonts() if f.family == "Lato" and f.weight == 400)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        data, fmt = subset_font.__wrapped__(lato.path, "C4.5+m")
        gc.collect()
    assert [w for w in caught if issubclass(w.category, ResourceWarning)] == []
    assert fmt == "woff"
    with TTFont(io.BytesIO(data)) as font:
        assert set(font.getBestCmap()) == {ord(c) for c in "C4.5+m"}
