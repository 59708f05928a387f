# The request scanner: what the box reads in a request's head before microdot does, in the
# connection's own buffer, allocating nothing (every poll comes through here). Plain functions on
# bytes, so they are tested on bytes alone (tests/test_scan.py); tidebox/transport.py calls them.
# What they find must agree with what microdot would read in the same head: the header names
# microdot is given (KEPT_HEADERS), where a line ends, and which request is a poll.
from micropython import const

KEPT_HEADERS = (b"content-length", b"content-type", b"x-seat-token")  # the request headers used here
# A phone's poll is answered before microdot (see transport.BoxServer.serve) when its request line is exactly
# this, then nothing or "?v=" and up to _VERSION_DIGITS digits (and then "&wait=1": the phone waits
# for a change, see waits), then " HTTP/1.0" or " HTTP/1.1".
_STATE = b"GET /api/state"
_WAIT = b"&wait=1"
_VERSION_DIGITS = const(9)  # a longer number is left to microdot (and would not be a small int)
NOT_STATE = const(-2)  # state_request(): not a request answered before microdot
FULL_VIEW = const(-1)  # ... the state without a version that could be the box's: the whole view


def put_number(buf, at, number):
    """Writes str(number) (number >= 0) into buf at `at`, allocating nothing; returns where it ends."""
    digits = 1
    while number >= 10 ** digits:
        digits += 1
    end = at + digits
    while digits:
        digits -= 1
        buf[at + digits] = 48 + number % 10
        number //= 10
    return end


def head_end(buf, line, used):
    """The head's length when buf[:used] holds its blank line; else minus where the first incomplete
    line begins (`line`: where the first line not looked at yet begins; 0 is the request line)."""
    while True:
        stop = buf.find(b"\n", line, used) + 1
        if not stop:
            return -line
        # A line that starts with a letter (above 32) is not blank: one comparison, no call.
        if line and buf[line] <= 32 and _blank(buf, line, stop):
            return stop  # microdot ends the head at the first line that is blank once stripped
        line = stop


def _space(c):
    return c == 32 or 9 <= c <= 13  # what bytes.strip() removes: space, \t \n \v \f \r


def _blank(buf, start, stop):
    while start < stop:
        if not _space(buf[start]):
            return False
        start += 1
    return True


def _is_name(buf, start, stop, name):
    """buf[start:stop] is `name` (lower case), ignoring ASCII case, as bytes.lower() would."""
    if stop - start != len(name):
        return False
    for i in range(len(name)):
        c = buf[start + i]
        if 65 <= c <= 90:
            c += 32
        if c != name[i]:
            return False
    return True


def _ascii(buf, start, stop):
    while start < stop:
        if buf[start] > 127:
            return False
        start += 1
    return True


def scan(slot, end):
    """Looks at the whole head in slot.buf[:end] as transport._Head and microdot would read it, allocating
    nothing. Notes where the X-Seat-Token value microdot would give is (token_at, token_len; length 0:
    none). True when the head's headers are ones microdot takes and none of them changes the
    answer to an idle poll (Content-Length, Content-Type), so that answer may be given.
    Every poll comes through here, so the usual line (a name from its first byte, no space before
    the colon, a length that is none of the three names') costs two finds and a few comparisons."""
    buf = slot.buf
    slot.token_len = 0
    plain = True
    start = buf.find(b"\n", 0, end) + 1  # past the request line
    while start < end:
        stop = buf.find(b"\n", start, end) + 1
        first = start
        if buf[first] <= 32:  # (spaces are at most 32, letters above: one comparison for most lines)
            while first < stop and _space(buf[first]):
                first += 1
            if first == stop:
                break  # the blank line: the end of the head
        colon = buf.find(b":", start, stop)
        if colon < 0:
            return False  # a header line without a colon: microdot refuses the request (400)
        last = colon
        if last > first and buf[last - 1] <= 32:
            while last > first and _space(buf[last - 1]):
                last -= 1
        size = last - first
        if size == 12:  # X-Seat-Token or Content-Type
            if _is_name(buf, first, last, KEPT_HEADERS[2]):
                if not _ascii(buf, start, stop):
                    plain = False  # microdot decodes the line as UTF-8: it decides what is wrong with it
                if last == colon:  # "X-Seat-Token :" reaches microdot under another name
                    value = colon + 1
                    close = stop
                    while value < close and _space(buf[value]):
                        value += 1
                    while close > value and _space(buf[close - 1]):
                        close -= 1
                    slot.token_at = value  # the last one counts, as in microdot's headers
                    slot.token_len = close - value
            elif _is_name(buf, first, last, KEPT_HEADERS[1]):
                plain = False
        elif size == 14 and _is_name(buf, first, last, KEPT_HEADERS[0]):
            plain = False
        start = stop
    return plain


def waits(buf):
    """Whether the state request at the start of buf (one state_request() read as a version) asks
    to wait for a change: `?v=N&wait=1`."""
    return buf.find(_WAIT, len(_STATE) + 4, len(_STATE) + 3 + _VERSION_DIGITS + len(_WAIT)) > 0


def state_request(buf):
    """What the request line at the start of buf asks for: N for `GET /api/state?v=N HTTP/1.x` (or
    `?v=N&wait=1 HTTP/1.x`), N written as str(N) would write it (the route compares the text with
    the box's version); FULL_VIEW for `GET /api/state HTTP/1.x`, or a v with a leading zero (never
    the version's text); NOT_STATE for anything else (other queries, a v of no or too many digits):
    microdot's to read."""
    at = len(_STATE)
    if buf.find(_STATE, 0, at) != 0:
        return NOT_STATE
    version = FULL_VIEW
    if buf[at] == 63:  # "?"
        if buf.find(b"?v=", at, at + 3) != at:
            return NOT_STATE
        at += 3
        first = at
        version = 0
        while 48 <= buf[at] <= 57:
            if at - first == _VERSION_DIGITS:
                return NOT_STATE
            version = version * 10 + buf[at] - 48
            at += 1
        if at == first:
            return NOT_STATE
        if buf[first] == 48 and at - first > 1:
            version = FULL_VIEW  # a leading zero: microdot compares the text, "05" is not "5"
        if buf[at] == 38:  # "&"
            if buf.find(_WAIT, at, at + len(_WAIT)) != at:
                return NOT_STATE
            at += len(_WAIT)
    if buf.find(b" HTTP/1.", at, at + 8) != at or buf[at + 8] not in (48, 49):
        return NOT_STATE
    at += 9
    if buf[at] == 13:
        at += 1
    return version if buf[at] == 10 else NOT_STATE
