"""The short crossing on three WebDriver phones against the real firmware, written once for WebKit
(tests/test_webkit_phones.py) and Firefox (tests/test_firefox_phones.py).

One box (main.py under MicroPython with a Pico-sized heap, answering at a Pico W's pace) and three
phones, each with its own storage, play the short crossing: join, place counters with + and - and by
typing, lock, change (the box holds the changed allocation), reload (the seat and the hidden
allocation stay), the reveal step by step as the box shows it and then all at once, the record's CSV,
a rejoin code on a fourth phone, the final standings, the record sheet and the print stylesheet. No
phone received or holds another's allocation before the reveal; the same checks find them all after
it. The steps are tests/support/phone_flow.py's, shared with the Chromium tests; the reader presses the box's
buttons through /sim (phone_flow's reader_* helpers).

Each step is checked for layout at 375x667 (no sideways scroll, every visible control at least
44 px, the controls' accessible names) and saved as a screenshot in build/test-artifacts/<engine>/.

What differs between the engines is in their drivers (tests/support/webkit_driver.py,
tests/support/firefox_bidi.py):
how a control is found, tapped and typed into, WebKit's textbox role for a number field (read as
Chromium's spinbutton there), and whether the driver can list every control's computed name (see
`step`).
"""

import csv
import io
import re

from axe_audit import audit
from phone_flow import (
    ARTIFACTS, CROSSING, ISLANDS, SHORT, expect_locked, expect_placed, expect_reveal, expect_reveal_step,
    expect_round, expected_reveal, expected_sheet, join, lock, place_by_typing, place_with_buttons,
    reader_ends_reveal, reader_opens_the_table, reader_reveals, reader_shows_rejoin_code, reader_starts,
    reader_turns_card, secrets_held, secrets_received, sheet_rows, standings_lines, take_with_buttons,
    wait_until, winners_line,
)
from PIL import Image
from tidebox.gate import SHIPPED_HOLDS, TCP_LIMIT

NAMES = list(CROSSING)  # Ada, Bo, Cy
JOIN_CONTROLS = [("textbox", "Name"), ("button", "Join"), ("textbox", "Rejoin code"), ("button", "Use code")]
ALLOC_CONTROLS = [c for island in ISLANDS for c in
                  (("button", "Fewer on " + island), ("spinbutton", island), ("button", "More on " + island))]
ALL_READY = "Everybody is ready: the reader reveals on the box."

# The print stylesheet as the phone reads it: WebDriver cannot switch an engine to print media, so
# its rules are applied to the screen for a moment.
PRINT_RULES_JS = """() => {
  const rules = [];
  for (const sheet of document.styleSheets)
    for (const rule of sheet.cssRules)
      if (rule.media && rule.media.mediaText === 'print')
        for (const r of rule.cssRules) rules.push(r.cssText);
  const vis = css => { const e = document.querySelector(css); return !!e && e.getClientRects().length > 0; };
  const style = document.createElement('style');
  style.textContent = rules.join('\\n');
  document.head.appendChild(style);
  const seen = {rules: rules.length, sheet: vis('#sheet table'), final: vis('#final'), print: vis('#print'),
                csv: vis('#csv'), status: vis('#status'), rules_card: vis('#rules')};
  style.remove();
  window.dispatchEvent(new Event('beforeprint'));
  seen.reveal_open = document.getElementById('reveal').open;
  return seen;
}"""

# The CSV the page hands to the browser: the Blob and the file name, caught before any download.
CATCH_CSV_JS = """() => {
  window.__csv = null;
  window.__csvName = null;
  const real = URL.createObjectURL;
  URL.createObjectURL = blob => { window.__csv = blob; return real.call(URL, blob); };
  window.addEventListener('click', e => {
    const a = e.target;
    if (a && a.tagName === 'A' && a.download) { window.__csvName = a.download; e.preventDefault(); }
  }, true);
}"""


def step(phone, name, controls=()):
    """One step of the flow on one phone: the page 375 px wide, no sideways scroll, no control under
    44 px, the controls named, and a 375x667 screenshot.

    The names: where the driver lists every visible control's computed (role, name) (WebKit), each
    has a name and `controls` are the first ones, in this order; where it can only search by role
    and name (Firefox's BiDi), each of `controls` is found, visible, by its role and name."""
    layout = phone.layout()
    assert layout["innerWidth"] == phone.viewport[0], layout
    assert layout["scrollWidth"] <= layout["innerWidth"], "%s scrolls sideways: %r" % (name, layout)
    assert layout["small"] == [], "%s: targets under 44 px: %r" % (name, layout["small"])
    seen = phone.named_controls()
    if seen is None:
        for role, label in controls:
            phone.expect_control(role, label)
    else:
        assert all(label for _role, label in seen), "%s: a control without a name: %r" % (name, seen)
        assert seen[:len(controls)] == list(controls), (name, seen)
    audit(phone, "%s on %s" % (name, phone.engine))
    path = ARTIFACTS / phone.engine / ("%s.png" % name)
    phone.screenshot(path)
    with Image.open(path) as image:
        assert image.size == phone.viewport, (name, image.size)


def others_of(me, allocations):
    return {n: a for n, a in zip(NAMES, allocations) if n != NAMES[me]}


def expect_no_leaks(phones, allocations):
    """No phone received (bodies, headers) or holds (markup, inputs, storage, text) another's allocation."""
    for me, phone in enumerate(phones):
        others = others_of(me, allocations)
        assert phone.responses(), "no responses recorded on %s's phone" % NAMES[me]
        found = secrets_received(phone.responses(), others)
        found += secrets_held(phone.page_content(), others, True, mine=allocations[me])
        assert found == [], NAMES[me]


def expect_all_revealed(phones, allocations):
    """After the reveal the same checks find every other allocation, in a response and in the text."""
    for me, phone in enumerate(phones):
        others = others_of(me, allocations)
        found = secrets_received(phone.responses(), others) + secrets_held(phone.page_content(), others, True)
        for name, allocation in others.items():
            for where in ("response", "page text"):
                prefix = "%s's %s in the %s" % (name, allocation, where)
                assert any(f.startswith(prefix) for f in found), found


def url_of(box):
    return "http://127.0.0.1:%d/" % box.port


def open_the_table(box, open_phone):
    """The reader opens Token Tide's table on the box; three new phones open the page on it."""
    reader_opens_the_table(box)
    return [open_phone(url_of(box)) for _ in NAMES]


TABLE_VIEWPORT = (1280, 720)  # a laptop as the table screen


def table_step(table, name):
    """One state of the table screen (/table), beside the phones: audited, and a screenshot at its
    landscape size."""
    audit(table, "the table screen at %s on %s" % (name, table.engine))
    path = ARTIFACTS / table.engine / ("table-%s.png" % name)
    table.screenshot(path)
    with Image.open(path) as image:
        assert image.size == table.viewport, (name, image.size)


def table_rows(table):
    """The table screen's reveal: each row's cells, the player's name first."""
    return table.call("() => Array.from(document.querySelectorAll('.tv-tt .tt-rows tr')).slice(1).map("
                      "r => Array.from(r.cells).map(c => c.textContent.replace(/\\s+/g, ' ').trim()))")


def expect_table_reveal(table, allocations):
    """After the whole reveal the table screen shows every player's counters on every island."""
    want = [[name] + ["%d counter" % n for n in allocation] for name, allocation in zip(NAMES, allocations)]

    def shown():
        return [[r[0]] + [c.split(" \u2192")[0].rstrip("s") for c in r[1:4]] for r in table_rows(table)]

    wait_until(lambda: shown() == want, lambda: "the table screen's reveal: %r, want %r" % (shown(), want))


def play_the_short_crossing(box, phones, open_phone, table=None):
    """The whole crossing from the join page (open_the_table's phones) to the final standings; with
    `table`, a table screen (a phone of the same engine at TABLE_VIEWPORT, on /table) follows it: the
    names, who is ready and nothing hidden before the reveal, every allocation after it."""
    ada, bo, cy = phones

    # ---- join: the names the engine computes; storage works
    # (the game's own heading, the tide card, comes with the game's part once a game is under way)
    ada.expect_text("h1", ["Join the table", "You are in"])
    ada.expect_role("#join h1", "heading", "Join the table")
    ada.expect_control("textbox", "Rejoin code")
    ada.expect_control("button", "Use code")
    step(ada, "01-join", JOIN_CONTROLS)
    assert ada.call("() => [typeof localStorage, typeof sessionStorage]") == ["object", "object"]
    for phone, name in zip(phones, NAMES):
        join(phone, name)
    tokens = [phone.token() for phone in phones]
    assert all(re.fullmatch(r"[0-9a-f]{32}", t) for t in tokens), tokens
    assert len(set(tokens)) == 3, "the phones share storage"
    for phone in phones:
        phone.expect_text("#seatsHead", "At the table: 3 players")
    ada.expect_text("#seats li", [re.compile(r"Ada\s*you"), "Bo", "Cy"])
    step(ada, "02-lobby")
    if table:
        table.expect_text("#seats li", list(NAMES))
        table_step(table, "01-join")

    # ---- round 1: + and -, typing over what a field holds, Ready, Change, reloads
    reader_starts(box.press, deck="short")
    totals = [0, 0, 0]
    card = SHORT[0]
    for phone in phones:
        expect_round(phone, 0, 4, card)
    reader_turns_card(box.press)
    ada.expect_role("#timer", "timer")
    ada.expect_visible("#timer")
    allocations = [CROSSING[n][0] for n in NAMES]
    place_with_buttons(ada, [5, 0, 0])
    take_with_buttons(ada, [1, 0, 0])
    ada.expect_text("#left", "3 of 7 left")
    ada.expect_control("button", "Ready", enabled=False)
    ada.expect_control("button", "Fewer on Grove", enabled=False)
    ada.expect_text("#readyHead", "Who is ready: 0 of 3")
    step(ada, "03-allocate", ALLOC_CONTROLS)
    place_with_buttons(ada, [0, 1, 2])
    # Bo types; a second number typed into a field replaces the first (the page selects on focus)
    place_by_typing(bo, [6, 0, 0])
    bo.expect_text("#left", "1 of 7 left")
    place_by_typing(bo, [3, 1, 3])
    # Cy types too many, is told plainly, and fixes it with the buttons
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
    step(ada, "04-locked", [("button", "Change")])
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
    step(bo, "05-reload", ALLOC_CONTROLS)
    lock(bo, allocations[1])
    lock(cy, allocations[2])
    for phone in phones:
        phone.expect_text("#status", ALL_READY)
    expect_no_leaks(phones, allocations)
    if table:
        table.expect_text(".tv-tt .tt-ready h2", "Who is ready: 3 of 3")
        everyone = dict(zip(NAMES, allocations))
        assert table.responses(), "no responses recorded on the table screen"
        assert secrets_received(table.responses(), everyone) + secrets_held(
            table.page_content(), everyone, False) == []
        assert not table.shown(".tv-tt .tt-rows"), "the table screen shows quantities before the reveal"
        table_step(table, "02-ready")

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
    expect_all_revealed(phones, allocations)  # the same checks now find every allocation
    if table:
        expect_table_reveal(table, allocations)
        table_step(table, "03-reveal")
    ada.expect_hidden("#alloc")
    step(ada, "07-reveal")
    # the CSV the page hands to the browser (caught before it becomes a download)
    ada.call(CATCH_CSV_JS)
    ada.click("button", "Save record (CSV)")
    text = ada.call("() => window.__csv.text()")
    assert ada.call("() => window.__csvName") == "token-tide-Ada.csv"
    assert list(csv.reader(io.StringIO(text))) == [
        ["Round", "Beacon", "Grove", "Mooring", "Round points", "Running total"],
        ["1", *map(str, allocations[0]), str(rows[0]["points"]), str(rows[0]["total"])]]
    assert reader_ends_reveal(box.press) == "card"

    # ---- rounds 2-4 by typing; in round 3 Cy's phone dies and a new phone takes the seat back
    for r in range(1, 4):
        card = SHORT[r]
        allocations = [CROSSING[n][r] for n in NAMES]
        for phone in phones:
            expect_round(phone, r, 4, card)
        reader_turns_card(box.press)
        for phone, allocation in zip(phones, allocations):
            place_by_typing(phone, allocation)
            lock(phone, allocation)
        if r == 2:
            code = reader_shows_rejoin_code(box, box.press, seat=2)
            new = open_phone(url_of(box))
            step(new, "08-rejoin-code", JOIN_CONTROLS)
            new.fill("textbox", "Rejoin code", code)
            new.click("button", "Use code")
            new.expect_text("#me", "You: Cy")
            expect_locked(new, allocations[2])  # the hidden allocation comes with the seat
            step(new, "09-rejoined", [("button", "Change")])
            cy.expect_text("#joinNote", re.compile("The box no longer knows this phone\u2019s seat"))
            cy.expect_control("textbox", "Rejoin code")
            cy.quit()
            phones[2] = cy = new
        for phone in phones:
            phone.expect_text("#status", ALL_READY)
        reader_reveals(box.press)
        best, rows, totals = expected_reveal(NAMES, card, allocations, totals)
        for me, phone in enumerate(phones):
            expect_reveal(phone, me, r, card, best, rows, rounds=4)
        assert reader_ends_reveal(box.press) == ("final" if r == 3 else "card")

    # ---- the final standings, the record sheet, the print stylesheet
    state = box.state(ada.token())
    winners = state["game"]["winners"]
    assert [p["total"] for p in state["game"]["players"]] == totals
    for me, phone in enumerate(phones):
        phone.expect_visible("#final")
        phone.expect_hidden("#tide")
        phone.expect_text("#winners", winners_line(NAMES, totals, winners))
        phone.expect_text("#standings li", standings_lines(NAMES, totals, winners, me))
        assert sheet_rows(phone) == expected_sheet(NAMES, CROSSING, SHORT, me)
    if table:
        table_step(table, "04-final")
    ada.expect_role("#final h2", "heading", "Final standings")
    ada.expect_control("button", "Print", enabled=True)
    step(ada, "10-final")
    printed = ada.call(PRINT_RULES_JS)
    assert printed == {"rules": printed["rules"], "sheet": True, "final": True, "print": False, "csv": False,
                       "status": False, "rules_card": False, "reveal_open": True}, printed
    assert printed["rules"] >= 5
    status = box.status()
    # the phones waited for the box's changes, never more connections at once than lwIP serves on
    # the Pico W (16: 5 read and answered, the waiting ones besides)
    assert status["held_served"] > 0 and status["tcp_peak"] <= TCP_LIMIT + SHIPPED_HOLDS < 16
