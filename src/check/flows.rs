//! Rules for INSERT flows, flow names and streaming read options (`docs/codes/`, flows).

use super::{cover, for_each_repeat, repeated_names};
use crate::ast::*;
use crate::diagnostic::{Code, Diagnostic, Edit, Fix};
use crate::span::Spanned;
use std::mem::discriminant;

/// Read options documented for Delta streaming sources (compared case-insensitively).
const DELTA_READ_OPTIONS: &[&str] = &[
    "maxFilesPerTrigger",
    "maxBytesPerTrigger",
    "startingVersion",
    "startingTimestamp",
    "readChangeFeed",
    "withEventTimeOrder",
    "skipChangeCommits",
];

pub(super) fn check_create_flow(flow: &CreateFlow<'_>, out: &mut Vec<Diagnostic>) {
    multipart_flow_name(flow, out);
    repeated_comments(flow, out);
}

pub(super) fn check_insert_flow(insert: &InsertFlow<'_>, source: &str, out: &mut Vec<Diagnostic>) {
    requires_by_name(insert, source, out);
    once_with_replace(insert, out);
    both_replace_forms(insert, out);
    replace_using_clauses(insert, out);
    repeated_replace_clauses(insert, out);
}

/// A flow's name is one identifier: the flow belongs to the pipeline, not to a schema.
fn multipart_flow_name(flow: &CreateFlow<'_>, out: &mut Vec<Diagnostic>) {
    if flow.name.parts.len() > 1 {
        out.push(
            Diagnostic::error(
                Code::MultipartFlowNameNotSupported,
                flow.name.span,
                format!("the flow name `{}` has several parts", flow.name),
            )
            .with_help(format!(
                "name the flow with one identifier, such as `{}`",
                flow.name.base()
            )),
        );
    }
}

/// A flow takes one COMMENT.
fn repeated_comments(flow: &CreateFlow<'_>, out: &mut Vec<Diagnostic>) {
    if let [first, second, ..] = flow.comments {
        out.push(duplicate_clause("COMMENT", first.span, second.span));
    }
}

/// Every INSERT flow matches its query's columns to the target's by name.
fn requires_by_name(insert: &InsertFlow<'_>, source: &str, out: &mut Vec<Diagnostic>) {
    if insert.by_name.is_some() {
        return;
    }
    let span = match (insert.insert, &insert.target) {
        (Some(keyword), Some(target)) => cover(keyword, target.span),
        (Some(keyword), None) => keyword,
        (None, _) => insert.query.span,
    };
    // BY NAME goes after the words before it (INSERT, ONCE, the target), on their line.
    let words = [
        insert.insert,
        insert.once.map(|o| o.span),
        insert.target.as_ref().map(|t| t.span),
    ];
    let at = words.into_iter().flatten().map(|s| s.end).max();
    let by_name = super::keywords_like(source, insert.insert.unwrap_or(span), "BY NAME");
    out.push(
        Diagnostic::error(
            Code::InsertFlowRequiresByName,
            span,
            "an INSERT flow must say `BY NAME`",
        )
        .with_help("add `BY NAME` before the query: `INSERT INTO <target> BY NAME SELECT ...`")
        .with_fix(at.map(|at| {
            Fix::safe(
                "add `BY NAME`",
                vec![Edit::insert(at, format!(" {by_name}"))],
            )
        })),
    );
}

/// ONCE runs a flow one time as a batch; REPLACE USING needs a streaming source and REPLACE
/// WHERE recomputes a range on every update, so neither combines with it.
fn once_with_replace(insert: &InsertFlow<'_>, out: &mut Vec<Diagnostic>) {
    let Some(once) = insert.once else { return };
    for clause in insert.replace {
        let (code, what) = match clause {
            ReplaceClause::Using(_) => (Code::ReplaceUsingWithOnce, "REPLACE USING"),
            ReplaceClause::Where(_) => (Code::ReplaceWhereWithOnce, "REPLACE WHERE"),
        };
        out.push(
            Diagnostic::error(
                code,
                once.span,
                format!("`ONCE` cannot be combined with `{what}`"),
            )
            .with_label(clause.span(), format!("the {what} clause"))
            .with_help(format!(
                "remove `ONCE`, or remove `{what}` to make a one-time backfill"
            )),
        );
    }
}

/// A flow replaces rows either by key (REPLACE USING) or by predicate (REPLACE WHERE).
fn both_replace_forms(insert: &InsertFlow<'_>, out: &mut Vec<Diagnostic>) {
    let using = insert
        .replace
        .iter()
        .find(|c| matches!(c, ReplaceClause::Using(_)));
    let where_ = insert
        .replace
        .iter()
        .find(|c| matches!(c, ReplaceClause::Where(_)));
    if let (Some(using), Some(where_)) = (using, where_) {
        let (first, second) = if using.span().start < where_.span().start {
            (using, where_)
        } else {
            (where_, using)
        };
        out.push(
            Diagnostic::error(
                Code::ReplaceWhereWithReplaceUsing,
                second.span(),
                "a flow cannot have both `REPLACE WHERE` and `REPLACE USING`",
            )
            .with_label(first.span(), "the other REPLACE clause")
            .with_help("keep one: REPLACE USING replaces rows by key, REPLACE WHERE by predicate"),
        );
    }
}

/// REPLACE USING names its keys once each and needs SEQUENCE BY to pick the latest row.
fn replace_using_clauses(insert: &InsertFlow<'_>, out: &mut Vec<Diagnostic>) {
    for clause in insert.replace {
        let ReplaceClause::Using(using) = clause else {
            continue;
        };
        if using.sequence_by.is_none() {
            out.push(
                Diagnostic::error(
                    Code::MissingClausesForOperation,
                    using.span,
                    "`REPLACE USING` needs `SEQUENCE BY`",
                )
                .with_help("add `SEQUENCE BY <column>` so that the latest row of each key wins"),
            );
        }
        repeated_names(using.columns, |first, repeat| {
            out.push(duplicate_key(first, repeat, "REPLACE USING"));
        });
    }
}

/// The same REPLACE clause twice.
fn repeated_replace_clauses(insert: &InsertFlow<'_>, out: &mut Vec<Diagnostic>) {
    for_each_repeat(
        insert.replace.iter(),
        |c| discriminant(*c),
        |first, repeat| {
            let name = match repeat {
                ReplaceClause::Using(_) => "REPLACE USING",
                ReplaceClause::Where(_) => "REPLACE WHERE",
            };
            out.push(duplicate_clause(name, first.span(), repeat.span()));
        },
    );
}

/// Read options of a STREAM source should be ones Delta documents; others are ignored or
/// misspelled.
pub(super) fn check_read_options(table: &TableName<'_>, out: &mut Vec<Diagnostic>) {
    let (Some(_), Some(options)) = (table.stream, &table.options) else {
        return;
    };
    for option in options.options {
        let key = option.key.text();
        if !DELTA_READ_OPTIONS
            .iter()
            .any(|known| known.eq_ignore_ascii_case(&key))
        {
            let span = match &option.key {
                PropertyKey::Name(name) => name.span,
                PropertyKey::String(s) => s.span,
            };
            out.push(
                Diagnostic::warning(
                    Code::UnknownReadOption,
                    span,
                    format!("`{key}` is not a documented read option of Delta streaming sources"),
                )
                .with_help(format!("use one of: {}", DELTA_READ_OPTIONS.join(", "))),
            );
        }
    }
}

/// DUPLICATE_CLAUSES for a clause named `name`, at its repeat.
pub(super) fn duplicate_clause(name: &str, first: crate::Span, repeat: crate::Span) -> Diagnostic {
    Diagnostic::error(
        Code::DuplicateClauses,
        repeat,
        format!("`{name}` is given twice"),
    )
    .with_label(first, "first given here")
    .with_help(format!("keep one `{name}` clause"))
}

/// DUPLICATE_KEY_COLUMNS for a key named twice in `clause`.
pub(super) fn duplicate_key(first: &Ident<'_>, repeat: &Ident<'_>, clause: &str) -> Diagnostic {
    Diagnostic::error(
        Code::DuplicateKeyColumns,
        repeat.span,
        format!("the column `{}` is named twice in {clause}", repeat.value()),
    )
    .with_label(first.span, "first named here")
    .with_help("name each key column once")
}

/// Where a query's rows come from, for a diagnostic: its first relation, or the query.
fn source_span(query: &Query<'_>) -> crate::Span {
    super::expressions::leading_select(query)
        .and_then(|s| s.from.first())
        .map_or(query.span, |r| r.span())
}

/// A flow into a streaming table processes new rows incrementally, so it must read a
/// streaming source, unless it runs once or uses REPLACE WHERE (batch semantics). Returns the
/// diagnostic for a flow that must stream but reads no STREAM source.
pub(super) fn batch_flow_into_streaming_table(body: &FlowBody<'_>) -> Option<Diagnostic> {
    use super::expressions::{may_stream, relation_may_stream};
    let (span, what) = match body {
        FlowBody::Insert(insert) => {
            let replace_where = insert
                .replace
                .iter()
                .any(|c| matches!(c, ReplaceClause::Where(_)));
            if insert.once.is_some() || replace_where || may_stream(insert.query) {
                return None;
            }
            (source_span(insert.query), "the flow's query")
        }
        FlowBody::AutoCdc(cdc) => match &cdc.source {
            CdcSource::ChangeFeed(relation)
                if cdc.once.is_none() && !relation_may_stream(relation) =>
            {
                (relation.span(), "the AUTO CDC source")
            }
            _ => return None,
        },
    };
    Some(batch_relation(span, what))
}

fn batch_relation(span: crate::Span, what: &str) -> Diagnostic {
    Diagnostic::error(
        Code::BatchRelationForStreamingTable,
        span,
        format!("{what} writes a streaming table but reads no streaming source"),
    )
    .with_help("read the source with `STREAM(<table>)` (or `STREAM read_files(...)`), or make the flow a one-time backfill with ONCE")
}

/// A streaming table's `AS query` is its streaming flow.
pub(super) fn streaming_table_query(query: &Query<'_>, out: &mut Vec<Diagnostic>) {
    if !super::expressions::may_stream(query) {
        out.push(batch_relation(
            source_span(query),
            "the streaming table's query",
        ));
    }
}

/// A ONCE flow runs as one batch: it cannot read a stream.
pub(super) fn once_flow_reads_stream(body: &FlowBody<'_>, out: &mut Vec<Diagnostic>) {
    use super::expressions::{first_stream_read, stream_read_of};
    let (once, stream) = match body {
        FlowBody::Insert(insert) => (insert.once, first_stream_read(insert.query)),
        FlowBody::AutoCdc(cdc) => match &cdc.source {
            CdcSource::ChangeFeed(relation) => (cdc.once, stream_read_of(relation)),
            CdcSource::Snapshot(_) => (None, None),
        },
    };
    if let (Some(once), Some(stream)) = (once, stream) {
        out.push(
            Diagnostic::error(
                Code::StreamingRelationForOnceFlow,
                stream,
                "a ONCE flow runs one time as a batch and cannot read a streaming source",
            )
            .with_label(once.span, "the flow runs once")
            .with_help("drop `STREAM` to read the source as a batch, or drop `ONCE` to process it incrementally"),
        );
    }
}

/// A materialized view is recomputed from batch reads.
pub(super) fn materialized_view_reads_stream(
    view: &CreateMaterializedView<'_>,
    out: &mut Vec<Diagnostic>,
) {
    if let Some(stream) = super::expressions::first_stream_read(view.query.query) {
        out.push(
            Diagnostic::error(
                Code::StreamingRelationForMaterializedView,
                stream,
                "a materialized view cannot read a streaming source",
            )
            .with_help("drop `STREAM`, or define a streaming table instead (`CREATE OR REFRESH STREAMING TABLE`)"),
        );
    }
}
