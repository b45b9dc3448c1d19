//! The likely slip behind a syntax error, as its help line: a misspelt keyword (`CREAT`, or
//! `GROPU` read as an alias before `BY`), or a missing comma (`SELECT a b c`). A missing `;`
//! between statements is found where broken statements are split (`recovery`).

use crate::lexer::Tok;
use crate::suggest::closest;
use crate::syntax::keywords::is_word;

/// The help for a syntax error at the token at `at` (byte offsets), after the statement's
/// tokens `before`, where the terminals `expected` would fit; `None` where no slip is likely.
pub(crate) fn slip(
    source: &str,
    before: &[(usize, Tok<'_>, usize)],
    at: (usize, usize),
    expected: &[&str],
) -> Option<String> {
    let found = &source[at.0..at.1];
    let keywords = || {
        expected
            .iter()
            .copied()
            .filter(|name| name.bytes().all(|b| b.is_ascii_uppercase() || b == b'_'))
    };
    if is_word(found) {
        if let Some(keyword) = closest(found, keywords()) {
            return Some(format!("did you mean `{keyword}`?"));
        }
    }
    // A misspelt keyword that can be a name was read as one (an alias), and the error is at
    // what came after it.
    if let Some(&(l, Tok::Ident(_) | Tok::KeywordName(_), r)) = before.last() {
        let name = &source[l..r];
        if let Some(keyword) = closest(name, keywords()) {
            return Some(format!(
                "did you mean `{keyword}`? `{name}` was read as a name"
            ));
        }
    }
    let starts_item = is_word(found) || found.starts_with(['\'', '"', '`']);
    if !(starts_item && expected.contains(&"','")) {
        return None;
    }
    // `SELECT a b c`: the name before the error, right after a select item's value (FROM may
    // come next), was read as its alias.
    let alias = match before {
        [.., (_, value, _), (l, Tok::Ident(_) | Tok::KeywordName(_), r)]
            if ends_value(value) && expected.contains(&"FROM") =>
        {
            Some(&source[*l..*r])
        }
        _ => None,
    };
    Some(match alias {
        Some(alias) => format!(
            "a `,` is probably missing before `{found}`, and perhaps before `{alias}`, which is read as an alias"
        ),
        None => format!("a `,` is probably missing before `{found}`"),
    })
}

/// Whether a token can end a value (a select item), so that a name after it is its alias.
fn ends_value(token: &Tok<'_>) -> bool {
    matches!(
        token,
        Tok::Ident(_) | Tok::QuotedIdent(_) | Tok::Number(_) | Tok::String(_) | Tok::RParen
    )
}
