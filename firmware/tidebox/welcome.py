# The screens of a box that has just started: the splash, then the offer to resume a saved game.
# Apart from the lobby (lobby.py) because a box that restarts mid-game (a power cut) resumes
# straight into the game: the lobby's code is never loaded then, and the heap that phones
# reconnecting at once need is not held by it. The reader unloads this module once it leaves them.
from tidebox import VERSION, draw, games
from tidebox.screens import Screen


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
            lines.append(self.reader.flow.progress(box.state))
        else:
            lines.append("Still joining")
        lines.append("%d players" % box.seats.count())
        lines.append("Resume it?")
        draw.rows(fb, lines, y=13, step=10)
        draw.hints(fb, "new", "", "go")

    def press(self, button, kind):
        if button == "C":
            self.reader.home()
        elif button == "A":
            self.reader.ask("Discard saved?", self.discard)

    def discard(self):
        self.box.discard()
        self.reader.home()
