# The end of a game on the box, one screen for every game: the winners (step 0), then the final
# standings (step 1, paged), then what next ("New game?" at once, or a menu: a rematch, a new course,
# a new game). Each game's flow.py makes it with its name, its drawing and its choices. Only needed
# once a game is over: a flow imports this module when it shows the end, and the reader forgets it
# again when the box leaves the end (reader.home), so it takes no heap while a game is played.
from tidebox.screens import ListMenu, Screen, in_game_menu


def new_game(reader):
    """The same table back at the game menu, where the same game or another is chosen (on a fresh
    heap: Reader.to_game_menu)."""
    reader.to_game_menu()


NEW_GAME = ("New game", "New game?", new_game)  # a "what next" choice: label, question, action(reader)


def _one_page(screen):
    return 1


def _asker(reader, question, action):
    return lambda: reader.ask(question, lambda: action(reader))


class End(Screen):
    """`draw(fb, screen, now)` draws `screen.step`: 0 the winners, 1 the standings' `screen.page`;
    `pages(screen)` is how many pages the standings take (None: one). C steps on, pages on, then asks
    what next: `choices` are (label, question, action(reader)); with no `menu` the first is asked at
    once, else they are listed with Back in a menu `(title, screen name)`. `top` is the button back
    to the winners; when it is B, A opens the in-game menu. `over(state)`: while the game is shown
    it must stay true, else (the last turn undone, a new game started from a phone) the game's own
    screen takes over."""

    def __init__(self, reader, name, draw, pages=None, top="A", choices=(NEW_GAME,), menu=None,
                 over=None):
        super().__init__(reader)
        self.name = name
        self.paint = draw
        self.pages = pages or _one_page
        self.top = top
        self.choices = choices
        self.menu = menu
        self.over = over
        self.step = 0

    def draw(self, fb, now):
        self.paint(fb, self, now)

    def tick(self, now):
        state = self.box.state
        return self.over is not None and self.home_if(state is None or not self.over(state))

    def press(self, button, kind):
        r = self.reader
        if button == self.top:
            self.step = 0
            self.page = 0
        elif button == "A":
            r.push(in_game_menu(r))
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
