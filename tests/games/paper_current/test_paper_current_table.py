"""Paper Current on the table screen (/table) in headless Chromium, against the real firmware: three
players on the API, the reader's buttons on /sim, a whole course. At each state the big screen is read
against the box's public view (the card, its zone and bonus, the launch order with each boat's result,
whether the bonus holds, the course against the target), stays within one 16:9 screen with the panel's
corner free, and never shows, nor receives, the course cards still face down or anything private."""

import json
import random
from pathlib import Path

import pytest
from axe_audit import audit
from boxrig import BoxProcess
from playwright.sync_api import expect

from tidebox.games.paper_current import rules

pytest_plugins = ("page_fakebox",)  # `browser`: Chromium (/usr/bin/chromium, --no-sandbox), one a session

pytestmark = pytest.mark.browser  # the table screen in a real browser

SCREENS = Path(__file__).resolve().parents[3] / "build" / "screens" / "table"
WORDS = ["0 out", "1 outer", "2 inner"]
# One name is markup: the screen shows it as text, never as a tag.
NAMES = ["Ada", "<b>Bo</b>", "Cyrillanne"]


def boats_line(boats, bonus):
    """The phone's (and the box's) words for a round's points: "10 points, bonus +2"."""
    return "%d %s, bonus +%d" % (boats, "point" if boats == 1 else "points", bonus)


def card_words(card_id):
    """What would give a face-down card away: its name and its bonus in the rule sheet's words."""
    card = rules.card_info(card_id)
    return [card["name"], card["bonus"]]


@pytest.fixture
def pc_box(sim_tree, tmp_path):
    """The real firmware with Paper Current chosen, on its join screen."""
    box = BoxProcess(sim_tree, tmp_path / "state").start()
    assert box.choose("paper_current") == "join"
    yield box
    box.stop()


@pytest.fixture
def screen_page(browser):
    """A page at 1280x720 in a fresh context of the session's Chromium."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 720})
    yield ctx.new_page()
    ctx.close()


class Screen:
    """The table page, and every answer it received from the box (as text)."""

    def __init__(self, page):
        self.page = page
        self.seen = []  # (url, body) of every response, in order
        self.errors = []
        page.on("response", self.heard)
        page.on("pageerror", lambda e: self.errors.append(str(e)))

    def heard(self, response):
        try:
            body = response.body()
        except Exception:  # a response whose body is gone (a redirect, a cancelled request)
            body = b""
        self.seen.append((response.url, response.request.headers, body.decode("latin-1")))

    def text(self):
        return self.page.locator("body").inner_text()

    def game(self):
        return self.page.locator("#game .tv-pc")

    def shot(self, state):
        SCREENS.mkdir(parents=True, exist_ok=True)
        audit(self.page, "Paper Current's table view: " + state)
        self.page.screenshot(path=str(SCREENS / ("paper_current-%s.png" % state)))

    def states(self):
        """The game views in the /api/state answers received so far."""
        out = []
        for url, _, body in self.seen:
            if "/api/state" in url and body.startswith("{"):
                out.append(json.loads(body))
        return out


def fits(screen):
    """One screen, no scrolling, and nothing of the game's view in the panel's corner (27vw x 16vw)."""
    page = screen.page
    box = page.evaluate("""() => {
        const d = document.documentElement, w = innerWidth, h = innerHeight;
        const corner = { x: w - 0.27 * w, y: h - 0.16 * w };
        const bad = [];
        for (const e of document.querySelectorAll('#game *')) {
            if (e.children.length || !e.textContent.trim()) continue;  // the leaves that show text
            const r = e.getBoundingClientRect();
            if (!r.width || !r.height) continue;
            const off = r.right > w + 0.5 || r.bottom > h + 0.5 || r.left < 0 || r.top < 0;
            if (off) bad.push('off: ' + e.textContent);
            if (r.right > corner.x && r.bottom > corner.y) bad.push('corner: ' + e.textContent);
        }
        return { bad: bad, sh: d.scrollHeight, sw: d.scrollWidth, h: h, w: w };
    }""")
    assert box["bad"] == [], box["bad"]
    assert box["sh"] <= box["h"] and box["sw"] <= box["w"], box


def check(screen, g, state):
    """The table screen shows the public view `g` (the box's /api/state game, seatless)."""
    view = screen.game()
    card = g["card"]
    expect(view.locator(".pc-kick")).to_have_text(
        "Course over" if g["over"] else "Round %d of %d" % (g["round"], g["rounds"]))
    expect(view.locator(".pc-name")).to_have_text(card["name"])
    expect(view.locator(".pc-here")).to_have_text(card["zone"])
    expect(view.locator(".pc-bonus")).to_contain_text("Bonus: " + card["bonus"])
    # the launch order: boat n, its launcher's name (as text), its result or where its launch is
    tiles = view.locator(".pc-b")
    expect(tiles).to_have_count(8)
    for i in range(8):
        r = g["results"][i]
        expect(tiles.nth(i).locator(".pc-bn")).to_have_text("Boat %d" % (i + 1))
        expect(tiles.nth(i).locator(".pc-who")).to_have_text(g["names"][g["order"][i]])
        if r is not None:
            shown = WORDS[r]
        elif g["phase"] == "launch":
            shown = "launched" if i + 1 < g["boat"] else "launching" if i + 1 == g["boat"] else "to come"
        else:
            shown = "not entered"
        expect(tiles.nth(i).locator(".pc-res")).to_have_text(shown)
    if g["phase"] == "launch":
        expect(view.locator(".pc-st")).to_have_text(
            "Boat %d of 8: %s launches." % (g["boat"], g["launcher_name"]))
        expect(view.locator(".pc-now .pc-bn")).to_have_text("Boat %d" % g["boat"])
        expect(view.locator(".pc-gone")).to_have_count(g["boat"] - 1)
    elif g["phase"] == "score":
        bonus = 2 if g["bonus_holds"] else 0
        expect(view.locator(".pc-st")).to_have_text("Where did each boat stop? %d of 8 entered, so far %s."
                                                    % (g["entered"], boats_line(g["so_far"], bonus)))
        expect(view.locator(".pc-bonus")).to_contain_text(
            "Holds so far: +2." if g["bonus_holds"] else "Not yet: +0 so far.")
    elif g["phase"] == "scored":
        last = g["played"][-1]
        expect(view.locator(".pc-st")).to_have_text(
            "Round %d scored: %d of 18 (%s). The reader turns to the next round."
            % (last["n"], last["score"], boats_line(last["boats"], last["bonus"])))
        expect(view.locator(".pc-bonus")).to_contain_text("This round: +%d." % last["bonus"])
    else:
        end = "is reached. Well docked!" if g["reached"] else "is not reached."
        expect(view.locator(".pc-st")).to_have_text(
            "%d of %d: the target of %d %s" % (g["total"], g["max_total"], g["target"], end))
    # the course against the target, and each round: scored, playing or face down
    expect(view.locator(".pc-total")).to_have_text("Total %d of %d" % (g["total"], g["max_total"]))
    more = g["target"] - g["total"]
    expect(view.locator(".pc-aim")).to_have_text(
        "Target %d: %s" % (g["target"], "%d %s to go" % (more, "point" if more == 1 else "points") if more > 0
                           else "reached"))
    rows = view.locator(".pc-rounds li")
    for k in range(g["rounds"]):
        if k < len(g["played"]):
            r = g["played"][k]
            expect(rows.nth(k)).to_have_text("Round %d: %s%d: %s" % (k + 1, r["name"], r["score"],
                                                                     boats_line(r["boats"], r["bonus"])))
        elif k + 1 == g["round"]:
            expect(rows.nth(k)).to_have_text("Round %d: %splaying" % (k + 1, card["name"]))
        else:
            expect(rows.nth(k)).to_have_text("Round %d: card face down" % (k + 1))
    screen.shot(state)
    fits(screen)


def test_the_table_screen_follows_a_whole_course(pc_box, screen_page):
    box, page = pc_box, screen_page
    rng = random.Random(7)
    tokens = [box.join(n)["token"] for n in NAMES]
    screen = Screen(page)
    page.goto("http://127.0.0.1:%d/table" % box.port)
    expect(page.locator("#seats")).to_contain_text("Cyrillanne")
    assert box.press("C") == "setup"
    assert box.press("C") == "pc_card"  # the default options: Ada starts, target 24
    # the course as the box keeps it (its saved game), to know the cards that are still face down
    course = json.loads((Path(box.state_dir) / "game.json").read_text())["game"]["course"]

    g = box.state()["game"]
    expect(page.locator("#game")).to_be_visible()
    check(screen, g, "card")
    assert "<b>Bo</b>" in screen.text()  # a name that is markup, shown as its text

    played = []
    for rnd in range(3):
        while box.screen() == "pc_card":  # the card's picture, then its bonus
            box.press("C")
        for _ in range(3):
            box.press("C")
        g = box.state()["game"]
        assert g["phase"] == "launch" and g["boat"] == 4
        check(screen, g, "launch" if rnd == 0 else "launch-%d" % (rnd + 1))
        for _ in range(5):
            screen_name = box.press("C")
        assert screen_name == "pc_score"
        seq = box.state(tokens[0])["seq"]
        results = [rng.choice((0, 1, 1, 2)) for _ in range(8)]
        for boat in range(1, 9):
            args = {"boat": boat, "result": results[boat - 1], "was": None}
            box.move(tokens[boat % 3], "set_result", args, seq)
            seq += 1
            if boat == 5 and rnd == 0:  # results as they are entered
                g = box.state()["game"]
                assert g["entered"] == 5
                check(screen, g, "score")
        g = box.state()["game"]
        assert g["results"] == results
        check(screen, g, "entered" if rnd == 0 else "entered-%d" % (rnd + 1))
        played.append(g["card"]["id"])
        assert box.press("C") in ("pc_round", "pc_final")  # the round confirmed
        g = box.state()["game"]
        assert g["played"][-1]["results"] == results
        assert g["played"][-1]["score"] == rules.round_score(played[-1], results)
        check(screen, g, "scored" if rnd == 0 else ("over" if g["over"] else "scored-%d" % (rnd + 1)))
        # the cards still face down were never on the screen nor in anything it was sent
        hidden = [w for c in course[rnd + 1:] for w in card_words(c)]
        heard = "\n".join(body for _, _, body in screen.seen)
        for w in hidden:
            assert w not in heard and w not in screen.text(), w
        if rnd < 2:
            assert box.press("C") == "pc_card"  # the next round's card is turned
            g = box.state()["game"]
            assert g["round"] == rnd + 2 and g["card"]["id"] not in played
            assert g["card"]["id"] == course[rnd + 1]
            check(screen, g, "round-%d" % (rnd + 2))
    assert g["over"] and g["total"] == sum(r["score"] for r in g["played"])

    # the longest texts the view can hold still fit the screen: eight names of twelve wide letters,
    # the longest bonus, results being entered (the over view's own, redrawn by the part itself)
    worst = max(range(len(rules.COURSE_CARDS)), key=lambda i: len(rules.BONUS_WORDS[i]))
    big = dict(g, names=["W" * 11 + str(i) for i in range(8)], seated=[True] * 8, order=list(range(8)),
               card=rules.card_info(rules.COURSE_CARDS[worst][0]), phase="score", over=False, round=3,
               entered=7, results=[2, 1, 0, 2, 1, 2, 1, None], so_far=9, bonus_holds=True,
               played=g["played"][:2],
               total=g["played"][0]["score"] + g["played"][1]["score"])
    page.evaluate("v => Tidebox.games.paper_current.table(v, document.getElementById('game'))",
                  dict(box.state(), game=big))
    check(screen, big, "worst")

    # nothing private ever came to the table screen: it sent no seat token, every view it received
    # was a seatless one holding only the game's public view, and no phone's token was in any answer
    for url, headers, _ in screen.seen:
        assert not any(k.lower() == "x-seat-token" for k in headers), url
    states = [s for s in screen.states() if "box" in s]
    assert states and all(s["you"] is None for s in states)
    public = set(rules.public_view(rules.new_game(NAMES, below=lambda n: 0)))
    for s in states:
        if s.get("kind") == "paper_current" and isinstance(s.get("game"), dict) and s["game"]:
            assert set(s["game"]) <= public, set(s["game"]) - public
    heard = "\n".join(body for _, _, body in screen.seen)
    for token in tokens:
        assert token not in heard
    assert screen.errors == []
