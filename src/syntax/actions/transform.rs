//! Hive's script transform, `SELECT TRANSFORM (a, b) [ROW FORMAT ...] USING 'script' [AS ...]`,
//! also written `MAP a, b USING ...` or `REDUCE ...`: the grammar reads its parts loosely (the
//! transform as a call, the clauses of a row format as words before a string) so that it stays
//! LALR(1), and these builders check them as Spark does.

use crate::arena::Arena;
use crate::ast::{
    Expr, ExprKind, FunctionArg, FunctionCall, Ident, RowFormat, ScriptTransform, Select,
    SelectItem, SetQuantifier, StringLit, StructField, TableRef, TransformOutput,
};
use crate::span::{Span, Spanned};
use crate::syntax::actions::base::{user_error, ActionResult};
use crate::syntax::actions::names::single_name;
use crate::syntax::actions::select::{select, wildcard, SelectHead, SelectRest};

/// One output column as written: a name, or a name with a type.
pub enum OutputColumn<'a> {
    Name(Ident<'a>),
    Typed(&'a StructField<'a>),
}

/// The clauses of a script transform after its inputs, which [`transform_select`] adds.
pub fn script_clauses<'a, 't>(
    arena: &'a Arena,
    span: Span,
    input_format: Option<&'a RowFormat<'a>>,
    script: &'a [StringLit<'a>],
    output: Option<TransformOutput<'a>>,
    output_format: Option<&'a RowFormat<'a>>,
) -> ActionResult<'t, &'a ScriptTransform<'a>> {
    plain_strings(script)?;
    Ok(arena.alloc(ScriptTransform {
        span,
        inputs: &[],
        input_format,
        script,
        output,
        output_format,
    }))
}

/// A SELECT whose select list was read as `transform(inputs)` and is followed by the clauses
/// of a script transform. Spark gives it every clause of a SELECT but QUALIFY.
#[allow(clippy::too_many_arguments)]
pub fn transform_select<'a, 't>(
    arena: &'a Arena,
    src: &str,
    span: Span,
    from_first: bool,
    head: SelectHead<'a>,
    clauses: &'a ScriptTransform<'a>,
    from: &'a [TableRef<'a>],
    rest: &SelectRest<'a>,
) -> ActionResult<'t, &'a Select<'a>> {
    if let Some(hint) = head.hints.first() {
        return user_error(
            hint.span,
            "a SELECT TRANSFORM takes no hints: they go on a SELECT of columns".to_string(),
        );
    }
    let call = match head.projection {
        [SelectItem::Expr {
            expr:
                Expr {
                    kind: ExprKind::Function(call),
                    ..
                },
            alias: None,
        }] if head.quantifier.is_none() && is_plain_call(call) => call,
        _ => {
            let list = match (head.projection.first(), head.projection.last()) {
                (Some(first), Some(last)) => first.span().to(last.span()),
                _ => span,
            };
            return user_error(
                list,
                "USING 'script' and ROW FORMAT follow only `SELECT TRANSFORM (inputs)`".to_string(),
            );
        }
    };
    if !call.name.is_word("transform") {
        let name = call.name.to_string();
        let quoted = if name.starts_with('`') {
            name
        } else {
            format!("`{name}`")
        };
        return user_error(
            call.span,
            format!(
                "USING 'script' and ROW FORMAT follow only `SELECT TRANSFORM (inputs)`, not a call of {quoted}"
            ),
        );
    }
    if call.quantifier.is_some() {
        return user_error(
            call.span,
            "TRANSFORM takes no DISTINCT or ALL before its inputs".to_string(),
        );
    }
    if call.args.is_empty() {
        return user_error(call.span, "TRANSFORM needs at least one input".to_string());
    }
    let inputs = call
        .args
        .iter()
        .map(|arg| transform_input(arena, src, call.span, arg))
        .collect::<Result<Vec<_>, _>>()?;
    script_select(
        arena,
        span,
        from_first,
        call.span,
        arena.slice(inputs),
        clauses,
        from,
        rest,
    )
}

/// Hive's `MAP a, b USING 'script' ...` or `REDUCE ...` (from `word`): Spark's TRANSFORM with
/// its inputs written without parentheses, read as the same transform.
#[allow(clippy::too_many_arguments)]
pub fn map_reduce_select<'a, 't>(
    arena: &'a Arena,
    span: Span,
    from_first: bool,
    word: Span,
    quantifier: Option<SetQuantifier>,
    inputs: &'a [Expr<'a>],
    clauses: &'a ScriptTransform<'a>,
    from: &'a [TableRef<'a>],
    rest: &SelectRest<'a>,
) -> ActionResult<'t, &'a Select<'a>> {
    if quantifier.is_some() {
        return user_error(
            word,
            "MAP and REDUCE take no DISTINCT or ALL before their inputs".to_string(),
        );
    }
    let start = word.to(inputs.last().map_or(word, |input| input.span));
    script_select(arena, span, from_first, start, inputs, clauses, from, rest)
}

/// The SELECT of a script transform, which `start` (its inputs) begins. Spark gives it every
/// clause of a SELECT but QUALIFY.
#[allow(clippy::too_many_arguments)]
fn script_select<'a, 't>(
    arena: &'a Arena,
    span: Span,
    from_first: bool,
    start: Span,
    inputs: &'a [Expr<'a>],
    clauses: &'a ScriptTransform<'a>,
    from: &'a [TableRef<'a>],
    rest: &SelectRest<'a>,
) -> ActionResult<'t, &'a Select<'a>> {
    if let Some(qualify) = rest.qualify {
        return user_error(
            qualify.span,
            "a script transform (TRANSFORM, MAP or REDUCE) takes no QUALIFY".to_string(),
        );
    }
    let transform = arena.alloc(ScriptTransform {
        span: start.to(clauses.span),
        inputs,
        ..clauses.clone()
    });
    let projection = std::slice::from_ref(arena.alloc(SelectItem::Transform(transform)));
    let head = SelectHead {
        projection,
        ..SelectHead::default()
    };
    Ok(select(arena, span, from_first, head, from, rest))
}

/// A call without the clauses that may follow one (`FILTER`, `OVER`, ...).
fn is_plain_call(call: &FunctionCall<'_>) -> bool {
    call.within_group.is_empty()
        && call.filter.is_none()
        && call.null_treatment.is_none()
        && call.over.is_none()
}

/// An input of TRANSFORM: an expression, a star among them. The call read it as an argument.
fn transform_input<'a, 't>(
    arena: &'a Arena,
    src: &str,
    call_span: Span,
    arg: &FunctionArg<'a>,
) -> ActionResult<'t, Expr<'a>> {
    let (span, what) = match arg {
        FunctionArg::Positional(expr) => return Ok(*expr),
        FunctionArg::Star(span) => return Ok(wildcard(arena, *span, None, None)),
        FunctionArg::QualifiedStar(name) => {
            // The argument kept the qualifier only: the star is the next `*` after it.
            let end = name.span.end as usize;
            let star = end + src[end..].find('*').map_or(0, |at| at + 1);
            let span = Span::from_usize(name.span.start as usize, star);
            return Ok(wildcard(arena, span, Some(name.clone()), None));
        }
        FunctionArg::Named(named) => (named.name.span.to(named.value.span), "a name (`=>`)"),
        FunctionArg::Aliased(named) => (named.value.span.to(named.name.span), "an alias"),
        FunctionArg::Keyword { value, .. } => (value.span, "a keyword"),
        FunctionArg::TrimSide(_) | FunctionArg::Table(_) => (call_span, "a keyword"),
    };
    user_error(
        span,
        format!("an input of TRANSFORM is a plain expression, without {what}"),
    )
}

/// `ROW FORMAT DELIMITED` and its clauses, each given as its index in [`RowFormat::CLAUSES`] and
/// its value.
pub fn row_format<'a, 't>(
    arena: &'a Arena,
    span: Span,
    kind: Ident<'a>,
    clauses: Vec<(Span, usize, &'a [StringLit<'a>])>,
) -> ActionResult<'t, &'a RowFormat<'a>> {
    if is_serde(&kind)? {
        return serde_refused(span);
    }
    let mut values = [None; 6];
    let mut last: Option<usize> = None;
    for (words, clause, value) in clauses {
        // ESCAPED BY belongs to FIELDS TERMINATED BY and comes right after it.
        let in_order =
            !matches!(last, Some(last) if last >= clause) && (clause != 1 || last == Some(0));
        if !in_order {
            return user_error(
                words,
                format!(
                    "the clauses of ROW FORMAT DELIMITED come at most once each, in this order: {} (ESCAPED BY right after FIELDS TERMINATED BY)",
                    RowFormat::CLAUSES.join(", ")
                ),
            );
        }
        values[clause] = Some(value);
        last = Some(clause);
    }
    Ok(arena.alloc(RowFormat::from_values(span, values)))
}

/// One clause of `ROW FORMAT DELIMITED`: its index in [`RowFormat::CLAUSES`], from its words.
pub fn delimited_clause<'a, 't>(
    span: Span,
    words: &[&str],
    value: &'a [StringLit<'a>],
) -> ActionResult<'t, (Span, usize, &'a [StringLit<'a>])> {
    let clause = RowFormat::CLAUSES.iter().position(|keywords| {
        keywords.split(' ').count() == words.len()
            && keywords
                .split(' ')
                .zip(words)
                .all(|(k, w)| k.eq_ignore_ascii_case(w))
    });
    let Some(clause) = clause else {
        return user_error(
            span,
            format!(
                "`{}` is no clause of ROW FORMAT DELIMITED: expected {}",
                words.join(" "),
                RowFormat::CLAUSES.join(", ")
            ),
        );
    };
    plain_strings(value)?;
    // Spark's script transform splits its rows on newlines only.
    if RowFormat::CLAUSES[clause] == "LINES TERMINATED BY"
        && value.iter().map(|part| part.value()).collect::<String>() != "\n"
    {
        return user_error(
            span,
            "LINES TERMINATED BY takes only a newline ('\\n'): Spark's script transform splits rows on nothing else".to_string(),
        );
    }
    Ok((span, clause, value))
}

/// `ROW FORMAT <word> 'string' ...`: a SerDe, which Spark refuses without Hive, or DELIMITED
/// with a string where its clauses belong.
pub fn serde_row_format<'a, 't, T>(span: Span, kind: Ident<'a>) -> ActionResult<'t, T> {
    if is_serde(&kind)? {
        return serde_refused(span);
    }
    user_error(
        span,
        "ROW FORMAT DELIMITED takes clauses such as FIELDS TERMINATED BY ',', not a bare string"
            .to_string(),
    )
}

/// Whether the word after ROW FORMAT is SERDE rather than DELIMITED; any other is an error.
fn is_serde<'t>(kind: &Ident<'_>) -> ActionResult<'t, bool> {
    if kind.text.eq_ignore_ascii_case("delimited") {
        return Ok(false);
    }
    if kind.text.eq_ignore_ascii_case("serde") {
        return Ok(true);
    }
    user_error(
        kind.span,
        format!(
            "expected DELIMITED or SERDE after ROW FORMAT, found `{}`",
            kind.text
        ),
    )
}

fn serde_refused<'t, T>(span: Span) -> ActionResult<'t, T> {
    user_error(
        span,
        "Spark runs a script transform with a SerDe only in Hive mode; use ROW FORMAT DELIMITED"
            .to_string(),
    )
}

/// `AS a, b` or `AS a INT, b STRING`: all names, or all typed.
pub fn transform_output<'a, 't>(
    arena: &'a Arena,
    columns: &'a [OutputColumn<'a>],
) -> ActionResult<'t, TransformOutput<'a>> {
    let typed = matches!(columns.first(), Some(OutputColumn::Typed(_)));
    let mut names = Vec::new();
    let mut fields = Vec::new();
    for column in columns {
        single_name(match column {
            OutputColumn::Name(name) => name,
            OutputColumn::Typed(field) => &field.name,
        })?;
        match (column, typed) {
            (OutputColumn::Name(name), false) => names.push(*name),
            (OutputColumn::Typed(field), true) => fields.push((*field).clone()),
            (OutputColumn::Name(name), true) => {
                return user_error(
                    name.span,
                    format!("`{name}` needs a type: either every output column of TRANSFORM has one, or none has", name = name.text),
                );
            }
            (OutputColumn::Typed(field), false) => {
                return user_error(
                    field.data_type.span(),
                    format!("`{}` has a type, the columns before it none: either every output column of TRANSFORM has one, or none has", field.name.text),
                );
            }
        }
    }
    Ok(if typed {
        TransformOutput::Columns(arena.slice(fields))
    } else {
        TransformOutput::Names(arena.slice(names))
    })
}

/// The script and the separators are text: a hex string (`X'2C'`) is not taken there.
fn plain_strings<'t>(parts: &[StringLit<'_>]) -> ActionResult<'t, ()> {
    match parts.iter().find(|part| part.is_hex()) {
        Some(hex) => user_error(
            hex.span,
            "a hex string is not taken here: write the text as a string literal".to_string(),
        ),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use crate::ast::*;

    /// The SELECT of `sql`, a script transform, and its transform.
    fn transform<'a>(
        arena: &'a crate::Arena,
        sql: &'a str,
    ) -> (&'a Select<'a>, &'a ScriptTransform<'a>) {
        let parsed = crate::parse(arena, sql);
        assert_eq!(parsed.diagnostics(), [], "{sql}");
        let Some(Statement::Query(query)) = parsed.script().statements.first() else {
            panic!("not a query: {sql}");
        };
        let SetExpr::Select(select) = &query.body else {
            panic!("not a SELECT: {sql}");
        };
        let [SelectItem::Transform(transform)] = select.projection else {
            panic!("not a transform: {sql}");
        };
        (select, transform)
    }

    /// A star input becomes a star expression whose span covers it, qualifier and all.
    #[test]
    fn star_inputs_keep_their_spans() {
        let arena = crate::Arena::new();
        let sql = "SELECT TRANSFORM(*, t . *) USING 'cat' FROM t";
        let (_, transform) = transform(&arena, sql);
        let texts: Vec<_> = transform
            .inputs
            .iter()
            .map(|input| {
                assert!(matches!(input.kind, ExprKind::Wildcard(_)));
                &sql[input.span.start as usize..input.span.end as usize]
            })
            .collect();
        assert_eq!(texts, ["*", "t . *"]);
    }

    /// Hive's MAP and REDUCE are TRANSFORM with the inputs unparenthesized: the same transform,
    /// spanning from the word, and the relation before a FROM-first MAP has no alias.
    #[test]
    fn map_and_reduce_are_transforms() {
        let arena = crate::Arena::new();
        let (_, written) = transform(
            &arena,
            "SELECT TRANSFORM(a, b + 1) USING 'cat' AS (x, y) FROM t",
        );
        for (sql, word) in [
            ("MAP a, b + 1 USING 'cat' AS (x, y) FROM t", "MAP"),
            ("FROM t reduce a, b + 1 USING 'cat' AS (x, y)", "reduce"),
        ] {
            let (select, transform) = transform(&arena, sql);
            assert_eq!(transform.to_string(), written.to_string(), "{sql}");
            assert_eq!(Some(transform.span.start as usize), sql.find(word), "{sql}");
            let [TableRef::Table(table)] = select.from else {
                panic!("not one table: {sql}");
            };
            assert!(table.alias.is_none(), "{sql}");
        }
    }
}
