# The box restarting its own interpreter, and what it does first when it comes back.
#
# Two reasons to restart:
# - after a game: when its table goes back to the game menu, the box restarts, so the next game is
#   chosen, joined, set up and started on a fresh heap, as on a box just switched on. Unloading a
#   game frees its objects, not the holes they leave, nor the names (qstrs) MicroPython interned for
#   it, which it never frees: after a few games the heap is in pieces, and a game's import can fail
#   with tens of kilobytes free. A fresh heap is the same after any game, whatever the games are
#   and however many a night. (Starting a game is not a restart: a box booted into a game has its
#   heap cut up by reading the save, far more than the lobby's.)
# - short of memory: a MemoryError in the panel's flow (choosing a game, starting it, drawing a
#   screen), a phone's move that the box could not put back, or a run of shortages long enough
#   (memory.py): the panel says so, and the box comes back where it was and takes the step it was
#   taking again, on a fresh heap.
#
# The panel imports this module only when it restarts the box, into the room it has just let go of;
# the rest of the time its code takes no heap. What the box does once it is back (reading the step,
# taking it) is in welcome.py, loaded only at a boot.
#
# Nothing is lost: every acknowledged action is on flash before anyone hears of it (box.py), and
# the step being taken is written beside it (NEXT_FILE). On a Pico W the restart is a soft reset
# (boards/pico_common.py): the Wi-Fi chip and lwIP are started once at power-up and a soft reset
# leaves them running, so the hotspot, its DHCP leases and the phones' association stay; the phones'
# polls go unanswered until the box listens again, and the page retries.
from tidebox import draw

RESTART_LOG = "restart.log"  # why the box restarted itself for memory, newest last (capped)
RESTART_LOG_CAP = 1024

# What the box does when it comes back (the "do" of box.NEXT_FILE, which Panel.restart writes):
MENU = "menu"  # the game menu, the table kept (after a game)
CHOOSE = "choose"  # choose the game "game" (a MemoryError while choosing it)
SETUP = "setup"  # on to the setup (a MemoryError on the way from the join screen)
START = "start"  # start the game set up (a MemoryError while starting it)
HOME = "home"  # the screen for what flash holds, without the resume offer (any other MemoryError)
STEPS = (MENU, CHOOSE, SETUP, START, HOME)

SHORT_LINES = ("The box restarts", "where it was:", "no seat, choice", "or score is lost")
ROOM_LINES = ("Next game:", "the box makes", "room for it")


def say(panel, step, short):
    """Under the panel's title, what happens; a restart for memory is logged (restart.log)."""
    draw.rows(panel.fb, SHORT_LINES if short else ROOM_LINES, y=14, step=10)
    if short:
        panel.box.storage.append_log(RESTART_LOG, "short of memory: %s\n" % step, RESTART_LOG_CAP)
