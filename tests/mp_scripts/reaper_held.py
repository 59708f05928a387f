# The reaper's rule for a request still being read (tidebox/transport.py, _reap), under MicroPython:
# cut off past BUSY_MS when every connection is taken, unless the time went to the box's own work
# (the loop held up); cut off past REQUEST_MS in any case. stdout: one JSON object.
import json
import time

from tidebox import transport


class Task:
    def __init__(self):
        self.cancelled = False

    def cancel(self):
        self.cancelled = True


def cut(age, full, held):
    slot = transport._Slot()
    slot.task = Task()
    task = slot.task
    now = time.ticks_ms()
    slot.started = time.ticks_add(now, -age)
    transport._reap(slot, now, full, held)
    return task.cancelled


busy = transport.BUSY_MS
out = {
    "slow_when_full": cut(busy + 100, True, 0),
    "slow_when_not_full": cut(busy + 100, False, 0),
    "box_held_up": cut(busy + 600, True, 600),
    "slow_besides_box_held_up": cut(busy + 700, True, 300),
    "past_the_request_limit": cut(transport.REQUEST_MS + 100, False, 0),
}
print(json.dumps(out))
