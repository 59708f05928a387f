# A fake micropython-lib ssd1306: a real framebuf.FrameBuffer whose I2C writes are the real
# driver's (show: the column and page ranges, then the frame; one command a write) and are counted.
import framebuf

import fakelog


class SSD1306_I2C(framebuf.FrameBuffer):
    def __init__(self, width, height, i2c, addr=0x3C, external_vcc=False):
        self.width = width
        self.height = height
        self.pages = height // 8
        self.i2c = i2c
        self.addr = addr
        self.temp = bytearray(2)
        self.write_list = [b"\x40", None]
        self.buffer = bytearray(width * height // 8)
        super().__init__(self.buffer, width, height, framebuf.MONO_VLSB)
        i2c.writeto(addr, b"\x80\xae")  # the real driver's first command: fails if nothing answers
        fakelog.log("SSD1306_I2C", width, height, addr)
        self.fill(0)
        self.show()  # as the real driver's init_display ends

    def write_cmd(self, cmd):
        self.temp[0] = 0x80
        self.temp[1] = cmd
        self.i2c.writeto(self.addr, self.temp)

    def write_data(self, buf):
        self.write_list[1] = buf
        self.i2c.writevto(self.addr, self.write_list)

    def show(self):
        fakelog.log("show", "ssd1306")
        for cmd in (0x21, 0, self.width - 1, 0x22, 0, self.pages - 1):
            self.write_cmd(cmd)
        self.write_data(self.buffer)

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
