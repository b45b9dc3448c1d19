//! The values of `DATE '...'`, `TIMESTAMP '...'` and `TIME '...'` literals, which Spark's
//! parser converts, and so checks, as it builds the tree: `DATE '2024-02-30'` never runs.
//! The forms are Spark's: a date is `[+|-]yyyy[-m[m][-d[d]]]`, optionally followed by a space or
//! `T` and anything; a timestamp is a date, a time (`h[h][:m[m][:s[s][.fraction]]]`) or both,
//! then, after the seconds only, a time zone (see [`super::time_zones`]). Both also take the
//! special values `epoch`, `now`, `today`, `yesterday` and `tomorrow`.

use super::time_zones::is_zone;
use crate::ast::{Literal, StringLit, TypedLiteralKind};
use crate::syntax::actions::base::{user_error, ActionResult};

/// `DATE '2024-01-31'`: the literal, if its value is one of its type.
pub fn typed_literal<'a, 't>(
    kind: TypedLiteralKind,
    value: StringLit<'a>,
) -> ActionResult<'t, Literal<'a>> {
    if is_valid(kind, &value.value()) {
        return Ok(Literal::Typed(kind, value));
    }
    let form = match kind {
        TypedLiteralKind::Hex => {
            let message = format!("{}: X takes the hex digits 0-9 and A-F only", value.raw);
            return user_error(value.span, message);
        }
        TypedLiteralKind::Date => "yyyy-mm-dd",
        TypedLiteralKind::Time => "hh:mm:ss",
        _ => "yyyy-mm-dd hh:mm:ss",
    };
    user_error(
        value.span,
        format!(
            "{} is not a {} value: write '{form}', with a real date and time",
            value.raw,
            kind.keyword()
        ),
    )
}

/// Whether `text` (the literal's value, quotes removed) is a value of `kind`. Spaces around a
/// date or time are allowed, as in Spark; hex digits take none.
fn is_valid(kind: TypedLiteralKind, text: &str) -> bool {
    let trimmed = text.trim();
    match kind {
        TypedLiteralKind::Time => time_of_day(trimmed),
        TypedLiteralKind::Hex => text.bytes().all(|b| b.is_ascii_hexdigit()),
        _ if is_special(trimmed) => true,
        TypedLiteralKind::Date => match date(trimmed) {
            Some(rest) => rest.is_empty() || rest.starts_with([' ', 'T']),
            None => false,
        },
        TypedLiteralKind::Timestamp
        | TypedLiteralKind::TimestampNtz
        | TypedLiteralKind::TimestampLtz => timestamp(trimmed),
    }
}

/// `'epoch'`, `'now'`, `'today'`, `'yesterday'` or `'tomorrow'`, in any case, which Spark takes
/// for a date or a timestamp; all but `now` may be followed by a time zone (`'today UTC'`).
fn is_special(text: &str) -> bool {
    let letters = text.bytes().take_while(u8::is_ascii_alphabetic).count();
    let (word, zone) = text.split_at(letters);
    let zone = zone.trim_start_matches([' ', '\t']);
    let is = |special: &str| word.eq_ignore_ascii_case(special);
    ["epoch", "now", "today", "yesterday", "tomorrow"]
        .into_iter()
        .any(is)
        && (zone.is_empty() || !is("now") && is_zone(zone))
}

/// Reads `digits` from the start of `text`: the number and the rest, if there are between
/// `min` and `max` of them.
fn number(text: &str, min: usize, max: usize) -> Option<(u32, &str)> {
    let count = text.bytes().take_while(u8::is_ascii_digit).count();
    if count < min || count > max {
        return None;
    }
    let value = text[..count].parse().ok()?;
    Some((value, &text[count..]))
}

/// A date at the start of `text`; the rest after it.
fn date(text: &str) -> Option<&str> {
    let unsigned = text.strip_prefix(['+', '-']).unwrap_or(text);
    let (year, rest) = number(unsigned, 4, 7)?;
    let Some(rest) = rest.strip_prefix('-') else {
        return Some(rest);
    };
    let (month, rest) = number(rest, 1, 2)?;
    if !(1..=12).contains(&month) {
        return None;
    }
    let Some(rest) = rest.strip_prefix('-') else {
        return Some(rest);
    };
    let (day, rest) = number(rest, 1, 2)?;
    (day >= 1 && day <= days_in_month(year, month)).then_some(rest)
}

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// A time of day at the start of `text`: `h[h][:m[m][:s[s][.fraction]]]`; the rest after it,
/// and whether the time has its seconds.
fn time(text: &str) -> Option<(&str, bool)> {
    let (hour, mut rest) = number(text, 1, 2)?;
    if hour > 23 {
        return None;
    }
    for limit in [59, 59] {
        let Some(after) = rest.strip_prefix(':') else {
            return Some((rest, false));
        };
        let (value, after) = number(after, 1, 2)?;
        if value > limit {
            return None;
        }
        rest = after;
    }
    match rest.strip_prefix('.') {
        Some(fraction) => Some((
            fraction.trim_start_matches(|c: char| c.is_ascii_digit()),
            true,
        )),
        None => Some((rest, true)),
    }
}

/// `TIME '10:30'`: a time with its minutes, or an hour alone after `T` (`'T10'`), a fraction of
/// at most nanoseconds, and no time zone.
fn time_of_day(text: &str) -> bool {
    let (after_t, body) = match text.strip_prefix('T') {
        Some(body) => (true, body),
        None => (false, text),
    };
    let fraction_digits = body
        .split_once('.')
        .map_or(0, |(_, fraction)| fraction.len());
    time(body).is_some_and(|(rest, _)| rest.is_empty())
        && (after_t || body.contains(':'))
        && fraction_digits <= 9
}

/// A time, then a time zone if the time has its seconds: Spark looks for a zone only there.
fn time_and_zone(text: &str) -> bool {
    match time(text) {
        Some(("", _)) => true,
        Some((zone, true)) => is_zone(zone.trim_start()),
        _ => false,
    }
}

/// A date, a time or both.
fn timestamp(text: &str) -> bool {
    let time_only = text.strip_prefix('T').unwrap_or(text);
    let looks_like_time = time_only
        .bytes()
        .find(|b| !b.is_ascii_digit())
        .is_some_and(|b| b == b':');
    if looks_like_time {
        return time_and_zone(time_only);
    }
    let Some(rest) = date(text) else {
        return false;
    };
    rest.is_empty() || rest.strip_prefix([' ', 'T']).is_some_and(time_and_zone)
}

#[cfg(test)]
mod tests {
    use super::is_valid;
    use crate::ast::TypedLiteralKind::{Date, Time, Timestamp};

    #[test]
    fn dates_are_checked_as_spark_reads_them() {
        for ok in [
            "2024-01-01",
            "2024-1-1",
            "2024",
            "2024-02",
            " 2024-02-29 ",
            "+12345-01-01",
        ] {
            assert!(is_valid(Date, ok), "{ok}");
        }
        assert!(is_valid(Date, "2024-01-01T10:00"));
        for bad in [
            "2024-02-30",
            "2023-02-29",
            "2024-13-01",
            "2024/01/01",
            "",
            "0-1-1",
        ] {
            assert!(!is_valid(Date, bad), "{bad}");
        }
        assert!(!is_valid(Date, "2024-01-01x") && !is_valid(Date, "2024-01-001"));
    }

    #[test]
    fn timestamps_and_times_have_valid_fields() {
        for ok in [
            "2024-01-01 10:00:00",
            "2024-01-01T10:00:00Z",
            "2024-01-01 10:00:00.123456",
            "2024-01-01 10:00:00 America/Los_Angeles",
            "2024-01-01",
            "2024-01-01 10",
            "T10:00:00",
            "10:00:00",
        ] {
            assert!(is_valid(Timestamp, ok), "{ok}");
        }
        for bad in [
            "2024-01-01 25:00:00",
            "2024-02-30 10:00:00",
            "2024-01-01 10:61:00",
            "x",
        ] {
            assert!(!is_valid(Timestamp, bad), "{bad}");
        }
        assert!(is_valid(Time, "12:00") && is_valid(Time, "23:59:59.5"));
        assert!(is_valid(Time, "T7") && is_valid(Time, " 1:2:3.123456789 "));
        assert!(!is_valid(Time, "7") && !is_valid(Time, "t7:00") && !is_valid(Time, "7:00.5"));
        assert!(!is_valid(Time, "1:2:3.1234567890") && !is_valid(Time, "10:00:00 UTC"));
        assert!(!is_valid(Time, "25:00:00") && !is_valid(Time, "x"));
    }
}
