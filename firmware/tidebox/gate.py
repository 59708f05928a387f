# Counts the TCP connections being read and answered (active, peak) and says how many more may be
# phones waiting for a change (holds; a waiting request is off the gate until it is answered). Where
# `wait` is set the next connection waits for a free slot: lwIP's accept queue keeps it meanwhile
# (the host board emulates that). (MicroPython's asyncio has no Semaphore; a short sleep-poll is
# plenty here.)
from micropython import const

TCP_LIMIT = const(5)  # lwIP's MEMP_NUM_TCP_PCB default, stock MicroPython on the Pico W: read at once
# Tidebox's own firmware sets MEMP_NUM_TCP_PCB to 16 (boards/PICO_W_ROMFS/mpconfigboard.h): 5 read at
# once, up to 10 waiting for a change (8 phones, the table screen and one to spare), and one more
# for lwIP to close.
SHIPPED_HOLDS = const(10)
HOLD_MS = const(20000)  # a waiting request is answered "unchanged" after this long (browsers wait 30 s+)
SHIPPED_MARK = "(Tidebox)"  # in the board name (sys.implementation._machine) on Tidebox's firmware


def shipped_gate(limit=TCP_LIMIT):
    """The gate of a box on Tidebox's own firmware (or emulating it: the host board; the Pi reads more
    at once)."""
    return ConnectionGate(limit, True, SHIPPED_HOLDS)


def pico_gate(machine):
    """A Pico's gate, told at boot by the board's name: on Tidebox's firmware phones wait for a
    change; on stock MicroPython (the bundle as .mpy files) lwIP has its 5 and they poll."""
    return shipped_gate() if SHIPPED_MARK in machine else ConnectionGate()


class ConnectionGate:
    def __init__(self, limit=TCP_LIMIT, wait=False, holds=0, hold_ms=HOLD_MS):
        self.limit = limit
        self.wait = wait
        self.holds = holds  # requests that may wait for a change at once (0: every phone polls)
        self.hold_ms = hold_ms  # ... each answered "unchanged" after this long at most
        self.active = 0
        self.peak = 0
        self.waited = 0  # connections that had to wait for a slot

    def full(self):
        """Would the next connection wait for a free one (only where the gate waits)?"""
        return self.wait and self.active >= self.limit

    def enter(self):
        """A connection is served from now (sync: where it need not wait, no coroutine, and so no
        heap, is needed for it: see full)."""
        self.active += 1
        if self.active > self.peak:
            self.peak = self.active

    async def __aenter__(self):
        if self.full():
            import asyncio

            self.waited += 1
            while self.active >= self.limit:
                await asyncio.sleep_ms(5)
        self.enter()
        return self

    async def __aexit__(self, *exc):
        self.leave()

    def leave(self):
        """A served connection is done (sync: no coroutine, so no heap, is needed for it)."""
        self.active -= 1
