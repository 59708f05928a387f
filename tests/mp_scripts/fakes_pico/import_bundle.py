# Imports a built bundle under the MicroPython unix port on the fake rp2 hardware in this folder:
# the board (made with its settings and storage in a scratch folder), then main.py up to the point
# where it asks for the board (its top-level imports all run), then every module the bundle carries.
# argv[1]: scratch folder; stdin: JSON list of the bundle's module names.
# stdout: {"main": ..., "failed": {name: error}, "loaded": [...], "board_heap_used": bytes (the board
# and its display), "heap_used": bytes (everything)}
import gc
import json
import sys

import asyncio  # noqa: F401 - main.py imports it before the board (whose buttons' wake flag is asyncio's)

names = json.loads(sys.stdin.read())
work = sys.argv[1]
gc.collect()
start = gc.mem_free()

import board  # noqa: E402 - the bundle's board.mpy, on the fakes

made = board.make_board(settings_path=work + "/settings.json", storage_dir=work + "/data")
gc.collect()
board_used = start - gc.mem_free()


class Stop(Exception):
    pass


class NoBoard:
    def make_board(self):
        raise Stop()


sys.modules["board"] = NoBoard()
try:
    __import__("main")
    ran = "returned"
except Stop:
    ran = "stopped at make_board"
sys.modules["board"] = board
failed = {}
loaded = set()
# The games last, one at a time, as the box loads them (each is unloaded again before the next).
games_last = [n for n in names if n.startswith("tidebox.games.")]
names = [n for n in names if not n.startswith("tidebox.games.")] + games_last
boot_only_dropped = False
for name in names:
    if name.startswith("tidebox.games.") and not boot_only_dropped:
        # The box drops the QR encoder once the join screen's codes are drawn (main.make_qr_drawer),
        # and the splash's and the lobby's screens while a game is played (reader.home): so here too.
        from tidebox import forget

        for boot_only in ("join_qr", "qr", "welcome", "lobby"):
            forget("tidebox." + boot_only)
        boot_only_dropped = True
    gc.collect()
    try:
        __import__(name)
    except Exception as e:  # reported to the test
        failed[name] = "%s: %s" % (type(e).__name__, e)
    loaded.update(sys.modules)
    parts = name.split(".")
    if parts[:2] == ["tidebox", "games"] and len(parts) > 2 and parts[2] not in ("base", "seeded"):
        # one game at a time, as the box loads them: unloaded again before the next is imported
        from tidebox import games

        games.unload(parts[2])
        gc.collect()
gc.collect()
print(json.dumps({"main": ran, "failed": failed, "loaded": sorted(loaded), "board": made.name,
                  "board_heap_used": board_used, "heap_used": start - gc.mem_free()}))
