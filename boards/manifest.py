# Tidebox's MicroPython firmware for RPI_PICO_W and RPI_PICO2_W: everything the stock firmware
# freezes (the board's own manifest: asyncio, the network helpers, aioble, ...) plus Tidebox, the
# microdot modules it uses and micropython-lib's SSD1306 driver, frozen into flash. Frozen bytecode
# runs from flash: it takes no heap, where the same modules loaded from .mpy files do.
#
# host_tools/firmware.py (`make firmware MICROPYTHON_SRC=...`) stages the modules first and names
# the staging folder in TIDEBOX_FREEZE_DIR: the bundle's import closure of firmware/main.py
# (host_tools/bundle.py) and every game package (loaded by name, so the scan cannot see them), as
# sources laid out as on the board (tidebox/..., microdot/..., board.py for the chosen board,
# pico_common.py). main.py is not frozen: it stays a file on the board, so a
# board without it boots to the REPL (deploy and the emulator bench need that), and `make deploy`
# still copies it with settings.json and the phones' page.
#
# This file is MicroPython's manifest format (tools/manifestfile.py), read by the firmware build.
import os

include("$(BOARD_DIR)/manifest.py")  # noqa: F821 - include, require, freeze: the manifest API
require("ssd1306")  # noqa: F821

_stage = os.environ.get("TIDEBOX_FREEZE_DIR")
if not _stage or not os.path.isdir(_stage):
    raise Exception("TIDEBOX_FREEZE_DIR is not set: build with `make firmware` (host_tools/firmware.py)")
freeze(_stage)  # noqa: F821
