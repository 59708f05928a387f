"""An evening in small on the emulated Pico W: one whole game of each game in GAMES, back to back on
one chip that is never switched off, with 8 phones polling once a second of the chip's time.

    python host_tools/rp2040/evening_pico.py

The chip runs the shipped firmware with the bundle as deploy writes it (sim_pico.py), its time kept
to the wall's. The games are played in the order of how many people they seat, so the table only
grows (Pearl Reach, 2 people and 2 sharp rivals at 1 s a move, first): each game's people are the
table's phones, the others of the 8 poll without a seat, as phones still on the join page do.
Each game starts at the game menu (A to it, C), its new people join by the phones' API, the reader
sets it up on the box, phones and buttons play it to its end (one small player per game: the ChipPlay
of its tests/games/<game id>/driver.py), and every phone is told the end; then the reader goes back
to the game menu as a person does (C through the end's pages; "New game" in a what-next menu, read
from the panel's title bar), and the box restarts itself with its table, as it does after every game
(restart.py; that restart is the design, not a shortage).

What it measures, per game: the heap's low-water (the emulator reads MicroPython's allocation
table every 2 ms of chip time: free bytes as gc.mem_free() says, and the largest free block) from
the setup to the end; the polls: answered, busy (503) and unanswered (no answer or an error); and
the largest free block at each return to the game menu. Over the evening: MemoryErrors on the
console, restarts for want of memory (restart.log on the chip's flash, read back at the end), the
chip's own resets, crash.log.

Used by tests/test_sim_pico.py (on every `make test`); `make evening-pico` prints the table.
"""

import re
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import build  # noqa: E402
import power_cuts  # noqa: E402
import sim_pico  # noqa: E402
from game_drivers import chip_play_for  # noqa: E402
from pico_box import Chip  # noqa: E402
from table import EVENING_NAMES, firmware_games  # noqa: E402

OUT = build.ROOT / "build" / "evening-pico"
PHONES = 8
PPP_SWEEP = re.compile(r"MPY: soft reboot\r?\nMemoryError: \r?\n")  # see sim_board.Radio.close_link
CONSOLE_KEPT = 16384  # pico_sim.mjs keeps the console's last 16 KB


class EveningError(AssertionError):
    pass


# ---------------------------------------------------------------- the phones

class Phones:
    """PHONES phones polling `GET /api/state?v=N` once a chip second each (a clock thread reads the
    chip's time every 50 ms of wall time): the seated ones with their tokens, the rest without a
    seat. Counts answers, busy answers and unanswered polls, and which version each phone was told."""

    def __init__(self, emu, tokens):
        self.emu = emu
        self.tokens = list(tokens) + [None] * (PHONES - len(tokens))
        self.told = [None] * PHONES  # the last whole view's "box" each phone was told
        self.versions = [-1] * PHONES
        self.answered = self.busy = 0
        self.unanswered = []
        self.stopping = False
        self.chip_ms = emu.status()["chip_ms"]
        self.threads = [threading.Thread(target=self.clock, daemon=True)]
        start = self.chip_ms
        self.threads += [threading.Thread(target=self.poll, args=(i, start + 1000 * i / PHONES), daemon=True)
                         for i in range(PHONES)]
        for t in self.threads:
            t.start()

    def clock(self):
        while not self.stopping:
            try:
                self.chip_ms = self.emu.status()["chip_ms"]
            except OSError:
                pass
            time.sleep(0.05)

    def poll(self, i, due):
        while not self.stopping:
            while self.chip_ms < due and not self.stopping:
                time.sleep(0.01)
            if self.stopping:
                return
            try:
                code, view, _ = self.emu.phone("GET", "/api/state?v=%d" % self.versions[i],
                                               token=self.tokens[i], timeout=30)
            except OSError as e:
                self.unanswered.append("phone %d: %r" % (i + 1, e))
            else:
                if code == 200:
                    self.answered += 1
                    self.versions[i] = view["v"]
                    if "box" in view:
                        self.told[i] = view["box"]
                elif code == 503:
                    self.busy += 1
                else:
                    self.unanswered.append("phone %d: %s %s" % (i + 1, code, view))
            due = max(due + 1000, self.chip_ms)

    def all_told(self, box):
        return all(t == box for t in self.told)

    def stop(self):
        self.stopping = True
        for t in self.threads:
            t.join(60)


# ---------------------------------------------------------------- one small player per game
# Each game's is the ChipPlay class of its tests/games/<game id>/driver.py (game_drivers.py says what it
# has): `game`, `people` (seated phones), setup (the reader's presses from the join screen to the
# game's first screen) and play(chip, tokens), which returns once the game is over.


def plays(root=None):
    """A player for every game in GAMES, fewest people first (the table only grows); a game in GAMES
    without one is an error, never a game left out of the evening. `root`: the project folder whose
    GAMES and drivers are read (this one by default)."""
    games = list(build.game_ids(Path(root or build.ROOT) / "firmware"))
    return sorted((chip_play_for(g, root)() for g in games), key=lambda p: (p.people, games.index(p.game)))


# ---------------------------------------------------------------- the evening

def merged(console, now):
    """The chip's whole console so far, from what was kept before and the emulator's last 16 KB."""
    if len(now) < CONSOLE_KEPT:
        return now  # the whole of it
    tail = console[-200:]
    at = now.find(tail) if tail else -1
    if at < 0:
        raise EveningError("the chip's console ran past what the emulator keeps between two reads")
    return console + now[at + len(tail):]


def run(work=OUT, log=print):
    """Plays the evening; returns its figures: {"games": [{game, low_free, low_largest, menu_largest,
    polls, busy, unanswered}], "memory_errors", "memory_restarts", "chip_resets", "soft_reboots",
    "crash_log"}."""
    games = [game for game, _ in firmware_games().GAMES]
    flash = sim_pico.prepare(Path(work), fresh=True)
    emu = sim_pico.Emulator(flash, Path(work) / "pico-sim.log", realtime=True)
    chip = Chip(emu)
    figures = {"games": []}
    tokens, names = [], iter(EVENING_NAMES)
    console = ""
    try:
        emu.wait_for(lambda s: "tidebox: pico_w on port" in s["console"], "the box's start", 600)
        emu.settled(timeout=300)
        for play in plays():
            wall0 = time.monotonic()
            at_menu = emu.status()["heap"]
            for _ in range(games.index(play.game)):
                chip.press("A")
            chip.press("C")
            view = chip.view()
            if view["box"] != "join" or view.get("kind") != play.game:
                raise EveningError("the game menu did not open %s's join screen: %s" % (play.game, view))
            while len(tokens) < play.people:
                tokens.append(chip.join(next(names)))
            phones = Phones(emu, tokens[:play.people])
            try:
                emu._call("/monitor", {})  # the heap's low-water from the setup on
                for button in play.setup:
                    chip.press(button)
                if chip.view()["box"] != "play":
                    raise EveningError("%s did not start: %s" % (play.game, chip.view()))
                play.play(chip, tokens[:play.people])
                deadline = time.monotonic() + 120
                while not phones.all_told("over") and time.monotonic() < deadline:
                    time.sleep(0.5)
                if not phones.all_told("over"):
                    raise EveningError("not every phone was told %s's end: %s" % (play.game, phones.told))
                low = emu.status()["heap_low"]
            finally:
                phones.stop()
            row = {"game": play.game, "people": play.people, "low_free": low["free"],
                   "low_largest": low["largest_free"], "pool": low["pool"],
                   "menu_free": at_menu["free"] if at_menu else None,
                   "menu_largest": at_menu["largest_free"] if at_menu else None,
                   "polls": phones.answered, "busy": phones.busy, "unanswered": phones.unanswered,
                   "wall_s": time.monotonic() - wall0}
            figures["games"].append(row)
            log("evening-pico: %(game)s with %(people)d people: heap low-water %(low_free)d B free, "
                "largest free block %(low_largest)d B; at the game menu before it: largest free block "
                "%(menu_largest)s B; %(polls)d polls answered, %(busy)d busy, %(unanswered)r unanswered; "
                "%(wall_s).0f s" % row)
            console = merged(console, emu.status()["console"])
            chip.to_game_menu()
            emu.settled(timeout=300)
        end = emu.status()
        figures["menu_largest_at_end"] = end["heap"]["largest_free"] if end["heap"] else None
        console = merged(console, end["console"])
        figures["chip_resets"] = end["resets"]
        figures["long_sleeps"] = end["long_sleeps"]  # the emulated core's wake-ups that did not come
        figures["hangs"] = end["hangs"]  # where the core was when the watchdog went unfed
    except Exception as exc:  # noqa: BLE001 - said again below with what the chip's flash says of it
        failure, said = exc, str(exc)
        try:
            end = emu.status()
            said += "\nthe chip's resets: %s; hangs: %s; long sleeps: %s" % (
                end["resets"], end["hangs"], end["long_sleeps"])
            # the chip's whole console beside the flash image, for whoever reads the failure next
            (Path(work) / "console.txt").write_text(merged(console, end["console"]))
            said += "\nthe chip's console: %s" % (Path(work) / "console.txt")
        except (OSError, ValueError, KeyError, EveningError):
            pass
    else:
        failure = None
    finally:
        power_cuts.halt(emu)
    if failure is not None:
        raise EveningError("%s\n%s" % (said, flash_logs(flash))) from failure
    with open(Path(work) / "pico-sim.log", errors="replace") as f:
        console_all = console + f.read()  # and the emulator's own errors
    (Path(work) / "console.txt").write_text(console_all)  # kept beside the flash image for a look later
    files = power_cuts.files(flash)
    restarts = [text for path, text in files.items() if path.endswith("/restart.log")]
    crashes = [text for path, text in files.items() if path.endswith("/crash.log")]
    figures["memory_restarts"] = sum(t.count("short of memory") for t in restarts)
    figures["restart_log"] = restarts
    figures["crash_log"] = crashes
    # Less the one network.PPP's finaliser prints at each soft reset (sim_board.py: the stand-in link's)
    figures["memory_errors"] = console_all.count("MemoryError") - len(PPP_SWEEP.findall(console_all))
    figures["soft_reboots"] = console_all.count("soft reboot")
    return figures


def flash_logs(flash):
    """What the box wrote on its flash of why it stopped or restarted (crash.log, restart.log, the
    step it was to take next), for an evening that failed."""
    try:
        files = power_cuts.files(flash)
    except Exception as e:  # noqa: BLE001 - a flash that does not mount is itself the news
        return "the chip's flash could not be read: %s" % e
    kept = {path: text[-1500:] for path, text in files.items()
            if path.rsplit("/", 1)[-1] in ("crash.log", "restart.log", "next.json")}
    return "the chip's flash: %s" % (kept or "no crash.log, restart.log or next.json")


def report(figures):
    print("| game | people | heap low-water free (KB) | its largest free block (KB) | largest free block at "
          "the game menu before it (KB) | polls answered / busy / unanswered |")
    print("| --- | --- | --- | --- | --- | --- |")
    for g in figures["games"]:
        print("| %s | %d | %.1f | %.1f | %s | %d / %d / %d |" % (
            g["game"], g["people"], g["low_free"] / 1024, g["low_largest"] / 1024,
            "%.1f" % (g["menu_largest"] / 1024) if g["menu_largest"] else "-", g["polls"], g["busy"],
            len(g["unanswered"])))
    print("largest free block at the game menu after the last game: %s KB" % (
        "%.1f" % (figures["menu_largest_at_end"] / 1024) if figures.get("menu_largest_at_end") else "-"))
    print("the emulated core's sleeps past a second (woken as a WFE may be; see pico_sim.mjs): %d %s" % (
        len(figures["long_sleeps"]), figures["long_sleeps"] or ""))
    print("MemoryErrors on the console: %d; restarts for want of memory (restart.log): %d; the chip's own "
          "resets: %d; crash.log: %s" % (figures["memory_errors"], figures["memory_restarts"],
                                         len(figures["chip_resets"]), figures["crash_log"] or "none"))
    if figures["chip_resets"]:
        print("the chip's resets: %s; where the core was at an unfed watchdog: %s" % (
            figures["chip_resets"], figures["hangs"]))


def main():
    sim_pico.node_modules()
    figures = run()
    report(figures)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (EveningError, sim_pico.SimError, subprocess.CalledProcessError) as e:
        print("evening-pico: %s" % e, file=sys.stderr)
        sys.exit(1)
