# Tidebox: the only place that wires the board, the box and the web server together.
#
# On the board, `board` is boards/pico_w.py (or pico2_w.py) installed as board.mpy; in the
# simulator and the tests it is boards/host.py. Nothing else in the firmware touches hardware.
import gc
import sys

import asyncio
import board as board_module
from micropython import const

from tidebox import web
from tidebox.box import Box
from tidebox.buttons import Buttons
from tidebox.collect import Collector
from tidebox.reader import QrImages, Reader, drop
from tidebox.storage import Storage

LOOP_MS = const(10)  # button sampling period; debouncing needs a few samples per bounce
WATCHDOG_MS = const(8000)  # the RP2040's longest watchdog period is 8388 ms
CRASH_LOG = "crash.log"
CRASH_LOG_CAP = const(4096)  # bytes kept on flash; older entries are dropped
RESTART_PAUSE_MS = const(500)


def log_crash(storage, where, exc):
    """Write an unhandled exception to a size-capped log on flash (never raises)."""
    try:
        import io

        buf = io.StringIO()
        sys.print_exception(exc, buf)
        storage.append_log(CRASH_LOG, "--- %s\n%s" % (where, buf.getvalue()), CRASH_LOG_CAP)
    except Exception:  # noqa: BLE001 - the log must never take the box down with it
        pass


async def keep_running(name, make_task, storage, board, short_of_memory):
    """Run a task; if it dies, log why and start it again after a short pause (counted in
    board.restarts, which the simulator's /sim/status shows). A task that runs out of memory is not
    started again on the same heap: short_of_memory() says so and restarts the box (restart.py)."""
    while True:
        try:
            await make_task()
            return
        except asyncio.CancelledError:
            raise
        except MemoryError:
            short_of_memory()
        except Exception as exc:  # noqa: BLE001
            log_crash(storage, name, exc)
            gc.collect()
            await asyncio.sleep_ms(RESTART_PAUSE_MS)
            board.restarts += 1


async def reader_loop(board, reader, collector):
    """Every LOOP_MS: the buttons, the reader's time-driven changes, a collection when the box is
    idle, the watchdog, and a look whether a phone's move left the box short of memory. 100 passes
    a second on a core where one method call takes ~15 us, so a pass with nothing pressed does the
    least it can and allocates nothing: the methods are bound once here; the debouncer runs only
    while a button is (or was just) held; the reader's tick (the countdown's seconds, the panel's
    flashing, a rival's move) every other pass, 20 ms apart, and on every pass with a button held;
    the collector every 4th pass (40 ms), the watchdog every 8th."""
    buttons = Buttons(("A", "B", "C"))
    poll = buttons.poll
    read = board.buttons.read
    ticks_ms = board.ticks_ms
    tick = reader.tick
    collect = collector.tick  # collects while no phone is being served (tidebox/collect.py)
    feed = board.watchdog.feed
    box = reader.box
    sleep_ms = asyncio.sleep_ms
    passes = 0
    while True:
        passes += 1
        now = ticks_ms()
        levels = read()
        if buttons.busy or True in levels:
            for name, kind in poll(levels, now):
                reader.press(name, kind)
            tick(now)
        elif passes & 1:
            tick(now)
        if not passes & 3:
            collect()
        if not passes & 7:
            feed()
            if box.short_of_memory:
                reader.short_of_memory()
        await sleep_ms(LOOP_MS)


def make_qr_drawer(box, board):
    """Draws the join screen's QR codes when the QR module is part of this build."""
    try:
        from tidebox import join_qr
    except ImportError:
        return None
    images = join_qr.render(box.ssid(), box.password, board.page_url())
    # The codes are rendered; unload the encoder so its code does not hold heap for the whole game.
    import tidebox

    for name in ("join_qr", "qr"):
        sys.modules.pop("tidebox." + name, None)
        try:
            delattr(tidebox, name)
        except AttributeError:
            pass
    del join_qr
    gc.collect()
    return QrImages(images).draw


async def main(board):
    storage = Storage(board.storage_dir)
    box = Box(board, storage)  # the game is chosen on the box (tidebox/games)
    from tidebox import hotspot

    box.password = hotspot.load_or_create(storage, board.urandom)
    ip = board.radio.start_hotspot(box.ssid(), box.password)
    del hotspot
    drop("hotspot")  # the SSID and passphrase are known now: its code is heap the games can use
    reader = Reader(box, board.display, board.buzzer)
    game_id = box.saved_game_id()
    if game_id is None:  # the join screen's codes; a game (begun, or resumed) never shows them
        reader.qr_drawer = make_qr_drawer(box, board)
    # A saved game's code first, then its data: loaded the other way round, the game's modules land
    # between the save's pieces and the heap starts the game fragmented.
    if game_id is not None:
        reader.load_flow(game_id)
    gc.collect()
    resumable = box.load()
    reader.boot(board.ticks_ms(), resumable, reader.welcome().take(storage))
    board.watchdog.start(WATCHDOG_MS)
    app = web.make_app(box, board)
    collector = Collector(board.tcp_gate, app)
    short = reader.short_of_memory
    tasks = [
        keep_running("web", lambda: app.start_server(host=board.http_host, port=board.http_port), storage,
                     board, short),
        keep_running("reader", lambda: reader_loop(board, reader, collector), storage, board, short),
    ]
    try:
        from tidebox.dns import CaptiveDNS

        dns = CaptiveDNS(ip, board.dns_port, board.http_host)
        tasks.append(keep_running("dns", dns.run, storage, board, short))
    except ImportError:
        pass
    # Collections happen when no phone is being served (the reader loop asks for them), not in the
    # middle of a request; a threshold of an eighth of the free heap is only the last resort.
    collector.start()
    print("tidebox: %s on port %d, %d bytes free" % (board.name, board.http_port, gc.mem_free()))
    await asyncio.gather(*tasks)


def run():
    board = board_module.make_board()
    try:
        asyncio.run(main(board))
    except KeyboardInterrupt:
        pass
    except Exception as exc:  # noqa: BLE001 - last resort: log, then reset and resume the saved game
        log_crash(Storage(board.storage_dir), "main", exc)
        board.reset()


run()
