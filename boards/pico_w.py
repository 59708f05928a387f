# Raspberry Pi Pico W (RP2040, CYW43439 Wi-Fi): the board module the bundle installs as board.mpy.
#
# Everything but the name lives in pico_common.py, shared with the Pico 2 W. Heap: the RPI_PICO_W
# firmware's pool is 192 KB on MicroPython 1.29 (205 KB on v1.28.0); the whole firmware works down
# to 144-152 KB of it with .mpy files (32-bit, firmware/MEMORY.md), 84-92 KB with its code
# in ROMFS. Needs
# MicroPython 1.23 or newer (make compat: on 1.21 and 1.22 a whole game runs out of heap; the APIs
# it uses, asyncio by that name, .mpy version 6, network.country(), PM_NONE, are 1.21's).
import pico_common

NAME = "pico_w"


def make_board(settings_path=pico_common.SETTINGS_FILE, storage_dir=pico_common.STORAGE_DIR):
    return pico_common.Board(NAME, settings_path, storage_dir)
