//! Conformance with Apache Spark 4.3's parser: `tests/conformance/queries.sql` holds one
//! statement per line and `verdicts.txt` Spark's verdict on each (recorded with
//! `record_verdicts.py`, so Spark is not needed here). pipeline-sql must agree on every
//! statement except the ones listed, with the reason, in `known_gaps.txt`.

use std::collections::BTreeSet;
use std::path::Path;

fn read(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/conformance")
        .join(name);
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn agrees_with_spark_except_for_the_known_gaps() {
    let statements = read("queries.sql");
    let verdicts = read("verdicts.txt");
    let statements: Vec<&str> = statements.lines().collect();
    let verdicts: Vec<&str> = verdicts.lines().collect();
    assert_eq!(
        statements.len(),
        verdicts.len(),
        "re-record verdicts.txt after editing queries.sql"
    );
    let mut counts = [[0usize; 2]; 2];
    let mut disagreements = BTreeSet::new();
    let mut spark_accepts = BTreeSet::new();
    for (statement, verdict) in statements.iter().zip(&verdicts) {
        let spark = *verdict == "accepted";
        let arena = pipeline_sql::Arena::new();
        let ours = pipeline_sql::parse(&arena, statement)
            .diagnostics()
            .is_empty();
        counts[spark as usize][ours as usize] += 1;
        if spark {
            spark_accepts.insert(*statement);
        }
        if spark != ours {
            disagreements.insert(*statement);
        }
    }
    let gaps = read("known_gaps.txt");
    let known: BTreeSet<&str> = gaps
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    println!(
        "accepted by both: {}, rejected by both: {}, accepted by Spark only: {}, accepted by pipeline-sql only: {}",
        counts[1][1], counts[0][0], counts[1][0], counts[0][1]
    );
    assert!(statements.len() >= 100);
    let new: Vec<String> = disagreements
        .difference(&known)
        .map(|s| {
            let spark = spark_accepts.contains(s);
            format!(
                "{s}    -- Spark {}",
                if spark { "accepts" } else { "rejects" }
            )
        })
        .collect();
    let fixed: Vec<&str> = known.difference(&disagreements).copied().collect();
    assert!(
        new.is_empty() && fixed.is_empty(),
        "the disagreements with Spark changed: update known_gaps.txt\nnew disagreements:\n{}\nno longer disagreeing:\n{}",
        lines(&new.iter().map(String::as_str).collect::<Vec<_>>()),
        lines(&fixed)
    );
}

fn lines(statements: &[&str]) -> String {
    statements.iter().map(|s| format!("  {s}\n")).collect()
}
