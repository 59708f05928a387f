"""The phone page through a whole game in headless Chromium, against a box (the `box_url` fixture).

Each test is a fresh box and fresh phones (browser contexts); other players are scripted phones
talking to the same API. Screenshots of each phase at 360x740 go to build/screens/.
"""

import csv
import io
import re

import pytest
from page_fakebox import call, nudge, screenshot, token_of
from playwright.sync_api import expect

from tidebox.games import token_tide as tt

pytest_plugins = ("page_fakebox",)

pytestmark = pytest.mark.browser  # phones in a real browser

ISLANDS = ("Beacon", "Grove", "Mooring")


def join(page, name):
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_role("button", name="Join", exact=True).click()
    expect(page.locator("#lobby")).to_be_visible()


def place(page, allocation):
    for island, n in zip(ISLANDS, allocation):
        for _ in range(n):
            page.get_by_role("button", name="More on " + island).click()


def ready(page, allocation):
    place(page, allocation)
    page.get_by_role("button", name="Ready").click()
    expect(page.locator("#locked")).to_be_visible()


def until(page, locator, state="visible"):
    """Nudge the page to poll, then wait for the locator (the page also polls by itself each second)."""
    nudge(page)
    if state == "visible":
        expect(locator).to_be_visible()
    else:
        expect(locator).to_be_hidden()


def sheet_rows(page):
    return [[c.strip() for c in row.locator("th, td").all_inner_texts()]
            for row in page.locator("#sheetRows tr").all()]


def test_join_lobby_and_setup(box, phone):
    expect(phone.get_by_role("heading", name="Join the table")).to_be_visible()
    expect(phone.get_by_role("button", name="Join", exact=True)).to_be_enabled()
    screenshot(phone, "01_join")
    join(phone, "Ada")
    token = token_of(phone)
    assert re.fullmatch(r"[0-9a-f]{32}", token)
    expect(phone.get_by_text("You: Ada")).to_be_visible()
    expect(phone.get_by_text("The reader starts the game from the box.")).to_be_visible()
    box.join("Bo")
    until(phone, phone.locator("#seats li", has_text="Bo"))
    expect(phone.locator("#seatsHead")).to_have_text("At the table: 2 players")
    expect(phone.locator("#seats li").first).to_have_text(re.compile(r"Ada\s*you"))
    screenshot(phone, "02_lobby")
    box.press("setup")
    until(phone, phone.get_by_text("The reader is choosing the options on the box."))
    # the seat token travels only in the header, never in a URL
    assert all(token not in line for line in box.traffic()["log"])


def test_join_refusals_are_shown(box, phone):
    box.join("Bo")
    phone.get_by_role("button", name="Join", exact=True).click()
    expect(phone.get_by_role("alert").first).to_have_text("Type your name first.")
    phone.get_by_label("Name", exact=True).fill("bo")
    phone.get_by_role("button", name="Join", exact=True).click()
    expect(phone.locator("#joinErr")).to_have_text("That name is taken at this table.")
    box.join("Cy")
    box.start()
    late = phone.context.new_page()
    late.goto(box.url + "/")
    expect(late.get_by_text("A game is under way.")).to_be_visible()
    late.get_by_label("Name", exact=True).fill("Dee")
    late.get_by_role("button", name="Join", exact=True).click()
    expect(late.locator("#joinErr")).to_have_text("The game has started: ask the reader for a rejoin code.")


def test_a_long_name_is_never_cut_the_field_says_its_limit_as_it_is_typed(box, phone):
    name = phone.get_by_label("Name", exact=True)
    expect(phone.locator("#nameLen")).to_have_text("At most 12 characters.")
    name.fill("Ada")
    expect(phone.locator("#nameLen")).to_have_text("3 of 12 characters.")
    long = "Maximilian Alexander Fitzgerald-Worthington"
    name.fill(long)
    expect(name).to_have_value(long)  # all of it, not cut
    expect(phone.locator("#nameLen")).to_have_text("Too long: %d characters, at most 12." % len(long))
    phone.get_by_role("button", name="Join", exact=True).click()
    expect(phone.locator("#joinErr")).to_have_text("Shorten your name to 12 characters.")
    assert box.traffic()["log"] == [line for line in box.traffic()["log"] if "/api/join" not in line]
    name.fill("Maximilian")
    phone.get_by_role("button", name="Join", exact=True).click()
    expect(phone.get_by_text("You: Maximilian")).to_be_visible()


def test_at_the_game_menu_a_new_phone_is_asked_to_join_not_told_a_game_is_under_way(box, phone):
    box.press("menu")  # the reader has not chosen the next game yet
    expect(phone.locator("#joinNote")).to_have_text(
        "The reader is choosing the game on the box. Join now to be at the table.")
    expect(phone.get_by_text("A game is under way.")).to_have_count(0)
    join(phone, "Ada")
    expect(phone.locator("#lobbyMsg")).to_have_text("The reader is choosing the game on the box.")
    # no game is chosen: the page is Tidebox's, without the last game's title or How to play
    expect(phone.locator("#brand")).to_have_text("Tidebox")
    expect(phone.locator("#rules")).to_be_hidden()


def test_tabs_of_one_browser_are_phones_of_their_own_with_phone_n(box, phone):
    """/?phone=N (the simulator's links): each tab keeps its own seat, across reloads too; the plain
    address is a phone of its own as well. The token stays out of every address."""
    tabs = {}
    for n, name in ((1, "Ada"), (2, "Bo")):
        tab = phone.context.new_page()
        tab.goto(box.url + "/?phone=%d" % n)
        join(tab, name)
        tabs[name] = tab
    join(phone, "Cy")
    for name, tab in tabs.items():
        tab.reload()
        expect(tab.get_by_text("You: " + name)).to_be_visible()
    phone.reload()
    expect(phone.get_by_text("You: Cy")).to_be_visible()
    tokens = {name: token_of(tab) for name, tab in tabs.items()}
    assert len(set(tokens.values()) | {token_of(phone)}) == 3
    assert all(token not in line for token in tokens.values() for line in box.traffic()["log"])


def test_rejoin_code_takes_the_seat_back(box, open_phone):
    first = open_phone()
    join(first, "Ada")
    box.join("Bo")
    box.start()
    until(first, first.get_by_role("spinbutton", name="Beacon"))
    # Ada's phone died; on a new phone she types the one-time code the box shows for her seat
    second = open_phone()
    expect(second.get_by_label("Rejoin code")).to_be_visible()
    second.get_by_label("Rejoin code").fill("000000")
    second.get_by_role("button", name="Use code").click()
    expect(second.locator("#rejoinErr")).to_have_text(
        "That rejoin code is not valid: ask the reader for a new one.")
    second.get_by_label("Rejoin code").fill(box.rejoin_code(0))
    second.get_by_role("button", name="Use code").click()
    expect(second.get_by_text("You: Ada")).to_be_visible()
    expect(second.get_by_role("spinbutton", name="Beacon")).to_be_visible()
    # the old phone is signed out and offered the way back in
    until(first, first.get_by_text("The box no longer knows this phone\u2019s seat."))
    expect(first.get_by_label("Rejoin code")).to_be_visible()


def test_reload_keeps_the_seat_the_hidden_allocation_and_the_draft(box, phone):
    join(phone, "Ada")
    box.join("Bo")
    phone.reload()
    expect(phone.get_by_text("You: Ada")).to_be_visible()
    expect(phone.locator("#lobby")).to_be_visible()
    box.start()
    until(phone, phone.get_by_role("spinbutton", name="Beacon"))
    ready(phone, (4, 1, 2))
    phone.reload()
    expect(phone.locator("#lockedList li")).to_have_text([re.compile(r"Beacon\s*4"), re.compile(r"Grove\s*1"),
                                                          re.compile(r"Mooring\s*2")])
    # after Change, an unsent draft survives a reload too (it lives on the phone)
    phone.get_by_role("button", name="Change").click()
    expect(phone.get_by_role("spinbutton", name="Beacon")).to_have_value("4")
    phone.get_by_role("button", name="Fewer on Beacon").click()
    expect(phone.locator("#left")).to_have_text("1 of 7 left")
    phone.reload()
    expect(phone.get_by_role("spinbutton", name="Beacon")).to_have_value("3")
    expect(phone.get_by_role("spinbutton", name="Grove")).to_have_value("1")
    expect(phone.locator("#left")).to_have_text("1 of 7 left")
    expect(phone.get_by_role("button", name="Ready")).to_be_disabled()


def test_allocate_ready_locked_change(box, phone):
    join(phone, "Ada")
    bo = box.join("Bo")
    box.start()
    until(phone, phone.get_by_role("heading", name="Low Water"))
    expect(phone.locator("#roundLabel")).to_have_text("Round 1 of 6")
    expect(phone.locator("#targetLine")).to_have_text("Mooring target 2")
    expect(phone.locator("#readerLine")).to_have_text("Reader: Ada (you)")
    left = phone.locator("#left")
    ready_button = phone.get_by_role("button", name="Ready")
    expect(left).to_have_text("7 of 7 left")
    expect(ready_button).to_be_disabled()
    expect(phone.get_by_role("button", name="Fewer on Beacon")).to_be_disabled()
    for _ in range(3):
        phone.get_by_role("button", name="More on Beacon").click()
    phone.get_by_role("button", name="Fewer on Beacon").click()
    expect(phone.get_by_role("spinbutton", name="Beacon")).to_have_value("2")
    expect(left).to_have_text("5 of 7 left")
    # typing works too; too many is said plainly and blocks Ready and every +
    phone.get_by_role("spinbutton", name="Grove").fill("6")
    expect(left).to_have_text("1 too many: 8 placed, take 1 away")
    expect(ready_button).to_be_disabled()
    expect(phone.get_by_role("button", name="More on Mooring")).to_be_disabled()
    phone.get_by_role("spinbutton", name="Mooring").fill("9")
    expect(phone.get_by_role("spinbutton", name="Mooring")).to_have_value("7")
    expect(left).to_have_text("8 too many: 15 placed, take 8 away")
    phone.get_by_role("spinbutton", name="Mooring").fill("0")
    phone.get_by_role("spinbutton", name="Grove").fill("3")
    expect(left).to_have_text("2 of 7 left")
    screenshot(phone, "03_allocate")
    place(phone, (0, 0, 2))
    expect(left).to_have_text("0 of 7 left: all placed")
    expect(phone.get_by_role("button", name="More on Beacon")).to_be_disabled()
    expect(ready_button).to_be_enabled()
    ready_button.click()
    expect(phone.locator("#lockedList")).to_have_text(re.compile(r"Beacon\s*2\s*Grove\s*3\s*Mooring\s*2"))
    assert box.hidden()["hidden"][0] == [2, 3, 2] and box.hidden()["locked"][0] is True
    expect(phone.locator("#status")).to_have_text("You are ready. Waiting for Bo.")
    expect(phone.locator("#readyList li")).to_have_text([re.compile(r"Ada \(you\)\s*\u2713 ready"),
                                                         re.compile(r"Bo\s*thinking")])
    screenshot(phone, "04_locked")
    bo.allocate([3, 1, 3])
    until(phone, phone.get_by_text("Everybody is ready: the reader reveals on the box."))
    expect(phone.locator("#readyHead")).to_have_text("Who is ready: 2 of 2")
    # changing takes Ready back on the box, so the reveal waits for the new choice
    phone.get_by_role("button", name="Change").click()
    expect(phone.get_by_role("spinbutton", name="Grove")).to_have_value("3")
    assert box.hidden()["locked"][0] is False
    expect(ready_button).to_be_enabled()
    phone.get_by_role("button", name="Fewer on Grove").click()
    phone.get_by_role("button", name="More on Beacon").click()
    ready_button.click()
    expect(phone.locator("#lockedList")).to_have_text(re.compile(r"Beacon\s*3\s*Grove\s*2\s*Mooring\s*2"))
    assert box.hidden() == {"hidden": [[3, 2, 2], [3, 1, 3]], "locked": [True, True]}
    # the page holds Bo's choice nowhere before the reveal
    assert "[3,1,3]" not in phone.evaluate("JSON.stringify(window.localStorage)")


def test_countdown_follows_the_box_and_never_forces(box, phone):
    join(phone, "Ada")
    box.join("Bo")
    box.start()
    box.timer(45)
    timer = phone.locator("#timer")
    until(phone, timer)
    expect(timer).to_have_text(re.compile(r"0:4[0-5]"))
    first = timer.inner_text()
    expect(timer).not_to_have_text(first, timeout=3000)
    assert timer.inner_text() < first  # counting down on the phone, between polls
    box.timer(1)
    nudge(phone)
    expect(phone.locator("#timerNote")).to_have_text("time is up", timeout=4000)
    expect(timer).to_have_text("0:00")
    place(phone, (7, 0, 0))
    expect(phone.get_by_role("button", name="Ready")).to_be_enabled()


def test_reveal_reasons_record_sheet_and_csv(box, phone):
    join(phone, "Ada")
    bo = box.join("Bo")
    cy = box.join("Cy")
    box.start()
    until(phone, phone.get_by_role("heading", name="Low Water"))
    token = token_of(phone)
    # round 1, Low Water (target 2), sent straight from Ada's seat
    assert call(box.url, "/api/move",
                {"move": "allocate", "args": {"allocation": [2, 2, 3], "ready": True}}, token)[0] == 200
    bo.allocate([3, 1, 3])
    cy.allocate([1, 3, 3])
    box.reveal()
    box.next_round()
    # round 2 is the rule sheet's worked example: Middle Water, target 3
    until(phone, phone.get_by_role("heading", name="Middle Water"))
    ready(phone, (4, 1, 2))
    bo.allocate([3, 1, 3])
    cy.allocate([1, 3, 3])
    box.reveal()
    until(phone, phone.locator("#revealRows"))
    r1 = [sum(s) for s in tt.score_round(2, [[2, 2, 3], [3, 1, 3], [1, 3, 3]])]
    totals = [r1[0] + 8, r1[1] + 4, r1[2] + 3]
    expect(phone.locator("#revealHead")).to_have_text("Round 2: Middle Water, target 3")
    expect(phone.locator("#best li")).to_have_text(
        ["Beacon4largest", "Grove1smallest above 0", "Mooring3target"])
    rows = phone.locator("#revealRows > li")
    expect(rows).to_have_count(3)
    expect(rows.nth(0).locator(".rh")).to_have_text(
        re.compile(r"Ada \(you\)\s*\+8 points, total %d" % totals[0]))
    expect(rows.nth(0).locator("tr")).to_have_text([
        re.compile(r"Beacon\s*4 counters \u2192 6 points\s*sole largest"),
        re.compile(r"Grove\s*1 counter \u2192 1 point\s*tied smallest positive"),
        re.compile(r"Mooring\s*2 counters \u2192 1 point\s*one off"),
    ])
    expect(rows.nth(1).locator(".rh")).to_have_text(re.compile(r"Bo\s*\+4 points, total %d" % totals[1]))
    expect(rows.nth(1).locator("tr")).to_have_text([
        re.compile(r"Beacon\s*3 counters \u2192 0 points\s*no award"),
        re.compile(r"Grove\s*1 counter \u2192 1 point\s*tied smallest positive"),
        re.compile(r"Mooring\s*3 counters \u2192 3 points\s*exact target"),
    ])
    expect(rows.nth(2).locator(".rh")).to_have_text(re.compile(r"Cy\s*\+3 points, total %d" % totals[2]))
    expect(phone.locator("#status")).to_have_text(
        "You scored 8, total %d. The reader turns the next card on the box." % totals[0])
    screenshot(phone, "05_reveal")

    expected = [["1", "2", "2", "3", str(r1[0]), str(r1[0])], ["2", "4", "1", "2", "8", str(totals[0])]]
    expected += [[str(r), "", "", "", "", ""] for r in range(3, 7)]
    assert sheet_rows(phone) == expected
    expect(phone.locator("table.sheet thead th")).to_have_text(
        ["Round", "Beacon", "Grove", "Mooring", "Round points", "Running total"])

    with phone.expect_download() as info:
        phone.get_by_role("button", name="Save record (CSV)").click()
    download = info.value
    assert download.suggested_filename == "token-tide-Ada.csv"
    with open(download.path(), encoding="utf-8") as f:
        text = f.read()
    assert list(csv.reader(io.StringIO(text))) == [
        ["Round", "Beacon", "Grove", "Mooring", "Round points", "Running total"]] + expected[:2]

    # in the next round the reveal folds away under "Last reveal" and the sheet shows my hidden row
    box.next_round()
    until(phone, phone.get_by_role("heading", name="High Water"))
    expect(phone.locator("#revealHead")).to_have_text("Last reveal: Round 2: Middle Water, target 3")
    expect(phone.locator("#revealRows")).to_be_hidden()
    ready(phone, (1, 1, 5))
    assert sheet_rows(phone)[2] == ["3", "1", "1", "5", "", ""]


def test_practice_round_then_a_shared_victory(box, phone):
    join(phone, "Ada")
    bo = box.join("Bo")
    cy = box.join("Cy")
    box.start(deck=tt.DECK_SHORT, practice=True)
    until(phone, phone.get_by_text("Practice round (not scored)"))
    expect(phone.locator("#targetLine")).to_have_text("Mooring target 3")
    screenshot(phone, "03b_practice")
    ready(phone, (3, 2, 2))
    bo.allocate([3, 2, 2])
    cy.allocate([1, 3, 3])
    box.reveal()
    until(phone, phone.locator("#revealHead"))
    expect(phone.locator("#revealHead")).to_have_text("Practice round (not scored), target 3")
    expect(phone.locator("#revealRows > li").first.locator(".rh")).to_have_text(
        re.compile(r"Ada \(you\)\s*4 points \(practice\)"))
    assert all(row[4] == "" for row in sheet_rows(phone))
    box.next_round()
    until(phone, phone.get_by_text("Round 1 of 4"))
    token = token_of(phone)
    for _ in range(4):
        assert call(box.url, "/api/move",
                    {"move": "allocate", "args": {"allocation": [3, 2, 2]}}, token)[0] == 200
        bo.allocate([3, 2, 2])
        cy.allocate([1, 3, 3])
        box.reveal()
        box.next_round()
    until(phone, phone.locator("#final"))
    expect(phone.locator("#tide")).to_be_hidden()
    expect(phone.locator("#status")).to_have_text("Game over. You share the victory!")
    expect(phone.locator("#winners")).to_have_text("Winners, sharing the victory: Ada and Bo with 19 points")
    expect(phone.locator("#standings li")).to_have_text([
        "1. Ada (you): 19 points, winner", "1. Bo: 19 points, winner", "3. Cy: 6 points"])
    rows = sheet_rows(phone)
    assert [r[0] for r in rows] == ["1", "2", "3", "4"]
    assert [r[5] for r in rows] == ["6", "10", "13", "19"]
    expect(phone.get_by_role("button", name="Save record (CSV)")).to_be_enabled()
    expect(phone.get_by_role("button", name="Print")).to_be_enabled()
    expect(phone.locator("#alloc")).to_be_hidden()
    screenshot(phone, "06_over")


def test_the_reveal_follows_the_box_step_by_step(box, phone):
    """The phones show only what the box has shown: the winning amounts, then each island's awards,
    then the round's points, then the standings; the whole breakdown after the box's last step."""
    join(phone, "Ada")
    bo = box.join("Bo")
    cy = box.join("Cy")
    box.start(deck=tt.DECK_SHORT)
    until(phone, phone.locator("#tide"))
    expect(phone.locator("#h2")).to_have_text("the target, 2 counters: 3 points; 1 or 3 counters: 1 point")
    expect(phone.locator("#h0")).to_have_text("most counters: 6 points (tied: 2 points each)")
    ready(phone, (4, 1, 2))
    bo.allocate([3, 1, 3])
    cy.allocate([0, 5, 2])
    box.reveal(step=0)
    until(phone, phone.locator("#best"))
    rows = phone.locator("#revealRows > li")
    status = phone.locator("#status")
    expect(phone.locator("#best li")).to_have_text(
        ["Beacon4largest", "Grove1smallest above 0", "Mooring2target"])
    expect(status).to_have_text("The box reveals the round step by step: now the winning amounts.")
    expect(phone.locator("#revealRows")).to_be_hidden()
    expect(phone.locator("#revealStand")).to_be_hidden()
    # nothing of the round's scores anywhere on the page yet, the record sheet included (its row
    # keeps only this player's own numbers)
    assert sheet_rows(phone)[0] == ["1", "4", "1", "2", "", ""]
    assert "point" not in phone.locator("#reveal").inner_text()

    islands = (("Beacon", ["4 counters \u2192 6 points", "3 counters \u2192 0 points",
                           "0 counters \u2192 0 points"]),
               ("Grove", ["1 counter \u2192 1 point", "1 counter \u2192 1 point",
                          "5 counters \u2192 0 points"]),
               ("Mooring", ["2 counters \u2192 3 points", "3 counters \u2192 1 point",
                            "2 counters \u2192 3 points"]))
    for step in (1, 2, 3):
        box.step(step)
        until(phone, phone.locator("#revealRows"))
        expect(rows.first.locator("tr")).to_have_count(step)
        expect(status).to_have_text("The box reveals the round step by step: now who scores on %s."
                                    % islands[step - 1][0])
        for seat in range(3):
            expect(rows.nth(seat).locator("tr").last).to_contain_text(islands[step - 1][1][seat])
        expect(rows.first.locator(".pts")).to_have_count(0)  # no points before the box shows them
        assert sheet_rows(phone)[0] == ["1", "4", "1", "2", "", ""]
    box.step(4)
    nudge(phone)
    expect(status).to_have_text("You scored 10. The standings come next on the box.")
    expect(rows.nth(0).locator(".rh")).to_have_text(re.compile(r"Ada \(you\)\s*\+10 points$"))
    expect(phone.locator("#revealStand")).to_be_hidden()
    assert sheet_rows(phone)[0] == ["1", "4", "1", "2", "10", "10"]
    box.step(5)
    until(phone, phone.locator("#revealStand"))
    expect(phone.locator("#revealStandings li")).to_have_text(
        ["1. Ada (you): 10 points", "2. Cy: 3 points", "3. Bo: 2 points"])
    expect(rows.nth(0).locator(".rh")).to_have_text(re.compile(r"Ada \(you\)\s*\+10 points, total 10"))
    expect(status).to_have_text("You scored 10, total 10. The reader turns the next card on the box.")
    screenshot(phone, "05b_reveal_standings")


def test_during_the_stepped_reveal_the_record_sheet_keeps_my_row_and_its_points_follow_the_box(box, phone):
    """The round being revealed keeps this player's own allocation on the record sheet at every step
    (theirs to see all along); its points and running total come when the box shows the round's points,
    and the rounds before keep theirs."""
    join(phone, "Ada")
    bo = box.join("Bo")
    box.start(deck=tt.DECK_SHORT)
    until(phone, phone.locator("#tide"))
    ready(phone, (4, 1, 2))
    bo.allocate([3, 1, 3])
    box.reveal()
    box.next_round()
    until(phone, phone.get_by_text("Round 2 of 4"))
    ready(phone, (2, 2, 3))
    expect(phone.locator("#sheetRows tr.now")).to_have_count(1)
    assert sheet_rows(phone)[:2] == [["1", "4", "1", "2", "10", "10"], ["2", "2", "2", "3", "", ""]]
    bo.allocate([5, 0, 2])
    r2 = sum(tt.score_round(tt.TIDE_CARDS[1][2], [[2, 2, 3], [5, 0, 2]])[0])  # Middle Water, target 3
    box.reveal(step=0)
    until(phone, phone.locator("#best"))
    what = ("the winning amounts", "who scores on Beacon", "who scores on Grove", "who scores on Mooring")
    for step in range(4):
        if step:
            box.step(step)
            nudge(phone)
        expect(phone.locator("#status")).to_have_text(
            "The box reveals the round step by step: now %s." % what[step])
        expect(phone.locator("#sheetRows tr").nth(1).locator("td")).to_have_text(["2", "2", "3", "", ""])
        expect(phone.locator("#sheetRows tr.now")).to_have_count(1)
        assert sheet_rows(phone)[:3] == [["1", "4", "1", "2", "10", "10"], ["2", "2", "2", "3", "", ""],
                                         ["3", "", "", "", "", ""]]
    box.step(4)
    nudge(phone)
    expect(phone.locator("#sheetRows tr").nth(1).locator("td")).to_have_text(
        ["2", "2", "3", str(r2), str(10 + r2)])
    expect(phone.locator("#sheetRows tr.now")).to_have_count(0)
    assert sheet_rows(phone)[0] == ["1", "4", "1", "2", "10", "10"]


def test_after_the_last_round_the_phones_say_the_final_standings_come_next(box, phone):
    join(phone, "Ada")
    bo = box.join("Bo")
    box.start(deck=tt.DECK_SHORT)
    until(phone, phone.locator("#tide"))
    token = token_of(phone)
    for r in range(4):
        assert call(box.url, "/api/move",
                    {"move": "allocate", "args": {"allocation": [3, 2, 2]}}, token)[0] == 200
        bo.allocate([1, 3, 3])
        box.reveal()
        if r < 3:
            box.next_round()
    nudge(phone)
    expect(phone.locator("#status")).to_have_text(re.compile(
        r"^You scored \d+, total \d+\. "
        r"That was the last round: the reader shows the final standings on the box next\.$"))
    expect(phone.locator("#status")).not_to_contain_text("next card")


def test_the_chosen_games_part_comes_when_chosen_and_goes_when_the_game_changes(box, phone):
    """A phone fetches only the chosen game's part; when the reader changes the game, the old part's
    style, How to play and title are gone and the new game's part is fetched once; back again, the
    first part is used without fetching it again; after a reload only the chosen game's part is
    fetched, and the game plays."""
    def parts():
        return [line for line in box.traffic()["log"] if line.startswith("GET /part/")]

    def rule_of(selector):  # is a rule with this selector in the page's styles now?
        return phone.evaluate("""(sel) => [...document.styleSheets].some((sheet) =>
            [...sheet.cssRules].some((r) => r.selectorText === sel))""", selector)

    join(phone, "Ada")
    expect(phone.locator("#brand")).to_have_text("Token Tide")
    assert parts() == ["GET /part/token_tide.js"]
    assert rule_of(".isl label") and not rule_of(".qdacts button")
    box.choose("quiet_dividend")
    nudge(phone)
    expect(phone.locator("#brand")).to_have_text("The Quiet Dividend")
    expect(phone.locator("#lobbyMsg")).to_contain_text("The Quiet Dividend: the reader starts the game")
    expect(phone.locator("#rules")).to_contain_text("Three clubs pay points")
    expect(phone.locator("#rules")).not_to_contain_text("seven counters")
    assert parts() == ["GET /part/token_tide.js", "GET /part/quiet_dividend.js"]
    assert rule_of(".qdacts button") and not rule_of(".isl label")
    box.choose("token_tide")
    nudge(phone)
    expect(phone.locator("#brand")).to_have_text("Token Tide")
    expect(phone.locator("#rules")).to_contain_text("seven counters")
    assert rule_of(".isl label") and not rule_of(".qdacts button")
    assert len(parts()) == 2  # the page kept Token Tide's part
    phone.reload()
    expect(phone.locator("#brand")).to_have_text("Token Tide")
    box.join("Bo")
    box.start()
    nudge(phone)
    expect(phone.get_by_role("spinbutton", name="Beacon")).to_be_visible()
    assert rule_of(".isl label") and not rule_of(".qdacts button")
    assert parts()[2:] == ["GET /part/token_tide.js"]  # a reload asks for the chosen game's part, once
    ready(phone, [3, 1, 3])


BUSY = {"status": 503, "headers": {"Content-Type": "application/json", "Retry-After": "1"},
        "body": '{"error": "the box is busy for a moment: try again"}'}


def busy_for(page, times):
    """The box answers the next `times` moves with its 503 "busy" (it did nothing), then as itself."""
    left = [times]

    def answer(route):
        if left[0] > 0:
            left[0] -= 1
            route.fulfill(**BUSY)
        else:
            route.continue_()

    page.route("**/api/move", answer)
    return left


def test_a_move_the_box_was_too_busy_for_is_sent_again_by_the_page_and_said_only_if_it_stays_busy(box, phone):
    join(phone, "Ada")
    box.join("Bo")
    box.start()
    until(phone, phone.get_by_role("heading", name="Low Water"))
    left = busy_for(phone, 2)  # busy twice: the page's third try is taken, and the player sees no error
    ready(phone, (2, 3, 2))
    assert left[0] == 0
    expect(phone.locator("#allocErr")).to_have_text("")
    assert box.hidden()["locked"][0] is True
    phone.get_by_role("button", name="Change").click()
    expect(phone.get_by_role("button", name="Ready")).to_be_enabled()
    left = busy_for(phone, 99)  # busy for good: after three tries the player is told, and nothing moved
    phone.get_by_role("button", name="Ready").click()
    expect(phone.locator("#allocErr")).to_have_text("The box is busy for a moment: try again.")
    assert left[0] == 96
    assert box.hidden()["locked"][0] is False
