"""host_tools/uf2.py against the UF2 specification (github.com/microsoft/uf2, README "File format"):
the fields are read back here with their own struct layout and the spec's literal numbers, not with
the module's constants; the shipped images (written by the pico-sdk's tools) are packed again to the
same bytes. With MICROPYTHON_SRC set (`make firmware` runs them), the result is also compared with
MicroPython's own tools/uf2conv.py and family list."""

import json
import os
import re
import struct
import subprocess
import sys
from pathlib import Path

import pytest
import shipped
import uf2

# From the specification, written out: a change of the module's constants must not pass unseen.
SPEC_MAGIC_START0 = 0x0A324655
SPEC_MAGIC_START1 = 0x9E5D5157
SPEC_MAGIC_END = 0x0AB16F30
SPEC_FLAG_FAMILY_ID_PRESENT = 0x00002000
RP2040 = 0xE48BFF56
RP2350_ARM_S = 0xE48BFF59


def image(n):
    """n bytes that differ from one 256-byte page to the next (a shifted page would show)."""
    return bytes((i * 7 + i // 256) & 0xFF for i in range(n))


def blocks_of(data):
    assert len(data) % 512 == 0
    out = []
    for i in range(0, len(data), 512):
        block = data[i:i + 512]
        head = struct.unpack("<IIIIIIII", block[:32])
        (end,) = struct.unpack("<I", block[508:])
        out.append((head, block[32:508], end))
    return out


@pytest.mark.parametrize("family,fid", [("rp2040", RP2040), ("rp2350", RP2350_ARM_S)])
def test_every_block_follows_the_spec(family, fid):
    data = image(256 * 5 + 100)  # five full pages and a short last one
    blocks = blocks_of(uf2.bin_to_uf2(data, family))
    assert len(blocks) == 6
    for n, (head, payload_area, end) in enumerate(blocks):
        m0, m1, flags, address, size, number, count, family_id = head
        assert (m0, m1, end) == (SPEC_MAGIC_START0, SPEC_MAGIC_START1, SPEC_MAGIC_END)
        assert flags == SPEC_FLAG_FAMILY_ID_PRESENT
        assert family_id == fid
        assert size == 256
        assert number == n and count == 6
        assert address == 0x10000000 + 256 * n
        assert payload_area[:256] == data[256 * n:256 * n + 256].ljust(256, b"\0")
        assert payload_area[256:] == bytes(476 - 256)


def test_round_trip_to_the_bin():
    for n in (1, 255, 256, 257, 4096, 10000):
        data = image(n)
        back = uf2.uf2_to_bin(uf2.bin_to_uf2(data, "rp2040"))
        assert back[:n] == data
        assert back[n:] == bytes(len(back) - n)  # only the last page's zero padding
        assert len(back) == -(-n // 256) * 256


def test_reader_places_blocks_by_address_not_order():
    data = image(256 * 3)
    blocks = [uf2.bin_to_uf2(data, "rp2040")[i:i + 512] for i in range(0, 3 * 512, 512)]
    assert uf2.uf2_to_bin(b"".join(reversed(blocks))) == data


@pytest.mark.parametrize("bad", ["magic", "length", "size"])
def test_reader_refuses_a_malformed_file(bad):
    data = bytearray(uf2.bin_to_uf2(image(600), "rp2040"))
    if bad == "magic":
        data[512 + 508] ^= 1  # the second block's end magic
    elif bad == "length":
        data = data[:-1]
    else:
        data[16:20] = struct.pack("<I", 477)
    with pytest.raises(uf2.UF2Error):
        uf2.parse(bytes(data))


def test_unknown_family_and_empty_image_are_refused():
    with pytest.raises(uf2.UF2Error):
        uf2.bin_to_uf2(b"x", "esp32")
    with pytest.raises(uf2.UF2Error):
        uf2.bin_to_uf2(b"", "rp2040")


def test_command_line(tmp_path):
    src = tmp_path / "firmware.bin"
    src.write_bytes(image(1000))
    dst = tmp_path / "firmware.uf2"
    assert uf2.main([str(src), str(dst), "--family", "rp2350"]) == 0
    assert blocks_of(dst.read_bytes())[0][0][7] == RP2350_ARM_S
    assert uf2.uf2_to_bin(dst.read_bytes())[:1000] == src.read_bytes()


MICROPYTHON_SRC = os.environ.get("MICROPYTHON_SRC")
PICO_UF2_H = "lib/pico-sdk/src/common/boot_uf2_headers/include/boot/uf2.h"


def test_same_bytes_as_the_pico_sdk_build_of_the_shipped_firmware():
    """The shipped images were written by the pico-sdk's own tools (boards/firmware/): unpacked and
    packed again here they are the same bytes, family IDs and all."""
    for board, family in (("pico_w", "rp2040"), ("pico2_w", "rp2350")):
        theirs = shipped.uf2_path(board).read_bytes()
        assert uf2.bin_to_uf2(uf2.uf2_to_bin(theirs), family) == theirs, board


@pytest.mark.upstream
def test_same_bytes_as_micropythons_uf2conv(tmp_path):
    tools = Path(MICROPYTHON_SRC) / "tools"
    families = {f["short_name"]: int(f["id"], 16)
                for f in json.loads((tools / "uf2families.json").read_text())}
    assert families["RP2040"] == RP2040 == uf2.FAMILIES["rp2040"]
    src = tmp_path / "firmware.bin"
    src.write_bytes(image(256 * 40 + 3))
    theirs = tmp_path / "theirs.uf2"
    subprocess.run([sys.executable, str(tools / "uf2conv.py"), "-c", "-b", "0x10000000", "-f", "RP2040",
                    "-o", str(theirs), str(src)], check=True, capture_output=True, cwd=tools)
    assert uf2.bin_to_uf2(src.read_bytes(), "rp2040") == theirs.read_bytes()


@pytest.mark.upstream
def test_same_numbers_as_pico_sdk():
    header = (Path(MICROPYTHON_SRC) / PICO_UF2_H).read_text()
    defines = dict(re.findall(r"#define (\w+) +(0x[0-9a-fA-F]+)u", header))
    assert int(defines["RP2040_FAMILY_ID"], 16) == uf2.FAMILIES["rp2040"]
    assert int(defines["RP2350_ARM_S_FAMILY_ID"], 16) == uf2.FAMILIES["rp2350"]
    assert int(defines["UF2_MAGIC_START0"], 16) == uf2.MAGIC_START0
    assert int(defines["UF2_MAGIC_START1"], 16) == uf2.MAGIC_START1
    assert int(defines["UF2_MAGIC_END"], 16) == uf2.MAGIC_END
    assert int(defines["UF2_FLAG_FAMILY_ID_PRESENT"], 16) == uf2.FLAG_FAMILY_ID
