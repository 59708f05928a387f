"""The limits and refusals of the phones' transport, over real sockets, on both interpreters: the
Pico's (MicroPython: tidebox/transport.py's own accept path) and the Raspberry Pi's (CPython: the same
BoxServer behind asyncio's streams, boards/cpython_transport.py). Both run the host board, whose
connection gate reads and answers five connections at once, as a Pico W does."""

import json
import socket

import pytest
from boxrig import INTERPRETERS

HEAD_BYTES = 2048  # tidebox/transport.py: the request line and headers together
BODY_BYTES = 512  # tidebox/transport.py: Request.max_body_length
GET_STATE = b"GET /api/state HTTP/1.1\r\nHost: 192.168.4.1\r\n\r\n"


def raw(box, data, timeout=20):
    """Send `data` on a new connection; everything the box answered, until it closed the connection."""
    with socket.create_connection(("127.0.0.1", box.port), timeout=timeout) as s:
        s.sendall(data)
        out = b""
        while True:
            piece = s.recv(4096)
            if not piece:
                return out
            out += piece


def status_of(answer):
    return int(answer.split(b" ", 2)[1])


@pytest.mark.parametrize("interpreter", INTERPRETERS)
def test_a_head_past_its_limit_and_a_body_past_512_bytes_are_refused(new_box, interpreter):
    box = new_box(interpreter=interpreter)
    before = box.state()
    # Exactly HEAD_BYTES of request line and headers, and no blank line yet: the head can only be
    # longer, so the box refuses it once it has read them all (sent more, the box would close on
    # bytes it never read, and the phone's system could drop the answer for the reset).
    head = b"GET /api/state HTTP/1.1\r\nHost: x\r\n"
    for i in range(3):
        head += b"X-Pad%d: %s\r\n" % (i, b"p" * 500)
    head += b"X-Pad: %s\r\n" % (b"p" * (HEAD_BYTES - len(head) - len(b"X-Pad: \r\n")))
    assert len(head) == HEAD_BYTES
    assert status_of(raw(box, head)) == 400
    body = b'{"name": "' + b"a" * 600 + b'"}'
    assert len(body) > BODY_BYTES
    answer = raw(box, b"POST /api/join HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                 b"Content-Length: %d\r\n\r\n" % len(body) + body)
    assert status_of(answer) == 413
    assert json.loads(answer.split(b"\r\n\r\n", 1)[1]) == {"error": "the request is too large"}
    assert box.state() == before  # nobody joined


@pytest.mark.slow  # the 5 s and 250 ms deadlines run out, on two boxes
@pytest.mark.parametrize("interpreter", INTERPRETERS)
def test_a_slow_client_is_cut_off_without_an_answer(new_box, interpreter):
    box = new_box(interpreter=interpreter)
    # The request line and one header, never the blank line that ends the head.
    assert raw(box, b"GET /api/state HTTP/1.1\r\nHost: x\r\n") == b""
    assert status_of(raw(box, GET_STATE)) == 200  # and the box serves the next phone


@pytest.mark.slow  # the 5 s and 250 ms deadlines run out, on two boxes
@pytest.mark.parametrize("interpreter", INTERPRETERS)
def test_idle_sockets_on_every_connection_do_not_keep_a_phone_out(new_box, interpreter):
    box = new_box(interpreter=interpreter)
    idle = [socket.create_connection(("127.0.0.1", box.port), timeout=20) for _ in range(8)]
    try:
        for s in idle:
            s.sendall(b"GET /api/state HTTP/1.1\r\n")  # started, never finished
        answer = raw(box, GET_STATE)
        assert status_of(answer) == 200 and json.loads(answer.split(b"\r\n\r\n", 1)[1])["box"] == "join"
        for s in idle:  # each was cut off, none answered
            try:
                assert s.recv(4096) == b""
            except ConnectionResetError:
                pass
    finally:
        for s in idle:
            s.close()


def test_the_boxs_own_work_is_not_counted_against_a_phone(mp):
    """A request still being read when every connection is taken is cut off past BUSY_MS, but the time
    the box kept its loop to itself (a save, a rival thinking) while the bytes waited is not the
    phone's (tests/mp_scripts/reaper_held.py)."""
    from micropython_runner import MP_SCRIPTS

    proc = mp.run(MP_SCRIPTS / "reaper_held.py")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == {
        "slow_when_full": True, "slow_when_not_full": False, "box_held_up": False,
        "slow_besides_box_held_up": True, "past_the_request_limit": True}
