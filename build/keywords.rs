//! The grammar's keyword rules and the lexer's keyword tokens, written from the keyword table
//! (`src/syntax/keywords.rs`) before LALRPOP runs.

use crate::keyword_table::{Class, Keyword, KEYWORDS};

/// What a line of `grammar/pipeline.lalrpop` that the table's rows replace starts with: `//
/// @keywords WHAT`, where WHAT is `terminals` (the extern block's line for each row),
/// `strict` or `non-strict` (each strict or other word as a terminal of a rule whose value is
/// `()`), or a class (each word of that class as a name, `KwIdent<"word">`).
const MARKER: &str = "// @keywords ";

/// `grammar` with each marker line replaced by the rows it names. Panics on a marker that
/// names nothing the table has, so that a typo fails the build instead of dropping words.
pub fn expand_grammar(grammar: &str) -> String {
    let mut out = String::with_capacity(grammar.len() + 16 * 1024);
    for line in grammar.split_inclusive('\n') {
        let at = line.len() - line.trim_start().len();
        if !line[at..].starts_with(MARKER) {
            out.push_str(line);
            continue;
        }
        let indent = &line[..at];
        let what = line[at + MARKER.len()..]
            .split(':')
            .next()
            .unwrap_or("")
            .trim();
        let rows = rows_for(what).unwrap_or_else(|| {
            panic!("grammar: `{MARKER}{what}` names no part of the keyword table")
        });
        for row in rows {
            out.push_str(indent);
            out.push_str(&row);
            out.push('\n');
        }
    }
    out
}

/// The grammar lines that a marker names; `None` for an unknown marker.
fn rows_for(what: &str) -> Option<Vec<String>> {
    let words = KEYWORDS.iter().filter(|k| k.is_word());
    let terminal = |k: &Keyword| format!("\"{}\",", k.word);
    Some(match what {
        "terminals" => KEYWORDS
            .iter()
            .map(|k| format!("\"{}\" => Tok::{},", k.word, k.variant))
            .collect(),
        "strict" => words.filter(|k| k.strict).map(terminal).collect(),
        "non-strict" => words.filter(|k| !k.strict).map(terminal).collect(),
        class => {
            let class = class_named(class)?;
            words
                .filter(|k| k.class == class)
                .map(|k| format!("KwIdent<\"{}\">,", k.word))
                .collect()
        }
    })
}

fn class_named(name: &str) -> Option<Class> {
    Some(match name {
        "Reserved" => Class::Reserved,
        "ReservedName" => Class::ReservedName,
        "Name" => Class::Name,
        "Alias" => Class::Alias,
        "AliasUnlessChanges" => Class::AliasUnlessChanges,
        "AliasUnlessGrouping" => Class::AliasUnlessGrouping,
        "OwnRules" => Class::OwnRules,
        _ => return None,
    })
}

/// The lexer's keyword tokens: a macro, `tok_with_keywords!`, that declares the enum it is given
/// with a variant for each word of the table first (its spellings as `logos` tokens, case
/// ignored), and `Tok::keyword`, the keyword's word in capitals as messages name it.
pub fn token_declarations() -> String {
    let mut variants = String::new();
    let mut names = String::new();
    let mut rows = String::new();
    for (row, k) in KEYWORDS.iter().enumerate().filter(|(_, k)| k.is_word()) {
        let upper = k.word.to_ascii_uppercase();
        variants.push_str(&format!("            /// The keyword `{upper}`"));
        if let Some(other) = k.or {
            variants.push_str(&format!(
                ", or its other spelling `{}`",
                other.to_ascii_uppercase()
            ));
        }
        variants.push_str(".\n");
        for spelling in std::iter::once(k.word).chain(k.or) {
            variants.push_str(&format!(
                "            #[token(\"{spelling}\", ignore(case))]\n"
            ));
        }
        variants.push_str(&format!("            {},\n", k.variant));
        names.push_str(&format!("            Tok::{} => \"{upper}\",\n", k.variant));
        rows.push_str(&format!("            Tok::{} => {row},\n", k.variant));
    }
    format!(
        "/// Declares the token enum it is given with a variant for each keyword of the keyword table\n\
         /// (`src/syntax/keywords.rs`) before its own variants.\n\
         macro_rules! tok_with_keywords {{\n\
         \x20   ($(#[$attr:meta])* pub enum Tok<'a> {{ $($variants:tt)* }}) => {{\n\
         \x20       $(#[$attr])*\n\
         \x20       pub enum Tok<'a> {{\n{variants}\
         \x20           $($variants)*\n\
         \x20       }}\n\
         \x20   }};\n\
         }}\n\n\
         impl Tok<'_> {{\n\
         \x20   /// The keyword in capitals, as messages name it; `None` for a token that is no keyword.\n\
         \x20   pub fn keyword(&self) -> Option<&'static str> {{\n\
         \x20       Some(match self {{\n{names}\
         \x20           _ => return None,\n\
         \x20       }})\n\
         \x20   }}\n\n\
         \x20   /// The keyword's row of the keyword table; `None` for a token that is no keyword.\n\
         \x20   pub(crate) fn keyword_row(&self) -> Option<&'static crate::syntax::keywords::Keyword> {{\n\
         \x20       Some(&crate::syntax::keywords::KEYWORDS[match self {{\n{rows}\
         \x20           _ => return None,\n\
         \x20       }}])\n\
         \x20   }}\n\
         }}\n"
    )
}
