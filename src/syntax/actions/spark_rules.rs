//! What Spark's parser rejects after its grammar has accepted it, while it builds its tree:
//! numbers out of their type's range, type names it does not know or parameters they do not
//! take, a sample of more than everything, rows of different widths. Each check is called by
//! the grammar action that builds the node, so that the diagnostic points at it.

use crate::arena::Arena;
use crate::ast::visit::{find_expr, leading_string};
use crate::ast::{
    Alias, BinaryOp, Cast, CastKind, Collate, Cte, DataType, Expr, ExprKind, FrameBound,
    FunctionArg, FunctionCall, GroupByItem, GroupByModifier, Ident, IdentStyle, JoinConstraint,
    JoinKind, LikeKind, Literal, NamedValue, NamedWindow, ObjectName, PipeOp, Query, SampleMethod,
    SelectItem, SetExpr, StringLit, TableArg, TableRef, TimeZoneClause, UnaryOp, WindowSpec,
};
use crate::span::{Span, Spanned};
use crate::syntax::actions::literals::collation::is_collation;
use crate::syntax::actions::literals::inline_table::{resolved, row_width};
use crate::syntax::actions::support::{
    call, expect_word, user_error, ActionResult, QueryTail, Word,
};

/// Spark's largest decimal precision.
const MAX_PRECISION: usize = 38;

/// A number literal, checked against the range of the type its suffix (or its form) gives it.
/// A negative literal is a minus applied to a positive one here; the magnitude of an integer
/// type's smallest value (`128Y` in `-128Y`) comes as its own token, only after a sign.
pub fn number<'a, 't>(span: Span, text: &'a str) -> ActionResult<'t, Literal<'a>> {
    let bytes = text.as_bytes();
    let Some(&last) = bytes.last() else {
        return Ok(Literal::Number(text));
    };
    // Most numbers are plain digits: no suffix, no exponent, no point.
    if last.is_ascii_digit() && bytes.len() < 19 && bytes.iter().all(u8::is_ascii_digit) {
        return Ok(Literal::Number(text));
    }
    let out_of_range = |type_name: &str| {
        user_error(
            span,
            format!("the number {text} is outside the range of {type_name}"),
        )
    };
    let without = |suffix_len: usize| &text[..text.len() - suffix_len];
    if let Some((smallest, type_name)) = crate::lexer::integer_suffix(last) {
        let limit = smallest - 1;
        let digits = without(1);
        if !digits.bytes().all(|b| b.is_ascii_digit()) {
            return user_error(
                span,
                format!("{text}: a {type_name} literal is a whole number"),
            );
        }
        return match digits.parse::<u128>() {
            Ok(n) if n <= limit => Ok(Literal::Number(text)),
            _ => out_of_range(type_name),
        };
    }
    let big_decimal = text.len() > 2 && text[text.len() - 2..].eq_ignore_ascii_case("bd");
    if big_decimal {
        return check_precision(span, text, without(2));
    }
    match last.to_ascii_lowercase() {
        b'f' => match without(1).parse::<f32>() {
            Ok(x) if x.is_finite() => Ok(Literal::Number(text)),
            _ => out_of_range("FLOAT"),
        },
        b'd' => finite_double(text, without(1)).map_or_else(|| out_of_range("DOUBLE"), Ok),
        _ if text.contains(['e', 'E']) => {
            finite_double(text, text).map_or_else(|| out_of_range("DOUBLE"), Ok)
        }
        // An integer too large for BIGINT, and a number with a point, are decimals.
        _ => check_precision(span, text, text),
    }
}

fn finite_double<'a>(text: &'a str, digits: &str) -> Option<Literal<'a>> {
    match digits.parse::<f64>() {
        Ok(x) if x.is_finite() => Some(Literal::Number(text)),
        _ => None,
    }
}

/// A decimal has at most 38 digits (leading zeros aside; `0.001` needs 3). An exponent moves
/// the point (`1.5e-40BD` needs 41 digits, `1e38BD` 39).
fn check_precision<'a, 't>(
    span: Span,
    text: &'a str,
    digits: &str,
) -> ActionResult<'t, Literal<'a>> {
    let (mantissa, exponent) = match digits.split_once(['e', 'E']) {
        Some((mantissa, exponent)) => (mantissa, exponent.parse::<i64>().unwrap_or(i64::MAX)),
        None => (digits, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let significant = if whole.bytes().all(|b| b == b'0') {
        fraction.trim_start_matches('0').len()
    } else {
        whole.trim_start_matches('0').len() + fraction.len()
    };
    // Digits after the point; a negative scale becomes trailing zeros of a whole number.
    let scale = (fraction.len() as i64).saturating_sub(exponent);
    let precision = if scale < 0 {
        (significant.max(1) as i64).saturating_add(scale.saturating_neg())
    } else {
        (significant as i64).max(scale)
    };
    if precision > MAX_PRECISION as i64 {
        return user_error(
            span,
            format!(
                "the number {text} has {precision} digits; a decimal holds at most {MAX_PRECISION}"
            ),
        );
    }
    Ok(Literal::Number(text))
}

/// The type names Spark knows that take no parameters.
const TAKES_NO_PARAMETERS: [&str; 21] = [
    "BOOLEAN",
    "TINYINT",
    "BYTE",
    "SMALLINT",
    "SHORT",
    "INT",
    "INTEGER",
    "BIGINT",
    "LONG",
    "FLOAT",
    "REAL",
    "DOUBLE",
    "DATE",
    "TIMESTAMP",
    "TIMESTAMP_NTZ",
    "TIMESTAMP_LTZ",
    "STRING",
    "BINARY",
    "VOID",
    "VARIANT",
    "INTERVAL",
];

/// The type names that take parameters (each form is checked in `named_type`).
const TAKES_PARAMETERS: [&str; 9] = [
    "DECIMAL",
    "DEC",
    "NUMERIC",
    "CHAR",
    "CHARACTER",
    "VARCHAR",
    "TIME",
    "GEOGRAPHY",
    "GEOMETRY",
];

/// A type by name: one Spark knows, with the parameters it takes.
pub fn named_type<'a, 't>(
    span: Span,
    name: Ident<'a>,
    params: &'a [&'a str],
) -> ActionResult<'t, DataType<'a>> {
    // Type names are short: compare them uppercased without allocating.
    let mut buffer = [0u8; 16];
    let upper = match buffer.get_mut(..name.text.len()) {
        Some(slot) => {
            slot.copy_from_slice(name.text.as_bytes());
            slot.make_ascii_uppercase();
            std::str::from_utf8(slot).unwrap_or("")
        }
        None => "",
    };
    let mut numbers = [0usize; 3];
    for (slot, param) in numbers.iter_mut().zip(params) {
        match param.parse() {
            Ok(n) => *slot = n,
            // GEOMETRY(ANY), GEOGRAPHY(ANY): values of any spatial reference system.
            Err(_) if param.eq_ignore_ascii_case("any") && upper.starts_with("GEO") => {}
            Err(_) => {
                return user_error(span, format!("the parameters of {upper} are whole numbers"))
            }
        }
    }
    let numbers = &numbers[..params.len().min(3)];
    let problem = match (upper, numbers) {
        _ if params.len() > 3 => Some(format!("{upper} does not take these parameters")),
        ("DECIMAL" | "DEC" | "NUMERIC", [precision, ..]) if *precision > MAX_PRECISION => Some(
            format!("{upper}({precision}): a decimal holds at most {MAX_PRECISION} digits"),
        ),
        ("DECIMAL" | "DEC" | "NUMERIC", [precision, scale]) if scale > precision => Some(format!(
            "{upper}({precision}, {scale}): the scale cannot exceed the precision"
        )),
        ("DECIMAL" | "DEC" | "NUMERIC", [] | [_] | [_, _]) => None,
        ("CHAR" | "CHARACTER" | "VARCHAR", [_]) => None,
        ("CHAR" | "CHARACTER" | "VARCHAR", []) => {
            Some(format!("{upper} needs a length: {upper}(10)"))
        }
        ("TIME", [] | [0..=9]) => None,
        // Spark's timestamps hold microseconds, and it takes no other precision.
        ("TIMESTAMP" | "TIMESTAMP_NTZ" | "TIMESTAMP_LTZ", [6]) => None,
        ("TIMESTAMP" | "TIMESTAMP_NTZ" | "TIMESTAMP_LTZ", [_]) => Some(format!(
            "{upper} holds microseconds: its precision, if written, is {upper}(6)"
        )),
        ("GEOGRAPHY" | "GEOMETRY", [_]) => None,
        ("ARRAY" | "MAP" | "STRUCT", _) => Some(format!(
            "{upper} needs its element types: ARRAY<INT>, MAP<STRING, INT>, STRUCT<a: INT>"
        )),
        (name, []) if TAKES_NO_PARAMETERS.contains(&name) => None,
        (name, _) if TAKES_NO_PARAMETERS.contains(&name) || TAKES_PARAMETERS.contains(&name) => {
            Some(format!("{upper} does not take these parameters"))
        }
        _ => Some(format!("`{}` is not a data type Spark knows", name.text)),
    };
    match problem {
        Some(problem) => user_error(span, problem),
        None => Ok(DataType::Named {
            span,
            name,
            params,
            time_zone: None,
        }),
    }
}

/// `TIMESTAMP [(6)] WITH LOCAL TIME ZONE`, `TIMESTAMP | TIME [(p)] WITHOUT TIME ZONE`; `words`
/// are the clause's words that are no keywords (TIME ZONE, or ZONE after WITHOUT TIME).
pub fn zoned_type<'a, 't>(
    span: Span,
    name: Ident<'a>,
    params: &'a [&'a str],
    clause: TimeZoneClause,
    words: &[Word<'_>],
) -> ActionResult<'t, DataType<'a>> {
    let expected = ["TIME", "ZONE"];
    for (word, expected) in words.iter().zip(&expected[expected.len() - words.len()..]) {
        expect_word(*word, expected)?;
    }
    let is = |type_name: &str| name.text.eq_ignore_ascii_case(type_name);
    let allowed = match clause {
        TimeZoneClause::WithLocalTimeZone => is("timestamp"),
        TimeZoneClause::WithoutTimeZone => is("timestamp") || is("time"),
    };
    if !allowed {
        return user_error(
            span,
            format!("{} takes no time zone clause: TIMESTAMP takes WITH LOCAL TIME ZONE or WITHOUT TIME ZONE, TIME takes WITHOUT TIME ZONE", name.text),
        );
    }
    let mut zoned = named_type(span, name, params)?;
    if let DataType::Named { time_zone, .. } = &mut zoned {
        *time_zone = Some(clause);
    }
    Ok(zoned)
}

/// `LIKE 'a!%' ESCAPE '!'`: the escape is one character, and only LIKE and ILIKE take one.
pub fn like_escape<'t>(
    kind: LikeKind,
    escape: Option<StringLit<'_>>,
) -> ActionResult<'t, Option<StringLit<'_>>> {
    match &escape {
        Some(lit) if !matches!(kind, LikeKind::Like | LikeKind::ILike) => {
            user_error(lit.span, format!("{kind} takes no ESCAPE"))
        }
        Some(lit) if lit.value().chars().count() != 1 => user_error(
            lit.span,
            format!("the escape {} is not one character", lit.raw),
        ),
        _ => Ok(escape),
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

/// `STRING COLLATE c`: Spark collates only the string types, and builds the collation when it
/// builds the type, so a collation it does not know is an error of the statement.
/// `system.builtin.c` names the same collation as `c`, and is kept as `c`.
pub fn collated<'a, 't>(
    arena: &'a Arena,
    span: Span,
    base: DataType<'a>,
    name: ObjectName<'a>,
) -> ActionResult<'t, DataType<'a>> {
    // `base` comes from the grammar's DataType, which is never itself collated.
    if !is_string_type(&base) {
        return user_error(
            span,
            format!("`{base} COLLATE {name}`: only STRING, CHAR and VARCHAR take a collation"),
        );
    }
    let collation = *name.base();
    let builtin = match name.parts {
        [_] => true,
        [catalog, schema, _] => catalog.matches("system") && schema.matches("builtin"),
        _ => false,
    };
    if !builtin {
        return user_error(
            name.span,
            format!(
                "`{name}` is no collation: a collation is named alone or as system.builtin.<name>"
            ),
        );
    }
    if !is_collation(&collation.value()) {
        return user_error(
            collation.span,
            format!(
                "`{collation}` is not a collation Spark knows: one is UTF8_BINARY, UTF8_LCASE, \
                 UNICODE or a locale of ICU (`en`, `de`, `en_USA`, `sr_Cyrl_SRB`, ...), optionally \
                 followed by _CS or _CI, _AS or _AI, and _RTRIM (only _RTRIM after UTF8_BINARY and \
                 UTF8_LCASE)"
            ),
        );
    }
    Ok(DataType::Collated {
        span,
        base: arena.alloc(base),
        collation,
    })
}

/// The types that take a collation.
fn is_string_type(data_type: &DataType<'_>) -> bool {
    ["string", "char", "character", "varchar"]
        .iter()
        .any(|type_name| data_type.is_named(type_name))
}

/// `x COLLATE c`. After `x::STRING` the collation belongs to the type, as in Spark, and is
/// checked as a type's is; otherwise it collates the value, and Spark resolves the name later.
pub fn collate<'a, 't>(
    arena: &'a Arena,
    span: Span,
    expr: Expr<'a>,
    collation: Ident<'a>,
) -> ActionResult<'t, Expr<'a>> {
    if let ExprKind::Cast(cast) = expr.kind {
        if cast.kind == CastKind::DoubleColon && is_string_type(&cast.data_type) {
            let data_type = collated(
                arena,
                cast.data_type.span().to(collation.span),
                cast.data_type.clone(),
                ObjectName {
                    span: collation.span,
                    parts: std::slice::from_ref(arena.alloc(collation)),
                },
            )?;
            let cast = Cast {
                kind: cast.kind,
                expr: cast.expr,
                data_type,
            };
            return Ok(Expr {
                span,
                kind: ExprKind::Cast(arena.alloc(cast)),
            });
        }
    }
    Ok(Expr {
        span,
        kind: ExprKind::Collate(arena.alloc(Collate { expr, collation })),
    })
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

/// A WINDOW clause as Spark's parser checks it (comparing names as written): each name once,
/// and a window defined as another (`w2 AS w1`) names one that the clause defines in full.
pub fn window_clause<'a, 't>(
    windows: &'a [NamedWindow<'a>],
) -> ActionResult<'t, &'a [NamedWindow<'a>]> {
    let defined = |name: &str| windows.iter().find(|w| w.name.text == name);
    for (i, window) in windows.iter().enumerate() {
        single_name(&window.name)?;
        if windows[..i].iter().any(|w| w.name.text == window.name.text) {
            return user_error(
                window.span,
                format!("the window `{}` is defined twice", window.name.text),
            );
        }
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

/// `SELECT f(TABLE(t) PARTITION BY k)`: Spark takes table arguments only in a table function's
/// call in FROM. Elsewhere `TABLE(t)` is a call of a function named `table`, which takes a
/// value: no query, no partitioning.
pub fn expression_call<'a, 't>(
    call: &'a FunctionCall<'a>,
) -> ActionResult<'t, &'a FunctionCall<'a>> {
    let table_only = call.args.iter().any(|arg| {
        matches!(arg, FunctionArg::Table(table)
            if table.partitioning.is_some() || matches!(table.relation, TableArg::Query(_)))
    });
    if table_only {
        return user_error(
            call.span,
            format!(
                "a table argument with a query, PARTITION BY or ORDER BY is passed only to a table function in FROM, not to `{}` in an expression",
                call.name
            ),
        );
    }
    Ok(call)
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

/// Names where Spark takes single parts (see `single_name`).
pub fn single_names<'a, 't>(names: &'a [Ident<'a>]) -> ActionResult<'t, &'a [Ident<'a>]> {
    names.iter().try_for_each(single_name)?;
    Ok(names)
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

/// `WITH t AS (...), T AS (...)`: each name once, compared as Spark does, without case.
pub fn distinct_ctes<'t>(ctes: &[&Cte<'_>]) -> ActionResult<'t, ()> {
    for (i, cte) in ctes.iter().enumerate() {
        single_name(&cte.name)?;
        if ctes[..i].iter().any(|c| cte.name.matches(&c.name.value())) {
            return user_error(
                cte.name.span,
                format!(
                    "the common table expression `{}` is defined twice",
                    cte.name.text
                ),
            );
        }
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

/// Where Spark's grammar wants a value (its `valueExpression`: an index in brackets, the
/// arguments of `substring(s FROM i)` and the other keyword forms), NOT, AND, OR and the
/// predicates stand only in parentheses: `a[b IS NULL]` is refused, `a[(b IS NULL)]` is not.
pub fn value_expression<'t>(
    expr: &Expr<'_>,
    place: &dyn std::fmt::Display,
) -> ActionResult<'t, ()> {
    let word = match &expr.kind {
        ExprKind::Unary(u) if u.op == UnaryOp::Not => "NOT".to_string(),
        ExprKind::Binary(b) if matches!(b.op, BinaryOp::And | BinaryOp::Or) => {
            b.op.as_str().to_string()
        }
        ExprKind::InList(_) | ExprKind::InSubquery(_) => "IN".to_string(),
        ExprKind::Exists(_) => "EXISTS".to_string(),
        ExprKind::Between(_) => "BETWEEN".to_string(),
        ExprKind::Like(like) => like.kind.to_string(),
        ExprKind::LikeQuantified(like) => like.kind.to_string(),
        ExprKind::Is(_) => "IS".to_string(),
        _ => return Ok(()),
    };
    user_error(
        expr.span,
        format!("{place} is a value: Spark takes this {word} expression there only in parentheses"),
    )
}

/// `timestampadd(HOUR, 1, ts)`: Spark reads a three-argument call of these functions in an
/// expression, without DISTINCT or ALL and without a clause after it, as the unit form, and
/// rejects a quoted unit there. Its two values are value expressions, which start with no NOT:
/// after a unit, `NOT 'x'` at the start of one (`datediff(DAY, NOT 'x', d)`) is a typed literal.
pub fn datetime_unit<'t>(src: &str, call: &FunctionCall<'_>) -> ActionResult<'t, ()> {
    const UNIT_FIRST: [&str; 7] = [
        "timestampadd",
        "dateadd",
        "date_add",
        "timestampdiff",
        "datediff",
        "date_diff",
        "timediff",
    ];
    /// Spark's `datetimeUnit`.
    const UNITS: [&str; 11] = [
        "year",
        "quarter",
        "month",
        "week",
        "day",
        "dayofyear",
        "hour",
        "minute",
        "second",
        "millisecond",
        "microsecond",
    ];
    let [FunctionArg::Positional(unit), amount, timestamp] = call.args else {
        return Ok(());
    };
    let function = match call.name.parts {
        [function] if call.quantifier.is_none() && call.identifier.is_none() => function.text,
        _ => return Ok(()),
    };
    if !UNIT_FIRST.iter().any(|f| f.eq_ignore_ascii_case(function)) {
        return Ok(());
    }
    // A hex string (`X'1F'`) is no string there to Spark: the call is an ordinary one.
    if matches!(unit.kind, ExprKind::Literal(Literal::String([string, ..]))
            if !string.is_hex())
    {
        return user_error(
            call.span,
            format!(
                "the unit of {function}(unit, ...) is a word, not a string: {function}(HOUR, ...)"
            ),
        );
    }
    let ExprKind::Column(unit) = &unit.kind else {
        return Ok(());
    };
    if unit.style() != IdentStyle::Plain || !UNITS.iter().any(|u| u.eq_ignore_ascii_case(unit.text))
    {
        return Ok(());
    }
    for value in [amount, timestamp] {
        let FunctionArg::Positional(
            value @ Expr {
                kind: ExprKind::Unary(not),
                ..
            },
        ) = value
        else {
            continue;
        };
        let spelled_not =
            not.op == UnaryOp::Not && !src[value.span.start as usize..].starts_with('!');
        if let Some(string) =
            leading_string(&not.expr).filter(|_| spelled_not && is_value_expression(&not.expr))
        {
            return typed_literal_misread(
                value.span,
                "NOT",
                string,
                &format!("write `NOT ({string})`, or `(NOT {string} ...)` for the negation"),
            );
        }
    }
    Ok(())
}

/// Whether Spark's `valueExpression` takes `expr` as it stands: no predicate (IN, LIKE, IS,
/// BETWEEN, EXISTS) and no NOT, AND or OR at its top.
fn is_value_expression(expr: &Expr<'_>) -> bool {
    match &expr.kind {
        ExprKind::Binary(binary) => !matches!(binary.op, BinaryOp::And | BinaryOp::Or),
        ExprKind::Unary(unary) => unary.op != UnaryOp::Not,
        ExprKind::InList(_)
        | ExprKind::InSubquery(_)
        | ExprKind::Exists(_)
        | ExprKind::Between(_)
        | ExprKind::Like(_)
        | ExprKind::LikeQuantified(_)
        | ExprKind::Is(_) => false,
        _ => true,
    }
}

/// `first(ALL 'x')`, `struct(DISTINCT 'x', 1)`: FIRST, LAST and ANY_VALUE of one argument and
/// STRUCT, without a clause after the call, are forms of their own in Spark, which take no
/// DISTINCT or ALL: it reads `ALL 'x'` (or `DISTINCT 'x'`) at the start of the first argument as
/// a typed literal. After a bracket (`first(ALL ('x'))`), or in an ordinary call, the word is
/// the quantifier.
pub fn quantified_string<'t>(call: &FunctionCall<'_>) -> ActionResult<'t, ()> {
    let Some(quantifier) = call.quantifier else {
        return Ok(());
    };
    let first = match call.args {
        [FunctionArg::Positional(arg)]
            if ["first", "last", "any_value"]
                .iter()
                .any(|name| call.name.is_word(name)) =>
        {
            arg
        }
        [FunctionArg::Positional(arg) | FunctionArg::Aliased(NamedValue { value: arg, .. }), ..]
            if call.name.is_word("struct") =>
        {
            arg
        }
        _ => return Ok(()),
    };
    match leading_string(first) {
        Some(string) => typed_literal_misread(
            call.span,
            &quantifier.to_string(),
            string,
            &format!("write `{quantifier} ({string})` to quantify the string"),
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

/// The refusal of a keyword and a string that Spark reads as a typed literal of an unknown type.
fn typed_literal_misread<'t>(
    span: Span,
    word: &str,
    string: &str,
    fix: &str,
) -> ActionResult<'t, ()> {
    user_error(
        span,
        format!(
            "Spark reads `{word} {string}` here as a literal of the type {word}, which does not \
             exist: {fix}"
        ),
    )
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

/// `n PRECEDING` / `n FOLLOWING`: Spark wants a value it can compute before reading any row:
/// literals and operators over them (`1 + 1`, `INTERVAL 1 DAY`, `CAST(1 AS INT)`), but no
/// column, no subquery and no function call (which it resolves only later).
pub fn frame_bound<'a, 't>(bound: FrameBound<'a>) -> ActionResult<'t, FrameBound<'a>> {
    if let FrameBound::Preceding(value) | FrameBound::Following(value) = &bound {
        let not_constant = find_expr(value, |e| {
            matches!(
                e.kind,
                ExprKind::Column(_)
                    | ExprKind::CompoundColumn(_)
                    | ExprKind::Function(_)
                    | ExprKind::Subquery(_)
                    | ExprKind::Exists(_)
                    | ExprKind::InSubquery(_)
            )
            .then_some(e.span)
        });
        if let Some(span) = not_constant {
            return user_error(
                span,
                "a window frame bound must be a constant: a literal, or operators over literals"
                    .to_string(),
            );
        }
    }
    Ok(bound)
}

#[cfg(test)]
mod tests {
    use crate::syntax::parse::read;

    /// Asserts that each statement is refused as Spark refuses a typed literal of no type.
    fn refused_as_typed_literals(statements: &[&str]) {
        for sql in statements {
            let message = read(sql).expect_err(sql);
            assert!(
                message.starts_with("Spark reads `")
                    && message.contains("as a literal of the type"),
                "{sql}: {message}"
            );
        }
    }

    fn accepted(statements: &[&str]) {
        for sql in statements {
            assert!(read(sql).is_ok(), "{sql}: {:?}", read(sql));
        }
    }

    #[test]
    fn a_quantifier_before_a_string_in_first_last_or_any_value_is_a_typed_literal() {
        assert_eq!(
            read("SELECT first(ALL 'x') FROM t"),
            Err(
                "Spark reads `ALL 'x'` here as a literal of the type ALL, which does not \
                 exist: write `ALL ('x')` to quantify the string"
                    .into()
            )
        );
        refused_as_typed_literals(&[
            "SELECT last(DISTINCT 'x' || 'y') FROM t",
            "SELECT any_value(ALL r'x' IS NULL) FROM t",
            "SELECT FIRST(all \"x\"::int) FROM t",
            "SELECT struct(ALL 'q' AS n, 1)",
            "SELECT first(ALL 'it''s') FROM t",
        ]);
        // An ordinary call, a clause after the call, brackets, a hex string, more strings or
        // more arguments: the word is the quantifier.
        accepted(&[
            "SELECT f(ALL 'x') FROM t",
            "SELECT db.first(ALL 'x') FROM t",
            "SELECT `first`(ALL 'x') FROM t",
            "SELECT first_value(ALL 'x') FROM t",
            "SELECT first(ALL 'x') OVER () FROM t",
            "SELECT first(ALL 'x') FILTER (WHERE a) FROM t",
            "SELECT first(ALL 'x') IGNORE NULLS FROM t",
            "SELECT first(ALL ('x')) FROM t",
            "SELECT first(ALL X'1F') FROM t",
            "SELECT first(ALL 'x' 'y') FROM t",
            "SELECT first(ALL -'x') FROM t",
            "SELECT first(ALL 'x', 1) FROM t",
            "SELECT first(ALL a || 'x') FROM t",
        ]);
    }

    #[test]
    fn a_bare_select_of_a_string_in_values_brackets_is_a_typed_literal() {
        assert_eq!(
            read("SELECT 1 WHERE a IN (SELECT 'x')"),
            Err(
                "Spark reads `SELECT 'x'` here as a literal of the type SELECT, which does not \
                 exist: for a subquery, name its item (`SELECT ... AS v`)"
                    .into()
            )
        );
        refused_as_typed_literals(&[
            "SELECT a NOT IN (SELECT \"q\", 1)",
            "SELECT a IN (SELECT 'x'.b, *)",
            "SELECT a IN (SELECT r'x' IS NULL)",
            "SELECT (SELECT 'x', 1)",
            "SELECT (SELECT 'x' AS a, 1)",
        ]);
        // A FROM, a clause, DISTINCT, a hint, a name in IN, one item in a row, a string that
        // is not first or in brackets: a query.
        accepted(&[
            "SELECT a IN (SELECT 'q' FROM t)",
            "SELECT a IN (SELECT 'x' LIMIT 1)",
            "SELECT a IN (SELECT DISTINCT 'x')",
            "SELECT a IN (SELECT /*+ x */ 'x')",
            "SELECT a IN (SELECT 'q' AS x)",
            "SELECT a IN (SELECT 'x' UNION SELECT 'y')",
            "SELECT a IN (SELECT 'q' 'r')",
            "SELECT a IN (SELECT X'1F')",
            "SELECT a IN ((SELECT 'x'))",
            "SELECT (SELECT 'x')",
            "SELECT (SELECT 1, 'x')",
            "SELECT (SELECT 'x', 1 FROM t)",
        ]);
    }

    #[test]
    fn not_before_a_string_in_a_unit_call_is_a_typed_literal() {
        refused_as_typed_literals(&[
            "SELECT datediff(DAY, NOT 'a', b)",
            "SELECT dateadd(week, 1, NOT 'a' || 'b')",
            "SELECT timestampdiff(HOUR, NOT 'a' = b, c)",
        ]);
        // No unit word, `!`, a predicate or AND after the string, brackets: an ordinary value,
        // which prints with `!` for NOT so that it stays one.
        accepted(&[
            "SELECT datediff(days, NOT 'a', c)",
            "SELECT datediff(DAY, !'a', c)",
            "SELECT datediff(DAY, NOT 'a' IN (1), c)",
            "SELECT datediff(DAY, NOT 'a' AND b, c)",
            "SELECT datediff(DAY, NOT ('a'), c)",
            "SELECT datediff(DAY, NOT 'a' 'b', c)",
            "SELECT datediff(DAY, NOT a, c)",
        ]);
        assert_eq!(
            read("SELECT datediff(DAY, ! 'a', c)"),
            Ok("SELECT datediff(DAY, !'a', c)".into())
        );
    }
}
