//! Names with dashes, which Spark reads as one name where an alias stands and then refuses
//! (INVALID_IDENTIFIER): `SELECT a AS my-col`.
//!
//! Spark's parser looks as far ahead as it needs, and to it WHERE, LIMIT and the other words
//! that open a clause are names too. So in `SELECT a WHERE - b` it finds two readings that both
//! parse: a WHERE clause, and `a` with the alias `WHERE-b`. Of two such readings it takes the
//! alias, and refuses it. Where the rest of the statement only parses as a clause
//! (`SELECT a WHERE - b + 1`) the clause stands. So a statement that parses, and has such a
//! clause word before `- name`, is tried once more with the words read as one name (a
//! [`Tok::DashedName`], which the grammar takes only where Spark's alias takes one); if that
//! reading parses too, the statement is refused. A statement with a syntax error at `-` between
//! two names is tried the same way, for a message that says what is wrong.

use crate::arena::Arena;
use crate::diagnostic::{Code, Diagnostic};
use crate::lexer::{SpannedTok, Tok};
use crate::span::Span;
use crate::syntax::actions::base::UserError;
use crate::syntax::grammar::ScriptParser;

/// Whether `tok` opens a clause that Spark may also read as the first word of an alias with
/// dashes, when `- name` follows it right after a select item or a PIVOT. (The lexer tells the
/// one-pass parse when one of these is followed by `-`: see `Lexer::saw_clause_dash`.)
fn opens_clause(tok: Tok<'_>) -> bool {
    matches!(
        tok,
        Tok::Where | Tok::Having | Tok::Qualify | Tok::Limit | Tok::Offset | Tok::Select
    )
}

/// A refusal of a statement that parses, when Spark reads a clause word and `- name` in it as
/// an alias with dashes (see the module's comment), a window's name and `- name` after OVER
/// as the window's name (`sum(a) OVER w - b`), or a collation's name and `- name` after COLLATE
/// as the collation's name (`x COLLATE UTF8_LCASE - b`); `None` if it does not.
pub(crate) fn clause_read_as_alias(
    parser: &ScriptParser,
    source: &str,
    tokens: &[SpannedTok<'_>],
) -> Option<Diagnostic> {
    (0..tokens.len())
        .filter(|&i| tokens.get(i + 1).is_some_and(|t| t.1 == Tok::Dash))
        .find_map(|i| {
            let named_by = match (i.checked_sub(1).map(|j| tokens[j].1), tokens[i].1) {
                (Some(Tok::Over), Tok::Ident(_)) => Some(("window", "call and its window")),
                (Some(Tok::Collate), Tok::Ident(_)) => Some(("collation", "value and its collation")),
                _ if opens_clause(tokens[i].1) => None,
                _ => return None,
            };
            let span = parses_as_one_name(parser, source, tokens, i)?;
            let name = &source[span.start as usize..span.end as usize];
            let word = &source[tokens[i].0..tokens[i].2];
            let value = source[tokens[i + 1].2..span.end as usize].trim();
            let dashed = dashed(name);
            let (what, help) = if let Some((kind, whole)) = named_by {
                let keyword = source[tokens[i - 1].0..tokens[i - 1].2].to_uppercase();
                (
                    format!("the {kind} name `{dashed}`"),
                    format!("for a subtraction, put the {whole} in brackets: `(... {keyword} {word}) - {value}`"),
                )
            } else {
                (
                    format!("the alias `{dashed}` of what comes before it"),
                    format!(
                        "for the {} clause with a negated value, put the value in brackets: `{word} (-{value})`",
                        word.to_uppercase(),
                    ),
                )
            };
            let message = format!(
                "Spark reads `{name}` here as {what}, and refuses an unquoted name with `-` in it (INVALID_IDENTIFIER)"
            );
            Some(Diagnostic::error(Code::ParseSyntaxError, span, message).with_help(help))
        })
}

/// The refusal of a name with dashes where an alias stands (`SELECT a AS my-col`), for a
/// statement whose syntax error is at the `-` at `error_at`; `None` when the statement has
/// another error too, or the error is no such name.
pub(crate) fn alias_with_dashes_at(
    parser: &ScriptParser,
    source: &str,
    tokens: &[SpannedTok<'_>],
    error_at: usize,
) -> Option<UserError> {
    let dash = tokens
        .iter()
        .position(|t| t.0 == error_at && t.1 == Tok::Dash)?;
    let first = dash
        .checked_sub(1)
        .filter(|&i| is_name(source, tokens[i]))?;
    let span = parses_as_one_name(parser, source, tokens, first)?;
    let name = &source[span.start as usize..span.end as usize];
    Some(UserError {
        span,
        message: format!(
            "`{name}` is read as one name, and an unquoted name cannot have `-` in it \
             (Spark: INVALID_IDENTIFIER): write it in back-quotes, `{}`",
            dashed(name)
        ),
    })
}

/// Where the words from `tokens[start]` on, `word - name - name ...`, are one name, if the
/// statement parses when read so.
fn parses_as_one_name(
    parser: &ScriptParser,
    source: &str,
    tokens: &[SpannedTok<'_>],
    start: usize,
) -> Option<Span> {
    let mut end = start + 1;
    while tokens.get(end).is_some_and(|t| t.1 == Tok::Dash)
        && tokens.get(end + 1).is_some_and(|&t| is_name(source, t))
    {
        end += 2;
    }
    if end == start + 1 {
        return None;
    }
    let (l, r) = (tokens[start].0, tokens[end - 1].2);
    let reading = tokens[..start]
        .iter()
        .copied()
        .chain([(l, Tok::DashedName, r)])
        .chain(tokens[end..].iter().copied());
    let scratch = Arena::new();
    let parses = parser
        .parse(source, &scratch, reading.map(Ok::<_, UserError>))
        .is_ok_and(|statements| statements.len() == 1);
    parses.then(|| Span::from_usize(l, r))
}

/// Whether Spark takes the token as a name after `-` in a name with dashes: a name, quoted or
/// not, any keyword, or a string in double quotes (which the reading of a name with dashes
/// takes for a quoted name, though an alias alone cannot be one: `a AS "b"` is refused).
fn is_name(source: &str, (l, tok, r): SpannedTok<'_>) -> bool {
    match tok {
        Tok::Ident(_) | Tok::QuotedIdent(_) => true,
        Tok::String(text) => text.starts_with('"'),
        _ => crate::syntax::keywords::is_word(&source[l..r]),
    }
}

/// The name as Spark spells it: the words without the spaces around the dashes.
fn dashed(text: &str) -> String {
    let parts: Vec<&str> = text.split('-').map(str::trim).collect();
    parts.join("-")
}

#[cfg(test)]
mod tests {
    use crate::syntax::read;

    #[test]
    fn a_clause_word_and_minus_name_after_a_select_item_is_an_alias_to_spark() {
        for sql in [
            "SELECT a WHERE - b",
            "SELECT a, b HAVING - c - d ORDER BY 1",
            "FROM t SELECT a SELECT - b",
            // A string in double quotes is a name after the dash (not one in single quotes).
            "SELECT a, b HAVING - \"c\"",
            "SELECT * FROM (SELECT a HAVING - `b c`) x",
            "SELECT a FROM t PIVOT (sum(a) FOR b IN (1)) WHERE - year",
            // In a file of valid statements too, which the one-pass parse reads.
            "SELECT 1; SELECT a QUALIFY - b; SELECT 2",
        ] {
            let message = read(sql).expect_err(sql);
            assert!(message.starts_with("Spark reads `"), "{sql}: {message}");
            assert!(message.contains("(INVALID_IDENTIFIER)"), "{sql}: {message}");
        }
        assert_eq!(
            read("SELECT a LIMIT - b - c"),
            Err(
                "Spark reads `LIMIT - b - c` here as the alias `LIMIT-b-c` of what comes before \
                 it, and refuses an unquoted name with `-` in it (INVALID_IDENTIFIER)"
                    .into()
            )
        );
    }

    #[test]
    fn a_window_name_and_minus_name_is_one_name_to_spark() {
        let message = read("SELECT sum(a) OVER w - b FROM t WINDOW w AS ()").unwrap_err();
        assert_eq!(
            message,
            "Spark reads `w - b` here as the window name `w-b`, and refuses an unquoted name \
             with `-` in it (INVALID_IDENTIFIER)"
        );
        // Where that reading does not parse, or no name follows, it is a subtraction (printed
        // with the window's name in brackets, which keeps it one).
        for (sql, printed) in [
            (
                "SELECT sum(a) OVER w - b(1) FROM t WINDOW w AS ()",
                "SELECT sum(a) OVER (w) - b(1) FROM t WINDOW w AS ()",
            ),
            (
                "SELECT sum(a) OVER w - 1 FROM t WINDOW w AS ()",
                "SELECT sum(a) OVER (w) - 1 FROM t WINDOW w AS ()",
            ),
            (
                "SELECT (sum(a) OVER w) - b FROM t WINDOW w AS ()",
                "SELECT (sum(a) OVER (w)) - b FROM t WINDOW w AS ()",
            ),
        ] {
            assert_eq!(read(sql), Ok(printed.to_string()), "{sql}");
        }
    }

    #[test]
    fn a_collation_name_and_minus_name_is_one_name_to_spark() {
        assert_eq!(
            read("SELECT x COLLATE UTF8_LCASE - b FROM t"),
            Err(
                "Spark reads `UTF8_LCASE - b` here as the collation name `UTF8_LCASE-b`, and \
                 refuses an unquoted name with `-` in it (INVALID_IDENTIFIER)"
                    .into()
            )
        );
        assert!(read("SELECT x COLLATE UNICODE_CI -t.a").is_err());
        // A number after the minus, or brackets around the collated value: a subtraction.
        for (sql, printed) in [
            (
                "SELECT x COLLATE UTF8_LCASE - 1",
                "SELECT x COLLATE UTF8_LCASE - 1",
            ),
            (
                "SELECT (x COLLATE UTF8_LCASE) - b",
                "SELECT (x COLLATE UTF8_LCASE) - b",
            ),
        ] {
            assert_eq!(read(sql), Ok(printed.to_string()), "{sql}");
        }
    }

    #[test]
    fn a_clause_word_stays_one_where_the_alias_reading_does_not_parse() {
        for (sql, printed) in [
            ("SELECT a WHERE - b + 1", "SELECT a WHERE -b + 1"),
            ("SELECT a WHERE - b.c", "SELECT a WHERE -b.c"),
            ("SELECT a WHERE (- b)", "SELECT a WHERE (-b)"),
            ("SELECT a WHERE - 1", "SELECT a WHERE -1"),
            ("SELECT a WHERE - 'q'", "SELECT a WHERE -'q'"),
            ("SELECT a x WHERE - b", "SELECT a AS x WHERE -b"),
            ("SELECT a FROM t WHERE - b", "SELECT a FROM t WHERE -b"),
            ("SELECT -a FROM t LIMIT - b", "SELECT -a FROM t LIMIT -b"),
            (
                "TABLE t |> AGGREGATE sum(a) GROUP BY c LIMIT - b",
                "TABLE t |> AGGREGATE sum(a) GROUP BY c LIMIT -b",
            ),
        ] {
            assert_eq!(read(sql), Ok(printed.to_string()), "{sql}");
        }
    }

    #[test]
    fn an_alias_with_dashes_is_refused_with_the_name_back_quoted() {
        assert_eq!(
            read("SELECT a AS my - col FROM t"),
            Err(
                "`my - col` is read as one name, and an unquoted name cannot have `-` in it \
                 (Spark: INVALID_IDENTIFIER): write it in back-quotes, `my-col`"
                    .into()
            )
        );
        let message = read("SELECT a FROM t PIVOT (sum(a) FOR b IN (1)) AS p-q").unwrap_err();
        assert!(
            message.starts_with("`p-q` is read as one name"),
            "{message}"
        );
        // Another error after the name keeps the syntax error.
        let message = read("SELECT a b-c FROM FROM").unwrap_err();
        assert!(message.starts_with("syntax error at `-`"), "{message}");
    }
}
