# The box's memory policy (tidebox/memory.py) as the web server and the box report to it, under
# MicroPython with the real routes (api.make_app) on in-memory connections
# (tests/test_shortage_count.py): a move whose route runs out of memory, tried again every 150 ms as a
# player taps again, while the other phones' polls are answered in between; then full views that find
# no room, and the shared part of the view finding none, in a burst and over seconds. stdout: one
# JSON object.
import io
import json

import asyncio
import board as board_module
import time
from tidebox import api, memory, views
from tidebox.box import Box
from tidebox.storage import Storage

POLL = "GET /api/state?v={V} HTTP/1.1\r\nHost: 192.168.4.1\r\nX-Seat-Token: {T}\r\n\r\n"
MOVE = ("POST /api/move HTTP/1.1\r\nHost: 192.168.4.1\r\nX-Seat-Token: {T}\r\n"
        "Content-Type: application/json\r\nContent-Length: {L}\r\n\r\n{B}")
REFUSED_SHORT = memory.LIMITS[memory.MOVES][0]
VIEW_SHORT, VIEW_SHORT_MS = memory.LIMITS[memory.VIEWS]
BODY = '{"move": "allocate", "args": {"allocation": [3, 2, 2], "ready": true}}'


class Connection:
    def __init__(self, data):
        self.stream = io.BytesIO(data)
        self.out = b""

    async def readinto(self, buf):
        return self.stream.readinto(buf)

    async def read(self, n=-1):
        return self.stream.read(n)

    async def readexactly(self, n):
        return self.stream.read(n)

    async def readline(self):
        return self.stream.readline()

    async def awrite(self, data):
        self.out += bytes(data)

    async def aclose(self):
        pass

    def get_extra_info(self, name):
        return ("127.0.0.1", 5000)


board = board_module.make_board()
box = Box(board, Storage(board.storage_dir))
box.choose_game("token_tide")
tokens = [box.join(name)["token"] for name in ("Ada", "Bo", "Cy")]
box.to_setup()
box.start_game()
app = api.make_app(box, board)
rules = box.rules
real_move = rules.move
short = {"on": True}


def move(*args):
    """The rules' move, out of memory while `short` is on: Box.move puts the game back as flash holds
    it and refuses the move with 503, as when the heap has no room for it."""
    if short["on"]:
        raise MemoryError("injected: no room for this move")
    return real_move(*args)


rules.move = move


async def request(text):
    conn = Connection(text.encode())
    await app.serve(conn, conn)
    return int(conn.out.split(b" ", 2)[1]) if conn.out else 0


def poll_text(seat):
    return POLL.replace("{V}", str(box.version)).replace("{T}", tokens[seat])


def move_text(seat):
    return MOVE.replace("{T}", tokens[seat]).replace("{L}", str(len(BODY))).replace("{B}", BODY)


async def tries(n, polls=True):
    """The move tried n times, 150 ms apart, the other two phones' idle polls and a full view answered
    in between. Returns the move's statuses, the polls' and whether the box has asked for its restart."""
    moves, polled = [], []
    for _ in range(n):
        moves.append(await request(move_text(0)))
        if polls:
            polled.append(await request(poll_text(1)))
            polled.append(await request(poll_text(2).replace("?v=" + str(box.version), "")))
        time.sleep_ms(150)
    return moves, polled, box.shortages.reboot_due


def no_reboot_due():
    """As after a reboot: no run, none due (the same Shortages: the web server holds it too)."""
    shortages = box.shortages
    shortages.reboot_due = False
    for kind in range(len(memory.LIMITS)):
        shortages.fine(kind)


async def main():
    out = {}
    await request(poll_text(1))  # the idle answer made once
    out["moves"], out["polls"], out["restart"] = await tries(REFUSED_SHORT)

    no_reboot_due()
    # One less than it takes, then the move made: the count starts over.
    out["one_less"] = (await tries(REFUSED_SHORT - 1))[2]
    short["on"] = False
    out["made"] = await request(move_text(0))
    short["on"] = True
    out["after_made"] = (await tries(REFUSED_SHORT - 1))[2]

    # Views short of memory (the polls' full views: each phone asks again at its next poll) do not count.
    no_reboot_due()
    real = views.public_view, views.view_chunks

    def no_view(*args):
        raise MemoryError("injected: no room for this view")

    views.public_view = views.view_chunks = no_view  # before microdot (transport.answer_view), in its route
    answers = []
    for _ in range(REFUSED_SHORT + 2):
        answers.append(await request(poll_text(1).replace("?v=" + str(box.version), "")))
    views.public_view, views.view_chunks = real
    out["views"] = answers
    out["views_restart"] = box.shortages.reboot_due

    # The view itself finding no room where it is made, poll after poll (the heap in pieces too small
    # for it): a burst does not count, the same over more than VIEW_SHORT_MS does.
    real_view = rules.public_view

    def view_short(state):
        raise MemoryError("injected: no room for the shared part")

    async def full_views(n, apart_ms):
        statuses = []
        for _ in range(n):
            statuses.append(await request(poll_text(1).replace("?v=" + str(box.version), "")))
            time.sleep_ms(apart_ms)
        return statuses

    no_reboot_due()
    rules.public_view = view_short
    box.changed(save=False)  # a change: the shared part is written again at the next full view
    out["burst"] = await full_views(3 * VIEW_SHORT, 0)
    out["burst_restart"] = box.shortages.reboot_due
    time.sleep_ms(VIEW_SHORT_MS)
    rules.public_view = real_view
    out["written"] = await full_views(1, 0)  # a view written: the count starts over
    rules.public_view = view_short
    box.changed(save=False)
    out["after_written"] = await full_views(1, 0)
    out["after_written_restart"] = box.shortages.reboot_due
    out["persisting"] = await full_views(VIEW_SHORT, VIEW_SHORT_MS // (VIEW_SHORT - 1) + 20)
    out["persisting_restart"] = box.shortages.reboot_due
    rules.public_view = real_view
    print(json.dumps(out))


asyncio.run(main())
