"""Signals at random moments of a command's first half second (issue 32).

Starts ``cdplot`` commands (``stats``, ``table``, ``plot``, ``report -o x.html``) over
outputs that already exist, sends SIGINT or SIGTERM (to the process, or to its whole
process group as Ctrl-C does) after a random delay of 0 to 0.5 s, and checks each run:

- the exit status is 0 (done before the signal), 130 or 143 (or the process was
  killed by the signal itself before Python started: the shell's 130 or 143);
- stderr holds no traceback ("Traceback", "Exception ignored");
- the output is either its old content or the whole new output (byte for byte the
  output of an uninterrupted run), and no temporary file is left beside it;
- no process of the command's process group is left once it has ended.

Usage::

    python benchmarks/signal_run.py --runs 260 [--seed 1]

Prints the counts and exits with status 1 on any failure.
"""

from __future__ import annotations

import argparse
import collections
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCORES = (ROOT / "cdplot" / "datasets" / "demsar2006.csv").read_text("utf-8")
OLD = b"OLD CONTENT, which a stopped command must leave whole\n"

COMMANDS = {
    "stats.json": ["stats", "in.csv", "--format", "json", "-o", "out.json"],
    "stats.csv": ["stats", "in.csv", "--format", "csv", "-o", "out.csv"],
    "table.tex": ["table", "in.csv", "--format", "latex", "-o", "out.tex"],
    "plot.svg": ["plot", "in.csv", "-o", "out.svg"],
    "plot.png": ["plot", "in.csv", "-o", "out.png"],
    "report.html": ["report", "in.csv", "-o", "out.html", "--date", "2026-01-01"],
}


def _start(folder: Path, argv: list) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SOURCE_DATE_EPOCH": "1767225600"}
    return subprocess.Popen(
        [sys.executable, "-m", "cdplot", *argv],
        cwd=folder,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group: Ctrl-C's target, and ours to check
    )


def _in_python_startup(stderr: str) -> bool:
    """Whether ``stderr`` is Python's report of a Ctrl-C before it ran any line of cdplot.

    Until cdplot's first line runs, Python itself is starting (``site``, ``runpy``
    finding the package) and turns SIGINT into its own KeyboardInterrupt traceback,
    in frames of Python's frozen modules only.
    """
    if "KeyboardInterrupt" not in stderr or str(ROOT / "cdplot") in stderr:
        return False
    frames = [line for line in stderr.splitlines() if line.startswith('  File "')]
    # Python's frozen modules and its standard library (runpy imports contextlib...)
    stdlib = os.path.dirname(os.__file__)
    return all(
        'File "<frozen ' in f or 'File "<string>"' in f or f'File "{stdlib}' in f for f in frames
    )


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=260)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-delay", type=float, default=0.5)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    counts: collections.Counter = collections.Counter()
    failures: list = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "in.csv").write_text(SCORES, encoding="utf-8")
        # the whole output of each command, from an uninterrupted run
        reference = {}
        for key, command in COMMANDS.items():
            proc = _start(folder, command)
            _, err = proc.communicate(timeout=300)
            assert proc.returncode == 0, err
            out = folder / command[command.index("-o") + 1]
            reference[key] = out.read_bytes()
        for i in range(args.runs):
            key = rng.choice(sorted(COMMANDS))
            command = COMMANDS[key]
            out = folder / command[command.index("-o") + 1]
            out.write_bytes(OLD)
            sig = rng.choice([signal.SIGINT, signal.SIGTERM])
            to_group = rng.random() < 0.5
            delay = rng.uniform(0, args.max_delay)
            proc = _start(folder, command)
            time.sleep(delay)
            if proc.poll() is None:
                counts["kills"] += 1
                try:
                    if to_group:
                        os.killpg(proc.pid, sig)
                    else:
                        proc.send_signal(sig)
                except ProcessLookupError:
                    counts["kills"] -= 1
            try:
                _, err = proc.communicate(timeout=120)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                _, err = proc.communicate()
                failures.append((i, key, "hung", b""))
                counts["hung"] += 1
                continue
            status = proc.returncode
            counts["runs"] += 1
            text = err.decode("utf-8", "replace")
            if _in_python_startup(text):
                # Python's own start-up (site, runpy): no line of cdplot has run, nothing
                # cdplot does can catch it; counted apart, not as cdplot's tracebacks
                counts["interrupted while Python itself started"] += 1
                text = ""
            elif status == 0:
                counts["finished before the signal"] += 1
            elif status == 128 + sig:
                counts[f"exit {128 + sig}"] += 1
            elif status == -sig:
                counts[f"killed by {signal.Signals(sig).name} before Python started"] += 1
            else:
                counts["wrong status"] += 1
                failures.append((i, key, f"status {status} after {sig.name}", err))
            if "Traceback" in text or "Exception ignored" in text:
                counts["tracebacks"] += 1
                failures.append((i, key, "traceback", err))
            data = out.read_bytes() if out.exists() else None
            if data == reference[key]:
                counts["outputs new"] += 1
            elif data == OLD:
                counts["outputs old"] += 1
            else:
                counts["damaged outputs"] += 1
                failures.append((i, key, f"output of {0 if data is None else len(data)} B", err))
            left = [p.name for p in folder.iterdir() if p.name not in ("in.csv",)]
            left = [n for n in left if not n.startswith("out.")]
            if left:
                counts["leftover files"] += 1
                failures.append((i, key, f"left {left}", err))
                for name in left:
                    (folder / name).unlink()
            deadline = time.monotonic() + 5
            while _group_alive(proc.pid) and time.monotonic() < deadline:
                time.sleep(0.05)
            if _group_alive(proc.pid):
                counts["leftover processes"] += 1
                failures.append((i, key, "process left", err))
                os.killpg(proc.pid, signal.SIGKILL)
    for name in (
        "runs",
        "kills",
        "finished before the signal",
        "exit 130",
        "exit 143",
        "killed by SIGINT before Python started",
        "killed by SIGTERM before Python started",
        "interrupted while Python itself started",
        "wrong status",
        "tracebacks",
        "outputs old",
        "outputs new",
        "damaged outputs",
        "leftover files",
        "leftover processes",
        "hung",
    ):
        print(f"{name}: {counts[name]}")
    for i, key, what, err in failures[:8]:
        print(f"--- run {i} {key}: {what}\n{err.decode('utf-8', 'replace')[-1500:]}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
