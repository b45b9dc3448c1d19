//! `cargo +nightly fuzz run settings` (from the repository root): see `tests/fuzz/checks.rs`.
#![no_main]

#[path = "../../tests/fuzz/checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::settings(data));
