"""``cdplot completion {bash,zsh}``: a shell completion script made from cdplot's own parsers.

The script is generated from :func:`cdplot.cli.build_parser` each time, so that it
knows exactly the subcommands, long and short options and choices of the installed
version: nothing is kept by hand beside the parsers.  It completes

- the subcommands after ``cdplot``;
- each subcommand's options after ``-``;
- the choices of an option with ``choices=`` (``--style <TAB>``);
- file names for ``FILE``, ``-o`` and the other options that name files;
- nothing after an option that takes a number or a name (``--alpha <TAB>``),
  where file names would be wrong.

bash runs the generated ``_cdplot`` function through ``complete -F``.  zsh runs the
same function through its own bash emulation (``bashcompinit``), which keeps the
script in one language and is tested by the same cases.
"""

from __future__ import annotations

import argparse
import re
import shlex
from dataclasses import dataclass, field

from .._version import __version__

# cdplot.cli loads this module by name, inside build_parser (never at import time); the
# command builds the whole parser again to describe every command, this one included
from ..cli import build_parser

# the shells a script can be made for
SHELLS = ("bash", "zsh")

# destinations whose values are file or folder names: FILE, -o/--output, --plot, --template,
# --font (a .ttf file or a family name) and --pvalues (a p-value matrix file)
_FILE_DESTS = frozenset({"files", "file", "output", "plot", "template", "font", "pvalues"})


def register(sub) -> None:
    p = sub.add_parser(
        "completion",
        help="print a shell completion script (bash or zsh)",
        description=(
            "Print a script that completes cdplot's commands, options, option choices and "
            "file names in bash or zsh, made from this version's own options.  Enable it for "
            'the current shell with  eval "$(cdplot completion bash)"  (or zsh), or for every '
            "shell by adding that line to ~/.bashrc (or ~/.zshrc, after compinit)."
        ),
        epilog='Examples: eval "$(cdplot completion bash)"; '
        "cdplot completion zsh > ~/.cdplot-completion.zsh",
    )
    p.add_argument("shell", choices=SHELLS, help="the shell the script is for")
    p.set_defaults(func=run)


def run(args) -> int:
    print(completion_script(build_parser(), args.shell), end="")
    return 0


@dataclass
class _Command:
    """What the completion needs to know about one (sub)command's parser."""

    options: list = field(default_factory=list)
    # option string -> (words, files, optional): what its value completes to
    values: dict = field(default_factory=dict)
    # the positional arguments' completion: choices, and whether file names fit
    words: list = field(default_factory=list)
    files: bool = False


def _describe(parser: argparse.ArgumentParser) -> _Command:
    command = _Command()
    for action in parser._actions:  # read only: argparse lists its actions nowhere else
        if isinstance(action, argparse._SubParsersAction):
            command.words += list(action.choices)
            continue
        choices = [str(c) for c in action.choices or ()]
        files = action.dest in _FILE_DESTS and not choices
        if not action.option_strings:
            command.words += choices
            command.files = command.files or files
            continue
        command.options += action.option_strings
        if action.nargs != 0:
            optional = action.nargs in ("?", "*")
            for flag in action.option_strings:
                command.values[flag] = (choices, files, optional)
    return command


# what a word the script lists may hold: the shell must not read anything into it
_PLAIN = re.compile(r"[A-Za-z0-9_.,:+=/@%-]+")


def _words(words) -> str:
    """``words`` as one single-quoted ``compgen -W`` list."""
    for word in words:
        if not _PLAIN.fullmatch(word):
            raise ValueError(f"{word!r} cannot be completed as a plain shell word")
    return shlex.quote(" ".join(words))


def _reply(words, files: bool) -> str:
    """The shell commands that complete the current word with ``words`` and/or file names."""
    parts = []
    if words:
        parts.append(f'COMPREPLY+=($(compgen -W {_words(words)} -- "$cur"))')
    if files:
        parts.append("_cdplot_files")
    return "; ".join(parts) or ":"


def _command_case(name: str, command: _Command) -> list[str]:
    """The ``case`` branch that completes the words after ``cdplot NAME``."""
    lines = [f"        {name})", '            case "$prev" in']
    # options whose values complete alike share one pattern
    groups: dict = {}
    for flag, (words, files, optional) in command.values.items():
        groups.setdefault((tuple(words), files, optional), []).append(flag)
    for (words, files, optional), flags in groups.items():
        ends = "" if optional else "; return 0"
        lines.append(f"                {'|'.join(flags)}) {_reply(words, files)}{ends} ;;")
    lines += [
        "            esac",
        '            case "$cur" in',
        f"                -*) {_reply(command.options, False)} ;;",
        f"                *) {_reply(command.words, command.files)} ;;",
        "            esac",
        "            ;;",
    ]
    return lines


def _bash_function(parser: argparse.ArgumentParser) -> list[str]:
    """The ``_cdplot`` completion function (bash syntax, also run by zsh's bashcompinit)."""
    top = _describe(parser)
    subs = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    lines = [
        "_cdplot_files() {",
        "    # file names, one a line (names with spaces stay whole); folders too, to descend",
        "    type compopt >/dev/null 2>&1 && compopt -o filenames 2>/dev/null",
        "    local name",
        '    while IFS= read -r name; do COMPREPLY+=("$name"); done < <(compgen -f -- "$cur")',
        "}",
        "",
        "_cdplot() {",
        "    local cur prev cmd i",
        '    cur="${COMP_WORDS[COMP_CWORD]}"',
        '    prev="${COMP_WORDS[COMP_CWORD-1]}"',
        "    COMPREPLY=()",
        "    # the command is the first word that is not an option (cdplot itself has no",
        "    # option that takes a value)",
        "    cmd=",
        "    for ((i = 1; i < COMP_CWORD; i++)); do",
        '        case "${COMP_WORDS[i]}" in',
        "            -*) ;;",
        '            *) cmd="${COMP_WORDS[i]}"; break ;;',
        "        esac",
        "    done",
        '    case "$cmd" in',
        '        "")',
        '            case "$cur" in',
        f"                -*) {_reply(top.options, False)} ;;",
        f"                *) {_reply(top.words, False)} ;;",
        "            esac",
        "            ;;",
    ]
    for name, sub in subs.choices.items():
        lines += _command_case(name, _describe(sub))
    lines += ["    esac", "    return 0", "}"]
    return lines


def completion_script(parser: argparse.ArgumentParser, shell: str) -> str:
    """The completion script of the command ``parser`` describes, for ``shell``.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The root parser, whose subcommands are an ``add_subparsers`` action
        (:func:`cdplot.cli.build_parser`).
    shell : {'bash', 'zsh'}
        The shell that will read the script.

    Returns
    -------
    str
        The script, to be ``eval``-ed or sourced by that shell.
    """
    prog = parser.prog
    head = [
        f"# {shell} completion for {prog} {__version__}, made by '{prog} completion {shell}'.",
        f'# Enable it with:  eval "$({prog} completion {shell})"',
    ]
    if shell == "zsh":
        head += [
            "# zsh runs the bash function below through its bash emulation (bashcompinit),",
            "# which needs the completion system (compinit) loaded first.",
            "(( $+functions[compdef] )) || { autoload -U compinit && compinit; }",
            "autoload -U +X bashcompinit && bashcompinit",
        ]
    # zsh's bashcompinit descends into folders only when told that the words are file names
    # (bash is told by compopt, for the file names alone)
    register = "complete -o filenames -F _cdplot" if shell == "zsh" else "complete -F _cdplot"
    lines = [*head, "", *_bash_function(parser), f"{register} {prog}", ""]
    return "\n".join(lines)
