"""CPU figures on this machine's x86-64 core, as instructions counted by callgrind (valgrind).

The firmware's web app is driven in-process under MicroPython (mp_web_drive.py: an 8-player game
three rounds in, requests through in-memory connections, no sockets, no panel loop, no periodic
task). Each figure runs the same scenario with two request counts and divides the difference by the
difference of the counts, so the start-up (CPython's and MicroPython's, the imports, the game set-up)
cancels out. From the same runs:

- allocations per idle poll: calls of MicroPython's gc_alloc() (every heap allocation goes through
  it, including those gc_realloc() makes), counted by callgrind;
- <figure>_collections_per_100: calls of gc_collect_start() (automatic and asked-for collections
  alike), with main.py's collection policy (tidebox/collect.py: its tick() runs between requests, as
  the panel loop does), at the memory proof's heap size;
- idle_poll_heap_bytes, full_view_heap_bytes: gc.mem_alloc() growth with the collector off;
- collections_per_100_idle_polls: collections in the middle of an idle poll (gc.mem_alloc() fell
  during it), and idle_collections_per_100_idle_polls: the panel loop's, between requests.

Rough RP2040 time: instructions x 1.3 (Thumb density) / (125 MHz x ~0.8 IPC), firmware/MEMORY.md.
Without valgrind the figures are skipped; `MICROPYTHON` picks the interpreter, as everywhere.
"""

import json
import shutil
import subprocess
import tempfile
from pathlib import Path

import build
from memory_proof import PROOF_HEAP_KB

DRIVE = Path(__file__).resolve().parent / "mp_web_drive.py"
# (mode, figure, fewer, more): the counts of the two runs (a "change" is a change + 8 full views)
RUNS = (
    ("idle", "idle_poll", 16, 116),
    ("view", "full_view", 8, 48),
    ("change", "change_and_8_views", 1, 6),
    # The requests' own work, no collection in it or after it: what a phone waits for.
    ("idle_nogc", "idle_poll_alone", 16, 116),
    ("view_nogc", "full_view_alone", 8, 48),
    ("change_nogc", "change_and_8_views_alone", 1, 6),
)
COUNTED = ("gc_alloc", "gc_collect_start")


def drive(tree, mode, count, callgrind_out=None):
    """Runs the driver; returns its first line (JSON). With callgrind_out, under callgrind. A mode
    ending in "_nogc" runs with the collector off, in a heap large enough for that."""
    state = tempfile.mkdtemp(prefix="tidebox-cpu-")
    heap = "%dK" % PROOF_HEAP_KB
    args = [mode, str(count)]
    if mode.endswith("_nogc"):
        heap = "64M"
        args = [mode[:-5], str(count), "nogc"]
    try:
        env = build.micropython_env(tree, {"TIDEBOX_STATE_DIR": state})
        cmd = [build.micropython(), "-X", "heapsize=" + heap, str(DRIVE)] + args
        if callgrind_out:
            cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + callgrind_out] + cmd
        proc = subprocess.run(cmd, cwd=str(tree), env=env, capture_output=True, text=True, timeout=900)
    finally:
        shutil.rmtree(state, ignore_errors=True)
    if proc.returncode != 0:
        raise RuntimeError("%s %d failed:\n%s" % (mode, count, (proc.stdout + proc.stderr)[-2000:]))
    return json.loads(proc.stdout.strip().splitlines()[0])


def read_callgrind(path):
    """(total instructions, {function: calls}) for the functions in COUNTED."""
    names = {}  # callgrind's compressed names: "(12) gc_alloc" once, then "(12)"
    calls = dict.fromkeys(COUNTED, 0)
    total = None
    callee = None
    with open(path) as f:
        for line in f:
            if line.startswith(("fn=", "cfn=")):
                ref = line.split("=", 1)[1].strip()
                if ref.startswith("("):
                    key, _, name = ref.partition(")")
                    name = name.strip()
                    if name:
                        names[key] = name
                    ref = names.get(key, "")
                if line.startswith("cfn="):
                    callee = ref
            elif line.startswith("calls=") and callee in calls:
                calls[callee] += int(line.split("=", 1)[1].split()[0])
            elif line.startswith(("summary:", "totals:")):
                total = int(line.split(":", 1)[1].split()[0])
    return total, calls


def counted(tree, mode, count):
    with tempfile.TemporaryDirectory(prefix="tidebox-callgrind-") as folder:
        out = folder + "/callgrind.out"
        drive(tree, mode, count, callgrind_out=out)
        return read_callgrind(out)


def run():
    tree = build.build_sim()
    alloc = drive(tree, "alloc", 100)
    yield "idle_poll_heap_bytes", round(alloc["bytes_per_poll"]), "B"
    yield "full_view_heap_bytes", alloc["bytes_per_view"], "B"
    # In the middle of a request (the panel loop's own collections between requests are not counted)
    polls = alloc["polls"]
    yield "collections_per_100_idle_polls", alloc["collections"] * 100 // polls, "collections"
    yield "idle_collections_per_100_idle_polls", alloc["idle_collections"] * 100 // polls, "collections"
    if shutil.which("valgrind") is None:
        yield "idle_poll_instructions", "skipped: valgrind missing (Debian: apt-get install valgrind)", ""
        return
    for mode, figure, fewer, more in RUNS:
        low_total, low_calls = counted(tree, mode, fewer)
        high_total, high_calls = counted(tree, mode, more)
        per = (high_total - low_total) / (more - fewer)
        yield figure + "_instructions", round(per), "x86 instructions"
        yield figure + "_rp2040_ms_estimate", round(per * 1.3 / (125e6 * 0.8) * 1000, 1), "ms"
        if mode == "idle":
            runs = more - fewer
            allocs = (high_calls["gc_alloc"] - low_calls["gc_alloc"]) / runs
            yield "allocations_per_idle_poll", round(allocs, 1), "allocations"
        collections = (high_calls["gc_collect_start"] - low_calls["gc_collect_start"]) * 100 / (more - fewer)
        if not mode.endswith("_nogc"):
            yield figure + "_collections_per_100", round(collections, 1), "collections (idle ones included)"
