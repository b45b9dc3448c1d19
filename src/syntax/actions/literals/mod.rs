//! Literals and the values Spark checks as it parses them: date-time strings and time zones,
//! intervals, inline tables, collation names.

pub(crate) mod collation;
pub(crate) mod datetime;
pub(crate) mod inline_table;
pub(crate) mod interval;
mod time_zones;

use crate::arena::Arena;
use crate::ast::*;
use crate::span::Span;
use crate::syntax::actions::base::{user_error, ActionResult};

/// A hex string must hold hex digits only.
pub fn hex_string<'a, 't>(
    arena: &'a Arena,
    span: Span,
    raw: &'a str,
) -> ActionResult<'t, Literal<'a>> {
    let digits = raw.get(2..raw.len().saturating_sub(1)).unwrap_or("");
    if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return user_error(
            span,
            "a hex string may only contain the digits 0-9 and A-F".to_string(),
        );
    }
    Ok(Literal::String(std::slice::from_ref(
        arena.alloc(StringLit { span, raw }),
    )))
}

/// `TIME '12:00:00'`: Spark reads a word before a string as a typed literal and rejects the
/// types it has no literal for.
pub fn word_typed_literal<'a, 't>(
    span: Span,
    word: &str,
    value: StringLit<'a>,
) -> ActionResult<'t, Literal<'a>> {
    if word.eq_ignore_ascii_case("time") {
        crate::syntax::actions::literals::datetime::typed_literal(TypedLiteralKind::Time, value)
    } else if word.eq_ignore_ascii_case("x") {
        crate::syntax::actions::literals::datetime::typed_literal(TypedLiteralKind::Hex, value)
    } else {
        user_error(
            span,
            format!("`{word} '...'` is not a literal: the typed literals are DATE, TIMESTAMP, TIMESTAMP_NTZ, TIMESTAMP_LTZ, TIME, INTERVAL and X'...'"),
        )
    }
}

/// Spark's largest decimal precision.
pub const MAX_PRECISION: usize = 38;

/// A number literal, checked against the range of the type its suffix (or its form) gives it.
/// A negative literal is a minus applied to a positive one here; the magnitude of an integer
/// type's smallest value (`128Y` in `-128Y`) comes as its own token, only after a sign.
pub fn number<'a, 't>(span: Span, text: &'a str) -> ActionResult<'t, Literal<'a>> {
    let bytes = text.as_bytes();
    let Some(&last) = bytes.last() else {
        return Ok(Literal::Number(text));
    };
    // Most numbers are plain digits: no suffix, no exponent, no point.
    if last.is_ascii_digit() && bytes.len() < 19 && bytes.iter().all(u8::is_ascii_digit) {
        return Ok(Literal::Number(text));
    }
    let out_of_range = |type_name: &str| {
        user_error(
            span,
            format!("the number {text} is outside the range of {type_name}"),
        )
    };
    let without = |suffix_len: usize| &text[..text.len() - suffix_len];
    if let Some((smallest, type_name)) = crate::lexer::integer_suffix(last) {
        let limit = smallest - 1;
        let digits = without(1);
        if !digits.bytes().all(|b| b.is_ascii_digit()) {
            return user_error(
                span,
                format!("{text}: a {type_name} literal is a whole number"),
            );
        }
        return match digits.parse::<u128>() {
            Ok(n) if n <= limit => Ok(Literal::Number(text)),
            _ => out_of_range(type_name),
        };
    }
    let big_decimal = text.len() > 2 && text[text.len() - 2..].eq_ignore_ascii_case("bd");
    if big_decimal {
        return check_precision(span, text, without(2));
    }
    match last.to_ascii_lowercase() {
        b'f' => match without(1).parse::<f32>() {
            Ok(x) if x.is_finite() => Ok(Literal::Number(text)),
            _ => out_of_range("FLOAT"),
        },
        b'd' => finite_double(text, without(1)).map_or_else(|| out_of_range("DOUBLE"), Ok),
        _ if text.contains(['e', 'E']) => {
            finite_double(text, text).map_or_else(|| out_of_range("DOUBLE"), Ok)
        }
        // An integer too large for BIGINT, and a number with a point, are decimals.
        _ => check_precision(span, text, text),
    }
}

fn finite_double<'a>(text: &'a str, digits: &str) -> Option<Literal<'a>> {
    match digits.parse::<f64>() {
        Ok(x) if x.is_finite() => Some(Literal::Number(text)),
        _ => None,
    }
}

/// A decimal has at most 38 digits (leading zeros aside; `0.001` needs 3). An exponent moves
/// the point (`1.5e-40BD` needs 41 digits, `1e38BD` 39).
fn check_precision<'a, 't>(
    span: Span,
    text: &'a str,
    digits: &str,
) -> ActionResult<'t, Literal<'a>> {
    let (mantissa, exponent) = match digits.split_once(['e', 'E']) {
        Some((mantissa, exponent)) => (mantissa, exponent.parse::<i64>().unwrap_or(i64::MAX)),
        None => (digits, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let significant = if whole.bytes().all(|b| b == b'0') {
        fraction.trim_start_matches('0').len()
    } else {
        whole.trim_start_matches('0').len() + fraction.len()
    };
    // Digits after the point; a negative scale becomes trailing zeros of a whole number.
    let scale = (fraction.len() as i64).saturating_sub(exponent);
    let precision = if scale < 0 {
        (significant.max(1) as i64).saturating_add(scale.saturating_neg())
    } else {
        (significant as i64).max(scale)
    };
    if precision > MAX_PRECISION as i64 {
        return user_error(
            span,
            format!(
                "the number {text} has {precision} digits; a decimal holds at most {MAX_PRECISION}"
            ),
        );
    }
    Ok(Literal::Number(text))
}
