# Token Tide on the box: the tide card, the allocation countdown (the box's countdown, timer.py: the
# panel redraws and flashes the screen that shows it), the stepped reveal, the end, and a player's
# private entry on the box (handed over, then locked in), as screen objects on the panel's stack
# (see tidebox/panel.py).
# The box's own screens (joining, setup, menus, confirmations) are in tidebox/screens.py.
from tidebox import draw
from tidebox.box import OVER
from tidebox.buttons import LONG
from tidebox.games.token_tide import drawing as draws
from tidebox.games.token_tide import rules as game
from tidebox.screens import GameScreen, PickSeat, Screen, SeatScreen

progress = draws.round_label  # progress(state): one line for the resume screen


def home(panel):
    """The screen for the game's phase (after a resume, a menu or an action)."""
    box = panel.box
    if box.phase == OVER:
        return final(panel)
    state = box.state
    if state["phase"] == game.PHASE_REVEALED:
        return Reveal(panel)
    if box.countdown.running() or not box.to_act():
        return Allocate(panel)
    return Card(panel)


def menu_items(panel):
    """The game's items in the reader's in-game menu."""
    box = panel.box

    def enter():
        waiting = box.to_act()
        panel.push(PickSeat(panel, "Enter for?", lambda seat: panel.push(
            Handoff(panel, seat)), seats=waiting or None))

    return [("Enter on box", enter)]


class Card(GameScreen):
    name = "card"
    paint = staticmethod(draws.draw_card)

    def act(self, button, kind):
        if button == "C":
            panel = self.panel
            panel.stop_flash()
            self.box.start_timer(self.box.options["timer"])
            panel.replace(Allocate(panel))


class Allocate(GameScreen):
    name = "allocate"
    paint = staticmethod(draws.draw_allocate)
    counts_down = True  # redrawn every second; flashes when the countdown reaches zero (panel.py)

    def act(self, button, kind):
        panel = self.panel
        box = self.box
        if button == "B":
            if box.extend_timer():
                panel.stop_flash()
        elif button == "C":
            waiting = box.to_act()
            if waiting:
                panel.message = "Waiting for %d" % len(waiting)
                return
            panel.stop_flash()
            box.move(None, "reveal")
            box.countdown.stop()
            panel.replace(Reveal(panel))


def shown_step(box):
    """How far the box's reveal of the latest round has gone (the phones show that much), or -1."""
    seen = box.shown.get("reveal")
    last = box.state["last"] if box.state else None
    if seen and last and seen.get("round") == last["round"]:
        return seen.get("step", -1)
    return -1


class Reveal(GameScreen):
    """The stepped reveal (draws.REVEAL_STEPS), paged where a step has many lines; A goes back a
    page or a step (at the first, it opens the reader's menu), C on. The phones follow
    it: the furthest step reached is published in box.shown["reveal"]. A long press on C goes
    straight to the last step (the standings): the phones then show the whole breakdown."""

    name = "reveal"
    long_presses = "C"  # straight to the last step
    paint = staticmethod(draws.draw_reveal)

    def __init__(self, panel):
        super().__init__(panel)
        self.step = max(0, shown_step(self.box))  # back from a menu: where the table had got to
        self.publish()

    def publish(self):
        step = max(self.step, shown_step(self.box))
        self.box.show("reveal", {"round": self.box.state["last"]["round"], "step": step})

    def press(self, button, kind):
        last = self.box.state["last"]
        pages = draws.reveal_pages(self, last)
        final = len(draws.REVEAL_STEPS) - 1
        if button == "A":
            if self.page > 0:
                self.page -= 1
            elif self.step > 0:
                self.step -= 1
                self.page = draws.reveal_pages(self, last) - 1
            else:
                super().press(button, kind)  # at the first page of the first step: the menu
                return
        elif button == "C":
            if kind == LONG and self.step < final:
                self.step = final  # everything at once
                self.page = 0
            elif self.page + 1 < pages:
                self.page += 1
            elif self.step < final:
                self.step += 1
                self.page = 0
            else:
                self.box.move(None, "next_round")
                self.panel.home()
                return
            self.publish()


def final(panel):
    """The end screen (tidebox/end.py): the winners, then the final standings (paged); then "New
    game?" keeps the table. Its own drawing: tied winners listed up to five lines of eight
    characters, without the shared total."""
    from tidebox.end import End

    name = "final"  # the screen's name (the tests and the simulator read it)
    return End(panel, name, game, draws.draw_final, pages=lambda r: draws.standings_page(r)[1])


class Handoff(SeatScreen):
    """Before a private entry on the box: the box is passed to one player."""

    name = "handoff"

    def draw(self, fb, now):
        name = self.box.seats.names[self.seat]
        draw.title(fb, "Private entry")
        draw.center(fb, "Pass the box to", 14)
        draw.big_center(fb, draw.fit(name, 8), 26, 2)
        draw.center(fb, "only they look", 44)
        draw.hints(fb, "", "back", "I am")

    def press(self, button, kind):
        if button == "C":
            self.panel.replace(Entry(self.panel, self.seat))
        elif button in ("A", "B"):
            self.panel.pop()


class Entry(Screen):
    """A player without a phone sets Beacon, Grove and Mooring on the box, privately."""

    name = "entry"
    long_presses = "C"  # leave without saving
    paint = staticmethod(draws.draw_entry)

    def __init__(self, panel, seat):
        super().__init__(panel)
        self.pick = seat
        mine = self.box.state["hidden"][seat]
        self.entry = list(mine) if mine else [0, 0, 0]

    def press(self, button, kind):
        panel = self.panel
        if button == "A":
            self.cursor = (self.cursor + 1) % 3
        elif button == "B":
            self.entry[self.cursor] = (self.entry[self.cursor] + 1) % (game.COUNTERS + 1)
        elif button == "C":
            if kind == LONG:
                self.entry = [0, 0, 0]  # leave without saving; numbers wiped from memory
                panel.home()
                return
            if sum(self.entry) != game.COUNTERS:
                panel.message = "%d of 7 left" % (game.COUNTERS - sum(self.entry))
                return
            self.box.move(self.pick, "allocate", {"allocation": list(self.entry), "ready": True})
            self.entry = [0, 0, 0]  # hide the numbers again at once
            panel.replace(Entered(panel, self.pick))


class Entered(SeatScreen):
    """After a private entry: locked in, the numbers hidden, the box handed back."""

    name = "entered"

    def draw(self, fb, now):
        draw.title(fb, "Locked in")
        draw.center(fb, self.box.seats.names[self.seat], 18)
        draw.center(fb, "numbers hidden", 30)
        draw.center(fb, "hand it back", 40)
        draw.hints(fb, "", "", "ok")

    def press(self, button, kind):
        if button == "C":
            self.panel.home()
