# Feeds a script of raw button levels to the firmware's debouncer; returns the events with times.
from tidebox.buttons import Buttons


def run(samples, long_presses="ABC"):
    """samples: [[ms, "A"|"" (held buttons as letters)], ...] in time order; `long_presses`: the
    buttons the screen tells apart by how long they are held (the others act once down)."""
    buttons = Buttons(("A", "B", "C"))
    buttons.long_presses = long_presses
    events = []
    for now, held in samples:
        for name, kind in buttons.poll(("A" in held, "B" in held, "C" in held), now):
            events.append([now, name, kind])
    return events


def next_reads(samples):
    """After each read of `samples` (as run's), how long the panel loop waits for its next read
    (Buttons.next_read_ms), or None when no button is busy."""
    buttons = Buttons(("A", "B", "C"))
    waits = []
    for now, held in samples:
        buttons.poll(("A" in held, "B" in held, "C" in held), now)
        waits.append(buttons.next_read_ms(now) if buttons.busy else None)
    return waits


def host_presses(presses):
    """The host board's buttons (boards/host.py, a held clock) read by the firmware's debouncer, as
    the panel loop reads them every 10 ms: each (button, ms) of `presses` is pressed the moment the
    one before it has been handled, as boxrig.press does. Returns the events with board times."""
    import board

    clock = board.Clock()
    clock.hold(True)
    pins = board.Buttons(clock)
    buttons = Buttons(("A", "B", "C"))
    buttons.long_presses = "ABC"
    events = []
    for name, ms in presses:
        pins.press(name, ms)
        handled = len(events)
        for _ in range(500):
            now = clock.ticks_ms()
            for button, kind in buttons.poll(pins.read(), now):
                events.append([now, button, kind])
            if len(events) > handled:
                break
    for _ in range(100):  # the last release settles
        now = clock.ticks_ms()
        for button, kind in buttons.poll(pins.read(), now):
            events.append([now, button, kind])
    return events
