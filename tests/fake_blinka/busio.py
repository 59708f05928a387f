"""Blinka's `busio` for the tests' stand-in Pi: I2C is tests/support/ssd1306_bus.py's recording bus with an
SSD1306 at 0x3C; after each frame the panel's picture goes to the file $FAKE_PANEL (1024 bytes,
MONO_VLSB), written whole (temporary file, rename) so the test never reads half of one."""

import os

from ssd1306_bus import RecordingI2C


class I2C(RecordingI2C):
    def __init__(self, scl, sda, frequency=100000):
        super().__init__()
        self.pins = (scl, sda)
        self.frames = 0

    def writeto(self, address, buffer, *, start=0, end=None):
        super().writeto(address, buffer, start=start, end=end)
        if len(buffer) > start and buffer[start] == 0x40:  # GDDRAM data: a frame (b"" is a probe)
            self.frames += 1
            path = os.environ.get("FAKE_PANEL")
            if path:
                with open(path + ".tmp", "wb") as f:
                    f.write(self.panels[address].glass())
                os.replace(path + ".tmp", path)


class SPI:
    """Named by adafruit_bus_device's type hints; the box has no SPI device."""
