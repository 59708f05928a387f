# Keeping the box going: the panel loop (buttons, the reader's time-driven changes, idle
# collections, the watchdog) and the restart of a task that dies, with why on flash. main.py runs
# them; the RP2040 bench (host_tools/rp2040/tidebox_bench.py) times the same loop.
import gc
import sys

import asyncio
from micropython import const

from tidebox.buttons import Buttons

_LOOP_MS = const(10)  # button sampling period; debouncing needs a few samples per bounce
CRASH_LOG = "crash.log"
_CRASH_LOG_CAP = const(4096)  # bytes kept on flash; older entries are dropped
_RESTART_PAUSE_MS = const(500)


def log_crash(storage, where, exc):
    """Write an unhandled exception to a size-capped log on flash (never raises)."""
    try:
        import io

        buf = io.StringIO()
        sys.print_exception(exc, buf)
        storage.append_log(CRASH_LOG, "--- %s\n%s" % (where, buf.getvalue()), _CRASH_LOG_CAP)
    except Exception:  # noqa: BLE001 - the log must never take the box down with it
        pass


async def keep_running(name, make_task, storage, board, short_of_memory):
    """Run a task; if it dies, log why and start it again after a short pause (counted in
    board.crashed_tasks, which the simulator's /sim/status shows). A task that runs out of memory is not
    started again on the same heap: short_of_memory() says so and restarts the box (restart.py)."""
    while True:
        try:
            await make_task()
            return
        except asyncio.CancelledError:
            raise
        except MemoryError:
            short_of_memory()  # reboots the box; where it stays up instead, the task waits, then again
            await asyncio.sleep_ms(_RESTART_PAUSE_MS)
        except Exception as exc:  # noqa: BLE001
            log_crash(storage, name, exc)
            gc.collect()
            await asyncio.sleep_ms(_RESTART_PAUSE_MS)
            board.crashed_tasks += 1


async def panel_loop(board, panel, collector, passes=-1, sleep_ms=None):
    """Every LOOP_MS: the buttons, the reader's time-driven changes, a collection when the box is
    idle, the watchdog, and a look whether a phone's move left the box short of memory. 100 passes
    a second on a core where one method call takes ~15 us, so a pass with nothing pressed does the
    least it can and allocates nothing: the methods are bound once here; the debouncer runs only
    while a button is (or was just) held; the reader's tick (the countdown's seconds, the panel's
    flashing, a rival's move) every other pass, 20 ms apart, and on every pass with a button held;
    the collector every 4th pass (40 ms), the watchdog every 8th. While a button is held, and until
    its release has settled, the passes come every 5 ms instead, and the one that takes a press
    comes the moment it has settled (Buttons.next_read_ms): the box answers a press sooner.

    Where the board's buttons have a wake flag set by their pins' interrupts (the Pico's), the loop
    rests while nothing on the panel changes with time alone (resting.py: the game menu, a lobby, a
    turn-based game waiting for a phone): it waits for that flag, which an edge, a change of the box
    and a look every second set, instead of 100 passes a second. A press is still timed from its
    edge; a resting pass does the rare work (the collector, the watchdog) at once.

    For the bench: `passes` ends the loop after that many passes (-1: never), and `sleep_ms` is
    awaited at the end of each pass, with its period, instead of asyncio's (and the loop never rests)."""
    # The board's edge times where it keeps them (the Pico's pin interrupts): presses timed from the contact
    buttons = Buttons(("A", "B", "C"), getattr(board.buttons, "edge_at", None))
    poll = buttons.poll
    read = board.buttons.read
    ticks_ms = board.ticks_ms
    tick = panel.tick
    collect = collector.tick  # collects while no phone is being served (tidebox/collect.py)
    feed = board.watchdog.feed
    shortages = panel.box.shortages
    wake = None if sleep_ms else getattr(board.buttons, "wake", None)
    sleep_ms = sleep_ms or asyncio.sleep_ms
    if wake is not None:
        from tidebox import resting

        at_rest = resting.at_rest
        looks = resting.start(panel, wake)
    rested = False
    done = 0
    try:
        while done != passes:
            done += 1
            now = ticks_ms()
            levels = read()
            if buttons.busy or True in levels:
                buttons.long_presses = panel.top().long_presses
                for name, kind in poll(levels, now):
                    panel.press(name, kind)
                tick(now)
                if not buttons.busy:
                    collector.press_over()
            elif done & 1 or rested:
                tick(now)
            if (not done & 3 or rested) and not buttons.busy:  # a collection (10-20 ms) waits out a press
                collect()
            if not done & 7 or rested:
                feed()
                if shortages.reboot_due:
                    panel.short_of_memory()
            if buttons.busy:
                await sleep_ms(buttons.next_read_ms(ticks_ms()))  # a held button's press is seen sooner
            elif wake is not None and at_rest(panel):
                rested = True
                await wake.wait()
            else:
                rested = False
                await sleep_ms(_LOOP_MS)
    finally:
        if wake is not None:
            resting.stop(panel, looks)
