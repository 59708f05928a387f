"""The phones' flow, written once for every browser engine.

A test talks to a phone through a small `Phone` adapter: find a control by its role and exact
accessible name (as the engine's own accessibility code computes it), click, type, reload, and wait
for text, visibility or a value. `PlaywrightPhone` wraps a Playwright page (Chromium). `DriverPhone`
is what the WebDriver phones share (an iPhone SE's viewport, the waits for a control, the page's own
record of what it received); WebKit's driver is in tests/support/webkit_driver.py (Selenium and
WebKitWebDriver), Firefox's in tests/support/firefox_bidi.py (WebDriver BiDi spoken directly to firefox-esr),
and the short crossing both play is tests/support/short_crossing.py. The steps below (join, place counters,
lock, the reveal, the final standings, the reader's buttons) take either a Playwright page or a
Phone, so the Chromium, WebKit and Firefox tests share one description of the flow.

PYTEST_DONT_REWRITE (test modules import helpers from here before pytest loads its plugins)
"""

import json
import re
import time
from pathlib import Path

from tidebox.games import token_tide as tt

ISLANDS = ("Beacon", "Grove", "Mooring")
WAIT_S = 20.0  # a MicroPython box at a Pico W's pace and several phones on a busy CI machine: be patient
ARTIFACTS = Path(__file__).resolve().parents[2] / "build" / "test-artifacts"  # /<engine>/<step>.png

SHORT = [tt.TIDE_CARDS[i] for i in range(4)]  # the short crossing: T01-T04 in order
# Three players, four rounds: a sole and a tied Beacon, a sole and a tied Grove, an empty Grove,
# exact and one-off Moorings.
CROSSING = {
    "Ada": [[4, 1, 2], [2, 2, 3], [3, 0, 4], [0, 5, 2]],
    "Bo": [[3, 1, 3], [5, 0, 2], [3, 0, 4], [2, 3, 2]],
    "Cy": [[1, 3, 3], [5, 1, 1], [7, 0, 0], [1, 4, 2]],
}

# What a control must measure on a phone, and how wide the page may be: one script for every engine.
LAYOUT_JS = """() => {
  const vis = e => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
  const small = [];
  document.querySelectorAll('button, input, summary').forEach(e => {
    if (!vis(e)) return;
    const r = e.getBoundingClientRect();
    if (r.width < 44 || r.height < 44) small.push(e.outerHTML.slice(0, 60) + ' ' + r.width + 'x' + r.height);
  });
  return {scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, small: small};
}"""

# Everything a phone's page holds, apart from its own code: the markup and text (hidden parts
# included), what the input fields hold, and what it keeps in storage.
PAGE_CONTENT_JS = """() => {
  const doc = document.documentElement.cloneNode(true);
  doc.querySelectorAll('script, style').forEach(e => e.remove());
  return {
    html: doc.outerHTML,
    text: doc.textContent,
    inputs: Array.from(document.querySelectorAll('input')).map(i => i.value).join('|'),
    storage: JSON.stringify(localStorage) + JSON.stringify(sessionStorage),
  };
}"""

# Every response the page's own fetch() calls receive, recorded inside the page: the WebDriver phones
# have no network log (WebKitWebDriver has none; the BiDi phones subscribe to no events). The page
# looks `fetch` up at each call, so wrapping it after a load sees every request from then on.
RECORD_FETCH_JS = """() => {
  if (window.__responses) return;
  window.__responses = [];
  const real = window.fetch;
  window.fetch = function (url, opts) {
    return real.call(this, url, opts).then(res => {
      const headers = {};
      res.headers.forEach((v, k) => { headers[k] = v; });
      res.clone().text().then(
        body => window.__responses.push([String(url), res.status, JSON.stringify(headers), body]));
      return res;
    });
  };
}"""


def wait_until(check, message, timeout=WAIT_S):
    """Polls `check()` until it returns something true; fails with `message` at the deadline."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(message() if callable(message) else message)
        time.sleep(0.03)


def norm(text):
    return re.sub(r"\s+", " ", text or "").strip()


def text_matches(actual, expected):
    """Playwright's to_have_text rules: a string is compared with normalised whitespace, a regex
    searched in the raw text, a list matched element by element."""
    if isinstance(expected, (list, tuple)):
        return len(actual) == len(expected) and all(text_matches([a], e) for a, e in zip(actual, expected))
    if len(actual) != 1:
        return False
    if isinstance(expected, re.Pattern):
        return expected.search(actual[0]) is not None
    return norm(actual[0]) == norm(expected)


class Phone:
    """What a test does with a phone's page, whatever drives it. Subclasses provide the primitives
    (`_find`, `js`, `call`, `reload`, ...); the waits are written once here."""

    engine = "?"

    def call(self, function_source):
        """Runs a JS function `() => ...` in the page and returns its result."""
        raise NotImplementedError

    def texts(self, css):
        return self.call("() => Array.from(document.querySelectorAll(%s)).map(e => e.textContent)"
                         % json.dumps(css))

    def shown(self, css):
        """Whether the (single) element is visible: it has a box and is not visibility:hidden."""
        return self.call("""() => { const e = document.querySelector(%s);
            return !!e && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden'; }"""
                         % json.dumps(css))

    def expect_text(self, css, expected, timeout=WAIT_S):
        wait_until(lambda: text_matches(self.texts(css), expected),
                   lambda: "%s on %s: %r, expected %r" % (css, self.engine, self.texts(css), expected),
                   timeout)

    def expect_visible(self, css, timeout=WAIT_S):
        wait_until(lambda: self.shown(css),
                   lambda: "%s is not visible on %s; %s" % (css, self.engine, self.what_it_shows()), timeout)

    def what_it_shows(self):
        """For a failure message: the page's text as read on screen, and its last answers from the box."""
        text = norm(self.call("() => document.body.innerText"))
        answers = [(r[0], r[1], r[-1][:160]) for r in self.responses()[-4:]]
        return "it shows %r; its last answers: %r" % (text[:700], answers)

    def responses(self):
        return []

    def expect_hidden(self, css, timeout=WAIT_S):
        wait_until(lambda: not self.shown(css), "%s is still visible on %s" % (css, self.engine), timeout)

    def expect_count(self, css, n, timeout=WAIT_S):
        wait_until(lambda: len(self.texts(css)) == n,
                   lambda: "%s: %d elements, expected %d" % (css, len(self.texts(css)), n), timeout)

    def layout(self):
        return self.call(LAYOUT_JS)

    def page_content(self):
        return self.call(PAGE_CONTENT_JS)

    def token(self):
        return self.call("() => localStorage.getItem('tidebox.token')")


class PlaywrightPhone(Phone):
    """A Playwright page (headless Chromium); waits use Playwright's own expect()."""

    engine = "chromium"

    def __init__(self, page):
        self.page = page

    def _control(self, role, name):
        return self.page.get_by_role(role, name=name, exact=True)

    def call(self, function_source):
        return self.page.evaluate(function_source)

    def goto(self, url):
        self.page.goto(url)

    def reload(self):
        self.page.reload()

    def click(self, role, name):
        self._control(role, name).click()

    def fill(self, role, name, text):
        self._control(role, name).fill(text)

    def expect_control(self, role, name, visible=True, enabled=None, value=None):
        from playwright.sync_api import expect

        control = self._control(role, name)
        if not visible:
            expect(control).to_be_hidden()
            return
        expect(control).to_be_visible()
        if enabled is not None:
            (expect(control).to_be_enabled if enabled else expect(control).to_be_disabled)()
        if value is not None:
            expect(control).to_have_value(value)

    def expect_text(self, css, expected, timeout=WAIT_S):
        from playwright.sync_api import expect

        expect(self.page.locator(css)).to_have_text(expected, timeout=timeout * 1000)

    def expect_visible(self, css, timeout=WAIT_S):
        from playwright.sync_api import expect

        expect(self.page.locator(css)).to_be_visible(timeout=timeout * 1000)

    def expect_hidden(self, css, timeout=WAIT_S):
        from playwright.sync_api import expect

        expect(self.page.locator(css)).to_be_hidden(timeout=timeout * 1000)

    def expect_count(self, css, n, timeout=WAIT_S):
        from playwright.sync_api import expect

        expect(self.page.locator(css)).to_have_count(n, timeout=timeout * 1000)

    def expect_role(self, css, role, name=None):
        from playwright.sync_api import expect

        expect(self.page.locator(css)).to_have_role(role)
        if name is not None:
            expect(self.page.locator(css)).to_have_accessible_name(name)

    def screenshot(self, path):
        self.page.screenshot(path=str(path))


class DriverPhone(Phone):
    """A phone driven through WebDriver at an iPhone SE's viewport (375x667 CSS pixels): WebKit's
    (tests/support/webkit_driver.py) and Firefox's (tests/support/firefox_bidi.py). Written once here:
    loading a page records what its fetch() calls receive, a control is waited for until exactly one visible
    control has its role and name, and a phone quits once.

    A driver provides `call`, `_load(url)`, `_reload()`, `_close()`, `_matching(role, name)` (the
    visible elements whose computed role and accessible name are these), `_enabled_and_value(element)`,
    `describe_controls()` (for failure messages), `click`, `fill`, `expect_role` and `screenshot`;
    `named_controls()` where the driver can list every visible control's computed (role, name)."""

    viewport = (375, 667)  # an iPhone SE
    closed = False

    def goto(self, url):
        self._load(url)
        self.call(RECORD_FETCH_JS)

    def reload(self):
        self._reload()
        self.call(RECORD_FETCH_JS)

    def quit(self):
        """The phone is gone (once: a test may drop a phone before its fixture closes the rest)."""
        if not self.closed:
            self.closed = True
            self._close()

    def responses(self):
        """What the page's fetch() calls received since the last load: [(url, status, headers, body)]."""
        return [tuple(r) for r in self.call("() => window.__responses || []")]

    def named_controls(self):
        """Every visible control as (role, name) in document order, as the engine computes them; None
        where the driver can only search by role and name, not list them."""
        return None

    def _is_stale(self, error):
        """Whether `error` says an element found a moment ago is no longer in the page (the page
        re-rendered it as a poll came in): the driver's own "stale element" error."""
        return False

    def _find_now(self, role, name):
        found = self._matching(role, name)
        assert len(found) <= 1, "%d visible controls are %s %r" % (len(found), role, name)
        return found[0] if found else None

    def _control_now(self, role, name, enabled=None, value=None):
        """The one visible control with this role and name, if it is also as asked (enabled, value)
        now, else None. One that the page replaces while it is looked at counts as not there yet."""
        try:
            control = self._find_now(role, name)
            if control is None:
                return None
            if enabled is not None or value is not None:
                is_enabled, has_value = self._enabled_and_value(control)
                if enabled is not None and is_enabled != enabled:
                    return None
                if value is not None and has_value != value:
                    return None
            return control
        except Exception as error:
            if self._is_stale(error):
                return None
            raise

    def _why_not(self, role, name, wanted):
        return lambda: "%s %r: not %s on %s; the visible controls are %r" % (
            role, name, json.dumps(wanted), self.engine, self.describe_controls())

    def _find(self, role, name, timeout=WAIT_S):
        return wait_until(lambda: self._control_now(role, name), self._why_not(role, name, {"visible": True}),
                          timeout)

    def _act_on(self, role, name, act, enabled=True):
        """Waits for the control to be visible (and enabled), then act(control). The page redraws
        as polls come in: a control replaced between finding it and acting on it is found again, in
        the state asked for, until the usual deadline; only then does the test fail."""
        deadline = time.monotonic() + WAIT_S
        while True:
            control = wait_until(lambda: self._control_now(role, name, enabled=enabled),
                                 self._why_not(role, name, {"enabled": enabled}),
                                 max(0.1, deadline - time.monotonic()))
            try:
                return act(control)
            except Exception as error:
                if not self._is_stale(error) or time.monotonic() > deadline:
                    raise

    def expect_control(self, role, name, visible=True, enabled=None, value=None):
        if not visible:
            wait_until(lambda: self._control_now(role, name) is None, "%s %r is still visible" % (role, name))
            return
        wait_until(lambda: self._control_now(role, name, enabled=enabled, value=value),
                   self._why_not(role, name, {"enabled": enabled, "value": value}))


def phone_opener(new_phone):
    """For a fixture, `yield from phone_opener(new_phone)`: the test gets opener(url) -> a new phone
    (`new_phone()`: its own storage) on `url`; every phone it opened quits when the test ends."""
    phones = []

    def opener(url):
        phone = new_phone()
        phones.append(phone)
        phone.goto(url)
        return phone

    yield opener
    for phone in phones:
        phone.quit()


def as_phone(page):
    """A Phone for `page`: a Phone as it is, a Playwright page wrapped (once)."""
    if isinstance(page, Phone):
        return page
    phone = getattr(page, "_tidebox_phone", None)
    if phone is None:
        phone = PlaywrightPhone(page)
        page._tidebox_phone = phone
    return phone


# ---------------------------------------------------------------- the steps of a phone


def join(page, name):
    phone = as_phone(page)
    phone.fill("textbox", "Name", name)
    phone.click("button", "Join")
    phone.expect_visible("#lobby")
    phone.expect_text("#me", "You: " + name)


def token_of(page):
    return as_phone(page).token()


def expect_round(page, round_index, rounds, card):
    """The page shows this round's tide card and the allocation form."""
    phone = as_phone(page)
    phone.expect_text("#roundLabel", "Round %d of %d" % (round_index + 1, rounds))
    phone.expect_text("#cardName", card[1])
    phone.expect_role("#cardName", "heading", card[1])
    phone.expect_text("#targetLine", "Mooring target %d" % card[2])
    phone.expect_control("spinbutton", "Beacon")


def place_with_buttons(page, allocation):
    phone = as_phone(page)
    for island, n in zip(ISLANDS, allocation):
        for _ in range(n):
            phone.click("button", "More on " + island)


def take_with_buttons(page, allocation):
    phone = as_phone(page)
    for island, n in zip(ISLANDS, allocation):
        for _ in range(n):
            phone.click("button", "Fewer on " + island)


def place_by_typing(page, allocation):
    phone = as_phone(page)
    for island, n in zip(ISLANDS, allocation):
        phone.fill("spinbutton", island, str(n))


def expect_placed(page, allocation):
    phone = as_phone(page)
    for island, n in zip(ISLANDS, allocation):
        phone.expect_control("spinbutton", island, value=str(n))
    phone.expect_text("#left", "0 of 7 left: all placed")


def expect_locked(page, allocation):
    as_phone(page).expect_text("#lockedList li", island_text(allocation))


def lock(page, allocation):
    """Ready, then the page shows the locked allocation (the box has saved it by then)."""
    phone = as_phone(page)
    phone.click("button", "Ready")
    phone.expect_visible("#locked")
    expect_locked(phone, allocation)


def sheet_rows(page):
    phone = as_phone(page)
    return phone.call("""() => Array.from(document.querySelectorAll('#sheetRows tr')).map(
        r => Array.from(r.querySelectorAll('th, td')).map(c => c.innerText.trim()))""")


def points_text(n):
    """How the page writes a number of points: "1 point", "8 points"."""
    return "%d point%s" % (n, "" if n == 1 else "s")


def counters_text(n):
    """How the page writes a number of counters: "1 counter", "4 counters" (never beside a bare
    number of points)."""
    return "%d counter%s" % (n, "" if n == 1 else "s")


def expected_reveal(names, card, allocations, totals_before):
    """What the reveal shows, from the rules module: (best line, rows, new totals)."""
    details = tt.score_details(card[2], allocations)
    totals = [t + sum(s) for t, s in zip(totals_before, details["scores"])]
    best = ["Beacon%slargest" % (details["beacon_best"] or "none"),
            "Grove%ssmallest above 0" % (details["grove_best"] or "none"),
            "Mooring%dtarget" % card[2]]
    rows = []
    for seat, (name, allocation, scores) in enumerate(zip(names, allocations, details["scores"])):
        islands = ["%s%s \u2192 %s%s" % (island, counters_text(allocation[k]), points_text(scores[k]),
                                           tt.award_reason(k, scores[k]) or "no award")
                   for k, island in enumerate(ISLANDS)]
        rows.append({"seat": seat, "name": name, "points": sum(scores), "total": totals[seat],
                     "islands": islands})
    return best, rows, totals


def expect_reveal(page, me, round_index, card, best, rows, rounds=None):
    """The page shows the round's reveal: the winning quantities and every player's line."""
    phone = as_phone(page)
    phone.expect_text("#revealHead", "Round %d: %s, target %d" % (round_index + 1, card[1], card[2]))
    phone.expect_visible("#revealRows")
    phone.expect_text("#best li", best)
    phone.expect_count("#revealRows > li", len(rows))
    for row in rows:
        line = "#revealRows > li:nth-child(%d)" % (row["seat"] + 1)
        you = " (you)" if row["seat"] == me else ""
        phone.expect_text(line + " .rh", "%s%s+%s, total %d" % (row["name"], you, points_text(row["points"]),
                                                              row["total"]))
        phone.expect_text(line + " tr", row["islands"])
    # what comes next: the next card, or after the last round the final standings (`rounds`: the
    # game's number of rounds; without it either is accepted)
    scored = "You scored %d, total %d. " % (rows[me]["points"], rows[me]["total"])
    following = {False: "The reader turns the next card on the box.",
                 True: "That was the last round: the reader shows the final standings on the box next."}
    if rounds is None:
        phone.expect_text("#status", re.compile("^%s(%s|%s)$" % tuple(
            re.escape(t) for t in (scored, following[False], following[True]))))
    else:
        phone.expect_text("#status", scored + following[round_index == rounds - 1])


def expect_reveal_step(page, step, best, rows):
    """While the box's reveal is at `step` (0 the winning amounts, 1 Beacon, 2 Grove, 3 Mooring), the
    page shows that much and no more: no island the box has not reached, no points, no standings."""
    phone = as_phone(page)
    phone.expect_text("#best li", best)
    what = ("the winning amounts", "who scores on Beacon", "who scores on Grove", "who scores on Mooring")
    phone.expect_text("#status", "The box reveals the round step by step: now %s." % what[step])
    phone.expect_hidden("#revealStand")
    if step == 0:
        phone.expect_hidden("#revealRows")
        return
    phone.expect_visible("#revealRows")
    for row in rows:
        line = "#revealRows > li:nth-child(%d)" % (row["seat"] + 1)
        phone.expect_text(line + " tr", row["islands"][:step])
        phone.expect_count(line + " .pts", 0)


def expected_sheet(names, plays, cards, me):
    """The record sheet of seat `me` after `cards` were played with `plays` ({name: allocation per
    round}), as the rules module scores them: round, the three islands, round points, running total."""
    running, rows = 0, []
    for r, card in enumerate(cards):
        points = sum(tt.score_round(card[2], [plays[n][r] for n in names])[me])
        running += points
        rows.append([str(v) for v in [r + 1, *plays[names[me]][r], points, running]])
    return rows


def standings_lines(names, totals, winners, me):
    """The final standings as the page writes them for seat `me` (shared ranks for ties)."""
    lines = []
    rank, previous = 0, None
    for n, seat in enumerate(sorted(range(len(names)), key=lambda i: (-totals[i], i))):
        if totals[seat] != previous:
            rank, previous = n + 1, totals[seat]
        you = " (you)" if seat == me else ""
        lines.append("%d. %s%s: %s%s" % (rank, names[seat], you, points_text(totals[seat]),
                                         ", winner" if seat in winners else ""))
    return lines


def winners_line(names, totals, winners):
    best = max(totals)
    won = [names[i] for i in winners]
    if len(won) == 1:
        return "Winner: %s with %s" % (won[0], points_text(best))
    shared = "Winners, sharing the victory: %s and %s with %s"
    return shared % (", ".join(won[:-1]), won[-1], points_text(best))


# ---------------------------------------------------------------- secrecy


def json_forms(allocation):
    """A regex for an allocation written as a JSON array, with or without spaces."""
    return re.compile(r"\[\s*%d\s*,\s*%d\s*,\s*%d\s*\]" % tuple(allocation))


def island_text(allocation, islands=(0, 1, 2)):
    """Regexes for an allocation as the page writes it next to the island names."""
    return [re.compile(r"%s\s*%d(?!\d)" % (ISLANDS[k], allocation[k])) for k in islands]


def secrets_held(content, others, text_too, mine=None):
    """Where other players' allocations show in a page's content (PAGE_CONTENT_JS): its markup,
    input fields and storage, and (text_too) its text, where an island the phone's own allocation
    (`mine`) gives the same number cannot tell them apart and is left out."""
    found = []
    for name, allocation in others.items():
        for part in ("html", "inputs", "storage"):
            if json_forms(allocation).search(content[part]):
                found.append("%s's %s in the page's %s" % (name, allocation, part))
        if text_too:
            islands = [k for k in range(3) if mine is None or allocation[k] != mine[k]]
            for pattern in island_text(allocation, islands):
                if pattern.search(content["text"]):
                    found.append("%s's %s in the page text: %s" % (name, allocation, pattern.pattern))
    return found


def secrets_received(responses, others):
    """Where other players' allocations show in what a phone received: [(url, status, headers, body)]."""
    found = []
    for url, _status, headers, body in responses:
        for name, allocation in others.items():
            if json_forms(allocation).search(body) or json_forms(allocation).search(headers):
                found.append("%s's %s in the response to %s" % (name, allocation, url))
    return found


# ---------------------------------------------------------------- the reader at the box
# Every button sequence the phone flows need from the box is here, so a change to the box's
# screens (a game menu after the splash, say) is an edit in one place. `press(button, long=False)`
# presses A, B or C and returns the box's screen: BoxProcess.press (the /sim API) or SimPanel.press
# (the /sim page's buttons).


def reader_opens_the_table(box):
    """From the box's first screen (the game menu after the splash) to Token Tide's join screen."""
    if box.screen() != "join":
        box.choose("token_tide")
    box.wait_screen("join")


def reader_starts(press, deck="numbered"):
    """Join screen -> setup -> deck (shuffled, numbered, short) -> the first tide card."""
    assert press("C") == "setup"
    for _ in range({"shuffled": 0, "numbered": 1, "short": 2}[deck]):
        assert press("B") == "setup"
    assert press("C") == "card"


def reader_turns_card(press):
    """The tide card -> the allocation (its timer starts)."""
    assert press("C") == "allocate"


def reader_reveals(press):
    """Everybody is ready -> the reveal, then a long press on C: the box goes to its last step (the
    standings) and the phones show the whole breakdown at once."""
    assert press("C") == "reveal"
    assert press("C", long=True) == "reveal"


def reader_ends_reveal(press):
    """The rest of the stepped reveal on the box; returns the screen after it (card or final)."""
    for _ in range(60):
        screen = press("C")
        if screen != "reveal":
            return screen
    raise AssertionError("the reveal never ended")


def reader_shows_rejoin_code(box, press, seat):
    """Menu -> Rejoin code -> the player at `seat` -> the code on the box; back to where it was.
    Returns the code (read from the saved game, where the box keeps it)."""
    back_to = box.screen()
    assert press("A") == "menu"
    assert press("A") == "menu"  # the next item: "Rejoin code"
    assert press("C") == "pick_seat"
    for _ in range(seat):
        assert press("A") == "pick_seat"
    assert press("C") == "show_code"
    saved = json.loads((Path(box.state_dir) / "game.json").read_text())
    codes = [code for code, s in saved["seats"]["codes"].items() if s == seat]
    assert len(codes) == 1, saved["seats"]["codes"]
    assert press("B") == back_to
    return codes[0]
