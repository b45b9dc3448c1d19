//! The validator: the rules that one statement decides, each a small function in
//! the file of its family. The rules read the tree and return diagnostics; they print nothing.
//!
//! - `syntax`: legacy spellings (DEPRECATED_SYNTAX).
//! - `flows`: INSERT flows, flow names, read options.
//! - `cdc`: AUTO CDC clauses.
//! - `snapshot`: AUTO CDC FROM SNAPSHOT: version functions and queries.
//! - `expressions`: what expressions contain (function classes, streaming reads).
//! - `tables`: columns, expectations and table clauses.

mod cdc;
mod expressions;
mod flows;
mod pipeline;
mod snapshot;
mod syntax;
mod tables;

use crate::ast::visit::{self, Visitor};
use crate::ast::*;
use crate::diagnostic::Diagnostic;
use crate::span::Span;
use std::collections::HashMap;
use std::hash::Hash;

/// What the pipeline-scope rules need to know of a source besides the model: the spans of its
/// statements, and the diagnostic each CREATE FLOW would get if its target is a streaming
/// table (by statement index). Owned, so that sources can be checked on several threads.
#[derive(Debug, Default)]
pub(crate) struct SourceFacts {
    pub(crate) statement_spans: Vec<Span>,
    pub(crate) batch_reads: HashMap<usize, Diagnostic>,
}

impl SourceFacts {
    pub(crate) fn of(script: &Script<'_>) -> SourceFacts {
        use crate::span::Spanned;
        let batch_reads = script
            .statements
            .iter()
            .enumerate()
            .filter_map(|(i, statement)| match statement {
                Statement::CreateFlow(flow) => {
                    Some((i, flows::batch_flow_into_streaming_table(&flow.body)?))
                }
                _ => None,
            })
            .collect();
        SourceFacts {
            statement_spans: script.statements.iter().map(|s| s.span()).collect(),
            batch_reads,
        }
    }
}

/// Runs the pipeline-scope rules over the model of all sources, each rule whose code `runs`
/// says runs; diagnostics go to the source they are about (`by_file` is indexed by
/// [`crate::diagnostic::FileId`], as `facts` is).
pub(crate) fn check_pipeline(
    model: &crate::model::Model,
    facts: &[SourceFacts],
    runs: &dyn Fn(crate::Code) -> bool,
    by_file: &mut [Vec<Diagnostic>],
) {
    pipeline::check_pipeline(model, facts, runs, &mut pipeline::Sink { by_file });
}

/// Orders a source's diagnostics by position, and drops a statement-scope warning that a
/// pipeline-scope error of the same code supersedes in the same statement.
pub(crate) fn settle(statement_spans: &[Span], diagnostics: &mut Vec<Diagnostic>) {
    // Statements are in source order, so the one holding a span is found by binary search.
    let statement_of = |span: Span| {
        let i = statement_spans.partition_point(|s| s.start <= span.start);
        i.checked_sub(1)
            .filter(|&i| statement_spans[i].contains(span))
    };
    let superseding: std::collections::HashSet<(crate::Code, Option<usize>)> = diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| (d.code_enum(), statement_of(d.span())))
        .collect();
    diagnostics.retain(|d| {
        d.is_error() || !superseding.contains(&(d.code_enum(), statement_of(d.span())))
    });
    diagnostics.sort_by_key(|d| (d.span().start, d.span().end));
}

/// Runs every statement-scope rule over `script` (parsed from `source`), appending to `out`.
pub(crate) fn check_script(script: &Script<'_>, source: &str, out: &mut Vec<Diagnostic>) {
    for statement in script.statements {
        check_statement(statement, source, out);
    }
}

/// The source is read by the rules whose fixes write keywords (in the case the source writes
/// them) or take out a word with the space after it.
fn check_statement(statement: &Statement<'_>, source: &str, out: &mut Vec<Diagnostic>) {
    syntax::check_statement(statement, source, out);
    snapshot::check_version_functions(statement, out);
    match statement {
        Statement::CreateFlow(flow) => {
            flows::check_create_flow(flow, out);
            check_flow_body(&flow.body, source, out);
        }
        Statement::CreateStreamingTable(table) => {
            tables::check_streaming_table(table, source, out);
            let query = match &table.body {
                Some(TableBody::Query(q)) => {
                    flows::streaming_table_query(q.query, out);
                    Some(q.query)
                }
                Some(TableBody::Flow(flow)) => {
                    check_flow_body(&flow.body, source, out);
                    out.extend(flows::batch_flow_into_streaming_table(&flow.body));
                    flow_query(&flow.body)
                }
                None => None,
            };
            tables::check_table(table.spec.as_ref(), table.clauses, query, out);
        }
        Statement::CreateTable(table) => {
            tables::check_managed_table(table, out);
            let query = table.flow.as_ref().and_then(|f| flow_query(&f.body));
            tables::check_table(table.spec.as_ref(), table.clauses, query, out);
            if let Some(flow) = &table.flow {
                check_flow_body(&flow.body, source, out);
            }
        }
        Statement::CreateMaterializedView(view) => {
            flows::materialized_view_reads_stream(view, out);
            tables::check_table(
                view.spec.as_ref(),
                view.clauses,
                Some(view.query.query),
                out,
            )
        }
        Statement::CreateView(view) => tables::check_view(view, out),
        Statement::ApplyChanges(apply) => check_auto_cdc(&apply.flow, out),
        Statement::Set(_) | Statement::Use(_) | Statement::Query(_) | Statement::Error(_) => {}
    }
    ReadOptionRules { out }.visit_statement(statement);
}

fn check_flow_body(body: &FlowBody<'_>, source: &str, out: &mut Vec<Diagnostic>) {
    flows::once_flow_reads_stream(body, out);
    match body {
        FlowBody::Insert(insert) => flows::check_insert_flow(insert, source, out),
        FlowBody::AutoCdc(cdc) => check_auto_cdc(cdc, out),
    }
}

fn check_auto_cdc(cdc: &AutoCdcFlow<'_>, out: &mut Vec<Diagnostic>) {
    cdc::check_auto_cdc(cdc, out);
    snapshot::check_snapshot_flow(cdc, out);
}

/// The query whose rows an INSERT flow writes.
fn flow_query<'f, 'a>(body: &'f FlowBody<'a>) -> Option<&'f Query<'a>> {
    match body {
        FlowBody::Insert(insert) => Some(insert.query),
        FlowBody::AutoCdc(_) => None,
    }
}

/// Applies the read-option rule to every source of a statement, wherever it is nested.
struct ReadOptionRules<'o> {
    out: &'o mut Vec<Diagnostic>,
}

impl<'a> Visitor<'a> for ReadOptionRules<'_> {
    fn visit_table_ref(&mut self, relation: &TableRef<'a>) {
        if let TableRef::Table(table) = relation {
            flows::check_read_options(table, self.out);
        }
        visit::walk_table_ref(self, relation);
    }
}

/// Calls `report(first, repeat)` for every item whose key was seen before, in source order.
/// Linear in the number of items.
fn for_each_repeat<T, K: Hash + Eq>(
    items: impl IntoIterator<Item = T>,
    key: impl Fn(&T) -> K,
    mut report: impl FnMut(&T, &T),
) {
    let mut seen: HashMap<K, T> = HashMap::new();
    for item in items {
        match seen.get(&key(&item)) {
            Some(first) => report(first, &item),
            None => {
                seen.insert(key(&item), item);
            }
        }
    }
}

/// An identifier's name folded to lower case, for case-insensitive comparison.
fn folded(ident: &Ident<'_>) -> String {
    ident.value().to_ascii_lowercase()
}

/// Reports names given twice in one list (`KEYS (a, a)`, `REPLACE USING (a, A)`).
fn repeated_names<'a>(names: &[Ident<'a>], mut report: impl FnMut(&Ident<'a>, &Ident<'a>)) {
    for_each_repeat(
        names.iter(),
        |n| folded(n),
        |first, repeat| report(first, repeat),
    );
}

/// `words` (keywords, in upper case) for a fix, in lower case where the source writes the
/// keyword at `sample` in lower case.
fn keywords_like(source: &str, sample: Span, words: &str) -> String {
    let written = sample.text(source);
    let lower = written.bytes().any(|b| b.is_ascii_lowercase())
        && !written.bytes().any(|b| b.is_ascii_uppercase());
    match lower {
        true => words.to_ascii_lowercase(),
        false => words.to_string(),
    }
}

/// `span` with the spaces and tabs after it: what goes when a word is taken out.
fn with_space_after(source: &str, span: Span) -> Span {
    let rest = source.get(span.end as usize..).unwrap_or("");
    let spaces = rest.len() - rest.trim_start_matches([' ', '\t']).len();
    Span::new(span.start, span.end + spaces as u32)
}

/// Where `word` (matched in any case) is, when it is the next word after `offset` with only
/// white space between.
fn word_after(source: &str, offset: u32, word: &str) -> Option<Span> {
    let rest = source.get(offset as usize..)?;
    let start = offset as usize + rest.len() - rest.trim_start().len();
    let end = start + word.len();
    let found = source.get(start..end)?.eq_ignore_ascii_case(word)
        && !source[end..].starts_with(|c: char| c.is_alphanumeric() || c == '_');
    found.then(|| Span::from_usize(start, end))
}

/// The span covering `a` and `b`.
fn cover(a: Span, b: Span) -> Span {
    a.to(b)
}
