# The end of a game on the box, one screen for every game: the winners (step 0), then the final
# standings (step 1, paged), then what next ("New game?" at once, or a menu: a rematch, a new course,
# a new game). One button convention on every game's end: A opens the in-game menu (GameScreen), B
# goes back to the winners, C steps on. By default it draws the winners and the standings from the
# game's rules (`winners(state)`, and `standings(state)`: [rank, seat, total], the score line the
# phones show too); a game whose end says more gives its own drawing. Each game's flow.py makes it
# with its name, its rules or drawing, and its choices. Only needed once a game is over: a flow
# imports this module when it shows the end, and the panel forgets it again when the box leaves the
# end (panel.home), so it takes no heap while a game is played.
from tidebox import draw
from tidebox.screens import GameScreen, ListMenu

PAGE = 5  # standings lines between the title and the hints


def new_game(panel):
    """The same table back at the game menu, where the same game or another is chosen (on a fresh
    heap: Panel.to_game_menu)."""
    panel.to_game_menu()


# A "what next" choice: label, question, action(panel). (The phones' move of that name is box.NEW_GAME.)
NEW_GAME_CHOICE = ("New game", "New game?", new_game)


def standings_pages(screen):
    return max(1, (len(screen.box.state["names"]) + PAGE - 1) // PAGE)


def winners_standings(fb, screen, now):
    """The default end. Step 0: the winner big with their points, or the tied winners (cut to
    `tie[0]` characters; with `tie[1]`, their shared total on the last line). Step 1: the final
    standings, paged."""
    state = screen.box.state
    names = state["names"]
    ranks = screen.rules.standings(state)
    if screen.step:
        lines, count = draw.page(["%d %s %d" % (rank, draw.fit(names[seat], 10), total)
                                  for rank, seat, total in ranks], screen.page, PAGE)
        draw.title(fb, "Final %d/%d" % (screen.page % count + 1, count) if count > 1 else "Final standings")
        draw.rows(fb, lines)
        draw.hints_or_message(fb, screen.message, "menu", "top", "next")
        return
    won = screen.rules.winners(state)
    draw.title(fb, "WINNER" if len(won) == 1 else "WINNERS (tie)")
    if len(won) == 1:
        draw.big_center(fb, draw.fit(names[won[0]], 8), 18, 2)
        draw.center(fb, "%d points" % ranks[0][2], 40)
    else:
        width, each = screen.tie
        lines = [draw.fit(names[i], width) for i in won]
        room = 4 if each else 5  # lines for names above the hints
        if len(lines) > 4:
            lines = lines[:room - 1] + ["+%d more" % (len(lines) - room + 1)]
        draw.rows(fb, lines, y=12)
        if each:
            fb.text("%d points each" % ranks[0][2], 0, 47)
    draw.hints_or_message(fb, screen.message, "menu", "", "next")


def _one_page(screen):
    return 1


def _asker(panel, question, action):
    return lambda: panel.ask(question, lambda: action(panel))


class End(GameScreen):
    """The end of the game `rules`. `paint(fb, screen, now)` draws `screen.step`: 0 the winners, 1
    the standings' `screen.page` (default: winners_standings, with `tie`); `pages(screen)` is how
    many pages the standings take (default: the default standings' pages; with a drawing of its own,
    one). A opens the in-game menu, B goes back to the winners, C steps on, pages on, then asks
    what next: `choices` are (label, question, action(panel)); with no `menu` the first is asked at
    once, else they are listed with Back in a menu `(title, screen name)`. `over(state)`: while the game is
    shown it must stay true, else (the last turn undone, a new game started from a phone) the game's
    own screen takes over."""

    def __init__(self, panel, name, rules, paint=None, pages=None, choices=(NEW_GAME_CHOICE,),
                 menu=None, over=None, tie=(12, True)):
        super().__init__(panel)
        self.name = name
        self.rules = rules
        if paint is None:
            self.paint = winners_standings
            self.pages = pages or standings_pages
        else:
            self.paint = paint  # an instance's function: called as paint(fb, screen, now)
            self.pages = pages or _one_page
        self.choices = choices
        self.menu = menu
        self.over = over
        self.tie = tie
        self.step = 0

    def tick(self, now):
        state = self.box.state
        return self.over is not None and self.home_if(state is None or not self.over(state))

    def act(self, button, kind):
        r = self.panel
        if button == "B":
            self.step = 0
            self.page = 0
        elif button == "C":
            if self.step == 0:
                self.step = 1
                self.page = 0
            elif self.page + 1 < self.pages(self):
                self.page += 1
            elif self.menu is None:
                _asker(r, self.choices[0][1], self.choices[0][2])()
            else:
                items = [(label, _asker(r, question, action)) for label, question, action in self.choices]
                items.append(("Back", r.pop))
                r.push(ListMenu(r, self.menu[0], items, self.menu[1]))
