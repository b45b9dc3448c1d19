//! Data types: `BIGINT`, `DECIMAL(10, 2)`, `ARRAY<STRING>`, `STRUCT<a: INT NOT NULL>`, ...

use super::{Ident, StringLit};
use crate::span::{Span, Spanned};

/// The time zone clause of a TIMESTAMP or TIME type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum TimeZoneClause {
    /// `WITH LOCAL TIME ZONE`
    WithLocalTimeZone,
    /// `WITHOUT TIME ZONE`
    WithoutTimeZone,
}

/// A Spark data type.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum DataType<'a> {
    /// A type by name with optional parameters: `INT`, `STRING`, `DECIMAL(10, 2)`, `VARCHAR(20)`.
    Named {
        /// From the name to the closing parenthesis.
        span: Span,
        /// The type name as written.
        name: Ident<'a>,
        /// The numeric parameters as written.
        params: &'a [&'a str],
        /// `WITH LOCAL TIME ZONE` or `WITHOUT TIME ZONE` after TIMESTAMP (the SQL standard's
        /// spellings of TIMESTAMP_LTZ and TIMESTAMP_NTZ), or WITHOUT TIME ZONE after TIME.
        time_zone: Option<TimeZoneClause>,
    },
    /// `ARRAY<element>`
    Array {
        /// From ARRAY to `>`.
        span: Span,
        /// The element type.
        element: &'a DataType<'a>,
    },
    /// `MAP<key, value>`
    Map {
        /// From MAP to `>`.
        span: Span,
        /// The key type.
        key: &'a DataType<'a>,
        /// The value type.
        value: &'a DataType<'a>,
    },
    /// `STRUCT<field, ...>`
    Struct {
        /// From STRUCT to `>`.
        span: Span,
        /// The fields in order.
        fields: &'a [StructField<'a>],
    },
    /// `INTERVAL unit [TO unit]`: `INTERVAL DAY TO SECOND`, `INTERVAL YEAR`.
    Interval {
        /// From INTERVAL to the last unit.
        span: Span,
        /// The leading unit.
        from: Ident<'a>,
        /// The trailing unit after TO.
        to: Option<Ident<'a>>,
    },
    /// `STRING COLLATE UTF8_LCASE`: a string type with a collation.
    Collated {
        /// From the type to the collation name.
        span: Span,
        /// The string type.
        base: &'a DataType<'a>,
        /// The collation.
        collation: Ident<'a>,
    },
}

impl DataType<'_> {
    /// Whether this is the named type `name` (case-insensitive), ignoring parameters.
    pub fn is_named(&self, name: &str) -> bool {
        match self {
            DataType::Named { name: n, .. } => n.matches(name),
            DataType::Collated { base, .. } => base.is_named(name),
            _ => false,
        }
    }
}

/// `name [:] type [NOT NULL] [COMMENT 'text']` inside `STRUCT<...>`; also a typed output column
/// of a script transform (`AS (name type, ...)`, without the colon).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct StructField<'a> {
    /// From the name to the end of the field.
    pub span: Span,
    /// The field name.
    pub name: Ident<'a>,
    /// The field type.
    pub data_type: DataType<'a>,
    /// `NOT NULL`.
    pub not_null: bool,
    /// `COMMENT 'text'`.
    pub comment: Option<StringLit<'a>>,
}

impl Spanned for DataType<'_> {
    fn span(&self) -> Span {
        match self {
            DataType::Named { span, .. }
            | DataType::Array { span, .. }
            | DataType::Map { span, .. }
            | DataType::Struct { span, .. }
            | DataType::Interval { span, .. }
            | DataType::Collated { span, .. } => *span,
        }
    }
}

super::impl_spanned!(StructField);
