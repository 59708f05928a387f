"""The box's one memory policy, tidebox/memory.py: its runs of shortages and when they make a reboot
due (tests/mp_scripts/shortage_runs.py, under MicroPython with a clock the script moves), and its table
of the modules let go of in each part of the box's life. How the box, the web server and the panel
report to it is tests/test_shortage_count.py; the reboot itself, tests/test_short_of_memory.py."""

import json
import re
from pathlib import Path

import pytest
from micropython_runner import MP_SCRIPTS

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"


@pytest.fixture(scope="module")
def runs(mp):
    proc = mp.run(MP_SCRIPTS / "shortage_runs.py")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_the_limits_are_a_count_and_a_time_for_each_kind(runs):
    assert [name for name in ("moves", "views", "requests") if name in runs] == ["moves", "views", "requests"]
    assert all(most >= 1 and over_ms >= 0 for most, over_ms in runs["limits"])


@pytest.mark.parametrize("kind", range(3))
def test_a_run_reboots_the_box_at_its_count_once_it_has_lasted_its_time(runs, kind):
    name = ("moves", "views", "requests")[kind]
    most, over_ms = runs["limits"][kind]
    due = runs[name]["spread"]
    assert due == [False] * (most - 1) + [True, True]
    due = runs[name]["quick"]  # all at once: only a run with no time to last reboots the box
    assert due == ([False] * (most - 1) + [True, True] if over_ms == 0 else [False] * (most + 1))


@pytest.mark.parametrize("name", ("moves", "views", "requests"))
def test_a_success_of_its_own_kind_ends_a_run_and_another_kinds_does_not(runs, name):
    assert runs[name]["after_fine"] is False
    assert runs[name]["after_other_fine"] is True


def test_a_game_that_could_not_be_put_back_reboots_the_box_at_once(runs):
    assert runs["lost"] is True


def let_go_table():
    text = (FIRMWARE / "tidebox" / "memory.py").read_text()
    table = text[text.index("LET_GO = {"):text.index("\n}\n")]
    return dict(re.findall(r'"(\w+)": \(([^)]*)\)', table))


def test_every_module_let_go_of_is_one_of_the_box_and_every_moment_is_reached():
    table = let_go_table()
    assert len(table) >= 6
    code = "\n".join(p.read_text() for p in FIRMWARE.rglob("*.py") if p.name != "memory.py")
    for moment, names in table.items():
        assert 'let_go("%s")' % moment in code, "nothing lets go at %s" % moment
        for name in re.findall(r'"([\w.]+)"', names):
            path = FIRMWARE / name.replace(".", "/")
            assert path.with_suffix(".py").is_file() or (path / "__init__.py").is_file(), name


def test_only_the_memory_policy_and_a_games_unload_let_go_of_code():
    callers = sorted(str(p.relative_to(FIRMWARE)) for p in FIRMWARE.rglob("*.py")
                     if re.search(r"\bforget\(", p.read_text()))
    assert callers == ["tidebox/__init__.py", "tidebox/games/__init__.py", "tidebox/memory.py"]
