"""CD diagrams: SVG structure, text extents measured by the renderer, options and errors."""

import re

import matplotlib as mpl
import numpy as np
import pytest
from svg_checks import SVG, svg_groups, svg_root, svg_texts, synthetic_table

import cdplot
from cdplot.errors import CdplotError, CdplotWarning
from cdplot.plot._save import _rc


def text_extents(ax):
    """Window extents of every visible text, rendered as save_figure renders them."""
    fig = ax.figure
    with mpl.rc_context(_rc()):
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        return [
            (t.get_text(), t.get_window_extent(renderer))
            for t in ax.texts
            if t.get_visible() and t.get_text()
        ]


def assert_no_overlap(ax):
    boxes = text_extents(ax)
    fig = ax.figure
    w, h = fig.get_size_inches() * fig.dpi
    for text, bb in boxes:
        inside = bb.x0 >= -0.5 and bb.y0 >= -0.5 and bb.x1 <= w + 0.5 and bb.y1 <= h + 0.5
        assert inside, f"{text!r} is clipped"
    for i, (ta, a) in enumerate(boxes):
        for tb, b in boxes[i + 1 :]:
            overlap_x = min(a.x1, b.x1) - max(a.x0, b.x0)
            overlap_y = min(a.y1, b.y1) - max(a.y0, b.y0)
            assert overlap_x <= 0.5 or overlap_y <= 0.5, f"{ta!r} overlaps {tb!r}"


def test_demsar_svg_structure(demsar):
    ax = cdplot.cd_diagram(demsar)
    root = svg_root(ax)
    texts = svg_texts(root)
    for name in demsar.methods:
        assert texts.count(name) == 1
    assert len(svg_groups(root, "cd-elbow-")) == demsar.n_methods
    assert len(svg_groups(root, "cd-clique-")) == len(demsar.cliques)
    assert len(svg_groups(root, "cd-cd-bar")) == 1
    assert any("CD\u00a0=\u00a01.25" in t or "CD = 1.25" in t for t in texts)


@pytest.mark.parametrize("k", range(2, 51))
def test_no_text_overlaps_for_2_to_50_methods(k):
    # long unicode names, two methods tied, several stacked cliques
    res = cdplot.compare(synthetic_table(k, n=12, seed=k, ties=k >= 3))
    ax = cdplot.cd_diagram(res)
    assert_no_overlap(ax)
    root = svg_root(ax)
    # every method is named once: in full, wrapped, or shortened with its full name in the key
    texts = svg_texts(root)
    for i, m in enumerate(res.methods):
        (group,) = [g for g in svg_groups(root, "cd-name-") if g.get("id") == f"cd-name-{i}"]
        shown = " ".join("".join(t.itertext()) for t in group.iter(f"{SVG}text"))
        key = [t for t in texts if t.endswith(m)]
        assert shown.replace("\n", " ") == m or " ".join(shown.split()) == m or key
    assert len(svg_groups(root, "cd-elbow-")) == k
    assert len(svg_groups(root, "cd-clique-")) == len(res.cliques)


@pytest.mark.parametrize("style", ["paper", "paper-wide", "slides"])
@pytest.mark.parametrize("font", ["sans", "serif"])
def test_styles_and_fonts_do_not_overlap(style, font):
    res = cdplot.compare(synthetic_table(30, seed=3))
    if style == "slides":
        # 30 long names and their key are too tall for a 13.3 in slide at 14 pt
        with pytest.warns(CdplotWarning, match="slide"):
            ax = cdplot.cd_diagram(
                res, style=style, font=font, reverse=True, highlight=res.methods[4]
            )
    else:
        ax = cdplot.cd_diagram(res, style=style, font=font, reverse=True, highlight=res.methods[4])
    assert_no_overlap(ax)
    fig = ax.figure
    w, h = fig.get_size_inches()
    if style == "slides":
        assert w >= 10.0 - 1e-9
        assert w / h == pytest.approx(16 / 9)
    else:
        assert w == pytest.approx({"paper": 3.5, "paper-wide": 7.0}[style])


def test_paper_width_is_kept_when_names_fit(demsar):
    ax = cdplot.cd_diagram(demsar)
    assert ax.figure.get_size_inches()[0] == pytest.approx(3.5)


def test_best_on_right_and_reverse(demsar):
    def x_of(ax, name):
        i = demsar.methods.index(name)
        line = next(ln for ln in ax.lines if ln.get_gid() == f"cd-elbow-{i}")
        return line.get_xdata()[0]

    ax = cdplot.cd_diagram(demsar)
    assert x_of(ax, "C4.5+m+cf") > x_of(ax, "C4.5")
    ax = cdplot.cd_diagram(demsar, reverse=True)
    assert x_of(ax, "C4.5+m+cf") < x_of(ax, "C4.5")


def test_clique_bars_never_span_an_outsider():
    res = cdplot.compare(synthetic_table(15, n=25, seed=7, long=False))
    ax = cdplot.cd_diagram(res)
    xs = {
        int(ln.get_gid().rsplit("-", 1)[1]): ln.get_xdata()[0]
        for ln in ax.lines
        if (ln.get_gid() or "").startswith("cd-elbow-")
    }
    bars = [ln for ln in ax.lines if (ln.get_gid() or "").startswith("cd-clique-")]
    assert len(bars) == len(res.cliques) > 1
    for bar, members in zip(bars, res.cliques, strict=False):
        lo, hi = sorted(bar.get_xdata())
        idx = {res.methods.index(m) for m in members}
        for i, x in xs.items():
            if i not in idx:
                assert not (lo < x < hi)


def test_bonferroni_dunn_mode(demsar):
    res = cdplot.compare(cdplot.load_example("demsar2006"), test="bonferroni-dunn", control="C4.5")
    ax = cdplot.cd_diagram(res)
    root = svg_root(ax)
    assert len(svg_groups(root, "cd-interval")) == 1
    assert svg_groups(root, "cd-cd-bar") == []
    assert svg_groups(root, "cd-clique-") == []
    name = next(t for t in ax.texts if t.get_gid() == f"cd-name-{res.methods.index('C4.5')}")
    assert name.get_fontweight() in ("bold", 700)
    # the interval is centred on the control's rank and 2 CD long (clipped to the axis)
    interval = next(ln for ln in ax.lines if ln.get_gid() == "cd-interval")
    elbow = next(ln for ln in ax.lines if ln.get_gid() == f"cd-elbow-{res.methods.index('C4.5')}")
    xs = [x for x in interval.get_xdata() if x is not None]
    assert min(xs) < elbow.get_xdata()[0] < max(xs)


def test_pairwise_test_mode_has_no_cd_bar():
    res = cdplot.compare(cdplot.load_example("demsar2006"), test="wilcoxon")
    ax = cdplot.cd_diagram(res)
    root = svg_root(ax)
    assert svg_groups(root, "cd-cd-bar") == []
    assert svg_groups(root, "cd-interval") == []
    assert len(svg_groups(root, "cd-clique-")) == len(res.cliques)


def test_optional_parts(demsar):
    full = cdplot.cd_diagram(demsar)
    bare = cdplot.cd_diagram(demsar, ranks=False, caption=False, note=False)
    gids = [t.get_gid() for t in bare.texts]
    assert not [g for g in gids if g.startswith("cd-value-")]
    assert "cd-caption" not in gids
    assert [t for t in full.texts if t.get_gid().startswith("cd-value-")]
    assert bare.figure.get_size_inches()[1] < full.figure.get_size_inches()[1]


def test_note_lists_relations_bars_cannot_show():
    # B ties with A; A-C not significant, B-C significant is impossible for CD tests, so fake the
    # result's relations through a real one with bridges: a wide spread of ranks at k = 12
    res = cdplot.compare(synthetic_table(12, n=40, seed=1, long=False))
    if not (res.bridges or res.unjoined):
        pytest.skip("no relation the bars cannot show in this sample")
    ax = cdplot.cd_diagram(res)
    notes = " ".join(t.get_text() for t in ax.texts if t.get_gid() == "cd-note")
    assert "share no bar" in notes or "No bar joins" in notes
    ax = cdplot.cd_diagram(res, note=False)
    assert not [t for t in ax.texts if t.get_gid() == "cd-note"]


def _wilcoxon_k45(long: bool, n: int = 30):
    """The sweep's k = 45 Wilcoxon-Holm case (tests/plot/test_sweep.py, seed 45): at N = 30
    no bar joins 65 pairs that do not differ, at N = 300 one."""
    from cdplot.io import ScoreTable

    k = 45
    rng = np.random.default_rng(k)
    values = 0.7 + np.linspace(0.08, 0.0, k)[None, :] + rng.normal(0, 0.03, (n, k))
    # the sweep's 60-character names, with natural break points
    names = [
        (f"Model {i:03d} gradient boosted trees (depth 6; lr 0.05), tuned" + " x" * 30)[:60]
        if long
        else f"M{i}"
        for i in range(k)
    ]
    table = ScoreTable(values=values, methods=names, datasets=[f"d{j}" for j in range(n)])
    return cdplot.compare(table, test="wilcoxon", correction="holm")


def _note_text(ax) -> str:
    return " ".join(" ".join(t.get_text() for t in ax.texts if t.get_gid() == "cd-note").split())


def test_notes_name_methods_by_their_key_tags_when_labels_are_shortened():
    # issue 27, 6: at k = 45 with 60-character names the labels carry [n] tags, and the
    # notes spelt the full names out again (14 note lines; 9 with tags)
    from cdplot.plot._critical_difference import ALL_PAIRS

    res = _wilcoxon_k45(long=True)
    assert len(res.unjoined) > 4
    ax = cdplot.cd_diagram(res)
    lines = [t.get_text() for t in ax.texts if t.get_gid() == "cd-note"]
    notes = _note_text(ax)
    assert "boosted" not in notes
    key = [t.get_text() for t in ax.texts if t.get_gid() == "cd-key"]
    tag_of = {entry.split("\u00a0", 1)[1]: entry.split("\u00a0", 1)[0] for entry in key}
    a, b = res.unjoined[0]
    assert f"No bar joins {tag_of[a]} and {tag_of[b]}, " in notes
    named = set(re.findall(r"\[\d+\]", notes))
    assert named
    assert named <= set(tag_of.values())
    # the list was cut: one sentence says where every pair is shown
    assert " ".join(ALL_PAIRS.split()) in notes
    assert len(lines) <= 9
    assert_no_overlap(ax)


def test_notes_name_methods_by_name_when_labels_are_not_shortened():
    res = _wilcoxon_k45(long=False)
    ax = cdplot.cd_diagram(res)
    assert not [t for t in ax.texts if t.get_gid() == "cd-key"]
    notes = _note_text(ax)
    a, b = res.unjoined[0]
    assert f"No bar joins {a} and {b}, " in notes
    assert not re.search(r"\[\d+\]", notes)


@pytest.mark.parametrize("n_unjoined", [0, 1, 4, 5, 65])
@pytest.mark.parametrize("n_bridges", [0, 1, 280])
def test_pointer_to_all_pairs_exactly_when_the_unjoined_list_is_cut(n_unjoined, n_bridges):
    # "a, b, c and 2 more" from 5 pairs on; bridges are shown by the bars (methods that
    # share no bar differ) and need no pointer however many there are
    from types import SimpleNamespace

    from cdplot.plot._critical_difference import ALL_PAIRS, _notes
    from cdplot.plot._layout import note_text

    methods = [f"m{i}" for i in range(80)]
    res = SimpleNamespace(
        methods=methods,
        control=None,
        unjoined=[(methods[0], methods[i + 1]) for i in range(n_unjoined)],
        bridges=[(methods[70], methods[71], methods[72])] * n_bridges,
    )
    text = " ".join(note_text(n, {}) for n in _notes(res, control_mode=False))
    assert text.count(ALL_PAIRS) == (1 if n_unjoined > 4 else 0)
    assert ("more" in text) == (n_unjoined > 4)


def test_pointer_absent_when_every_unjoined_pair_is_named():
    from cdplot.plot._critical_difference import ALL_PAIRS

    res = _wilcoxon_k45(long=True, n=300)
    assert len(res.unjoined) == 1
    notes = _note_text(cdplot.cd_diagram(res))
    assert "No bar joins" in notes
    assert " ".join(ALL_PAIRS.split()) not in notes


def test_raw_scores_with_compare_options():
    values = np.array([[0.9, 0.8, 0.7], [0.85, 0.8, 0.6], [0.95, 0.7, 0.75], [0.9, 0.85, 0.7]] * 3)
    ax = cdplot.cd_diagram(values, compare_kws={"alpha": 0.1, "methods": ["a", "b", "c"]})
    assert sorted(t.get_text() for t in ax.texts if t.get_gid().startswith("cd-name")) == [
        "a",
        "b",
        "c",
    ]


def test_draws_into_given_axes_and_leaves_rcparams(demsar):
    import matplotlib.pyplot as plt

    before = dict(mpl.rcParams)
    fig, (a1, a2) = plt.subplots(2, 1, figsize=(6, 5))
    out = cdplot.cd_diagram(demsar, ax=a2)
    assert out is a2
    assert not a1.texts
    assert dict(mpl.rcParams) == before
    assert_no_overlap(a2)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"style": "poster"}, "style='poster'"),
        ({"font": "comic"}, "font='comic'"),
        ({"highlight": "nope"}, "highlight='nope'"),
        ({"reverse": "yes"}, "reverse='yes'"),
        ({"ranks": 1}, "ranks=1"),
        ({"label_kws": {"fontfamily": "serif"}}, "label_kws"),
        ({"label_kws": {"fontsize": 3}}, "label_kws"),
        ({"label_kws": {"size": "enormous"}}, "label_kws"),
        ({"compare_kws": {"alpha": 0.1}}, "alpha=0.1"),
        ({"compare_kws": [("alpha", 0.1)]}, "compare_kws="),
        ({"ax": "not an axes"}, "ax="),
    ],
)
def test_bad_options_raise_one_line_errors(demsar, kwargs, match):
    with pytest.raises(CdplotError, match=match) as info:
        cdplot.cd_diagram(demsar, **kwargs)
    assert "\n" not in str(info.value)


def test_method_names_with_dollars_are_not_maths():
    from cdplot.io import ScoreTable

    t = ScoreTable(
        values=[[1, 2], [2, 3], [1, 3]], methods=["$x$ model", "50% off"], datasets=list("abc")
    )
    ax = cdplot.cd_diagram(t)
    texts = svg_texts(svg_root(ax))
    assert "$x$ model" in texts
    assert "50% off" in texts


def _bar_ends(ax):
    return {
        ln.get_gid(): sorted(ln.get_xdata())
        for ln in ax.lines
        if (ln.get_gid() or "").startswith("cd-clique-")
    }


def test_issue_example_bar_stops_before_a_significantly_different_method():
    # issue 8: 20 methods x 30 data sets, Nemenyi; the bar over ranks 8.27-13.63 used to
    # reach the line of a method at 13.80 that differs from a member
    from test_sweep import bars_over_outsiders

    for seed in range(4):
        res = cdplot.compare(synthetic_table(20, n=30, seed=seed, long=False))
        ax = cdplot.cd_diagram(res)
        assert bars_over_outsiders(ax, res) == []


def test_control_mode_draws_no_groups_even_when_the_result_has_some():
    import dataclasses

    res = cdplot.compare(cdplot.load_example("demsar2006"), test="bonferroni-dunn", control="C4.5")
    # whatever the statistics report, a test against a control tested no other pair
    claimed = dataclasses.replace(res, cliques=(tuple(res.methods[:3]),))
    ax = cdplot.cd_diagram(claimed)
    assert not _bar_ends(ax)
    words = " ".join(t.get_text() for t in ax.texts if t.get_gid() in ("cd-note", "cd-caption"))
    assert "only pairs with the control" in " ".join(words.split()).lower()
    assert "joined by a bar" not in words


def test_control_mode_marks_differing_methods_without_colour():
    res = cdplot.compare(cdplot.load_example("demsar2006"), test="bonferroni-dunn", control="C4.5")
    ax = cdplot.cd_diagram(res)
    differ = [m for m in res.methods if m != "C4.5" and res.is_significant(m, "C4.5")]
    assert differ  # C4.5+m+cf differs from C4.5 in Demsar's Table 6 data
    names = {t.get_gid(): t.get_text() for t in ax.texts}
    for m in res.methods:
        label = names[f"cd-name-{res.methods.index(m)}"]
        assert label.endswith("\u2020") == (m in differ)
    notes = " ".join(t.get_text() for t in ax.texts if t.get_gid() == "cd-note")
    assert "marked \u2020" in notes


@pytest.mark.parametrize("draw", [cdplot.cd_diagram, cdplot.rank_intervals])
def test_highlighting_a_non_control_method_in_control_mode_is_an_error(draw):
    res = cdplot.compare(cdplot.load_example("demsar2006"), test="bonferroni-dunn", control="C4.5")
    with pytest.raises(CdplotError, match="highlight='C4.5\\+m'.*only pairs with the control"):
        draw(res, highlight="C4.5+m")
    draw(res, highlight="C4.5")  # the control itself is fine


def test_fixed_widths_and_minimum_type_for_long_names():
    res = cdplot.compare(synthetic_table(50, n=30, seed=5))
    for style, inches in (("paper", 3.5), ("paper-wide", 7.0)):
        ax = cdplot.cd_diagram(res, style=style)
        assert ax.figure.get_size_inches()[0] == pytest.approx(inches)
        assert min(t.get_fontsize() for t in ax.texts) >= 6.0
    ax = cdplot.cd_diagram(res, width=5.0)
    assert ax.figure.get_size_inches()[0] == pytest.approx(5.0)
    with pytest.raises(CdplotError, match="width="):
        cdplot.cd_diagram(res, width=0.1)


def test_axis_spans_occupied_ranks_with_a_break_and_full_axis_restores_it():
    res = cdplot.compare(synthetic_table(50, n=30, seed=5, long=False))
    ax = cdplot.cd_diagram(res)
    ticks = [int(t.get_text()) for t in ax.texts if t.get_gid() == "cd-tick"]
    assert min(ticks) == int(min(res.average_ranks)) > 1
    assert max(ticks) == int(np.ceil(max(res.average_ranks))) < 50
    assert [ln for ln in ax.lines if ln.get_gid() == "cd-axis-break"]
    full = cdplot.cd_diagram(res, full_axis=True, style="paper-wide")
    ticks = [int(t.get_text()) for t in full.texts if t.get_gid() == "cd-tick"]
    assert (min(ticks), max(ticks)) == (1, 50)
    assert not [ln for ln in full.lines if ln.get_gid() == "cd-axis-break"]


def test_stable_gids_name_svg_elements(demsar):
    root = svg_root(cdplot.cd_diagram(demsar))
    ids = {g.get("id") for g in root.iter(f"{SVG}g")}
    k = demsar.n_methods
    for i in range(k):
        assert {f"cd-name-{i}", f"cd-elbow-{i}", f"cd-value-{i}"} <= ids
    assert {"cd-cd-bar", "cd-axis", "cd-ticks", "cd-markers", "cd-caption"} <= ids
    assert {f"cd-clique-{j}" for j in range(len(demsar.cliques))} <= ids


def test_text_colours_meet_wcag_aa(demsar):
    from matplotlib.colors import to_rgb

    def luminance(c):
        lin = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in to_rgb(c)]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    res = cdplot.compare(cdplot.load_example("demsar2006"), test="bonferroni-dunn", control="C4.5")
    for ax in (cdplot.cd_diagram(demsar), cdplot.cd_diagram(res), cdplot.rank_intervals(res)):
        for t in ax.texts:
            contrast = 1.05 / (luminance(t.get_color()) + 0.05)
            assert contrast >= 4.5, (t.get_text(), t.get_color())


def test_regular_and_bold_faces_are_real_files_not_synthesised(demsar):
    from matplotlib.font_manager import findfont

    ax = cdplot.cd_diagram(demsar, highlight="C4.5")
    for t in ax.texts:
        assert t.get_fontstyle() == "normal"  # no italics anywhere
        path = findfont(t.get_fontproperties())
        assert ("Bold" in path) == (t.get_fontweight() in ("bold", 700))


def test_tie_with_an_outsider_is_explained_even_without_notes():
    # gallery/data/tied-outsider.csv: under Wilcoxon + Holm, kNN has exactly LR's average
    # rank (4.219) but is not in LR's group with SVM and RF
    import importlib.util
    from pathlib import Path

    gallery = Path(__file__).resolve().parents[2] / "gallery" / "make_gallery.py"
    spec = importlib.util.spec_from_file_location("make_gallery", gallery)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    import tempfile

    path = module.write_tied_outsider(Path(tempfile.mkdtemp()) / "tied.csv")
    res = cdplot.compare(path, test="wilcoxon")
    assert res.average_rank("kNN") == res.average_rank("LR")
    ax = cdplot.cd_diagram(res, note=False)  # as the report draws it
    notes = " ".join(" ".join(t.get_text() for t in ax.texts if t.get_gid() == "cd-note").split())
    assert "kNN has the same average rank as LR but is not in its group" in notes
    from test_sweep import bars_over_outsiders

    assert bars_over_outsiders(ax, res) == []


def _grid_result(k):
    # the sweep's table (tests/plot/test_sweep.py): k methods M0..M{k-1}, N = 30
    from cdplot.io import ScoreTable

    rng = np.random.default_rng(k)
    values = 0.7 + np.linspace(0.08, 0.0, k)[None, :] + rng.normal(0, 0.03, (30, k))
    names = [f"M{i}" for i in range(k)]
    return cdplot.compare(
        ScoreTable(values=values, methods=names, datasets=[f"d{j}" for j in range(30)])
    )


def test_default_subplot_grid_is_legible_up_to_20_methods():
    # issue 27, 1: plt.subplots(2, 2) at matplotlib's 6.4 x 4.8 in; before, every panel
    # warned, 245 text boxes overlapped and k = 20 used [n] keys for three-letter names
    import warnings

    import matplotlib.pyplot as plt

    fig, axs = plt.subplots(2, 2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for ax, k in zip(axs.flat[:3], (4, 10, 20), strict=True):
            cdplot.cd_diagram(_grid_result(k), ax=ax)
    assert [str(w.message) for w in caught] == []
    tick = mpl.font_manager.FontProperties(size=mpl.rcParams["xtick.labelsize"])
    for ax in axs.flat[:3]:
        assert_no_overlap(ax)
        assert not [t for t in ax.texts if (t.get_gid() or "").startswith("cd-key")]
        sizes = {t.get_fontsize() for t in ax.texts}
        assert min(sizes) >= 6.0
    # k = 4 reads like the figure around it: names at the tick labels' size
    names = [t for t in axs[0, 0].texts if t.get_gid().startswith("cd-name-")]
    assert {t.get_fontsize() for t in names} == {tick.get_size_in_points()}
    with pytest.warns(CdplotWarning) as record:
        cdplot.cd_diagram(_grid_result(45), ax=axs[1, 1])
    assert len(record) == 1
    assert re.search(
        r"45 methods does not fit .* needs about \d+\.\d\d x \d+\.\d\d in", str(record[0].message)
    )


def test_demsar_names_are_whole_in_a_7_by_6_grid(demsar):
    import matplotlib.pyplot as plt

    fig, axs = plt.subplots(2, 2, figsize=(7, 6))
    for ax in axs.flat:
        cdplot.cd_diagram(demsar, ax=ax)
        shown = {t.get_text() for t in ax.texts if t.get_gid().startswith("cd-name-")}
        assert shown == set(demsar.methods)
        assert_no_overlap(ax)


def test_a_figure_taller_than_its_page_warns():
    # issue 27, 2: style='paper' at k = 100 was 3.5 x 9.5 in, taller than a page's
    # 9 in of text, with no warning
    res = _grid_result(100)
    with pytest.warns(
        cdplot.FigureSizeWarning, match=r"3\.50 x \d+\.\d\d in, taller than the 9 in"
    ) as rec:
        ax = cdplot.cd_diagram(res)
    assert len(rec) == 1
    assert ax.figure.get_size_inches()[1] > 9.0
    # within its height: silent
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cdplot.cd_diagram(_grid_result(20))


def test_every_member_of_a_group_is_marked_on_its_bar():
    # issue 27, 5: with the white-gap convention alone, a member within ~1.4 pt of a
    # gapped outsider was hidden; each member now has a dot on the bar, drawn over gaps
    res = cdplot.compare(synthetic_table(30, seed=3, ties=True))
    ax = cdplot.cd_diagram(res)
    lines = {ln.get_gid(): ln for ln in ax.lines}
    elbow_x = {
        int(g.rsplit("-", 1)[1]): ln.get_xdata()[-2] for g, ln in lines.items() if "elbow" in g
    }
    gaps = [ln for g, ln in lines.items() if g.startswith("cd-crossing-")]
    for j, clique in enumerate(res.cliques):
        bar = lines[f"cd-clique-{j}"]
        dots = lines[f"cd-members-{j}"]
        members = [res.methods.index(m) for m in clique]
        assert len(dots.get_xdata()) == len(members)
        assert sorted(dots.get_xdata()) == sorted(elbow_x[i] for i in members)
        assert set(dots.get_ydata()) == {bar.get_ydata()[0]}
        assert dots.get_zorder() > max([bar.get_zorder()] + [g.get_zorder() for g in gaps])


def test_label_fontsize_is_the_size_the_layout_starts_from(demsar):
    # autorank #26 asks for exactly this (issue 29, item 4)
    def names(ax):
        return [t for t in ax.texts if (t.get_gid() or "").startswith("cd-name")]

    plain = cdplot.cd_diagram(demsar, style="paper-wide")
    assert {t.get_fontsize() for t in names(plain)} == {8.5}
    big = cdplot.cd_diagram(demsar, style="paper-wide", label_kws={"fontsize": 12, "color": "r"})
    assert {t.get_fontsize() for t in names(big)} == {12.0}
    assert {t.get_color() for t in names(big)} == {"r"}
    assert big.figure.get_figwidth() == plain.figure.get_figwidth()
    assert big.figure.get_figheight() > plain.figure.get_figheight()
    assert_no_overlap(big)
    # the small text keeps the style's size
    others = {t.get_fontsize() for t in big.texts if t not in names(big)}
    assert others == {t.get_fontsize() for t in plain.texts if t not in names(plain)}
    # too large for a column: shrunk to fit, still larger than the style's own size
    column = cdplot.cd_diagram(demsar, label_kws={"size": 14})
    sizes = {t.get_fontsize() for t in names(column)}
    assert len(sizes) == 1
    assert 7.5 < sizes.pop() < 14
    assert_no_overlap(column)


def test_label_fontsize_in_the_other_charts(demsar):
    res = demsar
    ax = cdplot.rank_intervals(res, label_kws={"fontsize": 9})
    assert {t.get_fontsize() for t in ax.texts if t.get_gid() == "ri-name-0"} == {9.0}
    ax = cdplot.significance_heatmap(res, style="paper-wide", label_kws={"fontsize": 9})
    labels = [t for t in ax.texts if t.get_gid() in ("hm-row-label", "hm-col-label")]
    assert labels
    assert {t.get_fontsize() for t in labels} == {9.0}


def _elbow_colours(ax):
    return {
        int(line.get_gid().rsplit("-", 1)[1]): mpl.colors.to_hex(line.get_color())
        for line in ax.lines
        if (line.get_gid() or "").startswith("cd-elbow-")
    }


def test_highlight_several_methods(demsar):
    # scikit-posthocs #90 asks for this; a list was refused (issue 29, item 3)
    from cdplot.plot._styles import PALETTE

    ax = cdplot.cd_diagram(demsar, highlight=["C4.5", "C4.5+m"])
    colours = _elbow_colours(ax)
    assert colours[0] == colours[1] == PALETTE["accent"].lower()
    assert colours[2] == colours[3] == PALETTE["line"].lower()
    bold = {t.get_text(): t.get_fontweight() for t in ax.texts if "cd-name" in t.get_gid()}
    assert bold["C4.5"] == bold["C4.5+m"] != bold["C4.5+cf"]
    assert ax.get_legend() is None
    assert_no_overlap(ax)


def test_highlight_groups_get_a_colour_each_and_a_legend(demsar, tmp_path):
    groups = {"C4.5": "ours $x$", "C4.5+m": "ours $x$", "C4.5+cf": "baselines"}
    ax = cdplot.cd_diagram(demsar, highlight=groups)
    colours = _elbow_colours(ax)
    assert colours[0] == colours[1] != colours[2]
    assert colours[3] == "#5c5c5c"
    legend = ax.get_legend()
    assert [t.get_text() for t in legend.get_texts()] == ["ours $x$", "baselines"]
    assert [mpl.colors.to_hex(h.get_color()) for h in legend.legend_handles] == [
        colours[0],
        colours[2],
    ]
    # the legend lies above the content-sized figure; the saved file keeps it and its
    # names stay text, never mathtext
    svg = cdplot.save_figure(ax, tmp_path / "groups.svg").read_text(encoding="utf-8")
    assert "ours $x$" in svg
    ax = cdplot.cd_diagram(demsar, highlight={"C4.5": "red", "C4.5+cf": "#00aa00"})
    assert _elbow_colours(ax)[0] == "#ff0000"
    assert _elbow_colours(ax)[2] == "#00aa00"
    assert ax.get_legend() is None


@pytest.mark.parametrize(
    ("highlight", "match"),
    [
        (["nope"], "'nope', which is not a method"),
        ([], "empty"),
        (["C4.5", "C4.5"], "twice"),
        ({"C4.5": 3}, "neither a colour nor a group"),
        ({m: f"g{i}" for i, m in enumerate("abcdefg")}, "not a method"),
        (5, "highlight=5"),
    ],
)
def test_bad_highlights(demsar, highlight, match):
    with pytest.raises(CdplotError, match=match):
        cdplot.cd_diagram(demsar, highlight=highlight)


def test_other_charts_highlight_one_method(demsar):
    with pytest.raises(CdplotError, match="must name one method here"):
        cdplot.rank_intervals(demsar, highlight=["C4.5", "C4.5+m"])


def test_tikz_of_a_diagram_with_groups_says_it_highlights_one(demsar, tmp_path):
    ax = cdplot.cd_diagram(demsar, highlight=["C4.5", "C4.5+m"])
    with pytest.raises(CdplotError, match="a TikZ picture highlights one"):
        cdplot.save_figure(ax, tmp_path / "cd.tex")
    assert not (tmp_path / "cd.tex").exists()


def test_names_with_a_long_common_start_stay_distinct_when_shortened(rng):
    # cut from the end, these all read "VeryLongM… [n]" (issue 29, item 6)
    import re
    import warnings

    from cdplot.io import as_score_tables

    ends = ["Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta"]
    names = [f"VeryLongModelNameForTheBaseline{e}" for e in ends]
    (t,) = as_score_tables(rng.uniform(size=(12, 6)), methods=names)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CdplotWarning)
        ax = cdplot.cd_diagram(cdplot.compare(t))
    labels = [x.get_text() for x in ax.texts if (x.get_gid() or "").startswith("cd-name")]
    assert len(labels) == 6
    shown = {re.sub(r"\s*\[\d+\]$", "", label.replace("\u00a0", " ")) for label in labels}
    assert len(shown) == 6, labels  # distinct without their key numbers
    assert {s.strip("\u2026") for s in shown} == set(ends)
    assert_no_overlap(ax)


def test_near_ties_keep_rank_order_and_visible_lines():
    # issue 27, 5: a rank 0.001 from a three-way tie once drew its line inside the tie's fan,
    # so its label row came after methods it ranks ahead of, and two lines coincided
    ranks = {"A": 2.0, "B": 4.0, "C": 4.0, "D": 4.0, "E": 4.001, "F": 3.999, "G": 6.5}
    ranks |= {"H": 7.5, "I": 9.0}
    res = cdplot.compare_ranks(ranks, 30)
    ax = cdplot.cd_diagram(res)
    line_x = {}
    for ln in ax.lines:
        if (ln.get_gid() or "").startswith("cd-elbow-"):
            line_x[res.methods[int(ln.get_gid().rsplit("-", 1)[1])]] = ln.get_xdata()[-2]
    near = sorted("BCDEF", key=line_x.get)
    gaps = np.diff([line_x[m] for m in near])
    width = max(ln.get_linewidth() for ln in ax.lines if ln.get_gid().startswith("cd-elbow-"))
    assert gaps.min() > width  # five lines, none drawn over another
    # the lines, hence the rows, follow the ranks: F (3.999) first, E (4.001) last
    assert {near[0], near[-1]} == {"E", "F"}
    for align in ("left", "right"):
        rows = sorted(
            (t for t in ax.texts if t.get_gid().startswith("cd-name-") and t.get_ha() == align),
            key=lambda t: t.get_position()[1],
        )
        r = [ranks[t.get_text()] for t in rows]
        assert r == sorted(r) or r == sorted(r, reverse=True)
