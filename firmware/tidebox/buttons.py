# Debounced buttons with short and long presses.
#
# The board reports raw levels (True while held); this turns them into events. A press counts once
# the level has been stable for DEBOUNCE_MS (contact bounce on tactile switches lasts ~5-10 ms).
# Holding LONG_MS or more gives one "long" event while still held; releasing earlier gives "short".
import time

from micropython import const

DEBOUNCE_MS = const(25)
LONG_MS = const(700)
SHORT = "short"
LONG = "long"
_NONE = ()  # what poll() returns on the passes where nothing happened: no list made 100 times a second


class Buttons:
    def __init__(self, names):
        self.names = names
        count = len(names)
        self.raw = [False] * count  # last raw level seen
        self.raw_since = [0] * count  # when the raw level last changed
        self.stable = [False] * count  # debounced level
        self.down_at = [0] * count  # when the debounced press began
        self.long_sent = [False] * count
        self.busy = False  # a raw or debounced level was True at the last poll

    def poll(self, levels, now):
        """Feed the raw levels at time `now` (ms); returns the (name, SHORT|LONG) events, a list, or
        an empty tuple (the same one every time: allocates nothing) when there are none. With
        nothing held now or before (nearly every call) it returns at once. Each method keeps its
        locals and stack within 11 words: a larger call frame would be taken from the heap."""
        if not self.busy and True not in levels:
            return _NONE
        events = _NONE
        i = 0
        while i < len(self.names):
            events = self._step(i, levels, now, events)
            i += 1
        self.busy = True in self.raw or True in self.stable
        return events

    def _step(self, i, levels, now, events):
        level = bool(levels[i])
        if level != self.raw[i]:
            self.raw[i] = level
            self.raw_since[i] = now
        elif level != self.stable[i] and time.ticks_diff(now, self.raw_since[i]) >= DEBOUNCE_MS:
            self.stable[i] = level
            if level:
                self.down_at[i] = self.raw_since[i]
                self.long_sent[i] = False
            elif not self.long_sent[i]:
                events = _event(events, self.names[i], SHORT)
        if self.stable[i] and not self.long_sent[i] and time.ticks_diff(now, self.down_at[i]) >= LONG_MS:
            self.long_sent[i] = True
            events = _event(events, self.names[i], LONG)
        return events


def _event(events, name, kind):
    if events is _NONE:
        events = []
    events.append((name, kind))
    return events
