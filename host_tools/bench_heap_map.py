"""Where the heap goes: the live heap after importing each part of the firmware in the order main.py
does, under the MicroPython unix port (64-bit), each figure the growth over the part before it.

The heap a module costs is its bytecode, its functions and classes (objects with 64-bit pointers
here) and its new names (qstrs, kept in pools that grow in steps, so one module may pay for the next
one's names too). For the next person who has to make the firmware smaller.
"""

import json
import subprocess

import build

# (figure, what to import): in main.py's order, so each figure is what that part adds.
PARTS = (
    ("asyncio", "import asyncio"),
    ("board_host", "import board"),
    ("microdot", "import microdot"),
    ("web_box_seats_storage", "from tidebox import api, transport, box, seats, storage, hotspot"),
    ("rules_token_tide", "from tidebox.games import token_tide"),
    ("screens_and_flow", "from tidebox.games.token_tide import flow; from tidebox import panel, buttons"),
    ("dns", "from tidebox import dns"),
    ("join_qr_until_boot_ends", "from tidebox import join_qr"),
    ("sim_pages_host_only", "import host_sim"),
)

SCRIPT = """
import gc, json
gc.collect()
start = gc.mem_alloc()
last = start
out = []
for name, statement in %r:
    exec(statement)
    gc.collect()
    now = gc.mem_alloc()
    out.append([name, now - last])
    last = now
out.append(["all", last - start])
print(json.dumps(out))
"""


def heap_map(tree):
    env = build.micropython_env(tree)
    cmd = [build.micropython(), "-X", "heapsize=1M", "-c", SCRIPT % (PARTS,)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=env, cwd=str(tree), check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def run():
    for name, size in heap_map(build.build_sim()):
        yield "import_%s_kb" % name, round(size / 1024, 1), "KB"
