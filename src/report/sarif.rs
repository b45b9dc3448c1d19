//! SARIF 2.1.0, the format code-scanning services (GitHub's among them) read: one run of the
//! tool, its rules (the codes reported), and a result per diagnostic.

use super::{code_page, help_uri, FileReport, Locator};
use crate::{Code, Diagnostic, Label};
use serde_json::{json, Value};

/// Renders the reports as one SARIF 2.1.0 log. The rules are the codes reported. Columns count
/// Unicode code points (`columnKind`), as everywhere in the reports; artifact URIs are the
/// paths as given, percent-encoded where a URI needs it.
pub fn render_sarif(reports: &[FileReport<'_>]) -> String {
    let locator = Locator::new(reports);
    let mut reported: Vec<Code> = reports
        .iter()
        .flat_map(|r| r.diagnostics.iter().map(Diagnostic::code_enum))
        .collect();
    reported.sort();
    reported.dedup();
    let rules: Vec<Value> = reported.iter().map(|&code| rule(code)).collect();
    let tool = json!({ "driver": {
        "name": "pipeline-sql",
        "version": env!("CARGO_PKG_VERSION"),
        "rules": rules,
    }});
    // Written one result at a time: a log of them all as one value took seven times the
    // memory of the JSON report.
    let mut out = format!(
        "{{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\",\
         \"runs\":[{{\"tool\":{tool},\"columnKind\":\"unicodeCodePoints\",\"results\":["
    );
    let mut first = true;
    for (index, report) in reports.iter().enumerate() {
        for d in report.diagnostics {
            if !std::mem::take(&mut first) {
                out.push(',');
            }
            let rule_index = reported.binary_search(&d.code_enum()).ok();
            out.push_str(&result(&locator, index, d, rule_index).to_string());
        }
    }
    out.push_str("]}]}");
    out
}

/// A code as a SARIF rule: its id, what triggers it, why, its level, and its page as help
/// (`helpUri` must be absolute, and the page's path in the repository is relative: it is the
/// `helpPath` property instead).
fn rule(code: Code) -> Value {
    json!({
        "id": code.as_str(),
        "shortDescription": { "text": code.summary() },
        "fullDescription": { "text": code.why() },
        "help": { "text": code.why(), "markdown": code_page(code.as_str()).unwrap_or_default() },
        "defaultConfiguration": { "level": code.severity().as_str() },
        "properties": { "helpPath": help_uri(code.as_str()) },
    })
}

/// One diagnostic as a SARIF result, its labels as related locations.
fn result(locator: &Locator<'_>, index: usize, d: &Diagnostic, rule_index: Option<usize>) -> Value {
    let message = match d.help() {
        Some(help) => format!("{}\nhelp: {help}", d.message()),
        None => d.message().to_string(),
    };
    let related: Vec<Value> = d
        .labels()
        .iter()
        .enumerate()
        .map(|(id, label)| related_location(locator, index, id, label))
        .collect();
    let mut result = json!({
        "ruleId": d.code(),
        "ruleIndex": rule_index,
        "level": d.severity().as_str(),
        "message": { "text": message },
        "locations": [physical_location(locator, index, d.span())],
        "relatedLocations": related,
    });
    if let Some(fix) = d.fix() {
        let replacements: Vec<Value> = fix
            .edits
            .iter()
            .map(|edit| {
                json!({
                    "deletedRegion": region(locator, index, edit.span),
                    "insertedContent": { "text": edit.replacement },
                })
            })
            .collect();
        result["fixes"] = json!([{
            "description": { "text": fix.message },
            "artifactChanges": [{
                "artifactLocation": { "uri": uri(locator.reports[index].path) },
                "replacements": replacements,
            }],
            "properties": { "applicability": fix.applicability.as_str() },
        }]);
    }
    result
}

fn related_location(locator: &Locator<'_>, own: usize, id: usize, label: &Label) -> Value {
    let file = locator.file_of(own, label);
    let mut location = physical_location(locator, file, label.span);
    location["id"] = json!(id);
    location["message"] = json!({ "text": label.message });
    location
}

/// Where `span` is in the report at `index`: the file and the region (1-based lines and
/// columns, the end column just past the span).
fn physical_location(locator: &Locator<'_>, index: usize, span: crate::Span) -> Value {
    json!({ "physicalLocation": {
        "artifactLocation": { "uri": uri(locator.reports[index].path) },
        "region": region(locator, index, span),
    }})
}

/// `span` in the report at `index` as a SARIF region (an empty one where the span is empty).
fn region(locator: &Locator<'_>, index: usize, span: crate::Span) -> Value {
    let [(line, column), (end_line, end_column)] = locator.range(index, span);
    json!({
        "startLine": line,
        "startColumn": column,
        "endLine": end_line,
        "endColumn": end_column,
    })
}

/// A path as a relative URI reference: `/` separators, and every byte that is not unreserved
/// (RFC 3986) or `/` percent-encoded.
fn uri(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for byte in path.replace('\\', "/").bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(byte as char)
            }
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_become_uri_references() {
        assert_eq!(uri("flows/orders.sql"), "flows/orders.sql");
        assert_eq!(uri("my flows\\a#1.sql"), "my%20flows/a%231.sql");
        assert_eq!(uri("é.sql"), "%C3%A9.sql");
    }
}
