# Draws a list of operations on a 128x64 MONO_VLSB framebuf.FrameBuffer and prints the frame after
# each, as hex (one JSON list). Runs under MicroPython (its framebuf) and under CPython (the Pi's
# boards/pi_compat.py framebuf on adafruit_framebuf), so the two can be compared operation by
# operation. stdin: a JSON list of [method, args...]; "blit" takes [x, y, key] and blits a 21x13
# source drawn by its own ops (the "source" list in the first entry: {"source": [...]}).
import binascii
import json
import sys

import framebuf

job = json.loads(sys.stdin.read())
buf = bytearray(128 * 64 // 8)
fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
src = framebuf.FrameBuffer(bytearray(21 * 16 // 8), 21, 13, framebuf.MONO_VLSB)
for op in job["source"]:
    getattr(src, op[0])(*op[1:])
frames = []
for op in job["ops"]:
    if op[0] == "blit":
        fb.blit(src, *op[1:])
    else:
        getattr(fb, op[0])(*op[1:])
    frames.append(binascii.hexlify(buf).decode())
print(json.dumps(frames))
