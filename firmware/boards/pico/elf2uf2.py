#!/usr/bin/env python3
"""Convert the Pico firmware's ELF into a UF2 file for the RP2040's USB boot mode.

Hold BOOTSEL while plugging the Pico in, and it shows up as a USB drive
(RPI-RP2); copying a .uf2 file onto it writes the file's blocks to flash and
reboots the board. Each 512-byte UF2 block carries 256 bytes for one flash
address. The loadable segments of the ELF (at their load addresses) are cut
into 256-byte pages; a segment outside the Pico's 2 MB of flash is an error.

    elf2uf2.py ELF UF2
"""

import struct
import sys

FLASH_START = 0x1000_0000
FLASH_END = FLASH_START + 2 * 1024 * 1024
PAGE = 256
RP2040_FAMILY_ID = 0xE48B_FF56
MAGIC_START0, MAGIC_START1, MAGIC_END = 0x0A32_4655, 0x9E5D_5157, 0x0AB1_6F30
FLAG_FAMILY_ID_PRESENT = 0x0000_2000
PT_LOAD = 1


def die(message):
    sys.exit(f"elf2uf2: {message}")


def load_segments(elf):
    """(load address, bytes) of every loadable segment with contents."""
    if elf[:4] != b"\x7fELF" or elf[4] != 1 or elf[5] != 1:
        die("not a 32-bit little-endian ELF file")
    phoff, = struct.unpack_from("<I", elf, 0x1C)
    phentsize, phnum = struct.unpack_from("<HH", elf, 0x2A)
    segments = []
    for i in range(phnum):
        p_type, offset, _vaddr, paddr, filesz, _memsz = struct.unpack_from(
            "<6I", elf, phoff + i * phentsize)
        if p_type == PT_LOAD and filesz > 0:
            if offset + filesz > len(elf):
                die(f"segment {i} runs past the end of the file")
            segments.append((paddr, elf[offset:offset + filesz]))
    return segments


def pages(segments):
    """The flash image as {page address: 256 bytes}, gaps within a page zeroed."""
    out = {}
    for addr, data in segments:
        if addr < FLASH_START or addr + len(data) > FLASH_END:
            die(f"segment at {addr:#x} ({len(data)} bytes) is outside the Pico's flash")
        for i, byte in enumerate(data):
            page = (addr + i) & ~(PAGE - 1)
            out.setdefault(page, bytearray(PAGE))[(addr + i) - page] = byte
    return out


def boot2_crc(page):
    """The CRC-32 (MPEG-2: not reflected, initial value all ones, no final xor)
    of the first 252 bytes of the second-stage bootloader; the boot ROM runs it
    only if this matches its last 4 bytes."""
    crc = 0xFFFF_FFFF
    for byte in page[:252]:
        crc ^= byte << 24
        for _ in range(8):
            crc = ((crc << 1) ^ 0x04C1_1DB7 if crc & 0x8000_0000 else crc << 1) & 0xFFFF_FFFF
    return crc


def uf2(image):
    blocks = sorted(image.items())
    out = bytearray()
    for number, (addr, data) in enumerate(blocks):
        header = struct.pack("<8I", MAGIC_START0, MAGIC_START1, FLAG_FAMILY_ID_PRESENT,
                             addr, PAGE, number, len(blocks), RP2040_FAMILY_ID)
        out += header + bytes(data) + bytes(476 - PAGE) + struct.pack("<I", MAGIC_END)
    return bytes(out)


def main():
    if len(sys.argv) != 3 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    with open(sys.argv[1], "rb") as f:
        image = pages(load_segments(f.read()))
    boot2 = image.get(FLASH_START)
    if boot2 is None or boot2_crc(boot2) != struct.unpack_from("<I", boot2, 252)[0]:
        die("no valid second-stage bootloader (.boot2, with its checksum) at the start of flash")
    data = uf2(image)
    with open(sys.argv[2], "wb") as f:
        f.write(data)
    print(f"{sys.argv[2]}: {len(image)} blocks of {PAGE} bytes for flash at {min(image):#x}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
