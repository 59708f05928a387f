# Tidebox's ROMFS firmware for the Raspberry Pi Pico 2 W: MicroPython's own RPI_PICO2_W board, unchanged
# but for a ROMFS partition and a larger mark stack (mpconfigboard.h). Built by `make firmware`
# (host_tools/firmware.py; boards/README.md).
include(${MICROPY_PORT_DIR}/boards/RPI_PICO2_W/mpconfigboard.cmake)

# That file names ${MICROPY_BOARD_DIR}/manifest.py, which is this folder: freeze RPI_PICO2_W's own.
set(MICROPY_FROZEN_MANIFEST ${MICROPY_PORT_DIR}/boards/RPI_PICO2_W/manifest.py)
set(MICROPY_BOARD_PINS ${MICROPY_PORT_DIR}/boards/RPI_PICO2_W/pins.csv)
include(${MICROPY_PORT_DIR}/boards/RPI_PICO2_W/mpconfigvariant.cmake)  # the Arm cores (RP2350)
