//! What an expression contains, for the rules that restrict expressions: the function classes
//! Spark names (aggregate, ranking, generator, non-deterministic), subqueries, streaming reads
//! and the columns an expression reads.

use crate::ast::visit::{self, Visitor};
use crate::ast::*;
use crate::span::Span;

/// Aggregate functions (Spark's built-ins that combine rows).
const AGGREGATES: &[&str] = &[
    "any",
    "any_value",
    "approx_count_distinct",
    "approx_percentile",
    "array_agg",
    "avg",
    "bit_and",
    "bit_or",
    "bit_xor",
    "bool_and",
    "bool_or",
    "collect_list",
    "collect_set",
    "corr",
    "count",
    "count_if",
    "count_min_sketch",
    "covar_pop",
    "covar_samp",
    "every",
    "first",
    "first_value",
    "kurtosis",
    "last",
    "last_value",
    "listagg",
    "max",
    "max_by",
    "mean",
    "median",
    "min",
    "min_by",
    "mode",
    "percentile",
    "percentile_approx",
    "percentile_cont",
    "percentile_disc",
    "regr_avgx",
    "regr_avgy",
    "regr_count",
    "regr_intercept",
    "regr_r2",
    "regr_slope",
    "regr_sxx",
    "regr_sxy",
    "regr_syy",
    "skewness",
    "some",
    "std",
    "stddev",
    "stddev_pop",
    "stddev_samp",
    "string_agg",
    "sum",
    "try_avg",
    "try_sum",
    "var_pop",
    "var_samp",
    "variance",
];

/// Ranking and analytic window functions.
const WINDOW_FUNCTIONS: &[&str] = &[
    "cume_dist",
    "dense_rank",
    "lag",
    "lead",
    "nth_value",
    "ntile",
    "percent_rank",
    "rank",
    "row_number",
];

/// Table-generating functions.
const GENERATORS: &[&str] = &[
    "explode",
    "explode_outer",
    "inline",
    "inline_outer",
    "json_tuple",
    "posexplode",
    "posexplode_outer",
    "stack",
    "variant_explode",
    "variant_explode_outer",
];

/// Functions whose result changes from one evaluation to the next.
const NON_DETERMINISTIC: &[&str] = &[
    "curdate",
    "current_date",
    "current_timestamp",
    "input_file_block_length",
    "input_file_block_start",
    "input_file_name",
    "localtimestamp",
    "monotonically_increasing_id",
    "now",
    "rand",
    "randn",
    "random",
    "shuffle",
    "spark_partition_id",
    "uuid",
];

/// A class of expression that some positions do not allow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Restricted {
    /// An aggregate function.
    Aggregate,
    /// A ranking or analytic window function.
    Window,
    /// A table-generating function.
    Generator,
    /// A function whose result changes between evaluations.
    NonDeterministic,
    /// A subquery.
    Subquery,
}

impl Restricted {
    pub(super) fn describe(self) -> &'static str {
        match self {
            Restricted::Aggregate => "an aggregate function",
            Restricted::Window => "a window function",
            Restricted::Generator => "a generator function",
            Restricted::NonDeterministic => "a non-deterministic function",
            Restricted::Subquery => "a subquery",
        }
    }
}

/// The class of a function called `name`, if it is restricted anywhere.
pub(super) fn function_class(name: &ObjectName<'_>) -> Option<Restricted> {
    if name.parts.len() > 1 {
        return None; // a user-defined function in some schema
    }
    let base = name.base().value().to_ascii_lowercase();
    let is = |list: &[&str]| list.binary_search(&base.as_str()).is_ok();
    if is(AGGREGATES) {
        Some(Restricted::Aggregate)
    } else if is(WINDOW_FUNCTIONS) {
        Some(Restricted::Window)
    } else if is(GENERATORS) {
        Some(Restricted::Generator)
    } else if is(NON_DETERMINISTIC) {
        Some(Restricted::NonDeterministic)
    } else {
        None
    }
}

/// The first restricted construct in `expr` among `classes`, with where it is.
pub(super) fn find_restricted(
    expr: &Expr<'_>,
    classes: &[Restricted],
) -> Option<(Span, Restricted)> {
    visit::find_expr(expr, |e| {
        let class = match &e.kind {
            ExprKind::Function(call) if call.over.is_some() => Some(Restricted::Window),
            ExprKind::Function(call) => function_class(&call.name),
            ExprKind::Subquery(_) | ExprKind::Exists(_) | ExprKind::InSubquery(_) => {
                Some(Restricted::Subquery)
            }
            _ => None,
        };
        class
            .filter(|class| classes.contains(class))
            .map(|class| (e.span, class))
    })
}

/// The columns an expression reads by plain name (`a`, not `t.a` or `s.field`), outside
/// subqueries.
pub(super) fn column_references<'a>(expr: &Expr<'a>) -> Vec<Ident<'a>> {
    let mut columns = Columns(Vec::new());
    columns.visit_expr(expr);
    columns.0
}

struct Columns<'a>(Vec<Ident<'a>>);

impl<'a> Visitor<'a> for Columns<'a> {
    fn visit_expr(&mut self, expr: &Expr<'a>) {
        match &expr.kind {
            ExprKind::Column(ident) => self.0.push(*ident),
            _ => visit::walk_expr(self, expr),
        }
    }

    fn visit_query(&mut self, _query: &Query<'a>) {}
}

/// Whether a query reads a streaming source anywhere (`STREAM t`, `STREAM(t)`,
/// `STREAM read_files(...)`), with the first such read.
pub(super) fn first_stream_read(query: &Query<'_>) -> Option<Span> {
    let mut finder = StreamReads::default();
    finder.visit_query(query);
    finder.stream
}

/// The first streaming read of a relation (an AUTO CDC source).
pub(super) fn stream_read_of(relation: &TableRef<'_>) -> Option<Span> {
    let mut finder = StreamReads::default();
    finder.visit_table_ref(relation);
    finder.stream
}

/// Whether a query may stream: it reads a streaming source, or Auto Loader's legacy
/// `cloud_files(...)`, which streams without STREAM. (Whether it may also be read as a batch
/// is not documented, so it counts for neither the rules that want a stream nor those that
/// forbid one.)
pub(super) fn may_stream(query: &Query<'_>) -> bool {
    let mut finder = StreamReads::default();
    finder.visit_query(query);
    finder.stream.is_some() || finder.auto_loader
}

/// Whether a relation may stream (see [`may_stream`]).
pub(super) fn relation_may_stream(relation: &TableRef<'_>) -> bool {
    let mut finder = StreamReads::default();
    finder.visit_table_ref(relation);
    finder.stream.is_some() || finder.auto_loader
}

/// Whether `call` is Auto Loader's legacy table function `cloud_files(path, format, ...)`.
pub(super) fn is_cloud_files(call: &FunctionCall<'_>) -> bool {
    matches!(call.name.parts, [name] if name.text.eq_ignore_ascii_case("cloud_files"))
}

#[derive(Default)]
struct StreamReads {
    /// The first `STREAM` read.
    stream: Option<Span>,
    /// Whether `cloud_files(...)` is read.
    auto_loader: bool,
}

impl<'a> Visitor<'a> for StreamReads {
    fn visit_table_ref(&mut self, relation: &TableRef<'a>) {
        if self.stream.is_some() {
            return;
        }
        let stream = match relation {
            TableRef::Table(t) => t.stream,
            TableRef::Function(f) => {
                self.auto_loader |= is_cloud_files(f.call);
                f.stream
            }
            _ => None,
        };
        match stream {
            Some(read) => self.stream = Some(read.span),
            None => visit::walk_table_ref(self, relation),
        }
    }
}

/// The names of the columns a select item produces, as far as they can be read off the item:
/// its alias, the name of the column it copies, a generator's names (`AS (a, b)`), or the
/// output columns of a script transform.
pub(super) fn output_names<'s, 'a>(
    item: &'s SelectItem<'a>,
) -> impl Iterator<Item = &'s Ident<'a>> {
    let (one, many, typed): (
        Option<&'s Ident<'a>>,
        &'s [Ident<'a>],
        &'s [StructField<'a>],
    ) = match item {
        SelectItem::MultiAlias { aliases, .. } => (None, aliases, &[]),
        SelectItem::Wildcard(_) => (None, &[], &[]),
        SelectItem::Expr {
            alias: Some(alias), ..
        } => (Some(alias), &[], &[]),
        SelectItem::Expr { expr, alias: None } => {
            let copied = match &expr.kind {
                ExprKind::Column(ident) => Some(ident),
                ExprKind::CompoundColumn(parts) => parts.last(),
                ExprKind::Field(access) => Some(&access.field),
                _ => None,
            };
            (copied, &[], &[])
        }
        SelectItem::Transform(transform) => match &transform.output {
            Some(TransformOutput::Names(names)) => (None, names, &[]),
            Some(TransformOutput::Columns(columns)) => (None, &[], columns),
            // Spark names them `key` and `value`; the source does not.
            None => (None, &[], &[]),
        },
    };
    one.into_iter()
        .chain(many)
        .chain(typed.iter().map(|column| &column.name))
}

/// The SELECT that decides a query's output columns: the leftmost one of its body.
pub(super) fn leading_select<'q, 'a>(query: &'q Query<'a>) -> Option<&'q Select<'a>> {
    let mut body = &query.body;
    loop {
        match body {
            SetExpr::Select(select) => return Some(select),
            SetExpr::SetOperation(op) => body = &op.left,
            SetExpr::Query(inner) => body = &inner.body,
            SetExpr::FromBodies(multi) => body = &multi.bodies.first()?.body,
            SetExpr::Values(_) | SetExpr::Table(_) | SetExpr::Pipe(_) => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn function_lists_are_sorted_for_binary_search() {
        for list in [AGGREGATES, WINDOW_FUNCTIONS, GENERATORS, NON_DETERMINISTIC] {
            assert!(list.windows(2).all(|w| w[0] < w[1]), "{list:?}");
        }
    }
}
