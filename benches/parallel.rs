//! Checking a pipeline of many files on one core and on all of them: `Pipeline::check` against
//! `Pipeline::check_in_parallel` (what `pipeline-sql check` runs) over 10,000 sources of a few
//! statements each, as a directory of 10,000 files gives them: `cargo bench --bench parallel`.
//! The throughput is in files per second; the ratio of the two is what the cores bring.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use pipeline_sql::{Arena, Pipeline};
use std::hint::black_box;

const FILES: usize = 10_000;

/// The text of file `i`: a table loaded by Auto Loader, a flow into it, a materialized view
/// over it and a view, named after `i` (about 900 bytes).
fn file(i: usize) -> String {
    format!(
        "-- Orders of region {i}.\n\
         CREATE OR REFRESH STREAMING TABLE orders_{i} (\n\
         \x20 CONSTRAINT valid_id EXPECT (order_id IS NOT NULL) ON VIOLATION DROP ROW\n\
         ) COMMENT 'Raw orders of region {i}'\n\
         AS SELECT *, _metadata.file_path AS source_file\n\
         FROM STREAM read_files('/Volumes/main/landing/region_{i}/orders', format => 'json');\n\n\
         CREATE FLOW backfill_{i} AS INSERT ONCE INTO orders_{i} BY NAME\n\
         SELECT * FROM main.archive.orders WHERE region = {i};\n\n\
         CREATE OR REFRESH MATERIALIZED VIEW daily_{i} AS\n\
         SELECT CAST(order_ts AS DATE) AS day, count(*) AS orders, sum(amount) AS revenue\n\
         FROM orders_{i}\n\
         WHERE status IN ('paid', 'shipped')\n\
         GROUP BY ALL;\n\n\
         CREATE TEMPORARY VIEW large_{i} AS\n\
         SELECT o.*, c.segment FROM orders_{i} o JOIN main.crm.customers c USING (customer_id)\n\
         WHERE o.amount > 1000;\n"
    )
}

fn bench(c: &mut Criterion) {
    let texts: Vec<(String, String)> = (0..FILES)
        .map(|i| (format!("region_{i}.sql"), file(i)))
        .collect();
    let mut pipeline = Pipeline::new();
    pipeline.complete(true);
    for (name, text) in &texts {
        pipeline.add_source(name.as_str(), text.as_str());
    }
    // Both find the same: nothing, in the same model.
    let arena = Arena::new();
    let one = pipeline.check(&arena);
    let all = pipeline.check_in_parallel();
    assert!(!one.has_errors() && all.sources.iter().all(|s| s.diagnostics.is_empty()));
    assert_eq!(one.model, all.model);
    drop(one);

    let mut group = c.benchmark_group("parallel");
    group.sample_size(10);
    group.throughput(Throughput::Elements(FILES as u64));
    group.bench_function("check_one_core", |b| {
        b.iter(|| {
            let arena = Arena::new();
            black_box(pipeline.check(&arena).model.datasets.len())
        })
    });
    group.bench_function("check_in_parallel", |b| {
        b.iter(|| black_box(pipeline.check_in_parallel().model.datasets.len()))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
