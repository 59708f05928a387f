"""The Quiet Dividend on the table screen (/table, the part's `table` view) in headless Chromium at
1280x720, against the real firmware: three phones play a whole Seasonal game on the API while a
seatless table page follows it. At the start, after a turn, at the first payout (with its reset) and
at the end, the screen shows what the box's public view holds: the clubs' values, the laps and their
payouts, everyone's shares, payouts and points, whose turn it is, the latest payout and the latest
turns; it fits one screen and leaves the panel's corner free, at 1920x1080 too, and so does the fullest
table (eight 12-letter names, 8-letter clubs, a win shared by all). The table page never asks with a seat
token and never receives anything private: no seat's token, no seat's legal turns (the only private
part of a view in this game), no `you`."""

import json
import random
import time
from pathlib import Path

import pytest
from axe_audit import audit
from boxrig import BOARD_PACE_MS, BoxProcess
pytest_plugins = ("page_fakebox",)  # `browser`: Chromium (/usr/bin/chromium, --no-sandbox), one a session

pytestmark = pytest.mark.browser  # a table screen in a real browser

NAMES = ["Pat", "Mo", "Kit"]
SHOTS = Path(__file__).resolve().parents[3] / "build" / "screens" / "table"
LOG_LINES = 8  # the most turns page.js lists

# What the table screen shows of the game, read in one go.
READ_JS = """() => {
  const tv = document.querySelector('#game .tv-qd');
  if (!tv || document.getElementById('game').hidden) return null;
  const texts = (sel) => Array.from(tv.querySelectorAll(sel)).map((e) => e.textContent);
  const shown = (e) => !e.hidden && getComputedStyle(e).visibility !== 'hidden';
  return {
    turn: tv.querySelector('.tvq-turn').textContent,
    clubs: Array.from(tv.querySelectorAll('.tvq-club')).map((c) => [
      c.querySelector('.tvq-cname').textContent, c.querySelector('.tvq-val').textContent,
      c.querySelector('.tvq-held').textContent]),
    laps: Array.from(tv.querySelectorAll('.tvq-laps li')).map((l) => [l.textContent, l.className]),
    setup: tv.querySelector('.tvq-setup').textContent,
    heads: texts('.tvq-board thead th'),
    rows: Array.from(tv.querySelectorAll('.tvq-board tbody tr')).map((r) =>
      Array.from(r.children).map((c) => c.textContent).concat([r.className])),
    paid: shown(tv.querySelector('.tvq-paid')) ? [tv.querySelector('.tvq-paid h2').textContent]
      .concat(texts('.tvq-paid p')) : null,
    final: shown(tv.querySelector('.tvq-final')) ?
      Array.from(tv.querySelectorAll('.tvq-final li')).filter(shown).map((e) => e.textContent) : null,
    log: Array.from(tv.querySelectorAll('.tvq-log li')).filter(shown).map((e) => e.textContent),
  };
}"""

# Where the screen's boxes lie: the page does not scroll, the game's view is not cut off, and it
# keeps out of the bottom-right corner (27vw x 16vw), where the box's panel copy is.
LAYOUT_JS = """() => {
  const W = innerWidth, H = innerHeight, vw = W / 100;
  const corner = { left: W - 27 * vw, top: H - 16 * vw };
  const main = document.getElementById('main');
  const tv = document.querySelector('#game .tv-qd');
  const bad = [];
  const doc = document.scrollingElement;
  if (doc.scrollHeight > H + 1 || doc.scrollWidth > W + 1) bad.push('the page scrolls');
  if (main.scrollHeight > main.clientHeight + 1) bad.push('the main area is cut off');
  const mainBottom = main.getBoundingClientRect().bottom;
  const right = tv.querySelector('.tvq-right').getBoundingClientRect().toJSON();
  right.e = tv.querySelector('.tvq-right');
  tv.querySelectorAll('*').forEach((e) => {
    const r = e.getBoundingClientRect().toJSON();
    if (!r.width || !r.height || getComputedStyle(e).visibility === 'hidden') return;
    // what the right column cuts off at its foot is not on the screen
    if (e !== right.e && e.closest('.tvq-right')) r.bottom = Math.min(r.bottom, right.bottom);
    const where = (e.className || e.tagName) + ' ' + JSON.stringify(e.textContent.slice(0, 30));
    if (r.right > W + 1 || r.bottom > mainBottom + 1) bad.push('off the screen: ' + where);
    if (r.right > corner.left && r.bottom > corner.top) bad.push('in the panel corner: ' + where);
  });
  return bad;
}"""


def turn_text(g):
    return "%s\u2019s turn (lap %d of %d)" % (g["names"][g["turn"]], g["lap"], g["laps_total"])


def values_text(g, values):
    return ", ".join("%s %d" % (c, v) for c, v in zip(g["clubs"], values))


def and_list(names):
    return names[0] if len(names) < 2 else ", ".join(names[:-1]) + " and " + names[-1]


def expected(g):
    """What the table view should show of the public view `g` (its "game")."""
    names = g["names"]
    if g["over"]:
        won = ", ".join(names[i] for i in g["winners"])
        won = ("Shared win: " if len(g["winners"]) > 1 else "Winner: ") + won
        if len(won) > 40:  # a long line: the standings name them
            won = "Shared win: %d players" % len(g["winners"])
        turn = "Game over. " + won
    else:
        turn = turn_text(g)
    paid = {p["lap"]: p for p in g["payouts"]}
    clubs = []
    for k, club in enumerate(g["clubs"]):
        held = sum(s[k] for s in g["shares"])
        clubs.append([club, str(g["values"][k]), "%d %s held" % (held, "share" if held == 1 else "shares")])
    laps = []
    for lap in range(1, g["laps_total"] + 1):
        pays, done, now = lap in g["payout_laps"], lap <= g["laps"], not g["over"] and lap == g["lap"]
        note = ("paid" if done else "pays") if pays else ("now" if now else "")
        laps.append(("Lap %d" % lap + note, pays, done, now))
    heads = ["Player"] + g["clubs"] + [
        "Lap %d" % lap + ("/".join(map(str, paid[lap]["values"])) if lap in paid else "to come")
        for lap in g["payout_laps"]] + ["Points"]
    rows = []
    for i, name in enumerate(names):
        now = not g["over"] and i == g["turn"]
        first = ("\u25b6\u00a0" if now else "") + name + ("" if g["seated"][i] else " (left)")
        rows.append([first] + [str(n) for n in g["shares"][i]]
                    + [str(paid[lap]["amounts"][i]) if lap in paid else "\u2013" for lap in g["payout_laps"]]
                    + [str(g["totals"][i]), now])
    last = g["payouts"][-1] if g["payouts"] else None
    payout = None
    if last and not g["over"]:
        most = max(last["amounts"])
        best = and_list([n for n, a in zip(names, last["amounts"]) if a == most])
        payout = ["Payout after lap %d" % last["lap"], "Values " + values_text(g, last["values"]),
                  "Most paid: %s +%d" % (best, most)]
        if last["reset"]:
            payout.append("The values are now %s." % values_text(g, last["reset"]))
    final = None
    if g["over"]:
        final = ["%d. %s \u2013 %d point%s" % (r, names[i], p, "" if p == 1 else "s")
                 for r, i, p in g["standings"]]
    log = ["Lap %d: %s" % (e[0], e[2]) for e in reversed(g["log"])][:LOG_LINES] or ["No turns yet."]
    return {"turn": turn, "clubs": clubs, "laps": laps, "heads": heads, "rows": rows, "paid": payout,
            "final": final, "log": log}


def mismatches(shown, g):
    """How the table screen differs from the public view `g`: [] when it shows it all."""
    if shown is None:
        return ["the table view is not shown"]
    want = expected(g)
    bad = []
    for key in ("turn", "clubs", "final"):
        if shown[key] != want[key]:
            bad.append("%s: %r, expected %r" % (key, shown[key], want[key]))
    laps = [(text, "pay" in cls.split(), "done" in cls.split(), "now" in cls.split())
            for text, cls in shown["laps"]]
    if laps != want["laps"]:
        bad.append("laps: %r, expected %r" % (laps, want["laps"]))
    if shown["heads"] != want["heads"]:
        bad.append("heads: %r, expected %r" % (shown["heads"], want["heads"]))
    rows = [r[:-1] + ["now" in r[-1].split()] for r in shown["rows"]]
    if rows != want["rows"]:
        bad.append("rows: %r, expected %r" % (rows, want["rows"]))
    paid = shown["paid"] and [text for text in shown["paid"] if text]  # no reset: its line is empty
    if paid != want["paid"]:
        bad.append("payout: %r, expected %r" % (paid, want["paid"]))
    # the newest turns first, as many as fit
    log = shown["log"]
    if not log or log != want["log"][:len(log)]:
        bad.append("log: %r, expected the start of %r" % (log, want["log"]))
    if g["setup_name"] not in shown["setup"]:
        bad.append("setup: %r" % shown["setup"])
    return bad


def crowded(g, over):
    """The public view `g` (Seasonal, after its lap-4 payout or at the end) at the fullest table:
    eight players with 12-letter names, one of them gone, clubs with 8-letter names, and (at the end)
    a win shared by all."""
    names = ["W" * 11 + str(i) for i in range(8)]
    clubs = ["Harbours", "Lanterns", "Orchards"]
    paid = [dict(p, amounts=[10 + i for i in range(8)]) for p in g["payouts"]][:3 if over else 2]
    log = [[6 if over else 5, i, "%s switched %s to %s" % (names[i], clubs[0], clubs[2])] for i in range(8)]
    return dict(g, names=names, clubs=clubs, seated=[True] * 7 + [False], shares=[[2, 1, 1]] * 8,
                totals=[88] * 8, payouts=paid, log=log, over=over, turn=None if over else 6,
                laps=6 if over else 4, lap=6 if over else 5, winners=list(range(8)) if over else [],
                standings=[[1, i, 88] for i in range(8)] if over else [])


def test_the_table_screen_follows_a_whole_game(sim_tree, tmp_path, browser):
    box = BoxProcess(sim_tree, tmp_path / "state", pace_ms=BOARD_PACE_MS).start()
    SHOTS.mkdir(parents=True, exist_ok=True)
    received = []  # (url, text) of every answer the table page had from the box
    asked_with_token = []
    context = None
    try:
        assert box.choose("quiet_dividend") == "join"
        tokens = [box.join(name)["token"] for name in NAMES]
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))

        def on_request(req):
            if "x-seat-token" in req.headers:
                asked_with_token.append(req.url)

        def on_response(resp):
            if "/api/" in resp.url and "/api/panel" not in resp.url and "/api/codes" not in resp.url:
                try:
                    received.append((resp.url, resp.text()))
                except Exception as e:  # noqa: BLE001 - an answer cut off: recorded as such
                    received.append((resp.url, "<%s>" % e))
            elif "/part/" in resp.url:
                received.append((resp.url, ""))

        page.on("request", on_request)
        page.on("response", on_response)
        page.goto("http://127.0.0.1:%d/table" % box.port)
        page.wait_for_selector("#seats li")

        # Seasonal (its resets), Pat first
        assert box.press("C") == "setup"
        assert box.press("B") == "setup"
        assert box.press("B") == "setup"  # Steady -> Early Opening -> Seasonal
        assert box.press("A") == "setup"  # the first player's line
        assert box.press("B") == "setup"  # random -> Pat
        assert box.press("C") == "qd_board"

        def public():
            view = box.state()
            assert view["you"] is None and "legal" not in view["game"]
            return view["game"]

        def shows(state, g):
            """The table screen shows the public view g; checked, laid out, photographed."""
            deadline = time.monotonic() + 15
            while True:
                wrong = mismatches(page.evaluate(READ_JS), g)
                if not wrong:
                    break
                assert time.monotonic() < deadline, "the table screen at %s: %s" % (state, wrong)
                time.sleep(0.1)
            assert len(page.evaluate(READ_JS)["log"]) >= min(3, len(g["log"]))  # the latest turns, a few
            assert page.evaluate(LAYOUT_JS) == []
            text = page.inner_text("body")
            for token in tokens:
                assert token not in text
            assert "Confirm" not in text and page.locator("#game button").count() == 0
            audit(page, "The Quiet Dividend's table view: " + state)
            page.screenshot(path=str(SHOTS / ("quiet_dividend-%s.png" % state)))

        g = public()
        assert g["setup_name"] == "Seasonal" and g["turn"] == 0 and g["names"] == NAMES
        shows("start", g)

        rng = random.Random(11)
        turns = 0
        while not g["over"]:
            seat = g["turn"]
            mine = box.state(tokens[seat])
            legal = mine["game"]["legal"]
            assert legal and mine["game"]["your_turn"]
            # the seat's own choices are its phone's only: not on the table screen
            m = rng.choice(legal)
            box.move(tokens[seat], m["move"], m["args"], seq=mine["seq"])
            turns += 1
            g = public()
            if turns == 1:
                shows("turn", g)
            elif len(g["payouts"]) == 1 and g["log"][-1][0] == g["payouts"][0]["lap"]:
                assert g["payouts"][0]["reset"]  # Seasonal's first payout resets the values
                shows("payout", g)
            elif len(g["payouts"]) == 1 and len(g["log"]) == g["payouts"][0]["lap"] * len(NAMES) + 1:
                shows("next-lap", g)  # the payout's news gives way to the next lap's first turn
        assert turns == 6 * len(NAMES)
        shows("over", g)
        page.set_viewport_size({"width": 1920, "height": 1080})
        shows("over-1080p", g)
        # the largest table: eight long names, long club names, every line as long as it gets
        page.set_viewport_size({"width": 1280, "height": 720})
        for state, big in (("worst-play", crowded(g, over=False)), ("worst-over", crowded(g, over=True))):
            page.evaluate("s => Tidebox.games.quiet_dividend.table(s, document.getElementById('game'))",
                          {"game": big})
            audit(page, "The Quiet Dividend's table view: " + state)
            page.screenshot(path=str(SHOTS / ("quiet_dividend-%s.png" % state)))
            assert mismatches(page.evaluate(READ_JS), big) == [], state
            assert page.evaluate(LAYOUT_JS) == [], state
        assert errors == []
    finally:
        if context:
            context.close()
        box.stop()

    # Nothing private ever reached the table page: it asked without a seat, and no answer held a
    # token, a seat's legal turns or a `you`.
    assert asked_with_token == []
    assert any("/part/quiet_dividend.js" in url for url, _ in received)
    states = [(url, text) for url, text in received if "/api/state" in url]
    assert len(states) >= 5
    for url, text in received:
        for token in tokens:
            assert token not in text, url
    for url, text in states:
        view = json.loads(text)
        if "box" in view:
            assert view["you"] is None, url
            if view["game"] is not None:
                assert not {"legal", "your_turn"} & set(view["game"]), url
        assert '"legal"' not in text and '"your_turn"' not in text, url
    assert sum(1 for _, text in states if '"payout_laps"' in text) >= 4  # the game's views came
