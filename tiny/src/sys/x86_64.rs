//! x86_64: the system call instruction and the memory functions LLVM calls (the
//! ELF entry point is [`entry`](super::entry)'s).
//!
//! Kernel ABI: number in `rax`, arguments in `rdi rsi rdx r10 r8 r9`, result in
//! `rax` (`-errno` on failure), `rcx` and `r11` clobbered.

use core::arch::asm;

/// One system call with up to six arguments.
///
/// Safety: the caller guarantees that every pointer argument is valid for what the
/// kernel does with it (reads or writes of the given length) for the call.
pub unsafe fn syscall6(n: usize, a: [usize; 6]) -> isize {
    let ret: isize;
    // Safety: the `syscall` instruction only clobbers rcx and r11 (declared) and
    // touches memory only through the pointers the caller vouched for.
    unsafe {
        asm!(
            "syscall",
            inlateout("rax") n as isize => ret,
            in("rdi") a[0],
            in("rsi") a[1],
            in("rdx") a[2],
            in("r10") a[3],
            in("r8") a[4],
            in("r9") a[5],
            lateout("rcx") _,
            lateout("r11") _,
            options(nostack),
        );
    }
    ret
}

// The memory functions LLVM emits calls to. Rust's `compiler_builtins` leaves them
// to the C library on this target, and there is none. `rep movsb`/`rep stosb` keep
// LLVM from recognising the bodies as the very functions they define.

/// Safety: `dst` and `src` are valid for `n` bytes and do not overlap.
#[no_mangle]
pub unsafe extern "C" fn memcpy(dst: *mut u8, src: *const u8, n: usize) -> *mut u8 {
    // Safety: the caller's contract; the direction flag is clear (the ABI's default).
    unsafe {
        asm!("rep movsb", inout("rcx") n => _, inout("rdi") dst => _, inout("rsi") src => _,
             options(nostack, preserves_flags));
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
    // Safety: copy backwards from the last byte with the direction flag set, and
    // clear it again as the ABI requires. `n > 0` here (else the test above passed).
    unsafe {
        asm!("std", "rep movsb", "cld",
             inout("rcx") n => _, inout("rdi") dst.add(n - 1) => _, inout("rsi") src.add(n - 1) => _,
             options(nostack));
    }
    dst
}

/// Safety: `dst` is valid for `n` bytes.
#[no_mangle]
pub unsafe extern "C" fn memset(dst: *mut u8, c: i32, n: usize) -> *mut u8 {
    // Safety: the caller's contract; the direction flag is clear.
    unsafe {
        asm!("rep stosb", inout("rcx") n => _, inout("rdi") dst => _, in("al") c as u8,
             options(nostack, preserves_flags));
    }
    dst
}
