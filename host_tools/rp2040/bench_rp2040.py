"""`make bench-rp2040`: Tidebox's costs on the real rp2 MicroPython firmware in the rp2040js emulator.

    python host_tools/rp2040/bench_rp2040.py [--firmware-dir build/firmware] [--only mpy|frozen|romfs]

rp2040js (npm, pinned in package.json) runs the RPI_PICO_W firmware with timers that follow the
executed cycles, so time.ticks_us() on the device measures Cortex-M0+ time at 125 MHz. Three variants:

- `romfs`: the firmware Tidebox ships (boards/firmware/tidebox-pico_w.uf2, checked against
  firmware.json; or a ROMFS build in the firmware folder, romfs-RPI_PICO_W/, when there is one) with
  the bundle's ROMFS image (romfs.py, what `make deploy` writes) at its partition's place in flash,
  mounted at /rom by the firmware at boot; its littlefs holds only the harness. Needs no MicroPython
  tree.
- `.mpy`: the stock firmware (firmware.py --stock, stock-RPI_PICO_W/) with the bundle's .mpy files
  on its littlefs, as `make deploy DEPLOY=mpy` leaves a board;
- `frozen`: Tidebox's frozen firmware (make firmware-frozen, RPI_PICO_W/): the same modules frozen
  into flash.

The last two are built from a MicroPython tree (`make bench-rp2040 MICROPYTHON_SRC=<tree>` builds
both first); without them the bench says so in one line each and runs the ROMFS variant alone.

Every littlefs image also holds emu_board.py as board.mpy (the Pico's buttons, buzzer and
watchdog; an in-RAM display, a fake radio, no flash writes; the filesystem comes first in sys.path,
so it shadows the frozen or ROMFS board) and tidebox_bench.py, which the harness runs through the
raw REPL (run.mjs). The figures are lower bounds: no flash-cache misses (the emulator reads flash at
RAM speed), no lwIP or Wi-Fi work, no I2C transfer. About 3 minutes a variant.

GC_PROBE=1 in the environment, or --profile: run.mjs watches the collector or samples where the
cycles go, with the firmware's symbols (arm-none-eabi-nm on the build's firmware.elf): how deep its
mark stack went, each time it overflowed (gc.c then scans every marked block again) with the object
being scanned and what refers to it, and the heap's layout after the game is set up. The shipped
image comes without its ELF file, so these need a build (the ROMFS one: `python
host_tools/firmware.py firmware --src <tree> --board pico_w --romfs --no-frozen`).
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import build  # noqa: E402
import bundle  # noqa: E402
import deploy  # noqa: E402
import romfs  # noqa: E402
import shipped  # noqa: E402
import uf2  # noqa: E402

OUT = build.ROOT / "build" / "bench-rp2040"
BOARD = "RPI_PICO_W"  # rp2040js emulates the RP2040 only: the Pico 2 W's RP2350 is not measured
FS_OFFSET = 0x12C000  # 2 MB flash less the RPI_PICO_W build's 848 KB filesystem
LAYOUT = romfs.LAYOUTS["pico_w"]  # the ROMFS build's: the same filesystem, the partition below it
assert LAYOUT.storage_offset == FS_OFFSET
KINDS = ("mpy", "frozen", "romfs")
# (key, label) in the order; "_threshold": with gc.threshold(mem_free // 16)
ROWS = (
    ("idle_poll", "one idle poll (GET /api/state?v=N, nothing changed)"),
    ("idle_poll_threshold", "  the same with gc.threshold(mem_free // 16)"),
    ("full_view", "a full-view request"),
    ("full_view_threshold", "  the same with gc.threshold(mem_free // 16)"),
    ("change_8_views", "a change, then the eight phones' full views"),
    ("gc_collect", "gc_collect_ms: gc.collect(), 8-player game"),
    ("view_rebuild", "rebuilding the shared part of the view"),
    ("seat_of", "seats.seat_of(token)"),
    ("button_loop", "one pass of the 10 ms button loop, nothing pressed"),
    ("button_loop_mean", "  the mean pass (the share of the core: / 10 ms)"),
    ("button_loop_net", "  the same, less what timing it adds (the harness's wrappers, below)"),
    ("button_loop_buttons", "  a pass that reads the buttons only (1 in 4)"),
    ("button_loop_tick", "  a pass that also ticks the panel (every other)"),
    ("button_loop_collect", "  a pass that also asks the idle collector (1 in 4; it may collect)"),
    ("button_loop_harness", "  what the harness's timing wrappers add to each pass (taken off above)"),
    ("loop_sleep", "  the asyncio round trip (sleep_ms) that ends each pass"),
    ("rival_move", "a Pearl Reach rival's move (sharp, four gatherers, every turn of a game)"),
)


def node_modules():
    if not (HERE / "node_modules" / "rp2040js").is_dir():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=HERE, check=True)


def image(tree, out_img):
    """A littlefs image of `tree` (made by the MicroPython unix port's own littlefs)."""
    subprocess.run([build.micropython(), "-X", "heapsize=4M", str(HERE / "make_lfs.py"), str(tree),
                    str(out_img)], check=True)


def stage(kind, work):
    """The filesystem tree for one build: the bundle (.mpy) or nothing but the harness (frozen, romfs)."""
    tree = work / ("tree-" + kind)
    if tree.exists():
        shutil.rmtree(tree)
    if kind == "mpy":
        # Every firmware module compiled as the bundle compiles it (the bundle keeps only those
        # main.py imports; the others cost flash here, no heap), laid out as on the board.
        build.build_tree(tree, "pico_w.py", ("pico_common.py",))
        (tree / "main.py").unlink()  # nothing may start at boot: the harness drives the REPL
    tree.mkdir(parents=True, exist_ok=True)
    for src, name in ((HERE / "emu_board.py", "board"), (HERE / "tidebox_bench.py", "tidebox_bench")):
        (tree / (name + ".mpy")).unlink(missing_ok=True)
        build.compile_file(src, tree / (name + ".mpy"), name + ".py")
    return tree


def romfs_image(work):
    """The ROMFS image of the Pico W bundle (bundle.py, then romfs.py: what deploy writes)."""
    tree = work / "bundle-pico_w"
    bundle.build_bundle(tree, "pico_w")
    path, data = romfs.write_bundle_image(tree, work / "bundle-pico_w.romfs")
    if len(data) > LAYOUT.romfs_bytes:
        raise SystemExit("the ROMFS image (%d bytes) is larger than the partition (%d)" % (len(data),
                                                                                          LAYOUT.romfs_bytes))
    print("# romfs: the bundle's image, %d bytes, at 0x%x (a %d KB partition)"
          % (len(data), LAYOUT.romfs_offset, LAYOUT.romfs_bytes // 1024), flush=True)
    return path


# Before the harness is imported: the heap it takes itself is the difference to the first prompt's.
GO = """import gc
gc.collect()
print("HEAP before_harness free=%%d alloc=%%d" %% (gc.mem_free(), gc.mem_alloc()))
import tidebox_bench
tidebox_bench.%s()
"""


def run_one(kind, firmware_bin, work, timeout, entry="run"):
    end = LAYOUT.romfs_offset if kind == "romfs" else FS_OFFSET
    if firmware_bin.stat().st_size > end:
        raise SystemExit("%s is larger than the space before the %s" % (
            firmware_bin, "ROMFS partition" if kind == "romfs" else "filesystem"))
    tree = stage(kind, work)
    env = dict(os.environ)
    rom = None
    if kind == "romfs":
        tagged = romfs.tagged_partition(firmware_bin.read_bytes())
        if tagged != (0x10000000 + LAYOUT.romfs_offset, LAYOUT.romfs_bytes):
            raise SystemExit("%s declares its ROMFS partition at %r, not where romfs.py puts the image"
                             % (firmware_bin, tagged))
        rom = romfs_image(work).read_bytes()
        env.update(ROMFS_IMG=str(work / "bundle-pico_w.romfs"), ROMFS_OFFSET=str(LAYOUT.romfs_offset))
        # deploy's own probe, as `make deploy` runs it on such a board, after the figures: a module
        # on the littlefs, so its code takes no heap before it is imported.
        (tree / "deploy_probe.py").write_text(deploy.probe_script((), "/", len(rom)))
    img = work / ("littlefs-%s.img" % kind)
    image(tree, img)
    env.update(LFS_IMG=str(img), LFS_OFFSET=str(FS_OFFSET))
    script = work / "go.py"
    script.write_text(GO % entry + ("import deploy_probe\n" if rom is not None and entry == "run" else ""))
    if entry == "profile" or os.environ.get("GC_PROBE"):  # run.mjs needs the firmware's symbols
        syms = work / ("syms-%s.txt" % kind)
        with open(syms, "w") as f:
            subprocess.run(["arm-none-eabi-nm", "-n", "-S", str(firmware_bin.with_suffix(".elf"))],
                           stdout=f, check=True)
        env["SYMS"] = str(syms)
    print("# %s: booting %s in rp2040js ..." % (kind, shipped.shown(firmware_bin)), flush=True)
    proc = subprocess.run(["node", str(HERE / "run.mjs"), str(firmware_bin), str(script), str(timeout)],
                          cwd=HERE, env=env, capture_output=True, text=True)
    (work / ("%s-%s.log" % (kind, entry))).write_text(proc.stdout + "\n--- stderr\n" + proc.stderr)
    if entry == "profile" or env.get("GC_PROBE"):
        lines = [x for x in proc.stdout.splitlines() if x.startswith(("[prof]", "PART", "[gc]"))]
        print("\n".join("# %s %s" % (kind, x) for x in lines))
    if proc.returncode != 0 or "DONE" not in proc.stdout:
        print(proc.stdout[-3000:] + proc.stderr[-3000:], file=sys.stderr)
        raise SystemExit("the %s run failed (exit %d); log in %s" % (kind, proc.returncode, work))
    if rom is not None and entry == "run":
        probed = deploy.parse_marked(proc.stdout, deploy.PROBE_MARK)
        found = probed.get("romfs") or {}
        same = found.get("sha256") == romfs.sha256(rom)
        holds = "the image deploy would write" if same else "ANOTHER image"
        frozen = "frozen in" if probed["frozen"] else "not frozen in"
        files = ", ".join(sorted(probed["files"]))
        print("# romfs: deploy's probe on the device: a %s-byte ROMFS partition holding %s; Tidebox %s; "
              "the littlefs holds %s" % (found.get("size"), holds, frozen, files), flush=True)
        if found.get("size") != LAYOUT.romfs_bytes or not same or probed["frozen"]:
            raise SystemExit("deploy's probe does not see the ROMFS firmware with the image; log in %s"
                             % work)
    return parse(proc.stdout)


def parse(text):
    found = {"results": {}, "heap": {}, "alloc": {}, "info": []}
    for line in text.splitlines():
        if line.startswith("OK"):
            line = line[2:]  # the raw REPL's acknowledgement precedes the script's first line
        m = re.match(r"RESULT (\S+) median_us=(-?[\d.]+) min_us=(-?[\d.]+) max_us=(-?[\d.]+) n=(\d+)", line)
        if m:
            found["results"][m.group(1)] = [float(m.group(i)) for i in (2, 3, 4)]
        m = re.match(r"HEAP (\S+) free=(\d+) alloc=(\d+)", line)
        if m:
            found["heap"][m.group(1)] = (int(m.group(2)), int(m.group(3)))
        m = re.match(r"ALLOC (\S+) (-?\d+)", line)
        if m:
            found["alloc"][m.group(1)] = int(m.group(2))
        if line.startswith("INFO"):
            found["info"].append(line)
    return found


def table(runs):
    kinds = list(runs)
    lines = ["| what (ms at 125 MHz, median) | " + " | ".join(kinds) + " |",
             "| --- |" + " --- |" * len(kinds)]
    for key, label in ROWS:
        cells = []
        for kind in kinds:
            r = runs[kind]["results"].get(key)
            cells.append("%.2f" % (r[0] / 1000) if r else "-")
        lines.append("| %s | %s |" % (label, " | ".join(cells)))
    for key, label in (("rival_move", "  the slowest of them (goal: 200 ms)"),):
        cells = []
        for kind in kinds:
            r = runs[kind]["results"].get(key)
            cells.append("%.2f" % (r[2] / 1000) if r else "-")
        lines.append("| %s | %s |" % (label, " | ".join(cells)))
    for key, label in (("idle_poll", "heap allocated by one idle poll (B)"), ("seat_of", "by seat_of (B)"),
                       ("button_loop", "by one button-loop pass (B)")):
        lines.append("| %s | %s |" % (label, " | ".join(str(runs[k]["alloc"].get(key, "-")) for k in kinds)))
    for key, label in (("first_prompt", "heap free at the first prompt (B)"),
                       ("game", "heap free, box up with the 8-player game, collected (B)"),
                       ("after_requests", "heap free after the requests, collected (B)")):
        cells = [str(runs[k]["heap"].get(key, ("-",))[0]) for k in kinds]
        lines.append("| %s | %s |" % (label, " | ".join(cells)))
    for label, value in (("the heap (pool: free + allocated) (B)", pool),
                         ("heap in use with the 8-player game: pool less free (B)", used),
                         ("  of which the harness (tidebox_bench, its script) (B)", harness)):
        lines.append("| %s | %s |" % (label, " | ".join(str(value(runs[k])) for k in kinds)))
    return "\n".join(lines)


def pool(run):
    free, alloc = run["heap"]["first_prompt"]
    return free + alloc


def used(run):
    return pool(run) - run["heap"]["game"][0]


def harness(run):
    """What importing the harness took: allocated at the first prompt less before the import."""
    if "before_harness" not in run["heap"]:
        return "-"
    return run["heap"]["first_prompt"][1] - run["heap"]["before_harness"][1]


# Each variant's build in the firmware folder (firmware.py's); without one, romfs runs the shipped image.
BUILDS = {"mpy": ("stock-" + BOARD, "stock"), "frozen": (BOARD, "frozen"),
          "romfs": ("romfs-" + BOARD, "ROMFS")}
HOW = "`make bench-rp2040 MICROPYTHON_SRC=<a MicroPython tree>` builds it"


def shipped_romfs(work):
    """The shipped Pico W image (checked against firmware.json) as the flash holds it from 0, written
    into `work`; SystemExit saying what is wrong."""
    try:
        path = shipped.check("pico_w")
        data = uf2.uf2_to_bin(path.read_bytes())
    except (OSError, ValueError) as e:
        raise SystemExit("bench-rp2040: the shipped firmware: %s" % e) from None
    out = work / "shipped-pico_w.bin"
    out.write_bytes(data)
    return shipped.shown(path), out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--firmware-dir", default=str(build.ROOT / "build" / "firmware"),
                        help="firmware.py's builds: stock-RPI_PICO_W/, RPI_PICO_W/, romfs-RPI_PICO_W/")
    parser.add_argument("--only", choices=KINDS, help="run one variant (romfs: the shipped firmware)")
    parser.add_argument("--timeout", type=int, default=1200, help="seconds per run")
    parser.add_argument("--profile", action="store_true",
                        help="where the cycles go instead of the table (PC sampler; a build's firmware.elf "
                        "and arm-none-eabi-nm)")
    args = parser.parse_args(argv)
    fw = Path(args.firmware_dir).resolve()  # run.mjs runs in this folder: a relative path would miss
    wanted = [k for k in KINDS if not args.only or k == args.only]
    needs_elf = args.profile or bool(os.environ.get("GC_PROBE"))
    OUT.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="run-", dir=OUT))
    builds = {}
    for kind in wanted:
        folder, what = BUILDS[kind]
        firmware_bin = fw / folder / "firmware.bin"
        if firmware_bin.exists():
            builds[kind] = firmware_bin
            print("# %s: the %s firmware built in %s" % (kind, what, shipped.shown(firmware_bin)), flush=True)
        elif kind != "romfs":
            print("bench-rp2040: the %s variant is left out: no %s firmware build in %s/; %s"
                  % (kind, what, shipped.shown(fw / folder), HOW), file=sys.stderr, flush=True)
        elif needs_elf:
            print("bench-rp2040: the romfs variant is left out: --profile and GC_PROBE need the firmware's "
                  "ELF file, which the shipped image comes without; `python host_tools/firmware.py firmware "
                  "--src <a MicroPython tree> --board pico_w --romfs --no-frozen` builds one",
                  file=sys.stderr, flush=True)
        else:
            shown, builds[kind] = shipped_romfs(work)
            version = (shipped.manifest().get("images", {}).get("pico_w") or {}).get("version", "")
            print("# romfs: the shipped firmware, %s (%s)" % (shown, version), flush=True)
    if not builds:
        print("bench-rp2040: nothing to run", file=sys.stderr)
        shutil.rmtree(work, ignore_errors=True)
        return 1
    node_modules()
    runs = {}
    for kind, firmware_bin in builds.items():
        if args.profile:
            run_one(kind, firmware_bin, work, args.timeout, "profile")
            continue
        runs[kind] = run_one(kind, firmware_bin, work, args.timeout)
        for line in runs[kind]["info"]:
            print("# %s %s" % (kind, line))
    if runs:
        print(table(runs))
    print("# logs: %s" % shipped.shown(work))
    return 0


if __name__ == "__main__":
    sys.exit(main())
