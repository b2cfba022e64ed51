//! The whole operating-system boundary: program entry ([`entry`]), the handful of
//! Linux system calls the tiny binary makes (raw `syscall` / `svc` instructions, see
//! [`arch`]), and the heap over `mmap` ([`heap`]). All of the crate's `unsafe` code
//! is in this module.
//!
//! No C library is linked, so there is nothing else to call: `_start` in [`entry`]
//! is the ELF entry point, and each function here is one system call. The calls, per
//! command, are listed in docs/tiny.md (and enforced by its seccomp test).

/// A failed system call's error number (`errno`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Errno(pub i32);

pub const EINTR: Errno = Errno(4);

impl Errno {
    /// A short description of the errors a player can meet.
    pub fn text(self) -> &'static str {
        match self.0 {
            11 => "timed out (os error 11)",
            32 => "broken pipe (os error 32)",
            101 => "network is unreachable (os error 101)",
            104 => "connection reset by peer (os error 104)",
            110 | 115 => "connection timed out",
            111 => "connection refused (os error 111)",
            113 => "no route to host (os error 113)",
            _ => "system call failed",
        }
    }
}

impl core::fmt::Display for Errno {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.text())
    }
}

impl core::error::Error for Errno {}

impl embedded_io::Error for Errno {
    fn kind(&self) -> embedded_io::ErrorKind {
        embedded_io::ErrorKind::Other
    }
}

/// The architecture's system call instruction and memory functions.
#[cfg_attr(target_arch = "x86_64", path = "sys/x86_64.rs")]
#[cfg_attr(target_arch = "aarch64", path = "sys/aarch64.rs")]
mod arch;
mod entry;
pub mod heap;

/// The system calls this binary makes, by number: x86_64's own table, then
/// aarch64's, which is the kernel's generic one (no `open`, only `openat`).
mod nr {
    /// The number on the architecture built for.
    const fn by_arch(x86_64: usize, aarch64: usize) -> usize {
        if cfg!(target_arch = "x86_64") {
            x86_64
        } else {
            aarch64
        }
    }

    pub const READ: usize = by_arch(0, 63);
    pub const WRITE: usize = by_arch(1, 64);
    pub const CLOSE: usize = by_arch(3, 57);
    pub const MMAP: usize = by_arch(9, 222);
    pub const MUNMAP: usize = by_arch(11, 215);
    pub const RT_SIGACTION: usize = by_arch(13, 134);
    pub const MREMAP: usize = by_arch(25, 216);
    pub const SOCKET: usize = by_arch(41, 198);
    pub const CONNECT: usize = by_arch(42, 203);
    pub const SETSOCKOPT: usize = by_arch(54, 208);
    pub const EXIT_GROUP: usize = by_arch(231, 94);
    pub const NANOSLEEP: usize = by_arch(35, 101);
    pub const CLOCK_GETTIME: usize = by_arch(228, 113);
    pub const OPENAT: usize = by_arch(257, 56);
}

/// One system call with up to five arguments (see [`arch::syscall6`]).
///
/// Safety: the caller guarantees that every pointer argument is valid for what the
/// kernel does with it (reads or writes of the given length) for the call.
unsafe fn syscall5(n: usize, a: usize, b: usize, c: usize, d: usize, e: usize) -> isize {
    // Safety: the caller's contract.
    unsafe { arch::syscall6(n, [a, b, c, d, e, 0]) }
}

fn result(ret: isize) -> Result<usize, Errno> {
    if ret < 0 {
        Err(Errno(ret.unsigned_abs() as i32))
    } else {
        Ok(ret as usize)
    }
}

/// Read into `buf`; `Ok(0)` is the end of input. Interrupted calls are retried.
pub fn read(fd: i32, buf: &mut [u8]) -> Result<usize, Errno> {
    // Safety: the kernel writes at most `buf.len()` bytes into `buf`, which is ours
    // to write for the call.
    unsafe { transfer(nr::READ, fd, buf.as_mut_ptr(), buf.len()) }
}

/// Write some of `buf`. Interrupted calls are retried.
pub fn write(fd: i32, buf: &[u8]) -> Result<usize, Errno> {
    // Safety: the kernel only reads the `buf.len()` bytes of `buf` for `WRITE`.
    unsafe { transfer(nr::WRITE, fd, buf.as_ptr().cast_mut(), buf.len()) }
}

/// `read` or `write` (`call`) of `len` bytes at `ptr`, retried when interrupted;
/// the count is clamped to `len`.
///
/// # Safety
/// `ptr..ptr + len` must be valid for what `call` does to it: writable for `READ`,
/// readable for `WRITE`.
unsafe fn transfer(call: usize, fd: i32, ptr: *mut u8, len: usize) -> Result<usize, Errno> {
    loop {
        // Safety: the caller vouches for the buffer.
        let r = unsafe { syscall5(call, fd as usize, ptr as usize, len, 0, 0) };
        match result(r) {
            Err(EINTR) => continue,
            other => return other.map(|n| n.min(len)),
        }
    }
}

/// Write all of `buf` (a write that makes no progress counts as a broken pipe).
pub fn write_all(fd: i32, mut buf: &[u8]) -> Result<(), Errno> {
    while !buf.is_empty() {
        match write(fd, buf)? {
            0 => return Err(Errno(32)),
            n => buf = buf.get(n..).unwrap_or(&[]),
        }
    }
    Ok(())
}

/// Close a file descriptor (errors are of no use here).
pub fn close(fd: i32) {
    // Safety: no pointers.
    unsafe { syscall5(nr::CLOSE, fd as usize, 0, 0, 0, 0) };
}

/// `O_RDONLY | O_CLOEXEC` (the same bits on x86_64 and aarch64).
const O_RDONLY_CLOEXEC: usize = 0o2000000;
/// `openat`'s "relative to the working directory" (absolute paths ignore it).
const AT_FDCWD: isize = -100;

/// Open the file at `path` (NUL-terminated) for reading.
pub fn open_read(path: &core::ffi::CStr) -> Result<i32, Errno> {
    // Safety: the kernel reads the NUL-terminated path.
    let r = unsafe {
        syscall5(
            nr::OPENAT,
            AT_FDCWD as usize,
            path.as_ptr() as usize,
            O_RDONLY_CLOEXEC,
            0,
            0,
        )
    };
    result(r).map(|fd| fd as i32)
}

/// End the process with `code`.
pub fn exit(code: u8) -> ! {
    loop {
        // Safety: no pointers; exit_group does not return.
        unsafe { syscall5(nr::EXIT_GROUP, code as usize, 0, 0, 0, 0) };
    }
}

/// Ignore SIGPIPE, as Rust's std does at start: a closed pipe or socket then makes
/// the write fail with EPIPE (an error the caller reports) instead of killing us.
pub fn ignore_sigpipe() {
    /// The kernel's `struct sigaction` on x86_64.
    #[repr(C)]
    struct SigAction {
        handler: usize,
        flags: u64,
        restorer: usize,
        mask: u64,
    }
    const SIGPIPE: usize = 13;
    const SIG_IGN: usize = 1;
    let act = SigAction {
        handler: SIG_IGN,
        flags: 0,
        restorer: 0,
        mask: 0,
    };
    // Safety: `act` is a valid sigaction for the call; the old action is not asked
    // for (null); 8 is the size of the kernel's signal set.
    unsafe {
        syscall5(
            nr::RT_SIGACTION,
            SIGPIPE,
            &act as *const SigAction as usize,
            0,
            8,
            0,
        )
    };
}

/// An IPv4 TCP socket, closed on drop.
pub struct Socket(i32);

// socket(2)'s domain and type.
const AF_INET: usize = 2;
const SOCK_STREAM: usize = 1;
const SOCK_CLOEXEC: usize = 0o2000000;

/// A socket option: its level and its name, which only mean something together.
type SockOpt = (usize, usize);
const SOL_SOCKET: usize = 1;
const IPPROTO_TCP: usize = 6;
const SO_RCVTIMEO: SockOpt = (SOL_SOCKET, 20);
const SO_SNDTIMEO: SockOpt = (SOL_SOCKET, 21);
const TCP_NODELAY: SockOpt = (IPPROTO_TCP, 1);
const TCP_QUICKACK: SockOpt = (IPPROTO_TCP, 12);

impl Socket {
    /// A new TCP socket.
    pub fn tcp() -> Result<Socket, Errno> {
        // Safety: no pointers.
        let r = unsafe { syscall5(nr::SOCKET, AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0, 0, 0) };
        result(r).map(|fd| Socket(fd as i32))
    }

    /// The descriptor, for `read`/`write`.
    pub fn fd(&self) -> i32 {
        self.0
    }

    /// Connect to `ip:port`.
    pub fn connect(&self, ip: [u8; 4], port: u16) -> Result<(), Errno> {
        /// The kernel's `struct sockaddr_in`.
        #[repr(C)]
        struct SockaddrIn {
            family: u16,
            port: [u8; 2],
            addr: [u8; 4],
            zero: [u8; 8],
        }
        let sa = SockaddrIn {
            family: AF_INET as u16,
            port: port.to_be_bytes(),
            addr: ip,
            zero: [0; 8],
        };
        loop {
            // Safety: the kernel reads `size_of::<SockaddrIn>()` bytes from `sa`.
            let r = unsafe {
                syscall5(
                    nr::CONNECT,
                    self.0 as usize,
                    &sa as *const SockaddrIn as usize,
                    core::mem::size_of::<SockaddrIn>(),
                    0,
                    0,
                )
            };
            match result(r) {
                Err(EINTR) => continue,
                other => return other.map(|_| ()),
            }
        }
    }

    fn set(&self, (level, name): SockOpt, value: &[u8]) -> Result<(), Errno> {
        // Safety: the kernel reads `value.len()` bytes from `value`.
        let r = unsafe {
            syscall5(
                nr::SETSOCKOPT,
                self.0 as usize,
                level,
                name,
                value.as_ptr() as usize,
                value.len(),
            )
        };
        result(r).map(|_| ())
    }

    fn set_flag(&self, option: SockOpt) -> Result<(), Errno> {
        self.set(option, &1i32.to_ne_bytes())
    }

    /// Send small messages at once (no Nagle delay).
    pub fn set_nodelay(&self) -> Result<(), Errno> {
        self.set_flag(TCP_NODELAY)
    }

    /// Acknowledge at once; Linux clears this after a while, so re-arm before reads.
    pub fn set_quickack(&self) -> Result<(), Errno> {
        self.set_flag(TCP_QUICKACK)
    }

    /// Reads fail with EAGAIN after `micros` without data (0: wait forever).
    pub fn set_read_timeout(&self, micros: u64) -> Result<(), Errno> {
        self.set(SO_RCVTIMEO, &timeval(micros))
    }

    /// Writes (and, on Linux, `connect`) give up after `micros`.
    pub fn set_write_timeout(&self, micros: u64) -> Result<(), Errno> {
        self.set(SO_SNDTIMEO, &timeval(micros))
    }
}

impl Drop for Socket {
    fn drop(&mut self) {
        close(self.0);
    }
}

/// A `struct timeval` (seconds and microseconds, two i64) as bytes.
fn timeval(micros: u64) -> [u8; 16] {
    seconds_and(micros / 1_000_000, micros % 1_000_000)
}

/// Two i64, seconds and a fraction (`struct timeval`, `struct timespec`), as bytes.
fn seconds_and(secs: u64, fraction: u64) -> [u8; 16] {
    let mut tv = [0u8; 16];
    let (a, b) = tv.split_at_mut(8);
    a.copy_from_slice(&(secs as i64).to_ne_bytes());
    b.copy_from_slice(&(fraction as i64).to_ne_bytes());
    tv
}

/// `CLOCK_MONOTONIC`.
const CLOCK_MONOTONIC: usize = 1;

/// Microseconds on the monotonic clock (0 if it cannot be read).
pub fn now_micros() -> u64 {
    let mut ts = [0u8; 16];
    // Safety: the kernel writes one `struct timespec` (16 bytes) into `ts`.
    unsafe {
        syscall5(
            nr::CLOCK_GETTIME,
            CLOCK_MONOTONIC,
            ts.as_mut_ptr() as usize,
            0,
            0,
            0,
        )
    };
    let (secs, nanos) = ts.split_at(8);
    let word = |b: &[u8]| u64::from_ne_bytes(b.try_into().unwrap_or([0; 8]));
    word(secs)
        .saturating_mul(1_000_000)
        .saturating_add(word(nanos) / 1000)
}

/// Sleep for `micros` microseconds (a signal may end it early).
pub fn sleep(micros: u64) {
    let ts = seconds_and(micros / 1_000_000, micros % 1_000_000 * 1000);
    // Safety: the kernel reads one `struct timespec` from `ts`; no remainder is
    // asked for (null).
    unsafe { syscall5(nr::NANOSLEEP, ts.as_ptr() as usize, 0, 0, 0, 0) };
}

/// The most command-line arguments the binary looks at (more is a usage error).
pub const MAX_ARGS: usize = 32;

/// The command-line arguments after the program name.
pub struct Args {
    items: [&'static [u8]; MAX_ARGS],
    len: usize,
    /// More arguments than [`MAX_ARGS`] were given.
    pub overflow: bool,
}

impl Args {
    /// The arguments as byte strings.
    pub fn as_slice(&self) -> &[&'static [u8]] {
        self.items.get(..self.len).unwrap_or(&[])
    }
}

/// Any panic the optimizer cannot prove unreachable makes the link fail, as in the
/// firmware: this handler calls a function defined nowhere, so the release build
/// (LTO, `panic = "abort"`) links only if no panic path is left.
#[cfg(not(feature = "find-panics"))]
#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    extern "C" {
        fn nimbot_tiny_has_a_reachable_panic() -> !;
    }
    // Safety: never runs. The symbol does not exist, so a build that still
    // references this handler does not link.
    unsafe { nimbot_tiny_has_a_reachable_panic() }
}

/// With the `find-panics` feature the build links with panics left in, so that
/// `tools/tiny.sh panics` can list the functions that call the panic machinery.
#[cfg(feature = "find-panics")]
#[panic_handler]
#[inline(never)]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    exit(101)
}

/// Safety: `a` and `b` are valid for `n` bytes.
#[no_mangle]
pub unsafe extern "C" fn memcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    for i in 0..n {
        // Safety: `i < n`; volatile reads keep LLVM from turning this into a call to
        // memcmp itself.
        let (x, y) = unsafe { (a.add(i).read_volatile(), b.add(i).read_volatile()) };
        if x != y {
            return i32::from(x) - i32::from(y);
        }
    }
    0
}

/// Safety: `a` and `b` are valid for `n` bytes.
#[no_mangle]
pub unsafe extern "C" fn bcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    // Safety: the caller's contract.
    unsafe { memcmp(a, b, n) }
}
