# Pearl Reach's screens, drawn (flow.py handles their buttons): the coast with every marker, the tide
# strip, the scores and whose turn; everyone's points, shells and shifts; what happened in words; the
# final standings.
#
# Markers are told apart by shape, never by colour (the panel has one): seat 1 a filled square,
# seat 2 a hollow square, seat 3 a cross, seat 4 a plus. The phones use the same four shapes.
from micropython import const

from tidebox import draw
from tidebox.games.pearl_reach import rules as game

BAY_W = const(11)  # pixels from one bay's column to the next
CELL_H = const(7)  # pixels from one row to the next
COAST_TOP = const(18)  # the top of the highest row (row 5); row 1, at the water, is lowest
PANEL_X = const(56)  # the right-hand panel: whose turn and the scores
LINES = const(5)  # text lines between a title and the hints


def marker(fb, seat, x, y, c=1):
    """Seat's marker shape in the 5x5 square at (x, y)."""
    if seat == 0:
        fb.fill_rect(x, y, 5, 5, c)
    elif seat == 1:
        fb.rect(x, y, 5, 5, c)
    elif seat == 2:
        for k in range(5):
            fb.pixel(x + k, y + k, c)
            fb.pixel(x + 4 - k, y + k, c)
    else:
        fb.hline(x, y + 2, 5, c)
        fb.vline(x + 2, y, 5, c)


def progress(state):
    """One line for the resume screen and the strip's words."""
    if game.is_over(state):
        return "Game over"
    left = game.turns_until_tide(state)
    return "Tide %d: %d turn%s" % (state["tide"] + 1, left, "" if left == 1 else "s")  # 16 at most


def draw_strip(fb, state):
    """The three tides as boxes with their values (the next one inverted, paid ones struck through),
    then the turns until the next."""
    for k in range(len(state["tides"])):
        x = k * 20
        label = "x%d" % state["tides"][k]
        if k == state["tide"] and not game.is_over(state):
            fb.fill_rect(x, 0, 19, 9, 1)
            fb.text(label, x + 1, 1, 0)
        else:
            fb.rect(x, 0, 19, 9, 1)
            fb.text(label, x + 1, 1, 1)  # "x4" ends a pixel clear of the box (else it reads "x4!")
            if k < state["tide"]:
                fb.line(x, 8, x + 18, 0, 1)  # paid
    if game.is_over(state):
        words = "all paid"
    else:
        left = game.turns_until_tide(state)
        words = "%d turn%s" % (left, "" if left == 1 else "s")
    draw.right(fb, words, 1)


def draw_coast(fb, state):
    """Five bays side by side: each bay's pearls on top, its five cells below, the water at the foot."""
    cells = state["cells"]
    for bay in range(game.BAYS):
        x = bay * BAY_W
        fb.text(str(state["pearls"][bay]), x + 1, 9)
        if bay:
            for y in range(COAST_TOP, COAST_TOP + game.ROWS * CELL_H, 2):
                fb.pixel(x - 1, y, 1)  # a dotted line between bays
        for row in range(game.ROWS):
            y = COAST_TOP + (game.ROWS - 1 - row) * CELL_H
            owner = cells[game.cell_of(bay, row)]
            if owner is None:
                fb.pixel(x + 4, y + 2, 1)  # an empty cell: one dot
            else:
                marker(fb, owner, x + 2, y, 1)
    water = COAST_TOP + game.ROWS * CELL_H
    for x in range(0, game.BAYS * BAY_W - 1, 4):  # the water's edge, a wave
        fb.hline(x, water, 2, 1)
        fb.hline(x + 2, water + 1, 2, 1)


def status(state, paused):
    """The panel's first line: what the box is waiting for."""
    seat = game.current(state)
    if seat is None:
        return "finished"  # eight letters: the panel beside the coast holds no more
    if state["rivals"][seat] is not None:
        return "paused" if paused else "thinking"
    return "paused" if paused else "to play"


def draw_board(fb, screen, now, paused):
    state = screen.box.state
    draw_strip(fb, state)
    draw_coast(fb, state)
    fb.text(status(state, paused), PANEL_X + 4, 10)
    turn = game.current(state)
    for seat in range(len(state["names"])):
        y = 19 + seat * 9
        c = 1
        if seat == turn:
            fb.fill_rect(PANEL_X, y - 1, draw.W - PANEL_X, 9, 1)
            c = 0
        marker(fb, seat, PANEL_X + 1, y + 1, c)
        fb.text(draw.fit(state["names"][seat], 4), PANEL_X + 9, y, c)
        points = str(state["points"][seat])
        fb.text(points, draw.W - 8 * len(points), y, c)
    message = screen.message
    by = screen.box.shown.get("new_game")  # a phone started this game: the box says who, until a turn
    if not message and by is not None and state["moves"] == 0 and by < len(state["names"]):
        message = "New game: " + draw.fit(state["names"][by], 6)
    draw.hints_or_message(fb, message, "menu", "more", "news")


SCORES_KEY = ("pts  points", "sh   shells left", "sf   shifts left", "*    a rival")


def draw_scores(fb, screen, now):
    state = screen.box.state
    if screen.page:
        draw.title(fb, "Key")
        draw.rows(fb, SCORES_KEY)
        draw.hints_or_message(fb, screen.message, "back", "list", "done")
        return
    draw.title(fb, "Points shells")
    fb.text("pts sh sf", 56, 11)
    for seat in range(len(state["names"])):
        y = 20 + seat * 9
        marker(fb, seat, 0, y + 1)
        name = state["names"][seat]
        fb.text(draw.fit(name, 5) + ("*" if state["rivals"][seat] else ""), 8, y)
        fb.text("%3d %2d %d" % (state["points"][seat], state["shells"][seat],
                                game.MAX_SHIFTS - state["shifts"][seat]), 56, y)
    draw.hints_or_message(fb, screen.message, "back", "key", "done")


def news_lines(state, count=game.RECENT):
    """The last `count` things that happened, newest first, wrapped for the panel; entries apart by a
    leading '>'."""
    lines = []
    log = state["log"]
    for k in range(len(log) - 1, max(-1, len(log) - 1 - count), -1):
        for i, line in enumerate(draw.wrap(game.entry_text(state, log[k]), draw.COLS - 1, True)):
            lines.append((">" if i == 0 else " ") + line)
    return lines


def news_pages(state):
    return max(1, (len(news_lines(state)) + LINES - 1) // LINES)


def draw_news(fb, screen, now):
    state = screen.box.state
    lines, pages = draw.page(news_lines(state), screen.page, LINES)
    draw.title(fb, "Happened %d/%d" % (screen.page % pages + 1, pages))
    draw.rows(fb, lines)
    last = screen.page % pages + 1 >= pages
    draw.hints_or_message(fb, screen.message, "back", "", "done" if last else "next")


def standing_lines(state):
    return ["%d %s %d %ds" % (rank, draw.fit(state["names"][seat], 6), score[0], score[1])
            for rank, seat, score in game.standings(state)]


def draw_final(fb, screen, now):
    state = screen.box.state
    if screen.step == 0:
        won = game.winners(state)
        draw.title(fb, "WINNER" if len(won) == 1 else "WINNERS (tie)")
        if len(won) == 1:
            draw.big_center(fb, draw.fit(state["names"][won[0]], 8), 16, 2)
            draw.center(fb, "%d points" % state["points"][won[0]], 36)
            draw.center(fb, "%d shells left" % state["shells"][won[0]], 46)
        else:
            draw.rows(fb, [draw.fit(state["names"][i], 16) for i in won], y=12)
            draw.center(fb, "%d points each" % state["points"][won[0]], 47)
        draw.hints_or_message(fb, screen.message, "menu", "", "next")
        return
    draw.title(fb, "Final standings")
    draw.rows(fb, standing_lines(state))
    draw.hints_or_message(fb, screen.message, "menu", "top", "next")
