# The Quiet Dividend's screens, drawn (flow.py handles their buttons): the public board, everyone's
# shares, each payout with every player's amount (its end is tidebox/end.py's default).
from tidebox import draw
from tidebox.games.quiet_dividend import rules as game

ROWS = 4  # player lines under a screen's title and header line


def lap_label(state):
    if game.is_over(state):
        return "Game over"
    return "Lap %d of %d" % (game.lap(state), game.LAPS)


def club_text(state, c):
    """A club as the box shows it: its letter, and its name when the table renamed it."""
    name = state["clubs"][c]
    return game.CLUBS[c] if name == game.CLUBS[c] else game.CLUBS[c] + " " + name


def values_text(values):
    return "A%d B%d C%d" % (values[0], values[1], values[2])


def board_title(state):
    """The setup in play and the lap ("Seasonal: lap 2"), shortened to fit ("Early Opening L2");
    the lap row under it marks the payout laps."""
    name = game.setup_by_id(state["setup"])[1]
    over = game.is_over(state)
    for title in ("%s: %s" % (name, "over" if over else "lap %d" % game.lap(state)),
                  "%s %s" % (name, "over" if over else "L%d" % game.lap(state))):
        if len(title) <= draw.COLS:
            return title
    return name


def draw_board(fb, screen, now):
    state = screen.box.state
    pay_laps = game.setup_by_id(state["setup"])[3]
    lap = game.lap(state)
    over = game.is_over(state)
    draw.title(fb, board_title(state))
    # The six laps, payout laps marked $, the lap being played inverted, laps done underlined.
    for i in range(1, game.LAPS + 1):
        x = 1 + (i - 1) * 21
        here = i == lap and not over
        if here:
            fb.fill_rect(x, 10, 20, 9, 1)
        fb.text(str(i), x + 2, 11, 0 if here else 1)
        if i in pay_laps:
            fb.text("$", x + 10, 11, 0 if here else 1)
        if i <= state["laps"]:
            fb.hline(x + 1, 19, 18, 1)
    for c in range(3):
        y = 20 + c * 9
        value = state["values"][c]
        fb.text(draw.fit(club_text(state, c), 10), 0, y)
        fb.text(str(value), 84, y)
        for k in range(game.MAX_VALUE):  # the value as four boxes, filled up to it
            bx = 96 + k * 8
            if k < value:
                fb.fill_rect(bx, y, 7, 7, 1)
            else:
                fb.rect(bx, y, 7, 7, 1)
    turn = game.current(state)
    if turn is None:
        fb.text("Final totals", 0, 47)
    else:
        fb.text(draw.fit("Turn: " + state["names"][turn], 16), 0, 47)
    draw.hints_or_message(fb, screen.message, "menu", "more", "" if over else "turn")


def share_lines(state):
    totals = game.totals(state)
    return [(draw.fit(state["names"][i], 6), state["shares"][i], totals[i], state["seated"][i])
            for i in range(len(state["names"]))]


def share_pages(state):
    return max(1, (len(state["names"]) + ROWS - 1) // ROWS)


def draw_shares(fb, screen, now):
    state = screen.box.state
    lines = share_lines(state)
    pages = share_pages(state)
    page = screen.page % pages
    draw.title(fb, "Shares %d/%d" % (page + 1, pages) if pages > 1 else "Shares, points")
    fb.text("A B C", 56, 11)
    draw.right(fb, "pts", 11)
    for k, (name, held, total, seated) in enumerate(lines[page * ROWS:(page + 1) * ROWS]):
        y = 20 + k * 9
        fb.text(name if seated else name[:5] + "-", 0, y)  # "-": left the game
        fb.text("%d %d %d" % (held[0], held[1], held[2]), 56, y)
        draw.right(fb, str(total), y)
    draw.hints_or_message(fb, screen.message, "back", "", "next" if page + 1 < pages else "done")


def payout_lines(state, index):
    """Every player's amount in one payout, then the reset that followed it (Seasonal)."""
    p = state["payouts"][index]
    lines = [(draw.fit(state["names"][i], 12), str(p["amounts"][i])) for i in range(len(state["names"]))]
    if p["reset"]:
        lines.append(("reset " + values_text(p["reset"]), ""))
    return lines


def payout_pages(state, index):
    return max(1, (len(payout_lines(state, index)) + ROWS - 1) // ROWS)


def draw_payout(fb, screen, now):
    state = screen.box.state
    p = state["payouts"][screen.index]
    pages = payout_pages(state, screen.index)
    page = screen.page % pages
    if pages > 1:
        draw.title(fb, "Pay %d lap %d %d/%d" % (screen.index + 1, p["lap"], page + 1, pages))
    else:
        draw.title(fb, "Payout %d: lap %d" % (screen.index + 1, p["lap"]))
    fb.text("at " + values_text(p["values"]), 0, 11)
    for k, (left, amount) in enumerate(payout_lines(state, screen.index)[page * ROWS:(page + 1) * ROWS]):
        y = 20 + k * 9
        fb.text(left, 0, y)
        if amount:
            draw.right(fb, amount, y)
    last = page + 1 >= pages and screen.index + 1 >= screen.upto
    draw.hints_or_message(fb, screen.message, "back", "", "ok" if last else "next")
