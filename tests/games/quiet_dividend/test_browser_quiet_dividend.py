"""The Quiet Dividend in headless Chromium against the real firmware: three phones and the reader's
buttons on /sim play a whole game. Only the player whose turn it is sees actions, exactly the rules'
legal moves by their accessible names; everyone sees the public record; results match the rules."""

import random

import pytest
from browser_firmware import firmware_box, join, wait_until
from page_fakebox import screenshot
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from tidebox.games.quiet_dividend import rules

pytest_plugins = ("page_fakebox", "browser_firmware")

pytestmark = pytest.mark.browser  # phones in a real browser

NAMES = ["Pat", "Mo", "Kit"]
# records the page's vibrations (headless Chromium has navigator.vibrate; WebKit has none)
BUZZ_JS = """() => {
  window.buzz = [];
  navigator.vibrate = function (ms) { window.buzz.push(ms); return true; };
}"""


@pytest.fixture
def fw_box(sim_tree, tmp_path):
    """The real firmware with The Quiet Dividend chosen, on the join screen."""
    yield from firmware_box(sim_tree, tmp_path, "quiet_dividend")


CHANGED = "The game changed before your turn was sent"
MOVED_ON = "The game moved on: here it is as it is now."


def pat_first(open_fw_phone, fw_box, names):
    """A phone (its traffic watched) for each of `names`, joined in order, and the game started from
    the box with the first of them, Pat, to play first. Returns the phones."""
    phones = [open_fw_phone(traffic=True) for _ in names]
    for page, name in zip(phones, names):
        join(page, name)
    assert fw_box.press("C") == "setup"
    fw_box.press("A")  # the first player line
    fw_box.press("B")  # random -> Pat
    assert fw_box.press("C") == "qd_board"
    return phones


def actions(page):
    return page.locator("#other .qdacts button")


def take(page, label):
    """Tap an action, then confirm it (a tap alone sends nothing). Should a poll bring a changed game
    between the two taps, the page drops the choice and says so: the player chooses again."""
    for _ in range(3):
        action = page.get_by_role("button", name=label, exact=True)
        action.click()
        try:
            expect(action).to_have_attribute("aria-pressed", "true")
            page.get_by_role("button", name="Confirm: " + label, exact=True).click()
            return
        except (AssertionError, PlaywrightTimeoutError):
            if not page.get_by_text(CHANGED).count():
                raise
    raise AssertionError("the game kept changing under a choice of " + label)


def test_three_phones_play_a_whole_game(sim, open_fw_phone, fw_box):
    phones = [open_fw_phone() for _ in NAMES]
    for page, name in zip(phones, NAMES):
        join(page, name)
        page.evaluate(BUZZ_JS)
    for page in phones:
        expect(page.locator("#seatsHead")).to_have_text("At the table: 3 players")
    assert sim.press("C") == "setup"
    assert sim.press("A") == "setup"  # the first player line
    assert sim.press("B") == "setup"  # random -> Pat
    assert sim.press("C") == "qd_board"

    state = rules.new_game(NAMES, {"setup": "steady", "first": 0})
    rng = random.Random(4)
    while not rules.is_over(state):
        seat = rules.current(state)
        legal = [m["label"] for m in rules.legal_moves(state, seat)]
        me = phones[seat]
        expect(me.locator("#other .qdturn .status")).to_contain_text("Your turn, " + NAMES[seat])
        expect(actions(me)).to_have_count(len(legal))
        for label in legal:  # each legal action by its accessible name, nothing else
            expect(me.get_by_role("button", name=label, exact=True)).to_be_visible()
        for other in phones:
            if other is not me:
                expect(other.locator("#other .status").first).to_have_text(
                    "%s\u2019s turn (lap %d of 6)" % (NAMES[seat], rules.lap(state)))
                expect(actions(other)).to_have_count(0)
        assert 200 in me.evaluate("window.buzz")  # the phone vibrated for its turn
        if rules.turns_taken(state) == 7:
            screenshot(me, "quiet-dividend-turn")  # build/screens/, to look at
            screenshot(phones[(seat + 1) % 3], "quiet-dividend-waiting")
        pick = rng.choice(rules.legal_moves(state, seat))
        take(me, pick["label"])
        rules.move(state, seat, pick["move"], pick["args"])
        if not rules.is_over(state):
            expect(actions(me)).to_have_count(0)
        turns = rules.turns_taken(state)
        for page in phones:  # the turn log and every share as the rules keep them
            expect(page.locator("#other ol.small li")).to_have_count(turns)
        expect(phones[0].locator("#other ol.small li").last).to_have_text(
            "Lap %d: %s" % (rules.log_entry(state["log"][-1])[0], rules.entry_text(state, state["log"][-1])))
        if state["laps"] in (2, 4) and state["pos"] == 0:
            wait_until(lambda: fw_box.screen() == "qd_payout", "the box shows the payout")
            assert sim.press("C") == "qd_board"
        rows = phones[1].locator("#other table.sheet").first.locator("tbody tr")
        for i in range(3):
            cells = [str(v) for v in state["shares"][i]] + [str(rules.totals(state)[i])]
            expect(rows.nth(i).locator("td")).to_have_text(cells)

    won = rules.winners(state)
    for page in phones:
        expect(page.locator("#other .status").first).to_have_text("Game over")
        expect(actions(page)).to_have_count(0)
        expect(page.locator("#other .winners")).to_have_text(
            ("Shared win: " if len(won) > 1 else "Winner: ") + ", ".join(NAMES[i] for i in won))
    screenshot(phones[0], "quiet-dividend-over")
    payouts = phones[2].locator("#other table.sheet").nth(1).locator("tbody tr")
    for i in range(3):
        expect(payouts.nth(i).locator("td")).to_have_text([str(p["amounts"][i]) for p in state["payouts"]])
    # the printable record sheet: a Print button, hidden on paper with every other button
    expect(phones[0].get_by_role("button", name="Print record sheet", exact=True)).to_be_enabled()
    phones[0].emulate_media(media="print")
    expect(phones[0].get_by_role("button", name="Print record sheet")).to_be_hidden()
    expect(phones[0].locator("#other table.sheet").first).to_be_visible()
    phones[0].emulate_media(media="screen")
    wait_until(lambda: fw_box.screen() == "qd_payout", "the box shows the last payout")
    assert sim.press("C") == "qd_final"


def test_a_tap_sends_nothing_until_it_is_confirmed_or_cancelled(sim, open_fw_phone, fw_box):
    phones = [open_fw_phone() for _ in NAMES]
    for page, name in zip(phones, NAMES):
        join(page, name)
    assert sim.press("C") == "setup"
    sim.press("A")
    sim.press("B")  # random -> Pat
    assert sim.press("C") == "qd_board"
    pat = phones[0]
    expect(pat.locator("#other .qdturn .status")).to_contain_text("Your turn, Pat")
    pat.get_by_role("button", name="Join A", exact=True).click()
    expect(pat.get_by_role("button", name="Confirm: Join A", exact=True)).to_be_visible()
    pat.get_by_role("button", name="Promote B to 2", exact=True).click()  # another: the choice moves
    expect(pat.get_by_role("button", name="Confirm: Join A", exact=True)).to_have_count(0)
    pat.get_by_role("button", name="Cancel", exact=True).click()
    expect(pat.get_by_role("button", name="Confirm: Promote B to 2", exact=True)).to_have_count(0)
    assert fw_box.state()["seq"] == 0 and fw_box.state()["game"]["turns"] == 0  # nothing was sent
    take(pat, "Join A")
    expect(phones[1].locator("#other .qdturn .status")).to_contain_text("Your turn, Mo")
    assert fw_box.state()["game"]["shares"][0] == [1, 0, 0]


def test_after_the_readers_undo_no_tap_is_refused_as_stale(open_fw_phone, fw_box):
    # At the board's pace, eight times: a phone takes a turn, the reader undoes it at once from the
    # box and the same player takes another. The next player's phone showed "Your turn" before the
    # undo and goes on showing it until its next poll: a tap there used to be sent on that view's seq
    # and refused as stale. Now the confirmed tap first asks whether the view is still the box's.
    phones = pat_first(open_fw_phone, fw_box, NAMES)
    state = rules.new_game(NAMES, {"setup": "steady", "first": 0})
    rng = random.Random(8)
    caught = 0
    for _ in range(8):
        seat = rules.current(state)
        me = phones[seat]
        expect(me.locator("#other .qdturn .status")).to_contain_text("Your turn, " + NAMES[seat])
        seq = fw_box.state()["seq"]
        while True:  # on a view the undo made stale the page shows the game anew: choose again
            take(me, rng.choice(rules.legal_moves(state, seat))["label"])
            def taken_or_shown_anew(me=me, seq=seq):
                return fw_box.state()["seq"] > seq or me.get_by_text(CHANGED).count()

            if wait_until(taken_or_shown_anew, "the turn is taken or the page shows the game anew") is True:
                break
            caught += 1  # the note goes with the next tap, which draws the view again
        assert fw_box.state()["seq"] == seq + 1
        assert fw_box.press("A") == "menu"  # Drop player, Rejoin code, Enter turn, Undo last turn
        for _ in range(3):
            fw_box.press("A")
        assert fw_box.press("C") == "confirm"
        assert fw_box.press("C") in ("qd_board", "qd_payout")
        if fw_box.screen() == "qd_payout":
            assert fw_box.press("C") == "qd_board"
        expect(me.locator("#other .qdturn .status")).to_contain_text("Your turn, " + NAMES[seat])
        pick = rng.choice(rules.legal_moves(state, seat))
        take(me, pick["label"])
        rules.move(state, seat, pick["move"], pick["args"])
        wait_until(lambda: len(fw_box.state()["game"]["log"]) == rules.turns_taken(state),
                   "the box took the turn taken after the undo")
        if fw_box.screen() == "qd_payout":
            assert fw_box.press("C") == "qd_board"
    for page in phones:
        refused = [r for r in page.traffic.since(0) if "/api/move" in r[0] and r[1] != 200]
        assert refused == []
    print("stale views caught before a move was sent:", caught)


SEASONAL = ("Setup: Seasonal. Starts A 1, B 2, C 3; pays after laps 2, 4 and 6; after the lap 2 payout the"
            " values become A 3, B 1, C 2; after the lap 4 payout the values become A 2, B 3, C 1.")


def test_the_setup_in_play_and_its_resets_are_public_on_every_phone(open_fw_phone, fw_box):
    # the sheet: "write its initial values and payout schedule where everyone can see them"
    phones = [open_fw_phone() for _ in NAMES]
    for page, name in zip(phones, NAMES):
        join(page, name)
    assert fw_box.press("C") == "setup"
    fw_box.press("B")  # Steady -> Early Opening
    fw_box.press("B")  # -> Seasonal
    assert fw_box.press("C") == "qd_board"
    for page in phones:
        expect(page.locator("#other .qdsetup")).to_have_text(SEASONAL)
        page.locator("#rules summary").click()  # How to play: every setup with its resets
        expect(page.locator("#rules")).to_contain_text(
            "Seasonal starts A 1, B 2, C 3 and pays after laps 2, 4 and 6; after the lap 2 payout the values"
            " become A 3, B 1, C 2, after the lap 4 payout A 2, B 3, C 1.")
    expect(phones[0].locator("#other h2").first).to_have_text("The Quiet Dividend \u2013 Seasonal")


# A move sent from the page on the view numbered seq, once or twice at once: [status, what the player
# is shown] for each.
ONCE_JS = """([name, args, seq]) => window.Tidebox.move(name, args, seq).then((r) => [r.status, r.say])"""
TWICE_JS = """([name, args, seq]) => Promise.all([0, 1].map(
  () => window.Tidebox.move(name, args, seq).then((r) => [r.status, r.say])))"""


def test_a_double_tap_on_confirm_makes_the_move_once_and_never_says_the_game_moved_on(
        open_fw_phone, fw_box):
    """Two quick taps on Confirm take the turn once, and nothing says the game moved on: the second
    tap finds the button off while the turn is on its way. Should a repeat reach the box all the same,
    its refusal is this phone's own move already made and says nothing. A move the rules refuse says
    the box's reason, and one sent on a view someone else's turn made stale, that the game moved on."""
    phones = pat_first(open_fw_phone, fw_box, NAMES[:2])
    pat, mo = phones
    expect(pat.locator("#other .qdturn .status")).to_contain_text("Your turn, Pat")
    pat.get_by_role("button", name="Join A", exact=True).click()
    pat.get_by_role("button", name="Confirm: Join A", exact=True).dblclick()
    expect(mo.locator("#other .qdturn .status")).to_contain_text("Your turn, Mo")
    for page in phones:
        expect(page.locator("#other ol.small li")).to_have_text(["Lap 1: Pat joined A"])
    expect(pat.locator("#other .status").first).to_have_text("Mo\u2019s turn (lap 1 of 6)")
    pat.wait_for_timeout(1500)  # a second move would have been answered by now
    sent = [r for r in pat.traffic.since(0) if "/api/move" in r[0]]
    assert [r[1] for r in sent] == [200]
    expect(pat.locator("#other .err")).to_have_text("")
    assert fw_box.state()["game"]["shares"][0] == [1, 0, 0]

    # a repeat that reaches the box: taken once, and the refusal of the second says nothing
    seq = fw_box.state()["seq"]
    assert mo.evaluate(TWICE_JS, ["join", {"club": "B"}, seq]) == [[200, ""], [409, ""]]
    expect(pat.locator("#other .qdturn .status")).to_contain_text("Your turn, Pat")
    expect(mo.locator("#other .err")).to_have_text("")
    assert fw_box.state()["game"]["shares"][1] == [0, 1, 0] and fw_box.state()["seq"] == seq + 1
    # a move the rules refuse: the box's reason, as a sentence
    assert mo.evaluate(ONCE_JS, ["join", {"club": "C"}, seq + 1]) == [409, "It is Pat's turn."]
    # a move sent on a view someone else's turn made stale: the game moved on, and the page says so
    pat.get_by_role("button", name="Join A", exact=True).click()
    pat.get_by_role("button", name="Confirm: Join A", exact=True).click()
    expect(mo.locator("#other .qdturn .status")).to_contain_text("Your turn, Mo")
    assert mo.evaluate(ONCE_JS, ["join", {"club": "C"}, seq + 1]) == [409, MOVED_ON]
    assert fw_box.state()["game"]["shares"][1] == [0, 1, 0]
