//! What the image (`src/main.rs`) and the guard build (`src/guard.rs`) of this
//! board share: the stack's paint.
#![no_std]

// The stack's painting and symbols: unsafe by nature (the manifest denies unsafe
// code elsewhere).
#[allow(unsafe_code)]
pub mod stack;
