# A countdown that paces the table, a service any game may ask for: the box holds one
# (Box.countdown, started by Box.start_timer, extended by Box.extend_timer, stopped with every new
# game) and every phone's view carries it as "timer" to run its own in step; a game's screen that
# shows it says so (`counts_down`) and the panel redraws it each second and flashes it at zero
# (panel.py). It never forces a move. Token Tide's allocation timer is one.
import time

from micropython import const

EXTEND_MS = const(15000)  # the default extension (Token Tide's rule sheet: "allow a short extension", +15 s)


class Countdown:
    def __init__(self):
        self.total_ms = 0
        self.deadline = None  # tick at which it reaches zero; None when stopped
        self.started = 0

    def start(self, seconds, now):
        self.total_ms = seconds * 1000
        self.started = now
        self.deadline = time.ticks_add(now, self.total_ms) if seconds else None

    def stop(self):
        self.deadline = None
        self.total_ms = 0

    def extend(self, now, ms=EXTEND_MS):
        """Add time; after zero it restarts from now plus the extension."""
        if self.deadline is None:
            return False
        if time.ticks_diff(self.deadline, now) < 0:
            self.deadline = now
        self.deadline = time.ticks_add(self.deadline, ms)
        self.total_ms += ms
        return True

    def running(self):
        return self.deadline is not None

    def left_ms(self, now):
        if self.deadline is None:
            return 0
        left = time.ticks_diff(self.deadline, now)
        return left if left > 0 else 0

    def expired(self, now):
        return self.deadline is not None and time.ticks_diff(self.deadline, now) <= 0

    def describe(self, now):
        """For the phones: enough to run a local countdown in sync with the box."""
        return {
            "on": self.deadline is not None,
            "running": self.deadline is not None and not self.expired(now),
            "left_ms": self.left_ms(now),
            "total_ms": self.total_ms,
            "expired": self.expired(now),
        }
