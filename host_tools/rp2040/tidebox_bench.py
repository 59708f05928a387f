# Tidebox's costs on the RP2040, run by bench_rp2040.py in rp2040js (`tidebox_bench.run()`).
#
# Runs on the real rp2 MicroPython firmware, whose time.ticks_us() counts the emulator's executed
# cycles at 125 MHz. Prints "RESULT <key> median_us=.. min_us=.. max_us=.. n=.." and "HEAP <label>
# free=.. alloc=.." lines for the host to tabulate. The scene: an 8-player Token Tide round with
# seven players locked in (the shared part of the view cached, as after the first poll of a
# version); requests go through the web app's serve() on in-memory connections, as `make bench`'s
# x86 figures do (mp_web_drive.py), so no lwIP or Wi-Fi work is counted.
import gc
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
        import io

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

    try:
        box = Box(board, storage)  # the box that hosts several games
        box.choose_game("token_tide")
    except TypeError:
        from tidebox.games import token_tide

        box = Box(board, storage, token_tide)
    tokens = [box.join(n)["token"] for n in NAMES]
    box.to_setup()
    box.start_game()
    for seat in range(7):
        b = seat % 8
        g = (seat * 3) % (8 - b)
        allocation = [b, g, 7 - b - g]
        if hasattr(box, "allocate"):
            box.allocate(seat, allocation)
        else:
            box.move(seat, "allocate", {"allocation": allocation, "ready": True})
    return box, tokens


def make_reader(box, board):
    from tidebox.reader import Reader

    try:
        reader = Reader(box, board.display, board.buzzer)
    except TypeError:
        try:
            from tidebox.games.token_tide.flow import TideFlow
        except ImportError:
            from tidebox.tide_flow import TideFlow
        reader = Reader(box, board.display, board.buzzer, TideFlow)
    reader.boot(board.ticks_ms(), False)
    return reader


def run():
    heap("first_prompt")
    print("INFO freq=%d platform=%s version=%s" % (machine.freq(), sys.platform, sys.version))
    gc.collect()
    t0 = ticks_us()
    import asyncio

    import board as board_module
    from tidebox import web
    from tidebox.buttons import Buttons

    print("INFO import_ms=%.1f" % (ticks_diff(ticks_us(), t0) / 1000))
    board = board_module.make_board()
    storage = board_module.MemStorage()
    box, tokens = make_game(board, storage)
    reader = make_reader(box, board)
    app = web.make_app(box, board)
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

    asyncio.run(serve_many(full, 8))  # every seat's view built once (first poll of this version)
    print("INFO full view %d bytes %r" % (conn.written, conn.head))
    asyncio.run(serve_many(idle, 1))
    print("INFO idle answer %d bytes %r; phase %s" % (conn.written, conn.head, box.phase))
    gc.collect()
    heap("game")
    report("gc_collect", time_gc())

    # The shared part of the view rebuilt (the first poll after a change), and the seat lookup.
    if hasattr(box, "_public_version") and hasattr(box, "view_chunks"):
        xs = []
        for i in range(9):
            box._public_version = 0
            t0 = ticks_us()
            box.view_chunks(i & 7)
            xs.append(ticks_diff(ticks_us(), t0))
        report("view_rebuild", xs)
    xs = []
    for _ in range(9):
        t0 = ticks_us()
        for _ in range(20):
            box.seats.seat_of(tokens[3])
        xs.append(ticks_diff(ticks_us(), t0))
    report("seat_of", xs, div=20)
    gc.collect()
    gc.disable()
    a0 = gc.mem_alloc()
    for _ in range(4):
        box.seats.seat_of(tokens[3])
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

    # One pass of main.py's 10 ms button loop with nothing pressed.
    buttons = Buttons(("A", "B", "C"))
    reader.tick(board.ticks_ms())

    def loop_pass():
        now = board.ticks_ms()
        for name, kind in buttons.poll(board.buttons.read(), now):
            reader.press(name, kind)
        drew = reader.tick(now)
        board.watchdog.feed()
        return drew

    xs = []
    drawn = 0
    for _ in range(200):
        t0 = ticks_us()
        d = loop_pass()
        dt = ticks_diff(ticks_us(), t0)
        if d:
            drawn += 1
        else:
            xs.append(dt)
    report("button_loop", xs, extra="redraws_excluded=%d frames=%d" % (drawn, board.display.frames))
    gc.collect()
    gc.disable()
    a0 = gc.mem_alloc()
    for _ in range(10):
        loop_pass()
    print("ALLOC button_loop %d" % ((gc.mem_alloc() - a0) // 10))
    gc.enable()
    gc.collect()
    heap("end")
    print("DONE")
