"""``cdplot plot`` end to end: formats, options, exit status 2 and no file after errors."""

import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from cdplot.cli import main


def run(*args, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "cdplot", "plot", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
    )


def test_svg_in_a_subprocess(tmp_path):
    out = tmp_path / "cd.svg"
    res = run("--example", "demsar2006", "-o", str(out), "--svg-text", "text")
    assert res.returncode == 0, res.stderr
    size = out.stat().st_size
    assert res.stderr == f"cdplot plot: wrote {out} (SVG, {size / 1024:.1f} KiB)\n"
    assert res.stdout == ""
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    texts = ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert texts.count("C4.5+m+cf") == 1


def _modules_loaded_by(args: list[str]) -> set[str]:
    """The modules a fresh process has loaded after ``cdplot`` ran with ``args``."""
    code = (
        "import sys\n"
        "from cdplot.cli import main\n"
        f"main({args!r})\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    return set(res.stdout.split())


def test_a_cd_diagram_loads_only_the_modules_it_needs(tmp_path):
    # the other charts' modules and pyplot stay unloaded (pyplot would start a GUI backend);
    # cdplot.stats loads all of its modules, a flat namespace as scipy.stats is.
    # scipy.special is loaded since the statistics use it rather than hand-written
    # distributions (issue 24); fontTools too: matplotlib's SVG backend imports it
    loaded = _modules_loaded_by(
        ["plot", "--example", "demsar2006", "-q", "-o", str(tmp_path / "cd.svg")]
    )
    assert "cdplot.plot._critical_difference" in loaded
    unneeded = {
        "cdplot.plot._heatmap",
        "cdplot.plot._intervals",
        "cdplot.plot._panels",
        "cdplot.plot._profile",
        "cdplot.plot._tikz",
        "cdplot.plot._bayesian",
        "matplotlib.pyplot",
    }
    assert loaded & unneeded == set()


@pytest.mark.parametrize(
    ("kind", "out", "extra"),
    [
        ("cd", "fig.svg", []),
        ("intervals", "fig.svg", ["--highlight", "C4.5"]),
        ("heatmap", "fig.svg", ["--test", "bonferroni-dunn", "--control", "C4.5"]),
        ("cd", "fig.image", ["--format", "svg", "--style", "slides", "--font", "serif"]),
    ],
)
def test_svg_output_is_written_by_matplotlib_with_text_as_text(tmp_path, kind, out, extra):
    # one renderer for PNG, SVG and PDF: matplotlib's SVG backend, through a bare Figure
    # (pyplot, which may load a GUI backend, stays unloaded)
    loaded = _modules_loaded_by(
        ["plot", "--example", "demsar2006", "--kind", kind, "-q", "-o", str(tmp_path / out)]
        + ["--svg-text", "text", *extra]
    )
    assert "matplotlib.backends.backend_svg" in loaded
    assert "matplotlib.pyplot" not in loaded
    root = ET.fromstring((tmp_path / out).read_text(encoding="utf-8"))
    names = {"".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")}
    assert {"C4.5", "C4.5+m+cf"} <= names


def test_png_output_is_drawn_by_matplotlib(tmp_path):
    loaded = _modules_loaded_by(
        ["plot", "--example", "demsar2006", "-q", "-o", str(tmp_path / "cd.png")]
    )
    assert "matplotlib.backends.backend_agg" in loaded
    assert "matplotlib.pyplot" not in loaded
    assert (tmp_path / "cd.png").read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize("font", ["sans", "serif"])
def test_pdf_in_a_subprocess_is_quiet(tmp_path, font):
    # fontTools warns about the bundled fonts' tables while subsetting them
    out = tmp_path / "cd.pdf"
    res = run("--example", "demsar2006", "-o", str(out), "--font", font, "--quiet")
    assert res.returncode == 0, res.stderr
    assert res.stderr == ""
    assert res.stdout == ""
    assert out.read_bytes().startswith(b"%PDF")


@pytest.mark.parametrize("kind", ["cd", "intervals", "heatmap"])
@pytest.mark.parametrize("ext", ["png", "pdf"])
def test_kinds_and_formats(tmp_path, kind, ext):
    out = tmp_path / f"fig.{ext}"
    status = main(
        [
            "plot",
            "--example",
            "demsar2006",
            "-o",
            str(out),
            "--kind",
            kind,
            "--dpi",
            "50",
            "--style",
            "paper-wide",
            "--font",
            "serif",
            "--reverse",
            "--highlight",
            "C4.5",
        ]
    )
    assert status == 0
    assert out.stat().st_size > 0


def test_all_analysis_options_reach_the_figure(tmp_path):
    out = tmp_path / "bd.svg"
    status = main(
        [
            "plot",
            "--example",
            "demsar2006",
            "-o",
            str(out),
            "--test",
            "bonferroni-dunn",
            "--control",
            "C4.5",
            "--alpha",
            "0.1",
            "--no-ranks",
            "--no-caption",
            "--no-note",
        ]
    )
    assert status == 0
    svg = out.read_text(encoding="utf-8")
    assert 'id="cd-interval"' in svg
    assert 'id="cd-caption"' not in svg


def test_metric_selection(tmp_path):
    out = tmp_path / "auc.svg"
    assert main(["plot", "--example", "yang-table9", "--metric", "AUC", "-o", str(out)]) == 0
    assert "AUC" in out.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--example", "demsar2006", "-o", "{out}.jpg"],
            "the extension says no format; name it .html, .pdf, .png, .svg, .tex or give --format",
        ),
        (["--example", "demsar2006", "-o", "{out}"], "extension"),
        # several metrics: cd draws panels and profile a chart; the other kinds need one
        (["--example", "yang-table9", "-o", "{out}.svg", "--kind", "heatmap"], "--metric"),
        (
            ["--example", "demsar2006", "-o", "{out}.svg", "--highlight", "ID3"],
            "option --highlight ID3 is not a method",
        ),
        (
            [
                "--example",
                "demsar2006",
                "-o",
                "{out}.svg",
                "--control",
                "ID3",
                "--test",
                "bonferroni-dunn",
            ],
            "option --control ID3 is not a method",
        ),
        (
            ["--example", "demsar2006", "-o", "{out}.svg", "--kind", "intervals", "--test", "sign"],
            "which --test sign does not have",
        ),
        (
            ["--example", "demsar2006", "-o", "{out}.svg", "--kind", "heatmap", "--no-ranks"],
            "--no-ranks",
        ),
        (["--example", "demsar2006", "-o", "{out}.png", "--dpi", "0"], "--dpi"),
        (["{missing}", "-o", "{out}.svg"], "no such file"),
        (["--example", "demsar2006", "-o", "{out}.svg", "--style", "poster"], "--style"),
    ],
)
def test_bad_input_exits_2_and_leaves_no_file(tmp_path, args, message):
    out = tmp_path / "fig"
    argv = [a.format(out=out, missing=tmp_path / "missing.csv") for a in args]
    res = run(*argv)
    assert res.returncode == 2
    assert message in res.stderr
    assert "Traceback" not in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_bad_extension_fails_before_reading(tmp_path):
    # the input does not exist, but the output name is checked first
    res = run(str(tmp_path / "missing.csv"), "-o", str(tmp_path / "out.gif"))
    assert res.returncode == 2
    assert "out.gif" in res.stderr


def test_existing_file_survives_a_failed_run(tmp_path):
    out = tmp_path / "cd.svg"
    out.write_text("old")
    res = run("--example", "demsar2006", "-o", str(out), "--highlight", "ID3")
    assert res.returncode == 2
    assert out.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cd.svg"]


def test_width_and_full_axis_options(tmp_path, capsys):
    out = tmp_path / "cd.svg"
    args = ["plot", "--example", "demsar2006", "-o", str(out), "--width", "5", "--full-axis"]
    assert main(args) == 0
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    assert root.get("width") == "360pt"  # 5 in exactly
    with pytest.raises(SystemExit) as info:
        main(["plot", "--example", "demsar2006", "-o", str(out), "--width", "0.2"])
    assert info.value.code == 2
    assert "--width '0.2' must be" in capsys.readouterr().err
    status = main(
        ["plot", "--example", "demsar2006", "-o", str(out), "--kind", "heatmap", "--full-axis"]
    )
    assert status == 2
    assert "--full-axis applies only to --kind cd" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["cd.svg", "cd.tex"])
def test_test_auto_draws_the_chosen_rank_analysis(tmp_path, name):
    # issue 11: on Demsar's data compare_auto chooses the rank-based path (Shapiro-Wilk
    # rejects normality), which the CD diagram and its TikZ picture draw
    out = run("--example", "demsar2006", "-o", str(tmp_path / name), "--test", "auto")
    assert out.returncode == 0, out.stderr
    assert "C4.5+m+cf" in (tmp_path / name).read_text(encoding="utf-8")
    many = run("--example", "yang-table9", "-o", str(tmp_path / "y.svg"), "--test", "auto")
    assert many.returncode == 2
    assert "choose one with --metric" in many.stderr


def test_full_axis_applies_to_the_interval_chart_too(tmp_path):
    out = tmp_path / "ri.svg"
    args = ["plot", "--example", "demsar2006", "-o", str(out), "--kind", "intervals"]
    assert main([*args, "--full-axis"]) == 0
    assert (
        main([*args[:-2], "--kind", "intervals", "--full-axis", "-o", str(tmp_path / "ri.tex")])
        == 0
    )
    assert "tikzpicture" in (tmp_path / "ri.tex").read_text(encoding="utf-8")


def test_title_and_font_size(tmp_path):
    # issue 29, item 4: the title is kept by the saved file; names start at --font-size
    out = tmp_path / "cd.svg"
    res = run(
        "--example", "demsar2006", "-o", str(out), "--style", "paper-wide", "--svg-text", "text",
        "--title", "AUC of C4.5 variants", "--font-size", "11",
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    sizes = {
        t.get("style", "") for t in root.iter("{http://www.w3.org/2000/svg}text")
        if "".join(t.itertext()) == "C4.5+m+cf"
    }  # fmt: skip
    assert sizes
    assert all("font-size: 11px" in s or "font: 11px" in s for s in sizes), sizes
    texts = ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "AUC of C4.5 variants" in texts
    bad = run("--example", "demsar2006", "-o", str(tmp_path / "x.svg"), "--font-size", "3")
    assert bad.returncode == 2
    assert bad.stderr.count("\n") == 1
    assert "--font-size 3 is outside 6 to 72 pt" in bad.stderr
    assert not (tmp_path / "x.svg").exists()


def test_highlight_groups(tmp_path):
    # issue 29, item 3: several methods, or groups with a legend
    out = tmp_path / "cd.svg"
    res = run(
        "--example",
        "demsar2006",
        "-o",
        str(out),
        "--svg-text",
        "text",
        "--highlight",
        "C4.5=ours,C4.5+m=base",
    )
    assert res.returncode == 0, res.stderr
    texts = ["".join(t.itertext()) for t in ET.parse(out).iter("{http://www.w3.org/2000/svg}text")]
    assert "ours" in texts
    assert "base" in texts
    res = run(
        "--example",
        "demsar2006",
        "-o",
        str(out),
        "--svg-text",
        "text",
        "--highlight",
        "C4.5,C4.5+m",
    )
    assert res.returncode == 0, res.stderr
    bad = run(
        "--example", "demsar2006", "-o", str(tmp_path / "i.svg"), "--kind", "intervals",
        "--highlight", "C4.5,C4.5+m",
    )  # fmt: skip
    assert bad.returncode == 2
    assert "--kind cd" in bad.stderr


def test_svg_text_is_outlines_by_default_and_editable_on_request(tmp_path):
    # issue 27, 4: librsvg and Inkscape ignore @font-face, so the default draws outlines
    outlines, text = tmp_path / "o.svg", tmp_path / "t.svg"
    assert run("--example", "demsar2006", "-o", str(outlines)).returncode == 0
    assert run("--example", "demsar2006", "-o", str(text), "--svg-text", "text").returncode == 0
    assert "<text" not in outlines.read_text(encoding="utf-8")
    assert "@font-face" not in outlines.read_text(encoding="utf-8")
    assert ">C4.5+m+cf</text>" in text.read_text(encoding="utf-8")
    assert "@font-face" in text.read_text(encoding="utf-8")
    bad = run("--example", "demsar2006", "-o", str(tmp_path / "x.svg"), "--svg-text", "glyphs")
    assert bad.returncode == 2
    assert "--svg-text" in bad.stderr
