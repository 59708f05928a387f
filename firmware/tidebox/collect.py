# When the heap is collected: while the box is idle, between requests, not in the middle of one.
#
# MicroPython collects when an allocation finds no room, or with gc.threshold after a set amount: in
# the middle of whatever allocates, most often a phone's request, which then waits for the whole
# collection (9-17 ms on the RP2040, eight players in the game). Here the panel loop asks for a
# collection when no connection is being served and enough requests were served since the last one
# (an idle poll allocates only its coroutine frames, so that is every few seconds with eight phones);
# the threshold stays as the last resort, for a burst that allocates a lot before the box is idle.
import gc

from micropython import const

# What a request costs in heap, in units of an idle poll's (its coroutine frames; on the board also
# the network stack's objects): a full view answered before microdot about four (its seat's own
# chunk; after a change the shared part is rebuilt once for all phones); every other request goes
# through microdot, which allocates far more, and makes the next idle moment collect.
_VIEW_REQUEST = const(4)
_OTHER_REQUEST = const(16)
_COLLECT_AT = const(8)  # units served since the last collection that make an idle moment collect
# The last resort: a collection after 1/8 of the free heap is allocated (above what eight idle polls
# take). A larger share lets the heap fragment: freed blocks must be reused before long-lived ones
# land between them.
_LAST_RESORT = const(8)


class Collector:
    def __init__(self, gate, server):
        self.gate = gate
        self.server = server  # the web server (api.py): counts the requests it served (served, idle_served,
        self.served = 0  # view_served)
        self.idle_served = 0
        self.view_served = 0

    def start(self):
        """Collect now, then set the last-resort threshold from what is free."""
        gc.collect()
        gc.threshold(gc.mem_free() // _LAST_RESORT)
        self._note()

    def _note(self):
        self.served = self.server.served
        self.idle_served = self.server.idle_served
        self.view_served = self.server.view_served

    def press_over(self):
        """The reader's press has been answered and let go: collect now, so that the threshold's
        collection (what the reader's screens allocate is not counted above) does not fall in the
        drawing of the next press's answer (10-20 ms more on the chip)."""
        gc.collect()
        self._note()

    def tick(self):
        """Called every pass of the panel loop: collects when the box is idle and due. Allocates
        nothing when it does not collect. Returns True when it collected."""
        server = self.server
        served = server.served - self.served
        if served < _COLLECT_AT and served == server.idle_served - self.idle_served:
            return False  # the cheapest test first: fewer than enough requests, all idle polls
        if self.gate.active or server.accepted:
            return False  # a phone is being served: later
        idle = server.idle_served - self.idle_served
        views = server.view_served - self.view_served
        if idle + views * _VIEW_REQUEST + (served - idle - views) * _OTHER_REQUEST < _COLLECT_AT:
            return False
        gc.collect()
        self._note()
        return True
