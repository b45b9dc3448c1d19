//! The throughput ratio against sqlparser-rs, with the parsers taking turns.
//!
//! `cargo bench --bench ratio`. The criterion bench (`parse`) measures one parser after the
//! other, and on a shared machine the speed of the machine itself drifts between the two
//! groups (the same sqlparser-rs binary was measured at 4.3 to 6.3 MiB/s). Here every round
//! parses (and releases) the corpus once with each contestant, so drift reaches all alike; the
//! report is the median time of each and the median of the per-round ratios.
//!
//! pipeline-sql runs twice per round. With a fresh arena, the tree's memory is taken from the
//! system and given back in every round (the first parse in a process pays this too). With one
//! arena reset between rounds, as a tool parsing file after file or keystroke after keystroke
//! would use it, the memory stays with the arena. sqlparser-rs's statements are dropped in
//! every round, and the allocator keeps their memory for the next one.

use sqlparser::dialect::GenericDialect;
use std::hint::black_box;
use std::time::{Duration, Instant};

#[path = "support/corpus.rs"]
mod corpus;

const WARM_UP_ROUNDS: usize = 3;
const ROUNDS: usize = 25;

fn median<T: PartialOrd + Copy>(values: &mut [T]) -> T {
    values.sort_by(|a, b| a.partial_cmp(b).expect("times and ratios are comparable"));
    values[values.len() / 2]
}

/// One parser set-up, its input size and its time in each round.
struct Contestant<'c> {
    name: &'static str,
    bytes: usize,
    run: Box<dyn FnMut() + 'c>,
    times: Vec<Duration>,
}

impl<'c> Contestant<'c> {
    fn new(name: &'static str, bytes: usize, run: impl FnMut() + 'c) -> Self {
        let times = Vec::with_capacity(ROUNDS);
        let run = Box::new(run);
        Contestant {
            name,
            bytes,
            run,
            times,
        }
    }

    fn round(&mut self) {
        let start = Instant::now();
        (self.run)();
        self.times.push(start.elapsed());
    }

    /// Bytes per second in round `i`.
    fn throughput(&self, i: usize) -> f64 {
        self.bytes as f64 / self.times[i].as_secs_f64()
    }

    fn report(&self) {
        let time = median(&mut self.times.clone());
        let mib_per_s = self.bytes as f64 / time.as_secs_f64() / (1 << 20) as f64;
        println!(
            "{}: {mib_per_s:.1} MiB/s (median of {ROUNDS} rounds, {:.1} ms)",
            self.name,
            time.as_secs_f64() * 1e3
        );
    }
}

/// The median, lowest and highest of the per-round throughput ratios of `ours` over `theirs`.
fn report_ratio(ours: &Contestant<'_>, theirs: &Contestant<'_>) {
    let mut ratios: Vec<f64> = (0..ROUNDS)
        .map(|i| ours.throughput(i) / theirs.throughput(i))
        .collect();
    let middle = median(&mut ratios);
    let (lowest, highest) = (ratios[0], ratios[ROUNDS - 1]);
    println!(
        "throughput ratio, {} over {}: {middle:.2}x (median of per-round ratios; lowest {lowest:.2}x, highest {highest:.2}x)",
        ours.name, theirs.name
    );
}

fn main() {
    let corpus = corpus::generate(2 << 20, 42);
    let arena = pipeline_sql::Arena::new();
    assert!(pipeline_sql::parse(&arena, &corpus.pipeline)
        .diagnostics()
        .is_empty());
    let mut reused = arena;

    let mut fresh_arena =
        Contestant::new("pipeline-sql, fresh arena", corpus.pipeline.len(), || {
            let arena = pipeline_sql::Arena::new();
            let parsed = pipeline_sql::parse(&arena, black_box(&corpus.pipeline));
            black_box(parsed.script().statements.len());
        });
    let mut reused_arena =
        Contestant::new("pipeline-sql, reused arena", corpus.pipeline.len(), || {
            reused.reset();
            let parsed = pipeline_sql::parse(&reused, black_box(&corpus.pipeline));
            black_box(parsed.script().statements.len());
        });
    let mut sqlparser = Contestant::new("sqlparser-rs", corpus.plain.len(), || {
        let parsed =
            sqlparser::parser::Parser::parse_sql(&GenericDialect {}, black_box(&corpus.plain));
        drop(black_box(parsed.expect("sqlparser parses the corpus")));
    });

    for round in 0..WARM_UP_ROUNDS + ROUNDS {
        for contestant in [&mut fresh_arena, &mut reused_arena, &mut sqlparser] {
            contestant.round();
            if round < WARM_UP_ROUNDS {
                contestant.times.clear();
            }
        }
    }

    for contestant in [&fresh_arena, &reused_arena, &sqlparser] {
        contestant.report();
    }
    report_ratio(&fresh_arena, &sqlparser);
    report_ratio(&reused_arena, &sqlparser);
}
