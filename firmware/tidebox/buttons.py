# Debounced buttons with short and long presses.
#
# The board reports raw levels (True while held); this turns them into events. A press counts once
# the level has been down for PRESS_MS with no bounce, a release once up for DEBOUNCE_MS (contact
# bounce on tactile switches lasts ~5-10 ms; a bounce inside a press is not a release, so the press
# can be taken sooner than the release: the box answers quicker, and never counts a press twice).
# On a button the screen shown gives a long press of its own (`long_presses`), holding LONG_MS or
# more gives one "long" event while still held and releasing earlier gives "short"; a press of any
# other button is "short" as soon as it is down, so the box answers without waiting for the release.
import time

from micropython import const

PRESS_MS = const(15)
DEBOUNCE_MS = const(25)
HELD_READ_MS = const(5)  # how often the reader loop reads while a button is held or settling
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
        self.acted = [False] * count  # this press has had its event: nothing more until the next
        self.long_presses = ""  # the buttons told apart by how long they are held (set by the loop)
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
        elif level != self.stable[i] and time.ticks_diff(now, self.raw_since[i]) >= (
                PRESS_MS if level else DEBOUNCE_MS):
            self.stable[i] = level
            if level:
                self.down_at[i] = self.raw_since[i]
                self.acted[i] = self.names[i] not in self.long_presses
                if self.acted[i]:
                    events = _event(events, self.names[i], SHORT)
            elif not self.acted[i]:
                events = _event(events, self.names[i], SHORT)
        if self.stable[i] and not self.acted[i] and time.ticks_diff(now, self.down_at[i]) >= LONG_MS:
            self.acted[i] = True
            events = _event(events, self.names[i], LONG)
        return events


def _event(events, name, kind):
    if events is _NONE:
        events = []
    events.append((name, kind))
    return events
