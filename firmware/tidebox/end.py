# The end of a game on the box, one screen for every game: the winners (step 0), then the final
# standings (step 1, paged), then what next ("New game?" at once, or a menu: a rematch, a new course,
# a new game). One button convention on every game's end: A opens the in-game menu (GameScreen), B
# goes back to the winners, C steps on. By default it draws the winners and the standings from the
# game's rules (standings.py, imported only then); a game whose end says other things gives its own
# drawing. Each game's flow.py makes it with its name, its rules or drawing, and its choices. Only
# needed once a game is over: a flow imports this module when it shows the end, and the panel
# forgets it (and standings.py) again when the box leaves the end (panel.home), so it takes no heap
# while a game is played.
from tidebox.screens import GameScreen, ListMenu


def new_game(panel):
    """The same table back at the game menu, where the same game or another is chosen (on a fresh
    heap: Panel.to_game_menu)."""
    panel.to_game_menu()


# A "what next" choice: label, question, action(panel). (The phones' move of that name is box.NEW_GAME.)
NEW_GAME_CHOICE = ("New game", "New game?", new_game)


def _one_page(screen):
    return 1


def _asker(panel, question, action):
    return lambda: panel.ask(question, lambda: action(panel))


class End(GameScreen):
    """The end of the game `rules`. `paint(fb, screen, now)` draws `screen.step`: 0 the winners, 1
    the standings' `screen.page` (default: standings.paint); `pages(screen)` is how many pages the
    standings take (default: the default standings' pages; with a drawing of its own, one). A opens
    the in-game menu, B goes back to the winners, C steps on, pages on, then asks what next:
    `choices` are (label, question, action(panel)); with no `menu` the first is asked at once, else
    they are listed with Back in a menu `(title, screen name)`. `over(state)`: while the game is
    shown it must stay true, else (the last turn undone, a new game started from a phone) the game's
    own screen takes over."""

    def __init__(self, panel, name, rules, paint=None, pages=None, choices=(NEW_GAME_CHOICE,),
                 menu=None, over=None):
        super().__init__(panel)
        self.name = name
        self.rules = rules
        if paint is None:
            from tidebox import standings

            self.paint = standings.paint
            self.pages = pages or standings.pages
        else:
            self.paint = paint  # an instance's function: called as paint(fb, screen, now)
            self.pages = pages or _one_page
        self.choices = choices
        self.menu = menu
        self.over = over
        self.step = 0

    def tick(self, now):
        state = self.box.state
        return self.over is not None and self.home_if(state is None or not self.over(state))

    def act(self, button, kind):
        panel = self.panel
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
                _asker(panel, self.choices[0][1], self.choices[0][2])()
            else:
                items = [(label, _asker(panel, question, action)) for label, question, action in self.choices]
                items.append(("Back", panel.pop))
                panel.push(ListMenu(panel, self.menu[0], items, self.menu[1]))
