//! Expressions: `a + 1`, `f(x, name => 'v')`, `CASE ... END`, `x IN (SELECT ...)`, ...

use super::{impl_spanned, DataType, Ident, ObjectName, Query, SelectItem, StringLit, Wildcard};
use crate::span::Span;

/// An expression with its span.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Expr<'a> {
    /// Where the expression is.
    pub span: Span,
    /// What it is.
    pub kind: ExprKind<'a>,
}

/// The kinds of expression. Large or recursive variants are references into the arena, so that
/// an [`Expr`] stays small; a binary operation holds both operands in one node.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum ExprKind<'a> {
    /// `42`, `'text'`, `TRUE`, `NULL`, `DATE '2024-01-01'`.
    Literal(Literal<'a>),
    /// `col`, `` `my col` ``, `${param}`.
    Column(Ident<'a>),
    /// `t.col`, `_metadata.file_path`, `version.path`: a dotted reference.
    CompoundColumn(&'a [Ident<'a>]),
    /// `:name` or `?`, as written (Spark also allows `: name` and ``:`my name` ``).
    Marker(&'a str),
    /// `-x`, `+x`, `~x`, `NOT x`.
    Unary(&'a UnaryExpr<'a>),
    /// `a + b`, `a = b`, `a AND b`, `a || b`, ...
    Binary(&'a BinaryExpr<'a>),
    /// `(expr)`, kept so that printing keeps the author's grouping.
    Nested(&'a Expr<'a>),
    /// `(a, b, c)`: a row of values.
    Tuple(&'a [Expr<'a>]),
    /// `(a AS x, b)`, `(a, *)`: a row with a named field or a star, which Spark builds into a
    /// struct. A row of plain values is a [`ExprKind::Tuple`].
    Row(&'a [SelectItem<'a>]),
    /// `*`, `t.*` or `* EXCEPT (a)` where an expression stands, as in `coalesce(*)` or `5 IN (*)`.
    /// A star of the select list is a [`SelectItem::Wildcard`], and `count(*)` takes a
    /// [`FunctionArg::Star`].
    Wildcard(&'a Wildcard<'a>),
    /// `f(a, b)`, `count(DISTINCT x)`, `read_files('p', format => 'json')`.
    Function(&'a FunctionCall<'a>),
    /// `CAST(x AS t)`, `TRY_CAST(x AS t)`, `x::t`.
    Cast(&'a Cast<'a>),
    /// `CASE [operand] WHEN ... THEN ... [ELSE ...] END`.
    Case(&'a Case<'a>),
    /// `x [NOT] IN (a, b)`.
    InList(&'a InList<'a>),
    /// `x [NOT] IN (SELECT ...)`.
    InSubquery(&'a InSubquery<'a>),
    /// `EXISTS (SELECT ...)`.
    Exists(&'a Query<'a>),
    /// `(SELECT ...)` used as a value.
    Subquery(&'a Query<'a>),
    /// `x [NOT] BETWEEN low AND high`.
    Between(&'a Between<'a>),
    /// `x [NOT] LIKE p [ESCAPE 'c']`, and ILIKE, RLIKE, REGEXP.
    Like(&'a Like<'a>),
    /// `x [NOT] LIKE ANY ('a%', 'b%')`, with SOME or ALL, and ILIKE.
    LikeQuantified(&'a LikeQuantified<'a>),
    /// `x COLLATE UTF8_LCASE`.
    Collate(&'a Collate<'a>),
    /// `x IS [NOT] NULL`, `IS [NOT] TRUE`, `IS [NOT] DISTINCT FROM y`, ...
    Is(&'a IsExpr<'a>),
    /// `expr.field` on something that is not a plain dotted name: `f(x).a`, `arr[0].b`.
    Field(&'a FieldAccess<'a>),
    /// `a[i]`, `m['k']`.
    Subscript(&'a Subscript<'a>),
    /// `a[*]`: every element of an array; in a JSON path (`raw:items[*].price`), every element
    /// of a JSON array.
    EveryElement(&'a Expr<'a>),
    /// `INTERVAL '1' DAY`, `INTERVAL 3 DAYS 2 HOURS`, `INTERVAL '1-2' YEAR TO MONTH`.
    Interval(&'a Interval<'a>),
    /// `x -> x + 1`, `(acc, x) -> acc + x`: an argument of a higher-order function.
    Lambda(&'a Lambda<'a>),
    /// `raw:key`: one step of a JSON path; `raw:a.b[0]` continues with field and subscript
    /// steps on it.
    JsonPath(&'a JsonPath<'a>),
}

/// `expr:key`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct JsonPath<'a> {
    /// The JSON string or VARIANT value.
    pub expr: Expr<'a>,
    /// The key after `:`.
    pub key: &'a str,
}

/// `param -> body` or `(param, ...) -> body`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Lambda<'a> {
    /// The parameter names.
    pub params: &'a [Ident<'a>],
    /// The body.
    pub body: Expr<'a>,
}

/// A literal value.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Literal<'a> {
    /// A number as written: `42`, `1.5e3`, `10L`, `9.99BD`.
    Number(&'a str),
    /// One or more adjacent string literals, which concatenate: `'a' 'b'`.
    String(&'a [StringLit<'a>]),
    /// `TRUE` or `FALSE`.
    Boolean(bool),
    /// `NULL`.
    Null,
    /// `DATE '...'`, `TIMESTAMP '...'`, `TIMESTAMP_NTZ '...'`.
    Typed(TypedLiteralKind, StringLit<'a>),
}

/// The type keyword of a typed literal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum TypedLiteralKind {
    /// `DATE '...'`
    Date,
    /// `TIMESTAMP '...'`
    Timestamp,
    /// `TIMESTAMP_NTZ '...'`
    TimestampNtz,
    /// `TIMESTAMP_LTZ '...'`
    TimestampLtz,
    /// `TIME '...'`
    Time,
    /// `X '1F'`: bytes written in hex digits, as `X'1F'` (a hex string) is.
    Hex,
}

impl TypedLiteralKind {
    /// The type word before the string: `DATE`, `TIMESTAMP`, ...
    pub fn keyword(self) -> &'static str {
        match self {
            TypedLiteralKind::Date => "DATE",
            TypedLiteralKind::Timestamp => "TIMESTAMP",
            TypedLiteralKind::TimestampNtz => "TIMESTAMP_NTZ",
            TypedLiteralKind::TimestampLtz => "TIMESTAMP_LTZ",
            TypedLiteralKind::Time => "TIME",
            TypedLiteralKind::Hex => "X",
        }
    }
}

/// A prefix operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum UnaryOp {
    /// `-x`
    Minus,
    /// `+x`
    Plus,
    /// `~x`
    BitNot,
    /// `NOT x` (also spelled `!x`)
    Not,
}

/// `op expr`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct UnaryExpr<'a> {
    /// The operator.
    pub op: UnaryOp,
    /// The operand.
    pub expr: Expr<'a>,
}

/// An infix operator, in Spark's precedence groups (see [`BinaryOp::precedence`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum BinaryOp {
    /// `*`
    Multiply,
    /// `/`
    Divide,
    /// `%`
    Modulo,
    /// `DIV` (integral division)
    IntDivide,
    /// `+`
    Plus,
    /// `-`
    Minus,
    /// `||` (string concatenation)
    Concat,
    /// `<<`
    ShiftLeft,
    /// `>>`
    ShiftRight,
    /// `>>>`
    ShiftRightUnsigned,
    /// `&`
    BitAnd,
    /// `^`
    BitXor,
    /// `|`
    BitOr,
    /// `=` (also spelled `==`)
    Eq,
    /// `<>` (also spelled `!=`)
    NotEq,
    /// `<`
    Lt,
    /// `<=`
    LtEq,
    /// `>`
    Gt,
    /// `>=`
    GtEq,
    /// `<=>` (null-safe equality)
    NullSafeEq,
    /// `AND`
    And,
    /// `OR`
    Or,
}

impl BinaryOp {
    /// Binding strength, higher binds tighter, following Spark's grammar: multiplicative,
    /// additive (with `||`), shifts, `&`, `^`, `|`, comparisons, `AND`, `OR`.
    pub fn precedence(self) -> u8 {
        use BinaryOp::*;
        match self {
            Multiply | Divide | Modulo | IntDivide => 9,
            Plus | Minus | Concat => 8,
            ShiftLeft | ShiftRight | ShiftRightUnsigned => 7,
            BitAnd => 6,
            BitXor => 5,
            BitOr => 4,
            Eq | NotEq | Lt | LtEq | Gt | GtEq | NullSafeEq => 3,
            And => 2,
            Or => 1,
        }
    }

    /// The operator as written in canonical SQL.
    pub fn as_str(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Multiply => "*",
            Divide => "/",
            Modulo => "%",
            IntDivide => "DIV",
            Plus => "+",
            Minus => "-",
            Concat => "||",
            ShiftLeft => "<<",
            ShiftRight => ">>",
            ShiftRightUnsigned => ">>>",
            BitAnd => "&",
            BitXor => "^",
            BitOr => "|",
            Eq => "=",
            NotEq => "<>",
            Lt => "<",
            LtEq => "<=",
            Gt => ">",
            GtEq => ">=",
            NullSafeEq => "<=>",
            And => "AND",
            Or => "OR",
        }
    }
}

/// `left op right`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct BinaryExpr<'a> {
    /// The operator.
    pub op: BinaryOp,
    /// The left operand.
    pub left: Expr<'a>,
    /// The right operand.
    pub right: Expr<'a>,
}

/// `name([DISTINCT | ALL] arg, ...)`, `count(*)`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct FunctionCall<'a> {
    /// From the name to the closing parenthesis.
    pub span: Span,
    /// The function's (possibly qualified) name; the word `IDENTIFIER` when
    /// [`FunctionCall::identifier`] names the function.
    pub name: ObjectName<'a>,
    /// `IDENTIFIER('my' || 'func')(x)`: the expression whose value names the function, known
    /// only when the statement runs.
    pub identifier: Option<&'a Expr<'a>>,
    /// `DISTINCT` or `ALL` before the arguments.
    pub quantifier: Option<SetQuantifier>,
    /// The arguments in order.
    pub args: &'a [FunctionArg<'a>],
    /// `WITHIN GROUP (ORDER BY ...)` after an ordered-set aggregate.
    pub within_group: &'a [super::OrderByExpr<'a>],
    /// `FILTER (WHERE condition)` after an aggregate.
    pub filter: Option<&'a Expr<'a>>,
    /// `IGNORE NULLS` or `RESPECT NULLS`, after the call or (`first(x IGNORE NULLS)`) inside it.
    pub null_treatment: Option<NullTreatment>,
    /// `OVER ...`: the call is a window function.
    pub over: Option<&'a WindowSpec<'a>>,
}

/// Whether a window or aggregate function skips NULL inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum NullTreatment {
    /// `IGNORE NULLS`
    Ignore,
    /// `RESPECT NULLS`
    Respect,
}

/// The window of a window function.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum WindowSpec<'a> {
    /// `OVER w` or `OVER (w)`: a window defined by the WINDOW clause.
    Named(Ident<'a>),
    /// `OVER (...)`.
    Inline(InlineWindow<'a>),
}

/// `([PARTITION BY expr, ...] [ORDER BY ...] [frame])`; DISTRIBUTE BY and SORT BY are read as
/// their synonyms PARTITION BY and ORDER BY.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct InlineWindow<'a> {
    /// From `(` to `)`.
    pub span: Span,
    /// `CLUSTER BY`: partition by, and order by, the same expressions.
    pub cluster_by: bool,
    /// `PARTITION BY` (or `CLUSTER BY`) expressions.
    pub partition_by: &'a [Expr<'a>],
    /// `ORDER BY` items.
    pub order_by: &'a [super::OrderByExpr<'a>],
    /// `ROWS ...` or `RANGE ...`.
    pub frame: Option<&'a WindowFrame<'a>>,
}

/// `{ROWS | RANGE} bound` or `{ROWS | RANGE} BETWEEN bound AND bound`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct WindowFrame<'a> {
    /// The frame's text.
    pub span: Span,
    /// Rows or a range of ordering values.
    pub units: FrameUnits,
    /// The first bound.
    pub start: FrameBound<'a>,
    /// The bound after AND.
    pub end: Option<FrameBound<'a>>,
}

/// What a window frame counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum FrameUnits {
    /// `ROWS`
    Rows,
    /// `RANGE`
    Range,
}

/// One bound of a window frame.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum FrameBound<'a> {
    /// `UNBOUNDED PRECEDING`
    UnboundedPreceding,
    /// `UNBOUNDED FOLLOWING`
    UnboundedFollowing,
    /// `CURRENT ROW`
    CurrentRow,
    /// `n PRECEDING`
    Preceding(Expr<'a>),
    /// `n FOLLOWING`
    Following(Expr<'a>),
}

/// A value with a name: a named argument (`name => value`) or a field of a struct constructor
/// (`value AS name`). Kept behind a reference so that a [`FunctionArg`] stays small.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct NamedValue<'a> {
    /// The name.
    pub name: Ident<'a>,
    /// The value.
    pub value: Expr<'a>,
}

/// One argument of a function call.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum FunctionArg<'a> {
    /// `expr`
    Positional(Expr<'a>),
    /// `name => expr`: the name is the parameter's.
    Named(&'a NamedValue<'a>),
    /// `*`, as in `count(*)`.
    Star(Span),
    /// `expr AS name`, as in `struct(1 AS a)`: the name is the field's.
    Aliased(&'a NamedValue<'a>),
    /// `t.*`, as in `count(t.*)`.
    QualifiedStar(ObjectName<'a>),
    /// An argument introduced by a keyword instead of a comma, in Spark's special call forms:
    /// `extract(YEAR FROM d)`, `substring(s FROM 2 FOR 3)`, `overlay(s PLACING x FROM 1)`,
    /// `trim(BOTH 'x' FROM s)`.
    Keyword {
        /// FROM, FOR or PLACING.
        keyword: ArgKeyword,
        /// The value.
        value: Expr<'a>,
    },
    /// `BOTH`, `LEADING` or `TRAILING`, the first argument of `trim(LEADING 'x' FROM s)`.
    TrimSide(TrimSide),
    /// `TABLE t`, `TABLE(t)` or `TABLE(SELECT ...)`, possibly named and partitioned: a relation
    /// passed to a table-valued function.
    Table(&'a TableArgument<'a>),
}

/// A relation passed to a table-valued function: `input => TABLE(t) PARTITION BY a ORDER BY b`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TableArgument<'a> {
    /// The parameter's name, for an argument passed by name (`input => TABLE(t)`).
    pub name: Option<Ident<'a>>,
    /// The relation.
    pub relation: TableArg<'a>,
    /// How the function receives its rows: `WITH SINGLE PARTITION` or `PARTITION BY ...`, then
    /// `ORDER BY ...`.
    pub partitioning: Option<TablePartitioning<'a>>,
}

/// The partitioning and ordering of a table argument. `DISTRIBUTE BY` and `SORT BY` are
/// Spark's other spellings of `PARTITION BY` and `ORDER BY`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TablePartitioning<'a> {
    /// `WITH SINGLE PARTITION` or the partition keys.
    pub partition: TablePartition<'a>,
    /// The sort keys within a partition; empty without `ORDER BY`.
    pub order_by: &'a [super::OrderByExpr<'a>],
}

/// How a table argument's rows are split among the function's calls.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum TablePartition<'a> {
    /// `WITH SINGLE PARTITION`: every row in one call.
    Single,
    /// `PARTITION BY a` or `PARTITION BY (a, b)`.
    By(&'a [Expr<'a>]),
}

/// The relation of a `TABLE(...)` argument.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum TableArg<'a> {
    /// `TABLE name` or `TABLE(name)`
    Name(ObjectName<'a>),
    /// `TABLE(query)`
    Query(&'a super::Query<'a>),
}

impl<'a> FunctionArg<'a> {
    /// The argument's value, if it has one (`*` and a trim side have none).
    pub fn value(&self) -> Option<&Expr<'a>> {
        match self {
            FunctionArg::Positional(e) | FunctionArg::Keyword { value: e, .. } => Some(e),
            FunctionArg::Named(named) | FunctionArg::Aliased(named) => Some(&named.value),
            FunctionArg::Star(_)
            | FunctionArg::QualifiedStar(_)
            | FunctionArg::TrimSide(_)
            | FunctionArg::Table(_) => None,
        }
    }
}

/// The keyword before an argument of a special call form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum ArgKeyword {
    /// `FROM`
    From,
    /// `FOR`
    For,
    /// `PLACING`
    Placing,
    /// `IN`, in `position(substr IN str)`
    In,
}

/// Which end `trim` removes characters from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum TrimSide {
    /// `BOTH`
    Both,
    /// `LEADING`
    Leading,
    /// `TRAILING`
    Trailing,
}

/// `ALL` or `DISTINCT`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum SetQuantifier {
    /// `ALL`
    All,
    /// `DISTINCT`
    Distinct,
}

/// The spelling of a cast.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum CastKind {
    /// `CAST(x AS t)`
    Cast,
    /// `TRY_CAST(x AS t)`
    TryCast,
    /// `x::t`
    DoubleColon,
}

/// A conversion to a data type.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Cast<'a> {
    /// How it was written.
    pub kind: CastKind,
    /// The value converted.
    pub expr: Expr<'a>,
    /// The target type.
    pub data_type: DataType<'a>,
}

/// `CASE [operand] WHEN ... THEN ... [ELSE ...] END`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Case<'a> {
    /// The value compared in a simple CASE.
    pub operand: Option<Expr<'a>>,
    /// The WHEN branches in order.
    pub whens: &'a [WhenClause<'a>],
    /// The ELSE value.
    pub else_result: Option<Expr<'a>>,
}

/// `WHEN condition THEN result`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct WhenClause<'a> {
    /// The condition (or the value compared with the operand).
    pub condition: Expr<'a>,
    /// The result.
    pub result: Expr<'a>,
}

/// `expr [NOT] IN (a, b, ...)`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct InList<'a> {
    /// The value tested.
    pub expr: Expr<'a>,
    /// `NOT IN`.
    pub negated: bool,
    /// The candidates.
    pub list: &'a [Expr<'a>],
}

/// `expr [NOT] IN (query)`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct InSubquery<'a> {
    /// The value tested.
    pub expr: Expr<'a>,
    /// `NOT IN`.
    pub negated: bool,
    /// The query giving the candidates.
    pub query: &'a Query<'a>,
}

/// `expr [NOT] BETWEEN low AND high`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Between<'a> {
    /// The value tested.
    pub expr: Expr<'a>,
    /// `NOT BETWEEN`.
    pub negated: bool,
    /// The lower bound.
    pub low: Expr<'a>,
    /// The upper bound.
    pub high: Expr<'a>,
}

/// The pattern operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum LikeKind {
    /// `LIKE`
    Like,
    /// `ILIKE` (case-insensitive)
    ILike,
    /// `RLIKE` (regular expression)
    RLike,
    /// `REGEXP` (a synonym of RLIKE)
    Regexp,
}

/// `expr [NOT] LIKE pattern [ESCAPE 'c']` and its siblings.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Like<'a> {
    /// The operator.
    pub kind: LikeKind,
    /// The value tested.
    pub expr: Expr<'a>,
    /// `NOT LIKE`.
    pub negated: bool,
    /// The pattern.
    pub pattern: Expr<'a>,
    /// The escape character literal.
    pub escape: Option<StringLit<'a>>,
}

/// `x [NOT] {LIKE | ILIKE} {ANY | SOME | ALL} (pattern, ...)`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct LikeQuantified<'a> {
    /// LIKE or ILIKE.
    pub kind: LikeKind,
    /// The value tested.
    pub expr: Expr<'a>,
    /// `NOT LIKE ...`.
    pub negated: bool,
    /// ANY, SOME or ALL.
    pub quantifier: PatternQuantifier,
    /// The patterns, at least one.
    pub patterns: &'a [Expr<'a>],
    /// `ESCAPE '!'`.
    pub escape: Option<StringLit<'a>>,
}

/// Whether any or all of a list of patterns must match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum PatternQuantifier {
    /// `ANY`
    Any,
    /// `SOME` (the same as ANY)
    Some,
    /// `ALL`
    All,
}

/// `expr COLLATE name`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Collate<'a> {
    /// The string value.
    pub expr: Expr<'a>,
    /// The collation.
    pub collation: Ident<'a>,
}

/// What an `IS` test checks.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum IsTest<'a> {
    /// `IS NULL`
    Null,
    /// `IS TRUE`
    True,
    /// `IS FALSE`
    False,
    /// `IS UNKNOWN` (a NULL boolean)
    Unknown,
    /// `IS DISTINCT FROM other`
    DistinctFrom(Expr<'a>),
}

/// `expr IS [NOT] test`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct IsExpr<'a> {
    /// The value tested.
    pub expr: Expr<'a>,
    /// `IS NOT`.
    pub negated: bool,
    /// The test.
    pub test: IsTest<'a>,
}

/// `expr.field`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct FieldAccess<'a> {
    /// The struct value.
    pub expr: Expr<'a>,
    /// The field.
    pub field: Ident<'a>,
}

/// `expr[index]`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Subscript<'a> {
    /// The array or map.
    pub expr: Expr<'a>,
    /// The index or key.
    pub index: Expr<'a>,
}

/// `INTERVAL value unit [value unit ...] [TO unit]`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Interval<'a> {
    /// The `value unit` pairs: `3 DAYS`, `'1-2' YEAR`.
    pub parts: &'a [IntervalPart<'a>],
    /// The unit after `TO`: `'1-2' YEAR TO MONTH`.
    pub to: Option<Ident<'a>>,
}

/// One `value unit` pair of an interval.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct IntervalPart<'a> {
    /// The value: a number or a string, possibly negated.
    pub value: Expr<'a>,
    /// The unit word: `DAY`, `HOURS`, ...; `None` in `INTERVAL '1 day 2 hours'`, whose string
    /// holds the units.
    pub unit: Option<Ident<'a>>,
}

impl_spanned!(Expr, FunctionCall);

impl crate::span::Spanned for IntervalPart<'_> {
    fn span(&self) -> Span {
        match &self.unit {
            Some(unit) => self.value.span.to(unit.span),
            None => self.value.span,
        }
    }
}
