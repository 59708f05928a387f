# QR Code encoder for the join screen: byte mode, error correction level L or M, versions 1..10,
# the data mask chosen from all 8 by the standard penalty score.
#
# The algorithm is that of Project Nayuki's QR Code generator library
# (https://www.nayuki.io/page/qr-code-generator-library, Copyright (c) Project Nayuki, MIT License),
# rewritten compactly for MicroPython: the matrix is one bytearray (a byte per module while it is
# built, one bit per module once finished), Reed-Solomon uses log/antilog tables, and the penalty
# of a mask stops being counted once it cannot beat the best so far (same choice, less work).
# Its mask choice is Nayuki's: penalties are scored with the format bits drawn and with the
# finder-like pattern rule counting the light border around the symbol.
#
# Sizes: version v has 4v + 17 modules a side; capacity(v, ecl) gives the bytes it holds. On the
# 64-px-high OLED a version 3 code at scale 2 is 58 px, leaving 3 px (1.5 modules) of quiet zone
# above and below: zbar reads it with 1. A WPA Wi-Fi text for a 12-character SSID and password is
# 42 bytes, exactly version 3 at level M (53 at L); version 4 (66 px at scale 2) no longer fits.

try:
    from micropython import const
except ImportError:  # CPython (host tools)

    def const(x):
        return x


_MAX_VERSION = const(10)
_NO_SCORE = const(0x3FFFFFFF)  # above any penalty; still a small int on a 32-bit port
_FUNC = const(2)  # bit 1 of a module while building: part of a function pattern (bit 0: dark)

# Per ECC level: format-bits code, then per version 1..10 the error correction codewords per block
# and the number of blocks (ISO/IEC 18004 table 9).
_ECL = {
    "L": (1, b"\x07\x0a\x0f\x14\x1a\x12\x14\x18\x1e\x12", b"\x01\x01\x01\x01\x01\x02\x02\x02\x02\x04"),
    "M": (0, b"\x0a\x10\x1a\x12\x18\x10\x12\x16\x16\x1a", b"\x01\x01\x01\x02\x02\x04\x04\x04\x05\x05"),
}

# The 8 data masks as functions of (x, y); each depends on x only through x % 6.
_MASKS = (
    lambda x, y: (x + y) % 2 == 0,
    lambda x, y: y % 2 == 0,
    lambda x, y: x % 3 == 0,
    lambda x, y: (x + y) % 3 == 0,
    lambda x, y: (x // 3 + y // 2) % 2 == 0,
    lambda x, y: x * y % 2 + x * y % 3 == 0,
    lambda x, y: (x * y % 2 + x * y % 3) % 2 == 0,
    lambda x, y: ((x + y) % 2 + x * y % 3) % 2 == 0,
)

# GF(2^8) modulo x^8 + x^4 + x^3 + x^2 + 1 (0x11D): antilog and log tables.
_EXP = bytearray(256)
_LOG = bytearray(256)


def _init_gf():
    v = 1
    for i in range(255):
        _EXP[i] = v
        _LOG[v] = i
        v <<= 1
        if v & 0x100:
            v ^= 0x11D
    _EXP[255] = 1


_init_gf()


def _mul(a, b):
    if a == 0 or b == 0:
        return 0
    return _EXP[(_LOG[a] + _LOG[b]) % 255]


class QR:
    """A finished code: `size` modules per side, `dark(x, y)`; the matrix is `bits`, row-major,
    one bit per module, most significant bit first."""

    def __init__(self, version, ecl, mask, bits):
        self.version = version
        self.ecl = ecl
        self.mask = mask
        self.size = version * 4 + 17
        self.bits = bits

    def dark(self, x, y):
        i = y * self.size + x
        return (self.bits[i >> 3] >> (7 - (i & 7))) & 1 == 1


def _raw_modules(ver):
    """Modules left for data and ECC bits once the function patterns are placed."""
    n = (16 * ver + 128) * ver + 64
    if ver >= 2:
        a = ver // 7 + 2
        n -= (25 * a - 10) * a - 55
        if ver >= 7:
            n -= 36
    return n


def capacity(ver, ecl="M"):
    """Bytes of text a version/ECL holds in byte mode."""
    _, eccs, blocks = _ECL[ecl]
    cap = (_raw_modules(ver) >> 3) - eccs[ver - 1] * blocks[ver - 1]
    return (cap * 8 - 12 - (8 if ver >= 10 else 0)) >> 3


def encode(data, ecl="M", mask=-1):
    """Encode str (as UTF-8) or bytes in the smallest version 1..10 that holds it at this ECC level
    ("L" or "M"). mask -1 picks the best of the 8 masks; 0..7 forces one. Raises ValueError if the
    data does not fit version 10."""
    if isinstance(data, str):
        data = data.encode()
    ecl = ecl.upper()
    if ecl not in _ECL:
        raise ValueError("ECC level must be L or M")
    fmt, eccs, blocks = _ECL[ecl]
    n = len(data)
    ver = 1
    while capacity(ver, ecl) < n:
        ver += 1
        if ver > _MAX_VERSION:
            raise ValueError("too long for a QR code of version 10")
    raw = _raw_modules(ver) >> 3
    nb = blocks[ver - 1]
    ecc = eccs[ver - 1]
    ndata = raw - nb * ecc

    # Data codewords: mode 0100, the count (8 or 16 bits), the bytes, a 4-bit terminator; the
    # header is 4 bits off a byte boundary, which the terminator restores. Then 0xEC/0x11 padding.
    cw = bytearray(ndata)
    if ver >= 10:
        cw[0] = 0x40 | n >> 12
        cw[1] = (n >> 4) & 0xFF
        i = 2
    else:
        cw[0] = 0x40 | n >> 4
        i = 1
    nib = n & 0xF
    for b in data:
        cw[i] = (nib << 4) | (b >> 4)
        nib = b & 0xF
        i += 1
    cw[i] = nib << 4
    i += 1
    pad = 0xEC
    while i < ndata:
        cw[i] = pad
        pad ^= 0xEC ^ 0x11
        i += 1

    # Split into blocks (the last `nb - short` blocks one data codeword longer), add each block's
    # ECC, interleave: data column by column, then ECC column by column.
    short = nb - raw % nb
    dlen = raw // nb - ecc
    div = _rs_divisor(ecc)
    out = bytearray(raw)
    start = 0
    for j in range(nb):
        blen = dlen + (1 if j >= short else 0)
        for t in range(blen):
            out[t * nb + j if t < dlen else dlen * nb + j - short] = cw[start + t]
        rem = _rs_remainder(cw, start, start + blen, div)
        for t in range(ecc):
            out[ndata + t * nb + j] = rem[t]
        start += blen
    del cw

    s = ver * 4 + 17
    m = bytearray(s * s)
    _function_patterns(m, s, ver)
    _place(m, s, out)
    del out

    if mask < 0:
        p = bytearray(s * s)
        best = _NO_SCORE
        for k in range(8):
            _masked(m, p, s, k)
            _format(p, s, fmt << 3 | k, 0)
            score = _penalty(p, s, best)
            if score < best:
                best = score
                mask = k
        del p
    _masked(m, m, s, mask)
    _format(m, s, fmt << 3 | mask, 0)
    bits = bytearray((s * s + 7) >> 3)
    for i in range(s * s):
        if m[i] & 1:
            bits[i >> 3] |= 0x80 >> (i & 7)
    return QR(ver, ecl, mask, bits)


def _rs_divisor(degree):
    """Coefficients (highest power first, leading 1 omitted) of prod (x - 2^i), i < degree."""
    div = bytearray(degree)
    div[degree - 1] = 1
    root = 1
    for _ in range(degree):
        for j in range(degree):
            div[j] = _mul(div[j], root)
            if j + 1 < degree:
                div[j] ^= div[j + 1]
        root = _mul(root, 2)
    return div


def _rs_remainder(data, start, end, div):
    n = len(div)
    rem = bytearray(n)
    for k in range(start, end):
        f = data[k] ^ rem[0]
        lf = _LOG[f]
        for i in range(n):
            c = div[i]
            v = _EXP[(_LOG[c] + lf) % 255] if f and c else 0
            rem[i] = (rem[i + 1] if i + 1 < n else 0) ^ v
    return rem


def _set(m, s, x, y, dark):
    m[y * s + x] = _FUNC | (1 if dark else 0)


def _function_patterns(m, s, ver):
    for i in range(s):  # timing patterns
        _set(m, s, 6, i, i % 2 == 0)
        _set(m, s, i, 6, i % 2 == 0)
    for cx, cy in ((3, 3), (s - 4, 3), (3, s - 4)):  # finders with their separators
        for dy in range(-4, 5):
            for dx in range(-4, 5):
                x = cx + dx
                y = cy + dy
                if 0 <= x < s and 0 <= y < s:
                    d = max(abs(dx), abs(dy))
                    _set(m, s, x, y, d != 2 and d != 4)
    if ver >= 2:  # alignment patterns, except where they would overlap the finders
        a = ver // 7 + 2
        step = (ver * 8 + a * 3 + 5) // (a * 4 - 4) * 2
        pos = [6] + [s - 7 - i * step for i in range(a - 2, -1, -1)]
        for i in range(a):
            for j in range(a):
                if (i == 0 and j == 0) or (i == 0 and j == a - 1) or (i == a - 1 and j == 0):
                    continue
                for dy in range(-2, 3):
                    for dx in range(-2, 3):
                        _set(m, s, pos[i] + dx, pos[j] + dy, max(abs(dx), abs(dy)) != 1)
    _format(m, s, 0, _FUNC)  # reserve the format areas; the real bits come with the mask
    if ver >= 7:
        rem = ver
        for _ in range(12):
            rem = (rem << 1) ^ ((rem >> 11) * 0x1F25)
        bits = ver << 12 | rem
        for i in range(18):
            a = s - 11 + i % 3
            b = i // 3
            bit = (bits >> i) & 1
            _set(m, s, a, b, bit)
            _set(m, s, b, a, bit)


def _format(m, s, data, flag):
    """Draw the 15 format bits for data = ecl bits << 3 | mask, both copies; `flag` is OR-ed in."""
    rem = data
    for _ in range(10):
        rem = (rem << 1) ^ ((rem >> 9) * 0x537)
    bits = (data << 10 | rem) ^ 0x5412
    for i in range(15):
        bit = flag | ((bits >> i) & 1)
        # first copy, around the top-left finder
        if i < 6:
            m[i * s + 8] = bit
        elif i < 8:
            m[(i + 1) * s + 8] = bit
        elif i == 8:
            m[8 * s + 7] = bit
        else:
            m[8 * s + 14 - i] = bit
        # second copy, split between the top-right and bottom-left finders
        if i < 8:
            m[8 * s + s - 1 - i] = bit
        else:
            m[(s - 15 + i) * s + 8] = bit
    m[(s - 8) * s + 8] = flag | 1  # the dark module


def _place(m, s, data):
    """Data bits in the zigzag order: column pairs from the right, alternately up and down, skipping
    function modules and the vertical timing column."""
    i = 0
    nbits = len(data) * 8
    right = s - 1
    while right >= 1:
        if right == 6:
            right = 5
        up = (right + 1) & 2 == 0
        for vert in range(s):
            k = (s - 1 - vert if up else vert) * s + right
            for _ in range(2):
                if not m[k] & _FUNC and i < nbits:
                    m[k] = (data[i >> 3] >> (7 - (i & 7))) & 1
                    i += 1
                k -= 1
        right -= 2


def _masked(m, p, s, k):
    """p = m with mask k applied to the non-function modules, one 0/1 byte per module
    (p may be m)."""
    f = _MASKS[k]
    row = bytearray(6)
    i = 0
    for y in range(s):
        for t in range(6):
            row[t] = 1 if f(t, y) else 0
        t = 0
        for _ in range(s):
            v = m[i]
            p[i] = v & 1 if v & _FUNC else v ^ row[t]
            i += 1
            t = t + 1 if t < 5 else 0


def _penalty(p, s, best):
    """The standard penalty (N1 runs, N2 2x2 blocks, N3 finder-like patterns, N4 balance) of a
    0/1 matrix, as Nayuki scores it; returns early with a score >= best once it cannot win."""
    score = 0
    h = [0] * 7  # the last 7 run lengths, newest first
    for a in range(2 * s):
        if a < s:  # row a
            i = a * s
            step = 1
        else:  # column a - s
            i = a - s
            step = s
        for t in range(7):
            h[t] = 0
        color = 0
        run = 0
        for _ in range(s):
            c = p[i]
            i += step
            if c == color:
                run += 1
                if run == 5:
                    score += 3
                elif run > 5:
                    score += 1
            else:
                _history(h, run, s)
                if not color:
                    score += _finders(h) * 40
                color = c
                run = 1
        if color:  # end the line: the symbol's light border closes the last run
            _history(h, run, s)
            run = 0
        _history(h, run + s, s)
        score += _finders(h) * 40
        if score >= best:
            return score
    for y in range(s - 1):
        i = y * s
        for _ in range(s - 1):
            c = p[i]
            if c == p[i + 1] and c == p[i + s] and c == p[i + s + 1]:
                score += 3
            i += 1
    total = s * s
    score += ((abs(sum(p) * 20 - total * 10) + total - 1) // total - 1) * 10
    return score


def _history(h, run, s):
    if h[0] == 0:
        run += s  # the light border before the first run
    h.pop()
    h.insert(0, run)


def _finders(h):
    """How many 1:1:3:1:1 patterns with 4 light modules on one side end at this light run."""
    n = h[1]
    if n == 0 or h[2] != n or h[4] != n or h[5] != n or h[3] != 3 * n:
        return 0
    return (1 if h[0] >= 4 * n and h[6] >= n else 0) + (1 if h[6] >= 4 * n and h[0] >= n else 0)


def draw(fb, qr, x, y, scale=2, quiet=2, light=1):
    """Draw qr on a framebuf-like fb (fill_rect) at (x, y): a lit square with a `quiet`-module
    light border, dark modules as unlit pixels (dark on light, as scanners want). Returns the
    side of the square in pixels, (size + 2 * quiet) * scale."""
    s = qr.size
    side = (s + 2 * quiet) * scale
    fb.fill_rect(x, y, side, side, light)
    x0 = x + quiet * scale
    py = y + quiet * scale
    bits = qr.bits
    dark = 1 - light
    i = 0
    for _ in range(s):
        mx = 0
        while mx < s:
            if (bits[i >> 3] >> (7 - (i & 7))) & 1:
                start = mx
                while mx < s and (bits[i >> 3] >> (7 - (i & 7))) & 1:
                    mx += 1
                    i += 1
                fb.fill_rect(x0 + start * scale, py, (mx - start) * scale, scale, dark)
            else:
                mx += 1
                i += 1
        py += scale
    return side


def wifi_text(ssid, password):
    """The Wi-Fi network QR payload phones understand (WPA/WPA2; an empty password gives an open
    network), with \\ ; , " : escaped by a backslash."""
    if password:
        return "WIFI:T:WPA;S:%s;P:%s;;" % (_escape(ssid), _escape(password))
    return "WIFI:T:nopass;S:%s;;" % _escape(ssid)


def _escape(text):
    out = ""
    for ch in text:
        if ch in '\\;,":':
            out += "\\"
        out += ch
    return out
