//! A file's text as the human report shows it to miette: safe to print, and read a few lines at
//! a time.
//!
//! - **Safe.** Control characters and the characters that reorder text (bidirectional
//!   overrides such as U+202E) would act on the terminal rather than show: a file could move the
//!   cursor, clear the screen, or show code other than what the parser reads. They are shown
//!   escaped, as `\u{1b}`, in snippets and in messages alike.
//! - **Linear.** miette's own reading of a `str` scans the text from its start for every
//!   snippet, so that the report of a file took time quadratic in its diagnostics. Here the
//!   lines around a span are found through the file's [`LineIndex`].
//!
//! Escaping makes the text longer, so the text miette sees has offsets of its own: a span of
//! the file is moved to them with [`Snippets::shown`], and line and column numbers are counted
//! on the file as written (the definition of [`LineIndex`]).

use crate::{Diagnostic, LineIndex, Span};
use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};
use std::borrow::Cow;
use std::fmt::{self, Write};

/// Whether printing `c` as it is would act on the terminal or reorder the text around it.
fn is_unsafe(c: char) -> bool {
    (c.is_control() && !matches!(c, '\n' | '\t'))
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{061c}')
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `text` as one line: each unsafe character, and each line break, written as `\u{...}`. For
/// everything shown outside a snippet (names, messages, labels, help), so that no text from a
/// file can start a line of the output.
pub fn escape(text: &str) -> Cow<'_, str> {
    escape_noting(text, false, |_| {})
}

/// `text` with each unsafe character written as `\u{...}`; with `keep_lines`, its line breaks
/// stay (a `\r` before `\n` too: it ends a Windows line). Tells `noted` of each escape made.
fn escape_noting(text: &str, keep_lines: bool, mut noted: impl FnMut(Escape)) -> Cow<'_, str> {
    let needs_escape = |(at, c): (usize, char)| match c {
        '\n' => !keep_lines,
        '\r' => !(keep_lines && text[at + 1..].starts_with('\n')),
        c => is_unsafe(c),
    };
    if !text.char_indices().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut shown = String::with_capacity(text.len() + 16);
    for (at, c) in text.char_indices() {
        if needs_escape((at, c)) {
            let shown_at = shown.len() as u32;
            let _ = write!(shown, "\\u{{{:x}}}", c as u32);
            noted(Escape {
                at: at as u32,
                end: (at + c.len_utf8()) as u32,
                shown_at,
                shown_end: shown.len() as u32,
            });
        } else {
            shown.push(c);
        }
    }
    Cow::Owned(shown)
}

/// Whether a CI runner would read `line` as a command: a GitHub Actions runner takes a line
/// whose text starts, after white space, with `::` (or `##[`, the older form) as one.
pub fn reads_as_a_command(line: &str) -> bool {
    let text = line.trim_start();
    text.starts_with("::") || text.starts_with("##[")
}

/// `out` with no line that a CI runner would read as a command ([`reads_as_a_command`]): such
/// a line gets its first character escaped. Text from files is escaped to one line, so
/// only a report's own wrapping could start a line with it.
pub(crate) fn defuse_commands(out: String) -> String {
    if !out.split('\n').any(reads_as_a_command) {
        return out;
    }
    let mut defused = String::with_capacity(out.len() + 16);
    for line in out.split_inclusive('\n') {
        if reads_as_a_command(line) {
            let indent = line.len() - line.trim_start().len();
            let first = line.as_bytes()[indent] as char;
            let _ = write!(
                defused,
                "{}\\u{{{:x}}}{}",
                &line[..indent],
                first as u32,
                &line[indent + 1..]
            );
        } else {
            defused.push_str(line);
        }
    }
    defused
}

/// One file, or a window of one of its lines, as miette reads it for snippets.
pub(super) struct Snippets<'r> {
    name: Cow<'r, str>,
    /// The lines of the text shown.
    lines: &'r LineIndex<'r>,
    /// The text with its unsafe characters escaped.
    shown: Cow<'r, str>,
    /// The escaped characters, in order.
    escapes: Vec<Escape>,
    /// Where the text shown starts in the file: its byte offset, 0-based line and column.
    base: u32,
    first_line: usize,
    first_column: usize,
}

/// An escaped character: where it is in the file and where its escape is in the shown text.
struct Escape {
    at: u32,
    end: u32,
    shown_at: u32,
    shown_end: u32,
}

impl<'r> Snippets<'r> {
    pub(super) fn new(name: &'r str, text: &'r str, lines: &'r LineIndex<'r>) -> Self {
        let mut escapes = Vec::new();
        let shown = escape_noting(text, true, |e| escapes.push(e));
        Snippets {
            name: escape(name),
            lines,
            shown,
            escapes,
            base: 0,
            first_line: 0,
            first_column: 0,
        }
    }

    /// The part `window` of one line of the file `name`, which starts at the 1-based
    /// `(line, column)` of the file; `lines` indexes `window`.
    pub(super) fn window(
        name: &'r str,
        window: &'r str,
        lines: &'r LineIndex<'r>,
        base: u32,
        (line, column): (usize, usize),
    ) -> Self {
        Snippets {
            base,
            first_line: line - 1,
            first_column: column - 1,
            ..Snippets::new(name, window, lines)
        }
    }

    /// Where the file's byte `offset` is in the shown text.
    pub(super) fn shown(&self, offset: u32) -> usize {
        let offset = offset.saturating_sub(self.base);
        let before = self.escapes.partition_point(|e| e.at < offset);
        match before.checked_sub(1).map(|i| &self.escapes[i]) {
            Some(e) => (offset.max(e.end) - e.end + e.shown_end) as usize,
            None => offset as usize,
        }
    }

    /// Where the shown text's byte `offset` is in the file (inside an escape, its character).
    fn original(&self, offset: usize) -> u32 {
        let offset = offset as u32;
        let before = self.escapes.partition_point(|e| e.shown_at <= offset);
        match before.checked_sub(1).map(|i| &self.escapes[i]) {
            Some(e) if offset < e.shown_end => e.at,
            Some(e) => offset - e.shown_end + e.end,
            None => offset,
        }
    }

    /// `span` of the file in the shown text.
    pub(super) fn shown_span(&self, span: Span) -> SourceSpan {
        let start = self.shown(span.start);
        (start, self.shown(span.end) - start).into()
    }
}

impl SourceCode for Snippets<'_> {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let (start, end) = (span.offset(), span.offset() + span.len());
        if end > self.shown.len() {
            return Err(MietteError::OutOfBounds);
        }
        let (first, last) = (self.original(start), self.original(end.max(start + 1) - 1));
        let first_line = self.lines.line_of(first);
        let last_line = self.lines.line_of(last.max(first));
        let from_line = first_line.saturating_sub(context_lines_before);
        let to_line = (last_line + context_lines_after).min(self.lines.lines() - 1);
        // With no lines before, the contents start at the span: this is how miette asks where
        // a label is, for the header's line and column.
        let (from, column) = if context_lines_before == 0 {
            let column = self.lines.line_column(first).1 - 1;
            (
                start,
                column
                    + if first_line == 0 {
                        self.first_column
                    } else {
                        0
                    },
            )
        } else {
            (self.shown(self.lines.line_start(from_line)), 0)
        };
        let to = self.shown(self.lines.line_start(to_line + 1)).max(end);
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.to_string(),
            &self.shown.as_bytes()[from..to],
            (from, to - from).into(),
            from_line + self.first_line,
            column,
            to_line - from_line + 1,
        )))
    }
}

/// A diagnostic as the human report shows it: its texts escaped, its spans in the shown text of
/// its file (`None` where no snippet is drawn).
pub(super) struct Shown<'r> {
    pub(super) diagnostic: &'r Diagnostic,
    pub(super) snippets: Option<&'r Snippets<'r>>,
}

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&escape(self.diagnostic.message()))
    }
}

impl fmt::Debug for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.diagnostic, f)
    }
}

impl std::error::Error for Shown<'_> {}

impl miette::Diagnostic for Shown<'_> {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.diagnostic.code()))
    }

    fn severity(&self) -> Option<miette::Severity> {
        miette::Diagnostic::severity(self.diagnostic)
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        let help = self.diagnostic.help()?;
        Some(Box::new(escape(help)))
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        // The diagnostic's own labels, moved to where the escaped snippet shows them.
        let snippets = self.snippets?;
        let labels = miette::Diagnostic::labels(self.diagnostic)?;
        Some(Box::new(labels.map(move |label| {
            let end = label.offset() + label.len();
            let shown = snippets.shown_span(Span::new(label.offset() as u32, end as u32));
            let message = label.label().map(|m| escape(m).into_owned());
            if label.primary() {
                miette::LabeledSpan::new_primary_with_span(message, shown)
            } else {
                miette::LabeledSpan::new_with_span(message, shown)
            }
        })))
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.snippets.map(|s| s as &dyn SourceCode)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsafe_characters_are_escaped_and_windows_lines_kept() {
        assert_eq!(escape("a\u{1b}[2Jb"), "a\\u{1b}[2Jb");
        assert_eq!(escape("x\u{202e}y"), "x\\u{202e}y");
        assert_eq!(escape("a\r\nb\rc\td"), "a\\u{d}\\u{a}b\\u{d}c\td");
        let kept = escape_noting("a\r\nb\rc\td\n", true, |_| {});
        assert_eq!(kept, "a\r\nb\\u{d}c\td\n");
        assert!(matches!(escape("plain é"), Cow::Borrowed(_)));
    }

    #[test]
    fn no_line_starts_a_workflow_command() {
        let out = "ok\n  ::error::forged\n##[warning]old\nx ::notice:: mid-line\n::\n".to_string();
        assert_eq!(
            defuse_commands(out),
            "ok\n  \\u{3a}:error::forged\n\\u{23}#[warning]old\nx ::notice:: mid-line\n\\u{3a}:\n"
        );
        let plain = "a\n  b: c\n".to_string();
        assert_eq!(defuse_commands(plain.clone()), plain);
    }

    #[test]
    fn offsets_move_past_escapes_and_back() {
        let text = "a\u{1b}b\u{202e}c";
        let lines = LineIndex::new(text);
        let snippets = Snippets::new("f", text, &lines);
        assert_eq!(snippets.shown, "a\\u{1b}b\\u{202e}c");
        // a, ESC, b, U+202E, c at 0, 1, 2, 3, 6 in the file.
        let shown: Vec<usize> = [0, 1, 2, 3, 6, 7].map(|o| snippets.shown(o)).to_vec();
        assert_eq!(shown, [0, 1, 7, 8, 16, 17]);
        for (file, shown) in [(0, 0), (1, 1), (2, 7), (3, 8), (6, 16), (7, 17)] {
            assert_eq!(snippets.original(shown), file, "{shown}");
        }
        // Inside an escape: its character.
        assert_eq!(snippets.original(4), 1);
        assert_eq!(snippets.original(10), 3);
    }
}
