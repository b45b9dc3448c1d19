//! The lexer's contextual choices: where one token of look-ahead is not enough for the grammar,
//! the lexer decides from the tokens around a word and hands the grammar a token of its own
//! (ANY after LIKE, IN inside `position(`, TO after an interval's unit, the word pairs that
//! open a clause such as `ROW FORMAT`, ...). Every such choice is made here, in [`Lexer`],
//! which wraps the context-free tokens of `logos`.

use super::{LexError, Sign, SpannedTok, Tok};
use crate::span::Span;
use crate::unescape::string_value;
use logos::Logos;

/// The tokens just before the current one, as far as the context-dependent words care.
#[derive(Clone, Copy, PartialEq, Eq)]
enum After {
    /// `*`: EXCEPT there is `* EXCEPT (columns)`.
    Star,
    /// LIKE or ILIKE: ANY, SOME and ALL there quantify the pattern list.
    Like,
    /// TABLESAMPLE.
    Tablesample,
    /// `TABLESAMPLE (`: BUCKET there is a keyword.
    TablesampleParen,
    /// IN: see [`After::InParen`].
    In,
    /// `IN (`: a VALUES here may be [`Tok::ValuesAfterIn`].
    InParen,
    /// The word `position`: a `(` after it opens `position(substr IN str)`.
    Position,
    /// INTERVAL, or a sign after it: a unit word here is a unit (`INTERVAL DAY TO SECOND`).
    Interval,
    /// `::`: an INTERVAL after it is a type.
    DoubleColon,
    /// INTERVAL after `::`: only a unit of an interval type is a unit here, and another unit
    /// word is an alias (`x :: interval days`), as in Spark.
    IntervalType,
    /// An interval's value, or TO after a unit: a unit word here is a unit.
    IntervalValue,
    /// An interval's unit: a value here starts the next `value unit` pair.
    IntervalUnit,
    /// `>`, which may close a type (`array<int>`) and so counts as an [`After::Operand`], but
    /// is also a comparison, after which a minus is a sign.
    AngleClose,
    /// A number, which ends an operand but opens no word pair (`SELECT 1 row`).
    Number,
    /// A minus that is a sign (no operand ends before it): `128Y` after it is the magnitude of
    /// TINYINT's smallest value (see [`Tok::NegatedBound`]).
    UnaryMinus,
    /// `)`: an [`After::Operand`], after which IGNORE NULLS may be a call's (see
    /// [`Lexer::ignore_nulls`]).
    CloseParen,
    /// IGNORE after `)`.
    IgnoreAfterParen,
    /// PIVOT or UNPIVOT: see [`Bracket::Pivot`].
    Pivot,
    /// The `)` that closes a PIVOT or UNPIVOT clause: a word that opens a join may be its alias
    /// here (see [`Lexer::opens_join_next`]).
    PivotEnd,
    /// The end of an operand, a column or a type: a name, a string, NULL or a
    /// keyword that names a type. ROW FORMAT, EXACT/APPROX NEAREST, WITH LOCAL and WITHOUT TIME
    /// only ever follow one of these (see [`pair_opened_by`]); elsewhere (`SELECT row format`)
    /// the first word is a name.
    Operand,
    /// STRUCT: a `<` after it opens a struct type's fields.
    Struct,
    /// A word that opens a clause with a value (WHERE, LIMIT, ...; SELECT after an operand):
    /// Spark may read it and `- name` after it as one name (see `src/syntax/second_look/dashed_names.rs`).
    ClauseWord,
    /// Anything else.
    Other,
}

/// The pattern of the words before JOIN that open a join (LEFT, NATURAL, ...).
macro_rules! join_word {
    () => {
        Tok::Left
            | Tok::Right
            | Tok::Full
            | Tok::Inner
            | Tok::Cross
            | Tok::Natural
            | Tok::Semi
            | Tok::Anti
    };
}

/// A bracket that the lexer keeps track of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bracket {
    /// `position(`: IN directly inside is [`Tok::PositionIn`].
    Position,
    /// The `(` after PIVOT or UNPIVOT: the token after its `)` is [`After::PivotEnd`].
    Pivot,
}

/// The units of an interval type, in order: `INTERVAL DAY TO SECOND`, `INTERVAL YEAR`.
pub(crate) const INTERVAL_TYPE_UNITS: [&str; 6] =
    ["YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND"];

/// Whether `word` is a unit of an interval type (singular only).
fn is_type_unit(word: &str) -> bool {
    INTERVAL_TYPE_UNITS
        .iter()
        .any(|unit| word.eq_ignore_ascii_case(unit))
}

/// The integer type that a number's last character names (`Y`, `S`, `L`), with the magnitude
/// of its smallest value.
pub(crate) fn integer_suffix(last: u8) -> Option<(u128, &'static str)> {
    match last.to_ascii_lowercase() {
        b'y' => Some((128, "TINYINT")),
        b's' => Some((32_768, "SMALLINT")),
        b'l' => Some((9_223_372_036_854_775_808, "BIGINT")),
        _ => None,
    }
}

/// Whether `number` is the magnitude of the smallest TINYINT, SMALLINT or BIGINT, with its suffix.
fn is_negated_bound(number: &str) -> bool {
    let Some((&last, digits)) = number.as_bytes().split_last() else {
        return false;
    };
    integer_suffix(last).is_some_and(|(bound, _)| {
        digits.iter().all(u8::is_ascii_digit) && number[..digits.len()].parse::<u128>() == Ok(bound)
    })
}

/// How many parts Spark reads in `text`, the value of the string in `IDENTIFIER('...')`, when
/// it is a name: parts separated by dots, each a word or back-quoted, with spaces and comments
/// around them. A word that Spark reads as a number (`1`, `1L`, `1e5`) is no name.
pub(crate) fn name_parts(text: &str) -> Option<usize> {
    let mut parts = 0;
    let mut part_next = true;
    let mut tokens = Tok::lexer(text);
    while let Some(tok) = tokens.next() {
        let word = tokens
            .slice()
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_');
        part_next = match tok {
            Ok(Tok::Dot) if !part_next => true,
            // `.1b`: a dot and a name that starts with digits.
            Ok(Tok::DotDigitName(_)) if !part_next => false,
            Ok(Tok::QuotedIdent(_)) if part_next => false,
            Ok(Tok::Number(_)) => return None,
            Ok(_) if part_next && word => false,
            _ => return None,
        };
        // A dot leaves a part to come; anything else that is read here is a part.
        parts += usize::from(!part_next);
    }
    (!part_next).then_some(parts)
}

/// The units Spark takes in an interval (NANOSECOND is in its grammar but always rejected).
pub(crate) fn is_interval_unit(word: &str) -> bool {
    const UNITS: [&str; 9] = [
        "year",
        "month",
        "week",
        "day",
        "hour",
        "minute",
        "second",
        "millisecond",
        "microsecond",
    ];
    let singular = singular_unit(word);
    UNITS.iter().any(|unit| singular.eq_ignore_ascii_case(unit))
}

/// How far [`Lexer::names_a_call`] looks for the end of `IDENTIFIER(...)`, in tokens.
const IDENTIFIER_CALL_LOOKAHEAD: usize = 256;

/// An interval unit without its plural `s`: `DAYS` is `DAY`.
pub(crate) fn singular_unit(word: &str) -> &str {
    word.strip_suffix(['s', 'S']).unwrap_or(word)
}

/// A token that two words make, and the second word.
type Pair = (Tok<'static>, &'static str);

/// The word pairs that open a clause where the first word alone would be a name: ROW FORMAT,
/// EXACT or APPROX NEAREST, WITH LOCAL and WITHOUT TIME (all only after an operand, so that
/// `SELECT row format`, `SELECT exact nearest` and `WITH local AS (...)` keep their meaning), BIN
/// BY and IDENTIFIED BY (no name is ever followed by BY). `after` is the context before `first`.
fn pair_opened_by(first: Tok<'_>, after: After) -> Option<Pair> {
    let after_operand = matches!(
        after,
        After::Operand | After::CloseParen | After::AngleClose
    );
    match first {
        Tok::Row if after_operand => Some((Tok::RowFormat, "format")),
        Tok::With if after_operand => Some((Tok::WithLocal, "local")),
        Tok::Ident(word) => match word.len() {
            3 if word.eq_ignore_ascii_case("bin") => Some((Tok::BinBy, "")),
            10 if word.eq_ignore_ascii_case("identified") => Some((Tok::IdentifiedBy, "")),
            5 if after_operand && word.eq_ignore_ascii_case("exact") => {
                Some((Tok::ExactNearest, "nearest"))
            }
            6 if after_operand && word.eq_ignore_ascii_case("approx") => {
                Some((Tok::ApproxNearest, "nearest"))
            }
            7 if after_operand && word.eq_ignore_ascii_case("without") => {
                Some((Tok::WithoutTime, "time"))
            }
            _ => None,
        },
        _ => None,
    }
}

/// The token stream of a source text. Never fails: errors are [`Tok::Error`] tokens.
pub struct Lexer<'a> {
    inner: logos::Lexer<'a, Tok<'a>>,
    /// What the words whose meaning depends on the tokens before them need to know.
    after: After,
    /// A token read ahead to decide whether IGNORE is followed by NULLS, ROW by FORMAT, ...
    peeked: Option<SpannedTok<'a>>,
    /// The second word that would make the token read last one token with it (see
    /// [`Lexer::pair`]); set only for the few words that may open such a pair.
    pair: Option<Pair>,
    /// How many brackets are open in the current statement.
    parens: u32,
    /// The open brackets that some token inside or after them depends on (`position(`, `PIVOT
    /// (`), with their depths, innermost last.
    brackets: Vec<(u32, Bracket)>,
    /// How many `<` are open inside a `STRUCT<...>` type (0: not in one). There a field's
    /// `:type` is a colon and a type, not a parameter marker (`STRUCT<a:INT>`).
    struct_angles: u32,
    /// The word of a `:word` taken apart in a struct type, still to be read.
    field_type: Option<(Result<Tok<'a>, LexError>, std::ops::Range<usize>)>,
    /// Whether a minus has followed an [`After::ClauseWord`] or the name after OVER.
    clause_dash: bool,
    /// Where the template placeholders (`{name}`, `{{ name }}`) read so far are.
    placeholders: Vec<Span>,
}

impl<'a> Lexer<'a> {
    /// A lexer over `source`.
    pub fn new(source: &'a str) -> Self {
        Lexer {
            inner: Tok::lexer(source),
            after: After::Other,
            peeked: None,
            pair: None,
            parens: 0,
            brackets: Vec::new(),
            struct_angles: 0,
            field_type: None,
            clause_dash: false,
            placeholders: Vec::new(),
        }
    }

    /// A lexer over `source[range]`, whose tokens' offsets are those in `source`: the text of
    /// one notebook cell, which ends there whatever is left open.
    pub(crate) fn over(source: &'a str, range: std::ops::Range<usize>) -> Self {
        let mut lexer = Lexer::new(&source[..range.end]);
        lexer.inner.bump(range.start);
        lexer
    }

    /// Where the template placeholders read so far are (see [`Tok::Param`]).
    pub(crate) fn placeholders(&self) -> &[Span] {
        &self.placeholders
    }

    /// Whether a word that opens a clause, or a window's name, has been followed by a minus
    /// (`WHERE - b`, `OVER w - b`), which the parse of a statement must look at again (see
    /// `src/syntax/second_look/dashed_names.rs`).
    pub(crate) fn saw_clause_dash(&self) -> bool {
        self.clause_dash
    }

    fn take(&mut self) -> Option<SpannedTok<'a>> {
        self.peeked.take().or_else(|| self.lex())
    }

    /// The next token if it is the keyword or symbol `expected`; otherwise it is kept for the
    /// next call.
    fn take_if(&mut self, expected: Tok<'a>) -> Option<SpannedTok<'a>> {
        let token = self.take()?;
        if std::mem::discriminant(&token.1) == std::mem::discriminant(&expected) {
            return Some(token);
        }
        self.peeked = Some(token);
        None
    }

    /// IGNORE, or IGNORE NULLS, or IGNORE NULLS ) as one token. After `)` (`first(f(a) IGNORE
    /// NULLS)`), IGNORE NULLS is the suffix of the call that the `)` may close, as in Spark, so
    /// it stays apart from the `)` after it (where no call closes, as in `first((a) IGNORE
    /// NULLS)`, a second look joins them).
    fn ignore_nulls(&mut self, ignore: SpannedTok<'a>) -> SpannedTok<'a> {
        let after_paren = self.after == After::IgnoreAfterParen;
        let Some(nulls) = self.take_if(Tok::Nulls) else {
            return ignore;
        };
        let paren = if after_paren {
            None
        } else {
            self.take_if(Tok::RParen)
        };
        match paren {
            Some(paren) => (ignore.0, Tok::IgnoreNullsParen, paren.2),
            None => (ignore.0, Tok::IgnoreNulls, nulls.2),
        }
    }

    /// `first` and the next token as the one token `pair.0` when the next token is the word
    /// `pair.1` (or the keyword BY, for an empty word); otherwise `first` alone.
    fn pair(&mut self, first: SpannedTok<'a>, (pair, second): Pair) -> SpannedTok<'a> {
        match self.take() {
            Some((_, Tok::Ident(word), end)) if word.eq_ignore_ascii_case(second) => {
                (first.0, pair, end)
            }
            Some((_, Tok::By, end)) if second.is_empty() => (first.0, pair, end),
            next => {
                self.peeked = next;
                first
            }
        }
    }

    /// Whether the `+` or `-` just read signs an interval's value: it follows INTERVAL or a unit,
    /// and a value and a unit come next (`3 HOURS`, `'3' HOURS`). Spark's value there is a whole
    /// or decimal number or a string.
    fn interval_sign(&self) -> bool {
        if !matches!(self.after, After::Interval | After::IntervalUnit) {
            return false;
        }
        let mut ahead = self.inner.clone();
        let value = match ahead.next() {
            Some(Ok(Tok::Number(digits))) => {
                digits.bytes().all(|b| b.is_ascii_digit() || b == b'.')
            }
            Some(Ok(Tok::String(_) | Tok::RawString(_))) => true,
            _ => false,
        };
        value && matches!(ahead.next(), Some(Ok(Tok::Ident(word))) if is_interval_unit(word))
    }

    /// After `* EXCEPT`: whether a list of columns follows, not a query (in brackets or not). A
    /// word that starts a query is a column there when `)`, `,` or `.` follows it, as in Spark
    /// (`* EXCEPT (select)`).
    fn column_list_follows(&self) -> bool {
        let mut ahead = self.inner.clone();
        if !matches!(ahead.next(), Some(Ok(Tok::LParen))) {
            return false;
        }
        match ahead.next() {
            Some(Ok(Tok::LParen)) => false,
            Some(Ok(Tok::Select | Tok::Values | Tok::With | Tok::From | Tok::Table)) => {
                matches!(ahead.next(), Some(Ok(Tok::RParen | Tok::Comma | Tok::Dot)))
            }
            _ => true,
        }
    }

    /// After the `)` of a PIVOT or UNPIVOT clause and a word that opens a join (LEFT, NATURAL,
    /// ...): whether another such word or JOIN comes next. Spark takes any name as the clause's
    /// alias, and where both readings parse it takes the alias: `PIVOT (...) LEFT JOIN t` is an
    /// inner join of the PIVOT aliased `LEFT`, and `PIVOT (...) NATURAL LEFT JOIN t` a left
    /// join of the PIVOT aliased `NATURAL`. So the word is then a name.
    fn opens_join_next(&self) -> bool {
        matches!(
            self.inner.clone().next(),
            Some(Ok(Tok::Join | join_word!()))
        )
    }

    /// After OVER or COLLATE: whether a name and a minus come next, which Spark may read with the
    /// name after the minus as one name (`OVER w - b`, `COLLATE UTF8_LCASE - b`, see
    /// `src/syntax/second_look/dashed_names.rs`).
    fn name_then_dash(&self) -> bool {
        let mut ahead = self.inner.clone();
        matches!(ahead.next(), Some(Ok(Tok::Ident(_))))
            && matches!(ahead.next(), Some(Ok(Tok::Dash)))
    }

    /// After `|`: whether the next word starts a pipe operation (Spark's `operatorPipeRightSide`),
    /// which makes the `|` a pipe, as `|>` is, even where no query is before it (`f(a | where)`
    /// is refused there); before any other token it is a bitwise OR.
    fn starts_pipe_operation(&self) -> bool {
        matches!(
            self.inner.clone().next(),
            Some(Ok(Tok::Select
                | Tok::Extend
                | Tok::Set
                | Tok::Drop
                | Tok::As
                | Tok::Where
                | Tok::Aggregate
                | Tok::Pivot
                | Tok::Unpivot
                | Tok::Tablesample
                | Tok::Join
                | Tok::Cross
                | Tok::Natural
                | Tok::Inner
                | Tok::Full
                | Tok::Left
                | Tok::Right
                | Tok::Semi
                | Tok::Anti
                | Tok::Lateral
                | Tok::Union
                | Tok::Except
                | Tok::Minus
                | Tok::Intersect
                | Tok::Order
                | Tok::Sort
                | Tok::Cluster
                | Tok::Distribute
                | Tok::Limit
                | Tok::Offset
                | Tok::Window))
        ) || self.pipe_word_follows()
    }

    /// ASOF and BIN, which open no pipe operation here but are words of Spark's pipe grammar
    /// (its lexer takes `| asof` for the start of one, and then refuses it).
    fn pipe_word_follows(&self) -> bool {
        matches!(self.inner.clone().next(), Some(Ok(Tok::Ident(word)))
            if word.eq_ignore_ascii_case("asof") || word.eq_ignore_ascii_case("bin"))
    }

    /// After the word IDENTIFIER: whether `( 'string' )` comes next, with a name in the string,
    /// which Spark reads together with the word as one name. If so, moves past it and returns where it ends.
    fn identifier_literal(&mut self) -> Option<usize> {
        let mut ahead = self.inner.clone();
        let literal = matches!(ahead.next(), Some(Ok(Tok::LParen)))
            && matches!(ahead.next(), Some(Ok(Tok::String(raw) | Tok::RawString(raw)))
                if name_parts(&string_value(raw)).is_some())
            && matches!(ahead.next(), Some(Ok(Tok::RParen)));
        if !literal {
            return None;
        }
        let end = ahead.span().end;
        self.inner = ahead;
        Some(end)
    }

    /// After the word IDENTIFIER (and no name in a string): whether `(...)` and then `(` come
    /// next. The look ahead stops after [`IDENTIFIER_CALL_LOOKAHEAD`] tokens, so that nested
    /// IDENTIFIER( ... cannot make lexing quadratic; a longer expression is read as a call named
    /// IDENTIFIER.
    fn names_a_call(&self) -> bool {
        let mut ahead = self.inner.clone();
        if !matches!(ahead.next(), Some(Ok(Tok::LParen))) {
            return false;
        }
        let mut depth = 1usize;
        for _ in 0..IDENTIFIER_CALL_LOOKAHEAD {
            match ahead.next() {
                Some(Ok(Tok::LParen)) => depth += 1,
                Some(Ok(Tok::RParen)) if depth == 1 => {
                    return matches!(ahead.next(), Some(Ok(Tok::LParen)));
                }
                Some(Ok(Tok::RParen)) => depth -= 1,
                None | Some(Ok(Tok::Semicolon)) => return false,
                _ => {}
            }
        }
        false
    }

    /// Where the number just read stops being one, if it must: Spark reads a decimal only when
    /// no letter, digit or `_` follows it, so `1.5abc` is `1` and `.5abc` (the field `5abc` of 1),
    /// `5.x` is `5 . x`, and `.5e1x` starts with a dot. The result is the offset of the dot.
    fn decimal_cut(&self, number: &str) -> Option<usize> {
        let dot = number.find('.')?;
        let next = *self.inner.remainder().as_bytes().first()?;
        (next.is_ascii_alphanumeric() || next == b'_').then_some(dot)
    }

    fn lex(&mut self) -> Option<SpannedTok<'a>> {
        let (mut result, mut span) = match self.field_type.take() {
            Some(word) => word,
            None => (self.inner.next()?, self.inner.span()),
        };
        if let Ok(Tok::Number(digits)) = result {
            if let Some(dot) = self.decimal_cut(digits) {
                // The dot starts the next token: re-lex from there.
                let next = span.start + dot.max(1);
                self.inner = Tok::lexer(self.inner.source());
                self.inner.bump(next);
                result = Ok(if dot == 0 {
                    Tok::Dot
                } else {
                    Tok::Number(&digits[..dot])
                });
                span.end = next;
            }
        }
        let tok = match result {
            Ok(Tok::NamedMarker(marker)) if self.struct_angles > 0 => {
                let word = span.start + 1..span.end;
                self.field_type = Tok::lexer(&marker[1..]).next().map(|tok| (tok, word));
                span.end = span.start + 1;
                Tok::Colon
            }
            Ok(Tok::Except) if self.after == After::Star && self.column_list_follows() => {
                Tok::ExceptAfterStar
            }
            Ok(Tok::Any) if self.after == After::Like => Tok::LikeAny,
            Ok(Tok::Some) if self.after == After::Like => Tok::LikeSome,
            Ok(Tok::All) if self.after == After::Like => Tok::LikeAll,
            Ok(Tok::In) if self.brackets.last() == Some(&(self.parens, Bracket::Position)) => {
                Tok::PositionIn
            }
            Ok(Tok::Values)
                if self.after == After::InParen
                    && matches!(self.inner.clone().next(), Some(Ok(Tok::LParen))) =>
            {
                Tok::ValuesAfterIn
            }
            Ok(Tok::To) if self.after == After::IntervalUnit => Tok::UnitTo,
            Ok(Tok::Number(digits))
                if self.after == After::UnaryMinus && is_negated_bound(digits) =>
            {
                Tok::NegatedBound(digits)
            }
            Ok(Tok::Pipe) if self.starts_pipe_operation() => Tok::PipeOperator,
            // `case` before what only follows a name is the name (`SELECT case, b FROM t`): no
            // CASE expression continues so. (The second look would read it so too, but for a
            // few such words in a statement only, and the nesting guard would count each as
            // an open CASE.)
            Ok(Tok::Case)
                if self
                    .inner
                    .clone()
                    .next()
                    .is_some_and(|next| next.is_ok_and(follows_a_name_only)) =>
            {
                Tok::KeywordName(&self.inner.source()[span.clone()])
            }
            Ok(Tok::Param(text)) if text.starts_with('{') => {
                self.placeholders
                    .push(Span::from_usize(span.start, span.end));
                Tok::Param(text)
            }
            // A pattern, not a test in a guard of every token: that costs 3% of parse time.
            Ok(join_word!()) if self.after == After::PivotEnd && self.opens_join_next() => {
                Tok::StrictKeywordName(&self.inner.source()[span.clone()])
            }
            Ok(Tok::Plus) if self.interval_sign() => Tok::IntervalSign(Sign::Plus),
            Ok(Tok::Dash) if self.interval_sign() => Tok::IntervalSign(Sign::Minus),
            // Identifiers are the commonest token: the cheap context test goes first.
            Ok(Tok::Ident(word))
                if self.after == After::TablesampleParen && word.eq_ignore_ascii_case("bucket") =>
            {
                Tok::Bucket
            }
            Ok(Tok::Ident(word))
                if matches!(self.after, After::Interval | After::IntervalValue)
                    && is_interval_unit(word)
                    || self.after == After::IntervalType && is_type_unit(word) =>
            {
                Tok::IntervalUnit(word)
            }
            // `IDENTIFIER('name')` is a name, like a back-quoted one (see `IdentStyle::Literal`);
            // with any other argument, IDENTIFIER( ) is a call.
            Ok(Tok::Ident(word)) if word.len() == 10 && word.eq_ignore_ascii_case("identifier") => {
                match self.identifier_literal() {
                    Some(end) => {
                        span.end = end;
                        Tok::QuotedIdent(&self.inner.source()[span.clone()])
                    }
                    None if self.names_a_call() => Tok::IdentifierCall(word),
                    None => Tok::Ident(word),
                }
            }
            Ok(tok) => tok,
            Err(error) => Tok::Error(error),
        };
        let mut closed = None;
        match tok {
            Tok::LParen => {
                self.parens += 1;
                match self.after {
                    After::Position => self.brackets.push((self.parens, Bracket::Position)),
                    After::Pivot => self.brackets.push((self.parens, Bracket::Pivot)),
                    _ => {}
                }
            }
            Tok::RParen => {
                if self.brackets.last().is_some_and(|b| b.0 == self.parens) {
                    closed = self.brackets.pop().map(|b| b.1);
                }
                self.parens = self.parens.saturating_sub(1);
            }
            Tok::Lt if self.after == After::Struct || self.struct_angles > 0 => {
                self.struct_angles += 1;
            }
            Tok::Gt if self.struct_angles > 0 => self.struct_angles -= 1,
            // A broken statement must not leave its brackets open for the next one.
            Tok::Semicolon => {
                self.parens = 0;
                self.brackets.clear();
                self.struct_angles = 0;
            }
            _ => {}
        }
        self.pair = match tok {
            Tok::Row | Tok::With | Tok::Ident(_) => pair_opened_by(tok, self.after),
            _ => None,
        };
        self.after = match tok {
            Tok::Ident(word) if word.len() == 8 && word.eq_ignore_ascii_case("position") => {
                After::Position
            }
            Tok::Star => After::Star,
            Tok::Struct => After::Struct,
            Tok::Like | Tok::Ilike => After::Like,
            Tok::Tablesample => After::Tablesample,
            Tok::LParen if self.after == After::Tablesample => After::TablesampleParen,
            Tok::In => After::In,
            Tok::LParen if self.after == After::In => After::InParen,
            Tok::DoubleColon => After::DoubleColon,
            Tok::Interval if self.after == After::DoubleColon => After::IntervalType,
            Tok::Interval => After::Interval,
            Tok::IntervalSign(_) => After::Interval,
            Tok::Number(_) | Tok::String(_) | Tok::RawString(_)
                if matches!(self.after, After::Interval | After::IntervalUnit) =>
            {
                After::IntervalValue
            }
            // A string after a string of the value joins it (`INTERVAL '1' '0' DAY`).
            Tok::String(_) | Tok::RawString(_) if self.after == After::IntervalValue => {
                After::IntervalValue
            }
            Tok::IntervalUnit(_) => After::IntervalUnit,
            Tok::Gt => After::AngleClose,
            Tok::Number(_) | Tok::HexString(_) => After::Number,
            Tok::Dash
                if !matches!(
                    self.after,
                    After::Operand | After::CloseParen | After::Number
                ) =>
            {
                self.clause_dash |= self.after == After::ClauseWord;
                After::UnaryMinus
            }
            Tok::Where | Tok::Having | Tok::Qualify | Tok::Limit | Tok::Offset => After::ClauseWord,
            // A SELECT that starts a query (after `(`, UNION, `;`, ...) opens no clause.
            Tok::Select if self.after != After::Other => After::ClauseWord,
            Tok::UnitTo => After::IntervalValue,
            Tok::RParen if closed == Some(Bracket::Pivot) => After::PivotEnd,
            Tok::RParen => After::CloseParen,
            Tok::Pivot | Tok::Unpivot => After::Pivot,
            // `UNPIVOT INCLUDE NULLS (`.
            Tok::Include | Tok::Exclude | Tok::Nulls if self.after == After::Pivot => After::Pivot,
            Tok::Ignore if self.after == After::CloseParen => After::IgnoreAfterParen,
            Tok::Over | Tok::Collate => {
                self.clause_dash |= self.name_then_dash();
                After::Other
            }
            Tok::Ident(_)
            | Tok::QuotedIdent(_)
            | Tok::DotDigitName(_)
            | Tok::String(_)
            | Tok::RawString(_)
            | Tok::Null
            | Tok::Date
            | Tok::Timestamp
            | Tok::TimestampNtz
            | Tok::TimestampLtz => After::Operand,
            _ => After::Other,
        };
        Some((span.start, tok, span.end))
    }
}

impl<'a> Iterator for Lexer<'a> {
    type Item = SpannedTok<'a>;

    fn next(&mut self) -> Option<SpannedTok<'a>> {
        let token = self.take()?;
        if let Some(pair) = self.pair.take() {
            return Some(self.pair(token, pair));
        }
        match token.1 {
            Tok::Ignore => Some(self.ignore_nulls(token)),
            _ => Some(token),
        }
    }
}

/// Lexes all of `source` (a convenience for tools and benches).
pub fn tokenize(source: &str) -> Vec<SpannedTok<'_>> {
    Lexer::new(source).collect()
}

/// Whether `tok` may follow a name but can neither start a CASE expression's operand nor be its
/// WHEN.
fn follows_a_name_only(tok: Tok<'_>) -> bool {
    matches!(
        tok,
        Tok::Comma
            | Tok::RParen
            | Tok::RBracket
            | Tok::Dot
            | Tok::Semicolon
            | Tok::From
            | Tok::As
            | Tok::Eq
            | Tok::And
            | Tok::Or
            | Tok::Is
            | Tok::In
            | Tok::Where
            | Tok::Group
            | Tok::Order
            | Tok::Having
            | Tok::Limit
            | Tok::Union
            | Tok::Join
            | Tok::On
    )
}
