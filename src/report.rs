//! Rendering diagnostics for people (miette reports with source snippets) and for tools (one
//! JSON document). Used by the CLI; available to library users with the `cli` feature.

use crate::pipeline::PipelineCheck;
use crate::{Diagnostic, FileId, Label, LineIndex};
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

/// The reports of every source of a checked pipeline, in [`FileId`] order.
pub fn file_reports<'c>(checked: &'c PipelineCheck<'_>) -> Vec<FileReport<'c>> {
    checked
        .sources
        .iter()
        .map(|s| FileReport {
            path: &s.name,
            source: s.text,
            statements: s.script.statements.len(),
            diagnostics: &s.diagnostics,
        })
        .collect()
}

/// Where a label is: its file's path and its 1-based line and column.
fn locate<'r>(
    reports: &'r [FileReport<'_>],
    own: &'r FileReport<'_>,
    label: &Label,
) -> (&'r str, usize, usize) {
    let report = match label.file {
        Some(FileId(i)) => reports.get(i as usize).unwrap_or(own),
        None => own,
    };
    let (line, column) = LineIndex::new(report.source).line_column(label.span.start);
    (report.path, line, column)
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
            // Labels in other files cannot be drawn in this file's snippet: name them.
            for label in diagnostic.labels().iter().filter(|l| l.file.is_some()) {
                let (path, line, column) = locate(reports, report, label);
                out.push_str(&format!(
                    "  note: {} ({path}:{line}:{column})\n",
                    label.message
                ));
            }
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
/// `{"diagnostics":[{"file","code","severity","message","span":{"start","end"},"line","column","help",
///   "labels":[{"file","span","line","column","message"}]}],
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
                "labels": d.labels().iter().map(|label| {
                    let (path, line, column) = locate(reports, report, label);
                    serde_json::json!({
                        "file": path,
                        "span": { "start": label.span.start, "end": label.span.end },
                        "line": line,
                        "column": column,
                        "message": label.message,
                    })
                }).collect::<Vec<_>>(),
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
