# What the firmware takes from MicroPython and CPython lacks, for the box under CPython 3.11+ (the
# Raspberry Pi board, and the tests that run the host board under CPython). CPython only: the Pico
# never imports this, so nothing here costs the Pico anything, and firmware/ stays as it is.
#
# install() registers, before the firmware is imported:
#   micropython          const(), and native/viper/asm_thumb as no-op decorators
#   time                 ticks_ms, ticks_us, ticks_cpu, ticks_add, ticks_diff (wrapping at 2**30, as
#                        MicroPython's ports do), sleep_ms, sleep_us
#   asyncio              sleep_ms, and an empty asyncio.core (no _io_queue: the captive DNS then
#                        polls its socket, as it does where MicroPython's IO queue is unusable)
#   gc                   mem_free (the memory the kernel can still give: MemAvailable), mem_alloc (this
#                        process's resident memory), threshold (kept, not used: CPython collects
#                        by generations, not by bytes allocated)
#   sys.print_exception  traceback's print_exception, to stdout by default as in MicroPython
#   framebuf             FrameBuffer on top of adafruit_framebuf with MicroPython's drawing (below)
#
# Drawing: adafruit_framebuf (the FrameBuffer adafruit_ssd1306 subclasses) differs from MicroPython's
# framebuf where the firmware would see it. Drawing, the mixin here, gives both the framebuf module's
# FrameBuffer and the Pi's panel MicroPython's behaviour, pixel for pixel (extmod/modframebuf.c):
#   text()   MicroPython's 8x8 font (font_petme128_8x8.bin, drawn by adafruit_framebuf's BitmapFont),
#            8 px a character, every byte of the UTF-8 text below 32 or above 127 drawn as 127, the
#            text ending at a NUL, clipped pixel by pixel; adafruit's draws a 5x8 font 6 px apart and
#            leaves out a character that is partly off the panel
#   rect()   an outline is four clipped lines, as MicroPython draws it (adafruit's clips the
#            rectangle first and draws its edge along the panel's border); rect(..., True) fills
#   line()   MicroPython's Bresenham, which lights other pixels than adafruit's on some slopes
#   blit()   missing from adafruit_framebuf (it raises NotImplementedError): key and palette as in
#            MicroPython
#   scroll() MicroPython's (nothing when the step is the whole width or height)
# fill, fill_rect, pixel, hline and vline are adafruit_framebuf's own, which clip as MicroPython's do.
# ellipse and poly are not provided: the firmware draws neither.
import asyncio
import gc
import os
import sys
import time
import traceback
import types

import adafruit_framebuf

FONT_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "font_petme128_8x8.bin")
_TICKS_PERIOD = 1 << 30  # MicroPython's ticks wrap here (MICROPY_PY_TIME_TICKS_PERIOD)
_TICKS_MAX = _TICKS_PERIOD - 1
_TICKS_HALF = _TICKS_PERIOD // 2
_FIRST_CHAR = 32  # MicroPython's font has codes 32..127; any other byte is drawn as 127
_LAST_CHAR = 127
_CHAR = 8


# ---------------------------------------------------------------- time


def ticks_ms():
    return (time.monotonic_ns() // 1_000_000) & _TICKS_MAX


def ticks_us():
    return (time.monotonic_ns() // 1000) & _TICKS_MAX


def ticks_add(ticks, delta):
    return (ticks + delta) & _TICKS_MAX


def ticks_diff(end, start):
    """end - start in ticks, signed, correct across the wrap (as MicroPython's)."""
    return ((end - start + _TICKS_HALF) & _TICKS_MAX) - _TICKS_HALF


def sleep_ms(ms):
    if ms > 0:
        time.sleep(ms / 1000)


def sleep_us(us):
    if us > 0:
        time.sleep(us / 1_000_000)


def async_sleep_ms(ms):
    return asyncio.sleep(max(ms, 0) / 1000)


# ---------------------------------------------------------------- gc and sys


def mem_free():
    """Bytes the kernel can still give this box (MemAvailable); 0 where /proc cannot tell."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return 0


def mem_alloc():
    """This process's resident memory in bytes (CPython has no heap of a fixed size)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


_threshold = [-1]


def threshold(amount=None):
    if amount is None:
        return _threshold[0]
    _threshold[0] = amount
    return None


def print_exception(exc, file=None):
    traceback.print_exception(type(exc), exc, exc.__traceback__, file=file or sys.stdout)


# ---------------------------------------------------------------- framebuf


class _Font:
    """MicroPython's 8x8 font, read by adafruit_framebuf's BitmapFont (opened once, kept open)."""

    font = None

    @classmethod
    def get(cls):
        if cls.font is None:
            cls.font = adafruit_framebuf.BitmapFont(FONT_FILE)
        return cls.font


class Drawing:
    """MicroPython's framebuf drawing for an adafruit_framebuf.FrameBuffer (see the top)."""

    def text(self, s, x, y, c=1):
        data = s.encode() if isinstance(s, str) else bytes(s)
        end = data.find(b"\x00")
        if end >= 0:
            data = data[:end]  # MicroPython reads the text as a C string
        font = _Font.get()
        width = self.width
        height = self.height
        if y <= -_CHAR or y >= height:
            return
        for code in data:
            if code < _FIRST_CHAR or code > _LAST_CHAR:
                code = _LAST_CHAR
            if -_CHAR < x < width:
                font.draw_char(chr(code), x, y, self, c)
            x += _CHAR

    def rect(self, x, y, w, h, c, f=False, *, fill=False):
        if f or fill:
            adafruit_framebuf.FrameBuffer.rect(self, x, y, w, h, c, fill=True)
            return
        self.fill_rect(x, y, w, 1, c)
        self.fill_rect(x, y + h - 1, w, 1, c)
        self.fill_rect(x, y, 1, h, c)
        self.fill_rect(x + w - 1, y, 1, h, c)

    def _set(self, x, y, c):
        if 0 <= x < self.width and 0 <= y < self.height:
            self.format.set_pixel(self, x, y, c)

    def line(self, x1, y1, x2, y2, c):
        dx = x2 - x1
        sx = 1
        if dx <= 0:
            dx = -dx
            sx = -1
        dy = y2 - y1
        sy = 1
        if dy <= 0:
            dy = -dy
            sy = -1
        steep = dy > dx
        if steep:
            x1, y1 = y1, x1
            dx, dy = dy, dx
            sx, sy = sy, sx
        e = 2 * dy - dx
        for _ in range(dx):
            if steep:
                self._set(y1, x1, c)
            else:
                self._set(x1, y1, c)
            while e >= 0:
                y1 += sy
                e -= 2 * dx
            x1 += sx
            e += 2 * dy
        self._set(x2, y2, c)

    def blit(self, source, x, y, key=-1, palette=None):
        if x >= self.width or y >= self.height or -x >= source.width or -y >= source.height:
            return
        x0 = max(0, x)
        y0 = max(0, y)
        sx0 = max(0, -x)
        sy = max(0, -y)
        x_end = min(self.width, x + source.width)
        y_end = min(self.height, y + source.height)
        get = source.format.get_pixel
        put = self.format.set_pixel
        while y0 < y_end:
            sx = sx0
            for cx in range(x0, x_end):
                col = get(source, sx, sy)
                if palette is not None:
                    col = palette.format.get_pixel(palette, col, 0)
                if col != key:
                    put(self, cx, y0, col)
                sx += 1
            y0 += 1
            sy += 1

    def scroll(self, xstep, ystep):
        width = self.width
        height = self.height
        if xstep < 0:
            if -xstep >= width:
                return
            sx, xend, dx = 0, width + xstep, 1
        else:
            if xstep >= width:
                return
            sx, xend, dx = width - 1, xstep - 1, -1
        if ystep < 0:
            if -ystep >= height:
                return
            y, yend, dy = 0, height + ystep, 1
        else:
            if ystep >= height:
                return
            y, yend, dy = height - 1, ystep - 1, -1
        get = self.format.get_pixel
        put = self.format.set_pixel
        while y != yend:
            x = sx
            while x != xend:
                put(self, x, y, get(self, x - xstep, y - ystep))
                x += dx
            y += dy


class FrameBuffer(Drawing, adafruit_framebuf.FrameBuffer):
    """framebuf.FrameBuffer(buffer, width, height, format[, stride]) as in MicroPython."""

    def __init__(self, buf, width, height, format=adafruit_framebuf.MVLSB, stride=None):
        super().__init__(buf, width, height, format, stride)


def _framebuf_module():
    module = types.ModuleType("framebuf")
    module.FrameBuffer = FrameBuffer
    module.MONO_VLSB = module.MVLSB = adafruit_framebuf.MVLSB
    module.MONO_HMSB = adafruit_framebuf.MHMSB
    module.RGB565 = adafruit_framebuf.RGB565
    module.GS2_HMSB = adafruit_framebuf.GS2_HMSB
    return module


def _micropython_module():
    module = types.ModuleType("micropython")

    def const(value):
        return value

    def decorator(f=None, **options):
        return f if f is not None else (lambda g: g)

    module.const = const
    module.native = module.viper = module.asm_thumb = decorator
    return module


def install():
    """Register everything above; idempotent. Call it before the firmware (or adafruit_ssd1306,
    which subclasses framebuf.FrameBuffer when there is one) is imported."""
    sys.modules["micropython"] = _micropython_module()
    sys.modules["framebuf"] = _framebuf_module()
    for name, value in (("ticks_ms", ticks_ms), ("ticks_us", ticks_us), ("ticks_cpu", ticks_us),
                        ("ticks_add", ticks_add), ("ticks_diff", ticks_diff), ("sleep_ms", sleep_ms),
                        ("sleep_us", sleep_us)):
        setattr(time, name, value)
    asyncio.sleep_ms = async_sleep_ms
    if "asyncio.core" not in sys.modules:
        core = types.ModuleType("asyncio.core")  # what MicroPython's asyncio has inside; nothing here
        sys.modules["asyncio.core"] = core
        asyncio.core = core
    gc.mem_free = mem_free
    gc.mem_alloc = mem_alloc
    gc.threshold = threshold
    sys.print_exception = print_exception
