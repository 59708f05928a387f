"""Token Tide on the table screen (/table, page.js `table`) in Chromium, against the real firmware: the
phones play on the API, the reader presses the box's buttons, and a seatless table page follows. It
shows the tide card, the round, the countdown, who is ready (names only), the stepped reveal exactly as
far as the box has gone, and the standings, ranked; what it should show is read from the box's public
view, not written here. Before a reveal no player's hidden allocation is in the page's text nor in any
answer the page received. Each state is saved as build/screens/table/token_tide-<state>.png.
"""

import json
import math
import random
import re
from pathlib import Path

import pytest
from axe_audit import audit
from boxrig import BoxProcess
from phone_flow import norm, reader_starts, reader_turns_card, wait_until

# Chromium (/usr/bin/chromium, --no-sandbox) through the session's one Playwright (page_fakebox's
# `browser`): a second sync_playwright() in a session that already runs one is refused.
pytest_plugins = ("page_fakebox",)

pytestmark = pytest.mark.browser  # a table screen in a real browser

ROOT = Path(__file__).resolve().parents[3]
SHOTS = ROOT / "build" / "screens" / "table"
ISLANDS = ["Beacon", "Grove", "Mooring"]
NAMES = ["Ada", "Bartholomew", "Cy", "Dagny", "Esperanza", "Fu", "Gwendolyn", "Hal"]


def counters(n):
    return "%d counter%s" % (n, "" if n == 1 else "s")


def pts(n):
    return "%d point%s" % (n, "" if n == 1 else "s")


def ranked(totals):
    """The box's ranking: tied totals share a rank, ties keep seat order."""
    rows = []
    for place, seat in enumerate(sorted(range(len(totals)), key=lambda i: (-totals[i], i))):
        rank = rows[-1][0] if rows and rows[-1][2] == totals[seat] else place + 1
        rows.append((rank, seat, totals[seat]))
    return rows


def lists_in(value):
    """Every list of three numbers anywhere in a JSON value (an allocation's shape)."""
    if isinstance(value, dict):
        for v in value.values():
            yield from lists_in(v)
    elif isinstance(value, list):
        if len(value) == 3 and all(type(v) is int for v in value):
            yield value
        for v in value:
            yield from lists_in(v)


def keys_in(value):
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from keys_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from keys_in(v)


class Table:
    """The table page, and every answer from the box it received (read as they come)."""

    def __init__(self, page, url):
        self.page = page
        self.answers = []  # (url, body text)
        self.pending = []
        page.on("response", lambda r: self.pending.append(r))
        self.errors = []
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.goto(url + "table")

    def drain(self):
        """The answers come in since the last call, read now (a body is not kept for long)."""
        while self.pending:
            r = self.pending.pop(0)
            if "/api/" in r.url and r.status == 200:
                try:
                    body = r.text()
                except Exception:  # a binary answer (the panel's frame, the codes)
                    continue
                self.answers.append((r.url, body))
        return self.answers

    def text(self, css):
        return [norm(t) for t in self.page.locator(css).all_inner_texts()]

    def visible(self, css):
        return self.page.locator(css).is_visible()

    def expect(self, css, expected, what=None):
        wait_until(lambda: self.text(css) == expected,
                   lambda: "%s: %r, expected %r" % (what or css, self.text(css), expected), timeout=10)

    def shot(self, state):
        audit(self.page, "Token Tide's table view: " + state)
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SHOTS / ("token_tide-%s.png" % state)))

    def check_layout(self):
        """One screen, no scrolling, nothing the game's view draws under the box's panel copy."""
        trouble = self.page.evaluate("""() => {
          const out = [];
          const d = document.documentElement;
          if (d.scrollHeight > innerHeight || d.scrollWidth > innerWidth) out.push('the page scrolls');
          const panel = document.getElementById('panelBox').getBoundingClientRect();
          for (const e of document.querySelectorAll('#game *')) {
            const r = e.getBoundingClientRect();
            if (!r.width || !r.height || !e.offsetParent) continue;
            // what is drawn: text of its own, or a box with a border or a fill (not the layout's boxes)
            const own = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
            const cs = getComputedStyle(e);
            if (!own && cs.borderTopWidth === '0px' && cs.backgroundColor === 'rgba(0, 0, 0, 0)') continue;
            const name = e.tagName + '.' + e.className + ' ' + (e.textContent || '').slice(0, 30);
            if (own && cs.display !== 'inline' && e.scrollWidth > e.clientWidth + 1)
              out.push('too wide: ' + name);
            if (r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5) out.push('off screen: ' + name);
            if (r.right > panel.left && r.left < panel.right && r.bottom > panel.top && r.top < panel.bottom)
              out.push('under the panel: ' + name);
            const m = e.closest('.tt-main, .tt-side');
            if (m) {
              const b = m.getBoundingClientRect();
              if (r.bottom > b.bottom + 0.5 || r.right > b.right + 0.5) out.push('cut off: ' + name);
            }
          }
          return out;
        }""")
        if trouble:
            self.shot("layout-failed")
        assert trouble == []


def game_of(box):
    return box.state()["game"]


def shown_step(box):
    view = box.state()
    r = view["shown"].get("reveal") if view["shown"] else None
    last = view["game"]["last"]
    return r["step"] if r and last and r["round"] == last["round"] else -1


def expect_head(table, g):
    table.expect(".tv-tt .tt-round", ["Round %d of %d" % (g["round"] + 1, g["rounds"])])
    table.expect(".tv-tt .tt-name", [g["card"][1]])
    table.expect(".tv-tt .tt-target", ["Mooring target %d" % g["card"][2]])


def expect_standings(table, g, totals, done):
    table.expect(".tv-tt .tt-side h2", ["Standings"])
    table.expect(".tv-tt .tt-after", ["after round 1" if done == 1 else
                                      "after %d rounds" % done if done else "before round 1"])
    table.expect(".tv-tt .tt-side li", ["%d. %s %d" % (rank, g["players"][seat]["name"], total)
                                        for rank, seat, total in ranked(totals)], "the standings")


def expect_ready(table, g):
    players = g["players"]
    ready = sum(1 for p in players if p["ready"])
    table.expect(".tv-tt .tt-ready h2", ["Who is ready: %d of %d" % (ready, len(players))])
    tags = ["\u2713 ready" if p["ready"] else "thinking\u2026" for p in players]
    chips = [p["name"] + " " + tag for p, tag in zip(players, tags)]
    table.expect(".tv-tt .tt-names li", chips, "who is ready")


def expect_nothing_hidden(table, hidden):
    """No hidden allocation in the table's text, nor in any answer the table page received."""
    text = table.page.locator("body").inner_text()
    assert "counter" not in text and "\u2192" not in text, text
    for url, body in table.drain():
        assert "X-Seat-Token" not in body
        try:
            data = json.loads(body)
        except ValueError:
            continue
        if "/api/state" in url:
            assert data.get("you") is None, url
        keys = set(keys_in(data))
        assert not keys & {"mine", "hidden", "locked"}, (url, keys)
        for a in lists_in(data):
            assert a not in hidden, (url, a)


def expect_reveal(table, box, step, before):
    """The reveal as far as `step`: the winning amounts, then each island, the points, the standings."""
    g = game_of(box)
    last = g["last"]
    assert g["phase"] == "revealed"
    table.expect(".tv-tt .tt-best li", ["Beacon %s largest" % (last["beacon_best"] or "none"),
                                        "Grove %s smallest above 0" % (last["grove_best"] or "none"),
                                        "Mooring %d target" % last["target"]], "the winning amounts")
    islands = min(step, 3)
    if step == 0:
        wait_until(lambda: not table.visible(".tv-tt .tt-rows"), "no quantities before step 1")
    else:
        head = ["Player"] + ISLANDS[:islands] + (["Round"] if step >= 4 else [])
        table.expect(".tv-tt .tt-rows tr:first-child th", head, "the reveal's columns")
        rows = []
        for row in last["rows"]:
            cells = [row["name"]]
            for k in range(islands):
                cells.append("%s \u2192 %s %s" % (counters(row["allocation"][k]), pts(row["scores"][k]),
                                                  row["reasons"][k] or "no award"))
            if step >= 4:
                cells.append("+" + pts(row["points"]))
            rows.append(cells)
        got = lambda: [[norm(c) for c in r.locator("th, td").all_inner_texts()]  # noqa: E731
                       for r in table.page.locator(".tv-tt .tt-rows tr").all()[1:]]
        wait_until(lambda: got() == rows, lambda: "step %d: %r, expected %r" % (step, got(), rows))
        # who scores is marked, nobody else
        won = table.page.locator(".tv-tt .tt-rows td.won").count()
        assert won == sum(1 for row in last["rows"] for k in range(islands) if row["scores"][k])
    totals = [p["total"] for p in g["players"]]
    if step < 5:  # the round's points join the running totals at the box's last step
        expect_standings(table, g, before, len(g["history"]) - 1)
    else:
        expect_standings(table, g, totals, len(g["history"]))
    table.check_layout()


def allocations_for(count, rng):
    legal = [[b, g, 7 - b - g] for b in range(8) for g in range(8 - b)]
    return rng.sample(legal, count)


@pytest.mark.parametrize("people", [3, 8])
def test_token_tide_on_the_table_screen(sim_tree, tmp_path, browser, people):
    rng = random.Random(people)
    box = BoxProcess(sim_tree, tmp_path / "state").start()
    try:
        assert box.choose("token_tide") == "join"
        url = "http://127.0.0.1:%d/" % box.port
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        try:
            table = Table(context.new_page(), url)
            names = NAMES[:people]
            tokens = [box.join(n)["token"] for n in names]
            reader_starts(box.press, deck="short")  # the short crossing: four tide cards

            # the tide card, before the reader starts the countdown
            g = game_of(box)
            expect_head(table, g)
            expect_ready(table, g)
            expect_standings(table, g, [0] * people, 0)
            assert not table.visible(".tv-tt .tt-clock")
            table.check_layout()
            table.shot("%d-card" % people)

            # the countdown, and the players locking in one by one
            reader_turns_card(box.press)
            timer = box.state()["timer"]
            assert timer["on"] and timer["running"]
            wait_until(lambda: table.visible(".tv-tt .tt-clock"), "the countdown is shown")
            shown = table.text(".tv-tt .tt-time")[0]
            m = re.fullmatch(r"(\d):(\d\d)", shown)
            assert m, shown
            assert 0 < int(m.group(1)) * 60 + int(m.group(2)) <= math.ceil(timer["total_ms"] / 1000)
            assert table.text(".tv-tt .tt-note") == ["left"]
            first = allocations_for(people, rng)
            for i, token in enumerate(tokens[:-1]):
                box.allocate(token, first[i])
            g = game_of(box)
            assert [p["ready"] for p in g["players"]] == [True] * (people - 1) + [False]
            expect_ready(table, g)
            table.expect(".tv-tt .tt-reader", ["Reader: %s" % names[g["reader"]]])
            table.expect(".tv-tt .tt-status", ["Waiting for %s." % names[-1]])
            expect_nothing_hidden(table, first)
            table.check_layout()
            table.shot("%d-allocate" % people)
            box.allocate(tokens[-1], first[-1])
            g = game_of(box)
            expect_ready(table, g)
            expect_nothing_hidden(table, first)

            # the stepped reveal, press by press
            before = [p["total"] for p in g["players"]]
            assert box.press("C") == "reveal"
            step = shown_step(box)
            assert step == 0
            seen = []
            while True:
                expect_reveal(table, box, step, before)
                table.shot("%d-reveal-%d" % (people, step))
                seen.append(step)
                screen = box.press("C")  # a page of the step, or the next step
                if screen != "reveal":
                    break
                step = shown_step(box)
            # every step in order (a step with many lines has pages on the box)
            assert sorted(set(seen)) == [0, 1, 2, 3, 4, 5] and seen == sorted(seen)
            assert screen == "card"

            # the next tide card: the standings after round 1, one player locks in
            g = game_of(box)
            assert g["round"] == 1
            expect_head(table, g)
            expect_standings(table, g, [p["total"] for p in g["players"]], 1)
            table.drain()
            table.answers.clear()  # round 1's allocations are public now
            reader_turns_card(box.press)
            used = [a for h in g["history"] for a in h["allocations"]]
            second = [a for a in allocations_for(people + 8, rng) if a not in used][:1]
            box.allocate(tokens[0], second[0])
            expect_ready(table, game_of(box))
            text = table.page.locator("body").inner_text()
            assert "counter" not in text and "\u2192" not in text
            for url_, body in table.drain():
                data = json.loads(body) if body.startswith("{") else {}
                assert not set(keys_in(data)) & {"mine", "hidden", "locked"}
                assert second[0] not in list(lists_in(data)), url_
            table.check_layout()
            table.shot("%d-round2" % people)

            # the rest of the crossing at once, to the final standings
            for r in range(1, 4):
                if r > 1:
                    assert box.press("C") == "allocate"
                for i, token in enumerate(tokens):
                    box.allocate(token, allocations_for(people, rng)[i])
                assert box.press("C") == "reveal"
                assert box.press("C", long=True) == "reveal"
                for _ in range(20):
                    screen = box.press("C")
                    if screen != "reveal":
                        break
                assert screen == ("final" if r == 3 else "card")
            view = box.state()
            g = view["game"]
            assert view["box"] == "over" and g["phase"] == "over"
            table.expect(".tv-tt .tt-name", ["Final standings"])
            best = g["players"][g["winners"][0]]["total"]
            won = [g["players"][i]["name"] for i in g["winners"]]
            if len(won) == 1:
                table.expect(".tv-tt .tt-win", ["Winner: %s with %s" % (won[0], pts(best))])
            else:
                both = ", ".join(won[:-1]) + " and " + won[-1]
                line = "Winners, sharing the victory: %s with %s" % (both, pts(best))
                table.expect(".tv-tt .tt-win", [line])
            table.expect(".tv-tt .tt-final li", [
                "%d. %s: %s%s" % (s["rank"], g["players"][s["seat"]]["name"], pts(s["total"]),
                                  ", winner" if s["seat"] in g["winners"] else "")
                for s in g["standings"]], "the final standings")
            table.check_layout()
            table.shot("%d-over" % people)
            assert table.errors == []
        finally:
            context.close()
    finally:
        box.stop()
