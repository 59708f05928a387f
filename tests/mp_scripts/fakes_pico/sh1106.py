# A fake of robert-hh's sh1106 driver (mip install github:robert-hh/SH1106).
import framebuf

import fakelog


class SH1106_I2C(framebuf.FrameBuffer):
    def __init__(self, width, height, i2c, res=None, addr=0x3C, rotate=0, external_vcc=False, delay=0):
        self.width = width
        self.height = height
        self.renderbuf = bytearray(width * height // 8)
        super().__init__(self.renderbuf, width, height, framebuf.MONO_VLSB)
        fakelog.log("SH1106_I2C", width, height, addr, rotate)
        # as the real driver's init_display(): a plain show(), then flip() with a full show(True)
        self.show()
        self.flip(rotate in (180, 270))

    def flip(self, flag=None, update=True):
        fakelog.log("flip", flag)
        if update:
            self.show(True)

    def show(self, full_update=False):
        fakelog.log("show", "sh1106", full_update)

    def invert(self, value):
        fakelog.log("invert", value)

    def contrast(self, value):
        fakelog.log("contrast", value)

    def poweroff(self):
        fakelog.log("poweroff")

    def poweron(self):
        fakelog.log("poweron")
