# The phones' side: the page, the JSON API, and the captive-portal answers, served with microdot.
#
# The Pico W's lwIP serves only 5 TCP connections at once, for up to 8 phones, so every request is
# short: no streams, `Connection: close`, and a poll that finds nothing new gets a tiny answer.
# Every player request carries its seat token in the X-Seat-Token header (never in the URL).
import json

from microdot import Microdot, Request, Response

from tidebox.box import Refused

TOKEN_HEADER = "X-Seat-Token"
REQUEST_MS = 5000  # a client that has not sent its whole request by then is cut off (slow clients)
BUSY_MS = 250  # ... and after this long when every connection is taken (idle sockets, slow-loris)
REAP_MS = 50  # how often the deadlines above are checked
HEAD_BYTES = 2048  # request line and headers together; a phone sends well under 1 KB
SEGMENT_BYTES = 512  # an answer is written in pieces of up to this size (see _Segments)
# Sent as it is when the heap is too short even to read a request: made at import, it needs no heap.
BUSY_ANSWER = (b"HTTP/1.0 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 1\r\n"
               b"Connection: close\r\n\r\n{\"error\": \"the box is busy for a moment: try again\"}")
BACKLOG = 48  # connections the network stack keeps waiting, in order, while five are served
PAGE_FILE = "www/index.html.gz"
KEPT_HEADERS = (b"content-length", b"content-type", b"x-seat-token")  # the request headers used here

# Small, bounded requests: a join or an allocation is well under 100 bytes.
Request.max_content_length = 512
Request.max_body_length = 512
Request.max_readline = 1024

# What phones and laptops probe to find out whether a Wi-Fi network is a captive portal; the catch-all
# route answers them all with a redirect to the page, which makes the OS open it.
PROBE_PATHS = (
    "/generate_204", "/gen_204",  # Android, ChromeOS
    "/hotspot-detect.html", "/library/test/success.html",  # Apple
    "/connecttest.txt", "/ncsi.txt", "/redirect",  # Windows
    "/canonical.html", "/success.txt",  # Firefox, some Linux
)


def error(status, message):
    return {"error": message}, status


class BoxServer(Microdot):
    """Microdot with the board's connection gate, deadlines for reading each request, and one
    answer built at a time.

    Reading a request may take a slow phone a while, so up to five are read side by side; but
    only one is dispatched and answered at a time, so the heap holds one answer, not five (each
    answer is small and written at once, so nobody waits long).

    Idle sockets (a browser's preconnects, a slow-client attack) must not keep phones out: a
    request not read after REQUEST_MS is cut off, and after BUSY_MS when every connection is
    taken. A connection is only accepted when the gate has room (lwIP does the same on the Pico
    W): the others wait in the network stack's queue, in the order they came, so a client that
    reconnects at once cannot jump it, and waiting costs no heap.
    """

    def __init__(self, gate):
        super().__init__()
        self.gate = gate
        import asyncio

        self.answering = asyncio.Lock()
        self.reading = []  # [started ms, task] for every connection still sending its request
        self.accepted = 0  # connections accepted but not yet through the gate
        self.reaper = None

    async def start_server(self, host="0.0.0.0", port=80, debug=False, ssl=None):
        """Accept connections (no TLS) and serve each in its own task. Where the gate limits the
        connections (the host board), the next one is accepted only when one of them is done:
        twenty connections queued inside the box took ~25 KB of a Pico-sized heap and fragmented
        it until requests failed."""
        import asyncio
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
                await _readable(listener)
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

    async def handle_request(self, reader, writer):
        import asyncio

        if self.reaper is None or self.reaper.done():
            self.reaper = asyncio.create_task(self.reap())
        try:
            await self.gate.__aenter__()
        finally:
            self.accepted -= 1
        try:
            await self.serve(reader, writer)
        finally:
            await self.gate.__aexit__(None, None, None)

    async def serve(self, reader, writer):
        import asyncio
        import time

        entry = [time.ticks_ms(), asyncio.current_task()]
        self.reading.append(entry)
        try:
            request = await Request.create(self, _Head(reader), writer, writer.get_extra_info("peername"))
        except asyncio.CancelledError:
            request = False  # too slow (see reap): cut off without an answer
        except MemoryError:
            request = MemoryError  # not the phone's fault: it is told to try again (below)
        except Exception:  # noqa: BLE001 - unreadable request: microdot answers 400 for None
            request = None
        finally:
            self.reading.remove(entry)
        try:
            if request is MemoryError:
                await writer.awrite(BUSY_ANSWER)
            elif request is not False:
                async with self.answering:
                    response = await self.dispatch_request(request)
                    out = _Segments(writer)
                    await response.write(out)
                    await out.flush()
        except OSError:
            pass  # the phone went away mid-answer
        except Exception as exc:  # noqa: BLE001 - e.g. a MemoryError mid-answer: log it, keep serving
            import sys

            sys.print_exception(exc)
        finally:
            await _close(writer)  # always: a socket left open would hold one of lwIP's five

    async def reap(self):
        """Cuts off the connections too slow to send their request (see REQUEST_MS and BUSY_MS)."""
        import asyncio
        import time

        while True:
            await asyncio.sleep_ms(REAP_MS)
            now = time.ticks_ms()
            full = self.gate.active >= self.gate.limit
            for entry in self.reading:
                age = time.ticks_diff(now, entry[0])
                if entry[1] is not None and (age > REQUEST_MS or (full and age > BUSY_MS)):
                    entry[1].cancel()
                    entry[1] = None  # cancelled once


class _Head:
    """The connection's stream as microdot reads it, with the request line and headers limited to
    HEAD_BYTES in all: a flood of headers (or a line with no end) is refused before it fills the
    heap. The body's size is limited by Request.max_body_length.

    Only the headers in KEPT_HEADERS reach microdot; a phone's browser sends a dozen more (about
    600 bytes) that nothing here reads, and five requests are read side by side."""

    def __init__(self, stream):
        self.stream = stream
        self.left = HEAD_BYTES
        self.rest = b""
        self.lines = 0

    async def readline(self):
        while True:
            line = await self._line()
            self.lines += 1
            colon = line.find(b":")
            if self.lines == 1 or colon < 0 or line[:colon].strip().lower() in KEPT_HEADERS:
                return line  # the request line, the blank line that ends the head, or a kept header

    async def _line(self):
        line = self.rest
        while True:
            end = line.find(b"\n")
            if end >= 0:
                self.rest = line[end + 1:]
                line = line[:end + 1]
                break
            if len(line) >= self.left or len(line) > Request.max_readline:
                raise ValueError("the request head is too large")
            more = await self.stream.read(min(self.left - len(line), 128))
            if more is None:
                continue  # woken with nothing to read yet (a non-blocking socket's EAGAIN): wait again
            if not more:
                self.rest = b""
                break
            line += more
        self.left -= len(line)
        return line

    async def readexactly(self, n):
        if n <= 0:
            raise ValueError("bad length")
        data = self.rest[:n]
        self.rest = self.rest[n:]
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


def _each(chunks):
    """A list's items as a generator, which microdot sends one by one (a list it would send as JSON)."""
    for chunk in chunks:
        yield chunk


def _readable(sock):
    """Awaited: wakes when `sock` has something to read (as asyncio's own streams wait)."""
    from asyncio import core

    yield core._io_queue.queue_read(sock)


async def _close(writer):
    try:
        await writer.aclose()
    except OSError:
        pass


def read_json(request):
    """The request body as a JSON object, or a Refused(400) that says what is wrong."""
    try:
        data = json.loads(request.body.decode())
    except (ValueError, UnicodeError, AttributeError):
        raise Refused(400, "the request body must be JSON")
    if not isinstance(data, dict):
        raise Refused(400, "the request body must be a JSON object")
    return data


def make_app(box, board):
    app = BoxServer(board.tcp_gate)
    page_url = board.page_url()

    def seat_of(request):
        return box.seats.seat_of(request.headers.get(TOKEN_HEADER))

    def need_seat(request):
        seat = seat_of(request)
        if seat is None:
            raise Refused(401, "this phone has no seat: join, or use a rejoin code")
        return seat

    @app.after_request
    async def close_connection(request, response):
        response.headers["Connection"] = "close"
        response.headers["Cache-Control"] = "no-store"
        return response

    @app.after_error_request
    async def close_after_error(request, response):
        response.headers["Connection"] = "close"
        return response

    @app.errorhandler(Refused)
    async def refused(request, exc):
        return error(exc.status, exc.message)

    @app.errorhandler(400)
    async def bad_request(request):
        return error(400, "the request could not be read")

    @app.errorhandler(404)
    async def not_found(request):
        return error(404, "no such address on the box")

    @app.errorhandler(405)
    async def not_allowed(request):
        return error(405, "that method is not allowed here")

    @app.errorhandler(413)
    async def too_large(request):
        return error(413, "the request is too large")

    @app.errorhandler(500)
    async def internal(request):
        return error(500, "the box hit a problem; nothing was changed")

    # ------------------------------------------------------------ the page

    @app.get("/")
    async def page(request):
        try:
            return Response.send_file(PAGE_FILE, content_type="text/html; charset=utf-8", compressed=True)
        except OSError:
            return Response("<!doctype html><title>Tidebox</title><p>The page is missing from this box.",
                            500, {"Content-Type": "text/html; charset=utf-8"})

    # ------------------------------------------------------------ the API

    @app.get("/api/state")
    async def state(request):
        seat = seat_of(request)
        known = request.args.get("v")
        if known is not None and known == str(box.version):
            return '{"v":%d}' % box.version, 200, {"Content-Type": "application/json"}
        chunks = box.view_chunks(seat)
        # The length up front: an answer cut short (the heap ran out mid-way) is then seen as broken.
        length = sum(len(chunk) for chunk in chunks)
        headers = {"Content-Type": "application/json", "Content-Length": str(length)}
        return Response(_each(chunks), headers=headers)

    def join(request):
        return box.join(read_json(request).get("name"))

    def rejoin(request):
        code = read_json(request).get("code")
        if isinstance(code, str):
            code = code.strip()
        return box.rejoin(code)

    def allocation(request):
        seat = need_seat(request)
        data = read_json(request)
        ready = data.get("ready", True)
        if ready is not True and ready is not False:
            raise Refused(400, "ready must be true or false")
        version = box.allocate(seat, data.get("allocation"), ready)
        return {"ok": True, "v": version}

    def unready(request):
        return {"ok": True, "v": box.unready(need_seat(request))}

    actions = {"join": join, "rejoin": rejoin, "allocation": allocation, "unready": unready}

    # One route for every POST: each microdot route costs about 400 bytes of heap.
    @app.post("/api/<action>")
    async def act(request, action):
        handler = actions.get(action)
        if handler is None:
            if action == "state":
                return error(405, "that method is not allowed here: use GET")
            return error(404, "no such address on the box")
        return handler(request)

    # ------------------------------------------------------------ the board's own pages (simulator)

    board.add_routes(app, box)

    # ------------------------------------------------------------ captive portal

    # Every probe path (PROBE_PATHS) and any other address lands here: one route instead of one per
    # probe, because each microdot route costs about 400 bytes of heap.
    @app.route("/<path:path>", methods=["GET", "HEAD"])
    async def anything_else(request, path):
        if path[4:] in actions and path.startswith("api/"):
            return error(405, "that method is not allowed here: use POST")
        if path.startswith("api/") or path.startswith("sim/"):
            return error(404, "no such address on the box")
        return Response.redirect(page_url)

    return app
