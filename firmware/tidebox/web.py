# The phones' side: the page, the JSON API, and the captive-portal answers, served with microdot.
#
# The Pico W's lwIP serves only 5 TCP connections at once, for up to 8 phones, so every request is
# short: no streams, `Connection: close`, and a poll that finds nothing new gets a tiny answer.
# Every player request carries its seat token in the X-Seat-Token header (never in the URL).
import json

from microdot import Microdot, Request, Response

from tidebox.box import Refused

TOKEN_HEADER = "X-Seat-Token"
REQUEST_SECONDS = 5  # a client that has not sent its whole request by then is cut off (slow clients)
PAGE_FILE = "www/index.html.gz"

# Small, bounded requests: a join or an allocation is well under 100 bytes.
Request.max_content_length = 512
Request.max_body_length = 512
Request.max_readline = 1024

# What phones and laptops probe to find out whether a Wi-Fi network is a captive portal.
PROBE_PATHS = (
    "/generate_204", "/gen_204",  # Android, ChromeOS
    "/hotspot-detect.html", "/library/test/success.html",  # Apple
    "/connecttest.txt", "/ncsi.txt", "/redirect",  # Windows
    "/canonical.html", "/success.txt",  # Firefox, some Linux
)


def error(status, message):
    return {"error": message}, status


class BoxServer(Microdot):
    """Microdot with the board's connection gate, a deadline for reading each request, and one
    answer built at a time.

    Reading a request may take a slow phone a while, so up to five are read side by side; but
    only one is dispatched and answered at a time, so the heap holds one answer, not five (each
    answer is small and written at once, so nobody waits long).
    """

    def __init__(self, gate):
        super().__init__()
        self.gate = gate
        import asyncio

        self.answering = asyncio.Lock()

    async def handle_request(self, reader, writer):
        import asyncio

        async with self.gate:
            try:
                request = await asyncio.wait_for(
                    Request.create(self, reader, writer, writer.get_extra_info("peername")), REQUEST_SECONDS
                )
            except asyncio.TimeoutError:
                await _close(writer)  # a client too slow to send its request: cut it off
                return
            except Exception:  # noqa: BLE001 - unreadable request: microdot answers 400 for None
                request = None
            try:
                async with self.answering:
                    response = await self.dispatch_request(request)
                    await response.write(writer)
            except OSError:
                pass  # the phone went away mid-answer
            await _close(writer)


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

    @app.post("/api/join")
    async def join(request):
        data = read_json(request)
        return box.join(data.get("name"))

    @app.post("/api/rejoin")
    async def rejoin(request):
        data = read_json(request)
        code = data.get("code")
        if isinstance(code, str):
            code = code.strip()
        return box.rejoin(code)

    @app.get("/api/state")
    async def state(request):
        seat = seat_of(request)
        known = request.args.get("v")
        if known is not None and known == str(box.version):
            return '{"v":%d}' % box.version, 200, {"Content-Type": "application/json"}
        return Response(box.view_chunks(seat), headers={"Content-Type": "application/json"})

    @app.post("/api/allocation")
    async def allocation(request):
        seat = need_seat(request)
        data = read_json(request)
        ready = data.get("ready", True)
        if ready is not True and ready is not False:
            raise Refused(400, "ready must be true or false")
        version = box.allocate(seat, data.get("allocation"), ready)
        return {"ok": True, "v": version}

    @app.post("/api/unready")
    async def unready(request):
        seat = need_seat(request)
        return {"ok": True, "v": box.unready(seat)}

    # ------------------------------------------------------------ the board's own pages (simulator)

    board.add_routes(app, box)

    # ------------------------------------------------------------ captive portal

    def to_page(request):
        return Response.redirect(page_url)

    for path in PROBE_PATHS:
        app.route(path, methods=["GET", "HEAD"])(to_page)

    @app.route("/<path:path>", methods=["GET", "HEAD"])
    async def anything_else(request, path):
        if path in ("api/join", "api/rejoin", "api/allocation", "api/unready"):
            return error(405, "that method is not allowed here: use POST")
        if path.startswith("api/") or path.startswith("sim/"):
            return error(404, "no such address on the box")
        return Response.redirect(page_url)

    return app
