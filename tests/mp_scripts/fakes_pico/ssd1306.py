# A fake micropython-lib ssd1306: a real framebuf.FrameBuffer whose I2C writes are counted.
import framebuf

import fakelog


class SSD1306_I2C(framebuf.FrameBuffer):
    def __init__(self, width, height, i2c, addr=0x3C, external_vcc=False):
        self.width = width
        self.height = height
        self.i2c = i2c
        self.addr = addr
        self.buffer = bytearray(width * height // 8)
        super().__init__(self.buffer, width, height, framebuf.MONO_VLSB)
        i2c.writeto(addr, b"\x80\xae")  # the real driver's first command: fails if nothing answers
        fakelog.log("SSD1306_I2C", width, height, addr)

    def show(self):
        fakelog.log("show", "ssd1306")

    def rotate(self, value):
        fakelog.log("rotate", value)

    def invert(self, value):
        fakelog.log("invert", value)

    def contrast(self, value):
        fakelog.log("contrast", value)

    def poweroff(self):
        fakelog.log("poweroff")

    def poweron(self):
        fakelog.log("poweron")
