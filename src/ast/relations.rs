//! The relation forms that Spark 4.2 and 4.3 added to FROM: a table's change feed (`CHANGES`),
//! nearest-by joins, `JSON_TABLE` and `BIN BY`.

use super::{Alias, DataType, Expr, Ident, ObjectName, StringLit, TableRef};
use crate::span::Span;

/// `CHANGES FROM VERSION 10 [EXCLUSIVE] [TO VERSION 20]` after a table name: the rows inserted,
/// updated and deleted in that range of the table's history. After `STREAM name` the range has
/// no end, and a bare `CHANGES` reads every change from the stream's start.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Changes<'a> {
    /// From CHANGES to the last bound.
    pub span: Span,
    /// Where the range starts; `None` for a bare `CHANGES` (streaming reads only).
    pub from: Option<ChangeBound<'a>>,
    /// Where the range ends; `None` for the table's latest version.
    pub to: Option<ChangeBound<'a>>,
}

/// One end of a [`Changes`] range: `VERSION 10 [INCLUSIVE | EXCLUSIVE]` or
/// `TIMESTAMP '2026-01-01' [INCLUSIVE | EXCLUSIVE]` (also SYSTEM_VERSION and SYSTEM_TIME).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ChangeBound<'a> {
    /// From the keyword to the value or INCLUSIVE/EXCLUSIVE.
    pub span: Span,
    /// `true` for a version (an integer or a string), `false` for a timestamp (an expression).
    pub by_version: bool,
    /// The version or timestamp.
    pub value: Expr<'a>,
    /// `Some(true)` for INCLUSIVE, `Some(false)` for EXCLUSIVE.
    pub inclusive: Option<bool>,
}

/// `left JOIN right EXACT NEAREST 5 BY DISTANCE expr`: for each left row, the right rows that
/// rank first by the expression (a top-K join, for vector search).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct NearestBy<'a> {
    /// From EXACT or APPROX to the end of the expression.
    pub span: Span,
    /// `true` for EXACT, `false` for APPROX.
    pub exact: bool,
    /// How many rows each left row keeps (an integer literal); one when not written.
    pub count: Option<&'a str>,
    /// Whether the smallest (DISTANCE) or the largest (SIMILARITY) values rank first.
    pub ranking: NearestRanking,
    /// The score of a pair of rows.
    pub score: Expr<'a>,
}

/// Which way a [`NearestBy`] score ranks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum NearestRanking {
    /// `DISTANCE`: the smallest first.
    Distance,
    /// `SIMILARITY`: the largest first.
    Similarity,
}

/// `JSON_TABLE(document, '$.path' COLUMNS (...) [NULL | ERROR ON ERROR]) [alias]`: one row per
/// JSON value that the path selects, one column per column definition.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct JsonTable<'a> {
    /// From LATERAL or JSON_TABLE to the alias.
    pub span: Span,
    /// `LATERAL JSON_TABLE(...)`, which reads the relations before it as a plain JSON_TABLE
    /// does too.
    pub lateral: bool,
    /// The JSON document.
    pub document: Expr<'a>,
    /// The path to the rows, as adjacent string literals.
    pub path: &'a [StringLit<'a>],
    /// The columns, at least one.
    pub columns: &'a [JsonTableColumn<'a>],
    /// `Some(true)` for ERROR ON ERROR, `Some(false)` for NULL ON ERROR.
    pub error_on_error: Option<bool>,
    /// The alias.
    pub alias: Option<Alias<'a>>,
}

/// A column of a [`JsonTable`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct JsonTableColumn<'a> {
    /// From the name to the end of the definition.
    pub span: Span,
    /// The column's name.
    pub name: Ident<'a>,
    /// What the column holds.
    pub kind: JsonColumnKind<'a>,
}

/// What a [`JsonTableColumn`] holds.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum JsonColumnKind<'a> {
    /// `name FOR ORDINALITY`: the row's number, from 1.
    Ordinality,
    /// `name type [EXISTS] [PATH '$.field']`: the value at the path (by default the field of
    /// the column's name), or with EXISTS whether there is one.
    Value {
        /// The column's type.
        data_type: &'a DataType<'a>,
        /// `EXISTS`.
        exists: bool,
        /// `PATH '...'`, as adjacent string literals.
        path: Option<&'a [StringLit<'a>]>,
    },
}

/// `source BIN BY (RANGE start TO end BIN WIDTH w [ALIGN TO origin] DISTRIBUTE UNIFORM (cols)
/// [BIN_START AS a] [BIN_END AS b] [BIN_DISTRIBUTE_RATIO AS c]) [alias]`: each row whose range
/// spans several bins of width `w` becomes one row per bin, the distributed columns scaled by
/// the share of the range in the bin.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct BinBy<'a> {
    /// From the source (or BIN BY in a pipe step) to the alias.
    pub span: Span,
    /// The relation binned; `None` in a pipe step (`|> BIN BY (...)`).
    pub source: Option<TableRef<'a>>,
    /// The column where a row's range starts.
    pub range_start: ObjectName<'a>,
    /// The column where a row's range ends.
    pub range_end: ObjectName<'a>,
    /// The width of a bin, an interval.
    pub width: Expr<'a>,
    /// `ALIGN TO origin`: a timestamp on a bin boundary.
    pub align_to: Option<Expr<'a>>,
    /// The columns scaled by each bin's share.
    pub distribute: &'a [ObjectName<'a>],
    /// The names of the three added columns (`bin_start`, `bin_end`, `bin_distribute_ratio`),
    /// where they are renamed.
    pub output_names: [Option<Ident<'a>>; 3],
    /// The alias of the result.
    pub alias: Option<Alias<'a>>,
}

impl BinBy<'_> {
    /// The clauses that rename the added columns, in the order of [`BinBy::output_names`].
    pub const OUTPUT_CLAUSES: [&'static str; 3] = ["BIN_START", "BIN_END", "BIN_DISTRIBUTE_RATIO"];
}

super::impl_spanned!(
    Changes,
    ChangeBound,
    NearestBy,
    JsonTable,
    JsonTableColumn,
    BinBy
);
