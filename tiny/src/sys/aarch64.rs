//! aarch64: the system call instruction and the memory functions LLVM calls (the
//! ELF entry point is [`entry`](super::entry)'s).
//!
//! Kernel ABI: number in `x8`, arguments in `x0`..`x5`, result in `x0` (`-errno` on
//! failure), `svc #0` traps.

use core::arch::asm;

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
