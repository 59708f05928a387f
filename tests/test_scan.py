"""The request scanner (tidebox/scan.py) on plain bytes, under CPython: where a head ends, the seat
token it carries, whether it is a plain poll, and for which version, each as microdot would read the
same head. The same functions serve every poll on the box (tests/test_hot_paths.py: without heap)."""

import types

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tidebox import scan

SLOT_BYTES = 1024


def slot_with(head):
    slot = types.SimpleNamespace(buf=bytearray(SLOT_BYTES), token_at=0, token_len=-1)
    slot.buf[:len(head)] = head
    return slot


def scanned(head):
    """(plain, token) as scan finds them in a whole head."""
    slot = slot_with(head)
    end = scan.head_end(slot.buf, 0, len(head))
    assert end == len(head), end
    plain = scan.scan(slot, end)
    return plain, bytes(slot.buf[slot.token_at:slot.token_at + slot.token_len]).decode()


POLL = b"GET /api/state?v=41 HTTP/1.1\r\nHost: 192.168.4.1\r\nX-Seat-Token: abc123\r\n\r\n"


def test_a_head_ends_at_its_blank_line_and_an_unfinished_one_says_where_to_look_on():
    buf = bytearray(POLL + b"trailing body")
    assert scan.head_end(buf, 0, len(buf)) == len(POLL)
    cut = POLL.index(b"X-Seat")  # the line that starts here is not complete yet
    assert scan.head_end(bytearray(POLL[:cut + 5]), 0, cut + 5) == -cut
    assert scan.head_end(bytearray(b"GET / HTTP/1.1\r\n \t\r\n"), 0, 20) == 20  # blank once stripped


def test_a_plain_poll_gives_its_token():
    assert scanned(POLL) == (True, "abc123")


@pytest.mark.parametrize("line, plain, token", [
    (b"x-seat-token:   tok  ", True, "tok"),  # any case, spaces stripped as microdot strips them
    (b"X-Seat-Token : tok", True, ""),  # a space before the colon: microdot sees another name
    (b"Content-Length: 0", False, ""),  # it changes the answer: microdot's to read
    (b"content-type: application/json", False, ""),
    (b"X-Seat-Token: t\xc3\xa9", False, "t\u00e9"),  # not ASCII: microdot decides what is wrong with it
    (b"Accept: */*", True, ""),
])
def test_each_kind_of_header_line(line, plain, token):
    assert scanned(b"GET /api/state HTTP/1.1\r\n" + line + b"\r\n\r\n") == (plain, token)


def test_a_header_line_without_a_colon_is_never_a_plain_poll():
    assert scanned(b"GET /api/state HTTP/1.1\r\nnonsense\r\n\r\n")[0] is False


def test_the_last_token_counts_as_in_microdots_headers():
    assert scanned(b"GET / HTTP/1.1\r\nX-Seat-Token: one\r\nX-Seat-Token: two\r\n\r\n") == (True, "two")


@pytest.mark.parametrize("line, version", [
    (b"GET /api/state?v=41 HTTP/1.1\r\n", 41),
    (b"GET /api/state?v=0 HTTP/1.0\n", 0),
    (b"GET /api/state HTTP/1.1\r\n", scan.FULL_VIEW),
    (b"GET /api/state?v=05 HTTP/1.1\r\n", scan.FULL_VIEW),  # never the version's text: the whole view
    (b"GET /api/state?v=123456789 HTTP/1.1\r\n", 123456789),
    (b"GET /api/state?v=1234567890 HTTP/1.1\r\n", scan.NOT_STATE),  # too long: microdot's
    (b"GET /api/state?v= HTTP/1.1\r\n", scan.NOT_STATE),
    (b"GET /api/state?x=1 HTTP/1.1\r\n", scan.NOT_STATE),
    (b"GET /api/state?v=4 HTTP/1.2\r\n", scan.NOT_STATE),
    (b"POST /api/state HTTP/1.1\r\n", scan.NOT_STATE),
    (b"GET /api/states HTTP/1.1\r\n", scan.NOT_STATE),
])
def test_which_poll_a_request_line_is(line, version):
    buf = bytearray(SLOT_BYTES)
    buf[:len(line)] = line
    assert scan.state_request(buf) == version


@given(st.integers(min_value=0, max_value=10 ** 12))
def test_a_number_is_written_as_str_writes_it(number):
    buf = bytearray(20)
    end = scan.put_number(buf, 3, number)
    assert bytes(buf[3:end]) == str(number).encode()


NAMES = st.sampled_from(["X-Seat-Token", "x-seat-token", "Host", "Accept", "X-Seat-Tokens", "Content-Type"])
VALUES = st.text(alphabet="abc0123456789 -", max_size=12)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(NAMES, st.sampled_from([":", ": ", " :"]), VALUES), max_size=6))
def test_the_token_is_the_one_microdots_headers_hold(lines):
    """Against microdot's own reading of the same head (its Request, under CPython). The scanner may
    leave a head to microdot that it could have answered itself, never the other way round."""
    import io

    from microdot import Request

    head = b"GET /api/state HTTP/1.1\r\n" + b"".join(
        (name + sep + value + "\r\n").encode() for name, sep, value in lines) + b"\r\n"
    plain, token = scanned(head)
    request = at_once(Request.create(None, io_stream(io.BytesIO(head)), None, ("127.0.0.1", 1)))
    assert token == (request.headers.get("X-Seat-Token") or "")
    if plain:  # a plain poll is answered before microdot: only where microdot would see no body's type
        assert "Content-Type" not in request.headers


def at_once(coroutine):
    """The coroutine's result, run to its end here: it reads from memory and never waits (asyncio.run
    would refuse while a browser test's event loop runs in this thread)."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value
    raise AssertionError("the coroutine waited")


def io_stream(data):
    class Stream:
        async def readline(self):
            return data.readline()

        async def read(self, n=-1):
            return data.read(n)

        async def readexactly(self, n):
            return data.read(n)

    return Stream()
