//! The typed syntax tree.
//!
//! Every node carries the [`Span`] of the text it was parsed from. Names, strings and numbers
//! borrow their text from the source, and sub-nodes and lists live in the
//! [`Arena`](crate::Arena) the tree was parsed into: both are the lifetime `'a`. A tree has
//! nothing to drop, and copying a node (`Clone`) copies it alone, not its children. Each node's
//! doc comment shows the SQL it models.
//!
//! `Display` on any node prints canonical SQL (keywords upper case, one space between tokens)
//! that parses back to the same tree, spans aside.

mod display;
mod expr;
mod flows;
mod query;
mod relations;
mod statements;
mod tables;
mod types;
pub mod visit;

pub use expr::*;
pub use flows::*;
pub use query::*;
pub use relations::*;
pub use statements::*;
pub use tables::*;
pub use types::*;

use crate::span::Span;
use std::borrow::Cow;

/// The name of a parameter written `${name}`, `{name}` or `{{ name }}`.
pub fn parameter_name(text: &str) -> &str {
    text.trim_start_matches('$')
        .trim_start_matches('{')
        .trim_end_matches('}')
        .trim()
}

/// How an identifier was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum IdentStyle {
    /// `name` (a plain word, or a keyword used as a name).
    Plain,
    /// `` `any text` ``, where ``` `` ``` stands for one back-quote.
    Quoted,
    /// `${name}`: a pipeline parameter, kept as written until expanded; or a template's
    /// placeholder, `{name}` or `{{ name }}`, which a job substitutes before deploying.
    Parameter,
    /// `IDENTIFIER('name')`: a string literal that Spark (since 4.1) takes as a name wherever
    /// a name may stand. Its value is the string's, which Spark may read as a qualified name
    /// (`IDENTIFIER('sales.orders')`).
    Literal,
}

/// An identifier, spelled as in the source: `users`, `` `my col` ``, `${catalog}`,
/// `IDENTIFIER('name')`.
///
/// Only the source text is stored (the style follows from its first and last characters),
/// which keeps the type at three words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Ident<'a> {
    /// Where the identifier is, quotes included.
    pub span: Span,
    /// The identifier as written: the word, the back-quoted text with its quotes, or `${...}`.
    pub text: &'a str,
}

impl<'a> Ident<'a> {
    /// How it was written.
    pub fn style(&self) -> IdentStyle {
        match self.text.as_bytes().first() {
            Some(b'`') => IdentStyle::Quoted,
            Some(b'$' | b'{') => IdentStyle::Parameter,
            // A word never ends with a bracket.
            _ if self.text.ends_with(')') => IdentStyle::Literal,
            _ => IdentStyle::Plain,
        }
    }

    /// The name it denotes: back-quotes removed and their escapes resolved, or the value of
    /// the string in `IDENTIFIER('name')`.
    pub fn value(&self) -> Cow<'a, str> {
        match self.style() {
            IdentStyle::Literal => {
                // From the string's prefix or opening quote to its closing quote.
                let open = self.text.find('(').map_or(0, |i| i + 1);
                let close = self
                    .text
                    .rfind(['\'', '"'])
                    .map_or(self.text.len(), |i| i + 1);
                Cow::Owned(crate::unescape::string_value(
                    self.text[open..close.max(open)].trim_start(),
                ))
            }
            IdentStyle::Quoted => {
                let inner = self
                    .text
                    .get(1..self.text.len().saturating_sub(1))
                    .unwrap_or("");
                if inner.contains("``") {
                    Cow::Owned(inner.replace("``", "`"))
                } else {
                    Cow::Borrowed(inner)
                }
            }
            _ => Cow::Borrowed(self.text),
        }
    }

    /// Whether it names `name`, ignoring ASCII case as SQL does.
    pub fn matches(&self, name: &str) -> bool {
        self.value().eq_ignore_ascii_case(name)
    }
}

/// A dotted name of one or more parts: `users`, `catalog.schema.table`, `LIVE.events`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ObjectName<'a> {
    /// From the first part to the last.
    pub span: Span,
    /// The parts, outermost first (never empty).
    pub parts: &'a [Ident<'a>],
}

impl<'a> ObjectName<'a> {
    /// The last part: the object's own name without its qualifiers.
    pub fn base(&self) -> &Ident<'a> {
        // The grammar never builds an empty name.
        &self.parts[self.parts.len() - 1]
    }

    /// Whether it is `word` written as a bare word, in any case: the words that mean something
    /// to Spark where a name may also stand (IDENTIFIER, TRANSFORM, LATERAL, ...), and mean it
    /// only unquoted.
    pub fn is_word(&self, word: &str) -> bool {
        matches!(self.parts, [part] if part.style() == IdentStyle::Plain && part.text.eq_ignore_ascii_case(word))
    }
}

/// A string literal as written, quotes and prefix included: `'a'`, `"b"`, `r'c'`, `X'1F'`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct StringLit<'a> {
    /// Where the literal is.
    pub span: Span,
    /// The literal's source text.
    pub raw: &'a str,
}

impl StringLit<'_> {
    /// The string's value: quotes removed, backslash escapes of ordinary strings resolved as
    /// Spark does (`\n`, `\t`, `\'`, `\\`, `\uXXXX`, `\UXXXXXXXX`, octal `\101`, ...; `\%` and `\_`
    /// keep their backslash, for LIKE). Hex strings return their digits.
    pub fn value(&self) -> String {
        crate::unescape::string_value(self.raw)
    }

    /// Whether this is a hex string, `X'1F'`: a binary value, which Spark lexes as a token of
    /// its own rather than a word and a string.
    pub fn is_hex(&self) -> bool {
        self.raw.starts_with(['x', 'X'])
    }
}

/// A whole source file: statements separated by `;`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Script<'a> {
    /// The whole source.
    pub span: Span,
    /// The statements in source order, including [`Statement::Error`] placeholders for
    /// statements that did not parse.
    pub statements: &'a [Statement<'a>],
}

macro_rules! impl_spanned {
    ($($ty:ident),* $(,)?) => {
        $(impl $crate::span::Spanned for $ty<'_> {
            fn span(&self) -> $crate::span::Span {
                self.span
            }
        })*
    };
}
pub(crate) use impl_spanned;

impl_spanned!(Ident, ObjectName, StringLit, Script);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_identifiers_unescape() {
        let id = Ident {
            span: Span::default(),
            text: "`a``b`",
        };
        assert_eq!(id.style(), IdentStyle::Quoted);
        assert_eq!(id.value(), "a`b");
        assert!(id.matches("A`B"));
        let param = Ident {
            span: Span::default(),
            text: "${catalog}",
        };
        assert_eq!(param.style(), IdentStyle::Parameter);
        assert_eq!(param.value(), "${catalog}");
    }

    #[test]
    fn identifier_literals_take_the_string_value() {
        for (text, value) in [
            ("IDENTIFIER('sales.orders')", "sales.orders"),
            ("identifier ( \"it\\'s\" )", "it's"),
            ("IDENTIFIER(r'a\\b')", "a\\b"),
        ] {
            let id = Ident {
                span: Span::default(),
                text,
            };
            assert_eq!(id.style(), IdentStyle::Literal, "{text}");
            assert_eq!(id.value(), value, "{text}");
        }
        let word = Ident {
            span: Span::default(),
            text: "identifier",
        };
        assert_eq!(word.style(), IdentStyle::Plain);
    }
}

/// The parser keeps every value it builds in one stack-slot type as large as the largest
/// value, and moves it on every reduction: large nodes are referenced from the arena so that the
/// values the grammar builds stay within a few words. This test keeps them there.
#[cfg(test)]
mod size_tests {
    use super::*;
    use std::mem::size_of;

    #[test]
    fn grammar_values_stay_small() {
        assert!(size_of::<Expr<'_>>() <= 48);
        let limit = 72;
        let sizes = [
            ("SelectItem", size_of::<SelectItem<'_>>()),
            ("GroupByItem", size_of::<GroupByItem<'_>>()),
            ("LateralView", size_of::<LateralView<'_>>()),
            ("FrameBound", size_of::<FrameBound<'_>>()),
            ("FunctionArg", size_of::<FunctionArg<'_>>()),
            ("DataType", size_of::<DataType<'_>>()),
            ("TableClause", size_of::<TableClause<'_>>()),
            ("ColumnProperty", size_of::<ColumnProperty<'_>>()),
            ("CdcClause", size_of::<CdcClause<'_>>()),
            ("CdcSource", size_of::<CdcSource<'_>>()),
            ("ReplaceClause", size_of::<ReplaceClause<'_>>()),
            ("TableElement", size_of::<TableElement<'_>>()),
            ("Alias", size_of::<Alias<'_>>()),
            ("Cte", size_of::<Cte<'_>>()),
            ("OrderByExpr", size_of::<OrderByExpr<'_>>()),
            ("Statement", size_of::<Statement<'_>>()),
            ("NamedWindow", size_of::<NamedWindow<'_>>()),
            ("Named<Expr>", size_of::<Named<'_, Expr<'_>>>()),
            (
                "Named<&[ObjectName]>",
                size_of::<Named<'_, &[ObjectName<'_>]>>(),
            ),
            ("GroupByModifier", size_of::<GroupByModifier<'_>>()),
            ("SetExpr", size_of::<SetExpr<'_>>()),
            ("TableRef", size_of::<TableRef<'_>>()),
            ("JoinConstraint", size_of::<JoinConstraint<'_>>()),
            (
                "(ObjectName, Expr)",
                size_of::<(ObjectName<'_>, Expr<'_>)>(),
            ),
        ];
        for (name, size) in sizes {
            assert!(
                size <= limit,
                "{name} is {size} bytes; move what makes it larger than {limit} into the arena"
            );
        }
    }
}
