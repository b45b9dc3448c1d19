//! A syntax error hands its parser states to the parser glue, which asks only the questions it
//! has about them.

const EXPECTED_FROM_STATES: &str = "        fn expected_tokens_from_states(&self, states: &[i16]) -> alloc::vec::Vec<alloc::string::String> {\n            __expected_tokens_from_states(states, core::marker::PhantomData::<(&())>)\n";
const ON_REQUEST: &str = "        fn expected_tokens_from_states(&self, states: &[i16]) -> alloc::vec::Vec<alloc::string::String> {\n            crate::syntax::at_syntax_error(states, __TERMINAL, |index| {\n                let __first = __action(states[states.len() - 1], index);\n                __first > 0 || __first < 0 && __accepts(None, states, Some(index), core::marker::PhantomData::<(&())>)\n            });\n            alloc::vec::Vec::new()\n";

/// On every syntax error LALRPOP lists the terminals that could have come instead, by
/// simulating the parse of each of the grammar's terminals from the error's states and naming
/// each one that fits with a new string: that made a statement with a syntax error cost 60 to
/// 130 times a valid one, mostly in the second looks' attempts, which need no list. Here the
/// generated parser hands the error's states, the terminals' names and a test of whether a
/// terminal (by its index) fits there to the parser glue (`syntax::at_syntax_error`), which
/// tests the terminals it needs: every one for the error that is reported, the name terminals
/// for the second look. The test looks at the top state's action first: most terminals are an
/// error there, and LALRPOP's simulation (`__accepts`) copies the state stack before it looks.
/// Returns the parser and how many rewrites it has (also when an earlier build already made
/// it).
pub fn expected_tokens_on_request(parser: &str) -> (String, usize) {
    // LALRPOP leaves a parser that is up to date alone, so an earlier build may have done it.
    let parser =
        if !parser.contains(ON_REQUEST) && parser.matches(EXPECTED_FROM_STATES).count() == 1 {
            parser.replacen(EXPECTED_FROM_STATES, ON_REQUEST, 1)
        } else {
            parser.to_string()
        };
    let done = usize::from(parser.contains(ON_REQUEST));
    (parser, done)
}

#[cfg(test)]
mod tests {
    use super::{expected_tokens_on_request, EXPECTED_FROM_STATES, ON_REQUEST};

    #[test]
    fn a_syntax_error_hands_its_states_to_the_glue() {
        let parser = format!("{EXPECTED_FROM_STATES}        }}\n");
        let (rewritten, count) = expected_tokens_on_request(&parser);
        assert_eq!(count, 1);
        assert!(rewritten.starts_with(ON_REQUEST));
        assert!(rewritten.contains("let __first = __action(states[states.len() - 1], index);"));
        assert!(!rewritten.contains("__expected_tokens_from_states(states"));
        assert_eq!(
            expected_tokens_on_request(&rewritten),
            (rewritten.clone(), 1)
        );
    }

    #[test]
    fn a_parser_without_the_function_counts_nothing() {
        assert_eq!(expected_tokens_on_request("fn other() {}\n").1, 0);
    }
}
