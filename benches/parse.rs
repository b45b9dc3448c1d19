//! Parsing throughput, side by side with sqlparser-rs on the same query bodies.
//!
//! `cargo bench --bench parse` (add `-- --quick` for a shorter run). Each group reports bytes
//! per second of its own input; compare `pipeline_sql/parse` with `sqlparser/parse`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sqlparser::dialect::GenericDialect;
use std::hint::black_box;

#[path = "support/corpus.rs"]
mod corpus;

/// About 2 MB of pipeline SQL.
const CORPUS_BYTES: usize = 2 << 20;

fn benches(c: &mut Criterion) {
    let corpus = corpus::generate(CORPUS_BYTES, 42);
    let arena = pipeline_sql::Arena::new();
    let parsed = pipeline_sql::parse(&arena, &corpus.pipeline);
    assert!(
        parsed.diagnostics().is_empty(),
        "the generated corpus must parse: {:?}",
        &parsed.diagnostics()[..1]
    );
    sqlparser::parser::Parser::parse_sql(&GenericDialect {}, &corpus.plain)
        .expect("sqlparser parses the corpus");

    let mut group = c.benchmark_group("lex");
    group.throughput(Throughput::Bytes(corpus.pipeline.len() as u64));
    group.bench_function("pipeline_sql", |b| {
        b.iter(|| pipeline_sql::lexer::Lexer::new(black_box(&corpus.pipeline)).count())
    });
    group.finish();

    let mut group = c.benchmark_group("parse");
    group.sample_size(20);
    group.throughput(Throughput::Bytes(corpus.pipeline.len() as u64));
    group.bench_function("pipeline_sql", |b| {
        // The arena, and with it the tree, is released inside the timing, as sqlparser-rs's
        // statements are dropped inside it.
        b.iter(|| {
            let arena = pipeline_sql::Arena::new();
            let parsed = pipeline_sql::parse(&arena, black_box(&corpus.pipeline));
            black_box(parsed.script().statements.len())
        })
    });
    group.throughput(Throughput::Bytes(corpus.plain.len() as u64));
    group.bench_function("sqlparser", |b| {
        b.iter(|| {
            sqlparser::parser::Parser::parse_sql(&GenericDialect {}, black_box(&corpus.plain))
        })
    });
    group.finish();
}

criterion_group!(parse_benches, benches);
criterion_main!(parse_benches);
