//! JUnit XML, the test report that CI services show: a test suite per file, a failed test case
//! per diagnostic, and one passing test case for a file without any.

use super::snippet::escape;
use super::{FileReport, Locator};

/// Renders the reports as a JUnit XML document.
pub fn render_junit(reports: &[FileReport<'_>]) -> String {
    let locator = Locator::new(reports);
    let failures: usize = reports.iter().map(|r| r.diagnostics.len()).sum();
    let cases = |r: &FileReport<'_>| r.diagnostics.len().max(1);
    let mut out = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <testsuites name=\"pipeline-sql\" tests=\"{}\" failures=\"{failures}\" errors=\"0\">\n",
        reports.iter().map(cases).sum::<usize>(),
    );
    for (index, report) in reports.iter().enumerate() {
        let path = xml(report.path);
        out.push_str(&format!(
            "  <testsuite name=\"{path}\" tests=\"{}\" failures=\"{}\" errors=\"0\">\n",
            cases(report),
            report.diagnostics.len()
        ));
        if report.diagnostics.is_empty() {
            out.push_str(&format!(
                "    <testcase name=\"checked\" classname=\"{path}\" file=\"{path}\"/>\n"
            ));
        }
        for d in report.diagnostics {
            let [(line, column), _] = locator.range(index, d.span());
            let mut text = xml(&format!("{}:{line}:{column}: {}", report.path, d.message()));
            if let Some(help) = d.help() {
                text = format!("{text}&#10;help: {}", xml(help));
            }
            out.push_str(&format!(
                "    <testcase name=\"{} at {line}:{column}\" classname=\"{path}\" file=\"{path}\" line=\"{line}\">\n\
                 \x20     <failure type=\"{}\" message=\"{}\">{}</failure>\n    </testcase>\n",
                d.code(),
                d.severity().as_str(),
                xml(d.message()),
                text,
            ));
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

/// `text` as XML character data or an attribute value, on one line: control characters and
/// line breaks written as `\u{..}` (XML 1.0 cannot hold most of them, and a CI log shows the
/// text) and markup characters as entities.
fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in escape(text).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' => out.push_str("&#9;"),
            // Noncharacters that XML 1.0 does not allow either.
            '\u{FFFE}' | '\u{FFFF}' => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}
