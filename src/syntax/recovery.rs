//! Where a broken statement ends when its `;` is missing: at a line that starts another
//! pipeline statement (`CREATE ...`, `APPLY CHANGES`, `SET`, `USE`). The statement-by-statement
//! pass cuts a piece of text that does not parse there, so that one broken statement, or one
//! missing `;`, costs one statement instead of every statement up to the next `;`.

use crate::lexer::{SpannedTok, Tok};

/// The indices of the tokens of `tokens` (one piece of text between two `;`) that start a
/// line and a pipeline statement, after the first token.
pub(crate) fn statement_starts(source: &str, tokens: &[SpannedTok<'_>]) -> Vec<usize> {
    (1..tokens.len())
        .filter(|&i| starts_line(source, tokens, i) && starts_statement(tokens, i))
        .collect()
}

/// Whether the token at `i` is the first of its line.
fn starts_line(source: &str, tokens: &[SpannedTok<'_>], i: usize) -> bool {
    source[tokens[i - 1].2..tokens[i].0].contains('\n')
}

/// Whether the tokens at `i` begin a pipeline statement: CREATE and the word of what it
/// creates, APPLY CHANGES, or SET or USE and a name (a column named `create` or `set` is
/// followed by none of these).
fn starts_statement(tokens: &[SpannedTok<'_>], i: usize) -> bool {
    let next = tokens.get(i + 1).map(|t| t.1);
    match tokens[i].1 {
        Tok::Create => {
            matches!(
                next,
                Some(
                    Tok::Or
                        | Tok::Streaming
                        | Tok::Materialized
                        | Tok::Temporary
                        | Tok::Live
                        | Tok::Table
                        | Tok::View
                        | Tok::Flow
                        | Tok::Private
                )
            ) || matches!(next, Some(Tok::Ident(word)) if word.eq_ignore_ascii_case("incremental"))
        }
        Tok::Apply => next == Some(Tok::Changes),
        Tok::Set | Tok::Use => match next {
            Some(Tok::Ident(_) | Tok::QuotedIdent(_) | Tok::Param(_)) => true,
            Some(tok) => tok.keyword().is_some(),
            None => false,
        },
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::statement_starts;
    use crate::lexer::tokenize;

    fn starts(sql: &str) -> Vec<String> {
        let tokens = tokenize(sql);
        statement_starts(sql, &tokens)
            .into_iter()
            .map(|i| sql[tokens[i].0..tokens[i].2].to_string())
            .collect()
    }

    #[test]
    fn statements_start_at_lines_that_begin_with_their_words() {
        let sql = "CREATE MATERIALIZED VIEW a AS SELECT 1\nCREATE OR REFRESH STREAMING TABLE b\n\
                   APPLY CHANGES INTO b FROM STREAM(c) KEYS (id) SEQUENCE BY ts\nSET x = 1\nUSE CATALOG main";
        assert_eq!(starts(sql), ["CREATE", "APPLY", "SET", "USE"]);
    }

    #[test]
    fn words_inside_a_statement_start_none() {
        // A column named `create` at a line's start, CREATE after a word on its line, and the
        // AUTO CDC clause APPLY AS DELETE.
        let sql = "SELECT a,\ncreate FROM t WHERE x CREATE TABLE\n\
                   CREATE FLOW f AS AUTO CDC INTO t FROM STREAM(s) KEYS (id)\nAPPLY AS DELETE WHEN op = 'D'\nSEQUENCE BY ts";
        assert_eq!(starts(sql), ["CREATE"]);
    }
}
