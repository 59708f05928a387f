# Paper Current's screens, drawn (flow.py handles their buttons): the course card with its launch
# zone as a picture, the launches, score entry, the round's score and the end of the course.
from tidebox import draw
from tidebox.games.paper_current import rules as game

PAGE = 5  # text lines between the title and the hints
RESULT_WORDS = {None: "-", 0: "out", 1: "outer", 2: "inner"}


def round_label(state):
    """Where the course is, in 16 characters: "Round 2, boat 8", "Round 2, scoring", "Over: 41 of 54"."""
    if state["phase"] == game.PHASE_OVER:
        return "Over: %d of %d" % (state["total"], game.MAX_TOTAL)
    label = "Round %d" % (state["round"] + 1)
    if state["phase"] == game.PHASE_LAUNCH:
        return label + ", boat %d" % (state["launch"] + 1)
    if state["phase"] == game.PHASE_SCORE:
        return label + ", scoring"
    return label + ", scored"


def bonus_pages(state):
    return max(1, (len(draw.wrap(game.current_card(state)["bonus"], draw.COLS)) + PAGE - 1) // PAGE)


def draw_zone(fb, x, y, w, h, zone):
    """The lane seen from the seated player (at the bottom): the harbour's two rectangles at the far
    end, the launch line near the player and the three launch zones below it, the card's zone filled.
    Not to scale: a picture of where to launch from."""
    fb.rect(x, y, w, h, 1)
    mid = x + w // 2
    # the outer rectangle (18 of the lane's 30 cm) and the inner one (10 cm) centred in it
    ow = w * 18 // 30
    oh = h * 2 // 5
    oy = y + 2
    fb.rect(mid - ow // 2, oy, ow, oh, 1)
    iw = w * 10 // 30
    ih = oh // 2
    fb.rect(mid - iw // 2, oy + (oh - ih) // 2, iw, ih, 1)
    # the launch line and the three 10 cm zones behind it (left, centre, right from the seat)
    zh = 7
    line_y = y + h - zh - 2
    fb.hline(x, line_y, w, 1)
    zw = w // 3
    for i in range(3):
        zx = x + i * zw
        if game.ZONES[i] == zone:
            fb.fill_rect(zx + 1, line_y + 2, zw - 2, zh - 1, 1)
        else:
            fb.rect(zx + 1, line_y + 2, zw - 2, zh - 1, 1)


def draw_card(fb, screen, now):
    state = screen.box.state
    card = game.current_card(state)
    if screen.page > 0:
        lines, pages = draw.page(draw.wrap(card["bonus"], draw.COLS), screen.page - 1, PAGE)
        draw.title(fb, "Bonus %d/%d" % (screen.page, pages) if pages > 1 else "Bonus")
        draw.rows(fb, lines)
        last = screen.page >= pages
        c = "back" if screen.peek and last else "go" if last else "more"
        draw.hints_or_message(fb, screen.message, "menu", "back", c)
        return
    name = draw.wrap(card["name"], draw.COLS)
    band = 9 * len(name)
    fb.fill_rect(0, 0, draw.W, band, 1)
    for i, line in enumerate(name):
        draw.center(fb, line, 1 + 9 * i, 0)
    top = band + 2
    draw_zone(fb, 0, top, 60, 45 - top, card["zone"])
    fb.text("you", 18, 47)
    x = 66
    y = top
    rnd = "R%d of %d" % (state["round"] + 1, game.ROUNDS)
    if top <= 11:
        fb.text(rnd, x, y)
        y += 9
    fb.text("launch", x, y)
    word = card["zone"].upper()
    fb.fill_rect(x - 1, y + 9, len(word) * 8 + 2, 10, 1)
    fb.text(word, x, y + 10, 0)
    # where in the lane (the picture shows it seen from the seat, "you"); under a name on two lines
    # there is room for one line more: the round
    fb.text("of lane" if top <= 11 else rnd, x, y + 21)
    draw.hints_or_message(fb, screen.message, "menu", "", "more")


def draw_launch(fb, screen, now):
    state = screen.box.state
    names = screen.box.seats.names
    k = state["launch"]
    seat = state["launchers"][k]
    draw.title(fb, "Round %d: %d of 8" % (state["round"] + 1, k + 1))
    draw.big_center(fb, "Boat %d:" % (k + 1), 12, 2)
    draw.big_center(fb, draw.fit(names[seat], 8), 29, 2)
    if k + 1 < game.BOATS:
        fb.text(draw.fit("next " + names[state["launchers"][k + 1]], 10), 0, 47)
    draw.right(fb, game.current_card(state)["zone"], 47)
    draw.hints_or_message(fb, screen.message, "menu", "card", "done")


def draw_score(fb, screen, now):
    state = screen.box.state
    results = state["results"]
    entered = game.BOATS - results.count(None)
    draw.title(fb, "R%d results %d/8" % (state["round"] + 1, entered))
    for i in range(game.BOATS):
        col = i // 4
        x = col * 64
        y = 11 + (i % 4) * 9
        text = "%d %s" % (i + 1, RESULT_WORDS[results[i]])
        if i == screen.cursor:
            fb.fill_rect(x, y - 1, 63, 9, 1)
            fb.text(text, x + 1, y, 0)
        else:
            fb.text(text, x + 1, y, 1)
    card = state["course"][state["round"]]
    so_far = [v if v is not None else 0 for v in results]
    extra = game.bonus(card, so_far)
    fb.text(boats_line(sum(so_far), extra), 0, 47)
    draw.hints_or_message(fb, screen.message, "boat", "set", "ok" if entered == game.BOATS else "")


def boats_line(boats, bonus):
    """The boats' points and the bonus, as the phones word them, on one line of 16: "16 pts, bonus +2"
    at the most (8 boats in INNER, the bonus held)."""
    return "%d %s, bonus +%d" % (boats, "pt" if boats == 1 else "pts", bonus)


def draw_round(fb, screen, now):
    state = screen.box.state
    last = state["rounds"][-1]
    draw.title(fb, "Round %d scored" % len(state["rounds"]))
    draw.big_center(fb, "%d/18" % last["score"], 11, 2)
    draw.center(fb, boats_line(last["boats"], last["bonus"]), 29)
    draw.center(fb, "total %d of %d" % (state["total"], game.MAX_TOTAL), 38)
    draw.center(fb, "target %d" % state["target"], 47)
    draw.hints_or_message(fb, screen.message, "menu", "", "next")


def final_lines(state):
    """The three rounds (each card's name whole, over two lines when it must be, the round's score at
    the right of its first line), then the total and the target."""
    lines = []
    for i, rec in enumerate(state["rounds"]):
        name = draw.wrap(game.card_info(rec["card"])["name"], draw.COLS - 5)
        lines.append("%d %s %2d" % (i + 1, name[0] + " " * (draw.COLS - 5 - len(name[0])), rec["score"]))
        for more in name[1:]:
            lines.append("  " + more)
    lines.append("total %d of %d" % (state["total"], game.MAX_TOTAL))
    lines.append("target %d %s" % (state["target"], "met" if game.reached(state) else "missed"))
    return lines


def final_pages(screen):
    return draw.page(final_lines(screen.box.state), 0, PAGE)[1]


def draw_final(fb, screen, now):
    state = screen.box.state
    if screen.step == 0:
        draw.title(fb, "Course over")
        draw.big_center(fb, "%d/%d" % (state["total"], game.MAX_TOTAL), 12, 3)
        draw.center(fb, "target %d" % state["target"], 38)
        fb.fill_rect(0, 46, draw.W, 9, 1 if game.reached(state) else 0)
        draw.center(fb, "REACHED" if game.reached(state) else "not reached", 47,
                    0 if game.reached(state) else 1)
        draw.hints_or_message(fb, screen.message, "menu", "", "next")
        return
    lines, pages = draw.page(final_lines(state), screen.page, PAGE)
    draw.title(fb, "Three rounds %d/%d" % (screen.page + 1, pages) if pages > 1 else "Three rounds")
    draw.rows(fb, lines)
    draw.hints_or_message(fb, screen.message, "menu", "top", "next" if screen.page + 1 >= pages else "more")
