# Coin Call's screen, drawn (flow.py handles its buttons): which flip, how many have called, who is
# awaited, and the last coin.
from tidebox import draw
from tidebox.games.coin_call import rules as game


def flip_label(state):
    if game.is_over(state):
        return "Coins flipped"
    return "Flip %d of %d" % (state["flipped"] + 1, len(state["coins"]))


def draw_calls(fb, screen, now):
    state = screen.box.state
    waiting = game.waiting(state)
    called = len([c for c in state["calls"] if c is not None])
    draw.title(fb, flip_label(state))
    fb.text("Called: %d of %d" % (called, called + len(waiting)), 0, 14)
    if state["flipped"]:
        fb.text("Last: " + state["coins"][state["flipped"] - 1], 0, 26)
    if waiting:
        fb.text(draw.fit("Next: " + state["names"][waiting[0]], draw.COLS), 0, 38)
    else:
        fb.text("C flips the coin", 0, 38)
    draw.hints_or_message(fb, screen.message, "menu", "", "" if waiting else "flip")
