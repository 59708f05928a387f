"""The firmware fits: a scripted full 8-player game with eight phones polling once a second runs on
the compiled firmware under MicroPython with a Pico-sized heap, without a single MemoryError; so does
every other game's largest table (the bench's drivers, which `make bench` bisects)."""

import pytest
from game_drivers import DRIVERS
from memory_proof import PROOF_HEAP_KB, run_game

pytestmark = pytest.mark.slow  # memory proofs: whole games at the proof's heap


def test_full_game_with_eight_pollers_fits_the_heap(sim_tree):
    result = run_game(PROOF_HEAP_KB, sim_tree)
    assert result["error"] is None, result
    assert result["ok"], result
    assert result["memory_errors"] == 0, result
    assert result["poll_errors"] == [], result
    # every poll answered (an answer cut short counts too) and every phone polled to the very end:
    # each was told the final standings
    assert result["phones_told_the_end"] == 8, result


@pytest.mark.parametrize("game", ["quiet_dividend", "paper_current", "pearl_reach"])
def test_each_other_game_played_whole_with_its_phones_polling_fits_the_heap(sim_tree, game):
    """The bench's drivers (game_drivers.py): each game's largest table played to its end."""
    driver = DRIVERS[game]()
    result = run_game(PROOF_HEAP_KB, sim_tree, driver=driver)
    assert result["error"] is None, result
    assert result["ok"], result
    assert result["memory_errors"] == 0, result
    assert result["poll_errors"] == [], result
    assert result["phones_told_the_end"] == driver.players, result
