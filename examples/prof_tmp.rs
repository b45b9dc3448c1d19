#[path = "../benches/support/corpus.rs"]
mod corpus;
fn main() {
    let c = corpus::generate(2 << 20, 42);
    let mut n = 0;
    for _ in 0..20 {
        let p = pipeline_sql::parse(&c.pipeline);
        n += p.script().statements.len();
    }
    println!("{n}");
}
