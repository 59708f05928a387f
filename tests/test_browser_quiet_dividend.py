"""The Quiet Dividend in headless Chromium against the real firmware: three phones and the reader's
buttons on /sim play a whole game. Only the player whose turn it is sees actions, exactly the rules'
legal moves by their accessible names; everyone sees the public record; results match the rules."""

import random

import pytest
from browser_firmware import firmware_box, join, wait_until
from page_fakebox import screenshot
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


def actions(page):
    return page.locator("#other .qdacts button")


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
        me.get_by_role("button", name=pick["label"], exact=True).click()
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
