//! The statements of a pipeline source file.

use super::{
    impl_spanned, AutoCdcFlow, FlowBody, Ident, ObjectName, Query, StringLit, TableClause,
    TableSpec,
};
use crate::span::{Span, Spanned};

/// One statement of a pipeline source file.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Statement<'a> {
    /// `CREATE FLOW name AS ...`
    CreateFlow(&'a CreateFlow<'a>),
    /// `CREATE [OR REFRESH] [PRIVATE] STREAMING TABLE ...`
    CreateStreamingTable(&'a CreateStreamingTable<'a>),
    /// `CREATE TABLE ... [FLOW ...]`: a managed table written by flows.
    CreateTable(&'a CreateTable<'a>),
    /// `CREATE [OR REFRESH] [PRIVATE] MATERIALIZED VIEW ... AS query`
    CreateMaterializedView(&'a CreateMaterializedView<'a>),
    /// `CREATE [OR REPLACE] [TEMPORARY] VIEW ... AS query`
    CreateView(&'a CreateView<'a>),
    /// `APPLY CHANGES INTO target ...`: the legacy spelling of an AUTO CDC flow.
    ApplyChanges(&'a ApplyChanges<'a>),
    /// `SET key = value`, `SET CATALOG name`
    Set(&'a SetStatement<'a>),
    /// `USE [CATALOG | SCHEMA | DATABASE | NAMESPACE] name`
    Use(&'a UseStatement<'a>),
    /// A bare query (a snippet such as `SELECT * FROM STREAM t WITH (...)`).
    Query(&'a Query<'a>),
    /// A statement that did not parse; its diagnostic says why.
    Error(Span),
}

impl Spanned for Statement<'_> {
    fn span(&self) -> Span {
        match self {
            Statement::CreateFlow(s) => s.span,
            Statement::CreateStreamingTable(s) => s.span,
            Statement::CreateTable(s) => s.span,
            Statement::CreateMaterializedView(s) => s.span,
            Statement::CreateView(s) => s.span,
            Statement::ApplyChanges(s) => s.span,
            Statement::Set(s) => s.span,
            Statement::Use(s) => s.span,
            Statement::Query(s) => s.span,
            Statement::Error(span) => *span,
        }
    }
}

/// `CREATE FLOW name [COMMENT 'text'] AS { INSERT ... | AUTO CDC ... }`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct CreateFlow<'a> {
    /// The whole statement.
    pub span: Span,
    /// The flow's name (multi-part names are kept for the checker).
    pub name: ObjectName<'a>,
    /// `COMMENT 'text'` clauses (repeats kept).
    pub comments: &'a [StringLit<'a>],
    /// What the flow does; its `target` is always set.
    pub body: FlowBody<'a>,
}

/// `OR REFRESH` / `OR REPLACE` after CREATE.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum OrClause {
    /// `OR REFRESH`
    Refresh,
    /// `OR REPLACE`
    Replace,
}

/// `PRIVATE` / `TEMPORARY` after CREATE.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Visibility {
    /// `PRIVATE`
    Private,
    /// `TEMPORARY` (for datasets: the legacy spelling of PRIVATE)
    Temporary,
}

/// A keyword with where it was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Keyword<K> {
    /// The keyword's text.
    pub span: Span,
    /// Which keyword.
    pub kind: K,
}

/// The body of a streaming or managed table: `AS query` or an inline `FLOW` clause.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum TableBody<'a> {
    /// `AS query`
    Query(AsQuery<'a>),
    /// `FLOW { INSERT ... | AUTO CDC ... | REPLACE ... }`
    Flow(InlineFlow<'a>),
}

impl Spanned for TableBody<'_> {
    fn span(&self) -> Span {
        match self {
            TableBody::Query(q) => q.span,
            TableBody::Flow(f) => f.span,
        }
    }
}

/// `AS query`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct AsQuery<'a> {
    /// From AS to the end of the query.
    pub span: Span,
    /// The query.
    pub query: &'a Query<'a>,
}

/// `FLOW body`: a flow defined together with its table; it writes that table.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct InlineFlow<'a> {
    /// From FLOW to the end.
    pub span: Span,
    /// What the flow does; its `target` is `None`.
    pub body: FlowBody<'a>,
}

/// ```sql
/// CREATE [OR REFRESH] [PRIVATE | TEMPORARY] STREAMING TABLE [IF NOT EXISTS] name
///   [(element, ...)] [table_clause ...] [AS query | FLOW flow]
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct CreateStreamingTable<'a> {
    /// The whole statement.
    pub span: Span,
    /// `OR REFRESH`, or the rejected `OR REPLACE`.
    pub or_clause: Option<Keyword<OrClause>>,
    /// `PRIVATE`, or the legacy `TEMPORARY`.
    pub visibility: Option<Keyword<Visibility>>,
    /// The `INCREMENTAL` of the legacy `CREATE INCREMENTAL LIVE TABLE`, the 2021 spelling.
    pub incremental: Option<Span>,
    /// The `LIVE` of the legacy `CREATE STREAMING LIVE TABLE` (or `INCREMENTAL LIVE TABLE`).
    pub live: Option<Span>,
    /// `IF NOT EXISTS`.
    pub if_not_exists: bool,
    /// The table's name.
    pub name: ObjectName<'a>,
    /// The column list.
    pub spec: Option<TableSpec<'a>>,
    /// Table clauses in source order.
    pub clauses: &'a [TableClause<'a>],
    /// `AS query` or `FLOW ...`.
    pub body: Option<TableBody<'a>>,
}

/// ```sql
/// CREATE TABLE name [(element, ...)] [table_clause ...] [FLOW INSERT [ONCE] BY NAME query]
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct CreateTable<'a> {
    /// The whole statement.
    pub span: Span,
    /// The table's name.
    pub name: ObjectName<'a>,
    /// The column list.
    pub spec: Option<TableSpec<'a>>,
    /// Table clauses in source order.
    pub clauses: &'a [TableClause<'a>],
    /// The inline flow (any flow form is accepted here; the checker rejects AUTO CDC and REPLACE).
    pub flow: Option<InlineFlow<'a>>,
}

/// ```sql
/// CREATE [OR REFRESH] [PRIVATE] MATERIALIZED VIEW [IF NOT EXISTS] name
///   [(element, ...)] [table_clause ...] AS query
/// -- legacy: CREATE [OR REFRESH] [TEMPORARY] LIVE TABLE name ... AS query
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct CreateMaterializedView<'a> {
    /// The whole statement.
    pub span: Span,
    /// `OR REFRESH`.
    pub or_clause: Option<Keyword<OrClause>>,
    /// `PRIVATE` (or `TEMPORARY` with the legacy LIVE TABLE).
    pub visibility: Option<Keyword<Visibility>>,
    /// The `LIVE` of the legacy `CREATE LIVE TABLE` spelling.
    pub live: Option<Span>,
    /// `IF NOT EXISTS`.
    pub if_not_exists: bool,
    /// The view's name.
    pub name: ObjectName<'a>,
    /// The column list.
    pub spec: Option<TableSpec<'a>>,
    /// Table clauses in source order.
    pub clauses: &'a [TableClause<'a>],
    /// `AS query`.
    pub query: AsQuery<'a>,
}

/// ```sql
/// CREATE [OR REPLACE] [TEMPORARY] [LIVE] VIEW [IF NOT EXISTS] name [(col [COMMENT 'c'], ...)]
///   [COMMENT 'text'] [TBLPROPERTIES (...)] AS query
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct CreateView<'a> {
    /// The whole statement.
    pub span: Span,
    /// `OR REPLACE`.
    pub or_replace: bool,
    /// `TEMPORARY`.
    pub temporary: Option<Span>,
    /// The `STREAMING` of the legacy `CREATE [TEMPORARY] STREAMING LIVE VIEW`.
    pub streaming: Option<Span>,
    /// The `LIVE` of the legacy `CREATE [TEMPORARY] [STREAMING] LIVE VIEW`.
    pub live: Option<Span>,
    /// `IF NOT EXISTS`.
    pub if_not_exists: bool,
    /// The view's name.
    pub name: ObjectName<'a>,
    /// The column names, when the column list names any.
    pub columns: Option<&'a [ViewColumn<'a>]>,
    /// The expectations in the column list (`CONSTRAINT c EXPECT (x > 0) ON VIOLATION DROP
    /// ROW`), which a pipeline's views take as its tables do.
    pub expectations: &'a [&'a super::Expectation<'a>],
    /// COMMENT and TBLPROPERTIES clauses.
    pub clauses: &'a [TableClause<'a>],
    /// `AS query`.
    pub query: AsQuery<'a>,
}

/// `name [COMMENT 'text']` in a view's column list.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ViewColumn<'a> {
    /// From the name to the comment.
    pub span: Span,
    /// The column name.
    pub name: Ident<'a>,
    /// The comment.
    pub comment: Option<StringLit<'a>>,
}

/// `APPLY CHANGES INTO target FROM ... KEYS ...`: the legacy spelling of
/// `CREATE FLOW ... AS AUTO CDC INTO ...` (the flow takes the target's name).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ApplyChanges<'a> {
    /// The whole statement.
    pub span: Span,
    /// The flow, with `keyword` [`super::CdcKeyword::ApplyChanges`] and a target.
    pub flow: AutoCdcFlow<'a>,
}

/// `SET key = value` or `SET CATALOG name`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SetStatement<'a> {
    /// The whole statement.
    pub span: Span,
    /// What is set.
    pub kind: SetKind<'a>,
}

/// The forms of SET.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum SetKind<'a> {
    /// `SET key = value`; both sides are kept as written.
    Property {
        /// The key's text: `spark.sql.shuffle.partitions`.
        key: &'a str,
        /// The value's text (may be empty): `10`, `'x'`, `true`.
        value: &'a str,
        /// Where the value is (empty at the statement's end when there is none).
        value_span: Span,
    },
    /// `SET CATALOG name`
    Catalog(Ident<'a>),
}

/// What a USE statement selects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum UseKind {
    /// `USE name` (a schema)
    Default,
    /// `USE CATALOG name`
    Catalog,
    /// `USE SCHEMA name`
    Schema,
    /// `USE DATABASE name`
    Database,
    /// `USE NAMESPACE name`
    Namespace,
}

/// `USE [CATALOG | SCHEMA | DATABASE | NAMESPACE] name`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct UseStatement<'a> {
    /// The whole statement.
    pub span: Span,
    /// What is selected.
    pub kind: UseKind,
    /// The catalog or schema.
    pub name: ObjectName<'a>,
}

impl_spanned!(
    CreateFlow,
    AsQuery,
    InlineFlow,
    CreateStreamingTable,
    CreateTable,
    CreateMaterializedView,
    CreateView,
    ViewColumn,
    ApplyChanges,
    SetStatement,
    UseStatement
);
