"""Tests of ``cdplot completion`` (cdplot/_cli/completion.py), run in bash and zsh themselves."""

import os
import shutil
import subprocess
import sys

import pytest

from cdplot._cli.completion import completion_script
from cdplot.cli import build_parser, main


def _long_options(parser):
    return {s for a in parser._actions for s in a.option_strings if s.startswith("--")}


@pytest.mark.parametrize("shell", ["bash", "zsh"])
def test_the_script_names_every_command_option_and_choice_of_the_parser(shell):
    parser = build_parser()
    script = completion_script(parser, shell)
    words = set(script.replace("'", " ").replace("|", " ").replace(")", " ").split())
    assert set(parser.commands) <= words
    for name in ("plot", "stats", "pair", "completion"):
        sub = parser.commands[name]
        missing = _long_options(sub) - words
        assert not missing, f"{name}: {sorted(missing)}"
        choices = {str(c) for a in sub._actions for c in a.choices or () if a.option_strings}
        assert choices - words == set(), name
    assert {"paper", "paper-wide", "slides", "heatmap", "bergmann", "bash", "zsh"} <= words


def test_an_option_added_to_the_parser_appears_in_the_script():
    # the script is read from the parser each time, not kept beside it by hand
    parser = build_parser()
    parser.commands["table"].add_argument("--shade-of-grey", choices=("pale-grey", "dark-grey"))
    script = completion_script(parser, "bash")
    assert "--shade-of-grey) COMPREPLY+=($(compgen -W 'pale-grey dark-grey'" in script
    assert "--shade-of-grey" not in completion_script(build_parser(), "bash")


def test_command_prints_the_script_and_refuses_other_shells(capsys):
    assert main(["completion", "bash"]) == 0
    out, err = capsys.readouterr()
    assert out == completion_script(build_parser(), "bash")
    assert err == ""
    assert out.rstrip().endswith("complete -F _cdplot cdplot")
    with pytest.raises(SystemExit) as exc:
        main(["completion", "fish"])
    assert exc.value.code == 2
    assert "invalid choice: 'fish'" in capsys.readouterr().err


def test_completion_takes_none_of_the_file_writing_options():
    # nothing is written and it answers at once: --quiet and --progress mean nothing here
    options = _long_options(build_parser().commands["completion"])
    assert options == {"--help"}


@pytest.fixture
def workdir(tmp_path):
    # the folder the user completes in; the scripts and the matches lie beside it
    work = tmp_path / "work"
    (work / "results").mkdir(parents=True)
    (work / "scores.csv").write_text("dataset,a,b\n")
    (work / "my scores.csv").write_text("dataset,a,b\n")
    return work


# each line as typed before <TAB>, and what the shell offers (bash and zsh alike)
CASES = [
    pytest.param("cdplot pl", ["plan", "plot"], id="command"),
    pytest.param("cdplot ", sorted(build_parser().commands), id="every-command"),
    pytest.param("cdplot --vers", ["--version"], id="top-option"),
    pytest.param("cdplot plot --sty", ["--style"], id="long-option"),
    pytest.param("cdplot plot --style ", ["paper", "paper-wide", "slides"], id="choices"),
    pytest.param("cdplot plot --style sl", ["slides"], id="choice-prefix"),
    pytest.param("cdplot stats --test fr", ["friedman-z"], id="stats-test"),
    pytest.param("cdplot plot --kind h", ["heatmap"], id="kind"),
    pytest.param("cdplot pair --test 5x2", ["5x2cv-f", "5x2cv-t"], id="pair-test"),
    pytest.param("cdplot completion ", ["bash", "zsh"], id="shell-choice"),
    pytest.param("cdplot plot sc", ["scores.csv"], id="file"),
    pytest.param("cdplot stats my", ["my scores.csv"], id="file-with-space"),
    pytest.param("cdplot report --alpha 0.1 r", ["results"], id="folder-after-option"),
    pytest.param("cdplot plot -o ", ["my scores.csv", "results", "scores.csv"], id="output"),
    # a number or a name: no file names offered
    pytest.param("cdplot plot --alpha ", [], id="number"),
    pytest.param("cdplot stats --method-col ", [], id="name"),
]

BASH_CALL = r"""
source "$1"
read -ra COMP_WORDS <<< "$2"
[[ "$2" == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
_cdplot
printf '%s\n' "${COMPREPLY[@]}"
"""


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
@pytest.mark.parametrize(("line", "expected"), CASES)
def test_bash_completes(workdir, line, expected):
    script = workdir.parent / "cdplot.bash"
    script.write_text(completion_script(build_parser(), "bash"))
    proc = subprocess.run(
        ["bash", "--norc", "-c", BASH_CALL, "bash", script, line],
        capture_output=True,
        text=True,
        cwd=workdir,
        timeout=60,
        check=True,
    )
    assert proc.stderr == ""
    assert sorted(w for w in proc.stdout.split("\n") if w) == expected


def test_eval_of_the_command_registers_the_function_in_bash(workdir):
    # the README's line, with this checkout's cdplot
    if shutil.which("bash") is None:
        pytest.skip("bash is not installed")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "PY": sys.executable}
    proc = subprocess.run(
        ["bash", "--norc", "-c", 'eval "$("$PY" -m cdplot completion bash)" && complete -p cdplot'],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "complete -F _cdplot cdplot"


# zsh runs the same function through bashcompinit, called as zsh's completion would call
# it (a line typed with <TAB> in a pseudo-terminal raced zsh's line editor when the machine
# was busy); zsh is not in .ci/run, so this is skipped on a machine without it
ZSH_CALL = r"""
autoload -U compinit && compinit -u -D
source "$1"
COMP_WORDS=(${=2})
[[ "$2" == *" " ]] && COMP_WORDS+=("")
# bashcompinit's wrapper runs the function with bash's 0-based arrays
setopt ksharrays
COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
_cdplot
print -rl -- "${COMPREPLY[@]}"
"""


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed")
@pytest.mark.parametrize(("line", "expected"), CASES)
def test_zsh_completes(workdir, line, expected):
    script = workdir.parent / "cdplot.zsh"
    script.write_text(completion_script(build_parser(), "zsh"))
    proc = subprocess.run(
        ["zsh", "-f", "-c", ZSH_CALL, "zsh", script, line],
        capture_output=True,
        text=True,
        cwd=workdir,
        timeout=60,
        check=True,
    )
    # zsh's compgen passes every word on and its compadd keeps those that match the word
    # typed; that last step is done here
    typed = "" if line.endswith(" ") else line.split()[-1]
    got = sorted({w for w in proc.stdout.split("\n") if w and w.startswith(typed)})
    assert got == expected
