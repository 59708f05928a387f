# What a browser is told of the box: every view of it, apart from the box's actions (box.py).
from tidebox import memory


def public_view(box):
    """The part of every phone's view that is the same for all seats (a viewjson.JsonOut: JSON
    with the closing brace left open). Written once per version and shared: eight phones polling
    at once then cost one copy of it, not eight (a full 8-player view is ~3.5 KB of JSON)."""
    shared = box.shared
    if box.shared_version != box.version:
        seats = [{"name": n, "present": p} for n, p in zip(box.seats.names, box.seats.present)]
        shared.start()
        shared.open_dict({"box": box.phase, "ssid": box.ssid(), "seats": seats, "kind": box.game_id,
                          "seq": box.seq})
        if box.state:
            shared.raw(b',"game":')
            shared.open_dict(box.rules.public_view(box.state))
        shared.finish()
        box.shared_version = box.version
    return shared


def view_chunks(box, seat):
    """One phone's whole view (seat None: not joined), as a list of JSON chunks. Never contains
    another player's secrets: only `seat`'s own private view is added to the shared public part.
    A list, not a generator, so that the answer can say its length before it is sent."""
    try:
        chunks = public_view(box).pieces()
        chunks = chunks + private_part(box, seat).pieces()
    except MemoryError:
        box.shortages.miss(memory.VIEWS)  # the phone is told to try again
        raise
    box.shortages.fine(memory.VIEWS)
    return chunks


def private_part(box, seat):
    """What follows public_view() in one phone's view (seat None: not joined), as a
    viewjson.JsonOut, valid until the next call: the seat's own private view, and what changes
    without a new shared part (timer, shown). The web server writes it after the shared part
    (transport.py, BoxServer.answer_view)."""
    out = box.own
    out.start()
    if box.state:
        if seat is None:
            out.raw(b"}")
        else:
            out.raw(b',"you":')
            out.value(seat)
            out.more_members(box.rules.private_view(box.state, seat))  # its keys go into "game"
    else:
        out.raw(b',"game":null')
    out.raw(b',"v":')
    out.value(box.version)
    out.raw(b',"you":')
    out.value(None if seat is None else {"seat": seat, "name": box.seats.names[seat]})
    out.raw(b',"timer":')
    out.value(box.countdown.describe(box.now()))
    out.raw(b',"shown":')
    out.value(box.shown)
    out.raw(b"}")
    out.finish()
    return out
