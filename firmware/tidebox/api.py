# The phones' side: the page, the JSON API and the captive-portal answers, each route a top-level
# function that takes microdot's request (and a route's parts); `make_app` registers them on a
# server. Every player request carries its seat token in the X-Seat-Token header (never in the URL).
#
# This module imports on MicroPython and on CPython alike (with a CPython microdot): how requests
# are accepted and read is the server's, given to make_app or made by tidebox/transport.py (the
# MicroPython one). What a server offers the routes:
#   a microdot app     route/get/post, errorhandler, after_request, after_error_request; requests
#                      limited as firmware/www/README.md "Bad input" says (head 2 KB, body 512 bytes: 413)
#   server.box         the Box, set by make_app
#   server.page_url    where the captive portal sends a phone, set by make_app
#   server.panel       the box's Panel (the table screen's copy of the OLED), or None, set by make_app
#   server.seat_of(request)        the seat whose X-Seat-Token the request carries, or None
#   server.page_stream(page_file)  what send_file reads the page from (the file itself will do)
#   server.answer_polls(idle_response, view_response)  the state route's answers, for a server
#                      that answers `GET /api/state` itself (one that does not may ignore them)
#   server.box_changed()           called after every change of the box (wakes the requests that
#                      wait for one, `?v=N&wait=1`; a server that answers them at once does nothing)
#   served, idle_served, view_served, accepted   counts that tidebox/collect.py reads
#   start_server(host=, port=)     serve until cancelled
import json

from microdot import Response

from tidebox import jsoncheck, views
from tidebox.box import SHORT_OF_MEMORY, TONIGHT_FILE
from tidebox.games import GAMES
from tidebox.errors import GameError
from tidebox.memory import MOVES

PAGE_FILE = "www/index.html.gz"
TABLE_FILE = "www/table.html.gz"  # the table screen (host_tools/pagebuild.py), at /table
PART_FILE = "www/%s.js.gz"  # a game's part of the page (host_tools/pagebuild.py), at /part/<game>.js
JSON = "application/json"
BYTES = "application/octet-stream"


def error(status, message):
    return {"error": message}, status


def idle_body(version):
    return '{"v":%d}' % version


def finish(response):
    """Every answer closes its connection (lwIP serves five) and is never cached by the browser."""
    response.headers["Connection"] = "close"
    response.headers["Cache-Control"] = "no-store"


def _each(chunks):
    """A list's items as a generator, which microdot sends one by one (a list it would send as JSON)."""
    for chunk in chunks:
        yield chunk


def idle_response(version):
    """The state route's answer when nothing changed since `version`: just {"v": version}."""
    response = Response(idle_body(version), 200, {"Content-Type": JSON})
    finish(response)
    return response


def view_response(chunks, length):
    """The state route's answer with a phone's whole view: `chunks`, `length` bytes in all. The
    length goes up front: an answer cut short (the heap ran out mid-way) is then seen as broken."""
    response = Response(_each(chunks), 200, {"Content-Type": JSON, "Content-Length": str(length)})
    finish(response)
    return response


def read_json(request):
    """The request body as a JSON object, or a GameError (400) that says what is wrong. The body is
    checked as strict JSON first (jsoncheck.py): MicroPython's reader accepts trailing commas,
    leading zeros and a trailing NUL."""
    try:
        jsoncheck.check(request.body)
        data = json.loads(request.body.decode())
    except (ValueError, UnicodeError, AttributeError, TypeError):
        raise GameError("the request body must be JSON")
    if not isinstance(data, dict):
        raise GameError("the request body must be a JSON object")
    return data


def need_seat(request):
    seat = request.app.seat_of(request)
    if seat is None:
        raise GameError("this phone has no seat: join, or use a rejoin code", 401)
    return seat


# ------------------------------------------------------------ answers for every route


async def close_connection(request, response):
    finish(response)
    return response


async def close_after_error(request, response):
    response.headers["Connection"] = "close"
    return response


async def refused(request, exc):
    return error(exc.status, exc.message)


async def bad_request(request):
    return error(400, "the request could not be read")


async def not_found(request):
    return error(404, "no such address on the box")


async def not_allowed(request):
    return error(405, "that method is not allowed here")


async def too_large(request):
    return error(413, "the request is too large")


async def internal(request, exc):
    """Any other failure while answering (one handler for all: each costs heap). A MemoryError is
    the box's, not the phone's: it is told to try again."""
    if isinstance(exc, MemoryError):
        if request.method == "POST":  # a phone's action refused (memory.MOVES)
            request.app.shortages.miss(MOVES)
        return error(503, SHORT_OF_MEMORY)
    return error(500, "the box hit a problem; nothing was changed")


ERRORS = ((400, bad_request), (404, not_found), (405, not_allowed), (413, too_large),
          (Exception, internal))

# ------------------------------------------------------------ the page


async def page(request):
    """GET /: the phones' page, one pre-gzipped file on flash."""
    return html_file(request, PAGE_FILE)


def html_file(request, path):
    """A page of the box's (the phones' or the table screen's): one pre-gzipped file on flash, read
    in pieces."""
    try:
        page_file = open(path, "rb")  # noqa: SIM115 - microdot closes it once sent
        return Response.send_file(path, content_type="text/html; charset=utf-8", compressed=True,
                                  stream=request.app.page_stream(page_file))
    except OSError:
        return Response("<!doctype html><title>Tidebox</title><p>The page is missing from this box.",
                        500, {"Content-Type": "text/html; charset=utf-8"})


def part(request, name):
    """GET /part/<game>.js: a registered game's part of the phones' page (its script and style,
    pre-gzipped on flash), read in pieces as the page is; 404 for any other name. Reached through
    captive_portal: a route of its own would cost heap."""
    game = name[:-3] if name.endswith(".js") else ""
    for known, _title in GAMES:
        if known == game:
            path = PART_FILE % game
            try:
                part_file = open(path, "rb")  # noqa: SIM115 - microdot closes it once sent
            except OSError:
                break
            return Response.send_file(path, content_type="text/javascript; charset=utf-8", compressed=True,
                                      stream=request.app.page_stream(part_file))
    return error(404, "no such part of the page on the box")


# ------------------------------------------------------------ the API


def tonight(request):
    """GET /api/tonight: the night's scores (tidebox/tonight.py), one JSON object a line, streamed from
    flash as the page is (empty before the first game). Public: nothing in them is secret. Reached
    through captive_portal: a route of its own would cost heap."""
    path = request.app.box.storage.path(TONIGHT_FILE)
    try:
        lines = open(path, "rb")  # noqa: SIM115 - microdot closes it once sent
    except OSError:
        return Response("", 200, {"Content-Type": "application/x-ndjson"})
    return Response.send_file(path, content_type="application/x-ndjson",
                              stream=request.app.page_stream(lines))


def games(request):
    """GET /api/games: the games on this box, [[id, title], ...] in the game menu's order. Public.
    Reached through captive_portal."""
    return Response(json.dumps(GAMES), 200, {"Content-Type": JSON})


def panel_copy(request):
    """GET /api/panel?f=N: what the box's OLED shows, for the table screen's copy of it: 1,024 bytes,
    8 rows of pixels to a byte (MONO_VLSB), the frame's number in X-Frame; 204 when frame N is
    still the one shown. Public: the OLED is in everyone's view. Reached through captive_portal."""
    panel = request.app.panel
    if panel is None:
        return error(404, "this box has no panel to show")
    frame = str(panel.frames)
    if request.args.get("f") == frame:
        return Response("", 204, {"X-Frame": frame})
    return Response(bytes(panel.pixels()), 200, {"Content-Type": BYTES, "X-Frame": frame})


def join_codes(request):
    """GET /api/codes: the join screen's two QR codes (the Wi-Fi network, then the page), each 64x64
    pixels as the OLED draws them (512 bytes, MONO_VLSB), for the table screen at the join screen.
    As public as the OLED that shows them; 404 once a game has let them go. Reached through
    captive_portal."""
    panel = request.app.panel
    codes = panel and panel.qr_drawer
    if not codes:
        return error(404, "the join codes are shown only before a game")
    return Response(codes.raw("wifi_qr") + codes.raw("page_qr"), 200, {"Content-Type": BYTES})


async def state(request):
    """GET /api/state?v=N: my view, or just {"v": N} when nothing changed since version N."""
    box = request.app.box
    seat = request.app.seat_of(request)
    known = request.args.get("v")
    if known is not None and known == str(box.version):
        return idle_response(box.version)
    chunks = views.view_chunks(box, seat)
    return view_response(chunks, sum(len(chunk) for chunk in chunks))


def join(request):
    """POST /api/join {"name"}: a seat in the join phase, with its secret token."""
    return request.app.box.join(read_json(request).get("name"))


def rejoin(request):
    """POST /api/rejoin {"code"}: a seat taken back with the reader's one-time code."""
    code = read_json(request).get("code")
    if isinstance(code, str):
        code = code.strip()
    return request.app.box.rejoin(code)


def move(request):
    """POST /api/move: any game's move, {"move": name, "args": {...}, "seq": moves seen (optional)}."""
    seat = need_seat(request)
    data = read_json(request)
    name = data.get("move")
    args = data.get("args", {})
    seq = data.get("seq")
    if not isinstance(name, str):
        raise GameError("say which move: {\"move\": name, \"args\": {...}}")
    if not isinstance(args, dict):
        raise GameError("a move's args must be an object")
    if seq is not None and type(seq) is not int:
        raise GameError("seq must be a whole number")
    return {"ok": True, "v": request.app.box.move(seat, name, args, seq)}


def rename(request):
    """POST /api/rename {"name"}: my seat's new name, between games."""
    return request.app.box.rename(need_seat(request), read_json(request).get("name"))


def leave(request):
    """POST /api/leave: my seat leaves the table, between games (the phone asked its player first)."""
    return request.app.box.leave(need_seat(request))


ACTIONS = {"join": join, "rejoin": rejoin, "move": move, "rename": rename, "leave": leave}


async def act(request, action):
    """POST /api/<action>: one route for every POST, as each microdot route costs about 400 bytes
    of heap."""
    handler = ACTIONS.get(action)
    if handler is None:
        if action == "state":
            return error(405, "that method is not allowed here: use GET")
        return error(404, "no such address on the box")
    try:
        return handler(request)
    except GameError as exc:
        # A phone's request refused is the box answering, not a failure: one line in the log, where
        # microdot would print a traceback for it (a real failure still gets one, from microdot).
        print("tidebox: refused", action, exc.status, exc.message)
        return error(exc.status, exc.message)


# ------------------------------------------------------------ captive portal


async def captive_portal(request, path):
    """GET or HEAD of any other address: a redirect to the page. Phones and laptops probe an address
    to find out whether a Wi-Fi network is a captive portal (Android and ChromeOS /generate_204 and
    /gen_204, Apple /hotspot-detect.html and /library/test/success.html, Windows /connecttest.txt,
    /ncsi.txt and /redirect, Firefox and some Linux /canonical.html and /success.txt); the redirect
    makes the OS open the page. One route for them all: each microdot route costs about 400 bytes."""
    if path[4:] in ACTIONS and path.startswith("api/"):
        return error(405, "that method is not allowed here: use POST")
    if path == "api/tonight":
        return tonight(request)
    if path == "api/panel":
        return panel_copy(request)
    if path == "api/codes":
        return join_codes(request)
    if path == "api/games":
        return games(request)
    if path == "table":
        return html_file(request, TABLE_FILE)
    if path.startswith("api/") or path.startswith("sim/"):
        return error(404, "no such address on the box")
    if path.startswith("part/"):  # a game's part of the page
        return part(request, path[5:])
    return Response.redirect(request.app.page_url)


def make_app(box, board, server=None):
    """The routes on `server` (default: tidebox/transport.py's BoxServer on the board's connection
    gate), in the order they are matched; the board's own pages (the simulator's) before the
    captive portal, which takes every address left."""
    if server is None:
        from tidebox.transport import BoxServer

        server = BoxServer(board.tcp_gate)
    server.box = box
    server.shortages = box.shortages
    server.page_url = board.page_url()
    server.panel = getattr(board, "panel", None)
    server.answer_polls(idle_response, view_response)
    box.listeners.append(server.box_changed)
    server.after_request(close_connection)
    server.after_error_request(close_after_error)
    server.errorhandler(GameError)(refused)
    for status, handler in ERRORS:
        server.errorhandler(status)(handler)
    server.get("/")(page)
    server.get("/api/state")(state)
    server.post("/api/<action>")(act)
    board.add_routes(server, box)
    server.route("/<path:path>", methods=["GET", "HEAD"])(captive_portal)
    return server
