"""Phones waiting for a change (`GET /api/state?v=N&wait=1`), over real sockets, on both interpreters:
the Pico's (tidebox/transport.py under MicroPython) and the Raspberry Pi's (the same BoxServer under
CPython). The host board serves connections as lwIP does on Tidebox's own firmware (gate.shipped_gate:
5 read and answered at once, and up to 10 waiting besides); TIDEBOX_LWIP=stock makes it stock
MicroPython's (5, no waiting).
What the box holds is read from its status (`held`), never from how long an answer took."""

import json
import socket

import pytest
from boxrig import BOX_HEAP, INTERPRETERS, wait_until
from micropython_runner import MP_SCRIPTS

HOLDS = 10  # tidebox/gate.py SHIPPED_HOLDS
LIMIT = 5  # ... TCP_LIMIT


def wait_request(version, token=None):
    head = b"GET /api/state?v=%d&wait=1 HTTP/1.1\r\nHost: 192.168.4.1\r\n" % version
    if token:
        head += b"X-Seat-Token: %s\r\n" % token.encode()
    return head + b"\r\n"


def open_wait(box, version, token=None):
    s = socket.create_connection(("127.0.0.1", box.port), timeout=20)
    s.sendall(wait_request(version, token))
    return s


def answer_of(s):
    """The whole answer on `s`, until the box closed it: (status, body as JSON)."""
    out = b""
    while True:
        piece = s.recv(4096)
        if not piece:
            break
        out += piece
    s.close()
    head, body = out.split(b"\r\n\r\n", 1)
    return int(head.split(b" ", 2)[1]), json.loads(body)


def held(box, count):
    wait_until(lambda: box.status()["held"] == count, "%d requests waiting" % count, timeout=10)


@pytest.mark.parametrize("interpreter", INTERPRETERS)
def test_a_waiting_phone_gets_its_own_view_when_the_box_changes(new_box, interpreter):
    box = new_box(interpreter=interpreter)
    ana = box.join("Ana")["token"]
    version = box.state(ana)["v"]
    s = open_wait(box, version, ana)
    held(box, 1)
    assert box.status()["tcp_active"] == 1  # the status request: the waiting one is off the gate
    box.join("Ben")
    status, view = answer_of(s)
    assert status == 200 and view["v"] > version
    assert [p["name"] for p in view["seats"]] == ["Ana", "Ben"]
    assert view["you"]["name"] == "Ana"  # built for its own seat
    held(box, 0)
    assert box.status()["held_served"] == 1


@pytest.mark.parametrize("interpreter", INTERPRETERS)
def test_a_wait_is_answered_unchanged_after_its_time(new_box, interpreter):
    box = new_box(interpreter=interpreter, env={"TIDEBOX_HOLD_MS": "400"})
    version = box.state()["v"]
    s = open_wait(box, version)
    assert answer_of(s) == (200, {"v": version})
    assert box.status()["held"] == 0
    stale = open_wait(box, version - 1)  # a version the box has moved past: the whole view at once
    status, view = answer_of(stale)
    assert status == 200 and view["v"] == version and view["box"] == "join"


@pytest.mark.parametrize("interpreter", INTERPRETERS)
def test_a_wait_asked_with_a_seat_that_left_is_answered_with_the_public_view(new_box, interpreter):
    box = new_box(interpreter=interpreter)
    ana = box.join("Ana")["token"]
    box.join("Ben")
    version = box.state(ana)["v"]
    s = open_wait(box, version, ana)
    held(box, 1)
    box.api("POST", "/api/leave", {}, ana)  # the change that wakes it takes the seat away
    status, view = answer_of(s)
    assert status == 200 and view["you"] is None
    assert [p["name"] for p in view["seats"]] == ["Ben"]


@pytest.mark.parametrize("interpreter", INTERPRETERS)
def test_past_the_waiting_limit_the_longest_waiting_is_answered(new_box, interpreter):
    box = new_box(interpreter=interpreter)
    version = box.state()["v"]
    first = open_wait(box, version)
    held(box, 1)
    others = [open_wait(box, version) for _ in range(HOLDS)]
    assert answer_of(first) == (200, {"v": version})  # let go to make room, "unchanged"
    held(box, HOLDS)
    box.join("Ana")
    for s in others:
        status, view = answer_of(s)
        assert status == 200 and [p["name"] for p in view["seats"]] == ["Ana"]
    held(box, 0)


@pytest.mark.parametrize("interpreter", INTERPRETERS)
def test_waiting_phones_that_never_read_or_vanish_do_not_keep_others_out(new_box, interpreter):
    box = new_box(interpreter=interpreter)
    version = box.state()["v"]
    silent = []
    for _ in range(HOLDS):
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)  # never read: the answers pile up
        s.settimeout(20)
        s.connect(("127.0.0.1", box.port))
        s.sendall(wait_request(version))
        silent.append(s)
    held(box, HOLDS)
    gone = open_wait(box, version)  # pushes the first silent one out, then vanishes
    gone.close()
    # Every connection the box reads at once, taken by requests that never finish: the box cuts
    # them, and the phones still get in.
    idle = [socket.create_connection(("127.0.0.1", box.port), timeout=20) for _ in range(LIMIT + 3)]
    for s in idle:
        s.sendall(b"GET /api/state HTTP/1.1\r\n")
    try:
        for name in ("Ana", "Ben", "Cy"):
            assert box.join(name)["token"]  # each a change that wakes every waiting one
        wait_until(lambda: box.status()["held"] == 0 and box.status()["tcp_active"] == 1,
                   "every waiting and idle connection let go", timeout=15)
        assert [p["name"] for p in box.state()["seats"]] == ["Ana", "Ben", "Cy"]
    finally:
        for s in silent + idle:
            s.close()


@pytest.mark.parametrize("interpreter", INTERPRETERS)
def test_on_stock_firmware_a_wait_is_answered_at_once(new_box, interpreter):
    box = new_box(interpreter=interpreter, env={"TIDEBOX_LWIP": "stock"})
    version = box.state()["v"]
    assert answer_of(open_wait(box, version)) == (200, {"v": version})
    assert box.status()["held_peak"] == 0


def test_a_woken_request_gets_its_own_seats_view_or_a_try_again(mp):
    """In-memory connections through the real BoxServer (tests/mp_scripts/woken.py), mid-game: each
    woken request's answer is byte for byte the plain view for its token (seat 0 and 5 see their own
    allocation, none another's; the table screen and a wrong token, nobody's). With no heap to build
    the view at the wake, every one is told to try again, and the miss is counted as a view not made."""
    proc = mp.run(MP_SCRIPTS / "woken.py", heap=BOX_HEAP)  # the box's own test heap
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["same_as_plain"] == [True, True, True, True]
    assert out["mine"] == [[5, 1, 1], [0, 7, 0], "none", "none"]  # their own; nobody's
    for said in out["short_answers"]:
        assert said.startswith("HTTP/1.0 503 ") and "try again" in said, said
    assert out["runs"] == {"moves": 0, "views": 4, "requests": 0}
    assert out["held_after"] == 0
