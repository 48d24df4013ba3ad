"""Hostile command lines (issue 32): odd bytes, huge inputs, early signals, long names.

Each case once ended in a traceback or printed something it should not; now it is
one line on stderr and exit status 2 (130 and 143 for SIGINT and SIGTERM).
"""

import os
import signal
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from cdplot import cli

SCORES = "dataset,A,B,C\nd1,0.1,0.2,0.3\nd2,0.3,0.1,0.2\nd3,0.5,0.4,0.1\nd4,0.2,0.3,0.4\n"


def cdplot(*args, cwd=None):
    # bytes arguments reach the program as the system gives them (no re-encoding)
    argv = [sys.executable, "-m", "cdplot", *(a if isinstance(a, bytes) else str(a) for a in args)]
    return subprocess.run(argv, capture_output=True, cwd=cwd, timeout=300)


def one_line(proc, status=2):
    err = proc.stderr.decode("utf-8")
    assert proc.returncode == status, err
    assert "Traceback" not in err
    assert len(err.splitlines()) == 1, err
    return err


@pytest.fixture
def scores(tmp_path):
    f = tmp_path / "in.csv"
    f.write_text(SCORES, encoding="utf-8")
    return f


# --- bytes that are not UTF-8 ---------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "flag"),
    [
        (["report", "{f}", "-o", "r.html", "--title", b"r\xe9sum\xe9"], "--title"),
        (["report", "{f}", "-o", "r.html", "--author", b"Ren\xe9"], "--author"),
        (["report", "{f}", "-o", "r.html", "--date", b"1 ao\xfbt"], "--date"),
        (["table", "{f}", "--format", "latex", "--caption", b"R\xe9sultats"], "--caption"),
        (["stats", "{f}", "--methods", b"A,\xe9"], "--methods"),
    ],
)
def test_text_options_that_are_not_utf8_are_one_line(tmp_path, scores, args, flag):
    args = [str(scores) if a == "{f}" else a for a in args]
    err = one_line(cdplot(*args, cwd=tmp_path))
    assert f"option {flag} b'" in err
    assert "is not UTF-8 text" in err
    assert not (tmp_path / "r.html").exists()


@pytest.mark.parametrize(
    "command", [["stats"], ["table", "--format", "latex"], ["report", "-o", "r.html"]]
)
def test_a_latin1_file_name_is_read_and_shown_with_its_bytes(tmp_path, command):
    # a file called résultats.csv on a Latin-1 system: its name is not UTF-8
    name = b"r\xe9sultats.csv"
    (tmp_path / os.fsdecode(name)).write_text(SCORES, encoding="utf-8")
    proc = cdplot(command[0], name, *command[1:], cwd=tmp_path)
    err = proc.stderr.decode("utf-8")
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    if command[0] == "report":
        assert "r\\xe9sultats.csv" in (tmp_path / "r.html").read_text("utf-8")


def test_a_latin1_pvalues_file_name_is_read(tmp_path):
    # --pvalues MATRIX.csv is a file name like FILE: any bytes the system allows (the
    # p-values are made up; only the reading of the name is tested here)
    name = b"p-valeurs-\xe9.csv"
    matrix = (
        ",C4.5,C4.5+m,C4.5+cf,C4.5+m+cf\nC4.5,1,0.01,0.6,0.01\nC4.5+m,0.01,1,0.03,0.9\n"
        "C4.5+cf,0.6,0.03,1,0.02\nC4.5+m+cf,0.01,0.9,0.02,1\n"
    )
    (tmp_path / os.fsdecode(name)).write_text(matrix, encoding="utf-8")
    argv = ["stats", "--example", "demsar2006", "--pvalues", name, "--test-name", "Conover"]
    proc = cdplot(*argv, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr.decode("utf-8")
    assert "(Conover)" in proc.stdout.decode("utf-8")


# metavars of options whose value is a file or folder name; every other metavar is text
PATH_METAVARS = frozenset({"FILE", "OUT", "DIR", "MATRIX", "FONT"})
TEXT_METAVARS = frozenset({"NAME", "CHAR", "TEXT", "KEY", "SCHEME", "TEST", "A,B", "A,B,C"})
TEXT_METAVARS |= {"D1,D2", "OLD=NEW", ("A", "B")}
# text options without a metavar (argparse shows their dest), by command
TEXT_WITHOUT_METAVAR = {("report", d) for d in ("title", "subtitle", "author", "date")}


def _text_valued_actions():
    """``(command, action)`` of every option or argument that takes text as it is typed."""
    parser = cli.build_parser()
    for command, sub in parser.commands.items():
        for a in sub._actions:
            if a.dest == "help" or a.nargs == 0 or a.choices or a.type is not None:
                continue
            yield command, a


def test_every_path_option_takes_any_bytes_and_every_other_is_checked():
    # a new option taking a path must be in cli._PATH_DESTS, or a name that is not UTF-8
    # is refused there; a new metavar must be sorted into paths or text here
    for command, a in _text_valued_actions():
        where = f"cdplot {command} {a.option_strings or a.dest}"
        if a.metavar in PATH_METAVARS:
            assert a.dest in cli._PATH_DESTS, where
        elif a.metavar is None:
            assert (command, a.dest) in TEXT_WITHOUT_METAVAR, where
            assert a.dest not in cli._PATH_DESTS, where
        else:
            assert a.metavar in TEXT_METAVARS, f"{where}: metavar {a.metavar!r}"
            assert a.dest not in cli._PATH_DESTS, where


def test_the_readers_take_file_names_as_bytes(tmp_path):
    from cdplot.io import read_scores

    name = os.fsencode(tmp_path) + b"/r\xe9sultats.csv"
    with open(name, "w", encoding="utf-8") as fh:
        fh.write(SCORES)
    (table,) = read_scores(name)
    assert table.methods == ("A", "B", "C")
    assert table.source.endswith("r\\xe9sultats.csv")
    table.source.encode("utf-8")  # every output can hold it


def test_a_template_making_a_lone_surrogate_is_one_line(tmp_path, scores):
    (tmp_path / "tpl").mkdir()
    (tmp_path / "tpl" / "base.html.j2").write_text('{{ "%c" % 55296 }}', encoding="utf-8")
    err = one_line(cdplot("report", scores, "--template", "tpl", "-o", "r.html", cwd=tmp_path))
    assert "lone surrogate (U+D800)" in err
    assert not (tmp_path / "r.html").exists()


def test_a_template_nesting_3000_elements_is_one_line_in_pdf(tmp_path, scores):
    (tmp_path / "tpl").mkdir()
    html = "<html><body>" + "<div>" * 3000 + "x" + "</div>" * 3000 + "</body></html>"
    (tmp_path / "tpl" / "base.html.j2").write_text(html, encoding="utf-8")
    err = one_line(cdplot("report", scores, "--template", "tpl", "-o", "r.pdf", cwd=tmp_path))
    assert "nests its elements too deeply" in err
    assert "--template" in err
    assert not (tmp_path / "r.pdf").exists()


# --- sizes that cannot fit --------------------------------------------------------------


def test_100000_methods_are_refused_with_the_memory_they_need(tmp_path):
    import cdplot

    x = np.random.default_rng(0).random((3, 100_000))
    with pytest.raises(cdplot.CdplotError) as e:
        cdplot.compare(x)
    # 8 float64 matrices of 100,000 x 100,000: 8 * 8 * 1e10 bytes = 596.0 GiB
    assert "100,000 methods needs about 596.0 GiB of memory" in str(e.value)
    assert "methods= or exclude=" in str(e.value)


@pytest.mark.parametrize(
    "analysis",
    ["compare", "compare_auto", "rm_anova", "anova_oneway", "compare_ranks"],
)
def test_every_pairwise_analysis_checks_the_size_first(monkeypatch, analysis):
    import cdplot
    from cdplot.stats import _parametric as parametric
    from cdplot.stats import _validate

    monkeypatch.setattr(_validate, "physical_memory", lambda: 1 << 20)  # 1 MiB
    x = np.random.default_rng(1).random((4, 200))  # 8 * 8 * 200**2 bytes = 2.4 MiB
    calls = {
        "compare": lambda: cdplot.compare(x),
        "compare_auto": lambda: parametric.compare_auto(x),
        "rm_anova": lambda: parametric.rm_anova(x),
        "anova_oneway": lambda: parametric.anova_oneway(*x.T),
        "compare_ranks": lambda: cdplot.compare_ranks(
            {f"m{i}": 1 + i * 0.01 for i in range(200)}, 10
        ),
    }
    with pytest.raises(cdplot.CdplotError, match="200 methods needs about 0.0 GiB"):
        calls[analysis]()


def test_100000_methods_on_the_command_line(tmp_path):
    rng = np.random.default_rng(2)
    rows = ["dataset," + ",".join(f"m{i}" for i in range(100_000))]
    rows += [f"d{d}," + ",".join(f"{v:.3f}" for v in rng.random(100_000)) for d in range(3)]
    (tmp_path / "k.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    err = one_line(cdplot("stats", "k.csv", cwd=tmp_path))
    assert "596.0 GiB" in err
    assert "--methods or --exclude" in err


# --- signals while the command starts -------------------------------------------------

STARTING = textwrap.dedent(
    """
    import os, signal, sys
    import cdplot.cli as cli

    real = cli.build_parser

    def build_parser():
        # the signal arrives while the subcommands are being imported
        os.kill(os.getpid(), signal.{sig})
        return real()

    cli.build_parser = build_parser
    sys.exit(cli.main(["stats", "--example", "demsar2006"]))
    """
)


@pytest.mark.parametrize(("sig", "status"), [("SIGINT", 130), ("SIGTERM", 143)])
def test_a_signal_while_the_command_starts_is_quiet(sig, status):
    proc = subprocess.run(
        [sys.executable, "-c", STARTING.format(sig=sig)], capture_output=True, timeout=120
    )
    err = proc.stderr.decode("utf-8")
    assert proc.returncode == status, err
    assert "Traceback" not in err
    assert err.strip() in ("cdplot: interrupted", "cdplot: terminated")


INSIDE_AN_IMPORT = textwrap.dedent(
    """
    import os, signal, sys
    import cdplot.cli as cli

    real = cli.build_parser

    def build_parser():
        # as numpy's import does when the signal lands inside its C code: the exception
        # the handler raised comes back as an ImportError
        try:
            os.kill(os.getpid(), signal.{sig})
        except BaseException as exc:
            raise ImportError("PyCapsule_Import could not import module 'datetime'") from exc
        return real()

    cli.build_parser = build_parser
    sys.exit(cli.main(["stats", "--example", "demsar2006"]))
    """
)


@pytest.mark.parametrize(("sig", "status"), [("SIGINT", 130), ("SIGTERM", 143)])
def test_a_signal_turned_into_an_import_error_is_still_the_signal(sig, status):
    # found by benchmarks/signal_run.py: 2 of 260 runs ended in numpy's ImportError traceback
    proc = subprocess.run(
        [sys.executable, "-c", INSIDE_AN_IMPORT.format(sig=sig)], capture_output=True, timeout=120
    )
    err = proc.stderr.decode("utf-8")
    assert proc.returncode == status, err
    assert "Traceback" not in err
    assert err.strip() in ("cdplot: interrupted", "cdplot: terminated")


IN_A_CALLBACK = textwrap.dedent(
    """
    import os, signal, sys
    import cdplot.cli as cli

    real = cli.build_parser

    class Dropped:
        def __del__(self):
            # the handler runs in here, where an exception cannot propagate
            os.kill(os.getpid(), signal.{sig})
            sum(range(10_000))

    def build_parser():
        Dropped()
        return real()

    cli.build_parser = build_parser
    sys.exit(cli.main(["stats", "--example", "demsar2006"]))
    """
)


@pytest.mark.parametrize(("sig", "status"), [("SIGINT", 130), ("SIGTERM", 143)])
def test_a_signal_inside_a_callback_is_delivered_again(sig, status):
    # found by benchmarks/signal_run.py: Ctrl-C inside importlib's module-lock callback
    # printed "Exception ignored ... KeyboardInterrupt" and the command went on
    proc = subprocess.run(
        [sys.executable, "-c", IN_A_CALLBACK.format(sig=sig)], capture_output=True, timeout=120
    )
    err = proc.stderr.decode("utf-8")
    assert proc.returncode == status, err
    assert "Exception ignored" not in err
    assert "Traceback" not in err
    assert err.strip() in ("cdplot: interrupted", "cdplot: terminated")


def test_main_gives_back_the_signal_handlers_it_found(tmp_path):
    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    hook = sys.unraisablehook
    out = tmp_path / "s.json"
    assert cli.main(["stats", "--example", "demsar2006", "--format", "json", "-o", str(out)]) == 0
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before
    assert sys.unraisablehook is hook


# --- argparse: abbreviations, escapes, long names ---------------------------------------


def test_abbreviations_are_not_options(scores):
    # with abbreviations on, --a meant --alpha: "--a C4.5" was read as a significance level
    err = one_line(cdplot("stats", scores, "--a", "0.1"))
    assert "unrecognized arguments: --a 0.1" in err
    parser = cli.build_parser()
    assert not parser.allow_abbrev
    assert not any(sub.allow_abbrev for sub in parser.commands.values())


@pytest.mark.parametrize(
    "args",
    [
        ["--bogus\x1b]0;owned\x07"],
        ["--test", "\x1b[31mred"],
        ["--layout", "\x1b[2J"],
    ],
)
def test_argparse_messages_cannot_drive_the_terminal(scores, args):
    err = one_line(cdplot("stats", scores, *args))
    assert "\x1b" not in err
    assert "\x07" not in err


@pytest.mark.parametrize(
    "args",
    [
        ["--bogus" + "x" * 100_000],
        ["--test", "x" * 100_000],
        ["--dataset-col", "x" * 100_000],
        ["--methods", "A,B," + "x" * 100_000],
    ],
)
def test_long_names_are_cut_in_messages(scores, args):
    err = one_line(cdplot("stats", scores, *args))
    assert len(err) < 1200, err[:300]
    assert "..." in err
    assert "characters" in err
