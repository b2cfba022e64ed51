//! The program's entry: `_start`, where the kernel hands over the process, collects
//! the command-line arguments, runs the binary's [`main`](crate::main) and exits
//! with its status. It sits above the rest of the crate: it calls the program, and
//! nothing calls it but the kernel.

use core::arch::global_asm;

use super::{exit, Args, MAX_ARGS};

// x86_64: the kernel starts us with `rsp` pointing at argc, then the argv pointers;
// pass that address to `start`, with the stack aligned as a call expects it.
#[cfg(target_arch = "x86_64")]
global_asm!(
    ".globl _start",
    "_start:",
    "xor ebp, ebp",
    "mov rdi, rsp",
    "and rsp, -16",
    "call {start}",
    "ud2",
    start = sym start,
);

// aarch64: the kernel starts us with `sp` (16-byte aligned) pointing at argc, then
// the argv pointers; pass that address to `start`, with a null frame pointer and
// link register ending the call chain.
#[cfg(target_arch = "aarch64")]
global_asm!(
    ".globl _start",
    "_start:",
    "mov x29, #0",
    "mov x30, #0",
    "mov x0, sp",
    "bl {start}",
    "udf #0",
    start = sym start,
);

/// Collect the arguments, run [`crate::main`] and exit with its status.
///
/// Safety: called once, from `_start`, with the initial stack pointer the kernel
/// set up (argc, then argc pointers to NUL-terminated strings that live as long as
/// the process).
unsafe extern "C" fn start(sp: *const usize) -> ! {
    let mut args = Args {
        items: [&[]; MAX_ARGS],
        len: 0,
        overflow: false,
    };
    // Safety: see the function's contract: the kernel's argument block.
    unsafe {
        let argc = *sp;
        let argv = sp.add(1) as *const *const u8;
        for i in 1..argc {
            let p = *argv.add(i);
            let mut n = 0;
            while p.add(n).read_volatile() != 0 {
                n += 1;
            }
            let arg = core::slice::from_raw_parts(p, n);
            match args.items.get_mut(args.len) {
                Some(slot) => {
                    *slot = arg;
                    args.len += 1;
                }
                None => args.overflow = true,
            }
        }
    }
    exit(crate::main(&args))
}
