# What the box keeps on flash and takes back from it, apart from its actions (box.py), which call it.
from tidebox import games
from tidebox.errors import GameError

SAVE_FILE = "game.json"


def save(box):
    box.storage.save(SAVE_FILE, {
        "phase": box.phase,
        "game_id": box.game_id,
        "seats": box.seats.to_dict(),
        "options": box.options,
        "seq": box.seq,
        "tag": box.tag,
        "game": box.rules.to_dict(box.state) if box.state else None,
    })


def _read_saved(box):
    """What flash holds, checked: (phase, game_id, rules, seats, options, seq, state, tag), or None."""
    # The box's own words are imported where a save is read (at boot, after a failed save), not at the
    # top: box.py imports this module to save every change, and the circle would stop either import.
    from tidebox.box import CHOOSE, OVER, PHASES, PLAY, checked, default_options

    data = box.storage.load(SAVE_FILE)
    if data is None:
        return None
    phase = data.get("phase")
    game_id = data.get("game_id")
    # At the game menu no game's code is loaded (Box.forget_rules), after a restart too.
    rules = games.load(game_id) if game_id is not None and phase != CHOOSE else None
    seats = box.new_seats()
    seats.load(data.get("seats") or {})
    state = checked(rules.from_dict, data["game"]) if rules and data.get("game") else None
    if phase not in PHASES or (phase != CHOOSE and rules is None):
        raise ValueError("saved phase is damaged")
    if phase in (PLAY, OVER) and state is None:
        raise ValueError("saved phase is damaged")
    # The game's players are the seats, in seat order; computer players (rivals) may follow them.
    if state is not None and state["names"][:len(seats.names)] != seats.names:
        raise ValueError("saved seats do not match the game")
    options = default_options(rules) if rules else {}
    saved = data.get("options")
    if phase == CHOOSE and isinstance(saved, dict):
        options = saved  # kept for the same game chosen again, checked against its rules then
    elif isinstance(saved, dict):
        for key in options:
            if key in saved:
                options[key] = saved[key]
    seq = data.get("seq", 0)
    tag = data.get("tag", 0)
    if type(seq) is not int or type(tag) is not int:
        raise ValueError("saved move count is damaged")
    return phase, game_id, rules, seats, options, seq, state, tag


def saved_game_id(box):
    """The game a save on flash is playing (None: no save, none readable, or no game under way
    yet), without keeping it."""
    from tidebox.box import OVER, PLAY

    try:
        data = box.storage.load(SAVE_FILE)
        game_id = data.get("game_id") if data and data.get("phase") in (PLAY, OVER) else None
        games.title(game_id)
        return game_id
    except (ValueError, AttributeError, TypeError):
        return None


def load(box):
    """Restore a saved box. Returns True if an unfinished game was restored. A file that cannot
    be read is set aside and the box starts fresh, saying so; it never stops the boot."""
    from tidebox.box import OVER, PLAY

    try:
        saved = _read_saved(box)
    except (ValueError, KeyError, TypeError, GameError, ImportError):
        box.storage.set_aside(SAVE_FILE)
        box.notice = "Save damaged: new"
        return False
    if saved is None:
        return False
    _use(box, saved)
    return box.phase == PLAY or (box.phase != OVER and box.seats.count() > 0)


def _use(box, saved):
    phase, game_id, rules, seats, options, seq, state, tag = saved
    if box.game_id is not None and box.game_id != game_id:
        games.unload(box.game_id)
    box.phase, box.game_id, box.rules, box.seats, box.options, box.seq, box.state, box.tag = saved
    box.undo_text = None
    box.shown = {}
    box.version += 1
    if state is not None and box.shared is not None:
        try:
            box.shared.reserve(rules.VIEW_ROOM)  # as at the game's start (Box.start_game)
        except MemoryError:
            pass  # the room grows view by view instead, as far as the heap lets it


def restore(box):
    """Back to what flash holds (after a failed save); a fresh box if nothing readable is there."""
    from tidebox.box import CHOOSE, default_options

    try:
        saved = _read_saved(box)
    except (ValueError, KeyError, TypeError, GameError, ImportError, OSError):
        saved = None
    if saved is None:
        saved = (CHOOSE, box.game_id, box.rules, box.new_seats(),
                 default_options(box.rules) if box.rules else {}, 0, None, 0)
    _use(box, saved)
