"""Power cuts during a save on the emulated Pico W (make sim-pico's emulator, its flash model).

    python host_tools/rp2040/power_cuts.py [--firmware-dir build/firmware] [--cuts 50] [--seed 1]

The save cut is the one choosing a game makes (the box saves the chosen game before showing its
join screen; without phones, the emulated chip has no radio, it is the save a button makes). Each
run starts from the same flash (a box booted once: its hotspot password saved), boots, presses C on
the game menu with a cut armed at a random one of that save's flash operations, a random fraction of
the way through it (pico_sim.mjs /cut), and checks the chip after it restarts from that flash:
it boots (littlefs mounts: the rp2 port would format a filesystem it cannot mount, and main.py
would be gone), nothing is logged as an error, and the panel shows either the game menu (the save
did not happen) or the chosen game's join screen (it did), nothing else. Prints the tally.
"""

import argparse
import base64
import random
import shutil
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import bench_pico  # noqa: E402
import build  # noqa: E402
import sim_pico  # noqa: E402

OUT = build.ROOT / "build" / "power-cuts"


def pixels(status):
    return base64.b64decode(status["panel"]["pixels"])


def boot(flash, log):
    emu = sim_pico.Emulator(flash, log)
    bench_pico.wait(emu, lambda s: "tidebox: pico_w on port" in s["console"], "the box's start")
    return emu, bench_pico.settled(emu)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--firmware-dir", default=str(build.ROOT / "build" / "firmware"))
    parser.add_argument("--cuts", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    try:
        first = sim_pico.prepare(OUT, args.firmware_dir, fresh=True)
    except sim_pico.SimError as e:
        print("power-cuts: %s" % e, file=sys.stderr)
        return 1
    sim_pico.node_modules()
    base, trial = OUT / "base.bin", OUT / "trial.bin"
    emu, menu_status = boot(first, OUT / "first.log")  # the first boot saves the hotspot's password
    emu.stop()
    shutil.copyfile(first, base)
    # The run without a cut: what the menu and the join screen look like, how many flash operations
    # the save takes.
    shutil.copyfile(base, trial)
    emu, s0 = boot(trial, OUT / "reference.log")
    menu = pixels(s0)
    emu.press("C", 120)
    s1 = bench_pico.settled(emu)
    emu.stop()
    joined = pixels(s1)
    erases = s1["flash"]["erases"] - s0["flash"]["erases"]
    ops = erases + s1["flash"]["programs"] - s0["flash"]["programs"]
    if joined == menu or ops < 1:
        raise SystemExit("power-cuts: choosing a game changed nothing or saved nothing (%d flash operations)"
                         % ops)
    print("# the save takes %d flash operations (%d erases)" % (ops, erases))
    tally = {"menu": 0, "joined": 0}
    failures = []
    t0 = time.monotonic()
    for i in range(args.cuts):
        shutil.copyfile(base, trial)
        op, fraction = rng.randint(1, ops), round(rng.random(), 3)
        emu, status = boot(trial, OUT / ("cut-%d.log" % i))
        try:
            emu._call("/cut", {"op": op, "fraction": fraction})
            emu.press("C", 120)
            bench_pico.wait(emu, lambda s: s["resets"] and s["console"].count("tidebox: pico_w on port") >= 2,
                            "the restart after the cut", 120)
            after = bench_pico.settled(emu)
        finally:
            emu.stop()
        tail = after["console"].split("power cut")[-1]
        shown = pixels(after)
        outcome = "menu" if shown == menu else "joined" if shown == joined else None
        bad = [w for w in ("Traceback", "Error", "crash") if w in tail]
        if outcome is None or bad:
            failures.append((i, op, fraction, after["resets"][-1]["reason"], bad, tail[-600:]))
        else:
            tally[outcome] += 1
        print("cut %2d: op %d at %3.0f %%: %s -> %s%s" % (
            i, op, 100 * fraction, after["resets"][-1]["reason"], outcome or "ANOTHER SCREEN",
            " " + str(bad) if bad else ""), flush=True)
    print("| power cuts during the save of a chosen game | %d |" % args.cuts)
    print("| the box came back to the game menu (save not made) | %d |" % tally["menu"])
    print("| the box came back to the game's join screen (save made) | %d |" % tally["joined"])
    print("| damaged: another screen, an error, or no boot | %d |" % len(failures))
    print("# %.0f s of wall time" % (time.monotonic() - t0))
    for f in failures:
        print("# failure: cut %d, op %d at %.3f: %s %s\n%s" % f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
