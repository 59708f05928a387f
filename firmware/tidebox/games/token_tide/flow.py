# Token Tide on the box: the tide card, the allocation countdown, the stepped reveal, the end, and a
# player's private entry on the box, as screen objects on the reader's stack (see tidebox/reader.py).
# The box's own screens (joining, setup, menus, confirmations) are in tidebox/screens.py.
from tidebox.box import OVER
from tidebox.buttons import LONG
from tidebox.games.token_tide import rules as game
from tidebox.games.token_tide import screens as draws
from tidebox.screens import Entered, Handoff, PickSeat, Screen, in_game_menu


def home(reader):
    """The screen for the game's phase (after a resume, a menu or an action)."""
    box = reader.box
    if box.phase == OVER:
        return Final(reader)
    state = box.state
    if state["phase"] == game.PHASE_REVEALED:
        return Reveal(reader)
    if box.countdown.running() or not box.to_act():
        return Allocate(reader)
    return Card(reader)


progress = draws.round_label  # progress(state): one line for the resume screen


def menu_items(reader):
    """The game's items in the reader's in-game menu."""
    box = reader.box

    def enter():
        waiting = box.to_act()
        reader.push(PickSeat(reader, "Enter for?", lambda seat: reader.push(
            Handoff(reader, seat, lambda: Entry(reader, seat))), seats=waiting or None))

    return [("Enter on box", enter)]


class Card(Screen):
    name = "card"

    def draw(self, fb, now):
        draws.draw_card(fb, self, now)

    def press(self, button, kind):
        r = self.reader
        if button == "A":
            r.push(in_game_menu(r))
        elif button == "C":
            r.stop_flash()
            self.box.start_timer(self.box.options["timer"])
            r.replace(Allocate(r))


class Allocate(Screen):
    name = "allocate"
    counts_down = True  # redrawn every second; flashes when the countdown reaches zero

    def draw(self, fb, now):
        draws.draw_allocate(fb, self, now)

    def press(self, button, kind):
        r = self.reader
        box = self.box
        if button == "A":
            r.push(in_game_menu(r))
        elif button == "B":
            if box.extend_timer():
                r.stop_flash()
        elif button == "C":
            waiting = box.to_act()
            if waiting:
                r.message = "Waiting for %d" % len(waiting)
                return
            r.stop_flash()
            box.move(None, "reveal")
            box.countdown.stop()
            r.replace(Reveal(r))


def shown_step(box):
    """How far the box's reveal of the latest round has gone (the phones show that much), or -1."""
    seen = box.shown.get("reveal")
    last = box.state["last"] if box.state else None
    if seen and last and seen.get("round") == last["round"]:
        return seen.get("step", -1)
    return -1


class Reveal(Screen):
    """The stepped reveal (draws.REVEAL_STEPS), paged where a step has many lines. The phones follow
    it: the furthest step reached is published in box.shown["reveal"]. A long press on C goes
    straight to the last step (the standings): the phones then show the whole breakdown."""

    name = "reveal"

    def __init__(self, reader):
        super().__init__(reader)
        self.step = max(0, shown_step(self.box))  # back from a menu: where the table had got to
        self.publish()

    def publish(self):
        step = max(self.step, shown_step(self.box))
        self.box.show("reveal", {"round": self.box.state["last"]["round"], "step": step})

    def draw(self, fb, now):
        draws.draw_reveal(fb, self, now)

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
                self.reader.home()
                return
            self.publish()


def Final(reader):
    """The winners, then the final standings (paged; A back to the winners); then "New game?" keeps
    the table (tidebox/end.py)."""
    from tidebox.end import End

    name = "final"  # the screen's name (the tests and the simulator read it)
    return End(reader, name, draws.draw_final, pages=lambda r: draws.standings_page(r)[1])


class Entry(Screen):
    """A player without a phone sets Beacon, Grove and Mooring on the box, privately."""

    name = "entry"

    def __init__(self, reader, seat):
        super().__init__(reader)
        self.pick = seat
        mine = self.box.state["hidden"][seat]
        self.entry = list(mine) if mine else [0, 0, 0]

    def draw(self, fb, now):
        draws.draw_entry(fb, self, now)

    def press(self, button, kind):
        r = self.reader
        if button == "A":
            self.cursor = (self.cursor + 1) % 3
        elif button == "B":
            self.entry[self.cursor] = (self.entry[self.cursor] + 1) % (game.COUNTERS + 1)
        elif button == "C":
            if kind == LONG:
                self.entry = [0, 0, 0]  # leave without saving; numbers wiped from memory
                r.home()
                return
            if sum(self.entry) != game.COUNTERS:
                r.message = "%d of 7 left" % (game.COUNTERS - sum(self.entry))
                return
            self.box.move(self.pick, "allocate", {"allocation": list(self.entry), "ready": True})
            self.entry = [0, 0, 0]  # hide the numbers again at once
            r.replace(Entered(r, self.pick))
