//! Rules for AUTO CDC FROM SNAPSHOT flows: where the snapshot-version functions may be called,
//! the shape of the version query, and flows without WITH VERSION (`docs/codes/`, flows).

use super::expressions::{find_restricted, leading_select, Restricted};
use crate::ast::visit::{self, Visitor};
use crate::ast::*;
use crate::diagnostic::{Code, Diagnostic};
use crate::span::{Span, Spanned};

const CURRENT: &str = "current_snapshot_version";
const LAST: &str = "last_snapshot_version";

/// `current_snapshot_version()` has a value only inside the snapshot query of a flow with
/// WITH VERSION; `last_snapshot_version()` only inside the version query.
pub(super) fn check_version_functions(statement: &Statement<'_>, out: &mut Vec<Diagnostic>) {
    let mut scopes = Vec::new();
    collect_snapshot_sources(statement, &mut scopes);
    let mut outside = VersionCalls {
        allow_current: false,
        allow_last: false,
        skip: &scopes,
        out,
    };
    outside.visit_statement(statement);
    for source in &scopes {
        let with_version = source.version.is_some();
        VersionCalls {
            allow_current: with_version,
            allow_last: false,
            skip: &[],
            out,
        }
        .visit_query(source.snapshot_query);
        if let Some(version) = &source.version {
            VersionCalls {
                allow_current: false,
                allow_last: true,
                skip: &[],
                out,
            }
            .visit_query(version.query);
        }
    }
}

fn collect_snapshot_sources<'s, 'a>(
    statement: &'s Statement<'a>,
    out: &mut Vec<&'s SnapshotSource<'a>>,
) {
    let flow = match statement {
        Statement::CreateFlow(f) => Some(&f.body),
        Statement::CreateStreamingTable(t) => match &t.body {
            Some(TableBody::Flow(flow)) => Some(&flow.body),
            _ => None,
        },
        Statement::CreateTable(t) => t.flow.as_ref().map(|f| &f.body),
        _ => None,
    };
    let cdc = match (flow, statement) {
        (Some(FlowBody::AutoCdc(cdc)), _) => Some(&**cdc),
        (_, Statement::ApplyChanges(apply)) => Some(&apply.flow),
        _ => None,
    };
    if let Some(CdcSource::Snapshot(source)) = cdc.map(|c| &c.source) {
        out.push(source);
    }
}

/// Reports the snapshot-version functions called where they are not allowed.
struct VersionCalls<'s, 'o> {
    allow_current: bool,
    allow_last: bool,
    /// Snapshot sources checked on their own, with their own permissions.
    skip: &'s [&'s SnapshotSource<'s>],
    out: &'o mut Vec<Diagnostic>,
}

impl VersionCalls<'_, '_> {
    fn check(&mut self, name: &ObjectName<'_>, span: Span) {
        let base = name.base();
        let (allowed, help) = if base.matches(CURRENT) {
            (
                self.allow_current,
                "call current_snapshot_version() inside FROM SNAPSHOT (...) of a flow that has WITH VERSION (...)",
            )
        } else if base.matches(LAST) {
            (
                self.allow_last,
                "call last_snapshot_version() inside WITH VERSION (...)",
            )
        } else {
            return;
        };
        if !allowed && name.parts.len() == 1 {
            self.out.push(
                Diagnostic::error(
                    Code::UnresolvableTableValuedFunction,
                    span,
                    format!("`{}()` has no value here", base.value()),
                )
                .with_help(help),
            );
        }
    }
}

impl<'a> Visitor<'a> for VersionCalls<'_, '_> {
    fn visit_query(&mut self, query: &Query<'a>) {
        if !self.skip.iter().any(|s| {
            s.snapshot_query.span == query.span
                || s.version
                    .as_ref()
                    .is_some_and(|v| v.query.span == query.span)
        }) {
            visit::walk_query(self, query);
        }
    }

    fn visit_table_ref(&mut self, relation: &TableRef<'a>) {
        if let TableRef::Function(f) = relation {
            self.check(&f.call.name, f.call.span);
        }
        visit::walk_table_ref(self, relation);
    }

    fn visit_expr(&mut self, expr: &Expr<'a>) {
        if let ExprKind::Function(call) = &expr.kind {
            self.check(&call.name, call.span);
        }
        visit::walk_expr(self, expr);
    }
}

pub(super) fn check_snapshot_flow(flow: &AutoCdcFlow<'_>, out: &mut Vec<Diagnostic>) {
    let CdcSource::Snapshot(source) = &flow.source else {
        return;
    };
    match &source.version {
        Some(version) => version_query_shape(version, out),
        None if flow.once.is_none() => out.push(
            Diagnostic::warning(
                Code::AutoCdcFromSnapshotNonEmptyTargetWithoutVersion,
                source.span,
                "a snapshot flow without WITH VERSION only runs while its target is empty: every later update fails",
            )
            .with_help("add `WITH VERSION (<query>)` to process one snapshot per version, or make it a one-time load with `AUTO CDC ONCE`"),
        ),
        None => {}
    }
}

/// A version query returns exactly one non-null column and at most one row.
fn version_query_shape(version: &VersionQuery<'_>, out: &mut Vec<Diagnostic>) {
    let query = &version.query;
    let Some(select) = leading_select(query) else {
        return;
    };
    let invalid = |span: Span, message: &str| {
        Diagnostic::error(Code::InvalidAutoCdcFromSnapshotVersionQuery, span, message.to_string())
            .with_help("select exactly one orderable, non-null column, such as a BIGINT or a STRUCT of orderable fields")
    };
    match select.projection {
        [SelectItem::Wildcard(w)] => {
            out.push(invalid(
                w.span,
                "the version query selects `*`, which is not exactly one column",
            ));
            return;
        }
        [SelectItem::Expr { expr, .. }]
            if matches!(expr.kind, ExprKind::Literal(Literal::Null)) =>
        {
            out.push(invalid(
                expr.span,
                "the version query returns NULL, which is not a version",
            ));
            return;
        }
        [SelectItem::MultiAlias { aliases, .. }] if aliases.len() > 1 => {
            out.push(invalid(
                select.projection[0].span(),
                "the version query's generator returns more than one column",
            ));
            return;
        }
        [_] => {}
        [] if select.from_first => {
            out.push(invalid(
                select.span,
                "the version query has no SELECT list, so it returns every column",
            ));
            return;
        }
        [first, .., last] => {
            out.push(invalid(
                first.span().to(last.span()),
                "the version query selects more than one column",
            ));
            return;
        }
        [] => return,
    }
    if !returns_at_most_one_row(query, select) {
        out.push(
            Diagnostic::warning(
                Code::InvalidAutoCdcFromSnapshotVersionQuery,
                select.span,
                "the version query may return more than one row",
            )
            .with_help("end it with `ORDER BY <version> LIMIT 1`, or aggregate without GROUP BY (`SELECT max(v) ...`)"),
        );
    }
}

fn returns_at_most_one_row(query: &Query<'_>, select: &Select<'_>) -> bool {
    let limit_one = matches!(
        query.limit,
        Some(Limit::Count(Expr {
            kind: ExprKind::Literal(Literal::Number("1" | "0")),
            ..
        }))
    );
    let aggregate = select.group_by.is_empty()
        && select.projection.iter().any(|item| match item {
            SelectItem::Expr { expr, .. } | SelectItem::MultiAlias { expr, .. } => {
                find_restricted(expr, &[Restricted::Aggregate]).is_some()
            }
            // A script may write any number of rows.
            SelectItem::Wildcard(_) | SelectItem::Transform(_) => false,
        });
    let single_select = matches!(query.body, SetExpr::Select(_));
    // `SELECT <value>` without FROM returns one row.
    let no_from = select.from.is_empty() && select.selection.is_none();
    limit_one || (single_select && (aggregate || no_from))
}
