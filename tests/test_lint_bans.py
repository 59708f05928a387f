"""The lint bans hold where they are meant to: inside firmware/ the project's MicroPython bans
(pyproject.toml) and the hardware bans (firmware/ruff.toml) both apply; boards/ may use hardware;
the host side may use CPython. Each probe is linted as if it lay at that path (ruff's --stdin-filename),
so no file is written into the tree."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RUFF = Path(sys.executable).parent / "ruff"


def banned(path, source):
    """The TID251 (banned API) messages ruff gives for `source` placed at `path`."""
    command = [str(RUFF), "check", "--no-cache", "--select", "TID251", "--output-format", "concise",
               "--stdin-filename", path, "-"]
    proc = subprocess.run(command, input=source, capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode in (0, 1), proc.stderr
    return [line for line in proc.stdout.splitlines() if "TID251" in line]


@pytest.mark.parametrize("source, name", [
    ("import itertools\n", "itertools"),
    ("import asyncio\n\nasyncio.TaskGroup()\n", "asyncio.TaskGroup"),
    ("from typing import List\n", "typing"),
    ("import machine\n", "machine"),
    ("import network\n", "network"),
])
def test_firmware_keeps_the_project_bans_and_adds_its_own(source, name):
    found = banned("firmware/tidebox/probe.py", source)
    assert len(found) == 1 and "`%s` is banned" % name in found[0], found


def test_boards_may_use_hardware_but_not_cpython_modules():
    assert banned("boards/probe.py", "import machine\nimport network\n") == []
    assert len(banned("boards/probe.py", "import itertools\n")) == 1


def test_host_side_may_use_cpython():
    assert banned("host_tools/probe.py", "import itertools\nfrom typing import List\n") == []
