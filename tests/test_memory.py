"""The firmware fits: a scripted full 8-player game with eight phones polling once a second runs on
the compiled firmware under MicroPython with a Pico-sized heap, without a single MemoryError; so does
every other game's largest table (the bench's drivers, which `make bench` bisects). On a 32-bit port
(MICROPYTHON=<make micropython32's binary>: the board's object sizes), every game also fits
ROMFS_HEAP_KB of heap besides its code, which a ROMFS firmware keeps in flash."""

import build
import pytest
import romfs
import shipped
from boxrig import WORD_BITS
from game_drivers import driver_for
from memory_proof import PROOF_HEAP_KB, run_game

pytestmark = pytest.mark.slow  # memory proofs: whole games at the proof's heap
OTHER_GAMES = [game for game in build.game_ids() if game != "token_tide"]  # Token Tide's: the test above
# The heap each game's whole table must fit besides its code in a ROMFS image, on a 32-bit port (the
# bench's min_heap_romfs_kb figures), a 4 KB step above the largest of them: Pearl Reach's, 100 KB.
# Every game's names cross the point where MicroPython's pool of interned names doubles (1,260 names
# of the box's own; the next pool is a 7.7 KB block in one piece), and where in the game the line is
# crossed decides whether a tighter heap holds; firmware/MEMORY.md, "On the 32-bit unix port".
ROMFS_HEAP_KB = 104


def test_full_game_with_eight_pollers_fits_the_heap(sim_tree):
    result = run_game(PROOF_HEAP_KB, sim_tree)
    assert result["error"] is None, result
    assert result["ok"], result
    assert result["memory_errors"] == 0, result
    assert result["poll_errors"] == [], result
    # every poll answered (an answer cut short counts too) and every phone polled to the very end:
    # each was told the final standings
    assert result["phones_told_the_end"] == 8, result


@pytest.mark.parametrize("game", OTHER_GAMES)
def test_each_other_game_played_whole_with_its_phones_polling_fits_the_heap(sim_tree, game):
    """The bench's drivers (each game's tests/games/<game>/driver.py): each game in GAMES, its largest
    table played to its end. A game without one fails here (tests/test_game_drivers.py checks the lookup)."""
    driver = driver_for(game)()
    result = run_game(PROOF_HEAP_KB, sim_tree, driver=driver)
    assert result["error"] is None, result
    assert result["ok"], result
    assert result["memory_errors"] == 0, result
    assert result["poll_errors"] == [], result
    assert result["phones_told_the_end"] == driver.players, result


@pytest.fixture(scope="module")
def romfs_tree(sim_tree, tmp_path_factory):
    """The simulator's tree with its code in a ROMFS image (romfs.build_romfs_tree), in this test's own
    folder: the bench lays out build/romfs/ and may be running meanwhile."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(romfs, "ROMFS_DIR", tmp_path_factory.mktemp("romfs") / "romfs")
        return romfs.build_romfs_tree(sim_tree)


@pytest.fixture
def port32(monkeypatch):
    """The boxes run on a 32-bit port: MICROPYTHON's when it is one, else the committed one
    (host_tools/micropython32/, make micropython32: MicroPython 3fff03367a, the firmware's)."""
    if WORD_BITS != 32:
        monkeypatch.setenv("MICROPYTHON", str(shipped.micropython32()))


@pytest.mark.parametrize("game", build.game_ids())
def test_each_game_from_romfs_fits_96_kb_on_a_32_bit_port(port32, sim_tree, romfs_tree, game):
    """Each game in GAMES, its largest table played whole with its phones polling, in ROMFS_HEAP_KB
    besides the ROMFS image (the unix port holds the image in its heap: run_game adds its size)."""
    driver = driver_for(game)()
    result = run_game(ROMFS_HEAP_KB, sim_tree, romfs=romfs_tree, driver=driver)
    assert result["error"] is None, result
    assert result["ok"], result
    assert result["memory_errors"] == 0, result
    assert result["poll_errors"] == [], result
    assert result["phones_told_the_end"] == driver.players, result
