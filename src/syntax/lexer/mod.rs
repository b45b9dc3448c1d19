//! The lexer: source text to tokens, with [logos].
//!
//! It never aborts. Input it cannot make sense of becomes a [`Tok::Error`] token that carries
//! a [`LexError`]; the parser turns that token into a diagnostic and carries on with the next
//! statement. Identifiers, strings and numbers borrow their text from the source, so lexing
//! allocates nothing.

use logos::{FilterResult, Logos};
use std::fmt;

include!(concat!(env!("OUT_DIR"), "/keyword_tokens.rs"));

mod context;

pub(crate) use context::{
    integer_suffix, is_interval_unit, name_parts, singular_unit, INTERVAL_TYPE_UNITS,
};
pub use context::{tokenize, Lexer};

/// The sign before a number in an interval's value (see [`Tok::IntervalSign`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sign {
    /// `+`
    Plus,
    /// `-`
    Minus,
}

/// Why a piece of input is not a token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LexError {
    /// A character that starts no token.
    #[default]
    InvalidCharacter,
    /// A `'` or `"` string without its closing quote.
    UnterminatedString,
    /// A back-quoted identifier without its closing back-quote.
    UnterminatedQuotedIdentifier,
    /// A `/*` comment without its `*/`.
    UnclosedComment,
    /// A `${` of a pipeline parameter without its closing `}`.
    UnclosedParameter,
}

impl LexError {
    /// A sentence saying what is wrong.
    pub fn message(self) -> &'static str {
        match self {
            LexError::InvalidCharacter => "this character does not start any token",
            LexError::UnterminatedString => {
                "the string literal is not terminated: its closing quote is missing"
            }
            LexError::UnterminatedQuotedIdentifier => {
                "the back-quoted identifier is not terminated: its closing ` is missing"
            }
            LexError::UnclosedComment => "the bracketed comment is not closed: `*/` is missing",
            LexError::UnclosedParameter => {
                "the pipeline parameter is not closed: its closing } is missing"
            }
        }
    }
}

/// Skips a bracketed comment, which may nest (`/* a /* b */ c */`) as in Spark.
fn block_comment<'a>(lex: &mut logos::Lexer<'a, Tok<'a>>) -> FilterResult<(), LexError> {
    let rest = lex.remainder().as_bytes();
    match block_comment_length(rest) {
        Some(length) => {
            lex.bump(length);
            FilterResult::Skip
        }
        None => {
            lex.bump(rest.len());
            FilterResult::Error(LexError::UnclosedComment)
        }
    }
}

/// How many bytes of `rest` (what follows a `/*`) the bracketed comment takes, its closing
/// `*/` included; `None` when it is not closed. Comments nest.
pub(crate) fn block_comment_length(rest: &[u8]) -> Option<usize> {
    let mut depth = 1usize;
    let mut i = 0;
    while i < rest.len() {
        match (rest[i], rest.get(i + 1)) {
            (b'/', Some(b'*')) => {
                depth += 1;
                i += 2;
            }
            (b'*', Some(b'/')) => {
                depth -= 1;
                i += 2;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => i += 1,
        }
    }
    None
}

// The keywords' variants come from the keyword table (`src/syntax/keywords.rs`), through the
// macro that `build.rs` writes from it.
tok_with_keywords! {
/// A token. Keywords are unit variants; everything with text borrows it from the source.
///
/// Only words that the grammar uses are keywords; any other word is an [`Tok::Ident`].
/// Most keywords are non-reserved and the grammar accepts them as identifiers too.
#[derive(Logos, Debug, Clone, Copy, PartialEq, Eq)]
#[logos(error = LexError)]
// A byte-order mark (U+FEFF) is white space: editors on Windows start files with one.
#[logos(skip r"[ \t\r\n\f\u{FEFF}]+")]
#[logos(skip(r"--[^\n]*", allow_greedy = true))]
// A word-sized tag fills what would be padding (the size stays 24 bytes), and the compiler's
// copies of a token get cheaper: with it, parsing the benches' corpus took about 10% less time
// (measured, the two builds alternated).
#[repr(u64)]
pub enum Tok<'a> {
    /// `/* ... */`, skipped; only reported when unclosed.
    #[token("/*", block_comment)]
    BlockComment,
    /// `/*+`: the start of optimizer hints, which the grammar reads up to `*/` (as in Spark, a
    /// hint comment is no comment, and stands only right after SELECT).
    #[token("/*+")]
    HintStart,

    /// The word `BUCKET` right after `TABLESAMPLE (`; anywhere else it is an identifier.
    Bucket,
    /// A plain identifier: `[A-Za-z_][A-Za-z0-9_]*`, or digits and then such a word (`7d_avg`),
    /// as in Spark, whose identifiers may start with a digit. A number that the same letters
    /// end (`10L`, `1e5`, `2BD`) stays a number: the longest match wins, and on a tie the number.
    #[regex(r"[A-Za-z_][A-Za-z0-9_]*", |lex| lex.slice())]
    #[regex(r"[0-9]+[A-Za-z_][A-Za-z0-9_]*", |lex| lex.slice(), priority = 1)]
    Ident(&'a str),
    /// A back-quoted identifier, quotes included: `` `my col` ``; also `IDENTIFIER('name')`,
    /// which the lexer reads as one name.
    #[regex(r"`([^`]|``)*`", |lex| lex.slice())]
    #[regex(r"`([^`]|``)*", |_| Err(LexError::UnterminatedQuotedIdentifier))]
    QuotedIdent(&'a str),
    /// A pipeline parameter placeholder: `${name}` or `${a.b.c}`; or a template's
    /// placeholder, which a job substitutes before the pipeline sees the file: `{name}`,
    /// `{{ name }}`.
    #[regex(r"\$\{[A-Za-z_][A-Za-z0-9_.]*\}", |lex| lex.slice())]
    #[regex(r"\$\{[A-Za-z0-9_.]*", |_| Err(LexError::UnclosedParameter))]
    #[regex(r"\{[A-Za-z_][A-Za-z0-9_.]*\}", |lex| lex.slice())]
    #[regex(r"\{\{ *[A-Za-z_][A-Za-z0-9_.]* *\}\}", |lex| lex.slice())]
    Param(&'a str),
    /// A string literal, quotes included: `'text'` or `"text"`.
    #[regex(r#"'([^'\\]|\\(.|\n))*'"#, |lex| lex.slice())]
    #[regex(r#""([^"\\]|\\(.|\n))*""#, |lex| lex.slice())]
    #[regex(r#"'([^'\\]|\\(.|\n))*"#, |_| Err(LexError::UnterminatedString))]
    #[regex(r#""([^"\\]|\\(.|\n))*"#, |_| Err(LexError::UnterminatedString))]
    String(&'a str),
    /// A raw string, prefix and quotes included: `r'C:\dir'`.
    #[regex(r#"[rR]'[^']*'"#, |lex| lex.slice())]
    #[regex(r#"[rR]"[^"]*""#, |lex| lex.slice())]
    RawString(&'a str),
    /// A hex string, prefix and quotes included: `X'1F'`.
    #[regex(r#"[xX]'[^']*'"#, |lex| lex.slice())]
    HexString(&'a str),
    /// A number with an optional exponent and Spark type suffix: `12`, `1.5e3`, `10L`, `2.5BD`.
    #[regex(r"[0-9]+[lLsSyY]", |lex| lex.slice())]
    // `1.5Y` is one (rejected) number, as in Spark, not `1.5` with an alias `Y`.
    #[regex(r"[0-9]*\.[0-9]+[lLsSyY]", |lex| lex.slice())]
    #[regex(r"[0-9]+(\.[0-9]*)?([eE][+-]?[0-9]+)?([dDfF]|[bB][dD])?", |lex| lex.slice())]
    #[regex(r"\.[0-9]+([eE][+-]?[0-9]+)?([dDfF]|[bB][dD])?", |lex| lex.slice())]
    Number(&'a str),
    /// A named parameter marker: `:name`.
    #[regex(r":[A-Za-z_][A-Za-z0-9_]*", |lex| lex.slice())]
    NamedMarker(&'a str),
    /// Delta time travel written after a table name: `@v12` or `@v'12'` (a version) or
    /// `@20240101000000000` (a timestamp, yyyyMMddHHmmssSSS); Spark allows spaces after `@` and
    /// `@v`.
    #[regex(r"@[vV]?[ \t\r\n]*[0-9]+", |lex| lex.slice())]
    #[regex(r"@[vV][ \t\r\n]*'[^'\\]*'", |lex| lex.slice())]
    AtVersion(&'a str),
    /// `.` and a name that starts with a digit, as one token: `t.7d_avg`. Spark reads `.7` as a
    /// number only when no letter follows it, and this keeps `.7` from being one here.
    #[regex(r"\.[0-9]+[A-Za-z_][A-Za-z0-9_]*", |lex| lex.slice(), priority = 1)]
    DotDigitName(&'a str),
    /// A positional parameter marker: `?`.
    #[token("?")]
    QuestionMarker,

    /// `(`
    #[token("(")]
    LParen,
    /// `)`
    #[token(")")]
    RParen,
    /// `[`
    #[token("[")]
    LBracket,
    /// `]`
    #[token("]")]
    RBracket,
    /// `,`
    #[token(",")]
    Comma,
    /// `.`
    #[token(".")]
    Dot,
    /// `;`
    #[token(";")]
    Semicolon,
    /// `*`
    #[token("*")]
    Star,
    /// `+`
    #[token("+")]
    Plus,
    /// `-`
    #[token("-")]
    Dash,
    /// `/`
    #[token("/")]
    Slash,
    /// `%`
    #[token("%")]
    Percent,
    /// `~`
    #[token("~")]
    Tilde,
    /// `&`
    #[token("&")]
    Ampersand,
    /// `|`
    #[token("|")]
    Pipe,
    /// `^`
    #[token("^")]
    Caret,
    /// `||`
    #[token("||")]
    Concat,
    /// `|>`: the pipe of Spark's pipe syntax; also `|` before a word that starts a pipe
    /// operation (`| WHERE a > 1`), as Spark reads it wherever it stands.
    #[token("|>")]
    PipeOperator,
    /// `=`
    #[token("=")]
    Eq,
    /// `==`
    #[token("==")]
    EqEq,
    /// `<>`
    #[token("<>")]
    LtGt,
    /// `!=`
    #[token("!=")]
    NotEq,
    /// `<`
    #[token("<")]
    Lt,
    /// `<=`, also written `!>` (not greater).
    #[token("<=")]
    #[token("!>")]
    LtEq,
    /// `>`; `>>` is two of these so that `ARRAY<ARRAY<INT>>` closes two types.
    #[token(">")]
    Gt,
    /// `>=`, also written `!<` (not less).
    #[token(">=")]
    #[token("!<")]
    GtEq,
    /// `<=>`
    #[token("<=>")]
    Spaceship,
    /// `<<`
    #[token("<<")]
    ShiftLeft,
    /// `::`
    #[token("::")]
    DoubleColon,
    /// `:`
    #[token(":")]
    Colon,
    /// `=>`
    #[token("=>")]
    FatArrow,
    /// `->`
    #[token("->")]
    Arrow,
    /// `!`
    #[token("!")]
    Bang,

    /// `EXCEPT` right after `*` and before `(` and a name: the column exclusion of
    /// `* EXCEPT (a, b)`, told apart from the set operation (`SELECT * EXCEPT SELECT 1`,
    /// `SELECT * EXCEPT (SELECT 1)`) by the lexer so that the grammar stays LALR(1).
    ExceptAfterStar,
    /// `ANY` right after LIKE or ILIKE: the quantifier of `LIKE ANY (...)`, told apart from a
    /// call of the function `any` that a pattern could start with.
    LikeAny,
    /// `SOME` right after LIKE or ILIKE (a synonym of ANY there).
    LikeSome,
    /// `ALL` right after LIKE or ILIKE.
    LikeAll,
    /// A unit word of an interval (`DAY`, `HOURS`, ...) where an interval's unit stands: after
    /// INTERVAL, after an interval's value, after TO. Elsewhere the same word is a name, and
    /// `INTERVAL '1 day'` needs no unit: one token of look-ahead cannot tell `INTERVAL '1' day`
    /// (a unit) from `INTERVAL '1 day' day` (an alias) without this.
    IntervalUnit(&'a str),
    /// `+` or `-` that signs a value of an interval: `INTERVAL -3 DAYS`, and `INTERVAL 1 DAY - 3
    /// HOURS`, one interval in Spark, whose grammar reads on while a sign, a value and a unit
    /// follow. The lexer looks at the two tokens after the sign to tell this from an addition
    /// (`INTERVAL 1 DAY - 3`, `INTERVAL 1 DAY + 3 AS x`).
    IntervalSign(Sign),
    /// `TO` after an interval's unit: `INTERVAL '1-2' YEAR TO MONTH`, told apart from a TO that
    /// follows an expression ending in an interval (`CHANGES FROM TIMESTAMP ... TO ...`).
    UnitTo,
    /// The word IDENTIFIER when `(expression)` and then `(` follow: `IDENTIFIER('my' || 'func')(x)`
    /// calls the function that the expression names, told apart from a call of a function
    /// named IDENTIFIER followed by a select item's column names.
    IdentifierCall(&'a str),
    /// VALUES right after `IN (` and before `(`: Spark reads `x IN (VALUES (1), (2))` as a list
    /// of values whose first is a call of a function VALUES, not as an inline table.
    ValuesAfterIn,
    /// `IN` directly inside `position(`: the separator of `position(substr IN str)`, told apart
    /// from the predicate `x IN (list)`, which the first argument could otherwise end with.
    PositionIn,
    /// `IGNORE NULLS` as one token: after a call it needs two words of look-ahead to be told
    /// apart from the `IGNORE NULL UPDATES` clause of AUTO CDC.
    IgnoreNulls,
    /// `IGNORE NULLS )`: the end of `first(x IGNORE NULLS)`, told apart from a call's
    /// `f(x) IGNORE NULLS` suffix. The two would be ambiguous in `first(f(x) IGNORE NULLS)`,
    /// which Spark reads as the suffix of `f(x)`: after `)` the lexer keeps the words and the
    /// `)` apart, and a second look joins them where no call ends there (`first((x) IGNORE NULLS)`).
    IgnoreNullsParen,
    /// `ROW FORMAT` as one token: it opens a row format of `SELECT TRANSFORM`, where a lone
    /// `row` after the call would be an implicit alias (`SELECT transform(a, f) row`).
    RowFormat,
    /// `BIN BY` as one token: it opens a BIN BY clause after a relation, where a lone `bin`
    /// would be the relation's alias.
    BinBy,
    /// `IDENTIFIED BY` as one token: it names a streaming source, where a lone `identified`
    /// would be the source's alias.
    IdentifiedBy,
    /// `EXACT NEAREST` after a joined relation: it opens a nearest-by join, where a lone
    /// `exact` would be the relation's alias.
    ExactNearest,
    /// `APPROX NEAREST`, as [`Tok::ExactNearest`].
    ApproxNearest,
    /// `WITH LOCAL` after an operand: it opens `TIMESTAMP WITH LOCAL TIME ZONE`, where a lone
    /// `local` would be an alias.
    WithLocal,
    /// `WITHOUT TIME` after an operand: it opens `TIMESTAMP WITHOUT TIME ZONE`, where a lone
    /// `without` would be an alias.
    WithoutTime,
    /// A keyword read as a name. The lexer never produces it: when a statement does not parse,
    /// the parser tries the keywords before the error as names (see `parser::keyword_names`),
    /// as Spark, which takes almost every keyword as a name, would.
    KeywordName(&'a str),
    /// One of the keywords that Spark takes as a name but never as a relation's alias
    /// (`JOIN`, `LEFT`, `UNION`, ...: its `strictNonReserved`), read as a name.
    StrictKeywordName(&'a str),
    /// `128Y`, `32768S` or `9223372036854775808L` right after a minus that is a sign: in range
    /// only as the magnitude of the type's smallest value. Spark reads the sign as part of the
    /// number, so `-128Y` is a TINYINT and `1 - 128Y` is out of range.
    NegatedBound(&'a str),
    /// WINDOW that opens a query's own WINDOW clause where a SELECT's would close the SELECT
    /// first: after another WINDOW clause or after QUALIFY (`... QUALIFY r = 1 WINDOW w AS
    /// (...)`). Like [`Tok::AliasListParen`], only a second look produces it.
    QueryWindow,
    /// `(` that opens the column names of a select item without AS: `inline(pairs) (k, v)`,
    /// `f(x) (a)`. Like [`Tok::KeywordName`], only a second look at a statement that does not
    /// parse produces it: after a name, `(` opens a call, and one token of look-ahead cannot
    /// tell which kind of expression has just ended.
    AliasListParen,
    /// After the rows of an inline table without an alias in a join (`t JOIN VALUES (1), (2) ON
    /// ...`, `FROM VALUES (1), (2) JOIN t`): a comma after a row adds a row, as in Spark, so
    /// only the error after the rows shows where they end. Only a second look produces it.
    ValuesEnd,
    /// A name with dashes, `my-col` or `WHERE - b` read as one name where Spark reads an alias
    /// so (and then refuses it). Only the look for such names produces it (see
    /// `src/syntax/second_look/dashed_names.rs`), and only to ask whether the statement parses with it.
    DashedName,
    /// The word MAP or REDUCE opening Hive's script transform without parentheses (`MAP a, b
    /// USING 'script' ...`, Spark's TRANSFORM by another name). Only a second look produces it:
    /// elsewhere MAP is a type or a function, and REDUCE a function.
    MapReduce(&'a str),
    /// Before and after the ORDER BY, LIMIT ... of a SELECT body after FROM, when more of the
    /// query follows (`FROM t SELECT a ORDER BY a SELECT b`, `... LIMIT 1 UNION ...`): Spark
    /// gives them to the body there, not to the whole query. It covers no text. Only a second
    /// look inserts it, as only what comes after them shows whose they are.
    BodyClauses,
    /// Input that is not a token; the parser reports it.
    Error(LexError),
}
}

impl Tok<'_> {
    /// Whether the token is a name, a literal or a comma: a token that opens no level of the
    /// tree (see `syntax::depth`).
    #[inline]
    pub(crate) fn is_leaf(&self) -> bool {
        matches!(
            self,
            Tok::Ident(_)
                | Tok::QuotedIdent(_)
                | Tok::KeywordName(_)
                | Tok::StrictKeywordName(_)
                | Tok::Param(_)
                | Tok::String(_)
                | Tok::RawString(_)
                | Tok::HexString(_)
                | Tok::Number(_)
                | Tok::Comma
        )
    }

    /// How the token is named in "expected ..." messages and in `Display`.
    pub fn describe(&self) -> &'static str {
        match self {
            Tok::BlockComment => "comment",
            Tok::Bucket => "BUCKET",
            Tok::Ident(_)
            | Tok::QuotedIdent(_)
            | Tok::KeywordName(_)
            | Tok::StrictKeywordName(_) => "identifier",
            Tok::DotDigitName(_) => "'.' and a name",
            Tok::NegatedBound(_) => "number",
            Tok::AliasListParen => "(",
            Tok::DashedName => "identifier",
            Tok::ValuesEnd => "the end of VALUES",
            Tok::QueryWindow => "WINDOW",
            Tok::MapReduce(_) => "MAP or REDUCE",
            Tok::BodyClauses => "the end of a SELECT body",
            Tok::Param(_) => "parameter",
            Tok::String(_) | Tok::RawString(_) | Tok::HexString(_) => "string literal",
            Tok::Number(_) => "number",
            Tok::NamedMarker(_) | Tok::QuestionMarker => "parameter marker",
            Tok::AtVersion(_) => "time travel suffix",
            Tok::LParen => "'('",
            Tok::RParen => "')'",
            Tok::LBracket => "'['",
            Tok::RBracket => "']'",
            Tok::Comma => "','",
            Tok::Dot => "'.'",
            Tok::HintStart => "'/*+'",
            Tok::Semicolon => "';'",
            Tok::Star => "'*'",
            Tok::Plus => "'+'",
            Tok::Dash => "'-'",
            Tok::Slash => "'/'",
            Tok::Percent => "'%'",
            Tok::Tilde => "'~'",
            Tok::Ampersand => "'&'",
            Tok::Pipe => "'|'",
            Tok::Caret => "'^'",
            Tok::Concat => "'||'",
            Tok::Eq => "'='",
            Tok::EqEq => "'=='",
            Tok::LtGt => "'<>'",
            Tok::NotEq => "'!='",
            Tok::Lt => "'<'",
            Tok::LtEq => "'<='",
            Tok::Gt => "'>'",
            Tok::GtEq => "'>='",
            Tok::Spaceship => "'<=>'",
            Tok::ShiftLeft => "'<<'",
            Tok::DoubleColon => "'::'",
            Tok::Colon => "':'",
            Tok::FatArrow => "'=>'",
            Tok::Arrow => "'->'",
            Tok::Bang => "'!'",
            Tok::ExceptAfterStar => "EXCEPT",
            Tok::IgnoreNulls => "IGNORE NULLS",
            Tok::PipeOperator => "'|>'",
            Tok::LikeAny => "ANY",
            Tok::LikeSome => "SOME",
            Tok::LikeAll => "ALL",
            Tok::PositionIn => "IN",
            Tok::ValuesAfterIn => "VALUES",
            Tok::IdentifierCall(_) => "IDENTIFIER",
            Tok::UnitTo => "TO",
            Tok::IntervalSign(Sign::Minus) => "-",
            Tok::IntervalSign(_) => "+",
            Tok::IntervalUnit(_) => "interval unit",
            Tok::IgnoreNullsParen => "IGNORE NULLS",
            Tok::RowFormat => "ROW FORMAT",
            Tok::BinBy => "BIN BY",
            Tok::IdentifiedBy => "IDENTIFIED BY",
            Tok::ExactNearest => "EXACT NEAREST",
            Tok::ApproxNearest => "APPROX NEAREST",
            Tok::WithLocal => "WITH LOCAL",
            Tok::WithoutTime => "WITHOUT TIME",
            Tok::Error(_) => "invalid input",
            // Every other token is a keyword of the keyword table.
            keyword => keyword.keyword().unwrap_or_default(),
        }
    }
}

impl fmt::Display for Tok<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// A token with its byte offsets, in the triple form LALRPOP consumes.
pub type SpannedTok<'a> = (usize, Tok<'a>, usize);

#[cfg(test)]
mod tests {
    use super::*;

    /// Each word of the table lexes, in any case and in each spelling, as its own variant,
    /// which messages name by the word.
    #[test]
    fn every_word_lexes_as_its_row_says() {
        for keyword in crate::syntax::keywords::KEYWORDS
            .iter()
            .filter(|k| k.is_word())
        {
            for spelling in std::iter::once(keyword.word).chain(keyword.or) {
                for text in [spelling.to_string(), spelling.to_ascii_uppercase()] {
                    let tokens: Vec<_> = Lexer::new(&text).collect();
                    assert_eq!(tokens.len(), 1, "{text}");
                    let token = tokens[0].1;
                    assert_eq!(format!("{token:?}"), keyword.variant, "{text}");
                    assert_eq!(token.describe(), keyword.word.to_ascii_uppercase());
                }
            }
        }
    }

    fn toks(s: &str) -> Vec<Tok<'_>> {
        tokenize(s).into_iter().map(|t| t.1).collect()
    }

    #[test]
    fn a_byte_order_mark_is_white_space() {
        let tokens = tokenize("\u{FEFF}SELECT 1");
        assert_eq!(tokens[0], (3, Tok::Select, 9));
        assert_eq!(tokens.len(), 2);
    }

    #[test]
    fn keywords_ignore_case_and_words_keep_spelling() {
        assert_eq!(
            toks("Select flowName"),
            vec![Tok::Select, Tok::Ident("flowName")]
        );
    }

    #[test]
    fn names_may_start_with_digits_where_no_number_is_as_long() {
        assert_eq!(
            toks("7d_avg 10L 1e5 2BD 1e5x t.1a .5"),
            vec![
                Tok::Ident("7d_avg"),
                Tok::Number("10L"),
                Tok::Number("1e5"),
                Tok::Number("2BD"),
                Tok::Ident("1e5x"),
                Tok::Ident("t"),
                Tok::DotDigitName(".1a"),
                Tok::Number(".5"),
            ]
        );
    }

    #[test]
    fn a_struct_field_type_after_a_colon_is_no_parameter_marker() {
        assert_eq!(
            toks("STRUCT<a:INT, b:ARRAY<STRUCT<c:STRING>>>"),
            toks("STRUCT<a: INT, b: ARRAY<STRUCT<c: STRING>>>")
        );
        // Outside the type, `:q` is a marker again, and `v:a` a JSON path.
        assert_eq!(
            toks("x::STRUCT<a:INT> + :q, v:a")[8..],
            [
                Tok::Plus,
                Tok::NamedMarker(":q"),
                Tok::Comma,
                Tok::Ident("v"),
                Tok::NamedMarker(":a")
            ]
        );
    }

    #[test]
    fn nested_block_comments_are_skipped() {
        assert_eq!(
            toks("a /* x /* y */ z */ b"),
            vec![Tok::Ident("a"), Tok::Ident("b")]
        );
    }

    #[test]
    fn unclosed_comment_is_an_error_token() {
        assert_eq!(
            toks("a /* x /* y */"),
            vec![Tok::Ident("a"), Tok::Error(LexError::UnclosedComment)]
        );
    }

    #[test]
    fn an_unclosed_parameter_is_one_error_token() {
        assert_eq!(
            toks("${catalog.orders x"),
            vec![Tok::Error(LexError::UnclosedParameter), Tok::Ident("x")]
        );
        // Placeholders of the engine and of templates.
        assert_eq!(
            toks("${a.b} {s} {{ c }}"),
            vec![
                Tok::Param("${a.b}"),
                Tok::Param("{s}"),
                Tok::Param("{{ c }}")
            ]
        );
    }

    #[test]
    fn strings_of_every_kind() {
        assert_eq!(
            toks(r#"'it\'s' "dq" r'C:\x' X'1F' 'open"#),
            vec![
                Tok::String(r"'it\'s'"),
                Tok::String("\"dq\""),
                Tok::RawString(r"r'C:\x'"),
                Tok::HexString("X'1F'"),
                Tok::Error(LexError::UnterminatedString),
            ]
        );
    }

    #[test]
    fn numbers_with_suffixes() {
        assert_eq!(
            toks("1 2.5 .5 1e10 10L 3S 4Y 1.5D 2F 9.99BD"),
            ["1", "2.5", ".5", "1e10", "10L", "3S", "4Y", "1.5D", "2F", "9.99BD"].map(Tok::Number)
        );
    }

    #[test]
    fn a_decimal_followed_by_a_word_character_is_split_at_its_dot() {
        assert_eq!(
            toks("1.5abc 5.x 1.5BDx .5e-5y 5.D"),
            vec![
                Tok::Number("1"),
                Tok::DotDigitName(".5abc"),
                Tok::Number("5"),
                Tok::Dot,
                Tok::Ident("x"),
                Tok::Number("1"),
                Tok::DotDigitName(".5BDx"),
                Tok::Dot,
                Tok::Number("5e-5"),
                Tok::Ident("y"),
                Tok::Number("5.D"),
            ]
        );
        let spans: Vec<_> = tokenize("1.5a").into_iter().map(|t| (t.0, t.2)).collect();
        assert_eq!(spans, [(0, 1), (1, 4)]);
    }

    #[test]
    fn identifiers_parameters_and_markers() {
        assert_eq!(
            toks("`a``b` ${catalog} ${a.b.c} :name ? x::int"),
            vec![
                Tok::QuotedIdent("`a``b`"),
                Tok::Param("${catalog}"),
                Tok::Param("${a.b.c}"),
                Tok::NamedMarker(":name"),
                Tok::QuestionMarker,
                Tok::Ident("x"),
                Tok::DoubleColon,
                Tok::Ident("int"),
            ]
        );
    }

    #[test]
    fn except_after_star_is_told_apart() {
        assert_eq!(
            toks("* EXCEPT (a) EXCEPT"),
            vec![
                Tok::Star,
                Tok::ExceptAfterStar,
                Tok::LParen,
                Tok::Ident("a"),
                Tok::RParen,
                Tok::Except
            ]
        );
        // Before a query, in brackets or not, EXCEPT after `*` is the set operation.
        assert_eq!(
            toks("* EXCEPT SELECT 1"),
            vec![Tok::Star, Tok::Except, Tok::Select, Tok::Number("1")]
        );
        assert_eq!(
            toks("* EXCEPT (VALUES"),
            vec![Tok::Star, Tok::Except, Tok::LParen, Tok::Values]
        );
        // A query's first word alone is a column.
        assert_eq!(
            toks("* EXCEPT (select)"),
            vec![
                Tok::Star,
                Tok::ExceptAfterStar,
                Tok::LParen,
                Tok::Select,
                Tok::RParen
            ]
        );
    }

    /// ROW FORMAT after an operand is one token with the span of both words; ROW before
    /// anything else stays ROW, and the word after it is not lost. Where an operand starts,
    /// `row format` is a column named `row` and its alias.
    #[test]
    fn row_format_is_one_token_after_an_operand() {
        let tokens = tokenize(") ROW  Format row x CURRENT ROW");
        assert_eq!(tokens[1], (2, Tok::RowFormat, 13));
        assert_eq!(
            tokens.iter().map(|t| t.1).skip(2).collect::<Vec<_>>(),
            vec![Tok::Row, Tok::Ident("x"), Tok::Current, Tok::Row]
        );
        assert_eq!(
            toks("SELECT row format, t.row format"),
            vec![
                Tok::Select,
                Tok::Row,
                Tok::Ident("format"),
                Tok::Comma,
                Tok::Ident("t"),
                Tok::Dot,
                Tok::Row,
                Tok::Ident("format")
            ]
        );
    }

    #[test]
    fn clause_opening_word_pairs_are_one_token() {
        let tokens = tokenize("t Bin  by (x) IDENTIFIED BY s");
        assert_eq!(tokens[1], (2, Tok::BinBy, 9));
        assert_eq!(tokens[5], (14, Tok::IdentifiedBy, 27));
        assert_eq!(
            toks("u Exact Nearest 2 BY x APPROX nearest"),
            vec![
                Tok::Ident("u"),
                Tok::ExactNearest,
                Tok::Number("2"),
                Tok::By,
                Tok::Ident("x"),
                Tok::ApproxNearest
            ]
        );
        // Without the pair's second word, or (for NEAREST) without an operand before it, the
        // first word is a name.
        assert_eq!(
            toks("SELECT exact nearest, bin, identified FROM t exact"),
            vec![
                Tok::Select,
                Tok::Ident("exact"),
                Tok::Ident("nearest"),
                Tok::Comma,
                Tok::Ident("bin"),
                Tok::Comma,
                Tok::Ident("identified"),
                Tok::From,
                Tok::Ident("t"),
                Tok::Ident("exact")
            ]
        );
    }

    #[test]
    fn to_after_an_interval_unit_is_the_units_separator() {
        assert_eq!(
            toks("INTERVAL '1-2' YEAR TO MONTH RANGE a TO b"),
            vec![
                Tok::Interval,
                Tok::String("'1-2'"),
                Tok::IntervalUnit("YEAR"),
                Tok::UnitTo,
                Tok::IntervalUnit("MONTH"),
                Tok::Range,
                Tok::Ident("a"),
                Tok::To,
                Tok::Ident("b")
            ]
        );
    }

    /// Only an IN directly inside `position(` separates its arguments; one in a nested
    /// bracket, after the call, or after a broken statement is the predicate.
    #[test]
    fn in_directly_inside_position_is_told_apart() {
        use Tok::{Ident, In, LParen, PositionIn, RParen, Semicolon};
        assert_eq!(
            toks("Position(a IN f(b IN c)) IN (d)"),
            vec![
                Ident("Position"),
                LParen,
                Ident("a"),
                PositionIn,
                Ident("f"),
                LParen,
                Ident("b"),
                In,
                Ident("c"),
                RParen,
                RParen,
                In,
                LParen,
                Ident("d"),
                RParen
            ]
        );
        assert_eq!(
            toks("position(( ; a IN b"),
            vec![
                Ident("position"),
                LParen,
                LParen,
                Semicolon,
                Ident("a"),
                In,
                Ident("b")
            ]
        );
    }

    /// IGNORE NULLS and `)` are one token but after `)`, where IGNORE NULLS may end a call.
    #[test]
    fn ignore_nulls_before_a_bracket_joins_it_unless_a_call_may_end_before() {
        use Tok::{Ident, IgnoreNulls, IgnoreNullsParen, LParen, RParen};
        assert_eq!(
            toks("first(a IGNORE NULLS)"),
            vec![Tok::First, LParen, Ident("a"), IgnoreNullsParen]
        );
        assert_eq!(
            toks("first(f(a) ignore /* c */ nulls)"),
            vec![
                Tok::First,
                LParen,
                Ident("f"),
                LParen,
                Ident("a"),
                RParen,
                IgnoreNulls,
                RParen
            ]
        );
        assert_eq!(
            toks("f(a) IGNORE NULLS OVER"),
            vec![
                Ident("f"),
                LParen,
                Ident("a"),
                RParen,
                IgnoreNulls,
                Tok::Over
            ]
        );
    }

    /// After the `)` of PIVOT or UNPIVOT, a word that opens a join is a name when a join opens
    /// after it; elsewhere, and after any other `)`, it stays a keyword.
    #[test]
    fn a_join_word_after_pivot_before_a_join_is_a_name() {
        fn after_pivot(sql: &str) -> Vec<Tok<'_>> {
            let tokens = toks(sql);
            let close = tokens.iter().rposition(|t| *t == Tok::RParen).unwrap();
            tokens[close + 1..].to_vec()
        }
        assert_eq!(
            after_pivot("PIVOT (f(a) FOR b IN (c)) Left JOIN"),
            vec![Tok::StrictKeywordName("Left"), Tok::Join]
        );
        assert_eq!(
            after_pivot("UNPIVOT INCLUDE NULLS (a FOR b IN (c)) natural LEFT JOIN"),
            vec![Tok::StrictKeywordName("natural"), Tok::Left, Tok::Join]
        );
        assert_eq!(
            after_pivot("PIVOT (f(a) FOR b IN (c)) FULL OUTER JOIN"),
            vec![Tok::Full, Tok::Outer, Tok::Join]
        );
        assert_eq!(
            after_pivot("(position(a IN b) IN (c)) LEFT JOIN"),
            vec![Tok::Left, Tok::Join]
        );
    }

    /// `|` before a word that starts a pipe operation is the pipe, in any case and after a
    /// comment; before anything else, and `|>` itself, as they were.
    #[test]
    fn a_bar_before_a_pipe_word_is_the_pipe() {
        use Tok::{Ident, Pipe, PipeOperator, Where};
        assert_eq!(
            toks("a | where | /* c */ Where | b |> where"),
            vec![
                Ident("a"),
                PipeOperator,
                Where,
                PipeOperator,
                Where,
                Pipe,
                Ident("b"),
                PipeOperator,
                Where
            ]
        );
        assert_eq!(
            toks("a | asof | BIN | binary"),
            vec![
                Ident("a"),
                PipeOperator,
                Ident("asof"),
                PipeOperator,
                Ident("BIN"),
                Pipe,
                Ident("binary")
            ]
        );
    }

    /// The word-sized tag of a token fills padding: a token stays three words, and a spanned
    /// one (or none) five.
    #[test]
    fn a_token_stays_three_words() {
        assert_eq!(std::mem::size_of::<Tok<'_>>(), 24);
        assert_eq!(std::mem::size_of::<Option<SpannedTok<'_>>>(), 40);
    }

    #[test]
    fn invalid_characters_do_not_stop_lexing() {
        assert_eq!(
            toks("a § b"),
            vec![
                Tok::Ident("a"),
                Tok::Error(LexError::InvalidCharacter),
                Tok::Ident("b")
            ]
        );
    }
}
