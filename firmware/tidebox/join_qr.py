# The join screen's two QR codes: the Wi-Fi network (WPA2, name and passphrase) and the page's
# address. Each is drawn on the left 64x64 of the OLED, dark modules on a lit square (scanners
# need dark-on-light). The codes are encoded once, on first use, and kept (about 100 bytes each).
from micropython import const

from tidebox import qr

_SIDE = const(64)  # the OLED's height: the square the code sits in
_SCALE = const(2)  # version 3 (29 modules) at scale 2 is 58 px; 1 px per module is too small to scan


class JoinCodes:
    def __init__(self, ssid, password, url):
        self.texts = {"wifi_qr": qr.wifi_text(ssid, password), "page_qr": url}
        self.codes = {}

    def code(self, view):
        if view not in self.codes:
            # Level L keeps the Wi-Fi text within version 3 (up to 53 bytes) even for a long SSID.
            self.codes[view] = qr.encode(self.texts[view], "L" if view == "wifi_qr" else "M")
        return self.codes[view]

    def draw(self, fb, view):
        """A lit 64x64 square at the left with the code centred in it (the rest is quiet zone)."""
        code = self.code(view)
        fb.fill_rect(0, 0, _SIDE, _SIDE, 1)
        side = code.size * _SCALE
        offset = (_SIDE - side) // 2
        qr.draw(fb, code, offset, offset, _SCALE, quiet=0)
