"""How the command line speaks: flags in messages, one line per file written, quiet pipes."""

import contextlib
import io
import subprocess
import sys

import numpy as np
import pytest

import cdplot
from cdplot.cli import build_parser, command_flags, flag_voice, main
from cdplot.errors import CdplotError, CdplotWarning, opt, spoken_as

PARSER = build_parser()


def flags(command):
    return command_flags(PARSER.commands[command])


def run(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue(), err.getvalue()


# --- messages name flags -------------------------------------------------------------


TWO_LINES = "a\nb"

# each case: a message as the library writes it, how Python reads it, how the command reads it
VOICES = [
    (
        "stats",
        lambda: (
            f"option {opt('correction', 'holm')} does not apply to {opt('test', 'nemenyi')}; "
            f"use {opt('test', 'friedman-z')}"
        ),
        "option correction='holm' does not apply to test='nemenyi'; use test='friedman-z'",
        "option --correction holm does not apply to --test nemenyi; use --test friedman-z",
    ),
    (
        "stats",
        lambda: f"long table: pass {opt('score_col')} to name it",
        "long table: pass score_col= to name it",
        "long table: pass --score-col to name it",
    ),
    (
        "stats",
        lambda: f"option {opt('alpha', 1.5)} is outside (0, 1)",
        "option alpha=1.5 is outside (0, 1)",
        "option --alpha 1.5 is outside (0, 1)",
    ),
    ("stats", lambda: f"with {opt('higher_is_better', False)}", "with higher_is_better=False",
     "with --lower-is-better"),
    ("stats", lambda: f"with {opt('higher_is_better', True)}", "with higher_is_better=True",
     "with --higher-is-better"),
    ("stats", lambda: f"or {opt('tie_correction', False)}.", "or tie_correction=False.",
     "or --no-tie-correction."),
    ("stats", lambda: f"pass {opt('nan_policy', 'omit')} to drop them",
     "pass nan_policy='omit' to drop them", "pass --nan-policy omit to drop them"),
    ("stats", lambda: f"{opt('methods', ['SVM (rbf)', 'kNN'])}", "methods=['SVM (rbf)', 'kNN']",
     "--methods 'SVM (rbf),kNN'"),
    ("pair", lambda: f"{opt('methods', ('a', 'b'))}", "methods=('a', 'b')", "--methods a,b"),
    ("stats", lambda: f"{opt('method', 'exact')} needs", "method='exact' needs",
     "--distribution exact needs"),
    ("report", lambda: f"{opt('template_dir', '/a b')} is not a folder",
     "template_dir='/a b' is not a folder", "--template '/a b' is not a folder"),
    ("report", lambda: f"give {opt('format', 'pdf')}", "give format='pdf'", "give --format pdf"),
    ("pair", lambda: f"pass {opt('continuity', False)}", "pass continuity=False",
     "pass --no-continuity"),
    ("pair", lambda: f"with {opt('correction', False)}", "with correction=False",
     "with --no-continuity"),
    ("plot", lambda: f"with {opt('ranks', False)}", "with ranks=False", "with --no-ranks"),
    ("stats", lambda: f"raise {opt('max_bytes')}", "raise max_bytes=", "raise --max-input-size"),
    # names from the input are data: the voice writes options only, never the text around
    ("stats", lambda: f"method {'test=x'!r} of {'a.csv'!r}", "method 'test=x' of 'a.csv'",
     "method 'test=x' of 'a.csv'"),
    (
        "stats",
        lambda: f"Demsar's rule; use {opt('zero_method', 'zsplit')}",
        "Demsar's rule; use zero_method='zsplit'",
        "Demsar's rule; use --zero-method zsplit",
    ),
    # a value that is not printable text stays one line: a Python literal
    ("stats", lambda: f"{opt('control', TWO_LINES)}", "control='a\\nb'", "--control 'a\\nb'"),
    # a keyword the command has no option for stays as Python writes it
    ("table", lambda: f"option {opt('ax', None)}", "option ax=None", "option ax=None"),
]  # fmt: skip


@pytest.mark.parametrize(("command", "make", "python", "spoken"), VOICES)
def test_options_are_written_in_the_voice_of_the_reader(command, make, python, spoken):
    assert make() == python
    with spoken_as(flag_voice(flags(command))):
        assert make() == spoken
    assert make() == python  # the voice ends with the block


def test_a_library_error_names_its_option_in_python_and_as_an_attribute():
    with pytest.raises(CdplotError) as info:
        cdplot.compare(cdplot.load_example("demsar2006"), correction="holm")
    assert info.value.option == "correction"
    assert "option correction='holm' does not apply to test='nemenyi'" in str(info.value)
    assert "use test='friedman-z'" in str(info.value)


def test_the_command_names_an_option_once(tmp_path):
    # the message once read "pass --method-col (--method-col)": the library spelled the flag
    # out beside the keyword, and the rewrite turned the keyword into the flag as well
    f = tmp_path / "two.csv"
    f.write_text("dataset,method,model,score\nd1,A,x,1\nd1,B,y,2\nd2,A,x,1\nd2,B,y,3\n", "utf-8")
    status, _, err = run(["stats", str(f)])
    assert status == 2
    assert err == (
        f"cdplot stats: error: {f}: columns 'method' and 'model' could each be the method; "
        "pass --method-col\n"
    )
    with pytest.raises(CdplotError) as info:
        cdplot.read_scores(f)
    assert info.value.option == "method_col"
    assert str(info.value).endswith("could each be the method; pass method_col=")
    status, _, err = run(["stats", str(f), "--method-col", "method", "--max-input-size", "10"])
    assert status == 2
    assert err.endswith("raise it with --max-input-size if the file is right\n"), err


@pytest.mark.parametrize(
    ("argv", "wanted"),
    [
        (["stats", "--example", "demsar2006", "--correction", "holm"], "--test friedman-z"),
        (
            ["stats", "--example", "demsar2006", "--test", "wilcoxon", "--control", "ID3"],
            "--control",
        ),
        (["stats", "{long}"], "--score-col"),
        (["stats", "{missing}"], "--nan-policy omit"),
        (["table", "--example", "demsar2006", "--correction", "holm"], "--test friedman-z"),
        (
            ["plot", "--example", "demsar2006", "-o", "{tmp}/x.svg", "--highlight", "ID3"],
            "--highlight",
        ),
        (
            [
                "plot",
                "--example",
                "demsar2006",
                "-o",
                "{tmp}/x.svg",
                "--kind",
                "intervals",
                "--test",
                "sign",
            ],
            "--test sign",
        ),
        (
            ["report", "--example", "demsar2006", "-o", "{tmp}/r.html", "--decimals", "11"],
            "--decimals",
        ),
        (
            ["pair", "--example", "demsar2006", "--methods", "C4.5,C4.5+m", "--scheme", "kfold"],
            "--scheme",
        ),
    ],
)
def test_cli_messages_name_flags(tmp_path, argv, wanted):
    long = tmp_path / "long.csv"
    long.write_text("dataset,method,value_a,value_b\nd1,A,1,2\nd1,B,3,4\n", "utf-8")
    missing = tmp_path / "missing.csv"
    missing.write_text("dataset,A,B\nd1,0.5,\nd2,0.4,0.3\nd3,0.1,0.2\n", "utf-8")
    argv = [a.format(tmp=tmp_path, long=long, missing=missing) for a in argv]
    status, _, err = run(argv)
    assert status == 2, err
    # (no Python keyword is left: conftest.py checks every message of these tests)
    assert err.count("\n") == 1, err
    if wanted:
        assert wanted in err, err


# --- one line per file written, silenced by --quiet --------------------------------------

OUTPUTS = [
    (["stats", "--example", "demsar2006", "-o", "{out}.json"], "JSON"),
    (["stats", "--example", "demsar2006", "-o", "{out}.txt"], "TEXT"),
    (["table", "--example", "demsar2006", "-o", "{out}.tex"], "LATEX"),
    (["table", "--example", "demsar2006", "-o", "{out}", "--format", "markdown"], "MARKDOWN"),
    (["plot", "--example", "demsar2006", "-o", "{out}.svg"], "SVG"),
    (["plot", "--example", "demsar2006", "-o", "{out}.tex"], "TikZ"),
    (["plot", "--example", "yang-table9", "-o", "{out}.pdf"], "PDF"),
    (["report", "--example", "demsar2006", "-o", "{out}.html"], "HTML"),
    (["pair", "--example", "demsar2006", "--methods", "C4.5,C4.5+m", "--rope", "0.01",
      "--plot", "{out}.svg"], "SVG"),
]  # fmt: skip


@pytest.mark.parametrize(("argv", "fmt"), OUTPUTS, ids=lambda v: v[0] if isinstance(v, list) else v)
def test_every_file_written_is_said_once(tmp_path, argv, fmt):
    argv = [a.format(out=tmp_path / "out") for a in argv]
    status, _, err = run(argv)
    assert status == 0, err
    path = next(a for a in argv if a.startswith(str(tmp_path)))
    size = (tmp_path / path).stat().st_size
    shown = f"{size} bytes" if size < 1024 else f"{size / 1024:.1f} KiB"
    assert err == f"cdplot {argv[0]}: wrote {path} ({fmt}, {shown})\n"
    (tmp_path / path).unlink()
    status, _, err = run([*argv, "--quiet"])
    assert status == 0, err
    assert err == ""
    assert (tmp_path / path).exists()


def test_stdout_output_says_nothing_on_stderr():
    status, out, err = run(["table", "--example", "demsar2006", "--format", "markdown"])
    assert status == 0
    assert out.startswith("|") or out.startswith("**") or "C4.5" in out
    assert err == ""


# --- --format against the extension ------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["stats", "-o", "{tmp}/x.json", "--format", "csv"],
        ["stats", "-o", "{tmp}/x.csv", "--json"],
        ["table", "-o", "{tmp}/x.tex", "--format", "html"],
        ["plot", "-o", "{tmp}/x.png", "--format", "pdf"],
        ["plot", "-o", "{tmp}/x.tex", "--format", "svg"],
        ["report", "-o", "{tmp}/x.html", "--format", "pdf"],
    ],
    ids=lambda a: a[0],
)
def test_format_disagreeing_with_the_extension_is_an_error(tmp_path, argv):
    argv = [a.format(tmp=tmp_path) for a in argv] + ["--example", "demsar2006"]
    status, _, err = run(argv)
    assert status == 2
    assert "disagree" in err, err
    assert err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_format_with_an_extension_that_says_nothing_is_obeyed(tmp_path):
    status, _, err = run(
        ["report", "--example", "demsar2006", "-o", str(tmp_path / "r.out"), "--format", "html"]
    )
    assert status == 0, err
    assert (tmp_path / "r.out").read_text("utf-8").lstrip().lower().startswith("<!doctype html")


# --- output folders ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["stats", "-o", "{bad}/x.json"],
        ["table", "-o", "{bad}/x.tex"],
        ["plot", "-o", "{bad}/x.png"],
        ["report", "-o", "{bad}/x.html"],
    ],
    ids=lambda a: a[0],
)
def test_a_missing_output_folder_is_named(tmp_path, argv):
    bad = tmp_path / "no" / "dir"
    argv = [a.format(bad=bad) for a in argv] + ["--example", "demsar2006"]
    status, _, err = run(argv)
    assert status == 2
    assert f"folder '{bad}'" in err or f"folder {str(bad)!r}" in err, err
    assert ".tmp" not in err


# --- pipes -------------------------------------------------------------------------------


def test_a_reader_that_leaves_during_a_large_output_ends_it_quietly(tmp_path):
    # more than a pipe holds (64 KiB), read one line, close: the rest of the write meets a
    # closed pipe. CPython's buffered writer dropped it silently and cdplot exited 0; the
    # conventional answer is the status of SIGPIPE and nothing on stderr
    rng = np.random.default_rng(1)
    k, n = 40, 12
    rows = ["dataset," + ",".join(f"method_{j:02d}_{'x' * 30}" for j in range(k))]
    rows += [f"d{i}," + ",".join(f"{v:.4f}" for v in rng.random(k)) for i in range(n)]
    f = tmp_path / "big.csv"
    f.write_text("\n".join(rows) + "\n", "utf-8")
    command = [sys.executable, "-m", "cdplot", "stats", str(f), "--test", "wilcoxon", "--json"]
    size = len(subprocess.run(command, capture_output=True, check=True, timeout=120).stdout)
    assert size > 4 * 65536
    for _ in range(3):
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        proc.stdout.readline()
        proc.stdout.close()
        err = proc.stderr.read()
        assert proc.wait(timeout=120) == 141
        assert err == b""


def test_text_output_prints_notes_under_a_heading_one_per_line(tmp_path):
    # the notes of an analysis (what was averaged, what to read with care) are their own
    # lines under "Notes:", never glued onto the conclusion
    f = tmp_path / "long.csv"
    f.write_text(
        "dataset,method,score,resample\nd1,A,0.1,0\nd1,A,0.2,1\nd1,B,0.3,0\nd1,B,0.3,1\n"
        "d2,A,0.5,0\nd2,B,0.4,0\nd3,A,0.5,0\nd3,B,0.1,0\n",
        "utf-8",
    )
    status, out, err = run(["stats", str(f)])
    assert status == 0, err
    lines = out.splitlines()
    heading = lines.index("Notes:")
    notes = [line for line in lines[heading + 1 :] if line.lstrip().startswith("- ")]
    assert len(notes) >= 2
    assert notes[0].lstrip().startswith("- Averaged 1 to 2 repetitions")
    # the conclusion ends before the notes start
    assert "repetitions" not in " ".join(lines[:heading])


def test_a_warning_names_flags_on_the_command_line_and_keywords_in_python(tmp_path):
    f = tmp_path / "dup.csv"
    f.write_text("dataset,method,score\nd1,A,1\nd1,A,2\nd1,B,2\nd2,A,1\nd2,B,3\n", "utf-8")
    advice = "to say what the rows are"
    status, _, err = run(["stats", str(f), "--quiet"])
    assert status == 0, err
    assert err.startswith("cdplot stats: warning: averaged duplicate rows")
    assert err.endswith(f"; pass --repetition-col or --metric-col {advice}\n"), err
    with pytest.warns(CdplotWarning, match=f"; pass repetition_col= or metric_col= {advice}$"):
        cdplot.read_scores(f)


def test_a_figure_warning_names_the_width_flag(tmp_path):
    # the advice of a figure warning is kept in a table made once (plot/_common.ALTERNATIVES)
    # and still reads with flags: it is written when the warning is
    rng = np.random.default_rng(0)
    f = tmp_path / "wide.csv"
    rows = ["dataset," + ",".join(f"method_{j}" for j in range(50))]
    rows += [f"d{i}," + ",".join(f"{v:.3f}" for v in rng.random(50)) for i in range(12)]
    f.write_text("\n".join(rows) + "\n", "utf-8")
    status, _, err = run(["plot", str(f), "-o", str(tmp_path / "cd.svg"), "--width", "2", "-q"])
    assert status == 0, err
    assert "cannot be drawn legibly with --width 2 (it needs" in err, err
    assert err.endswith(": use a wider --width or fewer methods\n"), err
    table = cdplot.read_scores(f)[0]
    with pytest.warns(CdplotWarning, match=r"with width=2 \(it needs.*use a wider width= or fewer"):
        cdplot.cd_diagram(cdplot.compare(table), width=2)
