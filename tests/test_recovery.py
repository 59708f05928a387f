"""The box keeps going: a crashing task is logged to a size-capped file on flash and restarted; a hung
main loop is caught by the watchdog, and the restarted box resumes the saved game."""

import time

from boxrig import BoxProcess

CRASH_LOG_CAP = 4096  # firmware/main.py keeps the crash log on flash under this many bytes


def test_a_crashing_task_is_logged_and_restarted(sim_tree, tmp_path):
    box = BoxProcess(sim_tree, tmp_path / "state").start()
    try:
        box.wait_screen("join")
        box.join("Ada")
        box.join("Bo")
        box.api("POST", "/sim/fault", {"kind": "raise"})
        log = tmp_path / "state" / "crash.log"
        deadline = time.monotonic() + 5
        while not log.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert "injected fault" in log.read_text()
        assert "--- reader" in log.read_text()
        assert box.press("C") == "setup"  # the button task runs again
        assert box.alive()
    finally:
        box.stop()


def test_crash_log_stays_under_its_cap(sim_tree, tmp_path):
    box = BoxProcess(sim_tree, tmp_path / "state").start()
    try:
        box.wait_screen("join")
        log = tmp_path / "state" / "crash.log"
        for _ in range(30):
            box.api("POST", "/sim/fault", {"kind": "raise"})
            deadline = time.monotonic() + 5
            while box.status()["screen"] != "join" and time.monotonic() < deadline:
                time.sleep(0.02)
            time.sleep(0.6)  # the task pauses 500 ms before it restarts
        text = log.read_text()
        assert text.count("injected fault") >= 2
        assert log.stat().st_size <= CRASH_LOG_CAP
        assert box.alive()
    finally:
        box.stop()


def test_watchdog_resets_a_hung_box_which_resumes_the_game(sim_tree, tmp_path):
    box = BoxProcess(sim_tree, tmp_path / "state", env={"TIDEBOX_WATCHDOG_MS": "1500"}).start()
    try:
        box.wait_screen("join")
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
    finally:
        box.stop()
