# Box.rematch under MicroPython: a fresh game at the same table (a rematch, a new course) is played at
# once, the old game's moves go stale, undo and what the screen showed are cleared, and a failed save
# puts back what flash holds. Prints one JSON object of what was seen, for tests/test_box_rematch.py.
import json
import os

import board as board_module
from tidebox.box import Box
from tidebox.games.base import GameError
from tidebox.games.seeded import Seeded
from tidebox.storage import Storage


class FlakyStorage(Storage):
    """Flash whose saves fail while `failing` is set (a worn or full flash)."""

    failing = False

    def save(self, name, data):
        if self.failing:
            raise OSError(28)
        Storage.save(self, name, data)


def refusal(action):
    try:
        action()
    except GameError as e:
        return e.status
    return None


board = board_module.make_board()
rng = Seeded(7)
board.urandom = lambda n: bytes(rng.below(256) for _ in range(n))
storage = FlakyStorage(os.getenv("TIDEBOX_STATE_DIR"))
box = Box(board, storage)
notified = []
box.listeners.append(lambda: notified.append(1))
out = {}

box.choose_game("quiet_dividend")
rules = box.rules
for name in ("Pat", "Mo", "Di"):
    box.join(name)
fresh = rules.new_game(list(box.seats.names), {"setup": "seasonal", "first": 1}, box.random_below)
out["refused_before_play"] = refusal(lambda: box.rematch(fresh))
box.to_setup()
box.options["first"] = 0
box.start_game()
box.move(0, "join", {"club": "A"}, seq=0)
box.show("payout", 1)
out["before"] = {"seq": box.seq, "can_undo": box.can_undo(), "shown": box.shown}
version = box.version
del notified[:]
box.rematch(fresh)
saved = storage.load("game.json")
out["after"] = {
    "phase": box.phase, "seq": box.seq, "can_undo": box.can_undo(), "shown": box.shown,
    "is_fresh": box.state is fresh, "version_up": box.version > version, "notified": len(notified),
    "saved_seq": saved["seq"], "saved_phase": saved["phase"],
    "saved_is_fresh": saved["game"] == rules.to_dict(fresh), "turn": rules.current(box.state),
}
out["stale_move"] = refusal(lambda: box.move(1, "join", {"club": "B"}, seq=1))
out["stale_undo"] = refusal(box.undo)
box.move(1, "join", {"club": "B"}, seq=2)
out["moved"] = box.seq

# play it out, then restart from the end (a rematch) with a save that fails, then one that works
while not rules.is_over(box.state):
    seat = box.to_act()[0]
    m = rules.legal_moves(box.state, seat)[0]
    box.move(seat, m["move"], m["args"])
out["over"] = box.phase
flash = storage.load("game.json")
storage.failing = True
again = rules.rematch(box.state, box.random_below)
out["failed_save"] = refusal(lambda: box.rematch(again))
out["after_failed_save"] = {
    "phase": box.phase, "seq": box.seq == flash["seq"], "is_over": rules.is_over(box.state),
    "state_is_flash": rules.to_dict(box.state) == flash["game"],
}
storage.failing = False
box.rematch(again)
out["rematch"] = {"phase": box.phase, "seq_up": box.seq == flash["seq"] + 1, "over": rules.is_over(box.state),
                  "saved": storage.load("game.json")["game"] == rules.to_dict(again)}
print(json.dumps(out))
