//! Small builders that the grammar's actions call, so that the grammar stays declarative.

use crate::arena::{finish_list, Arena, Growing};
use crate::ast::*;
use crate::span::{Span, Spanned};
use crate::syntax::actions::spark_rules::{
    distinct_ctes, name_before_columns, single_name, values_alias,
};
use crate::syntax::actions::transform::{map_reduce_select, transform_select};

/// An error raised by a grammar action: a construct that matched the grammar's shape but is
/// not valid (`CREATE OR REPLACE MATERIALIZED VIEW`, `a > > b`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserError {
    /// The offending text.
    pub span: Span,
    /// What is wrong.
    pub message: String,
}

impl UserError {
    /// The error as a syntax diagnostic.
    pub fn into_diagnostic(self) -> crate::diagnostic::Diagnostic {
        crate::diagnostic::Diagnostic::error(
            crate::diagnostic::Code::ParseSyntaxError,
            self.span,
            self.message,
        )
    }
}

pub type ActionResult<'t, T> =
    Result<T, lalrpop_util::ParseError<usize, crate::lexer::Tok<'t>, UserError>>;

pub fn user_error<'t, T>(span: Span, message: String) -> ActionResult<'t, T> {
    Err(lalrpop_util::ParseError::User {
        error: UserError { span, message },
    })
}

/// A word the grammar read where a keyword of Spark's stands (one that is no keyword here, so
/// that it stays a name elsewhere), with its span.
pub type Word<'a> = (Span, &'a str);

/// `Ok` when `word` is `expected` (in any case), else an error that names both.
pub fn expect_word<'t>((span, word): Word<'_>, expected: &str) -> ActionResult<'t, ()> {
    if word.eq_ignore_ascii_case(expected) {
        return Ok(());
    }
    user_error(span, format!("expected {expected}, found `{word}`"))
}

/// `Ok` when a JSON path's `[index]` is written in plain digits, as Spark's `integerValue` is.
pub fn json_path_index<'t>((span, number): Word<'_>) -> ActionResult<'t, ()> {
    if number.bytes().all(|b| b.is_ascii_digit()) {
        return Ok(());
    }
    user_error(
        span,
        format!("a JSON path index is a whole number, found `{number}`"),
    )
}

/// `Ok` when a JSON path's `['key']` is in single quotes: Spark refuses a double-quoted or raw
/// string there.
pub fn json_path_key<'t>(key: StringLit<'_>) -> ActionResult<'t, ()> {
    if key.raw.starts_with('\'') {
        return Ok(());
    }
    user_error(
        key.span,
        format!(
            "a key in brackets in a JSON path is a string in single quotes, found {}",
            key.raw
        ),
    )
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

/// A span from LALRPOP's `usize` locations.
pub fn sp(l: usize, r: usize) -> Span {
    Span::from_usize(l, r)
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

/// A call's argument: `*` and `t.*` standing alone are the star arguments of `count(*)`.
pub fn function_arg(expr: Expr<'_>) -> FunctionArg<'_> {
    match expr.kind {
        ExprKind::Wildcard(Wildcard {
            span,
            qualifier: None,
            except: None,
        }) => FunctionArg::Star(*span),
        ExprKind::Wildcard(Wildcard {
            qualifier: Some(name),
            except: None,
            ..
        }) => FunctionArg::QualifiedStar(name.clone()),
        _ => FunctionArg::Positional(expr),
    }
}

/// `x[i]`, and `x[*]`, every element of an array.
pub fn subscript<'a, 't>(
    arena: &'a Arena,
    span: Span,
    expr: Expr<'a>,
    index: Expr<'a>,
) -> ActionResult<'t, Expr<'a>> {
    let kind = match index.kind {
        ExprKind::Wildcard(Wildcard {
            qualifier: None,
            except: None,
            ..
        }) => ExprKind::EveryElement(arena.alloc(expr)),
        _ if is_lone_word(&index) && in_json_path(&expr) => {
            return user_error(
                index.span,
                "a key in brackets in a JSON path is a string in single quotes, as in \
                 `raw:a['key']`; to index the extracted value, close the path in parentheses: \
                 `(raw:a)[i]`"
                    .to_string(),
            )
        }
        _ => {
            crate::syntax::actions::spark_rules::value_expression(&index, &"an index in brackets")?;
            ExprKind::Subscript(arena.alloc(Subscript { expr, index }))
        }
    };
    Ok(Expr { span, kind })
}

/// `expr:key`. After a string, Spark reads `:key` as a parameter marker, whatever the spaces,
/// and refuses it: such a path needs its string in parentheses. A key in brackets is a path.
pub fn json_path<'a, 't>(
    arena: &'a Arena,
    span: Span,
    expr: Expr<'a>,
    key: &'a str,
) -> ActionResult<'t, Expr<'a>> {
    if let ExprKind::Literal(Literal::String(parts)) = expr.kind {
        if !key.starts_with('[') && !parts[0].is_hex() {
            return user_error(
                span,
                format!(
                    "Spark reads `:{key}` after a string as a parameter marker: for a JSON path \
                     into the string, put it in parentheses, `(...):{key}`"
                ),
            );
        }
    }
    Ok(Expr {
        span,
        kind: ExprKind::JsonPath(arena.alloc(JsonPath { expr, key })),
    })
}

/// Whether `expr` ends in a JSON path that a `[...]` after it continues: `raw:a`, `raw:a.b`,
/// `raw:a[0]`, `raw:a['k']`. `[*]`, any other subscript, a cast or parentheses end the path.
fn in_json_path(mut expr: &Expr<'_>) -> bool {
    loop {
        expr = match &expr.kind {
            ExprKind::JsonPath(_) => return true,
            ExprKind::Field(field) => &field.expr,
            ExprKind::Subscript(step) if is_json_path_step(&step.index) => &step.expr,
            _ => return false,
        }
    }
}

/// `0` or `'key'`: a step of a JSON path in brackets.
fn is_json_path_step(index: &Expr<'_>) -> bool {
    match &index.kind {
        ExprKind::Literal(Literal::Number(digits)) => digits.bytes().all(|b| b.is_ascii_digit()),
        ExprKind::Literal(Literal::String([key])) => key.raw.starts_with('\''),
        _ => false,
    }
}

/// A bracket's content that Spark, in a JSON path, takes for a key and then refuses: a name, a
/// keyword value, a parameter marker, or a string that is not one single-quoted string (a hex
/// string is a value, as in Spark). An expression of more than one word (`[i + 1]`, `[(i)]`, `[t.i]`) is an ordinary subscript.
fn is_lone_word(index: &Expr<'_>) -> bool {
    match &index.kind {
        ExprKind::Column(name) => name.style() != IdentStyle::Parameter,
        ExprKind::Marker(_) | ExprKind::Literal(Literal::Boolean(_) | Literal::Null) => true,
        ExprKind::Literal(Literal::String(parts)) => {
            !is_json_path_step(index) && !parts[0].is_hex()
        }
        _ => false,
    }
}

/// `(a, b)` is a tuple of values; a row with a named field or a star, `(a AS x, b)`, keeps its
/// items as written.
pub fn row<'a>(arena: &'a Arena, span: Span, items: &'a [SelectItem<'a>]) -> Expr<'a> {
    let plain = |item: &SelectItem<'a>| matches!(item, SelectItem::Expr { alias: None, .. });
    if !items.iter().all(plain) {
        return Expr {
            span,
            kind: ExprKind::Row(items),
        };
    }
    // Straight into the arena, no heap list (a VALUES list has a row per line). Every item is a
    // plain value here; the other arm only keeps the match total.
    let values = items.iter().map(|item| match item {
        SelectItem::Expr { expr, .. } => *expr,
        other => Expr {
            span: other.span(),
            kind: ExprKind::Row(std::slice::from_ref(other)),
        },
    });
    Expr {
        span,
        kind: ExprKind::Tuple(arena.slice(values)),
    }
}

/// A call as written up to its closing parenthesis; the clauses after it are filled in later.
/// Its arguments are moved into the arena by the caller, which may still need to check them.
pub fn call<'a>(
    span: Span,
    name: ObjectName<'a>,
    quantifier: Option<SetQuantifier>,
    args: &'a [FunctionArg<'a>],
) -> FunctionCall<'a> {
    FunctionCall {
        span,
        name,
        identifier: None,
        quantifier,
        args,
        within_group: &[],
        filter: None,
        null_treatment: None,
        over: None,
    }
}

/// `IDENTIFIER('my' || 'func')(x)`: a call of the function that the expression names; its
/// arguments are checked as any call's, the name only when the statement runs.
pub fn identifier_call<'a, 't>(
    arena: &'a Arena,
    span: Span,
    keyword: Ident<'a>,
    name: Expr<'a>,
    quantifier: Option<SetQuantifier>,
    args: &'a [FunctionArg<'a>],
) -> ActionResult<'t, &'a FunctionCall<'a>> {
    let function = Name::new(arena, keyword).into_object_name(arena);
    check_args(span, &function, args)?;
    Ok(arena.alloc(FunctionCall {
        identifier: Some(arena.alloc(name)),
        ..call(span, function, quantifier, args)
    }))
}

/// Whether a table argument ends in keys without parentheses (`PARTITION BY a`, `ORDER BY b`),
/// which a comma and an expression would continue in Spark.
fn ends_in_open_keys(table: &TableArgument<'_>) -> bool {
    let parenthesized = |key: &Expr<'_>| matches!(key.kind, ExprKind::Nested(_));
    match &table.partitioning {
        Some(p) if !p.order_by.is_empty() => matches!(p.order_by, [key]
            if !(parenthesized(&key.expr) && undirected(key))),
        Some(TablePartitioning {
            partition: TablePartition::By([key]),
            ..
        }) => !parenthesized(key),
        _ => false,
    }
}

/// A call with its arguments checked: a comma and an expression after a table argument's
/// `PARTITION BY a` or `ORDER BY b` is where Spark reads more keys, which need parentheses
/// there (a named argument after the comma is the call's next argument).
pub fn checked_call<'a, 't>(
    arena: &'a Arena,
    span: Span,
    name: ObjectName<'a>,
    quantifier: Option<SetQuantifier>,
    args: &'a [FunctionArg<'a>],
) -> ActionResult<'t, &'a FunctionCall<'a>> {
    check_args(span, &name, args)?;
    if args.is_empty() && name.is_word("identifier") {
        return user_error(
            span,
            "IDENTIFIER( ) needs the name: IDENTIFIER('orders'), or an expression that gives it"
                .to_string(),
        );
    }
    Ok(arena.alloc(call(span, name, quantifier, args)))
}

/// The arguments of a call, whatever names the function: see [`checked_call`].
fn check_args<'t>(
    span: Span,
    name: &ObjectName<'_>,
    args: &[FunctionArg<'_>],
) -> ActionResult<'t, ()> {
    let keys_then_comma = args.windows(2).any(|pair| match pair {
        [FunctionArg::Table(table), next] => {
            let named = match next {
                FunctionArg::Named(_) => true,
                FunctionArg::Table(next) => next.name.is_some(),
                _ => false,
            };
            ends_in_open_keys(table) && !named
        }
        _ => false,
    });
    if keys_then_comma {
        return user_error(
            span,
            "a comma after a table argument's PARTITION BY or ORDER BY keys: write several keys in parentheses, `PARTITION BY (a, b)`, and pass the table argument last".to_string(),
        );
    }
    let named_field = args.iter().find_map(|arg| match arg {
        FunctionArg::Aliased(named) => Some((&named.value, &named.name)),
        _ => None,
    });
    let is_struct = || matches!(name.parts, [f] if f.text.eq_ignore_ascii_case("struct"));
    if let Some((value, alias)) = named_field.filter(|_| !is_struct()) {
        return user_error(
            value.span.to(alias.span),
            format!("`{name}(...)` takes no argument names: only `struct(...)` names its fields with `AS {alias}`"),
        );
    }
    Ok(())
}

/// `first(x IGNORE NULLS)`: Spark takes IGNORE NULLS inside the parentheses of these three.
pub fn ignore_nulls_inside<'a, 't>(
    arena: &'a Arena,
    span: Span,
    name: ObjectName<'a>,
    arg: Expr<'a>,
) -> ActionResult<'t, Expr<'a>> {
    let takes_it = name.parts.len() == 1
        && ["first", "last", "any_value"]
            .iter()
            .any(|f| name.parts[0].text.eq_ignore_ascii_case(f));
    if !takes_it {
        return user_error(
            span,
            "IGNORE NULLS inside the parentheses is only for first, last and any_value; write it after the call"
                .to_string(),
        );
    }
    let args = std::slice::from_ref(arena.alloc(FunctionArg::Positional(arg)));
    let call = FunctionCall {
        null_treatment: Some(NullTreatment::Ignore),
        ..call(span, name, None, args)
    };
    Ok(Expr {
        span,
        kind: ExprKind::Function(arena.alloc(call)),
    })
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

/// A subquery in FROM: `[LATERAL] (query) [TABLESAMPLE ...] [WATERMARK ...] [alias]`.
pub fn derived_table<'a>(
    arena: &'a Arena,
    span: Span,
    lateral: bool,
    query: &'a Query<'a>,
    sample: Option<&'a TableSample<'a>>,
    watermark: Option<&'a Watermark<'a>>,
    alias: Option<Alias<'a>>,
) -> TableRef<'a> {
    TableRef::Subquery(arena.alloc(DerivedTable {
        span,
        lateral,
        query,
        sample,
        watermark,
        alias,
    }))
}

pub fn inline_table<'a>(
    arena: &'a Arena,
    span: Span,
    rows: &'a [Expr<'a>],
    alias: Option<Alias<'a>>,
) -> TableRef<'a> {
    TableRef::Values(arena.alloc(InlineTable { span, rows, alias }))
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

pub fn unary<'a>(arena: &'a Arena, span: Span, op: UnaryOp, expr: Expr<'a>) -> Expr<'a> {
    Expr {
        span,
        kind: ExprKind::Unary(arena.alloc(UnaryExpr { op, expr })),
    }
}

pub fn binary<'a>(arena: &'a Arena, op: BinaryOp, left: Expr<'a>, right: Expr<'a>) -> Expr<'a> {
    Expr {
        span: left.span.to(right.span),
        kind: ExprKind::Binary(arena.alloc(BinaryExpr { op, left, right })),
    }
}

/// A chain of binary operators while it is parsed, `a + b * c - d`: the tree grouped so far
/// and the number of operators in it. Grouping as the operators arrive needs no list of them.
pub struct Chain<'a> {
    tree: Expr<'a>,
    links: usize,
}

impl<'a> Chain<'a> {
    pub fn new(arena: &'a Arena, left: Expr<'a>, op: BinaryOp, right: Expr<'a>) -> Self {
        Chain {
            tree: binary(arena, op, left, right),
            links: 1,
        }
    }

    /// Adds `op right` at the end. All of Spark's binary operators are left-associative, so
    /// `op` takes as its left side the right-most subtree whose operator binds at least as
    /// tightly as `op` (or the last operand): the walk down the tree's right edge passes only
    /// looser operators, so it is no longer than the number of precedence levels. A chain
    /// longer than [`crate::MAX_CHAIN`] is an error: its tree would be as deep as it is long.
    pub fn push<'t>(
        self,
        arena: &'a Arena,
        op: BinaryOp,
        right: Expr<'a>,
    ) -> ActionResult<'t, Self> {
        if self.links == crate::MAX_CHAIN {
            let message = format!(
                "the expression chains more than {} operators; split it, for example with a common table expression",
                crate::MAX_CHAIN
            );
            return user_error(self.tree.span.to(right.span), message);
        }
        Ok(Chain {
            tree: attach(arena, self.tree, op, right),
            links: self.links + 1,
        })
    }

    pub fn into_expr(self) -> Expr<'a> {
        self.tree
    }
}

/// `node` with `op right` as the right-most operation whose left side binds at least as
/// tightly as `op`. The operations passed on the way are built anew, ending with `right`
/// (the tree is immutable in the arena; their old copies stay there unused, at most one per
/// precedence level).
fn attach<'a>(arena: &'a Arena, node: Expr<'a>, op: BinaryOp, right: Expr<'a>) -> Expr<'a> {
    match node.kind {
        ExprKind::Binary(b) if b.op.precedence() < op.precedence() => {
            let right = attach(arena, b.right, op, right);
            binary(arena, b.op, b.left, right)
        }
        _ => binary(arena, op, node, right),
    }
}

/// `>>` and `>>>` are lexed as separate `>` (so `ARRAY<ARRAY<INT>>` closes twice); as shift
/// operators they must be written without space.
pub fn adjacent<'t>(parts: &[Span], op: BinaryOp) -> ActionResult<'t, BinaryOp> {
    match parts.windows(2).find(|pair| pair[0].end != pair[1].start) {
        Some(pair) => user_error(
            pair[0].to(pair[1]),
            format!("`{}` must be written without spaces", op.as_str()),
        ),
        None => Ok(op),
    }
}

/// A hex string must hold hex digits only.
pub fn hex_string<'a, 't>(
    arena: &'a Arena,
    span: Span,
    raw: &'a str,
) -> ActionResult<'t, Literal<'a>> {
    let digits = raw.get(2..raw.len().saturating_sub(1)).unwrap_or("");
    if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return user_error(
            span,
            "a hex string may only contain the digits 0-9 and A-F".to_string(),
        );
    }
    Ok(Literal::String(std::slice::from_ref(
        arena.alloc(StringLit { span, raw }),
    )))
}

impl Spanned for Name<'_> {
    fn span(&self) -> Span {
        Name::span(self)
    }
}

/// A lambda from its parameter expression: a column, or a parenthesised list of columns.
pub fn lambda<'a, 't>(
    arena: &'a Arena,
    span: Span,
    params: Expr<'a>,
    body: Expr<'a>,
) -> ActionResult<'t, Expr<'a>> {
    let not_a_name = |span: Span| {
        user_error(
            span,
            "a lambda takes one name (`x -> ...`) or several in parentheses (`(x, y) -> ...`)"
                .to_string(),
        )
    };
    // The lambda of the operand `params` ends with, from where that operand starts.
    let arrow_on = |operand: &Expr<'a>| {
        let span = Span::new(operand.span.start, span.end);
        lambda(arena, span, *operand, body)
    };
    // Spark's lambda is a primary expression: the arrow takes the operand just before it,
    // `a > x -> x > 0` is `a > (x -> x > 0)`, `-x -> x` is `-(x -> x)`, and so on.
    let kind = match &params.kind {
        ExprKind::Binary(b) => Some(ExprKind::Binary(arena.alloc(BinaryExpr {
            right: arrow_on(&b.right)?,
            ..(*b).clone()
        }))),
        ExprKind::Unary(u) => Some(ExprKind::Unary(arena.alloc(UnaryExpr {
            expr: arrow_on(&u.expr)?,
            ..(*u).clone()
        }))),
        ExprKind::Like(l) => Some(ExprKind::Like(arena.alloc(Like {
            pattern: arrow_on(&l.pattern)?,
            ..(*l).clone()
        }))),
        _ => None,
    };
    if let Some(kind) = kind {
        return Ok(Expr { span, kind });
    }
    let names = match &params.kind {
        ExprKind::Column(name) => vec![*name],
        ExprKind::Tuple(items) => {
            let mut names = Vec::with_capacity(items.len());
            for item in *items {
                match &item.kind {
                    ExprKind::Column(name) => names.push(*name),
                    _ => return not_a_name(item.span),
                }
            }
            names
        }
        _ => return not_a_name(params.span),
    };
    names.iter().try_for_each(single_name)?;
    Ok(Expr {
        span,
        kind: ExprKind::Lambda(arena.alloc(Lambda {
            params: arena.slice(names),
            body,
        })),
    })
}

/// `x [NOT] LIKE ANY (...)`: Spark quantifies LIKE and ILIKE only.
pub fn like_quantified<'a, 't>(
    arena: &'a Arena,
    span: Span,
    like: LikeQuantified<'a>,
) -> ActionResult<'t, Expr<'a>> {
    let LikeQuantified { kind, patterns, .. } = like;
    let escape = crate::syntax::actions::spark_rules::like_escape(kind, like.escape)?;
    if !matches!(kind, LikeKind::Like | LikeKind::ILike) {
        return user_error(
            span,
            format!("ANY, SOME and ALL quantify LIKE and ILIKE, not {kind}"),
        );
    }
    // Spark checks for patterns only when there is no ESCAPE: `LIKE ANY () ESCAPE '#'` parses.
    if patterns.is_empty() && escape.is_none() {
        return user_error(
            span,
            format!("{kind} ANY, SOME or ALL needs at least one pattern"),
        );
    }
    Ok(Expr {
        span,
        kind: ExprKind::LikeQuantified(arena.alloc(LikeQuantified { escape, ..like })),
    })
}

/// Spark's call forms with keyword-separated arguments, each for its own functions:
/// `extract(field FROM x)`, `substring(s FROM i [FOR n])` (and `substr`, where a comma may
/// stand for either keyword), `trim([BOTH | LEADING | TRAILING] [chars] FROM s)`,
/// `overlay(s PLACING r FROM i [FOR n])`, `position(substr IN s)`.
pub fn special_call<'a, 't>(
    arena: &'a Arena,
    span: Span,
    name: ObjectName<'a>,
    args: Vec<FunctionArg<'a>>,
) -> ActionResult<'t, &'a FunctionCall<'a>> {
    // The arguments' layout: `e` an expression, `s` a trim side, and a keyword's initial.
    let layout: String = args
        .iter()
        .map(|arg| match arg {
            FunctionArg::Positional(_) => 'e',
            FunctionArg::TrimSide(_) => 's',
            FunctionArg::Keyword { keyword, .. } => match keyword {
                ArgKeyword::From => 'F',
                ArgKeyword::For => 'R',
                ArgKeyword::Placing => 'P',
                ArgKeyword::In => 'I',
            },
            _ => '?',
        })
        .collect();
    let function = match name.parts {
        [only] => only.text.to_ascii_lowercase(),
        _ => String::new(),
    };
    let fits = match function.as_str() {
        "extract" => {
            layout == "eF"
                && matches!(&args[0], FunctionArg::Positional(e) if matches!(e.kind, ExprKind::Column(_)))
        }
        "substring" | "substr" => matches!(layout.as_str(), "eF" | "eFR" | "eFe" | "eeR"),
        "trim" => matches!(layout.as_str(), "F" | "eF" | "sF" | "seF"),
        "overlay" => matches!(layout.as_str(), "ePF" | "ePFR"),
        "position" => layout == "eI",
        _ => false,
    };
    // `trim(FROM 'a')`: Spark reads `FROM 'a'` as a typed literal (of a type it does not know).
    if let [FunctionArg::Keyword { value, .. }] = args.as_slice() {
        if function == "trim" && starts_with_string(value) {
            return user_error(
                span,
                "Spark reads `FROM '...'` right after `trim(` as a typed literal of no known type: write trim('...') or trim(BOTH FROM '...')".to_string(),
            );
        }
    }
    if !fits {
        return user_error(
            span,
            format!(
                "`{name}` does not take this form: keyword-separated arguments are for extract(field FROM x), substring(s FROM i [FOR n]), trim([BOTH | LEADING | TRAILING] [chars] FROM s), overlay(s PLACING r FROM i [FOR n]) and position(substr IN s)"
            ),
        );
    }
    for arg in &args {
        if let FunctionArg::Positional(value) | FunctionArg::Keyword { value, .. } = arg {
            // The place is formatted only for a refusal.
            crate::syntax::actions::spark_rules::value_expression(
                value,
                &format_args!("an argument of `{name}` with keywords"),
            )?;
        }
    }
    Ok(arena.alloc(call(span, name, None, arena.slice(args))))
}

/// Whether `expr`'s first token is a string literal (not a hex one, `X'1F'`).
fn starts_with_string(expr: &Expr<'_>) -> bool {
    crate::ast::visit::find_expr(expr, |e| match &e.kind {
        ExprKind::Literal(Literal::String([first, ..])) if e.span.start == expr.span.start => {
            Some(!first.is_hex())
        }
        _ => None,
    })
    .unwrap_or(false)
}

/// The clauses after a call, as [`with_clauses`] adds them.
#[derive(Default)]
pub struct CallClauses<'a> {
    pub within_group: &'a [OrderByExpr<'a>],
    pub filter: Option<Expr<'a>>,
    pub null_treatment: Option<NullTreatment>,
    pub over: Option<&'a WindowSpec<'a>>,
}

/// A call with the clauses that follow it. Spark reads `struct(a AS x)` as a constructor, not a
/// call, so nothing may follow that.
pub fn with_clauses<'a, 't>(
    arena: &'a Arena,
    call: &'a FunctionCall<'a>,
    clauses: &'a CallClauses<'a>,
) -> ActionResult<'t, &'a FunctionCall<'a>> {
    if call
        .args
        .iter()
        .any(|arg| matches!(arg, FunctionArg::Aliased(_)))
    {
        return user_error(
            call.span,
            "a struct with named fields (`struct(a AS x)`) is no function call: it takes no WITHIN GROUP, FILTER, IGNORE NULLS or OVER".to_string(),
        );
    }
    Ok(arena.alloc(FunctionCall {
        within_group: clauses.within_group,
        filter: clauses.filter.as_ref(),
        null_treatment: clauses.null_treatment,
        over: clauses.over,
        ..call.clone()
    }))
}

/// `SYSTEM` or `BERNOULLI` in `TABLESAMPLE SYSTEM (10 PERCENT)`.
pub fn sample_kind<'t>(span: Span, word: &str) -> ActionResult<'t, SampleKind> {
    if word.eq_ignore_ascii_case("system") {
        Ok(SampleKind::System)
    } else if word.eq_ignore_ascii_case("bernoulli") {
        Ok(SampleKind::Bernoulli)
    } else {
        user_error(
            span,
            format!("`TABLESAMPLE {word}`: the sampling methods are SYSTEM and BERNOULLI"),
        )
    }
}

/// A TABLESAMPLE clause, its amount checked as Spark does; SYSTEM samples by percentage only.
pub fn table_sample<'a, 't>(
    arena: &'a Arena,
    span: Span,
    kind: Option<SampleKind>,
    method: Option<SampleMethod<'a>>,
    seed: Option<Expr<'a>>,
) -> ActionResult<'t, &'a TableSample<'a>> {
    let Some(method) = method else {
        return user_error(
            span,
            "a sample of a size in bytes (`TABLESAMPLE (100M)`) is not supported: sample a percentage, rows or buckets".to_string(),
        );
    };
    if kind == Some(SampleKind::System) && !matches!(method, SampleMethod::Percent(_)) {
        return user_error(
            span,
            "TABLESAMPLE SYSTEM takes a percentage only".to_string(),
        );
    }
    crate::syntax::actions::spark_rules::sample_amount(span, &method)?;
    Ok(arena.alloc(TableSample {
        span,
        kind,
        method,
        seed,
    }))
}

/// `TIME '12:00:00'`: Spark reads a word before a string as a typed literal and rejects the
/// types it has no literal for.
pub fn word_typed_literal<'a, 't>(
    span: Span,
    word: &str,
    value: StringLit<'a>,
) -> ActionResult<'t, Literal<'a>> {
    if word.eq_ignore_ascii_case("time") {
        crate::syntax::actions::literals::datetime::typed_literal(TypedLiteralKind::Time, value)
    } else if word.eq_ignore_ascii_case("x") {
        crate::syntax::actions::literals::datetime::typed_literal(TypedLiteralKind::Hex, value)
    } else {
        user_error(
            span,
            format!("`{word} '...'` is not a literal: the typed literals are DATE, TIMESTAMP, TIMESTAMP_NTZ, TIMESTAMP_LTZ, TIME, INTERVAL and X'...'"),
        )
    }
}

/// `WITH SINGLE PARTITION` after a table argument (SINGLE is not a keyword anywhere else).
pub fn single_partition<'a, 't>(span: Span, word: &str) -> ActionResult<'t, TablePartition<'a>> {
    if word.eq_ignore_ascii_case("single") {
        Ok(TablePartition::Single)
    } else {
        user_error(
            span,
            format!("expected `WITH SINGLE PARTITION`, found `WITH {word}`"),
        )
    }
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

/// `PARTITION BY (a, b)` in a table argument: the parenthesized keys, not one row value.
pub fn key_list<'a>(arena: &'a Arena, key: Expr<'a>) -> &'a [Expr<'a>] {
    match key.kind {
        ExprKind::Tuple(keys) => keys,
        _ => std::slice::from_ref(arena.alloc(key)),
    }
}

/// A sort key written without ASC, DESC or NULLS: in a table argument, `ORDER BY (a, b)` or
/// `ORDER BY (a)` is then keys in parentheses rather than one key.
fn undirected(key: &OrderByExpr<'_>) -> bool {
    key.ascending.is_none() && key.nulls_first.is_none()
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

#[cfg(test)]
mod tests {
    use crate::ast::*;

    /// The first select item of `SELECT <expression>`, every binary operation in brackets.
    fn grouped(expression: &str) -> String {
        let sql = format!("SELECT {expression}");
        let arena = crate::Arena::new();
        let parsed = crate::parse(&arena, &sql);
        assert!(parsed.diagnostics().is_empty(), "{sql}");
        let Some(Statement::Query(query)) = parsed.script().statements.first() else {
            panic!("{sql} is not a query");
        };
        let SetExpr::Select(select) = &query.body else {
            panic!("{sql} is not a SELECT");
        };
        let Some(SelectItem::Expr { expr, .. }) = select.projection.first() else {
            panic!("{sql} has no expression");
        };
        fn bracket(sql: &str, expr: &Expr) -> String {
            match &expr.kind {
                ExprKind::Binary(b) => format!(
                    "({} {} {})",
                    bracket(sql, &b.left),
                    b.op.as_str(),
                    bracket(sql, &b.right)
                ),
                _ => sql[expr.span.start as usize..expr.span.end as usize].to_string(),
            }
        }
        bracket(&sql, expr)
    }

    #[test]
    fn operators_group_by_precedence_and_to_the_left() {
        for (expression, expected) in [
            ("a - b - c", "((a - b) - c)"),
            ("a + b * c - d", "((a + (b * c)) - d)"),
            ("a * b + c * d", "((a * b) + (c * d))"),
            ("a | b & c + d * e", "(a | (b & (c + (d * e))))"),
            ("a * b | c + d & e", "((a * b) | ((c + d) & e))"),
            ("a < b + c * d - e", "(a < ((b + (c * d)) - e))"),
            (
                "a + b < c AND d OR e AND f",
                "((((a + b) < c) AND d) OR (e AND f))",
            ),
            ("a OR b AND c OR d", "((a OR (b AND c)) OR d)"),
            ("a || b + c", "((a || b) + c)"),
            ("(a + b) * c", "((a + b) * c)"),
        ] {
            assert_eq!(grouped(expression), expected, "{expression}");
        }
    }
}
