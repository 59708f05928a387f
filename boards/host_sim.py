# The simulator's pages, served by the firmware itself on the host board only:
#   GET  /sim            the box: the OLED at 4x scale, live, and buttons A, B, C (keys a, b, c too)
#   GET  /sim/oled.png   the current frame as a 128x64 PNG
#   POST /sim/press      {"button": "A", "ms": 80} holds a button down (ms >= 700 is a long press);
#                        "squeeze": n fills the heap but for n bytes while the box reads the press;
#                        "fault": "draw" fails the first frame drawn after its release
#   POST /sim/advance    {"ms": 15000} moves the box's clock forward (tests skip a countdown)
#   POST /sim/clock      {"hold": true | false} stops the box's clock (it then moves only by advance
#                        and by button presses: exact figures) or lets it run on
#   POST /sim/fault      {"kind": "raise" | "hang"}: the button task crashes once, or the loop hangs;
#                        {"kind": "squeeze", "leave": n}: the heap held full but for n bytes until
#                        {"kind": "release"} or the box restarts; {"kind": "draw"}: the next frame
#                        drawn raises MemoryError
#   GET  /sim/status     {"frames": n, "tones": [...], "tcp_peak": n, "screen": "...", "mem_free": n,
#                         "restarts": tasks restarted after a crash, "boot": interpreters started
#                         before this one, "message": the reader's message line, ...}
#                        (?gc=1 collects garbage first, so mem_free is what is really in use, and
#                        adds "max_free": the largest block the heap could give now, in bytes)
import binascii
import gc
import json
import struct

# The /sim page is a file beside the firmware (boards/host_sim.html, copied by the build): as a
# string constant it would hold 2 KB of heap for the whole run.
_PAGE_FILE = "host_sim.html"


def _chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", binascii.crc32(body) & 0xFFFFFFFF)


def _adler32(data):
    a = 1
    b = 0
    for byte in data:
        a = (a + byte) % 65521
        b = (b + a) % 65521
    return (b << 16) | a


_png = None  # the PNG is rebuilt in this one buffer each time: no 1 KB allocations per frame


def png_1bit(display):
    """The shown frame as a 1-bit greyscale PNG (lit pixels white), stored-deflate (no compressor
    needed; 128x64 is 1 KB of pixels). Answers are sent one at a time (transport.py), so the one buffer
    is never rewritten while it is being sent."""
    global _png
    w = display.width
    h = display.height
    row_bytes = w // 8
    size = (row_bytes + 1) * h
    header = struct.pack(">IIBBBBB", w, h, 1, 0, 0, 0, 0)
    head = b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header)
    # IDAT: length, type, zlib header, one stored block (header + raw rows), adler32, crc
    idat_len = 2 + 5 + size + 4
    total = len(head) + 8 + idat_len + 4 + 12
    if _png is None or len(_png) != total:
        _png = bytearray(total)
    buf = _png
    buf[: len(head)] = head
    at = len(head)
    buf[at : at + 8] = struct.pack(">I", idat_len) + b"IDAT"
    zstart = at + 4
    at += 8
    buf[at : at + 7] = b"\x78\x01\x01" + struct.pack("<HH", size, size ^ 0xFFFF)
    at += 7
    raw = memoryview(buf)[at : at + size]
    for i in range(size):
        raw[i] = 0
    for y in range(h):
        base = y * (row_bytes + 1)  # the first byte of each row is the PNG filter type (0: none)
        for x in range(w):
            if display.lit(x, y):
                raw[base + 1 + (x >> 3)] |= 0x80 >> (x & 7)
    at += size
    buf[at : at + 4] = struct.pack(">I", _adler32(raw))
    at += 4
    crc = binascii.crc32(memoryview(buf)[zstart:at]) & 0xFFFFFFFF
    buf[at : at + 4] = struct.pack(">I", crc)
    at += 4
    buf[at:] = _chunk(b"IEND", b"")
    return buf


def _press(board, data):
    button = data.get("button")
    ms = data.get("ms", 80)
    leave = data.get("squeeze")
    if button not in ("A", "B", "C") or type(ms) is not int or not 0 < ms <= 10000:
        return {"error": "press needs button A, B or C and ms from 1 to 10000"}, 400
    if leave is not None and (type(leave) is not int or leave < 0):
        return {"error": "squeeze is the bytes to leave free"}, 400
    arm = None
    if data.get("fault") == "draw":  # the first frame drawn once the press is released fails
        def arm():
            board.display.fail_next = True
    board.buttons.press(button, ms, None if leave is None else lambda: board.squeeze(leave), arm)
    return {"pressed": button, "ms": ms}


def _advance(board, data):
    ms = data.get("ms")
    if type(ms) is not int or not 0 < ms <= 3600000:
        return {"error": "advance needs ms from 1 to 3600000"}, 400
    board.clock.advance(ms)
    return {"advanced": ms}


def _clock(board, data):
    hold = data.get("hold")
    if hold not in (True, False):
        return {"error": "clock needs hold: true or false"}, 400
    board.clock.hold(hold)
    return {"held": hold}


def _fault(board, data):
    kind = data.get("kind")
    if kind == "squeeze":  # the heap held full but for "leave" bytes (Board.squeeze)
        leave = data.get("leave")
        if type(leave) is not int or leave < 0:
            return {"error": "squeeze needs leave: the bytes to leave free"}, 400
        board.squeeze(leave)
        return {"fault": kind}
    if kind == "release":
        board.release()
        return {"fault": kind}
    if kind == "draw":  # the next frame drawn finds no memory
        board.display.fail_next = True
        return {"fault": kind}
    if kind not in ("raise", "hang"):
        return {"error": "fault kind must be raise, hang, squeeze, release or draw"}, 400
    board.buttons.fault = kind
    return {"fault": kind}


def largest_free(ceiling):
    """The largest bytearray the heap can hold now (to 64 bytes), found by trying: MicroPython has no
    call that says how big its largest free block is, and fragmentation is what an evening's games
    leave behind. Each failed try costs a collection; nothing tried is kept."""
    low, high = 0, ceiling + 64  # low fits, high does not
    while high - low > 64:
        mid = (low + high) // 2
        try:
            block = bytearray(mid)
            del block
            low = mid
        except MemoryError:
            high = mid
    return low


def _status(board, box, request):
    measured = {}
    if request.args.get("gc"):
        gc.collect()  # only on request: tests poll this often and a collection is not free
        measured["max_free"] = largest_free(gc.mem_free())
        gc.collect()
    if request.args.get("modules"):  # which modules are imported now (what a game left behind)
        import sys

        measured["modules"] = sorted(sys.modules)
    tones = board.buzzer.tones if board.buzzer else []
    measured.update({
        "frames": board.display.frames, "tones": [list(t) for t in tones],
        "tcp_peak": board.tcp_gate.peak, "tcp_waited": board.tcp_gate.waited,
        "screen": box.reader.screen if box.reader else None,
        "presses": box.reader.presses if box.reader else 0,
        "mem_free": gc.mem_free(), "mem_alloc": gc.mem_alloc(),
        "feeds": board.watchdog.feeds, "restarts": board.restarts, "inverted": board.display.inverted,
        "boot": board.boot, "message": box.reader.message if box.reader else "",
        "buttons_down": len(board.buttons.held) + len(board.buttons.queued),  # presses not yet over
    })
    return json.dumps(measured), 200, {"Content-Type": "application/json"}


_ACTIONS = {"press": _press, "advance": _advance, "clock": _clock, "fault": _fault}


def add_routes(app, box, board):
    """Two routes for all of /sim: each microdot route costs heap for the whole run."""
    from microdot import Response

    @app.get("/sim")
    async def sim_page(request):
        return Response.send_file(_PAGE_FILE, content_type="text/html; charset=utf-8")

    @app.route("/sim/<what>", methods=["GET", "POST"])
    async def sim(request, what):
        if request.method == "POST":
            action = _ACTIONS.get(what)
            if action is not None:
                return action(board, request.json if isinstance(request.json, dict) else {})
        elif what == "oled.png":
            headers = {"Content-Type": "image/png", "Cache-Control": "no-store"}
            return Response(png_1bit(board.display), headers=headers)
        elif what == "status":
            return _status(board, box, request)
        if what in _ACTIONS or what in ("oled.png", "status"):
            return {"error": "that method is not allowed here"}, 405
        return {"error": "no such address on the box"}, 404
