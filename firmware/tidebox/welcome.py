# The screens of a box that has just started: the splash, then the offer to resume a saved game.
# Apart from the lobby (lobby.py) because a box that restarts mid-game (a power cut) resumes
# straight into the game: the lobby's code is never loaded then, and the heap that phones
# reconnecting at once need is not held by it. The panel unloads this module once it leaves them.
from tidebox import VERSION, draw, games, memory
from tidebox.box import CHOOSE, JOIN, NEXT_FILE, SETUP, GameError
from tidebox.screens import Screen

RESTARTED = "Memory tidied up"  # the message line once the box restarted itself for memory


def take(storage):
    """The step written down before the box restarted itself (Panel.restart), or None (it did not:
    a power cut, a first start); forgotten once read, so that a later power cut is a power cut.
    tidebox/restart.py is imported only when there is a step: a box booting into a game after a
    power cut has no heap to spare for it."""
    try:
        step = storage.load(NEXT_FILE)
    except ValueError:
        step = None
    if step is None:
        return None
    storage.remove(NEXT_FILE)
    from tidebox import restart

    if step.get("do") not in restart.STEPS or type(step.get("tries")) is not int:
        return None
    return step


def carry_on(panel, step):
    """The box restarted itself (tidebox/restart.py): the step it was taking, on a fresh heap, then
    the screen for where it is. No splash and no resume offer: nothing happened to the table."""
    from tidebox import restart

    box = panel.box
    do = step["do"]
    try:
        if do == restart.CHOOSE and box.phase in (CHOOSE, JOIN, SETUP) and (
                box.phase == CHOOSE or box.game_id != step["game"]):
            box.choose_game(step["game"])
        elif do == restart.SETUP and box.phase == JOIN:
            box.to_setup()
        elif do == restart.START and box.phase == SETUP:
            box.start_game()
        panel.home()
        press = step.get("press")
        if press and panel.screen == press[2] and box.seq == press[3]:
            panel.top().press(press[0], press[1])  # what was pressed when the memory ran out, again
    except GameError as e:
        panel.home()
        panel.message = e.message
        return
    except MemoryError:
        if step["tries"] + 1 >= memory.TRIES:  # a fresh heap could not take it either: say so, stay
            panel.home()
            panel.stay_short()
        else:
            panel.short_of_memory(do, step["game"], step["tries"] + 1)
        return
    if do != restart.MENU:
        panel.message = panel.message or RESTARTED


class Splash(Screen):
    name = "splash"

    def draw(self, fb, now):
        draw.big_center(fb, "TIDE", 4, 3)
        draw.center(fb, "BOX", 30)
        draw.center(fb, "v" + VERSION, 44)
        if self.box.notice:
            draw.center(fb, self.box.notice, 54)


class Resume(Screen):
    name = "resume"

    def draw(self, fb, now):
        box = self.box
        draw.title(fb, "Saved game")
        lines = [games.title(box.game_id) if box.game_id else "No game chosen"]
        if box.state:
            lines.append(self.panel.flow.progress(box.state))
        else:
            lines.append("Still joining")
        lines.append("%d players" % box.seats.count())
        lines.append("Resume it?")
        draw.rows(fb, lines, y=13, step=10)
        draw.hints(fb, "new", "", "go")

    def press(self, button, kind):
        if button == "C":
            self.panel.home()
        elif button == "A":
            self.panel.ask("Discard saved?", self.discard)

    def discard(self):
        """A new table at the game menu; from a saved game, on a fresh heap (as after any game),
        which draws the join screen's QR codes again."""
        in_game = self.box.state is not None
        self.box.discard()
        if in_game:
            self.panel.restart("menu")
        else:
            self.panel.home()
