//! A read-only visitor over the tree.
//!
//! Override the `visit_*` methods you care about and call the matching `walk_*` function to go
//! on into the children; children are visited in source order.
//!
//! ```
//! use pipeline_sql::ast::{visit::{self, Visitor}, TableRef};
//!
//! /// Collects the names of streaming reads.
//! struct Streams(Vec<String>);
//!
//! impl<'a> Visitor<'a> for Streams {
//!     fn visit_table_ref(&mut self, relation: &TableRef<'a>) {
//!         if let TableRef::Table(t) = relation {
//!             if t.stream.is_some() {
//!                 self.0.push(t.name.to_string());
//!             }
//!         }
//!         visit::walk_table_ref(self, relation);
//!     }
//! }
//!
//! let arena = pipeline_sql::Arena::new();
//! let parsed = pipeline_sql::parse(&arena, "SELECT * FROM STREAM(a) JOIN b ON a.id = b.id");
//! let mut streams = Streams(Vec::new());
//! streams.visit_script(parsed.script());
//! assert_eq!(streams.0, ["a"]);
//! ```

use super::*;
use crate::span::Spanned;

/// Callbacks for each kind of node; each defaults to walking into the children.
pub trait Visitor<'a> {
    /// A whole file.
    fn visit_script(&mut self, script: &Script<'a>) {
        walk_script(self, script);
    }
    /// A statement.
    fn visit_statement(&mut self, statement: &Statement<'a>) {
        walk_statement(self, statement);
    }
    /// A flow body (CREATE FLOW, inline FLOW, APPLY CHANGES).
    fn visit_flow(&mut self, flow: &FlowBody<'a>) {
        walk_flow(self, flow);
    }
    /// A table element (column, expectation, constraint).
    fn visit_table_element(&mut self, element: &TableElement<'a>) {
        walk_table_element(self, element);
    }
    /// A query.
    fn visit_query(&mut self, query: &Query<'a>) {
        walk_query(self, query);
    }
    /// A SELECT.
    fn visit_select(&mut self, select: &Select<'a>) {
        walk_select(self, select);
    }
    /// A relation in FROM (or an AUTO CDC source).
    fn visit_table_ref(&mut self, relation: &TableRef<'a>) {
        walk_table_ref(self, relation);
    }
    /// An expression.
    fn visit_expr(&mut self, expr: &Expr<'a>) {
        walk_expr(self, expr);
    }
    /// A data type.
    fn visit_data_type(&mut self, _data_type: &DataType<'a>) {}
}

/// The first `found(e)` that is `Some`, for `expr` and then its sub-expressions in source
/// order, without looking into subqueries (a subquery expression itself is offered).
pub(crate) fn find_expr<'a, T>(
    expr: &Expr<'a>,
    found: impl FnMut(&Expr<'a>) -> Option<T>,
) -> Option<T> {
    struct Finder<F, T> {
        found: F,
        result: Option<T>,
    }
    impl<'a, F: FnMut(&Expr<'a>) -> Option<T>, T> Visitor<'a> for Finder<F, T> {
        fn visit_expr(&mut self, expr: &Expr<'a>) {
            if self.result.is_some() {
                return;
            }
            self.result = (self.found)(expr);
            if self.result.is_none() {
                walk_expr(self, expr);
            }
        }

        fn visit_query(&mut self, _query: &Query<'a>) {}
    }
    let mut finder = Finder {
        found,
        result: None,
    };
    finder.visit_expr(expr);
    finder.result
}

/// The string literal that `expr` starts with (`'x'` in `'x' || y`, `'x'.a`, `'x' IS NULL`):
/// one string token to Spark (`'it''s'` is one, `'a' 'b'` two), not a hex string (which Spark
/// reads as no word and a string), and not in brackets. After a word, Spark may read such a
/// string as a typed literal. Returns its first part.
pub(crate) fn leading_string<'a>(expr: &Expr<'a>) -> Option<&'a str> {
    // Sub-expressions come in source order, so the first one that starts later ends the
    // search: only the chain of leftmost operands is walked (printing asks this of every NOT).
    find_expr(expr, |e| match e.kind {
        _ if e.span.start != expr.span.start => Some(None),
        ExprKind::Literal(Literal::String(parts @ [first, ..]))
            if !first.is_hex() && parts.windows(2).all(|w| w[0].span.end == w[1].span.start) =>
        {
            Some(Some(first.raw))
        }
        _ => None,
    })
    .flatten()
}

/// Visits every statement.
pub fn walk_script<'a, V: Visitor<'a> + ?Sized>(v: &mut V, script: &Script<'a>) {
    script.statements.iter().for_each(|s| v.visit_statement(s));
}

/// Visits the children of a statement.
pub fn walk_statement<'a, V: Visitor<'a> + ?Sized>(v: &mut V, statement: &Statement<'a>) {
    match statement {
        Statement::CreateFlow(s) => v.visit_flow(&s.body),
        Statement::CreateStreamingTable(s) => {
            walk_table_parts(v, &s.spec, s.clauses);
            match &s.body {
                Some(TableBody::Query(q)) => v.visit_query(q.query),
                Some(TableBody::Flow(flow)) => v.visit_flow(&flow.body),
                None => {}
            }
        }
        Statement::CreateTable(s) => {
            walk_table_parts(v, &s.spec, s.clauses);
            if let Some(flow) = &s.flow {
                v.visit_flow(&flow.body);
            }
        }
        Statement::CreateMaterializedView(s) => {
            walk_table_parts(v, &s.spec, s.clauses);
            v.visit_query(s.query.query);
        }
        Statement::CreateView(s) => {
            walk_clauses(v, s.clauses);
            v.visit_query(s.query.query);
        }
        Statement::ApplyChanges(s) => walk_auto_cdc(v, &s.flow),
        Statement::Query(q) => v.visit_query(q),
        Statement::Set(_) | Statement::Use(_) | Statement::Error(_) => {}
    }
}

fn walk_table_parts<'a, V: Visitor<'a> + ?Sized>(
    v: &mut V,
    spec: &Option<TableSpec<'a>>,
    clauses: &[TableClause<'a>],
) {
    if let Some(spec) = spec {
        spec.elements.iter().for_each(|e| v.visit_table_element(e));
    }
    walk_clauses(v, clauses);
}

fn walk_clauses<'a, V: Visitor<'a> + ?Sized>(v: &mut V, clauses: &[TableClause<'a>]) {
    for clause in clauses {
        if let TableClauseKind::TblProperties(properties) = &clause.kind {
            walk_properties(v, properties);
        }
    }
}

fn walk_properties<'a, V: Visitor<'a> + ?Sized>(v: &mut V, properties: &[Property<'a>]) {
    properties
        .iter()
        .filter_map(|p| p.value.as_ref())
        .for_each(|e| v.visit_expr(e));
}

/// Visits the children of a flow.
pub fn walk_flow<'a, V: Visitor<'a> + ?Sized>(v: &mut V, flow: &FlowBody<'a>) {
    match flow {
        FlowBody::Insert(insert) => {
            for clause in insert.replace {
                if let ReplaceClause::Where(r) = clause {
                    v.visit_expr(&r.predicate);
                }
            }
            v.visit_query(insert.query);
        }
        FlowBody::AutoCdc(cdc) => walk_auto_cdc(v, cdc),
    }
}

fn walk_auto_cdc<'a, V: Visitor<'a> + ?Sized>(v: &mut V, cdc: &AutoCdcFlow<'a>) {
    match &cdc.source {
        CdcSource::ChangeFeed(relation) => v.visit_table_ref(relation),
        CdcSource::Snapshot(snapshot) => {
            v.visit_query(snapshot.snapshot_query);
            if let Some(version) = &snapshot.version {
                v.visit_query(version.query);
            }
        }
    }
    for clause in cdc.clauses {
        match &clause.kind {
            CdcClauseKind::Where(e)
            | CdcClauseKind::ApplyAsDelete(e)
            | CdcClauseKind::ApplyAsTruncate(e)
            | CdcClauseKind::SequenceBy(e) => v.visit_expr(e),
            _ => {}
        }
    }
}

/// Visits the children of a table element.
pub fn walk_table_element<'a, V: Visitor<'a> + ?Sized>(v: &mut V, element: &TableElement<'a>) {
    match element {
        TableElement::Column(column) => {
            if let Some(data_type) = &column.data_type {
                v.visit_data_type(data_type);
            }
            for property in column.properties {
                match &property.kind {
                    ColumnPropertyKind::Generated(e) | ColumnPropertyKind::Default(e) => {
                        v.visit_expr(e)
                    }
                    ColumnPropertyKind::Mask {
                        using_columns: Some(args),
                        ..
                    } => args.iter().for_each(|e| v.visit_expr(e)),
                    _ => {}
                }
            }
        }
        TableElement::Expectation(expectation) => v.visit_expr(&expectation.expr),
        TableElement::Constraint(_) => {}
    }
}

/// Visits the children of a query.
pub fn walk_query<'a, V: Visitor<'a> + ?Sized>(v: &mut V, query: &Query<'a>) {
    if let Some(with) = &query.with {
        with.ctes.iter().for_each(|cte| v.visit_query(cte.query));
    }
    walk_set_expr(v, &query.body);
    walk_query_clauses(v, query);
}

/// A query's ORDER BY, distributions, WINDOW, LIMIT and OFFSET.
fn walk_query_clauses<'a, V: Visitor<'a> + ?Sized>(v: &mut V, query: &Query<'a>) {
    walk_result_clauses(
        v,
        query.order_by,
        query.distribution,
        query.windows,
        query.limit,
        query.offset,
    );
}

/// ORDER BY, the distributions, WINDOW, LIMIT and OFFSET: the end of a query and of a pipe step.
fn walk_result_clauses<'a, V: Visitor<'a> + ?Sized>(
    v: &mut V,
    order_by: &[OrderByExpr<'a>],
    distribution: Option<&Distribution<'a>>,
    windows: &[NamedWindow<'a>],
    limit: Option<&Limit<'a>>,
    offset: Option<&Expr<'a>>,
) {
    order_by.iter().for_each(|o| v.visit_expr(&o.expr));
    if let Some(d) = distribution {
        d.cluster_by
            .iter()
            .chain(d.distribute_by)
            .for_each(|e| v.visit_expr(e));
        d.sort_by.iter().for_each(|o| v.visit_expr(&o.expr));
    }
    windows.iter().for_each(|w| walk_window(v, w.spec));
    if let Some(Limit::Count(n)) = limit {
        v.visit_expr(n);
    }
    offset.into_iter().for_each(|e| v.visit_expr(e));
}

fn walk_pivot<'a, V: Visitor<'a> + ?Sized>(v: &mut V, pivot: &Pivot<'a>) {
    if let Some(source) = &pivot.source {
        v.visit_table_ref(source);
    }
    walk_projection(v, pivot.aggregates);
    pivot.values.iter().for_each(|n| v.visit_expr(&n.value));
}

fn walk_join<'a, V: Visitor<'a> + ?Sized>(
    v: &mut V,
    right: &TableRef<'a>,
    constraint: &JoinConstraint<'a>,
) {
    v.visit_table_ref(right);
    match constraint {
        JoinConstraint::On(e) => v.visit_expr(e),
        JoinConstraint::Nearest(nearest) => v.visit_expr(&nearest.score),
        JoinConstraint::None | JoinConstraint::Using(_) => {}
    }
}

fn walk_bin_by<'a, V: Visitor<'a> + ?Sized>(v: &mut V, bin: &BinBy<'a>) {
    if let Some(source) = &bin.source {
        v.visit_table_ref(source);
    }
    v.visit_expr(&bin.width);
    bin.align_to.iter().for_each(|origin| v.visit_expr(origin));
}

fn walk_set_expr<'a, V: Visitor<'a> + ?Sized>(v: &mut V, body: &SetExpr<'a>) {
    match body {
        SetExpr::Select(select) => v.visit_select(select),
        SetExpr::Query(query) => v.visit_query(query),
        SetExpr::SetOperation(op) => {
            walk_set_expr(v, &op.left);
            walk_set_expr(v, &op.right);
        }
        SetExpr::Values(values) => values.rows.iter().for_each(|e| v.visit_expr(e)),
        SetExpr::Table(_) => {}
        SetExpr::Pipe(pipe) => {
            walk_set_expr(v, &pipe.input);
            walk_pipe_op(v, &pipe.op);
        }
        SetExpr::FromBodies(multi) => multi.bodies.iter().enumerate().for_each(|(i, body)| {
            match &body.body {
                // The later bodies without the FROM clause they share with the first.
                SetExpr::Select(select) if i > 0 => v.visit_select(&Select {
                    from: &[],
                    lateral_views: own_lateral_views(select),
                    ..Select::clone(select)
                }),
                other => walk_set_expr(v, other),
            }
            walk_query_clauses(v, body);
        }),
    }
}

/// The LATERAL VIEWs that a later body of [`FromBodies`] has of its own, after those of the
/// FROM clause, which come before its SELECT.
fn own_lateral_views<'s, 'a>(select: &'s Select<'a>) -> &'s [LateralView<'a>] {
    let shared = select
        .lateral_views
        .partition_point(|l| l.span.start < select.span.start);
    &select.lateral_views[shared..]
}

fn walk_pipe_op<'a, V: Visitor<'a> + ?Sized>(v: &mut V, op: &PipeOp<'a>) {
    match op {
        PipeOp::Select {
            projection,
            windows,
            ..
        } => {
            walk_projection(v, projection);
            windows.iter().for_each(|w| walk_window(v, w.spec));
        }
        PipeOp::Extend(items) => walk_projection(v, items),
        PipeOp::Set(assignments) => assignments.iter().for_each(|(_, e)| v.visit_expr(e)),
        PipeOp::Drop(_) | PipeOp::As(_) => {}
        PipeOp::Where(e) => v.visit_expr(e),
        PipeOp::Aggregate {
            aggregates,
            group_by,
        } => {
            walk_projection(v, aggregates);
            walk_projection(v, group_by);
        }
        PipeOp::Join {
            right, constraint, ..
        } => walk_join(v, right, constraint),
        PipeOp::SetOperation { right, .. } => walk_set_expr(v, right),
        PipeOp::Sample(sample) => walk_sample(v, Some(sample)),
        PipeOp::Pivot(p) => walk_pivot(v, p),
        PipeOp::Unpivot(u) => u.source.iter().for_each(|s| v.visit_table_ref(s)),
        PipeOp::BinBy(b) => walk_bin_by(v, b),
        PipeOp::Organize {
            order_by,
            distribution,
            limit,
            offset,
        } => walk_result_clauses(v, order_by, *distribution, &[], *limit, *offset),
    }
}

fn walk_projection<'a, V: Visitor<'a> + ?Sized>(v: &mut V, projection: &[SelectItem<'a>]) {
    for item in projection {
        match item {
            SelectItem::Expr { expr, .. } | SelectItem::MultiAlias { expr, .. } => {
                v.visit_expr(expr)
            }
            SelectItem::Transform(transform) => {
                transform.inputs.iter().for_each(|e| v.visit_expr(e));
                if let Some(TransformOutput::Columns(columns)) = &transform.output {
                    columns.iter().for_each(|c| v.visit_data_type(&c.data_type));
                }
            }
            SelectItem::Wildcard(_) => {}
        }
    }
}

/// Visits the children of a SELECT.
pub fn walk_select<'a, V: Visitor<'a> + ?Sized>(v: &mut V, select: &Select<'a>) {
    // In source order: `FROM t SELECT a` names the relations first, and the LATERAL VIEWs of
    // its FROM clause (`FROM t LATERAL VIEW ... SELECT a`), which come first in the list.
    let lateral_views = if select.from_first {
        select.from.iter().for_each(|r| v.visit_table_ref(r));
        let projection_start = select
            .projection
            .first()
            .map_or(u32::MAX, |i| i.span().start);
        let (before, after) = select.lateral_views.split_at(
            select
                .lateral_views
                .partition_point(|l| l.span.start < projection_start),
        );
        before.iter().for_each(|lateral| walk_call(v, lateral.call));
        walk_projection(v, select.projection);
        after
    } else {
        walk_projection(v, select.projection);
        select.from.iter().for_each(|r| v.visit_table_ref(r));
        select.lateral_views
    };
    for lateral in lateral_views {
        walk_call(v, lateral.call);
    }
    if let Some(selection) = &select.selection {
        v.visit_expr(selection);
    }
    walk_group_by(v, select.group_by);
    if let Some(having) = &select.having {
        v.visit_expr(having);
    }
    select.windows.iter().for_each(|w| walk_window(v, w.spec));
    if let Some(qualify) = &select.qualify {
        v.visit_expr(qualify);
    }
}

fn walk_group_by<'a, V: Visitor<'a> + ?Sized>(v: &mut V, group_by: &[GroupByItem<'a>]) {
    for item in group_by {
        match item {
            GroupByItem::Expr(e) => v.visit_expr(e),
            GroupByItem::All(_)
            | GroupByItem::Modifier(
                GroupByModifier::WithRollup(_) | GroupByModifier::WithCube(_),
            ) => {}
            GroupByItem::Rollup(sets)
            | GroupByItem::Cube(sets)
            | GroupByItem::GroupingSets(sets)
            | GroupByItem::Modifier(GroupByModifier::GroupingSets(sets)) => {
                sets.iter().for_each(|e| v.visit_expr(e))
            }
        }
    }
}

/// Visits the children of a relation.
pub fn walk_table_ref<'a, V: Visitor<'a> + ?Sized>(v: &mut V, relation: &TableRef<'a>) {
    match relation {
        TableRef::Table(t) => {
            if let Some(travel) = &t.time_travel {
                v.visit_expr(&travel.value);
            }
            if let Some(changes) = t.changes {
                let bounds = changes.from.iter().chain(&changes.to);
                bounds.for_each(|bound| v.visit_expr(&bound.value));
            }
            if let Some(options) = &t.options {
                walk_properties(v, options.options);
            }
            walk_sample(v, t.sample);
            walk_watermark(v, t.watermark);
        }
        TableRef::Function(t) => {
            walk_call(v, t.call);
            walk_watermark(v, t.watermark);
        }
        TableRef::Subquery(d) => {
            v.visit_query(d.query);
            walk_sample(v, d.sample);
            walk_watermark(v, d.watermark);
        }
        TableRef::Values(values) => values.rows.iter().for_each(|e| v.visit_expr(e)),
        TableRef::Pivot(p) => walk_pivot(v, p),
        TableRef::Unpivot(u) => u.source.iter().for_each(|s| v.visit_table_ref(s)),
        TableRef::Nested(n) => {
            v.visit_table_ref(&n.relation);
            walk_sample(v, n.sample);
            walk_watermark(v, n.watermark);
        }
        TableRef::JsonTable(j) => {
            v.visit_expr(&j.document);
            for column in j.columns {
                if let JsonColumnKind::Value { data_type, .. } = &column.kind {
                    v.visit_data_type(data_type);
                }
            }
        }
        TableRef::BinBy(b) => walk_bin_by(v, b),
        TableRef::Join(j) => {
            v.visit_table_ref(&j.left);
            walk_join(v, &j.right, &j.constraint);
        }
    }
}

fn walk_sample<'a, V: Visitor<'a> + ?Sized>(v: &mut V, sample: Option<&TableSample<'a>>) {
    let Some(sample) = sample else { return };
    match &sample.method {
        SampleMethod::Percent(n) | SampleMethod::Rows(n) => v.visit_expr(n),
        SampleMethod::Bucket {
            numerator,
            denominator,
        } => {
            v.visit_expr(numerator);
            v.visit_expr(denominator);
        }
    }
    sample.seed.iter().for_each(|seed| v.visit_expr(seed));
}

fn walk_table_argument<'a, V: Visitor<'a> + ?Sized>(v: &mut V, table: &TableArgument<'a>) {
    if let TableArg::Query(query) = &table.relation {
        v.visit_query(query);
    }
    if let Some(partitioning) = &table.partitioning {
        if let TablePartition::By(keys) = &partitioning.partition {
            keys.iter().for_each(|key| v.visit_expr(key));
        }
        partitioning
            .order_by
            .iter()
            .for_each(|o| v.visit_expr(&o.expr));
    }
}

fn walk_watermark<'a, V: Visitor<'a> + ?Sized>(v: &mut V, watermark: Option<&Watermark<'a>>) {
    if let Some(watermark) = watermark {
        v.visit_expr(&watermark.event_time);
        v.visit_expr(&watermark.delay);
    }
}

fn walk_call<'a, V: Visitor<'a> + ?Sized>(v: &mut V, call: &FunctionCall<'a>) {
    if let Some(name) = call.identifier {
        v.visit_expr(name);
    }
    for arg in call.args {
        match arg {
            FunctionArg::Table(table) => walk_table_argument(v, table),
            arg => arg.value().into_iter().for_each(|e| v.visit_expr(e)),
        }
    }
    call.within_group.iter().for_each(|o| v.visit_expr(&o.expr));
    if let Some(filter) = &call.filter {
        v.visit_expr(filter);
    }
    if let Some(over) = &call.over {
        walk_window(v, over);
    }
}

fn walk_window<'a, V: Visitor<'a> + ?Sized>(v: &mut V, spec: &WindowSpec<'a>) {
    if let WindowSpec::Inline(window) = spec {
        window.partition_by.iter().for_each(|e| v.visit_expr(e));
        window.order_by.iter().for_each(|o| v.visit_expr(&o.expr));
        let bounds = window
            .frame
            .iter()
            .flat_map(|f| std::iter::once(&f.start).chain(&f.end));
        for bound in bounds {
            if let FrameBound::Preceding(e) | FrameBound::Following(e) = bound {
                v.visit_expr(e);
            }
        }
    }
}

/// Visits the children of an expression.
pub fn walk_expr<'a, V: Visitor<'a> + ?Sized>(v: &mut V, expr: &Expr<'a>) {
    match &expr.kind {
        ExprKind::Literal(_)
        | ExprKind::Column(_)
        | ExprKind::CompoundColumn(_)
        | ExprKind::Marker(_) => {}
        ExprKind::Unary(u) => v.visit_expr(&u.expr),
        ExprKind::Binary(b) => {
            v.visit_expr(&b.left);
            v.visit_expr(&b.right);
        }
        ExprKind::Nested(e) => v.visit_expr(e),
        ExprKind::Tuple(items) => items.iter().for_each(|e| v.visit_expr(e)),
        ExprKind::Row(items) => walk_projection(v, items),
        ExprKind::Wildcard(_) => {}
        ExprKind::Function(call) => walk_call(v, call),
        ExprKind::Cast(c) => {
            v.visit_expr(&c.expr);
            v.visit_data_type(&c.data_type);
        }
        ExprKind::Case(case) => {
            if let Some(operand) = &case.operand {
                v.visit_expr(operand);
            }
            for when in case.whens {
                v.visit_expr(&when.condition);
                v.visit_expr(&when.result);
            }
            if let Some(else_result) = &case.else_result {
                v.visit_expr(else_result);
            }
        }
        ExprKind::InList(e) => {
            v.visit_expr(&e.expr);
            e.list.iter().for_each(|item| v.visit_expr(item));
        }
        ExprKind::InSubquery(e) => {
            v.visit_expr(&e.expr);
            v.visit_query(e.query);
        }
        ExprKind::Exists(q) | ExprKind::Subquery(q) => v.visit_query(q),
        ExprKind::Between(b) => {
            v.visit_expr(&b.expr);
            v.visit_expr(&b.low);
            v.visit_expr(&b.high);
        }
        ExprKind::Like(l) => {
            v.visit_expr(&l.expr);
            v.visit_expr(&l.pattern);
        }
        ExprKind::Is(is) => {
            v.visit_expr(&is.expr);
            if let IsTest::DistinctFrom(other) = &is.test {
                v.visit_expr(other);
            }
        }
        ExprKind::Field(access) => v.visit_expr(&access.expr),
        ExprKind::EveryElement(e) => v.visit_expr(e),
        ExprKind::Subscript(s) => {
            v.visit_expr(&s.expr);
            v.visit_expr(&s.index);
        }
        ExprKind::Interval(interval) => interval.parts.iter().for_each(|p| v.visit_expr(&p.value)),
        ExprKind::Lambda(lambda) => v.visit_expr(&lambda.body),
        ExprKind::JsonPath(path) => v.visit_expr(&path.expr),
        ExprKind::LikeQuantified(l) => {
            v.visit_expr(&l.expr);
            l.patterns.iter().for_each(|p| v.visit_expr(p));
        }
        ExprKind::Collate(c) => v.visit_expr(&c.expr),
    }
}
