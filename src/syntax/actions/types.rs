//! Data types: their names and parameters as Spark checks them, time zones in a type, collations.

use crate::arena::Arena;
use crate::ast::*;
use crate::span::Span;
use crate::syntax::actions::base::{expect_word, user_error, ActionResult, Word};
use crate::syntax::actions::literals::collation::is_collation;
use crate::syntax::actions::literals::MAX_PRECISION;

/// The type names Spark knows that take no parameters.
const TAKES_NO_PARAMETERS: [&str; 21] = [
    "BOOLEAN",
    "TINYINT",
    "BYTE",
    "SMALLINT",
    "SHORT",
    "INT",
    "INTEGER",
    "BIGINT",
    "LONG",
    "FLOAT",
    "REAL",
    "DOUBLE",
    "DATE",
    "TIMESTAMP",
    "TIMESTAMP_NTZ",
    "TIMESTAMP_LTZ",
    "STRING",
    "BINARY",
    "VOID",
    "VARIANT",
    "INTERVAL",
];

/// The type names that take parameters (each form is checked in `named_type`).
const TAKES_PARAMETERS: [&str; 9] = [
    "DECIMAL",
    "DEC",
    "NUMERIC",
    "CHAR",
    "CHARACTER",
    "VARCHAR",
    "TIME",
    "GEOGRAPHY",
    "GEOMETRY",
];

/// A type by name: one Spark knows, with the parameters it takes.
pub fn named_type<'a, 't>(
    span: Span,
    name: Ident<'a>,
    params: &'a [&'a str],
) -> ActionResult<'t, DataType<'a>> {
    // Type names are short: compare them uppercased without allocating.
    let mut buffer = [0u8; 16];
    let upper = match buffer.get_mut(..name.text.len()) {
        Some(slot) => {
            slot.copy_from_slice(name.text.as_bytes());
            slot.make_ascii_uppercase();
            std::str::from_utf8(slot).unwrap_or("")
        }
        None => "",
    };
    let mut numbers = [0usize; 3];
    for (slot, param) in numbers.iter_mut().zip(params) {
        match param.parse() {
            Ok(n) => *slot = n,
            // GEOMETRY(ANY), GEOGRAPHY(ANY): values of any spatial reference system.
            Err(_) if param.eq_ignore_ascii_case("any") && upper.starts_with("GEO") => {}
            Err(_) => {
                return user_error(span, format!("the parameters of {upper} are whole numbers"))
            }
        }
    }
    let numbers = &numbers[..params.len().min(3)];
    let problem = match (upper, numbers) {
        _ if params.len() > 3 => Some(format!("{upper} does not take these parameters")),
        ("DECIMAL" | "DEC" | "NUMERIC", [precision, ..]) if *precision > MAX_PRECISION => Some(
            format!("{upper}({precision}): a decimal holds at most {MAX_PRECISION} digits"),
        ),
        ("DECIMAL" | "DEC" | "NUMERIC", [precision, scale]) if scale > precision => Some(format!(
            "{upper}({precision}, {scale}): the scale cannot exceed the precision"
        )),
        ("DECIMAL" | "DEC" | "NUMERIC", [] | [_] | [_, _]) => None,
        ("CHAR" | "CHARACTER" | "VARCHAR", [_]) => None,
        ("CHAR" | "CHARACTER" | "VARCHAR", []) => {
            Some(format!("{upper} needs a length: {upper}(10)"))
        }
        ("TIME", [] | [0..=9]) => None,
        // Spark's timestamps hold microseconds, and it takes no other precision.
        ("TIMESTAMP" | "TIMESTAMP_NTZ" | "TIMESTAMP_LTZ", [6]) => None,
        ("TIMESTAMP" | "TIMESTAMP_NTZ" | "TIMESTAMP_LTZ", [_]) => Some(format!(
            "{upper} holds microseconds: its precision, if written, is {upper}(6)"
        )),
        ("GEOGRAPHY" | "GEOMETRY", [_]) => None,
        ("ARRAY" | "MAP" | "STRUCT", _) => Some(format!(
            "{upper} needs its element types: ARRAY<INT>, MAP<STRING, INT>, STRUCT<a: INT>"
        )),
        (name, []) if TAKES_NO_PARAMETERS.contains(&name) => None,
        (name, _) if TAKES_NO_PARAMETERS.contains(&name) || TAKES_PARAMETERS.contains(&name) => {
            Some(format!("{upper} does not take these parameters"))
        }
        _ => Some(format!("`{}` is not a data type Spark knows", name.text)),
    };
    match problem {
        Some(problem) => user_error(span, problem),
        None => Ok(DataType::Named {
            span,
            name,
            params,
            time_zone: None,
        }),
    }
}

/// `TIMESTAMP [(6)] WITH LOCAL TIME ZONE`, `TIMESTAMP | TIME [(p)] WITHOUT TIME ZONE`; `words`
/// are the clause's words that are no keywords (TIME ZONE, or ZONE after WITHOUT TIME).
pub fn zoned_type<'a, 't>(
    span: Span,
    name: Ident<'a>,
    params: &'a [&'a str],
    clause: TimeZoneClause,
    words: &[Word<'_>],
) -> ActionResult<'t, DataType<'a>> {
    let expected = ["TIME", "ZONE"];
    for (word, expected) in words.iter().zip(&expected[expected.len() - words.len()..]) {
        expect_word(*word, expected)?;
    }
    let is = |type_name: &str| name.text.eq_ignore_ascii_case(type_name);
    let allowed = match clause {
        TimeZoneClause::WithLocalTimeZone => is("timestamp"),
        TimeZoneClause::WithoutTimeZone => is("timestamp") || is("time"),
    };
    if !allowed {
        return user_error(
            span,
            format!("{} takes no time zone clause: TIMESTAMP takes WITH LOCAL TIME ZONE or WITHOUT TIME ZONE, TIME takes WITHOUT TIME ZONE", name.text),
        );
    }
    let mut zoned = named_type(span, name, params)?;
    if let DataType::Named { time_zone, .. } = &mut zoned {
        *time_zone = Some(clause);
    }
    Ok(zoned)
}

/// `STRING COLLATE c`: Spark collates only the string types, and builds the collation when it
/// builds the type, so a collation it does not know is an error of the statement.
/// `system.builtin.c` names the same collation as `c`, and is kept as `c`.
pub fn collated<'a, 't>(
    arena: &'a Arena,
    span: Span,
    base: DataType<'a>,
    name: ObjectName<'a>,
) -> ActionResult<'t, DataType<'a>> {
    // `base` comes from the grammar's DataType, which is never itself collated.
    if !is_string_type(&base) {
        return user_error(
            span,
            format!("`{base} COLLATE {name}`: only STRING, CHAR and VARCHAR take a collation"),
        );
    }
    let collation = *name.base();
    let builtin = match name.parts {
        [_] => true,
        [catalog, schema, _] => catalog.matches("system") && schema.matches("builtin"),
        _ => false,
    };
    if !builtin {
        return user_error(
            name.span,
            format!(
                "`{name}` is no collation: a collation is named alone or as system.builtin.<name>"
            ),
        );
    }
    if !is_collation(&collation.value()) {
        return user_error(
            collation.span,
            format!(
                "`{collation}` is not a collation Spark knows: one is UTF8_BINARY, UTF8_LCASE, \
                 UNICODE or a locale of ICU (`en`, `de`, `en_USA`, `sr_Cyrl_SRB`, ...), optionally \
                 followed by _CS or _CI, _AS or _AI, and _RTRIM (only _RTRIM after UTF8_BINARY and \
                 UTF8_LCASE)"
            ),
        );
    }
    Ok(DataType::Collated {
        span,
        base: arena.alloc(base),
        collation,
    })
}

/// The types that take a collation.
pub fn is_string_type(data_type: &DataType<'_>) -> bool {
    ["string", "char", "character", "varchar"]
        .iter()
        .any(|type_name| data_type.is_named(type_name))
}
