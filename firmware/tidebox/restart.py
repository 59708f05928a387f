# The box restarting its own interpreter, and what it does first when it comes back.
#
# Two reasons to restart:
# - between the lobby and a game: when a game starts, and when its table goes back to the game
#   menu, the box restarts, so a game and the lobby each run on a fresh heap. Unloading a game frees
#   its objects, not the holes they leave, nor the names (qstrs) MicroPython interned for it, which
#   it never frees: after a few games the heap was in pieces and a game's import could fail with
#   40 KB free. A fresh heap is the same after any game, whatever the games are and however many a
#   night, and a game started fresh holds none of the lobby's code or leftovers.
# - short of memory: a MemoryError in the reader's flow (choosing a game, starting it, drawing a
#   screen) or a phone's move that the box could not put back: the panel says so, and the box comes
#   back where it was and takes the step it was taking again, on a fresh heap.
#
# Nothing is lost: every acknowledged action is on flash before anyone hears of it (box.py), and
# the step being taken is written beside it (NEXT_FILE). On a Pico W the restart is a soft reset
# (boards/pico_common.py): the Wi-Fi chip and lwIP are started once at power-up and a soft reset
# leaves them running, so the hotspot, its DHCP leases and the phones' association stay; the phones'
# polls go unanswered until the box listens again, and the page retries.
NEXT_FILE = "next.json"
RESTART_LOG = "restart.log"  # why the box restarted itself, newest last (capped)
RESTART_LOG_CAP = 1024
TRIES = 2  # a step that still finds no memory on a fresh heap is given up after this many restarts

# What the box does when it comes back (NEXT_FILE's "do"):
MENU = "menu"  # the game menu, the table kept (after a game)
PLAY = "play"  # the game just started (saved before the restart)
CHOOSE = "choose"  # choose the game "game" (a MemoryError while choosing it)
SETUP = "setup"  # on to the setup (a MemoryError on the way from the join screen)
START = "start"  # start the game set up (a MemoryError while starting it)
HOME = "home"  # the screen for what flash holds, without the resume offer (any other MemoryError)


def plan(storage, step, game=None, tries=0, why="", press=None):
    """Write down the step the box takes when it comes back; `press`, (button, kind, screen, seq):
    the reader's press under way, made again if the box comes back on that screen with nothing saved
    since (the move count the same)."""
    storage.save(NEXT_FILE, {"do": step, "game": game, "tries": tries, "press": press})
    if why:
        storage.append_log(RESTART_LOG, why + "\n", RESTART_LOG_CAP)


def take(storage):
    """The step written down before the box restarted itself (None: it did not; a power cut, a
    first start), forgotten once read so that a later power cut is a power cut."""
    try:
        step = storage.load(NEXT_FILE)
    except ValueError:
        step = None
    if step is not None:
        storage.remove(NEXT_FILE)
        known = step.get("do") in (MENU, PLAY, CHOOSE, SETUP, START, HOME)
        if not known or type(step.get("tries")) is not int:
            step = None
    return step
