"""Hostile input against the real firmware (MicroPython unix port, Pico-sized heap, boards/host.py):
hypothesis generates malformed requests (bad JSON, wrong types, missing fields, huge bodies and
headers, invalid UTF-8, unknown and stolen-looking tokens, negative, fractional and huge numbers,
totals other than 7, names with markup, requests for another seat) and sends them over raw sockets.

Every answer must be a clear 4xx (a JSON {"error": message}), the box must keep running with no
crash logged, and the game must be byte-for-byte unchanged: the save file, the version every phone
polls, and at the end of each test every phone's whole view. At least 10,000 requests in all
(`TIDEBOX_FUZZ_SCALE=10` sends ten times as many).
"""

import json
import os
import socket
import string
from pathlib import Path

import pytest
from boxrig import BoxProcess, wait_until
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fuzzing

pytestmark = pytest.mark.slow  # fuzz at scale: over 10,000 requests to real boxes

SCALE = float(os.environ.get("TIDEBOX_FUZZ_SCALE", "1"))
# Requests per test; together at least 10,000 (the count), each one a separate connection.
BUDGET = {
    "json": 2700,
    "allocations": 2500,
    "raw": 2300,
    "lobby": 1500,
    "revealed": 1500,
}
SENT = {}  # test -> requests sent, for the total check at the end
HOLDS = 10  # tidebox/gate.py SHIPPED_HOLDS: requests the box keeps waiting for a change at once


def fuzz_settings(name):
    return settings(
        max_examples=int(BUDGET[name] * SCALE), deadline=None, database=None, derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
    )


# ---------------------------------------------------------------- boxes in three phases


class Table:
    """A box with eight seats, what it looked like before the fuzzing, and the checks after each request."""

    def __init__(self, box, tokens):
        self.box = box
        self.tokens = tokens
        self.real = set(tokens.values())
        self.freeze()
        self.heap = live_heap(box)

    def freeze(self):
        self.saved = fuzzing.saved(self.box)
        self.views = fuzzing.view_bytes(self.box, self.tokens)
        self.version = json.loads(self.views[0])["v"]

    def unchanged(self, what):
        """The save file and the version are what they were (checked after every request)."""
        assert fuzzing.saved(self.box) == self.saved, what
        poll = fuzzing.call(self.box.port, "GET", "/api/state?v=%d" % self.version)
        assert poll.status == 200 and poll.json() == {"v": self.version}, (what, poll)

    def all_unchanged(self):
        assert fuzzing.view_bytes(self.box, self.tokens) == self.views
        assert fuzzing.saved(self.box) == self.saved
        assert self.box.alive()
        assert not (Path(self.box.state_dir) / "crash.log").exists()
        assert live_heap(self.box) - self.heap < 4096  # thousands of hostile requests left nothing behind


def make_box(sim_tree, factory, name):
    box = BoxProcess(sim_tree, factory.mktemp(name) / "state").start()
    box.choose()
    return box


@pytest.fixture(scope="module")
def playing(sim_tree, tmp_path_factory):
    """Round 1 open: seats 0-3 locked, seat 4 set but not ready, seats 5-7 nothing yet; no timer."""
    box = make_box(sim_tree, tmp_path_factory, "playing")
    try:
        tokens = fuzzing.seat_table(box)
        fuzzing.start_game(box, timer_off=True)
        assert box.press("C") == "allocate"
        for seat, allocation in enumerate([[4, 1, 2], [3, 1, 3], [1, 3, 3], [7, 0, 0]]):
            box.allocate(tokens[seat], allocation)
        box.allocate(tokens[4], [2, 2, 3], ready=False)
        yield Table(box, tokens)
    finally:
        box.stop()


@pytest.fixture(scope="module")
def lobby(sim_tree, tmp_path_factory):
    """Still joining, two seats taken: a valid name would join, so every name sent is invalid."""
    box = make_box(sim_tree, tmp_path_factory, "lobby")
    try:
        yield Table(box, fuzzing.seat_table(box, ["Ada", "Bo"]))
    finally:
        box.stop()


@pytest.fixture(scope="module")
def revealed(sim_tree, tmp_path_factory):
    """Round 1 revealed: nobody may change an allocation any more, not even with a legal one."""
    box = make_box(sim_tree, tmp_path_factory, "revealed")
    try:
        tokens = fuzzing.seat_table(box)
        fuzzing.start_game(box, timer_off=True)
        assert box.press("C") == "allocate"
        for seat, token in tokens.items():
            box.allocate(token, [seat % 8, 0, 7 - seat % 8])
        assert box.press("C") == "reveal"
        yield Table(box, tokens)
    finally:
        box.stop()


# ---------------------------------------------------------------- what an answer must be


def token_of(request):
    """The seat token the box reads from a request: the last X-Seat-Token header, stripped."""
    token = None
    for line in request.split(b"\n\n")[0].split(b"\n")[1:]:
        name, sep, value = line.partition(b":")
        if sep and name.strip().lower() == b"x-seat-token":
            token = value.strip().decode("utf-8", "replace")
    return token


def check_answer(table, request, reply):
    """A clear 4xx, or for the few requests that are not refusals what they must be."""
    assert reply.status is not None, (request[:300], reply)
    token = token_of(request.replace(b"\r\n", b"\n"))
    line = request.split(b"\r\n", 1)[0].split(b" ")
    method = line[0].upper() if line else b""
    path = line[1].split(b"?")[0] if len(line) > 2 else b""
    if 400 <= reply.status < 500:
        if method != b"HEAD":
            message = reply.error_message()
            assert message and len(message) > 5, (request[:300], reply)
        assert reply.headers.get("connection") == "close", reply
        return
    # Not a refusal: only reading the state, the page, the captive-portal redirect or OPTIONS.
    if reply.status == 200 and path == b"/api/state" and method in (b"GET", b"HEAD"):
        if method == b"GET":
            view = reply.json()
            if token not in table.real:
                assert view["you"] is None and "mine" not in (view.get("game") or {}), reply
        return
    if reply.status == 200 and method in (b"GET", b"HEAD") and path == b"/":
        return
    if reply.status == 302 and method in (b"GET", b"HEAD") and not path.startswith(b"/api/"):
        assert reply.headers["location"] == "http://localhost:%d/" % table.box.port
        return
    if reply.status == 200 and method == b"OPTIONS" and not reply.body:
        return
    raise AssertionError("not a clear refusal: %r -> %r" % (request[:300], reply))


def send(table, name, request):
    reply = fuzzing.exchange(table.box.port, request, timeout=8)
    SENT[name] = SENT.get(name, 0) + 1
    check_answer(table, request, reply)
    table.unchanged(request[:300])
    return reply


# ---------------------------------------------------------------- strategies

json_leaves = (
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20) | st.sampled_from([10**100, -(10**100), 1e308, -0.0, 7.0, "7", "", "<b>x</b>"])
)
json_values = st.recursive(
    json_leaves,
    lambda kids: st.lists(kids, max_size=5) | st.dictionaries(st.text(max_size=8), kids, max_size=5),
    max_leaves=12,
)
numbers = st.one_of(
    st.integers(-3, 10), st.integers(), st.sampled_from([10**30, -(10**30), 2**63, 2**64 + 7]),
    st.floats(allow_nan=False, allow_infinity=False), st.sampled_from([0.5, 2.5, 7.0, 1e-9, -0.0]),
    st.booleans(), st.none(), st.text(max_size=3), st.lists(st.integers(0, 7), max_size=3),
)
allocations = st.one_of(
    st.lists(numbers, min_size=3, max_size=3),
    st.lists(numbers, max_size=6),
    st.lists(st.integers(0, 7), min_size=3, max_size=3),  # mostly totals other than 7
    json_values,
)
ready_values = st.one_of(st.just(True), st.just(False), json_values)
names = st.one_of(
    json_values, st.text(max_size=20),
    st.sampled_from(["<script>alert(1)</script>", "<b>Bo</b>", "Ada", "ada"]),
)
API_PATHS = ["/api/join", "/api/rejoin", "/api/move", "/api/state"]
path_variants = st.one_of(
    st.sampled_from(API_PATHS),
    st.sampled_from(API_PATHS).map(lambda p: p + "?seat=3&v=1"),
    st.sampled_from(API_PATHS).map(lambda p: p + "/"),
    st.sampled_from(API_PATHS).map(str.upper),
    st.sampled_from(["/api/move/0", "/api/seat/3/move", "/api//move", "/api/allocation", "/api/unready",
                     "/api/../api/move", "/api/%6dove", "/api/move%00", "/api/move#3",
                     "/api", "/api/"]),
)
methods = st.one_of(
    st.sampled_from(["POST", "GET", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "post", "Post", "TRACE"]),
    st.text(alphabet=string.ascii_letters, min_size=1, max_size=8),
)
hex_digits = "0123456789abcdef"


def encode_json(value, ascii_only):
    """JSON as a phone (raw UTF-8) or as a strict client (\\u escapes) would send it."""
    return json.dumps(value, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")


@st.composite
def tokens(draw, table):
    """No token, a real one, or one that only looks like one."""
    real = sorted(table.real)
    base = draw(st.sampled_from(real))
    kind = draw(st.integers(0, 9))
    if kind == 0:
        return None
    if kind == 1:
        return base  # a real seat token (the body is then never a legal request)
    if kind == 2:
        i = draw(st.integers(0, 31))
        return base[:i] + draw(st.sampled_from([c for c in hex_digits if c != base[i]])) + base[i + 1:]
    if kind == 3:
        return base.upper()
    if kind == 4:
        return draw(st.sampled_from([base[:-1], base + "0", base[1:], base * 2, base[:16]]))
    if kind == 5:
        return "".join(draw(st.lists(st.sampled_from(hex_digits), min_size=32, max_size=32)))
    if kind == 6:
        return draw(st.sampled_from(["", "0" * 32, "null", "undefined", "Bearer " + base,
                                     base + ";" + real[-1]]))
    if kind == 7:
        return draw(st.text(st.characters(min_codepoint=33, max_codepoint=0x2FF), min_size=32, max_size=32))
    return draw(st.text(max_size=60).filter(lambda t: "\r" not in t and "\n" not in t))


def is_legal_request(method, path, body, token, table):
    """Would the box act on this? (A real seat's legal allocation or its unready, as a move.)"""
    if token not in table.real or method.upper() != "POST":
        return False
    path = path.split("?")[0].split("#")[0]
    if path != "/api/move" or not isinstance(body, dict) or not isinstance(body.get("args", {}), dict):
        return False
    if not (body.get("seq") is None or type(body.get("seq")) is int):
        return False
    if body.get("move") == "unready":
        return True
    if body.get("move") != "allocate":
        return False
    args = body.get("args", {})
    allocation, ready = args.get("allocation"), args.get("ready", True)
    return (
        isinstance(allocation, list) and len(allocation) == 3
        and all(type(v) is int and v >= 0 for v in allocation) and sum(allocation) == 7
        and (ready is True or ready is False)
    )


# ---------------------------------------------------------------- the fuzz tests


@given(data=st.data())
@fuzz_settings("json")
def test_fuzz_json_bodies(playing, data):
    """Bad JSON, wrong types, missing and extra fields, for every API address, tokens real or not."""
    method = data.draw(methods, "method")
    path = data.draw(path_variants, "path")
    token = data.draw(tokens(playing), "token")
    body = data.draw(st.one_of(
        json_values,
        st.fixed_dictionaries({}, optional={
            "name": names, "code": json_values, "seat": numbers,
            "token": st.sampled_from(sorted(playing.real)),
            "move": st.one_of(st.sampled_from(["allocate", "unready", "reveal", "next_round", "join"]),
                              json_values),
            "args": st.one_of(json_values, st.fixed_dictionaries({}, optional={
                "allocation": allocations, "ready": ready_values, "seat": numbers})),
            "seq": numbers,
        }),
    ), "body")
    if is_legal_request(method, path, body, token, playing):
        return  # a real seat acting legally is not malformed (and would change the game)
    raw = encode_json(body, data.draw(st.booleans(), "ascii"))
    send(playing, "json", fuzzing.build_request(method, path, raw, token))


@given(data=st.data())
@fuzz_settings("allocations")
def test_fuzz_allocations(playing, data):
    """Negative, fractional, huge and non-numbers, totals other than 7, from seats real and stolen."""
    token = data.draw(tokens(playing), "token")
    body = {"allocation": data.draw(allocations, "allocation")}
    if data.draw(st.booleans(), "with ready"):
        body["ready"] = data.draw(ready_values, "ready")
    if data.draw(st.integers(0, 4), "other seat") == 0:
        body["seat"] = data.draw(st.integers(0, 7), "seat")
    move = {"move": "allocate", "args": body}
    if is_legal_request("POST", "/api/move", move, token, playing):
        return
    raw = encode_json(move, data.draw(st.booleans(), "ascii"))
    send(playing, "allocations", fuzzing.build_request("POST", "/api/move", raw, token))


header_names = st.one_of(
    st.sampled_from(["X-Seat-Token", "x-seat-token", "Content-Length", "Content-Type", "Transfer-Encoding",
                     "Cookie", "Host", "Expect", "Connection"]),
    st.text(alphabet=string.ascii_letters + "-", min_size=1, max_size=20),
)
header_values = st.one_of(
    st.text(max_size=40).map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.binary(max_size=40),
    st.sampled_from([b"-1", b"0", b"99999999999999999999", b"5, 5", b"chunked", b"100-continue", b"a=b; c",
                     b"application/json; charset=latin-1", b"\xff\xfe", b"\xed\xa0\x80", b"\xc0\x80"]),
    st.integers(1, 6000).map(lambda n: b"x" * n),  # up to several times the box's whole-head limit
)


@st.composite
def raw_requests(draw, table):
    """Whole requests as bytes: broken request lines, headers and bodies, lying lengths, floods."""
    kind = draw(st.integers(0, 7))
    if kind == 0:
        return draw(st.binary(max_size=300))
    if kind == 1:  # a request line that is not one
        line = draw(st.sampled_from([b"", b"GET", b"GET /api/state", b"GET /api/state HTTP/1.1 extra",
                                     b"POST  /api/join  HTTP/1.1", b"\x00\x01\x02", b"GET / HTTP/9.9",
                                     b"GET \xff\xfe HTTP/1.1", b"GET /api/state?v=%zz HTTP/1.1",
                                     b"GET /api/state?v=%ff%fe HTTP/1.1",
                                     b"GET http://evil/api/state HTTP/1.1"]))
        return line + draw(st.sampled_from([b"\r\n\r\n", b"\n\n", b"\r\n", b""]))
    method = draw(st.sampled_from(["POST", "GET", "PUT"]))
    token = draw(tokens(table))
    path = draw(st.sampled_from(API_PATHS))
    if kind == 2:  # odd headers
        headers = draw(st.lists(st.tuples(header_names, header_values), max_size=6))
        body = draw(st.binary(max_size=200))
        return fuzzing.build_request(method, path, body, token, headers)
    if kind == 3:  # a flood of headers, or one endless line
        count = draw(st.integers(1, 120))
        size = draw(st.integers(1, 1100))
        headers = [("X-Pad-%d" % i, b"p" * size) for i in range(count)]
        return fuzzing.build_request(method, path, b"{}", token, headers)
    if kind == 4:  # huge bodies (the box reads at most 512 bytes)
        size = draw(st.sampled_from([513, 600, 4096, 65536, 1 << 20]))
        body = b'{"move": "allocate", "args": {"allocation": [7, 0, 0]}, "pad": "' + b"a" * size + b'"}'
        return fuzzing.build_request("POST", "/api/move", body, token)
    if kind == 5:  # a Content-Length that lies
        body = draw(st.binary(max_size=100))
        length = draw(st.sampled_from([b"-1", b"-100", b"abc", b"1e3", b"0x10", b" ", b"513",
                                       b"100000000000"]))
        if draw(st.booleans()):
            length = b"%d" % (len(body) + draw(st.integers(1, 400)))
        return fuzzing.build_request(method, path, body, token, [("Content-Length", length)])
    if kind == 6:  # invalid UTF-8 and surrogates where text is expected
        junk = draw(st.sampled_from([b"\xff", b"\xc0\x80", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xe2\x82",
                                     b"\x80\x80", b"\xfe\xff"]))
        field = draw(st.sampled_from([b"name", b"code", b"allocation", b"ready"]))
        body = b'{"' + field + b'": "' + junk + b'"}'
        if draw(st.booleans()):
            body = junk + body
        return fuzzing.build_request("POST", draw(st.sampled_from(API_PATHS[:3])), body, token)
    # kind 7: a request split oddly (bare LF line ends, no final blank line)
    request = fuzzing.build_request(method, path, draw(st.binary(max_size=60)), token)
    if draw(st.booleans()):
        request = request.replace(b"\r\n", b"\n")
    return request[: draw(st.integers(0, len(request)))]


@given(data=st.data())
@fuzz_settings("raw")
def test_fuzz_raw_requests(playing, data):
    """Malformed HTTP itself: binary junk, broken lines, header floods, huge and lying bodies."""
    request = data.draw(raw_requests(playing), "request")
    send(playing, "raw", request)


ascii_controls = st.sampled_from([chr(c) for c in list(range(0, 32)) + [127]])
invalid_names = st.one_of(
    json_values.filter(lambda v: not isinstance(v, str)),
    st.text(" \t\n\r", max_size=6),  # only whitespace
    st.tuples(st.text(max_size=4), ascii_controls, st.text(max_size=4))
    .map(lambda t: t[0] + "x" + t[1] + "y" + t[2]),  # a control character that strip() leaves in
    st.tuples(st.text(string.ascii_letters + "<>/", min_size=13, max_size=20),
              st.text(max_size=5)).map("".join),  # too long
    st.sampled_from(["ada", "ADA", " Ada ", "bo", "<b>Bo</b>\x00", "<script>\x07", "\ud800", "a\udfff",
                     "\ud83d\ude00", "Ada\x1b[31m"]),
)


@given(data=st.data())
@fuzz_settings("lobby")
def test_fuzz_joining(lobby, data):
    """While the lobby is open: invalid names (markup with control characters, too long, taken, not
    text), rejoin codes that were never issued, and allocations before any round."""
    kind = data.draw(st.integers(0, 3), "kind")
    token = data.draw(tokens(lobby), "token")
    if kind == 0:
        body = {"name": data.draw(invalid_names, "name")}
        raw = encode_json(body, data.draw(st.booleans(), "ascii"))
        request = fuzzing.build_request("POST", "/api/join", raw, token)
    elif kind == 1:  # invalid UTF-8 in the name itself
        junk = data.draw(st.sampled_from([b"\xc1\x81", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xff",
                                          b"\xe0\x80\x80"]))
        request = fuzzing.build_request("POST", "/api/join", b'{"name": "Zed' + junk + b'"}', token)
    elif kind == 2:
        code = data.draw(st.one_of(st.integers(-1, 10**7).map(lambda n: "%06d" % n), json_values), "code")
        request = fuzzing.build_request("POST", "/api/rejoin", encode_json({"code": code}, True), token)
    else:
        body = {"move": data.draw(st.sampled_from(["allocate", "unready"])),
                "args": {"allocation": data.draw(allocations, "allocation")}}
        request = fuzzing.build_request("POST", "/api/move", encode_json(body, True), token)
    send(lobby, "lobby", request)


@given(data=st.data())
@fuzz_settings("revealed")
def test_fuzz_after_the_reveal(revealed, data):
    """After the reveal no allocation changes: legal ones and unready from the real seats included."""
    token = data.draw(st.one_of(st.sampled_from(sorted(revealed.real)), tokens(revealed)), "token")
    if data.draw(st.integers(0, 3), "kind") == 0:
        request = fuzzing.build_request("POST", "/api/move", b'{"move": "unready", "args": {}}', token)
    else:
        body = {"allocation": data.draw(st.one_of(
            st.lists(st.integers(0, 7), min_size=3, max_size=3).filter(lambda a: sum(a) == 7), allocations,
        ), "allocation"), "ready": data.draw(st.booleans(), "ready")}
        move = {"move": "allocate", "args": body}
        request = fuzzing.build_request("POST", "/api/move", encode_json(move, True), token)
    send(revealed, "revealed", request)


def test_nothing_changed_anywhere(playing, lobby, revealed):
    """After all the fuzzing, every phone's whole view and every save file are byte for byte as before,
    and the live heap is (within a few KB) what it was."""
    for table in (playing, lobby, revealed):
        table.all_unchanged()


def test_at_least_ten_thousand_requests_were_fuzzed():
    if not set(BUDGET) <= set(SENT):
        pytest.skip("only part of the fuzzing ran")
    print("fuzzed: %d requests %s" % (sum(SENT.values()), SENT))
    assert sum(SENT.values()) >= 10000 * SCALE, SENT


# ---------------------------------------------------------------- acting for another seat


def test_nobody_acts_for_another_seat(playing):
    """A seat is its token: a seat number in the body or the address, another seat's token with a
    character changed, or the token in another header moves nothing but the sender's own seat."""
    box, tokens = playing.box, playing.tokens
    for attempt in [
        fuzzing.build_request("POST", "/api/move",
                              {"move": "allocate", "args": {"allocation": [0, 0, 7], "seat": 0}},
                              tokens[5][::-1]),
        fuzzing.build_request("POST", "/api/move?seat=0",
                              {"move": "allocate", "args": {"allocation": [0, 0, 7]}}),
        fuzzing.build_request("POST", "/api/move", {"move": "allocate", "args": {"allocation": [0, 0, 7]}},
                              headers=[("Cookie", "X-Seat-Token=" + tokens[0]),
                                       ("Authorization", tokens[0])]),
        fuzzing.build_request("POST", "/api/move", {"move": "unready", "args": {"seat": 0}},
                              tokens[0][:-1] + "x"),
        fuzzing.build_request("POST", "/api/move", {"move": "allocate", "args": {"allocation": [0, 0, 7]}},
                              " " + tokens[0][1:]),
    ]:
        reply = send(playing, "seat", attempt)
        assert reply.status == 401, reply
    # The sender's own seat, with another seat's number in the body and the address: only seat 6 moves.
    def games():
        return {s: fuzzing.call(box.port, "GET", "/api/state", token=t).json()["game"]
                for s, t in tokens.items()}

    before = games()
    reply = fuzzing.call(box.port, "POST", "/api/move?seat=0",
                         {"move": "allocate", "args": {"allocation": [5, 1, 1], "seat": 0}, "seat": 0},
                         token=tokens[6])
    assert reply.status == 200, reply
    after = games()
    assert after[6]["mine"] == [5, 1, 1] and after[6]["players"][6]["ready"] is True
    for seat in range(8):
        if seat != 6:
            assert after[seat]["mine"] == before[seat]["mine"]
            assert after[seat]["players"][seat]["ready"] == before[seat]["players"][seat]["ready"]
    box.api("POST", "/api/move", {"move": "unready", "args": {}}, tokens[6])
    playing.freeze()  # seat 6 moved on purpose: the later checks start from here


def test_joining_after_the_start_needs_a_rejoin_code(playing):
    """Once the game has started, no name joins (a new one, a player's own, or one with markup), and
    guessed rejoin codes take no seat."""
    for name in ["Ivy", "Ada", "ada", "<b>Ivy</b>", "Hal "]:
        reply = send(playing, "join", fuzzing.build_request("POST", "/api/join", {"name": name}))
        assert reply.status == 409 and "rejoin code" in reply.error_message(), reply
    for code in ["000000", "123456", "999999", " 000001 ", 123456, "", "1" * 60]:
        reply = send(playing, "join", fuzzing.build_request("POST", "/api/rejoin", {"code": code}))
        assert reply.status == 403, reply
    seats_now = json.loads(fuzzing.view_bytes(playing.box, {})[0])["seats"]
    assert seats_now == json.loads(playing.views[0])["seats"]


# ---------------------------------------------------------------- no lasting trace in the heap


def distinct_characters(start, count):
    return "".join(chr(start + i) for i in range(count))


def live_heap(box):
    return box.api("GET", "/sim/status?gc=1")["mem_alloc"]


def test_foreign_tokens_leave_no_lasting_heap(playing):
    """Tokens of non-ASCII characters are compared as bytes: MicroPython interns every distinct
    character of a str that is iterated, for good (a few dozen such requests once exhausted the heap)."""
    box = playing.box
    before = live_heap(box)
    for i in range(40):
        token = distinct_characters(0x4E00 + 32 * i, 10) + "00"  # 32 bytes of UTF-8, like a token
        move = {"move": "allocate", "args": {"allocation": [7, 0, 0]}}
        request = fuzzing.build_request("POST", "/api/move", move, token)
        reply = send(playing, "heap", request)
        assert reply.status == 401, reply
    assert live_heap(box) - before < 2048


def test_refused_names_leave_no_lasting_heap(lobby):
    """The same for names: the box's and the game's checks look at a name's bytes."""
    box = lobby.box
    before = live_heap(box)
    for i in range(60):
        name = distinct_characters(0x6000 + 11 * i, 11) + "\x01"  # refused at its control character
        reply = send(lobby, "heap", fuzzing.build_request("POST", "/api/join", {"name": name}))
        assert reply.status == 400, reply
    assert live_heap(box) - before < 2048


# ---------------------------------------------------------------- phones waiting that never read


def test_held_requests_that_never_read_change_nothing_and_carry_only_their_own_seat(sim_tree,
                                                                                    tmp_path_factory):
    """Requests waiting for a change (`?v=N&wait=1`), one for every seat, the table screen's, a
    foreign and a reversed token, more than the box holds, each on a socket that never reads while
    hostile requests arrive. Nothing changes; the one real change answers them all, and each answer
    is byte for byte the view a plain request with the same token gets (no other seat's allocation);
    the held ones are let go, and the heap is as before."""
    box = BoxProcess(sim_tree, tmp_path_factory.mktemp("held") / "state").start()
    try:
        box.choose()
        tokens = fuzzing.seat_table(box)
        fuzzing.start_game(box, timer_off=True)
        assert box.press("C") == "allocate"
        for seat, allocation in enumerate([[4, 1, 2], [3, 1, 3], [1, 3, 3], [7, 0, 0]]):
            box.allocate(tokens[seat], allocation)
        table = Table(box, tokens)
        waits = [tokens[s] for s in sorted(tokens)] + [None, "f" * 32, tokens[0][::-1]]
        held = []
        for token in waits:
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
            s.settimeout(20)
            s.connect(("127.0.0.1", box.port))
            s.sendall(fuzzing.build_request("GET", "/api/state?v=%d&wait=1" % table.version, token=token))
            held.append(s)
        for hostile in [
            fuzzing.build_request("POST", "/api/move", {"move": "allocate", "args": {"allocation": [1, 6]}},
                                  tokens[5][1:]),
            fuzzing.build_request("GET", "/api/state?v=%d&wait=2" % table.version, token=tokens[1]),
            fuzzing.build_request("GET", "/api/state?wait=1&v=%d" % table.version, token=tokens[2]),
            fuzzing.build_request("GET", "/api/state?v=%d&wait=1" % (table.version - 1), token=tokens[3]),
            fuzzing.build_request("POST", "/api/state?v=%d&wait=1" % table.version, {}, tokens[4]),
            fuzzing.build_request("POST", "/api/move", b'{"move": "allocate", "pad": "' + b"a" * 4096 + b'"}',
                                  tokens[6]),
        ] * 10:
            send(table, "held", hostile)
        status = box.status()
        assert 0 < status["held"] <= HOLDS and status["held_peak"] <= HOLDS + 1
        before = table.version
        box.allocate(tokens[4], [2, 2, 3])  # the real change
        table.freeze()
        wait_until(lambda: box.status()["held"] == 0, "every waiting request answered", timeout=20)
        views = dict(zip([None] + [tokens[s] for s in sorted(tokens)], table.views))
        for token, s in zip(waits, held):
            answer = fuzzing.Reply(read_all(s), None)
            if answer.json() == {"v": before}:
                continue  # let go to make room before the change: "unchanged"
            assert answer.status == 200 and answer.body == views.get(token, views[None]), token
        assert live_heap(box) - table.heap < 4096
    finally:
        box.stop()


def read_all(s):
    out = b""
    while True:
        piece = s.recv(65536)
        if not piece:
            s.close()
            return out
        out += piece
