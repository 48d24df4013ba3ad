// cdplot's interactive explorer (cdplot/plot/_explorer.py): selection, search and zoom.
// It runs inside the explorer's own <div> and touches nothing outside it but the address's
// "#select=NAME".  Names are data: read from the JSON block, written with textContent only.
(function () {
  "use strict";
  var root = document.currentScript.parentNode;
  var data = JSON.parse(root.querySelector("script.cdx-data").textContent);
  var k = data.methods.length;
  var svg = root.querySelector("svg.cdx-svg");
  var box = root.querySelector(".cdx-box");
  var summary = root.querySelector(".cdx-summary");
  var found = root.querySelector(".cdx-found");
  var search = root.querySelector(".cdx-search");
  var rows = [], cells = [], groups = root.querySelectorAll("g.group");
  svg.querySelectorAll("g.m").forEach(function (g) {
    rows[+g.getAttribute("data-i")] = {svg: g, text: g.querySelector(".verdict")};
  });
  root.querySelectorAll(".cdx-table tbody tr").forEach(function (tr) {
    var i = +tr.getAttribute("data-i");
    rows[i].tr = tr;
    cells[i] = {verdict: tr.querySelector(".verdict"), p: tr.querySelector(".p")};
  });
  var index = {};
  data.methods.forEach(function (m, i) { index[m] = i; });
  var groupsOf = data.methods.map(function () { return []; });
  data.groups.forEach(function (g, c) { g.forEach(function (i) { groupsOf[i].push(c); }); });
  var WORDS = {
    better: "significantly better", worse: "significantly worse",
    differs: "differs significantly", same: "not significantly different", untested: "not tested"
  };
  var pinned = null;

  // the adjusted p-value of a pair, stored once per pair (i < j), row by row
  function pvalue(i, j) {
    if (i > j) { var t = i; i = j; j = t; }
    return data.p[i * (2 * k - i - 1) / 2 + (j - i - 1)];
  }
  // what method j is against the selected method i (relation: row j's verdict on column i)
  function state(i, j) {
    if (i === j) return "sel";
    var c = data.relation[j].charAt(i);
    return c === "+" ? "better" : c === "-" ? "worse" : c === "!" ? "differs"
      : c === "=" ? "same" : "untested";
  }
  function pText(p) { return p.charAt(0) === "<" ? "p < " + p.slice(1) : "p = " + p; }
  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }
  // [1, 2, 3, 7] as "1–3, 7": a method's groups in a line, however many
  function ranges(ns) {
    var out = [];
    for (var a = 0; a < ns.length; a++) {
      var b = a;
      while (b + 1 < ns.length && ns[b + 1] === ns[b] + 1) b++;
      out.push(b > a ? ns[a] + "–" + ns[b] : String(ns[a]));
      a = b;
    }
    return out.join(", ");
  }

  function show(i) {
    var count = {better: 0, worse: 0, differs: 0, same: 0, untested: 0};
    for (var j = 0; j < k; j++) {
      var s = i === null ? "" : state(i, j);
      var p = s === "" || s === "sel" || s === "untested" ? "" : pvalue(i, j);
      rows[j].svg.setAttribute("data-state", s);
      rows[j].tr.setAttribute("data-state", s);
      rows[j].text.textContent = s === "" ? "" : s === "sel" ? "selected"
        : p ? WORDS[s] + ", " + pText(p) : WORDS[s];
      cells[j].verdict.textContent = s === "" ? "" : s === "sel" ? "selected" : WORDS[s];
      cells[j].p.textContent = p;
      if (s in count) count[s]++;
    }
    groups.forEach(function (g) {
      var c = +g.getAttribute("data-c");
      g.setAttribute("data-member", i === null ? "" : groupsOf[i].indexOf(c) >= 0 ? "1" : "0");
    });
    if (i === null) { summary.textContent = "No method selected."; return; }
    var gs = groupsOf[i].map(function (c) { return c + 1; });
    var text = data.methods[i] + " (average rank " + data.ranks[i].toFixed(3) + "; " +
      (gs.length ? (gs.length === 1 ? "group " : "groups ") + ranges(gs)
        : data.groups.length ? "in no group" : "no groups formed") + "): " +
      "significantly better than " + plural(count.worse, "method") +
      ", significantly worse than " + count.better +
      (count.differs ? ", different (no side) from " + count.differs : "") +
      ", not significantly different from " + count.same +
      (count.untested ? "; " + count.untested + " not tested" : "") +
      " (" + data.procedure + ", adjusted p-values).";
    summary.textContent = text;
  }

  function select(i, remember) {
    pinned = i;
    show(i);
    if (!remember) return;
    try {
      var url = location.pathname + location.search;
      history.replaceState(null, "", i === null ? url : url + "#select=" +
        encodeURIComponent(data.methods[i]));
    } catch (e) { /* a page without an address of its own (srcdoc): nothing to remember */ }
  }
  function fromAddress() {
    var h = location.hash;
    if (h.indexOf("#select=") !== 0) return false;
    var name;
    try { name = decodeURIComponent(h.slice(8)); } catch (e) { return false; }
    if (!(name in index)) return false;
    select(index[name], false);
    reveal(index[name]);
    return true;
  }

  // scroll the drawing's own box (never the page) to show row j in its middle
  function reveal(j) {
    var scale = svg.getBoundingClientRect().width / base;
    var y = +rows[j].svg.querySelector(".hit").getAttribute("y") * scale;
    box.scrollTop = Math.max(0, y - box.clientHeight / 2);
  }
  function target(e) {
    var el = e.target.closest ? e.target.closest("[data-i]") : null;
    return el && root.contains(el) ? +el.getAttribute("data-i") : null;
  }
  [svg, root.querySelector(".cdx-table")].forEach(function (area) {
    area.addEventListener("pointerover", function (e) {
      if (e.pointerType !== "mouse") return;  // a finger taps (click) instead
      var i = target(e);
      if (i !== null) show(i);
    });
    area.addEventListener("pointerleave", function () { show(pinned); });
    area.addEventListener("click", function (e) {
      var i = target(e);
      if (i !== null) select(i === pinned ? null : i, true);
    });
    area.addEventListener("keydown", function (e) {
      if (e.key !== "Enter" && e.key !== " ") return;
      var i = target(e);
      if (i !== null) { e.preventDefault(); select(i === pinned ? null : i, true); }
    });
  });

  search.addEventListener("input", function () {
    var q = search.value.trim().toLowerCase(), n = 0;
    for (var j = 0; j < k; j++) {
      var hit = q === "" || data.methods[j].toLowerCase().indexOf(q) >= 0;
      if (hit) n++;
      var mark = q === "" ? "" : hit ? "1" : "0";
      rows[j].svg.setAttribute("data-match", mark);
      rows[j].tr.setAttribute("data-match", mark);
    }
    found.textContent = q === "" ? "" : n + " of " + k + " match";
  });
  search.addEventListener("keydown", function (e) {
    if (e.key !== "Enter") return;
    var q = search.value.trim().toLowerCase();
    for (var pos = 0; pos < k && q; pos++) {
      var j = data.order[pos];
      if (data.methods[j].toLowerCase().indexOf(q) >= 0) {
        select(j, true);
        reveal(j);
        return;
      }
    }
  });

  // zoom: the drawing's width in CSS pixels (its viewBox keeps the proportions)
  var base = +svg.getAttribute("data-width"), zoom = 1;
  function setZoom(z) {
    zoom = Math.max(0.1, Math.min(8, z));
    svg.style.width = (base * zoom).toFixed(1) + "px";
    svg.style.height = "auto";
  }
  root.querySelectorAll("[data-zoom]").forEach(function (b) {
    b.addEventListener("click", function () {
      var what = b.getAttribute("data-zoom");
      if (what === "in") setZoom(zoom * 1.25);
      else if (what === "out") setZoom(zoom / 1.25);
      else if (what === "fit") setZoom((box.clientWidth - 2) / base);
      else if (what === "one") setZoom(1);
      else select(null, true);
    });
  });
  box.addEventListener("wheel", function (e) {
    if (!e.ctrlKey) return;  // a plain wheel scrolls; Ctrl and the wheel zoom
    e.preventDefault();
    setZoom(zoom * (e.deltaY < 0 ? 1.15 : 1 / 1.15));
  }, {passive: false});

  window.addEventListener("hashchange", fromAddress);
  if (!fromAddress() && data.highlight !== null && data.highlight in index) {
    select(index[data.highlight], false);
  }
})();
