"""The box keeps going: a crashing task is logged to a size-capped file on flash and restarted; a hung
main loop is caught by the watchdog, and the restarted box resumes the saved game."""

import re
from pathlib import Path

import pytest
from boxrig import wait_until

CRASH_LOG_CAP = 4096  # tidebox/running.py keeps the crash log on flash under this many bytes


def crash(box, n):
    """Injects the n-th fault (the button task raises) and waits until the task has been restarted:
    the board counts restarts, and /sim/status shows the count."""
    assert box.status()["crashed_tasks"] == n - 1
    box.api("POST", "/sim/fault", {"kind": "raise"})
    wait_until(lambda: box.status()["crashed_tasks"] == n, "the task is restarted after fault %d" % n)


def entries(log):
    """The crash log's entries, oldest first: (task, fault number)."""
    text = log.read_text()
    found = re.findall(r"--- (\w+)\n(?:.*\n)*?RuntimeError: injected fault (\d+):", text)
    assert len(found) == text.count("--- "), text  # every entry is a whole one
    return [(task, int(n)) for task, n in found]


def test_a_crashing_task_is_logged_and_restarted(new_box):
    box = new_box()
    box.join("Ada")
    box.join("Bo")
    assert box.status()["crashed_tasks"] == 0
    crash(box, 1)
    log = Path(box.state_dir) / "crash.log"
    assert entries(log) == [("panel", 1)]
    assert box.press("C") == "setup"  # the button task runs again
    assert box.alive()


@pytest.mark.slow
def test_crash_log_stays_under_its_cap_and_keeps_the_newest_entry(new_box):
    box = new_box()
    box.join("Ada")
    box.join("Bo")
    log = Path(box.state_dir) / "crash.log"
    sizes = []
    for n in range(1, 31):
        crash(box, n)
        sizes.append(log.stat().st_size)
        kept = entries(log)
        assert kept[-1] == ("panel", n), kept  # the newest entry is always there, and last
        assert [k for _, k in kept] == list(range(kept[0][1], n + 1))  # in order, none lost between
        assert sizes[-1] <= CRASH_LOG_CAP
    # the cap was reached (the log started over at least once), and it still holds several entries
    assert any(b < a for a, b in zip(sizes, sizes[1:])), sizes
    assert len(entries(log)) >= 2
    assert box.press("C") == "setup"  # the box still answers its buttons, on the join screen
    assert box.alive()


@pytest.mark.slow
def test_watchdog_resets_a_hung_box_which_resumes_the_game(new_box):
    box = new_box(env={"TIDEBOX_WATCHDOG_MS": "1500"})
    ada = box.join("Ada")["token"]
    box.join("Bo")
    box.press("C")
    box.press("C")
    box.press("C")
    box.allocate(ada, [4, 1, 2])
    box.api("POST", "/sim/fault", {"kind": "hang"})
    box.proc.wait(20)  # the watchdog ends the process
    assert box.proc.returncode == -9
    box.start()
    box.wait_screen("resume")
    view = box.state(ada)["game"]
    assert view["mine"] == [4, 1, 2] and view["locked"] is True
    assert box.press("C") in ("card", "allocate")
