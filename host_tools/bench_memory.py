"""Memory figures: the smallest heap (4 KB steps) at which the scripted 8-player Token Tide game with
eight pollers completes (min_heap_kb), the same for each other game's largest table with its phones
polling (min_heap_kb_<game>, game_drivers.py), the heap in use once the box is up (before any phone),
the peak gc.mem_alloc() during the Token Tide game, and the size of the firmware."""

import build
import romfs
from game_drivers import registered
from memory_proof import PROOF_HEAP_KB, run_game

STEP_KB = 4
LOW_KB = 96


def smallest_heap(tree, rom=None, low=LOW_KB, driver=None, high=PROOF_HEAP_KB):
    """Bisection in STEP_KB steps between `low` (assumed too small) and a heap that passes, tried
    first at `high` (then 32 KB more at a time)."""
    while not run_game(high, tree, romfs=rom, driver=driver)["passed"]:
        low, high = high, high + 32
        if high > 512:
            return None
    while high - low > STEP_KB:
        mid = (low + high) // 2 // STEP_KB * STEP_KB
        if run_game(mid, tree, romfs=rom, driver=driver)["passed"]:
            high = mid
        else:
            low = mid
    return high


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
    # Token Tide's game with the code in a ROMFS image (romfs.py): the heap besides the image, which a
    # board keeps in flash. What deploying to a ROMFS partition would leave for the game.
    yield "min_heap_romfs_kb", smallest_heap(tree, rom=romfs.build_romfs_tree(tree), low=48), "KB"
    sampled = run_game(PROOF_HEAP_KB, tree, sample=True)
    yield "boot_alloc_kb", round(sampled["boot_alloc"] / 1024, 1), "KB"
    yield "peak_alloc_kb", round(sampled["peak_alloc"] / 1024, 1), "KB"
    yield "firmware_code_kb", round(tree_kb(tree), 1), "KB"
    import bundle

    info = bundle.build_bundle()
    yield "bundle_kb", round(info["total_bytes"] / 1024, 1), "KB"
