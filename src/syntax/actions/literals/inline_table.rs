//! The types of an inline table's columns, as Spark checks them while it parses.
//!
//! Spark's parser evaluates `VALUES` on the spot when every value in it is already resolved
//! (literals, `-1`, `CAST(NULL AS INT)`, ...), and so it refuses a column whose values have no
//! common type (`VALUES (1), ('a')`: INVALID_INLINE_TABLE.INCOMPATIBLE_TYPES_IN_INLINE_TABLE)
//! before the statement runs, and so it refuses rows of different widths, or an alias with
//! another number of columns, there too. A table with any other value (a column, a call, a
//! subquery that is not itself such a table, an operator whose operands would need a cast first,
//! as in `1 + 1L`) is left for later, and so is left alone here: the checks run only where the
//! type of every value is certain. A subquery that is such a table (`(VALUES 2)`) is resolved
//! too, and Spark refuses it then, since it cannot evaluate a subquery on the spot.

use crate::ast::visit::find_expr;
use crate::ast::{
    BinaryOp, DataType, Expr, ExprKind, FunctionArg, Interval, IsTest, Limit, Literal, Query,
    Select, SelectItem, SetExpr, TimeZoneClause, TypedLiteralKind, UnaryOp,
};
use crate::syntax::actions::base::{user_error, ActionResult};

/// A number's type. An operator resolves without a cast only on operands of one type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Numeric {
    TinyInt,
    SmallInt,
    Int,
    BigInt,
    Decimal,
    Float,
    Double,
}

impl Numeric {
    /// The type of a number literal, from its suffix or its form.
    fn of_literal(text: &str) -> Numeric {
        let lower = text.to_ascii_lowercase();
        if lower.ends_with("bd") {
            return Numeric::Decimal;
        }
        match lower.as_bytes().last() {
            Some(b'y') => Numeric::TinyInt,
            Some(b's') => Numeric::SmallInt,
            Some(b'l') => Numeric::BigInt,
            Some(b'f') => Numeric::Float,
            Some(b'd') => Numeric::Double,
            _ if lower.contains('e') => Numeric::Double,
            _ if lower.contains('.') => Numeric::Decimal,
            _ if lower.parse::<i32>().is_ok() => Numeric::Int,
            _ if lower.parse::<i64>().is_ok() => Numeric::BigInt,
            _ => Numeric::Decimal,
        }
    }

    fn is_integral(self) -> bool {
        matches!(
            self,
            Numeric::TinyInt | Numeric::SmallInt | Numeric::Int | Numeric::BigInt
        )
    }
}

/// The type of a resolved value, as far as finding a common type needs it: all numbers widen
/// to each other; the complex types are told apart by their kind alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ValueType {
    Null,
    Number(Numeric),
    String,
    Boolean,
    Binary,
    Date,
    Timestamp,
    TimestampNtz,
    Time,
    YearMonthInterval,
    DayTimeInterval,
    /// `INTERVAL '1 day'`: an interval whose units are inside the string.
    Interval,
    Array,
    Map,
    Struct,
    /// Two complex values of one kind, whose common type depends on what they hold: not
    /// looked into, so the column is taken as fine.
    Unchecked,
}

impl ValueType {
    fn describe(self) -> &'static str {
        match self {
            ValueType::Null => "NULL",
            ValueType::Number(_) => "a number",
            ValueType::String => "a string",
            ValueType::Boolean => "a boolean",
            ValueType::Binary => "a binary string",
            ValueType::Date => "a DATE",
            ValueType::Timestamp => "a TIMESTAMP",
            ValueType::TimestampNtz => "a TIMESTAMP_NTZ",
            ValueType::Time => "a TIME",
            ValueType::YearMonthInterval => "a year-month interval",
            ValueType::DayTimeInterval => "a day-time interval",
            ValueType::Interval => "an interval",
            ValueType::Array => "an ARRAY",
            ValueType::Map => "a MAP",
            ValueType::Struct => "a STRUCT",
            ValueType::Unchecked => "a value",
        }
    }

    /// The kind of an interval whose (leading) unit is `unit`.
    fn interval_of(unit: &str) -> ValueType {
        if super::interval::is_year_month(unit) {
            ValueType::YearMonthInterval
        } else {
            ValueType::DayTimeInterval
        }
    }

    /// The type both widen to, if any: Spark's wider type without string promotion.
    fn wider(self, other: ValueType) -> Option<ValueType> {
        use ValueType::*;
        match (self, other) {
            (Unchecked, _) | (_, Unchecked) => Some(Unchecked),
            (Array, Array) | (Map, Map) | (Struct, Struct) => Some(Unchecked),
            (Interval, Interval | YearMonthInterval | DayTimeInterval)
            | (YearMonthInterval | DayTimeInterval, Interval) => Some(Unchecked),
            (a, b) if a == b => Some(a),
            (Number(_), Number(_)) => Some(self),
            (Null, t) | (t, Null) => Some(t),
            (Date, TimestampNtz) | (TimestampNtz, Date) => Some(TimestampNtz),
            (Date | TimestampNtz, Timestamp) | (Timestamp, Date | TimestampNtz) => Some(Timestamp),
            _ => None,
        }
    }

    /// Whether Spark (in ANSI mode, as the pipeline engine runs) casts a value of this type to
    /// `to`, so that the cast is resolved while parsing. Only the casts known to be valid say
    /// yes: a cast that is not resolved leaves the table to later, so a wrong yes could refuse
    /// a valid table while a wrong no only misses an error.
    fn casts_to(self, to: ValueType) -> bool {
        use ValueType::*;
        match (self, to) {
            (Unchecked, _) | (_, Unchecked) => false,
            (from, to) if from == to => true,
            (Null, _) => true,
            (Array | Map | Struct | Interval, _) | (_, Array | Map | Struct | Interval | Null) => {
                false
            }
            (_, String) => true,
            (String, _) => true,
            (Number(_) | Boolean, Number(_) | Boolean) => true,
            (Date | Timestamp | TimestampNtz, Date | Timestamp | TimestampNtz) => true,
            _ => false,
        }
    }
}

/// The type of `value` if Spark has resolved it while parsing and it is one of [`ValueType`];
/// `None` for anything else.
fn value_type(value: &Expr<'_>) -> Option<ValueType> {
    match &value.kind {
        ExprKind::Literal(literal) => Some(match literal {
            Literal::Number(text) => ValueType::Number(Numeric::of_literal(text)),
            // A hex string (`X'1F'`) stands alone and is bytes.
            Literal::String([hex]) if hex.is_hex() => ValueType::Binary,
            Literal::String(_) => ValueType::String,
            Literal::Boolean(_) => ValueType::Boolean,
            Literal::Null => ValueType::Null,
            Literal::Typed(kind, _) => match kind {
                TypedLiteralKind::Date => ValueType::Date,
                TypedLiteralKind::Timestamp | TypedLiteralKind::TimestampLtz => {
                    ValueType::Timestamp
                }
                TypedLiteralKind::TimestampNtz => ValueType::TimestampNtz,
                TypedLiteralKind::Time => ValueType::Time,
                TypedLiteralKind::Hex => ValueType::Binary,
            },
        }),
        ExprKind::Nested(inner) => value_type(inner),
        // `-1`, `+1`, `-INTERVAL 1 DAY`; on a string, the sign is unresolved.
        ExprKind::Unary(unary) if matches!(unary.op, UnaryOp::Minus | UnaryOp::Plus) => {
            value_type(&unary.expr).filter(|t| {
                matches!(
                    t,
                    ValueType::Number(_)
                        | ValueType::YearMonthInterval
                        | ValueType::DayTimeInterval
                )
            })
        }
        ExprKind::Interval(interval) => interval_type(interval),
        ExprKind::Subquery(query) => resolved_query(query),
        ExprKind::Exists(query) => resolved_query(query).map(|_| ValueType::Boolean),
        // `CAST(NULL AS ARRAY<INT>)`, `CAST('1' AS INT)`, `1::STRING`: resolved where Spark
        // can cast the value to the type.
        ExprKind::Cast(cast) => {
            let to = named_type(&cast.data_type)?;
            value_type(&cast.expr)?.casts_to(to).then_some(to)
        }
        ExprKind::Unary(unary) if unary.op == UnaryOp::Not => {
            value_type(&unary.expr).filter(|t| *t == ValueType::Boolean)
        }
        ExprKind::Unary(unary) if unary.op == UnaryOp::BitNot => {
            value_type(&unary.expr).filter(|t| matches!(t, ValueType::Number(n) if n.is_integral()))
        }
        // `x IS NULL` of a resolved value is resolved, whatever its type.
        ExprKind::Is(is) => {
            let tested = value_type(&is.expr)?;
            let resolved = match &is.test {
                IsTest::Null => true,
                IsTest::True | IsTest::False | IsTest::Unknown => tested == ValueType::Boolean,
                IsTest::DistinctFrom(other) => value_type(other) == Some(tested),
            };
            resolved.then_some(ValueType::Boolean)
        }
        ExprKind::Binary(binary) => {
            let left = value_type(&binary.left)?;
            (left == value_type(&binary.right)?)
                .then(|| operator_type(binary.op, left))
                .flatten()
        }
        ExprKind::InList(in_list) => {
            let tested = value_type(&in_list.expr)?;
            let same = in_list.list.iter().all(|v| value_type(v) == Some(tested));
            same.then_some(ValueType::Boolean)
        }
        ExprKind::Like(like) => {
            let strings = [&like.expr, &like.pattern]
                .iter()
                .all(|v| value_type(v) == Some(ValueType::String));
            strings.then_some(ValueType::Boolean)
        }
        ExprKind::Case(case) => {
            // Each condition a boolean (or of the operand's type), each result of one type.
            let condition = match &case.operand {
                Some(operand) => value_type(operand)?,
                None => ValueType::Boolean,
            };
            let mut results = case.whens.iter().map(|when| {
                (value_type(&when.condition) == Some(condition))
                    .then(|| value_type(&when.result))
                    .flatten()
            });
            let first = results.next()??;
            let rest_agree = results.all(|result| result == Some(first))
                && case
                    .else_result
                    .as_ref()
                    .map_or(true, |e| value_type(e) == Some(first));
            rest_agree.then_some(first)
        }
        // `(1, 'a')` inside a row, and `struct(1, 'a')`, build a struct where each part is resolved.
        ExprKind::Tuple(values) => values
            .iter()
            .all(|v| value_type(v).is_some())
            .then_some(ValueType::Struct),
        ExprKind::Row(items) => items
            .iter()
            .all(|item| matches!(item, SelectItem::Expr { expr, .. } if value_type(expr).is_some()))
            .then_some(ValueType::Struct),
        ExprKind::Function(_) => struct_form(value)?
            .iter()
            .all(|arg| struct_field(arg).and_then(value_type).is_some())
            .then_some(ValueType::Struct),
        _ => None,
    }
}

/// The arguments of Spark's own STRUCT form (`struct(1, 'a' AS b)`), which its parser builds
/// into a struct on the spot, unlike a call of a function it looks up later.
fn struct_form<'r, 'a>(expr: &'r Expr<'a>) -> Option<&'r [FunctionArg<'a>]> {
    match &expr.kind {
        ExprKind::Function(call)
            if call.over.is_none()
                && call.filter.is_none()
                && call.quantifier.is_none()
                && matches!(call.name.parts, [name] if name.text.eq_ignore_ascii_case("struct")) =>
        {
            Some(call.args)
        }
        _ => None,
    }
}

/// The value of one field of a STRUCT form: `None` for a star.
fn struct_field<'r, 'a>(arg: &'r FunctionArg<'a>) -> Option<&'r Expr<'a>> {
    match arg {
        FunctionArg::Positional(value) => Some(value),
        FunctionArg::Aliased(named) => Some(&named.value),
        _ => None,
    }
}

/// The type of `left op right` for operands both of type `operand`, where Spark resolves it
/// without a cast; `None` where it needs one (`1 / 1`: a division is of doubles or decimals).
fn operator_type(op: BinaryOp, operand: ValueType) -> Option<ValueType> {
    use BinaryOp::*;
    use ValueType::{Boolean, Number};
    let number = matches!(operand, Number(_));
    let integral = matches!(operand, Number(n) if n.is_integral());
    match op {
        // Two intervals may differ in their units (`INTERVAL 1 YEAR - INTERVAL 1 MONTH`).
        Plus | Minus | Multiply | Modulo => number.then_some(operand),
        Divide => matches!(operand, Number(Numeric::Double | Numeric::Decimal)).then_some(operand),
        IntDivide => matches!(operand, Number(Numeric::BigInt | Numeric::Decimal))
            .then_some(Number(Numeric::BigInt)),
        BitAnd | BitOr | BitXor | ShiftLeft | ShiftRight | ShiftRightUnsigned => {
            integral.then_some(operand)
        }
        Concat => matches!(operand, ValueType::String | ValueType::Binary).then_some(operand),
        And | Or => (operand == Boolean).then_some(Boolean),
        Eq | NotEq | Lt | LtEq | Gt | GtEq | NullSafeEq => Some(Boolean),
    }
}

/// The type of the first column of `query` if Spark resolves the query while parsing: VALUES of
/// resolved values, whose first column has one type (or NULL), maybe with an alias, after WITH,
/// under a LIMIT or OFFSET of a number, or in parentheses; or a SELECT of resolved values without
/// FROM or any other clause, each named (`SELECT 2 AS x`; an unnamed value waits for a name).
/// Any other query (a set operation, ORDER BY, a column of numbers of several types) is taken as
/// unresolved.
fn resolved_query(query: &Query<'_>) -> Option<ValueType> {
    let number = |e: &Expr<'_>| matches!(value_type(e), Some(ValueType::Number(_)));
    let limit_resolved = match query.limit {
        None | Some(Limit::All(_)) => true,
        Some(Limit::Count(count)) => number(count),
    };
    let clauses_resolved = limit_resolved
        && query.offset.map_or(true, number)
        && query.order_by.is_empty()
        && query.distribution.is_none()
        && query.windows.is_empty();
    match &query.body {
        _ if !clauses_resolved => None,
        SetExpr::Query(inner) => resolved_query(inner),
        SetExpr::Values(values) if resolved(values.rows) => {
            let first_value = |row| row_values(row).next().flatten().and_then(value_type);
            values
                .rows
                .iter()
                .map(first_value)
                .try_fold(ValueType::Null, |column, value| match (column, value?) {
                    (ValueType::Null, t) | (t, ValueType::Null) => Some(t),
                    (a, b) => (a == b).then_some(a),
                })
        }
        SetExpr::Select(select) => bare_select_type(select),
        _ => None,
    }
}

/// The type of a SELECT's first item when it selects only named values of known type, with no
/// FROM and no other clause (`SELECT 2 AS x, 'a' AS y`).
fn bare_select_type(select: &Select<'_>) -> Option<ValueType> {
    let bare = select.from.is_empty()
        && !select.from_first
        && select.hints.is_empty()
        && select.quantifier.is_none()
        && select.selection.is_none()
        && select.lateral_views.is_empty()
        && select.group_by.is_empty()
        && select.having.is_none()
        && select.windows.is_empty()
        && select.qualify.is_none();
    if !bare {
        return None;
    }
    let named_value = |item: &SelectItem<'_>| match item {
        SelectItem::Expr {
            expr,
            alias: Some(_),
        } => value_type(expr),
        _ => None,
    };
    let mut types = select.projection.iter().map(named_value);
    let first = types.next()??;
    types.all(|t| t.is_some()).then_some(first)
}

/// Whether Spark evaluates VALUES with these rows while it parses: every value is resolved.
pub fn resolved(rows: &[Expr<'_>]) -> bool {
    rows.iter()
        .all(|row| row_values(row).all(|value| value.and_then(value_type).is_some()))
}

/// `INTERVAL 3 DAYS`, `INTERVAL '1-2' YEAR TO MONTH`: the units say which kind (the grammar
/// already refused an interval that mixes the two). With its units in the string
/// (`INTERVAL '1 day'`), it is an interval of a kind not looked into.
fn interval_type(interval: &Interval<'_>) -> Option<ValueType> {
    let mut units = interval.parts.iter().map(|part| part.unit.as_ref());
    let Some(first) = units.next()? else {
        return Some(ValueType::Interval);
    };
    if units.any(|unit| unit.is_none()) {
        return None;
    }
    Some(ValueType::interval_of(first.text))
}

/// The [`ValueType`] of a cast's target type, for the types that are one.
fn named_type(data_type: &DataType<'_>) -> Option<ValueType> {
    let (name, time_zone) = match data_type {
        DataType::Named {
            name, time_zone, ..
        } => (name.text.to_ascii_uppercase(), *time_zone),
        DataType::Interval { from, .. } => return Some(ValueType::interval_of(from.text)),
        DataType::Array { .. } => return Some(ValueType::Array),
        DataType::Map { .. } => return Some(ValueType::Map),
        DataType::Struct { .. } => return Some(ValueType::Struct),
        // Strings of two collations may have no common type: not looked into.
        DataType::Collated { .. } => return None,
    };
    Some(match (name.as_str(), time_zone) {
        ("TINYINT" | "BYTE", _) => ValueType::Number(Numeric::TinyInt),
        ("SMALLINT" | "SHORT", _) => ValueType::Number(Numeric::SmallInt),
        ("INT" | "INTEGER", _) => ValueType::Number(Numeric::Int),
        ("BIGINT" | "LONG", _) => ValueType::Number(Numeric::BigInt),
        ("FLOAT" | "REAL", _) => ValueType::Number(Numeric::Float),
        ("DOUBLE", _) => ValueType::Number(Numeric::Double),
        ("DECIMAL" | "DEC" | "NUMERIC", _) => ValueType::Number(Numeric::Decimal),
        // CHAR and VARCHAR are strings to Spark's parser.
        ("STRING" | "CHAR" | "CHARACTER" | "VARCHAR", _) => ValueType::String,
        ("BOOLEAN", _) => ValueType::Boolean,
        ("BINARY", _) => ValueType::Binary,
        ("DATE", _) => ValueType::Date,
        ("TIMESTAMP", Some(TimeZoneClause::WithoutTimeZone)) | ("TIMESTAMP_NTZ", _) => {
            ValueType::TimestampNtz
        }
        ("TIMESTAMP" | "TIMESTAMP_LTZ", _) => ValueType::Timestamp,
        ("TIME", _) => ValueType::Time,
        ("VOID", _) => ValueType::Null,
        _ => return None,
    })
}

/// One row of VALUES as Spark reads it: the values of a row in brackets, the items of a row
/// with names, the fields of a STRUCT form, or one value. Spark unpacks a struct that makes up a
/// whole row (`VALUES STRUCT(1, 'a'), (2, 'b')`), also in brackets (`((1, 2))`).
struct RowParts<'r, 'a> {
    values: &'r [Expr<'a>],
    items: &'r [SelectItem<'a>],
    fields: &'r [FunctionArg<'a>],
    single: Option<&'r Expr<'a>>,
}

impl<'r, 'a> RowParts<'r, 'a> {
    fn of(mut row: &'r Expr<'a>) -> Self {
        while let ExprKind::Nested(inner) = &row.kind {
            row = inner;
        }
        let mut parts = RowParts {
            values: &[],
            items: &[],
            fields: &[],
            single: None,
        };
        match &row.kind {
            ExprKind::Tuple(values) => parts.values = values,
            ExprKind::Row(items) => parts.items = items,
            _ => match struct_form(row) {
                Some(fields) => parts.fields = fields,
                None => parts.single = Some(row),
            },
        }
        parts
    }
}

/// The values of one row of VALUES: `None` for an item that is a star or names several columns.
fn row_values<'r, 'a>(row: &'r Expr<'a>) -> impl Iterator<Item = Option<&'r Expr<'a>>> {
    let parts = RowParts::of(row);
    let item_value = |item: &'r SelectItem<'a>| match item {
        SelectItem::Expr { expr, .. } => Some(expr),
        _ => None,
    };
    parts
        .values
        .iter()
        .map(Some)
        .chain(parts.items.iter().map(item_value))
        .chain(parts.fields.iter().map(struct_field))
        .chain(parts.single.map(Some))
}

/// The number of values in one row of VALUES.
pub fn row_width(row: &Expr<'_>) -> usize {
    let parts = RowParts::of(row);
    parts.values.len()
        + parts.items.len()
        + parts.fields.len()
        + usize::from(parts.single.is_some())
}

/// `VALUES (1, 'a'), ('b', 2)`, `VALUES ((VALUES 2))`: refused where Spark evaluates the table
/// and a column's values have no common type, or a value holds a subquery. The rows are equally
/// wide (checked before).
pub fn column_types<'t>(rows: &[Expr<'_>]) -> ActionResult<'t, ()> {
    let mut columns: Vec<ValueType> = Vec::new();
    // The first value without a common type, and the first subquery; reported only once every
    // value has a known type, since one value of no known type leaves the whole table alone.
    let mut conflict = None;
    let mut subquery = None;
    for (index, row) in rows.iter().enumerate() {
        for (column, value) in row_values(row).enumerate() {
            let Some((value, value_type)) = value.and_then(|v| Some((v, value_type(v)?))) else {
                return Ok(());
            };
            // Most values of a large table are literals, which hold no subquery.
            if subquery.is_none() && !matches!(value.kind, ExprKind::Literal(_)) {
                subquery = find_expr(value, |e| {
                    matches!(e.kind, ExprKind::Subquery(_) | ExprKind::Exists(_)).then_some(e.span)
                });
            }
            if index == 0 {
                columns.push(value_type);
                continue;
            }
            let Some(common) = columns.get_mut(column) else {
                continue;
            };
            match common.wider(value_type) {
                Some(wider) => *common = wider,
                None => {
                    conflict.get_or_insert((value.span, value_type, column, *common));
                }
            }
        }
    }
    if let Some(span) = subquery {
        return user_error(
            span,
            "Spark resolves this VALUES while parsing and cannot evaluate a subquery in it (INVALID_INLINE_TABLE.CANNOT_EVALUATE_EXPRESSION_IN_INLINE_TABLE): join the subquery's rows instead".to_string(),
        );
    }
    match conflict {
        Some((span, value_type, column, common)) => user_error(
            span,
            format!(
                "this value is {} and column {} of VALUES above holds {}: Spark finds no common type for them (INVALID_INLINE_TABLE); write a CAST",
                value_type.describe(),
                column + 1,
                common.describe()
            ),
        ),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use crate::syntax::read;

    #[test]
    fn a_row_that_is_a_struct_is_a_row_of_its_fields() {
        // Spark unpacks STRUCT(...) and `(...)` that make up a whole row, in brackets too.
        for sql in [
            "SELECT * FROM VALUES STRUCT(1, 'a'), (2, 'b') t(a, b)",
            "SELECT * FROM VALUES (1), (STRUCT(2)) t(a)",
            "SELECT * FROM VALUES ((1, 2)), (3, 4) t(a, b)",
            "SELECT * FROM VALUES ((STRUCT(1 AS x, 2))), (3, 4) t(a, b)",
        ] {
            assert!(read(sql).is_ok(), "{sql}: {:?}", read(sql));
        }
        for (sql, refusal) in [
            (
                "SELECT * FROM VALUES STRUCT(1, 'a'), (2, 3) t(a, b)",
                "this value is a number and column 2 of VALUES above holds a string",
            ),
            (
                "SELECT * FROM VALUES STRUCT(), (1) t(a)",
                "this row has 1 values and the first has 0",
            ),
            // A struct inside a row is one value, of its own type.
            (
                "SELECT * FROM VALUES (1, 2), (STRUCT(1), 3) t(a, b)",
                "this value is a STRUCT and column 1 of VALUES above holds a number",
            ),
        ] {
            let message = read(sql).unwrap_err();
            assert!(message.starts_with(refusal), "{sql}: {message}");
        }
        // A call of another function is resolved later, so the table is not checked.
        assert!(read("SELECT * FROM VALUES named_struct('a', 1), (2, 'x') t(a, b)").is_ok());
    }

    #[test]
    fn a_select_of_named_values_is_a_subquery_spark_resolves_in_values() {
        for sql in [
            "SELECT * FROM VALUES (1), ((SELECT 2 AS x)) t(a)",
            "SELECT * FROM VALUES (1, (SELECT 2 x)) t(a, b)",
            "SELECT * FROM VALUES (EXISTS (SELECT 2 AS x)) t(a)",
        ] {
            let message = read(sql).unwrap_err();
            assert!(
                message.starts_with("Spark resolves this VALUES while parsing"),
                "{sql}: {message}"
            );
        }
        // An unnamed value, or a column, leaves the subquery unresolved while Spark parses.
        for sql in [
            "SELECT * FROM VALUES (1), ((SELECT 2)) t(a)",
            "SELECT * FROM VALUES ((SELECT a AS x)) t(a)",
        ] {
            assert!(read(sql).is_ok(), "{sql}");
        }
    }
}
