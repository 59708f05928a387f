"""`make bench-evening`: a long evening on one box at a Pico W's pace (3 hours unless
EVENING_MINUTES says otherwise; not part of `make test`). The box's games cycle in a random order,
each played whole by its driver with its phones polling once a second (eight at the largest tables),
and the plug is pulled (SIGKILL) between games and at random moments during them. After each cut
the box is started again on its flash: it must offer the saved table or game, with every action a
phone had been told of. A game cut short is checked, then discarded on the box, and the evening
goes on with a new table. Prints one table of figures at the end (and a line per game as it goes),
with how often each of the box's memory rules fired.

The box runs with a watch on those rules (WATCH, written into the soak's copy of the firmware and
started before main.py; EVENING_WATCH=0 leaves it out): each miss reported to tidebox/memory.py's
Shortages, each rule of its table that makes a reboot due (moves, views, requests; lost: a game
that could not be put back), and each restart of the box by Panel.restart, prints a line to the
box's log (`tidebox-watch: ...`), which the report counts. A restart for memory is "flag" when the
panel loop found that flag set, "direct" otherwise (a MemoryError in a task, keep_running; choosing,
setting up or starting a game, lobby.py and panel.py; a step taken again after a restart,
welcome.py). The watch holds about 1.6 KB of heap besides the box's own (its code, loaded as .mpy:
116.9 KB in use at the game menu without it, 118.5 KB with it, on a 32-bit port): an evening with it
has that much less room than the box: its counts of the rules err on the side of firing.

The heap is the chip's pool on the port MICROPYTHON names (evening.evening_heap: 196896 bytes on a
32-bit port, 276 KB on the 64-bit one); EVENING_HEAP sets another.

    EVENING_MINUTES=30 make bench-evening      (EVENING_SEED, EVENING_HEAP: the other settings)
"""

import os
import random
import shutil
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path

import build
from boxrig import ApiError, BOARD_PACE_MS, BoxProcess
from evening import evening_heap, heap_at_menu
from game_drivers import driver_for
from table import Table, back_to_menu, firmware_games

CUT_DURING = 0.25  # the share of games the plug is pulled during, at a random moment
CUT_BETWEEN = 0.25  # ... and of returns to the game menu after which it is pulled

# The watch on the box's memory rules (see above): the wrappers keep each method's own signature (no
# *args: a call must not allocate where memory is short) and print only words that exist already.
WATCH_MODULE = "tidebox_watch"
WATCH = '''# The soak's watch on the box's memory rules (host_tools/soak_evening.py): lines in the box's log.
import gc  # noqa: F401 - main.py's imports, in its order, before the patches

import asyncio  # noqa: F401
import board  # noqa: F401
from tidebox import api, memory, transport  # noqa: F401
from tidebox import box as box_module  # noqa: F401
from tidebox import collect, panel as panel_module, running, storage  # noqa: F401

Shortages = memory.Shortages
Panel = panel_module.Panel
KINDS = memory.KINDS


def said(what, detail="", kind=""):
    try:
        print("tidebox-watch:", what, detail, kind)
    except MemoryError:
        pass


_miss = Shortages.miss
_lost = Shortages.lost
_restart = Panel.restart


def miss(self, kind):
    was = self.reboot_due
    said("miss", KINDS[kind])
    _miss(self, kind)
    if self.reboot_due and not was:
        said("rule", KINDS[kind])


def lost(self):
    was = self.reboot_due
    said("miss", "lost")
    _lost(self)
    if not was:
        said("rule", "lost")


def restart(self, step, game=None, tries=0, short=False):
    said("restart", step, ("flag" if self.box.shortages.reboot_due else "direct") if short else "after_game")
    _restart(self, step, game, tries, short)


Shortages.miss = miss
Shortages.lost = lost
Panel.restart = restart
'''
WATCH_BOOT = "import %s  # noqa: F401\nimport main  # noqa: E402,F401 - runs the box\n" % WATCH_MODULE
WATCH_LINE = "tidebox-watch: "
RULES = ("moves", "views", "requests", "lost")  # tidebox/memory.py's KINDS, and a game not put back


def add_watch(tree):
    """The watch into a copy of the firmware's tree: its module as .mpy, and the script that starts
    it before main.py (returned, for BoxProcess)."""
    source = Path(tree) / (WATCH_MODULE + ".py")
    source.write_text(WATCH)
    build.compile_file(source, source.with_suffix(".mpy"))
    source.unlink()
    boot = WATCH_MODULE + "_boot.py"
    (Path(tree) / boot).write_text(WATCH_BOOT)
    return boot


def count_watch(log_text):
    """What the watch's lines in a box's log say: {"rule <name>": times it set the flag, "restart
    <step> <flag|direct|after_game>": restarts, "miss <rule>": misses reported}."""
    counts = {}
    for line in log_text.splitlines():
        if line.startswith(WATCH_LINE):
            key = " ".join(line.split()[1:])
            counts[key] = counts.get(key, 0) + 1
    return counts


class LedgerBox(BoxProcess):
    """A box that remembers the last move it acknowledged: the move count (`seq`) a phone saw just
    after it. After a power cut the box's saved game must have come at least that far."""

    acked = -1

    def move(self, token, name, args=None, seq=None):
        answer = super().move(token, name, args, seq)
        try:
            self.acked = max(self.acked, self.state(token)["seq"])
        except Exception:  # noqa: BLE001 - a cut just after the answer: the answer still counts
            self.acked = max(self.acked, (seq or 0) + 1)
        return answer


class Plug:
    """Pulls the box's plug `after` seconds from now, unless cancelled first."""

    def __init__(self, box, after):
        self.box = box
        self.pulled = False
        self.timer = threading.Timer(after, self.pull)
        self.timer.daemon = True
        self.timer.start()

    def pull(self):
        proc = self.box.proc
        if proc is not None and proc.poll() is None:
            self.pulled = True
            proc.send_signal(signal.SIGKILL)

    def cancel(self):
        self.timer.cancel()


class Soak:
    def __init__(self, minutes, seed, heap, watch=True):
        self.rng = random.Random(seed)
        self.until = time.monotonic() + minutes * 60
        self.folder = tempfile.mkdtemp(prefix="tidebox-soak-")
        # The firmware as built now, copied: hours long, the soak is not changed under it by a build.
        tree = shutil.copytree(build.build_sim(), self.folder + "/tree")
        script = add_watch(tree) if watch else "main.py"
        self.box = LedgerBox(tree, self.folder + "/state", heap=heap, pace_ms=BOARD_PACE_MS, script=script)
        self.games = [game for game, _ in firmware_games().GAMES]
        self.table = Table()
        self.figures = {"games_played": 0, "failed_starts": 0, "cuts_during_games": 0,
                        "cuts_between_games": 0, "polls": 0, "polls_unanswered": 0, "acked_lost": 0}
        self.menu = []  # (live heap, largest free block) at each return to the game menu
        self.crash_entries = 0  # crash.log entries of a flash wiped after a failure

    def power_cut(self):
        """Pull the plug and put it back in: the box boots on its flash."""
        self.box.kill()
        self.box.start()

    def after_cut(self):
        """Back from a cut: the box offers what it saved, with every acknowledged move in it. True if
        it had something to offer (False: cut before anyone had joined)."""
        screen = self.box.settled_screen(self.box.status(timeout=15), timeout=10)
        view = self.view()
        if screen == "choose" and not view["seats"]:
            self.table.forget()
            return False
        if view["box"] == "over":  # cut after the game's end: it shows the end again
            self.check_acked()
            back_to_menu(self.box)
            self.box.acked = -1  # a new game's moves from here
            return False
        if screen != "resume":
            raise AssertionError("after a power cut the box shows %s, not its saved game" % screen)
        self.check_acked()
        return True

    def view(self, token=None):
        """A phone's view, asked again after a 503 (the box's "try again"), as a phone's page does."""
        for _ in range(20):
            try:
                return self.box.state(token)
            except ApiError as exc:
                if exc.status != 503:
                    raise
                time.sleep(0.5)
        return self.box.state(token)

    def check_acked(self):
        if self.table.tokens:
            view = self.view(self.table.tokens[0])
            if view["seq"] < self.box.acked:
                self.figures["acked_lost"] += self.box.acked - view["seq"]

    def crash_log_entries(self):
        crash = Path(self.box.state_dir, "crash.log")
        return crash.read_text().count("--- ") if crash.exists() else 0

    def recover(self):
        """After a cut or a failure: the box's offer checked, the game discarded; anything that goes
        wrong on the way counts as a failure and the box starts again from an empty flash."""
        try:
            if self.after_cut():
                self.discard()
        except Exception as exc:  # noqa: BLE001
            self.figures["failed_starts"] += 1
            print("after a cut the box did not come back as it should: %r" % exc, flush=True)
            self.box.kill()
            self.crash_entries += self.crash_log_entries()
            shutil.rmtree(self.box.state_dir, ignore_errors=True)
            self.box.start()
            self.table.forget()
            self.box.acked = -1

    def discard(self):
        """On the resume offer: the saved game is discarded (asked first): a new table."""
        self.box.press("A")
        self.box.press("C")
        self.table.forget()
        self.box.acked = -1

    def play(self, game):
        driver = driver_for(game)()
        plug = Plug(self.box, self.rng.uniform(2, 40)) if self.rng.random() < CUT_DURING else None
        try:
            final, stats = driver.play(self.box, self.table)
            finished = driver.finished(final)
            if plug:
                plug.cancel()
            back_to_menu(self.box)
        except Exception as exc:  # noqa: BLE001 - a cut, or a failure to report
            if plug:
                plug.cancel()
            if not (plug and plug.pulled):
                self.figures["failed_starts"] += 1
                print("game %s failed: %r" % (game, exc), flush=True)
                self.power_cut()  # whatever state it is in, the evening goes on from flash
            else:
                self.figures["cuts_during_games"] += 1
                self.box.start()
            self.recover()
            return
        self.figures["polls"] += stats["requests"]
        self.figures["polls_unanswered"] += len(stats["errors"])
        if finished:
            self.figures["games_played"] += 1
        live, largest = heap_at_menu(self.box)
        self.menu.append((live, largest))
        print("%s: played=%s polls=%d unanswered=%d menu live %.1f KB largest free %.1f KB" % (
            game, finished, stats["requests"], len(stats["errors"]), live / 1024, largest / 1024), flush=True)
        self.box.acked = -1
        if self.rng.random() < CUT_BETWEEN:
            self.figures["cuts_between_games"] += 1
            self.power_cut()
            try:
                if self.after_cut():
                    self.box.press("C")  # resume: the same table at the game menu
            except Exception as exc:  # noqa: BLE001
                print("after a cut between games: %r" % exc, flush=True)
                self.recover()

    def run(self):
        self.box.start()
        try:
            while time.monotonic() < self.until:
                order = list(self.games)
                for i in range(len(order) - 1, 0, -1):
                    j = self.rng.randrange(i + 1)
                    order[i], order[j] = order[j], order[i]
                for game in order:
                    if time.monotonic() >= self.until:
                        break
                    self.play(game)
        finally:
            self.box.stop()
        self.figures["crash_log_entries"] = self.crash_entries + self.crash_log_entries()
        self.figures["soft_resets"] = len(self.box.soft_resets)
        self.figures["box_log"] = self.box.log.name
        with open(self.box.log.name, errors="replace") as f:
            self.figures["watch"] = count_watch(f.read())
        return self.figures, self.menu


def report(figures, menu, minutes):
    live = [m[0] / 1024 for m in menu]
    largest = [m[1] / 1024 for m in menu]
    rows = [
        ("minutes", "%d" % minutes, "3 hours by default"),
        ("games played", figures["games_played"], "-"),
        ("failed starts", figures["failed_starts"], "0"),
        ("power cuts during games / between games", "%d / %d" % (figures["cuts_during_games"],
                                                                  figures["cuts_between_games"]), "-"),
        ("polls answered", "%d of %d" % (figures["polls"] - figures["polls_unanswered"], figures["polls"]),
         "all"),
        ("acknowledged actions lost", figures["acked_lost"], "0"),
        ("live heap at the game menu, KB (min / max)",
         "%.1f / %.1f" % (min(live), max(live)) if live else "-", "flat"),
        ("largest free block at the game menu, KB (min / max)",
         "%.1f / %.1f" % (min(largest), max(largest)) if largest else "-", "flat"),
        ("crash.log entries", figures["crash_log_entries"], "0"),
        ("restarts of the box by itself (soft resets)", figures["soft_resets"], "-"),
    ]
    watch = figures.get("watch")
    if watch is not None:
        rows += [("memory rule fired: %s" % rule, watch.get("rule " + rule, 0), "0") for rule in RULES]
        rows += [("misses: " + rule, watch.get("miss " + rule, 0), "-") for rule in RULES]
        restarts = sorted(key for key in watch if key.startswith("restart "))
        rows += [("Panel.restart(%s)" % key[len("restart "):], watch[key], "-") for key in restarts]
    print("| figure | value | goal |")
    print("| --- | --- | --- |")
    for name, value, goal in rows:
        print("| %s | %s | %s |" % (name, value, goal))
    print("the box's log: %s" % figures["box_log"])


def main():
    minutes = float(os.environ.get("EVENING_MINUTES", "180"))
    seed = int(os.environ.get("EVENING_SEED", "1"))
    heap = os.environ.get("EVENING_HEAP", evening_heap())
    print("an evening of %g minutes at heap %s, seed %d, at a Pico W's pace" % (minutes, heap, seed),
          flush=True)
    watch = os.environ.get("EVENING_WATCH", "1") != "0"
    figures, menu = Soak(minutes, seed, heap, watch).run()
    report(figures, menu, minutes)
    bad = figures["failed_starts"] or figures["acked_lost"] or figures["crash_log_entries"] \
        or figures["polls_unanswered"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
