# Speed and memory of tidebox.qr under MicroPython, one JSON line per case:
# stdin: [[text, ecl], ...]; stdout: {"text_len", "ecl", "version", "ms": mean encode time,
# "alloc": bytes allocated by one encode with the GC off (an upper bound on its peak heap use),
# "kept": bytes still held by the finished code object, "draw_ms": one draw at scale 2}.
import gc
import json
import sys
import time

import framebuf
from tidebox import qr

fb = framebuf.FrameBuffer(bytearray(128 * 8), 128, 64, framebuf.MONO_VLSB)
for text, ecl in json.loads(sys.stdin.read()):
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    code = qr.encode(text, ecl)
    alloc = gc.mem_alloc() - before
    gc.enable()
    gc.collect()
    kept = gc.mem_alloc() - before
    runs = 5
    t0 = time.ticks_us()
    for _ in range(runs):
        qr.encode(text, ecl)
    ms = time.ticks_diff(time.ticks_us(), t0) / runs / 1000
    t0 = time.ticks_us()
    qr.draw(fb, code, 0, 0, 2, 1)
    draw_ms = time.ticks_diff(time.ticks_us(), t0) / 1000
    print(json.dumps({"text_len": len(text), "ecl": ecl, "version": code.version, "ms": ms,
                      "alloc": alloc, "kept": kept, "draw_ms": draw_ms}))
    code = None
