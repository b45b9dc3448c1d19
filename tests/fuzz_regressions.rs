//! Replays every input that ever failed a fuzz target (`tests/fuzz/corpus/<target>/`, each
//! minimized) through what that target asserts (`tests/fuzz/checks.rs`).
#![cfg(feature = "cli")]

#[path = "fuzz/checks.rs"]
mod checks;

use std::path::Path;

#[test]
fn every_input_that_failed_a_fuzz_target_passes_it() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz/corpus");
    let mut replayed = 0;
    for &(target, run) in checks::TARGETS {
        // A target that never failed has no directory.
        let Ok(dir) = std::fs::read_dir(corpus.join(target)) else {
            continue;
        };
        let mut inputs: Vec<_> = dir.map(|entry| entry.unwrap().path()).collect();
        inputs.sort();
        for input in inputs {
            let data = std::fs::read(&input).unwrap();
            // A stack overflow aborts the whole test: give each input the stack a thread has.
            std::thread::Builder::new()
                .stack_size(if cfg!(debug_assertions) {
                    8 << 20
                } else {
                    2 << 20
                })
                .spawn(move || run(&data))
                .unwrap()
                .join()
                .unwrap_or_else(|_| panic!("{target}: {} fails", input.display()));
            replayed += 1;
        }
    }
    assert!(replayed > 0, "no inputs in {}", corpus.display());
}
