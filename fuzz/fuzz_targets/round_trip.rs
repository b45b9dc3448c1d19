//! `cargo +nightly fuzz run round_trip` (from the repository root): see `tests/fuzz/checks.rs`.
#![no_main]

#[path = "../../tests/fuzz/checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::round_trip(data));
