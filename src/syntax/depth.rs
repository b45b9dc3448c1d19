//! How deep a statement's tree is, measured once it is built and before anything else walks
//! it. Display, Debug, serde, the visitor, the checker and the model all recurse over the tree;
//! a tree no deeper than [`MAX_DEPTH`] keeps each of them within a 2 MiB stack.
//!
//! The lexer-level guard in `parse` refuses deep brackets and long query chains before they
//! are parsed, and a chain of operators is refused as it is built. What neither sees is the
//! depth that postfix operators (`::int`, `[0]`, `.f`, `COLLATE c`, `:a`), lambdas, nested
//! types and all of these combined add up to: that is measured here, on the tree itself.

use super::parse::{MAX_CHAIN, MAX_NESTING};
use crate::ast::visit::{self, Visitor};
use crate::ast::{DataType, Expr, Query, Select, Statement, TableRef};
use crate::span::{Span, Spanned};

/// How deep a statement's tree may be: the longest chain of operators allowed
/// ([`MAX_CHAIN`]) inside the deepest brackets allowed ([`MAX_NESTING`]). Each expression,
/// query, SELECT, relation and data type inside another counts one level.
///
/// Measured in an optimized build, the hungriest walker (the derived `Debug` of a nested
/// `STRUCT` type) needs about 0.9 KiB a level, so a tree this deep takes it under half of a
/// 2 MiB stack. An unoptimized build needs about four times as much.
pub const MAX_DEPTH: usize = MAX_CHAIN + MAX_NESTING;

/// A statement with no more tokens than this that may open a level of its tree cannot be too
/// deep, and is not walked. Every level takes a token other than a name, a literal or a comma
/// (a bracket, an operator, a `.`, a keyword), apart from the few levels above the outermost
/// expression; this bound allows for two levels a token.
pub(crate) const UNWALKED_LEVEL_TOKENS: usize = (MAX_DEPTH - 16) / 2;

/// Where `statement` first nests deeper than [`MAX_DEPTH`]: the node one level too deep.
pub(crate) fn too_deep(statement: &Statement<'_>) -> Option<Span> {
    // Each of those tokens is a byte at least.
    if statement.span().len() as usize <= UNWALKED_LEVEL_TOKENS {
        return None;
    }
    let mut probe = Probe {
        depth: 0,
        too_deep: None,
    };
    probe.visit_statement(statement);
    probe.too_deep
}

/// A visitor that walks no deeper than [`MAX_DEPTH`], so that measuring cannot overflow
/// either.
struct Probe {
    depth: usize,
    too_deep: Option<Span>,
}

impl Probe {
    /// Walks `node` one level down, unless that is too deep (or a deeper place was found).
    fn descend(&mut self, span: Span, walk: impl FnOnce(&mut Self)) {
        if self.too_deep.is_some() {
            return;
        }
        if self.depth == MAX_DEPTH {
            self.too_deep = Some(span);
            return;
        }
        self.depth += 1;
        walk(self);
        self.depth -= 1;
    }
}

impl<'a> Visitor<'a> for Probe {
    fn visit_query(&mut self, query: &Query<'a>) {
        self.descend(query.span(), |probe| visit::walk_query(probe, query));
    }

    fn visit_select(&mut self, select: &Select<'a>) {
        self.descend(select.span, |probe| visit::walk_select(probe, select));
    }

    fn visit_table_ref(&mut self, relation: &TableRef<'a>) {
        self.descend(relation.span(), |probe| {
            visit::walk_table_ref(probe, relation)
        });
    }

    fn visit_expr(&mut self, expr: &Expr<'a>) {
        self.descend(expr.span, |probe| visit::walk_expr(probe, expr));
    }

    fn visit_data_type(&mut self, data_type: &DataType<'a>) {
        self.descend(data_type.span(), |probe| match data_type {
            DataType::Array { element, .. } => probe.visit_data_type(element),
            DataType::Map { key, value, .. } => {
                probe.visit_data_type(key);
                probe.visit_data_type(value);
            }
            DataType::Struct { fields, .. } => {
                for field in *fields {
                    probe.visit_data_type(&field.data_type);
                }
            }
            DataType::Collated { base, .. } => probe.visit_data_type(base),
            DataType::Named { .. } | DataType::Interval { .. } => {}
        });
    }
}
