"""Headless Chromium against the real firmware: fixtures and helpers for tests/test_browser_firmware.py.

The box is `main.py` under the MicroPython unix port with a Pico-sized heap on boards/host.py
(host_tools/boxrig.py's BoxProcess), so the phones' page talks to the real web server, with its
five-connection gate. Phones are browser contexts (each its own storage, like separate phones);
the reader's buttons are the HTML buttons A, B and C on the simulator's own `/sim` page.

Test modules load the fixtures with `pytest_plugins = ("page_fakebox", "browser_firmware")`
(the `browser` fixture and the screenshot helper come from page_fakebox).

PYTEST_DONT_REWRITE (test modules import helpers from here before pytest loads it as a plugin)
"""

import io
import json
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from boxrig import BOARD_PACE_MS, BoxProcess
from phone_flow import (  # noqa: F401 - the phones' steps, shared with the WebKit and Firefox tests
    ISLANDS, PAGE_CONTENT_JS, as_phone, expect_placed, expect_reveal, expect_round, expected_reveal,
    island_text, join, json_forms, lock, place_by_typing, place_with_buttons, points_text, sheet_rows,
    token_of, wait_until,
)
from PIL import Image
from playwright.sync_api import expect

from tidebox.games import token_tide as tt

CARD_NAMES = {card[0]: card[1] for card in tt.TIDE_CARDS}
LONG_HOLD_MS = 900  # a person holding a button "for about a second" (the firmware's long is 700 ms)
EXPECT_MS = 10000  # eight phones polling a MicroPython box on a small CI machine: be patient

# The /sim page's OLED image as the browser shows it, one character per pixel ("1" lit).
OLED_BITS_JS = """() => {
  const img = document.getElementById('oled');
  if (!img || !img.complete || img.naturalWidth !== 128) return '';
  const c = document.createElement('canvas');
  c.width = 128; c.height = 64;
  const x = c.getContext('2d');
  x.drawImage(img, 0, 0, 128, 64);
  const d = x.getImageData(0, 0, 128, 64).data;
  let s = '';
  for (let k = 0; k < d.length; k += 4) s += d[k] > 127 ? '1' : '0';
  return s;
}"""

# ---------------------------------------------------------------- the box's OLED


def oled_png(box, timeout=5.0):
    """The box's current OLED frame from /sim/oled.png.

    Retries a 500: while a game runs with the /sim page and browser phones connected, the
    simulator's PNG route sometimes fails with a MemoryError (it builds several ~1.1 KB temporary
    buffers in a fragmented 192 KB heap). The failures are counted in `box.png_failures`.
    """
    deadline = time.monotonic() + timeout
    while True:
        status, _, payload = box.request("GET", "/sim/oled.png")
        if status == 200:
            return payload
        box.png_failures = getattr(box, "png_failures", 0) + 1
        if time.monotonic() > deadline:
            raise AssertionError("/sim/oled.png keeps failing: %s %r" % (status, payload[:200]))
        time.sleep(0.02)


def firmware_tracebacks(box):
    """Tracebacks the firmware printed to its log, except the simulator PNG route's MemoryError."""
    with open(box.log.name, encoding="utf-8", errors="replace") as f:
        text = f.read()
    blocks = re.split(r"(?m)^(?=Traceback)", text)[1:]
    return [b for b in blocks if not ("host_sim.py" in b and "MemoryError" in b)]


def png_bits(png):
    """A 128x64 PNG as one character per pixel ("1" lit), as OLED_BITS_JS reads the page's image."""
    image = Image.open(io.BytesIO(png)).convert("L")
    assert image.size == (128, 64)
    return "".join("1" if v > 127 else "0" for v in image.tobytes())


def zbar_texts(png, path):
    """Every QR code zbar reads on an OLED frame, scaled x4 (nearest) as a camera would see it."""
    exe = shutil.which("zbarimg")
    assert exe, "zbarimg is missing: host_tools/debian_deps.sh installs zbar-tools"
    image = Image.open(io.BytesIO(png)).convert("L")
    image.resize((image.width * 4, image.height * 4), Image.NEAREST).save(path)
    proc = subprocess.run([exe, "--raw", "-q", str(path)], capture_output=True, text=True, timeout=30)
    return proc.stdout.splitlines()


class SimPanel:
    """The simulator's /sim page in a browser tab: the reader presses A, B and C with the mouse
    (or the keyboard), and every press is checked on the box and on the page's OLED image."""

    def __init__(self, page, box):
        self.page = page
        self.box = box

    def button(self, name):
        return self.page.get_by_role("button", name=name, exact=True)

    def shown_bits(self):
        return self.page.evaluate(OLED_BITS_JS)

    def expect_shows_box_frame(self, timeout=8.0):
        """The page's OLED image becomes the box's current frame (it reloads the PNG 4 times a
        second; a running countdown redraws the box each second, so compare with a fresh frame)."""
        deadline = time.monotonic() + timeout
        while True:
            bits = png_bits(oled_png(self.box))
            try:
                self.page.wait_for_function("bits => (%s)() === bits" % OLED_BITS_JS, arg=bits, timeout=1500)
                return
            except Exception:  # noqa: BLE001 - Playwright's TimeoutError: try with a newer frame
                if time.monotonic() > deadline:
                    raise AssertionError("the /sim page does not show the box's OLED frame") from None

    def press(self, name, long=False, key=False, changes=True, show=True, timeout=10.0):
        """Press a button as the reader does and wait until the box has handled it; returns the
        box's screen. changes: the OLED frame must differ afterwards; show: the /sim page's
        image must follow it."""
        before = self.box.status()["presses"]
        frame = oled_png(self.box)
        if key:
            self.page.keyboard.press(name.lower())
        elif long:
            self.button(name).hover()
            self.page.mouse.down()
            self.page.wait_for_timeout(LONG_HOLD_MS)  # the hold itself, not a wait for a result
            self.page.mouse.up()
        else:
            self.button(name).click()
        wait_until(lambda: self.box.status()["presses"] > before, "button %s was not handled" % name, timeout)
        if changes:
            assert oled_png(self.box) != frame, "the OLED did not change after %s" % name
        if show:
            self.expect_shows_box_frame()
        return self.box.screen()

    def step_reveal(self):
        """C through every step of the reveal; returns the screen that follows (card or final)."""
        screen = self.box.screen()
        assert screen == "reveal", screen
        for _ in range(60):
            screen = self.press("C", show=False)
            if screen != "reveal":
                self.expect_shows_box_frame()
                return screen
        raise AssertionError("the reveal never ended")


# ---------------------------------------------------------------- a phone: tests/support/phone_flow.py


# ---------------------------------------------------------------- what a phone received


class Traffic:
    """Every response a page receives: URL, status, headers and body, in order."""

    def __init__(self, page):
        self.responses = []
        page.on("response", self.record)

    def record(self, response):
        try:
            body = response.body().decode("utf-8", "replace")
        except Exception as exc:  # noqa: BLE001 - a response without a body (a redirect)
            body = "<no body: %r>" % exc
        headers = json.dumps(response.all_headers())
        self.responses.append((response.url, response.status, headers, body))

    def mark(self):
        return len(self.responses)

    def since(self, mark=0):
        return self.responses[mark:]


def page_content(page):
    return as_phone(page).page_content()


# ---------------------------------------------------------------- fixtures


def firmware_box(sim_tree, tmp_path, game="token_tide", clean_log=True):
    """For a fixture, `yield from firmware_box(...)`: the real firmware under MicroPython, fresh for
    each test, at a Pico W's pace (boxrig.BOARD_PACE_MS), with `game` chosen on the box's menu, on
    its join screen; stopped when the test ends, and then (clean_log) its log holds no traceback."""
    box = BoxProcess(sim_tree, tmp_path / "state", pace_ms=BOARD_PACE_MS).start()
    assert box.choose(game) == "join"
    yield box
    box.stop()
    if clean_log:
        assert firmware_tracebacks(box) == [], "the firmware logged errors"


@pytest.fixture
def fw_box(sim_tree, tmp_path):
    """The real firmware on Token Tide's join screen (a test module may override it for its game)."""
    yield from firmware_box(sim_tree, tmp_path)


@pytest.fixture
def fw_url(fw_box):
    return "http://127.0.0.1:%d" % fw_box.port


@pytest.fixture
def patient_expect():
    """expect() waits longer here (MicroPython box, many pages on two cores); restored afterwards."""
    before = expect._timeout
    expect.set_options(timeout=EXPECT_MS)
    yield
    expect.set_options(timeout=before)


@pytest.fixture
def open_fw_phone(browser, fw_url, patient_expect):
    """open_fw_phone(width=360, height=740) -> a page on the firmware in a new context (a new phone)."""
    contexts = []

    def opener(width=360, height=740, traffic=False):
        ctx = browser.new_context(viewport={"width": width, "height": height}, has_touch=True)
        ctx.set_default_timeout(EXPECT_MS)
        contexts.append(ctx)
        page = ctx.new_page()
        page.traffic = Traffic(page) if traffic else None
        page.goto(fw_url + "/")
        expect(page.get_by_role("heading", name="Join the table")).to_be_visible()
        return page

    yield opener
    for ctx in contexts:
        ctx.close()


@pytest.fixture
def sim(browser, fw_box, fw_url, patient_expect):
    """The box's /sim page (the reader at the box) in its own browser context."""
    ctx = browser.new_context(viewport={"width": 800, "height": 700})
    ctx.set_default_timeout(EXPECT_MS)
    page = ctx.new_page()
    page.goto(fw_url + "/sim")
    panel = SimPanel(page, fw_box)
    panel.expect_shows_box_frame()
    yield panel
    ctx.close()


def state_dir(box):
    return Path(box.state_dir)
