# The phones' connections: accepting them through the board's connection gate, reading each
# request with deadlines and limits, and writing one answer at a time, on microdot. The routes are
# tidebox/api.py's; this module is the MicroPython side of serving them (api.py says what a server
# must offer, so another interpreter's transport can serve the same routes). What it reads in a
# request's head before microdot is tidebox/scan.py's; what it does below asyncio's streams is
# tidebox/asyncio_shim.py's.
#
# Every request is short: no streams, `Connection: close`, and a poll that finds nothing new gets a
# tiny answer. A phone may instead wait for a change (`?v=N&wait=1`): its request is held until the
# version moves past N or 20 s pass (gate.HOLD_MS), where the gate allows it (gate.holds: lwIP on
# Tidebox's firmware serves 16 connections; on stock MicroPython 5 for up to 8 phones, so every
# phone polls there).
#
# What it relies on in microdot (and nowhere else in the firmware): `Request.create(app, stream_in,
# stream_out, peername)`, `Microdot.dispatch_request(request)`, `Response.write(stream)`,
# `Response.send_file(..., stream=)`, the class limits `Request.max_content_length`,
# `max_body_length`, `max_readline`, and the head as microdot reads it (`readline` up to the first
# blank line, header names case-blind). Checked with microdot 2.7.0; a new microdot is checked
# against this list before the box uses it.
import sys
import time

import asyncio
from micropython import const
from microdot import Microdot, Request
from tidebox import views
from tidebox.asyncio_shim import close_now, readable, write_now
from tidebox.memory import REQUESTS, VIEWS
from tidebox.scan import KEPT_HEADERS, NOT_STATE, head_end, put_number, scan, state_request, waits

TOKEN_HEADER = "X-Seat-Token"
REQUEST_MS = 5000  # a client that has not sent its whole request by then is cut off (slow clients)
BUSY_MS = 250  # ... and after this long when every connection is taken (idle sockets, slow-loris)
REAP_MS = 50  # how often the deadlines above are checked while a request is being read or answered
# ... and while none is: only the waiting requests' 20 s to look after, and a pass costs the chip's
# core ~0.4 ms (20 a second were 0.8 % of it at an idle table)
REAP_IDLE_MS = 250
HEAD_BYTES = 2048  # request line and headers together; a phone sends well under 1 KB
SEGMENT_BYTES = 512  # an answer is written in pieces of up to this size (see _Segments)
# Sent as it is when the heap is too short even to read a request: made at import, it needs no heap.
BUSY_ANSWER = (b"HTTP/1.0 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 1\r\n"
               b"Connection: close\r\n\r\n{\"error\": \"the box is busy for a moment: try again\"}")
BACKLOG = 48  # connections the network stack keeps waiting, in order, while five are served
# Each connection being read has a buffer of this size, made once (see _Slot): a phone's whole request
# head fits (a browser's is about 600 bytes); a larger head is read on by _Head, as microdot reads.
SLOT_BYTES = const(1024)

# Small, bounded requests: a join or an allocation is well under 100 bytes.
Request.max_content_length = 512
Request.max_body_length = 512
Request.max_readline = 1024


class BoxServer(Microdot):
    """Microdot with the board's connection gate, deadlines for reading each request, one answer
    built at a time, and the idle poll answered before microdot.

    Reading a request may take a slow phone a while, so up to five are read side by side; but
    only one is dispatched and answered at a time, so the heap holds one answer, not five (each
    answer is small and written at once, so nobody waits long).

    Idle sockets (a browser's preconnects, a slow-client attack) must not keep phones out: a
    request not read after REQUEST_MS is cut off, and after BUSY_MS when every connection is
    taken. A connection is only accepted when the gate has room (lwIP does the same on the Pico
    W): the others wait in the network stack's queue, in the order they came, so a client that
    reconnects at once cannot jump it, and waiting costs no heap.

    A phone that asks to wait for a change (`?v=N&wait=1`, N the box's version) is held until the
    version moves (box_changed, called at every change, or the reaper's look), and is then answered
    like a poll: its view built when it is sent, for the seat its token names then. While it waits
    it keeps only its connection and its token: its slot and its place at the gate go to the next
    request. It is answered "unchanged" after gate.hold_ms, and when more than gate.holds wait (the
    one that waited longest); the phone asks again. Where gate.holds is 0 (stock firmware) it is
    answered at once, as a poll.

    Most requests are a phone asking whether anything changed (`GET /api/state?v=N`, eight phones
    once a second each). Its head is read into the connection's preallocated buffer; when the
    version is the box's, the prebuilt answer (microdot's own answer, made once per version) is
    written and nothing is allocated for it. When it is not (or there is no `?v`), the phone's whole
    view is written from the same buffer: the seat token compared where it was read, the view's
    cached shared chunks and the seat's own small chunk after microdot's own head (see
    answer_view). Any other request goes on through microdot, which is handed the bytes already read.
    """

    def __init__(self, gate):
        super().__init__()
        self.gate = gate
        self.answering = asyncio.Lock()
        # One per connection read at once, made at boot while the heap is whole and reused by every
        # request; and one more that the woken requests are answered from, one at a time (made with
        # the first request that waits).
        self.slots = [_Slot() for _ in range(gate.limit)]
        self.woken = None
        self.accepted = 0  # connections accepted but not yet through the gate
        self.served = 0  # requests served so far, and how many of them were idle polls: what
        self.idle_served = 0  # tidebox/collect.py decides by
        self.view_served = 0  # ... and how many were full views answered before microdot
        self.reaper = None
        self.box = None  # the Box, set by api.make_app (seat_of, and the polls answered here)
        self.shortages = None  # ... and its memory.Shortages, to which the misses here are told
        self.page_url = None  # where the captive portal sends a phone (api.make_app sets it)
        self.idle_response = None  # api.py's answers of the state route (see answer_polls)
        self.view_response = None
        self.idle_version = -1
        self.idle_answer = b""
        self.view_head = None  # microdot's head of a full view, cut around its length (answer_view)
        self.current = None  # the slot of the request being answered (one at a time)
        self.fast = True  # answer idle polls and find the token in the read bytes (tests compare with off)
        self.waits = []  # the requests waiting for a change now (_Wait)
        self.held_peak = 0  # ... at most at once
        self.held_served = 0  # ... and answered so far
        self.moved = None  # the asyncio.Event they wait on (made at the first)

    async def start_server(self, host="0.0.0.0", port=80, debug=False, ssl=None):
        """Accept connections (no TLS) and serve each in its own task. Where the gate limits the
        connections (the host board), the next one is accepted only when one of them is done:
        connections queued inside the box would each hold a task and buffers, and a score of them
        would cut a Pico-sized heap into pieces too small for a request."""
        import socket

        info = socket.getaddrinfo(host, port)[0]
        listener = socket.socket(info[0])
        listener.setblocking(False)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(info[-1])
        listener.listen(BACKLOG)
        try:
            while True:
                while self.gate.wait and self.gate.active + self.accepted >= self.gate.limit:
                    await asyncio.sleep_ms(5)
                await readable(listener)
                try:
                    conn, address = listener.accept()
                except OSError:
                    continue
                conn.setblocking(False)
                stream = asyncio.StreamReader(conn, {"peername": address})
                self.accepted += 1
                asyncio.create_task(self.handle_request(stream, stream))
        finally:
            listener.close()

    async def handle_request(self, stream_in, stream_out):
        entered = False
        try:
            if self.reaper is None or self.reaper.done():
                self.reaper = asyncio.create_task(self.reap())
            try:
                if self.gate.full():
                    await self.gate.__aenter__()  # waits for a free connection (the host board)
                else:
                    self.gate.enter()  # a coroutine of the gate's own would be heap at every poll
                entered = True
            finally:
                self.accepted -= 1
            await self.serve(stream_in, stream_out)
        except MemoryError:
            # No room even to wait at the gate or to start serving: closed at once, as lwIP drops
            # what it has no room for (the phone tries again); awaiting a close would need room too.
            self.short_of_memory()
            stream_out.s.close()
        finally:
            if entered:
                self.gate.leave()

    def short_of_memory(self):
        """A request the box had no memory to read or answer (memory.REQUESTS: a run of them reboots
        the box)."""
        if self.shortages is not None:
            self.shortages.miss(REQUESTS)

    def answered(self):
        if self.shortages is not None:
            self.shortages.fine(REQUESTS)

    # ------------------------------------------------------------ the server interface (api.py)

    def answer_polls(self, idle_response, view_response):
        """Lets serve() answer `GET /api/state` before microdot, byte for byte as the state route:
        idle_response(version) and view_response(chunks, length) are the route's own answers
        (their after-request headers included); each is written once into bytes here and reused."""
        self.idle_response = idle_response
        self.view_response = view_response

    def seat_of(self, request):
        """The seat whose token the request carries (None: no seat). Where serve() read the head into
        its slot, the token is compared there, in place: nothing is allocated."""
        slot = self.current
        if slot is not None and slot.token_len >= 0 and self.fast:
            return self.box.seats.seat_of(slot.buf, slot.token_at, slot.token_len)
        return self.box.seats.seat_of(request.headers.get(TOKEN_HEADER))

    def page_stream(self, page_file):
        """What microdot's send_file reads the page from: the file, read into the answered
        connection's buffer (see _PageFile), which is free once the request head has been read."""
        slot = self.current
        return _PageFile(page_file, slot.buf) if slot is not None else page_file

    def take_slot(self):
        for slot in self.slots:
            if not slot.busy:
                slot.busy = True
                return slot
        slot = _Slot()  # more connections at once than the gate lets through (direct calls)
        slot.busy = True
        self.slots.append(slot)
        return slot

    async def serve(self, stream_in, stream_out):
        self.served += 1
        slot = self.take_slot()
        slot.started = time.ticks_ms()
        slot.task = asyncio.current_task()  # reap() may cancel it while the request is being read
        try:
            try:
                # The request head into the slot's buffer (inline: a coroutine of its own is heap).
                buf = slot.buf
                slot.used = 0
                slot.token_len = -1
                end = 0  # the head's length once its blank line is in buf
                line = 0  # where the first line not looked at yet begins
                while not end and slot.used < SLOT_BYTES:
                    used = slot.used
                    got = await stream_in.readinto(slot.view[used:] if used else buf)
                    if got is None:
                        continue  # woken with nothing to read yet (a non-blocking socket's EAGAIN)
                    if not got:
                        break  # the stream ended: microdot says what it makes of what came
                    slot.used = used = used + got
                    end = head_end(buf, line, used)
                    if end < 0:
                        line = -end  # no end yet: complete lines up to here need no second look
                        end = 0
                polled = NOT_STATE
                if end and self.fast and self.idle_response is not None and scan(slot, end):
                    polled = state_request(slot.buf)
                held = None
                if polled >= 0 and polled == self.box.version and self.gate.holds and waits(buf):
                    held = _Wait(polled, bytes(slot.view[slot.token_at:slot.token_at + slot.token_len]))
                    slot.task = None
                    slot.busy = False  # the slot is the next request's while this one waits
                    slot = None
                    await self.hold(held)
                if polled >= 0 and polled == self.box.version:
                    request = _IDLE
                    self.idle_served += 1
                    if self.idle_version != self.box.version:
                        await self.build_idle_answer()
                elif held is not None:
                    request = held  # its view, answered below in turn, from the woken slot
                elif polled != NOT_STATE:
                    request = _VIEW  # answered below, in turn with the requests microdot answers
                else:
                    head = _Head(stream_in, bytes(slot.view[:slot.used]))
                    request = await Request.create(self, head, stream_out,
                                                   stream_out.get_extra_info("peername"))
            except asyncio.CancelledError:
                request = False  # too slow (see reap): cut off without an answer
            except MemoryError:
                request = MemoryError  # not the phone's fault: it is told to try again (below)
            except Exception:  # noqa: BLE001 - unreadable request: microdot answers 400 for None
                request = None
            finally:
                if slot is not None:
                    slot.task = None  # read (or cut off): no longer the reaper's
            try:
                if request is _IDLE:
                    answer = self.idle_answer
                    sent = write_now(stream_out, answer)  # (all of it, nearly always)
                    if sent < len(answer):
                        await stream_out.awrite(memoryview(answer)[sent:] if sent else answer)
                    self.answered()
                elif request is MemoryError:
                    self.short_of_memory()
                    await stream_out.awrite(BUSY_ANSWER)
                elif request is not False:
                    async with self.answering:
                        self.current = slot
                        try:
                            if isinstance(request, _Wait):
                                request = await self.answer_view(self.woken_slot(request), None, stream_out)
                            elif request is _VIEW:
                                request = await self.answer_view(slot, stream_in, stream_out)
                            if request is not _VIEW:
                                response = await self.dispatch_request(request)
                                out = _Segments(stream_out)
                                await response.write(out)
                                await out.flush()
                            self.answered()
                        finally:
                            self.current = None
            except OSError:
                pass  # the phone went away mid-answer
            except MemoryError:
                self.short_of_memory()
            except Exception as exc:  # noqa: BLE001 - an unexpected failure mid-answer: log it, keep serving
                sys.print_exception(exc)
            finally:
                try:  # always: a socket left open would hold one of lwIP's five
                    if not close_now(stream_out):
                        await stream_out.aclose()
                except OSError:
                    pass
        finally:
            if slot is not None:
                slot.busy = False

    async def hold(self, wait):
        """Keeps the request waiting until the box's version is no longer the one it has or it is
        let go (reap_held, let_go). Off the gate meanwhile: it is not being read or answered."""
        if self.moved is None:
            self.moved = asyncio.Event()
            self.woken = _Slot()
        self.gate.leave()
        self.waits.append(wait)
        if len(self.waits) > self.held_peak:
            self.held_peak = len(self.waits)
        try:
            if len(self.waits) > self.gate.holds:
                self.let_go(self.waits[0])  # the one that waited longest
            while wait.version >= 0 and self.box.version == wait.version:
                await self.moved.wait()
        finally:
            self.waits.remove(wait)
            self.gate.enter()
        self.held_served += 1

    @property
    def held(self):
        """How many requests wait for a change now."""
        return len(self.waits)

    def box_changed(self):
        """Called after every change of the box: the waiting requests are answered."""
        if self.waits:
            self.wake()

    def wake(self):
        self.moved.set()
        self.moved.clear()  # (the woken tasks are on their way; the next wait waits)

    def let_go(self, wait):
        wait.version = -1
        self.wake()

    def woken_slot(self, wait):
        """The slot a woken request is answered from (answering held), its token put back in place."""
        slot = self.woken
        size = len(wait.token)
        slot.buf[:size] = wait.token
        slot.token_at = 0
        slot.token_len = size
        return slot

    async def build_idle_answer(self):
        """The answer to a poll that finds nothing new, written by microdot as the state route
        would answer it (with every after-request header), kept as bytes until the version moves on."""
        version = self.box.version
        self.idle_answer = b""  # the old one's heap back first
        response = self.idle_response(version)
        out = _Collect()
        await response.write(out)
        self.idle_answer = bytes(out.data)
        self.idle_version = version

    async def answer_view(self, slot, stream_in, stream_out):
        """A phone's whole view (`GET /api/state`, no `?v` or another version), byte for byte what the
        state route answers through microdot, written from the slot's buffer: microdot's head with
        the length filled in, the cached shared part (views.public_view) and the seat's own part
        (views.private_part), in pieces of up to SLOT_BYTES (the request head is no longer needed).
        Allocates only the few objects of the seat's own view (and, after a change, of the shared
        part, once for all phones). Both parts are read while this answer holds `answering`, so no
        other request can write newer ones meanwhile. Returns _VIEW once written; should the view fail
        before anything is written (the heap ran short), the request made for microdot, which then
        answers as the route would (a woken request, stream_in None, whose head is gone: 503, try
        again)."""
        box = self.box
        try:
            seat = box.seats.seat_of(slot.buf, slot.token_at, slot.token_len)
            shared = views.public_view(box)
            own = views.private_part(box, seat)
            if self.view_head is None:
                await self.build_view_head()
        except Exception:  # noqa: BLE001 - e.g. a MemoryError: microdot's route and error handlers decide
            if stream_in is None:  # a woken request: its head is gone; the phone is told to try again
                box.shortages.miss(VIEWS)
                if not write_now(stream_out, BUSY_ANSWER):
                    await stream_out.awrite(BUSY_ANSWER)
                return _VIEW
            head = _Head(stream_in, bytes(slot.view[:slot.used]))
            return await Request.create(self, head, stream_out, stream_out.get_extra_info("peername"))
        before, after = self.view_head
        buf = slot.buf
        at = len(before)
        buf[:at] = before
        at = put_number(buf, at, shared.length + own.length)
        buf[at:at + len(after)] = after
        at += len(after)
        for part in (shared, own):
            left = part.length
            offset = 0
            while left:  # inline: a coroutine per piece would be heap
                if at == SLOT_BYTES:
                    await stream_out.awrite(buf)
                    at = 0
                size = part.copy_into(slot.view, at, offset, min(left, SLOT_BYTES - at))
                if not size:
                    raise OSError("the view is shorter than it says")  # never: answered cut short
                at += size
                offset += size
                left -= size
        if at:
            await stream_out.awrite(slot.view[:at])
        self.view_served += 1
        box.shortages.fine(VIEWS)  # a whole view made
        return _VIEW

    async def build_view_head(self):
        """The status line and headers microdot writes for the state route's full view (every
        after-request header included), cut where the Content-Length value goes."""
        response = self.view_response((b"",), "\x00")  # the length's place marked
        out = _Collect()
        await response.write(out)
        cut = out.data.find(b"\x00")
        self.view_head = (bytes(out.data[:cut]), bytes(out.data[cut + 1:]))

    async def reap(self):
        """Cuts off the connections too slow to send their request (see REQUEST_MS and BUSY_MS)."""
        last = time.ticks_ms()
        while True:
            period = REAP_MS if self.gate.active else REAP_IDLE_MS
            await asyncio.sleep_ms(period)
            now = time.ticks_ms()
            held = time.ticks_diff(now, last) - period  # how long the box itself kept the loop
            last = now
            full = self.gate.active >= self.gate.limit
            for slot in self.slots:
                _reap(slot, now, full, held)
            if self.waits:
                self.reap_held(now)

    def reap_held(self, now):
        """Lets go of the requests that have waited gate.hold_ms; and answers them all should the
        version have moved without box_changed."""
        for wait in self.waits:
            if wait.version >= 0 and (wait.version != self.box.version
                                      or time.ticks_diff(now, wait.started) > self.gate.hold_ms):
                self.let_go(wait)


_IDLE = object()  # serve(): the request is an idle poll, answered with the prebuilt answer
_VIEW = object()  # serve(): the request asks for the whole view, answered by answer_view


def _reap(slot, now, full, held=0):
    """Cuts off the request in `slot` if its phone has had longer than it may to send it. Time the
    box spent on its own work meanwhile (`held` ms past the reaper's period: a save, a rival
    thinking), while the request's bytes waited to be read, is not the phone's: it does not count."""
    if slot.task is not None:
        if held > REAP_MS:
            slot.started = time.ticks_add(slot.started, held)
        age = time.ticks_diff(now, slot.started)
        if age > REQUEST_MS or (full and age > BUSY_MS):
            slot.task.cancel()
            slot.task = None  # cancelled once


class _Slot:
    """One connection being served: its request head is read into `buf`, made once and reused
    (reading a request then allocates nothing), and the reaper's deadline (`started`, `task`)."""

    def __init__(self):
        self.buf = bytearray(SLOT_BYTES)
        self.view = memoryview(self.buf)
        self.used = 0  # bytes read into buf
        self.busy = False
        self.started = 0
        self.task = None  # the task reading the request, while it is read
        # Where the X-Seat-Token header's value is in buf (see _scan); length -1: not looked at
        # (a head too large for buf), microdot's header is used instead.
        self.token_at = 0
        self.token_len = -1


class _Wait:
    """A request waiting for a change: the version it has (-1: let go, to be answered now), its seat
    token as it came (b"": none), and since when it waits."""

    def __init__(self, version, token):
        self.version = version
        self.token = token
        self.started = time.ticks_ms()


class _Collect:
    """Gathers an answer microdot writes (the prebuilt idle answer)."""

    def __init__(self):
        self.data = bytearray()

    async def awrite(self, data):
        self.data.extend(data)


class _Head:
    """The connection's stream as microdot reads it, with the request line and headers limited to
    HEAD_BYTES in all: a flood of headers (or a line with no end) is refused before it fills the
    heap. The body's size is limited by Request.max_body_length. `rest`: what serve() already read.

    Only the headers in KEPT_HEADERS reach microdot; a phone's browser sends a dozen more (about
    600 bytes) that nothing here reads, and five requests are read side by side."""

    def __init__(self, stream, rest=b""):
        self.stream = stream
        self.left = HEAD_BYTES
        self.rest = rest
        self.at = 0  # rest[at:] is not read yet (lines are cut from rest without copying what follows)
        self.lines = 0

    async def readline(self):
        while True:
            line = await self._line()
            self.lines += 1
            colon = line.find(b":")
            if self.lines == 1 or colon < 0 or line[:colon].strip().lower() in KEPT_HEADERS:
                return line  # the request line, the blank line that ends the head, or a kept header

    async def _line(self):
        end = self.rest.find(b"\n", self.at)
        if end >= 0:
            line = self.rest[self.at:end + 1]
            self.at = end + 1
        else:
            line = self.rest[self.at:]
            self.rest = b""
            self.at = 0
            while True:
                end = line.find(b"\n")
                if end >= 0:
                    self.rest = line
                    self.at = end + 1
                    line = line[:end + 1]
                    break
                if len(line) >= self.left or len(line) > Request.max_readline:
                    raise ValueError("the request head is too large")
                more = await self.stream.read(min(self.left - len(line), 128))
                if more is None:
                    continue  # woken with nothing to read yet (a non-blocking socket's EAGAIN): wait again
                if not more:
                    break
                line += more
        if len(line) > self.left or len(line) > Request.max_readline:
            raise ValueError("the request head is too large")
        self.left -= len(line)
        return line

    async def readexactly(self, n):
        if n <= 0:
            raise ValueError("bad length")
        data = self.rest[self.at:self.at + n]
        self.at += len(data)
        if len(data) < n:
            data += await self.stream.readexactly(n - len(data))
        return data


class _Segments:
    """The stream microdot writes an answer to. It writes the status line and every header line
    separately; gathered here into pieces of up to SEGMENT_BYTES, a small answer leaves as one TCP
    segment instead of ten, which spares lwIP's buffers on the Pico. And when a request is refused
    before its body was read (413), the phone gets the whole answer before the connection is closed
    on the body it is still sending (a reset that can make it drop what it has not read yet)."""

    def __init__(self, stream):
        self.stream = stream
        self.buf = bytearray()

    async def awrite(self, data):
        if len(self.buf) + len(data) > SEGMENT_BYTES:
            await self.flush()
        if len(data) > SEGMENT_BYTES:
            await self.stream.awrite(data)  # a big piece (the page's file, 1 KB at a time) as it is
        else:
            self.buf.extend(data)

    async def flush(self):
        if self.buf:
            buf = self.buf
            self.buf = bytearray()
            await self.stream.awrite(buf)


class _PageFile:
    """The page's file read for microdot's send_file into the answered connection's buffer:
    send_file reads a new 1 KB bytes for every piece (20 a page, eight phones loading it at once),
    which fragmented a Pico-sized heap until a piece found no room. One piece is written before the
    next is read (_Segments copies only pieces smaller than a segment)."""

    def __init__(self, page_file, buf):
        self.file = page_file
        self.buf = buf
        self.view = memoryview(buf)

    def read(self, size):
        return self.view[:self.file.readinto(self.view[:size])]

    def close(self):
        self.file.close()
