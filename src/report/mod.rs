//! Rendering diagnostics for people (miette reports with source snippets) and for tools (one
//! JSON document). Used by the CLI; available to library users with the `cli` feature.

mod junit;
mod lineage;
mod sarif;
mod snippet;

pub use junit::render_junit;
pub use lineage::{render_lineage_dot, render_lineage_json, render_lineage_mermaid, Lineage};
pub use sarif::render_sarif;

use crate::pipeline::{PipelineCheck, PipelineReport};
use crate::{Applicability, Diagnostic, FileId, Label, LineIndex};
use miette::{GraphicalReportHandler, GraphicalTheme};
use snippet::{defuse_commands, Shown, Snippets};
pub use snippet::{escape, reads_as_a_command};

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

/// The reports of every source of a pipeline checked with
/// [`Pipeline::check_in_parallel`](crate::Pipeline::check_in_parallel), in [`FileId`] order.
pub fn source_reports<'c>(report: &'c PipelineReport<'_>) -> Vec<FileReport<'c>> {
    report
        .sources
        .iter()
        .map(|s| FileReport {
            path: &s.name,
            source: s.text,
            statements: s.statements,
            diagnostics: &s.diagnostics,
        })
        .collect()
}

/// The line index of every report, made once: where a diagnostic or a label is, in any file.
struct Locator<'r> {
    reports: &'r [FileReport<'r>],
    lines: Vec<LineIndex<'r>>,
}

impl<'r> Locator<'r> {
    fn new(reports: &'r [FileReport<'r>]) -> Self {
        let lines = reports.iter().map(|r| LineIndex::new(r.source)).collect();
        Locator { reports, lines }
    }

    /// The 1-based line and column of `offset` in the report at `index`.
    fn line_column(&self, index: usize, offset: u32) -> (usize, usize) {
        self.lines[index].line_column(offset)
    }

    /// The 1-based line and column where `span` starts and where it ends, in the report at
    /// `index`.
    fn range(&self, index: usize, span: crate::Span) -> [(usize, usize); 2] {
        [span.start, span.end].map(|offset| self.line_column(index, offset))
    }

    /// The report a label of the report at `own` is in.
    fn file_of(&self, own: usize, label: &Label) -> usize {
        match label.file {
            Some(FileId(i)) if (i as usize) < self.reports.len() => i as usize,
            _ => own,
        }
    }

    /// Where a label of the report at `own` is: its file's path and its line and column.
    fn label(&self, own: usize, label: &Label) -> (&'r str, usize, usize) {
        let index = self.file_of(own, label);
        let (line, column) = self.line_column(index, label.span.start);
        (self.reports[index].path, line, column)
    }
}

/// The longest line drawn whole, in bytes: of a longer (generated or minified) line, a window
/// around the diagnostic is drawn.
const LONG_LINE: u32 = 400;
/// The bytes of a long line drawn on either side of what a diagnostic marks.
const WINDOW_CONTEXT: u32 = 120;

/// How much of a file a diagnostic's snippet draws.
enum Drawn {
    /// Its lines, whole.
    Lines,
    /// This part of one long line.
    Window(crate::Span),
    /// Nothing: what it marks spans long lines, or is long itself.
    Nothing,
}

impl Drawn {
    /// How to draw a snippet that marks `spans` of `source` (indexed by `lines`).
    fn of(source: &str, lines: &LineIndex<'_>, spans: &[crate::Span]) -> Drawn {
        let line_of = |offset: u32| lines.line_of(offset);
        let touched = spans
            .iter()
            .flat_map(|s| [line_of(s.start), line_of(s.end)]);
        let (first, last) = touched.fold((usize::MAX, 0), |(a, b), l| (a.min(l), b.max(l)));
        let long = |line: usize| lines.line_start(line + 1) - lines.line_start(line) > LONG_LINE;
        if !(first..=last).any(long) {
            return Drawn::Lines;
        }
        let start = spans.iter().map(|s| s.start).min().unwrap_or(0);
        let end = spans.iter().map(|s| s.end).max().unwrap_or(0);
        if first != last || end - start > LONG_LINE {
            return Drawn::Nothing;
        }
        let line_start = lines.line_start(first);
        let line_end = line_start
            + source[line_start as usize..lines.line_start(first + 1) as usize]
                .trim_end_matches(['\n', '\r'])
                .len() as u32;
        let mut from = start.saturating_sub(WINDOW_CONTEXT).max(line_start) as usize;
        let mut to = end.saturating_add(WINDOW_CONTEXT).min(line_end).max(end) as usize;
        while !source.is_char_boundary(from) {
            from -= 1;
        }
        while !source.is_char_boundary(to) {
            to += 1;
        }
        Drawn::Window(crate::Span::new(from as u32, to as u32))
    }
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
    /// Diagnostics with a safe fix, which `check --fix` applies.
    pub fixable: usize,
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
                let fix = diagnostic.fix();
                summary.fixable +=
                    usize::from(fix.is_some_and(|f| f.applicability == Applicability::Safe));
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
    let locator = Locator::new(reports);
    let mut out = String::new();
    for (index, report) in reports.iter().enumerate() {
        if report.diagnostics.is_empty() {
            continue;
        }
        let snippets = Snippets::new(report.path, report.source, &locator.lines[index]);
        for diagnostic in report.diagnostics {
            let spans: Vec<crate::Span> = std::iter::once(diagnostic.span())
                .chain(
                    diagnostic
                        .labels()
                        .iter()
                        .filter(|l| l.file.is_none())
                        .map(|l| l.span),
                )
                .collect();
            let drawn = Drawn::of(report.source, &locator.lines[index], &spans);
            let (window_lines, window);
            let snippets = match drawn {
                Drawn::Lines => Some(&snippets),
                Drawn::Window(part) => {
                    let text = &report.source[part.start as usize..part.end as usize];
                    window_lines = LineIndex::new(text);
                    let at = locator.line_column(index, part.start);
                    window = Snippets::window(report.path, text, &window_lines, part.start, at);
                    Some(&window)
                }
                Drawn::Nothing => None,
            };
            let shown = Shown {
                diagnostic,
                snippets,
            };
            // Writing into a String cannot fail.
            let _ = handler.render_report(&mut out, &shown);
            let (line, column) = locator.line_column(index, diagnostic.span().start);
            let path = escape(report.path);
            match drawn {
                Drawn::Lines => {}
                Drawn::Window(_) => out.push_str(&format!(
                    "  (a part of line {line} of {path}, which is too long to show whole)\n"
                )),
                Drawn::Nothing => out.push_str(&format!(
                    "  at {path}:{line}:{column} (its lines are too long to show)\n"
                )),
            }
            // Labels in other files cannot be drawn in this file's snippet: name them.
            for label in diagnostic.labels().iter().filter(|l| l.file.is_some()) {
                let (path, line, column) = locator.label(index, label);
                out.push_str(&format!(
                    "  note: {} ({}:{line}:{column})\n",
                    escape(&label.message),
                    escape(path)
                ));
            }
            out.push('\n');
        }
    }
    out.push_str(&summary_line(&Summary::of(reports)));
    defuse_commands(out)
}

/// `checked 2 files, 5 statements: 1 error, 0 warnings`, what `--fix` would fix, and a line
/// end.
fn summary_line(s: &Summary) -> String {
    let fixable = match s.fixable {
        0 => String::new(),
        n => format!(" ({n} fixable with `--fix`)"),
    };
    format!(
        "checked {} file{}, {} statement{}: {} error{}, {} warning{}{fixable}\n",
        s.files,
        plural(s.files),
        s.statements,
        plural(s.statements),
        s.errors,
        plural(s.errors),
        s.warnings,
        plural(s.warnings),
    )
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Renders all diagnostics as one JSON document:
/// `{"diagnostics":[{"file","code","severity","message","span":{"start","end"},"line","column",
///   "end_line","end_column","help","help_uri","labels":[{"file","span","line","column","message"}],
///   "fix":{"message","applicability","edits":[{"span","line","column","end_line","end_column",
///   "replacement"}]}}], "summary":{"files","statements","errors","warnings","fixable"}}`.
/// Spans are byte offsets; lines and columns are 1-based, and columns count characters (see
/// [`LineIndex`]). `help_uri` is the path of the code's page in the repository. `fix` is null
/// where the fix is not mechanical; `applicability` is `safe` (applied by `--fix`) or `unsafe`
/// (applied with `--unsafe-fixes` too). Texts are as written: JSON escapes what it must.
pub fn render_json(reports: &[FileReport<'_>]) -> String {
    let locator = Locator::new(reports);
    // Written one diagnostic at a time: a document of them all as one value took a hundred
    // times the memory of its text.
    let mut out = String::from("{\"diagnostics\":[");
    let mut first = true;
    for (index, report) in reports.iter().enumerate() {
        for d in report.diagnostics {
            if !std::mem::take(&mut first) {
                out.push(',');
            }
            let [(line, column), (end_line, end_column)] = locator.range(index, d.span());
            let diagnostic = serde_json::json!({
                "file": report.path,
                "code": d.code(),
                "severity": d.severity().as_str(),
                "message": d.message(),
                "span": { "start": d.span().start, "end": d.span().end },
                "line": line,
                "column": column,
                "end_line": end_line,
                "end_column": end_column,
                "help": d.help(),
                "help_uri": help_uri(d.code()),
                "labels": d.labels().iter().map(|label| {
                    let (path, line, column) = locator.label(index, label);
                    serde_json::json!({
                        "file": path,
                        "span": { "start": label.span.start, "end": label.span.end },
                        "line": line,
                        "column": column,
                        "message": label.message,
                    })
                }).collect::<Vec<_>>(),
                "fix": d.fix().map(|fix| serde_json::json!({
                    "message": fix.message,
                    "applicability": fix.applicability.as_str(),
                    "edits": fix.edits.iter().map(|edit| {
                        let [(line, column), (end_line, end_column)] = locator.range(index, edit.span);
                        serde_json::json!({
                            "span": { "start": edit.span.start, "end": edit.span.end },
                            "line": line,
                            "column": column,
                            "end_line": end_line,
                            "end_column": end_column,
                            "replacement": edit.replacement,
                        })
                    }).collect::<Vec<_>>(),
                })),
            });
            out.push_str(&diagnostic.to_string());
        }
    }
    let s = Summary::of(reports);
    let summary = serde_json::json!({
        "files": s.files, "statements": s.statements, "errors": s.errors, "warnings": s.warnings,
        "fixable": s.fixable,
    });
    out.push_str(&format!("],\"summary\":{summary}}}"));
    out
}

/// Where a code's page is: its path in the repository.
fn help_uri(code: &str) -> String {
    format!("docs/codes/{code}.md")
}

/// The page of every code in `docs/codes/`, by code, sorted (written by `build.rs`).
pub const CODE_PAGES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/code_pages.rs"));

/// The page of `code` in `docs/codes/`: what triggers it, why, an example and the fix.
pub fn code_page(code: &str) -> Option<&'static str> {
    CODE_PAGES
        .binary_search_by_key(&code, |(name, _)| name)
        .ok()
        .map(|i| CODE_PAGES[i].1)
}

/// Renders one line per diagnostic, `file:line:column: severity[CODE] message`, then the
/// summary line; texts escaped as in the human report.
pub fn render_concise(reports: &[FileReport<'_>]) -> String {
    let locator = Locator::new(reports);
    let mut out = String::new();
    for (index, report) in reports.iter().enumerate() {
        for d in report.diagnostics {
            let [(line, column), _] = locator.range(index, d.span());
            out.push_str(&format!(
                "{}:{line}:{column}: {}[{}] {}\n",
                escape(report.path),
                d.severity().as_str(),
                d.code(),
                escape(d.message())
            ));
        }
    }
    out.push_str(&summary_line(&Summary::of(reports)));
    defuse_commands(out)
}

/// Renders each diagnostic as a GitHub Actions workflow command (`::error file=...,line=...::
/// message`), which annotates the file in a pull request, then the summary line.
pub fn render_github(reports: &[FileReport<'_>]) -> String {
    // GitHub's escapes: `%` everywhere (CR and LF are escaped to one line already), and `:`
    // and `,` in a property's value.
    fn data(text: &str) -> String {
        escape(text).replace('%', "%25")
    }
    fn property(text: &str) -> String {
        data(text).replace(':', "%3A").replace(',', "%2C")
    }
    let locator = Locator::new(reports);
    let mut out = String::new();
    for (index, report) in reports.iter().enumerate() {
        for d in report.diagnostics {
            let [(line, column), (end_line, end_column)] = locator.range(index, d.span());
            let mut message = data(d.message());
            if let Some(help) = d.help() {
                message = format!("{message}%0Ahelp: {}", data(help));
            }
            out.push_str(&format!(
                "::{} file={},line={line},col={column},endLine={end_line},endColumn={end_column},title={}::{}\n",
                d.severity().as_str(),
                property(report.path),
                property(d.code()),
                message
            ));
        }
    }
    out.push_str(&summary_line(&Summary::of(reports)));
    out
}
