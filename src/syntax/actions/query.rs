//! Queries: set operations, WITH, result clauses (ORDER BY, LIMIT, ...), FROM-first bodies,
//! pipe steps, windows, grouping, and Spark's parse-time refusals at the query level.

use crate::arena::Arena;
use crate::ast::visit::{find_expr, leading_string};
use crate::ast::*;
use crate::span::{Span, Spanned};
use crate::syntax::actions::base::{first_repeat, sp, user_error, ActionResult};
use crate::syntax::actions::expressions::{call, typed_literal_misread};
use crate::syntax::actions::names::{name_before_columns, single_name};
use crate::syntax::actions::relations::values_alias;
use crate::syntax::actions::select::{lateral_views_first, select, SelectHead, SelectRest};
use crate::syntax::actions::transform::{map_reduce_select, transform_select};
use std::collections::HashMap;

/// ORDER BY, CLUSTER/DISTRIBUTE/SORT BY, LIMIT and OFFSET of a query, collected before the
/// query is assembled.
#[derive(Clone, Copy, Default)]
pub struct QueryTail<'a> {
    pub order_by: &'a [OrderByExpr<'a>],
    pub distribution: Option<&'a Distribution<'a>>,
    pub windows: &'a [NamedWindow<'a>],
    pub limit: Option<&'a Limit<'a>>,
    pub offset: Option<&'a Expr<'a>>,
}

impl<'a> QueryTail<'a> {
    /// `None` when the query has none of the clauses. Spark takes ORDER BY, CLUSTER BY,
    /// DISTRIBUTE BY, SORT BY and DISTRIBUTE BY with SORT BY, but no other combination.
    pub fn new<'t>(
        arena: &'a Arena,
        span: Span,
        order_by: Option<&'a [OrderByExpr<'a>]>,
        distribution: Option<&'a Distribution<'a>>,
        windows: &'a [NamedWindow<'a>],
        limit: Option<Limit<'a>>,
        offset: Option<Expr<'a>>,
    ) -> ActionResult<'t, Option<&'a Self>> {
        if let Some(d) = &distribution {
            let distributed_or_sorted = !d.distribute_by.is_empty() || !d.sort_by.is_empty();
            if order_by.is_some() || (!d.cluster_by.is_empty() && distributed_or_sorted) {
                return user_error(
                    span,
                    "ORDER BY, CLUSTER BY and DISTRIBUTE BY/SORT BY cannot be combined: use one of them"
                        .to_string(),
                );
            }
        }
        let empty = order_by.is_none() && distribution.is_none() && windows.is_empty();
        if empty && limit.is_none() && offset.is_none() {
            return Ok(None);
        }
        Ok(Some(arena.alloc(QueryTail {
            order_by: order_by.unwrap_or_default(),
            distribution,
            windows,
            limit: limit.map(|limit| arena.alloc(limit)),
            offset: offset.map(|offset| arena.alloc(offset)),
        })))
    }
}

/// One result clause as written after `|>`: ORDER BY, CLUSTER BY, DISTRIBUTE BY, SORT BY,
/// LIMIT or OFFSET.
pub enum ResultClause<'a> {
    OrderBy(&'a [OrderByExpr<'a>]),
    ClusterBy(&'a [Expr<'a>]),
    DistributeBy(&'a [Expr<'a>]),
    SortBy(&'a [OrderByExpr<'a>]),
    Limit(Limit<'a>),
    Offset(Expr<'a>),
}

impl ResultClause<'_> {
    /// The clause's place in Spark's `queryOrganization`, which takes each clause at most once
    /// and in this order.
    fn rank(&self) -> u8 {
        match self {
            ResultClause::OrderBy(_) => 0,
            ResultClause::ClusterBy(_) => 1,
            ResultClause::DistributeBy(_) => 2,
            ResultClause::SortBy(_) => 3,
            ResultClause::Limit(_) => 4,
            ResultClause::Offset(_) => 5,
        }
    }

    /// LIMIT and OFFSET, which Spark does not take in one pipe step with the clauses that
    /// sort or distribute; LIMIT ALL limits nothing, so it goes with either.
    fn limits(&self) -> bool {
        matches!(
            self,
            ResultClause::Limit(Limit::Count(_)) | ResultClause::Offset(_)
        )
    }

    /// ORDER BY, CLUSTER BY, DISTRIBUTE BY and SORT BY: see [`ResultClause::limits`].
    fn arranges(&self) -> bool {
        !matches!(self, ResultClause::Limit(_) | ResultClause::Offset(_))
    }

    fn keyword(&self) -> &'static str {
        match self {
            ResultClause::OrderBy(_) => "ORDER BY",
            ResultClause::ClusterBy(_) => "CLUSTER BY",
            ResultClause::DistributeBy(_) => "DISTRIBUTE BY",
            ResultClause::SortBy(_) => "SORT BY",
            ResultClause::Limit(_) => "LIMIT",
            ResultClause::Offset(_) => "OFFSET",
        }
    }
}

/// Where Spark's greedy grammar ends one list of result clauses: at the first clause that does
/// not come after the one before it.
fn list_end(clauses: &[(Span, ResultClause<'_>)]) -> usize {
    (1..clauses.len())
        .find(|&i| clauses[i].1.rank() <= clauses[i - 1].1.rank())
        .unwrap_or(clauses.len())
}

/// The clauses must form one list: the first one out of order is an error.
fn one_list<'t>(clauses: &[(Span, ResultClause<'_>)]) -> ActionResult<'t, ()> {
    let end = list_end(clauses);
    match clauses.get(end) {
        Some((span, clause)) => user_error(
            *span,
            format!(
                "{} cannot follow {} here: a list of ORDER BY, CLUSTER BY, DISTRIBUTE BY, SORT BY, LIMIT and OFFSET takes each once, in that order; start a new `|>` step",
                clause.keyword(),
                clauses[end - 1].1.keyword()
            ),
        ),
        None => Ok(()),
    }
}

/// From the first clause to the last.
fn clauses_span(clauses: &[(Span, ResultClause<'_>)]) -> Option<Span> {
    Some(clauses.first()?.0.to(clauses.last()?.0))
}

/// The clauses of one list, in Spark's order (checked by the caller), as a query tail.
fn result_tail<'a, 't>(
    arena: &'a Arena,
    clauses: Vec<(Span, ResultClause<'a>)>,
) -> ActionResult<'t, Option<&'a QueryTail<'a>>> {
    let Some(span) = clauses_span(&clauses) else {
        return Ok(None);
    };
    let (mut order_by, mut cluster_by, mut distribute_by, mut sort_by) = (None, None, None, None);
    let (mut limit, mut offset) = (None, None);
    for (_, clause) in clauses {
        match clause {
            ResultClause::OrderBy(items) => order_by = Some(items),
            ResultClause::ClusterBy(items) => cluster_by = Some(items),
            ResultClause::DistributeBy(items) => distribute_by = Some(items),
            ResultClause::SortBy(items) => sort_by = Some(items),
            ResultClause::Limit(value) => limit = Some(value),
            ResultClause::Offset(value) => offset = Some(value),
        }
    }
    QueryTail::new(
        arena,
        span,
        order_by,
        distribution(arena, cluster_by, distribute_by, sort_by),
        &[],
        limit,
        offset,
    )
}

/// One `|> ORDER BY ... LIMIT ...` step on `input` (`pipe_end` is where its `|>` ends). Like
/// Spark, a step either sorts or distributes the rows, or limits them (LIMIT with OFFSET):
/// doing both in one step is rejected.
fn organize_step<'a, 't>(
    arena: &'a Arena,
    input: SetExpr<'a>,
    pipe_end: usize,
    clauses: Vec<(Span, ResultClause<'a>)>,
) -> ActionResult<'t, SetExpr<'a>> {
    let arranges = clauses.iter().find(|(_, c)| c.arranges());
    let limits = clauses.iter().find(|(_, c)| c.limits());
    if let (Some((_, arrange)), Some((span, limit))) = (arranges, limits) {
        return user_error(
            *span,
            format!(
                "{} and {} cannot be in one pipe step: write them as two steps (`|> {} ... |> {} ...`)",
                arrange.keyword(),
                limit.keyword(),
                arrange.keyword(),
                limit.keyword()
            ),
        );
    }
    let span = input
        .span()
        .to(clauses_span(&clauses).unwrap_or(sp(pipe_end, pipe_end)));
    let tail = result_tail(arena, clauses)?.copied().unwrap_or_default();
    let op = PipeOp::Organize {
        order_by: tail.order_by,
        distribution: tail.distribution,
        limit: tail.limit,
        offset: tail.offset,
    };
    Ok(SetExpr::Pipe(arena.alloc(PipeOperation {
        span,
        input,
        op,
    })))
}

/// `input |> ORDER BY ... LIMIT ...` followed by another `|>`: the clauses are one step.
pub fn pipe_organize<'a, 't>(
    arena: &'a Arena,
    input: SetExpr<'a>,
    pipe_end: usize,
    clauses: Vec<(Span, ResultClause<'a>)>,
) -> ActionResult<'t, SetExpr<'a>> {
    one_list(&clauses)?;
    organize_step(arena, input, pipe_end, clauses)
}

/// `input |> ORDER BY x DESC ORDER BY y` at the end of a query: as in Spark, the pipe step
/// takes the clauses as far as they are in order, and the query's own clauses follow it.
/// Returns the query's body and its own clauses.
pub fn pipe_ending_in_clauses<'a, 't>(
    arena: &'a Arena,
    input: SetExpr<'a>,
    pipe_end: usize,
    mut clauses: Vec<(Span, ResultClause<'a>)>,
) -> ActionResult<'t, (SetExpr<'a>, Option<&'a QueryTail<'a>>)> {
    let outer = clauses.split_off(list_end(&clauses));
    one_list(&outer)?;
    let body = organize_step(arena, input, pipe_end, clauses)?;
    Ok((body, result_tail(arena, outer)?))
}

/// `None` when none of CLUSTER BY, DISTRIBUTE BY and SORT BY is there.
pub fn distribution<'a>(
    arena: &'a Arena,
    cluster_by: Option<&'a [Expr<'a>]>,
    distribute_by: Option<&'a [Expr<'a>]>,
    sort_by: Option<&'a [OrderByExpr<'a>]>,
) -> Option<&'a Distribution<'a>> {
    if cluster_by.is_none() && distribute_by.is_none() && sort_by.is_none() {
        return None;
    }
    Some(arena.alloc(Distribution {
        cluster_by: cluster_by.unwrap_or_default(),
        distribute_by: distribute_by.unwrap_or_default(),
        sort_by: sort_by.unwrap_or_default(),
    }))
}

/// `name [(columns)] [MAX RECURSION LEVEL n] AS (query)`, in the arena as `SampleMethod` is.
pub fn cte<'a, 't>(
    arena: &'a Arena,
    span: Span,
    name: Ident<'a>,
    columns: Option<&'a [Ident<'a>]>,
    max_recursion_level: Option<RecursionLimit>,
    query: &'a Query<'a>,
) -> ActionResult<'t, &'a Cte<'a>> {
    name_before_columns(&name, columns)?;
    Ok(arena.alloc(Cte {
        span,
        name,
        columns: columns.unwrap_or_default(),
        max_recursion_level,
        query,
    }))
}

/// A WITH clause of CTEs, each named once.
pub fn with<'a, 't>(
    arena: &'a Arena,
    span: Span,
    recursive: bool,
    ctes: &[&Cte<'a>],
) -> ActionResult<'t, With<'a>> {
    distinct_ctes(ctes)?;
    Ok(With {
        span,
        recursive,
        ctes: arena.slice(ctes.iter().map(|&cte| cte.clone())),
    })
}

pub fn make_query<'a>(
    arena: &'a Arena,
    span: Span,
    with: Option<With<'a>>,
    body: SetExpr<'a>,
    tail: Option<&'a QueryTail<'a>>,
) -> &'a Query<'a> {
    let (body, tail) =
        match tail.and_then(|tail| clauses_into_from_body(arena, &body, tail, span.end)) {
            Some(body) => (body, QueryTail::default()),
            None => (body, tail.copied().unwrap_or_default()),
        };
    arena.alloc(Query {
        span,
        with,
        body,
        order_by: tail.order_by,
        limit: tail.limit,
        offset: tail.offset,
        distribution: tail.distribution,
        windows: tail.windows,
    })
}

/// `body` with the ORDER BY, LIMIT ... after it (`tail`, ending at `end`) given to the FROM
/// statement's body that it ends in, as Spark reads them: to the last of several bodies (`FROM t
/// SELECT a SELECT b LIMIT 1`), or to a FROM statement on the right of a set operation (`SELECT
/// 1 UNION ALL FROM t SELECT a LIMIT 1` limits the second operand). `None` where they are the
/// whole query's, also where that means the same (after one FROM-first body alone).
fn clauses_into_from_body<'a>(
    arena: &'a Arena,
    body: &SetExpr<'a>,
    tail: &'a QueryTail<'a>,
    end: u32,
) -> Option<SetExpr<'a>> {
    match body {
        SetExpr::FromBodies(multi) => {
            let (last, before) = multi.bodies.split_last()?;
            let clauses = !last.order_by.is_empty()
                || last.distribution.is_some()
                || !last.windows.is_empty()
                || last.limit.is_some()
                || last.offset.is_some();
            if clauses {
                return None;
            }
            let last = make_query(
                arena,
                Span::new(last.span.start, end),
                None,
                last.body.clone(),
                Some(tail),
            );
            let mut bodies = before.to_vec();
            bodies.push(last.clone());
            Some(SetExpr::FromBodies(arena.alloc(FromBodies {
                span: Span::new(multi.span.start, end),
                bodies: arena.slice(bodies),
            })))
        }
        SetExpr::SetOperation(op) => {
            let right = match &op.right {
                SetExpr::Select(select) if select.from_first => SetExpr::Query(make_query(
                    arena,
                    Span::new(select.span.start, end),
                    None,
                    op.right.clone(),
                    Some(tail),
                )),
                right => clauses_into_from_body(arena, right, tail, end)?,
            };
            Some(SetExpr::SetOperation(arena.alloc(SetOperation {
                span: Span::new(op.span.start, end),
                right,
                ..SetOperation::clone(op)
            })))
        }
        _ => None,
    }
}

pub fn set_operation<'a>(
    arena: &'a Arena,
    span: Span,
    op: SetOperator,
    quantifier: Option<SetQuantifier>,
    left: SetExpr<'a>,
    right: SetExpr<'a>,
) -> SetExpr<'a> {
    SetExpr::SetOperation(arena.alloc(SetOperation {
        span,
        op,
        quantifier,
        left,
        right,
    }))
}

/// `VALUES (1, 'a'), (2, 'b') [AS t(x, y)]` as a query, its alias checked against its rows.
pub fn values_query<'a, 't>(
    arena: &'a Arena,
    span: Span,
    rows: &'a [Expr<'a>],
    alias: Option<Alias<'a>>,
) -> ActionResult<'t, SetExpr<'a>> {
    values_alias(rows, alias.as_ref())?;
    Ok(SetExpr::Values(Values {
        span,
        rows,
        alias: alias.map(|alias| arena.alloc(alias)),
    }))
}

/// `MAX RECURSION LEVEL n` on a recursive CTE: Spark takes a whole number that fits an INT.
pub fn recursion_limit<'t>(
    span: Span,
    words: [&str; 3],
    number: &str,
) -> ActionResult<'t, RecursionLimit> {
    let [max, recursion, level] = words;
    if ![(max, "max"), (recursion, "recursion"), (level, "level")]
        .iter()
        .all(|(word, expected)| word.eq_ignore_ascii_case(expected))
    {
        return user_error(
            span,
            format!("expected `MAX RECURSION LEVEL n` or `AS`, found `{max} {recursion} {level}`"),
        );
    }
    // A NUMBER token has no sign, so only its size and its form (`1.5`, `10L`) can be wrong.
    match number.parse::<u32>() {
        Ok(level) if i32::try_from(level).is_ok() => Ok(RecursionLimit { span, level }),
        _ => user_error(
            span,
            format!("the recursion level `{number}` is not a whole number that fits an INT"),
        ),
    }
}

/// One SELECT body after FROM, for [`from_statement`].
pub struct FromBody<'a> {
    /// From the body's first word to the end of its last SELECT clause.
    pub span: Span,
    pub kind: &'a FromBodyKind<'a>,
    pub rest: &'a SelectRest<'a>,
    /// The body's own ORDER BY, LIMIT ..., and where they end.
    pub tail: Option<(&'a QueryTail<'a>, usize)>,
}

/// What a body after FROM starts with: a select list, SELECT TRANSFORM or Hive's MAP or REDUCE.
pub enum FromBodyKind<'a> {
    Select(SelectHead<'a>),
    Transform(SelectHead<'a>, &'a ScriptTransform<'a>),
    MapReduce {
        word: Span,
        quantifier: Option<SetQuantifier>,
        inputs: &'a [Expr<'a>],
        script: &'a ScriptTransform<'a>,
    },
}

/// `FROM t SELECT ...` from FROM (at `start`) on: one body is a FROM-first SELECT (in
/// parentheses, as a query, when it has its own ORDER BY ...), several are [`FromBodies`],
/// each reading the one FROM clause.
pub fn from_statement<'a, 't>(
    arena: &'a Arena,
    src: &str,
    start: usize,
    (from, lateral_views): (Vec<TableRef<'a>>, Vec<LateralView<'a>>),
    bodies: Vec<FromBody<'a>>,
) -> ActionResult<'t, SetExpr<'a>> {
    let from = arena.slice(from);
    let several = bodies.len() > 1;
    let mut queries = Vec::with_capacity(bodies.len());
    for body in bodies {
        // The first body starts at FROM.
        let span = match queries.is_empty() {
            true => Span::from_usize(start, body.span.end as usize),
            false => body.span,
        };
        let rest = lateral_views_first(arena, lateral_views.clone(), body.rest);
        let select = match *body.kind {
            FromBodyKind::Select(head) => select(arena, span, true, head, from, rest),
            FromBodyKind::Transform(head, script) => {
                transform_select(arena, src, span, true, head, script, from, rest)?
            }
            FromBodyKind::MapReduce {
                word,
                quantifier,
                inputs,
                script,
            } => map_reduce_select(
                arena, span, true, word, quantifier, inputs, script, from, rest,
            )?,
        };
        let query = match body.tail {
            None if !several => return Ok(SetExpr::Select(select)),
            None => make_query(arena, span, None, SetExpr::Select(select), None),
            Some((tail, end)) => {
                let span = Span::from_usize(span.start as usize, end);
                make_query(arena, span, None, SetExpr::Select(select), Some(tail))
            }
        };
        if !several {
            return Ok(SetExpr::Query(query));
        }
        queries.push(query.clone());
    }
    let end = queries.last().map_or(start, |q| q.span.end as usize);
    Ok(SetExpr::FromBodies(arena.alloc(FromBodies {
        span: Span::from_usize(start, end),
        bodies: arena.slice(queries),
    })))
}

/// `GROUP BY a, b WITH ROLLUP` (or WITH CUBE, or GROUPING SETS (...) after the list): Spark takes
/// the modifier only after expressions, and ROLLUP (...) and CUBE (...) read as calls there, but a
/// GROUPING SETS item is none.
pub fn grouping_modifier<'t>(
    items: &[GroupByItem<'_>],
    modifier: Option<&GroupByModifier<'_>>,
    span: Span,
) -> ActionResult<'t, ()> {
    let grouping_sets = |item: &GroupByItem<'_>| matches!(item, GroupByItem::GroupingSets(_));
    if modifier.is_some() && items.iter().any(grouping_sets) {
        return user_error(
            span,
            "a GROUP BY with a GROUPING SETS item takes no WITH ROLLUP, WITH CUBE or GROUPING SETS after it: list the sets in one GROUPING SETS".to_string(),
        );
    }
    Ok(())
}

/// `ROLLUP (a, (a, b))`, `CUBE (...)`: Spark forms the sets itself, so `()` is no set here
/// (it is one in GROUPING SETS).
pub fn no_empty_set<'a, 't>(
    keyword: &str,
    sets: &'a [Expr<'a>],
) -> ActionResult<'t, &'a [Expr<'a>]> {
    match sets
        .iter()
        .find(|set| matches!(&set.kind, ExprKind::Tuple(items) if items.is_empty()))
    {
        Some(empty) => user_error(
            empty.span,
            format!("{keyword} takes no empty set `()`; use GROUPING SETS for one"),
        ),
        None => Ok(sets),
    }
}

/// A WINDOW clause as Spark's parser checks it (comparing names as written): each name once,
/// and a window defined as another (`w2 AS w1`) names one that the clause defines in full.
pub fn window_clause<'a, 't>(
    windows: &'a [NamedWindow<'a>],
) -> ActionResult<'t, &'a [NamedWindow<'a>]> {
    if let Some(window) = first_repeat(windows, |w| w.name.text) {
        return user_error(
            window.span,
            format!("the window `{}` is defined twice", window.name.text),
        );
    }
    let by_name: HashMap<&str, &NamedWindow<'a>> =
        windows.iter().map(|w| (w.name.text, w)).collect();
    let defined = |name: &str| by_name.get(name);
    for window in windows {
        single_name(&window.name)?;
        let WindowSpec::Named(target) = window.spec else {
            continue;
        };
        let problem = match defined(target.text).map(|w| w.spec) {
            None => "is not defined in this WINDOW clause",
            Some(WindowSpec::Named(_)) => "is itself defined as another window",
            Some(WindowSpec::Inline(_)) => continue,
        };
        return user_error(
            target.span,
            format!(
                "`{}` is defined as the window `{}`, which {problem}",
                window.name.text, target.text
            ),
        );
    }
    Ok(windows)
}

/// `|> WHERE x WINDOW w AS (...)`: Spark reads a WINDOW clause right after a pipe WHERE as the
/// WHERE's, and refuses it (after ORDER BY or another step, it is the query's).
pub fn pipe_window<'t>(body: &SetExpr<'_>, tail: Option<&QueryTail<'_>>) -> ActionResult<'t, ()> {
    let (SetExpr::Pipe(pipe), Some(tail)) = (body, tail) else {
        return Ok(());
    };
    let window_after_where = matches!(pipe.op, PipeOp::Where(_))
        && tail.order_by.is_empty()
        && tail.distribution.is_none();
    match tail.windows.first() {
        Some(window) if window_after_where => user_error(
            window.span,
            "a pipe WHERE takes no WINDOW clause: define the window in the step that uses it (`|> SELECT ... WINDOW w AS (...)`)".to_string(),
        ),
        _ => Ok(()),
    }
}

/// `WITH t AS (...), T AS (...)`: each name once, compared as Spark does, without case.
pub fn distinct_ctes<'t>(ctes: &[&Cte<'_>]) -> ActionResult<'t, ()> {
    for cte in ctes {
        single_name(&cte.name)?;
    }
    match first_repeat(ctes, |c| c.name.value().to_ascii_lowercase()) {
        Some(cte) => user_error(
            cte.name.span,
            format!(
                "the common table expression `{}` is defined twice",
                cte.name.text
            ),
        ),
        None => Ok(()),
    }
}

/// `a IN (SELECT 'x')`, `(SELECT 'x', 1)`: in these brackets Spark tries a list of values (`IN
/// (1, 2)`, a row `(1, 2)`) before a query, and a bare SELECT (no FROM, clause, DISTINCT or hint)
/// whose first item starts with a string reads as one: `SELECT 'x'` as a typed literal. In IN
/// the values take no names, so a named item keeps the query; a row takes two items or more,
/// named or not.
pub fn select_read_as_values<'t>(query: &Query<'_>, in_list: bool) -> ActionResult<'t, ()> {
    let SetExpr::Select(select) = &query.body else {
        return Ok(());
    };
    let bare = query.with.is_none()
        && query.order_by.is_empty()
        && query.limit.is_none()
        && query.offset.is_none()
        && query.distribution.is_none()
        && query.windows.is_empty()
        && select.hints.is_empty()
        && select.quantifier.is_none()
        && select.from.is_empty()
        && select.selection.is_none()
        && select.lateral_views.is_empty()
        && select.group_by.is_empty()
        && select.having.is_none()
        && select.windows.is_empty()
        && select.qualify.is_none()
        && !select.from_first;
    let is_value = |item: &SelectItem<'_>| match item {
        SelectItem::Expr { alias, .. } => alias.is_none() || !in_list,
        SelectItem::MultiAlias { .. } => !in_list,
        SelectItem::Wildcard(_) => true,
        SelectItem::Transform(_) => false,
    };
    let enough = select.projection.len() >= if in_list { 1 } else { 2 };
    if !bare || !enough || !select.projection.iter().all(is_value) {
        return Ok(());
    }
    let Some(SelectItem::Expr { expr, .. } | SelectItem::MultiAlias { expr, .. }) =
        select.projection.first()
    else {
        return Ok(());
    };
    let Some(string) = leading_string(expr) else {
        return Ok(());
    };
    let fix = if in_list {
        "for a subquery, name its item (`SELECT ... AS v`)"
    } else {
        "the brackets hold a row of values to Spark (a subquery gives one column)"
    };
    typed_literal_misread(select.span, "SELECT", string, fix)
}

/// `|> AGGREGATE ...`: Spark's pipe aggregation groups by plain expressions and computes
/// plain aggregates; GROUP BY ALL, ROLLUP, CUBE, GROUPING SETS, and (with a grouping)
/// GROUPING() and window functions are left to SELECT.
pub fn pipe_aggregate<'a, 't>(
    arena: &'a Arena,
    span: Span,
    aggregates: &'a [SelectItem<'a>],
    src: &'a str,
    group_by: Vec<(Span, GroupByItem<'a>, Option<GroupingName<'a>>)>,
) -> ActionResult<'t, &'a PipeOp<'a>> {
    let unsupported = |span: Span, what: &str| {
        user_error(span, format!("`|> AGGREGATE` does not support {what}"))
    };
    // Where any item is named, Spark reads every item as an expression: ROLLUP (a) and CUBE (a)
    // as calls of functions by those names, ALL as a column.
    let named = group_by.iter().any(|(_, _, name)| name.is_some());
    let mut grouping = Vec::with_capacity(group_by.len());
    for (item_span, value, name) in group_by {
        let expr = match value {
            GroupByItem::Expr(expr) => expr,
            GroupByItem::Rollup(sets) | GroupByItem::Cube(sets) if named => {
                call_named_by_first_word(arena, src, item_span, sets)
            }
            GroupByItem::All(all) if named => Expr {
                span: all,
                kind: ExprKind::Column(Ident {
                    span: all,
                    text: all.text(src),
                }),
            },
            GroupByItem::All(all) => {
                return unsupported(all, "GROUP BY ALL: list the grouping expressions")
            }
            _ => {
                return unsupported(
                    span,
                    "ROLLUP, CUBE or GROUPING SETS: use SELECT ... GROUP BY for them",
                )
            }
        };
        grouping.push(match name {
            None => SelectItem::Expr { expr, alias: None },
            Some(GroupingName::One(alias)) => SelectItem::Expr {
                expr,
                alias: Some(alias),
            },
            Some(GroupingName::List(aliases)) => SelectItem::MultiAlias { expr, aliases },
        });
    }
    // Spark looks for these only when the step groups, in what it computes and what it
    // groups by.
    if !grouping.is_empty() {
        if let Some((at, what)) = aggregates
            .iter()
            .chain(&grouping)
            .filter_map(SelectItem::expr)
            .find_map(|expr| find_expr(expr, grouping_or_window))
        {
            return unsupported(at, what);
        }
    }
    Ok(arena.alloc(PipeOp::Aggregate {
        aggregates,
        group_by: arena.slice(grouping),
    }))
}

/// `ROLLUP (a, b)` or `CUBE (a)` at `span` as a call of the function its first word names.
fn call_named_by_first_word<'a>(
    arena: &'a Arena,
    src: &'a str,
    span: Span,
    args: &'a [Expr<'a>],
) -> Expr<'a> {
    let text = span.text(src);
    let word = text.bytes().take_while(u8::is_ascii_alphabetic).count();
    let name = Ident {
        span: span.with_len(word as u32),
        text: &text[..word],
    };
    let name = ObjectName {
        span: name.span,
        parts: arena.slice([name]),
    };
    let args = arena.slice(args.iter().copied().map(FunctionArg::Positional));
    Expr {
        span,
        kind: ExprKind::Function(arena.alloc(call(span, name, None, args))),
    }
}

/// The name of a grouping item of `|> AGGREGATE`: `region AS r`, `region r`, or a list of names
/// (`region AS (r)`), as Spark names a select item.
pub enum GroupingName<'a> {
    One(Ident<'a>),
    List(&'a [Ident<'a>]),
}

/// A window function or a GROUPING(...)/GROUPING_ID(...) call, with what to say of it.
fn grouping_or_window(expr: &Expr<'_>) -> Option<(Span, &'static str)> {
    let ExprKind::Function(call) = &expr.kind else {
        return None;
    };
    // Spark finds a window it is given in full; `OVER w` it resolves only later.
    if matches!(call.over, Some(WindowSpec::Inline(_))) {
        return Some((
            expr.span,
            "window functions: compute them in a later `|> SELECT`",
        ));
    }
    // Spark takes `grouping()` with no arguments here (it fails only later).
    let name = call.name.base().value();
    let grouping =
        name.eq_ignore_ascii_case("grouping") || name.eq_ignore_ascii_case("grouping_id");
    (grouping && !call.args.is_empty()).then_some((expr.span, "GROUPING() or GROUPING_ID()"))
}
