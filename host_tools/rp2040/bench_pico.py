"""`make bench-pico`: figures of the whole box on the emulated Pico W (make sim-pico's emulator).

    python host_tools/rp2040/bench_pico.py [--presses 12] [--no-waiting]
                                           [--browser | --no-browser]

Boots the shipped Tidebox firmware (boards/firmware/) with the bundle's ROMFS image as deploy writes
it (sim_pico.py) on an empty filesystem and measures, in the chip's time (125 MHz, rp2040js's
cycle-driven clock): boot to the game menu; the core's busy share while the box waits at the menu;
button press to the new frame on the panel (the press's first edge to the last byte of the frame
over I2C at 400 kHz, bounce, debouncing and drawing included); a save's flash work (choosing a game
saves the box). Lower bounds on one point: rp2040js reads flash at RAM speed (no XIP cache misses);
the flash times are the W25Q16JV's typical ones, modelled.

Then phones, over the emulated board's PPP link (sim_board.py brings up the firmware's own
network.PPP on UART0 at 1,000,000 baud; phones_ppp, lwIP's unix build on the host, is its other end
and relays the phones' TCP to the chip's lwIP): 8 phones join Token Tide and each polls `GET
/api/state?v=N` once a second of chip time (the phones wait on the chip's clock, as read from the
emulator every 50 ms of wall time). Every chip here runs with its time kept to the wall's
(pico_sim.mjs --realtime), as on a board: let run free, an idle chip skips ahead about 30 times
faster than real time, and phones that read its clock every 50 ms would poll in bursts, all eight in
one chip moment, more than its five connections. Measured in the chip's time from phones_ppp's
record of each connection: a poll's latency from the phone's connect (its SYN leaves for the chip at
once) to the box's close, p50 and p95; the core's busy share meanwhile (8 phones idle at the join
screen), the chip's lwIP and PPP included; and from the reveal press's first edge until every
phone's poll has brought it the reveal. What the link leaves out, so these figures do too: the
radio's CPU time (the CYW43's SPI traffic and driver) and Wi-Fi's own delays, DNS. The UART's
receive interrupts are the PL011's (trigger level 24 bytes, as network.PPP's IRQ_RXIDLE asks, and
the receive timeout), counted per poll. Where the firmware's ELF file is beside it, the core's time
in the UART driver's reads (network.PPP's, which spin until no byte has come for 1-2 ms: the
stand-in link's cost, not the box's) and in the heap's collections is printed apart (pico_sim.mjs's
--uart-read and --gc-collect), and each busy stretch below says how much of it was collections.
The eight phones' allocations (each a request through microdot and a save, half a second apart):
the longest busy stretch with one of them and its save.

From outside the chip, changing nothing the firmware does (pico_sim.mjs, "what the bench reads"):
the panel loop's gaps: its watchdog feed (every 8th pass while it runs, every pass while it rests
between edges and changes) gives windows of 8 passes or one; a gap between two passes is at most the
worst window, and at least the core's longest busy stretch (no sleep in between);
windows and stretches are flagged when a flash operation or a frame's I2C bytes fall in them, over
the game menu's presses (a frame each) and the save; the longest stretch with a frame and no save
(a press's own) is printed apart. The heap: the GC's allocation table read every
2 ms of chip time, its free bytes (as gc.mem_free() says, garbage not yet collected counted as
used) and largest free run at their lowest, from the game menu through Token Tide's first round
with the phones.
Then what a table screen (/table) costs the box (--no-table-screen leaves it out): the same round on
two fresh chips, Token Tide's join screen with the phones polling, then every phone locks in and the
reader reveals, once with the phones alone and once with a table screen beside them (its seatless
view once a chip second and the panel's copy as table.js asks for it): the core's busy share at the join
screen, presses of B there (the next page) and the round's presses to their frames, the reveal press
until every phone and the table screen have it, and the heap's low-water of each. Then the same on two
more fresh chips with every phone and the table screen waiting for a change instead (`?v=N&wait=1`,
asked again as soon as it is answered, as kit.js follow does where the box holds; the panel's copy on
its own every third chip second), and the heap the waits hold at the join screen (--no-waiting leaves
these out). Then Pearl Reach on a fresh chip (--pearl-reach-s wall seconds): one phone placing
on a free cell when its turn comes and the setup's default rival (sharp, 2 s a move); a rival's
move is two passes of the panel loop, its choice's and then its move's (a busy stretch with a save
to flash outside the phone's own move requests: its moves, the save and the redraw, and a phone's
poll when one falls in it), timed together and the longer alone; with the loop's windows and the heap
there.
Then whole games of The Quiet Dividend and Paper Current, each on a fresh chip with eight phones
polling once a chip second (--no-whole-games leaves them out): the heap's low-water and smallest
largest free block from the setup to the end (The Quiet Dividend: each turn a seeded legal turn from
the phone whose turn it is; Paper Current: the reader's presses, the phones' results).

Then the phones' pages (run by default when Chromium, /usr/bin/chromium, and Playwright are present;
--browser runs only this, --no-browser leaves it out), each game on a fresh chip: Token Tide's short
crossing with three headless Chromium phones at 375x667 (tests/support/phone_flow.py's steps and checks):
they join by the page, the reader starts the short deck by presses, four rounds (each phone types its
allocation and locks it with Ready; the reader turns the card, reveals with C and then a long C, and
steps on to the next card), the final standings; checked on each phone: its allocation locked as sent
(also in the box's /api/state), no other allocation received or held before the reveal and every one
shown after it, the reveal, the final totals and record sheet as tidebox's rules score them under
CPython. Timed in chip and wall time: a phone's join, the long C's first edge until every phone shows
the whole reveal, the whole crossing (and the emulator's speed then). The pages wait for each change;
the crossing again with them polling (a route drops `&wait=1`, so the box answers at once and the page
asks again a second later; --no-waiting leaves it out). Then through the phones' HTTP
API: a turn of The Quiet Dividend (two phones; then turns until the other phone has them, waiting and
polling), a round of Paper Current (two phones, the launches
from the box, the results from the phones, its score against the rules) and a turn of Pearl Reach (a
phone and the default rival), each checked against what its rules say.
"""

import argparse
import http.client
import shutil
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import build  # noqa: E402
import sim_pico  # noqa: E402
from pico_box import LONG_PRESS_MS, Chip, ChipError, find_key  # noqa: E402
from table import firmware_games  # noqa: E402

OUT = build.ROOT / "build" / "bench-pico"


def wait(emu, condition, what, timeout=120):
    try:
        return emu.wait_for(condition, what, timeout)
    except sim_pico.SimError as e:
        raise SystemExit("bench-pico: %s" % e) from None


def settled(emu, quiet_s=2.0, timeout=120):
    try:
        return emu.settled(quiet_s, timeout)
    except sim_pico.SimError as e:
        raise SystemExit("bench-pico: %s" % e) from None


WAIT_S = 300  # a wait's HTTP timeout, wall seconds: the box holds it 20 chip s, and the emulator may be slow


class Phones:
    """n phones over the PPP link, each polling once a second of chip time once it has a seat, or with
    `waits` waiting for a change as the page does where the box holds it (`?v=N&wait=1`, asked again
    as soon as it is answered: kit.js follow). A clock thread reads the emulator's status every 50 ms
    of wall time: the chip's time, and phones_ppp's records of connections (by the phone's port), kept
    here before they scroll away."""

    def __init__(self, emu, n, table=False, waits=False):
        self.emu = emu
        self.n = n
        self.table = table  # and a table screen (/table): its view and the panel's copy, once a chip second
        self.waits = waits
        self.frame = None
        self.table_polls = 0
        self.status = emu.status()
        self.records = {}
        self.polls = []  # (port, view) of every poll answered
        self.waited = []  # (port, whether it brought a change) of every wait answered
        self.tokens = []
        self.versions = []
        self.stopping = False
        self.polling = False
        self.errors = []
        self.threads = [threading.Thread(target=self.clock, daemon=True)]
        self.threads[0].start()

    def clock(self):
        while not self.stopping:
            try:
                self.status = self.emu.status()
            except OSError:
                continue
            for r in self.status["link"]["recent"]:
                self.records[r["port"]] = r
            time.sleep(0.05)

    def chip_ms(self):
        return self.status["chip_ms"]

    def join(self):
        for i in range(self.n):
            code, answer, _ = self.emu.phone("POST", "/api/join", {"name": "Phone%d" % (i + 1)})
            if code != 200:
                raise SystemExit("bench-pico: phone %d could not join: %s %s" % (i + 1, code, answer))
            self.tokens.append(answer["token"])
            self.versions.append(-1)
        if self.table:
            self.tokens.append(None)  # the table screen takes no seat
            self.versions.append(-1)

    def catch_up(self):
        """Each phone's (and the table screen's) whole view once, as a page's first ask: their first
        waits then find the box's version and are held at once."""
        for i, token in enumerate(self.tokens):
            self.answered(i, *self.emu.phone("GET", "/api/state", token=token))
        if self.table:
            self.panel()

    def start_polling(self):
        self.polling = True
        start = self.chip_ms()
        for i in range(len(self.tokens)):
            if self.waits:  # not joined at the end: a held wait ends with the emulator
                threading.Thread(target=self.follow, args=(i,), daemon=True).start()
                continue
            t = threading.Thread(target=self.poll, args=(i, start + 1000 * i / len(self.tokens)), daemon=True)
            t.start()
            self.threads.append(t)
        if self.waits and self.table:
            # the panel's copy goes on every third chip second beside the view's wait (table.js panelTick)
            t = threading.Thread(target=self.panel_ticks, args=(start + 3000,), daemon=True)
            t.start()
            self.threads.append(t)

    def answered(self, i, code, view, port):
        if code == 200:
            self.versions[i] = view["v"]
            self.polls.append((port, i, view))
        else:
            self.errors.append("%s %s" % (code, view))

    def poll(self, i, due):
        while not self.stopping:
            while self.chip_ms() < due and not self.stopping:
                time.sleep(0.01)
            if self.stopping:
                return
            try:
                code, view, port = self.emu.phone("GET", "/api/state?v=%d" % self.versions[i],
                                                  token=self.tokens[i])
            except OSError as e:
                self.errors.append(repr(e))
                due += 1000
                continue
            self.answered(i, code, view, port)
            if self.tokens[i] is None:
                # as table.js: the panel when the box changed, else every third second in its corner
                self.table_polls += 1
                if code == 200 and "box" in view or self.table_polls % 3 == 0:
                    self.panel()
            due += 1000

    def follow(self, i):
        """Waits for the box's next change, and again as soon as the answer came (kit.js follow)."""
        while not self.stopping:
            try:
                code, view, port = self.emu.phone("GET", "/api/state?v=%d&wait=1" % self.versions[i],
                                                  token=self.tokens[i], timeout=WAIT_S)
            except OSError as e:
                if not self.stopping:  # (the emulator's stop cuts a held wait)
                    self.errors.append(repr(e))
                    time.sleep(1)
                continue
            self.answered(i, code, view, port)
            self.waited.append((port, code == 200 and "box" in view))
            if self.tokens[i] is None and code == 200 and "box" in view:
                self.panel()  # as table.js: the box's screen has most likely changed with it

    def panel_ticks(self, due):
        while not self.stopping:
            while self.chip_ms() < due and not self.stopping:
                time.sleep(0.01)
            if not self.stopping:
                self.panel()
            due += 3000

    def held_ms(self):
        """(chip ms, brought a change) of each answered wait, connect to close."""
        closed = [(self.records.get(port), changed) for port, changed in self.waited]
        return [(r["closed_ms"] - r["accepted_ms"], changed) for r, changed in closed
                if r and r["closed_ms"] is not None]

    def panel(self):
        """The table screen's copy of the panel, as table.js asks for it: the frame it has, and the
        bytes only when the panel has drawn another."""
        conn = http.client.HTTPConnection("127.0.0.1", self.emu.http_port, timeout=60)
        try:
            conn.request("GET", "/api/panel" + ("" if self.frame is None else "?f=" + self.frame),
                         headers={"Connection": "close"})
            r = conn.getresponse()
            body = r.read()
            if r.status == 200 and len(body) == 1024:
                self.frame = r.getheader("X-Frame")
            elif r.status != 204:
                self.errors.append("panel %s %r" % (r.status, body[:80]))
        except OSError as e:
            self.errors.append("panel " + repr(e))
        finally:
            conn.close()

    def latency(self, record):
        """Chip ms from the phone's connection (its SYN leaves for the chip at once) to the box's close:
        the handshake, the request, the answer; None unless the box answered and closed."""
        if record is None or record["closed_ms"] is None or record["answer_ms"] is None:
            return None
        return record["closed_ms"] - record["accepted_ms"]

    def stop(self):
        self.stopping = True
        for t in self.threads:
            t.join(70)


def reveal_reached(phones, pressed_ms):
    """{phone: chip ms from the reveal press until its poll that brought the reveal closed}, for
    every poller (a table screen's too), or as many as had it within two minutes of wall time."""
    deadline = time.monotonic() + 120
    got = {}
    while len(got) < len(phones.tokens) and time.monotonic() < deadline:
        for port, i, view in list(phones.polls):
            if i not in got and view.get("shown", {}).get("reveal"):
                r = phones.records.get(port)
                if r and r["closed_ms"] is not None and r["closed_ms"] > pressed_ms:
                    got[i] = r["closed_ms"] - pressed_ms
        time.sleep(0.2)
    return got


def percentile(xs, p):
    s = sorted(xs)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def press_and_wait(emu, button, what, hold_ms=120, frames=None):
    """A press, returned from once its frame is drawn and the box has settled; with `frames` (a list)
    the chip ms from the press's first edge to its frame's last byte is appended to it."""
    before = emu.status()["panel"]["frames"]
    emu.press(button, hold_ms)
    s = wait(emu, lambda s, n=before: s["panel"]["frames"] > n, what, 60)
    if frames is not None:
        frames.append(s["panel"]["last_frame"]["at_ms"] - s["last_press"]["at_ms"])
    return settled(emu, 1.0)


def loop_rows(status, what):
    """The panel loop's worst gaps from the emulator's monitors since its last reset (see pico_sim.mjs)."""
    feeds = status["loop"]["feeds"]
    runs = status["loop"]["stretches"]
    rows = []
    for flag, label in (("flash", "a save to flash"), ("frame", "a full-frame I2C write")):
        longest = max((r for r in runs if r[flag]), key=lambda r: r["ms"], default=None)
        worst = feeds[flag]
        # A feed comes every 8th pass while the loop runs and at every pass while it rests (running.py),
        # so a window bounds a gap from above only as it is; a pass is at least the busy stretch in it.
        rows.append(("  worst window between watchdog feeds (8 passes, or 1 at rest) during %s (%s): the "
                     "gap between two passes is at most it; the longest busy stretch of the core then, at "
                     "least it (and the heap's collections in that stretch)"
                     % (label, what),
                     "%.1f ms window; stretch %.1f ms%s" % (worst, longest["ms"], gc_part(longest))
                     if worst and longest else "none seen", "<= 30 ms"))
        if flag == "frame":
            own = max((r for r in runs if r["frame"] and not r["flash"]), key=lambda r: r["ms"], default=None)
            rows.append(("  the longest busy stretch with a frame's I2C write and no save (a press's own "
                         "frame)", "%.1f ms%s" % (own["ms"], gc_part(own)) if own else "none seen",
                         "<= 30 ms"))
    rows.append(("  worst window between feeds overall (%d windows)" % feeds["n"], "%.1f ms" % feeds["all"],
                 "-"))
    return rows


def gc_part(run):
    return " (collections %.1f ms)" % run["gc_ms"] if run.get("gc_ms") is not None else ""


def heap_row(status, what):
    low = status["heap_low"]
    if not low:
        return (what, "no heap found", "-")
    return (what, "%.1f KB free, largest free block %.1f KB (pool %.1f KB)"
            % (low["free"] / 1024, low["largest_free"] / 1024, low["pool"] / 1024), "-")


def rival_moves(runs, phone_moves):
    """(choice ms, move ms) of each rival move among the core's busy stretches: the move is a stretch
    with a save to flash outside the phone's own moves (`phone_moves`: the chip-ms spans of its move
    requests, connect to close; the phone's polls may fall in a rival's stretch, as on a board);
    its choice the pass before it (tidebox's Pearl Reach flow chooses at one pass of the panel loop and
    moves at the next, 20 ms on), a stretch with no save that ended at most 40 ms before the move began
    (0 when none was long enough to be kept: STRETCH_MIN_MS in pico_sim.mjs)."""
    moves = []
    for i, run in enumerate(runs):
        if not run["flash"] or overlaps(run, phone_moves):
            continue
        choice = 0
        if i and not runs[i - 1]["flash"]:
            before = runs[i - 1]
            if run["at_ms"] - (before["at_ms"] + before["ms"]) <= 40:
                choice = before["ms"]
        moves.append((choice, run["ms"]))
    return moves


def overlaps(run, spans):
    """Whether a busy stretch overlaps any of the (start, end) chip-ms spans (phones' connections)."""
    return any(start <= run["at_ms"] + run["ms"] and run["at_ms"] <= end for start, end in spans)


def connection_span(emu, port, timeout=10):
    """(accepted, closed) chip ms of a phone's connection, once phones_ppp has seen it closed."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for r in emu.status()["link"]["recent"]:
            if r["port"] == port and r["closed_ms"] is not None:
                return r["accepted_ms"], r["closed_ms"]
        time.sleep(0.05)
    raise SystemExit("bench-pico: no record of the phone's connection from port %d" % port)


def pearl_reach(flash_out, wall_s, rows):
    """Pearl Reach on a fresh chip: one phone and the setup's default rival (sharp, 2 s a move), the
    phone placing on a free cell at its turns; a rival's move is its choice's pass and its move's, the
    core's busy stretch with a save to flash in it outside the phone's move requests (rival_moves)."""
    flash = sim_pico.prepare(flash_out, fresh=True)
    emu = sim_pico.Emulator(flash, flash_out / "pico-sim.log", realtime=True)
    try:
        wait(emu, lambda s: "tidebox: pico_w on port" in s["console"], "the box's start")
        settled(emu)
        for _ in range(3):  # Token Tide, The Quiet Dividend, Paper Current, Pearl Reach
            press_and_wait(emu, "A", "the next game", 120)
        press_and_wait(emu, "C", "Pearl Reach's join screen", 120)
        code, answer, _ = emu.phone("POST", "/api/join", {"name": "Ada"})
        if code != 200:
            raise SystemExit("bench-pico: Ada could not join Pearl Reach: %s %s" % (code, answer))
        token = answer["token"]
        press_and_wait(emu, "C", "Pearl Reach's setup", 120)
        press_and_wait(emu, "C", "Pearl Reach's board", 120)
        emu._call("/monitor", {})
        start = emu.status()["chip_ms"]
        deadline = time.monotonic() + wall_s
        over = False
        phone_moves = []
        while time.monotonic() < deadline and not over:
            code, view, _ = emu.phone("GET", "/api/state", token=token)
            game = view.get("game", {}) if code == 200 else {}
            over = view.get("box") == "over" or bool(game.get("winners"))
            if code == 200 and game.get("you") in (game.get("to_act") or ()) and not over:
                costs = find_key(view, "costs") or []
                cells = [c for c, cost in enumerate(costs) if cost == 0] + \
                        [c for c, cost in enumerate(costs) if cost == 1]
                for c in cells:
                    move = {"move": "place", "args": {"cell": c}}
                    code, _, port = emu.phone("POST", "/api/move", move, token=token)
                    phone_moves.append(connection_span(emu, port))
                    if code == 200:
                        break
            time.sleep(1.0)
        s = emu.status()
        runs = [r for r in s["loop"]["stretches"] if r["at_ms"] >= start]
        moves = rival_moves(runs, phone_moves)
        whole = [choice + move for choice, move in moves]
        passes = [ms for pair in moves for ms in pair]
        played = "the whole game" if over else "%.0f chip s of a game" % ((s["chip_ms"] - start) / 1000)
        rows.append(("Pearl Reach rival move: its choice's pass and its move's (rules, save, redraw) "
                     "(median / worst of %d, %s)" % (len(whole), played),
                     "%.1f / %.1f ms" % (median(whole), max(whole)) if whole else "no rival move seen",
                     "<= 200 ms"))
        rows.append(("  the longest of those passes (the buttons and phones wait at most this)",
                     "%.1f ms" % max(passes) if passes else "-", "-"))
        rows.extend(loop_rows(s, "Pearl Reach"))
        rows.append(heap_row(s, "heap low-water / smallest largest free block through Pearl Reach (%s)"
                             % ("a whole game" if over else "part of a game")))
    finally:
        emu.stop()


# ---------------------------------------------------------------- whole games with eight phones
# The Quiet Dividend and Paper Current played to their ends on a fresh chip, eight phones polling once
# a chip second: the heap's low-water and smallest largest free block through the whole game (Token
# Tide's first round and Pearl Reach are above).


def whole_game(flash_out, play, phones_n, rows):
    """`play` (a game's ChipPlay, as the evening plays it: its setup presses and its play) played whole
    on a fresh chip by `phones_n` phones polling once a chip second."""
    games = firmware_games()
    title = games.load(play.game).TITLE
    flash = sim_pico.prepare(flash_out, fresh=True)
    emu = sim_pico.Emulator(flash, flash_out / "pico-sim.log", realtime=True)
    try:
        wait(emu, lambda s: "tidebox: pico_w on port" in s["console"], "the box's start")
        settled(emu)
        for _ in range([game for game, _ in games.GAMES].index(play.game)):
            press_and_wait(emu, "A", "the next game", 120)
        press_and_wait(emu, "C", "the join screen", 120)
        phones = Phones(emu, phones_n)
        try:
            phones.join()
            phones.start_polling()
            emu._call("/monitor", {})  # the heap from the setup on
            chip = Chip(emu)
            for button in play.setup:
                chip.press(button)
            start, wall0 = emu.status(), time.monotonic()
            play.play(chip, phones.tokens)
            end = emu.status()
        finally:
            phones.stop()
        if end["boots"] != 1:
            raise SystemExit("bench-pico: the chip restarted during %s: %s" % (play.game, end["resets"]))
        rows.append(heap_row(end, "heap low-water / smallest largest free block through a whole game of %s "
                             "with %d phones (%.0f s chip, %.0f s wall; %d phone errors)" % (
                                 title, phones_n, (end["chip_ms"] - start["chip_ms"]) / 1000,
                                 time.monotonic() - wall0, len(phones.errors))))
    finally:
        emu.stop()


def table_round(flash_out, phones_n, poll_s, table, waits=False, presses=8):
    """A fresh chip at Token Tide's join screen with `phones_n` phones polling once a chip second (with
    `waits`, waiting for a change instead), and with `table` a table screen as well: the core's busy
    share over `poll_s` idle chip seconds; `presses` presses of B (the join screen's next page: the
    box's version stays, so the waits stay held), each timed to its frame; every phone locks in, the
    reader reveals; from the press until every phone (and the table screen) has the reveal; the heap
    from the join screen through the reveal. Returns a dict: busy (share; reads: the UART driver's
    reads' share, or None), got ({poller: ms}), status (the emulator's last), frames (press to frame
    ms: the B presses, then the round's C presses), held (with `waits`: held_heap's), waits
    (Phones.held_ms)."""
    flash = sim_pico.prepare(flash_out, fresh=True)
    emu = sim_pico.Emulator(flash, flash_out / "pico-sim.log", realtime=True)
    try:
        wait(emu, lambda s: "tidebox: pico_w on port" in s["console"], "the box's start")
        settled(emu)
        press_and_wait(emu, "C", "Token Tide's join screen")  # the menu's first game
        emu._call("/monitor", {})  # the heap from here
        phones = Phones(emu, phones_n, table=table, waits=waits)
        frames, held = [], None
        try:
            phones.join()
            if waits:
                held = held_heap(emu, phones)
            else:
                phones.start_polling()
            time.sleep(3)  # the first polls (whole views) are not the idle ones
            c0, b0 = phones.chip_ms(), phones.status
            while phones.chip_ms() < c0 + 1000 * poll_s:
                time.sleep(0.2)
            b1 = phones.status
            busy = (b1["busy_ms"] - b0["busy_ms"]) / max(1, b1["uptime_ms"] - b0["uptime_ms"])
            reads = share(b0, b1, "uart_read_ms")
            for _ in range(presses):
                press_and_wait(emu, "B", "the join screen's next page", frames=frames)
            press_and_wait(emu, "C", "the setup screen", frames=frames)
            press_and_wait(emu, "C", "the tide card", frames=frames)
            for i, token in enumerate(phones.tokens[:phones_n]):
                code, answer, _ = emu.phone("POST", "/api/move", {"move": "allocate", "args": {
                    "allocation": [3, 2, 2], "ready": True}}, token=token)
                if code != 200:
                    raise SystemExit("bench-pico: phone %d's allocation: %s %s" % (i + 1, code, answer))
            press_and_wait(emu, "C", "the allocation screen", frames=frames)
            time.sleep(2)
            emu.press("C", 120)
            pressed = emu.status()
            if pressed["boots"] != 1:
                raise SystemExit("bench-pico: the chip restarted: %s" % pressed["resets"])
            got = reveal_reached(phones, pressed["last_press"]["at_ms"])
        finally:
            phones.stop()
        if phones.errors:
            print("# phones' errors%s%s: %d, e.g. %s" % (" (with a table screen)" if table else "",
                                                        " (waiting)" if waits else "",
                                                        len(phones.errors), phones.errors[:3]))
        return {"busy": busy, "reads": reads, "got": got, "status": emu.status(), "frames": frames,
                "held": held, "waits": phones.held_ms()}
    finally:
        emu.stop()


def held_heap(emu, phones):
    """The heap at the join screen with no request held and then with every phone's (and the table
    screen's) wait held; starts the phones following. Returns (free bytes before, free bytes held,
    waits held, the core's busy share meanwhile at the join screen, the phones joined and no request
    out). Both read after
    the box's idle collection, before any other request: what the waits hold (each its connection's
    objects, its task and coroutines, its token), and the little garbage of reading them."""
    phones.catch_up()
    time.sleep(2)  # the panel loop collects once the views are served and no connection is open
    s0 = emu.status()
    time.sleep(5)
    s1 = emu.status()
    before = s1["heap"]["free"]
    phones.start_polling()
    n = len(phones.tokens)
    s = wait(emu, lambda s: s["link"]["open"] >= n, "every phone's wait held", 60)
    # read by the box, before the table screen's first panel copy (3 chip s in): lwIP hands a
    # request over at its next TCP timer (every 64 ms; 250 ms on stock firmware)
    s = wait(emu, lambda s2, t=s["chip_ms"]: s2["chip_ms"] >= t + 600, "the waits read", 60)
    return before, s["heap"]["free"], n, share(s0, s1)


def share(s0, s1, link_ms=None):
    """The core's busy share between two statuses, or with `link_ms` that of a link's time figure
    (uart_read_ms: the UART driver's reads; None where the firmware's symbols are not known)."""
    if link_ms is None:
        part = s1["busy_ms"] - s0["busy_ms"]
    elif s1["link"][link_ms] is None:
        return None
    else:
        part = s1["link"][link_ms] - s0["link"][link_ms]
    return part / max(1, s1["uptime_ms"] - s0["uptime_ms"])


def table_screen(flash_out, args, rows):
    """What a table screen costs the box: the same round on two fresh chips, without and with one;
    and, unless --no-waiting, on two more with every phone and the table screen waiting for a change."""
    alone = table_round(flash_out / "phones", args.phones, args.poll_s, False)
    both = table_round(flash_out / "table", args.phones, args.poll_s, True)
    rows.append(("core busy with %d phones idle at the join screen: alone / with a table screen (its view "
                 "once a chip second, and the panel's copy)" % args.phones,
                 "%.1f %% / %.1f %%" % (100 * alone["busy"], 100 * both["busy"]), "-"))
    everyone = args.phones + 1
    rows.append(("reveal press until every phone and the table screen have it (%d phones)" % args.phones,
                 "%.0f ms (the table screen %.0f ms)" % (max(both["got"].values()),
                                                         both["got"].get(args.phones, -1))
                 if len(both["got"]) == everyone else "only %d of %d got it" % (len(both["got"]), everyone),
                 "<= 1.2 s"))
    rounds = [("alone", alone), ("with a table screen", both)]
    if args.waiting:
        w_alone = table_round(flash_out / "phones-waiting", args.phones, args.poll_s, False, waits=True)
        w_both = table_round(flash_out / "table-waiting", args.phones, args.poll_s, True, waits=True)
        rounds += [("alone, waiting", w_alone), ("with a table screen, waiting", w_both)]
        rows.append(("  the same, every phone (and the table screen) waiting for a change (?v=N&wait=1, "
                     "asked again at once; the panel's copy every third chip second): alone / with a "
                     "table screen", "%.1f %% / %.1f %%" % (100 * w_alone["busy"], 100 * w_both["busy"]),
                     "<= 2 %"))
        def reads(pair):
            return " / ".join("%.1f %%" % (100 * r["reads"]) if r["reads"] is not None else "-" for r in pair)

        rows.append(("  where it goes: the join screen with the phones joined and no request out (5 chip s "
                     "before the waits); the UART driver's reads (the stand-in link's spin), polling and "
                     "waiting, alone / with a table screen", "%.1f %%; polling %s, waiting %s" % (
                         100 * w_alone["held"][3], reads((alone, both)), reads((w_alone, w_both))), "-"))
        got = w_both["got"]
        rows.append(("  reveal press until every phone and the table screen have it, waiting (median / "
                     "worst of %d)" % everyone,
                     "%.0f / %.0f ms (the table screen %.0f ms)" % (
                         median(list(got.values())), max(got.values()), got.get(args.phones, -1))
                     if len(got) == everyone else "only %d of %d got it" % (len(got), everyone),
                     "<= 300 / 600 ms"))
        for label, run, goal in (("polling", both, "-"), ("waiting", w_both, "<= 50 ms")):
            f = run["frames"]
            rows.append(("button press to the new frame, %d phones %s and a table screen: B at the join "
                         "screen (the page; the waits stay held) / the round's C presses (the box moves on: "
                         "every wait answered) (median / worst of %d / %d)"
                         % (args.phones, label, len(f) - 3, 3),
                         "%.1f / %.1f ms; %.1f / %.1f ms" % (median(f[:-3]), max(f[:-3]), median(f[-3:]),
                                                             max(f[-3:])), goal))
        before, during, n, _ = w_both["held"]
        rows.append(("  the heap held by waiting requests at the join screen: free with none / with %d held "
                     "(each: its connection, its task and coroutines, its token)" % n,
                     "%.1f / %.1f KB: %.0f B a wait" % (before / 1024, during / 1024, (before - during) / n),
                     "-"))
        for label, run in (("alone", w_alone), ("with a table screen", w_both)):
            held = run["waits"]
            print("# waits answered (%s): %d, %d of them unchanged after the box's 20 s; the longest held "
                  "%.1f s chip" % (label, len(held), sum(1 for _, changed in held if not changed),
                                   max((ms for ms, _ in held), default=0) / 1000))
    for label, run in rounds:
        rows.append(heap_row(run["status"], "  heap low-water / smallest largest free block, the join screen "
                             "through the reveal, %d phones %s" % (args.phones, label)))


# ---------------------------------------------------------------- the phones' pages (--browser)
# Token Tide's short crossing with three headless Chromium phones (tests/support/phone_flow.py's steps, checks
# and expected figures from the rules under CPython), then a turn or round of every other game through
# the phones' HTTP API, each game on a fresh chip.

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu"]
LONG_MS = 700  # tidebox/buttons.py: a long press acts once held this long
PAGE_WAIT_S = 180  # an emulated chip at a fraction of real time on a busy machine: be patient


def browser_ready():
    """Why the browser section cannot run here, or None when Chromium and Playwright are present."""
    if not Path(CHROMIUM).exists():
        return "no %s" % CHROMIUM
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "no Playwright"
    return None


def flow_modules():
    """tests/support/phone_flow.py (the phones' steps and what they check) and the firmware's Token
    Tide rules, imported under CPython as the tests do."""
    for where in (build.FIRMWARE, build.ROOT / "tests" / "support"):
        if str(where) not in sys.path:
            sys.path.append(str(where))
    import phone_flow

    return phone_flow


class Base:
    """The browser section's base flash (a fresh filesystem) and the firmware it was made from."""

    def __init__(self, flash):
        self.flash = flash


def fresh_box(work, base, log_name):
    """A new emulator on a copy of the base flash (a fresh filesystem), booted to the game menu; its
    time kept to the wall's, as the browsers' pages poll by theirs (a second between polls)."""
    work.mkdir(parents=True, exist_ok=True)
    flash = work / ("%s.bin" % log_name)
    shutil.copyfile(base.flash, flash)
    emu = sim_pico.Emulator(flash, work / ("%s.log" % log_name), realtime=True)
    try:
        wait(emu, lambda s: "tidebox: pico_w on port" in s["console"], "the box's start", timeout=600)
        settled(emu, timeout=300)
    except BaseException:
        emu.stop()
        raise
    return emu


def token_tide_crossing(work, base, rows, checks, rounds=None, polling=False):
    """The short crossing: three Chromium phones join by the page, the reader starts the short deck on
    the box, four rounds (each phone types its allocation and locks it; the reader reveals, C then a
    long C), the final standings on every phone. `rounds`: only the first so many, to their reveals
    (no final standings then). The pages wait for each change, as on Tidebox's firmware; with `polling`
    a route drops `&wait=1` from their waits, so the box answers at once, as stock firmware does, and
    the pages ask again a second later (kit.js follow)."""
    from playwright.sync_api import expect, sync_playwright

    pf = flow_modules()
    names = list(pf.CROSSING)
    ready_text = "Everybody is ready: the reader reveals on the box."

    class Phone(pf.PlaywrightPhone):
        """A phone whose waits are long enough for the emulated chip, recording what its fetch() got."""

        viewport = (375, 667)

        def expect_text(self, css, expected, timeout=PAGE_WAIT_S):
            super().expect_text(css, expected, timeout)

        def expect_visible(self, css, timeout=PAGE_WAIT_S):
            super().expect_visible(css, timeout)

        def expect_hidden(self, css, timeout=PAGE_WAIT_S):
            super().expect_hidden(css, timeout)

        def expect_count(self, css, n, timeout=PAGE_WAIT_S):
            super().expect_count(css, n, timeout)

        def responses(self):
            return [tuple(r) for r in self.call("() => window.__responses || []")]

    def no_leaks(phones, allocations, text_too):
        for me, phone in enumerate(phones):
            others = {n: a for n, a in zip(names, allocations) if n != names[me] and a != allocations[me]}
            found = pf.secrets_received(phone.responses(), others)
            found += pf.secrets_held(phone.page_content(), others, text_too, mine=allocations[me])
            if found:
                raise SystemExit("bench-pico: before the reveal %s's phone has %s" % (names[me], found))

    def all_revealed(phones, allocations):
        for me, phone in enumerate(phones):
            text = phone.page_content()["text"]
            for n, a in zip(names, allocations):
                if not any(p.search(text) for p in pf.island_text(a)):
                    raise SystemExit("bench-pico: %s's reveal does not show %s's %s" % (names[me], n, a))

    how = "pages polling once a second (&wait=1 dropped)" if polling else "pages waiting for a change"
    emu = fresh_box(work, base, "token-tide-polling" if polling else "token-tide")
    chip = Chip(emu)
    expect.set_options(timeout=PAGE_WAIT_S * 1000)
    url = "http://127.0.0.1:%d/" % emu.http_port
    joins, reveals, reveals_chip, first_chip, sent_chip = [], [], [], [], []
    try:
        chip.press("C")  # Token Tide, the menu's first game: its join screen
        start_wall, start = time.monotonic(), emu.status()
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            try:
                phones = []
                for name in names:
                    page = browser.new_context(viewport={"width": 375, "height": 667}).new_page()
                    page.set_default_timeout(PAGE_WAIT_S * 1000)
                    if polling:
                        page.route(lambda u: "wait=1" in u, lambda route: route.continue_(
                            url=route.request.url.replace("&wait=1", "")))
                    phone = Phone(page)
                    page.goto(url, timeout=PAGE_WAIT_S * 1000)
                    phone.call(pf.RECORD_FETCH_JS)
                    t0, s0 = time.monotonic(), emu.status()
                    pf.join(phone, name)
                    s1 = emu.status()
                    joins.append((time.monotonic() - t0, s1["emulated_ms"] - s0["emulated_ms"]))
                    phones.append(phone)
                for phone in phones:
                    phone.expect_text("#seatsHead", "At the table: 3 players")
                checks.append("three phones joined by the page (name, Join, the lobby with all three)")
                # the reader: setup, the deck line to "short crossing", the first tide card
                chip.press("C")
                chip.press("B")
                chip.press("B")
                chip.press("C")
                totals = [0, 0, 0]
                played = pf.SHORT if rounds is None else pf.SHORT[:rounds]
                for r, card in enumerate(played):
                    allocations = [pf.CROSSING[n][r] for n in names]
                    for phone in phones:
                        pf.expect_round(phone, r, 4, card)
                        phone.call("() => { window.__responses = []; }")
                    chip.press("C")  # the card's C: the allocation and its timer
                    for phone in phones:
                        phone.expect_visible("#timer")
                    for phone, allocation in zip(phones, allocations):
                        pf.place_by_typing(phone, allocation)
                        pf.expect_placed(phone, allocation)
                        pf.lock(phone, allocation)  # the page shows it locked as sent
                    for phone, allocation, name in zip(phones, allocations, names):
                        phone.expect_text("#status", ready_text)
                        mine = chip.view(phone.token())["game"]
                        if mine["mine"] != allocation or not mine["locked"]:
                            raise SystemExit("bench-pico: the box holds %s for %s, sent %s locked"
                                             % (mine["mine"], name, allocation))
                    no_leaks(phones, allocations, text_too=r == 0)
                    best, lines, totals = pf.expected_reveal(names, card, allocations, totals)
                    chip.press("C")  # the reveal's first step
                    for phone in phones:
                        pf.expect_reveal_step(phone, 0, best, lines)
                    t0 = time.monotonic()
                    # straight to the standings: everything at once. Pressed here, not by chip.press, which
                    # returns 600 ms past the release: the pages are watched from the first edge on
                    emu.press("C", LONG_PRESS_MS)
                    pressed = emu.status()["last_press"]
                    seen = {}
                    deadline = time.monotonic() + PAGE_WAIT_S
                    while len(seen) < 3 and time.monotonic() < deadline:
                        for i, phone in enumerate(phones):
                            if i not in seen and phone.shown("#revealStand") and phone.shown("#revealRows"):
                                chip_now = emu.status()["uptime_ms"]
                                seen[i] = (time.monotonic() - t0, chip_now - pressed["at_ms"])
                        time.sleep(0.05)
                    if len(seen) < 3:
                        raise SystemExit("bench-pico: round %d's reveal reached only %d phones"
                                         % (r + 1, len(seen)))
                    wait(emu, lambda s, at=pressed["at_ms"]: s["uptime_ms"] >= at + LONG_PRESS_MS + 600,
                         "the long C's end", PAGE_WAIT_S)
                    reveals.append(max(w for w, _ in seen.values()))
                    reveals_chip.append(max(c for _, c in seen.values()))
                    first_chip.append(min(c for _, c in seen.values()))
                    # the box's and the link's part: the pages' answers since the press that carried a
                    # whole view (an unchanged one is 137 bytes), the third one's close
                    views = sorted(r["closed_ms"] for r in emu.status()["link"]["recent"]
                                   if r["closed_ms"] is not None and r["closed_ms"] > pressed["at_ms"]
                                   and r["bytes_out"] > 1024)
                    if len(views) >= 3:
                        sent_chip.append(views[2] - pressed["at_ms"])
                    for me, phone in enumerate(phones):
                        pf.expect_reveal(phone, me, r, card, best, lines, rounds=4)
                    all_revealed(phones, allocations)
                    if len(played) < len(pf.SHORT) and r == len(played) - 1:
                        break  # the last round asked for, to its reveal
                    # the rest of the stepped reveal on the box: C until the phones leave the reveal
                    for _ in range(8):
                        chip.press("C")
                        view = chip.view(phones[0].token())["game"]
                        if view["round"] > r or view["phase"] == "over":
                            break
                    else:
                        raise SystemExit("bench-pico: round %d's reveal never ended on the box" % (r + 1))
                checks.append("each round: the page shows the short deck's card (Round n of 4), every "
                              "phone's allocation typed, placed and locked as sent (the page and the box's "
                              "/api/state), everybody ready")
                checks.append("before each reveal no phone received or holds another's allocation (fetch "
                              "answers, markup, inputs, storage; the text too in round 1); after it every "
                              "phone's reveal shows every allocation, the winning amounts, each island's "
                              "points and reasons and the totals as tidebox's rules score them under CPython")
                if len(played) == len(pf.SHORT):  # the whole crossing: its final standings
                    view = chip.wait_view(phones[0].token(), lambda v: v["game"]["phase"] == "over",
                                     "the final")
                    box_totals = [pl["total"] for pl in view["game"]["players"]]
                    winners = view["game"]["winners"]
                    if box_totals != totals:
                        raise SystemExit("bench-pico: the box's totals %s, the rules' %s"
                                         % (box_totals, totals))
                    for me, phone in enumerate(phones):
                        phone.expect_visible("#final")
                        phone.expect_text("#winners", pf.winners_line(names, totals, winners))
                        phone.expect_text("#standings li", pf.standings_lines(names, totals, winners, me))
                        sheet = pf.sheet_rows(phone)
                        if sheet != pf.expected_sheet(names, pf.CROSSING, pf.SHORT, me):
                            raise SystemExit("bench-pico: %s's record sheet %s" % (names[me], sheet))
                    checks.append("the final standings on every phone: winners, ranks and totals %s (the "
                                  "rules' and the box's /api/state alike), each phone's record sheet round "
                                  "by round" % totals)
            finally:
                browser.close()
        end, end_wall = emu.status(), time.monotonic()
        if end["boots"] != 1:
            raise SystemExit("bench-pico: the chip restarted during the crossing: %s" % end["resets"])
    finally:
        emu.stop()
    wall = end_wall - start_wall
    chip_s = (end["emulated_ms"] - start["emulated_ms"]) / 1000
    rows.append(("Token Tide short crossing, 3 Chromium phones (375x667), %s: a phone's join by the page, "
                 "Join to the lobby (median / worst of 3; chip, wall)" % how,
                 "%.1f / %.1f s chip; %.1f / %.1f s wall" % (
                     median([c for _, c in joins]) / 1000, max(c for _, c in joins) / 1000,
                     median([w for w, _ in joins]), max(w for w, _ in joins)), "-"))
    rows.append(("  reveal (the first edge of the long C, held 800 ms) until every phone shows the whole "
                 "breakdown, %d round(s) (median / worst; chip, wall; the first phone, chip)" % len(reveals),
                 "%.0f / %.0f ms chip; %.1f / %.1f s wall; first %.0f ms chip" % (
                     median(reveals_chip), max(reveals_chip), median(reveals), max(reveals),
                     median(first_chip)), "<= 1.2 s"))
    # a long press acts once held 700 ms (buttons.LONG_MS, from its settled edge): the reveal is the box's
    # from then on
    rows.append(("  the same from the long press's taking (700 ms after the first edge), %s (median / "
                 "worst)" % how, "%.0f / %.0f ms chip" % (median(reveals_chip) - LONG_MS,
                                                          max(reveals_chip) - LONG_MS),
                 "-" if polling else "<= 300 / 600 ms"))
    rows.append(("  of which the box and the link: from the long press's taking until the box has closed the "
                 "third page's answer with the reveal (median / worst of %d)" % len(sent_chip),
                 "%.0f / %.0f ms chip" % (median(sent_chip) - LONG_MS, max(sent_chip) - LONG_MS)
                 if sent_chip else "not found", "-"))
    rows.append(("  the crossing from the first join to %s on every phone (chip, wall; the emulator's speed "
                 "then)" % ("the final standings" if len(reveals) == len(flow_modules().SHORT) else
                            "the last round's reveal"),
                 "%.0f s chip; %.0f s wall; %.2f x real time" % (chip_s, wall, chip_s / wall), "-"))
    return chip_s / wall


def move_api(chip, token, move, args, seq):
    """A phone's move that the box must take: its answer."""
    code, answer = chip.move(token, move, args, seq)
    if code != 200:
        raise SystemExit("bench-pico: the move %s %s: %s %s" % (move, args, code, answer))
    return answer


def open_game(chip, index, people):
    """From the game menu: the index-th game (A moves down), its join screen, `people` phones joined
    by the API, then setup and start with the default options (C, C). Returns the tokens."""
    for _ in range(index):
        chip.press("A")
    chip.press("C")
    tokens = [chip.join(name) for name in ("Ada", "Bo")[:people]]
    chip.press("C")
    chip.press("C")
    return tokens


def turn_seen(emu, chip, tokens, waits):
    """The Quiet Dividend: the seat whose turn it is takes the first legal turn its view offers while
    the other phone follows the box, waiting for a change or polling once a chip second (Phones).
    Returns (the chip ms from the move's connect until the other phone's answer that brought it
    closed, the move's own request connect to close), or None at the game's end."""
    before = chip.view(tokens[0])
    if before.get("box") != "play" or before["game"]["turn"] is None:
        return None
    seat = before["game"]["turn"]
    other = Phones(emu, 0, waits=waits)
    other.tokens, other.versions = [tokens[1 - seat]], [before["v"]]
    other.start_polling()
    try:
        time.sleep(1.5)  # the wait held, or the polls going (the move then half a second from one)
        mine = chip.view(tokens[seat])
        m = mine["game"]["legal"][0]
        code, answer, port = emu.phone("POST", "/api/move", {"move": m["move"], "args": m["args"],
                                                             "seq": mine["seq"]}, token=tokens[seat])
        if code != 200:
            raise SystemExit("bench-pico: the move %s: %s %s" % (m, code, answer))
        moved, answered = connection_span(emu, port)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            for port, _, view in list(other.polls):
                r = other.records.get(port)
                if ("game" in view and view["game"]["turns"] > before["game"]["turns"] and r
                        and r["closed_ms"] is not None):
                    return r["closed_ms"] - moved, answered - moved
            time.sleep(0.1)
        raise SystemExit("bench-pico: the other phone never saw the turn")
    finally:
        other.stop()


def quiet_dividend_turn(work, base, rows, checks, waiting=True):
    """Two phones; the seat whose turn it is takes the first legal turn its view offers. With
    `waiting`, then three turns each with the other phone waiting for a change and polling (turn_seen)."""
    emu = fresh_box(work, base, "quiet-dividend")
    chip = Chip(emu)
    try:
        tokens = open_game(chip, 1, 2)
        before = chip.wait_view(tokens[0], lambda v: v.get("box") == "play"
                           and v["game"]["turn"] is not None, "The Quiet Dividend's first turn")
        seat = before["game"]["turn"]
        mine = chip.view(tokens[seat])
        legal = mine["game"]["legal"]
        m = legal[0]
        s0, t0 = emu.status(), time.monotonic()
        move_api(chip, tokens[seat], m["move"], m["args"], mine["seq"])
        after = chip.view(tokens[1 - seat])
        s1, wall = emu.status(), time.monotonic() - t0
        g0, g1 = before["game"], after["game"]
        order = g0["order"]
        expected_next = order[(order.index(seat) + 1) % len(order)]
        ok = (g1["turns"] == g0["turns"] + 1 and len(g1["log"]) == len(g0["log"]) + 1
              and g1["turn"] == expected_next)
        checks.append("The Quiet Dividend: %s took %r (%s); the other phone's view: turns %d -> %d, the log "
                      "one entry longer (%r), the turn passed to the next seat in the order (%s): %s"
                      % (g0["names"][seat], m["label"], m["move"], g0["turns"], g1["turns"],
                         g1["log"][-1][2] if g1["log"] else None, expected_next,
                         "ok" if ok else "NOT AS EXPECTED"))
        rows.append(("The Quiet Dividend, 2 phones by the API: a turn, the move's request to the other "
                     "phone's view of it (chip, wall)", "%.0f ms chip; %.1f s wall" % (
                         s1["emulated_ms"] - s0["emulated_ms"], wall), "-"))
        if waiting:
            seen = {waits: [turn_seen(emu, chip, tokens, waits) for _ in range(3)]
                    for waits in (True, False)}
            rows.append(("  a turn's move (its connect) until the other phone's answer that brings it "
                         "closed: the other phone waiting for a change / polling once a chip second "
                         "(median / worst of 3 each; the move's own request, connect to close, median)",
                         "; ".join("%.0f / %.0f ms (move %.0f ms)" % (
                             median([a for a, _ in ms]), max(a for a, _ in ms), median([m for _, m in ms]))
                                   if None not in ms else "the game ended" for ms in seen.values()),
                         "<= 300 ms (waiting)"))
        return ok
    finally:
        emu.stop()


def paper_current_round(work, base, rows, checks):
    """Two phones; the reader pages the card and launches the eight boats (C each), the phones enter
    every boat's result, the reader confirms: the round's score as the rules compute it."""
    pf = flow_modules()  # noqa: F841 (the firmware on the path)
    from tidebox.games.paper_current import rules as pc

    emu = fresh_box(work, base, "paper-current")
    chip = Chip(emu)
    try:
        tokens = open_game(chip, 2, 2)
        s0, t0 = emu.status(), time.monotonic()
        view = chip.wait_view(tokens[0], lambda v: v.get("box") == "play", "Paper Current's first round")
        for _ in range(20):
            if view["game"]["phase"] != "launch":
                break
            chip.press("C")
            view = chip.view(tokens[0])
        if view["game"]["phase"] != "score":
            raise SystemExit("bench-pico: Paper Current's launches did not end: %s" % view["game"])
        results = [(0, 1, 2, 2)[b % 4] for b in range(8)]
        seq = view["seq"]
        for boat, result in enumerate(results, 1):
            answer = move_api(chip, tokens[boat % 2], "set_result",
                              {"boat": boat, "result": result, "was": None}, seq)
            seq = answer.get("seq", seq + 1) if isinstance(answer, dict) else seq + 1
        card = view["game"]["card"]
        card_id = card["id"] if isinstance(card, dict) else card[0]
        chip.press("C")  # the round confirmed
        after = chip.wait_view(tokens[1], lambda v: v["game"]["round_scores"],
                          "Paper Current's round confirmed")
        s1, wall = emu.status(), time.monotonic() - t0
        expected = pc.round_score(card_id, results)
        got = after["game"]["round_scores"][0]
        ok = got == expected and after["game"]["total"] == expected
        checks.append("Paper Current: eight launches from the box, results %s entered from the two phones, "
                      "the round confirmed: the box scores %s, the rules (card %s) %s: %s"
                      % (results, got, card_id, expected, "ok" if ok else "NOT AS EXPECTED"))
        rows.append(("Paper Current, 2 phones by the API: a round (the card, 8 launches, 8 results, "
                     "confirm; chip, wall)", "%.0f s chip; %.0f s wall"
                     % ((s1["emulated_ms"] - s0["emulated_ms"]) / 1000, wall), "-"))
        return ok
    finally:
        emu.stop()


def pearl_reach_turn(work, base, rows, checks):
    """One phone and the setup's default rival: the phone places on its cheapest free cell, then the
    rival's move comes back to the phone."""
    emu = fresh_box(work, base, "pearl-reach")
    chip = Chip(emu)
    try:
        (token,) = open_game(chip, 3, 1)
        view = chip.wait_view(token, lambda v: v.get("box") == "play"
                         and v["game"]["you"] in v["game"]["to_act"], "Pearl Reach's first phone turn")
        me = view["game"]["you"]
        costs = view["game"]["costs"]
        cell = min((c for c, cost in enumerate(costs) if cost is not None), key=lambda c: (costs[c], c))
        placed0 = sum(1 for b in view["game"]["bays"] for c in b["cells"] if c is not None)
        s0, t0 = emu.status(), time.monotonic()
        move_api(chip, token, "place", {"cell": cell}, view["seq"])
        after = chip.wait_view(token, lambda v: me in v["game"]["to_act"] or v["game"]["winners"],
                          "the rival's move back to the phone", timeout=600)
        s1, wall = emu.status(), time.monotonic() - t0
        rows_n = view["game"]["rows"]
        cells = [c for b in after["game"]["bays"] for c in b["cells"]]
        placed1 = sum(1 for c in cells if c is not None)
        ok = (cells[cell] == me and placed1 == placed0 + 2
              and len(after["game"]["log"]) > len(view["game"]["log"]))
        checks.append("Pearl Reach: the phone placed on cell %d (bay %d, row %d, cost %s): the cell is its "
                      "own, the rival placed one more, the turn came back to the phone (%d -> %d gatherers "
                      "on the board): %s" % (cell, cell // rows_n + 1, cell % rows_n + 1, costs[cell],
                                             placed0, placed1, "ok" if ok else "NOT AS EXPECTED"))
        rows.append(("Pearl Reach, a phone and the default rival (sharp, 2 s a move): the phone's move to "
                     "the rival's answer seen by the phone (chip, wall)", "%.1f s chip; %.0f s wall" % (
                         (s1["emulated_ms"] - s0["emulated_ms"]) / 1000, wall), "-"))
        return ok
    finally:
        emu.stop()


def browser_section(rows, waiting=True):
    """The --browser section: Token Tide's short crossing on Chromium phones (and, with `waiting`,
    again with the pages polling), then a turn or round of each other game by the API, each on a fresh
    chip. Returns the checks made."""
    work = OUT / "browser"
    base = Base(sim_pico.prepare(work / "base", fresh=True))
    checks = []
    t0 = time.monotonic()
    speed = token_tide_crossing(work, base, rows, checks)
    if waiting:
        t1 = time.monotonic()
        token_tide_crossing(work, base, rows, [], polling=True)
        checks.append("the same crossing with the pages polling (&wait=1 dropped by a route), the same "
                      "checks: passed (%.0f s wall)" % (time.monotonic() - t1))
    oks = [quiet_dividend_turn(work, base, rows, checks, waiting),
           paper_current_round(work, base, rows, checks), pearl_reach_turn(work, base, rows, checks)]
    rows.append(("the browser section in all (%d fresh chips; wall)" % (5 if waiting else 4),
                 "%.0f s; the emulator at %.2f x real time through the crossing" % (time.monotonic() - t0,
                                                                                      speed), "-"))
    return checks, all(oks)


def median(xs):
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=12)
    parser.add_argument("--hold-ms", type=int, default=120, help="how long each press is held")
    parser.add_argument("--phones", type=int, default=8)
    parser.add_argument("--poll-s", type=int, default=20, help="chip seconds of idle polling measured")
    parser.add_argument("--pearl-reach-s", type=int, default=240,
                        help="wall seconds of Pearl Reach with a rival (0: none)")
    parser.add_argument("--no-table-screen", dest="table_screen", action="store_false",
                        help="leave out what a table screen costs (two more chips: without and with one)")
    parser.add_argument("--no-waiting", dest="waiting", action="store_false",
                        help="leave out the phones waiting for a change beside the polling ones (two more "
                        "chips in the table screen's section, a crossing more in the phones' pages')")
    parser.add_argument("--no-whole-games", dest="whole_games", action="store_false",
                        help="leave out the whole games of The Quiet Dividend and Paper Current")
    parser.add_argument("--browser", action="store_true",
                        help="only the phones' pages section (Token Tide on Chromium, a turn of each other "
                        "game)")
    parser.add_argument("--no-browser", action="store_true", help="leave the phones' pages section out")
    args = parser.parse_args(argv)
    try:
        sim_pico.firmware_image()
        sim_pico.phones_ppp()
    except sim_pico.SimError as e:
        print("bench-pico: %s" % e, file=sys.stderr)
        return 1
    sim_pico.node_modules()
    missing = browser_ready()
    if args.browser:
        if missing:
            print("bench-pico: --browser needs Chromium and Playwright: %s" % missing, file=sys.stderr)
            return 1
        return print_browser(args)
    rc = bench(args)
    if args.no_browser:
        return rc
    if missing:
        print("# the phones' pages section skipped: %s" % missing)
        return rc
    return print_browser(args) or rc


def print_browser(args):
    rows = []
    checks, ok = browser_section(rows, args.waiting)
    print("| the phones' pages (chip time at 125 MHz; wall time on this machine) | measured | goal |")
    print("| --- | --- | --- |")
    for row in rows:
        print("| %s | %s | %s |" % row)
    print("# checked:")
    for c in checks:
        print("#  - %s" % c)
    return 0 if ok else 1


def bench(args):
    flash = sim_pico.prepare(OUT, fresh=True)
    emu = sim_pico.Emulator(flash, OUT / "pico-sim.log", realtime=True)
    rows = []
    try:
        wait(emu, lambda s: "tidebox: pico_w on port" in s["console"], "the box's start")
        menu = settled(emu)
        booted = menu["panel"]["last_frame"]["at_ms"]
        rows.append(("boot to the game menu drawn (chip time)", "%.0f ms" % booted, "-"))
        wall0, s0 = time.monotonic(), menu
        time.sleep(8)
        s1 = emu.status()
        busy = (s1["busy_ms"] - s0["busy_ms"]) / max(1, s1["uptime_ms"] - s0["uptime_ms"])
        speed = (s1["uptime_ms"] - s0["uptime_ms"]) / 1000 / (time.monotonic() - wall0)
        rows.append(("core busy at the game menu, no phones", "%.1f %%" % (100 * busy),
                     "<= 5 % (with 8 phones)"))
        emu._call("/monitor", {})  # the loop's and the heap's monitors from here
        latencies, from_release, transfers, sizes, wall = [], [], [], [], []
        for _ in range(args.presses):
            before = emu.status()["panel"]["frames"]
            t0 = time.monotonic()
            emu.press("A", args.hold_ms)
            s = wait(emu, lambda s, n=before: s["panel"]["frames"] > n and s["last_press"], "a new frame", 60)
            wall.append(time.monotonic() - t0)
            frame = s["panel"]["last_frame"]
            latencies.append(frame["at_ms"] - s["last_press"]["at_ms"])
            from_release.append(frame["at_ms"] - s["last_press"]["release_ms"])
            transfers.append(frame["transfer_us"] / 1000)
            sizes.append(frame["bytes"])
            settled(emu, 0.6)
        slowest = ", ".join("%.1f" % x for x in sorted(latencies)[-5:])
        rows.append(("button press (held %d ms) to the new frame on the panel, I2C included (median / worst "
                     "of %d; the five slowest)" % (args.hold_ms, len(latencies)),
                     "%.1f / %.1f ms (%s)" % (median(latencies), max(latencies), slowest), "<= 50 ms"))
        rows.append(("  the same from the release (below 0: drawn while still held; the menu's A has no "
                     "long press)", "%.1f / %.1f ms" % (median(from_release), max(from_release)), "-"))
        rows.append(("  of which the frame's I2C transfer at 400 kHz (the pages that changed: %d bytes of "
                     "1,024, median)" % median(sizes), "%.1f ms" % median(transfers), "-"))
        # the menu's lines: the games and the night's scores; A on to Token Tide, the first, again
        for _ in range(-args.presses % (len(firmware_games().GAMES) + 1)):
            press_and_wait(emu, "A", "the next game")
        f0 = emu.status()["flash"]
        before = emu.status()["panel"]["frames"]
        emu.press("C", 120)  # choose the highlighted game: the box saves
        wait(emu, lambda s, n=before: s["panel"]["frames"] > n, "the chosen game's screen", 60)
        s1 = settled(emu)
        f1 = s1["flash"]
        rows.append(("a save's flash work (choosing a game): erases, programs, core stalled",
                     "%d, %d, %.1f ms" % (f1["erases"] - f0["erases"], f1["programs"] - f0["programs"],
                                          f1["busy_ms"] - f0["busy_ms"]), "-"))
        rows.append(("worst gap between button-loop passes during a save / a full-frame write", "",
                     "<= 30 ms"))
        rows.extend(loop_rows(s1, "the game menu's %d presses and the save" % args.presses))
        # C chose Token Tide: its join screen.
        phones = Phones(emu, args.phones)
        try:
            phones.join()
            phones.start_polling()
            time.sleep(3)  # the first polls (whole views) are not the idle ones
            c0, b0 = phones.chip_ms(), phones.status
            first = len(phones.polls)
            while phones.chip_ms() < c0 + 1000 * args.poll_s:
                time.sleep(0.2)
            b1 = phones.status
            idle = phones.polls[first:]
            polls_n = max(1, len(idle))
            irqs = (b1["link"]["uart_irqs"] - b0["link"]["uart_irqs"]) / polls_n
            rx = (b1["link"]["uart_rx_bytes"] - b0["link"]["uart_rx_bytes"]) / polls_n
            busy8 = (b1["busy_ms"] - b0["busy_ms"]) / max(1, b1["uptime_ms"] - b0["uptime_ms"])
            time.sleep(0.5)
            lat = [phones.latency(phones.records.get(port)) for port, _, _ in idle]
            lat = [x for x in lat if x is not None]
            slow = sum(1 for x in lat if x > 100)
            rows.append(("poll latency p50 / p95 with %d phones polling once a chip second, connect to close "
                         "(%d polls, %d over 100 ms)" % (args.phones, len(lat), slow),
                         "%.1f / %.1f ms" % (percentile(lat, 50), percentile(lat, 95)) if lat else "no polls",
                         "-"))
            rows.append(("core busy with %d phones idle (polling) at the join screen" % args.phones,
                         "%.1f %%" % (100 * busy8), "<= 5 %"))
            rows.append(("  the core's busy time per idle poll; UART receive interrupts and bytes per poll",
                         "%.1f ms; %.1f, %.0f B" % ((b1["busy_ms"] - b0["busy_ms"]) / polls_n - busy * 1000
                                                   / args.phones, irqs, rx), "-"))
            if b1["link"]["uart_read_ms"] is not None:
                read8 = ((b1["link"]["uart_read_ms"] - b0["link"]["uart_read_ms"])
                         / max(1, b1["uptime_ms"] - b0["uptime_ms"]))
                rows.append(("  of which in the UART driver's reads, the PPP link's (it spins until no byte "
                             "has come for 1-2 ms; a board's radio does not)", "%.1f %%" % (100 * read8),
                             "-"))
                rows.append(("  the core busy without those reads: the box, its lwIP and PPP",
                             "%.1f %%" % (100 * (busy8 - read8)), "-"))
            if b1["gc"] is not None:
                gc_ms = b1["gc"]["ms"] - b0["gc"]["ms"]
                collections = b1["gc"]["calls"] - b0["gc"]["calls"]
                rows.append(("  of which the heap's collections (the box collects once 8 polls were served "
                             "and none is being served: tidebox/collect.py)",
                             "%.1f %% (%d collections, %.1f ms each)"
                             % (100 * gc_ms / max(1, b1["uptime_ms"] - b0["uptime_ms"]), collections,
                                gc_ms / max(1, collections)), "-"))
            # The game: setup, start, every phone locks in, the tide card's C, then the reveal.
            press_and_wait(emu, "C", "the setup screen")
            press_and_wait(emu, "C", "the tide card")
            spans = []
            for i, token in enumerate(phones.tokens):
                code, answer, port = emu.phone("POST", "/api/move", {"move": "allocate", "args": {
                    "allocation": [3, 2, 2], "ready": True}}, token=token)
                if code != 200:
                    raise SystemExit("bench-pico: phone %d's allocation: %s %s" % (i + 1, code, answer))
                spans.append(connection_span(emu, port))
                time.sleep(0.5)  # the moves apart, so that each is a busy stretch of its own
            saves = [r for r in emu.status()["loop"]["stretches"] if r["flash"] and overlaps(r, spans)]
            longest = max(saves, key=lambda r: r["ms"], default=None)
            rows.append(("  the longest busy stretch with a phone's move and its save to flash (the %d "
                         "allocations; the other phones' polls may fall in it)" % len(spans),
                         "%.1f ms%s" % (longest["ms"], gc_part(longest)) if longest else "none seen",
                         "<= 30 ms"))
            press_and_wait(emu, "C", "the allocation screen")
            time.sleep(2)
            emu.press("C", 120)
            pressed = emu.status()  # the press is set at once; its at_ms is of this boot, as chip_ms here
            pressed_ms = pressed["last_press"]["at_ms"]
            if pressed["boots"] != 1:
                raise SystemExit("bench-pico: the chip restarted during the bench: %s" % pressed["resets"])
            got = reveal_reached(phones, pressed_ms)
            rows.append(("reveal press until every phone has it, %d phones polling once a chip second"
                         % args.phones,
                         "%.0f ms (first phone %.0f ms)" % (max(got.values()), min(got.values()))
                         if len(got) == args.phones else "only %d phones got it" % len(got), "<= 1.2 s"))
        finally:
            phones.stop()
        if phones.errors:
            print("# phones' errors: %d, e.g. %s" % (len(phones.errors), phones.errors[:3]))
        rows.append(heap_row(emu.status(), "heap low-water / smallest largest free block from the game menu "
                             "through Token Tide's first round with %d phones" % args.phones))
    finally:
        emu.stop()
    if args.table_screen:
        table_screen(OUT / "table-screen", args, rows)
    if args.pearl_reach_s:
        pearl_reach(OUT / "pearl-reach", args.pearl_reach_s, rows)
    if args.whole_games:
        from game_drivers import chip_play_for

        for play in (chip_play_for("quiet_dividend")(), chip_play_for("paper_current")()):
            whole_game(OUT / play.game, play, args.phones, rows)
    print("| figure (chip time at 125 MHz) | measured | goal |")
    print("| --- | --- | --- |")
    for row in rows:
        print("| %s | %s | %s |" % row)
    print("# the emulator ran at %.2f x real time while the box waited at the menu (kept to real time at "
          "most); a press took %.1f s of wall time at the median" % (speed, median(wall)))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (ChipError, sim_pico.SimError) as e:  # the box or the emulator, through pico_box.Chip
        print("bench-pico: %s" % e, file=sys.stderr)
        sys.exit(1)
