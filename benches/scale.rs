//! Time against size for the inputs that once took quadratic time: `cargo bench --bench scale`
//! (needs the `cli` feature for rendering: `cargo bench --features cli --bench scale`).
//!
//! Each input is made at 10k and 100k items, and the throughput is in items per second: equal
//! throughput at both sizes means linear time. The items are the relations of one FROM list,
//! the common table expressions of one WITH, the columns of one JSON_TABLE, the definitions of
//! one WINDOW clause and the entries of one optimizer hint (each parsed and checked), and
//! statements of pipelines whose reports are rendered for people, as JSON and as SARIF: one
//! statement in a hundred broken, every dataset named twice, views reading each other in one
//! cycle, every statement on one line (each with a warning), and names of one length each read
//! one slip from a dataset's (the misspelt-read search); and the libraries of a bundle, each a
//! file that does not exist, read from its settings file.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;

/// `head`, then `item(i)` for each i below n joined by `separator`, then `tail`.
fn list(
    n: usize,
    head: &str,
    item: impl Fn(usize) -> String,
    separator: &str,
    tail: &str,
) -> String {
    let items: Vec<String> = (0..n).map(item).collect();
    format!("{head}{}{tail}", items.join(separator))
}

/// The one-statement inputs, by name, at `n` items.
fn lists(n: usize) -> Vec<(&'static str, String)> {
    vec![
        (
            "from_relations",
            list(n, "SELECT 1 FROM ", |i| format!("t{i}"), ", ", ";"),
        ),
        (
            "ctes",
            list(
                n,
                "WITH ",
                |i| format!("c{i} AS (SELECT 1)"),
                ", ",
                " SELECT 1;",
            ),
        ),
        (
            "json_table_columns",
            list(
                n,
                "SELECT * FROM JSON_TABLE(doc, '$' COLUMNS (",
                |i| format!("c{i} INT"),
                ", ",
                "));",
            ),
        ),
        (
            "window_definitions",
            list(
                n,
                "SELECT 1 FROM t WINDOW ",
                |i| format!("w{i} AS (PARTITION BY a)"),
                ", ",
                ";",
            ),
        ),
        (
            "hint_entries",
            list(n, "SELECT /*+ ", |_| "BROADCAST".to_string(), " ", " */ 1;"),
        ),
    ]
}

/// The pipelines whose reports are rendered, by name, at `n` statements.
#[cfg(feature = "cli")]
fn pipelines(n: usize) -> Vec<(&'static str, String)> {
    let one_in_a_hundred_broken = |i: usize| match i % 100 {
        0 => "SELECT FROM WHERE;\n".to_string(),
        _ => format!("CREATE MATERIALIZED VIEW m{i} AS SELECT a, b FROM src WHERE x > {i};\n"),
    };
    vec![
        (
            "one_in_a_hundred_broken",
            list(n, "", one_in_a_hundred_broken, "", ""),
        ),
        (
            "duplicate_datasets",
            list(
                n,
                "",
                |_| "CREATE MATERIALIZED VIEW v AS SELECT 1;\n".into(),
                "",
                "",
            ),
        ),
        (
            "view_cycle",
            list(
                n,
                "",
                |i| format!("CREATE VIEW v{i} AS SELECT * FROM v{};\n", (i + 1) % n),
                "",
                "",
            ),
        ),
        (
            "one_line",
            list(
                n,
                "",
                |i| format!("CREATE LIVE TABLE t{i} AS SELECT 1;"),
                "",
                "\n",
            ),
        ),
        (
            "misspelt_reads",
            list(
                n,
                "",
                |i| format!("CREATE MATERIALIZED VIEW t{i:06} AS SELECT * FROM x{i:06};\n"),
                "",
                "",
            ),
        ),
    ]
}

fn parse_and_check(c: &mut Criterion) {
    let mut group = c.benchmark_group("scale");
    group.sample_size(10);
    for n in [10_000, 100_000] {
        group.throughput(Throughput::Elements(n as u64));
        for (name, text) in lists(n) {
            group.bench_with_input(BenchmarkId::new(name, n), &text, |b, text| {
                b.iter(|| {
                    let arena = pipeline_sql::Arena::new();
                    black_box(
                        pipeline_sql::check(&arena, black_box(text))
                            .diagnostics()
                            .len(),
                    )
                })
            });
        }
    }
    group.finish();
}

#[cfg(feature = "cli")]
fn render(c: &mut Criterion) {
    use pipeline_sql::report::{file_reports, render_human, render_json, render_sarif};
    let mut group = c.benchmark_group("scale_render");
    group.sample_size(10);
    for n in [10_000, 100_000] {
        group.throughput(Throughput::Elements(n as u64));
        for (name, text) in pipelines(n) {
            let mut pipeline = pipeline_sql::Pipeline::new();
            pipeline.add_source("pipeline.sql", &text);
            pipeline.complete(true);
            let arena = pipeline_sql::Arena::new();
            let checked = pipeline.check(&arena);
            let reports = file_reports(&checked);
            group.bench_function(BenchmarkId::new(format!("{name}_human"), n), |b| {
                b.iter(|| black_box(render_human(&reports, 100, false).len()))
            });
            group.bench_function(BenchmarkId::new(format!("{name}_json"), n), |b| {
                b.iter(|| black_box(render_json(&reports).len()))
            });
            group.bench_function(BenchmarkId::new(format!("{name}_sarif"), n), |b| {
                b.iter(|| black_box(render_sarif(&reports).len()))
            });
        }
        for (name, text) in pipelines(n).into_iter().skip(3) {
            group.bench_with_input(
                BenchmarkId::new(format!("{name}_check"), n),
                &text,
                |b, text| {
                    b.iter(|| {
                        let mut pipeline = pipeline_sql::Pipeline::new();
                        pipeline.add_source("pipeline.sql", text);
                        pipeline.complete(true);
                        black_box(pipeline.check_in_parallel().sources.len())
                    })
                },
            );
        }
    }
    group.finish();
}

/// A bundle whose one pipeline lists `n` libraries, each a file that does not exist (each a
/// diagnostic at its value), written to a directory of its own.
#[cfg(feature = "cli")]
fn settings(c: &mut Criterion) {
    let mut group = c.benchmark_group("scale_settings");
    group.sample_size(10);
    for n in [10_000, 100_000] {
        let dir =
            std::env::temp_dir().join(format!("pipeline-sql-scale-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let libraries = list(
            n,
            "resources:\n  pipelines:\n    p:\n      libraries:\n",
            |i| format!("        - file:\n            path: \"src/missing_{i}.sql\"\n"),
            "",
            "",
        );
        let file = dir.join("databricks.yml");
        std::fs::write(&file, libraries).unwrap();
        group.throughput(Throughput::Elements(n as u64));
        group.bench_function(BenchmarkId::new("missing_libraries", n), |b| {
            b.iter(|| {
                let read = pipeline_sql::settings::load(&file, None, &[], u64::MAX);
                black_box(read.files[0].diagnostics.len())
            })
        });
        let _ = std::fs::remove_dir_all(&dir);
    }
    group.finish();
}

#[cfg(not(feature = "cli"))]
fn settings(_: &mut Criterion) {}

#[cfg(not(feature = "cli"))]
fn render(_: &mut Criterion) {}

criterion_group!(scale_benches, parse_and_check, render, settings);
criterion_main!(scale_benches);
