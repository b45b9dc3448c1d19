//! Keywords read as names, `(` read as the start of a select item's names, WINDOW as the
//! query's own clause, and MAP or REDUCE as Hive's script transform, on a second look.
//!
//! Spark takes almost every keyword as a name (its reserved words are enforced only in a mode
//! that is off by default), and its parser looks as far ahead as it needs to choose: in
//! `SELECT a FROM t where` the last word is the alias of `t`, and in `SELECT case FROM t` the
//! first is a column. An LALR(1) parser decides on one token, and there it decides for the
//! keyword. So when a statement does not parse, the keywords just before the error are tried
//! as names, and where one moves the error, the keywords between the old and the new error as
//! well; the first reading that parses is the statement. Where none does, the reading (of any of
//! the looks below) that failed farthest into the statement is kept, and the search starts again
//! from its error, for keywords far apart. Valid input never comes here, so this costs nothing on
//! the fast path.
//!
//! The same holds for `inline(pairs) (k, v)`: Spark names a select item's columns in
//! parentheses without AS, and after a name `(` opens a call. So an error at a `(` that follows
//! no name is tried first as the start of such a list. And for a WINDOW clause after QUALIFY or
//! after another WINDOW clause, which is the query's own (Spark's `queryOrganization`): one token
//! of look-ahead cannot tell where the SELECT ends, so an error at WINDOW is tried as that clause.
//! And for Hive's `MAP a, b USING 'script'` (or REDUCE), where a query starts: MAP is also a type
//! and a function, REDUCE a function, and `FROM t MAP a` first reads MAP as the alias of `t`.
//! So the last two of these words at or before an error are tried as the transform's word.
//! And for the ORDER BY, LIMIT ... of a SELECT body after FROM, which Spark gives to the body
//! when another body, a set operator or `|>` follows (`FROM t SELECT a LIMIT 1 SELECT b`), and to
//! the whole query otherwise: only the error after them shows which.

use crate::arena::Arena;
use crate::ast::Statement;
use crate::lexer::{SpannedTok, Tok};
use crate::syntax::actions::base::UserError;
use crate::syntax::grammar::ScriptParser;
use crate::syntax::keywords;
use lalrpop_util::ParseError;
use std::ops::RangeInclusive;

/// How many keywords before an error are tried as names.
const CANDIDATES: usize = 4;

/// How many keywords one reading may take as names. With [`CANDIDATES`], a statement with a
/// syntax error is parsed at most 4 + 4 × 4 more times in each step (see [`MAX_STEPS`]), and
/// once more for the reading that parses (a second name is tried only between where the first
/// one moved the error and where it was, so mostly far fewer).
const MAX_NAMES: usize = 2;

/// How many times the search may keep the reading that moved the error farthest and go on
/// from there.
const MAX_STEPS: usize = 8;

/// Parses `tokens` again with keywords before `error_at` (a source offset) read as names, and
/// returns the first statement that parses. When none does, the error is a check's refusal of
/// Hive's MAP or REDUCE, if the statement is one (`MAP DISTINCT a USING ...`): what the words
/// meant is clear then, and the check says more than the syntax error at MAP.
pub(crate) fn reparse<'a>(
    parser: &ScriptParser,
    arena: &'a Arena,
    source: &'a str,
    tokens: &[SpannedTok<'a>],
    error_at: usize,
) -> Result<Statement<'a>, Option<UserError>> {
    let mut reading = tokens.to_vec();
    let mut search = Search {
        parser,
        arena,
        source,
        end: tokens.last().map_or(0, |t| t.2),
        refusal: None,
        farthest: None,
        parsed: None,
        before_marks: Vec::new(),
    };
    let mut error_at = error_at;
    let mut steps = 0;
    while !search.alias_list_at(&mut reading, error_at)
        && !search.query_window_at(&mut reading, error_at)
        && !search.body_clauses_before(&mut reading, error_at)
        && !search.values_end_at(&mut reading, error_at)
        && !search.ignore_nulls_inside_at(&mut reading, error_at)
        && !search.map_reduce_before(&mut reading, error_at)
        && !search.names_within(&mut reading, 0..=error_at, MAX_NAMES)
    {
        // Keywords far apart (`SELECT a leading, b trailing, c both FROM t`), or a name after
        // a body's own clauses: the reading that moved the error farthest is kept, and the
        // search goes on from there.
        match search.farthest.take() {
            Some((at, farthest)) if at > error_at && steps < MAX_STEPS => {
                reading = farthest;
                error_at = at;
                steps += 1;
            }
            _ => return Err(search.refusal),
        }
    }
    search.parsed.take().ok_or(None)
}

struct Search<'p, 'a> {
    parser: &'p ScriptParser,
    /// The caller's arena, where every attempt is built: the one that parses is the statement,
    /// and what the others built stays there until the arena is released (a few trees the
    /// size of the statement; building the statement again instead cost a quarter of a
    /// keyword's second look).
    arena: &'a Arena,
    source: &'a str,
    /// Where the statement ends: a reading that fails at its end fails there (not at the end of
    /// the source, which may hold more statements).
    end: usize,
    /// A check's refusal of a reading as MAP or REDUCE.
    refusal: Option<UserError>,
    /// Of the readings tried that failed, the one that failed farthest into the statement:
    /// where, and its tokens.
    farthest: Option<(usize, Vec<SpannedTok<'a>>)>,
    /// The statement of the reading that parsed.
    parsed: Option<Statement<'a>>,
    /// The tokens before the marks of a `mark_until_parsed`, kept to restore them (one buffer
    /// for the whole search: most searches try several marks, and most marks fit nowhere).
    before_marks: Vec<SpannedTok<'a>>,
}

/// How an attempt ended: parsed, failed at a source offset (`None`: at no token), or refused
/// by a check.
enum Attempt {
    Parsed,
    FailedAt(Option<usize>),
    Refused(UserError),
}

impl<'a> Search<'_, 'a> {
    /// Tries the `(` at `error_at`, when it cannot open a call (see [`may_open_call`]), as the
    /// start of a select item's names (`f(x) (a, b)`), with keywords up to the next error as
    /// names, and so on while the next error is another such `(`. On success `tokens` holds the
    /// reading that parses.
    fn alias_list_at(&mut self, tokens: &mut Vec<SpannedTok<'a>>, error_at: usize) -> bool {
        self.mark_until_parsed(tokens, error_at, |tokens, at| {
            let i = tokens.iter().position(|t| t.0 == at)?;
            if tokens[i].1 != Tok::LParen || may_open_call(tokens, i) {
                return None;
            }
            tokens[i].1 = Tok::AliasListParen;
            Some(tokens[i].0)
        })
    }

    /// Tries the WINDOW at `error_at` as the start of the query's own WINDOW clause (see
    /// [`Tok::QueryWindow`]). On success `tokens` holds the reading that parses.
    fn query_window_at(&mut self, tokens: &mut [SpannedTok<'a>], error_at: usize) -> bool {
        let Some(i) = tokens
            .iter()
            .position(|t| t.0 == error_at && t.1 == Tok::Window)
        else {
            return false;
        };
        matches!(
            self.attempt_as(tokens, i, Tok::QueryWindow),
            Attempt::Parsed
        )
    }

    /// Where the error is at what may follow a SELECT body after FROM (another body, a set
    /// operator, `|>` or the query's own ORDER BY ...), tries the ORDER BY, LIMIT ... before it
    /// as that body's own (see [`Tok::BodyClauses`]), and so on while the next error is another
    /// such place. On success `tokens` holds the reading that parses.
    fn body_clauses_before(&mut self, tokens: &mut Vec<SpannedTok<'a>>, error_at: usize) -> bool {
        self.mark_until_parsed(tokens, error_at, |tokens, at| {
            let i = tokens
                .iter()
                .position(|t| t.0 == at && t.1 != Tok::BodyClauses)?;
            // The query's own clauses may follow the body's, too (`... LIMIT 1 LIMIT 2`).
            let follows_a_body = matches!(
                tokens[i].1,
                Tok::Select
                    | Tok::Union
                    | Tok::Intersect
                    | Tok::Except
                    | Tok::Minus
                    | Tok::PipeOperator
                    | Tok::Window
            ) || is_clause_start(tokens[i].1);
            let start = follows_a_body
                .then(|| body_clauses_start(tokens, i))
                .flatten()?;
            let (begin, end) = (tokens[start].0, tokens[i].0);
            // After a body's own clauses, WINDOW opens the query's own clause.
            if tokens[i].1 == Tok::Window {
                tokens[i].1 = Tok::QueryWindow;
            }
            tokens.insert(i, (end, Tok::BodyClauses, end));
            tokens.insert(start, (begin, Tok::BodyClauses, begin));
            Some(end)
        })
    }

    /// Where the error follows the rows of an inline table without an alias (`t JOIN VALUES
    /// (1), (2) ON ...`), tries the rows as ending there (see [`Tok::ValuesEnd`]), and so on
    /// while the next error follows another such table. On success `tokens` holds the reading
    /// that parses.
    ///
    /// Where that fails, the rows are tried as ending before the last one, which is then the
    /// next relation: in `FROM VALUES (1), (2), t TABLESAMPLE (5 PERCENT)`, `t` is a table, and
    /// so is `(t JOIN u)` in `FROM VALUES (1), (2), (t JOIN u)`, with the error inside.
    fn values_end_at(&mut self, tokens: &mut Vec<SpannedTok<'a>>, error_at: usize) -> bool {
        [false, true].into_iter().any(|before_last_row| {
            self.mark_until_parsed(tokens, error_at, |tokens, at| {
                let i = match tokens.iter().position(|t| t.0 == at) {
                    None if at >= tokens.last().map_or(0, |t| t.2) => tokens.len(),
                    found => found?,
                };
                let last_comma = rows_before(tokens, i).or_else(|| {
                    let open = unclosed_bracket_before(tokens, i).filter(|_| before_last_row)?;
                    rows_before(tokens, open)
                })?;
                let end_at = if before_last_row { last_comma? } else { i };
                let end = tokens[end_at - 1].2;
                tokens.insert(end_at, (end, Tok::ValuesEnd, end));
                Some(end)
            })
        })
    }

    /// Where the error is at `IGNORE NULLS` before `)`, which the lexer keeps apart after a `)`
    /// (see [`Tok::IgnoreNullsParen`]), tries them as the end of `first((x) IGNORE NULLS)`, and
    /// so on while the next error is another such place. On success `tokens` holds the reading
    /// that parses.
    fn ignore_nulls_inside_at(
        &mut self,
        tokens: &mut Vec<SpannedTok<'a>>,
        error_at: usize,
    ) -> bool {
        self.mark_until_parsed(tokens, error_at, |tokens, at| {
            let i = tokens.iter().position(|t| t.0 == at)?;
            let (l, Tok::IgnoreNulls, _) = tokens[i] else {
                return None;
            };
            let (_, Tok::RParen, r) = *tokens.get(i + 1)? else {
                return None;
            };
            tokens.splice(i..i + 2, [(l, Tok::IgnoreNullsParen, r)]);
            Some(r)
        })
    }

    /// Marks `tokens` for the error at `error_at` with `mark`, which returns where its marks
    /// end (`None`: nothing to mark there, and nothing changed), and tries the reading; while
    /// that fails past the marks, tries keywords from there to the new error as names, then
    /// marks again for the new error. Unless a reading parses, `tokens` is restored (the marks
    /// of earlier steps of the search stay).
    fn mark_until_parsed(
        &mut self,
        tokens: &mut Vec<SpannedTok<'a>>,
        error_at: usize,
        mut mark: impl FnMut(&mut Vec<SpannedTok<'a>>, usize) -> Option<usize>,
    ) -> bool {
        self.before_marks.clone_from(tokens);
        let mut at = Some(error_at);
        while let Some(end) = at.and_then(|at| mark(tokens, at)) {
            at = match self.attempt(tokens) {
                Attempt::Parsed => return true,
                // A keyword after the marks may be a name in the new reading: `(null x)` is a
                // table in `FROM VALUES (1), (2), (null x)` once the rows end before it, and
                // `select` a name in `f(x) (select)`.
                Attempt::FailedAt(Some(next)) if next > end => {
                    if self.names_within(tokens, end..=next, MAX_NAMES) {
                        return true;
                    }
                    Some(next)
                }
                Attempt::FailedAt(_) | Attempt::Refused(_) => None,
            };
        }
        tokens.clone_from(&self.before_marks);
        false
    }

    /// Tries the last two MAP or REDUCE words at or before `error_at` (two for `FROM t MAP
    /// map(a) USING ...`) as the word of Hive's script transform (see [`Tok::MapReduce`]). On
    /// success `tokens` holds the reading that parses.
    fn map_reduce_before(&mut self, tokens: &mut [SpannedTok<'a>], error_at: usize) -> bool {
        let is_word = |tok: Tok<'_>| match tok {
            Tok::Map => true,
            Tok::Ident(word) => word.eq_ignore_ascii_case("reduce"),
            _ => false,
        };
        let candidates: Vec<usize> = (0..tokens.len())
            .rev()
            .filter(|&i| tokens[i].0 <= error_at && is_word(tokens[i].1))
            .take(2)
            .collect();
        for i in candidates {
            let word = &self.source[tokens[i].0..tokens[i].2];
            match self.attempt_as(tokens, i, Tok::MapReduce(word)) {
                Attempt::Parsed => return true,
                Attempt::Refused(refusal) => {
                    self.refusal.get_or_insert(refusal);
                }
                Attempt::FailedAt(_) => {}
            }
        }
        false
    }

    /// An attempt with the token at `i` read as `tok`; the token is restored unless it parses.
    fn attempt_as(&mut self, tokens: &mut [SpannedTok<'a>], i: usize, tok: Tok<'a>) -> Attempt {
        let was = std::mem::replace(&mut tokens[i].1, tok);
        let attempt = self.attempt(tokens);
        if !matches!(attempt, Attempt::Parsed) {
            tokens[i].1 = was;
        }
        attempt
    }

    /// Tries each of the last keywords of `tokens` that start in `within` (source offsets) as
    /// a name. While `names` allows, a reading that fails elsewhere is tried further with
    /// the keywords between the two errors: the words whose reading the name has changed.
    /// On success `tokens` holds the reading that parses.
    fn names_within(
        &mut self,
        tokens: &mut [SpannedTok<'a>],
        within: RangeInclusive<usize>,
        names: usize,
    ) -> bool {
        let candidates: Vec<(usize, Tok<'a>)> = (0..tokens.len())
            .rev()
            .filter(|&i| within.contains(&tokens[i].0))
            .filter(|&i| !negates_typed_literal(self.source, tokens, i))
            .filter(|&i| !as_before_semi_or_anti(tokens, i))
            .filter(|&i| !opens_inline_table(tokens, i))
            .filter_map(|i| Some((i, as_name(self.source, tokens[i])?)))
            .take(CANDIDATES)
            .collect();
        let error_at = *within.end();
        for (i, name) in candidates {
            let keyword = tokens[i].1;
            let next = tokens.get(i + 1).map(|t| t.1);
            tokens[i].1 = name;
            // The lexer read the word after INTERVAL as its unit; after a name it is a name.
            if let (Tok::Interval, Some(Tok::IntervalUnit(word))) = (keyword, next) {
                tokens[i + 1].1 = Tok::Ident(word);
            }
            let found = match self.attempt(tokens) {
                Attempt::Parsed => true,
                Attempt::FailedAt(Some(at)) => {
                    // At the same place, the name may still have changed what the error is
                    // (`SELECT exists join FROM t`: a column `exists` needs no `(`).
                    let between = at.min(error_at)..=at.max(error_at);
                    names > 1 && self.names_within(tokens, between, names - 1)
                }
                Attempt::FailedAt(None) | Attempt::Refused(_) => false,
            };
            if found {
                return true;
            }
            tokens[i].1 = keyword;
            if let Some(next) = next {
                tokens[i + 1].1 = next;
            }
        }
        false
    }

    fn attempt(&mut self, tokens: &[SpannedTok<'a>]) -> Attempt {
        let spanned = tokens.iter().map(|&t| Ok::<_, UserError>(t));
        let attempt = match self.parser.parse(self.source, self.arena, spanned) {
            Ok(mut statements) if statements.len() == 1 => {
                self.parsed = Some(statements.swap_remove(0));
                Attempt::Parsed
            }
            Ok(_) => Attempt::FailedAt(None),
            Err(ParseError::User { error }) => Attempt::Refused(error),
            Err(error) => Attempt::FailedAt(super::error_offset(&error, self.end)),
        };
        if let Attempt::FailedAt(Some(at)) = attempt {
            if !matches!(self.farthest, Some((farthest, _)) if farthest >= at) {
                self.farthest = Some((at, tokens.to_vec()));
            }
        }
        attempt
    }
}

/// Whether the tokens before `i` end with VALUES and its rows: VALUES, then bracketed rows or
/// other values separated by commas, all brackets closed before `i`. If so, where the comma
/// before the last row is (`None`: one row).
fn rows_before(tokens: &[SpannedTok<'_>], i: usize) -> Option<Option<usize>> {
    let mut depth = 0usize;
    let mut last_comma = None;
    for j in (0..i).rev() {
        match tokens[j].1 {
            Tok::RParen | Tok::RBracket => depth += 1,
            Tok::LParen | Tok::LBracket if depth == 0 => return None,
            Tok::LParen | Tok::LBracket => depth -= 1,
            Tok::Comma if depth == 0 => {
                last_comma.get_or_insert(j);
            }
            Tok::Values if depth == 0 => return (j + 1 < i).then_some(last_comma),
            Tok::Semicolon | Tok::ValuesEnd | Tok::Select | Tok::From | Tok::Join if depth == 0 => {
                return None
            }
            _ => {}
        }
    }
    None
}

/// Where the innermost bracket that is open at `i` opens.
fn unclosed_bracket_before(tokens: &[SpannedTok<'_>], i: usize) -> Option<usize> {
    let mut depth = 0usize;
    for j in (0..i).rev() {
        match tokens[j].1 {
            Tok::RParen | Tok::RBracket => depth += 1,
            Tok::LParen | Tok::LBracket if depth == 0 => return Some(j),
            Tok::LParen | Tok::LBracket => depth -= 1,
            _ => {}
        }
    }
    None
}

/// Whether the `(` at `i` may open a call: it follows a name, or names joined by dots, that a
/// function may have (`f (`, `db.f (`). Not a field of a value that is no name (`f(a).b (`,
/// `v:a.b (`, `(s).x (`), a parameter marker's name (`: p (`) or a window's (`OVER w (`).
fn may_open_call(tokens: &[SpannedTok<'_>], i: usize) -> bool {
    let is_name = |j: usize| {
        matches!(
            tokens[j].1,
            Tok::Ident(_) | Tok::QuotedIdent(_) | Tok::KeywordName(_) | Tok::StrictKeywordName(_)
        )
    };
    let Some(mut head) = i.checked_sub(1).filter(|&j| is_name(j)) else {
        return false;
    };
    while head >= 2 && tokens[head - 1].1 == Tok::Dot && is_name(head - 2) {
        head -= 2;
    }
    !(head > 0 && matches!(tokens[head - 1].1, Tok::Dot | Tok::Colon | Tok::Over))
}

/// Where the ORDER BY, LIMIT ... just before the token at `i` begin, at its bracket depth and
/// after the SELECT that starts their body; `None` where there are none.
fn body_clauses_start(tokens: &[SpannedTok<'_>], i: usize) -> Option<usize> {
    let mut depth = 0u32;
    let mut start = None;
    for j in (0..i).rev() {
        match tokens[j].1 {
            Tok::RParen => depth += 1,
            Tok::LParen if depth == 0 => break,
            Tok::LParen => depth -= 1,
            Tok::Select | Tok::Semicolon | Tok::BodyClauses if depth == 0 => break,
            tok if depth == 0 && is_clause_start(tok) => start = Some(j),
            _ => {}
        }
    }
    start
}

/// Whether `tok` opens one of a query's ORDER BY, CLUSTER BY, DISTRIBUTE BY, SORT BY, WINDOW
/// (after another clause), LIMIT and OFFSET.
fn is_clause_start(tok: Tok<'_>) -> bool {
    matches!(
        tok,
        Tok::Order
            | Tok::Cluster
            | Tok::Distribute
            | Tok::Sort
            | Tok::QueryWindow
            | Tok::Limit
            | Tok::Offset
    )
}

/// The name token for a keyword token; `None` for a token that is no keyword (a name, a
/// literal, punctuation, or a pair of words that the lexer joins, such as `ROW FORMAT`).
fn as_name<'a>(source: &'a str, (l, tok, r): SpannedTok<'a>) -> Option<Tok<'a>> {
    let text = &source[l..r];
    // The marks of the second looks (`Tok::ValuesEnd`, ...) cover no text, and are no words.
    if text.is_empty()
        || !crate::syntax::keywords::is_word(text)
        || matches!(
            tok,
            Tok::Ident(_) | Tok::KeywordName(_) | Tok::StrictKeywordName(_)
        )
    {
        return None;
    }
    // The token's row of the keyword table says it at once; a word that the lexer read in
    // context (`IN` of POSITION, an interval's unit) is looked up by its text.
    let strict = tok
        .keyword_row()
        .map_or_else(|| keywords::is_strict(text), |k| k.strict);
    Some(if strict {
        Tok::StrictKeywordName(text)
    } else {
        Tok::KeywordName(text)
    })
}

/// `NOT word 'text'`: Spark reads a word with a string after it as a typed literal (and refuses
/// it unless the word is DATE, TIMESTAMP, X and the like), so there NOT stays the operator:
/// `WHERE NOT LIKE 'x'` is no column `not` matched against `'x'`.
fn negates_typed_literal(source: &str, tokens: &[SpannedTok<'_>], i: usize) -> bool {
    let word = |&(l, _, r): &SpannedTok<'_>| {
        source[l..r]
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_')
    };
    tokens[i].1 == Tok::Not
        && tokens.get(i + 1).is_some_and(word)
        && matches!(
            tokens.get(i + 2).map(|t| t.1),
            Some(Tok::String(_) | Tok::RawString(_))
        )
}

/// `JOIN VALUES (1)`, `FROM VALUES (1)`: after FROM or JOIN, Spark reads VALUES and a bracket
/// that holds something as an inline table, not as a call of a function named `values` (which
/// `FROM VALUES ()` is).
fn opens_inline_table(tokens: &[SpannedTok<'_>], i: usize) -> bool {
    let tok = |at: usize| tokens.get(at).map(|t| t.1);
    tok(i) == Some(Tok::Values)
        && i > 0
        && matches!(tok(i - 1), Some(Tok::From | Tok::Join))
        && tok(i + 1) == Some(Tok::LParen)
        && tok(i + 2) != Some(Tok::RParen)
}

/// `FROM t as SEMI JOIN u`: Spark reads AS before SEMI or ANTI as the start of an alias, and
/// refuses the word there, where before LEFT, CROSS or JOIN (`FROM t as JOIN u`), or after AS
/// (`FROM t AS as SEMI JOIN u`), it takes `as` for the alias.
fn as_before_semi_or_anti(tokens: &[SpannedTok<'_>], i: usize) -> bool {
    tokens[i].1 == Tok::As
        && (i == 0 || tokens[i - 1].1 != Tok::As)
        && matches!(tokens.get(i + 1).map(|t| t.1), Some(Tok::Semi | Tok::Anti))
}

/// The refusal of a word that opens a join or a set operation after AS, where the error is at it
/// and no reading mends it (`FROM t AS union`): Spark takes no such word as a relation's alias.
pub(crate) fn strict_alias_at(
    source: &str,
    tokens: &[SpannedTok<'_>],
    error_at: usize,
) -> Option<UserError> {
    let i = tokens.iter().position(|t| t.0 == error_at)?;
    let (l, _, r) = tokens[i];
    let word = &source[l..r];
    let after_as = i > 0 && tokens[i - 1].1 == Tok::As;
    (after_as && keywords::is_strict(word)).then(|| UserError {
        span: crate::span::Span::from_usize(l, r),
        message: format!(
            "`{word}` cannot be a relation's alias (it would open a join or a set operation); back-quote it or choose another name"
        ),
    })
}

#[cfg(test)]
mod tests {
    use crate::syntax::read;

    #[test]
    fn the_last_row_of_values_without_an_alias_may_be_a_relation_with_keywords_as_names() {
        // As in Spark: the rows end before `(null x)`, a table named `null` with the alias `x`.
        assert_eq!(
            read("SELECT * FROM VALUES (10), (5), (null x) AS tab(col)"),
            Ok("SELECT * FROM VALUES (10), (5), (null AS x) AS tab(col)".into())
        );
        assert_eq!(
            read("SELECT * FROM VALUES (1), (2), (true AS) t(c)"),
            Ok("SELECT * FROM VALUES (1), (2), (true AS AS) AS t(c)".into())
        );
        // The marks of a second look cover no text: none of them is read as a name, so no alias
        // without a name slips in (`VALUES (1) (c)` is refused, as in Spark).
        for sql in [
            "SELECT * FROM VALUES (1) (c)",
            "SELECT * FROM VALUES (1), (2) (c)",
            "SELECT * FROM VALUES (NULL) (NULL), (NULL) AS t(c)",
        ] {
            assert!(
                read(sql).unwrap_err().starts_with("syntax error at `(`"),
                "{sql}"
            );
        }
    }

    #[test]
    fn a_keyword_that_only_parses_as_a_name_is_a_name() {
        assert_eq!(
            read("SELECT a FROM t where"),
            Ok("SELECT a FROM t AS where".into())
        );
        assert_eq!(read("SELECT case FROM t"), Ok("SELECT case FROM t".into()));
        assert_eq!(
            read("SELECT a order FROM t"),
            Ok("SELECT a AS order FROM t".into())
        );
        // Two keywords at once: a column `case` with the alias `end`.
        assert_eq!(
            read("SELECT CASE END FROM t"),
            Ok("SELECT CASE AS END FROM t".into())
        );
        // A keyword after the first error: `table` is a column only if FROM is its alias.
        assert_eq!(read("SELECT table FROM"), Ok("SELECT table AS FROM".into()));
        // Keywords far apart, each moving the error on to the next.
        assert_eq!(
            read("SELECT a leading, b trailing, c both FROM t"),
            Ok("SELECT a AS leading, b AS trailing, c AS both FROM t".into())
        );
        // Two names before the error moves: a column `case` aliased `end`, and `t` aliased `as`.
        assert_eq!(
            read("SELECT CASE END FROM t AS"),
            Ok("SELECT CASE AS END FROM t AS AS".into())
        );
        // A name that leaves the error where it was but changes it: no `(` after `exists`.
        assert_eq!(
            read("SELECT exists join FROM t"),
            Ok("SELECT exists AS join FROM t".into())
        );
    }

    #[test]
    fn the_words_that_open_a_join_are_no_relation_alias() {
        assert_eq!(
            read("SELECT a join FROM t"),
            Ok("SELECT a AS join FROM t".into())
        );
        assert!(read("SELECT * FROM t join").is_err());
        let message = read("SELECT * FROM t AS Union").unwrap_err();
        assert!(
            message.starts_with("`Union` cannot be a relation's alias"),
            "{message}"
        );
        assert_eq!(
            read("SELECT * FROM t AS `union`"),
            Ok("SELECT * FROM t AS `union`".into())
        );
        // `as` is an alias before the other join words, not before SEMI or ANTI.
        let message = read("SELECT * FROM t as SEMI JOIN u ON a").unwrap_err();
        assert!(
            message.starts_with("`SEMI` cannot be a relation's alias"),
            "{message}"
        );
        assert_eq!(
            read("SELECT * FROM t as LEFT SEMI JOIN u ON a"),
            Ok("SELECT * FROM t AS as SEMI JOIN u ON a".into())
        );
        assert_eq!(
            read("SELECT * FROM t AS as ANTI JOIN u ON a"),
            Ok("SELECT * FROM t AS as ANTI JOIN u ON a".into())
        );
    }

    #[test]
    fn a_statement_that_no_reading_mends_keeps_its_first_error() {
        let message = read("SELECT a FROM t WHERE a =").unwrap_err();
        assert!(
            message.starts_with("syntax error at the end of the statement"),
            "{message}"
        );
        // A check in an action is final: `100M` is a size in bytes, not an alias's column.
        let message = read("SELECT * FROM t TABLESAMPLE (100M)").unwrap_err();
        assert!(message.contains("size in bytes"), "{message}");
    }

    #[test]
    fn ignore_nulls_after_a_call_belongs_to_the_call_and_otherwise_to_first() {
        // As in Spark: IGNORE NULLS after `f(a)` is its suffix, also inside `first(...)`.
        assert_eq!(
            read("SELECT first(f(a) IGNORE NULLS), (g(b) IGNORE NULLS) FROM t"),
            Ok("SELECT first(f(a) IGNORE NULLS), (g(b) IGNORE NULLS) FROM t".into())
        );
        // After a `)` that closes no call, the second look gives it to `first`.
        assert_eq!(
            read("SELECT first((a) IGNORE NULLS), last(CAST(a AS INT) IGNORE NULLS) FROM t"),
            Ok("SELECT first((a)) IGNORE NULLS, last(CAST(a AS INT)) IGNORE NULLS FROM t".into())
        );
        let message = read("SELECT f((a) IGNORE NULLS) FROM t").unwrap_err();
        assert!(
            message.starts_with("syntax error at `IGNORE NULLS`"),
            "{message}"
        );
    }

    #[test]
    fn a_join_word_after_pivot_is_its_alias_where_spark_takes_it() {
        for (sql, printed) in [
            // Before a join, as in Spark: an inner join of the PIVOT aliased `LEFT`.
            (
                "SELECT * FROM a PIVOT (f(x) FOR b IN (1)) LEFT JOIN c ON y",
                "SELECT * FROM a PIVOT (f(x) FOR b IN (1)) AS LEFT JOIN c ON y",
            ),
            // Where the join would not parse then, it is the join (printed so that it stays one).
            (
                "SELECT * FROM a PIVOT (f(x) FOR b IN (1)) LEFT OUTER JOIN c ON y",
                "SELECT * FROM a PIVOT (f(x) FOR b IN (1)) LEFT OUTER JOIN c ON y",
            ),
            // After AS, such a word is refused, but where AS itself can be the alias.
            (
                "SELECT * FROM t AS LEFT JOIN u",
                "SELECT * FROM t AS AS LEFT JOIN u",
            ),
            // Where nothing else parses, on a second look.
            (
                "SELECT * FROM a UNPIVOT (x FOR b IN (c)) union WHERE y",
                "SELECT * FROM a UNPIVOT (x FOR b IN (c)) AS union WHERE y",
            ),
        ] {
            assert_eq!(read(sql), Ok(printed.to_string()), "{sql}");
        }
    }

    #[test]
    fn not_before_a_word_and_a_string_stays_the_operator() {
        // Spark reads `LIKE 'x'` as a typed literal there, and refuses it.
        let message = read("SELECT a FROM t WHERE NOT LIKE 'x'").unwrap_err();
        assert!(message.starts_with("syntax error"), "{message}");
        // Before anything else, NOT may still be a column.
        assert_eq!(
            read("SELECT a FROM t WHERE not LIKE a"),
            Ok("SELECT a FROM t WHERE not LIKE a".into())
        );
    }
}
