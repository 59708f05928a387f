"""Paper Current's part of the phones' page in headless Chromium, against the real firmware: the card,
"your boat", score entry from a phone and the harbour guide's drawing with its labels."""

import re
from pathlib import Path

import pytest
from browser_firmware import firmware_box, firmware_tracebacks, join, token_of
from playwright.sync_api import expect

from tidebox.games.paper_current import rules

pytest_plugins = ("page_fakebox", "browser_firmware")

PAGE_JS = Path(__file__).parent.parent / "firmware" / "tidebox" / "games" / "paper_current" / "page.js"


@pytest.fixture
def fw_box(sim_tree, tmp_path):
    """The real firmware with Paper Current chosen, on the join screen (overrides the shared one).
    Its log is read by the test itself, which accepts a refused request's traceback."""
    yield from firmware_box(sim_tree, tmp_path, "paper_current", clean_log=False)


def test_the_page_knows_the_rule_sheets_dimensions_and_safety_notes():
    js = PAGE_JS.read_text()
    table = js[js.index("var H = {"):js.index("};")]
    numbers = {k: int(v) for k, v in re.findall(r"(\w+): (\d+)", table)}
    h = rules.HARBOUR
    assert numbers == {
        "length": h["area"]["length"], "width": h["area"]["width"], "line": h["launch_line"],
        "zone": h["zone"]["width"], "offset": h["zone"]["x"]["right"], "outerW": h["outer"]["width"],
        "outerH": h["outer"]["height"], "beyond": h["outer"]["beyond_line"], "near": h["outer"]["near_edge"],
        "far": h["outer"]["far_edge"], "innerW": h["inner"]["width"], "innerH": h["inner"]["height"],
        "behind": h["clear_behind"], "boat": h["boat"]["width"],
    }
    for note in rules.SAFETY:
        assert "'" + note + "'" in js


def test_card_your_boat_score_entry_and_the_harbour_guide(fw_box, open_fw_phone):
    box = fw_box
    ada, bo = open_fw_phone(), open_fw_phone()
    join(ada, "Ada")
    join(bo, "Bo")
    assert box.press("C") == "setup"
    assert box.press("C") == "pc_card"
    g = box.state(token_of(ada))["game"]
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
                 "left", "centre", "right"):
        assert text in labels, text
    assert labels.count("10 cm") == 3
    assert svg.locator("rect").count() == 7  # lane, sheet, outer, inner, three zones
    expect(ada.locator("#other")).to_contain_text("the ruler is the authority")
    for note in rules.SAFETY:
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
    assert firmware_tracebacks(box) == [] or all("Refused" in t for t in firmware_tracebacks(box))
