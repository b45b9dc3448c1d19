//! A SELECT's items and clauses as the grammar collects them, and sort and grouping keys.

use crate::arena::Arena;
use crate::ast::*;
use crate::span::Span;
use crate::syntax::actions::expressions::undirected;

/// `*`, `t.*`, `* EXCEPT (a)` as an expression.
pub fn wildcard<'a>(
    arena: &'a Arena,
    span: Span,
    qualifier: Option<ObjectName<'a>>,
    except: Option<&'a [ObjectName<'a>]>,
) -> Expr<'a> {
    let star = arena.alloc(Wildcard {
        span,
        qualifier,
        except,
    });
    Expr {
        span,
        kind: ExprKind::Wildcard(star),
    }
}

/// A select-list item: a star standing alone is the list's wildcard.
pub fn select_item<'a>(expr: Expr<'a>, alias: Option<Ident<'a>>) -> SelectItem<'a> {
    match (&expr.kind, alias) {
        (ExprKind::Wildcard(star), None) => SelectItem::Wildcard((*star).clone()),
        (_, alias) => SelectItem::Expr { expr, alias },
    }
}

/// `PARTITION BY (a, b)` in a table argument: the parenthesized keys, not one row value.
pub fn key_list<'a>(arena: &'a Arena, key: Expr<'a>) -> &'a [Expr<'a>] {
    match key.kind {
        ExprKind::Tuple(keys) => keys,
        _ => std::slice::from_ref(arena.alloc(key)),
    }
}

/// `ORDER BY (a, b)` in a table argument: the parenthesized keys, each in ascending order.
pub fn sort_keys<'a>(arena: &'a Arena, key: OrderByExpr<'a>) -> &'a [OrderByExpr<'a>] {
    let keys = match key.expr.kind {
        ExprKind::Tuple(keys) if undirected(&key) => keys,
        _ => return std::slice::from_ref(arena.alloc(key)),
    };
    arena.slice(keys.iter().map(|expr| OrderByExpr {
        span: expr.span,
        expr: *expr,
        ascending: None,
        nulls_first: None,
    }))
}

/// The clauses of a SELECT after FROM, as they go into [`Select`].
#[derive(Clone, Default)]
pub struct SelectRest<'a> {
    pub lateral_views: &'a [LateralView<'a>],
    pub selection: Option<Expr<'a>>,
    pub group_by: &'a [GroupByItem<'a>],
    pub having: Option<&'a Expr<'a>>,
    pub windows: &'a [NamedWindow<'a>],
    pub qualify: Option<&'a Expr<'a>>,
}

/// What a SELECT starts with: its hints, ALL or DISTINCT, and the select list.
#[derive(Clone, Copy, Default)]
pub struct SelectHead<'a> {
    pub hints: &'a [Hint<'a>],
    pub quantifier: Option<SetQuantifier>,
    pub projection: &'a [SelectItem<'a>],
}

/// `rest` with `views`, the LATERAL VIEWs of a FROM-first query's FROM clause, before its own.
pub fn lateral_views_first<'a>(
    arena: &'a Arena,
    mut views: Vec<LateralView<'a>>,
    rest: &SelectRest<'a>,
) -> &'a SelectRest<'a> {
    views.extend_from_slice(rest.lateral_views);
    arena.alloc(SelectRest {
        lateral_views: arena.slice(views),
        ..rest.clone()
    })
}

pub fn select<'a>(
    arena: &'a Arena,
    span: Span,
    from_first: bool,
    head: SelectHead<'a>,
    from: &'a [TableRef<'a>],
    rest: &SelectRest<'a>,
) -> &'a Select<'a> {
    arena.alloc(Select {
        span,
        hints: head.hints,
        quantifier: head.quantifier,
        projection: head.projection,
        from,
        selection: rest.selection,
        lateral_views: rest.lateral_views,
        group_by: rest.group_by,
        having: rest.having,
        windows: rest.windows,
        qualify: rest.qualify,
        from_first,
    })
}
