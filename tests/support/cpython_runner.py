"""Run firmware code (the scripts of tests/mp_scripts/, main.py) under CPython, as the Raspberry Pi
board runs it: boards/cpython_main.py installs boards/pi_compat.py (what MicroPython has and CPython
lacks) and the CPython transport, and makes `board` the board module asked for. The same run() as
micropython_runner.MicroPython, so a test runs one script on either interpreter."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAUNCHER = ROOT / "boards" / "cpython_main.py"
MP_SCRIPTS = ROOT / "tests" / "mp_scripts"
TESTS = ROOT / "tests" / "support"  # the boards the tests stand in (pi_panel_board.py, ...)


def command(script, board="host"):
    """The command line that runs `script` under CPython on `board` (a module in boards/ or
    tests/support/)."""
    return [sys.executable, str(LAUNCHER), "--board", board, "--path", str(MP_SCRIPTS), "--path", str(TESTS),
            str(script)]


class CPython:
    def __init__(self, tree, board="host"):
        self.tree = Path(tree)  # the working folder: the built page (www/) and the simulator's page
        self.board = board

    def run(self, script, stdin="", heap=None, timeout=300, env=None):
        """Run a script file under CPython; `heap` is MicroPython's and ignored here."""
        import os

        full_env = dict(os.environ)
        full_env.update(env or {})
        return subprocess.run(command(script, self.board), input=stdin, capture_output=True, text=True,
                              timeout=timeout, env=full_env, cwd=str(self.tree))
