"""The phones' page and the simulator's /sim page in headless Chromium, against the real firmware.

The box is main.py under the MicroPython unix port (Pico-sized heap, at most five TCP connections
at once) on boards/host.py. Phones are browser contexts driven only through the page; the reader
presses the HTML buttons A, B and C on /sim. Results are checked against the rules module.
Screenshots of each phase at 360x740 go to build/screens/firmware-*.png.
"""

import json
import re

import pytest
from browser_firmware import (
    expect_placed, expect_reveal, expect_round, expected_reveal, join, lock, oled_png, page_content,
    place_by_typing, place_with_buttons, png_bits, sheet_rows, state_dir, token_of, zbar_texts,
)
from page_fakebox import SCREENS, screenshot
from phone_flow import (
    CROSSING, SHORT, expect_reveal_step, expected_sheet, secrets_held, secrets_received, standings_lines,
    winners_line,
)
from playwright.sync_api import expect

from tidebox.games import token_tide as tt
from tidebox.gate import SHIPPED_HOLDS, TCP_LIMIT

SHIPPED_TCP = 16  # MEMP_NUM_TCP_PCB in boards/PICO_W_ROMFS/mpconfigboard.h

pytest_plugins = ("page_fakebox", "browser_firmware")


def no_sideways_scroll(page):
    width, inner = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width <= inner, "the page scrolls sideways: %d > %d" % (width, inner)


def shot(page, phase):
    """A 360x740 screenshot of this phase, once its content has been checked."""
    assert page.viewport_size == {"width": 360, "height": 740}
    no_sideways_scroll(page)
    screenshot(page, "firmware-" + phase)
    assert (SCREENS / ("firmware-%s.png" % phase)).stat().st_size > 0


def setup_short_crossing(sim):
    """On the box: join -> setup, deck shuffled -> numbered -> short, start."""
    assert sim.press("C") == "setup"
    assert sim.press("B") == "setup"  # numbered first game
    assert sim.press("B") == "setup"  # short crossing
    assert sim.press("C") == "card"


@pytest.mark.browser
def test_three_phones_play_the_short_crossing_to_the_winners(sim, open_fw_phone, fw_box):
    """Three phones and the box's buttons play the short crossing (T01-T04) to the winners: every
    reveal, total, record sheet row and the final standings as the rules module scores them; a
    checked screenshot of each phase (join, lobby, allocate, locked, reveal, final)."""
    names = list(CROSSING)
    phones = [open_fw_phone() for _ in names]
    ada = phones[0]

    # join: nothing typed yet, Join and Use code ready
    expect(ada.get_by_role("textbox", name="Name", exact=True)).to_have_value("")
    expect(ada.get_by_role("button", name="Join", exact=True)).to_be_enabled()
    expect(ada.get_by_role("button", name="Use code", exact=True)).to_be_enabled()
    expect(ada.locator("#lobby")).to_be_hidden()
    shot(ada, "join")

    for page, name in zip(phones, names):
        join(page, name)
    for page in phones:
        expect(page.locator("#seatsHead")).to_have_text("At the table: 3 players")
    expect(ada.locator("#seats li")).to_have_text([re.compile(r"Ada\s*you"), "Bo", "Cy"])
    expect(ada.get_by_role("heading", name="You are in")).to_be_visible()
    expect(ada.locator("#lobbyMsg")).to_have_text(
        "Token Tide: the reader starts the game from the box. "
        "Others join on the Wi-Fi \u201cTidebox-2D2F\u201d.")
    expect(ada.locator("#game")).to_be_hidden()
    shot(ada, "lobby")

    setup_short_crossing(sim)
    totals = [0, 0, 0]
    for r, card in enumerate(SHORT):
        reader = r % 3  # the first reader is seat 0; the job moves one seat clockwise
        for me, page in enumerate(phones):
            expect_round(page, r, 4, card)
            expect(page.locator("#readerLine")).to_have_text(
                "Reader: %s%s" % (names[reader], " (you)" if me == reader else ""))
        assert sim.press("C") == "allocate"  # the allocation timer
        expect(ada.get_by_role("timer")).to_be_visible()
        expect(ada.locator("#timerNote")).to_have_text("left")
        allocations = [CROSSING[name][r] for name in names]

        # Ada uses + and -, Bo types, Cy alternates
        place_with_buttons(ada, [allocations[0][0] + 1, 0, 0])
        ada.get_by_role("button", name="Fewer on Beacon", exact=True).click()
        if r == 0:
            expect(ada.locator("#left")).to_have_text("3 of 7 left")
            expect(ada.get_by_role("button", name="Ready", exact=True)).to_be_disabled()
            expect(ada.get_by_role("button", name="More on Grove", exact=True)).to_be_enabled()
            expect(ada.get_by_role("button", name="Fewer on Grove", exact=True)).to_be_disabled()
            expect(ada.locator("#readyHead")).to_have_text("Who is ready: 0 of 3")
            shot(ada, "allocate")
        place_with_buttons(ada, [0] + allocations[0][1:])
        place_by_typing(phones[1], allocations[1])
        (place_by_typing if r % 2 else place_with_buttons)(phones[2], allocations[2])
        for page, allocation in zip(phones, allocations):
            expect_placed(page, allocation)
            expect(page.get_by_role("button", name="Ready", exact=True)).to_be_enabled()

        lock(ada, allocations[0])
        if r == 0:
            expect(ada.locator("#status")).to_have_text("You are ready. Waiting for Bo and Cy.")
            expect(ada.get_by_role("button", name="Change", exact=True)).to_be_enabled()
            expect(ada.get_by_role("spinbutton", name="Beacon")).to_be_hidden()
            expect(ada.get_by_role("button", name="Ready", exact=True)).to_be_hidden()
            expect(ada.locator("#readyList li")).to_have_text(
                [re.compile(r"Ada \(you\)\s*\u2713 ready"), re.compile(r"Bo\s*thinking"),
                 re.compile(r"Cy\s*thinking")])
            shot(ada, "locked")
            # not everybody is ready: C on the box refuses to reveal and says so
            assert sim.press("C") == "allocate"
        lock(phones[1], allocations[1])
        lock(phones[2], allocations[2])
        for page in phones:
            expect(page.locator("#status")).to_have_text("Everybody is ready: the reader reveals on the box.")

        assert sim.press("C") == "reveal"
        best, rows, totals = expected_reveal(names, card, allocations, totals)
        if r == 0:
            # the phones follow the box's stepped reveal: the winning amounts, then each island
            for step in range(4):
                if step:
                    assert sim.press("C") == "reveal"
                for page in phones:
                    expect_reveal_step(page, step, best, rows)
        # a long press on C: the box's last step (the standings) and the whole breakdown on the phones
        assert sim.press("C", long=True) == "reveal"
        for me, page in enumerate(phones):
            expect_reveal(page, me, r, card, best, rows, rounds=4)
        expect(ada.locator("#alloc")).to_be_hidden()
        expect(ada.locator("#locked")).to_be_hidden()
        if r == 0:
            expect(ada.get_by_role("button", name="Save record (CSV)", exact=True)).to_be_enabled()
            shot(ada, "reveal")
        assert sim.step_reveal() == ("final" if r == 3 else "card")

    best_total = max(totals)
    winners = [i for i, t in enumerate(totals) if t == best_total]
    state = fw_box.state(token_of(ada))
    assert state["box"] == "over"
    assert state["game"]["winners"] == winners
    assert [p["total"] for p in state["game"]["players"]] == totals
    for me, page in enumerate(phones):
        expect(page.locator("#final")).to_be_visible()
        expect(page.locator("#tide")).to_be_hidden()
        expect(page.locator("#winners")).to_have_text(winners_line(names, totals, winners))
        status = "Game over."
        if me in winners:
            status += " You share the victory!" if len(winners) > 1 else " You win!"
        expect(page.locator("#status")).to_have_text(status)
        expect(page.locator("#standings li")).to_have_text(standings_lines(names, totals, winners, me))
        # the record sheet: round, the three islands, round points, running total (the standings')
        rows = expected_sheet(names, CROSSING, SHORT, me)
        assert sheet_rows(page) == rows
        assert rows[-1][-1] == str(totals[me])
    expect(ada.get_by_role("heading", name="Final standings")).to_be_visible()
    expect(ada.get_by_role("button", name="Print", exact=True)).to_be_enabled()
    expect(ada.get_by_role("button", name="Save record (CSV)", exact=True)).to_be_enabled()
    expect(ada.locator("#alloc")).to_be_hidden()
    shot(ada, "final")
    status = fw_box.status()
    assert status["tcp_peak"] <= TCP_LIMIT + SHIPPED_HOLDS < SHIPPED_TCP  # as lwIP serves them on the Pico W
    assert status["held_served"] > 0  # the pages waited for the box's changes


@pytest.mark.browser
def test_eight_phones_join_and_see_every_allocation_at_the_reveal(sim, open_fw_phone, fw_box):
    """A full table of eight phones joins through the page and plays a round; every phone shows
    all eight allocations and scores at the reveal."""
    names = ["Ada", "Bo", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]
    phones = []
    for name in names:
        phones.append(open_fw_phone())
        join(phones[-1], name)
    for page in phones:
        expect(page.locator("#seatsHead")).to_have_text("At the table: 8 players")
    assert sim.press("C") == "setup"
    assert sim.press("B") == "setup"  # numbered first game: Low Water first
    assert sim.press("C") == "card"
    card = tt.TIDE_CARDS[0]
    assert sim.press("C") == "allocate"
    allocations = [[7, 0, 0], [6, 1, 0], [5, 0, 2], [4, 1, 2], [3, 2, 2], [2, 3, 2], [1, 4, 2], [0, 0, 7]]
    for page, allocation in zip(phones, allocations):
        expect_round(page, 0, 6, card)
        place_by_typing(page, allocation)
        expect_placed(page, allocation)
        lock(page, allocation)
    for page in phones:
        expect(page.locator("#readyHead")).to_have_text("Who is ready: 8 of 8")
    assert sim.press("C") == "reveal"
    assert sim.press("C", long=True) == "reveal"  # everything at once
    best, rows, _ = expected_reveal(names, card, allocations, [0] * 8)
    for me, page in enumerate(phones):
        expect_reveal(page, me, 0, card, best, rows, rounds=6)
    status = fw_box.status()
    assert status["tcp_peak"] <= TCP_LIMIT + SHIPPED_HOLDS < SHIPPED_TCP
    assert status["held_peak"] >= 8  # every phone waited at once


def start_numbered_game(sim):
    assert sim.press("C") == "setup"
    assert sim.press("B") == "setup"  # numbered first game
    assert sim.press("C") == "card"
    assert sim.press("C") == "allocate"


@pytest.mark.browser
def test_reload_mid_round_keeps_the_seat_and_the_locked_allocation(sim, open_fw_phone, fw_box):
    """A reload in the middle of a round keeps the seat (same token), the locked allocation (from
    the box) and an unsent draft (kept on the phone); the reveal then scores what was locked."""
    ada, bo = open_fw_phone(), open_fw_phone()
    join(ada, "Ada")
    join(bo, "Bo")
    start_numbered_game(sim)
    card = tt.TIDE_CARDS[0]
    for page in (ada, bo):
        expect_round(page, 0, 6, card)
    place_with_buttons(ada, [4, 1, 2])
    lock(ada, [4, 1, 2])
    place_with_buttons(bo, [2, 0, 0])  # Bo is still thinking: a draft, nothing sent
    token = token_of(ada)

    ada.reload()
    expect(ada.locator("#me")).to_have_text("You: Ada")
    expect(ada.locator("#roundLabel")).to_have_text("Round 1 of 6")
    expect(ada.locator("#lockedList li")).to_have_text(
        [re.compile(r"Beacon\s*4"), re.compile(r"Grove\s*1"), re.compile(r"Mooring\s*2")])
    expect(ada.locator("#status")).to_have_text("You are ready. Waiting for Bo.")
    expect(ada.get_by_role("button", name="Change", exact=True)).to_be_enabled()
    expect(ada.locator("#alloc")).to_be_hidden()
    assert token_of(ada) == token  # the same seat, not a new one
    # the box holds the locked allocation for this seat (and tells only this phone)
    view = fw_box.state(token)
    assert view["game"]["mine"] == [4, 1, 2] and view["game"]["locked"] is True

    bo.reload()
    expect(bo.locator("#me")).to_have_text("You: Bo")
    expect(bo.get_by_role("spinbutton", name="Beacon", exact=True)).to_have_value("2")
    expect(bo.locator("#left")).to_have_text("5 of 7 left")
    expect(bo.locator("#readyList li")).to_have_text(
        [re.compile(r"Ada\s*\u2713 ready"), re.compile(r"Bo \(you\)\s*thinking")])
    place_with_buttons(bo, [0, 2, 3])
    lock(bo, [2, 2, 3])

    assert sim.press("C") == "reveal"
    assert sim.press("C", long=True) == "reveal"  # everything at once
    best, rows, _ = expected_reveal(["Ada", "Bo"], card, [[4, 1, 2], [2, 2, 3]], [0, 0])
    expect_reveal(ada, 0, 0, card, best, rows, rounds=6)
    expect_reveal(bo, 1, 0, card, best, rows, rounds=6)
    # after the reveal a reload shows it again, from the box
    ada.reload()
    expect_reveal(ada, 0, 0, card, best, rows, rounds=6)


SECRET = {"Ada": [[1, 2, 4], [3, 3, 1]], "Bo": [[6, 0, 1], [7, 0, 0]], "Cy": [[0, 5, 2], [2, 4, 1]]}


def leaks(page, others, mark, text_too):
    """Where another player's allocation shows on this phone: in the responses it received since
    `mark` (bodies and headers), in its markup, input fields and storage, and (text_too) in its text."""
    received = secrets_received(page.traffic.since(mark), others)
    return received + secrets_held(page_content(page), others, text_too)


@pytest.mark.browser
def test_no_phone_sees_another_allocation_before_the_reveal(sim, open_fw_phone, fw_box):
    """Before each of two reveals no phone received (body or header) or holds (markup, text,
    inputs, storage) another player's allocation; right after the reveal the same checks find them."""
    names = list(SECRET)
    phones = [open_fw_phone(traffic=True) for _ in names]
    for page, name in zip(phones, names):
        join(page, name)
    start_numbered_game(sim)
    marks = [0, 0, 0]
    totals = [0, 0, 0]
    for r in range(2):
        card = tt.TIDE_CARDS[r]
        allocations = [SECRET[name][r] for name in names]
        if r:
            assert sim.press("C") == "allocate"
        for page in phones:
            expect_round(page, r, 6, card)
        # Ada locks, then changes her mind and locks again; Bo types; Cy uses the buttons
        place_with_buttons(phones[0], allocations[0])
        lock(phones[0], allocations[0])
        phones[0].get_by_role("button", name="Change", exact=True).click()
        expect(phones[0].get_by_role("spinbutton", name="Beacon", exact=True)).to_be_visible()
        lock(phones[0], allocations[0])
        place_by_typing(phones[1], allocations[1])
        lock(phones[1], allocations[1])
        place_with_buttons(phones[2], allocations[2])
        lock(phones[2], allocations[2])
        for page in phones:
            expect(page.locator("#status")).to_have_text("Everybody is ready: the reader reveals on the box.")
        for me, page in enumerate(phones):
            others = {n: a for n, a in zip(names, allocations) if n != names[me]}
            # round 2's page rightly shows round 1's reveal, so its text is not a fair test then
            assert leaks(page, others, marks[me], text_too=r == 0) == [], names[me]
            assert page.traffic.since(marks[me]), "no responses recorded"
        marks = [page.traffic.mark() for page in phones]

        assert sim.press("C") == "reveal"
        assert sim.press("C", long=True) == "reveal"  # everything at once
        best, rows, _ = expected_reveal(names, card, allocations, totals)
        totals = [row["total"] for row in rows]
        for me, page in enumerate(phones):
            expect_reveal(page, me, r, card, best, rows)
            others = {n: a for n, a in zip(names, allocations) if n != names[me]}
            # the same checks find every allocation once it is revealed
            found = leaks(page, others, marks[me], text_too=True)
            for name, allocation in others.items():
                for where in ("response", "page text"):
                    prefix = "%s's %s in the %s" % (name, allocation, where)
                    assert any(f.startswith(prefix) for f in found), found
        marks = [page.traffic.mark() for page in phones]
        assert sim.step_reveal() == "card"


@pytest.mark.browser
def test_sim_page_shows_the_oled_and_its_buttons_press_the_box(sim, fw_box):
    """/sim: the OLED image shows the box's frame and follows it; buttons named exactly A, B, C;
    clicks, a held (long) press and the keys a, b, c all reach the box."""
    page = sim.page
    oled = page.get_by_role("img", name="OLED screen", exact=True)
    expect(oled).to_be_visible()
    assert oled.evaluate("i => [i.naturalWidth, i.naturalHeight]") == [128, 64]
    expect(page.get_by_role("button")).to_have_count(3)
    # the phones' page, by its whole address (not a bare "/"), in a tab of its own
    phones = page.get_by_role("link", name=page.evaluate("location.origin") + "/", exact=True)
    expect(phones).to_have_attribute("href", "/")
    expect(phones).to_have_attribute("target", "_blank")
    for name in ("A", "B", "C"):
        expect(sim.button(name)).to_be_visible()
        expect(sim.button(name)).to_have_accessible_name(name)
        expect(sim.button(name)).to_be_enabled()
    # the page shows exactly the box's frame, and follows it after every press
    assert sim.shown_bits() == png_bits(oled_png(fw_box))
    first = sim.shown_bits()
    assert sim.press("B") == "join"  # the Wi-Fi QR code -> the page's QR code
    assert sim.shown_bits() != first
    assert sim.press("A") == "join_menu"
    assert sim.press("B") == "join"
    # keys a, b and c press the buttons too (the page has the focus, not a button)
    page.locator("h1").click()
    assert sim.press("A", key=True) == "join_menu"
    assert sim.press("B", key=True) == "join"
    fw_box.join("Ada")
    fw_box.join("Bo")
    assert sim.press("C", key=True) == "setup"
    # a long press: the mouse held down on A for about a second goes back from setup to join
    assert sim.press("A", long=True) == "join"
    assert fw_box.state()["box"] == "join"
    assert sim.press("C") == "setup"
    assert sim.press("A") == "setup"  # a short A only moves to the next line


@pytest.mark.browser
def test_sim_keys_still_work_after_a_button_was_clicked(sim, fw_box):
    assert sim.press("A") == "join_menu"  # clicked: A now has the focus
    assert sim.press("B", key=True, timeout=2) == "join"


def test_join_screen_qr_codes_on_the_live_oled(fw_box, tmp_path):
    """zbar reads the live join screen: the Wi-Fi QR (name and the saved password), then (B) the
    page QR with the box's address."""
    wifi = json.loads((state_dir(fw_box) / "wifi.json").read_text())
    ssid = fw_box.state()["ssid"]
    assert re.fullmatch(r"Tidebox-[0-9A-F]{4}", ssid)
    assert fw_box.screen() == "join"  # its first page: the Wi-Fi QR code
    texts = zbar_texts(oled_png(fw_box), tmp_path / "wifi.png")
    assert texts == ["WIFI:T:WPA;S:%s;P:%s;;" % (ssid, wifi["password"])]
    assert fw_box.press("B") == "join"  # the page's QR code
    texts = zbar_texts(oled_png(fw_box), tmp_path / "page.png")
    assert texts == ["http://localhost:%d/" % fw_box.port]
