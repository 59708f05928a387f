# The shared part of the phones' view, as JSON in one buffer kept from one view to the next.
#
# After every change the shared part is written once and then sent to every phone, so writing it
# must be cheap and must not need a large free piece of a long-running heap, which may have plenty
# free and no piece of a few hundred bytes. It is written by json.dump, in C, straight into a BytesIO
# kept from one view to the next (see ROOM): no Python per value, no str objects (each new str is
# looked up among every interned name), nothing allocated while it is written; a json.dumps per key
# is several times slower.
#
# The buffer is overwritten by the next change, so it is read only while no other view can be
# written: the web server answers one request at a time (transport.BoxServer.answering). The seat's own
# part of each answer is written the same way, into a second, smaller buffer.
import io
import json

from micropython import const

# Room made at boot. A view grows a few bytes at a time (round by round), and a BytesIO that runs
# out grows by 16 bytes a write, reallocating itself each time; so when a view comes within SLACK
# bytes of the room, the buffer is grown at once by the first room's size (one reallocation, in
# place where the heap allows, the old block given back at once: a few times a game). A view much
# smaller than the room (the game is over) moves to a small buffer again (finish()). Not room for
# the largest view from the start: that would hold kilobytes for the whole game that the largest
# tables' heaps need.
ROOM = const(512)
SLACK = const(256)
PIECE = const(512)  # pieces(): the size of each copy made for microdot's path


def _stream(room):
    try:
        return io.BytesIO(room)  # MicroPython: empty, with room for `room` bytes
    except TypeError:
        return io.BytesIO()  # CPython (the page tests' fake box)


def _dump_text(value, stream):
    stream.write(json.dumps(value).encode())


try:  # MicroPython's json.dump writes bytes to a stream; CPython's writes str
    json.dump(0, io.BytesIO())
    _dump = json.dump
except TypeError:
    _dump = _dump_text


class JsonOut:
    """JSON written into one buffer kept for the box's life (see the top of this file)."""

    def __init__(self, room=ROOM):
        self.grow = room
        self.room = room
        self.stream = _stream(room)
        self.length = 0  # bytes written since start(); what lies beyond is left from an older one
        self.last = 0  # the size of the last view written whole (finish())
        self.floor = room  # finish() never shrinks the room below this (reserve())

    def start(self):
        # The last whole view's size, not what a write cut short by a MemoryError left: the next
        # view is about as large, and a room judged by a half-written one grew 16 bytes a write.
        last = self.last
        if self.room - last < SLACK:  # nearly filled (or outgrown): grow by one reallocation
            self._grow_to(last + self.grow)
        self.stream.seek(0)
        self.length = 0

    def reserve(self, room):
        """Room for views of up to `room` bytes, made at once and kept (a game's VIEW_ROOM, when it
        starts): one block taken while the heap is still whole, where growing view by view took
        larger and larger blocks from a heap cut up by the game, and found none (a 2.7 KB block
        with 37 KB free). A MemoryError leaves the room as it was."""
        if room > self.room:
            self._grow_to(room)
        self.floor = room

    def _grow_to(self, room):
        self.stream.seek(room - 1)
        self.stream.write(b" ")  # one reallocation; a MemoryError here leaves the room as it was
        self.room = room

    def finish(self):
        """After writing: when this view is much smaller than the room (a game is over), it moves to
        a buffer of its size, so the heap gets the rest back (not below a reserved room)."""
        self.last = self.length
        if self.room - self.length > 2 * self.grow and self.room > self.floor:
            old = self.stream
            self.room = max(self.length + self.grow, self.floor)
            self.stream = _stream(self.room)
            old.seek(0)
            self.stream.write(old.read(self.length))

    def raw(self, data):
        """Bytes written as they are (e.g. b',"game":')."""
        self.stream.write(data)
        self.length = self.stream.tell()

    def value(self, value):
        _dump(value, self.stream)
        self.length = self.stream.tell()

    def open_dict(self, value):
        """A dict's members without its closing brace: more members follow."""
        self.value(value)
        self.length -= 1
        self.stream.seek(self.length)

    def more_members(self, value):
        """A dict's members after members already written (its opening brace becomes a comma), and
        the closing brace."""
        at = self.length
        self.value(value)
        self.stream.seek(at)
        if self.length - at == 2:  # {}: nothing to add, only the brace that closes
            self.stream.write(b"}")
            self.length = at + 1
        else:
            self.stream.write(b",")
            self.stream.seek(self.length)

    def copy_into(self, view, at, offset, size):
        """Copies `size` bytes from `offset` into view[at:] (a memoryview). Allocates only the
        slice of the view."""
        stream = self.stream
        stream.seek(offset)
        return stream.readinto(view[at:at + size])

    def pieces(self):
        """What was written as a list of bytes of at most PIECE bytes each (microdot's path: no
        large copy)."""
        stream = self.stream
        stream.seek(0)
        out = []
        left = self.length
        while left:
            piece = stream.read(min(left, PIECE))
            out.append(piece)
            left -= len(piece)
        stream.seek(self.length)
        return out
