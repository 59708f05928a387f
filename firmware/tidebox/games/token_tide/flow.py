# Token Tide's part of the reader's flow: setup, the tide card, the allocation countdown, the stepped
# reveal, the end, and a player's private entry on the box. The box's own screens (joining, menus,
# confirmations) are in reader.py; a second game brings its own flow module and screens module.
from tidebox.games.token_tide import screens as tide_screens
from tidebox.box import OVER
from tidebox.buttons import LONG
from tidebox.games import token_tide as game
from tidebox.games.token_tide.screens import REVEAL_STEPS


class TideFlow:
    screens = tide_screens  # draws this game's screens (draw_<screen>)

    def __init__(self, reader):
        self.reader = reader

    def on_setup(self, button, kind):
        r = self.reader
        options = r.box.options
        if button == "A":
            if kind == LONG:
                r.box.back_to_join()
                r.go("join")
                return
            r.cursor = (r.cursor + 1) % 4
        elif button == "B":
            if r.cursor == 0:
                options["deck"] = (options["deck"] + 1) % 3
            elif r.cursor == 1:
                options["timer"] = (options["timer"] + 1) % 5
            elif r.cursor == 2:
                r.pick = options["reader"]
                r.next_seat()
                options["reader"] = r.pick
            else:
                options["practice"] = not options["practice"]
        elif button == "C":
            r.box.start_game()
            r.go("card")

    def on_card(self, button, kind):
        r = self.reader
        if button == "A":
            r.go("menu")
        elif button == "C":
            r.expired_at = None
            r.box.start_timer()
            r.go("allocate")

    def on_allocate(self, button, kind):
        r = self.reader
        if button == "A":
            r.go("menu")
        elif button == "B":
            if r.box.extend_timer():
                r.expired_at = None
                r.fb.invert(0)
        elif button == "C":
            if not r.box.all_ready():
                waiting = len(game.waiting_for(r.box.state))
                r.message = "Waiting for %d" % waiting
                return
            r.expired_at = None
            r.fb.invert(0)
            r.box.reveal()
            r.step = 0
            r.go("reveal")

    def on_reveal(self, button, kind):
        r = self.reader
        last = r.box.state["last"]
        pages = tide_screens.reveal_pages(r, last)
        if button == "A":
            if r.page > 0:
                r.page -= 1
            elif r.step > 0:
                r.step -= 1
                r.page = tide_screens.reveal_pages(r, last) - 1
        elif button == "C":
            if r.page + 1 < pages:
                r.page += 1
            elif r.step + 1 < len(REVEAL_STEPS):
                r.step += 1
                r.page = 0
            else:
                r.box.next_round()
                r.step = 0
                r.go("final" if r.box.phase == OVER else "card")

    def on_final(self, button, kind):
        r = self.reader
        if button == "C":
            if r.step == 0:
                r.step = 1
                r.page = 0
            else:
                _, pages = tide_screens.standings_page(r)
                if r.page + 1 < pages:
                    r.page += 1
                else:
                    r.ask("New game?", self.new_game, "final")
        elif button == "A":
            r.step = 0
            r.page = 0

    def new_game(self):
        r = self.reader
        r.step = 0
        r.box.new_game()
        r.go("join")

    def on_entry(self, button, kind):
        r = self.reader
        if button == "A":
            r.cursor = (r.cursor + 1) % 3
        elif button == "B":
            r.entry[r.cursor] = (r.entry[r.cursor] + 1) % (game.COUNTERS + 1)
        elif button == "C":
            if kind == LONG:
                r.entry = [0, 0, 0]  # leave without saving; numbers wiped from memory
                r.go(r.home())
                return
            if sum(r.entry) != game.COUNTERS:
                r.message = "%d of 7 left" % (game.COUNTERS - sum(r.entry))
                return
            r.box.allocate(r.pick, list(r.entry), True)
            r.entry = [0, 0, 0]  # hide the numbers again at once
            r.go("entered")
