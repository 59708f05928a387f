# The simulator's OLED as a PNG (GET /sim/oled.png, host_sim.py).
import binascii
import struct


def _chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", binascii.crc32(body) & 0xFFFFFFFF)


def _adler32(data):
    a = 1
    b = 0
    for byte in data:
        a = (a + byte) % 65521
        b = (b + a) % 65521
    return (b << 16) | a


_png = None  # the PNG is rebuilt in this one buffer each time: no 1 KB allocations per frame


def png_1bit(display):
    """The shown frame as a 1-bit greyscale PNG (lit pixels white), stored-deflate (no compressor
    needed; 128x64 is 1 KB of pixels). Answers are sent one at a time (transport.py), so the one buffer
    is never rewritten while it is being sent."""
    global _png
    w = display.width
    h = display.height
    row_bytes = w // 8
    size = (row_bytes + 1) * h
    header = struct.pack(">IIBBBBB", w, h, 1, 0, 0, 0, 0)
    head = b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header)
    # IDAT: length, type, zlib header, one stored block (header + raw rows), adler32, crc
    idat_len = 2 + 5 + size + 4
    total = len(head) + 8 + idat_len + 4 + 12
    if _png is None or len(_png) != total:
        _png = bytearray(total)
    buf = _png
    buf[: len(head)] = head
    at = len(head)
    buf[at : at + 8] = struct.pack(">I", idat_len) + b"IDAT"
    zstart = at + 4
    at += 8
    buf[at : at + 7] = b"\x78\x01\x01" + struct.pack("<HH", size, size ^ 0xFFFF)
    at += 7
    raw = memoryview(buf)[at : at + size]
    for i in range(size):
        raw[i] = 0
    for y in range(h):
        base = y * (row_bytes + 1)  # the first byte of each row is the PNG filter type (0: none)
        for x in range(w):
            if display.lit(x, y):
                raw[base + 1 + (x >> 3)] |= 0x80 >> (x & 7)
    at += size
    buf[at : at + 4] = struct.pack(">I", _adler32(raw))
    at += 4
    crc = binascii.crc32(memoryview(buf)[zstart:at]) & 0xFFFFFFFF
    buf[at : at + 4] = struct.pack(">I", crc)
    at += 4
    buf[at:] = _chunk(b"IEND", b"")
    return buf
