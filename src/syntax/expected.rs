//! What a syntax error says it expected: the terminals that fit at the parser's states, as
//! the message lists them ("expected one of: ...").
//!
//! The generated parser calls [`at_syntax_error`] at every syntax error with its state stack
//! and a test of whether a terminal fits on it (`build.rs` makes it do so). Most errors are the
//! second look's attempts, which need no list: the list is made only for the error that is
//! reported (see [`with_expected`]), and kept by the states it was made for, as an
//! editor meets the same errors again and again.
//!
//! Only terminals on the stack *at the error* are listed: where the parser reduced on the
//! token it then refused, a terminal that would have been shifted before those reductions is
//! missing from the list (LALR's merged look-aheads), so the list says what fits there, not
//! all that might have.

use crate::syntax::keywords;
use crate::syntax::keywords::is_word;
use lalrpop_util::ParseError;
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::OnceLock;

/// What the glue keeps of the syntax errors met on this thread.
#[derive(Default)]
struct Errors {
    /// Whether the error being parsed is the one reported, whose message lists the terminals.
    wanted: bool,
    /// The list for the last error parsed while `wanted`.
    expected: Option<Expected>,
    /// The lists made so far, by the parser states they were made for: a state stack always
    /// expects the same terminals.
    by_states: HashMap<Vec<i16>, Expected>,
}

thread_local! {
    static ERRORS: RefCell<Errors> = RefCell::default();
}

/// How many lists [`Errors::by_states`] keeps before it starts again (this bounds the memory
/// they take).
const LISTS_KEPT: usize = 512;

/// The terminals that fit at a syntax error, as a message names them (`CREATE`, `identifier`,
/// `','`), keywords that are names too folded into `identifier`.
pub(crate) type Expected = std::rc::Rc<[&'static str]>;

/// "expected one of: A, B", "expected A", or "unexpected input" where nothing is listed.
pub(crate) fn describe(expected: &[&str]) -> String {
    match expected {
        [] => "unexpected input".to_string(),
        [one] => format!("expected {one}"),
        _ => format!("expected one of: {}", expected.join(", ")),
    }
}

/// Called by the generated parser at a syntax error, with its state stack, the grammar's
/// terminals and `fits`, which tells whether the terminal of an index fits on that stack.
pub(crate) fn at_syntax_error(
    states: &[i16],
    terminals: &'static [&'static str],
    fits: impl Fn(usize) -> bool,
) {
    ERRORS.with(|errors| {
        let mut errors = errors.borrow_mut();
        if !errors.wanted {
            return;
        }
        let listed = &Terminals::of(terminals).listed;
        let expected = match errors.by_states.get(states) {
            Some(expected) => expected.clone(),
            None => {
                let expected = expected_list(
                    (0..terminals.len())
                        .filter(|&i| fits(i))
                        .map(|i| &listed[i]),
                );
                if errors.by_states.len() >= LISTS_KEPT {
                    errors.by_states.clear();
                }
                errors.by_states.insert(states.to_vec(), expected.clone());
                expected
            }
        };
        errors.expected = Some(expected);
    });
}

/// `error` with the terminals expected at it: for a syntax error at a token or at the end,
/// `parse` runs again with the list asked for (it fails the same way, being the same parse).
pub(crate) fn with_expected<T, Tok, E>(
    error: ParseError<usize, Tok, E>,
    parse: impl FnOnce() -> Result<T, ParseError<usize, Tok, E>>,
) -> (ParseError<usize, Tok, E>, Option<Expected>) {
    if !matches!(
        error,
        ParseError::UnrecognizedToken { .. } | ParseError::UnrecognizedEof { .. }
    ) {
        return (error, None);
    }
    ERRORS.with(|errors| errors.borrow_mut().wanted = true);
    let again = parse();
    let expected = ERRORS.with(|errors| {
        let mut errors = errors.borrow_mut();
        errors.wanted = false;
        errors.expected.take()
    });
    (again.err().unwrap_or(error), expected)
}

/// The grammar's terminals as messages list them, by index; made once, at the first error
/// reported.
struct Terminals {
    listed: Vec<Listed>,
}

/// A terminal as an "expected" list names it.
struct Listed {
    name: Cow<'static, str>,
    /// Whether it is the terminal of an ordinary identifier.
    identifier: bool,
    /// Whether it is a mark that only a second look makes, which has already failed when the
    /// list is shown (the `(` of a select item's names, the query's WINDOW, Hive's MAP or
    /// REDUCE, ...), or a name after a dot that starts with digits (`t.1a`), offered as `.`.
    unlisted: bool,
    /// Whether the grammar takes it as a name wherever it takes an identifier (the keywords
    /// that the list folds into "identifier").
    non_reserved: bool,
    /// Where it is among the reserved words that are names too.
    reserved_name: Option<usize>,
}

static TERMINALS: OnceLock<Terminals> = OnceLock::new();

impl Terminals {
    fn of(terminals: &'static [&'static str]) -> &'static Terminals {
        TERMINALS.get_or_init(|| {
            let keywords: HashMap<String, &keywords::Keyword> = keywords::KEYWORDS
                .iter()
                .filter(|k| k.is_word())
                .map(|k| (format!("\"{}\"", k.word), k))
                .collect();
            let listed = terminals
                .iter()
                .map(|&terminal| {
                    let (name, non_reserved) = match keywords.get(terminal) {
                        Some(k) => (k.word.to_ascii_uppercase().into(), k.is_non_reserved()),
                        None => {
                            let name = readable_terminal(terminal);
                            let non_reserved = is_non_reserved_name(&name);
                            (name, non_reserved)
                        }
                    };
                    Listed {
                        // By name, so that a keyword and a terminal named after it (`* EXCEPT`)
                        // set the same bit.
                        reserved_name: reserved_name_index(&name),
                        identifier: terminal == "IDENT",
                        unlisted: matches!(
                            terminal,
                            "\"( of names\""
                                | "\"WINDOW of the query\""
                                | "MAP_OR_REDUCE"
                                | "\"clauses of a FROM body\""
                                | "\"name with dashes\""
                                | "\"end of VALUES\""
                                | "DOT_DIGIT_NAME"
                        ),
                        non_reserved,
                        name,
                    }
                })
                .collect();
            Terminals { listed }
        })
    }
}

/// The names of the terminals expected, with the keywords that are identifiers too folded into
/// "identifier".
fn expected_list(expected: impl Iterator<Item = &'static Listed>) -> Expected {
    let listed: Vec<&'static Listed> = expected.filter(|t| !t.unlisted).collect();
    let takes_identifier = listed.iter().any(|t| t.identifier);
    // Whether every reserved word that is a name is listed: one bit each.
    let reserved_listed = listed
        .iter()
        .filter_map(|t| t.reserved_name)
        .fold(0u64, |bits, i| bits | 1 << i);
    let takes_any_name = takes_identifier
        && reserved_listed.count_ones() as usize == keywords::reserved_names().len();
    let mut names: Vec<&'static str> = Vec::new();
    for &t in &listed {
        let name: &'static str = t.name.as_ref();
        // LATERAL is a name only where the grammar's `Ident` is (not a table's first name).
        let folded = takes_identifier && t.non_reserved
            || takes_any_name && (t.reserved_name.is_some() || name == "LATERAL");
        if !folded && !names.contains(&name) {
            names.push(name);
        }
    }
    names.into()
}

/// Whether `name` (in capitals) is a keyword that the grammar takes wherever it takes an
/// identifier.
fn is_non_reserved_name(name: &str) -> bool {
    keywords::non_reserved()
        .binary_search_by(|word| word.as_str().cmp(name))
        .is_ok()
}

/// Where `word` is among the reserved words that are names too.
fn reserved_name_index(word: &str) -> Option<usize> {
    keywords::reserved_names()
        .binary_search_by(|name| name.as_str().cmp(word))
        .ok()
}

/// A terminal that is no keyword of the table as messages name it.
fn readable_terminal(terminal: &'static str) -> Cow<'static, str> {
    match terminal {
        "IDENT"
        | "QIDENT"
        | "PARAM"
        | "KEYWORD_NAME"
        | "STRICT_KEYWORD_NAME"
        | "IDENTIFIER_CALL" => "identifier".into(),
        "STRING" | "RAWSTRING" | "HEXSTRING" => "string literal".into(),
        "NUMBER" | "NEGATED_BOUND" => "number".into(),
        "INTERVAL_UNIT" => "interval unit".into(),
        "INTERVAL_SIGN" => "sign".into(),
        "NAMED_MARKER" => "parameter marker".into(),
        "\"* EXCEPT\"" => "EXCEPT".into(),
        "\"VALUES after IN (\"" => "VALUES".into(),
        quoted => {
            let inner = quoted.trim_matches('"');
            if is_word(inner) {
                inner.to_ascii_uppercase().into()
            } else {
                format!("'{inner}'").into()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::keywords;

    /// The fold of keywords into "identifier" is only honest if the grammar really accepts
    /// each of them as a name: as a column, a table and a function.
    #[test]
    fn every_name_keyword_is_an_identifier() {
        for word in keywords::non_reserved()
            .iter()
            .chain(keywords::reserved_names())
        {
            let lower = word.to_ascii_lowercase();
            for sql in [
                format!("SELECT {lower}, t.{word} FROM t"),
                format!("SELECT * FROM s.{word}"),
                format!("SELECT {word}(1)"),
                format!("CREATE STREAMING TABLE x ({word} INT)"),
            ] {
                let arena = crate::Arena::new();
                let parsed = crate::parse(&arena, &sql);
                assert!(
                    parsed.diagnostics().is_empty(),
                    "{sql}: {:?}",
                    parsed.diagnostics()
                );
            }
        }
    }

    /// The message kept for a parser state stack is the one made for it: a second error at the
    /// same states, in another statement, lists the same terminals, and an error elsewhere
    /// its own.
    #[test]
    fn a_kept_expected_message_is_the_one_made_for_its_states() {
        let message = |sql: &str| crate::syntax::read(sql).unwrap_err();
        let first = message("SELECT a FROM t WHERE a =");
        assert_eq!(message("SELECT b FROM u WHERE b ="), first);
        assert_eq!(message("SELECT a FROM t WHERE a ="), first);
        assert_ne!(message("SELECT a FROM t WHERE a = ("), first);
        assert_eq!(
            message("CREATE FLOW f AS INSERT INTO"),
            "syntax error at the end of the statement: expected identifier"
        );
    }

    #[test]
    fn expected_lists_fold_keywords_into_identifier() {
        let message = |sql: &str| crate::syntax::read(sql).unwrap_err();
        assert_eq!(
            message("CREATE FLOW f AS INSERT INTO"),
            "syntax error at the end of the statement: expected identifier"
        );
        let operand = message("SELECT * FROM t WHERE a =");
        assert!(
            operand.contains("CASE") && operand.contains("identifier"),
            "{operand}"
        );
        assert!(
            !operand.contains("FLOW") && !operand.contains("STREAM"),
            "{operand}"
        );
        // After a select item only an implicit alias is a name: AND is an operator there.
        let after_item = message("SELECT 1 2");
        assert!(
            after_item.contains("AND") && after_item.contains("identifier"),
            "{after_item}"
        );
    }
}
