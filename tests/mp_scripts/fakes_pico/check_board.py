# Runs the compiled board module (board.mpy) on the fake rp2 hardware in this folder.
# stdin: {"dir": tmp folder, "settings": {...} or null, "levels": {"11": 0}, "i2c": [60],
#         "actions": [["read"], ["hotspot", ssid, password], ["tone", hz, ms], ["fire_timer"], ...]}
# stdout: one JSON object: the board's attributes, each action's result, and every hardware event.
import json
import sys

import asyncio
import fakelog
import machine

request = json.loads(sys.stdin.read())
for pin, level in request.get("levels", {}).items():
    machine.Pin.levels[int(pin)] = level
machine.I2C.devices = request.get("i2c", [0x3C])
settings_path = request["dir"] + "/settings.json"
settings = request.get("settings")
if settings is None:
    try:
        __import__("os").remove(settings_path)
    except OSError:
        pass  # no settings file: the board's defaults
else:
    with open(settings_path, "w") as f:
        f.write(settings if isinstance(settings, str) else json.dumps(settings))

import board  # noqa: E402 - after the fakes are primed

b = board.make_board(settings_path=settings_path, storage_dir=request["dir"] + "/data")


async def use_gate(gate):
    async with gate, gate:
        inside = gate.active
    return [inside, gate.active, gate.peak]


def run(action):
    kind = action[0]
    if kind == "read":
        return list(b.buttons.read())
    if kind == "hotspot":
        return b.radio.start_hotspot(action[1], action[2])
    if kind == "tone":
        return b.buzzer.tone(action[1], action[2])
    if kind == "fire_timer":
        machine.Timer.made[-1].fire()
        return None
    if kind == "wdt_start":
        return b.watchdog.start(action[1])
    if kind == "feed":
        return b.watchdog.feed()
    if kind == "gate":
        return asyncio.run(use_gate(b.tcp_gate))
    if kind == "page_url":
        return b.page_url()
    if kind == "show":
        b.display.fill(1)
        return b.display.show()
    if kind == "frames":  # draws each frame of [[x, y, w, h], ...] boxes on a cleared panel: its I2C bytes
        sent = []
        for boxes in action[1]:
            machine.I2C.sent = []
            machine.I2C.recording = True
            b.display.fill(0)
            for x, y, w, h in boxes:
                b.display.fill_rect(x, y, w, h, 1)
            b.display.show()
            machine.I2C.recording = False
            sent.append([list(t) for t in machine.I2C.sent])
        return sent
    if kind == "reset":
        try:
            b.reset()
        except machine.ResetCalled:
            return "reset"
    raise ValueError("no action " + kind)


results = []
for action in request.get("actions", []):
    try:
        results.append({"ok": run(action)})
    except Exception as e:  # reported to the test, which decides what it expected
        results.append({"error": type(e).__name__, "msg": str(e)})

try:
    listed = sorted(__import__("os").listdir(request["dir"]))
except OSError:
    listed = []
print(json.dumps({
    "name": b.name,
    "board_module_name": board.NAME,
    "settings": b.settings,
    "buzzer": b.buzzer is not None,
    "storage_dir": b.storage_dir,
    "dir": listed,
    "http": [b.http_host, b.http_port, b.dns_port],
    "uid": b.unique_id(),
    "urandom": len(b.urandom(16)),
    "ticks": b.ticks_diff(b.ticks_ms(), b.ticks_ms()) <= 0,
    "clock": b.clock.ticks_diff(b.clock.ticks_ms(), b.clock.ticks_ms()) <= 0,
    "display": [b.display.width, b.display.height, type(b.display).__name__],
    "results": results,
    "events": fakelog.events,
}))
