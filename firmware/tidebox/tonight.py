# The night's scores: every game the table played tonight, in order, finished or ended early, with
# everybody's points and the winners. One line of JSON a game, appended to a file on flash when the
# game leaves the box (the game menu, a rematch), so they survive the restart after each game and a
# power cut (a cut in the middle of a line costs that line only: a line that does not read is
# skipped). Read only between games, by the game menu's Tonight page and the phones' GET
# /api/tonight (streamed from the file): imported then, forgotten again, no heap in a game.
import json
import os

from micropython import const
from tidebox import games
from tidebox.box import TONIGHT_FILE as FILE

_CAP = const(8192)  # bytes on flash: about 30 games of 8; past it the oldest games go


def entry(box):
    """The line for the game the box holds now (`box.phase` over: finished; else ended early): its
    id and title, `tag` (which game of the night, so a game recorded twice by a power cut counts once), the
    players' names, each one's points (a game's standings score may be a tuple, points first), the
    winners' seats (none when ended early)."""
    state = box.state
    points = [0] * len(state["names"])
    for _rank, seat, score in box.rules.standings(state):
        points[seat] = score[0] if type(score) in (tuple, list) else score
    over = box.phase == "over"
    return {"game": box.game_id, "title": games.title(box.game_id), "tag": box.tag, "names": state["names"],
            "points": points,
            "winners": box.rules.winners(state) if over else [], "ended": not over}


def _last_line(path):
    """The file's last line as text ("" for none), read a line at a time: a long night costs the
    heap one line."""
    text = ""
    try:
        with open(path) as f:
            for text in f:  # noqa: B007 - the last one is wanted
                pass
    except OSError:
        pass
    return text


def add(storage, line):
    """Append a game (its entry) unless the last line is the same game, written again. A last line
    the power cut short is closed first, so it costs only itself. Past _CAP the oldest lines go: the
    rest are copied a line at a time to a new file, which then takes the old one's place (write,
    then rename)."""
    path = storage.path(FILE)
    last = _last_line(path)
    try:
        same = json.loads(last).get("tag") == line["tag"] if last else False
    except (ValueError, AttributeError):
        same = False
    if same:
        return
    text = ("\n" if last and not last.endswith("\n") else "") + json.dumps(line) + "\n"
    try:
        size = os.stat(path)[6]
    except OSError:
        size = 0
    if size + len(text) <= _CAP:
        with open(path, "a") as f:
            f.write(text)
        return
    drop = size + len(text) - _CAP  # characters, about the bytes: whole lines go until it is past
    with open(path) as old, open(path + ".tmp", "w") as new:
        for kept in old:
            if drop > 0:
                drop -= len(kept)
                continue
            new.write(kept if kept.endswith("\n") else kept + "\n")
        new.write(text.lstrip("\n"))
    os.rename(path + ".tmp", path)


def read(storage):
    """Tonight's games, oldest first: [entry, ...] (lines that do not read are left out)."""
    games = []
    try:
        f = open(storage.path(FILE))  # noqa: SIM115 - closed by the with below, once it opened
    except OSError:
        return games
    with f:
        for text in f:
            try:
                line = json.loads(text)
            except ValueError:
                continue
            if isinstance(line, dict) and isinstance(line.get("names"), list) \
                    and isinstance(line.get("points"), list):
                games.append(line)
    return games


def clear(storage):
    storage.remove(FILE)

