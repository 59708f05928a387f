"""The whole phone flow on Firefox's engine (Debian's firefox-esr over WebDriver BiDi), against the
real firmware at the board's pace.

One box (main.py under MicroPython with a Pico-sized heap, answering at a Pico W's pace) and three
Firefox phones, each a window with its own storage, play the short crossing: join, place counters
with + and - and by typing, lock, change, reload (the seat and the hidden allocation stay), the
reveal step by step as the box shows it, a rejoin code on a fourth phone, the final standings. The
steps are tests/phone_flow.py's, shared with the Chromium and WebKit tests; the reader presses the
box's buttons through /sim (phone_flow's reader_* helpers).

Each step is checked for layout (no sideways scroll, every visible control at least 44 px) and
saved as a 375x667 screenshot in build/test-artifacts/firefox/.
"""

import re

from boxrig import BOARD_PACE_MS
from firefox_bidi import ARTIFACTS, VIEWPORT
from phone_flow import (
    expect_locked, expect_placed, expect_reveal, expect_reveal_step, expect_round, expected_reveal, join,
    lock, place_by_typing, place_with_buttons, reader_ends_reveal, reader_opens_the_table,
    reader_shows_rejoin_code, reader_starts, reader_turns_card, secrets_held, secrets_received,
    standings_lines, take_with_buttons, winners_line,
)
from PIL import Image

from tidebox.games import token_tide as tt

pytest_plugins = ("firefox_bidi",)

NAMES = ["Ada", "Bo", "Cy"]
SHORT = [tt.TIDE_CARDS[i] for i in range(4)]  # the short crossing: T01-T04 in order
PLAYS = {
    "Ada": [[4, 1, 2], [2, 2, 3], [3, 0, 4], [0, 5, 2]],
    "Bo": [[3, 1, 3], [5, 0, 2], [3, 0, 4], [2, 3, 2]],
    "Cy": [[1, 3, 3], [5, 1, 1], [7, 0, 0], [1, 4, 2]],
}


def step(phone, name):
    """One step of the flow on one phone: no sideways scroll, no control under 44 px, and a 375x667
    screenshot."""
    layout = phone.layout()
    assert layout["innerWidth"] == VIEWPORT[0], layout
    assert layout["scrollWidth"] <= layout["innerWidth"], "%s scrolls sideways: %r" % (name, layout)
    assert layout["small"] == [], "%s: targets under 44 px: %r" % (name, layout["small"])
    path = ARTIFACTS / ("%s.png" % name)
    phone.screenshot(path)
    with Image.open(path) as image:
        assert image.size == VIEWPORT, (name, image.size)


def others_of(me, allocations):
    return {n: a for n, a in zip(NAMES, allocations) if n != NAMES[me]}


def test_the_phone_flow_in_firefox(new_box, open_firefox_phone):
    box = new_box(pace_ms=BOARD_PACE_MS)
    reader_opens_the_table(box)
    url = "http://127.0.0.1:%d/" % box.port
    phones = [open_firefox_phone(url) for _ in NAMES]
    ada, bo, cy = phones

    # ---- join: the names Firefox's accessibility code computes
    ada.expect_role("#join h1", "heading", "Join the table")
    ada.expect_control("textbox", "Rejoin code")
    ada.expect_control("button", "Use code")
    step(ada, "01-join")
    for phone, name in zip(phones, NAMES):
        join(phone, name)
    tokens = [phone.token() for phone in phones]
    assert all(re.fullmatch(r"[0-9a-f]{32}", t) for t in tokens), tokens
    assert len(set(tokens)) == 3, "the phones share storage"
    for phone in phones:
        phone.expect_text("#seatsHead", "At the table: 3 players")
    ada.expect_text("#seats li", [re.compile(r"Ada\s*you"), "Bo", "Cy"])
    step(ada, "02-lobby")

    # ---- round 1: + and -, typing over what a field holds, Ready, Change, reloads
    reader_starts(box.press, deck="short")
    totals = [0, 0, 0]
    card = SHORT[0]
    for phone in phones:
        expect_round(phone, 0, 4, card)
    reader_turns_card(box.press)
    ada.expect_role("#timer", "timer")
    allocations = [PLAYS[n][0] for n in NAMES]
    place_with_buttons(ada, [5, 0, 0])
    take_with_buttons(ada, [1, 0, 0])
    ada.expect_text("#left", "3 of 7 left")
    ada.expect_control("button", "Ready", enabled=False)
    ada.expect_control("button", "Fewer on Grove", enabled=False)
    ada.expect_text("#readyHead", "Who is ready: 0 of 3")
    step(ada, "03-allocate")
    place_with_buttons(ada, [0, 1, 2])
    place_by_typing(bo, [6, 0, 0])
    bo.expect_text("#left", "1 of 7 left")
    place_by_typing(bo, [3, 1, 3])  # typing replaces what the field held
    place_by_typing(cy, [1, 3, 5])
    cy.expect_text("#left", "2 too many: 9 placed, take 2 away")
    cy.expect_control("button", "More on Grove", enabled=False)
    take_with_buttons(cy, [0, 0, 2])
    for phone, allocation in zip(phones, allocations):
        expect_placed(phone, allocation)
        phone.expect_control("button", "Ready", enabled=True)

    lock(ada, [4, 1, 2])
    ada.expect_text("#status", "You are ready. Waiting for Bo and Cy.")
    ada.expect_control("spinbutton", "Beacon", visible=False)
    ada.expect_text("#readyList li", [re.compile(r"Ada \(you\)\s*\u2713 ready"), re.compile(r"Bo\s*thinking"),
                                      re.compile(r"Cy\s*thinking")])
    step(ada, "04-locked")
    assert box.press("C") == "allocate"  # not everybody is ready: the box does not reveal
    # Change: the form comes back with the locked numbers; lock something else, then the first again
    ada.click("button", "Change")
    ada.expect_control("spinbutton", "Beacon", value="4")
    place_by_typing(ada, [2, 3, 2])
    lock(ada, [2, 3, 2])
    assert box.state(tokens[0])["game"]["mine"] == [2, 3, 2]
    ada.click("button", "Change")
    place_by_typing(ada, allocations[0])
    lock(ada, allocations[0])

    # reloads: Ada's seat and locked allocation come back from the box; Bo's draft from the phone
    ada.reload()
    ada.expect_text("#me", "You: Ada")
    expect_locked(ada, allocations[0])
    ada.expect_text("#status", "You are ready. Waiting for Bo and Cy.")
    assert ada.token() == tokens[0]
    assert box.state(tokens[0])["game"]["mine"] == allocations[0]
    bo.reload()
    bo.expect_text("#me", "You: Bo")
    expect_placed(bo, allocations[1])
    step(bo, "05-reload")
    lock(bo, allocations[1])
    lock(cy, allocations[2])
    for phone in phones:
        phone.expect_text("#status", "Everybody is ready: the reader reveals on the box.")
    for me, phone in enumerate(phones):
        others = others_of(me, allocations)
        assert phone.responses(), "no responses recorded on %s's phone" % NAMES[me]
        found = secrets_received(phone.responses(), others)
        found += secrets_held(phone.page_content(), others, True, mine=allocations[me])
        assert found == [], NAMES[me]

    # ---- the reveal, step by step as the box shows it, then the standings and the whole breakdown
    best, rows, totals = expected_reveal(NAMES, card, allocations, totals)
    assert box.press("C") == "reveal"
    for n in range(4):
        if n:
            assert box.press("C") == "reveal"
        for phone in phones:
            expect_reveal_step(phone, n, best, rows)
        if n == 1:
            step(ada, "06-reveal-beacon")
    assert box.press("C", long=True) == "reveal"
    for me, phone in enumerate(phones):
        expect_reveal(phone, me, 0, card, best, rows, rounds=4)
        others = others_of(me, allocations)  # the same checks now find every allocation
        found = secrets_received(phone.responses(), others) + secrets_held(phone.page_content(), others, True)
        for name, allocation in others.items():
            for where in ("response", "page text"):
                prefix = "%s's %s in the %s" % (name, allocation, where)
                assert any(f.startswith(prefix) for f in found), found
    ada.expect_hidden("#alloc")
    step(ada, "07-reveal")
    assert reader_ends_reveal(box.press) == "card"

    # ---- rounds 2-4 by typing; in round 3 Cy's phone dies and a new phone takes the seat back
    for r in range(1, 4):
        card = SHORT[r]
        allocations = [PLAYS[n][r] for n in NAMES]
        for phone in phones:
            expect_round(phone, r, 4, card)
        reader_turns_card(box.press)
        for phone, allocation in zip(phones, allocations):
            place_by_typing(phone, allocation)
            lock(phone, allocation)
        if r == 2:
            code = reader_shows_rejoin_code(box, box.press, seat=2)
            new = open_firefox_phone(url)
            new.fill("textbox", "Rejoin code", code)
            new.click("button", "Use code")
            new.expect_text("#me", "You: Cy")
            expect_locked(new, allocations[2])  # the hidden allocation comes with the seat
            cy.expect_text("#joinNote", re.compile("The box no longer knows this phone\u2019s seat"))
            cy.expect_control("textbox", "Rejoin code")
            cy.quit()
            phones[2] = cy = new
        for phone in phones:
            phone.expect_text("#status", "Everybody is ready: the reader reveals on the box.")
        assert box.press("C") == "reveal"
        assert box.press("C", long=True) == "reveal"
        best, rows, totals = expected_reveal(NAMES, card, allocations, totals)
        for me, phone in enumerate(phones):
            expect_reveal(phone, me, r, card, best, rows, rounds=4)
        assert reader_ends_reveal(box.press) == ("final" if r == 3 else "card")

    # ---- the final standings
    state = box.state(ada.token())
    winners = state["game"]["winners"]
    assert [p["total"] for p in state["game"]["players"]] == totals
    for me, phone in enumerate(phones):
        phone.expect_visible("#final")
        phone.expect_hidden("#tide")
        phone.expect_text("#winners", winners_line(NAMES, totals, winners))
        phone.expect_text("#standings li", standings_lines(NAMES, totals, winners, me))
    ada.expect_role("#final h2", "heading", "Final standings")
    step(ada, "08-final")
    assert box.status()["tcp_peak"] <= 5
