//! aarch64: the system call instruction, the call numbers, the ELF entry point and
//! the memory functions LLVM calls.
//!
//! Kernel ABI: number in `x8`, arguments in `x0`..`x5`, result in `x0` (`-errno` on
//! failure), `svc #0` traps. The numbers are the generic table's (no `open`, only
//! `openat`).

use core::arch::{asm, global_asm};

pub const READ: usize = 63;
pub const WRITE: usize = 64;
pub const CLOSE: usize = 57;
pub const MMAP: usize = 222;
pub const MUNMAP: usize = 215;
pub const RT_SIGACTION: usize = 134;
pub const MREMAP: usize = 216;
pub const SOCKET: usize = 198;
pub const CONNECT: usize = 203;
pub const SETSOCKOPT: usize = 208;
pub const EXIT_GROUP: usize = 94;
pub const NANOSLEEP: usize = 101;
pub const CLOCK_GETTIME: usize = 113;
pub const OPENAT: usize = 56;

/// One system call with up to six arguments.
///
/// Safety: the caller guarantees that every pointer argument is valid for what the
/// kernel does with it (reads or writes of the given length) for the call.
pub unsafe fn syscall6(n: usize, a: [usize; 6]) -> isize {
    let ret: isize;
    // Safety: `svc #0` changes only x0 (declared) and touches memory only through
    // the pointers the caller vouched for.
    unsafe {
        asm!(
            "svc #0",
            in("x8") n,
            inlateout("x0") a[0] as isize => ret,
            in("x1") a[1],
            in("x2") a[2],
            in("x3") a[3],
            in("x4") a[4],
            in("x5") a[5],
            options(nostack),
        );
    }
    ret
}

// The ELF entry point. The kernel starts us with `sp` (16-byte aligned) pointing at
// argc, then the argv pointers; pass that address to `start`, with a null frame
// pointer and link register ending the call chain.
global_asm!(
    ".globl _start",
    "_start:",
    "mov x29, #0",
    "mov x30, #0",
    "mov x0, sp",
    "bl {start}",
    "udf #0",
    start = sym super::start,
);

// The memory functions LLVM emits calls to. Rust's `compiler_builtins` leaves them
// to the C library on this target, and there is none. Volatile accesses keep LLVM
// from recognising the loops as the very functions they define (and calling them).

/// Safety: `dst` and `src` are valid for `n` bytes and do not overlap.
#[no_mangle]
pub unsafe extern "C" fn memcpy(dst: *mut u8, src: *const u8, n: usize) -> *mut u8 {
    for i in 0..n {
        // Safety: `i < n`, the caller's contract.
        unsafe { dst.add(i).write_volatile(src.add(i).read_volatile()) };
    }
    dst
}

/// Safety: `dst` and `src` are valid for `n` bytes; they may overlap.
#[no_mangle]
pub unsafe extern "C" fn memmove(dst: *mut u8, src: *const u8, n: usize) -> *mut u8 {
    if (dst as usize).wrapping_sub(src as usize) >= n {
        // Safety: no harmful overlap when copying forwards (dst before src or apart).
        return unsafe { memcpy(dst, src, n) };
    }
    for i in (0..n).rev() {
        // Safety: `i < n`; backwards, each byte is read before it is overwritten.
        unsafe { dst.add(i).write_volatile(src.add(i).read_volatile()) };
    }
    dst
}

/// Safety: `dst` is valid for `n` bytes.
#[no_mangle]
pub unsafe extern "C" fn memset(dst: *mut u8, c: i32, n: usize) -> *mut u8 {
    for i in 0..n {
        // Safety: `i < n`, the caller's contract.
        unsafe { dst.add(i).write_volatile(c as u8) };
    }
    dst
}
