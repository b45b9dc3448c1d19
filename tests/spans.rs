//! Span invariants on every fixture: each node lies within its parent and within the source,
//! and siblings come in source order.

mod common;

use common::all_sources;
use pipeline_sql::ast::visit::{self, Visitor};
use pipeline_sql::ast::*;
use pipeline_sql::{Span, Spanned};

/// Checks each visited node against the enclosing node and the previous sibling.
struct SpanChecker<'f> {
    file: &'f str,
    /// For each open node: its span and the end of its last child so far.
    stack: Vec<(Span, u32)>,
    nodes: usize,
}

impl SpanChecker<'_> {
    fn enter(&mut self, what: &str, span: Span) {
        let (parent, last_end) = *self.stack.last().expect("the script is always open");
        assert!(
            span.start <= span.end,
            "{}: {what} {span:?} is reversed",
            self.file
        );
        assert!(
            parent.contains(span),
            "{}: {what} {span:?} is outside its parent {parent:?}",
            self.file
        );
        assert!(
            span.start >= last_end,
            "{}: {what} {span:?} starts before its previous sibling ends ({last_end})",
            self.file
        );
        self.stack.push((span, span.start));
        self.nodes += 1;
    }

    fn leave(&mut self) {
        let (span, _) = self.stack.pop().expect("enter and leave pair up");
        if let Some(parent) = self.stack.last_mut() {
            parent.1 = span.end;
        }
    }

    fn around(&mut self, what: &str, span: Span, walk: impl FnOnce(&mut Self)) {
        self.enter(what, span);
        walk(self);
        self.leave();
    }
}

impl<'a> Visitor<'a> for SpanChecker<'_> {
    fn visit_statement(&mut self, s: &Statement<'a>) {
        self.around("statement", s.span(), |v| visit::walk_statement(v, s));
    }
    fn visit_flow(&mut self, f: &FlowBody<'a>) {
        self.around("flow", f.span(), |v| visit::walk_flow(v, f));
    }
    fn visit_table_element(&mut self, e: &TableElement<'a>) {
        self.around("table element", e.span(), |v| {
            visit::walk_table_element(v, e)
        });
    }
    fn visit_query(&mut self, q: &Query<'a>) {
        self.around("query", q.span, |v| visit::walk_query(v, q));
    }
    fn visit_select(&mut self, s: &Select<'a>) {
        self.around("select", s.span, |v| visit::walk_select(v, s));
    }
    fn visit_table_ref(&mut self, t: &TableRef<'a>) {
        self.around("relation", t.span(), |v| visit::walk_table_ref(v, t));
    }
    fn visit_expr(&mut self, e: &Expr<'a>) {
        self.around("expression", e.span, |v| visit::walk_expr(v, e));
    }
    fn visit_data_type(&mut self, t: &DataType<'a>) {
        self.around("data type", t.span(), |_| {});
    }
}

#[test]
fn spans_nest_and_are_ordered() {
    let mut nodes = 0;
    for (name, source) in all_sources() {
        let arena = pipeline_sql::Arena::new();
        let parsed = pipeline_sql::parse(&arena, &source);
        let script = parsed.script();
        assert_eq!(script.span, Span::new(0, source.len() as u32), "{name}");
        let mut checker = SpanChecker {
            file: &name,
            stack: vec![(script.span, 0)],
            nodes: 0,
        };
        checker.visit_script(script);
        nodes += checker.nodes;
        for d in parsed.diagnostics() {
            assert!(
                script.span.contains(d.span()),
                "{name}: diagnostic {:?} outside the source",
                d.span()
            );
        }
    }
    assert!(nodes > 1500, "only {nodes} nodes were checked");
}

#[test]
fn statement_spans_cover_the_statement_text() {
    let source = "  CREATE STREAMING TABLE t ;\n-- c\nSELECT 1";
    let arena = pipeline_sql::Arena::new();
    let parsed = pipeline_sql::parse(&arena, source);
    let spans: Vec<&str> = parsed
        .script()
        .statements
        .iter()
        .map(|s| s.span().text(source))
        .collect();
    assert_eq!(spans, ["CREATE STREAMING TABLE t", "SELECT 1"]);
}

/// The text of each relation, select and column the visitor offers, in order.
struct Offered<'s>(&'s str, Vec<String>);

impl<'a> Visitor<'a> for Offered<'_> {
    fn visit_select(&mut self, s: &Select<'a>) {
        self.1.push(format!("select {}", s.span.text(self.0)));
        visit::walk_select(self, s);
    }
    fn visit_table_ref(&mut self, t: &TableRef<'a>) {
        self.1.push(format!("relation {}", t.span().text(self.0)));
        visit::walk_table_ref(self, t);
    }
    fn visit_expr(&mut self, e: &Expr<'a>) {
        if let ExprKind::Column(c) = &e.kind {
            self.1.push(format!("column {}", c.text));
        }
        visit::walk_expr(self, e);
    }
}

/// What the visitor offers of `source`, which must parse.
fn offered(source: &str) -> Vec<String> {
    let arena = pipeline_sql::Arena::new();
    let parsed = pipeline_sql::parse(&arena, source);
    assert!(
        parsed.diagnostics().is_empty(),
        "{:?}",
        parsed.diagnostics()
    );
    let mut offered = Offered(source, Vec::new());
    offered.visit_script(parsed.script());
    offered.1
}

#[test]
fn a_from_clause_shared_by_several_bodies_is_visited_once() {
    let source = "FROM orders LATERAL VIEW explode(items) i AS item SELECT id SELECT item \
                  LATERAL VIEW explode(parts) p AS part ORDER BY item";
    assert_eq!(
        offered(source),
        [
            "select FROM orders LATERAL VIEW explode(items) i AS item SELECT id",
            "relation orders",
            "column items",
            "column id",
            "select SELECT item LATERAL VIEW explode(parts) p AS part",
            "column item",
            "column parts",
            "column item",
        ]
    );
}

#[test]
fn a_node_ends_with_its_last_token_where_a_clause_is_left_out() {
    let source = "SELECT a FROM t   ORDER BY a;\n(SELECT b  ) UNION SELECT c /* c */ LIMIT 1";
    let offered = offered(source);
    let selects: Vec<&String> = offered.iter().filter(|s| s.starts_with("select")).collect();
    assert_eq!(
        selects,
        [
            "select SELECT a FROM t",
            "select SELECT b",
            "select SELECT c"
        ]
    );
}
