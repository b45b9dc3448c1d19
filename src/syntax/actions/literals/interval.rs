//! Interval literals as Spark's parser checks them while it builds the tree: which units go
//! together, which values may have a fraction, and the shape of the string in
//! `INTERVAL '1 2:30' DAY TO MINUTE` and `INTERVAL '1 day 2 hours'`. Spark rejects a statement
//! that breaks one of these before it runs, so the parser does too.

use crate::arena::Arena;
use crate::ast::{
    DataType, Expr, ExprKind, Ident, Interval, IntervalPart, Literal, StringLit, UnaryOp,
};
use crate::lexer::{is_interval_unit, singular_unit, Sign, INTERVAL_TYPE_UNITS};
use crate::span::Span;
use crate::syntax::actions::base::{user_error, ActionResult};

/// The units of a year-month interval; every other unit is day-time, and one interval cannot
/// have both.
pub(super) fn is_year_month(unit: &str) -> bool {
    let singular = singular_unit(unit);
    singular.eq_ignore_ascii_case("year") || singular.eq_ignore_ascii_case("month")
}

/// Only seconds take a fraction: `1.5 SECONDS`, not `1.5 HOURS`.
fn takes_fraction(unit: &str) -> bool {
    singular_unit(unit).eq_ignore_ascii_case("second")
}

/// An interval value's text split at its sign and its point: `-1.5` is negative, `1` and `5`.
struct NumberParts<'n> {
    negative: bool,
    whole: &'n str,
    fraction: &'n str,
    point: bool,
}

impl<'n> NumberParts<'n> {
    fn of(number: &'n str) -> Self {
        let number = number.trim();
        let negative = number.starts_with('-');
        let digits = number
            .strip_prefix(['+', '-'])
            .unwrap_or(number)
            .trim_start();
        let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
        NumberParts {
            negative,
            whole,
            fraction,
            point: digits.contains('.'),
        }
    }
}

/// A number as an interval value: digits with at most one `.`, and a fraction only if `unit`
/// takes one. `None` if it is fine, else what is wrong.
fn number_problem(number: &str, unit: &str) -> Option<String> {
    let number = number.trim();
    let NumberParts {
        whole,
        fraction,
        point,
        ..
    } = NumberParts::of(number);
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.len() + fraction.len() == 0 || !all_digits(whole) || !all_digits(fraction) {
        return Some(format!("`{number}` is not a number an interval can hold"));
    }
    if point && !takes_fraction(unit) {
        return Some(format!(
            "`{number} {unit}`: only seconds take a fraction in an interval"
        ));
    }
    None
}

/// What Spark keeps of an interval while it reads its `value unit` pairs: months and days as
/// 32-bit numbers, the rest as 64-bit microseconds, each step checked for overflow.
#[derive(Default)]
struct IntervalTotal {
    months: i32,
    days: i32,
    micros: i64,
}

impl IntervalTotal {
    /// Adds one pair whose value passed [`number_problem`]; `None` on an overflow.
    fn add(&mut self, value: &str, unit: &str) -> Option<()> {
        let NumberParts {
            negative,
            whole,
            fraction,
            ..
        } = NumberParts::of(value);
        let mut whole: i64 = if whole.is_empty() {
            0
        } else {
            whole.parse().ok()?
        };
        // A fraction (of seconds only) counts to the microsecond; the rest is dropped.
        let mut fraction_micros = fraction
            .bytes()
            .chain(std::iter::repeat(b'0'))
            .take(6)
            .fold(0i64, |micros, digit| micros * 10 + i64::from(digit - b'0'));
        if negative {
            whole = -whole;
            fraction_micros = -fraction_micros;
        }
        let unit = singular_unit(unit);
        let is = |name: &str| unit.eq_ignore_ascii_case(name);
        let to_int = |v: i64| i32::try_from(v).ok();
        let micros_per = |per: i64| whole.checked_mul(per);
        if is("year") {
            self.months = to_int(i64::from(self.months).checked_add(whole.checked_mul(12)?)?)?;
        } else if is("month") {
            self.months = self.months.checked_add(to_int(whole)?)?;
        } else if is("week") {
            self.days = to_int(i64::from(self.days).checked_add(whole.checked_mul(7)?)?)?;
        } else if is("day") {
            self.days = self.days.checked_add(to_int(whole)?)?;
        } else {
            let micros = if is("hour") {
                micros_per(3_600_000_000)?
            } else if is("minute") {
                micros_per(60_000_000)?
            } else if is("second") {
                micros_per(1_000_000)?.checked_add(fraction_micros)?
            } else if is("millisecond") {
                micros_per(1_000)?
            } else {
                whole
            };
            self.micros = self.micros.checked_add(micros)?;
        }
        Some(())
    }

    /// Whether the interval fits its type: a day-time interval is one 64-bit count of
    /// microseconds.
    fn fits(&self) -> bool {
        i64::from(self.days)
            .checked_mul(86_400_000_000)
            .and_then(|days| days.checked_add(self.micros))
            .is_some()
    }
}

/// `None` if the pairs fit an interval, else what is wrong.
fn range_problem<'u>(pairs: impl IntoIterator<Item = (String, &'u str)>) -> Option<String> {
    let mut total = IntervalTotal::default();
    let fits = pairs
        .into_iter()
        .try_for_each(|(value, unit)| total.add(&value, unit))
        .is_some()
        && total.fits();
    (!fits).then(|| {
        "this interval is out of range: Spark holds its months and its days in 32 bits and a day-time interval in 64 bits of microseconds".to_string()
    })
}

fn mixes_units<'u>(mut units: impl Iterator<Item = &'u str>) -> bool {
    let Some(first) = units.next() else {
        return false;
    };
    let year_month = is_year_month(first);
    units.any(|unit| is_year_month(unit) != year_month)
}

const MIXED: &str =
    "an interval cannot mix year-month units (YEAR, MONTH) with day-time units (WEEK, DAY, HOUR, ...): write two intervals and add them";

/// `INTERVAL 3 DAYS 4 HOURS` or `INTERVAL '1-2' YEAR TO MONTH`.
pub fn interval<'a, 't>(
    arena: &'a Arena,
    span: Span,
    parts: Vec<IntervalPart<'a>>,
    to: Option<Ident<'a>>,
) -> ActionResult<'t, Expr<'a>> {
    match &to {
        Some(to) => {
            let [part] = parts.as_slice() else {
                return user_error(
                    span,
                    "an interval has either `value unit` pairs or one `'value' unit TO unit`, not both".to_string(),
                );
            };
            let from = part.unit.as_ref().map_or("", |u| u.text);
            if let Some(problem) = unit_to_unit_problem(&part.value, from, to.text) {
                return user_error(span, problem);
            }
        }
        None => {
            // The literal values and their units; a value that is no literal (a parameter
            // marker) leaves the range to run time.
            let mut pairs = Some(Vec::with_capacity(parts.len()));
            for part in &parts {
                let unit = part.unit.as_ref().map_or("", |u| u.text);
                let Some(value) = value_text(&part.value) else {
                    pairs = None;
                    continue;
                };
                if let Some(problem) = number_problem(&value, unit) {
                    return user_error(part.value.span, problem);
                }
                if let Some(pairs) = &mut pairs {
                    pairs.push((value, unit));
                }
            }
            if mixes_units(parts.iter().filter_map(|p| p.unit.as_ref().map(|u| u.text))) {
                return user_error(span, MIXED.to_string());
            }
            if let Some(problem) = pairs.and_then(range_problem) {
                return user_error(span, problem);
            }
        }
    }
    Ok(Expr {
        span,
        kind: ExprKind::Interval(arena.alloc(Interval {
            parts: arena.slice(parts),
            to,
        })),
    })
}

/// The text of a part's value, `-` included: a number, or a string's contents.
fn value_text(value: &Expr<'_>) -> Option<String> {
    match &value.kind {
        ExprKind::Literal(Literal::Number(n)) => Some((*n).to_string()),
        ExprKind::Literal(Literal::String(parts)) => {
            Some(parts.iter().map(|s| s.value()).collect())
        }
        ExprKind::Unary(u) => {
            let sign = if u.op == UnaryOp::Minus { "-" } else { "+" };
            value_text(&u.expr).map(|v| format!("{sign}{v}"))
        }
        _ => None,
    }
}

/// `'1 2:30' DAY TO MINUTE`: a string whose fields match the two units.
fn unit_to_unit_problem(value: &Expr<'_>, from: &str, to: &str) -> Option<String> {
    let pattern = match (from.to_ascii_uppercase().as_str(), to.to_ascii_uppercase().as_str()) {
        ("YEAR", "MONTH") => "Y-M",
        ("DAY", "HOUR") => "D H",
        ("DAY", "MINUTE") => "D H:M",
        ("DAY", "SECOND") => "D H:M:S",
        ("HOUR", "MINUTE") => "H:M",
        ("HOUR", "SECOND") => "H:M:S",
        ("MINUTE", "SECOND") => "M:S",
        _ => {
            return Some(format!(
                "`{from} TO {to}` is not an interval: the units are YEAR TO MONTH, DAY TO HOUR|MINUTE|SECOND, HOUR TO MINUTE|SECOND or MINUTE TO SECOND"
            ))
        }
    };
    let string = match &value.kind {
        ExprKind::Unary(u) => &u.expr,
        _ => value,
    };
    let ExprKind::Literal(Literal::String(_)) = &string.kind else {
        return Some(format!(
            "the value of `INTERVAL ... {from} TO {to}` must be a string, such as '{pattern}'"
        ));
    };
    let text = value_text(value).unwrap_or_default();
    if fits_pattern(text.trim(), pattern) {
        None
    } else {
        Some(format!(
            "`'{text}'` does not fit `{from} TO {to}`: write it as '[+|-]{pattern}'"
        ))
    }
}

/// Whether `text` has the fields of `pattern` (letters stand for numbers, the rest for
/// themselves); only seconds may have a fraction.
fn fits_pattern(text: &str, pattern: &str) -> bool {
    let mut rest = text.strip_prefix(['+', '-']).unwrap_or(text);
    for field in pattern.chars() {
        if !field.is_ascii_alphabetic() {
            match rest.strip_prefix(field) {
                Some(after) => rest = after,
                None => return false,
            }
            continue;
        }
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return false;
        }
        rest = &rest[digits..];
        if field == 'S' {
            if let Some(fraction) = rest.strip_prefix('.') {
                rest = fraction.trim_start_matches(|c: char| c.is_ascii_digit());
            }
        }
    }
    rest.is_empty()
}

/// `INTERVAL DAY TO SECOND` as a type: singular units, year-month or day-time, the larger
/// first.
pub fn interval_type<'a, 't>(
    span: Span,
    from: Ident<'a>,
    to: Option<Ident<'a>>,
) -> ActionResult<'t, DataType<'a>> {
    let rank = |unit: &Ident<'_>| {
        INTERVAL_TYPE_UNITS
            .iter()
            .position(|u| u.eq_ignore_ascii_case(unit.text))
    };
    let fits = match (rank(&from), to.as_ref().map(rank)) {
        (Some(_), None) => true,
        (Some(f), Some(Some(t))) => f < t && (t < 2) == (f < 2),
        _ => false,
    };
    if !fits {
        return user_error(
            span,
            "an interval type is INTERVAL YEAR [TO MONTH], INTERVAL MONTH, or INTERVAL DAY|HOUR|MINUTE|SECOND [TO a smaller one of HOUR, MINUTE, SECOND]".to_string(),
        );
    }
    Ok(DataType::Interval { span, from, to })
}

/// `INTERVAL '1 day 2 hours'`: the string holds `value unit` pairs, optionally after the word
/// `interval`.
pub fn string_interval<'a, 't>(
    arena: &'a Arena,
    span: Span,
    value: StringLit<'a>,
) -> ActionResult<'t, Expr<'a>> {
    let text = value.value();
    let mut words = text.split_whitespace().peekable();
    words.next_if(|w| w.eq_ignore_ascii_case("interval"));
    let mut units = Vec::new();
    let mut problem = None;
    while let Some(mut number) = words.next() {
        let sign_alone = number == "-" || number == "+";
        let signed;
        if sign_alone {
            signed = format!("{number}{}", words.next().unwrap_or(""));
            number = &signed;
        }
        let Some(unit) = words.next().filter(|u| is_interval_unit(u)) else {
            problem = Some(format!(
                "`'{text}'` is not an interval: write `value unit` pairs such as '1 day 2 hours'"
            ));
            break;
        };
        if let Some(p) = number_problem(number, unit) {
            problem = Some(p);
            break;
        }
        units.push((number.to_string(), unit));
    }
    if units.is_empty() && problem.is_none() {
        problem = Some(format!(
            "`'{text}'` is not an interval: write `value unit` pairs such as '1 day 2 hours'"
        ));
    }
    if problem.is_none() && mixes_units(units.iter().map(|(_, unit)| *unit)) {
        problem = Some(MIXED.to_string());
    }
    if problem.is_none() {
        problem = range_problem(units);
    }
    if let Some(problem) = problem {
        return user_error(value.span, problem);
    }
    let value = Expr {
        span: value.span,
        kind: ExprKind::Literal(Literal::String(std::slice::from_ref(arena.alloc(value)))),
    };
    Ok(Expr {
        span,
        kind: ExprKind::Interval(arena.alloc(Interval {
            parts: std::slice::from_ref(arena.alloc(IntervalPart { value, unit: None })),
            to: None,
        })),
    })
}

/// The operator of a sign before an interval's value (`INTERVAL -3 DAYS`).
pub fn sign_op(sign: Sign) -> UnaryOp {
    match sign {
        Sign::Plus => UnaryOp::Plus,
        Sign::Minus => UnaryOp::Minus,
    }
}

#[cfg(test)]
mod tests {
    use super::fits_pattern;
    use crate::syntax::read;

    #[test]
    fn adjacent_strings_in_an_interval_value_are_one_string() {
        assert_eq!(
            read("SELECT INTERVAL '1' '0' DAY, INTERVAL '1-' '2' YEAR TO MONTH, INTERVAL 3 DAY r'1' '2' HOUR"),
            Ok("SELECT INTERVAL '1' '0' DAY, INTERVAL '1-' '2' YEAR TO MONTH, INTERVAL 3 DAY r'1' '2' HOUR".into())
        );
        assert_eq!(
            read("SELECT INTERVAL 'a' 'b' DAY TO SECOND"),
            Err("`'ab'` does not fit `DAY TO SECOND`: write it as '[+|-]D H:M:S'".into())
        );
        // Only a value before a unit: the string that holds its units stands alone, and a
        // number joins nothing.
        for sql in [
            "SELECT INTERVAL '1 day' '2 hours'",
            "SELECT INTERVAL '1' 2 DAY",
            "SELECT INTERVAL 1 '2' DAY",
        ] {
            assert!(read(sql).is_err(), "{sql}");
        }
    }

    #[test]
    fn unit_to_unit_strings_have_the_units_fields() {
        assert!(fits_pattern("1-2", "Y-M"));
        assert!(fits_pattern("-10 11:12:13.5", "D H:M:S"));
        assert!(fits_pattern("3:4.", "M:S"));
        assert!(!fits_pattern("1", "Y-M"));
        assert!(!fits_pattern("2:3", "H:M:S"));
        assert!(!fits_pattern("1.5:3", "H:M"));
        assert!(!fits_pattern("1 2 ", "D H"));
    }
}
