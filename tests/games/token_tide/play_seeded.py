# A whole Token Tide game driven from one seed; runs unchanged under CPython and MicroPython so the
# host tests can check that both interpreters end in the identical state.
from tidebox.games import token_tide as tt
from tidebox.games.seeded import Seeded


def random_allocation(rng):
    beacon = rng.below(8)
    grove = rng.below(8 - beacon)
    return [beacon, grove, 7 - beacon - grove]


def play(seed, players):
    rng = Seeded(seed)
    names = ["P%d" % i for i in range(players)]
    deck = tt.DECK_MODES[rng.below(3)]
    state = tt.new_game(names, deck=deck, first_reader=rng.below(players), below=rng.below,
                        practice=rng.below(2) == 1)
    refusals = 0
    while not tt.is_over(state):
        for seat in range(players):
            if state["seated"][seat]:
                # Sometimes change one's mind before locking; sometimes try something illegal.
                if rng.below(4) == 0:
                    tt.set_allocation(state, seat, random_allocation(rng), False)
                if rng.below(10) == 0:
                    try:
                        tt.set_allocation(state, seat, [rng.below(8), rng.below(8), 9])
                    except tt.GameError:
                        refusals += 1
                tt.set_allocation(state, seat, random_allocation(rng))
        if players > 2 and rng.below(12) == 0:
            try:
                tt.leave(state, rng.below(players))
            except tt.GameError:
                refusals += 1
        tt.reveal(state)
        tt.next_round(state)
    return {"state": tt.to_dict(state), "refusals": refusals, "winners": tt.winners(state),
            "standings": tt.standings(state)}
