//! Applying fixes: the edits that diagnostics carry ([`Fix`]) written into their sources.
//!
//! A fix is applied whole or not at all. Of two fixes that overlap, the first in source order
//! is applied and the other waits for the next round: the sources are checked again, and the
//! diagnostics that remain carry edits that fit the new text. [`fix_sources`] runs the rounds.
//! A source with a syntax error is never changed (its tree may not be what its author meant),
//! and a round that would leave a syntax error in a source is undone for that source.
//!
//! ```
//! use pipeline_sql::{fix, Applicability, Arena};
//!
//! let source = "CREATE OR REFRESH LIVE TABLE totals AS SELECT count(*) AS n FROM LIVE.orders;";
//! let fixed = fix::fix_sources(vec![source.to_string()], Applicability::Safe, |texts| {
//!     let arena = Arena::new();
//!     vec![pipeline_sql::check(&arena, &texts[0]).diagnostics().to_vec()]
//! });
//! assert_eq!(
//!     fixed[0].text,
//!     "CREATE OR REFRESH MATERIALIZED VIEW totals AS SELECT count(*) AS n FROM orders;",
//! );
//! ```

use crate::{Applicability, Code, Diagnostic, Fix};

/// The most rounds [`fix_sources`] runs: fixes that keep making new fixes stop there.
pub const MAX_ROUNDS: usize = 10;

/// Whether a source's diagnostics include a syntax error, which leaves the source unfixed.
pub fn has_syntax_error(diagnostics: &[Diagnostic]) -> bool {
    diagnostics.iter().any(|d| d.code_enum().is_syntax_error())
}

/// The fixes of `diagnostics` that `level` allows (the safe ones; with
/// [`Applicability::Unsafe`], the unsafe ones too) applied to `source`, with the code of each
/// diagnostic fixed. `None` when no fix applies. A fix that overlaps one before it, or whose
/// edits do not fit `source`, is left out.
pub fn apply(
    source: &str,
    diagnostics: &[Diagnostic],
    level: Applicability,
) -> Option<(String, Vec<Code>)> {
    let mut fixes: Vec<(&Fix, Code)> = diagnostics
        .iter()
        .filter_map(|d| Some((d.fix()?, d.code_enum())))
        .filter(|(fix, _)| fix.applicability <= level && fits(fix, source))
        .collect();
    fixes.sort_by_key(|(fix, _)| fix.span().map(|s| (s.start, s.end)));
    // The same fix found twice (two diagnostics of one cause) is applied once.
    fixes.dedup_by(|(a, _), (b, _)| a.edits == b.edits);
    let mut text = String::with_capacity(source.len());
    let mut fixed = Vec::new();
    let mut cursor = 0;
    for (fix, code) in fixes {
        if fix.edits[0].span.start < cursor as u32 {
            continue;
        }
        for edit in &fix.edits {
            text.push_str(&source[cursor..edit.span.start as usize]);
            text.push_str(&edit.replacement);
            cursor = edit.span.end as usize;
        }
        fixed.push(code);
    }
    if fixed.is_empty() {
        return None;
    }
    text.push_str(&source[cursor..]);
    Some((text, fixed))
}

/// Whether a fix has edits, in order, apart, and on character boundaries of `source`.
fn fits(fix: &Fix, source: &str) -> bool {
    let on_boundary = |offset: u32| source.is_char_boundary(offset as usize);
    !fix.edits.is_empty()
        && fix
            .edits
            .windows(2)
            .all(|w| w[0].span.end <= w[1].span.start)
        && fix.edits.iter().all(|e| {
            e.span.start <= e.span.end && on_boundary(e.span.start) && on_boundary(e.span.end)
        })
}

/// One source after [`fix_sources`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixedSource {
    /// The text with every fix applied.
    pub text: String,
    /// The code of each diagnostic fixed, over all rounds.
    pub fixed: Vec<Code>,
    /// Whether the source had a syntax error and was left as it was.
    pub syntax_error: bool,
}

/// Fixes sources that are checked together (a pipeline's), round after round: `check` gives
/// each source's diagnostics (in the order of `texts`), the fixes `level` allows are applied,
/// and the sources are checked again, until a round applies none or [`MAX_ROUNDS`] have run.
pub fn fix_sources(
    texts: Vec<String>,
    level: Applicability,
    mut check: impl FnMut(&[String]) -> Vec<Vec<Diagnostic>>,
) -> Vec<FixedSource> {
    let mut sources: Vec<FixedSource> = texts
        .iter()
        .map(|text| FixedSource {
            text: text.clone(),
            fixed: Vec::new(),
            syntax_error: false,
        })
        .collect();
    let mut checked = texts;
    // A round's fixes of a source, kept once the next check finds no syntax error in it.
    let mut pending: Vec<Option<Vec<Code>>> = vec![None; sources.len()];
    // Sources not to be changed further: broken as given, or by a round that was undone.
    let mut frozen = vec![false; sources.len()];
    for round in 0..=MAX_ROUNDS {
        let diagnostics = check(&checked);
        let mut changed = false;
        for (i, found) in diagnostics.iter().enumerate().take(sources.len()) {
            let source = &mut sources[i];
            if has_syntax_error(found) {
                if pending[i].take().is_none() {
                    source.syntax_error = true;
                }
                checked[i].clone_from(&source.text);
                frozen[i] = true;
                continue;
            }
            if let Some(codes) = pending[i].take() {
                source.text.clone_from(&checked[i]);
                source.fixed.extend(codes);
            }
            if frozen[i] || round == MAX_ROUNDS {
                continue;
            }
            if let Some((text, codes)) = apply(&checked[i], found, level) {
                checked[i] = text;
                pending[i] = Some(codes);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    sources
}
