//! A deterministic generator of pipeline SQL for benchmarks.
//!
//! Every generated statement wraps a query body in a pipeline header (streaming table,
//! materialized view or CREATE FLOW). The same bodies are also written under a plain
//! `CREATE TABLE xN AS` header, with `STREAM(t)` read as `t`, so that sqlparser-rs can parse
//! them: the two texts differ only in their headers and the STREAM keyword.

/// The two renderings of one generated corpus.
pub struct Corpus {
    /// Pipeline SQL for pipeline-sql.
    pub pipeline: String,
    /// The same query bodies as `CREATE TABLE ... AS` for sqlparser-rs.
    pub plain: String,
    /// The number of statements in each.
    pub statements: usize,
}

/// Generates statements until the pipeline text reaches `target_bytes`.
#[allow(dead_code)] // each bench uses one of the two generators
pub fn generate(target_bytes: usize, seed: u64) -> Corpus {
    generate_until(seed, |c| c.pipeline.len() >= target_bytes)
}

/// Generates exactly `count` statements.
#[allow(dead_code)]
pub fn generate_statements(count: usize, seed: u64) -> Corpus {
    generate_until(seed, |c| c.statements >= count)
}

fn generate_until(seed: u64, done: impl Fn(&Corpus) -> bool) -> Corpus {
    let mut g = Gen {
        rng: seed | 1,
        streaming: false,
    };
    let mut corpus = Corpus {
        pipeline: String::new(),
        plain: String::new(),
        statements: 0,
    };
    while !done(&corpus) {
        let n = corpus.statements;
        let (header, streaming) = match g.below(4) {
            0 => (
                format!(
                    "CREATE OR REFRESH STREAMING TABLE st_{n}\nCOMMENT 'generated table {n}'\nAS "
                ),
                true,
            ),
            1 => (
                format!("CREATE OR REFRESH MATERIALIZED VIEW mv_{n} AS "),
                false,
            ),
            2 => (
                format!("CREATE FLOW flow_{n} AS INSERT INTO st_{} BY NAME\n", n / 2),
                true,
            ),
            _ => (format!("CREATE TABLE mt_{n}\nFLOW INSERT BY NAME "), true),
        };
        g.streaming = streaming;
        let pipeline_body = g.query(0);
        // The same body for sqlparser-rs: streaming reads become plain table reads.
        let plain_body = pipeline_body.replace("STREAM(", "(");
        corpus.pipeline.push_str(&header);
        corpus.pipeline.push_str(&pipeline_body);
        corpus.pipeline.push_str(";\n\n");
        corpus.plain.push_str(&format!("CREATE TABLE x_{n} AS "));
        corpus.plain.push_str(&plain_body);
        corpus.plain.push_str(";\n\n");
        corpus.statements += 1;
    }
    corpus
}

struct Gen {
    rng: u64,
    streaming: bool,
}

const TABLES: &[&str] = &[
    "orders",
    "customers",
    "events",
    "payments",
    "raw.clicks",
    "main.sales.items",
];
const COLUMNS: &[&str] = &[
    "id",
    "customer_id",
    "amount",
    "status",
    "created_at",
    "region",
    "price",
    "quantity",
    "event_type",
    "payload",
];
const FUNCTIONS: &[&str] = &[
    "coalesce",
    "upper",
    "lower",
    "round",
    "concat",
    "date_trunc",
    "nullif",
    "greatest",
];
const AGGREGATES: &[&str] = &["sum", "count", "max", "min", "avg"];

impl Gen {
    fn next(&mut self) -> u64 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn pick<'s>(&mut self, items: &[&'s str]) -> &'s str {
        items[self.below(items.len() as u64) as usize]
    }

    fn query(&mut self, depth: u32) -> String {
        let mut q = String::new();
        if depth == 0 && self.below(6) == 0 {
            let inner = self.select(depth + 1);
            q.push_str(&format!("WITH base AS ({inner})\n"));
        }
        q.push_str(&self.select(depth));
        if depth == 0 && self.below(8) == 0 {
            q.push_str("\nUNION ALL\n");
            q.push_str(&self.select(depth + 1));
        }
        if self.below(3) == 0 {
            let c = self.column();
            q.push_str(&format!("\nORDER BY {c} DESC"));
        }
        if self.below(4) == 0 {
            q.push_str(&format!("\nLIMIT {}", 10 + self.below(1000)));
        }
        q
    }

    fn select(&mut self, depth: u32) -> String {
        let items = 2 + self.below(6);
        let mut list = Vec::new();
        for i in 0..items {
            let e = self.expr(depth + 1);
            list.push(if self.below(2) == 0 {
                format!("{e} AS c{i}")
            } else {
                e
            });
        }
        let mut s = format!(
            "SELECT {}\nFROM {}",
            list.join(",\n  "),
            self.relation(depth)
        );
        if self.below(3) == 0 {
            let (t, c) = (self.pick(TABLES), self.column());
            s.push_str(&format!("\nLEFT JOIN {t} j ON j.{c} = {c}"));
        }
        if self.below(4) != 0 {
            s.push_str(&format!("\nWHERE {}", self.predicate(depth + 1)));
        }
        if self.below(4) == 0 {
            let (a, b) = (self.column(), self.column());
            let f = self.pick(AGGREGATES);
            s.push_str(&format!(
                "\nGROUP BY {a}, {b}\nHAVING {f}({a}) > {}",
                self.below(100)
            ));
        }
        s
    }

    fn relation(&mut self, depth: u32) -> String {
        let table = self.pick(TABLES);
        if depth < 2 && self.below(10) == 0 {
            return format!("({}) AS sub{depth}", self.select(depth + 1));
        }
        if self.streaming && depth == 0 {
            format!("STREAM({table})")
        } else {
            format!("{table} t{depth}")
        }
    }

    fn column(&mut self) -> String {
        self.pick(COLUMNS).to_string()
    }

    fn predicate(&mut self, depth: u32) -> String {
        let c = self.column();
        match self.below(8) {
            0 => format!(
                "{c} IN ({}, {}, {})",
                self.below(9),
                self.below(99),
                self.below(999)
            ),
            1 => format!(
                "{c} BETWEEN {} AND {}",
                self.below(10),
                10 + self.below(100)
            ),
            2 => format!("{c} LIKE 'prefix_{}%'", self.below(50)),
            3 => format!("{c} IS NOT NULL AND {}", self.predicate(depth + 1)),
            4 if depth < 3 => format!(
                "({} OR {})",
                self.predicate(depth + 1),
                self.predicate(depth + 1)
            ),
            5 => format!("NOT {c} = 'x{}'", self.below(9)),
            _ => format!("{} >= {}", self.expr(depth + 1), self.expr(depth + 1)),
        }
    }

    fn expr(&mut self, depth: u32) -> String {
        if depth > 3 {
            return self.atom();
        }
        match self.below(10) {
            0 | 1 => format!("{} + {} * {}", self.atom(), self.atom(), self.atom()),
            2 => {
                let f = self.pick(FUNCTIONS);
                format!("{f}({}, {})", self.expr(depth + 1), self.atom())
            }
            3 => format!(
                "CASE WHEN {} THEN {} ELSE {} END",
                self.predicate(depth + 1),
                self.atom(),
                self.atom()
            ),
            4 => format!("CAST({} AS DECIMAL(10, 2))", self.expr(depth + 1)),
            5 => format!(
                "({} - {}) / {}",
                self.atom(),
                self.atom(),
                1 + self.below(9)
            ),
            6 => {
                let f = self.pick(AGGREGATES);
                format!("{f}({})", self.column())
            }
            _ => self.atom(),
        }
    }

    fn atom(&mut self) -> String {
        match self.below(6) {
            0 => format!("{}", self.below(100_000)),
            1 => format!("'value_{}'", self.below(1000)),
            2 => format!("t0.{}", self.column()),
            _ => self.column(),
        }
    }
}
