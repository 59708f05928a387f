# Every game's end drawn from its rules, unless the game draws its own (end.py): the winners, then
# the final standings, paged, one line a player, from the rules' `winners(state)` and
# `standings(state)` ([rank, seat, total], the score line the phones show too). Imported by an end
# that uses it, forgotten with end.py (its code is heap only at such an end).
from tidebox import draw

PAGE = 5  # standings lines between the title and the hints


def pages(screen):
    return max(1, (len(screen.box.state["names"]) + PAGE - 1) // PAGE)


def paint(fb, screen, now):
    """Step 0: the winner big with their points, or the tied winners (up to three and how many more)
    and their shared total. Step 1: the final standings, paged."""
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
        lines = [draw.fit(names[i], 12) for i in won]
        if len(lines) > 4:
            lines = lines[:3] + ["+%d more" % (len(lines) - 3)]
        draw.rows(fb, lines, y=12)
        fb.text("%d points each" % ranks[0][2], 0, 47)
    draw.hints_or_message(fb, screen.message, "menu", "", "next")
