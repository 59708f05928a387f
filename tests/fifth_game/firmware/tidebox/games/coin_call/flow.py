# Coin Call on the box: one screen while the table calls (which flip, how many have called; C flips
# once all have), then the end (tidebox/end.py: the winners, the standings, a new game).
from tidebox.box import PLAY
from tidebox.games.coin_call import drawing as draws
from tidebox.games.coin_call import rules as game
from tidebox.screens import GameScreen


def home(panel):
    """The screen for the game's state: the calls, or the end once the last coin is flipped."""
    if game.is_over(panel.box.state):
        from tidebox import end

        return end.End(panel, "cc_end", game, over=game.is_over)
    return Calls(panel)


progress = draws.flip_label  # progress(state): one line for the resume screen


def menu_items(panel):
    return []


class Calls(GameScreen):
    """Which flip, who has called; C flips the coin once everyone has."""

    name = "cc_calls"
    paint = staticmethod(draws.draw_calls)

    def tick(self, now):
        return self.home_if(self.box.phase != PLAY)

    def act(self, button, kind):
        if button != "C":
            return
        if game.waiting(self.box.state):
            self.panel.message = "Calls missing"
            return
        self.box.move(None, "flip", {})
        self.panel.home()
