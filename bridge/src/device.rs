//! Where a board is: a serial port (a USB CDC-ACM or USB-serial adapter's tty, a
//! pty) or a TCP socket (QEMU's socket chardev, ser2net), read one line at a time
//! with a deadline.
//!
//! Serial ports are set up through `rustix`'s termios: raw mode, 8N1, no flow
//! control, the requested speed, modem lines ignored (`CLOCAL`). rustix is a safe,
//! maintained binding that is already in the lock file, so the port needs no
//! `unsafe` here and no C library beyond libc (the `serialport` crate would bring its
//! own copy of `nix` and, with its default features, libudev, for port listing the
//! bridge does not need). Reads wait in `poll` until the deadline.

use std::fs::File;
use std::io::{self, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::os::fd::AsFd;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use rustix::event::{poll, PollFd, PollFlags, Timespec};
use rustix::fs::{fcntl_getfl, fcntl_setfl, Mode, OFlags};
use rustix::termios::{
    tcflush, tcgetattr, tcsetattr, ControlModes, OptionalActions, QueueSelector, SpecialCodeIndex,
};

/// The longest line kept from a board; the rest of a longer one is dropped (the
/// protocol's replies are under 100 bytes).
pub const MAX_LINE: usize = 256;

/// A board's address, from `--board`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Device {
    /// A serial port's device file, at this speed.
    Serial {
        /// The device file, e.g. `/dev/ttyACM0`.
        path: PathBuf,
        /// Bits per second.
        baud: u32,
    },
    /// A TCP server that carries the serial line, `HOST:PORT`.
    Tcp(String),
}

impl Device {
    /// `tcp:HOST:PORT` or `HOST:PORT` is a socket; anything else (normally a path
    /// under `/dev`) a serial port.
    pub fn parse(text: &str, baud: u32) -> Device {
        if let Some(addr) = text.strip_prefix("tcp:") {
            return Device::Tcp(addr.to_owned());
        }
        let looks_like_socket = !text.contains('/')
            && text
                .rsplit_once(':')
                .is_some_and(|(host, port)| !host.is_empty() && port.parse::<u16>().is_ok());
        if looks_like_socket {
            Device::Tcp(text.to_owned())
        } else {
            Device::Serial {
                path: PathBuf::from(text),
                baud,
            }
        }
    }
}

impl std::fmt::Display for Device {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Device::Serial { path, baud } => write!(f, "{} at {baud} baud", path.display()),
            Device::Tcp(addr) => write!(f, "tcp:{addr}"),
        }
    }
}

enum Conn {
    Serial(File),
    Tcp(TcpStream),
}

/// An open device, with the bytes of a line not yet complete.
pub struct Port {
    device: Device,
    /// Where the conversation is written, line by line (`--board-log`).
    log: Option<(File, Instant)>,
    conn: Option<Conn>,
    pending: Vec<u8>,
    /// Bytes of the line being received.
    line_len: usize,
    /// The current line was longer than [`MAX_LINE`]: drop bytes up to its end.
    overlong: bool,
}

impl Port {
    /// Open `device`.
    ///
    /// # Errors
    /// The system's, with the device named.
    pub fn open(device: Device) -> io::Result<Port> {
        let conn = connect(&device)?;
        Ok(Port {
            device,
            log: None,
            conn: Some(conn),
            pending: Vec::new(),
            line_len: 0,
            overlong: false,
        })
    }

    /// Write the conversation to `file`: every line sent (`>`) and received (`<`),
    /// every timeout and every reopening, with the seconds since this call.
    pub fn log_to(&mut self, file: File) {
        self.log = Some((file, Instant::now()));
    }

    fn note(&mut self, what: std::fmt::Arguments<'_>) {
        if let Some((file, start)) = self.log.as_mut() {
            let _ = writeln!(file, "{:10.4} {what}", start.elapsed().as_secs_f64());
        }
    }

    /// The device this port opened.
    pub fn device(&self) -> &Device {
        &self.device
    }

    /// Close the device and open it again (after it failed: a board that was
    /// unplugged, or an emulator that was restarted).
    ///
    /// # Errors
    /// The system's.
    pub fn reopen(&mut self) -> io::Result<()> {
        self.conn = None;
        self.pending.clear();
        self.line_len = 0;
        self.overlong = false;
        match connect(&self.device) {
            Ok(conn) => {
                self.conn = Some(conn);
                self.note(format_args!("(reopened)"));
                Ok(())
            }
            Err(e) => {
                self.note(format_args!("(cannot reopen: {e})"));
                Err(e)
            }
        }
    }

    /// Write `text` and a line end.
    ///
    /// # Errors
    /// The system's; a closed port is [`io::ErrorKind::NotConnected`].
    pub fn send_line(&mut self, text: &str) -> io::Result<()> {
        let mut bytes = Vec::with_capacity(text.len() + 1);
        bytes.extend_from_slice(text.as_bytes());
        bytes.push(b'\n');
        self.note(format_args!("> {text:?}"));
        let sent = match self.conn.as_mut() {
            Some(Conn::Serial(f)) => f.write_all(&bytes).and_then(|()| f.flush()),
            Some(Conn::Tcp(s)) => s.write_all(&bytes),
            None => Err(io::ErrorKind::NotConnected.into()),
        };
        if let Err(e) = &sent {
            self.note(format_args!("(cannot send: {e})"));
        }
        sent
    }

    /// The next line (without its line end; invalid UTF-8 replaced), or `None` if
    /// none is complete by `deadline`.
    ///
    /// # Errors
    /// The system's; the device closing is [`io::ErrorKind::UnexpectedEof`].
    pub fn read_line(&mut self, deadline: Instant) -> io::Result<Option<String>> {
        loop {
            if let Some(line) = self.take_line() {
                self.note(format_args!("< {line:?}"));
                return Ok(Some(line));
            }
            let left = deadline.saturating_duration_since(Instant::now());
            let mut buf = [0u8; 512];
            let n = match self.read_some(&mut buf, left) {
                Ok(Some(n)) => n,
                Ok(None) => {
                    if !left.is_zero() {
                        self.note(format_args!("(nothing by the deadline)"));
                    }
                    return Ok(None);
                }
                Err(e) => {
                    self.note(format_args!("(lost: {e})"));
                    return Err(e);
                }
            };
            self.absorb(buf.get(..n).unwrap_or(&[]));
        }
    }

    /// Lines already complete or arriving at once (no waiting).
    ///
    /// # Errors
    /// As [`Port::read_line`].
    pub fn ready_lines(&mut self) -> io::Result<Vec<String>> {
        let mut lines = Vec::new();
        while let Some(line) = self.read_line(Instant::now())? {
            lines.push(line);
        }
        Ok(lines)
    }

    /// Append bytes; a line longer than [`MAX_LINE`] is cut there (what fits
    /// stays, as a garbled line of its own) and the rest dropped up to its end.
    fn absorb(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if b == b'\n' {
                if !self.overlong {
                    self.pending.push(b);
                }
                self.overlong = false;
                self.line_len = 0;
            } else if self.overlong {
                continue;
            } else if self.line_len == MAX_LINE {
                self.pending.push(b'\n');
                self.overlong = true;
            } else {
                self.pending.push(b);
                self.line_len += 1;
            }
        }
    }

    fn take_line(&mut self) -> Option<String> {
        let end = self.pending.iter().position(|&b| b == b'\n')?;
        let mut line: Vec<u8> = self.pending.drain(..=end).collect();
        line.pop();
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        Some(String::from_utf8_lossy(&line).into_owned())
    }

    /// Read what arrives within `wait`: `Some(n)` bytes (at least one), or `None`.
    fn read_some(&mut self, buf: &mut [u8], wait: Duration) -> io::Result<Option<usize>> {
        let read = match self.conn.as_mut() {
            None => return Err(io::ErrorKind::NotConnected.into()),
            Some(Conn::Tcp(s)) => {
                // The board's side writes a reply in small pieces (QEMU a byte at a
                // time); with Nagle's algorithm there, every piece would wait for our
                // delayed ACK. Acknowledge at once (as `connect` does with the server).
                let _ = socket2::SockRef::from(&*s).set_tcp_quickack(true);
                // A zero timeout means "block forever" to std: wait at least 1 ms.
                s.set_read_timeout(Some(wait.max(Duration::from_millis(1))))?;
                s.read(buf)
            }
            Some(Conn::Serial(f)) => {
                let timeout = Timespec::try_from(wait).unwrap_or(Timespec {
                    tv_sec: i64::MAX,
                    tv_nsec: 0,
                });
                let mut fds = [PollFd::new(f, PollFlags::IN)];
                match poll(&mut fds, Some(&timeout)) {
                    Ok(0) => return Ok(None),
                    Ok(_) => {}
                    Err(rustix::io::Errno::INTR) => return Ok(None),
                    Err(e) => return Err(e.into()),
                }
                f.read(buf)
            }
        };
        // Both kinds of device say "nothing yet" the same ways: a socket's read
        // timeout (`WouldBlock` or `TimedOut`, by platform) and a signal.
        let n = match read {
            Ok(n) => n,
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock
                        | io::ErrorKind::TimedOut
                        | io::ErrorKind::Interrupted
                ) =>
            {
                return Ok(None)
            }
            Err(e) => return Err(e),
        };
        if n == 0 {
            self.conn = None;
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        Ok(Some(n))
    }
}

fn connect(device: &Device) -> io::Result<Conn> {
    match device {
        Device::Tcp(addr) => {
            let mut last = io::Error::new(io::ErrorKind::NotFound, "no address");
            for a in addr.to_socket_addrs()? {
                match TcpStream::connect_timeout(&a, Duration::from_secs(5)) {
                    Ok(s) => {
                        let _ = s.set_nodelay(true);
                        return Ok(Conn::Tcp(s));
                    }
                    Err(e) => last = e,
                }
            }
            Err(last)
        }
        Device::Serial { path, baud } => open_serial(path, *baud).map(Conn::Serial),
    }
}

/// Open a serial port raw: 8N1, no flow control, no echo, no line editing,
/// `baud` both ways, modem lines ignored; input that was waiting is dropped.
fn open_serial(path: &std::path::Path, baud: u32) -> io::Result<File> {
    // Non-blocking while opening (a port without carrier would block the open),
    // blocking afterwards: reads wait in `poll`, writes finish.
    let fd = rustix::fs::open(
        path,
        OFlags::RDWR | OFlags::NOCTTY | OFlags::NONBLOCK | OFlags::CLOEXEC,
        Mode::empty(),
    )?;
    let mut tio = tcgetattr(&fd).map_err(|e| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("not a serial port ({e})"),
        )
    })?;
    tio.make_raw();
    tio.control_modes |= ControlModes::CLOCAL | ControlModes::CREAD;
    tio.control_modes -= ControlModes::CSTOPB | ControlModes::PARENB;
    tio.special_codes[SpecialCodeIndex::VMIN] = 1;
    tio.special_codes[SpecialCodeIndex::VTIME] = 0;
    tio.set_speed(baud)?;
    tcsetattr(&fd, OptionalActions::Now, &tio)?;
    let _ = tcflush(&fd, QueueSelector::IFlush);
    let flags = fcntl_getfl(fd.as_fd())?;
    fcntl_setfl(fd.as_fd(), flags - OFlags::NONBLOCK)?;
    Ok(File::from(fd))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;

    #[test]
    fn addresses_with_a_port_and_no_slash_are_sockets() {
        assert_eq!(
            Device::parse("tcp:localhost:5555", 9600),
            Device::Tcp("localhost:5555".into())
        );
        assert_eq!(
            Device::parse("127.0.0.1:5555", 9600),
            Device::Tcp("127.0.0.1:5555".into())
        );
        for path in [
            "/dev/ttyACM0",
            "ttyUSB0",
            "./odd:5555",
            ":5555",
            "host:port",
        ] {
            assert_eq!(
                Device::parse(path, 9600),
                Device::Serial {
                    path: PathBuf::from(path),
                    baud: 9600
                },
                "{path}"
            );
        }
    }

    /// Over a real socket: lines split across writes are joined, CR LF is taken,
    /// an overlong line is cut at [`MAX_LINE`] with its rest dropped, silence is
    /// `None` at the deadline and the peer closing is an error.
    #[test]
    fn a_port_reads_whole_lines_by_a_deadline() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let mut port = Port::open(Device::Tcp(addr.to_string())).unwrap();
        let (mut peer, _) = listener.accept().unwrap();
        let soon = || Instant::now() + Duration::from_secs(5);
        port.send_line("version").unwrap();
        let mut got = [0u8; 8];
        peer.read_exact(&mut got).unwrap();
        assert_eq!(&got, b"version\n");
        peer.write_all(b"ok ni").unwrap();
        peer.write_all(b"mbot\r\n").unwrap();
        assert_eq!(
            port.read_line(soon()).unwrap().as_deref(),
            Some("ok nimbot")
        );
        let long = "x".repeat(MAX_LINE + 40);
        peer.write_all(format!("{long}\nnext\n").as_bytes())
            .unwrap();
        assert_eq!(port.read_line(soon()).unwrap(), Some("x".repeat(MAX_LINE)));
        assert_eq!(port.read_line(soon()).unwrap().as_deref(), Some("next"));
        assert_eq!(port.read_line(Instant::now()).unwrap(), None);
        drop(peer);
        let closed = port.read_line(soon()).unwrap_err();
        assert_eq!(closed.kind(), io::ErrorKind::UnexpectedEof);
    }
}
