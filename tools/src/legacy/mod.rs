//! Earlier generations, for `nimbot-table bench` only: the per-position solver and
//! format version 1 as they were before, and a naive every-move solver. Measuring
//! them in the same run as the current code makes the ratios honest; the core, the
//! firmware and the tiny binary carry none of this.

pub mod naive;
pub mod solver;
pub mod v1;
