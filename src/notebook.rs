//! Notebook sources: the cells of a `.sql` file exported from a notebook.
//!
//! An exported notebook starts with the line `-- Databricks notebook source`, and a line
//! `-- COMMAND ----------` separates its cells. The engine runs each cell on its own, so a cell
//! boundary ends a statement (and a comment or a string left open), whether or not the file
//! has the header. A cell whose lines all start with `-- MAGIC` holds markdown (`%md`) or
//! another language (`%python`, `%scala`, `%sh`, `%run`, ...), which a SQL pipeline does not
//! run: it is no SQL to check.
//!
//! A file without cell boundaries is one SQL cell.

use crate::diagnostic::{Code, Diagnostic};
use crate::span::Span;

/// The line that separates two cells.
const BOUNDARY: &str = "-- COMMAND ----------";

/// The first line of an exported notebook.
const HEADER: &str = "-- Databricks notebook source";

/// The start of the line that gives a cell its title (`-- DBTITLE 1,Load the orders`).
const TITLE: &str = "-- DBTITLE";

/// The prefix of every line of a cell that is not in the notebook's language.
const MAGIC: &str = "-- MAGIC";

/// One cell of a source: where it is (between its boundary lines, which belong to no cell)
/// and what it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cell<'a> {
    /// The cell's text: from after the boundary line before it (or the start of the source)
    /// to the start of the boundary line after it (or the end of the source).
    pub span: Span,
    /// What the cell holds.
    pub kind: CellKind<'a>,
}

/// What a cell holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CellKind<'a> {
    /// SQL (or nothing but comments): the pipeline runs it.
    Sql,
    /// Markdown (`-- MAGIC %md`), which documents the notebook.
    Markdown,
    /// Another language or a notebook command (`-- MAGIC %python`: `python`), which a SQL
    /// pipeline does not run.
    Other(&'a str),
}

/// The cells of `source`, in order: one SQL cell for a file without cell boundaries.
pub fn cells(source: &str) -> Vec<Cell<'_>> {
    // Most files are no notebook: one search of the text says so.
    if !source.contains(BOUNDARY) {
        return vec![Cell {
            span: Span::from_usize(0, source.len()),
            kind: CellKind::Sql,
        }];
    }
    let mut cells = Vec::new();
    let mut start = 0;
    let mut line_start = 0;
    for line in source.split_inclusive('\n') {
        let line_end = line_start + line.len();
        if line.trim_end() == BOUNDARY {
            cells.push(cell(source, start, line_start));
            start = line_end;
        }
        line_start = line_end;
    }
    cells.push(cell(source, start, source.len()));
    cells
}

/// The cell of `source[start..end]`.
fn cell(source: &str, start: usize, end: usize) -> Cell<'_> {
    let mut lines = content_lines(source, Span::from_usize(start, end)).map(|(_, line)| line);
    let kind = match lines.clone().next() {
        Some(first) if lines.all(|line| line.starts_with(MAGIC)) => {
            let command = first[MAGIC.len()..].trim_start();
            let word = command
                .strip_prefix('%')
                .and_then(|rest| rest.split(|c: char| c.is_whitespace()).next())
                .unwrap_or("");
            if word == "md" || word.starts_with("md-") {
                CellKind::Markdown
            } else {
                CellKind::Other(word)
            }
        }
        _ => CellKind::Sql,
    };
    Cell {
        span: Span::from_usize(start, end),
        kind,
    }
}

/// A warning for each cell of a magic command other than markdown, at its first line: the
/// pipeline does not run it, so whatever it was meant to do does not happen.
pub(crate) fn ignored_cells(source: &str, cells: &[Cell<'_>]) -> Vec<Diagnostic> {
    cells
        .iter()
        .filter_map(|cell| {
            let CellKind::Other(language) = cell.kind else {
                return None;
            };
            let what = if language.is_empty() {
                "this cell is a notebook command".to_string()
            } else {
                format!("this `%{language}` cell is a notebook command")
            };
            Some(
                Diagnostic::warning(
                    Code::NotebookCellNotRun,
                    first_line(source, cell.span),
                    format!("{what}: a pipeline runs its notebooks' SQL cells, not their commands"),
                )
                .with_help(
                    "move what it does into the pipeline's SQL, or into a source file of its own language",
                ),
            )
        })
        .collect()
}

/// The first line of the cell at `span` in `source` that holds what the cell holds.
fn first_line(source: &str, span: Span) -> Span {
    content_lines(source, span)
        .next()
        .map_or(Span::new(span.start, span.start), |(start, line)| {
            Span::from_usize(start, start + line.len())
        })
}

/// The lines of the cell at `span` in `source` that hold what it holds, trimmed, with where
/// each starts: not blank lines, the file's header or the cell's title.
fn content_lines(source: &str, span: Span) -> impl Iterator<Item = (usize, &str)> + Clone {
    let text = &source[span.start as usize..span.end as usize];
    text.split_inclusive('\n')
        .scan(span.start as usize, |offset, line| {
            let start = *offset + (line.len() - line.trim_start().len());
            *offset += line.len();
            Some((start, line.trim()))
        })
        .filter(|(_, line)| !line.is_empty() && *line != HEADER && !line.starts_with(TITLE))
}

/// Which of `cells` holds `offset` (a boundary line belongs to none).
pub fn cell_at(cells: &[Cell<'_>], offset: usize) -> Option<usize> {
    let i = cells.partition_point(|cell| (cell.span.end as usize) < offset);
    cells
        .get(i)
        .filter(|cell| (cell.span.start as usize) <= offset)
        .map(|_| i)
}

#[cfg(test)]
mod tests {
    use super::{cell_at, cells, CellKind};

    #[test]
    fn a_file_without_boundaries_is_one_sql_cell() {
        let source = "SELECT 1;\n-- COMMAND -----\nSELECT 2";
        let found = cells(source);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].kind, CellKind::Sql);
        assert_eq!(found[0].span.end as usize, source.len());
    }

    #[test]
    fn boundaries_cut_cells_and_magic_cells_say_their_language() {
        let source = "-- Databricks notebook source\n-- MAGIC %md\n-- MAGIC # Title\n\n\
                      -- COMMAND ----------\n\nSET a = 1\n\n-- COMMAND ----------\r\n\
                      -- MAGIC %python\n-- MAGIC print(1)\n\n-- COMMAND ----------\n\
                      -- MAGIC %md-sandbox\n";
        let found = cells(source);
        let kinds: Vec<_> = found.iter().map(|c| c.kind).collect();
        assert_eq!(
            kinds,
            [
                CellKind::Markdown,
                CellKind::Sql,
                CellKind::Other("python"),
                CellKind::Markdown
            ]
        );
        let second = found[1].span;
        assert_eq!(
            &source[second.start as usize..second.end as usize],
            "\nSET a = 1\n\n"
        );
        let set = source.find("SET").unwrap();
        assert_eq!(cell_at(&found, set), Some(1));
        let boundary = source.find("-- COMMAND").unwrap();
        assert_eq!(cell_at(&found, boundary + 3), None);
    }

    #[test]
    fn a_cell_with_sql_among_magic_lines_is_sql() {
        let source = "-- COMMAND ----------\n-- DBTITLE 1,Setup\n-- MAGIC %md\nSELECT 1\n\
                      -- COMMAND ----------\n-- DBTITLE 1,Notes\n-- MAGIC %md\n";
        assert_eq!(cells(source)[1].kind, CellKind::Sql);
        assert_eq!(cells(source)[2].kind, CellKind::Markdown);
    }
}
