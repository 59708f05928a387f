"""Write (and read back) the UF2 container the Pico's bootloader takes on its USB drive.

    python host_tools/uf2.py firmware.bin firmware.uf2 --family rp2040|rp2350

UF2 is Microsoft's published flashing format (https://github.com/microsoft/uf2): a file of 512-byte
blocks, each one self-contained, so the bootloader can write them in any order:

    offset  size  field
    0       4     magic 0x0A324655 ("UF2\\n")
    4       4     magic 0x9E5D5157
    8       4     flags: 0x00002000 = the familyID field below is present
    12      4     target address in flash of this block's payload
    16      4     payload size (256 for the Raspberry Pi bootroms)
    20      4     this block's number, 0 ..
    24      4     number of blocks in the file
    28      4     family id (RP2040 0xe48bff56, RP2350 Arm Secure 0xe48bff59)
    32      476   payload, padded with zeros
    508     4     magic 0x0AB16F30

All fields are little-endian. A .bin from the rp2 build is the flash image from 0x10000000 (XIP
base) on, so block n carries bytes n*256 .. n*256+255 of it at address 0x10000000 + n*256; the last
block is padded with zeros. This is what picotool's `uf2 convert` makes from a contiguous image;
pico-sdk's build writes it too, unless configured with -DPICO_NO_PICOTOOL=1 (it would otherwise
fetch picotool at configure time).
"""

import argparse
import struct
import sys
from pathlib import Path

MAGIC_START0 = 0x0A324655
MAGIC_START1 = 0x9E5D5157
MAGIC_END = 0x0AB16F30
FLAG_FAMILY_ID = 0x00002000
BLOCK_SIZE = 512
PAYLOAD_SIZE = 256  # the RP2040/RP2350 bootroms write flash in 256-byte pages
DATA_SIZE = 476  # payload area of a block
FLASH_BASE = 0x10000000  # XIP flash, where the .bin starts
FAMILIES = {
    "rp2040": 0xE48BFF56,  # Pico W
    "rp2350": 0xE48BFF59,  # Pico 2 W, Arm cores, secure mode (rp2350-arm-s)
}
BOARD_FAMILY = {"RPI_PICO_W": "rp2040", "RPI_PICO2_W": "rp2350"}
_HEADER = struct.Struct("<8I")
_END = struct.Struct("<I")


class UF2Error(ValueError):
    pass


def family_id(family):
    try:
        return FAMILIES[family]
    except KeyError:
        raise UF2Error("unknown family %r; one of %s" % (family, ", ".join(sorted(FAMILIES)))) from None


def bin_to_uf2(data, family, base=FLASH_BASE, payload=PAYLOAD_SIZE):
    """The UF2 file (bytes) that writes `data` to flash from `base` on."""
    fid = family_id(family) if isinstance(family, str) else family
    if not data:
        raise UF2Error("empty image")
    if base % payload:
        raise UF2Error("base address 0x%x is not %d-aligned" % (base, payload))
    count = (len(data) + payload - 1) // payload
    out = bytearray()
    for n in range(count):
        chunk = data[n * payload:(n + 1) * payload]
        address = base + n * payload
        out += _HEADER.pack(MAGIC_START0, MAGIC_START1, FLAG_FAMILY_ID, address, payload, n, count, fid)
        out += chunk + bytes(DATA_SIZE - len(chunk))  # a short last chunk is padded with zeros
        out += _END.pack(MAGIC_END)
    return bytes(out)


def parse(uf2):
    """[(block fields dict, payload bytes)] of a UF2 file; raises UF2Error on a malformed block."""
    if len(uf2) % BLOCK_SIZE:
        raise UF2Error("length %d is not a multiple of %d" % (len(uf2), BLOCK_SIZE))
    blocks = []
    for i in range(0, len(uf2), BLOCK_SIZE):
        block = uf2[i:i + BLOCK_SIZE]
        m0, m1, flags, addr, size, number, count, fid = _HEADER.unpack_from(block)
        (end,) = _END.unpack_from(block, BLOCK_SIZE - 4)
        if (m0, m1, end) != (MAGIC_START0, MAGIC_START1, MAGIC_END):
            raise UF2Error("block %d: bad magic numbers" % (i // BLOCK_SIZE))
        if size > DATA_SIZE:
            raise UF2Error("block %d: payload size %d > %d" % (i // BLOCK_SIZE, size, DATA_SIZE))
        fields = {"flags": flags, "address": addr, "size": size, "number": number, "count": count,
                  "family": fid}
        blocks.append((fields, bytes(block[32:32 + size])))
    return blocks


def uf2_to_bin(uf2, base=FLASH_BASE):
    """The flash image a UF2 file writes, from `base` on (gaps filled with 0xff, as erased flash)."""
    image = bytearray()
    for fields, payload in parse(uf2):
        offset = fields["address"] - base
        if offset < 0:
            raise UF2Error("block %d writes below 0x%x" % (fields["number"], base))
        if len(image) < offset + len(payload):
            image += b"\xff" * (offset + len(payload) - len(image))
        image[offset:offset + len(payload)] = payload
    return bytes(image)


def convert(bin_path, uf2_path, family):
    data = Path(bin_path).read_bytes()
    uf2 = bin_to_uf2(data, family)
    Path(uf2_path).write_bytes(uf2)
    return len(uf2) // BLOCK_SIZE


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bin")
    parser.add_argument("uf2")
    parser.add_argument("--family", choices=sorted(FAMILIES), required=True)
    args = parser.parse_args(argv)
    blocks = convert(args.bin, args.uf2, args.family)
    print("%s: %d blocks, family 0x%08x" % (args.uf2, blocks, FAMILIES[args.family]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
