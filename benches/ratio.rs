//! The throughput ratio against sqlparser-rs, with the parsers taking turns (see
//! `support/rounds.rs`).
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
#[path = "support/corpus.rs"]
mod corpus;
#[path = "support/rounds.rs"]
mod rounds;

use rounds::{report_ratio, take_turns, Contestant};

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

    take_turns(&mut [&mut fresh_arena, &mut reused_arena, &mut sqlparser]);

    for contestant in [&fresh_arena, &reused_arena, &sqlparser] {
        contestant.report();
    }
    report_ratio(&fresh_arena, &sqlparser);
    report_ratio(&reused_arena, &sqlparser);
}
