"""The interactive explorer (cdplot/plot/_explorer.py): its data, its safety, and in Chromium.

The page's verdicts are checked against the result itself: every method's
state against a selected method (``significant`` and ``direction``), the
adjusted p-values (``pvalues``, formatted as everywhere in cdplot) and the
groups it belongs to (``cliques``).  In Chromium the page is opened at
``#select=NAME`` (the shareable link a click makes) and ``--dump-dom``
returns the DOM after its script ran.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import urllib.parse
from html.parser import HTMLParser

import numpy as np
import pytest

import cdplot
from cdplot.errors import CdplotError
from cdplot.io import ScoreTable
from cdplot.plot._explorer import _json_for_script
from cdplot.stats._formatting import format_p

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="Chromium is missing (Debian package chromium; .ci/run installs it)"
)


def _scores(k: int, n: int = 30, seed: int = 100, names=None) -> ScoreTable:
    # a trend over the methods plus noise: near neighbours tie, far ones differ
    rng = np.random.default_rng(seed)
    values = np.linspace(0.9, 0.6, k)[None, :] + rng.normal(0, 0.08, (n, k))
    return ScoreTable(
        values=values,
        methods=names or [f"method {i:03d}" for i in range(k)],
        datasets=[f"d{j}" for j in range(n)],
    )


@pytest.fixture(scope="module")
def k100():
    return cdplot.compare(_scores(100))


class _Dom(HTMLParser):
    """The explorer's rows, table rows and groups, with their attributes, from a page."""

    def __init__(self):
        super().__init__()
        self.rows, self.table, self.groups = {}, {}, {}
        self.verdicts: dict[int, str] = {}
        self._row = None
        self._in_verdict = False
        self.summary = ""
        self._in_summary = False
        self.tags = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append(tag)
        cls = a.get("class", "")
        if tag == "g" and cls == "m":
            self._row = int(a["data-i"])
            self.rows[self._row] = a
        elif tag == "tr" and "data-i" in a:
            self.table[int(a["data-i"])] = a
        elif tag == "g" and cls == "group":
            self.groups[int(a["data-c"])] = a
        elif tag == "text" and cls == "verdict":
            self._in_verdict = True
        elif tag == "p" and cls == "cdx-summary":
            self._in_summary = True

    def handle_endtag(self, tag):
        if tag == "g":
            self._row = None
        self._in_verdict = self._in_summary = False

    def handle_data(self, data):
        if self._in_verdict and self._row is not None:
            self.verdicts[self._row] = self.verdicts.get(self._row, "") + data
        if self._in_summary:
            self.summary += data


def _parse(page: str) -> _Dom:
    dom = _Dom()
    dom.feed(page)
    return dom


def _data(page: str) -> dict:
    found = re.search(r'<script type="application/json" class="cdx-data">(.*?)</script>', page)
    return json.loads(found.group(1))


def _expected_state(result, sel: str, other: str) -> str:
    """What the page must say ``other`` is against ``sel``, from the result's fields."""
    if other == sel:
        return "sel"
    i, j = result.index(sel), result.index(other)
    if np.isnan(result.pvalues[j, i]):
        return "untested"
    if not result.significant[j, i]:
        return "same"
    # direction: +1 where the row method is the better one
    return "better" if result.direction[j, i] > 0 else "worse"


# ---- without a browser: the page's data are the result's --------------------------------


@pytest.mark.parametrize(
    "kws",
    [
        pytest.param({}, id="nemenyi"),
        pytest.param({"test": "wilcoxon"}, id="wilcoxon-holm"),
        pytest.param({"test": "bonferroni-dunn", "control": "method 010"}, id="bonferroni-dunn"),
    ],
)
def test_data_block_holds_the_results_verdicts_p_values_and_groups(kws):
    result = cdplot.compare(_scores(25), **kws)
    page = cdplot.cd_explorer(result)
    data = _data(page)
    k = result.n_methods
    assert data["methods"] == list(result.methods)
    assert [data["methods"][i] for i in data["order"]] == list(result.order())
    assert [[data["methods"][i] for i in g] for g in data["groups"]] == [
        list(c) for c in result.cliques
    ]
    assert data["procedure"] == result.procedure()
    code = {"sel": ".", "untested": ".", "same": "=", "better": "+", "worse": "-"}
    for a in range(k):
        for b in range(k):
            # relation[a][b] is a's verdict on b; _expected_state(result, b, a) is a against b
            want = code[_expected_state(result, result.methods[b], result.methods[a])]
            assert data["relation"][a][b] == want, (a, b)
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    names = result.methods
    assert data["p"] == [format_p(result.pvalue(names[i], names[j])) for i, j in pairs]
    if kws.get("control"):
        assert data["groups"] == []
        assert "Only the comparisons with the control method 010 were tested" in page


def test_direction_and_test_are_stated_in_words(k100):
    page = cdplot.cd_explorer(k100)
    text = re.sub(r"<[^>]+>", "", page)
    assert "Higher is better by default" in text
    assert "Nemenyi test at α = 0.05" in text
    assert f"critical difference CD = {k100.critical_difference:.3f}" in text
    low = cdplot.cd_explorer(cdplot.compare(_scores(6), higher_is_better=False))
    assert "Lower is better, as asked" in re.sub(r"<[^>]+>", "", low)


def test_every_method_is_on_the_axis_and_in_the_table_in_rank_order(k100):
    dom = _parse(cdplot.cd_explorer(k100))
    assert sorted(dom.rows) == list(range(100))
    assert [k100.methods[i] for i in dom.table] == list(k100.order())
    assert len(dom.groups) == len(k100.cliques)


def test_names_are_data_never_markup():
    evil = [
        "</script><script>alert(1)</script>",
        "<img src=x onerror=alert(2)>",
        "a & b <!-- c",
        '"quoted" \u2028 line',
        "plain",
    ]
    page = cdplot.cd_explorer(cdplot.compare(_scores(5, names=evil)), title="<b>title</b>")
    # the only tags are the page's own: no name opened one
    tags = set(_parse(page).tags)
    assert tags <= {
        "html", "head", "meta", "title", "style", "body", "h1", "div", "p", "span", "label",
        "input", "button", "svg", "line", "text", "path", "g", "rect", "circle", "table",
        "thead", "tbody", "tr", "th", "td", "script",
    }  # fmt: skip
    assert "img" not in tags
    assert "b" not in tags
    assert page.count("<script") == 2  # the data block and the page's own script
    block = re.search(r'class="cdx-data">(.*?)</script>', page, re.S).group(1)
    for char in "<>&":
        assert char not in block
    assert _data(page)["methods"] == evil
    assert "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert _json_for_script(["</script>"]) == '["\\u003c/script\\u003e"]'


def test_page_loads_nothing_from_outside(k100):
    page = cdplot.cd_explorer(k100)
    assert not re.search(r"\b(src|href)\s*=", page)
    assert "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    for fetch in ("https://", "@import", "url("):
        assert fetch not in page


def test_path_is_written_atomically_and_equals_the_return_value(k100, tmp_path):
    out = tmp_path / "view.html"
    page = cdplot.cd_explorer(k100, path=out)
    assert out.read_text(encoding="utf-8") == page
    assert [p.name for p in tmp_path.iterdir()] == ["view.html"]


def test_bad_input_is_one_line():
    result = cdplot.compare(_scores(5))
    with pytest.raises(CdplotError, match=r"option highlight='nope' is not one of the 5"):
        cdplot.cd_explorer(result, highlight="nope")
    with pytest.raises(CdplotError, match="applies only to raw scores"):
        cdplot.cd_explorer(result, compare_kws={"alpha": 0.1})
    with pytest.raises(CdplotError, match="option title=3 must be a string"):
        cdplot.cd_explorer(result, title=3)


def test_parametric_auto_result_is_refused_with_the_heatmap_named():
    from cdplot.stats._parametric import compare_auto

    rng = np.random.default_rng(1)
    table = ScoreTable(
        values=np.linspace(0.8, 0.7, 6)[None, :] + rng.normal(0, 0.01, (40, 6)),
        methods=[f"m{i}" for i in range(6)],
        datasets=[f"d{j}" for j in range(40)],
    )
    auto = compare_auto(table)
    assert auto.path == "parametric"
    with pytest.raises(CdplotError, match="significance_heatmap"):
        cdplot.cd_explorer(auto)


def test_explorer_loads_no_matplotlib():
    code = (
        "import sys, cdplot\n"
        "cdplot.cd_explorer(cdplot.load_example('demsar2006'))\n"
        "print('matplotlib' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_cli_writes_the_explorer_and_refuses_figure_options(tmp_path):
    from cdplot.cli import main

    out = tmp_path / "view.html"
    assert main(["plot", "--example", "demsar2006", "-o", str(out), "-q"]) == 0
    assert _data(out.read_text("utf-8"))["methods"] == list(
        cdplot.compare(cdplot.load_example("demsar2006")).methods
    )
    assert main(["plot", "--example", "demsar2006", "-o", str(out), "--dpi", "100"]) == 2
    assert main(["plot", "--example", "yang-table9", "-o", str(out)]) == 2
    assert main(["plot", "--example", "demsar2006", "-o", str(out), "--kind", "heatmap"]) == 2


# ---- in Chromium ------------------------------------------------------------------------


def _chromium(args, tmp_path) -> str:
    return subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--no-first-run",
            "--hide-scrollbars",
            f"--user-data-dir={tmp_path / 'profile'}",
            *args,
        ],
        capture_output=True,
        timeout=120,
        check=True,
    ).stdout.decode("utf-8")


def _open_selected(result, method: str, tmp_path) -> _Dom:
    path = tmp_path / "view.html"
    cdplot.cd_explorer(result, path=path)
    url = path.as_uri() + "#select=" + urllib.parse.quote(method, safe="")
    dom = _chromium(["--virtual-time-budget=5000", "--dump-dom", url], tmp_path)
    return _parse(dom)


def _check_selection(result, method: str, dom: _Dom) -> None:
    for i, other in enumerate(result.methods):
        want = _expected_state(result, method, other)
        assert dom.rows[i]["data-state"] == want, other
        assert dom.table[i]["data-state"] == want, other
        if want in ("better", "worse", "same"):
            p = format_p(result.pvalue(method, other), prefix=True)
            assert dom.verdicts[i].endswith(", " + p), (other, dom.verdicts[i])
    member = {c for c, clique in enumerate(result.cliques) if method in clique}
    assert {c for c, g in dom.groups.items() if g["data-member"] == "1"} == member
    assert {c for c, g in dom.groups.items() if g["data-member"] == "0"} == (
        set(range(len(result.cliques))) - member
    )
    assert dom.summary.startswith(method + " (average rank ")


@needs_chromium
@pytest.mark.parametrize("position", [0, 49, 99])
def test_chromium_selection_at_k100_matches_the_result(k100, position, tmp_path):
    method = k100.order()[position]
    dom = _open_selected(k100, method, tmp_path)
    _check_selection(k100, method, dom)
    states = [a["data-state"] for a in dom.rows.values()]
    # a middle method has methods on every side: the check saw each kind of verdict
    if position == 49:
        assert {"better", "worse", "same"} <= set(states)


@needs_chromium
@pytest.mark.parametrize(
    "kws",
    [
        pytest.param({"test": "wilcoxon"}, id="wilcoxon-holm"),
        pytest.param({"test": "bonferroni-dunn", "control": "method 050"}, id="bonferroni-dunn"),
    ],
)
def test_chromium_selection_for_other_tests(kws, tmp_path):
    result = cdplot.compare(_scores(100), **kws)
    method = "method 050"
    dom = _open_selected(result, method, tmp_path)
    _check_selection(result, method, dom)
    if "control" in kws:
        other = _open_selected(result, "method 020", tmp_path)
        _check_selection(result, "method 020", other)
        assert {a["data-state"] for a in other.rows.values()} >= {"untested"}


@needs_chromium
def test_chromium_keeps_hostile_names_as_text(tmp_path):
    names = ["</script><img src=x onerror=document.title='x'>", "a & b", "<!--", "d", "e"]
    result = cdplot.compare(_scores(5, names=names))
    dom = _open_selected(result, names[0], tmp_path)
    assert "img" not in dom.tags
    _check_selection(result, names[0], dom)


@needs_chromium
def test_chromium_screenshot_at_k200_draws_every_row(tmp_path):
    # k = 200 on a phone-sized window: the page lays out and the drawing is there whole
    result = cdplot.compare(_scores(200, seed=200))
    path = tmp_path / "view.html"
    cdplot.cd_explorer(result, path=path)
    shot = tmp_path / "k200.png"
    _chromium(["--window-size=500,900", f"--screenshot={shot}", path.as_uri()], tmp_path)
    assert shot.stat().st_size > 10_000
    dom = _open_selected(result, result.order()[100], tmp_path)
    _check_selection(result, result.order()[100], dom)
