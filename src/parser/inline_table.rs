//! The types of an inline table's columns, as Spark checks them while it parses.
//!
//! Spark's parser evaluates `VALUES` on the spot when every value in it is already resolved
//! (literals, `-1`, `CAST(NULL AS INT)`, ...), and so it refuses a column whose values have no
//! common type (`VALUES (1), ('a')`: INVALID_INLINE_TABLE.INCOMPATIBLE_TYPES_IN_INLINE_TABLE)
//! before the statement runs. A table with any other value (a column, a call, a subquery) is
//! left for later, and so is left alone here: the check runs only where the type of every
//! value is certain.

use super::support::{user_error, ActionResult};
use crate::ast::{
    DataType, Expr, ExprKind, Interval, IsTest, Literal, SelectItem, TimeZoneClause,
    TypedLiteralKind, UnaryOp,
};

/// The type of a resolved value, as far as finding a common type needs it: all numbers widen
/// to each other, so they are one kind; the complex types are told apart by their kind alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ValueType {
    Null,
    Number,
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
            ValueType::Number => "a number",
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
            (Number | Boolean, Number | Boolean) => true,
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
            Literal::Number(_) => ValueType::Number,
            // A hex string (`X'1F'`) stands alone and is bytes.
            Literal::String([hex]) if hex.raw.starts_with(['x', 'X']) => ValueType::Binary,
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
                    ValueType::Number | ValueType::YearMonthInterval | ValueType::DayTimeInterval
                )
            })
        }
        ExprKind::Interval(interval) => interval_type(interval),
        // `CAST(NULL AS ARRAY<INT>)`, `CAST('1' AS INT)`, `1::STRING`: resolved where Spark
        // can cast the value to the type.
        ExprKind::Cast(cast) => {
            let to = named_type(&cast.data_type)?;
            value_type(&cast.expr)?.casts_to(to).then_some(to)
        }
        ExprKind::Unary(unary) if unary.op == UnaryOp::Not => {
            value_type(&unary.expr).filter(|t| *t == ValueType::Boolean)
        }
        // `x IS NULL` of a resolved value is resolved, whatever its type.
        ExprKind::Is(is) if matches!(is.test, IsTest::Null) => {
            value_type(&is.expr).map(|_| ValueType::Boolean)
        }
        _ => None,
    }
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
        ("TINYINT" | "BYTE" | "SMALLINT" | "SHORT" | "INT" | "INTEGER" | "BIGINT" | "LONG", _)
        | ("FLOAT" | "REAL" | "DOUBLE" | "DECIMAL" | "DEC" | "NUMERIC", _) => ValueType::Number,
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

/// The values of one row of VALUES: `None` for an item that is a star or names several columns.
fn row_values<'r, 'a>(row: &'r Expr<'a>) -> impl Iterator<Item = Option<&'r Expr<'a>>> {
    let (values, items, single): (&'r [Expr<'a>], &'r [SelectItem<'a>], _) = match &row.kind {
        ExprKind::Tuple(values) => (values, &[], None),
        ExprKind::Row(items) => (&[], items, None),
        _ => (&[], &[], Some(row)),
    };
    let item_value = |item: &'r SelectItem<'a>| match item {
        SelectItem::Expr { expr, .. } => Some(expr),
        _ => None,
    };
    values
        .iter()
        .map(Some)
        .chain(items.iter().map(item_value))
        .chain(single.map(Some))
}

/// `VALUES (1, 'a'), ('b', 2)`: refused where Spark evaluates the table and a column's values
/// have no common type. The rows are equally wide (checked before).
pub fn column_types<'t>(rows: &[Expr<'_>]) -> ActionResult<'t, ()> {
    let mut columns: Vec<ValueType> = Vec::new();
    // The first value without a common type; reported only once every value has a known type,
    // since one value of no known type leaves the whole table alone.
    let mut conflict = None;
    for (index, row) in rows.iter().enumerate() {
        for (column, value) in row_values(row).enumerate() {
            let Some((value, value_type)) = value.and_then(|v| Some((v, value_type(v)?))) else {
                return Ok(());
            };
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
