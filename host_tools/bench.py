"""`make bench`: speed, size and memory figures, each printed as `name: value unit` on its own line.

Every host_tools/bench_*.py module contributes: its `run()` yields (name, value, unit) tuples.
Nothing here asserts; budgets are read by people (and by the tests where a count is deterministic).

A full run (no module named on the command line) also writes the figures to BENCHMARKS.md beside
this file: the date, the commit and the interpreter they were taken with, a table per module, and
which modules failed. It is committed after the run, so the figures have one place and a history. A
run of some modules (`python host_tools/bench.py bench_cpu bench_memory`) only prints.
"""

import datetime
import importlib
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "firmware"))

OUT = HERE / "BENCHMARKS.md"


def main(only=None, folder=HERE, out=OUT):
    """Runs the bench modules in `folder` (those named in `only`, or all); a full run writes `out`."""
    modules = sorted(p.stem for p in Path(folder).glob("bench_*.py"))
    facts = None if only else about_this_run()  # the tree as the run starts, before anything is written
    figures, failed, took = {}, {}, {}
    for name in modules:
        if only and name not in only:
            continue
        started = time.monotonic()
        print("# %s" % name, flush=True)
        figures[name] = []
        try:
            module = importlib.import_module(name)
            for figure, value, unit in module.run():
                print("%s: %s %s" % (figure, value, unit), flush=True)
                figures[name].append((figure, value, unit))
        except Exception as exc:  # noqa: BLE001 - one broken benchmark must not hide the others
            failed[name] = repr(exc)
            print("# %s failed: %r" % (name, exc), flush=True)
        took[name] = time.monotonic() - started
        print("# %s took %.1f s" % (name, took[name]), flush=True)
    if facts is not None:
        facts["load"] = "%s at the start, %s at the end" % (facts.get("load_start", "?"), load_average())
        Path(out).write_text(markdown(facts, figures, failed, took), encoding="utf-8")
        print("# written to %s" % shown_path(out), flush=True)
    return 1 if failed else 0


# ---------------------------------------------------------------- BENCHMARKS.md

def markdown(facts, figures, failed, took=None):
    """BENCHMARKS.md's text. facts: {"date", "commit", "interpreter", "word_bits"} (about_this_run);
    figures: {module: [(figure, value, unit), ...]} in the order run; failed: {module: its error};
    took: {module: seconds}."""
    took = took or {}
    lines = [
        "# Benchmarks",
        "",
        "Written by `make bench` (host_tools/bench.py) on every full run; commit it after the run. What",
        "each figure means: tests/README.md, \"The benches\".",
        "",
        "| | |",
        "| --- | --- |",
        "| date | %s |" % facts["date"],
        "| commit | %s |" % cell(facts["commit"]),
        "| interpreter | %s |" % cell(facts["interpreter"]),
        "| its word | %s-bit |" % facts["word_bits"],
        # the figures in ms of the wall clock (latencies) grow on a busy machine; the counted ones do not
        "| the machine's load (1-minute average, %d cores) | %s |" % (os.cpu_count() or 1,
                                                                     cell(facts.get("load", "not known"))),
        "| failed | %s |" % (", ".join(sorted(failed)) or "none"),
    ]
    for name, rows in figures.items():
        lines += ["", "## %s" % name, ""]
        if name in took:
            lines += ["took %.1f s" % took[name], ""]
        if rows:
            lines += ["| figure | value | unit |", "| --- | --- | --- |"]
            lines += ["| %s | %s | %s |" % (cell(f), cell(v), cell(u)) for f, v, u in rows]
        if name in failed:
            if rows:
                lines.append("")
            lines.append("**failed%s:** %s" % (" after these figures" if rows else "", cell(failed[name])))
    return "\n".join(lines) + "\n"


def cell(value):
    """A value as a Markdown table cell: on one line, its bars escaped."""
    return " ".join(str(value).split()).replace("|", "\\|")


def about_this_run():
    """The date, the git commit (short; "+ uncommitted changes" when the tree differs from it, this
    file's own output left aside), and the MicroPython port the boxes run on with its word size."""
    import boxrig
    import build

    return {"date": datetime.date.today().isoformat(), "commit": commit(build.ROOT),
            "interpreter": interpreter(build.micropython(), build.ROOT), "word_bits": boxrig.WORD_BITS,
            "load_start": load_average()}


def load_average():
    """The machine's 1-minute load average, as text ("not known" where the system has none)."""
    try:
        return "%.1f" % os.getloadavg()[0]
    except OSError:
        return "not known"


def commit(root, record=OUT):
    """HEAD's short hash, and "+ uncommitted changes" when any file but `record` differs from it."""
    def git(*args):
        return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, timeout=30,
                              check=True).stdout

    try:
        own = Path(record).resolve().relative_to(Path(root).resolve()).as_posix()
    except ValueError:
        own = None
    try:
        head = git("rev-parse", "--short", "HEAD").strip()
        changed = [line for line in git("status", "--porcelain").splitlines() if line[3:].strip('"') != own]
    except (OSError, subprocess.SubprocessError):
        return "unknown (not a git checkout)"
    return head + (" + uncommitted changes" if changed else "")


def interpreter(path, root):
    """Which MicroPython: its path inside the repository (only its name when outside), whether the
    MICROPYTHON variable chose it, and the version it says it is."""
    chosen = "MICROPYTHON" if os.environ.get("MICROPYTHON") else "the default"
    path = shutil.which(path) or path
    try:
        where = "`%s`" % Path(path).resolve().relative_to(Path(root).resolve()).as_posix()
    except ValueError:
        where = "`%s` outside the repository" % Path(path).name
    try:
        version = subprocess.run([path, "-c", "import sys; print(sys.version.split('; ')[-1])"],
                                 capture_output=True, text=True, timeout=30, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        version = ""
    return "%s (%s): %s" % (where, chosen, version or "its version unknown")


def shown_path(path):
    try:
        return Path(path).resolve().relative_to(HERE.parent).as_posix()
    except ValueError:
        return Path(path).name


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
