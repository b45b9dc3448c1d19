//! The goto `match` as a row-displacement table.

use std::collections::HashSet;

const GOTO_FN: &str = "    fn __goto(state: i16, nt: usize) -> i16 {\n";
const GOTO_TABLES: &str = "__GOTO_SLOTS";

/// After each reduction the parser looks up the state that follows the nonterminal it built,
/// and LALRPOP writes that lookup as a `match` on the nonterminal holding, for most, a `match`
/// on the state: a call and a search of about 19 instructions, for each of the two reductions
/// per token. Here it becomes a table lookup of about 14, inlined: each nonterminal
/// has its default state and a base, and the states that go elsewhere are packed into one
/// array of slots (row displacement): the slot `base + state` holds the next state if its
/// owner is `state`. Bases are distinct, so a slot can only match the row it was placed for.
/// Returns the parser and 1 if the lookup is table-driven (also when an earlier build
/// already rewrote the file).
pub fn table_driven_goto(parser: &str) -> (String, usize) {
    let unchanged = || (parser.to_string(), 0);
    let Some(start) = parser.find(GOTO_FN) else {
        return unchanged();
    };
    let body_start = start + GOTO_FN.len();
    let Some(body_len) = parser[body_start..].find("\n    }\n") else {
        return unchanged();
    };
    let body = &parser[body_start..body_start + body_len];
    if body.contains(GOTO_TABLES) {
        return (parser.to_string(), 1);
    }
    let Some(rows) = goto_rows(body) else {
        return unchanged();
    };
    let (lookup, tables) = goto_tables(&rows);
    let rest = &parser[body_start + body_len..];
    (
        format!(
            "{}{tables}    #[inline(always)]\n{GOTO_FN}{lookup}{rest}",
            &parser[..start]
        ),
        1,
    )
}

/// One nonterminal's gotos: where most states go, and the states that go elsewhere.
#[derive(Default)]
struct GotoRow {
    default: i16,
    exceptions: Vec<(i16, i16)>,
}

/// The rows of LALRPOP's goto `match`, indexed by nonterminal; `None` if a line is not of the
/// shapes LALRPOP writes (then the match is left as it is).
fn goto_rows(body: &str) -> Option<Vec<GotoRow>> {
    let mut rows: Vec<GotoRow> = Vec::new();
    // The nonterminal whose `match state` is open.
    let mut open: Option<usize> = None;
    for line in body.lines().map(str::trim) {
        let (pattern, value) = match line.split_once(" => ") {
            Some((pattern, value)) => (pattern, value.trim_end_matches(',')),
            None if line == "}," => {
                open = None;
                continue;
            }
            None if matches!(line, "match nt {" | "}") => continue,
            None => return None,
        };
        match (open, pattern, value) {
            (None, "_", "0") => {}
            (None, nt, "match state {") => open = Some(grow_to(&mut rows, nt)?),
            (None, nt, target) => {
                let nt = grow_to(&mut rows, nt)?;
                rows[nt].default = target.parse().ok()?;
            }
            (Some(nt), "_", target) => rows[nt].default = target.parse().ok()?,
            (Some(nt), states, target) => {
                let target: i16 = target.parse().ok()?;
                for states in states.split(" | ") {
                    let (first, last) = states.split_once("..=").unwrap_or((states, states));
                    for state in first.parse::<i16>().ok()?..=last.parse().ok()? {
                        rows[nt].exceptions.push((state, target));
                    }
                }
            }
        }
    }
    Some(rows)
}

/// The row of the nonterminal numbered `nt`, made if it is new.
fn grow_to(rows: &mut Vec<GotoRow>, nt: &str) -> Option<usize> {
    let nt: usize = nt.parse().ok()?;
    if rows.len() <= nt {
        rows.resize_with(nt + 1, GotoRow::default);
    }
    Some(nt)
}

/// The body of the table-driven lookup and its tables. Rows are placed largest first, each at
/// the first distinct base where its states find free slots.
fn goto_tables(rows: &[GotoRow]) -> (String, String) {
    // No slot is reachable from this base (every state is below it), so a row of defaults
    // needs no distinct one.
    const NO_SLOTS: i32 = -(1 << 20);
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by_key(|&nt| std::cmp::Reverse(rows[nt].exceptions.len()));
    let mut bases = vec![NO_SLOTS; rows.len()];
    let mut taken_bases = HashSet::new();
    let mut slots: Vec<Option<(i16, i16)>> = Vec::new();
    for nt in order {
        let exceptions = &rows[nt].exceptions;
        let Some(lowest) = exceptions.iter().map(|&(state, _)| i32::from(state)).min() else {
            continue;
        };
        let fits = |base: i32, slots: &[Option<(i16, i16)>]| {
            exceptions.iter().all(|&(state, _)| {
                let slot = (base + i32::from(state)) as usize;
                !matches!(slots.get(slot), Some(Some(_)))
            })
        };
        let mut base = -lowest;
        while taken_bases.contains(&base) || !fits(base, &slots) {
            base += 1;
        }
        taken_bases.insert(base);
        bases[nt] = base;
        for &(state, target) in exceptions {
            let slot = (base + i32::from(state)) as usize;
            if slots.len() <= slot {
                slots.resize(slot + 1, None);
            }
            slots[slot] = Some((state, target));
        }
    }
    let list = |items: Vec<String>| items.join(", ");
    let defaults = list(rows.iter().map(|row| row.default.to_string()).collect());
    let bases = list(bases.iter().map(i32::to_string).collect());
    // An empty slot's owner, -1, is no state.
    let slots = list(
        slots
            .iter()
            .map(|slot| {
                let (owner, target) = slot.unwrap_or((-1, 0));
                format!("({owner}, {target})")
            })
            .collect(),
    );
    let lookup = format!(
        "        // Rewritten by build.rs (`table_driven_goto`).\n        \
        let slot = (__GOTO_BASE[nt] + i32::from(state)) as usize;\n        \
        match {GOTO_TABLES}.get(slot) {{\n            \
        Some(&(owner, target)) if owner == state => target,\n            \
        _ => __GOTO_DEFAULT[nt],\n        \
        }}"
    );
    let tables = format!(
        "    static __GOTO_DEFAULT: &[i16] = &[{defaults}];\n    \
        static __GOTO_BASE: &[i32] = &[{bases}];\n    \
        static {GOTO_TABLES}: &[(i16, i16)] = &[{slots}];\n"
    );
    (lookup, tables)
}

#[cfg(test)]
mod tests {
    use super::{goto_rows, table_driven_goto, GOTO_FN, GOTO_TABLES};

    /// A goto `match` as LALRPOP 0.23.2 writes it: a nonterminal with one target, one with
    /// exceptions by state, and the rest 0.
    fn parser() -> String {
        format!(
            "{GOTO_FN}        match nt {{
            0 => 5,
            2 => match state {{
                1 | 3..=4 => 7,
                _ => 9,
            }},
            _ => 0,
        }}
    }}
    fn __after() {{}}
"
        )
    }

    #[test]
    fn the_goto_match_is_read_row_by_row() {
        let parser = parser();
        let body = &parser[GOTO_FN.len()..parser.find("\n    }\n").expect("the function ends")];
        let rows = goto_rows(body).expect("the match has LALRPOP's shape");
        assert_eq!(rows.len(), 3);
        assert_eq!((rows[0].default, rows[0].exceptions.len()), (5, 0));
        assert_eq!((rows[1].default, rows[1].exceptions.len()), (0, 0));
        assert_eq!(rows[2].default, 9);
        assert_eq!(rows[2].exceptions, [(1, 7), (3, 7), (4, 7)]);
    }

    #[test]
    fn the_goto_match_becomes_a_table_lookup_once() {
        let (rewritten, done) = table_driven_goto(&parser());
        assert_eq!(done, 1);
        assert!(rewritten.contains(GOTO_TABLES));
        assert!(rewritten.contains(&format!("    #[inline(always)]\n{GOTO_FN}")));
        assert!(rewritten.ends_with("    fn __after() {}\n"));
        assert!(!rewritten.contains("match nt {"));
        assert_eq!(table_driven_goto(&rewritten), (rewritten.clone(), 1));
    }

    #[test]
    fn a_match_of_another_shape_is_left_alone() {
        let other = parser().replace("1 | 3..=4 => 7", "s if s > 2 => 7");
        assert_eq!(table_driven_goto(&other), (other.clone(), 0));
    }
}
