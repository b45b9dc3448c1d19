//! Pass-through unit reductions without their stack traffic.

use std::collections::HashSet;

/// Unit reductions such as `SetExpr = SetTerm` or `Call = FunctionCallFrom<Ident>` pass a value
/// up unchanged, and the grammar has over a hundred of them on its hot paths. LALRPOP compiles
/// each one into: pop the value off the symbol stack (an 88-byte slot), pass it through the
/// identity action, push it back with the same span. The value and
/// its span are already where they would end up, so those lines are removed; the state stack
/// is still updated by the generated code around them. Only reductions whose action is the
/// identity and whose value keeps its stack variant are touched. Returns the rewritten parser
/// and how many reductions were elided (counted anew when the file was already rewritten).
pub fn elide_unit_reductions(parser: &str) -> (String, usize) {
    let identities = identity_actions(parser);
    let lines: Vec<&str> = parser.lines().collect();
    let mut out = String::with_capacity(parser.len());
    let mut count = 0;
    let mut i = 0;
    while i < lines.len() {
        if lines.get(i + 4).is_some() && passes_through(&lines[i..i + 5], &identities) {
            out.push_str(ELIDED);
            out.push('\n');
            count += 1;
            i += 5;
            continue;
        }
        if lines[i] == ELIDED {
            count += 1;
        }
        out.push_str(lines[i]);
        out.push('\n');
        i += 1;
    }
    (out, count)
}

const ELIDED: &str = "        // The value stays on the symbol stack as it is.";

/// The numbers of the generated actions that return their one argument unchanged: either
/// `fn __actionN<'a>(src: &'a str, arena: &'a Arena, (_, __0, _): (usize, T, usize)) -> T { __0 }`,
/// or an action LALRPOP composed for an inlined nonterminal (`Expr = UnaryExpr` through
/// `#[inline]` rules) that only passes its argument through two such actions.
fn identity_actions(parser: &str) -> HashSet<&str> {
    let functions: Vec<(&str, &str)> = parser
        .split("\nfn __action")
        .skip(1)
        .filter_map(|function| {
            let (number, rest) = function.split_once('<')?;
            let body_start = rest.find("\n{\n")?;
            let (signature, body) = rest.split_at(body_start);
            let one_argument = signature.matches(": (usize, ").count() == 1;
            one_argument.then_some((number, body))
        })
        .collect();
    let mut identities: HashSet<&str> = functions
        .iter()
        .filter(|(_, body)| body.starts_with("\n{\n    __0\n}\n"))
        .map(|&(number, _)| number)
        .collect();
    // Compositions of compositions are possible, so repeat until nothing is added.
    loop {
        let composed: Vec<&str> = functions
            .iter()
            .filter(|(number, body)| {
                !identities.contains(number)
                    && composed_actions(body).is_some_and(|(inner, outer)| {
                        identities.contains(inner) && identities.contains(outer)
                    })
            })
            .map(|&(number, _)| number)
            .collect();
        if composed.is_empty() {
            return identities;
        }
        identities.extend(composed);
    }
}

/// `(inner, outer)` when an action's body is exactly `outer(inner(__0))` with the span kept.
fn composed_actions(body: &str) -> Option<(&str, &str)> {
    let lines: Vec<&str> = body
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let ["{", "let __start0 = __0.0.clone();", "let __end0 = __0.2.clone();", inner, "src,", "arena,", "__0,", ");", "let __temp0 = (__start0, __temp0, __end0);", outer, "src,", "arena,", "__temp0,", ")", "}", ..] =
        lines.as_slice()
    else {
        return None;
    };
    let inner = inner
        .strip_prefix("let __temp0 = __action")?
        .strip_suffix('(')?;
    let outer = outer.strip_prefix("__action")?.strip_suffix('(')?;
    Some((inner, outer))
}

/// Whether five generated lines pop a value, pass it to an identity action and push it back
/// as the same variant.
fn passes_through(lines: &[&str], identities: &HashSet<&str>) -> bool {
    let popped = lines[0]
        .strip_prefix("        let __sym0 = __pop_")
        .and_then(|rest| rest.strip_suffix("(__symbols);"));
    let action = lines[3]
        .strip_prefix("        let __nt = super::__action")
        .and_then(|rest| rest.strip_suffix("::<>(src, arena, __sym0);"));
    let pushed = lines[4]
        .strip_prefix("        __symbols.push((__start, __Symbol::")
        .and_then(|rest| rest.strip_suffix("(__nt), __end));"));
    match (popped, action, pushed) {
        (Some(popped), Some(action), Some(pushed)) => {
            popped == pushed
                && identities.contains(action)
                && lines[1] == "        let __start = __sym0.0.clone();"
                && lines[2] == "        let __end = __sym0.2.clone();"
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::elide_unit_reductions;

    /// An identity action and a reduction through it, as LALRPOP 0.23.2 writes them.
    const PARSER: &str = "mod __parse__Script {
    fn __reduce140<
        'a,
    >(
        src: &'a str,
        arena: &'a Arena,
        __lookahead_start: Option<&usize>,
        __symbols: &mut alloc::vec::Vec<(usize,__Symbol<'a>,usize)>,
        _: core::marker::PhantomData<(&'a ())>,
    ) -> (usize, usize)
    {
        // AliasIdent = KwIdent<\"always\"> => ActionFn(2857);
        let __sym0 = __pop_Variant8(__symbols);
        let __start = __sym0.0.clone();
        let __end = __sym0.2.clone();
        let __nt = super::__action2857::<>(src, arena, __sym0);
        __symbols.push((__start, __Symbol::Variant8(__nt), __end));
        (1, 86)
    }
}
fn __action2857<
    'a,
>(
    src: &'a str,
    arena: &'a Arena,
    (_, __0, _): (usize, Ident<'a>, usize),
) -> Ident<'a>
{
    __0
}
";

    #[test]
    fn a_reduction_through_an_identity_action_keeps_its_value_in_place() {
        let (rewritten, count) = elide_unit_reductions(PARSER);
        assert_eq!(count, 1);
        assert!(rewritten.contains(
            "        // AliasIdent = KwIdent<\"always\"> => ActionFn(2857);\n        // The value stays on the symbol stack as it is.\n        (1, 86)\n"
        ));
        assert!(!rewritten.contains("__pop_Variant8"));
        // Run again on its own output (LALRPOP leaves an up-to-date parser alone), it counts
        // the same and changes nothing.
        assert_eq!(elide_unit_reductions(&rewritten), (rewritten.clone(), 1));
    }

    #[test]
    fn a_reduction_that_changes_its_value_stays() {
        let changing = PARSER.replace("    __0\n}", "    __0.to_upper()\n}");
        assert_eq!(elide_unit_reductions(&changing), (changing.clone(), 0));
    }
}
