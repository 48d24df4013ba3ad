"""The HTML report in a real browser: headless Chromium at desktop and phone widths (issue 9).

A copy of the report gets a measuring script and a Content-Security-Policy
that forbids every fetch except ``data:`` URLs; Chromium loads it, the
script writes its measurements into the DOM, and ``--dump-dom`` hands them
back.  The report itself carries no script.  Checked at 1280 x 800 and
420 x 900: the page never scrolls sideways and nothing sticks out of its
container (wide tables and figures scroll inside their own box), no text
(HTML or SVG, as drawn) is under 9 CSS pixels, and the browser fetched
nothing and reported no policy violation.  Screenshots are kept beside the
test's temporary files.
"""

from __future__ import annotations

import html as html_lib
import json
import re
import shutil
import subprocess

import numpy as np
import pytest
from model_zoo_names import CLASS_NAMES

import cdplot
from cdplot.io import ScoreTable
from cdplot.reporting import render_html
from cdplot.stats._parametric import AutoResult, compare_auto

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="Chromium is missing (Debian package chromium): the HTML report is not checked in a "
    "browser",
)

# a desktop, a small tablet or large phone, and an iPhone 12-15's 390 x 844 CSS pixels
SIZES = [(1280, 800), (420, 900), (390, 844)]

_POLICY = (
    '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
    "style-src 'unsafe-inline'; font-src data:; img-src data:; script-src 'unsafe-inline'\">"
)

# at most this wide a screen is a phone's (report.css: 40rem at the phone's 14 px)
PHONE_PX = 640

# runs once the fonts are in; writes its findings as JSON into <pre id="cdplot-measure">
_SCRIPT = r"""
<script>
const PHONE_PX = 640;
const violations = [];
document.addEventListener("securitypolicyviolation", e => violations.push(e.blockedURI));
function scrolls(el) {
  const s = getComputedStyle(el);
  return s.overflowX !== "visible" && s.overflowX !== "clip";
}
function measure() {
  const out = {violations, resources: performance.getEntriesByType("resource").map(e => e.name),
               pageWidth: document.documentElement.scrollWidth, viewport: window.innerWidth,
               sticksOut: [], small: []};
  const body = document.body.getBoundingClientRect();
  for (const el of document.body.querySelectorAll("*")) {
    if (el.closest("svg") && el.tagName.toLowerCase() !== "svg") continue;
    // what lies in a box that scrolls sideways (a wide table, a figure kept legible) may be
    // wider than that box; everything else, the boxes that scroll included, stays in the body
    let box = el.parentElement;
    while (box && box !== document.body && !scrolls(box)) box = box.parentElement;
    if (box && box !== document.body) continue;
    const r = el.getBoundingClientRect();
    const limit = body;
    if (r.width > 0 && (r.right > limit.right + 1 || r.left < limit.left - 1))
      out.sticksOut.push(el.tagName + "." + el.className + " " + Math.round(r.left) + "-" +
                         Math.round(r.right) + " in " + Math.round(limit.left) + "-" +
                         Math.round(limit.right));
  }
  for (const el of document.body.querySelectorAll("*")) {
    if (el.closest("svg")) continue;
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own || el.getClientRects().length === 0) continue;
    const px = parseFloat(getComputedStyle(el).fontSize);
    if (px < 9) out.small.push(el.tagName + " " + px.toFixed(1) + "px: " +
                               el.textContent.trim().slice(0, 40));
  }
  // a phone shows each figure whole, scaled to the screen (issue 27): measured as drawn
  const phone = window.innerWidth <= PHONE_PX;
  out.figures = [...document.querySelectorAll(".figure-scroll")].map(el => {
    const r = el.querySelector(".svg-box").getBoundingClientRect();
    return {scroll: el.scrollWidth - el.clientWidth, left: r.left, right: r.right};
  });
  for (const svg of document.querySelectorAll("svg")) {
    // there a figure's type is as small as the scale makes it: a pinch enlarges it
    if (phone && svg.closest(".svg-box")) continue;
    const vb = svg.viewBox.baseVal;
    if (!vb || !vb.width) continue;
    const scale = svg.getBoundingClientRect().width / vb.width;
    for (const t of svg.querySelectorAll("text")) {
      if (!t.textContent.trim()) continue;
      // the size as drawn: font size in user units, times the text's own transform and the
      // figure's scale on the page
      const m = t.getCTM();
      const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b) /
                 (svg.getScreenCTM() ? Math.hypot(svg.getScreenCTM().a, svg.getScreenCTM().b) : 1)
                 * scale;
      if (px < 9) out.small.push("svg text " + px.toFixed(1) + "px: " + t.textContent.trim());
    }
  }
  report(out);
}
// the report runs in a frame of the page's width; the page around it is what --dump-dom shows
function report(out) {
  const doc = window.parent.document;
  const pre = doc.createElement("pre");
  pre.id = "cdplot-measure";
  pre.textContent = JSON.stringify(out);
  doc.body.appendChild(pre);
}
function run() {
  try { measure(); } catch (err) { report({error: String(err)}); }
}
window.addEventListener("load", () => document.fonts.ready.then(() => setTimeout(run, 50)));
</script>
"""


def _chromium(args, tmp_path):
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
    )


def _long_names(k: int, n: int) -> ScoreTable:
    rng = np.random.default_rng(30)
    base = [
        "Gradient boosting (500 trees; depth 6)",
        "k-nearest neighbours (k = 15; distance-weighted)",
        "Support vector machine (RBF kernel; γ = scale)",
        "Multilayer perceptron (2 × 256 units; Adam)",
        "Naïve Bayes (Gaussian)",
    ]
    names = [f"{base[i % 5]} · variant {i // 5 + 1}" for i in range(k)]
    values = np.linspace(0.8, 0.7, k)[None, :] + rng.normal(0, 0.03, (n, k))
    return ScoreTable(
        values=np.round(values, 4), methods=names, datasets=[f"dataset-{d:02d}" for d in range(n)]
    )


def _anova() -> AutoResult:
    # normal noise around a linear trend: compare_auto takes the parametric path, whose
    # tables (ANOVA, means, every Tukey pair) hold the long names
    auto = compare_auto(_long_names(8, 40))
    assert auto.path == "parametric"
    return auto


def _one_word_names(k: int, n: int) -> ScoreTable:
    # class names of one long word each: the data table turns them upright (report.css)
    table = _long_names(k, n)
    return ScoreTable(values=table.values, methods=CLASS_NAMES[:k], datasets=table.datasets)


CASES = {
    "demsar": lambda: cdplot.load_example("demsar2006"),
    "k30": lambda: _long_names(30, 40),
    # the CD diagram and the rank intervals of 60 methods are drawn for the screen, whole and
    # at the text width (the PDF turns the one to a landscape page and cuts the other in two)
    "k60": lambda: _long_names(60, 40),
    "anova": _anova,
    "turned": lambda: _one_word_names(8, 14),
}


@pytest.fixture(scope="module", params=sorted(CASES))
def page(request, tmp_path_factory):
    folder = tmp_path_factory.mktemp(f"browser-{request.param}")
    html = render_html(CASES[request.param](), date="2026-01-01")
    # the report itself runs nothing but the interactive explorer of 30 or more methods
    explorers = html.count('<div class="cdx" ')
    assert (
        re.findall(r"<script\b[^>]*>", html)
        == [
            '<script type="application/json" class="cdx-data">',
            "<script>",
        ]
        * explorers
    )
    assert explorers == (1 if request.param in ("k30", "k60") else 0)
    (folder / "report.html").write_text(html, encoding="utf-8")
    probe = html.replace("<head>", "<head>\n" + _POLICY, 1).replace(
        "</body>", _SCRIPT + "</body>", 1
    )
    return request.param, folder, probe


def _frame(html: str, width: int, height: int) -> str:
    """A page showing ``html`` in a frame exactly ``width`` x ``height`` CSS pixels.

    Headless Chromium makes no window narrower than 500 px, so a phone's
    420 px is a frame; ``srcdoc`` keeps the frame's origin that of the page,
    which lets the frame write its findings into the page.
    """
    import html as h

    return (
        '<!DOCTYPE html><html><head><meta charset="utf-8">'
        + _POLICY
        + '</head><body style="margin:0"><iframe style="border:0;display:block" '
        + f'width="{width}" height="{height}" srcdoc="{h.escape(html, quote=True)}"></iframe>'
        + "</body></html>"
    )


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_report_fits_and_reads_in_chromium(page, width, height, tmp_path):
    name, folder, probe = page
    window = f"--window-size={max(width, 500)},{height}"
    shown = folder / f"{name}-{width}x{height}.html"
    shown.write_text(_frame((folder / "report.html").read_text("utf-8"), width, height), "utf-8")
    shot = folder / f"{name}-{width}x{height}.png"
    _chromium([window, f"--screenshot={shot}", shown.as_uri()], tmp_path)
    assert shot.stat().st_size > 0
    path = folder / f"probe-{width}x{height}.html"
    path.write_text(_frame(probe, width, height), encoding="utf-8")
    dom = _chromium(
        [window, "--virtual-time-budget=15000", "--dump-dom", path.as_uri()], tmp_path
    ).stdout.decode("utf-8")
    found = re.search(r'<pre id="cdplot-measure">(.*?)</pre>', dom, re.S)
    assert found, "the measuring script did not run"
    m = json.loads(html_lib.unescape(found.group(1)))
    assert "error" not in m, m.get("error")
    assert m["violations"] == []
    assert m["resources"] == []
    assert m["viewport"] == width
    assert m["pageWidth"] <= m["viewport"], "the page scrolls sideways"
    assert m["sticksOut"] == []
    assert m["small"] == []
    if width <= PHONE_PX:
        # every figure whole on the screen: none scrolls, none reaches past the viewport
        for fig in m["figures"]:
            assert fig["scroll"] <= 1, fig
            assert fig["left"] >= -1, fig
            assert fig["right"] <= width + 1, fig
