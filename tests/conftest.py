import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "firmware"))
sys.path.insert(0, str(ROOT / "host_tools"))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "mp_scripts"))

# Firmware modules use micropython.const(); under CPython it is the identity.
if "micropython" not in sys.modules:
    import types

    _shim = types.ModuleType("micropython")
    _shim.const = lambda value: value
    sys.modules["micropython"] = _shim

import build  # noqa: E402
from micropython_runner import MicroPython  # noqa: E402


@pytest.fixture(scope="session")
def sim_tree():
    """The firmware compiled to .mpy for the unix port, as on the board (build/sim/)."""
    return build.build_sim()


@pytest.fixture(scope="session")
def mp(sim_tree):
    return MicroPython(sim_tree)
