//! Syntax errors list the terminals they expected only when asked.

const EXPECTED_FROM_STATES: &str = "        fn expected_tokens_from_states(&self, states: &[i16]) -> alloc::vec::Vec<alloc::string::String> {\n            __expected_tokens_from_states(states, core::marker::PhantomData::<(&())>)\n";
const ON_REQUEST: &str = "        fn expected_tokens_from_states(&self, states: &[i16]) -> alloc::vec::Vec<alloc::string::String> {\n            crate::syntax::expected_tokens(states, || __expected_tokens_from_states(states, core::marker::PhantomData::<(&())>))\n";
const SIMULATED_ACCEPTS: &str =
    "            if __accepts(None, __states, Some(index), core::marker::PhantomData::<(&())>) {\n";
const TOP_STATE_FIRST: &str = "            let __top = __states[__states.len() - 1];\n            let __first = __action(__top, index);\n            if __first > 0 || __first < 0 && __accepts(None, __states, Some(index), core::marker::PhantomData::<(&())>) {\n";

/// On every syntax error LALRPOP lists the terminals that could have come instead, by
/// simulating the parse of each of the grammar's 250 terminals from the error's states: that
/// made a statement with a syntax error cost 60 to 130 times a valid one, mostly in the second
/// looks' attempts, which only need where a reading fails. Here the generated parser hands the
/// error's states to the parser glue (`syntax::expected_tokens`), which has the list made only
/// for the one error that is reported, and keeps the message made of it by states. And that list is made with the top state's action first: most terminals are an
/// error there, and LALRPOP's simulation (`__accepts`) copies the state stack before it looks.
/// Returns the parser and how many of the two rewrites it has (also when an earlier build
/// already made them).
pub fn expected_tokens_on_request(parser: &str) -> (String, usize) {
    let mut parser = parser.to_string();
    let mut done = 0;
    // LALRPOP leaves a parser that is up to date alone, so an earlier build may have done either.
    for (anchor, replacement) in [
        (EXPECTED_FROM_STATES, ON_REQUEST.to_string()),
        (SIMULATED_ACCEPTS, TOP_STATE_FIRST.to_string()),
    ] {
        if !parser.contains(&replacement) && parser.matches(anchor).count() == 1 {
            parser = parser.replacen(anchor, &replacement, 1);
        }
        done += usize::from(parser.contains(&replacement));
    }
    (parser, done)
}

#[cfg(test)]
mod tests {
    use super::{expected_tokens_on_request, EXPECTED_FROM_STATES, ON_REQUEST, SIMULATED_ACCEPTS};

    #[test]
    fn the_expected_terminals_are_listed_on_request_and_top_state_first() {
        let parser = format!("{EXPECTED_FROM_STATES}        }}\n{SIMULATED_ACCEPTS}");
        let (rewritten, count) = expected_tokens_on_request(&parser);
        assert_eq!(count, 2);
        assert!(rewritten.starts_with(ON_REQUEST));
        assert!(rewritten.contains("let __first = __action(__top, index);"));
        assert!(!rewritten.contains(SIMULATED_ACCEPTS));
        assert_eq!(
            expected_tokens_on_request(&rewritten),
            (rewritten.clone(), 2)
        );
    }

    #[test]
    fn a_parser_without_the_functions_counts_nothing() {
        assert_eq!(expected_tokens_on_request("fn other() {}\n").1, 0);
    }
}
