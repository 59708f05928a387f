"""The firmware Tidebox ships (boards/firmware/, `make firmware`): each committed image is the one
firmware.json records, declares the MicroPython it carries, and has the ROMFS partition the bundle's
image is written to; the board settings it was built from are the ones in the repository. And the
32-bit MicroPython the heap tests run on (host_tools/micropython32/, make micropython32) is the one
its record names."""

import json
import subprocess

import pytest

import firmware
import romfs
import shipped
import uf2

MANIFEST = shipped.manifest()
BOARDS = sorted(firmware.BOARDS)


def test_there_is_a_shipped_image_for_every_board():
    assert MANIFEST, "boards/firmware/firmware.json is missing: `make firmware MICROPYTHON_SRC=...`"
    assert sorted(MANIFEST["images"]) == BOARDS


@pytest.mark.parametrize("board", BOARDS)
def test_each_image_matches_its_recorded_hash_and_size(board):
    entry = MANIFEST["images"][board]
    data = shipped.uf2_path(board).read_bytes()
    assert len(data) == entry["bytes"]
    assert shipped.sha256(data) == entry["sha256"]
    assert shipped.check(board) == shipped.uf2_path(board)


@pytest.mark.parametrize("board", BOARDS)
def test_each_image_declares_the_recorded_micropython_for_its_chip(board):
    entry = MANIFEST["images"][board]
    blocks = uf2.parse(shipped.uf2_path(board).read_bytes())
    assert {fields["family"] for fields, _ in blocks} == {uf2.FAMILIES[entry["family"]]}
    assert entry["board"] == firmware.BOARDS[board]
    image = uf2.uf2_to_bin(shipped.uf2_path(board).read_bytes())
    version = romfs.program_version(image)
    assert version == entry["version"] == MANIFEST["micropython"]["version"]
    # git describe's form: the tag, the commits since it, and the pinned commit itself
    assert version.endswith(".g" + firmware.PINNED), version
    assert MANIFEST["micropython"]["commit"] == firmware.PINNED_FULL


@pytest.mark.parametrize("board", BOARDS)
def test_each_image_has_the_romfs_partition_the_bundle_goes_to(board):
    layout = romfs.LAYOUTS[board]
    image = uf2.uf2_to_bin(shipped.uf2_path(board).read_bytes())
    assert romfs.tagged_partition(image) == (0x10000000 + layout.romfs_offset, layout.romfs_bytes)
    # the littlefs as the upstream board has it, above the ROMFS partition: saves survive a reflash
    assert romfs.tagged_partition(image, b"MicroPython") == (0x10000000 + layout.storage_offset,
                                                            layout.storage_bytes)
    assert len(image) <= layout.romfs_offset, "the firmware runs into its ROMFS partition"


def test_the_images_were_built_from_the_board_settings_in_the_repository():
    # A change to boards/PICO_W_ROMFS/ or boards/PICO2_W_ROMFS/ needs `make firmware` and new images.
    assert MANIFEST["board_settings_sha256"] == shipped.board_settings_sha256()


def test_the_bundle_image_fits_the_partition(tmp_path):
    import bundle

    out = tmp_path / "bundle"
    bundle.build_bundle(out, "pico_w")
    size = len(romfs.bundle_image(out))
    assert 0 < size <= min(layout.romfs_bytes for layout in romfs.LAYOUTS.values())


def test_program_version_reads_a_binary_info_string():
    import struct

    base = 0x10000000
    text = b"v9.9.9-preview.1.gabcdef\0"
    entry = struct.pack("<HHII", 6, 0x5052, 0x11A9BC3A, base + 64)
    image = b"\0" * 16 + entry + b"\0" * (64 - 16 - len(entry)) + text
    assert romfs.program_version(image) == "v9.9.9-preview.1.gabcdef"
    assert romfs.program_version(b"\0" * 64) is None


def test_the_committed_32_bit_micropython_matches_its_record_and_is_32_bit():
    """host_tools/micropython32/ (make micropython32): the interpreter the heap tests judge the chip's
    pool on, built from the firmware's MicroPython commit."""
    binary = shipped.micropython32()
    record = json.loads(shipped.MICROPYTHON32_RECORD.read_text())
    assert record["micropython"]["commit"] == firmware.PINNED_FULL
    out = subprocess.run([str(binary), "-c", "import sys; print(sys.maxsize)"], capture_output=True,
                         text=True, check=True).stdout.strip()
    assert out == str(2**31 - 1)  # 32-bit words, as on the RP2040
    assert record["micropython"]["version"].endswith("MicroPython v1.29.0-preview on 2026-07-04")
