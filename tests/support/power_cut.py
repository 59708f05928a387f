"""Pulling the plug on a box at the moment a test aims at, for the power-cut tests of every game
(tests/test_faults.py: Token Tide's phones and presses; tests/games/paper_current: results and
confirmed rounds). A box saves through a temporary file and a rename (tidebox/storage.py), each save
spending the board's flash time between the two (boards/host.py, TIDEBOX_SAVE_MS), so a cut can land
before a save, within it (the temporary file written, not yet renamed) or after it, while the answer
is on its way.

    cut = Aim(state_dir)                # before the action is sent
    ... send the action (a thread, or a raw socket) ...
    cut.wait(aim, applied)              # then box.kill(); box.start()
    cut.saw_a_save_under_way()          # after the restart: did the cut land mid-save?
"""

import time

from boxrig import BOARD_PACE_MS

# Each save's flash time: half a Pico W's answer, so cuts aimed at random land on either side of it.
SAVE_MS = BOARD_PACE_MS // 2
SAVE_ENV = {"TIDEBOX_SAVE_MS": str(SAVE_MS)}
PRESS_CUT_S = 0.25  # a press is held 80 ms and handled on release by the 10 ms button loop
MID_SAVE, MID_ANSWER = "cut mid-save", "cut mid-answer"  # what the cuts are seen to have hit
AIM_S = 2  # the longest a cut waits for its moment


def file_stamp(path):
    """(mtime_ns, size) of a file, or None when there is none."""
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size)


class Aim:
    """Where a box's saves are (its state folder), to aim a cut at one of them."""

    def __init__(self, state_dir):
        self.tmp = state_dir / "game.json.tmp"
        self.saved = state_dir / "game.json"
        self.last_tmp = file_stamp(self.tmp)

    def moment(self, aim, delay=0.0, applied=None):
        """A test of whether the moment aimed at has come, to be polled from now: "random" (`delay`
        seconds from now), "mid-save" (this action's temporary file written, not yet renamed),
        "mid-answer" (renamed, and the save holds the action: `applied()`; the answer not out yet)."""
        before = file_stamp(self.tmp)
        start = time.monotonic()
        return {
            "random": lambda: time.monotonic() - start >= delay,
            "mid-save": lambda: file_stamp(self.tmp) not in (None, before),
            "mid-answer": lambda: file_stamp(self.tmp) is None and applied(),
        }[aim]

    @staticmethod
    def wait(moment):
        """Until the moment (or AIM_S at most: the cut then lands wherever the box is)."""
        deadline = time.monotonic() + AIM_S
        while not moment() and time.monotonic() < deadline:
            time.sleep(0.0005)

    def saw_a_save_under_way(self):
        """After the cut: whether a save was under way (a temporary file left that was not there)."""
        stamp = file_stamp(self.tmp)
        if stamp in (None, self.last_tmp):
            return False
        self.last_tmp = stamp
        return True
