//! The heads of the pipeline statements (CREATE ... OR REFRESH, PRIVATE, ONCE) and their
//! properties.

use crate::arena::Arena;
use crate::ast::*;
use crate::span::Span;
use crate::syntax::actions::base::{user_error, ActionResult};

/// `IDENTIFIER(expr)` as the name a USE selects: one part, spelt as written.
pub fn dynamic_name<'a, 't>(
    arena: &'a Arena,
    span: Span,
    word: &str,
    text: &'a str,
) -> ActionResult<'t, ObjectName<'a>> {
    if !word.eq_ignore_ascii_case("identifier") {
        return user_error(
            span,
            format!("`{word}(...)` is no name: write a name, or IDENTIFIER(...)"),
        );
    }
    Ok(ObjectName {
        span,
        parts: arena.slice(vec![Ident { span, text }]),
    })
}

/// A primary key's constraint, and its column marked TIMESERIES (the last, if several are).
pub fn primary_key<'a>(
    arena: &'a Arena,
    columns: &'a [(Ident<'a>, bool)],
) -> (TableConstraintKind<'a>, Option<Ident<'a>>) {
    let timeseries = columns.iter().rev().find(|(_, t)| *t).map(|(c, _)| *c);
    let names = columns.iter().map(|(c, _)| *c).collect::<Vec<_>>();
    (
        TableConstraintKind::PrimaryKey(arena.slice(names)),
        timeseries,
    )
}

/// An element of a view's column list: a column, or an expectation.
pub enum ViewElement<'a> {
    Column(ViewColumn<'a>),
    Expectation(&'a Expectation<'a>),
}

/// A view's column names (none when its list names no column) and expectations.
pub fn view_elements<'a>(
    arena: &'a Arena,
    elements: Option<&'a [ViewElement<'a>]>,
) -> (Option<&'a [ViewColumn<'a>]>, &'a [&'a Expectation<'a>]) {
    let (mut columns, mut expectations) = (Vec::new(), Vec::new());
    for element in elements.unwrap_or_default() {
        match element {
            ViewElement::Column(column) => columns.push(column.clone()),
            ViewElement::Expectation(expectation) => expectations.push(*expectation),
        }
    }
    let columns = (!columns.is_empty()).then(|| arena.slice(columns));
    (columns, arena.slice(expectations))
}

/// The properties of TBLPROPERTIES, each with a literal value: Spark refuses a key without one,
/// or with a name for its value, there (a read option may have either in pipeline SQL).
pub fn valued_properties<'a, 't>(
    arena: &'a Arena,
    properties: Vec<Property<'a>>,
) -> ActionResult<'t, &'a [Property<'a>]> {
    for Property { span, key, value } in &properties {
        match value {
            None => return user_error(*span, format!("`{key}` has no value: write `{key} = value`")),
            Some(Expr { kind: ExprKind::Column(name), span }) if name.style() != IdentStyle::Parameter => {
                return user_error(
                    *span,
                    format!("the value of `{key}` is a string, a number, TRUE or FALSE, not the name `{name}`"),
                )
            }
            Some(_) => {}
        }
    }
    Ok(arena.slice(properties))
}

/// A property's number: whole or decimal, as Spark's property values are (no sign, exponent or
/// type suffix).
pub fn property_number<'a, 't>(span: Span, digits: &'a str) -> ActionResult<'t, Expr<'a>> {
    if digits.bytes().filter(|&b| b == b'.').count() > 1
        || !digits.bytes().all(|b| b.is_ascii_digit() || b == b'.')
    {
        return user_error(
            span,
            format!(
                "a property's value is a string, TRUE, FALSE or a plain number, found `{digits}`"
            ),
        );
    }
    Ok(Expr {
        span,
        kind: ExprKind::Literal(Literal::Number(digits)),
    })
}

/// `CREATE [OR REFRESH | OR REPLACE] [PRIVATE | TEMPORARY]`, before the object kind.
pub struct CreateHead {
    pub or_clause: Option<Keyword<OrClause>>,
    pub visibility: Option<Keyword<Visibility>>,
}

impl CreateHead {
    /// For objects that take no modifier at all (CREATE FLOW, CREATE TABLE).
    pub fn expect_plain<'t>(&self, what: &str, kind: Span) -> ActionResult<'t, ()> {
        if let Some(or) = self.or_clause {
            return user_error(
                or.span,
                format!("{what} does not take `{}`", or_words(or.kind)),
            );
        }
        if let Some(v) = self.visibility {
            return user_error(
                v.span.to(kind),
                format!("{what} does not take `{}`", visibility_word(v.kind)),
            );
        }
        Ok(())
    }

    /// Rejects one OR clause, naming the spelling to use instead.
    pub fn reject_or<'t>(
        &self,
        rejected: OrClause,
        what: &str,
        instead: &str,
    ) -> ActionResult<'t, ()> {
        match self.or_clause {
            Some(or) if or.kind == rejected => user_error(
                or.span,
                format!(
                    "{what} does not take `{}`; write `{instead}`",
                    or_words(or.kind)
                ),
            ),
            _ => Ok(()),
        }
    }

    /// Rejects one visibility keyword.
    pub fn reject_visibility<'t>(
        &self,
        rejected: Visibility,
        what: &str,
        kind: Span,
    ) -> ActionResult<'t, ()> {
        match self.visibility {
            Some(v) if v.kind == rejected => user_error(
                v.span.to(kind),
                format!("a {what} cannot be `{}`", visibility_word(v.kind)),
            ),
            _ => Ok(()),
        }
    }
}

fn or_words(kind: OrClause) -> &'static str {
    match kind {
        OrClause::Refresh => "OR REFRESH",
        OrClause::Replace => "OR REPLACE",
    }
}

fn visibility_word(kind: Visibility) -> &'static str {
    match kind {
        Visibility::Private => "PRIVATE",
        Visibility::Temporary => "TEMPORARY",
    }
}

/// The one ONCE of an INSERT flow, from any of its three positions.
pub fn once_of<'t>(
    before_into: Option<Once>,
    after_into: Option<Span>,
    after_target: Option<Span>,
) -> ActionResult<'t, Option<Once>> {
    let all = [
        before_into,
        after_into.map(|span| Once {
            span,
            spelling: OnceSpelling::AfterInto,
        }),
        after_target.map(|span| Once {
            span,
            spelling: OnceSpelling::AfterTarget,
        }),
    ];
    let mut given = all.into_iter().flatten();
    let first = given.next();
    match given.next() {
        Some(second) => user_error(second.span, "ONCE is given twice".to_string()),
        None => Ok(first),
    }
}
