"""The game contract, for every game in tidebox.games.GAMES: a game added there gets these tests
without writing any (firmware/tidebox/games/README.md).

- Its rules and flow offer the names the box reads (games.CONTRACT's required ones, each named in
  firmware/tidebox/games/README.md), and loading them fills in the optional ones (games.CONTRACT's optional):
  checked under the real MicroPython, as the box loads them.
- Seeded games played with random legal moves: every save on the way reads back as the same game
  (from_dict(to_dict)), on CPython and on MicroPython, and both interpreters play the same games.
- Every legal move is accepted; every refused move (malformed, illegal, at the wrong time, for the
  wrong seat) is a GameError with a status for the web API and changes nothing, as is a refused
  `leave`.
- A seat's private view holds no other seat's secret: what a seat's own private view shows of the
  state's per-seat fields that the public view does not show never appears in another seat's.
- Every flow screen is drawn with a table's worst content without a text cut off or touching a line
  (the worst-case walk, tests/test_worst_case_screens.py, run once for the whole session).
- The page builds with its part within budget, and the part, run in Node with a stand-in for the
  shared page, registers exactly that game (the browser check is tests/test_page_build.py's).
"""

import copy
import json
import random
import subprocess
import re
from pathlib import Path

import pagebuild
import pytest
from game_contract import NAMES, REQUIRED, play, reads_back, table

import test_worst_case_screens as worst_case
from micropython_runner import MP_SCRIPTS
from tidebox import games
from tidebox.games.base import GameError
from tidebox.games.seeded import Seeded

GAMES = [game for game, _title in games.GAMES]  # the registry, never a list written here
CPYTHON_SEEDS = range(1, 13)


def test_the_registry_is_read():
    assert len(GAMES) >= 4 and len(set(GAMES)) == len(GAMES)


# ---------------------------------------------------------------- the names (MicroPython)


@pytest.fixture(scope="module")
def on_micropython(mp):
    proc = mp.run(MP_SCRIPTS / "game_contract.py", heap="2M", timeout=300)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("game", GAMES)
def test_the_required_names_are_there_and_the_optional_ones_filled_in(on_micropython, game):
    got = on_micropython["names"][game]
    assert got["missing"] == [], "%s does not offer %s" % (game, ", ".join(got["missing"]))
    assert got["undo"] in (True, False)
    assert isinstance(got["phone_options"], list)
    assert type(got["max_name"]) is int and got["max_name"] >= 1
    assert got["name"] == "Ada"  # the name rule, the game's own or base's at its MAX_NAME
    assert got["tick"] in (None, True)  # absent: None; offered: callable
    assert got["acting"] in (None, True) and (got["acting"] is None or got["tick"] is True)  # with a tick


@pytest.mark.parametrize("game", GAMES)
def test_the_rules_names_have_their_shapes(game):
    rules = games.load(game)
    assert [n for n in REQUIRED["rules"] if not hasattr(rules, n)] == []
    assert game == rules.GAME_ID
    assert isinstance(rules.TITLE, str) and isinstance(rules.SHORT, str) and len(rules.SHORT) <= 14
    assert 1 <= rules.MIN_PLAYERS <= rules.MAX_PLAYERS <= 8
    assert rules.MOVES and all(isinstance(m, str) for m in rules.MOVES)
    for key, label, choices in rules.OPTIONS:
        assert isinstance(key, str) and isinstance(label, str)
        assert choices in ("seat", "seat_or_random") or (choices and all(len(c) == 2 for c in choices)), key
    assert set(rules.PHONE_OPTIONS) <= {key for key, _label, _choices in rules.OPTIONS}
    too_long = "W" * (rules.MAX_NAME + 1)
    with pytest.raises(GameError):
        rules.check_name(too_long, (), rules.MAX_NAME)  # as the box calls it
    assert rules.check_name(too_long[:-1], (), rules.MAX_NAME) == too_long[:-1]


def test_a_missing_optional_name_gets_its_default_and_a_given_one_stays(monkeypatch):
    rules = games.load("quiet_dividend")
    monkeypatch.delattr(rules, "UNDO")
    monkeypatch.delattr(rules, "check_name")
    monkeypatch.setattr(rules, "MAX_NAME", 3)
    loaded = games.load("quiet_dividend")
    assert loaded.UNDO is False and loaded.check_name(" Pat ") == "Pat"
    with pytest.raises(GameError):
        loaded.check_name("Patt", (), loaded.MAX_NAME)  # as the box calls it
    monkeypatch.setattr(rules, "UNDO", True)
    assert games.load("quiet_dividend").UNDO is True


# ---------------------------------------------------------------- saves (CPython and MicroPython)


@pytest.mark.parametrize("game", GAMES)
def test_every_save_of_random_games_reads_back_the_same(game):
    saves = []

    def check(rules, state):
        assert reads_back(rules, state), json.dumps(rules.to_dict(state))
        loaded = rules.from_dict(json.loads(json.dumps(rules.to_dict(state))))
        assert loaded == state
        assert rules.public_view(loaded) == rules.public_view(state)
        for seat in range(len(state["names"])):
            assert rules.legal_moves(loaded, seat) == rules.legal_moves(state, seat)
        saves.append(1)

    over = 0
    for seed in CPYTHON_SEEDS:
        rules, state, _made = play(game, seed, 30 * seed, check)
        over += rules.is_over(state)
    assert len(saves) > 100
    assert over, "no game was played to its end"


@pytest.mark.parametrize("game", GAMES)
def test_both_interpreters_play_the_same_games_and_read_back_every_save(on_micropython, game):
    for seed, made, final, unreadable in on_micropython["plays"][game]:
        assert unreadable == [], unreadable[:1]
        rules, state, made_here = play(game, seed, 40 * seed)
        assert made_here == made
        assert json.loads(json.dumps(rules.to_dict(state))) == json.loads(final)


@pytest.mark.parametrize("game", GAMES)
def test_a_damaged_save_is_refused_with_a_game_error(game):
    rules = games.load(game)
    saved = json.loads(json.dumps(rules.to_dict(table(rules, Seeded(3)))))
    for damaged in (None, [], "x", {}, dict(saved, game="chess"), dict(saved, names="Ada"),
                    dict(saved, names=[])):
        with pytest.raises(GameError):
            rules.from_dict(damaged)
    for key in saved:
        if key != "game":
            less = dict(saved)
            del less[key]
            with pytest.raises(GameError):
                rules.from_dict(less)


# ---------------------------------------------------------------- moves


@pytest.mark.parametrize("game", GAMES)
def test_every_legal_move_is_accepted(game):
    tried = 0
    for seed in CPYTHON_SEEDS:
        rng = random.Random(seed)

        def each(rules, state, rng=rng):
            nonlocal tried
            for seat in [None] + list(range(len(state["names"]))):
                legal = rules.legal_moves(state, seat)
                for m in rng.sample(legal, min(len(legal), 4)):
                    trial = copy.deepcopy(state)
                    rules.move(trial, seat, m["move"], json.loads(json.dumps(m["args"])))
                    assert m["move"] in rules.MOVES
                    tried += 1

        play(game, seed, 20 * seed, each)
    assert tried > 200


def junk_args(legal, rng):
    """Arguments a phone might send: none, unknown keys, a legal move's own args with a value made
    wrong (out of range, of another type, missing; a list with an item changed, one short or one
    long), and other seats' moves."""
    out = [{}, {"move": "x"}, {"args": {}}]
    for m in legal:
        args = m["args"]
        out.append(dict(args))
        for key, value in args.items():
            for bad in (-1, 999, "x", None, [], 1.5, True, {"a": 1}):
                out.append(dict(args, **{key: bad}))
            out.append({k: v for k, v in args.items() if k != key})
            if isinstance(value, list) and value:
                for bad in ([value[0] + 1] + value[1:], value[:-1], value + [0]):
                    out.append(dict(args, **{key: bad}))
    return rng.sample(out, min(len(out), 40))


@pytest.mark.parametrize("game", GAMES)
def test_a_refused_move_or_leave_changes_nothing(game):
    refused = set()
    for seed in CPYTHON_SEEDS:
        rng = random.Random(seed)

        def each(rules, state, rng=rng):
            count = len(state["names"])
            seats = [None, -1, count] + list(range(count))
            legal = [m for seat in seats[3:] + [None] for m in rules.legal_moves(state, seat)]
            names = list(rules.MOVES) + ["no_such_move", ""]
            for args in junk_args(legal, rng):
                seat, name = rng.choice(seats), rng.choice(names)
                trial = copy.deepcopy(state)
                try:
                    rules.move(trial, seat, name, args)
                except GameError as e:
                    assert trial == state, (seat, name, args, e.message)
                    assert e.status in (400, 409) and isinstance(e.message, str) and e.message
                    refused.add(e.status)
            for seat in seats:
                trial = copy.deepcopy(state)
                try:
                    rules.leave(trial, seat)
                except GameError as e:
                    assert trial == state, ("leave", seat, e.message)

        play(game, seed, 15 * seed, each)
    assert refused == {400, 409}


# ---------------------------------------------------------------- what each seat sees


def parts(value):
    """Every value inside a JSON value (itself included), each as JSON text."""
    yield json.dumps(value, sort_keys=True)
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        for item in value:
            yield from parts(item)


def secrets(state, seat, public, private):
    """What `seat`'s private view shows of the state's per-seat fields (a list with one entry per
    seat) that the public view does not: [(field, that seat's entry as JSON)]. Plain flags and
    numbers (True, 0, None) tell nothing apart, so only lists, objects and text count."""
    out = []
    for key, value in state.items():
        if isinstance(value, list) and len(value) == len(state["names"]):
            entry = value[seat]
            text = json.dumps(entry, sort_keys=True)
            if isinstance(entry, (list, dict, str)) and text in private and text not in public:
                out.append((key, text))
    return out


def check_private_views(rules, state):
    """No seat's private view (nor its JSON) holds another seat's secret, unless it is its own too."""
    count = len(state["names"])
    public = set(parts(json.loads(json.dumps(rules.public_view(state)))))
    views = [json.loads(json.dumps(rules.private_view(state, seat))) for seat in range(count)]
    found = 0
    for seat in range(count):
        for key, text in secrets(state, seat, public, set(parts(views[seat]))):
            found += 1
            for other in range(count):
                if other != seat and json.dumps(state[key][other], sort_keys=True) != text:
                    assert text not in set(parts(views[other])), (
                        "seat %d sees seat %d's %s: %s" % (other, seat, key, text))
    return found


@pytest.mark.parametrize("game", GAMES)
def test_a_private_view_holds_no_other_seats_secret(game):
    looked = []
    for seed in CPYTHON_SEEDS:
        play(game, seed, 25 * seed, lambda rules, state: looked.append(check_private_views(rules, state)))
    assert len(looked) > 100


def test_the_secrecy_check_finds_a_leak():
    """A private view that also carries another seat's hidden allocation is caught."""
    rules = games.load("token_tide")
    state = rules.new_game(NAMES[:3], {"deck": "numbered"}, None)
    rules.move(state, 0, "allocate", {"allocation": [7, 0, 0], "ready": True})
    rules.move(state, 1, "allocate", {"allocation": [0, 7, 0], "ready": True})
    assert check_private_views(rules, state) == 2  # each seat's own allocation, seen by it alone

    class Leaky:
        def __getattr__(self, name):
            return getattr(rules, name)

        def private_view(self, state, seat):
            return dict(rules.private_view(state, seat), next=state["hidden"][(seat + 1) % 3])

    with pytest.raises(AssertionError, match="sees seat"):
        check_private_views(Leaky(), state)


# ---------------------------------------------------------------- the box's screens (MicroPython)


@pytest.mark.parametrize("game", GAMES)
def test_every_flow_screen_renders_with_the_worst_content(walked, game):
    worst_case.test_every_screen_of_the_game_is_reached(walked, game)
    worst_case.test_no_text_is_cut_off_or_touches_a_line(walked, game)
    assert walked["frames"][game] > 1000


VIEW_ROOM_SPARE = 512  # a game's VIEW_ROOM may exceed its walked views by this much, no more


@pytest.mark.parametrize("game", GAMES)
def test_the_view_room_a_game_declares_holds_its_largest_view_and_little_more(walked, game):
    """The room the box makes for the phones' view when the game starts (VIEW_ROOM) holds the largest
    shared part of the worst-case walk (8 longest names, every screen): the view does not grow
    mid-game in a heap cut up by it; and it is not much more than that: heap is the product."""
    room = games.load(game).VIEW_ROOM
    largest = walked["views"][game]
    assert largest <= room <= largest + VIEW_ROOM_SPARE, (largest, room)


# ---------------------------------------------------------------- the phones' page


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("www")
    return out, pagebuild.build_all(out)


REGISTERS = r"""
const fs = require('fs');
const calls = [];
const games = {};
const any = () => new Proxy(function () {}, {get: (f, k) => k === Symbol.toPrimitive ? () => '' : any(),
                                             apply: () => any()});
const Tidebox = new Proxy({games: games, style: (g, css) => calls.push([g, css.length])},
                          {get: (t, k) => (k in t ? t[k] : any())});
global.window = new Proxy({Tidebox: Tidebox}, {get: (t, k) => (k in t ? t[k] : any())});
global.Tidebox = Tidebox;
global.document = any();
new Function(fs.readFileSync(0, 'utf8'))();
const out = {};
for (const k of Object.keys(games)) {
  const g = games[k];
  out[k] = {};
  for (const name of Object.keys(g)) out[k][name] = Array.isArray(g[name]) ? 'list' : typeof g[name];
  out[k].title = typeof g.title === 'string' ? g.title : null;
}
console.log(JSON.stringify({games: out, styles: calls}));
process.exit(0);  // a timer the part started does not keep Node running
"""


@pytest.mark.parametrize("game", GAMES)
def test_the_page_builds_and_the_part_registers_the_game(built, game):
    out, sizes = built
    assert sizes[pagebuild.OUT_NAME] <= pagebuild.PAGE_BUDGET
    assert sizes[pagebuild.PART_NAME % game] <= pagebuild.PART_BUDGET
    assert (out / (pagebuild.PART_NAME % game)).stat().st_size == sizes[pagebuild.PART_NAME % game]
    part = pagebuild.build_part(game)
    proc = subprocess.run(["node", "-e", REGISTERS], input=part, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr[-2000:]
    got = json.loads(proc.stdout)
    assert list(got["games"]) == [game]  # exactly this game, under its id
    registered = got["games"][game]
    required, optional = games.CONTRACT["page"]
    assert registered["title"] and registered["render"] == "function"
    assert registered["how"] in ("list", "function")
    assert set(required) <= set(registered), set(required) - set(registered)
    # an optional name the part gives is a function
    for name, _default in optional:
        assert registered.get(name, "function") == "function", (name, registered[name])
    assert [g for g, _size in got["styles"]] == [game]


def test_the_page_check_catches_a_part_that_registers_another_name(built, monkeypatch):
    real = pagebuild.build_part
    monkeypatch.setattr(pagebuild, "build_part", lambda game: real(game).replace(
        "games." + game + " =", "games.other =").replace("games." + game + "=", "games.other="))
    with pytest.raises(AssertionError):
        test_the_page_builds_and_the_part_registers_the_game(built, GAMES[0])



def test_the_adding_a_game_doc_names_every_name_of_the_contract():
    """The games wing's guide, firmware/tidebox/games/README.md, explains the contract that
    games.CONTRACT states: every name, required or optional, of the rules and of the flow, is named
    there (in backticks)."""
    doc = (Path(__file__).parent.parent / "firmware" / "tidebox" / "games" / "README.md").read_text()
    named = set(re.findall(r"`([A-Za-z_]+)", doc))
    for part, (required, optional) in games.CONTRACT.items():
        for name in list(required) + [key for key, _ in optional]:
            assert name in named, "firmware/tidebox/games/README.md does not name the %s's %s" % (part, name)
