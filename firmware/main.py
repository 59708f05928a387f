# Tidebox: the only place that wires the board, the box and the web server together.
#
# On the board, `board` is boards/pico_w.py (or pico2_w.py) installed as board.mpy; in the
# simulator and the tests it is boards/host.py. Nothing else in the firmware touches hardware.
import gc

import asyncio
import board as board_module
from micropython import const

from tidebox import api, asyncio_shim, memory, saving, transport
from tidebox.box import Box
from tidebox.collect import Collector
from tidebox.panel import QrImages, Panel
from tidebox.running import keep_running, log_crash, panel_loop
from tidebox.storage import Storage

WATCHDOG_MS = const(8000)  # the RP2040's longest watchdog period is 8388 ms


def make_qr_drawer(box, board):
    """Draws the join screen's QR codes when the QR module is part of this build."""
    try:
        from tidebox import join_qr
    except ImportError:
        return None
    images = join_qr.render(box.ssid(), box.password, board.page_url())
    # The codes are rendered; unload the encoder so its code does not hold heap for the whole game.
    memory.let_go("codes_drawn")
    del join_qr
    gc.collect()
    return QrImages(images)


async def main(board):
    asyncio_shim.lean_waits()  # asyncio's run loop without a heap frame at every step
    storage = Storage(board.storage_dir)
    box = Box(board, storage)  # the game is chosen on the box (tidebox/games)
    from tidebox import hotspot

    box.password = hotspot.load_or_create(storage, board.urandom)
    ip = board.radio.start_hotspot(box.ssid(), box.password)
    del hotspot
    memory.let_go("hotspot_up")
    panel = Panel(box, board.display, board.buzzer)
    board.panel = panel  # what the simulator's own pages show and press (boards/host_sim.py)
    # The join screen's codes, drawn at every boot, into a game too: the encoder's code and work,
    # let go of at once, leave a room at the bottom of the heap that the box's objects fill compactly
    # (skipped on a boot into a game, the same boot left its heap in pieces). A game lets go of the
    # images (Panel.home).
    panel.qr_drawer = make_qr_drawer(box, board)
    game_id = saving.saved_game_id(box)
    # A saved game's code first, then its data: loaded the other way round, the game's modules land
    # between the save's pieces and the heap starts the game fragmented.
    if game_id is not None:
        panel.load_flow(game_id)
    gc.collect()
    resumable = saving.load(box)
    panel.boot(board.ticks_ms(), resumable, panel.welcome().take(storage))
    board.watchdog.start(WATCHDOG_MS)
    app = api.make_app(box, board, transport.BoxServer(board.tcp_gate))
    collector = Collector(board.tcp_gate, app)
    short = panel.short_of_memory
    tasks = [
        keep_running("web", lambda: app.start_server(host=board.http_host, port=board.http_port), storage,
                     board, short),
        keep_running("panel", lambda: panel_loop(board, panel, collector), storage, board, short),
    ]
    try:
        from tidebox.dns import CaptiveDNS

        dns = CaptiveDNS(ip, board.dns_port, board.http_host)
        tasks.append(keep_running("dns", dns.run, storage, board, short))
    except ImportError:
        pass
    # Collections happen when no phone is being served (the panel loop asks for them), not in the
    # middle of a request; a threshold of an eighth of the free heap is only the last resort.
    collector.start()
    print("tidebox: %s on port %d, %d bytes free, phones %s" % (
        board.name, board.http_port, gc.mem_free(),
        "wait for changes" if board.tcp_gate.holds else "poll"))  # Tidebox's firmware, or stock
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
