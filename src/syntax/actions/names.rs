//! Dotted names as the grammar builds them, and Spark's checks of names that stand alone.

use crate::arena::{finish_list, Arena, Growing};
use crate::ast::*;
use crate::span::{Span, Spanned};
use crate::syntax::actions::base::{user_error, ActionResult};

/// A dotted name while it is being parsed: the first part is kept apart so that the common
/// one-part name needs no list.
pub struct Name<'a> {
    first: Ident<'a>,
    rest: Growing<'a, Ident<'a>>,
}

impl<'a> Name<'a> {
    pub fn new(arena: &'a Arena, first: Ident<'a>) -> Self {
        Name {
            first,
            rest: arena.empty_list(),
        }
    }

    pub fn push(&mut self, part: Ident<'a>) {
        // Room for the first part too, which `into_object_name` puts in front.
        self.rest.reserve(2);
        self.rest.push(part);
    }

    fn span(&self) -> Span {
        self.rest
            .last()
            .map_or(self.first.span, |last| self.first.span.to(last.span))
    }

    pub fn into_object_name(self, arena: &'a Arena) -> ObjectName<'a> {
        let span = self.span();
        let parts = if self.rest.is_empty() {
            std::slice::from_ref(arena.alloc(self.first))
        } else {
            let mut parts = self.rest;
            parts.insert(0, self.first);
            finish_list(parts)
        };
        ObjectName { span, parts }
    }

    /// A column reference: one part, or a dotted path.
    pub fn into_column(self, arena: &'a Arena) -> Expr<'a> {
        if self.rest.is_empty() {
            return Expr {
                span: self.first.span,
                kind: ExprKind::Column(self.first),
            };
        }
        let ObjectName { span, parts } = self.into_object_name(arena);
        Expr {
            span,
            kind: ExprKind::CompoundColumn(parts),
        }
    }
}

impl Spanned for Name<'_> {
    fn span(&self) -> Span {
        Name::span(self)
    }
}

/// A name where Spark takes a single part, so not `IDENTIFIER('fin.net')`: a name that an alias,
/// a CTE, a window, a LATERAL VIEW, a lambda, a struct type or a script transform introduces,
/// and a name that PIVOT, UNPIVOT or JOIN USING takes from its input.
pub fn single_name<'t>(name: &Ident<'_>) -> ActionResult<'t, ()> {
    if name.style() == IdentStyle::Literal && crate::lexer::name_parts(&name.value()) != Some(1) {
        return user_error(
            name.span,
            format!(
                "{} names more than one part here, where a single name stands",
                name.text
            ),
        );
    }
    Ok(())
}

/// `FROM t identifier (x)`, `WITH identifier (x) AS ...`: before a parenthesis Spark reads the
/// word IDENTIFIER as the IDENTIFIER( ) clause, which takes one string, so a name spelled
/// `identifier` takes no column list unless it is back-quoted.
pub fn name_before_columns<'t>(
    name: &Ident<'_>,
    columns: Option<&[Ident<'_>]>,
) -> ActionResult<'t, ()> {
    if columns.is_some()
        && name.style() == IdentStyle::Plain
        && name.text.eq_ignore_ascii_case("identifier")
    {
        return user_error(
            name.span,
            format!(
                "`{0} (` opens the IDENTIFIER clause, which takes one string (`IDENTIFIER('name')`): back-quote the name (`` `{0}` ``) to give it columns",
                name.text
            ),
        );
    }
    Ok(())
}

/// Names where Spark takes single parts (see `single_name`).
pub fn single_names<'a, 't>(names: &'a [Ident<'a>]) -> ActionResult<'t, &'a [Ident<'a>]> {
    names.iter().try_for_each(single_name)?;
    Ok(names)
}
