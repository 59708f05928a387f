"""A stand-in box for the phone page's browser tests, and the pytest fixtures that use it.

`FakeBox` is a small CPython HTTP server (stdlib only) that serves the built page and implements the
phones' JSON API with the real rules module (tidebox.games.token_tide), following the firmware's
Box class: seats with secret tokens and one-time rejoin codes, a version number bumped on every
change, "unchanged" answers of just {"v": N}, the reader's timer. Endpoints under /test/ stand in
for the reader's buttons (start, reveal, next round, rejoin code, drop, timer).

Test modules load the fixtures with `pytest_plugins = ("page_fakebox",)`. The box under test is the
`box_url` fixture: to point the browser tests at the real firmware, that fixture is the one line to
change (the `BoxControl` methods then need the firmware's equivalent of the /test/ endpoints).

PYTEST_DONT_REWRITE (test modules import helpers from here before pytest loads it as a plugin)
"""

import gzip
import json
import random
import secrets
import sys
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

ROOT = Path(__file__).resolve().parent.parent
for _p in (ROOT / "firmware", ROOT / "host_tools"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

import pagebuild  # noqa: E402
from tidebox.games import token_tide as tt  # noqa: E402

SCREENS = ROOT / "build" / "screens"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--disable-quic", "--no-first-run",
]
DECKS = (tt.DECK_SHUFFLED, tt.DECK_NUMBERED, tt.DECK_SHORT)
# The box's reveal steps (games/token_tide/screens.py REVEAL_STEPS): the winning amounts, Beacon,
# Grove, Mooring, the round's points, the standings.
LAST_STEP = 5


class Refused(Exception):
    def __init__(self, status, message):
        super().__init__(message)
        self.status = status
        self.message = message


class FakeBox:
    """The box's state and actions, as the firmware's Box keeps them (one lock around all)."""

    def __init__(self, page_gz, seed=1):
        self.page_gz = page_gz
        self.lock = threading.RLock()
        self.phase = "join"
        self.names = []
        self.tokens = []
        self.present = []
        self.codes = {}
        self.state = None
        self.version = 1
        self.shown = {}  # what the reader's screen shows (the box's reveal step), as Box.shown
        self.deadline = None
        self.total_ms = 0
        self.rng = random.Random(seed)
        # what the browser did: every request line, and the most requests it had open at once
        self.log = []
        self.open = 0
        self.peak = 0

    def changed(self):
        self.version += 1

    def seat_of(self, token):
        if not token:
            return None
        for seat, known in enumerate(self.tokens):
            if known and secrets.compare_digest(known, token) and self.present[seat]:
                return seat
        return None

    # ---------------------------------------------------------------- the phones' API

    def join(self, name):
        if self.phase != "join":
            raise Refused(409, "the game has started: ask the reader for a rejoin code")
        if len(self.names) >= tt.MAX_PLAYERS:
            raise Refused(409, "the table is full")
        try:
            name = tt.check_name(name, self.names)
        except tt.GameError as e:
            raise Refused(409 if "taken" in str(e) else 400, str(e)) from None
        token = secrets.token_hex(16)
        self.names.append(name)
        self.tokens.append(token)
        self.present.append(True)
        self.changed()
        return {"token": token, "seat": len(self.names) - 1, "name": name}

    def rejoin(self, code):
        if not isinstance(code, str) or code not in self.codes:
            raise Refused(403, "that rejoin code is not valid: ask the reader for a new one")
        seat = self.codes.pop(code)
        if not self.present[seat]:
            raise Refused(403, "that seat has left the game")
        self.tokens[seat] = secrets.token_hex(16)
        self.changed()
        return {"token": self.tokens[seat], "seat": seat, "name": self.names[seat]}

    def allocate(self, seat, allocation, ready):
        if self.phase != "play" or self.state is None:
            raise Refused(409, "there is no round to allocate in yet")
        try:
            tt.set_allocation(self.state, seat, allocation, ready)
        except tt.GameError as e:
            raise Refused(409 if ("closed" in str(e) or "left" in str(e)) else 400, str(e)) from None
        self.changed()
        return {"ok": True, "v": self.version}

    def unready(self, seat):
        if self.phase != "play" or self.state is None:
            raise Refused(409, "there is no round to allocate in yet")
        try:
            tt.unlock(self.state, seat)
        except tt.GameError as e:
            raise Refused(409, str(e)) from None
        self.changed()
        return {"ok": True, "v": self.version}

    def timer(self):
        now = time.monotonic()
        on = self.deadline is not None
        left = max(0, int((self.deadline - now) * 1000)) if on else 0
        expired = on and left <= 0
        return {"on": on, "running": on and not expired, "left_ms": left, "total_ms": self.total_ms,
                "expired": expired}

    def view(self, seat):
        return {
            "v": self.version,
            "box": self.phase, "kind": "token_tide",
            "ssid": "Tidebox-2D2F",
            "you": None if seat is None else {"seat": seat, "name": self.names[seat]},
            "seats": [{"name": n, "present": p} for n, p in zip(self.names, self.present)],
            "timer": self.timer(),
            "shown": self.shown,
            "game": tt.view_for(self.state, seat) if self.state else None,
        }

    # ---------------------------------------------------------------- the reader's buttons

    def control(self, action, body):
        if action == "setup":
            self.phase = "setup"
        elif action == "start":
            deck = body.get("deck", tt.DECK_NUMBERED)
            try:
                self.state = tt.new_game(
                    list(self.names), deck=deck, first_reader=body.get("reader", 0),
                    below=self.rng.randrange, practice=bool(body.get("practice", False)),
                )
            except tt.GameError as e:
                raise Refused(409, str(e)) from None
            self.phase = "play"
            self.deadline = None
        elif action == "reveal":
            try:
                tt.reveal(self.state)
            except tt.GameError as e:
                raise Refused(409, str(e)) from None
            self.deadline = None
            step = body.get("step", LAST_STEP)
            self.shown = {"reveal": {"round": self.state["last"]["round"], "step": step}}
        elif action == "step":  # the reader steps the box's reveal on
            self.shown["reveal"]["step"] = body["step"]
        elif action == "next":
            try:
                tt.next_round(self.state)
            except tt.GameError as e:
                raise Refused(409, str(e)) from None
            if tt.is_over(self.state):
                self.phase = "over"
        elif action == "code":
            seat = body["seat"]
            for code in [c for c, s in self.codes.items() if s == seat]:
                del self.codes[code]
            code = "%06d" % self.rng.randrange(1000000)
            self.codes[code] = seat
            return {"code": code}
        elif action == "drop":
            seat = body["seat"]
            try:
                tt.leave(self.state, seat)
            except tt.GameError as e:
                raise Refused(409, str(e)) from None
            self.present[seat] = False
            self.tokens[seat] = ""
        elif action == "timer":
            seconds = body.get("seconds", 45)
            self.total_ms = int(seconds * 1000)
            self.deadline = time.monotonic() + seconds if seconds else None
        elif action == "hidden":  # what the box itself knows (never sent to a phone)
            return {"hidden": self.state["hidden"], "locked": self.state["locked"]}
        elif action == "traffic":
            return {"log": self.log, "peak": self.peak}
        else:
            raise Refused(404, "no such control")
        self.changed()
        return {"ok": True, "v": self.version}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"
    box = None  # set per server class

    def log_message(self, *args):
        pass

    def reply(self, status, payload, content_type="application/json", encoding=None):
        body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        if encoding:
            self.send_header("Content-Encoding", encoding)
        self.end_headers()
        self.wfile.write(body)

    def body(self):
        length = int(self.headers.get("Content-Length") or 0)
        if not length:
            return {}
        try:
            data = json.loads(self.rfile.read(length))
        except ValueError:
            raise Refused(400, "the request is not JSON") from None
        if not isinstance(data, dict):
            raise Refused(400, "the request is not a JSON object")
        return data

    def handle_one_request(self):
        try:
            super().handle_one_request()
        finally:
            if getattr(self, "_browser", False):
                self._browser = False
                with self.box.lock:
                    self.box.open -= 1

    def route(self, method):
        box = self.box
        url = urlsplit(self.path)
        self._browser = "Python-urllib" not in (self.headers.get("User-Agent") or "")
        with box.lock:
            if self._browser:
                box.open += 1
                box.peak = max(box.peak, box.open)
                box.log.append(method + " " + self.path)
        time.sleep(0.005)  # a box is not instant: lets overlapping requests show up in `peak`
        try:
            if method == "GET" and url.path == "/":
                self.reply(200, box.page_gz, "text/html; charset=utf-8", "gzip")
                return
            token = self.headers.get("X-Seat-Token")
            with box.lock:
                seat = box.seat_of(token)
                if method == "GET" and url.path == "/api/state":
                    v = parse_qs(url.query).get("v", [None])[0]
                    if v is not None and v.lstrip("-").isdigit() and int(v) == box.version:
                        self.reply(200, {"v": box.version})
                    else:
                        self.reply(200, box.view(seat))
                    return
                if method != "POST":
                    raise Refused(404, "not found")
                data = self.body()
                if url.path == "/api/join":
                    self.reply(200, box.join(data.get("name")))
                elif url.path == "/api/rejoin":
                    self.reply(200, box.rejoin(data.get("code")))
                elif url.path == "/api/move":
                    if seat is None:
                        raise Refused(401, "join the table first")
                    args = data.get("args") if isinstance(data.get("args"), dict) else {}
                    if data.get("move") == "unready":
                        self.reply(200, box.unready(seat))
                    elif data.get("move") == "allocate":
                        self.reply(200, box.allocate(seat, args.get("allocation"), args.get("ready", True)))
                    else:
                        raise Refused(400, "Token Tide has no move called that")
                elif url.path.startswith("/test/"):
                    self.reply(200, box.control(url.path[6:], data))
                else:
                    raise Refused(404, "not found")
        except Refused as e:
            self.reply(e.status, {"error": e.message})

    def do_GET(self):
        self.route("GET")

    def do_POST(self):
        self.route("POST")


class FakeBoxServer:
    """Runs a FakeBox on 127.0.0.1 on a free port in a background thread."""

    def __init__(self, page_gz):
        self.box = FakeBox(page_gz)
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


# ---------------------------------------------------------------- pytest fixtures


@pytest.fixture(scope="session")
def page_gz(tmp_path_factory):
    out = tmp_path_factory.mktemp("www")
    pagebuild.build_page(out)
    data = (out / pagebuild.OUT_NAME).read_bytes()
    assert gzip.decompress(data).startswith(b"<!doctype html>")
    return data


@pytest.fixture
def box_url(page_gz):
    """The address of the box under test (a fresh fake box for every test)."""
    with FakeBoxServer(page_gz) as server:
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
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / (name + ".png")), full_page=True)


def token_of(page):
    return page.evaluate("localStorage.getItem('tidebox.token')")
