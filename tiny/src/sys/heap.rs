//! The heap, for the solver's few large arrays: every allocation is its own
//! anonymous `mmap` (zeroed by the kernel), freed with `munmap` and grown with
//! `mremap`, and all of them together stay under a byte limit (`--max-memory`).
//!
//! The solver allocates a handful of vectors per solve, so a system call per
//! allocation costs nothing worth measuring, and there is no free list to get
//! wrong. Running out (the limit, or the kernel refusing, as under `ulimit -v`) is
//! not a crash: the allocation returns null, the core's solver (which reserves
//! every array fallibly) reports it, and the command prints one line and exits with
//! [`OUT_OF_MEMORY`]. The link-time panic guard proves that no infallible
//! allocation, which would abort instead, is left.

use core::alloc::{GlobalAlloc, Layout};
use core::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use super::{nr, result, syscall5};

/// Exit status when a game does not fit in the memory allowed.
pub const OUT_OF_MEMORY: u8 = 4;

/// The default limit: 64 MiB.
pub const DEFAULT_LIMIT: usize = 64 << 20;

/// Allocation sizes are counted in (at least) 4 KiB pages, as `mmap` hands them out.
const PAGE: usize = 4096;

const PROT_READ_WRITE: usize = 0x1 | 0x2;
const MAP_PRIVATE_ANONYMOUS: usize = 0x02 | 0x20;
const MREMAP_MAYMOVE: usize = 1;

/// Bytes the heap may hold at once.
static LIMIT: AtomicUsize = AtomicUsize::new(DEFAULT_LIMIT);
/// Bytes it holds now (page-rounded). The program is single-threaded; plain loads
/// and stores (no read-modify-write atomics) need no run-time support on aarch64.
static USED: AtomicUsize = AtomicUsize::new(0);

/// Set the limit (call before the first allocation).
pub fn set_limit(bytes: usize) {
    LIMIT.store(bytes, Relaxed);
}

/// The limit in bytes.
pub fn limit() -> usize {
    LIMIT.load(Relaxed)
}

/// `size` rounded up to whole pages, `None` if that overflows.
fn pages(size: usize) -> Option<usize> {
    size.max(1).checked_add(PAGE - 1).map(|n| n & !(PAGE - 1))
}

/// Count `add` more bytes (and `sub` fewer), or report that the limit is reached.
// One copy for the allocator's three entry points (80 B less).
#[inline(never)]
fn charge(add: usize, sub: usize) -> Option<()> {
    let used = USED.load(Relaxed).saturating_sub(sub).checked_add(add)?;
    if used > limit() {
        return None;
    }
    USED.store(used, Relaxed);
    Some(())
}

/// The global allocator over `mmap`.
pub struct Mmap;

// Safety: every pointer handed out is a fresh private mapping of at least the
// requested size, page-aligned (so aligned for any layout up to a page, and larger
// alignments are refused); `dealloc`/`realloc` get back exactly what `alloc` gave.
unsafe impl GlobalAlloc for Mmap {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let Some(len) = pages(layout.size()).filter(|_| layout.align() <= PAGE) else {
            return core::ptr::null_mut();
        };
        if charge(len, 0).is_none() {
            return core::ptr::null_mut();
        }
        // Safety: a new anonymous mapping touches no existing memory.
        let r = unsafe {
            super::arch::syscall6(
                nr::MMAP,
                [
                    0,
                    len,
                    PROT_READ_WRITE,
                    MAP_PRIVATE_ANONYMOUS,
                    usize::MAX,
                    0,
                ],
            )
        };
        match result(r) {
            Ok(addr) if addr != 0 => addr as *mut u8,
            _ => {
                let _ = charge(0, len);
                core::ptr::null_mut()
            }
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // Safety: the same contract; fresh anonymous mappings are zero-filled.
        unsafe { self.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let len = pages(layout.size()).unwrap_or(0);
        // Safety: `ptr` and `len` are a mapping `alloc`/`realloc` made, which the
        // caller no longer uses.
        unsafe { syscall5(nr::MUNMAP, ptr as usize, len, 0, 0, 0) };
        let _ = charge(0, len);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let old = pages(layout.size()).unwrap_or(0);
        let Some(new) = pages(new_size) else {
            return core::ptr::null_mut();
        };
        if charge(new, old).is_none() {
            return core::ptr::null_mut();
        }
        // Safety: `ptr`/`old` is our mapping; the kernel moves or grows it and
        // keeps its contents (up to the smaller size).
        let r = unsafe { syscall5(nr::MREMAP, ptr as usize, old, new, MREMAP_MAYMOVE, 0) };
        match result(r) {
            Ok(addr) if addr != 0 => addr as *mut u8,
            _ => {
                // The old mapping is still there, unchanged: count it again.
                let _ = charge(old, new);
                core::ptr::null_mut()
            }
        }
    }
}
