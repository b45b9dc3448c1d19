//! Rules for AUTO CDC flows, from a change feed or from snapshots (`docs/codes/`, flows).

use super::flows::{duplicate_clause, duplicate_key};
use super::{cover, folded, for_each_repeat, repeated_names};
use crate::ast::*;
use crate::diagnostic::{Code, Diagnostic};
use crate::span::Spanned;
use std::mem::discriminant;

/// The clauses of one AUTO CDC flow, looked up by kind.
struct Clauses<'f, 'a> {
    flow: &'f AutoCdcFlow<'a>,
}

impl<'f, 'a> Clauses<'f, 'a> {
    fn first(&self, kind: fn(&CdcClauseKind<'a>) -> bool) -> Option<&'f CdcClause<'a>> {
        self.flow.clauses.iter().find(|c| kind(&c.kind))
    }

    fn keys(&self) -> &'f [Ident<'a>] {
        match self
            .first(|k| matches!(k, CdcClauseKind::Keys(_)))
            .map(|c| &c.kind)
        {
            Some(CdcClauseKind::Keys(keys)) => keys,
            _ => &[],
        }
    }

    /// The declared SCD type: its clause and number (the default is type 1).
    fn scd(&self) -> Option<(&'f CdcClause<'a>, Option<u64>)> {
        self.flow.clauses.iter().find_map(|c| match &c.kind {
            CdcClauseKind::StoredAs(scd) => Some((c, scd.value())),
            _ => None,
        })
    }

    fn scd_type(&self) -> u64 {
        self.scd().and_then(|(_, n)| n).unwrap_or(1)
    }
}

fn clause_name(kind: &CdcClauseKind<'_>) -> &'static str {
    match kind {
        CdcClauseKind::Keys(_) => "KEYS",
        CdcClauseKind::Where(_) => "WHERE",
        CdcClauseKind::IgnoreNullUpdates => "IGNORE NULL UPDATES",
        CdcClauseKind::ApplyAsDelete(_) => "APPLY AS DELETE WHEN",
        CdcClauseKind::ApplyAsTruncate(_) => "APPLY AS TRUNCATE WHEN",
        CdcClauseKind::SequenceBy(_) => "SEQUENCE BY",
        CdcClauseKind::Columns(_) => "COLUMNS",
        CdcClauseKind::StoredAs(_) => "STORED AS",
        CdcClauseKind::TrackHistory(_) => "TRACK HISTORY ON",
    }
}

pub(super) fn check_auto_cdc(flow: &AutoCdcFlow<'_>, out: &mut Vec<Diagnostic>) {
    let clauses = Clauses { flow };
    missing_clauses(&clauses, out);
    repeated_clauses(flow, out);
    repeated_keys(&clauses, out);
    invalid_scd_type(flow, out);
    track_history_requires_scd2(&clauses, out);
    truncate_requires_scd1(&clauses, out);
    keys_in_selected_columns(&clauses, out);
    track_history_on_keys(&clauses, out);
    snapshot_unsupported_clauses(flow, out);
}

/// Where a flow's header ends: the span that names the flow's kind, target and source.
fn header_span(flow: &AutoCdcFlow<'_>) -> crate::Span {
    cover(flow.keyword.span, flow.source.span())
}

/// KEYS identifies rows; a change feed also needs SEQUENCE BY to order its changes.
fn missing_clauses(clauses: &Clauses<'_, '_>, out: &mut Vec<Diagnostic>) {
    let flow = clauses.flow;
    if clauses
        .first(|k| matches!(k, CdcClauseKind::Keys(_)))
        .is_none()
    {
        out.push(
            Diagnostic::error(
                Code::MissingClausesForOperation,
                header_span(flow),
                "AUTO CDC needs `KEYS`",
            )
            .with_help("add `KEYS (<column>, ...)` naming the columns that identify a row"),
        );
    }
    let change_feed = matches!(flow.source, CdcSource::ChangeFeed(_));
    if change_feed
        && clauses
            .first(|k| matches!(k, CdcClauseKind::SequenceBy(_)))
            .is_none()
    {
        out.push(
            Diagnostic::error(
                Code::MissingClausesForOperation,
                header_span(flow),
                "AUTO CDC from a change feed needs `SEQUENCE BY`",
            )
            .with_help("add `SEQUENCE BY <column>` naming the column that orders the changes"),
        );
    }
}

/// Each clause of an AUTO CDC flow may be given once.
fn repeated_clauses(flow: &AutoCdcFlow<'_>, out: &mut Vec<Diagnostic>) {
    for_each_repeat(
        flow.clauses.iter(),
        |c| discriminant(&c.kind),
        |first, repeat| {
            out.push(duplicate_clause(
                clause_name(&repeat.kind),
                first.span,
                repeat.span,
            ));
        },
    );
}

/// Each key column is named once.
fn repeated_keys(clauses: &Clauses<'_, '_>, out: &mut Vec<Diagnostic>) {
    repeated_names(clauses.keys(), |first, repeat| {
        out.push(duplicate_key(first, repeat, "KEYS"))
    });
}

/// Only SCD types 1 and 2 exist.
fn invalid_scd_type(flow: &AutoCdcFlow<'_>, out: &mut Vec<Diagnostic>) {
    for clause in flow.clauses {
        if let CdcClauseKind::StoredAs(scd) = &clause.kind {
            if !matches!(scd.value(), Some(1 | 2)) {
                out.push(
                    Diagnostic::error(
                        Code::InvalidScdType,
                        scd.span,
                        format!("`SCD TYPE {}` does not exist", scd.number),
                    )
                    .with_help("write `STORED AS SCD TYPE 1` (keep the latest row) or `SCD TYPE 2` (keep history)"),
                );
            }
        }
    }
}

/// TRACK HISTORY ON chooses which columns open a new history row, so it needs SCD type 2.
fn track_history_requires_scd2(clauses: &Clauses<'_, '_>, out: &mut Vec<Diagnostic>) {
    let Some(track) = clauses.first(|k| matches!(k, CdcClauseKind::TrackHistory(_))) else {
        return;
    };
    if clauses.scd_type() == 2 {
        return;
    }
    let mut diagnostic = Diagnostic::error(
        Code::AutoCdcTrackHistoryRequiresScd2,
        track.span,
        "`TRACK HISTORY ON` needs `STORED AS SCD TYPE 2`",
    )
    .with_help("add `STORED AS SCD TYPE 2`, or remove `TRACK HISTORY ON`");
    if let Some((stored, _)) = clauses.scd() {
        diagnostic = diagnostic.with_label(stored.span, "the flow is stored as SCD type 1 here");
    }
    out.push(diagnostic);
}

/// A truncate empties the target, which would erase an SCD type 2 history.
fn truncate_requires_scd1(clauses: &Clauses<'_, '_>, out: &mut Vec<Diagnostic>) {
    let Some(truncate) = clauses.first(|k| matches!(k, CdcClauseKind::ApplyAsTruncate(_))) else {
        return;
    };
    if let Some((stored, Some(2))) = clauses.scd() {
        out.push(
            Diagnostic::error(
                Code::AutoCdcTruncateRequiresScd1,
                truncate.span,
                "`APPLY AS TRUNCATE WHEN` is only supported with SCD type 1",
            )
            .with_label(stored.span, "the flow keeps SCD type 2 history here")
            .with_help("remove `APPLY AS TRUNCATE WHEN`, or store the flow as `SCD TYPE 1`"),
        );
    }
}

/// The columns a flow writes must include its keys.
fn keys_in_selected_columns(clauses: &Clauses<'_, '_>, out: &mut Vec<Diagnostic>) {
    let keys = clauses.keys();
    let Some(columns) = clauses.first(|k| matches!(k, CdcClauseKind::Columns(_))) else {
        return;
    };
    let CdcClauseKind::Columns(selection) = &columns.kind else {
        return;
    };
    for key in keys {
        let name = folded(key);
        let (dropped, span) = match selection {
            ColumnSelection::AllExcept(except) => match except.iter().find(|c| folded(c) == name) {
                Some(column) => (true, column.span),
                None => (false, columns.span),
            },
            ColumnSelection::List { columns: list, .. } => {
                (!list.iter().any(|c| folded(c) == name), columns.span)
            }
        };
        if dropped {
            out.push(
                Diagnostic::error(
                    Code::AutoCdcKeyNotInSelectedSchema,
                    span,
                    format!(
                        "the key column `{}` is not among the selected columns",
                        key.value()
                    ),
                )
                .with_label(key.span, "declared as a key here")
                .with_help(format!("keep `{}` in COLUMNS", key.value())),
            );
        }
    }
}

/// A key never changes for a row, so tracking its history means nothing.
fn track_history_on_keys(clauses: &Clauses<'_, '_>, out: &mut Vec<Diagnostic>) {
    let Some(track) = clauses.first(|k| matches!(k, CdcClauseKind::TrackHistory(_))) else {
        return;
    };
    let CdcClauseKind::TrackHistory(ColumnSelection::List { columns, .. }) = &track.kind else {
        return;
    };
    for key in clauses.keys() {
        if let Some(column) = columns.iter().find(|c| folded(c) == folded(key)) {
            out.push(
                Diagnostic::error(
                    Code::AutoCdcTrackHistoryOnKeyColumn,
                    column.span,
                    format!(
                        "the key column `{}` is listed in TRACK HISTORY ON",
                        key.value()
                    ),
                )
                .with_label(key.span, "declared as a key here")
                .with_help("remove key columns from TRACK HISTORY ON"),
            );
        }
    }
}

/// Snapshot CDC derives changes by comparing snapshots: the change-feed clauses do not apply.
fn snapshot_unsupported_clauses(flow: &AutoCdcFlow<'_>, out: &mut Vec<Diagnostic>) {
    if !matches!(flow.source, CdcSource::Snapshot(_)) {
        return;
    }
    for clause in flow.clauses {
        let unsupported = matches!(
            clause.kind,
            CdcClauseKind::SequenceBy(_)
                | CdcClauseKind::Where(_)
                | CdcClauseKind::ApplyAsDelete(_)
                | CdcClauseKind::ApplyAsTruncate(_)
                | CdcClauseKind::IgnoreNullUpdates
                | CdcClauseKind::Columns(_)
        );
        if unsupported {
            out.push(
                Diagnostic::error(
                    Code::AutoCdcFromSnapshotUnsupportedClause,
                    clause.span,
                    format!(
                        "snapshot CDC does not support `{}`: cross-snapshot ordering is expressed through WITH VERSION",
                        clause_name(&clause.kind)
                    ),
                )
                .with_help("remove the clause; to order snapshots, add `WITH VERSION (<query>)`"),
            );
        }
    }
}
