//! The throughput ratio against sqlparser-rs, with the two parsers taking turns.
//!
//! `cargo bench --bench ratio`. The criterion bench (`parse`) measures one parser after the
//! other, and on a shared machine the speed of the machine itself drifts between the two
//! groups (the same sqlparser-rs binary was measured at 4.3 to 6.3 MiB/s). Here every round
//! parses (and drops) the corpus once with each parser, so drift reaches both alike; the
//! report is the median time of each and the median of the per-round ratios.

use sqlparser::dialect::GenericDialect;
use std::hint::black_box;
use std::time::{Duration, Instant};

#[path = "support/corpus.rs"]
mod corpus;

const WARM_UP_ROUNDS: usize = 3;
const ROUNDS: usize = 25;

fn timed(work: impl FnOnce()) -> Duration {
    let start = Instant::now();
    work();
    start.elapsed()
}

fn median<T: PartialOrd + Copy>(values: &mut [T]) -> T {
    values.sort_by(|a, b| a.partial_cmp(b).expect("times and ratios are comparable"));
    values[values.len() / 2]
}

fn main() {
    let corpus = corpus::generate(2 << 20, 42);
    // The arena, and with it the tree, is released in the timing, as sqlparser-rs's
    // statements are dropped in it.
    let ours = || {
        let arena = pipeline_sql::Arena::new();
        let parsed = pipeline_sql::parse(&arena, black_box(&corpus.pipeline));
        black_box(parsed.script().statements.len());
    };
    let theirs = || {
        let parsed =
            sqlparser::parser::Parser::parse_sql(&GenericDialect {}, black_box(&corpus.plain));
        drop(black_box(parsed.expect("sqlparser parses the corpus")));
    };
    assert!(
        pipeline_sql::parse(&pipeline_sql::Arena::new(), &corpus.pipeline)
            .diagnostics()
            .is_empty()
    );
    for _ in 0..WARM_UP_ROUNDS {
        ours();
        theirs();
    }

    let mut our_times = Vec::with_capacity(ROUNDS);
    let mut their_times = Vec::with_capacity(ROUNDS);
    let mut ratios = Vec::with_capacity(ROUNDS);
    for _ in 0..ROUNDS {
        let our_time = timed(ours);
        let their_time = timed(theirs);
        // Throughput ratio: bytes per second of ours over bytes per second of theirs.
        ratios.push(
            (corpus.pipeline.len() as f64 / our_time.as_secs_f64())
                / (corpus.plain.len() as f64 / their_time.as_secs_f64()),
        );
        our_times.push(our_time);
        their_times.push(their_time);
    }

    let mib_per_s =
        |bytes: usize, time: Duration| bytes as f64 / time.as_secs_f64() / (1 << 20) as f64;
    let (our_median, their_median) = (median(&mut our_times), median(&mut their_times));
    println!(
        "pipeline-sql: {:.1} MiB/s (median of {ROUNDS} rounds, {:.1} ms)",
        mib_per_s(corpus.pipeline.len(), our_median),
        our_median.as_secs_f64() * 1e3
    );
    println!(
        "sqlparser-rs: {:.1} MiB/s (median of {ROUNDS} rounds, {:.1} ms)",
        mib_per_s(corpus.plain.len(), their_median),
        their_median.as_secs_f64() * 1e3
    );
    let middle = median(&mut ratios);
    let (lowest, highest) = (ratios[0], ratios[ROUNDS - 1]);
    println!("throughput ratio: {middle:.2}x (median of per-round ratios; lowest {lowest:.2}x, highest {highest:.2}x)");
}
