//! Source positions: byte-offset spans and a line/column index.

use std::fmt;

/// A half-open range of byte offsets `start..end` into the source text.
///
/// Offsets are `u32` to keep AST nodes small; [`crate::parse`] refuses sources
/// of 4 GiB or more with a diagnostic instead of truncating offsets.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Span {
    /// Offset of the first byte.
    pub start: u32,
    /// Offset one past the last byte.
    pub end: u32,
}

impl Span {
    /// A span from `start` to `end` (byte offsets).
    pub const fn new(start: u32, end: u32) -> Self {
        Span { start, end }
    }

    /// A span from `usize` offsets as produced by the lexer and LALRPOP.
    ///
    /// Offsets are guaranteed to fit because [`crate::parse`] rejects larger sources.
    pub(crate) fn from_usize(start: usize, end: usize) -> Self {
        Span::new(start as u32, end as u32)
    }

    /// The smallest span covering both `self` and `other`.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }

    /// The first `len` bytes of this span (all of it when shorter).
    pub fn with_len(self, len: u32) -> Span {
        Span::new(self.start, self.end.min(self.start.saturating_add(len)))
    }

    /// The number of bytes covered.
    pub fn len(self) -> u32 {
        self.end - self.start
    }

    /// Whether the span covers no byte.
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }

    /// Whether `other` lies within `self`.
    pub fn contains(self, other: Span) -> bool {
        self.start <= other.start && other.end <= self.end
    }

    /// The text this span covers in `source` (empty if out of range).
    pub fn text(self, source: &str) -> &str {
        source
            .get(self.start as usize..self.end as usize)
            .unwrap_or("")
    }
}

impl fmt::Debug for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

impl From<Span> for miette::SourceSpan {
    fn from(span: Span) -> Self {
        miette::SourceSpan::new((span.start as usize).into(), span.len() as usize)
    }
}

/// Anything that knows where it came from in the source.
pub trait Spanned {
    /// The span of the whole construct.
    fn span(&self) -> Span;
}

impl Spanned for Span {
    fn span(&self) -> Span {
        *self
    }
}

/// Maps byte offsets to 1-based line and column numbers, the one definition every output of
/// the crate uses.
///
/// A line ends after each `\n` (so `\r\n` ends one line too); a lone `\r` is a character of its
/// line, as it is to the lexer, which reads it as white space. Columns count characters
/// (Unicode scalar values, not bytes) from the start of the line; a byte-order mark that opens
/// the source is not one of them.
///
/// Every look-up takes time bounded by a constant (for the line, a binary search), so that the
/// columns of many diagnostics on one long line cost what they cost on many short lines.
#[derive(Debug, Clone)]
pub struct LineIndex<'a> {
    source: &'a str,
    line_starts: Vec<u32>,
    /// For a source that is not all ASCII, the characters before each multiple of
    /// [`CHECKPOINT`] bytes; empty for ASCII, where characters are bytes.
    chars_before: Vec<u32>,
}

/// The distance in bytes between two entries of [`LineIndex::chars_before`].
const CHECKPOINT: usize = 256;

/// Whether `byte` starts a character (it is not a UTF-8 continuation byte).
fn starts_char(byte: u8) -> bool {
    byte & 0xC0 != 0x80
}

impl<'a> LineIndex<'a> {
    /// Indexes the line starts of `source`.
    pub fn new(source: &'a str) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(
            source
                .bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i as u32 + 1),
        );
        let mut chars_before = Vec::new();
        if !source.is_ascii() {
            let mut chars = 0;
            for chunk in source.as_bytes().chunks(CHECKPOINT) {
                chars_before.push(chars);
                chars += chunk.iter().filter(|&&b| starts_char(b)).count() as u32;
            }
            // And at the end, which is a checkpoint of its own when the length is a multiple.
            chars_before.push(chars);
        }
        LineIndex {
            source,
            line_starts,
            chars_before,
        }
    }

    /// The characters that begin before byte `offset` (a character boundary).
    fn chars_up_to(&self, offset: usize) -> usize {
        if self.chars_before.is_empty() {
            return offset;
        }
        let checkpoint = offset / CHECKPOINT;
        let from = checkpoint * CHECKPOINT;
        let rest = self.source.as_bytes()[from..offset].iter();
        self.chars_before[checkpoint] as usize + rest.filter(|&&b| starts_char(b)).count()
    }

    /// The 1-based `(line, column)` of byte `offset` (clamped to the source).
    pub fn line_column(&self, offset: u32) -> (usize, usize) {
        let offset = offset.min(self.source.len() as u32);
        let line = self.line_of(offset);
        let mut start = self.line_starts[line] as usize;
        let mut end = offset as usize;
        while !self.source.is_char_boundary(end) {
            end -= 1;
        }
        if line == 0 && self.source.starts_with('\u{feff}') {
            start = end.min('\u{feff}'.len_utf8());
        }
        let column = self.chars_up_to(end) - self.chars_up_to(start) + 1;
        (line + 1, column)
    }

    /// The byte offset of the character at 0-based `index` from the start of the source (the
    /// source's end past its last character): how a position that counts characters, as YAML
    /// parsers give them, becomes a span.
    pub fn char_offset(&self, index: usize) -> u32 {
        let bytes = self.source.as_bytes();
        if self.chars_before.is_empty() {
            return index.min(bytes.len()) as u32;
        }
        let checkpoint = self
            .chars_before
            .partition_point(|&chars| chars as usize <= index)
            .saturating_sub(1);
        let mut chars = self.chars_before[checkpoint] as usize;
        for (offset, &byte) in bytes.iter().enumerate().skip(checkpoint * CHECKPOINT) {
            if starts_char(byte) {
                if chars == index {
                    return offset as u32;
                }
                chars += 1;
            }
        }
        bytes.len() as u32
    }

    /// The 0-based line that byte `offset` is on (the last line past the end).
    pub fn line_of(&self, offset: u32) -> usize {
        self.line_starts.partition_point(|&s| s <= offset) - 1
    }

    /// How many lines the source has (an empty source, and a last line after a final `\n`,
    /// count as one).
    pub fn lines(&self) -> usize {
        self.line_starts.len()
    }

    /// Where the 0-based `line` starts; the end of the source for a line past the last.
    pub fn line_start(&self, line: usize) -> u32 {
        self.line_starts
            .get(line)
            .copied()
            .unwrap_or(self.source.len() as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_are_one_based() {
        let index = LineIndex::new("ab\ncdé\nx");
        assert_eq!(index.line_column(0), (1, 1));
        assert_eq!(index.line_column(2), (1, 3));
        assert_eq!(index.line_column(3), (2, 1));
        assert_eq!(index.line_column(7), (2, 4));
        assert_eq!(index.line_column(8), (3, 1));
        assert_eq!(index.line_column(100), (3, 2));
    }

    #[test]
    fn columns_count_characters_across_checkpoints() {
        // A long line of two-byte characters, with a checkpoint inside a character.
        let text = format!("x\n{}y", "é".repeat(300));
        let index = LineIndex::new(&text);
        for (i, (offset, _)) in text.char_indices().skip(2).enumerate() {
            assert_eq!(index.line_column(offset as u32), (2, i + 1), "{offset}");
        }
        // An offset inside a character is that character's column.
        assert_eq!(index.line_column(2 + 257), (2, 129));
        // And back: each character's offset from its index.
        for (i, (offset, _)) in text.char_indices().enumerate() {
            assert_eq!(index.char_offset(i), offset as u32);
        }
        assert_eq!(index.char_offset(10_000), text.len() as u32);
        assert_eq!(LineIndex::new("abc").char_offset(1), 1);
        // The end of a source whose length is a multiple of the checkpoints' distance (found
        // by the pipeline fuzz target).
        let text = "é".repeat(CHECKPOINT);
        let index = LineIndex::new(&text);
        assert_eq!(index.line_column(text.len() as u32), (1, CHECKPOINT + 1));
        assert_eq!(index.char_offset(CHECKPOINT), text.len() as u32);
    }

    #[test]
    fn a_byte_order_mark_is_not_a_column() {
        let index = LineIndex::new("\u{feff}ab\ncd");
        assert_eq!(index.line_column(0), (1, 1));
        assert_eq!(index.line_column(3), (1, 1));
        assert_eq!(index.line_column(4), (1, 2));
        assert_eq!(index.line_column(7), (2, 2));
    }

    #[test]
    fn covering_span() {
        assert_eq!(Span::new(4, 6).to(Span::new(1, 3)), Span::new(1, 6));
        assert!(Span::new(1, 6).contains(Span::new(2, 3)));
        assert!(!Span::new(1, 6).contains(Span::new(2, 7)));
    }
}
