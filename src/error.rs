//! The common face of the host-side error types (solver; the platform crate's adapters). Each has a
//! `const fn as_str(self) -> &'static str`: the text the command lines print,
//! available without `core::fmt` (which the small targets avoid).
//! [`error_from_as_str!`] gives such a type `Display` with that text and
//! `core::error::Error`. The errors the line protocol reports have a `text()`
//! instead (see `crate::text`), which stays in program memory on the AVR.

/// `Display` (the type's `as_str` text) and `core::error::Error` for error types
/// that have an `as_str`. Exported for nimbot's own crates (the platform's
/// adapters); not part of the API an embedder needs.
#[doc(hidden)]
#[macro_export]
macro_rules! error_from_as_str {
    ($($t:ty),+ $(,)?) => {$(
        impl core::fmt::Display for $t {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl core::error::Error for $t {}
    )+};
}
