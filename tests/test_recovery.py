"""The box keeps going: a crashing task is logged to a size-capped file on flash and restarted; a hung
main loop is caught by the watchdog, and the restarted box resumes the saved game."""

import time
from pathlib import Path

from boxrig import wait_until

CRASH_LOG_CAP = 4096  # firmware/main.py keeps the crash log on flash under this many bytes


def test_a_crashing_task_is_logged_and_restarted(new_box):
    box = new_box()
    box.join("Ada")
    box.join("Bo")
    box.api("POST", "/sim/fault", {"kind": "raise"})
    log = Path(box.state_dir) / "crash.log"
    wait_until(log.exists, "the crash log is written")
    assert "injected fault" in log.read_text()
    assert "--- reader" in log.read_text()
    assert box.press("C") == "setup"  # the button task runs again
    assert box.alive()


def test_crash_log_stays_under_its_cap(new_box):
    box = new_box()
    log = Path(box.state_dir) / "crash.log"
    for _ in range(30):
        box.api("POST", "/sim/fault", {"kind": "raise"})
        time.sleep(0.6)  # the task pauses 500 ms before it restarts
        wait_until(lambda: box.status()["screen"] == "join", "the box is back on its join screen")
    text = log.read_text()
    assert text.count("injected fault") >= 2
    assert log.stat().st_size <= CRASH_LOG_CAP
    assert box.alive()


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
