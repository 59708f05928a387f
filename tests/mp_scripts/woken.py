# Requests waiting for a change (`?v=N&wait=1`) through tidebox.transport.BoxServer on in-memory
# connections, on the real box mid-game (Token Tide, 8 seats, round 2 open), for tests/test_waiting.py.
# stdout: one JSON object: for each waiting request (seats 0 and 5, the table screen with no token, a
# token one character short) whether its answer, once a seat's allocation woke it, is byte for byte
# the plain `GET /api/state` answer for the same token; then the same with the heap too short to
# build the view: each answer, and the runs of shortages counted (memory.KINDS).
import json

import asyncio
import board as board_module
from tidebox import api, memory, views
from tidebox.box import Box
from tidebox.gate import shipped_gate
from tidebox.storage import Storage
from tidebox.transport import BoxServer


class Connection:
    def __init__(self, data):
        self.data = data
        self.out = []

    async def readinto(self, buf):
        piece = self.data[:len(buf)]
        self.data = self.data[len(piece):]
        buf[:len(piece)] = piece
        return len(piece)

    async def read(self, n):
        piece = self.data[:n]
        self.data = self.data[n:]
        return piece

    async def readexactly(self, n):
        return await self.read(n)

    async def awrite(self, data):
        self.out.append(bytes(data))

    async def aclose(self):
        pass

    def get_extra_info(self, name):
        return ("127.0.0.1", 5000)


def head(path, token):
    text = "GET %s HTTP/1.1\r\nHost: 192.168.4.1\r\n" % path
    if token:
        text += "X-Seat-Token: %s\r\n" % token
    return (text + "\r\n").encode()


async def answer(app, path, token):
    conn = Connection(head(path, token))
    await app.serve(conn, conn)
    return b"".join(conn.out)


async def woken(app, box, tokens, change):
    """Each token's wait, held until `change()` moves the box on: its answer."""
    conns = [Connection(head("/api/state?v=%d&wait=1" % box.version, t)) for t in tokens]
    tasks = [asyncio.create_task(app.serve(c, c)) for c in conns]
    while app.held < len(tokens):
        await asyncio.sleep_ms(1)
    change()
    for task in tasks:
        await task
    return [b"".join(c.out) for c in conns]


async def main():
    board = board_module.make_board()
    box = Box(board, Storage(board.storage_dir))
    box.choose_game("token_tide")
    seats = [box.join(name)["token"] for name in ("Ada", "Bo", "Cy", "Di", "Eve", "Fay", "Gus", "Hal")]
    box.to_setup()
    box.start_game()
    box.move(0, "allocate", {"allocation": [5, 1, 1], "ready": False})
    box.move(5, "allocate", {"allocation": [0, 7, 0], "ready": False})
    app = api.make_app(box, board, BoxServer(shipped_gate()))
    tokens = [seats[0], seats[5], None, seats[3][:-1]]
    out = {}

    got = await woken(app, box, tokens, lambda: box.move(2, "allocate", {"allocation": [4, 2, 1]}))
    plain = []
    for t in tokens:
        plain.append(await answer(app, "/api/state", t))
    out["same_as_plain"] = [a == b for a, b in zip(got, plain)]
    out["mine"] = [json.loads(a.split(b"\r\n\r\n", 1)[1])["game"].get("mine", "none") for a in got]

    real = views.public_view

    def short(box):
        raise MemoryError()

    views.public_view = short  # no heap to build the view at the wake
    try:
        got = await woken(app, box, tokens, lambda: box.move(6, "allocate", {"allocation": [1, 1, 5]}))
    finally:
        views.public_view = real
    out["short_answers"] = [a.split(b"\r\n", 1)[0].decode() + " " + a.split(b"\r\n\r\n", 1)[1].decode()
                            for a in got]
    out["runs"] = dict(zip(memory.KINDS, box.shortages.in_a_row))
    out["held_after"] = app.held
    print(json.dumps(out))


asyncio.run(main())
