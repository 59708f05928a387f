# The board module for the rp2040js emulator (bench_rp2040.py installs it as board.mpy; on the
# frozen firmware it shadows the frozen board, as the filesystem comes first in sys.path):
# boards/pico_common.py's real Buttons (GPIO reads with pull-ups and edge IRQs), Buzzer (PWM and
# machine.Timer), Watchdog and Clock, but an in-RAM framebuf display (no I2C panel in the
# emulator), a fake radio (no CYW43 there) and storage that writes no flash (rp2040js does not
# emulate programming the flash chip).
import framebuf
import os
import sys
import binascii
import machine

import pico_common as pc
from tidebox.gate import pico_gate

NAME = "pico_w_emu"
WIDTH = 128
HEIGHT = 64


class Display(framebuf.FrameBuffer):
    """As boards/host.py: a 128x64 MONO_VLSB frame buffer; show() copies it (no I2C transfer)."""

    def __init__(self):
        self.width = WIDTH
        self.height = HEIGHT
        self.buffer = bytearray(WIDTH * HEIGHT // 8)
        super().__init__(self.buffer, WIDTH, HEIGHT, framebuf.MONO_VLSB)
        self.frame = bytearray(self.buffer)
        self.frames = 0

    def show(self):
        self.frame[:] = self.buffer
        self.frames += 1

    def invert(self, value):
        pass

    def contrast(self, value):
        pass

    def poweroff(self):
        pass

    def poweron(self):
        pass


class Radio:
    def __init__(self):
        self.ip = pc.AP_IP
        self.ssid = None
        self.password = None

    def start_hotspot(self, ssid, password):
        self.ssid = ssid
        self.password = password
        return self.ip


class MemStorage:
    """Storage without flash writes (rp2040js does not emulate flash programming): a save still
    serialises the state to JSON, as storage.Storage does, then drops it."""

    def __init__(self, folder=None):
        self.folder = folder
        self.saves = 0

    def save(self, name, data):
        import json
        json.dumps(data)
        self.saves += 1

    def load(self, name):
        return None

    def set_aside(self, name):
        pass

    def remove(self, name):
        pass

    def append_log(self, name, text, cap):
        pass


class Board:
    def __init__(self):
        self.name = NAME
        self.settings = dict(pc.DEFAULTS)
        self.clock = pc.Clock()
        self.display = Display()
        self.buttons = pc.Buttons(self.settings["buttons"])
        self.buzzer = pc.Buzzer(self.settings["buzzer"])
        self.radio = Radio()
        self.watchdog = pc.Watchdog()
        self.tcp_gate = pico_gate(sys.implementation._machine)  # as the shipped box: by its name
        self.storage_dir = "/data"
        self.http_port = 80
        self.http_host = "0.0.0.0"
        self.dns_port = 53

    def unique_id(self):
        return binascii.hexlify(machine.unique_id()).decode()

    def ticks_ms(self):
        return self.clock.ticks_ms()

    def ticks_diff(self, a, b):
        return self.clock.ticks_diff(a, b)

    def urandom(self, n):
        return os.urandom(n)

    def page_url(self):
        return "http://%s/" % self.radio.ip

    def reset(self):
        machine.reset()

    def restart(self):
        machine.soft_reset()

    def add_routes(self, app, box):
        return None


def make_board():
    return Board()
