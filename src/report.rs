//! Rendering diagnostics for people (miette reports with source snippets) and for tools (one
//! JSON document). Used by the CLI; available to library users with the `cli` feature.

use crate::{Diagnostic, LineIndex};
use miette::{GraphicalReportHandler, GraphicalTheme, NamedSource};

/// One checked source file and what was found in it.
pub struct FileReport<'a> {
    /// The path as given (or a name for the source).
    pub path: &'a str,
    /// The file's text.
    pub source: &'a str,
    /// The number of statements in the file.
    pub statements: usize,
    /// The diagnostics for this file.
    pub diagnostics: &'a [Diagnostic],
}

/// Totals over all files.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    /// Files checked.
    pub files: usize,
    /// Statements parsed.
    pub statements: usize,
    /// Error-severity diagnostics.
    pub errors: usize,
    /// Warning-severity diagnostics.
    pub warnings: usize,
}

impl Summary {
    /// Adds up the reports.
    pub fn of(reports: &[FileReport<'_>]) -> Summary {
        let mut summary = Summary {
            files: reports.len(),
            ..Summary::default()
        };
        for report in reports {
            summary.statements += report.statements;
            for diagnostic in report.diagnostics {
                if diagnostic.is_error() {
                    summary.errors += 1;
                } else {
                    summary.warnings += 1;
                }
            }
        }
        summary
    }
}

/// Renders every diagnostic as a miette report with its source snippet, followed by a summary
/// line. `width` is the terminal width; `color` turns ANSI colours on.
pub fn render_human(reports: &[FileReport<'_>], width: usize, color: bool) -> String {
    let theme = if color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme).with_width(width);
    let mut out = String::new();
    for report in reports {
        for diagnostic in report.diagnostics {
            let with_source = miette::Report::new(diagnostic.clone())
                .with_source_code(NamedSource::new(report.path, report.source.to_string()));
            // Writing into a String cannot fail.
            let _ = handler.render_report(&mut out, with_source.as_ref());
            out.push('\n');
        }
    }
    let s = Summary::of(reports);
    out.push_str(&format!(
        "checked {} file{}, {} statement{}: {} error{}, {} warning{}\n",
        s.files,
        plural(s.files),
        s.statements,
        plural(s.statements),
        s.errors,
        plural(s.errors),
        s.warnings,
        plural(s.warnings),
    ));
    out
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Renders all diagnostics as one JSON document:
/// `{"diagnostics":[{"file","code","severity","message","span":{"start","end"},"line","column","help"}],
///   "summary":{"files","statements","errors","warnings"}}` (line and column 1-based).
pub fn render_json(reports: &[FileReport<'_>]) -> String {
    let mut diagnostics = Vec::new();
    for report in reports {
        let lines = LineIndex::new(report.source);
        for d in report.diagnostics {
            let (line, column) = lines.line_column(d.span().start);
            diagnostics.push(serde_json::json!({
                "file": report.path,
                "code": d.code(),
                "severity": d.severity().as_str(),
                "message": d.message(),
                "span": { "start": d.span().start, "end": d.span().end },
                "line": line,
                "column": column,
                "help": d.help(),
            }));
        }
    }
    let s = Summary::of(reports);
    let document = serde_json::json!({
        "diagnostics": diagnostics,
        "summary": { "files": s.files, "statements": s.statements, "errors": s.errors, "warnings": s.warnings },
    });
    document.to_string()
}
