//! DEPRECATED_SYNTAX: legacy spellings that still work, each with its current spelling; and
//! SET_VALUE_SWALLOWS_STATEMENT: a SET whose `;` is missing.

use super::{keywords_like, with_space_after, word_after};
use crate::ast::*;
use crate::diagnostic::{Code, Diagnostic, Edit, Fix};
use crate::span::{Span, Spanned};

pub(super) fn check_statement(statement: &Statement<'_>, source: &str, out: &mut Vec<Diagnostic>) {
    let keywords = |sample: Span, words: &str| keywords_like(source, sample, words);
    match statement {
        Statement::ApplyChanges(apply) => {
            let keyword = apply.flow.keyword.span;
            // The flow takes its target's name, as the legacy statement's flow does.
            let fix = apply.flow.target.as_ref().map(|target| {
                let head = format!(
                    "{} {} {}",
                    keywords(keyword, "CREATE FLOW"),
                    target.base(),
                    keywords(keyword, "AS AUTO CDC")
                );
                Fix::safe(
                    format!("write `{head}`"),
                    vec![Edit::replace(keyword, head.clone())],
                )
            });
            out.push(
                deprecated(
                    keyword,
                    "`APPLY CHANGES INTO` is the legacy spelling of an AUTO CDC flow",
                    "write `CREATE FLOW <name> AS AUTO CDC INTO <target> FROM ...`",
                )
                .with_fix(fix),
            )
        }
        Statement::CreateStreamingTable(table) => {
            match (table.incremental, table.live) {
                (Some(incremental), live) => {
                    let span = live.map_or(incremental, |live| incremental.to(live));
                    out.push(
                        deprecated(
                            span,
                            "`INCREMENTAL LIVE TABLE` is the 2021 spelling of a streaming table",
                            "write `CREATE OR REFRESH STREAMING TABLE`",
                        )
                        .with_fix(Fix::safe(
                            "write `STREAMING TABLE`",
                            vec![Edit::replace(span, keywords(span, "STREAMING"))],
                        )),
                    )
                }
                (None, Some(live)) => out.push(
                    live_keyword(live, "CREATE OR REFRESH STREAMING TABLE")
                        .with_fix(drop_live(source, live)),
                ),
                (None, None) => {}
            }
            if let Some(v) = table.visibility.filter(|v| v.kind == Visibility::Temporary) {
                out.push(
                    deprecated(
                        v.span,
                        "`TEMPORARY` on a streaming table is the legacy spelling of `PRIVATE`",
                        "write `CREATE OR REFRESH PRIVATE STREAMING TABLE`",
                    )
                    .with_fix(Fix::safe(
                        "write `PRIVATE` for `TEMPORARY`",
                        vec![private(source, v.span)],
                    )),
                );
            }
        }
        Statement::CreateMaterializedView(view) => {
            if let Some(live) = view.live {
                let current = match view.visibility {
                    Some(_) => "CREATE OR REFRESH PRIVATE MATERIALIZED VIEW",
                    None => "CREATE OR REFRESH MATERIALIZED VIEW",
                };
                let fix = word_after(source, live.end, "table").map(|table| {
                    let mut edits = vec![Edit::replace(
                        live.to(table),
                        keywords(live, "MATERIALIZED VIEW"),
                    )];
                    // A TEMPORARY LIVE TABLE is a private materialized view.
                    let temporary = view.visibility.filter(|v| v.kind == Visibility::Temporary);
                    edits.extend(temporary.map(|v| private(source, v.span)));
                    Fix::safe("write `MATERIALIZED VIEW` for `LIVE TABLE`", edits)
                });
                out.push(live_keyword(live, current).with_fix(fix));
            }
        }
        Statement::CreateView(view) => match (view.streaming, view.live) {
            (Some(streaming), live) => {
                let span = live.map_or(streaming, |live| streaming.to(live));
                // The view stays a view of a stream only where its query reads one.
                let fix = super::expressions::may_stream(view.query.query)
                    .then(|| to_temporary_view(source, view, span));
                out.push(
                    deprecated(
                        span,
                        "`STREAMING LIVE VIEW` is the legacy spelling of a view of a stream",
                        "write `CREATE TEMPORARY VIEW <name> AS SELECT ... FROM STREAM(<source>)`",
                    )
                    .with_fix(fix),
                )
            }
            (None, Some(live)) => out.push(
                live_keyword(live, "CREATE TEMPORARY VIEW")
                    .with_fix(to_temporary_view(source, view, live)),
            ),
            (None, None) => {}
        },
        Statement::Set(set) => out.extend(set_swallowing_statement(set)),
        _ => {}
    }
    if let Some((insert, once)) = insert_once(statement) {
        if once.spelling == OnceSpelling::AfterInto {
            let fix = Fix::safe(
                "write `INSERT ONCE INTO`",
                vec![
                    Edit::insert(insert.end, format!(" {}", once.span.text(source))),
                    Edit::delete(with_space_after(source, once.span)),
                ],
            );
            out.push(
                deprecated(
                    once.span,
                    "`INSERT INTO ONCE` is the older spelling of a one-time flow",
                    "write `INSERT ONCE INTO <target> BY NAME ...`",
                )
                .with_fix(fix),
            );
        }
    }
    // Keywords written into a query take the case of the statement's first word.
    let start = statement.span().start;
    let first_word = source[start as usize..]
        .bytes()
        .take_while(u8::is_ascii_alphabetic)
        .count();
    let mut names = LegacyReads {
        source,
        keyword_case: Span::new(start, start + first_word as u32),
        out,
    };
    crate::ast::visit::Visitor::visit_statement(&mut names, statement);
    for name in statement_names(statement) {
        names.check(name);
    }
}

/// The INSERT keyword and the ONCE of an INSERT flow.
fn insert_once(statement: &Statement<'_>) -> Option<(Span, Once)> {
    match statement {
        Statement::CreateFlow(flow) => match &flow.body {
            FlowBody::Insert(insert) => Some((insert.insert?, insert.once?)),
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

/// Takes out the word `LIVE` (at `live`, with the space after it).
fn drop_live(source: &str, live: Span) -> Fix {
    Fix::safe(
        "drop `LIVE`",
        vec![Edit::delete(with_space_after(source, live))],
    )
}

/// `PRIVATE` for the legacy `TEMPORARY` (at `temporary`).
fn private(source: &str, temporary: Span) -> Edit {
    Edit::replace(temporary, keywords_like(source, temporary, "PRIVATE"))
}

/// A legacy `[STREAMING] LIVE VIEW` (the words at `legacy`) as the temporary view it is.
fn to_temporary_view(source: &str, view: &CreateView<'_>, legacy: Span) -> Fix {
    let edit = match view.temporary {
        Some(_) => Edit::delete(with_space_after(source, legacy)),
        None => Edit::replace(legacy, keywords_like(source, legacy, "TEMPORARY")),
    };
    Fix::safe("write `TEMPORARY VIEW`", vec![edit])
}

/// Finds the legacy spellings of the relations a statement reads: `LIVE.name` and Auto
/// Loader's `cloud_files(...)`.
struct LegacyReads<'o, 's> {
    source: &'s str,
    /// A keyword whose case a fix's keywords take.
    keyword_case: Span,
    out: &'o mut Vec<Diagnostic>,
}

impl LegacyReads<'_, '_> {
    fn check(&mut self, name: &ObjectName<'_>) {
        if name.parts.len() > 1 && name.parts[0].matches("live") {
            let prefix = Span::new(name.parts[0].span.start, name.parts[1].span.start);
            self.out.push(
                deprecated(
                    name.parts[0].span,
                    "the `LIVE.` prefix is the legacy way to name a dataset of the pipeline",
                    &format!("drop the prefix: write `{}`", tail(name)),
                )
                .with_fix(Fix::safe("drop `LIVE.`", vec![Edit::delete(prefix)])),
            );
        }
    }
}

fn tail(name: &ObjectName<'_>) -> String {
    let parts: Vec<String> = name.parts[1..].iter().map(ToString::to_string).collect();
    parts.join(".")
}

impl<'a> crate::ast::visit::Visitor<'a> for LegacyReads<'_, '_> {
    fn visit_table_ref(&mut self, relation: &TableRef<'a>) {
        match relation {
            TableRef::Table(table) => self.check(&table.name),
            TableRef::Function(function) if super::expressions::is_cloud_files(function.call) => {
                self.out.push(
                    deprecated(
                        function.call.name.span,
                        "`cloud_files(...)` is the legacy spelling of an Auto Loader read",
                        "write `STREAM read_files(<path>, format => '<format>')`, with Auto Loader's options as named arguments",
                    )
                    .with_fix(read_files(self.source, self.keyword_case, function)),
                );
            }
            _ => {}
        }
        crate::ast::visit::walk_table_ref(self, relation);
    }
}

/// `cloud_files(path, format [, map('k', v, ...)])` as `STREAM read_files(path, format =>
/// format, k => v, ...)`, when the options are a `map` of literal keys. Option names are kept
/// as written; read_files takes the names of Auto Loader's options with or without their
/// `cloudFiles.` prefix is a question this crate cannot settle, so a fix that keeps a prefixed
/// name is unsafe.
fn read_files(source: &str, keyword_case: Span, function: &TableFunction<'_>) -> Option<Fix> {
    let call = function.call;
    fn positional<'f, 'a>(arg: &'f FunctionArg<'a>) -> Option<&'f Expr<'a>> {
        match arg {
            FunctionArg::Positional(expr) => Some(expr),
            _ => None,
        }
    }
    let (format, options) = match call.args {
        [path, format] => (positional(path).and(positional(format))?, None),
        [path, format, options] => (
            positional(path).and(positional(format))?,
            Some(positional(options)?),
        ),
        _ => return None,
    };
    let stream = match function.stream {
        Some(_) => String::new(),
        None => keywords_like(source, keyword_case, "STREAM") + " ",
    };
    // Edits where the call changes, so that its layout stays.
    let mut edits = vec![
        Edit::replace(call.name.span, format!("{stream}read_files")),
        Edit::insert(format.span.start, "format => "),
    ];
    let mut prefixed = false;
    if let Some(options) = options {
        let ExprKind::Function(map) = options.kind else {
            return None;
        };
        let [name] = map.name.parts else { return None };
        if !name.matches("map") || map.args.len() % 2 != 0 {
            return None;
        }
        let mut named = Vec::new();
        for pair in map.args.chunks(2) {
            let (Some(key), Some(value)) = (positional(&pair[0]), positional(&pair[1])) else {
                return None;
            };
            let ExprKind::Literal(Literal::String([key])) = key.kind else {
                return None;
            };
            let key = key.value();
            prefixed |= key.to_ascii_lowercase().starts_with("cloudfiles.");
            named.push(format!(
                "{} => {}",
                option_name(&key),
                value.span.text(source)
            ));
        }
        edits.push(Edit::replace(options.span, named.join(", ")));
    }
    let message = "write `STREAM read_files(...)` with the options as named arguments";
    Some(match prefixed {
        false => Fix::safe(message, edits),
        true => Fix::unsafe_(
            format!("{message} (check that read_files takes the `cloudFiles.` option names)"),
            edits,
        ),
    })
}

/// An option's name as a named argument: as it is where it is a plain word, in backquotes
/// otherwise (`` `cloudFiles.inferColumnTypes` ``).
fn option_name(key: &str) -> String {
    let plain = key
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    match plain {
        true => key.to_string(),
        false => format!("`{}`", key.replace('`', "``")),
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
    // Where the SET's first line ends: after its last token, before a comment that ends it.
    let set_line_end = {
        use logos::Logos;
        let last_token = crate::lexer::Tok::lexer(&value[..first_line])
            .spanned()
            .filter(|(tok, _)| !matches!(tok, Ok(crate::lexer::Tok::BlockComment)))
            .last();
        value_span.start as usize + last_token.map_or(0, |(_, range)| range.end)
    };
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
                .with_help("end the SET with `;` (or put it in a notebook cell of its own)")
                // Unsafe: the statements the value swallowed start to run. Offered only where
                // they read: they were never parsed, and may not.
                .with_fix(statements_read(&value[first_line..]).then(|| {
                    Fix::unsafe_("end the SET with `;`", vec![Edit::insert(set_line_end as u32, ";")])
                })),
            );
        }
        offset += line.len();
    }
    None
}

/// Whether `text` parses without a syntax error.
fn statements_read(text: &str) -> bool {
    let arena = crate::Arena::new();
    !crate::fix::has_syntax_error(crate::parse(&arena, text).diagnostics())
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
