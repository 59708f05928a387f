# Drives the box's web app in-process under MicroPython, for `make bench` (bench_cpu.py) and the
# tests: an 8-player game three rounds in, and requests fed to BoxServer.serve() through an
# in-memory connection. No sockets, no panel loop, no periodic task: what is counted is the
# requests' own work (run it under callgrind with two counts and subtract, so start-up cancels).
#
#   micropython mp_web_drive.py MODE COUNT [nogc]
#   MODE idle:   COUNT idle polls (GET /api/state?v=<current>, a phone browser's headers)
#        view:   COUNT full views (the shared part already built)
#        change: COUNT times a change (the version moves on) then the eight phones' full views
#        alloc:  prints JSON: heap bytes an idle poll and a full view allocate (collector off), and
#                of COUNT idle polls, how many collected in the middle of the request (gc.mem_alloc()
#                fell) and how many collections the panel loop made between them (tidebox/collect.py)
# After each request the collector's tick() runs, as the panel loop does when no phone is served.
# The last line printed is JSON with the last answer, so a caller can check the work was done.
import gc
import json
import sys

import asyncio
import board as board_module
from tidebox import api
from tidebox.box import Box
from tidebox.collect import Collector
from tidebox.storage import Storage

HEADERS = ("Host: 192.168.4.1\r\nConnection: keep-alive\r\n"
           "User-Agent: Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) "
           "Chrome/131.0.0.0 Mobile Safari/537.36\r\nAccept: */*\r\nReferer: http://192.168.4.1/\r\n"
           "Accept-Encoding: gzip, deflate\r\nAccept-Language: en-GB,en-US;q=0.9,en;q=0.8\r\n")


class Connection:
    """Both ends of one phone's connection, reused request after request: reads come from the
    request's bytes (a C stream, as a socket is), the answer's bytes are counted."""

    def __init__(self):
        self.stream = None
        self.written = 0
        self.last = b""
        self.closed = False

    def load(self, stream):
        stream.seek(0)
        self.stream = stream
        self.written = 0
        self.closed = False

    async def readinto(self, buf):
        return self.stream.readinto(buf)

    async def read(self, n):
        return self.stream.read(n)

    async def readexactly(self, n):
        return self.stream.read(n)

    async def awrite(self, data):
        self.written += len(data)
        self.last = data

    async def aclose(self):
        self.closed = True

    def get_extra_info(self, name):
        return ("127.0.0.1", 5000)


def make_box():
    board = board_module.make_board()
    box = Box(board, Storage(board.storage_dir))
    box.choose_game("token_tide")
    tokens = []
    for name in ("Ada", "Bo", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"):
        tokens.append(box.join(name)["token"])
    box.to_setup()
    box.start_game()
    for _ in range(3):
        for seat in range(8):
            box.move(seat, "allocate", {"allocation": [3, 2, 2] if seat % 2 else [1, 2, 4]})
        box.move(None, "reveal")
        box.move(None, "next_round")
    return board, box, tokens


def poll(version, token):
    import io

    text = "GET /api/state?v=%d HTTP/1.1\r\n%sX-Seat-Token: %s\r\n\r\n" % (version, HEADERS, token)
    return io.BytesIO(text.encode())


async def serve(app, conn, request, collector):
    conn.load(request)
    await app.serve(conn, conn)
    collector.tick()  # what the panel loop does between requests


async def drive(mode, count, app, box, tokens, collector):
    conn = Connection()
    if mode == "idle":
        requests = [poll(box.version, tokens[i]) for i in range(8)]
        for i in range(count):
            await serve(app, conn, requests[i & 7], collector)
    elif mode == "view":
        requests = [poll(0, tokens[i]) for i in range(8)]
        for i in range(count):
            await serve(app, conn, requests[i & 7], collector)
    elif mode == "change":
        requests = [poll(0, tokens[i]) for i in range(8)]
        for _ in range(count):
            box.version += 1  # what every change does (box.changed), without the save to flash
            for seat in range(8):
                await serve(app, conn, requests[seat], collector)
    elif mode == "alloc":
        requests = [poll(box.version, tokens[i]) for i in range(8)]
        for i in range(16):  # warm up: the prebuilt answer, interned names
            await serve(app, conn, requests[i & 7], collector)
        gc.collect()
        gc.disable()
        before = gc.mem_alloc()
        for i in range(4):  # a few: the polls of old filled the heap with the collector off
            conn.load(requests[i])
            await app.serve(conn, conn)
        per_poll = (gc.mem_alloc() - before) / 4
        views = [poll(0, tokens[i]) for i in range(2)]
        conn.load(views[0])
        await app.serve(conn, conn)
        gc.collect()
        before = gc.mem_alloc()
        conn.load(views[1])
        await app.serve(conn, conn)
        per_view = gc.mem_alloc() - before
        gc.enable()
        inside = 0  # collections in the middle of a request: gc.mem_alloc() fell during it
        idle = 0  # collections between requests (the panel loop's, tidebox/collect.py)
        for i in range(count):
            conn.load(requests[i & 7])
            before = gc.mem_alloc()
            await app.serve(conn, conn)
            if gc.mem_alloc() < before:
                inside += 1
            if collector.tick():
                idle += 1
        print(json.dumps({"bytes_per_poll": per_poll, "bytes_per_view": per_view, "collections": inside,
                          "idle_collections": idle, "polls": count}))
    return conn


def main():
    mode = sys.argv[1]
    count = int(sys.argv[2])
    board, box, tokens = make_box()
    app = api.make_app(box, board)
    collector = Collector(board.tcp_gate, app)
    collector.start()  # as main.py does once the box is up
    if sys.argv[3:] == ["nogc"]:  # the requests' own work: no collection at all (run it with a large heap)
        gc.disable()
        collector.tick = lambda: False
    conn = asyncio.run(drive(mode, count, app, box, tokens, collector))
    print(json.dumps({"last": bytes(conn.last).decode(), "written": conn.written, "closed": conn.closed}))


main()
