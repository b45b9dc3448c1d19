//! A word-sized tag for the parser's value enum, and a bound on its size.

const SYMBOL_ENUM: &str = "    pub(crate) enum __Symbol<'a>";
const WORD_SIZED_TAG: &str = "    #[repr(u64)]\n";
const SYMBOL_SIZE_CHECK: &str =
    "    const _: () = assert!(std::mem::size_of::<__Symbol<'static>>() <= 72, ";
const SYMBOL_SIZE_MESSAGE: &str =
    "\"a value of the grammar larger than 64 bytes makes every slot of the parser's stack larger, \
    and parsing slower (72 bytes instead of 88 made it about 4% faster): allocate it in the arena, \
    or build it straight into its list as `Properties` does\");\n";

/// LALRPOP keeps every value of the grammar in one enum, `__Symbol`, on a stack of
/// `(start, symbol, end)` triples, and its tag is one byte followed by seven of padding. A
/// word-sized tag (`#[repr(u64)]`) takes that padding, so the enum keeps its size, and parsing
/// got 10% to 15% faster with it (measured with `benches/ratio.rs` and with a timing loop over
/// the same corpus, the two builds alternated; in the profile, the generated `__reduce` and the
/// driving loop take less time). A compile-time check before the enum bounds its size, which
/// every stack slot pays, so that no new nonterminal widens it unnoticed (LALRPOP gives even an
/// #[inline] nonterminal's type a variant). Returns the parser and 1 if the enum now has the
/// wide tag (also when an earlier build already rewrote the file).
pub fn word_sized_symbol_tag(parser: &str) -> (String, usize) {
    let Some(at) = parser.find(SYMBOL_ENUM) else {
        return (parser.to_string(), 0);
    };
    // The enum's attributes (`#[allow(dead_code)]`) stay on it, after the check. LALRPOP
    // leaves a parser that is up to date alone, so an earlier build's tag and check may
    // already be there: they are replaced, never doubled.
    let mut head = &parser[..at];
    let mut attributes = Vec::new();
    while let Some(line) = head[..head.len().saturating_sub(1)].rfind('\n') {
        let earlier = &head[line + 1..];
        let trimmed = earlier.trim_start();
        if trimmed.starts_with(SYMBOL_SIZE_CHECK.trim_start()) {
            // An earlier build's check: dropped, and written anew.
        } else if !trimmed.starts_with("#[") {
            break;
        } else if !trimmed.starts_with("#[repr(") {
            attributes.insert(0, earlier);
        }
        head = &head[..line + 1];
    }
    let attributes = attributes.concat();
    let tail = &parser[at..];
    let check = format!("{SYMBOL_SIZE_CHECK}{SYMBOL_SIZE_MESSAGE}");
    (
        format!("{head}{check}{attributes}{WORD_SIZED_TAG}{tail}"),
        1,
    )
}

#[cfg(test)]
mod tests {
    use super::{word_sized_symbol_tag, SYMBOL_ENUM, WORD_SIZED_TAG};

    #[test]
    fn the_symbol_enum_gets_a_word_sized_tag_and_a_size_bound_once() {
        let parser = format!(
            "mod __parse__Script {{\n    #[allow(dead_code)]\n{SYMBOL_ENUM}\n     {{\n    }}\n}}\n"
        );
        let (tagged, done) = word_sized_symbol_tag(&parser);
        assert_eq!(done, 1);
        assert!(tagged.contains(&format!(
            "    #[allow(dead_code)]\n{WORD_SIZED_TAG}{SYMBOL_ENUM}"
        )));
        assert!(tagged.contains("size_of::<__Symbol<'static>>() <= 72"));
        assert_eq!(word_sized_symbol_tag(&tagged), (tagged.clone(), 1));
        assert_eq!(word_sized_symbol_tag("no enum here").1, 0);
    }
}
