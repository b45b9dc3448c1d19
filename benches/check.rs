//! Checking time against pipeline size: `cargo bench --bench check`. The throughput is in
//! statements per second; equal throughput for 1k and 10k statements means linear time.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;

#[path = "support/corpus.rs"]
mod corpus;

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("check");
    group.sample_size(10);
    for statements in [1_000, 10_000] {
        let corpus = corpus::generate_statements(statements, 7);
        group.throughput(Throughput::Elements(statements as u64));
        group.bench_with_input(
            BenchmarkId::from_parameter(statements),
            &corpus.pipeline,
            |b, text| {
                b.iter(|| {
                    let mut pipeline = pipeline_sql::Pipeline::new();
                    pipeline.add_source("generated.sql", black_box(text));
                    pipeline.complete(true);
                    let arena = pipeline_sql::Arena::new();
                    black_box(pipeline.check(&arena).has_errors())
                })
            },
        );
    }
    group.finish();
}

criterion_group!(check_benches, benches);
criterion_main!(check_benches);
