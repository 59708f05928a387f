# The box restarting its own interpreter, and what it does first when it comes back.
#
# Two reasons to restart:
# - after a game: when its table goes back to the game menu, the box restarts, so the next game is
#   chosen, joined, set up and started on a fresh heap, as on a box just switched on. Unloading a
#   game frees its objects, not the holes they leave, nor the names (qstrs) MicroPython interned for
#   it, which it never frees: after a few games the heap was in pieces and a game's import could
#   fail with 40 KB free. A fresh heap is the same after any game, whatever the games are and
#   however many a night. (Starting a game is not a restart: a box booted into a game had its heap
#   cut up by reading the save, 6.7 KB the largest free block against the lobby's 20 KB.)
# - short of memory: a MemoryError in the reader's flow (choosing a game, starting it, drawing a
#   screen) or a phone's move that the box could not put back: the panel says so, and the box comes
#   back where it was and takes the step it was taking again, on a fresh heap.
#
# This module stays loaded: when the heap runs out there is no room to import it. What the box does
# once it is back (reading the step, taking it) is in welcome.py, loaded only at a boot.
#
# Nothing is lost: every acknowledged action is on flash before anyone hears of it (box.py), and
# the step being taken is written beside it (NEXT_FILE). On a Pico W the restart is a soft reset
# (boards/pico_common.py): the Wi-Fi chip and lwIP are started once at power-up and a soft reset
# leaves them running, so the hotspot, its DHCP leases and the phones' association stay; the phones'
# polls go unanswered until the box listens again, and the page retries.
from tidebox import draw

NEXT_FILE = "next.json"
RESTART_LOG = "restart.log"  # why the box restarted itself, newest last (capped)
RESTART_LOG_CAP = 1024
TRIES = 2  # a step that still finds no memory on a fresh heap is given up after this many restarts

# What the box does when it comes back (NEXT_FILE's "do"):
MENU = "menu"  # the game menu, the table kept (after a game)
CHOOSE = "choose"  # choose the game "game" (a MemoryError while choosing it)
SETUP = "setup"  # on to the setup (a MemoryError on the way from the join screen)
START = "start"  # start the game set up (a MemoryError while starting it)
HOME = "home"  # the screen for what flash holds, without the resume offer (any other MemoryError)


SHORT_LINES = ("The box restarts", "where it was:", "no seat, choice", "or score is lost")
ROOM_LINES = ("One moment:", "the box makes", "room for it")
HEADINGS = {MENU: "Next game"}


def restart(reader, step, game=None, tries=0, short=False):
    """Write the step down (with a short of memory, the reader's press under way too), say on the
    panel what happens and restart the box. The reader has let go of the game already."""
    press = None
    if short and step == HOME and reader.pressing is not None:
        press = (reader.pressing, reader.pressing_kind, reader.pressing_on, reader.pressing_seq)
    reader.pressing = None
    try:
        plan(reader.box.storage, step, game, tries, "short of memory: " + step if short else "", press)
    except (OSError, MemoryError):
        pass  # without the step the box comes back at its save, with the resume offer
    fb = reader.fb
    fb.fill(0)
    draw.title(fb, "Short of memory" if short else HEADINGS.get(step, "One moment"))
    draw.rows(fb, SHORT_LINES if short else ROOM_LINES, y=14, step=10)
    if reader.inverted:
        reader.inverted = 0
        fb.invert(0)
    fb.show()
    reader.box.board.restart()


def plan(storage, step, game=None, tries=0, why="", press=None):
    """Write down the step the box takes when it comes back; `press`, (button, kind, screen, seq):
    the reader's press under way, made again if the box comes back on that screen with nothing saved
    since (the move count the same)."""
    storage.save(NEXT_FILE, {"do": step, "game": game, "tries": tries, "press": press})
    if why:
        storage.append_log(RESTART_LOG, why + "\n", RESTART_LOG_CAP)
