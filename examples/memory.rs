//! Peak memory of parsing, in bytes per input byte, for pipeline-sql and for sqlparser-rs on
//! the benchmark corpus: `cargo run --release --example memory`.
//!
//! The peak counts every live heap byte while the tree is built and held, source excluded. For
//! pipeline-sql that is the arena's blocks in full: the arena doubles the size of each new block,
//! so up to half of the last one is reserved but not yet used (and, never written, takes no
//! physical memory).

use peak_alloc::PeakAlloc;
use sqlparser::dialect::GenericDialect;

#[path = "../benches/support/corpus.rs"]
mod corpus;

#[global_allocator]
static ALLOCATOR: PeakAlloc = PeakAlloc;

/// Peak heap growth while `work` runs and its result is alive, in bytes.
fn peak_of<T>(work: impl FnOnce() -> T) -> (usize, T) {
    let before = ALLOCATOR.current_usage();
    ALLOCATOR.reset_peak_usage();
    let result = work();
    (ALLOCATOR.peak_usage().saturating_sub(before), result)
}

fn main() {
    let corpus = corpus::generate(2 << 20, 42);
    // The tree lives in the arena: the arena is what stays alive.
    let (ours, arena) = peak_of(|| {
        let arena = pipeline_sql::Arena::new();
        assert!(pipeline_sql::parse(&arena, &corpus.pipeline)
            .diagnostics()
            .is_empty());
        arena
    });
    drop(arena);
    let (theirs, statements) =
        peak_of(|| sqlparser::parser::Parser::parse_sql(&GenericDialect {}, &corpus.plain));
    assert!(statements.is_ok());
    drop(statements);
    let per_byte = |peak: usize, input: usize| peak as f64 / input as f64;
    println!(
        "pipeline-sql: {:.1} bytes per input byte ({} bytes of input)",
        per_byte(ours, corpus.pipeline.len()),
        corpus.pipeline.len()
    );
    println!(
        "sqlparser-rs: {:.1} bytes per input byte ({} bytes of input)",
        per_byte(theirs, corpus.plain.len()),
        corpus.plain.len()
    );
}
