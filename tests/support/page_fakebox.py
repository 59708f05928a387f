"""A stand-in box for the phone page's browser tests, and the pytest fixtures that use it.

`FakeBox` is a small CPython HTTP server (stdlib only) that serves the built page and each game's
part of it, and answers the phones' JSON API by driving the REAL firmware's Box
(firmware/tidebox/box.py) with Token Tide's rules under CPython: joining, rejoin codes, seats,
moves, versions, "unchanged" answers of just {"v": N}, the countdown and what the box shows
(box.show / shown) are the firmware's own, so this stand-in cannot drift from it. The phones' API is
the firmware's too: each request is answered by the route functions of tidebox/api.py (state, join,
rejoin, move, a game's part and their refusals), called under CPython with microdot's Response. Only
the board (a seeded random source, a clock that follows real time and can be advanced, a temporary
storage folder) and the transport (a stdlib HTTP server instead of tidebox/transport.py) are stood
in. Endpoints under /test/ press the reader's buttons by calling the Box as the box's screens do
(setup, start, reveal, a reveal step, next card, rejoin code, drop, timer, clock), and report what
the box knows (hidden) and what the browser did (traffic).

Test modules load the fixtures with `pytest_plugins = ("page_fakebox",)`. The box under test is the
`box_url` fixture: to point the browser tests at the real firmware, that fixture is the one line to
change (the `BoxControl` methods then need the firmware's equivalent of the /test/ endpoints).

PYTEST_DONT_REWRITE (test modules import helpers from here before pytest loads it as a plugin)
"""

import gzip
import json
import random
import sys
import tempfile
import threading
import time
import types
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
for _p in (ROOT / "firmware", ROOT / "host_tools"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

# Firmware modules use micropython.const(); under CPython it is the identity (as in conftest.py).
if "micropython" not in sys.modules:
    sys.modules["micropython"] = types.ModuleType("micropython")
    sys.modules["micropython"].const = lambda value: value

import pagebuild  # noqa: E402
from axe_audit import audit  # noqa: E402
from microdot import Response  # noqa: E402
from tidebox import api, memory  # noqa: E402
from tidebox import timer as box_timer  # noqa: E402
from tidebox.box import Box  # noqa: E402
from tidebox.games.base import GameError  # noqa: E402
from tidebox.games import token_tide as tt  # noqa: E402
from tidebox.storage import Storage  # noqa: E402

# The countdown and the memory policy use MicroPython's time.ticks_add/ticks_diff; the fake board's
# ticks never wrap.
box_timer.time = memory.time = types.SimpleNamespace(ticks_add=lambda a, b: a + b,
                                                     ticks_diff=lambda a, b: a - b)

SCREENS = ROOT / "build" / "screens"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--disable-quic", "--no-first-run",
]
DECKS = (tt.DECK_SHUFFLED, tt.DECK_NUMBERED, tt.DECK_SHORT)
# The box's reveal steps (games/token_tide/drawing.py REVEAL_STEPS): the winning amounts, Beacon,
# Grove, Mooring, the round's points, the standings.
LAST_STEP = 5
TOKEN_HEADER = "X-Seat-Token"


class FakeBoard:
    """What the Box needs of a board: a seeded random source, a clock, a unique id, a storage folder."""

    name = "fake"

    def __init__(self, storage_dir, seed=1):
        self.storage_dir = storage_dir
        self.rng = random.Random(seed)
        self.offset = 0  # ms the clock has been advanced by

    def urandom(self, n):
        return self.rng.randbytes(n)

    def ticks_ms(self):
        """Real time (the page counts down between polls as the box does), plus what advance() added."""
        return int(time.monotonic() * 1000) + self.offset

    def ticks_diff(self, a, b):
        return a - b

    def advance(self, ms):
        self.offset += ms

    def unique_id(self):
        return "e6614103e7452d2f"

    def page_url(self):
        return "http://localhost/"


class FakeBox:
    """The firmware's Box on a FakeBoard, Token Tide chosen, one lock around every call to it (the
    firmware serves one request at a time), and a record of what the browser asked."""

    def __init__(self, page_gz, storage_dir, seed=1, parts=None):
        self.page_gz = page_gz
        self.parts = parts or {}  # game -> its part of the page, gzipped (served at /part/<game>.js)
        self.lock = threading.RLock()
        self.board = FakeBoard(storage_dir, seed)
        self.storage = Storage(storage_dir)
        self.box = Box(self.board, self.storage)
        self.box.choose_game("token_tide")  # the reader picked it on the game menu: phones join
        # what the browser did: every request line, and the most requests it had open at once: waits
        # for a change (`&wait=1`, answered at once here, as stock firmware does) and the others apart
        self.log = []
        self.open = {False: 0, True: 0}
        self.peak = {False: 0, True: 0}

    # ---------------------------------------------------------------- the phones' API (tidebox/api.py)

    def answer(self, method, path, query, headers, body):
        """(status, body bytes) for a phone's request, from the firmware's own route functions."""
        request = FakeRequest(self, query, headers, body)
        try:
            if method == "GET" and path == "/api/state":
                result = run_route(api.state(request))
            elif method == "POST" and path.startswith("/api/"):
                result = run_route(api.act(request, path[5:]))
            else:
                result = run_route(api.not_found(request))
        except GameError as exc:
            result = run_route(api.refused(request, exc))
        return as_bytes(result)

    # What tidebox/api.py asks of its server (see the top of api.py): here, no fast path.

    def seat_of(self, request):
        return self.box.seats.seat_of(request.headers.get(TOKEN_HEADER))

    # ---------------------------------------------------------------- the reader's buttons

    def control(self, action, body):
        box = self.box
        if action == "setup":  # C on the join screen
            box.to_setup()
        elif action == "menu":  # the table back at the game menu (after a game, or End game)
            box.to_game_menu()
        elif action == "choose":  # the players menu's "change the game", then a game on the menu
            box.choose_game(body["game"])
        elif action == "start":  # the setup screen's options, then C: the first tide card
            if box.phase == "join":
                box.to_setup()
            box.options.update({"deck": body.get("deck", tt.DECK_NUMBERED), "reader": body.get("reader", 0),
                                "practice": bool(body.get("practice", False))})
            box.start_game()
        elif action == "reveal":  # C on the countdown (everybody ready), then the reveal to `step`
            box.move(None, "reveal")
            box.countdown.stop()
            self.show_step(body.get("step", LAST_STEP))
        elif action == "step":  # the reader steps the box's reveal on
            self.show_step(body["step"])
        elif action == "next":  # C after the standings: the next tide card (or the final standings)
            box.move(None, "next_round")
        elif action == "code":
            return {"code": box.rejoin_code(body["seat"])}
        elif action == "drop":
            box.drop(body["seat"])
        elif action == "timer":  # C on the tide card starts the countdown
            box.start_timer(body.get("seconds", 45))
        elif action == "advance":  # the box's clock moves on (as /sim/advance: the version stays)
            self.board.advance(body["ms"])
        elif action == "hidden":  # what the box itself knows (never sent to a phone)
            return {"hidden": box.state["hidden"], "locked": box.state["locked"]}
        elif action == "traffic":
            return {"log": self.log, "peak": self.peak[False], "wait_peak": self.peak[True]}
        else:
            raise GameError("no such control", 404)
        return {"ok": True, "v": box.version}

    def show_step(self, step):
        """What the reveal screen publishes (games/token_tide/flow.py, Reveal.publish)."""
        self.box.show("reveal", {"round": self.box.state["last"]["round"], "step": step})


class FakeRequest:
    """What api.py's routes read of microdot's request: the server (`app`), the query's arguments,
    the headers and the body."""

    def __init__(self, fake, query, headers, body):
        self.app = fake
        self.args = {key: values[0] for key, values in parse_qs(query).items()}
        self.headers = headers
        self.body = body


def run_route(coroutine):
    """The route's answer: api.py's routes never wait on anything, so one step runs them to the end."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value
    coroutine.close()
    raise RuntimeError("a route waited on something")


def as_bytes(result):
    """(status, body) of a route's answer, as microdot makes a Response of it."""
    if not isinstance(result, Response):
        result = Response(*result) if isinstance(result, tuple) else Response(result)
    body = result.body
    if not isinstance(body, bytes):
        body = b"".join(c if isinstance(c, bytes) else c.encode() for c in body)
    return result.status_code, body


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"
    box = None  # set per server class

    def log_message(self, *args):
        pass

    def reply(self, status, payload, content_type="application/json", encoding=None):
        body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        # The answer is complete: from here the browser may have it, so the request no longer counts
        # as open (counted after the write, the browser's next request could land before the count
        # went down: two requests "open at once" that never were).
        self.closed_request()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        if encoding:
            self.send_header("Content-Encoding", encoding)
        self.end_headers()
        self.wfile.write(body)

    def closed_request(self):
        if getattr(self, "_browser", False):
            self._browser = False
            with self.box.lock:
                self.box.open[self._waits] -= 1

    def body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def handle_one_request(self):
        try:
            super().handle_one_request()
        finally:
            self.closed_request()  # a request that ended without an answer

    def route(self, method):
        fake = self.box
        url = urlsplit(self.path)
        self._browser = "Python-urllib" not in (self.headers.get("User-Agent") or "")
        self._waits = "wait=1" in url.query
        with fake.lock:
            if self._browser:
                fake.open[self._waits] += 1
                fake.peak[self._waits] = max(fake.peak[self._waits], fake.open[self._waits])
                fake.log.append(method + " " + self.path)
        time.sleep(0.005)  # a box is not instant: lets overlapping requests show up in `peak`
        try:
            if method == "GET" and url.path == "/":
                self.reply(200, fake.page_gz, "text/html; charset=utf-8", "gzip")
                return
            if method == "GET" and url.path.startswith("/part/"):  # as web.part
                game = url.path[6:-3] if url.path.endswith(".js") else ""
                if game not in fake.parts:
                    raise GameError("no such part of the page on the box", 404)
                self.reply(200, fake.parts[game], "text/javascript; charset=utf-8", "gzip")
                return
            body = self.body() if method == "POST" else b""
            with fake.lock:
                if method == "POST" and url.path.startswith("/test/"):
                    data = json.loads(body) if body else {}
                    self.reply(200, fake.control(url.path[6:], data))
                else:
                    self.reply(*fake.answer(method, url.path, url.query, self.headers, body))
        except GameError as e:
            self.reply(e.status, {"error": e.message})

    def do_GET(self):
        self.route("GET")

    def do_POST(self):
        self.route("POST")


class FakeBoxServer:
    """Runs a FakeBox on 127.0.0.1 on a free port in a background thread."""

    def __init__(self, page_gz, parts=None):
        self.folder = tempfile.TemporaryDirectory()  # the box's flash
        self.box = FakeBox(page_gz, self.folder.name, parts=parts)
        handler = type("BoundHandler", (Handler,), {"box": self.box})
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.url = "http://127.0.0.1:%d" % self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()
        self.folder.cleanup()


# ---------------------------------------------------------------- talking to a box from a test


def call(url, path, body=None, token=None):
    """One request to the box as a phone (or the test) would make it: (status, JSON)."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url + path, data=data, method="GET" if data is None else "POST")
    if data is not None:
        req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("X-Seat-Token", token)
    try:
        with urllib.request.urlopen(req, timeout=5) as res:
            return res.status, json.loads(res.read() or b"{}")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


class Player:
    """Another player at the table, on their own (scripted) phone."""

    def __init__(self, url, token, seat, name):
        self.url, self.token, self.seat, self.name = url, token, seat, name

    def allocate(self, allocation, ready=True):
        body = {"move": "allocate", "args": {"allocation": allocation, "ready": ready}}
        status, data = call(self.url, "/api/move", body, self.token)
        assert status == 200, data
        return data

    def state(self):
        return call(self.url, "/api/state", token=self.token)[1]


class BoxControl:
    """The reader's buttons and the other players, for a box at `url`."""

    def __init__(self, url):
        self.url = url

    def press(self, action, **body):
        status, data = call(self.url, "/test/" + action, body)
        assert status == 200, (action, data)
        return data

    def join(self, name):
        status, data = call(self.url, "/api/join", {"name": name})
        assert status == 200, data
        return Player(self.url, data["token"], data["seat"], data["name"])

    def choose(self, game):
        return self.press("choose", game=game)

    def start(self, deck=tt.DECK_NUMBERED, practice=False, reader=0):
        return self.press("start", deck=deck, practice=practice, reader=reader)

    def reveal(self, step=None):
        """The reader reveals and the box's reveal reaches `step` (default: the last, the standings,
        as after stepping through or a long press on C)."""
        return self.press("reveal", step=LAST_STEP if step is None else step)

    def step(self, step):
        return self.press("step", step=step)

    def next_round(self):
        return self.press("next")

    def rejoin_code(self, seat):
        return self.press("code", seat=seat)["code"]

    def drop(self, seat):
        return self.press("drop", seat=seat)

    def timer(self, seconds):
        return self.press("timer", seconds=seconds)

    def hidden(self):
        return self.press("hidden")

    def traffic(self):
        return self.press("traffic")

    def advance(self, ms):
        """The box's clock moves on by ms (a countdown is skipped without waiting)."""
        return self.press("advance", ms=ms)


# ---------------------------------------------------------------- pytest fixtures


@pytest.fixture(scope="session")
def page_www(tmp_path_factory):
    """The built page and every game's part, as on the box's flash: {file name: gzipped bytes}."""
    out = tmp_path_factory.mktemp("www")
    return {name: (out / name).read_bytes() for name in pagebuild.build_all(out)}


@pytest.fixture(scope="session")
def page_gz(page_www):
    data = page_www[pagebuild.OUT_NAME]
    assert gzip.decompress(data).startswith(b"<!doctype html>")
    return data


@pytest.fixture(scope="session")
def page_parts(page_www):
    """game -> its part of the page, gzipped."""
    return {game: page_www[pagebuild.PART_NAME % game] for game in pagebuild.build.game_ids()}


@pytest.fixture
def box_url(page_gz, page_parts):
    """The address of the box under test (a fresh fake box for every test)."""
    with FakeBoxServer(page_gz, page_parts) as server:
        yield server.url


@pytest.fixture
def box(box_url):
    return BoxControl(box_url)


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian chromium is not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def open_phone(browser, box_url):
    """open_phone(width=360, height=740) -> a page on the box in a fresh browser context (a new phone)."""
    contexts = []

    def opener(width=360, height=740, **kw):
        ctx = browser.new_context(viewport={"width": width, "height": height}, accept_downloads=True,
                                  has_touch=True, **kw)
        ctx.set_default_timeout(5000)
        contexts.append(ctx)
        page = ctx.new_page()
        page.goto(box_url + "/")
        return page

    yield opener
    for ctx in contexts:
        ctx.close()


@pytest.fixture
def phone(open_phone):
    return open_phone()


def nudge(page):
    """Ask the page to poll now (as a phone does when its screen comes back on)."""
    page.evaluate("window.dispatchEvent(new Event('focus'))")


def screenshot(page, name):
    """A screenshot of the page in build/screens/, and an accessibility audit of it as it stands."""
    audit(page, name)
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / (name + ".png")), full_page=True)


def token_of(page):
    """The seat token the page keeps: under its phone's own key on a /?phone=N address (app.js)."""
    return page.evaluate("(() => { var m = /[?&]phone=(\\d{1,2})(?:&|$)/.exec(location.search);"
                         " return localStorage.getItem('tidebox.token' + (m ? '.' + m[1] : '')); })()")
