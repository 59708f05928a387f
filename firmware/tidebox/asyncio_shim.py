# The box's shim over asyncio's internals: writing and closing an accepted socket without the
# stream's coroutines, waiting on a socket as asyncio's streams do, and a leaner wait for the run
# loop. The only module that leans on asyncio's internals; what it relies on:
#   `asyncio.core._io_queue.queue_read(sock)` parks a task until a socket is readable (as asyncio's
#   own streams wait); `core._io_queue` is looked up at each wait, as asyncio.new_event_loop()
#   replaces it; `_io_queue.poller` (select.poll) and `_io_queue.wait_io_event(dt)`, which the run
#   loop calls at every step, shadowed on the instance by a leaner one (lean_waits);
#   `asyncio.StreamReader(sock, extra)` wraps an accepted socket: its `.s` is written to and closed
#   directly (write_now, close_now), as its `write` and `aclose` do, and closed so when there is no
#   memory to await a close; its `readinto` gives None when woken with nothing to read (EAGAIN).
# Checked on: run under MicroPython v1.29.0-preview (9458e3a23f, the unix port the tests run) and
# mainline 3fff03367a (the 32-bit unix port and the shipped firmware); read in the asyncio sources
# (extmod/asyncio/core.py, stream.py) of every release from v1.21.0 (the first with `asyncio` by
# that name) to v1.28.0 and of mainline 1c3c201149: the same names, the same behaviour. A new
# MicroPython is checked against this list before the box uses it.
import asyncio
from asyncio import core


def write_now(stream, data):
    """Writes data straight to an asyncio stream's socket (non-blocking): how much it took (0 also
    where the stream is not asyncio's). An idle poll's answer of 128 bytes goes whole, without the
    two coroutines of the stream's awrite and drain: heap at every poll."""
    if not isinstance(stream, asyncio.StreamReader):
        return 0
    return stream.s.write(data) or 0


def close_now(stream):
    """Closes an asyncio stream's socket as its aclose() does, without that coroutine; False where
    the stream is not asyncio's (its own aclose is awaited then)."""
    if not isinstance(stream, asyncio.StreamReader):
        return False
    stream.s.close()
    return True


def readable(sock):
    """Awaited: wakes when `sock` has something to read, as asyncio's own streams wait (its IO
    queue). The accept loop here and the captive DNS (dns.py) wait on their sockets with it."""
    yield core._io_queue.queue_read(sock)


def io_queue():
    """True when this asyncio has the IO queue `readable` parks a task in."""
    return getattr(core, "_io_queue", None) is not None


# Python functions whose frame needs more than 11 words get it from the heap at every call
# (py/objfun.c, VM_MAX_STATE_ON_STACK; the frame is freed at the return, but gc.threshold counts it).
# asyncio's IOQueue.wait_io_event needs 13, and its run loop calls it at every step, even with
# nothing to wait for: about 100 frames of 80 bytes a second at the idle game menu, which made the
# threshold collect every 0.64 s there (18 ms each on the chip, the presses meeting one in three).
_poller = None  # the IO queue's select.poll, while lean_waits' wait is in place
_wake = None  # ... and asyncio's own wait_io_event (a bound method), which handles what is ready


def _lean_wait(dt):
    """The run loop's wait: dt ms (or until something is ready) on the poller, as asyncio waits,
    in a frame of 8 words on the C stack. When something is ready, asyncio's own method wakes its
    tasks: it polls again at once, and the poll reports what is ready for as long as it is."""
    for _ in _poller.ipoll(dt):
        return _wake(0)


def lean_waits():
    """Puts _lean_wait in place of asyncio's wait_io_event for the event loop asyncio runs now
    (asyncio.new_event_loop() makes a new one, which waits asyncio's way). Where asyncio has no IO
    queue of this shape, nothing changes."""
    global _poller, _wake
    queue = getattr(core, "_io_queue", None)
    if queue is None or not hasattr(queue, "poller") or not hasattr(queue, "wait_io_event"):
        return False
    if queue.wait_io_event is not _lean_wait:
        _poller = queue.poller
        _wake = queue.wait_io_event
        queue.wait_io_event = _lean_wait
    return True
