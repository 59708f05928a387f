"""A recording I2C bus with an SSD1306 on it, for the Raspberry Pi board's tests.

`RecordingI2C` has the methods of Blinka's busio.I2C that adafruit_bus_device calls (try_lock,
unlock, scan, writeto, readfrom_into); every write to the panel's address goes to `Panel`, a model of
the controller's command decoder and its display RAM (GDDRAM: 8 pages of 128 columns, a byte a
column of 8 rows, bit 0 at the top), built from the datasheet (SSD1306 rev 1.1, 8.1.5 and 10):

- each I2C write starts with a control byte: Co (bit 7) 1 means one byte follows and then another
  control byte; Co 0 means every byte to the end of the write is of the same kind; D/C# (bit 6)
  says whether those bytes are data (to GDDRAM) or commands;
- commands with arguments take them from the bytes that follow (in the same write or, with Co set,
  one per control byte);
- data goes to the RAM at the address pointer, which moves as the addressing mode says (horizontal,
  vertical, or page mode where only the column moves), within the column and page ranges set
  by 0x21 and 0x22.

`Panel.glass()` is what the panel shows, as 1024 MONO_VLSB bytes for a panel mounted the way the
driver's defaults (segment remap 0xA1, COM scan 0xC8) show upright; the golden PNGs are in the same
layout.
"""

_ARGS = {  # command -> how many argument bytes follow it
    0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1,
    0xDA: 1, 0xDB: 1, 0xA3: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5,
}
W, PAGES = 128, 8


class Panel:
    def __init__(self):
        self.ram = bytearray(W * PAGES)
        self.mode = 2  # page addressing after reset
        self.col_start, self.col_end, self.col = 0, W - 1, 0
        self.page_start, self.page_end, self.page = 0, PAGES - 1, 0
        self.on = False
        self.inverted = False
        self.entire_on = False
        self.contrast = 0x7F
        self.seg_remap = False
        self.com_reversed = False
        self.start_line = 0
        self.offset = 0
        self.mux = 63
        self.charge_pump = False
        self.commands = []  # every command with its arguments, in order: (cmd, args...)
        self.data_bytes = 0
        self._pending = None  # (command, arguments still expected, arguments so far)

    # ------------------------------------------------------------ the bus

    def write(self, data):
        data = bytes(data)
        i = 0
        while i < len(data):
            control = data[i]
            i += 1
            if control & 0x3F:
                raise AssertionError("control byte 0x%02X has bits other than Co and D/C# set" % control)
            is_data = bool(control & 0x40)
            if control & 0x80:  # Co: one byte, then another control byte
                if i < len(data):
                    self._byte(data[i], is_data)
                    i += 1
                continue
            for b in data[i:]:
                self._byte(b, is_data)
            return

    def _byte(self, b, is_data):
        if is_data:
            if self._pending is not None:
                raise AssertionError("data while command 0x%02X waits for its arguments" % self._pending[0])
            self._data(b)
        elif self._pending is not None:
            cmd, left, args = self._pending
            args.append(b)
            if left == 1:
                self._pending = None
                self._command(cmd, args)
            else:
                self._pending = (cmd, left - 1, args)
        elif b in _ARGS:
            self._pending = (b, _ARGS[b], [])
        else:
            self._command(b, [])

    # ------------------------------------------------------------ commands

    def _command(self, cmd, args):
        self.commands.append((cmd, *args))
        if cmd == 0x20:
            self.mode = args[0] & 3
            if self.mode == 3:
                raise AssertionError("addressing mode 3 is invalid")
        elif cmd == 0x21:
            self.col_start, self.col_end = args[0] & 0x7F, args[1] & 0x7F
            self.col = self.col_start
        elif cmd == 0x22:
            self.page_start, self.page_end = args[0] & 7, args[1] & 7
            self.page = self.page_start
        elif cmd == 0x81:
            self.contrast = args[0]
        elif cmd == 0x8D:
            self.charge_pump = bool(args[0] & 0x04)
        elif cmd == 0xA8:
            self.mux = args[0] & 0x3F
        elif cmd == 0xD3:
            self.offset = args[0] & 0x3F
        elif cmd in (0xAE, 0xAF):
            self.on = cmd == 0xAF
        elif cmd in (0xA6, 0xA7):
            self.inverted = cmd == 0xA7
        elif cmd in (0xA4, 0xA5):
            self.entire_on = cmd == 0xA5
        elif cmd in (0xA0, 0xA1):
            self.seg_remap = cmd == 0xA1
        elif cmd in (0xC0, 0xC8):
            self.com_reversed = cmd == 0xC8
        elif 0x40 <= cmd <= 0x7F:
            self.start_line = cmd & 0x3F
        elif 0xB0 <= cmd <= 0xB7:
            self.page = cmd & 7  # page mode
        elif cmd <= 0x0F:
            self.col = (self.col & 0xF0) | cmd  # page mode: lower nibble of the column
        elif cmd <= 0x1F:
            self.col = (self.col & 0x0F) | ((cmd & 0x07) << 4)

    def _data(self, b):
        self.ram[self.page * W + self.col] = b
        self.data_bytes += 1
        if self.mode == 0:  # horizontal: along the columns, then the next page
            if self.col == self.col_end:
                self.col = self.col_start
                self.page = self.page_start if self.page == self.page_end else self.page + 1
            else:
                self.col += 1
        elif self.mode == 1:  # vertical: down the pages, then the next column
            if self.page == self.page_end:
                self.page = self.page_start
                self.col = self.col_start if self.col == self.col_end else self.col + 1
            else:
                self.page += 1
        elif self.col < W - 1:  # page mode: the column moves, the page does not
            self.col += 1

    # ------------------------------------------------------------ what it shows

    def glass(self):
        """The picture on the panel as MONO_VLSB bytes (lit = 1), upright for remap 0xA1 and 0xC8;
        the other orientations turn it. Inversion and power are reported by `inverted` and `on`."""
        if self.start_line or self.offset or self.mux != 63:
            raise AssertionError("the panel scrolls or is not 64 rows: start %d, offset %d, mux %d"
                                 % (self.start_line, self.offset, self.mux))
        if self.seg_remap and self.com_reversed:
            return bytes(self.ram)
        out = bytearray(W * PAGES)
        for y in range(64):
            for x in range(W):
                sx = x if self.seg_remap else W - 1 - x
                sy = y if self.com_reversed else 63 - y
                if self.ram[(sy >> 3) * W + sx] >> (sy & 7) & 1:
                    out[(y >> 3) * W + x] |= 1 << (y & 7)
        return bytes(out)


class RecordingI2C:
    """busio.I2C as adafruit_bus_device uses it, with `Panel`s at their addresses."""

    def __init__(self, panels=None):
        self.panels = panels if panels is not None else {0x3C: Panel()}
        self.locked = False
        self.writes = []  # (address, bytes) of every write, in order

    def try_lock(self):
        if self.locked:
            return False
        self.locked = True
        return True

    def unlock(self):
        self.locked = False

    def scan(self):
        return sorted(self.panels)

    def _panel(self, address):
        if not self.locked:
            raise AssertionError("the bus is used without its lock")
        if address not in self.panels:
            raise OSError(19, "no device at 0x%02X" % address)  # ENODEV, as Linux's i2c-dev says
        return self.panels[address]

    def writeto(self, address, buffer, *, start=0, end=None):
        panel = self._panel(address)
        data = bytes(buffer[start:end])
        self.writes.append((address, data))
        if data:
            panel.write(data)

    def readfrom_into(self, address, buffer, *, start=0, end=None):
        self._panel(address)
        end = len(buffer) if end is None else end
        for i in range(start, end):
            buffer[i] = 0x43  # the status byte: display on, ID bits 0b0011
