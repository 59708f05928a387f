"""Pearl Reach in headless Chromium against the real firmware: two phones at 320 px and two computer
rivals who move on the box by themselves play a whole game. The person whose turn it is sees exactly
the rules' legal placements and shifts glowing, a shell badge on every cell that would cost them one,
aims with a tap and places with "Place", shifts by tapping a marker then a neighbour; everyone sees whose
turn it is, a rival thinking, what happened in words; the game info holds every bay and the whole log.
The page says every kind of log entry word for word as the rules do."""

import json
import random

import pytest
from boxrig import BOARD_PACE_MS, BOX_HEAP, BoxProcess
from browser_firmware import firmware_tracebacks, join, wait_until
from page_fakebox import screenshot
from playwright.sync_api import expect
from test_pearl_reach_box import follow, let_rivals_move, saved
from test_pearl_reach_rules import SENTENCES
from test_pearl_reach_rules import game as new_game

from tidebox.games.pearl_reach import rules

pytest_plugins = ("page_fakebox", "browser_firmware")

pytestmark = pytest.mark.browser  # phones in a real browser

PEOPLE = ["Ada", "Bo"]
SE = (375, 667)  # an iPhone SE's viewport
SHAPES = ["filled square", "hollow square", "cross", "plus"]


@pytest.fixture
def fw_box(sim_tree, tmp_path):
    """The real firmware with Pearl Reach chosen, on the join screen, at the Pico's heap and pace."""
    box = BoxProcess(sim_tree, tmp_path / "state", pace_ms=BOARD_PACE_MS, heap=BOX_HEAP).start()
    assert box.choose("pearl_reach") == "join"
    yield box
    box.stop()
    stale = "NotNow: the game moved on before this arrived"  # microdot prints the refusal it answers
    assert [t for t in firmware_tracebacks(box) if stale not in t] == [], "the firmware logged errors"


def cell_button(page, c):
    return page.locator('#other button[data-cell="%d"]' % c)


def cell_label(model, seat, c):
    """The accessible name the page gives a cell, as the rules see it for `seat` on their turn."""
    bay, row, owner = rules.bay_of(c) + 1, rules.row_of(c) + 1, model["cells"][c]
    text = "Bay %d, row %d, " % (bay, row)
    if owner is not None:
        name = model["names"][owner]
        text += "your marker, " + name if owner == seat else name + "\u2019s marker"
        return text + " (%s)" % SHAPES[owner]
    text += "empty"
    if rules.land_cost(model, seat, c):
        text += ", costs a shell"
    return text


def stale_move(seq):
    """A route handler sending a move as if the phone had seen move count `seq`."""
    def handler(route):
        route.continue_(post_data=json.dumps(dict(json.loads(route.request.post_data), seq=seq)))
    return handler


def status(page):
    return page.locator("#other .status").first


def last_tide(model):
    return max(i for i, e in enumerate(model["log"]) if e & 15 >= rules.TIDE)


def tide_block(model):
    """What happened's block for the last tide, as the rules word its log entries: the heading (the tide's
    entry up to its colon), then each bay's payout, then every entry the tide logged after it."""
    log = model["log"]
    k = last_tide(model)
    head, bays = rules.entry_text(model, log[k]).split(": ", 1)
    after = k + 1
    while after < len(log) and log[after] & 15 in (rules.CARRIED, rules.SHELLS, rules.HAUL, rules.END):
        after += 1
    return head, bays.rstrip(".").split("; ") + [rules.entry_text(model, e) for e in log[k + 1:after]]


def test_two_phones_and_two_rivals_play_a_whole_game(sim, open_fw_phone, fw_box):
    phones = [open_fw_phone(width=320, height=640) for _ in PEOPLE]
    for page, name in zip(phones, PEOPLE):
        join(page, name)
    # the How to play with this edition's numbers, in the page's frame from joining on
    phones[0].locator("#rules summary").click()
    expect(phones[0].locator("#rules")).to_contain_text("This edition\u2019s numbers: 2-4 gatherers")
    tokens = [page.evaluate("localStorage.getItem('tidebox.token')") for page in phones]
    assert sim.press("C") == "setup"
    for button in ("B", "B", "A", "A", "B", "A"):  # 2 rivals, 1 s a move
        sim.press(button)
    sim.press("B", changes=False)  # Ada first (the setup line "First to set out" is cut before the name)
    assert sim.press("C") == "pr_board"
    model = rules.from_dict(saved(fw_box)["game"])
    rng = random.Random(11)
    seq = 0
    seen_thinking = shifted_once = refused_once = False
    while True:
        view = fw_box.state(tokens[0])
        seq += follow(model, view["game"]["log"])
        assert view["seq"] == seq
        if rules.is_over(model):
            break
        seat = rules.current(model)
        name = model["names"][seat]
        if model["rivals"][seat]:
            if not seen_thinking:  # with the reader's menu up the rival waits: the phones say it thinks
                assert sim.press("A") == "menu"
                for page in phones:
                    expect(status(page)).to_have_text(name + " (rival) is thinking\u2026")
                screenshot(phones[0], "pearl-reach-rival-thinking")
                assert sim.press("B") == "pr_board"
                seen_thinking = True
            let_rivals_move(fw_box, tokens, seq)
            continue
        me, other = phones[seat], phones[1 - seat]
        expect(status(me)).to_have_text("Your turn, " + name)
        expect(status(other)).to_have_text(name + "\u2019s turn")
        expect(me.locator("#other .pr-news li").last).to_have_text(rules.entry_text(model, model["log"][-1]))
        places = rules.placements(model, seat)
        sources = {frm for frm, _ in rules.shifts(model, seat)}
        costly = [c for c in range(rules.CELLS)
                  if model["cells"][c] is None and rules.land_cost(model, seat, c)]
        # exactly the legal placements and the markers that may shift glow; badges on the costly cells
        expect(me.locator("#other button.pr-glow")).to_have_count(len(places) + len(sources))
        for c, _ in places:
            expect(cell_button(me, c)).to_have_class("pr-c pr-glow")
        expect(me.locator("#other .pr-shell")).to_have_count(len(costly))
        expect(other.locator("#other button.pr-glow")).to_have_count(0)
        c = rng.randrange(rules.CELLS)
        expect(cell_button(me, c)).to_have_attribute("aria-label", cell_label(model, seat, c) + (
            (", you can place here" if (c, rules.land_cost(model, seat, c)) in places else "")
            if model["cells"][c] is None else (", tap to shift it" if c in sources else "")))
        moves = rules.legal_moves(model, seat)
        shifts = [m for m in moves if m["move"] == "shift"]
        if shifts and (not shifted_once or rng.random() < 0.2):
            m = rng.choice(shifts)
            frm, to = m["args"]["from"], m["args"]["to"]
            cell_button(me, frm).click()
            targets = {t for f, t in rules.shifts(model, seat) if f == frm}
            expect(me.locator("#other button.pr-glow")).to_have_count(len(targets) + 1)  # the marker too
            expect(cell_button(me, frm)).to_have_attribute("aria-pressed", "true")
            cell_button(me, to).click()
            if not shifted_once:
                screenshot(me, "pearl-reach-shift")
            me.get_by_role("button", name="\u2713 Shift (1 shell)").click()
            shifted_once = True
        else:
            m = rng.choice([m for m in moves if m["move"] == "place"])
            cell_button(me, m["args"]["cell"]).click()
            expect(cell_button(me, m["args"]["cell"])).to_have_attribute("aria-pressed", "true")
            place = me.get_by_role("button", name="\u2713 Place")
            if not refused_once and model["moves"] >= 2:
                # the game moved on meanwhile (a stale copy): the box says 409, the page shows it as it is
                me.route("**/api/move", stale_move(seq - 1))
                place.click()
                expect(me.locator("#other .err")).to_have_text("The game moved on: here it is as it is now.")
                me.unroute("**/api/move")
                assert fw_box.state(tokens[0])["seq"] == seq
                refused_once = True
                continue
            if model["moves"] == 5:
                screenshot(me, "pearl-reach-aim")
            place.click()
        wait_until(lambda seen=seq: fw_box.state(tokens[0])["seq"] > seen, "the box took the move")
    assert shifted_once and refused_once and seen_thinking
    won = rules.winners(model)
    for page in phones:
        expect(status(page)).to_have_text("Game over")
        expect(page.locator("#other .winners")).to_have_text(
            ("Shared win: " if len(won) > 1 else "Winner: ") + ", ".join(model["names"][i] for i in won))
        expect(page.locator("#other .standings li")).to_have_count(4)
        expect(page.locator("#other button.pr-glow")).to_have_count(0)
    page = phones[1]
    expect(page.get_by_text("How to play", exact=True)).to_have_count(1)  # the frame's, once
    expect(page.locator("#rules")).to_be_visible()
    # under what happened, all the last tide did: its payouts, then what it carried out and the end
    head, lines = tide_block(model)
    expect(page.locator("#other .pr-news h3")).to_have_text(head)
    expect(page.locator("#other .pr-tide li")).to_have_text(lines)
    # the sheet's "\u22ef -> Game info": every bay's tally and the full log
    page.get_by_role("button", name="\u22ef Menu", exact=True).click()
    page.get_by_role("button", name="Game info", exact=True).click()
    expect(page.locator("#other .pr-info table.sheet").first.locator("tbody tr")).to_have_count(rules.BAYS)
    said = [rules.entry_text(model, e) for e in model["log"]]
    expect(page.locator("#other .pr-info .pr-log li")).to_have_text(said)
    screenshot(page, "pearl-reach-over")
    # usable by touch at 320 px: nothing wider than the screen, cells at least 44 px each way
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    box = page.locator('#other button[data-cell="0"]').bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    wait_until(lambda: fw_box.screen() == "pr_final", "the box shows the final standings")
    # a new game at the same table from a phone, with the rivals' speed: the box follows
    ada = phones[0]
    expect(ada.get_by_role("button", name="1 s a move")).to_have_attribute("aria-pressed", "true")
    ada.get_by_role("button", name="4 s a move").click()
    expect(ada.get_by_role("button", name="4 s a move")).to_have_attribute("aria-pressed", "true")
    expect(ada.get_by_role("button", name="1 s a move")).to_have_attribute("aria-pressed", "false")
    screenshot(ada, "pearl-reach-new-game")
    assert ada.evaluate("document.documentElement.scrollWidth") <= 320
    ada.get_by_role("button", name="Start a new game").click()  # the phone asks first: nothing sent yet
    expect(ada.get_by_role("button", name="Yes, start a new game")).to_be_visible()
    assert fw_box.state(tokens[0])["box"] == "over" and fw_box.screen() == "pr_final"
    ada.get_by_role("button", name="Yes, start a new game").click()
    wait_until(lambda: fw_box.state(tokens[0])["box"] == "play", "the new game started")
    expect(phones[1].locator("#other .pr-by")).to_have_text("Ada started this game from a phone.")
    view = fw_box.state(tokens[0])
    assert view["seq"] == seq + 1 and view["game"]["speed"] == 4 and view["game"]["names"] == model["names"]
    again = rules.from_dict(saved(fw_box)["game"])
    assert rules.current(again) == 0 and not rules.is_over(again)  # the table's "Ada first" holds
    expect(status(ada)).to_have_text("Your turn, Ada")
    expect(status(phones[1])).to_have_text("Ada\u2019s turn")
    for page in phones:
        expect(page.get_by_role("button", name="Start a new game")).to_have_count(0)
    wait_until(lambda: fw_box.screen() == "pr_board", "the box shows the new coast")


def two_at_the_table(fw_box, open_fw_phone):
    """Ada on a phone the size of an iPhone SE (375x667), Bo on the API, no rivals, Ada first; returns
    (Ada's page, the tokens, the rules' copy of the game)."""
    ada = open_fw_phone(width=SE[0], height=SE[1])
    join(ada, "Ada")
    tokens = [ada.evaluate("localStorage.getItem('tidebox.token')"), fw_box.join("Bo")["token"]]
    assert fw_box.press("C") == "setup"
    fw_box.press("B")  # 1 rival -> no rivals
    for _ in range(3):
        fw_box.press("A")  # to the line "First to set out"
    fw_box.press("B")  # random -> Ada
    assert fw_box.press("C") == "pr_board"
    model = rules.from_dict(saved(fw_box)["game"])
    assert model["names"] == PEOPLE and rules.current(model) == 0
    expect(status(ada)).to_have_text("Your turn, Ada")
    return ada, tokens, model


def in_viewport(page, locator):
    box = locator.bounding_box()
    return (box is not None and box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= SE[0]
            and box["y"] + box["height"] <= SE[1])


def test_place_stays_in_view_after_tapping_a_low_cell(open_fw_phone, fw_box):
    # the sheet: "Tap a glowing cell to aim, then \u2713 Place", on a short phone too, with the tapped cell
    # at the very bottom of the screen (as when scrolling down just far enough to reach row 1)
    ada, tokens, _ = two_at_the_table(fw_box, open_fw_phone)
    place = ada.get_by_role("button", name="\u2713 Place", exact=True)
    for bay in range(rules.BAYS):
        c = rules.cell_of(bay, 0)
        cell = cell_button(ada, c)
        cell.evaluate("e => e.scrollIntoView({block: 'end'})")
        assert in_viewport(ada, cell)
        if bay:
            assert not in_viewport(ada, place), "the last aim's Place is below the fold again"
        box = cell.bounding_box()
        ada.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)  # no scrolling first
        expect(cell).to_have_attribute("aria-pressed", "true")
        expect(ada.locator("#other .pr-act p")).to_have_text("Place in bay %d, row 1, free." % (bay + 1))
        assert in_viewport(ada, place), "\u2713 Place is out of view: %r" % place.bounding_box()
        assert in_viewport(ada, cell), "the aimed cell scrolled out of view"
        if bay == 2:
            screenshot(ada, "pearl-reach-aim-low")
    place.click()
    wait_until(lambda: fw_box.state(tokens[0])["seq"] == 1, "the box took the move")
    assert fw_box.state(tokens[0])["game"]["bays"][rules.BAYS - 1]["cells"][0] == 0


def test_what_happened_shows_all_a_tide_did_in_game_info_words(open_fw_phone, fw_box):
    # after a tide, every marker it carried out is on the card with the payouts (not only in Game info)
    ada, tokens, model = two_at_the_table(fw_box, open_fw_phone)
    # Ada, Bo, Ada, ...: a marker in every bay at the tide, so it carries out five; bay 5 is a tie
    for seq, c in enumerate((0, 5, 1, 15, 10, 16, 20, 21)):
        seat = rules.current(model)
        fw_box.move(tokens[seat], "place", {"cell": c}, seq=seq)
        rules.move(model, seat, "place", {"cell": c})
    assert fw_box.state(tokens[0])["game"]["log"] == model["log"] and model["tide"] == 1
    carried = [rules.entry_text(model, e) for e in model["log"] if e & 15 == rules.CARRIED]
    assert len(carried) == rules.BAYS
    head, lines = tide_block(model)
    news = ada.locator("#other .pr-news")
    expect(news.locator("h3")).to_have_text(head)
    expect(news.locator(".pr-tide li")).to_have_text(lines)
    expect(news.locator(".pr-log")).to_have_count(0)  # nothing else since the tide
    shown = news.locator("li").all_inner_texts()
    # the same words as Game info's whole log: its line for the tide and every carry-out
    ada.get_by_role("button", name="\u22ef Menu", exact=True).click()
    ada.get_by_role("button", name="Game info", exact=True).click()
    said = ada.locator("#other .pr-info .pr-log li")
    expect(said).to_have_count(len(model["log"]))
    info = said.all_inner_texts()
    tide = info[last_tide(model)]
    assert tide == head + ": " + "; ".join(lines[:rules.BAYS]) + "."
    assert "(a pearl is worth 1)" in tide
    out = [line for line in info if line.startswith("The tide carried ")]
    assert out == carried and [line for line in out if line not in shown] == []
    screenshot(ada, "pearl-reach-after-a-tide")
    # the block stays until the next tide; the turns since come under it
    seat = rules.current(model)
    c = rules.placements(model, seat)[0][0]
    fw_box.move(tokens[seat], "place", {"cell": c}, seq=8)
    rules.move(model, seat, "place", {"cell": c})
    expect(news.locator(".pr-log li")).to_have_text([rules.entry_text(model, model["log"][-1])])
    expect(news.locator(".pr-tide li")).to_have_text(lines)


def test_the_page_says_every_log_entry_as_the_rules_do(phone):
    """page.js's formatter (run in the page) against rules.entry_text: every kind of entry, and the whole
    log of seeded games with people leaving and shells running out (splits, waits, shared wins)."""
    views, logs, words = [], [], []
    state = new_game(names=("Ada", "Bo", "Cy", "Di"))
    views.append(json.loads(json.dumps(rules.public_view(state))))
    logs.append([e for e, _ in SENTENCES])
    words.append([w for _, w in SENTENCES])
    for seed in range(12):
        rng = random.Random(seed)
        state = new_game(names=("Ada", "Bo", "Cy", "Di")[:2 + seed % 3], seed=seed + 1)
        state["pearls"] = rng.sample([3, 4, 4, 5, 5], 5)
        while not rules.is_over(state):
            seat = rules.current(state)
            if rng.random() < 0.03 and state["rivals"][seat] is None:
                rules.leave(state, seat)
            if rng.random() < 0.1 and not state["shifted"]:
                state["shells"][rng.randrange(len(state["names"]))] = 0
                rules._settle(state)
                continue
            move = rng.choice(rules.legal_moves(state, seat))
            rules.move(state, seat, move["move"], move["args"])
        views.append(json.loads(json.dumps(rules.public_view(state))))
        logs.append(state["log"])
        words.append([rules.entry_text(state, e) for e in state["log"]])
    assert {e & 15 for log in logs for e in log} == set(range(rules.TIDE + 3))
    # the fake box has Token Tide chosen: Pearl Reach's part is fetched as the page fetches a chosen game's
    said = phone.evaluate("""async ([views, logs]) => {
        const part = await Tidebox.need('pearl_reach');
        return views.map((g, i) => logs[i].map((e) => part.say(g, e)));
    }""", [views, logs])
    assert said == words



def test_the_menu_starts_a_new_game_with_another_rival_speed_during_a_game(sim, open_fw_phone, fw_box):
    # the sheet: "Rivals too quick or too slow? \u22ef -> New game -> Rival speed"
    phones = [open_fw_phone() for _ in PEOPLE]
    for page, name in zip(phones, PEOPLE):
        join(page, name)
    tokens = [page.evaluate("localStorage.getItem('tidebox.token')") for page in phones]
    assert sim.press("C") == "setup"
    sim.press("B")  # 1 rival -> no rivals
    sim.press("B")  # -> 2 rivals: Ada, Bo, Gull and Heron
    assert sim.press("C") == "pr_board"
    speed = fw_box.state(tokens[0])["game"]["speed"]
    bo = phones[1]
    bo.get_by_role("button", name="\u22ef Menu", exact=True).click()
    bo.get_by_role("button", name="New game", exact=True).click()
    pick = 4 if speed != 4 else 1
    bo.get_by_role("button", name="%d s a move" % pick, exact=True).click()
    bo.get_by_role("button", name="Start a new game", exact=True).click()
    expect(bo.locator("#other .pr-new .status")).to_contain_text("This game ends now, unfinished.")
    bo.get_by_role("button", name="Cancel", exact=True).click()  # asked, and declined: nothing sent
    assert fw_box.state(tokens[0])["game"]["speed"] == speed
    bo.get_by_role("button", name="Start a new game", exact=True).click()
    seq = fw_box.state(tokens[0])["seq"]
    bo.get_by_role("button", name="Yes, start a new game", exact=True).click()
    wait_until(lambda: fw_box.state(tokens[0])["seq"] > seq, "the new game started")
    view = fw_box.state(tokens[0])
    assert view["game"]["speed"] == pick and view["shown"] == {"new_game": 1}
    assert [e & 15 for e in view["game"]["log"]][:1] == [rules.FIRST]
    for page in phones:  # the table sees who asked
        expect(page.locator("#other .pr-by")).to_have_text("Bo started this game from a phone.")
