//! Shared by every target: a global allocator that counts allocations, so a target
//! can assert that the core under test never touches the heap.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards every call to the system allocator unchanged; it only counts.
// (The fuzz targets' one unsafe code: the manifest denies it elsewhere.)
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Run `f` and panic if it allocated: the core is heap-free, so any allocation
/// means something grew.
pub fn no_heap<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let out = f();
    let after = ALLOCATIONS.load(Ordering::Relaxed);
    assert_eq!(before, after, "{what} allocated {} times", after - before);
    out
}

/// The embedded table's engine, validated once (its CRC and checks would dominate
/// a run). Not every target plays moves.
#[allow(dead_code)]
pub fn engine() -> nimbot::TableEngine {
    static ENGINE: std::sync::OnceLock<nimbot::TableEngine> = std::sync::OnceLock::new();
    ENGINE
        .get_or_init(|| nimbot::TableEngine::embedded())
        .clone()
}
