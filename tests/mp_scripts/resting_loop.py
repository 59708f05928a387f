# The panel loop at rest (tests/test_resting_loop.py): the host board given a wake flag, as the
# Pico's buttons have one (boards/pico_common.py, set by the pins' interrupts). stdout: one JSON object.
import json

import asyncio
import board as board_module
from tidebox import resting
from tidebox.box import Box
from tidebox.collect import Collector
from tidebox.panel import Panel
from tidebox.running import panel_loop
from tidebox.storage import Storage


class Counted:
    """Counts the loop's passes (each reads the buttons once) and the flag's sets."""

    def __init__(self, board):
        self.passes = 0
        self.sets = 0
        self.read = board.buttons.read
        self.flag = asyncio.ThreadSafeFlag()
        board.buttons.read = self.levels
        board.buttons.wake = self

    def levels(self):
        self.passes += 1
        return self.read()

    def set(self):
        self.sets += 1
        self.flag.set()

    def wait(self):
        return self.flag.wait()


async def until(condition, what, limit_ms=20000):
    waited = 0
    while not condition():
        await asyncio.sleep_ms(5)
        waited += 5
        if waited > limit_ms:
            raise SystemExit("never: " + what)


async def window(counted, sets):
    """Passes and sets over the time the loop's own looks take to set the flag `sets` times."""
    passes, first = counted.passes, counted.sets
    await until(lambda: counted.sets >= first + sets, "the resting loop's looks")
    return counted.passes - passes, counted.sets - first


async def main():
    board = board_module.make_board()
    counted = Counted(board)
    box = Box(board, Storage(board.storage_dir))
    panel = Panel(box, board.display, board.buzzer)
    panel.home()
    collector = Collector(board.tcp_gate, type("Server", (), {"served": 0, "idle_served": 0, "view_served": 0,
                                                              "accepted": 0})())
    loop = asyncio.create_task(panel_loop(board, panel, collector))
    out = {}
    await until(lambda: resting.at_rest(panel), "the game menu at rest")
    out["menu_at_rest"] = resting.at_rest(panel)
    out["menu_passes"], out["menu_sets"] = await window(counted, 3)

    # A press of A (next game), as the Pico's pin interrupt would wake the loop: the menu's cursor moves.
    cursor = panel.top().cursor
    presses = panel.presses
    board.buttons.press("A", 80)
    counted.set()
    await until(lambda: panel.presses > presses, "the press handled")
    out["press_moved_cursor"] = panel.top().cursor != cursor
    # The release settles at the held button's 5 ms reads; the looks after it find the loop resting.
    await window(counted, 2)

    # A phone's change (the box's listeners: Panel.touch) is drawn without a button or a look.
    box.choose_game("token_tide")
    panel.home()
    await until(lambda: resting.at_rest(panel), "the lobby at rest")
    frames, sets = board.display.frames, counted.sets
    box.join("Ada")
    await until(lambda: board.display.frames > frames, "the lobby redrawn after a join")
    out["join_woke"] = counted.sets > sets
    out["lobby_passes"], out["lobby_sets"] = await window(counted, 3)

    # A running countdown changes the panel with time alone: the loop looks every 10 ms meanwhile.
    box.countdown.start(60, board.ticks_ms())
    out["countdown_at_rest"] = resting.at_rest(panel)
    out["countdown_passes"], out["countdown_sets"] = await window(counted, 3)
    box.countdown.stop()
    loop.cancel()
    try:
        await loop
    except asyncio.CancelledError:
        pass
    out["wake_let_go"] = panel.wake is None
    print(json.dumps(out))


asyncio.run(main())
