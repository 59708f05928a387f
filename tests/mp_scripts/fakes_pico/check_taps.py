# Plays a timeline of button edges and main-loop reads against pico_common.Buttons on the fake rp2
# pins, with a fake clock, and feeds every read to the firmware's debouncer (tidebox/buttons.py).
# stdin: {"timeline": [[ms, "press" | "release", "A"], [ms, "read"], ...]} (in time order), "edges": true
# to give the debouncer the pins' edge times, as the panel loop does (tidebox/running.py)
# stdout: one JSON object: {"events": [[ms, "A", "short" | "long"], ...], "levels": [[ms, [a, b, c]], ...]}
import json
import sys

import machine
import pico_common
from tidebox.buttons import Buttons as Debouncer

GP = {"A": 10, "B": 11, "C": 12}  # the board's default pins
clock = [0]
job = json.loads(sys.stdin.read())
buttons = pico_common.Buttons((GP["A"], GP["B"], GP["C"]), ticks_ms=lambda: clock[0])
debouncer = Debouncer(("A", "B", "C"), buttons.edge_at if job.get("edges") else None)
debouncer.long_presses = job.get("long_presses", "ABC")  # by default every press told short or long
events = []
levels = []
for step in job["timeline"]:
    clock[0] = step[0]
    if step[1] == "read":
        read = buttons.read()
        levels.append([step[0], list(read)])
        for name, kind in debouncer.poll(read, step[0]):
            events.append([step[0], name, kind])
    else:
        machine.Pin.drive(GP[step[2]], 0 if step[1] == "press" else 1)
print(json.dumps({"events": events, "levels": levels}))
