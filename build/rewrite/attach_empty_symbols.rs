//! A node ends with its last token, not where the next one starts.

/// LALRPOP places an empty symbol (a clause left out, an absent `x?`) where the next token
/// starts, so a production that ends in one ends there too: past the spaces and comments after
/// its last token (LALRPOP issue 483), and in `SELECT a   ORDER BY a` the SELECT took the
/// spaces. Here each reduction first moves every empty symbol but a leading one to where the
/// symbol before it ends, so a node ends with its last token; a leading empty symbol keeps its
/// place, where the next token starts, so a node also starts with its first. Returns the parser
/// and how many reductions do this (also when an earlier build already rewrote the file).
pub fn attach_empty_symbols(parser: &str) -> (String, usize) {
    let mut out: Vec<String> = Vec::with_capacity(parser.len() / 40);
    let mut count = 0;
    for line in parser.lines() {
        let last = line
            .trim()
            .strip_prefix("let __end = __sym")
            .and_then(|rest| rest.strip_suffix(".2.clone();"))
            .and_then(|n| n.parse::<usize>().ok());
        let after_start = out
            .last()
            .is_some_and(|l| l.trim() == "let __start = __sym0.0.clone();");
        if let (Some(last @ 1..), true) = (last, after_start) {
            let start_line = out.len() - 1;
            let indent = &line[..line.len() - line.trim_start().len()];
            let mut fresh = false;
            for i in 1..=last {
                let pop = format!("let __sym{i} = __pop_");
                if let Some(l) = out[..start_line]
                    .iter_mut()
                    .rev()
                    .take(last + 2)
                    .find(|l| l.trim_start().starts_with(&pop))
                {
                    *l = l.replacen("let __sym", "let mut __sym", 1);
                    fresh = true;
                }
            }
            if fresh {
                let moves = (1..=last).map(|i| {
                    format!(
                        "{indent}if __sym{i}.0 == __sym{i}.2 {{ (__sym{i}.0, __sym{i}.2) = (__sym{p}.2, __sym{p}.2); }}",
                        p = i - 1
                    )
                });
                out.splice(start_line..start_line, moves);
            }
            count += 1;
        }
        out.push(line.to_string());
    }
    let mut rewritten = out.join("\n");
    if parser.ends_with('\n') {
        rewritten.push('\n');
    }
    (rewritten, count)
}

#[cfg(test)]
mod tests {
    use super::attach_empty_symbols;

    #[test]
    fn an_empty_symbol_moves_to_where_the_symbol_before_it_ends() {
        let reduction = "                let __sym1 = __pop_Variant3(__symbols);
                let __sym0 = __pop_Variant0(__symbols);
                let __start = __sym0.0.clone();
                let __end = __sym1.2.clone();
";
        let attached = "                let mut __sym1 = __pop_Variant3(__symbols);
                let __sym0 = __pop_Variant0(__symbols);
                if __sym1.0 == __sym1.2 { (__sym1.0, __sym1.2) = (__sym0.2, __sym0.2); }
                let __start = __sym0.0.clone();
                let __end = __sym1.2.clone();
";
        assert_eq!(attach_empty_symbols(reduction), (attached.to_string(), 1));
        // On its own output it counts the reduction again and moves nothing twice.
        assert_eq!(attach_empty_symbols(attached), (attached.to_string(), 1));
    }

    #[test]
    fn a_reduction_of_one_symbol_is_left_alone() {
        let reduction = "        let __sym0 = __pop_Variant0(__symbols);
        let __start = __sym0.0.clone();
        let __end = __sym0.2.clone();
";
        assert_eq!(attach_empty_symbols(reduction), (reduction.to_string(), 0));
    }
}
