"""Paper Current's part of the phones' page in headless Chromium, against the real firmware: the card,
"your boat", score entry from a phone and the harbour guide's drawing with its labels; a whole course
with three phones and the reader's buttons on /sim, a stale edit refused with the current results."""

import json
import re
from pathlib import Path

import pytest
from browser_firmware import firmware_box, firmware_tracebacks, join, token_of
from paper_current_sheet import HARBOUR, SAFETY
from playwright.sync_api import expect

from tidebox.games.paper_current import rules

pytest_plugins = ("page_fakebox", "browser_firmware")

PAGE_JS = Path(__file__).resolve().parents[3] / "firmware" / "tidebox" / "games" / "paper_current" / "page.js"


@pytest.fixture
def fw_box(sim_tree, tmp_path):
    """The real firmware with Paper Current chosen, on the join screen (overrides the shared one).
    Its log is read by the test itself, which accepts a refused request's traceback."""
    yield from firmware_box(sim_tree, tmp_path, "paper_current", clean_log=False)


def test_the_page_knows_the_rule_sheets_dimensions_and_safety_notes():
    js = PAGE_JS.read_text()
    table = js[js.index("var H = {"):js.index("};")]
    numbers = {k: int(v) for k, v in re.findall(r"(\w+): (\d+)", table)}
    h = HARBOUR
    assert numbers == {
        "length": h["area"]["length"], "width": h["area"]["width"], "line": h["launch_line"],
        "zone": h["zone"]["width"], "offset": h["zone"]["x"]["right"], "outerW": h["outer"]["width"],
        "outerH": h["outer"]["height"], "beyond": h["outer"]["beyond_line"], "near": h["outer"]["near_edge"],
        "far": h["outer"]["far_edge"], "innerW": h["inner"]["width"], "innerH": h["inner"]["height"],
        "behind": h["clear_behind"], "boat": h["boat"]["width"],
    }
    for note in SAFETY:
        assert "'" + note + "'" in js


@pytest.mark.browser
def test_card_your_boat_score_entry_and_the_harbour_guide(fw_box, open_fw_phone):
    box = fw_box
    ada, bo = open_fw_phone(), open_fw_phone()
    join(ada, "Ada")
    join(bo, "Bo")
    assert box.press("C") == "setup"
    for button in ("A", "A", "A", "B"):  # down to "Longer zone", switched on
        assert box.press(button) == "setup"
    assert box.press("C") == "pc_card"
    g = box.state(token_of(ada))["game"]
    assert [k for k, on in g["access"].items() if on] == ["long_zone"]
    for page in (ada, bo):  # the table's access adjustments, recorded for the game, on every phone
        expect(page.locator("#other")).to_contain_text(
            "Access adjustments for this game: longer release zone (set on the box before the first round).")
    card = g["card"]
    other = ada.locator("#other")
    expect(other.locator("h2").first).to_have_text("Round 1 of 3: " + card["name"])
    expect(other).to_contain_text("Launch zone: " + card["zone"])
    expect(other).to_contain_text("Bonus: " + card["bonus"])
    expect(ada.locator(".pc-you")).to_have_text("Your boat: 1, slide it now.")
    expect(bo.locator(".pc-you")).to_have_text("Your boat: 2 (next).")
    expect(bo.locator("#other")).to_contain_text("Your boats this round: 2, 4, 6, 8")
    # the harbour guide: an SVG with every dimension labelled, the ruler sentence, the safety notes
    ada.get_by_text("Build the harbour").click()
    svg = ada.locator("svg.pc-svg")
    expect(svg).to_be_visible()
    labels = svg.locator("text").all_text_contents()
    for text in ("lane 80 cm long", "lane 30 cm wide", "launch line 10 cm from the near end",
                 "OUTER / 1: 18 \u00d7 24 cm", "INNER / 2", "10 \u00d7 12 cm", "30 cm beyond the line",
                 "near edge 40 cm", "far edge 64 cm", "at least 10 cm clear behind the sheet",
                 "zone centres: centre line, 10 cm each side", "players sit here (near end)",
                 "boats about 3 cm wide", "left", "centre", "right"):
        assert text in labels, text
    assert labels.count("10 cm") == 3
    # every label lies wholly inside the drawing (none is cut off at its edges)
    clipped = svg.evaluate("""s => {
      var v = s.viewBox.baseVal, out = [];
      s.querySelectorAll('text').forEach(function (t) {
        var b = t.getBBox(), tr = t.transform.baseVal.consolidate(), p = s.createSVGPoint(), xs = [], ys = [];
        [[b.x, b.y], [b.x + b.width, b.y + b.height]].forEach(function (c) {
          p.x = c[0]; p.y = c[1];
          var q = tr ? p.matrixTransform(tr.matrix) : p;  // the rotated labels: their turned box
          xs.push(q.x); ys.push(q.y);
        });
        if (Math.min.apply(null, xs) < v.x || Math.max.apply(null, xs) > v.x + v.width ||
            Math.min.apply(null, ys) < v.y || Math.max.apply(null, ys) > v.y + v.height) {
          out.push(t.textContent);
        }
      });
      return out;
    }""")
    assert clipped == []
    assert svg.locator("rect").count() == 7  # lane, sheet, outer, inner, three zones
    expect(ada.locator("#other")).to_contain_text("the ruler is the authority")
    for note in SAFETY:
        expect(ada.locator("#other")).to_contain_text(note)
    ada.screenshot(path=str(Path(box.state_dir).parent / "pc-guide.png"), full_page=True)
    # eight launches on the box, then score entry on the phones
    while box.screen() == "pc_card":
        box.press("C")
    for _ in range(8):
        box.press("C")
    assert box.screen() == "pc_score"
    boat3 = bo.locator(".pc-boat").nth(2)
    expect(boat3).to_contain_text("Boat 3 (Ada)")
    boat3.get_by_role("button", name="1 outer").click()
    expect(ada.locator(".pc-boat").nth(2).get_by_role("button", name="1 outer")).to_have_attribute(
        "aria-pressed", "true")
    assert box.state(token_of(ada))["game"]["results"] == [None, None, 1, None, None, None, None, None]
    for i in range(8):
        ada.locator(".pc-boat").nth(i).get_by_role("button", name="2 inner").click()
        expect(ada.locator(".pc-boat").nth(i).get_by_role("button", name="2 inner")).to_have_attribute(
            "aria-pressed", "true")
    assert box.press("C") == "pc_round"
    total = rules.round_score(card["id"], [2] * 8)
    expect(bo.locator("#other")).to_contain_text("Total %d of 54, target 24" % total)
    expect(bo.locator("#other")).to_contain_text("Round 1 scored: %d of 18" % total)
    refusals = [t for t in firmware_tracebacks(box) if "GameError: " in t or "NotNow: " in t]
    assert firmware_tracebacks(box) == refusals


NAMES = ["Ada", "Bo", "Cy"]
FIRST = 1  # Bo starts: the setup's first line
TARGET = rules.TARGET_CHOICES[1][0]  # one B on the target line
ON_PHONES = 5  # boats 1-5 entered on the phones, 6-8 on the box
RESULTS = [2, 2, 2, 2, 2, 2, 1, 0]


def boat_button(page, boat, result):
    words = ("0 out", "1 outer", "2 inner")[result]
    return page.locator(".pc-boat").nth(boat - 1).get_by_role("button", name=words, exact=True)


def enter_result(page, boat, result):
    """A player taps a boat's result until the box holds it: a box that had no room for the move just
    then says "try again" under the boat (503, nothing changed), and the player taps again."""
    for _ in range(4):
        boat_button(page, boat, result).click()
        try:
            expect(boat_button(page, boat, result)).to_have_attribute("aria-pressed", "true", timeout=4000)
            return
        except AssertionError:
            note = page.locator(".pc-boat").nth(boat - 1).locator("xpath=following-sibling::*[1]")
            if "try again" not in (note.text_content() or "") and "try again" not in page.content():
                raise
    expect(boat_button(page, boat, result)).to_have_attribute("aria-pressed", "true")


def stale_edit(route):
    """A route handler sending a result as a phone would have from its copy made while the boat was
    still empty."""
    data = json.loads(route.request.post_data)
    data["args"]["was"] = None
    route.continue_(post_data=json.dumps(data))


@pytest.mark.browser
def test_three_phones_and_the_sim_buttons_play_a_whole_course(request, open_fw_phone, fw_box):
    box = fw_box
    phones = [open_fw_phone() for _ in NAMES]
    for page, name in zip(phones, NAMES):
        join(page, name)
    sim = request.getfixturevalue("sim")  # the /sim page (its OLED image reloads 4 times a second) from here
    token = token_of(phones[0])
    assert sim.press("C") == "setup"
    assert sim.press("B") == "setup"  # Starts: Ada -> Bo
    assert sim.press("A") == "setup"  # the target line
    assert sim.press("B") == "setup"  # 24 -> 27
    assert sim.press("C") == "pc_card"
    g = box.state(token)["game"]
    assert (g["first"], g["target"], g["order"][0]) == (FIRST, TARGET, FIRST)
    scores = []
    for rnd in range(rules.ROUNDS):
        card = box.state(token)["game"]["card"]
        for page in phones:
            expect(page.locator("#other h2").first).to_have_text(
                "Round %d of 3: %s" % (rnd + 1, card["name"]))
        screen = box.screen()
        while screen == "pc_card":  # the zone picture, then the bonus in words
            screen = sim.press("C")
        assert screen == "pc_launch"
        boat = 1
        went_back = rnd > 0  # once, in round 1
        while boat <= rules.BOATS:
            seat = rules.launcher(len(NAMES), FIRST, rnd * rules.BOATS + boat - 1)  # never restarts
            expect(phones[seat].locator(".pc-you")).to_have_text("Your boat: %d, slide it now." % boat)
            expect(phones[(seat + 1) % 3].locator("#other .status").first).to_have_text(
                "Boat %d of 8: %s launches." % (boat, NAMES[seat]))
            if boat == 4 and not went_back:
                assert sim.press("C", long=True) == "pc_launch"  # a long press goes back one
                went_back = True
                boat = 3
                continue
            screen = sim.press("C")
            boat += 1
        assert screen == "pc_score"
        for page in phones:
            expect(page.locator(".pc-boat")).to_have_count(8)
        for b in range(1, ON_PHONES + 1):
            page = phones[b % 3]
            enter_result(page, b, RESULTS[b - 1])
        if rnd == 0:
            # Cy's edit of boat 1 sent from the copy Cy had before the others' entries: refused,
            # the box's reason shown, and Cy's page shows the results as they are now
            cy = phones[2]
            cy.route("**/api/move", stale_edit)
            boat_button(cy, 1, 0).click()
            expect(cy.locator("#other .err")).to_have_text("Someone else just set boat 1 to 2 inner.")
            # the note is where Cy tapped: right under boat 1's buttons, not above the score entry
            row = cy.locator(".pc-boat").nth(0).bounding_box()
            note = cy.locator("#other .err").bounding_box()
            assert row["y"] + row["height"] <= note["y"] < row["y"] + row["height"] + 24, (row, note)
            assert cy.locator("#other .err").count() == 1
            expect(boat_button(cy, 1, 2)).to_have_attribute("aria-pressed", "true")
            cy.unroute("**/api/move")
            assert box.state(token)["game"]["results"][0] == 2
        # the rest on the box: C finds the first boat without a result, B sets it (inner, outer, out)
        assert sim.press("C") == "pc_score"
        for b in range(ON_PHONES + 1, rules.BOATS + 1):
            for _ in range({2: 1, 1: 2, 0: 3}[RESULTS[b - 1]]):
                assert sim.press("B") == "pc_score"
            if b < rules.BOATS:
                assert sim.press("A") == "pc_score"
        g = box.state(token)["game"]
        assert g["results"] == RESULTS
        for page in phones:
            expect(boat_button(page, 8, RESULTS[7])).to_have_attribute("aria-pressed", "true")
        scores.append(rules.round_score(card["id"], RESULTS))
        after = "pc_final" if rnd == rules.ROUNDS - 1 else "pc_round"
        assert sim.press("C") == after
        expect(phones[1].locator("#other")).to_contain_text(
            "Total %d of 54, target %d" % (sum(scores), TARGET))
        if after == "pc_round":
            expect(phones[0].locator("#other")).to_contain_text(
                "Round %d scored: %d of 18" % (rnd + 1, scores[-1]))
            assert sim.press("C") == "pc_card"
    # the end: the total out of 54 against the target, the three rounds listed on every phone
    total = sum(scores)
    g = box.state(token)["game"]
    assert g["over"] and g["total"] == total and g["round_scores"] == scores
    for page in phones:
        expect(page.locator("#other h2").first).to_have_text("Course over")
        expect(page.locator("#other")).to_contain_text("%d of 54: the target of %d is %s" % (
            total, TARGET, "reached" if total >= TARGET else "not reached"))
        expect(page.locator("#other ul.names li")).to_have_count(3)
        for i, r in enumerate(g["played"]):  # the score and what it is made of: "13: 11 points, bonus +2"
            expect(page.locator("#other ul.names li .tag").nth(i)).to_have_text(
                "%d: %d points, bonus +%d" % (r["score"], r["boats"], r["bonus"]))
    assert sim.press("C") == "pc_final"  # the three rounds (the cards' names whole: a page or two)
    screen = sim.press("C")
    if screen == "pc_final":
        screen = sim.press("C")
    assert screen == "pc_end"
    assert sim.press("C") == "confirm"  # a new course?
    assert sim.press("C") == "pc_card"
    g = box.state(token)["game"]
    assert (g["round"], g["total"], g["past"], g["target"]) == (1, 0, [total], TARGET)
    for page in phones:
        expect(page.locator("#other h2").first).to_have_text("Round 1 of 3: " + g["card"]["name"])
    stale = "NotNow: someone else just set boat 1 to 2 inner"  # microdot prints the refusal it answers
    assert [t for t in firmware_tracebacks(box) if stale not in t] == [], "the firmware logged errors"


def held_moves(page, held):
    """Holds the page's moves on their way to the box (a route each, in held[page]) until let go."""
    page.route("**/api/move", lambda route: held.setdefault(page, []).append(route))


@pytest.mark.browser
def test_two_phones_set_one_boat_at_once_and_the_later_is_told_the_boxs_reason(fw_box, open_fw_phone):
    """Ada and Bo set boat 1 from the same view (nothing entered yet), nearly at once: the box takes
    Ada's, which arrives first, and refuses Bo's, and Bo reads the box's reason under boat 1, as a
    sentence. A double tap on a result sends it once and says nothing."""
    box = fw_box
    ada, bo = open_fw_phone(traffic=True), open_fw_phone(traffic=True)
    join(ada, "Ada")
    join(bo, "Bo")
    assert box.press("C") == "setup"
    assert box.press("C") == "pc_card"
    while box.screen() == "pc_card":
        box.press("C")
    for _ in range(rules.BOATS):
        box.press("C")
    assert box.screen() == "pc_score"
    token = token_of(ada)
    for page in (ada, bo):
        expect(boat_button(page, 1, 2)).to_have_attribute("aria-pressed", "false")
    held = {}
    held_moves(ada, held)
    held_moves(bo, held)
    boat_button(ada, 1, 2).click()
    boat_button(bo, 1, 1).click()
    for _ in range(200):  # both on their way (a route's handler runs while Playwright is waiting)
        if len(held.get(ada, [])) == len(held.get(bo, [])) == 1:
            break
        ada.wait_for_timeout(25)
    assert [len(held.get(page, [])) for page in (ada, bo)] == [1, 1]
    held[ada][0].continue_()
    expect(boat_button(ada, 1, 2)).to_have_attribute("aria-pressed", "true")
    assert box.state(token)["game"]["results"][0] == 2
    held[bo][0].continue_()
    note = bo.locator(".pc-boat").nth(0).locator("xpath=following-sibling::*[1]")
    expect(note).to_have_text("Someone else just set boat 1 to 2 inner.")
    expect(boat_button(bo, 1, 2)).to_have_attribute("aria-pressed", "true")  # the game as it is now
    assert box.state(token)["game"]["results"][0] == 2
    expect(ada.locator("#other .err")).to_have_count(0)
    for page in (ada, bo):
        page.unroute("**/api/move")

    # a double tap: one move, and no note
    boat_button(bo, 2, 1).dblclick()
    expect(boat_button(ada, 2, 1)).to_have_attribute("aria-pressed", "true")
    expect(boat_button(bo, 2, 1)).to_have_attribute("aria-pressed", "true")
    bo.wait_for_timeout(1500)  # a second move would have been answered by now
    sent = [r[1] for r in bo.traffic.since(0) if "/api/move" in r[0]]
    assert sent == [409, 200]
    expect(bo.locator("#other .err")).to_have_count(0)
    assert box.state(token)["game"]["results"][:2] == [2, 1]
    stale = "NotNow: someone else just set boat 1 to 2 inner"  # microdot prints the refusal it answers
    assert [t for t in firmware_tracebacks(box) if stale not in t] == [], "the firmware logged errors"
