# The join screen's two QR codes: the Wi-Fi network (WPA2, name and passphrase) and the page's
# address, each drawn on the left 64x64 of the OLED, dark modules on a lit square (scanners need
# dark-on-light). Both are rendered once at boot into two small frame buffers (512 bytes each);
# after that the QR encoder (kilobytes of heap) is no longer needed and main.py unloads it
# (nothing kept may refer to this module, or its globals would keep the encoder alive).
import framebuf
from micropython import const

from tidebox import qr

_SIDE = const(64)  # the OLED's height: the square the code sits in
_SCALE = const(2)  # version 3 (29 modules) at scale 2 is 58 px; 1 px per module is too small to scan


def _render(text, ecl):
    code = qr.encode(text, ecl)
    pixels = bytearray(_SIDE * _SIDE // 8)
    buf = framebuf.FrameBuffer(pixels, _SIDE, _SIDE, framebuf.MONO_VLSB)
    buf.fill(1)
    offset = (_SIDE - code.size * _SCALE) // 2
    qr.draw(buf, code, offset, offset, _SCALE, quiet=0)
    return pixels


def render(ssid, password, url):
    """{"wifi_qr": pixels, "page_qr": pixels}: each a 64x64 image's 512 bytes (MONO_VLSB), ready for
    a frame buffer to blit on the join screen (panel.py, QrImages)."""
    # Level L keeps the Wi-Fi text within version 3 (up to 53 bytes) even for a long SSID.
    return {"wifi_qr": _render(qr.wifi_text(ssid, password), "L"), "page_qr": _render(url, "M")}
