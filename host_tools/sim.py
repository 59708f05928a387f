"""`make sim`: run the firmware under the real MicroPython unix port on boards/host.py.

Compiles the firmware to .mpy (as on the board), then runs main.py with a Pico-like heap and
prints where to open the box and where phones join. Ctrl-C stops it; the game is saved in
sim_state/ and resumes next time.
"""

import argparse
import os
import subprocess
import sys
from pathlib import Path

import build
from boxrig import BOX_HEAP

SIM_HEAP = BOX_HEAP  # the Pico W's heap, for the port MicroPython runs on (boxrig.pico_heap)
RESET_EXIT = 75  # boards/host.py: a board reset (the watchdog, a crash of main): the board boots again
SOFT_RESET_EXIT = 76  # ... the box restarted itself (between games, or short of memory)


def sim_command(tree, heap=SIM_HEAP):
    return [build.micropython(), "-X", "heapsize=" + heap, str(Path(tree) / "main.py")]


def sim_env(tree, port, state_dir, extra=None):
    env = build.micropython_env(tree, extra)
    env["TIDEBOX_PORT"] = str(port)
    env["TIDEBOX_STATE_DIR"] = str(state_dir)
    return env


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--state", default=str(build.ROOT / "sim_state"), help="folder for the saved game")
    parser.add_argument("--heap", default=SIM_HEAP)
    args = parser.parse_args()
    tree = build.build_sim()
    os.makedirs(args.state, exist_ok=True)
    print("Tidebox simulator (MicroPython, heap %s)" % args.heap)
    print("  the box:  http://localhost:%d/sim" % args.port)
    print("  phones:   http://localhost:%d/" % args.port)
    sys.stdout.flush()
    boot = 0
    try:
        while True:  # as a board does: after a reset or a soft reset, main.py runs again
            env = sim_env(tree, args.port, os.path.abspath(args.state), {"TIDEBOX_BOOT": str(boot)})
            code = subprocess.call(sim_command(tree, args.heap), cwd=tree, env=env)
            boot += 1
            if code == RESET_EXIT:
                print("the board reset (its watchdog, or a crash): it starts again")
            elif code != SOFT_RESET_EXIT:
                return code
            sys.stdout.flush()
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
