//! DEPRECATED_SYNTAX: legacy spellings that still work, each with its current spelling; and
//! SET_VALUE_SWALLOWS_STATEMENT: a SET whose `;` is missing.

use crate::ast::*;
use crate::diagnostic::{Code, Diagnostic};
use crate::span::Span;

pub(super) fn check_statement(statement: &Statement<'_>, out: &mut Vec<Diagnostic>) {
    match statement {
        Statement::ApplyChanges(apply) => out.push(deprecated(
            apply.flow.keyword.span,
            "`APPLY CHANGES INTO` is the legacy spelling of an AUTO CDC flow",
            "write `CREATE FLOW <name> AS AUTO CDC INTO <target> FROM ...`",
        )),
        Statement::CreateStreamingTable(table) => {
            match (table.incremental, table.live) {
                (Some(incremental), live) => out.push(deprecated(
                    live.map_or(incremental, |live| incremental.to(live)),
                    "`INCREMENTAL LIVE TABLE` is the 2021 spelling of a streaming table",
                    "write `CREATE OR REFRESH STREAMING TABLE`",
                )),
                (None, Some(live)) => {
                    out.push(live_keyword(live, "CREATE OR REFRESH STREAMING TABLE"))
                }
                (None, None) => {}
            }
            if let Some(v) = table.visibility.filter(|v| v.kind == Visibility::Temporary) {
                out.push(deprecated(
                    v.span,
                    "`TEMPORARY` on a streaming table is the legacy spelling of `PRIVATE`",
                    "write `CREATE OR REFRESH PRIVATE STREAMING TABLE`",
                ));
            }
        }
        Statement::CreateMaterializedView(view) => {
            if let Some(live) = view.live {
                let current = match view.visibility {
                    Some(_) => "CREATE OR REFRESH PRIVATE MATERIALIZED VIEW",
                    None => "CREATE OR REFRESH MATERIALIZED VIEW",
                };
                out.push(live_keyword(live, current));
            }
        }
        Statement::CreateView(view) => match (view.streaming, view.live) {
            (Some(streaming), live) => out.push(deprecated(
                live.map_or(streaming, |live| streaming.to(live)),
                "`STREAMING LIVE VIEW` is the legacy spelling of a view of a stream",
                "write `CREATE TEMPORARY VIEW <name> AS SELECT ... FROM STREAM(<source>)`",
            )),
            (None, Some(live)) => out.push(live_keyword(live, "CREATE TEMPORARY VIEW")),
            (None, None) => {}
        },
        Statement::Set(set) => out.extend(set_swallowing_statement(set)),
        _ => {}
    }
    if let Some(once) = insert_once(statement).filter(|o| o.spelling == OnceSpelling::AfterInto) {
        out.push(deprecated(
            once.span,
            "`INSERT INTO ONCE` is the older spelling of a one-time flow",
            "write `INSERT ONCE INTO <target> BY NAME ...`",
        ));
    }
    let mut names = LegacyReads { out };
    crate::ast::visit::Visitor::visit_statement(&mut names, statement);
    for name in statement_names(statement) {
        names.check(name);
    }
}

fn insert_once(statement: &Statement<'_>) -> Option<Once> {
    match statement {
        Statement::CreateFlow(flow) => match &flow.body {
            FlowBody::Insert(insert) => insert.once,
            FlowBody::AutoCdc(_) => None,
        },
        _ => None,
    }
}

/// The names a statement declares or writes: its dataset, flow target.
fn statement_names<'s, 'a>(statement: &'s Statement<'a>) -> Vec<&'s ObjectName<'a>> {
    match statement {
        Statement::CreateFlow(flow) => match &flow.body {
            FlowBody::Insert(insert) => insert.target.iter().collect(),
            FlowBody::AutoCdc(cdc) => cdc.target.iter().collect(),
        },
        Statement::CreateStreamingTable(t) => vec![&t.name],
        Statement::CreateTable(t) => vec![&t.name],
        Statement::CreateMaterializedView(v) => vec![&v.name],
        Statement::CreateView(v) => vec![&v.name],
        Statement::ApplyChanges(apply) => apply.flow.target.iter().collect(),
        _ => Vec::new(),
    }
}

fn live_keyword(span: Span, current: &str) -> Diagnostic {
    deprecated(
        span,
        "`LIVE` is the legacy spelling of pipeline datasets",
        &format!("drop `LIVE`: write `{current}`"),
    )
}

fn deprecated(span: Span, message: &str, help: &str) -> Diagnostic {
    Diagnostic::warning(Code::DeprecatedSyntax, span, message).with_help(help)
}

/// Finds the legacy spellings of the relations a statement reads: `LIVE.name` and Auto
/// Loader's `cloud_files(...)`.
struct LegacyReads<'o> {
    out: &'o mut Vec<Diagnostic>,
}

impl LegacyReads<'_> {
    fn check(&mut self, name: &ObjectName<'_>) {
        if name.parts.len() > 1 && name.parts[0].matches("live") {
            self.out.push(deprecated(
                name.parts[0].span,
                "the `LIVE.` prefix is the legacy way to name a dataset of the pipeline",
                &format!("drop the prefix: write `{}`", tail(name)),
            ));
        }
    }
}

fn tail(name: &ObjectName<'_>) -> String {
    let parts: Vec<String> = name.parts[1..].iter().map(ToString::to_string).collect();
    parts.join(".")
}

impl<'a> crate::ast::visit::Visitor<'a> for LegacyReads<'_> {
    fn visit_table_ref(&mut self, relation: &TableRef<'a>) {
        match relation {
            TableRef::Table(table) => self.check(&table.name),
            TableRef::Function(function) if super::expressions::is_cloud_files(function.call) => {
                self.out.push(deprecated(
                    function.call.name.span,
                    "`cloud_files(...)` is the legacy spelling of an Auto Loader read",
                    "write `STREAM read_files(<path>, format => '<format>')`, with Auto Loader's options as named arguments",
                ));
            }
            _ => {}
        }
        crate::ast::visit::walk_table_ref(self, relation);
    }
}

/// `SET key = value` whose value runs on to a line that starts a statement: SET takes the rest
/// of the statement as its value, so a missing `;` after it makes the next statements part of
/// the value, and the engine never runs them.
fn set_swallowing_statement(set: &SetStatement<'_>) -> Option<Diagnostic> {
    let SetKind::Property {
        key,
        value,
        value_span,
    } = set.kind
    else {
        return None;
    };
    let first_line = value.find('\n')?;
    let set_line_end = value_span.start as usize + value[..first_line].trim_end().len();
    let mut offset = first_line + 1;
    for line in value[offset..].split_inclusive('\n') {
        let text = line.trim();
        let indent = line.len() - line.trim_start().len();
        if starts_statement(text) {
            let start = value_span.start as usize + offset + indent;
            let shown: String = text.chars().take(60).collect();
            let ellipsis = if shown.len() < text.len() { " ..." } else { "" };
            return Some(
                Diagnostic::warning(
                    Code::SetValueSwallowsStatement,
                    Span::from_usize(start, start + text.len()),
                    format!(
                        "`SET {key}` takes the rest of the statement as its value, so `{shown}{ellipsis}` is part of the value and never runs: a `;` is missing"
                    ),
                )
                .with_label(Span::from_usize(set.span.start as usize, set_line_end), "this SET has no `;`")
                .with_help("end the SET with `;` (or put it in a notebook cell of its own)"),
            );
        }
        offset += line.len();
    }
    None
}

/// Whether a line starts with the words of a pipeline statement (CREATE, APPLY CHANGES, SET,
/// USE), which no SET value does.
fn starts_statement(line: &str) -> bool {
    let mut words = line
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .filter(|w| !w.is_empty());
    let first = words.next().unwrap_or("");
    let second = words.next().unwrap_or("");
    let is = |word: &str, keyword: &str| word.eq_ignore_ascii_case(keyword);
    is(first, "create") && !second.is_empty()
        || is(first, "apply") && is(second, "changes")
        || (is(first, "set") || is(first, "use")) && !second.is_empty()
}
