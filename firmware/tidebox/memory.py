# The box's one memory policy.
#
# A MemoryError is never a phone's fault and never loses an acknowledged action (every one is on
# flash first: box.py). What the box does about it is decided here, in three parts:
# - which shortages it counts, and when a run of them means the heap will not give the room back by
#   itself, so that the box reboots on a fresh heap (Shortages, below, and its table of limits);
# - how often a step that found no memory is tried again after such a reboot (TRIES);
# - which modules' code it lets go of as it moves through its life (LET_GO), so that code the box
#   no longer needs is heap the game and the phones can use.
# The web server, the box and the panel report each miss and each success to one Shortages (the
# box's `shortages`); the panel loop asks it whether a reboot is due.
import time

from micropython import const

from tidebox import forget

# ------------------------------------------------------------ shortages

# What is counted, each a run "in a row" that a success of its own kind ends:
MOVES = const(0)  # a phone's action refused, the box put back as flash holds it (ended by a saved change)
VIEWS = const(1)  # a phone's whole view not made (ended by a whole view made)
REQUESTS = const(2)  # a request the box had no memory to read or answer (ended by any answer made)
# ... and for each, how many in a row, over at least how many ms, mean the box reboots:
# - 3 actions: the other phones' polls, which need little, go on being answered meanwhile, yet the
#   heap never makes room for the one that needs more;
# - 8 views over 5 s: a burst of full views in flight clears within a poll or two; a run that lasts
#   means no phone can see the game;
# - 8 requests over 1 s: the box cannot even read what the phones send.
LIMITS = ((3, 0), (8, 5000), (8, 1000))
KINDS = ("moves", "views", "requests")  # their names, for the logs and the tests


class Shortages:
    """The runs of shortages (LIMITS) and the one decision they feed: `reboot_due`, which the panel
    loop reads (running.py) and answers by rebooting (restart.py). Its lists are made once: counting
    a miss takes no heap, since it happens when there is none."""

    def __init__(self, ticks_ms):
        self.ticks_ms = ticks_ms
        self.in_a_row = [0, 0, 0]
        self.since = [0, 0, 0]
        self.reboot_due = False

    def miss(self, kind):
        """One shortage of `kind`; its run long enough (LIMITS) makes a reboot due."""
        now = self.ticks_ms()
        runs = self.in_a_row
        if not runs[kind]:
            self.since[kind] = now
        runs[kind] += 1
        most, over_ms = LIMITS[kind]
        if runs[kind] >= most and time.ticks_diff(now, self.since[kind]) >= over_ms:
            self.reboot_due = True

    def fine(self, kind):
        """A success of `kind`: its run ends."""
        self.in_a_row[kind] = 0

    def stayed(self):
        """The box stays up after all (Panel.stay_short): the runs start again."""
        self.reboot_due = False
        runs = self.in_a_row
        runs[MOVES] = runs[VIEWS] = runs[REQUESTS] = 0

    def lost(self):
        """RAM holds the game unlike flash, and putting it back found no memory either: only a
        reboot, which reads flash, mends it."""
        self.reboot_due = True


# ------------------------------------------------------------ tries after a reboot

# A step that still finds no memory on a fresh heap is given up after this many reboots, and so is
# a shortage that comes back before anything on the box has changed since its reboot: the box stays
# up and says so, instead of rebooting into the same shortage for ever (Panel.short_of_memory).
TRIES = 2

# ------------------------------------------------------------ what is let go of, and when

# A moment in the box's life, and the modules whose code is not needed after it (until they are
# imported again): the next import loads a module let go of, so a table wrong here costs heap or
# time, never a behaviour.
LET_GO = {
    # main.py: the hotspot's SSID and passphrase are known
    "hotspot_up": ("tidebox.hotspot",),
    # main.py: the join screen's QR codes are rendered (the encoder's code and work leave a room at
    # the bottom of the heap that the box's objects then fill compactly)
    "codes_drawn": ("tidebox.join_qr", "tidebox.qr"),
    # the panel's first screen after a boot: the splash, the resume offer and the step the box took
    # after it rebooted are shown or read once
    "home": ("tidebox.welcome", "tidebox.restart"),
    # a screen of any phase but the end of a game: the end's screens are heap the next game can use
    "not_over": ("tidebox.end", "tidebox.standings"),
    # a game's own screens: the lobby is not needed again until the game ends (after it the box
    # reboots and draws the join screen again)
    "playing": ("tidebox.lobby",),
    # a game's checks of a new game or a save, made in one call (box.checked)
    "checked": ("tidebox.games.checks",),
    # the night's scores are read or written in one go (box.py, lobby.py)
    "tonight_done": ("tidebox.tonight",),
}


def let_go(moment):
    """The modules LET_GO names for `moment` leave the heap (tidebox.forget)."""
    for name in LET_GO[moment]:
        forget(name)
