//! Fallible reductions moved out of the reduce dispatcher's frame.

const REDUCE_FN: &str = "    fn __reduce<\n";
const OUTLINED_FN: &str = "    fn __outlined_reduce";

/// LALRPOP compiles each reduction into a function of its own, but writes the body of every
/// fallible one (an action with `=>?`, which may return an error) into the arms of the one
/// dispatcher that every reduction goes through, `__reduce`. Each such body pops its symbols into
/// locals of up to 88 bytes, and the compiler gives every arm its own stack slots, so the
/// dispatcher's frame grew to 30-40 KiB: every reduction then paid for probing ten stack pages,
/// and each new fallible rule made all parsing slower (a grammar change of this kind measured 25%
/// slower). Here each such body becomes a function of its own that returns the error, and the
/// arm calls it. Returns the parser and how many bodies are outlined (also when an earlier build
/// already rewrote the file).
pub fn outline_fallible_reductions(parser: &str) -> (String, usize) {
    let already = parser.matches(OUTLINED_FN).count();
    let Some(start) = parser.find(REDUCE_FN) else {
        return (parser.to_string(), already);
    };
    let Some(end) = parser[start..].find("\n    }\n").map(|at| start + at + 7) else {
        return (parser.to_string(), already);
    };
    let dispatcher = &parser[start..end];
    let Some(error_type) = reduce_error_type(dispatcher) else {
        return (parser.to_string(), already);
    };
    const ARM_END: &str = "\n            }\n";
    const ERROR_RETURN: &str = "return Some(Err(e))";
    let mut rewritten = String::with_capacity(dispatcher.len());
    let mut functions = String::new();
    let mut rest = dispatcher;
    let mut count = already;
    while let Some(arm_at) = rest.find(" => {\n") {
        let line_start = rest[..arm_at].rfind('\n').map_or(0, |at| at + 1);
        let number = rest[line_start..arm_at].trim();
        let body_start = arm_at + " => {\n".len();
        let Some(body_len) = rest[body_start..].find(ARM_END) else {
            break;
        };
        let body = &rest[body_start..body_start + body_len];
        let last_line = body.rsplit('\n').next().unwrap_or("");
        let outline = number.bytes().all(|b| b.is_ascii_digit())
            && body.contains(ERROR_RETURN)
            && body.matches("return ").count() == body.matches(ERROR_RETURN).count()
            && last_line.trim_start().starts_with('(');
        rewritten.push_str(&rest[..line_start]);
        if outline {
            let head = &body[..body.len() - last_line.len()];
            functions.push_str(&format!(
                "    #[inline(never)]\n{OUTLINED_FN}{number}<'a>(\n        src: &'a str,\n        arena: &'a Arena,\n        __lookahead_start: Option<&usize>,\n        __symbols: &mut alloc::vec::Vec<(usize,__Symbol<'a>,usize)>,\n    ) -> Result<(usize, usize), {error_type}>\n    {{\n{}{}Ok({})\n    }}\n",
                head.replace(ERROR_RETURN, "return Err(e)"),
                &last_line[..last_line.len() - last_line.trim_start().len()],
                last_line.trim_start(),
            ));
            rewritten.push_str(&format!(
                "            {number} => match {}{number}(src, arena, __lookahead_start, __symbols) {{\n                Ok(popped) => popped,\n                Err(e) => return Some(Err(e)),\n            }},\n",
                OUTLINED_FN.trim_start().trim_start_matches("fn "),
            ));
            count += 1;
        } else {
            rewritten.push_str(&rest[line_start..body_start + body_len + ARM_END.len()]);
        }
        rest = &rest[body_start + body_len + ARM_END.len()..];
    }
    rewritten.push_str(rest);
    let parser = format!(
        "{}{rewritten}{functions}{}",
        &parser[..start],
        &parser[end..]
    );
    (parser, count)
}

/// The error type of the dispatcher's `Option<Result<T, E>>`.
fn reduce_error_type(dispatcher: &str) -> Option<&str> {
    let returns = dispatcher.split_once("-> Option<Result<")?.1;
    let returns = &returns[..returns.find('\n')?];
    let mut depth = 0;
    for (at, c) in returns.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            ',' if depth == 0 => return returns[at + 1..].trim().strip_suffix(">>"),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::outline_fallible_reductions;

    /// The reduce dispatcher as LALRPOP 0.23.2 writes it, with one infallible reduction (a
    /// call) and one fallible one (its body in the arm).
    const DISPATCHER: &str = "    fn __reduce<
        'a,
    >(
        src: &'a str,
        arena: &'a Arena,
        __action: i16,
        __lookahead_start: Option<&usize>,
        __states: &mut alloc::vec::Vec<i16>,
        __symbols: &mut alloc::vec::Vec<(usize,__Symbol<'a>,usize)>,
        _: core::marker::PhantomData<(&'a ())>,
    ) -> Option<Result<Vec<Statement<'a>>,__lalrpop_util::ParseError<usize, Tok<'a>, UserError>>>
    {
        let (__pop_states, __nonterminal) = match __action {
            0 => {
                __reduce0(src, arena, __lookahead_start, __symbols, core::marker::PhantomData::<(&())>)
            }
            1 => {
                // X = Y => ActionFn(7);
                let __sym0 = __pop_Variant0(__symbols);
                let __nt = match super::__action7::<>(src, arena, __sym0) {
                    Ok(v) => v,
                    Err(e) => return Some(Err(e)),
                };
                __symbols.push((__start, __Symbol::Variant1(__nt), __end));
                (1, 2)
            }
            _ => panic!(\"invalid action code {}\", __action)
        };
        None
    }
";

    #[test]
    fn a_fallible_reduction_moves_into_a_function_of_its_own() {
        let (outlined, count) = outline_fallible_reductions(DISPATCHER);
        assert_eq!(count, 1);
        assert!(outlined.contains(
            "            1 => match __outlined_reduce1(src, arena, __lookahead_start, __symbols) {\n                Ok(popped) => popped,\n                Err(e) => return Some(Err(e)),\n            },\n"
        ));
        assert!(outlined.contains(
            "    #[inline(never)]\n    fn __outlined_reduce1<'a>(\n        src: &'a str,\n        arena: &'a Arena,\n        __lookahead_start: Option<&usize>,\n        __symbols: &mut alloc::vec::Vec<(usize,__Symbol<'a>,usize)>,\n    ) -> Result<(usize, usize), __lalrpop_util::ParseError<usize, Tok<'a>, UserError>>\n"
        ));
        assert!(outlined.contains("                    Err(e) => return Err(e),\n"));
        assert!(outlined.contains("                Ok((1, 2))\n"));
        // The infallible reduction stays a call, and a second run moves nothing more.
        assert!(outlined.contains("            0 => {\n                __reduce0("));
        assert_eq!(
            outline_fallible_reductions(&outlined),
            (outlined.clone(), 1)
        );
    }
}
