//! Expressions: operators grouped by precedence, calls and their special forms, lambdas,
//! subscripts and JSON paths, LIKE, and Spark's parse-time refusals inside them.

use crate::arena::Arena;
use crate::ast::visit::{find_expr, leading_string};
use crate::ast::*;
use crate::span::{Span, Spanned};
use crate::syntax::actions::base::{user_error, ActionResult, Word};
use crate::syntax::actions::names::{single_name, Name};
use crate::syntax::actions::types::{collated, is_string_type};

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
            value_expression(&index, &"an index in brackets")?;
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
    let escape = like_escape(kind, like.escape)?;
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
            value_expression(
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

/// The refusal of a keyword and a string that Spark reads as a typed literal of an unknown type.
pub fn typed_literal_misread<'t>(
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

/// A sort key written without ASC, DESC or NULLS: in a table argument, `ORDER BY (a, b)` or
/// `ORDER BY (a)` is then keys in parentheses rather than one key.
pub fn undirected(key: &OrderByExpr<'_>) -> bool {
    key.ascending.is_none() && key.nulls_first.is_none()
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

#[cfg(test)]
mod typed_literal_tests {
    use crate::syntax::read;

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
