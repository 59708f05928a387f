import json
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "firmware"))
sys.path.insert(0, str(ROOT / "host_tools"))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "support"))  # the tests' helpers: runners, stand-in boxes, phones
sys.path.insert(0, str(ROOT / "tests" / "mp_scripts"))
# The WebKit and Firefox tests' checks live in this helper: pytest explains its failed asserts too.
pytest.register_assert_rewrite("short_crossing")

# Firmware modules use micropython.const(); under CPython it is the identity.
if "micropython" not in sys.modules:
    import types

    _shim = types.ModuleType("micropython")
    _shim.const = lambda value: value
    sys.modules["micropython"] = _shim

import build  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402
from micropython_runner import MP_SCRIPTS, MicroPython  # noqa: E402

# The property tests check what the rules do, not how fast: no per-example deadline and no health
# check on how slowly examples are made, which a busy machine (CI, the browsers and emulators beside
# them) would fail. A test's own @settings adds to this profile.
settings.register_profile("tidebox", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("tidebox")


@pytest.fixture(scope="session")
def sim_tree():
    """The firmware compiled to .mpy for the unix port, as on the board (build/sim/)."""
    return build.build_sim()


@pytest.fixture(scope="session")
def mp(sim_tree):
    return MicroPython(sim_tree)


@pytest.fixture(scope="session")
def walked(mp, tmp_path_factory):
    """The worst-case walk of every game's screens on the box (tests/mp_scripts/render_worst_case.py,
    read by tests/test_worst_case_screens.py and tests/test_game_contract.py), once a session."""
    state = tmp_path_factory.mktemp("worst_case")
    proc = mp.run(MP_SCRIPTS / "render_worst_case.py", heap="4M", timeout=900,
                  env={"TIDEBOX_STATE_DIR": str(state)})
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="session")
def game_walk(mp, tmp_path_factory):
    """game_walk(walk): the stdout lines of a walk's render script under MicroPython (a game's id, or
    golden_walk.BOX for the box's own screens; tests/support/golden_walk.py says which script), run
    once a session for every test that reads it."""
    import golden_walk

    done = {}

    def walk(name):
        if name not in done:
            done[name] = golden_walk.run(mp, name, tmp_path_factory.mktemp("screens_" + name))
        return done[name]

    return walk


@pytest.fixture
def real_box(sim_tree, tmp_path):
    """The firmware's box on the simulator (a BoxProcess under MicroPython, on tmp_path / "state"),
    started and left on its first screen; stopped at the end of the test. Not `box`: in the phone
    page's tests (tests/support/page_fakebox.py) `box` is the stand-in box's control. Several boxes, or other
    options: new_box."""
    from boxrig import BoxProcess

    box = BoxProcess(sim_tree, tmp_path / "state").start()
    yield box
    box.stop()


@pytest.fixture
def new_box(sim_tree, tmp_path):
    """Starts real boxes (the firmware under MicroPython), each waiting on its join screen; all are
    stopped when the test ends. new_box(env={...}) passes extra settings to the board."""
    from boxrig import BoxProcess

    boxes = []

    def start(**options):
        box = BoxProcess(sim_tree, tmp_path / ("box%d" % len(boxes)) / "state", **options).start()
        boxes.append(box)
        box.choose()
        return box

    yield start
    for box in boxes:
        box.stop()


@pytest.fixture
def small_bundle(tmp_path):
    """A bundle laid out like the real one, small enough to read in a test (deploy and ROMFS tests)."""
    from test_deploy import compile_to, write_info

    out = tmp_path / "bundle"
    (out / "www").mkdir(parents=True)
    (out / "main.py").write_text("import board\nimport tidebox.box\n")
    compile_to(out / "board.mpy", "import pico_common\n")
    compile_to(out / "pico_common.mpy", "X = 1\n")
    compile_to(out / "tidebox" / "__init__.mpy", "VERSION = '0'\n")
    compile_to(out / "tidebox" / "box.mpy", "def box():\n    return 1\n")
    compile_to(out / "lib" / "microdot" / "__init__.mpy", "Microdot = 1\n")
    (out / "www" / "index.html.gz").write_bytes(b"\x1f\x8b fake page")
    (out / "www" / "token_tide.js.gz").write_bytes(b"\x1f\x8b fake part")  # a game's part of the page
    write_info(out)
    return out


# Fixtures that start a browser (Chromium, WebKit or Firefox). A test that uses one must be marked
# `browser` (pyproject.toml), so that `make test-fast` leaves it out: collecting fails otherwise.
BROWSER_FIXTURES = frozenset(("browser", "open_webkit_phone", "firefox", "open_firefox_phone"))


def pytest_collection_modifyitems(config, items):
    # The comparisons with a MicroPython tree run where one is given (`make firmware` runs them after a
    # rebuild); elsewhere they are left out, not skipped: the shipped images' own tests stand for them.
    if not os.environ.get("MICROPYTHON_SRC"):
        upstream = [item for item in items if item.get_closest_marker("upstream")]
        if upstream:
            config.hook.pytest_deselected(items=upstream)
            items[:] = [item for item in items if not item.get_closest_marker("upstream")]
    unmarked = [item.nodeid for item in items if BROWSER_FIXTURES & set(getattr(item, "fixturenames", ()))
                and not item.get_closest_marker("browser")]
    if unmarked:
        raise pytest.UsageError("start a browser but are not marked `browser`: " + ", ".join(unmarked))
