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


class Blocks:
    def __init__(self):
        self.blocks = []
        self.buf = bytearray()

    def text(self, text):
        if self.buf and len(self.buf) + len(text) > BLOCK:
            self.blocks.append(bytes(self.buf))
            self.buf = bytearray()
        try:
            self.buf.extend(text)  # MicroPython takes a str's bytes as they are
        except TypeError:
            self.buf.extend(text.encode())  # CPython

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
        if self.buf:
            self.blocks.append(bytes(self.buf))
            self.buf = bytearray()
        return self.blocks
