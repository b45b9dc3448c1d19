//! Flows: the INSERT and AUTO CDC bodies shared by `CREATE FLOW`, the inline `FLOW` clause of a
//! table, and the legacy `APPLY CHANGES INTO`.

use super::{impl_spanned, Expr, Ident, Keyword, ObjectName, Query, TableRef};
use crate::span::{Span, Spanned};

/// What a flow does.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum FlowBody<'a> {
    /// `INSERT [ONCE] INTO target BY NAME [REPLACE ...] query` (or an inline INSERT / REPLACE).
    Insert(&'a InsertFlow<'a>),
    /// `AUTO CDC [ONCE] INTO target FROM ...` (or an inline AUTO CDC).
    AutoCdc(&'a AutoCdcFlow<'a>),
}

impl Spanned for FlowBody<'_> {
    fn span(&self) -> Span {
        match self {
            FlowBody::Insert(f) => f.span,
            FlowBody::AutoCdc(f) => f.span,
        }
    }
}

/// Where `ONCE` was written; all spellings mean the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum OnceSpelling {
    /// The current spelling: `INSERT ONCE INTO t`, `AUTO CDC ONCE`, `FLOW INSERT ONCE BY NAME`.
    Current,
    /// The older `INSERT INTO ONCE t`.
    AfterInto,
    /// `INSERT INTO t ONCE BY NAME`.
    AfterTarget,
}

/// The `ONCE` keyword that makes a flow run one time (a backfill).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Once {
    /// The keyword.
    pub span: Span,
    /// Where it was written.
    pub spelling: OnceSpelling,
}

/// An INSERT flow.
///
/// ```sql
/// INSERT [ONCE] INTO target BY NAME [REPLACE USING (k) SEQUENCE BY c | REPLACE WHERE p] query
/// -- inline, after FLOW in a table definition (target is None):
/// INSERT [ONCE] BY NAME query
/// REPLACE WHERE p BY NAME query
/// REPLACE USING (k) SEQUENCE BY c BY NAME query
/// ```
///
/// The grammar is permissive: BY NAME may be missing, REPLACE clauses may repeat or be mixed
/// with ONCE; the checker reports those with their own codes.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct InsertFlow<'a> {
    /// From INSERT (or REPLACE, inline) to the end of the query.
    pub span: Span,
    /// The INSERT keyword; absent for an inline REPLACE flow.
    pub insert: Option<Span>,
    /// `ONCE`.
    pub once: Option<Once>,
    /// The table written; `None` for an inline flow, which writes its own table.
    pub target: Option<ObjectName<'a>>,
    /// The `BY NAME` words.
    pub by_name: Option<Span>,
    /// `REPLACE USING ...` / `REPLACE WHERE ...` clauses in source order.
    pub replace: &'a [ReplaceClause<'a>],
    /// The query whose rows are written.
    pub query: &'a Query<'a>,
}

/// A REPLACE clause of an INSERT flow.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum ReplaceClause<'a> {
    /// `REPLACE USING (col, ...) [SEQUENCE BY col]`
    Using(ReplaceUsing<'a>),
    /// `REPLACE WHERE predicate`
    Where(ReplaceWhere<'a>),
}

impl Spanned for ReplaceClause<'_> {
    fn span(&self) -> Span {
        match self {
            ReplaceClause::Using(r) => r.span,
            ReplaceClause::Where(r) => r.span,
        }
    }
}

/// `REPLACE USING (col, ...) SEQUENCE BY col`: keep the latest row per key.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ReplaceUsing<'a> {
    /// From REPLACE to the sequence column.
    pub span: Span,
    /// The key columns.
    pub columns: &'a [Ident<'a>],
    /// `SEQUENCE BY col` (required; its absence is reported by the checker).
    pub sequence_by: Option<ObjectName<'a>>,
}

/// `REPLACE WHERE predicate`: recompute and overwrite the matching rows.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ReplaceWhere<'a> {
    /// From REPLACE to the end of the predicate.
    pub span: Span,
    /// The rows replaced.
    pub predicate: Expr<'a>,
}

/// How an AUTO CDC flow was introduced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum CdcKeyword {
    /// `AUTO CDC`
    AutoCdc,
    /// The legacy `APPLY CHANGES`.
    ApplyChanges,
}

/// An AUTO CDC flow: a change feed or snapshots merged into the target by key.
///
/// ```sql
/// AUTO CDC [ONCE] INTO target FROM source KEYS (k) [IGNORE NULL UPDATES]
///   [APPLY AS DELETE WHEN p] [APPLY AS TRUNCATE WHEN p] SEQUENCE BY e
///   [COLUMNS ...] [STORED AS SCD TYPE n] [TRACK HISTORY ON ...]
/// AUTO CDC [ONCE] INTO target FROM SNAPSHOT (query) [WITH VERSION (query)] KEYS (k) ...
/// ```
///
/// The clauses after the source are kept as a list in source order, repeats and clauses that
/// do not belong (SEQUENCE BY on a snapshot flow) included, for the checker to report.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct AutoCdcFlow<'a> {
    /// From AUTO (or APPLY) to the last clause.
    pub span: Span,
    /// AUTO CDC or APPLY CHANGES, with where the words are.
    pub keyword: Keyword<CdcKeyword>,
    /// `ONCE`.
    pub once: Option<Once>,
    /// The table written; `None` for an inline flow.
    pub target: Option<ObjectName<'a>>,
    /// Where the changes come from.
    pub source: CdcSource<'a>,
    /// The clauses after the source, in source order.
    pub clauses: &'a [CdcClause<'a>],
}

impl<'a> AutoCdcFlow<'a> {
    /// The clauses of one kind, in source order.
    pub fn clauses_where<'s>(
        &'s self,
        mut pred: impl FnMut(&CdcClauseKind<'a>) -> bool + 's,
    ) -> impl Iterator<Item = &'s CdcClause<'a>> + 's {
        self.clauses.iter().filter(move |c| pred(&c.kind))
    }
}

/// The source of an AUTO CDC flow.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum CdcSource<'a> {
    /// `FROM relation`: a change feed, usually `STREAM(t)`.
    ChangeFeed(TableRef<'a>),
    /// `FROM SNAPSHOT (query) [WITH VERSION (query)]`.
    Snapshot(SnapshotSource<'a>),
}

impl Spanned for CdcSource<'_> {
    fn span(&self) -> Span {
        match self {
            CdcSource::ChangeFeed(t) => t.span(),
            CdcSource::Snapshot(s) => s.span,
        }
    }
}

/// `SNAPSHOT (query) [WITH VERSION (query)]`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SnapshotSource<'a> {
    /// From SNAPSHOT to the end of WITH VERSION (...).
    pub span: Span,
    /// The query that reads the snapshot.
    pub snapshot_query: &'a Query<'a>,
    /// `WITH VERSION (query)`: picks the next version to process.
    pub version: Option<VersionQuery<'a>>,
}

/// `WITH VERSION (query)`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct VersionQuery<'a> {
    /// From WITH to `)`.
    pub span: Span,
    /// The version query.
    pub query: &'a Query<'a>,
}

/// A clause of an AUTO CDC flow with its span.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct CdcClause<'a> {
    /// The clause's text.
    pub span: Span,
    /// Which clause.
    pub kind: CdcClauseKind<'a>,
}

/// The clauses of an AUTO CDC flow.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum CdcClauseKind<'a> {
    /// `KEYS (col, ...)`
    Keys(&'a [Ident<'a>]),
    /// `WHERE predicate` (not supported by AUTO CDC; kept for the checker)
    Where(Expr<'a>),
    /// `IGNORE NULL UPDATES`
    IgnoreNullUpdates,
    /// `APPLY AS DELETE WHEN predicate`
    ApplyAsDelete(Expr<'a>),
    /// `APPLY AS TRUNCATE WHEN predicate`
    ApplyAsTruncate(Expr<'a>),
    /// `SEQUENCE BY expr`
    SequenceBy(Expr<'a>),
    /// `COLUMNS a, b` / `COLUMNS (a, b)` / `COLUMNS * EXCEPT (a, b)`
    Columns(ColumnSelection<'a>),
    /// `STORED AS SCD TYPE n`
    StoredAs(ScdType<'a>),
    /// `TRACK HISTORY ON ...`
    TrackHistory(ColumnSelection<'a>),
}

/// A list of columns, or all columns but some.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum ColumnSelection<'a> {
    /// `a, b` or `(a, b)`
    List {
        /// The columns.
        columns: &'a [Ident<'a>],
        /// Whether they were written in parentheses.
        parenthesized: bool,
    },
    /// `* EXCEPT (a, b)`
    AllExcept(&'a [Ident<'a>]),
}

/// `SCD TYPE n` as written; the checker says whether `n` is 1 or 2.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ScdType<'a> {
    /// The number.
    pub span: Span,
    /// The number as written.
    pub number: &'a str,
}

impl ScdType<'_> {
    /// The SCD type number, when it is a plain integer.
    pub fn value(&self) -> Option<u64> {
        self.number.parse().ok()
    }
}

impl_spanned!(
    InsertFlow,
    ReplaceUsing,
    ReplaceWhere,
    AutoCdcFlow,
    SnapshotSource,
    VersionQuery,
    CdcClause
);
