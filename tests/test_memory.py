"""The firmware fits: a scripted full 8-player game with eight phones polling once a second runs on
the compiled firmware under MicroPython with a Pico-sized heap, without a single MemoryError."""

from memory_proof import PROOF_HEAP_KB, run_game


def test_full_game_with_eight_pollers_fits_the_heap(sim_tree):
    result = run_game(PROOF_HEAP_KB, sim_tree)
    assert result["error"] is None, result
    assert result["ok"], result
    assert result["memory_errors"] == 0, result
    assert result["poll_errors"] == [], result
    # every poll answered (an answer cut short counts too) and every phone polled to the very end:
    # each was told the final standings
    assert result["phones_told_the_end"] == 8, result
