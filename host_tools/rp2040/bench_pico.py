"""`make bench-pico`: figures of the whole box on the emulated Pico W (make sim-pico's emulator).

    python host_tools/rp2040/bench_pico.py [--firmware-dir build/firmware] [--presses 12]

Boots MicroPython's own RPI_PICO_W firmware with the bundle as deploy writes it (sim_pico.py) from
an empty filesystem and measures, in the chip's time (125 MHz, rp2040js's cycle-driven clock):
boot to the game menu; the core's busy share while the box waits at the menu; button press to
the new frame on the panel (the press's first edge to the last byte of the frame over I2C at
400 kHz, bounce, debouncing and drawing included); a save's flash work (choosing a game saves the
box). Lower bounds on one point: rp2040js reads flash at RAM speed (no XIP cache misses); the flash
times are the W25Q16JV's typical ones, modelled.

Then phones, through the emulator's socket bridge (pico_sim.mjs --http: the phones' TCP on the host,
framed over the chip's UART0 at 1,000,000 baud to uart_sockets.py, the chip's socket module here):
8 phones join Token Tide and each polls `GET /api/state?v=N` once a second of chip time (the
phones wait on the chip's clock, as read from the emulator, not on the wall's). Measured in the
chip's time from the bridge's record of each connection: a poll's latency from its request's first
byte at the host (or, for a connection that waited for one of the five, from its accept) to the
box's close, p50 and p95; the core's busy share meanwhile (8 phones idle at the join screen); and
from the reveal press's first edge until every phone's poll has brought it the reveal. What the
bridge leaves out, so these figures do too: lwIP's and the radio's CPU time and buffers (the
bridge's own module and buffers, about 4 KB of heap, and its Python pumping are counted instead),
the CYW43's SPI traffic, Wi-Fi's own delays, DNS; lwIP's five connections at once are modelled on
the host (the sixth waits, in order). The UART's receive interrupts are the PL011's (trigger level
24 bytes, as uart_sockets.py asks with IRQ_RXIDLE, and the receive timeout), counted per poll.

From outside the chip, changing nothing the firmware does (pico_sim.mjs, "what the bench reads"):
the reader loop's gaps: its watchdog feed (every 8th pass) gives 8-pass windows; a gap between two
passes is at most the worst window less 7 passes of at least 9 ms (each pass sleeps 10 ms on a
1 ms tick), and at least the core's longest busy stretch (no sleep in between) plus that sleep;
windows and stretches are flagged when a flash operation or a frame's I2C bytes fall in them, over
the game menu's presses (a frame each) and the save. The heap: the GC's allocation table read every
2 ms of chip time, its free bytes (as gc.mem_free() says, garbage not yet collected counted as
used) and largest free run at their lowest, from the game menu through Token Tide's first round
with the phones. Then Pearl Reach on a fresh chip (--pearl-reach-s wall seconds): one phone placing
on a free cell when its turn comes and the setup's default rival (sharp, 2 s a move); a rival's
move is a busy stretch with a save to flash and no phone connection open: its choice, its moves,
the save and the redraw when it falls in that pass; with the loop's windows and the heap there.
Not measured: the heap through whole games of The Quiet Dividend and Paper Current.
"""

import argparse
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import build  # noqa: E402
import sim_pico  # noqa: E402

OUT = build.ROOT / "build" / "bench-pico"


def wait(emu, condition, what, timeout=120):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status = emu.status()
        if condition(status):
            return status
        if not emu.alive():
            break
        time.sleep(0.2)
    raise SystemExit("bench-pico: %s did not happen; console:\n%s" % (what, emu.status()["console"]))


def settled(emu, quiet_s=2.0, timeout=120):
    """The status once no frame has been drawn for quiet_s of wall time."""
    deadline = time.monotonic() + timeout
    last, since = None, time.monotonic()
    while time.monotonic() < deadline:
        status = emu.status()
        if status["panel"]["frames"] != last:
            last, since = status["panel"]["frames"], time.monotonic()
        elif time.monotonic() - since >= quiet_s:
            return status
        time.sleep(0.2)
    raise SystemExit("bench-pico: the panel never settled")


class Phones:
    """n phones through the bridge, each polling once a second of chip time once it has a seat. A
    clock thread reads the emulator's status every 50 ms of wall time: the chip's time, and the
    bridge's records of connections (by the phone's port), kept here before they scroll away."""

    def __init__(self, emu, n):
        self.emu = emu
        self.n = n
        self.status = emu.status()
        self.records = {}
        self.polls = []  # (port, view) of every poll answered
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
            for r in self.status["bridge"]["recent"]:
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

    def start_polling(self):
        self.polling = True
        start = self.chip_ms()
        for i in range(self.n):
            t = threading.Thread(target=self.poll, args=(i, start + 1000 * i / self.n), daemon=True)
            t.start()
            self.threads.append(t)

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
            if code == 200:
                self.versions[i] = view["v"]
                self.polls.append((port, i, view))
            else:
                self.errors.append("%s %s" % (code, view))
            due += 1000

    def latency(self, record):
        """Chip ms from the request's first byte at the host (from its accept when it waited for a free
        connection) to the box's close; None while the record is incomplete."""
        if record is None or record["closed_ms"] is None or record["data_ms"] is None:
            return None
        waited = record["opened_ms"] > record["accepted_ms"] + 0.01
        return record["closed_ms"] - (record["accepted_ms"] if waited else record["data_ms"])

    def stop(self):
        self.stopping = True
        for t in self.threads:
            t.join(70)


def percentile(xs, p):
    s = sorted(xs)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def press_and_wait(emu, button, what, hold_ms=120):
    before = emu.status()["panel"]["frames"]
    emu.press(button, hold_ms)
    wait(emu, lambda s, n=before: s["panel"]["frames"] > n, what, 60)
    return settled(emu, 1.0)


def find_key(obj, key):
    """The first value under `key` anywhere in a view (dicts and lists), or None."""
    if isinstance(obj, dict):
        if key in obj:
            return obj[key]
        obj = list(obj.values())
    if isinstance(obj, list):
        for v in obj:
            found = find_key(v, key)
            if found is not None:
                return found
    return None


def loop_rows(status, what):
    """The reader loop's worst gaps from the emulator's monitors since its last reset (see pico_sim.mjs)."""
    feeds = status["loop"]["feeds"]
    runs = status["loop"]["stretches"]
    rows = []
    for flag, label in (("flash", "a save to flash"), ("frame", "a full-frame I2C write")):
        longest = max((r["ms"] for r in runs if r[flag]), default=0)
        worst = feeds[flag]
        rows.append(("  worst 8-pass window (watchdog feed to feed) during %s (%s): the gap between two "
                     "passes is at most it less 7 passes of 9 ms; the longest busy stretch of the core then"
                     % (label, what),
                     "%.1f ms window: gap <= %.1f ms; stretch %.1f ms (gap >= %.1f ms)"
                     % (worst, max(0, worst - 63), longest, longest + 9) if worst else "none seen",
                     "<= 30 ms"))
    rows.append(("  worst 8-pass window overall (%d windows)" % feeds["n"], "%.1f ms" % feeds["all"], "-"))
    return rows


def heap_row(status, what):
    low = status["heap_low"]
    if not low:
        return (what, "no heap found", "-")
    return (what, "%.1f KB free, largest free block %.1f KB (pool %.1f KB)"
            % (low["free"] / 1024, low["largest_free"] / 1024, low["pool"] / 1024), "-")


def pearl_reach(flash_out, firmware_dir, wall_s, rows):
    """Pearl Reach on a fresh chip: one phone and the setup's default rival (sharp, 2 s a move), the
    phone placing on a free cell at its turns; a rival's move is the core's busy stretch with a save to
    flash in it and no phone connection open (choose, both moves' rules, the save, and the redraw when it
    falls in the same pass)."""
    flash = sim_pico.prepare(flash_out, firmware_dir, fresh=True)
    emu = sim_pico.Emulator(flash, flash_out / "pico-sim.log")
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
        while time.monotonic() < deadline and not over:
            code, view, _ = emu.phone("GET", "/api/state", token=token)
            game = view.get("game", {}) if code == 200 else {}
            over = view.get("box") == "over" or bool(game.get("winners"))
            if code == 200 and game.get("to_act") == find_key(view, "you") and not over:
                costs = find_key(view, "costs") or []
                cells = [c for c, cost in enumerate(costs) if cost == 0] + \
                        [c for c, cost in enumerate(costs) if cost == 1]
                for c in cells:
                    move = {"move": "place", "args": {"cell": c}}
                    if emu.phone("POST", "/api/move", move, token=token)[0] == 200:
                        break
            time.sleep(1.0)
        s = emu.status()
        moves = [r for r in s["loop"]["stretches"] if r["flash"] and not r["phones"] and r["at_ms"] >= start]
        ms = [r["ms"] for r in moves]
        rows.append(("Pearl Reach rival move (the pass with its choice, moves, save and redraw; median / "
                     "worst of %d, %s)" % (len(ms), "the whole game" if over else "%.0f chip s of a game"
                                     % ((s["chip_ms"] - start) / 1000)),
                     "%.1f / %.1f ms" % (median(ms), max(ms)) if ms else "no rival move seen", "<= 200 ms"))
        rows.extend(loop_rows(s, "Pearl Reach"))
        rows.append(heap_row(s, "heap low-water / smallest largest free block through Pearl Reach (%s)"
                             % ("a whole game" if over else "part of a game")))
    finally:
        emu.stop()


def median(xs):
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--firmware-dir", default=str(build.ROOT / "build" / "firmware"))
    parser.add_argument("--presses", type=int, default=12)
    parser.add_argument("--hold-ms", type=int, default=120, help="how long each press is held")
    parser.add_argument("--phones", type=int, default=8)
    parser.add_argument("--poll-s", type=int, default=20, help="chip seconds of idle polling measured")
    parser.add_argument("--pearl-reach-s", type=int, default=240,
                        help="wall seconds of Pearl Reach with a rival (0: none)")
    args = parser.parse_args(argv)
    try:
        flash = sim_pico.prepare(OUT, args.firmware_dir, fresh=True)
    except sim_pico.SimError as e:
        print("bench-pico: %s" % e, file=sys.stderr)
        return 1
    sim_pico.node_modules()
    emu = sim_pico.Emulator(flash, OUT / "pico-sim.log")
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
        latencies, from_release, transfers, wall = [], [], [], []
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
            settled(emu, 0.6)
        rows.append(("button press (held %d ms) to the new frame on the panel, I2C included (median / worst "
                     "of %d)" % (args.hold_ms, len(latencies)),
                     "%.1f / %.1f ms" % (median(latencies), max(latencies)), "<= 50 ms"))
        rows.append(("  the same from the release (the menu acts on a short press once it ends)",
                     "%.1f / %.1f ms" % (median(from_release), max(from_release)), "-"))
        rows.append(("  of which the frame's I2C transfer (1,024 bytes at 400 kHz)",
                     "%.1f ms" % median(transfers), "-"))
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
        # 12 presses of A went round the four games three times: C chose Token Tide, its join screen.
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
            irqs = (b1["bridge"]["uart_irqs"] - b0["bridge"]["uart_irqs"]) / polls_n
            rx = (b1["bridge"]["uart_rx_bytes"] - b0["bridge"]["uart_rx_bytes"]) / polls_n
            busy8 = (b1["busy_ms"] - b0["busy_ms"]) / max(1, b1["uptime_ms"] - b0["uptime_ms"])
            time.sleep(0.5)
            lat = [phones.latency(phones.records.get(port)) for port, _, _ in idle]
            lat = [x for x in lat if x is not None]
            waited = sum(1 for port, _, _ in idle
                         if phones.records.get(port) and phones.records[port]["opened_ms"]
                         > phones.records[port]["accepted_ms"] + 0.01)
            rows.append(("poll latency p50 / p95 with %d phones polling once a chip second (%d polls, %d "
                         "waited for a connection)" % (args.phones, len(lat), waited),
                         "%.1f / %.1f ms" % (percentile(lat, 50), percentile(lat, 95)) if lat else "no polls",
                         "-"))
            rows.append(("core busy with %d phones idle (polling) at the join screen" % args.phones,
                         "%.1f %%" % (100 * busy8), "<= 5 %"))
            rows.append(("  the core's busy time per idle poll; UART receive interrupts and bytes per poll",
                         "%.1f ms; %.1f, %.0f B" % ((b1["busy_ms"] - b0["busy_ms"]) / polls_n - busy * 1000
                                                   / args.phones, irqs, rx), "-"))
            # The game: setup, start, every phone locks in, the tide card's C, then the reveal.
            press_and_wait(emu, "C", "the setup screen")
            press_and_wait(emu, "C", "the tide card")
            for i, token in enumerate(phones.tokens):
                code, answer, _ = emu.phone("POST", "/api/move", {"move": "allocate", "args": {
                    "allocation": [3, 2, 2], "ready": True}}, token=token)
                if code != 200:
                    raise SystemExit("bench-pico: phone %d's allocation: %s %s" % (i + 1, code, answer))
            press_and_wait(emu, "C", "the allocation screen")
            time.sleep(2)
            emu.press("C", 120)
            pressed = emu.status()  # the press is set at once; its at_ms is of this boot, as chip_ms here
            pressed_ms = pressed["last_press"]["at_ms"]
            if pressed["boots"] != 1:
                raise SystemExit("bench-pico: the chip restarted during the bench: %s" % pressed["resets"])
            deadline = time.monotonic() + 120
            got = {}
            while len(got) < args.phones and time.monotonic() < deadline:
                for port, i, view in list(phones.polls):
                    if i not in got and view.get("shown", {}).get("reveal"):
                        r = phones.records.get(port)
                        if r and r["closed_ms"] is not None and r["closed_ms"] > pressed_ms:
                            got[i] = r["closed_ms"] - pressed_ms
                time.sleep(0.2)
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
        rows.append(("heap through a whole game of The Quiet Dividend and of Paper Current", "not measured",
                     "-"))
    finally:
        emu.stop()
    if args.pearl_reach_s:
        pearl_reach(OUT / "pearl-reach", args.firmware_dir, args.pearl_reach_s, rows)
    print("| figure (chip time at 125 MHz) | measured | goal |")
    print("| --- | --- | --- |")
    for row in rows:
        print("| %s | %s | %s |" % row)
    print("# the emulator ran at %.2f x real time while the box waited at the menu; a press took %.1f s of "
          "wall time at the median" % (speed, median(wall)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
