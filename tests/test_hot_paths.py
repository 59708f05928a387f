"""The box's hot paths on the real firmware under MicroPython (tests/mp_scripts/hot_paths.py).

- An idle poll (`GET /api/state?v=N`, nothing changed) is answered before microdot: its own work (find
  the head's end, read the request line and the seat token, compare the version) runs with the heap
  locked, and a whole idle poll allocates nothing but the coroutine frames of its awaits.
- A seat lookup allocates nothing; one pass of the 10 ms button loop with nothing pressed allocates
  nothing (the heap locked); the panel is told invert() only when the value changes.
- The early answers are microdot's own: idle polls, full views (every seat, no seat, near-miss tokens)
  and requests that look like either but are not quite one (malformed, too long, split across reads,
  other versions, tokens) get byte for byte the answer microdot gives with the early answers off.
"""

import json
import random

import pytest
from boxrig import BOX_HEAP
from micropython_runner import MP_SCRIPTS

SCRIPT = MP_SCRIPTS / "hot_paths.py"
TOKEN_LINE = "X-Seat-Token: {T3}\r\n"
BROWSER_LINES = [
    "Host: 192.168.4.1\r\n",
    "Connection: keep-alive\r\n",
    "User-Agent: Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36\r\n",
    "Accept: */*\r\n",
    "Referer: http://192.168.4.1/\r\n",
    "Accept-Encoding: gzip, deflate\r\n",
    TOKEN_LINE,
]


def request(line="GET /api/state?v={V} HTTP/1.1\r\n", headers=None, end="\r\n"):
    return (line + "".join(BROWSER_LINES if headers is None else headers) + end).encode("latin-1")


def run(mp, job, heap=BOX_HEAP):  # the whole box in one process, at the box's own test heap
    proc = mp.run(SCRIPT, json.dumps(job), heap=heap)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def checks(mp):
    return run(mp, {"check": "alloc"})


def test_an_idle_poll_allocates_nothing_but_its_coroutine_frames(checks):
    assert checks["fast_path_locked"], "the fast path allocated with the heap locked"
    assert checks["fast_path_found"] == [True, True, 3]  # plain head, the box's version, seat 3's token
    assert checks["idle_poll_heap"] == checks["idle_poll_frames"], checks
    assert checks["idle_poll_answer_same"]
    head, body = checks["idle_answer"].split("\r\n\r\n")
    assert head.startswith("HTTP/1.0 200 OK\r\n")
    assert "Connection: close" in head and "Cache-Control: no-store" in head
    assert json.loads(body).keys() == {"v"}


def test_a_seat_lookup_allocates_nothing(checks):
    assert checks["seat_of_locked"]
    assert checks["seat_of_seat"] == 5


def test_a_button_loop_pass_with_nothing_pressed_allocates_nothing(checks):
    assert checks["button_pass_locked"]
    # ... not even a call frame taken from the heap and given back (a search of the heap each time)
    assert not checks["button_pass_heap_calls"]


def test_the_run_loops_steps_take_no_heap_frame(checks):
    # asyncio's IOQueue.wait_io_event, called at every step of its run loop, has a frame of 13 words:
    # MicroPython takes it from the heap each time (the probe sees it, else it would prove nothing)
    assert checks["steps_heap_calls_asyncio"], "asyncio's own wait no longer takes a heap frame"
    assert checks["lean_waits"], "asyncio_shim.lean_waits found no IO queue to put its wait in"
    assert not checks["steps_heap_calls_lean"], "the box's wait (asyncio_shim.lean_waits) calls the heap"


def test_invert_is_sent_only_when_it_changes(checks):
    sent = checks["inverts"]
    assert sent, "the countdown ran out on the allocation screen: the panel should flash"
    assert all(a != b for a, b in zip(sent, sent[1:])), sent  # never the same value twice in a row
    assert sent[0] == 1 and sent[-1] == 0
    assert len(sent) <= 3000 // 250 + 1  # FLASH_MS / FLASH_HALF_MS changes, not one per 10 ms pass


def cases():
    """Idle polls and near misses, each also split into small reads."""
    base = request()
    found = [
        base,
        request("GET /api/state?v={V} HTTP/1.0\r\n"),
        request("GET /api/state?v={V} HTTP/1.1\n", [x.replace("\r\n", "\n") for x in BROWSER_LINES], "\n"),
        request("GET /api/state?v={V}0 HTTP/1.1\r\n"),  # another version: the full view
        request("GET /api/state?v=0{V} HTTP/1.1\r\n"),  # leading zero: not the same text
        request("GET /api/state?v=1234567890123 HTTP/1.1\r\n"),
        request("GET /api/state?v= HTTP/1.1\r\n"),
        request("GET /api/state?v={V}&v=1 HTTP/1.1\r\n"),
        request("GET /api/state?x=1&v={V} HTTP/1.1\r\n"),
        request("GET /api/state HTTP/1.1\r\n"),
        request("get /api/state?v={V} HTTP/1.1\r\n"),
        request("HEAD /api/state?v={V} HTTP/1.1\r\n"),
        request("GET /api/State?v={V} HTTP/1.1\r\n"),
        request("GET /api/state?v={V} HTTP/2\r\n"),
        request("GET /api/state?v={V} HTTP/1.1 x\r\n"),
        request("GET /api/state?v={V}  HTTP/1.1\r\n"),
        request("GET  /api/state?v={V} HTTP/1.1\r\n"),
        request("GET /api/state?v={V} HTTP/1.1\r\r\n"),
        request("GET /api/state?v={V}\r\n"),
        request(headers=BROWSER_LINES + ["no colon here\r\n"]),
        request(headers=BROWSER_LINES + ["Content-Length: 3\r\n"], end="\r\nabc"),
        request(headers=BROWSER_LINES + ["Content-Length: 600\r\n"]),
        request(headers=BROWSER_LINES + ["Content-Length: x\r\n"]),
        request(headers=BROWSER_LINES + ["content-type: text/plain\r\n"]),
        request(headers=BROWSER_LINES + [" Content-Length : 5\r\n"]),
        request(headers=BROWSER_LINES + ["X-Junk: \xff\xfe\r\n"]),
        request(headers=BROWSER_LINES + ["X-Seat-Token: \xff\xfe\r\n"]),
        request(headers=BROWSER_LINES + ["X-Seat-Token: caf\xc3\xa9\r\n"]),
        request(headers=BROWSER_LINES + ["X-Seat-Token : {T1}\r\n"]),
        request(headers=BROWSER_LINES + ["x-seat-token:{T2}   \r\n"]),
        request(headers=["X-Seat-Token: {T1}\r\n", "X-SEAT-TOKEN: {T4}\r\n"]),
        request(headers=["  \t \r\n", "X-Seat-Token: {T1}\r\n"]),  # a blank-looking line ends the head
        request(headers=BROWSER_LINES + ["X-Pad: " + "p" * 700 + "\r\n"]),  # over a slot: microdot reads on
        request(headers=BROWSER_LINES + ["X-Pad: " + "p" * 1010 + "\r\n"]),  # a line over max_readline
        request(headers=BROWSER_LINES + ["X-Pad%d: %s\r\n" % (i, "p" * 300) for i in range(7)]),  # too large
        request(end=""),  # the stream ends before the blank line
        b"GET /api/state?v={V} HTTP/1.1\r\nHost: x",
        b"",
        b"\r\n\r\n",
        request("GET /api/state?v={V} HTTP/1.1\r\n", [], "\r\n"),
        request("GET /api/state?v=0 HTTP/1.1\r\n", [TOKEN_LINE]),
        request("GET /api/state?v=0 HTTP/1.1\r\n", ["X-Seat-Token: {T3}x\r\n"]),
        request("GET /api/state?v=0 HTTP/1.1\r\n", ["X-Seat-Token: " + "0" * 32 + "\r\n"]),
        request("POST /api/state?v={V} HTTP/1.1\r\n"),
        request("GET / HTTP/1.1\r\n"),
    ]
    # Full views (no ?v, another version): every seat, no seat, tokens that are not quite a seat's.
    plain = BROWSER_LINES[:-1]
    for seat in range(8):
        found.append(request("GET /api/state HTTP/1.1\r\n", plain + ["X-Seat-Token: {T%d}\r\n" % seat]))
        found.append(request("GET /api/state?v=1 HTTP/1.0\r\n", ["X-Seat-Token: {T%d}\r\n" % seat]))
    found += [
        request("GET /api/state HTTP/1.1\r\n", plain),
        request("GET /api/state?v=1 HTTP/1.1\r\n", plain),
        request("GET /api/state?v=00 HTTP/1.1\r\n"),
        request("GET /api/state?v=0 HTTP/1.1\r\n", plain + ["X-Seat-Token: {U2}\r\n"]),
        request("GET /api/state?v=0 HTTP/1.1\r\n", plain + ["X-Seat-Token: {S2}\r\n"]),
        request("GET /api/state?v=0 HTTP/1.1\r\n", plain + ["X-Seat-Token: {T2}{T3}\r\n"]),
        request("GET /api/state?v=0 HTTP/1.1\r\n", plain + ["X-Seat-Token:\r\n"]),
        request("GET /api/state?v=0 HTTP/1.1\r\n", plain + ["X-Seat-Token: {T2}\r\n", "x-seat-token:{T6}\n"]),
        request("GET /api/state?v=123456789 HTTP/1.1\r\n"),
        request("GET /api/state?v=1234567890 HTTP/1.1\r\n"),
        request("GET /api/state? HTTP/1.1\r\n"),
        request("GET /api/state?v HTTP/1.1\r\n"),
        request("GET /api/state?w=1 HTTP/1.1\r\n"),
        request("GET /api/state/ HTTP/1.1\r\n"),
        request("GET /api/states HTTP/1.1\r\n"),
        request("GET /api/state HTTP/1.1\r\n", plain + ["Content-Length: 0\r\n", TOKEN_LINE]),
    ]
    rng = random.Random(11)
    alphabet = b" :\r\n\t?=&/0123456789vVGETHP\xff"
    for _ in range(300):  # small random edits of a real idle poll
        data = bytearray(base)
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(data))
            kind = rng.randrange(3)
            if kind == 0:
                data[at] = rng.choice(alphabet)
            elif kind == 1:
                del data[at]
            else:
                data.insert(at, rng.choice(alphabet))
        found.append(bytes(data))
    return found


def test_near_idle_polls_get_microdots_own_answer(mp):
    jobs = []
    for data in cases():
        for piece in (0, 1, 7, 128):
            jobs.append({"request": data.hex(), "piece": piece})
    out = run(mp, {"check": "answers", "cases": jobs}, heap="16M")  # the cases themselves take heap
    assert out["cases"] == len(jobs)
    for request, fast, slow, piece in out["differ"][:3]:
        print("request %r (reads of %s)\n early: %r\n microdot: %r" % (
            bytes.fromhex(request)[:300], piece, bytes.fromhex(fast)[:300], bytes.fromhex(slow)[:300]))
    assert out["differ"] == []
    assert out["idle_served"] >= 4 * 3  # the early answer was really given (three forms, four splits)
    assert out["view_served"] >= 4 * 20  # and the early full view (every seat, no seat, other tokens)
    assert {"HTTP/1.0 200", "HTTP/1.0 400", "HTTP/1.0 404"} <= set(out["statuses"]), out["statuses"]
