# Feeds a script of raw button levels to the firmware's debouncer; returns the events with times.
from tidebox.buttons import Buttons


def run(samples):
    """samples: [[ms, "A"|"" (held buttons as letters)], ...] in time order."""
    buttons = Buttons(("A", "B", "C"))
    events = []
    for now, held in samples:
        for name, kind in buttons.poll(("A" in held, "B" in held, "C" in held), now):
            events.append([now, name, kind])
    return events
