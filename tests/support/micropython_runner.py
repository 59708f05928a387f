"""Run firmware code in the real MicroPython unix port and bring the results back as JSON."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "host_tools"))

import build  # noqa: E402

MP_SCRIPTS = ROOT / "tests" / "mp_scripts"
# A Pico W has about 205 KB of heap; the 64-bit unix port's objects are larger, so this is tighter.
PICO_HEAP = "192K"


class MicroPython:
    def __init__(self, tree):
        self.tree = Path(tree)
        self.executable = build.micropython()

    def env(self, extra=None, path=()):
        """The interpreter's environment: the shared scripts (tests/mp_scripts/) and the folders in
        `path` on MICROPYPATH before the firmware's."""
        env = build.micropython_env(self.tree, extra)
        env["MICROPYPATH"] = ":".join([*map(str, path), str(MP_SCRIPTS), env["MICROPYPATH"]])
        return env

    def run(self, script, stdin="", heap=PICO_HEAP, timeout=300, env=None, path=()):
        """Run a script file under MicroPython; returns the CompletedProcess. A script run from a
        game's tests folder imports that folder's modules (its own folder) and the shared scripts."""
        return subprocess.run(
            [self.executable, "-X", "heapsize=" + heap, str(script)],
            input=stdin, capture_output=True, text=True, timeout=timeout, env=self.env(env, path),
        )

    def call_many(self, module, func, calls, heap=PICO_HEAP):
        """Call module.func(*args) for each args in calls, in one interpreter run. `module` is a
        module's dotted name (the firmware's, or a script's in tests/mp_scripts/), or the path of a
        module file elsewhere (a game's own, in its tests folder: tests/games/<game id>/)."""
        path = ()
        if isinstance(module, Path):
            path, module = (module.parent,), module.stem
        request = json.dumps({"module": module, "func": func, "calls": calls})
        proc = self.run(MP_SCRIPTS / "driver.py", request, heap=heap, path=path)
        if proc.returncode != 0:
            raise RuntimeError("micropython failed:\n" + proc.stdout + proc.stderr)
        return json.loads(proc.stdout)

    def call(self, module, func, *args):
        """One call; returns the result or raises RuntimeError naming the MicroPython exception."""
        (result,) = self.call_many(module, func, [list(args)])
        if "error" in result:
            raise MicroPythonError(result["error"], result["msg"])
        return result["ok"]


class MicroPythonError(Exception):
    def __init__(self, name, msg):
        super().__init__("%s: %s" % (name, msg))
        self.name = name
        self.msg = msg
