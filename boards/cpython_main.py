# Runs the firmware (or any script written for it) under CPython 3.11+ on a board module of this
# folder: the Raspberry Pi's entry point (the systemd unit runs it on firmware/main.py with
# --board pi_bonnet) and the tests' way to run the host board under CPython.
#
#   python boards/cpython_main.py [--board host|pi_bonnet] [--path DIR ...] SCRIPT [ARGS ...]
#
# It installs pi_compat (what MicroPython has and CPython lacks) and cpython_transport (the phones
# through CPython's asyncio streams), puts the firmware's source folder
# and this folder on the import path (and each --path before them), makes the chosen board module
# the one `import board` gives, and runs SCRIPT as __main__. CPython only: never on a Pico.
import argparse
import importlib
import os
import runpy
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FIRMWARE = os.environ.get("TIDEBOX_FIRMWARE") or os.path.join(os.path.dirname(HERE), "firmware")


def main(argv=None):
    parser = argparse.ArgumentParser(description="Run firmware code under CPython on a Tidebox board.")
    parser.add_argument("--board", default="pi_bonnet", help="board module in boards/ (default pi_bonnet)")
    parser.add_argument("--path", action="append", default=[], help="a folder to import from first")
    parser.add_argument("script")
    parser.add_argument("args", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    for folder in reversed([HERE, FIRMWARE] + args.path):
        if folder not in sys.path:
            sys.path.insert(0, folder)
    import pi_compat

    pi_compat.install()
    import cpython_transport

    cpython_transport.install()  # the phones through CPython's asyncio streams
    sys.modules["board"] = importlib.import_module(args.board)  # what `import board` gives the firmware
    sys.argv = [args.script] + args.args
    runpy.run_path(args.script, run_name="__main__")


if __name__ == "__main__":
    main()
