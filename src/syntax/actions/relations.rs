//! Relations: named tables and their clauses (time travel, CHANGES, IDENTIFIED BY, options),
//! table functions, joins and their rules, LATERAL, TABLESAMPLE, inline tables, and the forms
//! that Spark 4.2 and 4.3 added (nearest-by joins, `UNNEST ... WITH ORDINALITY`, `JSON_TABLE`,
//! `BIN BY`). Most of their words are no keywords (a column may be named `path`, `width` or
//! `distance`), so the grammar reads them as plain words and these builders check them.

use crate::arena::Arena;
use crate::ast::visit::find_expr;
use crate::ast::*;
use crate::span::{Span, Spanned};
use crate::syntax::actions::base::{expect_word, first_repeat, user_error, ActionResult, Word};
use crate::syntax::actions::literals::inline_table::{resolved, row_width};
use crate::syntax::actions::names::single_name;

/// The clauses of a named relation after its name, as they go into [`TableName`].
#[derive(Default)]
pub struct TableClauses<'a> {
    pub changes: Option<&'a Changes<'a>>,
    pub options: Option<ReadOptions<'a>>,
    pub identified_by: Option<Ident<'a>>,
    pub watermark: Option<&'a Watermark<'a>>,
}

pub fn table_name<'a>(
    arena: &'a Arena,
    span: Span,
    stream: Option<StreamRead>,
    name: ObjectName<'a>,
    clauses: TableClauses<'a>,
    alias: Option<Alias<'a>>,
) -> TableRef<'a> {
    TableRef::Table(arena.alloc(TableName {
        span,
        stream,
        name,
        time_travel: None,
        changes: clauses.changes,
        options: clauses.options,
        sample: None,
        identified_by: clauses.identified_by,
        watermark: clauses.watermark,
        alias,
    }))
}

/// A table-valued function in FROM, read as a call and checked for what only calls take.
pub fn table_function<'a, 't>(
    arena: &'a Arena,
    span: Span,
    stream: Option<StreamRead>,
    call: &'a FunctionCall<'a>,
    identified_by: Option<Ident<'a>>,
    watermark: Option<&'a Watermark<'a>>,
    alias: Option<Alias<'a>>,
) -> ActionResult<'t, TableRef<'a>> {
    // Spark's table-valued functions take no `DISTINCT` or `ALL` before their arguments.
    if let Some(quantifier) = call.quantifier {
        return user_error(
            call.span,
            format!(
                "a table function takes no {quantifier} before its arguments: `{}`",
                call.name
            ),
        );
    }
    Ok(TableRef::Function(arena.alloc(TableFunction {
        span,
        stream,
        lateral: false,
        call,
        with_ordinality: false,
        identified_by,
        watermark,
        alias,
    })))
}

/// `CHANGES FROM bound [TO bound]`: both ends versions or both timestamps.
pub fn changes<'a, 't>(
    arena: &'a Arena,
    span: Span,
    from: ChangeBound<'a>,
    to: Option<ChangeBound<'a>>,
) -> ActionResult<'t, &'a Changes<'a>> {
    if let Some(to) = to.as_ref().filter(|to| to.by_version != from.by_version) {
        let start = if from.by_version {
            "a version"
        } else {
            "a timestamp"
        };
        return user_error(
            to.span,
            format!("the range starts at {start} and must end at one"),
        );
    }
    Ok(arena.alloc(Changes {
        span,
        from: Some(from),
        to,
    }))
}

/// `VERSION AS OF v` or `TIMESTAMP AS OF ts`.
pub fn time_travel<'a, 't>(
    arena: &'a Arena,
    span: Span,
    by_version: bool,
    value: Expr<'a>,
) -> ActionResult<'t, &'a TimeTravel<'a>> {
    check_bound(by_version, &value, Reads::TimeTravel)?;
    Ok(arena.alloc(TimeTravel {
        span,
        by_version,
        value,
        at_suffix: false,
    }))
}

/// `@v12`, `@v'12'` or `@20240101000000000` after a table name: a version, or a timestamp
/// written yyyyMMddHHmmssSSS (Spark rejects any other number of digits).
pub fn at_version<'a, 't>(
    arena: &'a Arena,
    span: Span,
    suffix: &'a str,
) -> ActionResult<'t, &'a TimeTravel<'a>> {
    let by_version = suffix[1..].starts_with(['v', 'V']);
    let digits = suffix[if by_version { 2 } else { 1 }..].trim_start();
    let digits_start = suffix.len() - digits.len();
    if !by_version && digits.len() != "yyyyMMddHHmmssSSS".len() {
        return user_error(
            span,
            format!("`{suffix}` is not a timestamp: after `@` write yyyyMMddHHmmssSSS (17 digits), or `@v` and a version"),
        );
    }
    let value_span = Span {
        start: span.start + digits_start as u32,
        end: span.end,
    };
    let value = if digits.starts_with('\'') {
        let string = StringLit {
            span: value_span,
            raw: digits,
        };
        Literal::String(std::slice::from_ref(arena.alloc(string)))
    } else {
        Literal::Number(digits)
    };
    Ok(arena.alloc(TimeTravel {
        span,
        by_version,
        value: Expr {
            span: value_span,
            kind: ExprKind::Literal(value),
        },
        at_suffix: true,
    }))
}

/// Which read of a table a version or a timestamp bounds.
#[derive(Clone, Copy, PartialEq)]
enum Reads {
    TimeTravel,
    Changes,
}

impl Reads {
    fn describe(self) -> &'static str {
        match self {
            Reads::TimeTravel => "time travel",
            Reads::Changes => "changes",
        }
    }
}

/// A version is an integer or a string. Spark evaluates a timestamp before it reads the table,
/// so it may not refer to columns (a name alone, `current_date` too, is a column in its parser;
/// a subquery's own columns do not count), and a change feed's timestamp is no subquery.
fn check_bound<'t>(by_version: bool, value: &Expr<'_>, reads: Reads) -> ActionResult<'t, ()> {
    if by_version {
        return check_version(value);
    }
    let refused = find_expr(value, |e| match &e.kind {
        // A pipeline parameter is replaced by a value before Spark sees the statement.
        ExprKind::Column(name) if name.style() == IdentStyle::Parameter => None,
        ExprKind::Column(_) | ExprKind::CompoundColumn(_) => Some((e.span, "refer to columns")),
        ExprKind::Subquery(_) | ExprKind::Exists(_) | ExprKind::InSubquery(_)
            if reads == Reads::Changes =>
        {
            Some((e.span, "be computed by a subquery"))
        }
        _ => None,
    });
    match refused {
        Some((span, why)) => user_error(
            span,
            format!(
                "the timestamp of a table's {} cannot {why}: it is computed before the table is read",
                reads.describe()
            ),
        ),
        None => Ok(()),
    }
}

/// A version is an integer or a string literal, as in Spark.
fn check_version<'t>(value: &Expr<'_>) -> ActionResult<'t, ()> {
    let is_version = match &value.kind {
        ExprKind::Literal(Literal::Number(digits)) => digits.bytes().all(|b| b.is_ascii_digit()),
        ExprKind::Literal(Literal::String(_)) => true,
        _ => false,
    };
    if !is_version {
        return user_error(
            value.span,
            "a version is an integer or a string literal".to_string(),
        );
    }
    Ok(())
}

/// One end of a CHANGES range.
pub fn change_bound<'a, 't>(
    span: Span,
    by_version: bool,
    value: Expr<'a>,
    inclusive: Option<bool>,
) -> ActionResult<'t, ChangeBound<'a>> {
    check_bound(by_version, &value, Reads::Changes)?;
    Ok(ChangeBound {
        span,
        by_version,
        value,
        inclusive,
    })
}

/// The most rows a nearest-by join keeps for each row, as in Spark.
const MAX_NEAREST: u32 = 100_000;

/// `EXACT NEAREST [k] BY DISTANCE | SIMILARITY score`.
pub fn nearest_by<'a, 't>(
    arena: &'a Arena,
    span: Span,
    exact: bool,
    count: Option<&'a str>,
    (ranking_span, ranking): Word<'a>,
    score: Expr<'a>,
) -> ActionResult<'t, JoinConstraint<'a>> {
    let ranking = if ranking.eq_ignore_ascii_case("distance") {
        NearestRanking::Distance
    } else if ranking.eq_ignore_ascii_case("similarity") {
        NearestRanking::Similarity
    } else {
        return user_error(
            ranking_span,
            format!("expected DISTANCE or SIMILARITY, found `{ranking}`"),
        );
    };
    let in_range = |n: &str| {
        n.parse::<u32>()
            .is_ok_and(|n| (1..=MAX_NEAREST).contains(&n))
    };
    if let Some(count) = count.filter(|n| !in_range(n)) {
        return user_error(
            span,
            format!(
                "the number of nearest rows is an integer from 1 to {MAX_NEAREST}, not `{count}`"
            ),
        );
    }
    Ok(JoinConstraint::Nearest(arena.alloc(NearestBy {
        span,
        exact,
        count,
        ranking,
        score,
    })))
}

/// `LATERAL` before the relation starting at `start`: a function or JSON_TABLE is marked lateral;
/// a table keeps the word only in its span, as Spark ignores it there (refused except in the first
/// relation; see `lateral_relation`).
pub fn lateral<'a>(arena: &'a Arena, start: usize, relation: TableRef<'a>) -> TableRef<'a> {
    let widen = |span: Span| Span::from_usize(start, span.end as usize);
    match relation {
        TableRef::Table(table) => TableRef::Table(arena.alloc(TableName {
            span: widen(table.span),
            ..table.clone()
        })),
        TableRef::Function(function) => TableRef::Function(arena.alloc(TableFunction {
            span: widen(function.span),
            lateral: true,
            ..function.clone()
        })),
        TableRef::JsonTable(table) => TableRef::JsonTable(arena.alloc(JsonTable {
            span: widen(table.span),
            lateral: true,
            ..table.clone()
        })),
        other => other,
    }
}

/// `UNNEST(a, b) WITH ORDINALITY`: only UNNEST takes it, with plain arguments, one at least.
pub fn unnest_with_ordinality<'a, 't>(
    arena: &'a Arena,
    span: Span,
    call: &'a FunctionCall<'a>,
    ordinality: Word<'a>,
    alias: Option<Alias<'a>>,
) -> ActionResult<'t, TableRef<'a>> {
    expect_word(ordinality, "ORDINALITY")?;
    if !matches!(call.name.parts, [name] if name.text.eq_ignore_ascii_case("unnest")) {
        return user_error(
            call.name.span,
            format!("only UNNEST takes WITH ORDINALITY, not `{}`", call.name),
        );
    }
    let plain = |arg: &FunctionArg<'_>| matches!(arg, FunctionArg::Positional(_));
    if call.args.is_empty() || call.quantifier.is_some() || !call.args.iter().all(plain) {
        return user_error(
            call.span,
            "UNNEST takes one or more expressions, each an array or a map".to_string(),
        );
    }
    Ok(TableRef::Function(arena.alloc(TableFunction {
        span,
        stream: None,
        lateral: false,
        call,
        with_ordinality: true,
        identified_by: None,
        watermark: None,
        alias,
    })))
}

/// What follows JSON_TABLE: `(args COLUMNS (...) [ON ERROR])`.
pub struct JsonTableBody<'a> {
    pub args: &'a [FunctionArg<'a>],
    pub columns: &'a [JsonTableColumn<'a>],
    pub error_on_error: Option<bool>,
}

/// `JSON_TABLE(document, path COLUMNS (...) [ON ERROR])`, read as a call's arguments until
/// COLUMNS: the name is JSON_TABLE, the arguments a document and a string, and no two columns
/// have one name.
pub fn json_table<'a, 't>(
    arena: &'a Arena,
    span: Span,
    name: ObjectName<'a>,
    JsonTableBody {
        args,
        columns,
        error_on_error,
    }: JsonTableBody<'a>,
    alias: Option<Alias<'a>>,
) -> ActionResult<'t, TableRef<'a>> {
    if !matches!(name.parts, [only] if only.text.eq_ignore_ascii_case("json_table")) {
        return user_error(
            name.span,
            format!("only JSON_TABLE takes COLUMNS, not `{name}`"),
        );
    }
    let (document, path) = match args {
        [FunctionArg::Positional(document), FunctionArg::Positional(Expr {
            kind: ExprKind::Literal(Literal::String(path)),
            ..
        })] => (*document, *path),
        _ => {
            return user_error(
                name.span,
                "JSON_TABLE takes a JSON document and a path string before COLUMNS".to_string(),
            )
        }
    };
    if let Some(column) = first_repeat(columns, |c| c.name.value().to_ascii_lowercase()) {
        return user_error(
            column.name.span,
            format!("JSON_TABLE has a second column named {}", column.name),
        );
    }
    Ok(TableRef::JsonTable(arena.alloc(JsonTable {
        span,
        lateral: false,
        document,
        path,
        columns,
        error_on_error,
        alias,
    })))
}

/// `LATERAL VIEW [OUTER] generator(...) alias AS columns`, whose names are single parts.
pub fn lateral_view<'a, 't>(
    span: Span,
    outer: bool,
    call: &'a FunctionCall<'a>,
    alias: Option<Ident<'a>>,
    columns: &'a [Ident<'a>],
) -> ActionResult<'t, LateralView<'a>> {
    alias.iter().chain(columns).try_for_each(single_name)?;
    if call.identifier.is_some() {
        return user_error(
            call.span,
            "LATERAL VIEW names its generator: write it, not IDENTIFIER(...)".to_string(),
        );
    }
    Ok(LateralView {
        span,
        outer,
        call,
        alias,
        columns,
    })
}

/// `name FOR ORDINALITY`.
pub fn json_ordinality_column<'a, 't>(
    span: Span,
    name: Ident<'a>,
    ordinality: Word<'a>,
) -> ActionResult<'t, JsonTableColumn<'a>> {
    single_name(&name)?;
    expect_word(ordinality, "ORDINALITY")?;
    Ok(JsonTableColumn {
        span,
        name,
        kind: JsonColumnKind::Ordinality,
    })
}

/// `name type [EXISTS] [PATH '...']`.
pub fn json_value_column<'a, 't>(
    arena: &'a Arena,
    span: Span,
    name: Ident<'a>,
    data_type: DataType<'a>,
    exists: bool,
    path: Option<(Word<'a>, &'a [StringLit<'a>])>,
) -> ActionResult<'t, JsonTableColumn<'a>> {
    single_name(&name)?;
    let path = path
        .map(|(word, path)| expect_word(word, "PATH").map(|()| path))
        .transpose()?;
    Ok(JsonTableColumn {
        span,
        name,
        kind: JsonColumnKind::Value {
            data_type: arena.alloc(data_type),
            exists,
            path,
        },
    })
}

/// `NULL ON ERROR` (`first` is `None`) or `ERROR ON ERROR`: whether an error stays one.
pub fn json_on_error<'t>(
    span: Span,
    first: Option<Word<'_>>,
    error: Word<'_>,
) -> ActionResult<'t, bool> {
    let is_error = |(_, word): Word<'_>| word.eq_ignore_ascii_case("error");
    if !is_error(error) || first.is_some_and(|word| !is_error(word)) {
        return user_error(span, "expected NULL ON ERROR or ERROR ON ERROR".to_string());
    }
    Ok(first.is_some())
}

/// The BIN BY clause, before its source is known; `words` are BIN, WIDTH and UNIFORM.
#[allow(clippy::too_many_arguments)]
pub fn bin_by<'a, 't>(
    arena: &'a Arena,
    span: Span,
    words: [Word<'a>; 3],
    range_start: ObjectName<'a>,
    range_end: ObjectName<'a>,
    width: Expr<'a>,
    align: Option<(Word<'a>, Expr<'a>)>,
    distribute: &'a [ObjectName<'a>],
    outputs: Vec<(Word<'a>, Ident<'a>)>,
    alias: Option<Alias<'a>>,
) -> ActionResult<'t, &'a BinBy<'a>> {
    for (word, expected) in words.into_iter().zip(["BIN", "WIDTH", "UNIFORM"]) {
        expect_word(word, expected)?;
    }
    let align_to = align
        .map(|(word, origin)| expect_word(word, "ALIGN").map(|()| origin))
        .transpose()?;
    let mut output_names = [None, None, None];
    let mut next = 0;
    for ((span, word), name) in outputs {
        let remaining = &BinBy::OUTPUT_CLAUSES[next..];
        let Some(offset) = remaining.iter().position(|c| word.eq_ignore_ascii_case(c)) else {
            return user_error(
                span,
                format!(
                    "expected {}`)`, found `{word}` (the added columns are renamed at most once each, in the order BIN_START, BIN_END, BIN_DISTRIBUTE_RATIO)",
                    remaining.iter().map(|c| format!("{c} or ")).collect::<String>()
                ),
            );
        };
        output_names[next + offset] = Some(name);
        next += offset + 1;
    }
    if let Some(alias) = alias.as_ref().filter(|alias| !alias.columns.is_empty()) {
        return user_error(
            alias.span,
            "the result of BIN BY takes a name without column names".to_string(),
        );
    }
    Ok(arena.alloc(BinBy {
        span,
        source: None,
        range_start,
        range_end,
        width,
        align_to,
        distribute,
        output_names,
        alias,
    }))
}

/// The refusal of a column list in the alias of a PIVOT or UNPIVOT, which Spark's grammar has
/// not.
pub fn pivot_alias_columns<'a, 't>(span: Span, name: Ident<'a>) -> ActionResult<'t, Alias<'a>> {
    user_error(
        span,
        format!(
            "the alias of PIVOT or UNPIVOT takes no column list: write `AS {name}`, and name the \
             columns in the clause with AS"
        ),
    )
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
    sample_amount(span, &method)?;
    Ok(arena.alloc(TableSample {
        span,
        kind,
        method,
        seed,
    }))
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

/// What Spark allows of a join: a NATURAL join takes no ON or USING and is not CROSS; a join
/// with a LATERAL right side (which reads the left side's columns) is INNER, CROSS or LEFT
/// OUTER, not NATURAL, and takes no USING; a nearest-by join is INNER or LEFT OUTER and its right
/// side is not LATERAL.
pub fn join_rules<'t>(
    span: Span,
    kind: JoinKind,
    natural: bool,
    right: &TableRef<'_>,
    constraint: &JoinConstraint<'_>,
) -> ActionResult<'t, ()> {
    lateral_relation(right)?;
    if natural && (kind == JoinKind::Cross || !matches!(constraint, JoinConstraint::None)) {
        return user_error(
            span,
            "a NATURAL join takes no ON, USING or NEAREST BY (it joins on the columns both sides have) and cannot be CROSS".to_string(),
        );
    }
    if natural && matches!(kind, JoinKind::Semi | JoinKind::Anti) {
        return user_error(
            span,
            "a NATURAL join cannot be SEMI or ANTI: join USING the common columns".to_string(),
        );
    }
    let lateral = match right {
        TableRef::Subquery(derived) => derived.lateral,
        TableRef::Function(function) => function.lateral,
        TableRef::JsonTable(json) => json.lateral,
        _ => false,
    };
    let nearest = matches!(constraint, JoinConstraint::Nearest(_));
    if nearest && !matches!(kind, JoinKind::Inner | JoinKind::Left) {
        return user_error(
            span,
            "a nearest-by join is an INNER or LEFT OUTER join".to_string(),
        );
    }
    if !lateral {
        return Ok(());
    }
    let problem = if natural {
        "cannot be NATURAL"
    } else if matches!(constraint, JoinConstraint::Using(_)) {
        "takes ON, not USING"
    } else if nearest {
        "cannot be a nearest-by join"
    } else if !matches!(kind, JoinKind::Inner | JoinKind::Cross | JoinKind::Left) {
        "must be an INNER, CROSS or LEFT OUTER join (the LATERAL side reads the left side's rows)"
    } else {
        return Ok(());
    };
    user_error(span, format!("a join with a LATERAL relation {problem}"))
}

/// A relation after a comma or a JOIN that starts with the word LATERAL. Spark reads the word as
/// LATERAL there, which only a subquery or a table-valued function takes: `t, LATERAL u`,
/// `JOIN LATERAL u`, `t, LATERAL (u)` and `t, LATERAL VALUES (1)` are refused. The first is a
/// table whose span starts at LATERAL; in the others the word alone is a name, so they read as a
/// table `lateral` with an alias, a function `lateral(...)`, or a lateral function `VALUES`. Only
/// a first relation may start so: Spark drops its LATERAL.
pub fn lateral_relation<'t>(relation: &TableRef<'_>) -> ActionResult<'t, ()> {
    let misread = match leftmost(relation) {
        TableRef::Table(table) => {
            let first_word = table.stream.map_or(table.name.span, |stream| stream.span);
            table.span.start < first_word.start
                || table.alias.is_some() && table.name.is_word("lateral")
        }
        TableRef::Function(function) if function.lateral => function.call.name.is_word("values"),
        TableRef::Function(function) => {
            function.call.name.is_word("lateral") && names_a_relation(function.call.args)
        }
        _ => false,
    };
    if misread {
        return user_error(
            relation.span(),
            "LATERAL takes a subquery or a table-valued function, not a table name or VALUES (write `lateral` in back-quotes for a table of that name)".to_string(),
        );
    }
    Ok(())
}

/// Whether the arguments of a call `lateral(...)` are one that Spark reads as a relation in
/// parentheses after LATERAL: a name, a call, `TABLE(t)`, or one of these in parentheses.
/// Others (`LATERAL ('a')`, `LATERAL (u, v)`) make a call of a function named `lateral`.
/// Names joined by `-` count as a name, which Spark reads as one and refuses (`LATERAL (x-a)`
/// is the table `x-a` there, an invalid identifier).
fn names_a_relation(args: &[FunctionArg<'_>]) -> bool {
    fn name(expr: &Expr<'_>) -> bool {
        match &expr.kind {
            ExprKind::Column(_) | ExprKind::CompoundColumn(_) => true,
            ExprKind::Binary(b) => b.op == BinaryOp::Minus && name(&b.left) && name(&b.right),
            _ => false,
        }
    }
    fn relation(expr: &Expr<'_>) -> bool {
        match &expr.kind {
            ExprKind::Function(_) => true,
            ExprKind::Nested(inner) => relation(inner),
            _ => name(expr),
        }
    }
    match args {
        [FunctionArg::Positional(expr)] => relation(expr),
        [FunctionArg::Table(_)] => true,
        _ => false,
    }
}

/// The relation a join, PIVOT, UNPIVOT or BIN BY starts with.
fn leftmost<'r, 'a>(relation: &'r TableRef<'a>) -> &'r TableRef<'a> {
    match relation {
        TableRef::Join(join) => leftmost(&join.left),
        TableRef::Pivot(pivot) => pivot.source.as_ref().map_or(relation, leftmost),
        TableRef::Unpivot(unpivot) => unpivot.source.as_ref().map_or(relation, leftmost),
        TableRef::BinBy(bin) => bin.source.as_ref().map_or(relation, leftmost),
        _ => relation,
    }
}

/// `VALUES (1, 2), (3, 4)`: every row as wide as the first, where Spark evaluates the rows while
/// it parses (see [`resolved`]).
pub fn equal_rows<'t>(rows: &[Expr<'_>]) -> ActionResult<'t, ()> {
    let Some(first) = rows.first() else {
        return Ok(());
    };
    let width = row_width(first);
    // Whether the table is resolved is asked only of one that breaks the rule.
    match rows.iter().find(|row| row_width(row) != width) {
        Some(row) if resolved(rows) => user_error(
            row.span,
            format!(
                "this row has {} values and the first has {width}: the rows of VALUES are equally wide",
                row_width(row),
            ),
        ),
        _ => Ok(()),
    }
}

/// `VALUES (1, 2) AS t(a, b)`: an alias of VALUES names each of its columns, or none, where Spark
/// evaluates the rows while it parses.
pub fn values_alias<'t>(rows: &[Expr<'_>], alias: Option<&Alias<'_>>) -> ActionResult<'t, ()> {
    let (Some(first), Some(alias)) = (rows.first(), alias) else {
        return Ok(());
    };
    let width = row_width(first);
    if alias.columns.is_empty() || alias.columns.len() == width || !resolved(rows) {
        return Ok(());
    }
    user_error(
        alias.span,
        format!(
            "the alias names {} columns and the rows of VALUES have {width}",
            alias.columns.len()
        ),
    )
}

/// `UNPIVOT (`x y` FOR ...)`: to leave out the rows where the value columns are all null,
/// Spark reads a value column's name again, unquoted, as a dotted name, so a quoted name that is
/// not one (spaces, signs, only digits) is refused, but with INCLUDE NULLS.
pub fn unpivot_value_column<'t>(
    name: &Ident<'_>,
    include_nulls: Option<bool>,
) -> ActionResult<'t, ()> {
    single_name(name)?;
    if include_nulls != Some(true)
        && name.style() == IdentStyle::Quoted
        && crate::lexer::name_parts(&name.value()).is_none()
    {
        return user_error(
            name.span,
            format!(
                "{} cannot name an UNPIVOT value column: Spark reads the name again without its quotes, where it must be plain words (letters, digits, underscores) joined by dots",
                name.text
            ),
        );
    }
    Ok(())
}

/// TABLESAMPLE: a percentage is a number from 0 to 100, a bucket at most the whole.
pub fn sample_amount<'t>(span: Span, method: &SampleMethod<'_>) -> ActionResult<'t, ()> {
    let problem = match method {
        SampleMethod::Percent(value) => match sample_number(value, true) {
            None => Some("a TABLESAMPLE percentage is a number, such as 10 PERCENT".to_string()),
            Some(p) if !(0.0..=100.0).contains(&p) => Some(format!(
                "TABLESAMPLE ({p} PERCENT) is not between 0 and 100 percent"
            )),
            Some(_) => None,
        },
        SampleMethod::Bucket {
            numerator,
            denominator,
        } => match (
            sample_number(numerator, false),
            sample_number(denominator, false),
        ) {
            (Some(n), Some(d)) if d > 0.0 && n <= d => None,
            _ => Some(
                "TABLESAMPLE (BUCKET x OUT OF y) takes whole numbers, x at most y and y above 0"
                    .to_string(),
            ),
        },
        SampleMethod::Rows(_) => None,
    };
    match problem {
        Some(problem) => user_error(span, problem),
        None => Ok(()),
    }
}

/// A number as Spark's grammar writes a sample's: digits, with a point and a minus where
/// `decimal` allows (`MINUS? (INTEGER_VALUE | DECIMAL_VALUE)` for a percentage, `INTEGER_VALUE`
/// for a bucket), no exponent and no suffix.
fn sample_number(value: &Expr<'_>, decimal: bool) -> Option<f64> {
    let digits = |value: &Expr<'_>| match &value.kind {
        ExprKind::Literal(Literal::Number(n))
            if n.bytes()
                .all(|b| b.is_ascii_digit() || decimal && b == b'.') =>
        {
            n.parse::<f64>().ok()
        }
        _ => None,
    };
    match &value.kind {
        ExprKind::Unary(u) if decimal && u.op == UnaryOp::Minus => digits(&u.expr).map(|n| -n),
        _ => digits(value),
    }
}

/// `FROM IDENTIFIER('...')` with a string that is no name (`'a b'`, `'sales.'`): the lexer reads
/// the string of a name as a name, and an expression (`'sales_' || :suffix`) is left to the run.
pub fn identifier_table<'t>(call: &FunctionCall<'_>) -> ActionResult<'t, ()> {
    let literal = call.name.is_word("identifier")
        && call.identifier.is_none()
        && matches!(
            call.args,
            [FunctionArg::Positional(Expr {
                kind: ExprKind::Literal(Literal::String([_])),
                ..
            })]
        );
    if literal {
        return user_error(
            call.span,
            "the string in IDENTIFIER('...') is no table name: write words or back-quoted names separated by dots".to_string(),
        );
    }
    Ok(())
}
