# Debounced buttons with short and long presses.
#
# The board reports raw levels (True while held); this turns them into events. A press counts once
# the level has been down for PRESS_MS with no bounce, a release once up for DEBOUNCE_MS (contact
# bounce on tactile switches lasts ~5-10 ms; a bounce inside a press is not a release, so the press
# can be taken sooner than the release: the box answers quicker, and never counts a press twice).
# On a button the screen shown gives a long press of its own (`long_presses`), holding LONG_MS or
# more gives one "long" event while still held and releasing earlier gives "short"; a press of any
# other button is "short" as soon as it is down, so the box answers without waiting for the release.
# Where the board notes when each button's contact last moved (`edges`: the Pico's pin interrupts,
# boards/pico_common.py), a change is timed from that edge rather than from the read that found it,
# which comes up to a loop period later: the press is taken PRESS_MS after the contact settled.
import time

from micropython import const

PRESS_MS = const(15)
DEBOUNCE_MS = const(25)
HELD_READ_MS = const(5)  # how often the panel loop reads while a button is held or settling
LONG_MS = const(700)
# An edge older than this is not the live contact's: the loop was held up and the board plays a
# missed press back (boards/pico_common.py), which is timed from the reads, as without edges.
_EDGE_MS = const(20)
SHORT = "short"
LONG = "long"
_NONE = ()  # what poll() returns on the passes where nothing happened: no list made 100 times a second


class Buttons:
    def __init__(self, names, edges=None):
        self.names = names
        self.edges = edges  # the board's list: when each button's contact last moved (ms), or None
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
            self.raw_since[i] = self._since(i, now)
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

    def next_read_ms(self, now):
        """How long the loop may wait for its next read while a button is busy: HELD_READ_MS, or less
        when a press settles sooner, so that it is taken the moment it has (releases and long presses
        keep the plain period)."""
        wait = HELD_READ_MS
        i = 0
        while i < len(self.names):
            if self.raw[i] and not self.stable[i]:
                left = PRESS_MS - time.ticks_diff(now, self.raw_since[i])
                if left < wait:
                    wait = left if left > 0 else 0
            i += 1
        return wait

    def _since(self, i, now):
        """When the level just read began: the board's last edge of that button, where it keeps one
        and it is recent (within two loop periods: the level read now came with it), else the time
        of this read."""
        edges = self.edges
        if edges is None:
            return now
        age = time.ticks_diff(now, edges[i])
        return edges[i] if 0 <= age < _EDGE_MS else now


def _event(events, name, kind):
    if events is _NONE:
        events = []
    events.append((name, kind))
    return events
