# The panel loop at rest (running.panel_loop), on a board whose buttons have a wake flag (the Pico's
# pin interrupts set it): while nothing on the panel changes with time alone, the loop waits for the
# flag instead of looking at the buttons 100 times a second (each pass ~0.6 ms of the RP2040's core
# with asyncio's round trip). Imported only where the board has the flag: the others hold none of it.
import asyncio
from micropython import const

from tidebox.box import PLAY

# A look at least this often: the collector, the watchdog (8 s), a memory shortage. Each costs the
# chip's core ~1.4 ms; none of them needs an answer sooner than within a second.
_REST_MS = const(1000)


def start(panel, wake):
    """What sets the flag besides the buttons' edges: a change of the box (Panel.touch) and a look
    every REST_MS (the collector then looks whether the box is idle and due; waking the loop after
    each phone's request for it instead cost 0.8 ms of core a poll on the chip, for no lower heap).
    Returns the looks' task."""
    panel.wake = wake
    return asyncio.create_task(_looks(wake))


def stop(panel, looks):
    looks.cancel()
    panel.wake = None


def at_rest(panel):
    """Nothing on the panel changes with time alone: nothing left to draw, no splash to end, no
    countdown, no screen that keeps time (`keeps_time`), no game that may act by itself (a flow's
    tick while it is played, unless its acting() says not now)."""
    if panel.dirty or panel.splash_until is not None or panel.box.countdown.deadline is not None \
            or panel.top().keeps_time:
        return False
    if panel.flow_tick is None or panel.box.phase != PLAY:
        return True
    acting = panel.flow.acting
    return acting is not None and not acting(panel)


async def _looks(wake):
    while True:
        await asyncio.sleep_ms(_REST_MS)
        wake.set()
