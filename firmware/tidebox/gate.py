# Counts the TCP connections being served (active, peak). On the Pico W, lwIP itself serves at most
# five at once, so the gate only counts; the host board sets `wait` to emulate that limit: the next
# connection waits for a free slot. (MicroPython's asyncio has no Semaphore; a short sleep-poll is
# plenty here.)
from micropython import const

TCP_LIMIT = const(5)  # lwIP's MEMP_NUM_TCP_PCB default on the Pico W


class ConnectionGate:
    def __init__(self, limit=TCP_LIMIT, wait=False):
        self.limit = limit
        self.wait = wait
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
