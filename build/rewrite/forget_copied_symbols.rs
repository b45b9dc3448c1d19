//! Copied values popped off the symbol stack without drop glue.

/// The named `Copy` types that are values of the grammar (with references, tuples and `Option`s
/// of them, see [`is_copy_type`]). A type missing here only misses the rewrite of
/// [`forget_copied_symbols`]; a type listed here that is not `Copy` fails to compile.
const COPY_TYPES: &[&str] = &[
    "Tok",
    "Span",
    "bool",
    "usize",
    "BinaryOp",
    "UnaryOp",
    "CastKind",
    "FrameUnits",
    "JoinKind",
    "Keyword",
    "OrClause",
    "Visibility",
    "LikeKind",
    "NullTreatment",
    "Once",
    "PatternQuantifier",
    "RecursionLimit",
    "SampleKind",
    "SelectHead",
    "SetOperator",
    "SetQuantifier",
    "TrimSide",
    "ViolationAction",
    "QueryTail",
    "Ident",
    "StringLit",
    "Expr",
    "Literal",
];

/// LALRPOP pops a value off the symbol stack by matching the popped `(start, symbol, end)` by
/// value. When the value is `Copy` (a token, a `&str`, an arena reference, an `Expr`), the match
/// copies it out and then drops the whole symbol: a call of the enum's drop glue, a branch over
/// all its variants that is too big to inline, for most tokens and many reductions (5% of the
/// parse in the profile). Here each pop of such a variant matches through `ManuallyDrop`, so
/// nothing is dropped, and there is nothing to drop: the value is `Copy`. A value that is not
/// `Copy` cannot be moved out through `ManuallyDrop`, so a wrong [`COPY_TYPES`] fails to
/// compile instead of leaking. Returns the parser and how many pops match through
/// `ManuallyDrop` (also when an earlier build already rewrote the file).
pub fn forget_copied_symbols(parser: &str) -> (String, usize) {
    const POP: &str = "        match __symbols.pop() {";
    const FORGOTTEN_POP: &str = "        match *core::mem::ManuallyDrop::new(__symbols.pop()) {";
    let lines: Vec<&str> = parser.lines().collect();
    let mut out = String::with_capacity(parser.len() + 4096);
    let mut count = 0;
    for (i, line) in lines.iter().enumerate() {
        // A pop function's body starts two lines after its `-> (usize, T, usize)`.
        let copied = *line == POP
            && i.checked_sub(2)
                .and_then(|at| lines[at].strip_prefix("    ) -> (usize, "))
                .and_then(|rest| rest.strip_suffix(", usize)"))
                .is_some_and(is_copy_type);
        let line = if copied { FORGOTTEN_POP } else { line };
        count += usize::from(line == FORGOTTEN_POP);
        out.push_str(line);
        out.push('\n');
    }
    (out, count)
}

/// Whether a Rust type as LALRPOP writes it is `Copy`: a shared reference, a unit or tuple or
/// `Option` of `Copy` types, or one of [`COPY_TYPES`] (with its lifetime or type arguments).
fn is_copy_type(rust_type: &str) -> bool {
    let t = rust_type.trim();
    if t.starts_with('&') {
        return true;
    }
    if let Some(inner) = t.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
        return split_top_level(inner).iter().all(|part| is_copy_type(part));
    }
    let (name, arguments) = match t.split_once('<') {
        Some((name, rest)) => (name, rest.strip_suffix('>').unwrap_or(rest)),
        None => (t, ""),
    };
    let arguments_copy = split_top_level(arguments)
        .iter()
        .all(|a| a.trim().starts_with('\'') || is_copy_type(a));
    (name == "Option" || COPY_TYPES.contains(&name)) && arguments_copy
}

/// The comma-separated parts of a type list, not splitting inside `<...>`, `(...)` or `[...]`.
fn split_top_level(list: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    for (i, c) in list.char_indices() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                parts.push(&list[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if !list[start..].trim().is_empty() {
        parts.push(&list[start..]);
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::{forget_copied_symbols, is_copy_type};

    /// A pop function as LALRPOP 0.23.2 writes it, for a value of type `value`.
    fn pop(value: &str) -> String {
        format!(
            "    fn __pop_Variant3<
      'a,
    >(
        __symbols: &mut alloc::vec::Vec<(usize,__Symbol<'a>,usize)>
    ) -> (usize, {value}, usize)
     {{
        match __symbols.pop() {{
            Some((__l, __Symbol::Variant3(__v), __r)) => (__l, __v, __r),
            _ => __symbol_type_mismatch()
        }}
    }}
"
        )
    }

    #[test]
    fn a_copied_value_is_popped_without_dropping_its_symbol() {
        let (rewritten, count) = forget_copied_symbols(&pop("Option<Tok<'a>>"));
        assert_eq!(count, 1);
        assert_eq!(
            rewritten,
            pop("Option<Tok<'a>>").replace(
                "match __symbols.pop() {",
                "match *core::mem::ManuallyDrop::new(__symbols.pop()) {"
            )
        );
        assert_eq!(forget_copied_symbols(&rewritten), (rewritten.clone(), 1));
    }

    #[test]
    fn a_value_that_owns_memory_is_dropped_as_before() {
        let owned = pop("Vec<Statement<'a>>");
        assert_eq!(forget_copied_symbols(&owned), (owned.clone(), 0));
    }

    #[test]
    fn copy_types_are_told_from_their_spelling() {
        for copied in [
            "&'a str",
            "(Span, Ident<'a>)",
            "Option<(bool, Expr<'a>)>",
            "()",
        ] {
            assert!(is_copy_type(copied), "{copied}");
        }
        for owned in [
            "Vec<Tok<'a>>",
            "String",
            "(Span, Vec<Expr<'a>>)",
            "Option<Name<'a>>",
        ] {
            assert!(!is_copy_type(owned), "{owned}");
        }
    }
}
