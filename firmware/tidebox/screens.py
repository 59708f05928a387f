# The box's own screens (any game): splash, resume, joining, menus, confirmations, entry on the box.
# Each draw_<screen>(fb, reader, now) draws on a cleared frame; the reader calls show().
from tidebox import VERSION, draw

# The menus' items; reader.py acts on them by position.
MENU_ITEMS = ("Drop player", "Rejoin code", "Enter on box", "Back")
JOIN_MENU_ITEMS = ("Add player here", "Remove player", "Back")
NAME_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 "


def draw_splash(fb, r, now):
    draw.big_center(fb, "TIDE", 4, 3)
    draw.center(fb, "BOX", 30)
    draw.center(fb, "v" + VERSION, 44)
    if r.box.notice:
        draw.center(fb, r.box.notice, 54)


def draw_resume(fb, r, now):
    box = r.box
    draw.title(fb, "Saved game")
    lines = ["%d players" % box.seats.count()]
    if box.state:
        rnd = box.state["round"]
        lines.insert(0, "Practice round" if rnd < 0 else "Round %d of %d" % (rnd + 1, len(box.state["deck"])))
    else:
        lines.insert(0, "Still joining")
    lines.append("Resume it?")
    draw.rows(fb, lines, y=14, step=11)
    draw.hints(fb, "new", "", "go")


def draw_confirm(fb, r, now):
    question = r.confirm[0] if r.confirm else "?"
    draw.title(fb, "Sure?")
    words = question.split(" ")
    first = words[0]
    rest = " ".join(words[1:])
    draw.center(fb, first, 20)
    draw.center(fb, rest, 32)
    draw.hints(fb, "no", "", "yes")


def join_views(r):
    """The join screen's pages, cycled with B: QR codes (when the board can draw them), text, players."""
    views = ["wifi_qr", "page_qr"] if r.qr_drawer else []
    return views + ["wifi_text", "players"]


def draw_join(fb, r, now):
    box = r.box
    names = [box.seats.names[i] for i in range(len(box.seats.names)) if box.seats.present[i]]
    views = join_views(r)
    view = views[r.page % len(views)]
    if view in ("wifi_qr", "page_qr"):
        r.qr_drawer(fb, view)  # a QR code on the left 64x64
        x = 68
        fb.text("Wi-Fi" if view == "wifi_qr" else "Page", x, 0)
        fb.text("scan" if view == "wifi_qr" else "then", x, 10)
        fb.text("to join" if view == "wifi_qr" else "scan", x, 20)
        count = str(len(names))
        draw.big(fb, count, x, 32, 2)
        fb.text("in", x + 16 * len(count) + 4, 40)
        fb.fill_rect(x, draw.HINT_Y, 8, 8, 1)  # only B is hinted here: the QR takes the left half
        fb.text("B", x, draw.HINT_Y, 0)
        fb.text("more", x + 8, draw.HINT_Y, 1)
        if r.message:
            draw.hints_or_message(fb, r.message)
        return
    elif view == "wifi_text":
        draw.title(fb, "Join: %d of %d" % (len(names), box.rules.MAX_PLAYERS))
        draw.rows(fb, ["Wi-Fi:", " " + box.ssid(), "Password:", " " + box.password, "then open page"])
    else:
        draw.title(fb, "%d joined" % len(names))
        lines = []
        for i in range(0, len(names), 2):
            lines.append(" ".join(draw.fit(n, 7) for n in names[i : i + 2]))
        draw.rows(fb, lines[:5] or ["nobody yet"])
    draw.hints_or_message(fb, r.message, "menu", "more", "next")


def draw_join_menu(fb, r, now):
    draw.title(fb, "Players")
    draw.rows(fb, list(JOIN_MENU_ITEMS), y=13, step=11, cursor=r.cursor)
    draw.hints_or_message(fb, r.message, "next", "back", "pick")


def draw_name_entry(fb, r, now):
    draw.title(fb, "Name on box")
    draw.big(fb, draw.fit(r.name, 7) + "_", 0, 14, 2)
    ch = NAME_CHARS[r.char]
    fb.text("letter:", 0, 38)
    draw.big(fb, "[" + ("_" if ch == " " else ch) + "]", 64, 32, 2)
    draw.hints_or_message(fb, r.message, "abc", "add", "done")


def draw_menu(fb, r, now):
    draw.title(fb, "Menu")
    draw.rows(fb, list(MENU_ITEMS), y=12, step=10, cursor=r.cursor)
    draw.hints_or_message(fb, r.message, "next", "back", "pick")


def draw_pick_seat(fb, r, now):
    purpose = {"drop": "Drop who?", "code": "Code for?", "enter": "Enter for?", "remove": "Remove who?"}
    draw.title(fb, purpose.get(r.action, "Who?"))
    name = r.box.seats.names[r.pick] if r.box.seats.names else "-"
    draw.big_center(fb, draw.fit(name, 8), 22, 2)
    fb.text("seat %d" % (r.pick + 1), 0, 44)
    draw.hints_or_message(fb, r.message, "next", "back", "pick")


def draw_show_code(fb, r, now):
    draw.title(fb, "Rejoin: " + draw.fit(r.box.seats.names[r.pick], 8))
    draw.big_center(fb, r.code, 16, 2)
    draw.center(fb, "type on phone", 38)
    draw.hints(fb, "", "", "done")


def draw_handoff(fb, r, now):
    name = r.box.seats.names[r.pick]
    draw.title(fb, "Private entry")
    draw.center(fb, "Pass the box to", 14)
    draw.big_center(fb, draw.fit(name, 8), 26, 2)
    draw.center(fb, "only they look", 44)
    draw.hints(fb, "", "back", "I am")


def draw_entered(fb, r, now):
    draw.title(fb, "Locked in")
    draw.center(fb, r.box.seats.names[r.pick], 18)
    draw.center(fb, "numbers hidden", 30)
    draw.center(fb, "hand it back", 40)
    draw.hints(fb, "", "", "ok")
