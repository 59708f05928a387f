"""Memory figures: the smallest heap (4 KB steps) at which the scripted 8-player Token Tide game with
eight pollers completes 5 runs of 5 (min_heap_kb), the same for each other game's largest table with
its phones polling (min_heap_kb_<game>, played by its tests/games/<game>/driver.py), each game's with
its code in a ROMFS image (min_heap_romfs_kb_<game>, for every game in GAMES; min_heap_romfs_kb, the
largest of them: the heap every game fits besides the image), the heap in use once the box is up
(before any phone), the peak gc.mem_alloc() during the Token Tide game, and the size of the firmware."""

import build
import romfs
from game_drivers import registered
from memory_proof import PROOF_HEAP_KB, run_game

STEP_KB = 4
LOW_KB = 96
ROMFS_LOW_KB = 48  # from ROMFS: below this no game has passed on either port
ROMFS_FIRST_KB = 128  # ... and the first game is tried first here (32-bit figures 88-100 KB, 64-bit 136-152)
RUNS = 5  # a heap figure is the smallest heap at which this many runs in a row all pass


def passes(heap_kb, tree, rom=None, driver=None, runs=1):
    """Whether `runs` runs of the game at heap_kb all pass (stops at the first that does not)."""
    return all(run_game(heap_kb, tree, romfs=rom, driver=driver)["passed"] for _ in range(runs))


def smallest_heap(tree, rom=None, low=LOW_KB, driver=None, high=PROOF_HEAP_KB, runs=RUNS):
    """The smallest heap, in STEP_KB steps, at which `runs` runs in a row pass. A bisection with one
    run a step between `low` (assumed too small) and a heap that passes (tried first at `high`, then
    32 KB more at a time) finds the lowest heap one run passes at; from there up, the first heap all
    `runs` runs pass at is the figure (a heap where one run failed is not one)."""
    while not passes(high, tree, rom, driver):
        low, high = high, high + 32
        if high > 512:
            return None
    while high - low > STEP_KB:
        mid = (low + high) // 2 // STEP_KB * STEP_KB
        if passes(mid, tree, rom, driver):
            high = mid
        else:
            low = mid
    while not passes(high, tree, rom, driver, runs):
        high += STEP_KB
    return high


def romfs_figures(tree, rom=None):
    """Each game's smallest heap with the code in a ROMFS image (romfs.py), the heap besides the image,
    which a board keeps in flash: what the shipped firmware's ROMFS partition leaves each game. Every
    game in GAMES, each tried first a little above the previous game's figure; then the largest."""
    rom = rom or romfs.build_romfs_tree(tree)
    figures = []
    first = ROMFS_FIRST_KB
    for game, driver in registered():
        kb = smallest_heap(tree, rom=rom, low=ROMFS_LOW_KB, driver=driver(), high=first)
        figures.append(kb)
        yield "min_heap_romfs_kb_" + game, kb, "KB"
        first = min(PROOF_HEAP_KB, (kb or PROOF_HEAP_KB) + 16)
    yield "min_heap_romfs_kb", None if None in figures else max(figures), "KB"


def tree_kb(tree):
    code = [p for p in tree.rglob("*") if p.is_file() and p.suffix in (".mpy", ".py")]
    return sum(p.stat().st_size for p in code) / 1024


def run():
    tree = build.build_sim()
    token_tide = smallest_heap(tree)
    yield "min_heap_kb", token_tide, "KB"
    # The other games, each tried first a little above Token Tide's figure (fewer runs to bisect).
    for game, driver in registered():
        if game != "token_tide":
            first = min(PROOF_HEAP_KB, (token_tide or PROOF_HEAP_KB) + 16)
            yield "min_heap_kb_" + game, smallest_heap(tree, driver=driver(), high=first), "KB"
    yield from romfs_figures(tree)
    sampled = run_game(PROOF_HEAP_KB, tree, sample=True)
    yield "boot_alloc_kb", round(sampled["boot_alloc"] / 1024, 1), "KB"
    yield "peak_alloc_kb", round(sampled["peak_alloc"] / 1024, 1), "KB"
    yield "firmware_code_kb", round(tree_kb(tree), 1), "KB"
    import bundle

    info = bundle.build_bundle()
    yield "bundle_kb", round(info["total_bytes"] / 1024, 1), "KB"
