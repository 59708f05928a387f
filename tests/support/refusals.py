"""A game's refused move, as the rules tests check it (tests/games/<game>/test_*_rules.py)."""

import copy

import pytest
from tidebox.games.base import GameError


def refused_move(move, state, seat, name, args, status):
    """move(state, seat, name, args) raises GameError with `status` and a message for a person, and
    leaves the state exactly as it was; returns the error."""
    before = copy.deepcopy(state)
    with pytest.raises(GameError) as info:
        move(state, seat, name, args)
    assert info.value.status == status, info.value.message
    assert state == before  # a refused move changes nothing
    assert info.value.message
    return info.value
