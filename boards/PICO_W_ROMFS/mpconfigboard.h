// Tidebox's ROMFS firmware for the Raspberry Pi Pico W: RPI_PICO_W with a ROMFS partition.
//
// The rp2 port puts the partition just below the littlefs storage, which keeps RPI_PICO_W's place
// and size (848 KB at 0x1012C000), so a board's files and saved games survive flashing this build
// over the stock one. The partition takes the top 256 KB of the firmware's own space: 0x100EC000 to
// 0x1012C000. The firmware must end below it (host_tools/firmware.py checks; the linker does not).
// Tidebox's bundle as a ROMFS image is about 120 KB.
#include "boards/RPI_PICO_W/mpconfigboard.h"

#define MICROPY_HW_ROMFS_BYTES (256 * 1024)
