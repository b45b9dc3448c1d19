//! What is reported: which codes a run selects ([`Selection`]), and the `-- noqa` comments that
//! silence a diagnostic on their line.
//!
//! A selector is a code or the start of one: `INVALID_FLOW_QUERY_TYPE` selects every
//! `INVALID_FLOW_QUERY_TYPE.*` code, `PIPELINE_` every code that starts so.
//!
//! A noqa comment is a `--` comment whose text starts with `noqa` (any case):
//! - `-- noqa` silences every diagnostic that starts on its line;
//! - `-- noqa: CODE, CODE` silences those codes only (selectors, as above, in capitals,
//!   separated by commas or spaces; the list ends at the first word that is not one, so a
//!   reason may follow: `-- noqa: DEPRECATED_SYNTAX kept for the old job`).
//!
//! A noqa comment that silences nothing, or names no code, is reported as UNUSED_NOQA: it
//! would otherwise outlive the problem it was written for and hide the next one.
//!
//! Syntax errors are always reported: a source that does not parse is not checked further,
//! and no fix changes it, so neither a selector nor a noqa comment hides one.

use crate::diagnostic::{Code, Diagnostic, Edit, Fix};
use crate::span::Span;

/// A selector that no code matches.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is no code and starts none (`pipeline-sql rules` lists them)")]
pub struct UnknownSelector(pub String);

/// Which codes are reported: those that a `select` selector matches (every code when there is
/// none), unless an `ignore` selector matches them. Where both match, the longer selector
/// decides, and `ignore` on a tie: `select = ["INVALID_FLOW_QUERY_TYPE"]` with
/// `ignore = ["INVALID_FLOW_QUERY_TYPE.STREAMING_RELATION_FOR_ONCE_FLOW"]` reports the other
/// two `INVALID_FLOW_QUERY_TYPE` codes.
///
/// ```
/// use pipeline_sql::suppress::Selection;
///
/// let selection = Selection::new(["INVALID_FLOW"], ["INVALID_FLOW_TARGET.VIEW"]).unwrap();
/// assert!(selection.enabled("INVALID_FLOW_TARGET.NOT_FOUND"));
/// assert!(!selection.enabled("INVALID_FLOW_TARGET.VIEW"));
/// assert!(!selection.enabled("PARSE_SYNTAX_ERROR"));
/// assert!(Selection::new(["NO_SUCH_CODE"], [""; 0]).is_err());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    select: Vec<String>,
    ignore: Vec<String>,
}

impl Selection {
    /// The selection of `select` less `ignore`; selectors are upper-cased. A selector that no
    /// code starts with is an error, so that a misspelt one does not silently select nothing.
    pub fn new<S: AsRef<str>, I: AsRef<str>>(
        select: impl IntoIterator<Item = S>,
        ignore: impl IntoIterator<Item = I>,
    ) -> Result<Selection, UnknownSelector> {
        Ok(Selection {
            select: selectors(select)?,
            ignore: selectors(ignore)?,
        })
    }

    /// Whether diagnostics of `code` are reported.
    pub fn enabled(&self, code: &str) -> bool {
        let longest = |selectors: &[String]| {
            selectors
                .iter()
                .filter(|s| code.starts_with(s.as_str()))
                .map(String::len)
                .max()
        };
        match (longest(&self.select), longest(&self.ignore)) {
            (Some(select), Some(ignore)) => select > ignore,
            (Some(_), None) => true,
            (None, ignore) => self.select.is_empty() && ignore.is_none(),
        }
    }

    /// Drops the diagnostics whose code is not selected; syntax errors always stay.
    pub fn apply(&self, diagnostics: &mut Vec<Diagnostic>) {
        diagnostics.retain(|d| d.code_enum().is_syntax_error() || self.enabled(d.code()));
    }
}

fn selectors<S: AsRef<str>>(
    selectors: impl IntoIterator<Item = S>,
) -> Result<Vec<String>, UnknownSelector> {
    selectors
        .into_iter()
        .map(|s| {
            let selector = s.as_ref().trim().to_ascii_uppercase();
            if selector.is_empty() || !names_a_code(&selector) {
                return Err(UnknownSelector(s.as_ref().to_string()));
            }
            Ok(selector)
        })
        .collect()
}

/// Whether some code starts with `selector`.
fn names_a_code(selector: &str) -> bool {
    Code::ALL.iter().any(|c| c.as_str().starts_with(selector))
}

/// One `-- noqa` comment.
#[derive(Debug)]
struct Noqa<'s> {
    /// The comment, `--` included.
    span: Span,
    /// Where its line starts: it silences diagnostics that start from here to its end.
    line_start: u32,
    /// The codes it names (none after `-- noqa:` with no code); `None` for a blanket `-- noqa`.
    codes: Option<Vec<&'s str>>,
}

impl Noqa<'_> {
    /// Whether a code the comment may silence has a rule that did not run.
    fn may_be_for_a_rule_not_run(&self, ran: &dyn Fn(Code) -> bool) -> bool {
        Code::ALL.iter().any(|&code| {
            !ran(code)
                && self.codes.as_ref().map_or(true, |codes| {
                    codes.iter().any(|c| code.as_str().starts_with(c))
                })
        })
    }

    fn silences(&self, diagnostic: &Diagnostic) -> bool {
        let start = diagnostic.span().start;
        (self.line_start..=self.span.end).contains(&start)
            && self.codes.as_ref().map_or(true, |codes| {
                codes.iter().any(|c| diagnostic.code().starts_with(c))
            })
    }
}

/// Removes the diagnostics that a `-- noqa` comment in `source` silences, and adds an
/// UNUSED_NOQA warning for each noqa comment that silences none (or names no code, or names
/// something that is no code). Keeps the diagnostics ordered by position.
///
/// `ran` says which codes' rules ran in this check: a comment that may be for a code whose
/// rule did not run (an absence rule outside a complete pipeline) silences nothing here, but
/// is not reported, since another check may need it.
pub fn apply_noqa(source: &str, diagnostics: &mut Vec<Diagnostic>, ran: &dyn Fn(Code) -> bool) {
    let comments = noqa_comments(source);
    if comments.is_empty() {
        return;
    }
    let mut used = vec![false; comments.len()];
    diagnostics.retain(|d| {
        // Comments are in source order; only one on the diagnostic's line can silence it.
        let i = comments.partition_point(|c| c.span.end < d.span().start);
        match comments.get(i) {
            Some(comment) if comment.silences(d) && !d.code_enum().is_syntax_error() => {
                used[i] = true;
                false
            }
            _ => true,
        }
    });
    for (comment, used) in comments.iter().zip(used) {
        if let Some(why) = unused(comment, used || comment.may_be_for_a_rule_not_run(ran)) {
            // A comment that silences nothing goes, with the spaces before it.
            let fix = (!used).then(|| {
                let before = &source[comment.line_start as usize..comment.span.start as usize];
                let spaces = before.len() - before.trim_end_matches([' ', '\t']).len();
                let span = Span::new(comment.span.start - spaces as u32, comment.span.end);
                Fix::safe("remove the comment", vec![Edit::delete(span)])
            });
            diagnostics.push(
                Diagnostic::warning(Code::UnusedNoqa, comment.span, why)
                    .with_help("remove the comment, or name the codes it is for")
                    .with_fix(fix),
            );
        }
    }
    diagnostics.sort_by_key(|d| (d.span().start, d.span().end));
}

/// Why a noqa comment is reported, if it is.
fn unused(comment: &Noqa<'_>, used: bool) -> Option<String> {
    let codes = comment.codes.as_deref();
    if codes.is_some_and(<[&str]>::is_empty) {
        return Some("this noqa comment names no code after `:`".to_string());
    }
    if let Some(unknown) = codes.into_iter().flatten().find(|c| !names_a_code(c)) {
        return Some(format!("`{unknown}` in this noqa comment is no code"));
    }
    match (used, codes) {
        (true, _) => None,
        (false, None) => Some("this noqa comment silences no diagnostic on its line".to_string()),
        (false, Some(codes)) => Some(format!(
            "this noqa comment silences no diagnostic on its line (it names {})",
            codes.join(", ")
        )),
    }
}

/// The noqa comments of `source`, in order. Comments are found between the lexer's tokens, so
/// that `--` inside a string or a quoted name is not taken for one.
fn noqa_comments(source: &str) -> Vec<Noqa<'_>> {
    if !mentions_noqa(source) {
        return Vec::new();
    }
    use logos::Logos;
    let mut comments = Vec::new();
    let mut gap_start = 0;
    let ends = crate::lexer::Tok::lexer(source)
        .spanned()
        .map(|(_, range)| range)
        .chain(std::iter::once(source.len()..source.len()));
    for token in ends {
        line_comments(source, gap_start, token.start, &mut comments);
        gap_start = token.end;
    }
    comments
}

/// Whether `noqa` (any case) occurs in `source`: most files have none, and are not lexed again.
fn mentions_noqa(source: &str) -> bool {
    source
        .as_bytes()
        .windows(4)
        .any(|w| w.eq_ignore_ascii_case(b"noqa"))
}

/// Adds the noqa comments among the white space and comments of `source[start..end]`.
fn line_comments<'s>(source: &'s str, start: usize, end: usize, out: &mut Vec<Noqa<'s>>) {
    let gap = &source.as_bytes()[..end];
    let mut i = start;
    while i + 1 < end {
        match (gap[i], gap[i + 1]) {
            (b'-', b'-') => {
                let stop = gap[i..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(end, |n| i + n);
                if let Some(comment) = parse_noqa(source, i, stop) {
                    out.push(comment);
                }
                i = stop;
            }
            (b'/', b'*') => {
                let rest = &gap[i + 2..];
                i += 2 + crate::lexer::block_comment_length(rest).unwrap_or(rest.len());
            }
            _ => i += 1,
        }
    }
}

/// The noqa comment that `source[start..stop]` (a `--` comment) is, if it is one.
fn parse_noqa(source: &str, start: usize, stop: usize) -> Option<Noqa<'_>> {
    let text = source[start + 2..stop].trim_start();
    let keyword = text.get(..4)?;
    if !keyword.eq_ignore_ascii_case("noqa") {
        return None;
    }
    let rest = &text[4..];
    let codes = match rest.strip_prefix(':') {
        Some(list) => Some(
            list.split(|c: char| c == ',' || c.is_whitespace())
                .filter(|item| !item.is_empty())
                .take_while(|item| is_selector(item))
                .collect(),
        ),
        None if rest.is_empty() || rest.starts_with(char::is_whitespace) => None,
        None => return None,
    };
    let line_start = source[..start].rfind('\n').map_or(0, |n| n + 1);
    // The `\r` of a `\r\n` line end is not part of the comment.
    let end = start + source[start..stop].trim_end_matches('\r').len();
    Some(Noqa {
        span: Span::new(start as u32, end as u32),
        line_start: line_start as u32,
        codes,
    })
}

/// A word that can be a selector: capitals, digits, `_` and `.`, starting with a capital.
fn is_selector(word: &str) -> bool {
    word.starts_with(|c: char| c.is_ascii_uppercase())
        && word
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_' || c == '.')
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The codes `source` reports, each with the line it starts on: `CODE@line`.
    fn reported(source: &str) -> Vec<String> {
        let arena = crate::Arena::new();
        let checked = crate::check(&arena, source);
        let lines = crate::LineIndex::new(source);
        checked
            .diagnostics()
            .iter()
            .map(|d| format!("{}@{}", d.code(), lines.line_column(d.span().start).0))
            .collect()
    }

    const NONE: [&str; 0] = [];
    const LEGACY: &str = "CREATE OR REFRESH LIVE TABLE t AS SELECT 1 AS a";

    #[test]
    fn without_a_comment_the_legacy_spelling_is_reported() {
        assert_eq!(reported(LEGACY), ["DEPRECATED_SYNTAX@1"]);
    }

    #[test]
    fn a_blanket_noqa_silences_its_line() {
        assert_eq!(reported(&format!("{LEGACY} -- noqa\n")), NONE);
        assert_eq!(reported(&format!("{LEGACY} --NOQA\r\n")), NONE);
    }

    #[test]
    fn a_noqa_naming_the_code_or_its_start_silences_it() {
        assert_eq!(
            reported(&format!("{LEGACY} -- noqa: DEPRECATED_SYNTAX")),
            NONE
        );
        assert_eq!(reported(&format!("{LEGACY} -- noqa:DEPRECATED")), NONE);
        assert_eq!(
            reported(&format!(
                "{LEGACY} -- noqa: PARSE_SYNTAX_ERROR, DEPRECATED_SYNTAX kept for the old job"
            )),
            NONE
        );
    }

    #[test]
    fn a_noqa_for_another_code_silences_nothing_and_is_reported() {
        let found = reported(&format!("{LEGACY} -- noqa: PARSE_SYNTAX_ERROR"));
        assert_eq!(found, ["DEPRECATED_SYNTAX@1", "UNUSED_NOQA@1"]);
    }

    #[test]
    fn a_noqa_on_another_line_silences_nothing() {
        let found = reported(&format!("-- noqa: DEPRECATED_SYNTAX\n{LEGACY}"));
        assert_eq!(found, ["UNUSED_NOQA@1", "DEPRECATED_SYNTAX@2"]);
        // A blanket comment may be for a rule that runs on a complete pipeline only, which
        // this check of one source did not run: it is not reported.
        let found = reported(&format!("-- noqa\n{LEGACY}"));
        assert_eq!(found, ["DEPRECATED_SYNTAX@2"]);
        let found = reported("SELECT 1; -- noqa: INVALID_FLOW_TARGET");
        assert_eq!(found, NONE);
        let found = reported("SELECT 1; -- noqa: INVALID_FLOW_TARGET.VIEW");
        assert_eq!(found, ["UNUSED_NOQA@1"]);
    }

    #[test]
    fn a_statement_over_lines_is_silenced_on_the_line_where_its_diagnostic_starts() {
        let source = "CREATE OR REFRESH STREAMING TABLE t\nAS SELECT * FROM STREAM(LIVE.raw); -- noqa: DEPRECATED_SYNTAX\n";
        assert_eq!(reported(source), NONE);
    }

    #[test]
    fn malformed_and_unknown_noqa_comments_are_reported() {
        for comment in ["-- noqa:", "-- noqa: NO_SUCH_CODE", "-- noqa: lower_case"] {
            let found = reported(&format!("{LEGACY} {comment}"));
            assert_eq!(found, ["DEPRECATED_SYNTAX@1", "UNUSED_NOQA@1"], "{comment}");
        }
    }

    #[test]
    fn noqa_outside_a_line_comment_is_no_directive() {
        for source in [
            format!("{LEGACY} /* -- noqa */"),
            format!("{LEGACY}, '-- noqa' AS b"),
            format!("{LEGACY} -- noqas"),
            format!("{LEGACY} -- see noqa"),
        ] {
            assert_eq!(reported(&source), ["DEPRECATED_SYNTAX@1"], "{source}");
        }
    }

    #[test]
    fn a_selector_selects_the_codes_it_starts() {
        let all = Selection::default();
        assert!(all.enabled("PARSE_SYNTAX_ERROR"));
        let flows = Selection::new(["invalid_flow_query_type"], [""; 0]).unwrap();
        assert!(flows.enabled("INVALID_FLOW_QUERY_TYPE.BATCH_RELATION_FOR_STREAMING_TABLE"));
        assert!(!flows.enabled("INVALID_FLOW_TARGET.VIEW"));
    }

    #[test]
    fn the_longer_selector_decides_and_ignore_wins_a_tie() {
        let narrower_ignore =
            Selection::new(["PIPELINE_"], ["PIPELINE_DUPLICATE_IDENTIFIERS"]).unwrap();
        assert!(narrower_ignore.enabled("PIPELINE_CIRCULAR_DEPENDENCY"));
        assert!(!narrower_ignore.enabled("PIPELINE_DUPLICATE_IDENTIFIERS.FLOW"));
        let narrower_select =
            Selection::new(["PIPELINE_DUPLICATE_IDENTIFIERS.FLOW"], ["PIPELINE_"]).unwrap();
        assert!(narrower_select.enabled("PIPELINE_DUPLICATE_IDENTIFIERS.FLOW"));
        assert!(!narrower_select.enabled("PIPELINE_DUPLICATE_IDENTIFIERS.OUTPUT"));
        let tie = Selection::new(["UNUSED_NOQA"], ["UNUSED_NOQA"]).unwrap();
        assert!(!tie.enabled("UNUSED_NOQA"));
        let ignore_only = Selection::new([""; 0], ["DEPRECATED_SYNTAX"]).unwrap();
        assert!(ignore_only.enabled("PARSE_SYNTAX_ERROR"));
        assert!(!ignore_only.enabled("DEPRECATED_SYNTAX"));
    }

    #[test]
    fn syntax_errors_are_reported_whatever_selects_or_silences() {
        let broken = "CREATE OR REFRESH LIVE TABLE t AS SELECT 1 +";
        assert_eq!(
            reported(&format!("{broken} -- noqa: DEPRECATED_SYNTAX")),
            ["PARSE_SYNTAX_ERROR@1", "UNUSED_NOQA@1"]
        );
        assert_eq!(
            reported(&format!("{broken} -- noqa: PARSE_SYNTAX_ERROR")),
            ["PARSE_SYNTAX_ERROR@1", "UNUSED_NOQA@1"]
        );
        let arena = crate::Arena::new();
        let mut diagnostics = crate::check(&arena, broken).diagnostics().to_vec();
        Selection::new(["DEPRECATED_SYNTAX"], ["PARSE_SYNTAX_ERROR"])
            .unwrap()
            .apply(&mut diagnostics);
        let codes: Vec<&str> = diagnostics.iter().map(Diagnostic::code).collect();
        assert_eq!(codes, ["PARSE_SYNTAX_ERROR"]);
    }

    #[test]
    fn a_selector_that_starts_no_code_is_refused() {
        assert_eq!(
            Selection::new(["PARSE_SYNTAX_EROR"], [""; 0]),
            Err(UnknownSelector("PARSE_SYNTAX_EROR".to_string()))
        );
        assert!(Selection::new([""; 0], [" "]).is_err());
    }
}
