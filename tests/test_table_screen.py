"""The table screen (/table) against the real firmware under MicroPython: what the box serves it
(the games, the join screen's QR codes, the copy of its panel), and the page itself in headless
Chromium, Firefox and WebKit at 1280x720: the join screen's codes scan from the big screen, the names
come as players join, the game menu and the night's scores, a game without its own table view, and
the page coming back by itself after the box restarts. Each state is audited with axe-core and saved
in build/test-artifacts/table/; the join screen is kept as a golden image.

What each game's own table view shows is tested with the game (tests/games/<game>/test_*_table.py).
"""

import io
import json
import os
import sys
from pathlib import Path

import pytest
from boxrig import BOARD_PACE_MS, BoxProcess, wait_until
from browser_firmware import oled_png, png_bits, zbar_texts
from PIL import Image, ImageChops

from axe_audit import audit
from tidebox.games import GAMES

pytest_plugins = ("page_fakebox", "firefox_bidi", "webkit_driver")

pytestmark = pytest.mark.browser  # the table screen in a real browser

ARTIFACTS = os.path.join(os.path.dirname(__file__), "..", "build", "test-artifacts", "table")
GOLDEN = os.path.join(os.path.dirname(__file__), "golden", "table")
VIEWPORT = (1280, 720)
WAIT_S = 20  # the page follows the box once a second; a MicroPython box on a busy machine is slower
# A screenshot differs from its golden image by at most this share of pixels: the page's text is
# drawn by the machine's fonts, the codes and the panel copy are the box's own pixels.
GOLDEN_SLACK = 0.01


WAKE_LOCK_JS = """Object.defineProperty(navigator, 'wakeLock', {value: {request: function (type) {
  window.__wakeLocks = (window.__wakeLocks || []).concat([type]);
  return Promise.resolve({type: type, release: function () { return Promise.resolve(); }});
}}});"""


def frame_bits(data, width, height):
    """MONO_VLSB bytes as one character per pixel ("1" lit), row by row."""
    return "".join("1" if data[(y >> 3) * width + x] >> (y & 7) & 1 else "0"
                   for y in range(height) for x in range(width))


def image_of(data, side=64):
    """A 64x64 MONO_VLSB code as an 8-bit image (lit white), in a white border: as scanned."""
    img = Image.new("L", (side + 16, side + 16), 255)
    bits = frame_bits(data, side, side)
    for i, bit in enumerate(bits):
        img.putpixel((8 + i % side, 8 + i // side), 255 if bit == "1" else 0)
    return img


def png(img):
    out = io.BytesIO()
    img.save(out, "PNG")
    return out.getvalue()


def start_game(box):
    """The reader starts the chosen game from the join screen with its default options (C, C)."""
    assert box.press("C") == "setup"
    assert box.press("C") not in ("join", "setup")


def panel(box, query=""):
    status, headers, body = box.request("GET", "/api/panel" + query)
    return status, {k.lower(): v for k, v in headers.items()}, body


def join_api(box, name):
    return box.join(name)["token"]


# ---------------------------------------------------------------- what the box serves the table screen


def test_the_box_serves_the_games_its_codes_and_its_panel(new_box, tmp_path):
    box = new_box()
    status, _, body = box.request("GET", "/api/games")
    assert status == 200 and json.loads(body) == [list(g) for g in GAMES]

    # the join screen's two codes, as the OLED draws them, scan to the Wi-Fi and to the page
    status, _, codes = box.request("GET", "/api/codes")
    assert status == 200 and len(codes) == 1024
    wifi = zbar_texts(png(image_of(codes[:512])), tmp_path / "wifi.png")
    page = zbar_texts(png(image_of(codes[512:])), tmp_path / "page.png")
    status, _, view = box.request("GET", "/api/state")
    ssid = json.loads(view)["ssid"]
    assert len(wifi) == 1 and wifi[0].startswith("WIFI:T:WPA;S:%s;P:" % ssid), wifi
    assert page == ["http://localhost:%d/" % box.port], page  # the simulator's page_url

    # the panel's copy is the OLED's frame; the same frame again is a 204 without a body
    status, headers, frame = panel(box)
    assert status == 200 and len(frame) == 1024
    assert frame_bits(frame, 128, 64) == png_bits(oled_png(box))
    number = headers["x-frame"]
    status, headers, again = panel(box, "?f=" + number)
    assert (status, again, headers["x-frame"]) == (204, b"", number)
    box.press("B")  # the join screen's next page
    status, headers, after = panel(box, "?f=" + number)
    assert status == 200 and headers["x-frame"] != number and after != frame
    assert frame_bits(after, 128, 64) == png_bits(oled_png(box))

    # the seatless view is a phone's before it joins: no seat, nothing of anyone's
    join_api(box, "Ada")
    view = json.loads(box.request("GET", "/api/state")[2])
    assert view["you"] is None and [s["name"] for s in view["seats"]] == ["Ada"]


def test_the_codes_go_with_the_join_screen(new_box):
    box = new_box()
    join_api(box, "Ada")
    join_api(box, "Bo")
    start_game(box)
    status, _, body = box.request("GET", "/api/codes")
    assert status == 404 and "only before a game" in json.loads(body)["error"]
    status, _, frame = panel(box)
    assert status == 200 and frame_bits(frame, 128, 64) == png_bits(oled_png(box))


# ---------------------------------------------------------------- the page in three engines


class TableView:
    """What the tests read of the table screen, whatever drives it (call(function_source))."""

    def __init__(self, phone):
        self.phone = phone

    def texts(self, css):
        found = "Array.from(document.querySelectorAll(%s))" % json.dumps(css)
        shown = found + ".filter(e => e.getClientRects().length)"
        return self.phone.call("() => %s.map(e => e.textContent.trim())" % shown)

    def canvases(self):
        """Where the page's canvases are, [[left, top, right, bottom], ...] in CSS pixels."""
        return self.phone.call("() => Array.from(document.querySelectorAll('canvas')).map(c => {"
                               " const r = c.getBoundingClientRect();"
                               " return [r.left, r.top, r.right, r.bottom]; })")

    def lit(self, canvas_id):
        """How many of a canvas's pixels are lit (not black): 0 until the box's bytes are drawn."""
        return self.phone.call("""() => { const c = document.getElementById(%s);
          const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0;
          for (let i = 0; i < d.length; i += 4) if (d[i] + d[i + 1] + d[i + 2] > 0) n++; return n; }"""
                               % json.dumps(canvas_id))

    def wait(self, what, check):
        wait_until(check, what, timeout=WAIT_S)


def expect_join_screen(table, names):
    table.wait("the join screen with %s" % names, lambda: table.texts("#join h1") == ["Join the table"]
               and table.texts("#seats li") == names)
    table.wait("both codes drawn", lambda: table.lit("wifi_qr") > 1000 and table.lit("page_qr") > 1000)
    table.wait("the panel copied", lambda: table.lit("panel") > 100)


def save(phone, name):
    os.makedirs(ARTIFACTS, exist_ok=True)
    path = os.path.join(ARTIFACTS, "%s-%s.png" % (name, phone.engine))
    phone.screenshot(path)
    with Image.open(path) as image:
        assert image.size == VIEWPORT, image.size
    return path


def masked(image, boxes):
    """The screenshot with the canvases painted over: the box's own pixels there (its codes, which
    hold this box's passphrase, and its panel) are compared bit for bit elsewhere."""
    image = image.convert("RGB")
    for left, top, right, bottom in boxes:
        if right <= left or bottom <= top:
            continue  # a canvas not shown
        image.paste((128, 128, 128), (int(left) - 2, int(top) - 2, int(right) + 2, int(bottom) + 2))
    return image


def compare_golden(path, name, boxes):
    golden = os.path.join(GOLDEN, name + ".png")
    if os.environ.get("UPDATE_GOLDEN") == "1" or not os.path.exists(golden):
        os.makedirs(GOLDEN, exist_ok=True)
        masked(Image.open(path), boxes).save(golden)
        if os.environ.get("UPDATE_GOLDEN") != "1":
            pytest.fail("no golden image %s: written, look at it and commit it" % golden)
        return
    with Image.open(path) as shot, Image.open(golden) as want:
        diff = ImageChops.difference(masked(shot, boxes), want.convert("RGB")).convert("L")
        changed = sum(diff.point(lambda v: 1 if v > 48 else 0).histogram()[1:])
    assert changed <= GOLDEN_SLACK * VIEWPORT[0] * VIEWPORT[1], (
        "%s differs from %s in %d pixels" % (path, golden, changed))


def test_the_table_screen_in_chromium(sim_tree, tmp_path, browser):
    """A whole evening's moments on the big screen: the join screen's codes scan from it, the names
    come, the game menu with the night's scores, a game, and back after the box restarts."""
    from phone_flow import PlaywrightPhone

    state = tmp_path / "state"
    state.mkdir()
    # the night so far: one game played earlier (tonight.py's line, as the box writes it at a game's end)
    earlier = {"game": "token_tide", "title": "Token Tide", "names": ["Ada", "Bo"], "points": [14, 9],
               "winners": [0], "ended": False}
    (state / "tonight.txt").write_text(json.dumps(earlier) + "\n")
    box = BoxProcess(sim_tree, state, pace_ms=BOARD_PACE_MS).start()
    try:
        context = browser.new_context(viewport={"width": VIEWPORT[0], "height": VIEWPORT[1]})
        try:
            page = context.new_page()
            # the Screen Wake Lock API, recorded: the page asks it to keep the screen on
            page.add_init_script(WAKE_LOCK_JS)
            phone = PlaywrightPhone(page)
            table = TableView(phone)
            page.goto("http://127.0.0.1:%d/table" % box.port)
            table.wait("the screen kept awake", lambda: page.evaluate("window.__wakeLocks") == ["screen"])
            # the game menu: the games, and the night's scores
            titles = [title for _game, title in GAMES]
            table.wait("the game menu", lambda: table.texts("#games li") == titles)
            table.wait("the night's scores", lambda: table.texts("#tonightList li") == [
                "Token Tide: Ada won. Ada 14 \u00b7 Bo 9"])
            table.wait("the panel copied", lambda: table.lit("panel") > 100)
            audit(phone, "the table screen at the game menu")
            compare_golden(save(phone, "menu"), "menu-chromium", table.canvases())
            assert box.choose("quiet_dividend") == "join"
            expect_join_screen(table, [])
            audit(phone, "the table screen at the join screen")
            for name in ("Ada", "Bo", "Cy"):
                join_api(box, name)
            expect_join_screen(table, ["Ada", "Bo", "Cy"])
            compare_golden(save(phone, "join"), "join-chromium", table.canvases())
            # the Wi-Fi code scans from the big screen, as a phone's camera would
            shot = page.locator("#wifi_qr").screenshot()
            texts = zbar_texts(shot, tmp_path / "wifi-shot.png")
            assert any(t.startswith("WIFI:T:WPA;S:") for t in texts), texts

            # a game: the table shows it (its own view, or the players and the panel, large)
            start_game(box)
            table.wait("the game on the table", lambda: table.texts("#phase") == ["Playing"])
            table.wait("the game's own table view", lambda: any(table.texts("#game")))
            table.wait("the panel copied", lambda: table.lit("panel") > 100)
            audit(phone, "the table screen in a game")
            save(phone, "game")

            # the box restarts (a power cut): the page says it is reconnecting, then follows again
            box.kill()
            notice = ["Reconnecting to the box\u2026"]
            table.wait("the reconnecting notice", lambda: table.texts("#net") == notice)
            box = BoxProcess(sim_tree, state, port=box.port, pace_ms=BOARD_PACE_MS).start()
            table.wait("back after the restart", lambda: table.texts("#net") == [])
            table.wait("the panel copied again", lambda: table.lit("panel") > 100)
            save(phone, "after-restart")
        finally:
            context.close()
    finally:
        box.stop()


@pytest.mark.parametrize("engine", ["firefox", "webkit"])
def test_the_table_screen_in_firefox_and_webkit(engine, new_box, request):
    """The join screen on the big screen in Firefox's and Safari's engines: codes, names, the panel."""
    box = new_box(pace_ms=BOARD_PACE_MS)
    phone = request.getfixturevalue("open_%s_screen" % engine)("http://127.0.0.1:%d/table" % box.port)
    table = TableView(phone)
    expect_join_screen(table, [])
    join_api(box, "Ada")
    join_api(box, "Émile")
    expect_join_screen(table, ["Ada", "Émile"])
    audit(phone, "the table screen at the join screen on %s" % engine)
    compare_golden(save(phone, "join"), "join-" + engine, table.canvases())


class BoxAsChip:
    """A box (BoxProcess) as a game's ChipPlay plays one (tests/games/<game>/driver.py): the reader's
    presses, the phones' views and moves, so the same small games run here as on the emulated chip."""

    def __init__(self, box):
        self.box = box

    def press(self, button, long=False):
        return self.box.press(button, long=long)

    def view(self, token=None):
        return self.box.state(token)

    def wait_view(self, token, condition, what, timeout=300):
        return wait_until(lambda: condition(self.view(token)) and self.view(token), what, timeout=timeout)

    def join(self, name):
        return self.box.join(name)["token"]

    def move(self, token, move, args, seq=None):
        body = {"move": move, "args": args}
        if seq is not None:
            body["seq"] = seq
        status, _, payload = self.box.request("POST", "/api/move", body, token)
        return status, json.loads(payload) if payload else None


@pytest.mark.parametrize("engine", ["firefox", "webkit"])
@pytest.mark.parametrize("game", [g for g, _ in GAMES if g != "token_tide"])  # its round: short_crossing.py
def test_a_whole_game_with_a_table_screen(engine, game, sim_tree, tmp_path, request):
    """Each other game played whole by its small player (as on the emulated chip) with a table screen
    open in Firefox and in WebKit: the game's own table view from the first turn to the end."""
    from game_drivers import chip_play_for

    rp2040 = str(Path(__file__).resolve().parents[1] / "host_tools" / "rp2040")
    if rp2040 not in sys.path:
        sys.path.append(rp2040)  # a small player may use the emulated chip's tools (pico_box.find_key)
    play = chip_play_for(game)()
    box = BoxProcess(sim_tree, tmp_path / "state", pace_ms=BOARD_PACE_MS).start()
    try:
        assert box.choose(game) == "join"
        screen = request.getfixturevalue("open_%s_screen" % engine)("http://127.0.0.1:%d/table" % box.port)
        table = TableView(screen)
        chip = BoxAsChip(box)
        tokens = [chip.join("P%d" % (i + 1)) for i in range(play.people)]
        expect_join_screen(table, ["P%d" % (i + 1) for i in range(play.people)])
        for button in play.setup:
            chip.press(button)
        table.wait("the game on the table", lambda: table.texts("#phase") == ["Playing"])
        table.wait("%s's own table view" % game, lambda: any(table.texts("#game")))
        audit(screen, "%s's table view at the start on %s" % (game, engine))
        save(screen, game + "-start")
        play.play(chip, tokens)
        table.wait("the end on the table", lambda: table.texts("#phase") == ["Game over"])
        table.wait("%s's own table view at the end" % game, lambda: any(table.texts("#game")))
        audit(screen, "%s's table view at the end on %s" % (game, engine))
        save(screen, game + "-over")
    finally:
        box.stop()
