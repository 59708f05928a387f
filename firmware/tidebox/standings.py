# Every game's end drawn from its rules, unless the game draws its own (end.py): the winner big with
# their points, or the tied winners, then the final standings, paged, one line a player from the
# rules' `standings(state)` ([rank, seat, total], the score line the phones show too) and
# `winners(state)`. Imported with the end of a game that uses it, forgotten with end.py.
from tidebox import draw

PAGE = 5  # standings lines between the title and the hints


def standing_lines(screen):
    """The final standings, one line a player: rank, name, total."""
    names = screen.box.state["names"]
    return ["%d %s %d" % (rank, draw.fit(names[seat], 10), total)
            for rank, seat, total in screen.rules.standings(screen.box.state)]


def pages(screen):
    return draw.page(standing_lines(screen), 0, PAGE)[1]


def paint(fb, screen, now):
    """The end's step 0, the winner big with their points, or the tied winners (cut to the End's
    `tie_width` characters; with its `tie_points`, their shared total on the last line); step 1,
    the standings, paged."""
    state = screen.box.state
    if screen.step == 0:
        won = screen.rules.winners(state)
        best = screen.rules.standings(state)[0][2]
        draw.title(fb, "WINNER" if len(won) == 1 else "WINNERS (tie)")
        if len(won) == 1:
            draw.big_center(fb, draw.fit(state["names"][won[0]], 8), 18, 2)
            draw.center(fb, "%d points" % best, 40)
        else:
            names = [draw.fit(state["names"][i], screen.tie_width) for i in won]
            room = 4 if screen.tie_points else 5  # lines for names above the hints
            if len(names) > 4:
                names = names[:room - 1] + ["+%d more" % (len(names) - room + 1)]
            draw.rows(fb, names, y=12)
            if screen.tie_points:
                fb.text("%d points each" % best, 0, 47)
        draw.hints_or_message(fb, screen.message, "menu", "", "next")
        return
    lines, count = draw.page(standing_lines(screen), screen.page, PAGE)
    draw.title(fb, "Final %d/%d" % (screen.page % count + 1, count) if count > 1 else "Final standings")
    draw.rows(fb, lines)
    draw.hints_or_message(fb, screen.message, "menu", "top", "next")
