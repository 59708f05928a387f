"""The board module the screen scripts (the golden walks: tests/mp_scripts/render_box_screens.py and
tests/games/<game id>/render_screens.py) get under CPython for the Pi's golden test: boards/host.py
with its display replaced by the Raspberry Pi board's, the real adafruit_ssd1306.SSD1306_I2C
(boards/pi_bonnet.py's make_display), on a recording I2C bus (tests/support/ssd1306_bus.py).
`display.buffer`, which the scripts read after each screen is drawn and shown, is what the modelled
panel shows: the commands and GDDRAM data the driver sent, decoded, not the driver's own buffer.
Run through boards/cpython_main.py --board pi_panel_board.
"""

import host
import pi_bonnet
from ssd1306_bus import RecordingI2C


class Glass:
    """The Pi's display, drawn on and shown as the firmware does; `buffer` is the panel's picture."""

    def __init__(self, display, bus):
        self.__dict__["display"] = display
        self.__dict__["bus"] = bus

    def __getattr__(self, name):
        return getattr(self.display, name)

    def __setattr__(self, name, value):
        self.__dict__[name] = value  # a script's wrapper (the render scripts wrap text()) stays here

    @property
    def buffer(self):
        panel = self.bus.panels[self.display.addr]
        assert panel.on and not panel.inverted and not panel.entire_on and panel.charge_pump
        return panel.glass()


def make_board():
    board = host.make_board()
    bus = RecordingI2C()
    board.display = Glass(pi_bonnet.make_display(bus), bus)
    return board
