# The phones' view written as JSON into a few blocks of at most BLOCK bytes.
#
# The shared part of the view is cached between changes and sent to every phone, so it should be few
# objects (each small one costs a header and a rounded-up heap block) and no large one (a
# long-running heap may have no free 1.5 KB in one piece). Containers are split into their keys and
# elements `depth` levels deep, each dumped by json.dumps (in C: walking a whole value in Python took
# 40 times the heap), and written straight into the current block: no list of pieces is ever held.
import json

from micropython import const

BLOCK = const(512)
# Where a block is put together before it is copied out at its final size: one buffer for the life
# of the box, so building a view never grows (reallocates) a buffer piece by piece, which left
# holes that a heap just restored from a save had too few of (a 508-byte block then failed).
_SCRATCH = bytearray(BLOCK)


def _utf8(text):
    try:
        return memoryview(text)  # MicroPython: a str's UTF-8 bytes where they are
    except TypeError:
        return text.encode()  # CPython


class Blocks:
    def __init__(self):
        self.blocks = []
        self.used = 0

    def text(self, text):
        data = _utf8(text)
        size = len(data)
        if self.used and self.used + size > BLOCK:
            self.flush()
        if size > BLOCK:
            self.blocks.append(bytes(data))  # one value larger than a block: as it is
        else:
            _SCRATCH[self.used:self.used + size] = data
            self.used += size

    def flush(self):
        if self.used:
            self.blocks.append(bytes(memoryview(_SCRATCH)[:self.used]))
            self.used = 0

    def value(self, value, depth=2):
        """The JSON of `value`, split `depth` levels deep."""
        if depth and isinstance(value, dict) and value:
            self.members(value, depth)
            self.text("}")
        elif depth and isinstance(value, list) and value and isinstance(value[0], (dict, list)):
            lead = "["
            for element in value:
                self.text(lead)
                self.value(element, depth - 1)
                lead = ","
            self.text("]")
        else:
            self.text(json.dumps(value))

    def members(self, value, depth=2):
        """A dict's JSON without its closing brace (more keys may follow)."""
        lead = "{"
        for key in value:
            self.text(lead + json.dumps(key) + ":")
            self.value(value[key], depth - 1)
            lead = ","

    def done(self):
        self.flush()
        return self.blocks
