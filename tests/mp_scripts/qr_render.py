# Draws QR codes with tidebox.qr on a real framebuf.FrameBuffer (MONO_VLSB, 128x64 by default, like
# the SSD1306) for the host tests.
# stdin: {"width": 128, "height": 64, "screens": [{"fill": 0, "items": [item, ...]}, ...]}, an item
# being {"text": str or "hex": bytes as hex, "ecl": "M", "mask": -1, "x": 0, "y": 0, "scale": 2,
# "quiet": 2, "draw": true}; each screen starts all unlit (or all lit with "fill": 1).
# stdout: one JSON line per screen: {"codes": [{"version", "ecl", "mask", "size",
# "bits": hex of the packed matrix, "side": pixels drawn or null} or {"error", "msg"}, ...],
# "fb": hex of the frame buffer}. Printed screen by screen, so the output never sits whole in the heap.
import gc
import json
import sys

import framebuf
from tidebox import qr


def hexlify(data):
    return "".join("%02x" % b for b in data)


request = json.loads(sys.stdin.read())
width = request.get("width", 128)
height = request.get("height", 64)
buf = bytearray(width * ((height + 7) // 8))
fb = framebuf.FrameBuffer(buf, width, height, framebuf.MONO_VLSB)
for screen in request["screens"]:
    fb.fill(screen.get("fill", 0))
    codes = []
    for item in screen["items"]:
        data = item["text"] if "text" in item else bytes.fromhex(item["hex"])
        try:
            code = qr.encode(data, item.get("ecl", "M"), item.get("mask", -1))
        except ValueError as e:
            codes.append({"error": "ValueError", "msg": str(e)})
            continue
        side = None
        if item.get("draw", True):
            side = qr.draw(fb, code, item.get("x", 0), item.get("y", 0), item.get("scale", 2),
                           item.get("quiet", 2))
        codes.append({"version": code.version, "ecl": code.ecl, "mask": code.mask, "size": code.size,
                      "bits": hexlify(code.bits), "side": side})
        code = None
    print(json.dumps({"codes": codes, "fb": hexlify(buf)}))
    codes = None
    gc.collect()
