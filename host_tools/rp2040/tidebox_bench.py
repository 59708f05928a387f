# Tidebox's costs on the RP2040, run by bench_rp2040.py in rp2040js (`tidebox_bench.run()`).
#
# Runs on the real rp2 MicroPython firmware, whose time.ticks_us() counts the emulator's executed
# cycles at 125 MHz. Prints "RESULT <key> median_us=.. min_us=.. max_us=.. n=.." and "HEAP <label>
# free=.. alloc=.." lines for the host to tabulate. The scene: an 8-player Token Tide round with
# seven players locked in (the shared part of the view cached, as after the first poll of a
# version); requests go through the web server's serve() (tidebox/transport.py) on in-memory
# connections, as `make bench`'s x86 figures do (mp_web_drive.py), so no lwIP or Wi-Fi work is counted.
import gc
import io
import sys
from time import ticks_diff, ticks_us

import machine

NAMES = ("Ada", "Bo", "Cy", "Di", "Eve", "Fay", "Gus", "Hal")
# What a phone's browser sends with every poll (Chrome on Android, 573 bytes with the token).
HEADERS = (
    "Host: 192.168.4.1\r\nConnection: keep-alive\r\nsec-ch-ua-platform: \"Android\"\r\n"
    "User-Agent: Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0.0.0 Mobile Safari/537.36\r\n"
    "sec-ch-ua: \"Google Chrome\";v=\"131\", \"Chromium\";v=\"131\", \"Not_A Brand\";v=\"24\"\r\n"
    "sec-ch-ua-mobile: ?1\r\nAccept: */*\r\nSec-Fetch-Site: same-origin\r\nSec-Fetch-Mode: cors\r\n"
    "Sec-Fetch-Dest: empty\r\nReferer: http://192.168.4.1/\r\nAccept-Encoding: gzip, deflate\r\n"
    "Accept-Language: en-GB,en-US;q=0.9,en;q=0.8\r\n"
)


def med(xs):
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def report(key, xs, div=1, extra=""):
    xs = [x / div for x in xs]
    print("RESULT %s median_us=%.1f min_us=%.1f max_us=%.1f n=%d %s" % (
        key, med(xs), min(xs), max(xs), len(xs), extra))


def heap(label):
    print("HEAP %s free=%d alloc=%d" % (label, gc.mem_free(), gc.mem_alloc()))


def time_gc(n=9):
    xs = []
    for _ in range(n):
        t0 = ticks_us()
        gc.collect()
        xs.append(ticks_diff(ticks_us(), t0))
    return xs


class Connection:
    """Both ends of one phone's connection: reads come from the request's bytes (a C stream, as a
    socket would be), the answer's bytes are counted, not kept."""

    def __init__(self):
        self.stream = None
        self.written = 0
        self.head = b""

    def load(self, data):
        self.stream = io.BytesIO(data)
        self.written = 0
        self.head = b""

    async def readinto(self, buf):
        return self.stream.readinto(buf)

    async def read(self, n=-1):
        return self.stream.read(n)

    async def readexactly(self, n):
        return self.stream.read(n)

    async def readline(self):
        return self.stream.readline()

    async def awrite(self, data):
        self.write(data)

    def write(self, data):
        if not self.written:
            self.head = bytes(data[:12])
        self.written += len(data)

    async def drain(self):
        pass

    async def aclose(self):
        pass

    def close(self):
        pass

    async def wait_closed(self):
        pass

    def get_extra_info(self, name):
        return ("192.168.4.16", 50123)


def poll_bytes(version, token):
    return ("GET /api/state?v=%d HTTP/1.1\r\n%sX-Seat-Token: %s\r\n\r\n" % (version, HEADERS, token)).encode()


def make_game(board, storage):
    """The box with an 8-player Token Tide round under way and 7 players locked in."""
    from tidebox.box import Box

    box = Box(board, storage)
    box.choose_game("token_tide")
    tokens = [box.join(n)["token"] for n in NAMES]
    box.to_setup()
    box.start_game()
    for seat in range(7):
        b = seat % 8
        g = (seat * 3) % (8 - b)
        box.move(seat, "allocate", {"allocation": [b, g, 7 - b - g], "ready": True})
    return box, tokens


def make_reader(box, board):
    from tidebox.panel import Panel

    reader = Panel(box, board.display, board.buzzer)
    reader.boot(board.ticks_ms(), False)
    return reader


async def loop_passes(board, reader, collector, n, xs=None, by_kind=None):
    """n passes of the box's panel loop (tidebox/running.py, what main.py runs), each ended by
    sleep_ms(0) instead of its 10 ms. xs, if given, gets each pass's time (us) without the sleep,
    for the passes that did not redraw; returns how many redrew (None without xs).

    A pass is timed from its first step (the clock read: board.ticks_ms, wrapped here) to its
    sleep (the loop's sleep_ms, given here); a pass that drew a frame is counted, not timed."""
    import asyncio

    from tidebox.running import panel_loop

    if xs is None:  # nothing wrapped: the passes allocate what the box's do
        await panel_loop(board, reader, collector, n, lambda ms: asyncio.sleep_ms(0))
        return None
    ticks_ms = board.ticks_ms
    display = board.display
    began = [0, 0, 0]  # when the pass began (us), the frames drawn by then, the passes so far
    drawn = [0]
    calibrating = []  # [list]: pass_ends records the wrappers' own cost there (below)

    def pass_begins():
        began[1] = display.frames
        began[2] += 1
        began[0] = ticks_us()
        return ticks_ms()

    def pass_ends(ms):
        dt = ticks_diff(ticks_us(), began[0])
        if display.frames != began[1]:
            drawn[0] += 1
        else:
            if calibrating:
                calibrating[0].append(dt)
                return None
            xs.append(dt)
            if by_kind is not None:  # the loop's own schedule (running.py): which steps the pass took
                k = began[2]
                by_kind["tick" if k & 1 else ("collect" if not k & 3 else "buttons")].append(dt)
        return asyncio.sleep_ms(0)

    board.ticks_ms = pass_begins
    try:
        await panel_loop(board, reader, collector, n, pass_ends)
    finally:
        board.ticks_ms = ticks_ms
    if by_kind is not None:
        # What the two wrappers add to each timed pass (a call each, the clock reads, the checks):
        # the same pair with no pass between them. The old copy of the loop timed itself inline.
        calibrating.append([])
        for _ in range(50):
            pass_begins()
            pass_ends(0)
        wrapped = med(calibrating.pop())
        inline = []  # ... less the same clock reads made inline, as a pass makes them anyway
        for _ in range(50):
            t0 = ticks_us()
            ticks_ms()
            inline.append(ticks_diff(ticks_us(), t0))
        by_kind["harness"] = [wrapped - med(inline)]
    return drawn[0]


def run():
    heap("first_prompt")
    print("INFO freq=%d platform=%s version=%s" % (machine.freq(), sys.platform, sys.version))
    gc.collect()
    t0 = ticks_us()
    import asyncio

    import board as board_module
    from tidebox import api, asyncio_shim, buttons, running, transport, views  # noqa: F401 - timed imports

    print("INFO import_ms=%.1f" % (ticks_diff(ticks_us(), t0) / 1000))
    asyncio_shim.lean_waits()  # as main.py's main() does
    import tidebox

    # Where the code came from: ".frozen/...", "/rom/..." (a ROMFS image) or the littlefs.
    print("INFO sys.path=%r tidebox=%s transport=%s board=%s" % (
        sys.path, getattr(tidebox, "__file__", "?"), getattr(transport, "__file__", "?"),
        getattr(board_module, "__file__", "?")))
    board = board_module.make_board()
    storage = board_module.MemStorage()
    box, tokens = make_game(board, storage)
    reader = make_reader(box, board)
    app = api.make_app(box, board)
    conn = Connection()
    idle = [poll_bytes(box.version, tokens[i]) for i in range(8)]
    full = [poll_bytes(0, tokens[i]) for i in range(8)]

    async def serve_many(requests, n):
        xs = []
        for i in range(n):
            conn.load(requests[i & 7])
            t0 = ticks_us()
            await app.serve(conn, conn)
            xs.append(ticks_diff(ticks_us(), t0))
        return xs

    def idle_now():
        return [poll_bytes(box.version, tokens[i]) for i in range(8)]

    asyncio.run(serve_many(full, 8))  # every seat's view built once (first poll of this version)
    print("INFO full view %d bytes %r" % (conn.written, conn.head))
    asyncio.run(serve_many(idle, 1))
    print("INFO idle answer %d bytes %r; phase %s" % (conn.written, conn.head, box.phase))
    gc.collect()
    heap("game")
    mark("gcmap")  # run.mjs's GC_PROBE prints the heap's layout here
    mark("prof_on gc_collect")  # with SYMS, run.mjs's PC sampler: where a collection's cycles go
    xs = time_gc()
    mark("prof_off gc_collect")
    report("gc_collect", xs)

    async def changes(n):
        xs = []
        for _ in range(n):
            box.version += 1  # what every change does (box.changed), without the save to flash
            t0 = ticks_us()
            for seat in range(8):
                conn.load(full[seat])
                await app.serve(conn, conn)
            xs.append(ticks_diff(ticks_us(), t0))
        return xs

    report("change_8_views", asyncio.run(changes(9)))
    idle = idle_now()  # the version moved on: these are idle polls again
    asyncio.run(serve_many(idle, 1))
    gc.collect()

    # The shared part of the view rebuilt (the first poll after a change), and the seat lookup.
    xs = []
    for _ in range(9):
        box.shared_version = 0
        t0 = ticks_us()
        views.public_view(box)  # the shared part alone (each phone's own part is in a full view)
        xs.append(ticks_diff(ticks_us(), t0))
    report("view_rebuild", xs)
    # As the web server looks a token up: where it lies in the request's buffer.
    held = bytearray(b"X-Seat-Token: " + tokens[3].encode() + b"\r\n")
    xs = []
    for _ in range(9):
        t0 = ticks_us()
        for _ in range(20):
            box.seats.seat_of(held, 14, 32)
        xs.append(ticks_diff(ticks_us(), t0))
    report("seat_of", xs, div=20)
    gc.collect()
    gc.disable()
    a0 = gc.mem_alloc()
    for _ in range(4):
        box.seats.seat_of(held, 14, 32)
    seat_bytes = (gc.mem_alloc() - a0) // 4
    gc.enable()
    print("ALLOC seat_of %d" % seat_bytes)

    # Whole requests, with the collector left to itself and with main.py's former threshold.
    for label, threshold in (("", -1), ("_threshold", 1)):
        gc.collect()
        if threshold == 1:
            threshold = gc.mem_free() // 16
        gc.threshold(threshold)
        report("idle_poll" + label, asyncio.run(serve_many(idle, 120)))
        gc.collect()
        report("full_view" + label, asyncio.run(serve_many(full, 40)))
        gc.threshold(-1)
    gc.collect()
    asyncio.run(serve_many(idle, 16))  # warm
    gc.collect()
    gc.disable()
    a0 = gc.mem_alloc()
    asyncio.run(serve_many(idle, 4))
    print("ALLOC idle_poll %d" % ((gc.mem_alloc() - a0) // 4))
    gc.enable()
    gc.collect()
    heap("after_requests")

    # One pass of the box's 10 ms button loop (tidebox/running.py, panel_loop) with nothing pressed,
    # the asyncio sleep that ends it apart (below); the idle collector as main.py makes it.
    from tidebox.collect import Collector

    collector = Collector(board.tcp_gate, app)
    collector.start()
    reader.tick(board.ticks_ms())
    xs = []
    by_kind = {"tick": [], "collect": [], "buttons": []}
    drawn = asyncio.run(loop_passes(board, reader, collector, 200, xs, by_kind))
    report("button_loop", xs, extra="redraws_excluded=%d frames=%d" % (drawn, board.display.frames))
    report("button_loop_mean", [sum(xs) / len(xs)])  # passes alternate (the reader's tick every other)
    harness = med(by_kind.pop("harness"))
    report("button_loop_net", [x - harness for x in xs])  # the loop's own, the wrappers' cost taken off
    for kind, times in by_kind.items():  # the passes apart: buttons alone, with the tick, with the collector
        report("button_loop_" + kind, [x - harness for x in times])
    report("button_loop_harness", [harness])

    async def sleeps(n):
        xs = []
        for _ in range(n):
            t0 = ticks_us()
            await asyncio.sleep_ms(0)
            xs.append(ticks_diff(ticks_us(), t0))
        return xs

    report("loop_sleep", asyncio.run(sleeps(50)))  # the scheduler's round trip that ends each pass
    used = []
    for n in (10, 110):  # the difference: the passes' own, not the set-up's
        gc.collect()
        gc.disable()
        a0 = gc.mem_alloc()
        asyncio.run(loop_passes(board, reader, collector, n))
        used.append(gc.mem_alloc() - a0)
        gc.enable()
    print("ALLOC button_loop %d" % ((used[1] - used[0]) // 100))
    gc.enable()
    gc.collect()
    heap("end")
    report("rival_move", time_rivals())
    print("DONE")


def time_rivals():
    """Every turn of a whole Pearl Reach game of four gatherers, each played as a sharp rival
    plays it (rivals.choose: the thinking; the two moves it picks are applied untimed). The
    dealing is seeded, so the game is the same every run."""
    from tidebox.games.pearl_reach import rivals, rules

    seed = [2024]

    def below(n):  # a fixed linear congruential sequence in place of the board's random numbers
        seed[0] = (seed[0] * 1103515245 + 12345) & 0x7FFFFFFF
        return seed[0] % n

    state = rules.new_game(["Ada"], {"rivals": 3, "strength": "sharp"}, below)
    xs = []
    while not rules.is_over(state):
        seat = rules.current(state)
        gc.collect()
        t0 = ticks_us()
        shift, place = rivals.choose(state, seat, below, "sharp")
        xs.append(ticks_diff(ticks_us(), t0))
        if shift is not None:
            rules.move(state, seat, "shift", shift)
        rules.move(state, seat, "place", place)
    return xs


def mark(text):
    print("MARK " + text)
    import time

    time.sleep_ms(30)  # the host sees the line (over USB) before the work starts


def profile():
    """Where the cycles go, for run.mjs's PC sampler (bench_rp2040.py --profile): a stretch of idle
    polls, of full views and of button-loop passes, each between MARK prof_on/prof_off lines (the
    30 ms pauses around each mark show up as the idle loop's share)."""
    import asyncio

    import board as board_module
    from tidebox import api, asyncio_shim
    from tidebox.buttons import Buttons

    asyncio_shim.lean_waits()  # as main.py's main() does

    board = board_module.make_board()
    box, tokens = make_game(board, board_module.MemStorage())
    reader = make_reader(box, board)
    app = api.make_app(box, board)
    conn = Connection()
    idle = [poll_bytes(box.version, tokens[i]) for i in range(8)]
    full = [poll_bytes(0, tokens[i]) for i in range(8)]

    async def serve_many(requests, n):
        for i in range(n):
            conn.load(requests[i & 7])
            await app.serve(conn, conn)

    asyncio.run(serve_many(full, 8))
    asyncio.run(serve_many(idle, 8))
    gc.collect()
    mark("prof_on idle_poll")
    asyncio.run(serve_many(idle, 100))
    mark("prof_off idle_poll")
    gc.collect()
    mark("prof_on full_view")
    asyncio.run(serve_many(full, 40))
    mark("prof_off full_view")
    from tidebox.collect import Collector

    buttons = Buttons(("A", "B", "C"))
    collector = Collector(board.tcp_gate, app)
    collector.start()
    reader.tick(board.ticks_ms())
    now = board.ticks_ms()
    levels = board.buttons.read()
    parts = (("ticks_ms", board.ticks_ms), ("buttons.read", board.buttons.read), ("reader.top", reader.top),
             ("buttons.poll", lambda: buttons.poll(levels, now)), ("reader.tick", lambda: reader.tick(now)),
             ("collector.tick", collector.tick), ("watchdog.feed", board.watchdog.feed))
    for name, part in parts:  # each part of a pass: its time (us) and the heap it allocates (B)
        gc.collect()
        gc.disable()
        a0 = gc.mem_alloc()
        t0 = ticks_us()
        for _ in range(50):
            part()
        dt = ticks_diff(ticks_us(), t0)
        print("PART %s us=%.1f alloc=%d" % (name, dt / 50, (gc.mem_alloc() - a0) // 50))
        gc.enable()
    gc.collect()
    mark("prof_on button_loop")
    asyncio.run(loop_passes(board, reader, collector, 400))
    mark("prof_off button_loop")
    print("DONE")
