//! Queries: `[WITH ...] SELECT ... FROM ... [UNION ...] [ORDER BY ...] [LIMIT ...]`.

use super::{
    impl_spanned, BinBy, Changes, Expr, FunctionCall, Ident, JsonTable, NearestBy, ObjectName,
    Property, SetQuantifier, StringLit, StructField, WindowSpec,
};
use crate::span::{Span, Spanned};

/// A whole query: `[WITH ctes] body [ORDER BY ...] [WINDOW ...] [LIMIT n] [OFFSET n]`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Query<'a> {
    /// From WITH (or the body) to the last clause.
    pub span: Span,
    /// `WITH [RECURSIVE] name AS (query), ...`.
    pub with: Option<With<'a>>,
    /// The SELECTs and set operations.
    pub body: SetExpr<'a>,
    /// `ORDER BY ...`.
    pub order_by: &'a [OrderByExpr<'a>],
    /// `LIMIT n` or `LIMIT ALL`.
    pub limit: Option<&'a Limit<'a>>,
    /// `OFFSET n`.
    pub offset: Option<&'a Expr<'a>>,
    /// `CLUSTER BY`, `DISTRIBUTE BY`, `SORT BY`.
    pub distribution: Option<&'a Distribution<'a>>,
    /// `WINDOW name AS (...), ...` after ORDER BY or CLUSTER/DISTRIBUTE/SORT BY: windows named
    /// for the whole query (Spark's `queryOrganization`). A WINDOW clause before them is the
    /// SELECT's own.
    pub windows: &'a [NamedWindow<'a>],
}

/// Spark's `[CLUSTER BY ...] [DISTRIBUTE BY ...] [SORT BY ...]` after ORDER BY.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Distribution<'a> {
    /// `CLUSTER BY expr, ...`: distribute by and sort within partitions by the same keys.
    pub cluster_by: &'a [Expr<'a>],
    /// `DISTRIBUTE BY expr, ...`: how rows are spread over partitions.
    pub distribute_by: &'a [Expr<'a>],
    /// `SORT BY ...`: the order within each partition.
    pub sort_by: &'a [OrderByExpr<'a>],
}

/// `name AS window` in a WINDOW clause.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct NamedWindow<'a> {
    /// From the name to the end of the definition.
    pub span: Span,
    /// The name that `OVER name` refers to.
    pub name: Ident<'a>,
    /// The definition (which may name another window).
    pub spec: &'a WindowSpec<'a>,
}

/// `WITH [RECURSIVE] cte, ...`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct With<'a> {
    /// From WITH to the last CTE.
    pub span: Span,
    /// `WITH RECURSIVE`.
    pub recursive: bool,
    /// The common table expressions in order.
    pub ctes: &'a [Cte<'a>],
}

/// `name [(col, ...)] AS (query)`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Cte<'a> {
    /// From the name to the closing parenthesis.
    pub span: Span,
    /// The name the query is known by.
    pub name: Ident<'a>,
    /// Column names given to the result.
    pub columns: &'a [Ident<'a>],
    /// `MAX RECURSION LEVEL n`, only in `WITH RECURSIVE`.
    pub max_recursion_level: Option<RecursionLimit>,
    /// The query.
    pub query: &'a Query<'a>,
}

/// `MAX RECURSION LEVEL n`: how many times a recursive CTE may recurse.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RecursionLimit {
    /// From MAX to the number.
    pub span: Span,
    /// The number of levels.
    pub level: u32,
}

/// `LIMIT n` or `LIMIT ALL`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Limit<'a> {
    /// `LIMIT ALL`
    All(Span),
    /// `LIMIT expr`
    Count(Expr<'a>),
}

/// The body of a query: SELECTs combined with set operations.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum SetExpr<'a> {
    /// `SELECT ...`
    Select(&'a Select<'a>),
    /// `(query)`
    Query(&'a Query<'a>),
    /// `left UNION|INTERSECT|EXCEPT|MINUS [ALL|DISTINCT] right`
    SetOperation(&'a SetOperation<'a>),
    /// `VALUES row, ...`
    Values(Values<'a>),
    /// `TABLE name`
    Table(TableStatement<'a>),
    /// `input |> operation`: Spark's pipe syntax.
    Pipe(&'a PipeOperation<'a>),
    /// `FROM t SELECT a ... SELECT b ...`: Hive's several bodies after one FROM clause, which
    /// Spark reads as the UNION ALL of the bodies.
    FromBodies(&'a FromBodies<'a>),
}

/// Several SELECT bodies after one FROM clause: `FROM t SELECT a WHERE a > 0 SELECT b`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct FromBodies<'a> {
    /// From FROM to the end of the last body.
    pub span: Span,
    /// The bodies, two or more, in order. Each is a query of its own, whose ORDER BY, LIMIT ...
    /// apply to that body alone, as in Spark, and whose body is a FROM-first [`Select`]. The
    /// bodies share the FROM clause, written once before the first: each one's `from` is the
    /// same list, and the clause's LATERAL VIEWs come first in each one's `lateral_views`. The
    /// first body's span starts at FROM, the others' at their SELECT. The visitor walks the
    /// shared FROM clause once, with the first body.
    pub bodies: &'a [Query<'a>],
}

/// `input |> operation`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PipeOperation<'a> {
    /// From the input to the end of the operation.
    pub span: Span,
    /// The rows piped in.
    pub input: SetExpr<'a>,
    /// What is done to them.
    pub op: PipeOp<'a>,
}

/// One step of a pipe.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum PipeOp<'a> {
    /// `SELECT [DISTINCT] items [WINDOW ...]`
    Select {
        /// Optimizer hints right after SELECT.
        hints: &'a [Hint<'a>],
        /// `ALL` or `DISTINCT`.
        quantifier: Option<SetQuantifier>,
        /// The select list.
        projection: &'a [SelectItem<'a>],
        /// Named windows.
        windows: &'a [NamedWindow<'a>],
    },
    /// `EXTEND expr [AS name], ...`: adds columns (a generator may name several, `AS (k, v)`).
    Extend(&'a [SelectItem<'a>]),
    /// `SET column = expr, ...`: replaces columns.
    Set(&'a [(ObjectName<'a>, Expr<'a>)]),
    /// `DROP column, ...`
    Drop(&'a [ObjectName<'a>]),
    /// `AS name`: names the rows for later steps.
    As(Ident<'a>),
    /// `WHERE predicate`
    Where(Expr<'a>),
    /// `AGGREGATE [expr [AS name], ...] [GROUP BY expr [AS name], ...]`
    Aggregate {
        /// The aggregates, named as select items are.
        aggregates: &'a [SelectItem<'a>],
        /// The grouping expressions, named as select items are (`region AS r`, `region AS
        /// (r)`): each a [`SelectItem::Expr`] or a [`SelectItem::MultiAlias`]. Spark takes no
        /// ROLLUP, CUBE or GROUPING SETS here.
        group_by: &'a [SelectItem<'a>],
    },
    /// `[kind] JOIN relation [ON ... | USING (...)]`
    Join {
        /// The kind of join.
        kind: JoinKind,
        /// `NATURAL`.
        natural: bool,
        /// The relation joined.
        right: TableRef<'a>,
        /// The match condition.
        constraint: JoinConstraint<'a>,
    },
    /// `UNION | INTERSECT | EXCEPT | MINUS [ALL | DISTINCT] query`
    SetOperation {
        /// The operator.
        op: SetOperator,
        /// `ALL` or `DISTINCT`.
        quantifier: Option<SetQuantifier>,
        /// The other operand.
        right: SetExpr<'a>,
    },
    /// `TABLESAMPLE (...)`
    Sample(&'a TableSample<'a>),
    /// `PIVOT (...) [AS alias]`: the pivot of a relation, applied to the rows so far.
    Pivot(&'a Pivot<'a>),
    /// `UNPIVOT (...) [AS alias]`
    Unpivot(&'a Unpivot<'a>),
    /// `BIN BY (...) [AS alias]`
    BinBy(&'a BinBy<'a>),
    /// `[ORDER BY ...] [CLUSTER BY ... | DISTRIBUTE BY ... SORT BY ...] [LIMIT n] [OFFSET n]`;
    /// all of them may be left out (`FROM t |>`).
    Organize {
        /// ORDER BY items.
        order_by: &'a [OrderByExpr<'a>],
        /// CLUSTER BY, DISTRIBUTE BY, SORT BY.
        distribution: Option<&'a Distribution<'a>>,
        /// LIMIT.
        limit: Option<&'a Limit<'a>>,
        /// OFFSET.
        offset: Option<&'a Expr<'a>>,
    },
}

/// A set operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum SetOperator {
    /// `UNION`
    Union,
    /// `INTERSECT`
    Intersect,
    /// `EXCEPT`
    Except,
    /// `MINUS` (a synonym of EXCEPT)
    Minus,
}

/// `left op [ALL | DISTINCT] right`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SetOperation<'a> {
    /// From the left operand to the right one.
    pub span: Span,
    /// The operator.
    pub op: SetOperator,
    /// `ALL` or `DISTINCT`.
    pub quantifier: Option<SetQuantifier>,
    /// The left operand.
    pub left: SetExpr<'a>,
    /// The right operand.
    pub right: SetExpr<'a>,
}

/// `VALUES (1, 'a'), (2, 'b') [[AS] t(a, b)]` or `VALUES 1, 2`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Values<'a> {
    /// From VALUES to the last row, or to the alias.
    pub span: Span,
    /// The rows; a row of several columns is an [`super::ExprKind::Tuple`].
    pub rows: &'a [Expr<'a>],
    /// A name for the rows and their columns.
    pub alias: Option<&'a Alias<'a>>,
}

/// `TABLE name`: every row of a table.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TableStatement<'a> {
    /// From TABLE to the name.
    pub span: Span,
    /// The table.
    pub name: ObjectName<'a>,
}

/// `SELECT [ALL | DISTINCT] items [FROM ...] [WHERE ...] [GROUP BY ...] [HAVING ...]`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Select<'a> {
    /// From SELECT to the last clause.
    pub span: Span,
    /// Optimizer hints right after SELECT: `SELECT /*+ BROADCAST(d) */ ...`.
    pub hints: &'a [Hint<'a>],
    /// `ALL` or `DISTINCT`.
    pub quantifier: Option<SetQuantifier>,
    /// The select list.
    pub projection: &'a [SelectItem<'a>],
    /// The relations after FROM, comma-separated.
    pub from: &'a [TableRef<'a>],
    /// `WHERE predicate`.
    pub selection: Option<Expr<'a>>,
    /// `LATERAL VIEW ...` clauses after FROM.
    pub lateral_views: &'a [LateralView<'a>],
    /// `GROUP BY item, ...`.
    pub group_by: &'a [GroupByItem<'a>],
    /// `HAVING predicate`.
    pub having: Option<&'a Expr<'a>>,
    /// `WINDOW name AS (...), ...`: windows named for `OVER name`.
    pub windows: &'a [NamedWindow<'a>],
    /// `QUALIFY predicate`: filters on window function results.
    pub qualify: Option<&'a Expr<'a>>,
    /// Written FROM first: `FROM t SELECT a`, or `FROM t` alone (every column).
    pub from_first: bool,
}

/// One optimizer hint of a `/*+ ... */` comment after SELECT: `BROADCAST(d)`, `REPARTITION(8,
/// region)`, `COALESCE(1)`. Spark takes a name and, in parentheses, simple expressions (names,
/// literals, calls); which hints exist and what their parameters mean is for the engine to say,
/// so the visitor does not walk the parameters as expressions of the query.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Hint<'a> {
    /// From the name to the closing parenthesis.
    pub span: Span,
    /// The hint's name, as written.
    pub name: Ident<'a>,
    /// The parameters in parentheses (none without them).
    pub parameters: &'a [Expr<'a>],
}

/// One item of GROUP BY.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum GroupByItem<'a> {
    /// `expr`
    Expr(Expr<'a>),
    /// `ALL`: every non-aggregate expression of the select list.
    All(Span),
    /// `ROLLUP (set, ...)`
    Rollup(&'a [Expr<'a>]),
    /// `CUBE (set, ...)`
    Cube(&'a [Expr<'a>]),
    /// `GROUPING SETS (set, ...)`; a set of several expressions is a tuple, `()` an empty one.
    /// A GROUPING SETS nested in it stands for its sets, as in Spark, and is read as them.
    GroupingSets(&'a [Expr<'a>]),
    /// A modifier of the whole list, after its last item without a comma:
    /// `GROUP BY a, b WITH ROLLUP`, `GROUP BY a GROUPING SETS ((a), ())`.
    Modifier(GroupByModifier<'a>),
}

/// `WITH ROLLUP`, `WITH CUBE` or `GROUPING SETS (...)` after a GROUP BY list.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum GroupByModifier<'a> {
    /// `WITH ROLLUP`: the list is a ROLLUP.
    WithRollup(Span),
    /// `WITH CUBE`: the list is a CUBE.
    WithCube(Span),
    /// `GROUPING SETS (set, ...)`: the sets to group by.
    GroupingSets(&'a [Expr<'a>]),
}

/// `LATERAL VIEW [OUTER] generator(args) alias [AS column, ...]`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct LateralView<'a> {
    /// From LATERAL to the last column name.
    pub span: Span,
    /// `OUTER`: keep rows for which the generator produces nothing.
    pub outer: bool,
    /// The generator call.
    pub call: &'a FunctionCall<'a>,
    /// The table alias.
    pub alias: Option<Ident<'a>>,
    /// The column aliases.
    pub columns: &'a [Ident<'a>],
}

/// One item of a select list.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum SelectItem<'a> {
    /// `expr [[AS] alias]`
    Expr {
        /// The value.
        expr: Expr<'a>,
        /// The output name.
        alias: Option<Ident<'a>>,
    },
    /// `*`, `t.*`, `* EXCEPT (a, b)`.
    Wildcard(Wildcard<'a>),
    /// `expr AS (a, b)`: names for each column of a generator such as `stack` or `inline`.
    MultiAlias {
        /// The generator call.
        expr: Expr<'a>,
        /// The column names.
        aliases: &'a [Ident<'a>],
    },
    /// `TRANSFORM (a, b) USING 'script' ...`: the whole select list of a script transform.
    Transform(&'a ScriptTransform<'a>),
}

impl<'a> SelectItem<'a> {
    /// The value of an expression item, named or not; none for a star or a script transform.
    pub fn expr(&self) -> Option<&Expr<'a>> {
        match self {
            SelectItem::Expr { expr, .. } | SelectItem::MultiAlias { expr, .. } => Some(expr),
            SelectItem::Wildcard(_) | SelectItem::Transform(_) => None,
        }
    }
}

/// Hive's script transform, `SELECT TRANSFORM (inputs) [ROW FORMAT ...] USING 'script'
/// [AS columns] [ROW FORMAT ...]`: the rows pass through an external program. Hive's `MAP
/// inputs USING ...` and `REDUCE inputs USING ...` are the same transform (as in Spark), and
/// print as `SELECT TRANSFORM`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ScriptTransform<'a> {
    /// From TRANSFORM to the end of the last clause.
    pub span: Span,
    /// The columns written to the script.
    pub inputs: &'a [Expr<'a>],
    /// How the input rows are written.
    pub input_format: Option<&'a RowFormat<'a>>,
    /// The command that runs the script; adjacent literals are concatenated.
    pub script: &'a [StringLit<'a>],
    /// `AS ...`: the script's output columns; without it, Spark reads a `key` and a `value`.
    pub output: Option<TransformOutput<'a>>,
    /// How the output rows are read.
    pub output_format: Option<&'a RowFormat<'a>>,
}

/// The output columns of a script transform.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum TransformOutput<'a> {
    /// `AS (a, b)`: names, every column a string.
    Names(&'a [Ident<'a>]),
    /// `AS (a INT, b STRING)`: names with types.
    Columns(&'a [StructField<'a>]),
}

/// `ROW FORMAT DELIMITED [FIELDS TERMINATED BY ',' [ESCAPED BY '\\']] [COLLECTION ITEMS
/// TERMINATED BY '|'] [MAP KEYS TERMINATED BY ':'] [LINES TERMINATED BY '\n'] [NULL DEFINED AS
/// 'N']`: each clause optional, in this order. A value may be adjacent literals, concatenated.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RowFormat<'a> {
    /// From ROW FORMAT to the last clause.
    pub span: Span,
    /// Between fields.
    pub fields_terminated_by: Option<&'a [StringLit<'a>]>,
    /// Escapes a separator inside a field.
    pub escaped_by: Option<&'a [StringLit<'a>]>,
    /// Between the elements of an array or map.
    pub collection_items_terminated_by: Option<&'a [StringLit<'a>]>,
    /// Between a map's key and value.
    pub map_keys_terminated_by: Option<&'a [StringLit<'a>]>,
    /// Between rows.
    pub lines_terminated_by: Option<&'a [StringLit<'a>]>,
    /// How NULL is written.
    pub null_defined_as: Option<&'a [StringLit<'a>]>,
}

impl<'a> RowFormat<'a> {
    /// The keywords of the clauses, in the order Spark takes them.
    pub const CLAUSES: [&'static str; 6] = [
        "FIELDS TERMINATED BY",
        "ESCAPED BY",
        "COLLECTION ITEMS TERMINATED BY",
        "MAP KEYS TERMINATED BY",
        "LINES TERMINATED BY",
        "NULL DEFINED AS",
    ];

    /// A row format from the values of its clauses, in the order of [`RowFormat::CLAUSES`].
    pub fn from_values(span: Span, values: [Option<&'a [StringLit<'a>]>; 6]) -> Self {
        let [fields_terminated_by, escaped_by, collection_items_terminated_by, map_keys_terminated_by, lines_terminated_by, null_defined_as] =
            values;
        RowFormat {
            span,
            fields_terminated_by,
            escaped_by,
            collection_items_terminated_by,
            map_keys_terminated_by,
            lines_terminated_by,
            null_defined_as,
        }
    }

    /// The values of the clauses, in the order of [`RowFormat::CLAUSES`].
    pub fn values(&self) -> [Option<&'a [StringLit<'a>]>; 6] {
        [
            self.fields_terminated_by,
            self.escaped_by,
            self.collection_items_terminated_by,
            self.map_keys_terminated_by,
            self.lines_terminated_by,
            self.null_defined_as,
        ]
    }
}

/// `[qualifier.]* [EXCEPT (col, ...)]`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Wildcard<'a> {
    /// From the qualifier or `*` to the end.
    pub span: Span,
    /// `t` in `t.*`.
    pub qualifier: Option<ObjectName<'a>>,
    /// The columns after EXCEPT.
    pub except: Option<&'a [ObjectName<'a>]>,
}

/// `[AS] name [(col, ...)]`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Alias<'a> {
    /// From AS (or the name) to the end.
    pub span: Span,
    /// The alias.
    pub name: Ident<'a>,
    /// Column aliases of a relation: `AS t(a, b)`.
    pub columns: &'a [Ident<'a>],
}

/// `expr [ASC | DESC] [NULLS FIRST | NULLS LAST]`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct OrderByExpr<'a> {
    /// From the expression to the last modifier.
    pub span: Span,
    /// The sort key.
    pub expr: Expr<'a>,
    /// `Some(true)` for ASC, `Some(false)` for DESC.
    pub ascending: Option<bool>,
    /// `Some(true)` for NULLS FIRST, `Some(false)` for NULLS LAST.
    pub nulls_first: Option<bool>,
}

/// How a source is read as a stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum StreamForm {
    /// `STREAM(name)` or `STREAM(function(...))`
    Parenthesized,
    /// `STREAM name` or `STREAM function(...)`
    Bare,
}

/// The `STREAM` keyword of a streaming read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct StreamRead {
    /// The STREAM keyword.
    pub span: Span,
    /// Which of the spellings was used.
    pub form: StreamForm,
}

/// A relation in FROM.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum TableRef<'a> {
    /// `[STREAM] name [WITH (options)] [alias]`, `STREAM(name) [WITH (options)] [alias]`.
    Table(&'a TableName<'a>),
    /// `[STREAM] function(args) [alias]`: a table-valued function such as `read_files`.
    Function(&'a TableFunction<'a>),
    /// `(query) [alias]`.
    Subquery(&'a DerivedTable<'a>),
    /// `left [kind] JOIN right [ON ... | USING (...)]`.
    Join(&'a Join<'a>),
    /// `VALUES (1, 'a'), (2, 'b') [AS] t(n, s)`: an inline table.
    Values(&'a InlineTable<'a>),
    /// `source PIVOT (aggregates FOR column IN (values)) [alias]`.
    Pivot(&'a Pivot<'a>),
    /// `source UNPIVOT [INCLUDE | EXCLUDE NULLS] (value FOR name IN (columns)) [alias]`.
    Unpivot(&'a Unpivot<'a>),
    /// `(t)` or `(t JOIN u ON ...) [alias]`: a relation in parentheses.
    Nested(&'a NestedRelation<'a>),
    /// `JSON_TABLE(document, '$.path' COLUMNS (...)) [alias]`.
    JsonTable(&'a JsonTable<'a>),
    /// `source BIN BY (...) [alias]`.
    BinBy(&'a BinBy<'a>),
}

/// `(relation) [TABLESAMPLE (...)] [WATERMARK ...] [alias]`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct NestedRelation<'a> {
    /// From the opening parenthesis to the alias.
    pub span: Span,
    /// The relation inside: a name or a join.
    pub relation: TableRef<'a>,
    /// `TABLESAMPLE (...)`.
    pub sample: Option<&'a TableSample<'a>>,
    /// `WATERMARK ts DELAY OF INTERVAL 10 MINUTES`.
    pub watermark: Option<&'a Watermark<'a>>,
    /// The alias.
    pub alias: Option<Alias<'a>>,
}

/// `VALUES row, ... [alias]` in FROM.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct InlineTable<'a> {
    /// From VALUES to the alias.
    pub span: Span,
    /// The rows; a row of several columns is an [`super::ExprKind::Tuple`].
    pub rows: &'a [Expr<'a>],
    /// The alias, usually with column names.
    pub alias: Option<Alias<'a>>,
}

/// An expression with an optional name: a PIVOT aggregate or value, an UNPIVOT column.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Named<'a, T> {
    /// The value.
    pub value: T,
    /// `[AS] name`.
    pub alias: Option<Ident<'a>>,
}

/// `source PIVOT (sum(x) [AS s], ... FOR col IN (v [AS n], ...))`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Pivot<'a> {
    /// From the source to the alias.
    pub span: Span,
    /// The relation pivoted; `None` in a pipe step (`|> PIVOT (...)`), which pivots the rows so
    /// far.
    pub source: Option<TableRef<'a>>,
    /// The aggregates computed for each value, named as select items are (`sum(x) s`, and
    /// `sum(x) AS (s)` or `sum(x) (s)`, as Spark's grammar takes them).
    pub aggregates: &'a [SelectItem<'a>],
    /// The pivot column, or several in parentheses.
    pub columns: &'a [Ident<'a>],
    /// The values that become columns; a tuple for several pivot columns.
    pub values: &'a [Named<'a, Expr<'a>>],
    /// The alias of the result.
    pub alias: Option<Alias<'a>>,
}

/// `source UNPIVOT [INCLUDE | EXCLUDE NULLS] (v FOR n IN (a [AS x], ...))`, or with several value
/// columns `((v1, v2) FOR n IN ((a, b) [AS ab], ...))`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Unpivot<'a> {
    /// From the source to the alias.
    pub span: Span,
    /// The relation unpivoted; `None` in a pipe step (`|> UNPIVOT (...)`).
    pub source: Option<TableRef<'a>>,
    /// `Some(true)` for INCLUDE NULLS, `Some(false)` for EXCLUDE NULLS.
    pub include_nulls: Option<bool>,
    /// The value column, or several (written in parentheses).
    pub value_columns: &'a [Ident<'a>],
    /// The column that receives the source column's name.
    pub name_column: Ident<'a>,
    /// The source columns, each a group when there are several value columns.
    pub columns: &'a [Named<'a, &'a [ObjectName<'a>]>],
    /// The alias of the result.
    pub alias: Option<Alias<'a>>,
}

/// `VERSION AS OF v` or `TIMESTAMP AS OF ts` (also with FOR, SYSTEM_VERSION and SYSTEM_TIME):
/// Delta time travel.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TimeTravel<'a> {
    /// From FOR or the first keyword to the value.
    pub span: Span,
    /// `true` for a version, `false` for a timestamp.
    pub by_version: bool,
    /// The version or timestamp.
    pub value: Expr<'a>,
    /// Written as a suffix of the name, `t@v12` or `t@yyyyMMddHHmmssSSS`, rather than as a
    /// VERSION or TIMESTAMP AS OF clause.
    pub at_suffix: bool,
}

/// `TABLESAMPLE (...) [REPEATABLE (seed)]`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TableSample<'a> {
    /// From TABLESAMPLE to the end.
    pub span: Span,
    /// `TABLESAMPLE SYSTEM (...)` or `TABLESAMPLE BERNOULLI (...)`.
    pub kind: Option<SampleKind>,
    /// How much to sample.
    pub method: SampleMethod<'a>,
    /// `REPEATABLE (seed)`.
    pub seed: Option<Expr<'a>>,
}

/// `WATERMARK ts DELAY OF INTERVAL 10 MINUTES` after a source: how late an event may arrive,
/// measured on an event-time column, before a stateful streaming operation drops it.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Watermark<'a> {
    /// From WATERMARK to the interval.
    pub span: Span,
    /// The event time: a column or an expression (`to_timestamp(s) AS event_time`).
    pub event_time: Expr<'a>,
    /// The name of a computed event time.
    pub alias: Option<Ident<'a>>,
    /// The delay, an interval literal.
    pub delay: Expr<'a>,
}

/// How the rows of a TABLESAMPLE are drawn, when written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum SampleKind {
    /// `SYSTEM`: whole blocks of rows (a percentage only).
    System,
    /// `BERNOULLI`: each row on its own.
    Bernoulli,
}

/// The amount of a TABLESAMPLE.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum SampleMethod<'a> {
    /// `n PERCENT`
    Percent(Expr<'a>),
    /// `n ROWS`
    Rows(Expr<'a>),
    /// `BUCKET n OUT OF m`
    Bucket {
        /// The bucket taken.
        numerator: Expr<'a>,
        /// The number of buckets.
        denominator: Expr<'a>,
    },
}

/// A named table, view or stream in FROM.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TableName<'a> {
    /// From STREAM (or the name) to the alias.
    pub span: Span,
    /// The STREAM keyword, for a streaming read.
    pub stream: Option<StreamRead>,
    /// The table.
    pub name: ObjectName<'a>,
    /// `VERSION AS OF 3`, `TIMESTAMP AS OF '...'`.
    pub time_travel: Option<&'a TimeTravel<'a>>,
    /// `WITH (skipChangeCommits, startingVersion = 5)`.
    pub options: Option<ReadOptions<'a>>,
    /// `CHANGES FROM VERSION 10 TO VERSION 20`: the table's change feed.
    pub changes: Option<&'a Changes<'a>>,
    /// `TABLESAMPLE (...)`.
    pub sample: Option<&'a TableSample<'a>>,
    /// `IDENTIFIED BY name`: the name of a streaming source, which keeps the stream's progress
    /// when the query changes.
    pub identified_by: Option<Ident<'a>>,
    /// `WATERMARK ts DELAY OF INTERVAL 10 MINUTES`.
    pub watermark: Option<&'a Watermark<'a>>,
    /// The alias.
    pub alias: Option<Alias<'a>>,
}

/// `WITH (option [= value], ...)` after a source: Delta read options.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ReadOptions<'a> {
    /// From WITH to the closing parenthesis.
    pub span: Span,
    /// The options in order; an option without a value means TRUE.
    pub options: &'a [Property<'a>],
}

/// A table-valued function in FROM: `STREAM read_files('/path', format => 'json') AS f`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TableFunction<'a> {
    /// From STREAM (or the name) to the alias.
    pub span: Span,
    /// The STREAM keyword, for a streaming read.
    pub stream: Option<StreamRead>,
    /// `LATERAL explode(t.a)`: the call may refer to the relations before it.
    pub lateral: bool,
    /// The call.
    pub call: &'a FunctionCall<'a>,
    /// `UNNEST(a, b) WITH ORDINALITY`: a last column numbers the rows from 1.
    pub with_ordinality: bool,
    /// `IDENTIFIED BY name`: the name of a streaming source.
    pub identified_by: Option<Ident<'a>>,
    /// `WATERMARK ts DELAY OF INTERVAL 10 MINUTES`.
    pub watermark: Option<&'a Watermark<'a>>,
    /// The alias.
    pub alias: Option<Alias<'a>>,
}

/// `(query) [alias]` in FROM.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct DerivedTable<'a> {
    /// From the opening parenthesis to the alias.
    pub span: Span,
    /// `LATERAL`: the query may refer to the relations before it.
    pub lateral: bool,
    /// The query.
    pub query: &'a Query<'a>,
    /// `TABLESAMPLE (...)`.
    pub sample: Option<&'a TableSample<'a>>,
    /// `WATERMARK ts DELAY OF INTERVAL 10 MINUTES`.
    pub watermark: Option<&'a Watermark<'a>>,
    /// The alias.
    pub alias: Option<Alias<'a>>,
}

/// The kinds of join.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum JoinKind {
    /// `[INNER] JOIN`
    Inner,
    /// `LEFT [OUTER] JOIN`
    Left,
    /// `RIGHT [OUTER] JOIN`
    Right,
    /// `FULL [OUTER] JOIN`
    Full,
    /// `[LEFT] SEMI JOIN`
    Semi,
    /// `[LEFT] ANTI JOIN`
    Anti,
    /// `CROSS JOIN`
    Cross,
}

/// How the joined rows are matched.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum JoinConstraint<'a> {
    /// No condition (CROSS JOIN, NATURAL joins, or a plain JOIN without ON).
    None,
    /// `ON predicate`
    On(Expr<'a>),
    /// `USING (col, ...)`
    Using(&'a [Ident<'a>]),
    /// `EXACT NEAREST 5 BY DISTANCE expr`
    Nearest(&'a NearestBy<'a>),
}

/// `left [NATURAL] kind JOIN right [constraint]`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Join<'a> {
    /// From the left relation to the end of the constraint.
    pub span: Span,
    /// The left relation.
    pub left: TableRef<'a>,
    /// The right relation.
    pub right: TableRef<'a>,
    /// The kind of join.
    pub kind: JoinKind,
    /// `NATURAL`.
    pub natural: bool,
    /// The match condition.
    pub constraint: JoinConstraint<'a>,
}

impl_spanned!(
    Query,
    NamedWindow,
    With,
    Cte,
    SetOperation,
    Values,
    TableStatement,
    Select,
    Wildcard,
    Alias,
    OrderByExpr,
    TableName,
    ReadOptions,
    TableFunction,
    DerivedTable,
    Join
);

impl Spanned for SetExpr<'_> {
    fn span(&self) -> Span {
        match self {
            SetExpr::Select(s) => s.span,
            SetExpr::Query(q) => q.span,
            SetExpr::SetOperation(op) => op.span,
            SetExpr::Values(v) => v.span,
            SetExpr::Table(t) => t.span,
            SetExpr::Pipe(p) => p.span,
            SetExpr::FromBodies(b) => b.span,
        }
    }
}

impl Spanned for TableRef<'_> {
    fn span(&self) -> Span {
        match self {
            TableRef::Table(t) => t.span,
            TableRef::Function(f) => f.span,
            TableRef::Subquery(d) => d.span,
            TableRef::Join(j) => j.span,
            TableRef::Values(v) => v.span,
            TableRef::Pivot(p) => p.span,
            TableRef::Unpivot(u) => u.span,
            TableRef::Nested(n) => n.span,
            TableRef::JsonTable(j) => j.span,
            TableRef::BinBy(b) => b.span,
        }
    }
}

impl Spanned for SelectItem<'_> {
    fn span(&self) -> Span {
        match self {
            SelectItem::Expr {
                expr,
                alias: Some(alias),
            } => expr.span.to(alias.span),
            SelectItem::Expr { expr, alias: None } => expr.span,
            SelectItem::Wildcard(w) => w.span,
            SelectItem::MultiAlias { expr, aliases } => aliases
                .last()
                .map_or(expr.span, |last| expr.span.to(last.span)),
            SelectItem::Transform(transform) => transform.span,
        }
    }
}

impl Spanned for Limit<'_> {
    fn span(&self) -> Span {
        match self {
            Limit::All(span) => *span,
            Limit::Count(e) => e.span,
        }
    }
}
