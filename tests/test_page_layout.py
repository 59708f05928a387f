"""The phone page's accessibility, layout, safety with player text, and manners on the network."""

import re

import pytest
from page_fakebox import call, nudge, screenshot, token_of
from playwright.sync_api import expect

pytest_plugins = ("page_fakebox",)

pytestmark = pytest.mark.browser  # phones in a real browser

ISLANDS = ("Beacon", "Grove", "Mooring")
# every visible control, for the touch-target and label checks
CONTROLS = "button:visible, input:visible, summary:visible"


def join(page, name):
    page.get_by_label("Name").fill(name)
    page.get_by_role("button", name="Join", exact=True).click()
    expect(page.locator("#lobby")).to_be_visible()


def no_sideways_scroll(page):
    width, inner = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width <= inner, "the page scrolls sideways: %d > %d" % (width, inner)


def small_targets(page):
    small = []
    for handle in page.locator(CONTROLS).all():
        box = handle.bounding_box()
        if box and (box["height"] < 44 or box["width"] < 44):
            small.append((handle.evaluate("e => e.outerHTML.slice(0, 60)"), box))
    return small


def through_the_phases(box, page, label, check):
    """Runs `check(page, phase)` on every screen: join, lobby, allocate, locked, reveal, over."""
    check(page, label + "join")
    join(page, "Ada")
    bo = box.join("Bo")
    check(page, label + "lobby")
    box.start(deck="short")
    box.timer(45)
    nudge(page)
    expect(page.get_by_role("spinbutton", name="Beacon")).to_be_visible()
    page.get_by_role("button", name="More on Beacon").click()
    check(page, label + "allocate")
    page.get_by_role("spinbutton", name="Beacon").fill("7")
    page.get_by_role("button", name="Ready").click()
    expect(page.locator("#locked")).to_be_visible()
    check(page, label + "locked")
    bo.allocate([3, 1, 3])
    box.reveal()
    nudge(page)
    expect(page.locator("#revealRows")).to_be_visible()
    check(page, label + "reveal")
    token = token_of(page)
    box.next_round()
    for _ in range(3):
        call(box.url, "/api/move", {"move": "allocate", "args": {"allocation": [2, 2, 3]}}, token)
        bo.allocate([3, 1, 3])
        box.reveal()
        box.next_round()
    nudge(page)
    expect(page.locator("#final")).to_be_visible()
    check(page, label + "over")


def test_accessible_names_are_exact(box, phone):
    assert phone.get_by_label("Name").count() == 1
    expect(phone.get_by_role("textbox", name="Name", exact=True)).to_be_visible()
    assert phone.get_by_role("button", name="Join").count() == 1
    expect(phone.get_by_role("textbox", name="Rejoin code", exact=True)).to_be_visible()
    join(phone, "Ada")
    box.join("Bo")
    box.start()
    nudge(phone)
    for island in ISLANDS:
        field = phone.get_by_label(island)
        expect(field).to_have_count(1)
        expect(field).to_have_attribute("type", "number")
        expect(phone.get_by_role("spinbutton", name=island, exact=True)).to_be_visible()
        # the visible label is the accessible name
        expect(phone.locator("label[for='%s']" % field.get_attribute("id"))).to_have_text(island)
        expect(phone.get_by_role("button", name="Fewer on " + island, exact=True)).to_have_count(1)
        expect(phone.get_by_role("button", name="More on " + island, exact=True)).to_have_count(1)
    assert phone.get_by_role("button", name="Ready").count() == 1
    expect(phone.get_by_role("button", name="Ready", exact=True)).to_have_text("Ready")
    # buttons with words show those words; only − and + carry a longer (screen-reader) name
    buttons = phone.locator("button:visible:not([data-i])").all()
    assert len(buttons) >= 3  # Ready, Save record (CSV), Print
    for button in buttons:
        expect(button).to_have_accessible_name(button.inner_text().strip())


def test_no_sideways_scroll_and_big_targets_at_320(box, open_phone):
    page = open_phone(320, 640)

    def check(page, phase):
        no_sideways_scroll(page)
        assert small_targets(page) == [], phase

    through_the_phases(box, page, "320_", check)


def test_screenshots_of_each_phase_at_360(box, open_phone):
    page = open_phone(360, 740)
    expected = {
        "join": ("Join the table", "Join"),
        "lobby": ("The reader starts the game from the box.", None),
        "allocate": ("6 of 7 left", "More on Grove"),
        "locked": ("You are ready. Waiting for Bo.", "Change"),
        "reveal": ("You scored", "Save record (CSV)"),
        "over": ("Final standings", "Print"),
    }

    def check(page, phase):
        text, control = expected[phase.split("_", 1)[1]]
        expect(page.get_by_text(text).first).to_be_visible()
        if control:
            expect(page.get_by_role("button", name=control, exact=True)).to_be_enabled()
        no_sideways_scroll(page)
        screenshot(page, "360_" + phase.split("_", 1)[1])

    through_the_phases(box, page, "360_", check)


@pytest.mark.parametrize("size", [(740, 360), (1024, 768), (768, 1024)])
def test_landscape_and_tablet(box, open_phone, size):
    page = open_phone(*size)
    join(page, "Ada")
    box.join("Bo")
    box.start()
    nudge(page)
    fields = [page.get_by_role("spinbutton", name=i) for i in ISLANDS]
    expect(fields[0]).to_be_visible()
    no_sideways_scroll(page)
    assert small_targets(page) == []
    boxes = [f.bounding_box() for f in fields]
    # wide screens put the three islands side by side
    assert boxes[0]["x"] < boxes[1]["x"] < boxes[2]["x"]
    assert abs(boxes[0]["y"] - boxes[2]["y"]) < 2
    screenshot(page, "wide_%dx%d" % size)


def test_player_names_are_text_never_markup(box, phone):
    join(phone, "<b>x</b>")
    box.join("<i>y</i>")
    box.join('<img src=x>')
    nudge(phone)
    expect(phone.locator("#seats li")).to_have_count(3)
    expect(phone.locator("#seats")).to_contain_text("<b>x</b>")
    expect(phone.locator("#seats")).to_contain_text("<img src=x>")
    expect(phone.get_by_text("You: <b>x</b>")).to_be_visible()
    box.start()
    nudge(phone)
    expect(phone.locator("#readyList")).to_contain_text("<i>y</i>")
    assert phone.locator("main b:text-is('x'), main i:text-is('y'), main img").count() == 0


def test_reconnecting_note_and_resume(box, phone):
    join(phone, "Ada")
    net = phone.locator("#net")
    expect(net).to_be_hidden()
    phone.context.set_offline(True)
    nudge(phone)
    expect(net).to_have_text("Reconnecting to the box\u2026", timeout=8000)
    # the controls are off (inert, greyed) and the notice stays in view, scrolled to the bottom too
    expect(phone.locator("main")).to_have_attribute("inert", "")
    phone.set_viewport_size({"width": 360, "height": 260})  # a page taller than the screen
    phone.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert phone.evaluate("window.scrollY") > 0
    expect(net).to_be_in_viewport()
    box.join("Bo")
    phone.context.set_offline(False)
    expect(net).to_be_hidden(timeout=8000)
    expect(phone.locator("main")).not_to_have_attribute("inert", "")
    expect(phone.locator("#seats li", has_text="Bo")).to_be_visible()
    expect(phone.get_by_text("You: Ada")).to_be_visible()


def test_one_request_at_a_time_only_to_the_box(box, phone):
    seen = []
    phone.on("request", lambda r: seen.append(r.url))
    join(phone, "Ada")
    bo = box.join("Bo")
    box.start()
    nudge(phone)
    for _ in range(3):
        phone.get_by_role("button", name="More on Beacon").click()
        nudge(phone)
    phone.get_by_role("spinbutton", name="Grove").fill("4")
    phone.get_by_role("button", name="Ready").click()
    nudge(phone)
    phone.get_by_role("button", name="Change").click()
    nudge(phone)
    phone.get_by_role("button", name="Ready").click()
    bo.allocate([3, 1, 3])
    box.reveal()
    nudge(phone)
    expect(phone.locator("#revealRows")).to_be_visible()
    traffic = box.traffic()
    assert traffic["peak"] == 1, "the page had %d requests open at once" % traffic["peak"]
    assert traffic["wait_peak"] == 1  # and besides them one waiting for a change
    assert all(url.startswith(box.url + "/") for url in seen), seen
    paths = {re.sub(r"\?.*", "", line) for line in traffic["log"]}
    assert paths <= {"GET /", "GET /part/token_tide.js", "GET /api/state", "POST /api/join", "POST /api/move",
                     "GET /api/tonight"}
    assert sum(line == "GET /api/tonight" for line in traffic["log"]) == 1  # the lobby asks once
    assert sum(line == "GET /part/token_tide.js" for line in traffic["log"]) == 1  # the game's part, once
    # following the box asks "changed since v?" (and waits for it) so an unchanged box answers with
    # a few bytes
    assert any(re.fullmatch(r"GET /api/state\?v=\d+&wait=1", line) for line in traffic["log"])


def test_print_shows_the_record_not_the_controls(box, phone):
    join(phone, "Ada")
    box.join("Bo")
    box.start()
    nudge(phone)
    expect(phone.get_by_role("spinbutton", name="Beacon")).to_be_visible()
    phone.emulate_media(media="print")
    expect(phone.locator("#sheet table")).to_be_visible()
    expect(phone.locator("#alloc")).to_be_hidden()
    expect(phone.get_by_role("button", name="Print")).to_be_hidden()
    phone.emulate_media(media="screen")
    expect(phone.locator("#alloc")).to_be_visible()


def test_how_to_play_has_the_worked_example(phone):
    phone.get_by_text("How to play").click()
    rules = phone.locator("#rules")
    expect(rules).to_contain_text("seven counters")
    expect(rules.locator("table.ex tbody tr")).to_have_text([
        re.compile(r"Ada\s*4 \u2192 6\s*1 \u2192 1\s*2 \u2192 1\s*8"),
        re.compile(r"Bo\s*3 \u2192 0\s*1 \u2192 1\s*3 \u2192 3\s*4"),
        re.compile(r"Cy\s*1 \u2192 0\s*3 \u2192 0\s*3 \u2192 3\s*3"),
    ])
    no_sideways_scroll(phone)
    screenshot(phone, "360_rules")
