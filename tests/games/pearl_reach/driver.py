"""Pearl Reach played whole, for the benches and the tests: on a running box (Driver, see
host_tools/game_drivers.py) and on the emulated Pico W (ChipPlay, see host_tools/rp2040/evening_pico.py).
Found by the game's id: every game in GAMES has its tests/games/<game id>/driver.py."""

import json
import random
import time
from pathlib import Path

from boxrig import ApiError
from game_drivers import with_pollers
from table import Table, firmware_games


class Driver:
    """Its largest table: 2 people on phones and 2 sharp rivals at the fastest speed (1 s a move).
    A person's move is a legal one computed by the rules under CPython from the box's saved game
    (game.json); the rivals move by themselves, the box's clock moved on a second at a time."""

    game = "pearl_reach"
    players = 2

    def __init__(self, seed=7):
        self.rng = random.Random(seed)

    def play(self, box, table=None):
        tokens = (table or Table()).sit(box, self.game, self.players)
        rules = firmware_games().load(self.game)
        # setup: rivals 1 -> none -> 2; the speed line: 2 s -> 1 s; who sets out first: the first person
        for button in ("C", "B", "B", "A", "A", "B", "A", "B"):
            box.press(button)
        if box.press("C") != "pr_board":
            raise AssertionError("the game did not start: " + box.screen())
        saved = Path(box.state_dir) / "game.json"

        def moves(settle):
            seen, deadline = None, 0
            while True:
                data = json.loads(saved.read_text())  # written then renamed: always whole
                if data["seq"] != seen:  # a move was made: the next one comes within seconds
                    seen, deadline = data["seq"], time.monotonic() + 20
                elif time.monotonic() > deadline:
                    raise AssertionError("the game stopped at move %d" % seen)
                model = rules.from_dict(data["game"])
                seat = rules.current(model)
                if seat is None:
                    return
                if model["rivals"][seat] is None:
                    m = self.rng.choice(rules.legal_moves(model, seat))
                    try:
                        box.move(tokens[seat], m["move"], m["args"], seq=data["seq"])
                    except ApiError as exc:
                        if exc.status == 503:  # "try again": nothing changed; the player taps again
                            time.sleep(1)
                        elif exc.status != 409:  # 409: the save read was older than the box's game
                            raise
                    except (ConnectionResetError, ConnectionRefusedError):
                        time.sleep(1)  # no answer (the box had no room to read it): tapped again
                    settle()
                else:  # a rival thinks: move the box's clock on
                    box.advance(1000)
                    time.sleep(0.03)

        stats = with_pollers(box, tokens, moves, every=2)
        return box.state(tokens[0]), stats

    def finished(self, view):
        return view["box"] == "over" and view["game"]["winners"] != []


class ChipPlay:
    """2 people and 2 sharp rivals at 1 s a move (its largest table with rivals): a person places on
    the cheapest free cell at their turn; the rivals move by themselves on the chip."""

    game = "pearl_reach"
    people = 2
    # setup; rivals 1 -> none -> 2; the speed line: 2 s -> 1 s; who sets out first: the first person
    setup = ("C", "B", "B", "A", "A", "B", "A", "B", "C")

    def play(self, chip, tokens):
        from pico_box import find_key  # the emulated chip's tools (host_tools/rp2040/), there when it runs

        for _ in range(600):
            view = chip.view(tokens[0])
            game = view.get("game", {})
            if view["box"] == "over" or game.get("winners"):
                return
            for token in tokens:
                mine = chip.view(token)
                game = mine["game"]
                if game.get("you") not in (game.get("to_act") or ()):
                    continue
                costs = find_key(mine, "costs") or []
                cells = sorted((cost, c) for c, cost in enumerate(costs) if cost is not None)
                for _, c in cells:
                    code, _ = chip.move(token, "place", {"cell": c}, mine["seq"])
                    if code == 200:
                        break
            time.sleep(0.5)
        raise AssertionError("Pearl Reach did not end")
