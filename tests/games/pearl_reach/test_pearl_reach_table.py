"""Pearl Reach on the table screen (/table) in headless Chromium at 1280x720, against the real firmware:
Ada and Bartholomew play on the API beside two computer rivals (the game's largest table), the reader
starts the game on the box, and a browser with no seat follows it. At each state (a person's turn,
after a placement, a rival thinking, the rival's move, after the first tide, the end) the table shows
what the box's public view holds, as the rules word it: every marker on the coast and each bay's
pearls and leader, the tide strip and what each tide paid, everyone's points, shells and shifts, whose
turn, the last move marked on the coast and said in words, and at the end the winners and the
standings. Nothing private ever reaches it: every view it was sent is seatless (no seat's costs), and
while a rival thinks none holds its move. The view fits the screen without scrolling and leaves the
panel's corner free. A screenshot per state in build/screens/table/."""

import json
import random
import time
from pathlib import Path

import pytest
from axe_audit import audit
from boxrig import BOARD_PACE_MS, BoxProcess

from tidebox.games.pearl_reach import rules

pytest_plugins = ("page_fakebox",)  # `browser`: Chromium (/usr/bin/chromium, --no-sandbox), one a session

pytestmark = pytest.mark.browser  # a table screen in a real browser

SCREENS = Path(__file__).resolve().parents[3] / "build" / "screens" / "table"
SHAPES = ["\u25a0", "\u25a1", "\u00d7", "+"]
NEWS = 3  # the table's last few log entries
PEOPLE = ["Ada", "Bartholomew"]  # and two rivals: four gatherers, a long name among them
PRIVATE = ("costs", "can_shift")  # a seat's own view: never the table's


@pytest.fixture
def pr_box(sim_tree, tmp_path):
    """The real firmware at the board's pace with Pearl Reach chosen, on the join screen."""
    box = BoxProcess(sim_tree, tmp_path / "state", pace_ms=BOARD_PACE_MS).start()
    assert box.choose("pearl_reach") == "join"
    yield box
    box.stop()


@pytest.fixture
def table(pr_box, browser):
    """The table screen open at /table, in a fresh context of the session's Chromium, with every answer
    of the API it was sent as (url, text)."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 720})
    page = ctx.new_page()
    page.answers = []
    page.errors = []

    def heard(response):
        if "/api/" in response.url:
            try:
                page.answers.append((response.url, response.text()))
            except Exception:  # noqa: BLE001 - an answer cut short (the page asks again)
                pass

    page.on("response", heard)
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto("http://127.0.0.1:%d/table" % pr_box.port)
    yield page
    ctx.close()


def words(game, entry):
    """A log entry as the rules word it, from the public view alone (names, the tides' values, pearls)."""
    state = {"names": game["names"], "tides": [t["value"] for t in game["strip"]["tides"]],
             "pearls": [b["pearls"] for b in game["bays"]]}
    return rules.entry_text(state, entry)


def last_move(game):
    """The cells the last turn's move touched: where the marker landed, and where a shift took one."""
    log = game["log"]
    for i in range(len(log) - 1, -1, -1):
        kind = log[i] & 15
        if kind == rules.LANDED:
            cells = [log[i] >> 9 & 31]
            if i and log[i - 1] & 15 == rules.SHIFTED and log[i - 1] >> 4 & 31 == log[i] >> 4 & 31:
                cells.append(log[i - 1] >> 14 & 31)
            return sorted(c for c in cells if owner(game, c) is not None)
        if kind == rules.SHIFTED:
            return [log[i] >> 14 & 31]
    return []


def owner(game, c):
    rows = game["rows"]
    return game["bays"][c // rows]["cells"][c % rows]


def expected(view):
    """What the table screen shows of a seatless view, computed from it."""
    g = view["game"]
    names, over = g["names"], g["phase"] == "over"
    marked = [SHAPES[i] + " " + n for i, n in enumerate(names)]
    turn = g["to_act"][0] if g["to_act"] else None
    cells = []
    for c in range(len(g["bays"]) * g["rows"]):
        o = owner(g, c)
        cells.append([c, SHAPES[o] if o is not None else "", names[o] if o is not None else ""])
    heads = []
    for b, bay in enumerate(g["bays"]):
        lead = bay["lead"]
        heads.append(["Bay %d" % (b + 1), "%d pearls" % bay["pearls"],
                      marked[lead[0]] if len(lead) == 1 else "tie" if lead else "\u2013"])
    tides = []
    for k, t in enumerate(g["strip"]["tides"]):
        left = g["strip"]["turns_left"]
        nxt = k == g["strip"]["next"] and g["phase"] == "play"
        tides.append(["Tide %d \u00d7%d" % (k + 1, t["value"]),
                      "paid" if t["done"] else "next: in %d turn%s" % (left, "" if left == 1 else "s") if nxt
                      else "later"])
    if over:
        status = "Game over"
    elif g["rivals"][turn] is not None:
        status = marked[turn] + " (rival) is thinking\u2026"
    else:
        status = marked[turn] + "\u2019s turn"
    order = [st[1] for st in g["standings"]] if over else list(range(len(names)))
    rows = []
    for i in order:
        rows.append([("\u25b6 " if i == turn and not over else "") + marked[i] +
                     (" (rival)" if g["rivals"][i] is not None else ""),
                     str(g["points"][i]), str(g["shells"][i]), str(g["shifts_left"][i])] +
                    [str(t["paid"][i]) if t["paid"] else "\u2013" for t in g["strip"]["tides"]])
    winners = [names[i] for i in g["winners"]]
    return {
        "cells": cells, "heads": heads, "tides": tides, "status": status, "rows": rows,
        "last": last_move(g),
        "news": [] if over else [words(g, e) for e in g["log"][-NEWS:]],
        "sub": ("Shared win: " if len(winners) > 1 else "Winner: ") + ", ".join(winners) if over else "",
        "standings": ["%d. %s \u2013 %d point%s, %d shells left" % (
            st[0], marked[st[1]], st[2][0], "" if st[2][0] == 1 else "s", st[2][1]) for st in g["standings"]]
        if over else [],
    }


SHOWN = """() => {
  const q = (s) => Array.from(document.querySelectorAll('#game ' + s));
  const t = (e) => e.textContent;
  const seen = (e) => !!e && !e.hidden && e.offsetParent !== null;
  const sub = document.querySelector('#game .tv-sub');
  return {
    cells: q('[data-cell]').map((c) => [+c.dataset.cell, t(c.children[0]), t(c.children[1])])
      .sort((a, b) => a[0] - b[0]),
    heads: q('.pr-head').map((h) => Array.from(h.children).map(t)),
    tides: q('.pr-strip li').map((li) => [t(li.children[0]), t(li.children[1])]),
    status: t(document.querySelector('#game .status')),
    rows: q('.tv-sheet tbody tr').map((r) => Array.from(r.children).map(t)),
    last: q('.tv-last').map((c) => +c.dataset.cell).sort((a, b) => a - b),
    news: q('.tv-news li').filter(seen).map(t),
    sub: seen(sub) ? t(sub) : '',
    standings: q('.standings li').filter(seen).map(t),
  };
}"""


def shows(page, view, timeout=12):
    """Waits until the table screen shows `view` (it polls once a second); fails with the difference."""
    want = expected(view)
    deadline = time.monotonic() + timeout
    while True:
        got = page.evaluate(SHOWN) if page.locator("#game .tv-pr").count() else None
        if got == want:
            return want
        if time.monotonic() > deadline:
            diff = {k: (got or {}).get(k) for k in want if (got or {}).get(k) != want[k]}
            wanted = {k: want[k] for k in diff}
            raise AssertionError("the table screen shows %r, expected %r" % (diff, wanted))
        time.sleep(0.2)


def fits(page):
    """The view fits the screen, nothing cut off, and keeps clear of the box's panel in the corner."""
    box = page.evaluate("""() => {
      const r = (e) => { const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
      const side = document.querySelector('#game .tv-side');
      const kids = Array.from(document.querySelectorAll('#game .tv-sea, #game .tv-side > *'))
        .filter((e) => !e.hidden);
      return {
        scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight,
                 innerWidth, innerHeight],
        clipped: side.scrollHeight - side.clientHeight,
        panel: r(document.getElementById('panelBox')),
        kids: kids.map(r),
      };
    }""")
    w, h, iw, ih = box["scroll"]
    assert w <= iw and h <= ih, "the table screen scrolls: %r" % box["scroll"]
    assert box["clipped"] <= 0, "the side of the table view is cut off"
    pl, pt, pr, pb = box["panel"]
    for left, top, right, bottom in box["kids"]:
        assert right <= iw and bottom <= ih
        assert right <= pl or bottom <= pt or left >= pr or top >= pb, "the view runs under the panel"


def snap(page, state):
    audit(page, "Pearl Reach's table view: " + state)
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / ("pearl_reach-%s.png" % state)))


def nothing_private(page, since=0):
    """Every view the table was sent from `since` on is seatless: no seat's own part in it."""
    views = 0
    for url, text in page.answers[since:]:
        if "/api/state" not in url:
            continue
        view = json.loads(text)
        if "box" not in view:
            continue  # "unchanged since v"
        views += 1
        assert view["you"] is None, url
        game = view.get("game") or {}
        assert not [k for k in PRIVATE if k in game], "a seat's own view reached the table: " + url
    return views


def place(box, token, rng):
    """The seat of `token` places on a cell it can afford, chosen at random (its own costs)."""
    view = box.state(token)
    costs = view["game"]["costs"]
    shells = view["game"]["shells"][view["you"]["seat"]]
    cell = rng.choice([c for c, x in enumerate(costs) if x is not None and x <= shells])
    box.move(token, "place", {"cell": cell}, seq=view["seq"])


def rival_moves(box, seq):
    """The box's clock moved on until the rival has moved beyond `seq`; returns the seatless view."""
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        box.advance(1000)
        view = box.state()
        if view["seq"] > seq:
            return view
        time.sleep(0.05)
    raise AssertionError("the rival never moved")


def play_on(box, tokens, rng, until):
    """People place at random, the rival by itself, until until(seatless view) (or the game's end)."""
    while True:
        view = box.state()
        g = view["game"]
        if until(view) or g["phase"] == "over":
            return view
        seat = g["to_act"][0]
        if g["rivals"][seat] is None:
            place(box, tokens[seat], rng)
        else:
            rival_moves(box, view["seq"])


def test_the_table_screen_follows_pearl_reach(pr_box, table):
    box = pr_box
    rng = random.Random(5)
    tokens = [box.join(name)["token"] for name in PEOPLE]
    table.wait_for_selector("#join:not([hidden])")
    assert box.press("C") == "setup"
    box.press("B")
    box.press("B")  # rivals: 1 -> none -> 2
    for _ in range(3):
        assert box.press("A") == "setup"  # to the line "First to set out"
    box.press("B")  # random -> Ada
    assert box.press("C") == "pr_board"
    box.hold_clock()  # from now on a rival thinks until the test moves the box's clock on

    # Ada's turn: the fresh coast, the strip, everyone at 0
    view = box.state()
    assert view["you"] is None and not [k for k in PRIVATE if k in view["game"]]
    assert view["game"]["names"][:2] == PEOPLE and view["game"]["to_act"] == [0]
    rivals = view["game"]["rivals"]
    assert len(rivals) == 4 and rivals[:2] == [None, None] and None not in rivals[2:]
    shown = shows(table, view)
    assert shown["status"] == "\u25a0 Ada\u2019s turn"
    fits(table)
    snap(table, "turn")
    table.evaluate("() => { window.builtOnce = document.querySelector('#game .tv-pr'); }")

    # Ada places: her marker on the coast, marked as the last move, and said in words
    place(box, tokens[0], rng)
    view = box.state()
    shown = shows(table, view)
    assert len(shown["last"]) == 1 and shown["cells"][shown["last"][0]][2] == "Ada"
    assert shown["news"][-1].startswith("Ada landed in bay ")
    fits(table)
    snap(table, "placed")

    # Bartholomew places: now the first rival thinks, for as long as the box's clock is held
    place(box, tokens[1], rng)
    view = box.state()
    rival = view["game"]["names"][2]
    assert view["game"]["rivals"][2] is not None and view["game"]["to_act"] == [2]
    shown = shows(table, view)
    assert shown["status"] == "\u00d7 %s (rival) is thinking\u2026" % rival
    time.sleep(1.5)  # a poll or two while it thinks
    fits(table)
    snap(table, "rival-thinking")
    log = len(view["game"]["log"])
    for url, text in table.answers:  # no view sent while it thinks holds its move
        if "/api/state" in url and '"box"' in text:
            assert len((json.loads(text)["game"] or {}).get("log", ())) <= log

    # the rival moves: its marker on the coast, marked, and its move in words
    view = rival_moves(box, view["seq"])
    g = view["game"]
    shown = shows(table, view)
    moved = [e for e in g["log"][log:] if e & 15 in (rules.LANDED, rules.SHIFTED)]
    assert moved and all(e >> 4 & 31 == 2 for e in moved)
    assert shown["news"][-1] == words(g, moved[-1])
    assert shown["news"][-1].startswith(rival + " landed in bay ")
    assert [shown["cells"][c][2] for c in shown["last"]] == [rival] * len(shown["last"]) != []
    assert shown["status"] == "+ %s (rival) is thinking\u2026" % g["names"][3]  # the other rival next
    fits(table)
    snap(table, "rival-moved")

    # on to the first tide: what each bay paid, and the points
    view = play_on(box, tokens, rng, lambda v: v["game"]["strip"]["tides"][0]["done"])
    g = view["game"]
    assert g["strip"]["tides"][0]["paid"] is not None
    shown = shows(table, view)
    assert shown["tides"][0] == ["Tide 1 \u00d71", "paid"]
    assert [r[4] for r in shown["rows"]] == [str(p) for p in g["strip"]["tides"][0]["paid"]]
    fits(table)
    snap(table, "after-a-tide")

    # to the end: the winners and the final standings, the rows in their order
    view = play_on(box, tokens, rng, lambda v: False)
    g = view["game"]
    assert view["box"] == "over" and g["winners"]
    shown = shows(table, view)
    assert shown["status"] == "Game over" and len(shown["standings"]) == 4
    box.hold_clock(False)  # the box's screen, held with its clock, catches up: the panel's copy too
    time.sleep(2)
    fits(table)
    snap(table, "over")

    assert nothing_private(table) > 5
    assert table.evaluate("() => document.querySelector('#game .tv-pr') === window.builtOnce")  # built once
    assert table.errors == []
