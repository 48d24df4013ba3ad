"""``cdplot plot`` for issue 12: .tex output, one panel per metric, the rank profile."""

import xml.etree.ElementTree as ET

import pytest

from cdplot.cli import main

SVG = "{http://www.w3.org/2000/svg}"


def svg_texts(path):
    root = ET.fromstring(path.read_text(encoding="utf-8"))
    return ["".join(t.itertext()) for t in root.iter(f"{SVG}text")], root


def test_tex_output_and_standalone(tmp_path):
    out = tmp_path / "cd.tex"
    assert main(["plot", "--example", "demsar2006", "-o", str(out)]) == 0
    tex = out.read_text(encoding="utf-8")
    assert r"\begin{tikzpicture}" in tex
    assert r"\documentclass" not in tex
    assert main(["plot", "--example", "demsar2006", "-o", str(out), "--standalone"]) == 0
    tex = out.read_text(encoding="utf-8")
    assert r"\documentclass{article}" in tex
    assert tex.rstrip().endswith(r"\end{document}")
    assert [p.name for p in tmp_path.iterdir()] == ["cd.tex"]


def test_intervals_tex(tmp_path):
    out = tmp_path / "ri.tex"
    argv = ["plot", "--example", "demsar2006", "--kind", "intervals", "--highlight", "C4.5"]
    assert main([*argv, "-o", str(out)]) == 0
    tex = out.read_text(encoding="utf-8")
    assert tex.startswith("% Rank-interval chart by cdplot")
    assert "fill opacity=0.08" in tex  # the highlighted method's interval as the reference


def test_several_metrics_draw_panels_and_metric_picks_one(tmp_path):
    out = tmp_path / "cd.svg"
    assert main(["plot", "--example", "yang-table9", "--svg-text", "text", "-o", str(out)]) == 0
    texts, root = svg_texts(out)
    # Yang et al., Table 9: six measures, one panel each, titled with the direction
    for title in ("5CV, lower is better", "AUC, higher is better", "F, higher is better"):
        assert title in texts
    assert texts.count("LDA") == 6
    one = tmp_path / "auc.svg"
    assert (
        main(
            [
                "plot",
                "--example",
                "yang-table9",
                "--metric",
                "AUC",
                "--svg-text",
                "text",
                "-o",
                str(one),
            ]
        )
        == 0
    )
    texts, _root = svg_texts(one)
    assert texts.count("LDA") == 1


def test_profile(tmp_path):
    out = tmp_path / "profile.svg"
    assert (
        main(
            [
                "plot",
                "--example",
                "yang-table9",
                "--kind",
                "profile",
                "--svg-text",
                "text",
                "-o",
                str(out),
            ]
        )
        == 0
    )
    texts, _root = svg_texts(out)
    assert {"LDA", "C4.5", "NN", "5CV", "Boots.", "AUC"} <= set(texts)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--example", "demsar2006", "--kind", "profile", "-o", "{out}.svg"], "several metrics"),
        (["--example", "demsar2006", "--kind", "heatmap", "-o", "{out}.tex"], "cd and intervals"),
        (["--example", "demsar2006", "--font", "serif", "-o", "{out}.tex"], "--font"),
        (["--example", "demsar2006", "--standalone", "-o", "{out}.pdf"], "--standalone"),
        (["--example", "yang-table9", "-o", "{out}.tex"], "--metric"),
        (
            ["--example", "yang-table9", "--kind", "profile", "--reverse", "-o", "{out}.svg"],
            "--reverse",
        ),
    ],
)
def test_errors_exit_2_and_write_nothing(tmp_path, capsys, args, message):
    out = tmp_path / "fig"
    assert main(["plot", *(a.format(out=out) for a in args)]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err
    assert list(tmp_path.iterdir()) == []
