# Token Tide's screens, drawn (flow.py handles their buttons): the tide card, the allocation
# countdown, the stepped reveal, the end, private entry on the box.
from tidebox import draw
from tidebox.games.token_tide import rules as game

PAGE = 5  # list lines between the title and the hints
# The reveal, stepped through by the reader (the host notes: winning quantities first).
REVEAL_STEPS = ("quantities", "beacon", "grove", "mooring", "points", "standings")


def _names(box):
    return box.seats.names


def round_label(state):
    if state["round"] < 0:
        return "Practice round"
    return "Round %d of %d" % (state["round"] + 1, len(state["deck"]))


def draw_card(fb, screen, now):
    state = screen.box.state
    card = game.current_card(state)
    draw.title(fb, round_label(state))
    fb.text(draw.fit("Reader " + _names(screen.box)[state["reader"]], 16), 0, 11)
    draw.center(fb, card[1], 21)
    fb.text("TARGET", 0, 38)  # the Mooring target: one word on the box and the phones
    draw.big(fb, str(card[2]), 56, 31, 3)
    fb.text(card[0], 96, 38)
    draw.hints_or_message(fb, screen.message, "menu", "", "go")


def draw_allocate(fb, screen, now):
    box = screen.box
    state = box.state
    card = game.current_card(state)
    seated = [i for i in range(len(state["names"])) if state["seated"][i]]
    waiting = game.waiting_for(state)
    ready = len(seated) - len(waiting)
    # "target", as on the tide card (16 characters: the round label is short to leave room)
    label = "Prac." if state["round"] < 0 else "Rd %d/%d" % (state["round"] + 1, len(state["deck"]))
    fb.text(label, 0, 0)
    draw.right(fb, "target %d" % card[2], 0)
    countdown = box.countdown
    if countdown.running():
        left = countdown.left_ms(now)
        secs = (left + 999) // 1000
        if left == 0:
            draw.big_center(fb, "TIME", 9, 3)
        else:
            draw.big_center(fb, "%d:%02d" % (secs // 60, secs % 60), 9, 3)
        total = countdown.total_ms or 1
        draw.bar(fb, 0, 34, draw.W, 4, left / total)
    else:
        draw.big_center(fb, "%d/%d" % (ready, len(seated)), 9, 3)
    if not waiting:
        fb.fill_rect(0, 41, draw.W, 10, 1)
        draw.center(fb, "ALL READY", 42, 0)
        draw.hints_or_message(fb, screen.message, "menu", "+15s", "show")
    else:
        # the names listed are the players not ready yet, and the line says so
        fb.text("%d not ready:" % len(waiting), 0, 38)
        fb.text(draw.fit(" ".join(draw.fit(state["names"][i], 5) for i in waiting), 16), 0, 46)
        draw.hints_or_message(fb, screen.message, "menu", "+15s", "")


def _reveal_lines(screen, last):
    """The lines of the current reveal step (before paging)."""
    names = _names(screen.box)
    rows = [i for i in range(len(last["scores"])) if last["allocations"][i] is not None]
    step = REVEAL_STEPS[screen.step]
    if step == "quantities":
        return [
            "Beacon best %s" % (last["beacon_best"] or "-"),
            "Grove best  %s" % (last["grove_best"] or "-"),
            "Mooring target %d" % last["target"],
        ]
    if step in ("beacon", "grove", "mooring"):
        # one line per player who scores: name, why, and the points won with a "+" (never a bare
        # number beside a distance, as "Bo 1 1 off" was)
        k = REVEAL_STEPS.index(step) - 1
        won = [i for i in rows if last["scores"][i][k]]
        if not won:
            return ["nobody scores"]
        lines = []
        for i in won:
            points = last["scores"][i][k]
            if k == 2:
                why = "exact" if points == game.MOORING_EXACT else "1 off"
            else:
                why = "sole" if len(won) == 1 else "tie"
            lines.append("%-7s %-5s +%d" % (draw.fit(names[i], 7), why, points))
        return lines
    if step == "points":
        return ["%s %d" % (draw.fit(names[i], 12), sum(last["scores"][i])) for i in rows]
    state = screen.box.state
    return ["%d %s %d" % (rank, draw.fit(names[i], 10), t) for rank, i, t in game.standings(state)]


def reveal_pages(screen, last):
    lines = _reveal_lines(screen, last)
    return max(1, (len(lines) + PAGE - 1) // PAGE)


def draw_reveal(fb, screen, now):
    state = screen.box.state
    last = state["last"]
    step = REVEAL_STEPS[screen.step]
    titles = {"quantities": "Winning amounts", "beacon": "Beacon", "grove": "Grove", "mooring": "Mooring",
              "points": "Round points", "standings": "Standings"}
    lines, pages = draw.page(_reveal_lines(screen, last), screen.page, PAGE)
    title = titles[step]
    if step == "beacon" and last["beacon_best"]:
        title += " (%d)" % last["beacon_best"]
    elif step == "grove" and last["grove_best"]:
        title += " (%d)" % last["grove_best"]
    elif step == "mooring" and pages == 1:
        title += " target %d" % last["target"]
    if pages > 1:
        title += " %d/%d" % (screen.page % pages + 1, pages)
    if last["round"] < 0 and step == "points":
        title = "Practice: 0 kept"
    draw.title(fb, title)
    if step == "quantities":
        draw.rows(fb, lines, y=14, step=12)
    else:
        draw.rows(fb, lines)
    last_step = screen.step + 1 == len(REVEAL_STEPS) and screen.page + 1 >= pages
    game_ends = len(state["history"]) == len(state["deck"])
    first = screen.step == 0 and screen.page == 0  # A opens the menu there (flow.Reveal)
    draw.hints_or_message(fb, screen.message, "menu" if first else "back", "",
                          "end" if last_step and game_ends else "next")


def standings_page(screen):
    lines = ["%d %s %d" % (rank, draw.fit(_names(screen.box)[i], 10), t)
             for rank, i, t in game.standings(screen.box.state)]
    return draw.page(lines, screen.page, PAGE)


def draw_final(fb, screen, now):
    """The end (tidebox/end.py): the winners, tied ones up to five lines of eight characters; then
    the final standings, paged."""
    state = screen.box.state
    if screen.step == 0:
        won = game.winners(state)
        draw.title(fb, "WINNER" if len(won) == 1 else "WINNERS (tie)")
        names = [draw.fit(state["names"][i], 8) for i in won]
        if len(names) == 1:
            draw.big_center(fb, names[0], 18, 2)
            draw.center(fb, "%d points" % state["totals"][won[0]], 40)
        else:
            draw.rows(fb, names[:4] + (["+%d more" % (len(names) - 4)] if len(names) > 4 else []), y=12)
        draw.hints_or_message(fb, screen.message, "menu", "", "next")
        return
    lines, pages = standings_page(screen)
    draw.title(fb, "Final %d/%d" % (screen.page % pages + 1, pages) if pages > 1 else "Final standings")
    draw.rows(fb, lines)
    draw.hints_or_message(fb, screen.message, "menu", "top", "next")


def draw_entry(fb, screen, now):
    name = _names(screen.box)[screen.pick]
    draw.title(fb, draw.fit(name, 9) + " enters")
    islands = game.ISLANDS
    for i in range(3):
        y = 12 + i * 11
        selected = i == screen.cursor
        if selected:
            fb.fill_rect(0, y - 1, draw.W, 10, 1)
        fb.text(islands[i], 2, y, 0 if selected else 1)
        fb.text(str(screen.entry[i]), 110, y, 0 if selected else 1)
    left = game.COUNTERS - sum(screen.entry)
    if screen.message:
        draw.hints_or_message(fb, screen.message, "", "", "")
    elif left == 0:
        draw.hints(fb, "isle", "+1", "lock")
    else:
        fb.text("%d of 7 left" % left if left > 0 else "%d too many" % -left, 0, 45)
        draw.hints(fb, "isle", "+1", "")
