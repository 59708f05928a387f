"""A fifth game is its package, one line in GAMES and its tests folder, nothing else.

The house is copied to a folder of the test's (the project's files; not its version control, its
builds or its tools' caches), the throwaway game in tests/fifth_game/ is laid into the copy as a
newcomer would write it (Coin Call: its package in firmware/tidebox/games/coin_call/, with its page
and its setup options in README.md; its tests folder tests/games/coin_call/, with its driver.py, its
render_screens.py and its golden/ PNGs), its line is added to GAMES, and with no other line written
for it the copy's own tools take it up:

- the bench's and the evenings' lists of games (game_drivers.registered, evening_pico.plays) hold
  its driver and its chip player, found by its id;
- the page build makes its part of the phones' page;
- the bundle for the board carries its code and its part (not its page);
- the game contract's tests (tests/test_game_contract.py, run in the copy) accept it;
- the golden test, the Raspberry Pi panel's test and the setup table's test (run in the copy) find its
  render script, its goldens and its page in its own folders, and pass;
- the simulated box built from the copy lists it on its game menu, and its driver plays a whole game
  of it there with every phone polling (the memory proof, host_tools/memory_proof.py, run in the
  copy).
"""

import fnmatch
import gzip
import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import build
import game_drivers
import pagebuild
import pytest

GAME, TITLE = "coin_call", "Coin Call"
OVERLAY = build.ROOT / "tests" / "fifth_game"  # what a newcomer writes, laid out as in the house
GAMES_FILE = "firmware/tidebox/games/__init__.py"
# Not the house: version control, the venv, builds, what running leaves, and this test's own game.
NOT_COPIED = (".git", ".venv", "build", "sim_state", "node_modules", "__pycache__", ".*_cache", ".hypothesis",
              "fifth_game")


def copy_house(to):
    shutil.copytree(build.ROOT, to, ignore=shutil.ignore_patterns(*NOT_COPIED), symlinks=True)
    return to


def add_line_to_games(root, game, title):
    """The one line in GAMES, last."""
    path = root / GAMES_FILE
    source = path.read_text()
    end = source.index("\n)\n", source.index("GAMES = ("))
    path.write_text(source[:end] + '\n    ("%s", "%s"),' % (game, title) + source[end:])


@pytest.fixture(scope="module")
def house(tmp_path_factory):
    """A copy of the house with the fifth game added: its package and its tests, and its line."""
    root = copy_house(tmp_path_factory.mktemp("fifth") / "house")
    shutil.copytree(OVERLAY, root, ignore=shutil.ignore_patterns("__pycache__"), dirs_exist_ok=True)
    add_line_to_games(root, GAME, TITLE)
    return root


def in_house(root, *command, timeout=900):
    """Runs one of the copy's own tools (python <command>) in the copy, with this interpreter."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([sys.executable, *command], cwd=root, env=env, capture_output=True, text=True,
                          timeout=timeout)


def files(root):
    """The house's files under root (what NOT_COPIED names left out, as a run in the copy leaves it)."""
    found = set()
    for path in root.rglob("*"):
        rel = path.relative_to(root)
        if path.is_file() and not [part for part in rel.parts for pattern in NOT_COPIED
                                   if fnmatch.fnmatch(part, pattern)]:
            found.add(str(rel))
    return found


def test_the_fifth_game_is_its_package_its_tests_and_one_line(house):
    added = sorted(files(house) - files(copy_house(house.parent / "plain")))
    assert added == sorted(files(OVERLAY))
    assert all(a.startswith(("firmware/tidebox/games/%s/" % GAME, "tests/games/%s/" % GAME)) for a in added)
    before = (build.ROOT / GAMES_FILE).read_text().splitlines()
    after = (house / GAMES_FILE).read_text().splitlines()
    assert [line for line in after if line not in before] == ['    ("%s", "%s"),' % (GAME, TITLE)]
    assert len(after) == len(before) + 1
    assert build.game_ids(house / "firmware") == build.game_ids() + (GAME,)


def test_the_bench_and_the_evenings_find_its_driver_and_its_chip_player(house):
    listed = game_drivers.registered(house)
    assert [game for game, _ in listed] == list(build.game_ids()) + [GAME]
    driver = game_drivers.driver_for(GAME, house)
    assert listed[-1][1] is driver and driver.game == GAME and driver.players >= 2
    assert game_drivers.driver_file(GAME, house) == house / "tests" / "games" / GAME / "driver.py"
    if str(build.ROOT / "host_tools" / "rp2040") not in sys.path:
        sys.path.insert(0, str(build.ROOT / "host_tools" / "rp2040"))
    import evening_pico

    plays = evening_pico.plays(house)
    assert sorted(p.game for p in plays) == sorted(build.game_ids() + (GAME,))
    assert [type(p) for p in plays if p.game == GAME] == [game_drivers.chip_play_for(GAME, house)]


def test_the_page_build_makes_its_part(house, tmp_path):
    sizes = pagebuild.build_all(tmp_path, firmware=house / "firmware")
    part = pagebuild.PART_NAME % GAME
    assert sorted(sizes) == sorted([pagebuild.OUT_NAME, pagebuild.TABLE_NAME]
                                   + [pagebuild.PART_NAME % g for g in build.game_ids()]
                                   + [part])
    assert sizes[part] <= pagebuild.PART_BUDGET
    script = gzip.decompress((tmp_path / part).read_bytes()).decode()
    assert script.startswith('Tidebox.style("%s", ' % GAME) and "T.games.%s = " % GAME in script


@pytest.mark.slow  # the whole firmware compiled for the board
def test_the_bundle_carries_its_code_and_its_part(house, tmp_path):
    out = tmp_path / "bundle"
    proc = in_house(house, "host_tools/bundle.py", "--out", str(out))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    info = json.loads(out.with_name("bundle.json").read_text())
    assert info["games"] == list(build.game_ids()) + [GAME]
    ours = sorted(f for f in info["files"] if GAME in f)
    code = ["tidebox/games/%s/%s.mpy" % (GAME, module) for module in ("__init__", "drawing", "flow", "rules")]
    assert ours == code + ["www/%s.js.gz" % GAME]


@pytest.mark.slow  # the contract's tests under MicroPython: the worst-case walk of every game's screens
def test_the_game_contract_accepts_it(house, tmp_path):
    report = tmp_path / "contract.xml"
    proc = in_house(house, "-m", "pytest", "tests/test_game_contract.py", "-k", GAME, "-p",
                    "no:cacheprovider", "--junitxml", str(report))
    assert proc.returncode == 0, proc.stdout[-5000:] + proc.stderr[-3000:]
    cases = ET.parse(report).getroot().iter("testcase")
    ran = {case.get("name"): [child.tag for child in case] for case in cases}
    ours = {name: outcome for name, outcome in ran.items() if "[%s]" % GAME in name}
    assert len(ours) >= 10 and set(ran) == set(ours), sorted(ran)
    assert all(outcome == [] for outcome in ours.values()), ours  # none failed, errored or skipped


@pytest.mark.slow  # every walk of screens under MicroPython and under CPython on the Pi's panel
def test_its_screens_and_its_setup_options_are_found_in_its_own_folders(house, tmp_path):
    report = tmp_path / "docs_and_screens.xml"
    proc = in_house(house, "-m", "pytest", "tests/test_golden_screens.py", "tests/test_pi_screens.py",
                    "tests/test_readme_setup.py", "-p", "no:cacheprovider", "--junitxml", str(report))
    assert proc.returncode == 0, proc.stdout[-5000:] + proc.stderr[-3000:]
    cases = ET.parse(report).getroot().iter("testcase")
    ran = {case.get("name"): [child.tag for child in case] for case in cases}
    assert all(outcome == [] for outcome in ran.values()), ran  # none failed, errored or skipped
    ours = sorted(name for name in ran if "[%s]" % GAME in name)
    assert ours == sorted("%s[%s]" % (test, GAME) for test in (
        "test_every_frame_matches_its_golden_png", "test_every_golden_png_is_drawn", "test_no_frame_is_blank",
        "test_every_screen_through_the_ssd1306_driver_is_the_golden_byte_for_byte")), ours
    assert "test_each_games_readme_names_every_setup_option_and_choice" in ran


@pytest.mark.slow  # a box on the simulator, a whole game with its phones polling
def test_the_box_lists_it_and_its_driver_plays_it_whole(house):
    """The memory proof in the copy: the box from the copy's tree, the game picked on its game menu
    (fifth line; the driver sees its first screen), played to its end, every phone told the end."""
    proc = in_house(house, "host_tools/memory_proof.py", GAME)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    line = proc.stdout.strip().splitlines()[-1]
    assert line.startswith("%s: passed" % GAME) and "played to its end" in line, line
    assert "8 of 8 phones told the end" in line and "0 poll errors, 0 MemoryErrors" in line, line
