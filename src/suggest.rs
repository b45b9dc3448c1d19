//! "Did you mean ...?": the word among some candidates that a word is most likely a slip of
//! the keyboard for.

use std::borrow::Cow;
use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};

/// The number of edits between `a` and `b`, compared without regard to case: a letter added,
/// dropped, changed, or swapped with its neighbour (`GROPU` is one edit from `GROUP`).
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().map(|c| c.to_ascii_lowercase()).collect();
    let b: Vec<char> = b.chars().map(|c| c.to_ascii_lowercase()).collect();
    // Three rows of the table: two rows back (for a swap), the last, and the one being filled.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut last: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut row = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let change = usize::from(a[i - 1] != b[j - 1]);
            row[j] = (last[j] + 1).min(row[j - 1] + 1).min(last[j - 1] + change);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                row[j] = row[j].min(before[j - 2] + 1);
            }
        }
        before = std::mem::replace(&mut last, row);
    }
    last[b.len()]
}

/// The edits a word of `len` characters may be from the word meant: one for a short word, two
/// from six letters on. Words of two letters or fewer are too short to guess at.
fn edits_allowed(len: usize) -> usize {
    match len {
        0..=2 => 0,
        3..=5 => 1,
        _ => 2,
    }
}

/// Whether two names differ in their digits only (`orders_v1`, `orders_v2`): versions of one
/// name, not a slip.
fn versions(a: &str, b: &str) -> bool {
    let letters = |s: &str| {
        s.chars()
            .filter(|c| !c.is_ascii_digit())
            .map(|c| c.to_ascii_lowercase())
            .collect::<String>()
    };
    a.chars().any(|c| c.is_ascii_digit()) && letters(a) == letters(b)
}

/// Names indexed by their forms (the name, and the name with any one character left out), so
/// that the names one slip from a word (one edit: a character added, dropped or changed, or two
/// neighbours swapped) are found among those that share a form with it. A name shares a form
/// only with the names that differ from that form by one character, so each look-up reads a few
/// names, however many there are and however many have the word's length.
pub(crate) struct NearNames<'n> {
    names: Vec<&'n str>,
    /// Each name folded to lower case, by index.
    folded: Vec<Cow<'n, str>>,
    /// The names by each of their forms, hashed (a collision only costs a comparison).
    by_form: HashMap<u64, Vec<u32>>,
    /// Keys drawn at random, so that no input can be made of colliding forms.
    hashes: RandomState,
}

impl<'n> NearNames<'n> {
    pub(crate) fn new(names: impl IntoIterator<Item = &'n str>) -> Self {
        let names: Vec<&str> = names.into_iter().collect();
        let folded: Vec<Cow<str>> = names.iter().map(|n| fold(n)).collect();
        let mut near = NearNames {
            names,
            folded: Vec::new(),
            by_form: HashMap::new(),
            hashes: RandomState::new(),
        };
        for (i, name) in folded.iter().enumerate() {
            for form in forms(&near.hashes, name) {
                let indexed = near.by_form.entry(form).or_default();
                // A name with a doubled letter has one form twice.
                if indexed.last() != Some(&(i as u32)) {
                    indexed.push(i as u32);
                }
            }
        }
        near.folded = folded;
        near
    }

    /// The first name (in the order given) one edit from `word` that is not a version of it;
    /// none where `word` is a name itself.
    pub(crate) fn near(&self, word: &str) -> Option<&'n str> {
        let word = fold(word);
        let mut found: Option<usize> = None;
        for form in forms(&self.hashes, &word) {
            for &i in self.by_form.get(&form).into_iter().flatten() {
                let i = i as usize;
                let name = &self.folded[i];
                if *name == word {
                    return None;
                }
                if found.map_or(true, |f| i < f)
                    && one_edit_apart(&word, name)
                    && !versions(&word, name)
                {
                    found = Some(i);
                }
            }
        }
        found.map(|i| self.names[i])
    }
}

/// The hashes of `word` and of each form of it with one character left out.
fn forms<'w>(hashes: &'w RandomState, word: &'w str) -> impl Iterator<Item = u64> + 'w {
    // The parts of a form written one after the other hash as the form would.
    let hash = move |parts: [&str; 2]| {
        let mut hasher = hashes.build_hasher();
        parts.iter().for_each(|part| hasher.write(part.as_bytes()));
        hasher.finish()
    };
    let parts = word
        .char_indices()
        .map(move |(at, c)| hash([&word[..at], &word[at + c.len_utf8()..]]));
    std::iter::once(hash([word, ""])).chain(parts)
}

/// `text` in lower case (ASCII letters only, as names compare), without a copy where it is.
fn fold(text: &str) -> Cow<'_, str> {
    match text.bytes().any(|b| b.is_ascii_uppercase()) {
        true => Cow::Owned(text.to_ascii_lowercase()),
        false => Cow::Borrowed(text),
    }
}

/// Whether `a` and `b` (folded) are one edit apart, as [`edit_distance`] counts.
fn one_edit_apart(a: &str, b: &str) -> bool {
    if a.is_ascii() && b.is_ascii() {
        apart(a.as_bytes(), b.as_bytes())
    } else {
        apart(
            &a.chars().collect::<Vec<_>>(),
            &b.chars().collect::<Vec<_>>(),
        )
    }
}

/// Whether two sequences are one edit apart: one item added, dropped or changed, or two
/// neighbours swapped, at the first difference, and the rest equal.
fn apart<T: PartialEq>(a: &[T], b: &[T]) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    let start = short.iter().zip(long).take_while(|(x, y)| x == y).count();
    match long.len() - short.len() {
        0 => {
            start < short.len()
                && (short[start + 1..] == long[start + 1..]
                    || start + 1 < short.len()
                        && short[start] == long[start + 1]
                        && short[start + 1] == long[start]
                        && short[start + 2..] == long[start + 2..])
        }
        1 => short[start..] == long[start + 1..],
        _ => false,
    }
}

/// The candidate `word` is most likely a slip for: the nearest within the edits its length
/// allows, the first of the nearest on a tie; none where a candidate is `word` itself (in any
/// case), as then it is no slip.
pub(crate) fn closest<'c>(
    word: &str,
    candidates: impl IntoIterator<Item = &'c str>,
) -> Option<&'c str> {
    let allowed = edits_allowed(word.chars().count());
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        let distance = edit_distance(word, candidate);
        if distance == 0 {
            return None;
        }
        if distance <= allowed && best.map_or(true, |(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, candidate)| candidate)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_count_a_swap_as_one() {
        assert_eq!(edit_distance("GROPU", "group"), 1);
        assert_eq!(edit_distance("creat", "CREATE"), 1);
        assert_eq!(edit_distance("form", "from"), 1);
        assert_eq!(edit_distance("ordres", "orders"), 1);
        assert_eq!(edit_distance("silver_orders", "gold_orders"), 5);
        assert_eq!(edit_distance("", "abc"), 3);
    }

    #[test]
    fn the_closest_is_within_what_the_length_allows() {
        let keywords = ["CREATE", "SELECT", "FROM", "GROUP", "ORDER"];
        assert_eq!(closest("CREAT", keywords), Some("CREATE"));
        assert_eq!(closest("GROPU", keywords), Some("GROUP"));
        assert_eq!(closest("FORM", keywords), Some("FROM"));
        assert_eq!(
            closest("orders_v2", ["orders_v1", "customers"]),
            Some("orders_v1")
        );
        // Near misses: too far, too short, or the word itself.
        assert_eq!(closest("SECRET", ["SELECT"]), None);
        assert_eq!(closest("BY", ["MY"]), None);
        assert_eq!(closest("orders", ["ORDERS", "order"]), None);
    }

    #[test]
    fn one_edit_apart_agrees_with_the_edit_distance() {
        let words = [
            "orders", "ordres", "order", "orderss", "xorders", "Orders", "odrers", "ordersx",
            "sredro", "", "o",
        ];
        for a in words {
            for b in words {
                let (a, b) = (fold(a), fold(b));
                assert_eq!(
                    one_edit_apart(&a, &b),
                    edit_distance(&a, &b) == 1,
                    "{a} {b}"
                );
            }
        }
    }

    #[test]
    fn near_names_are_one_edit_away_and_not_versions() {
        let names = ["orders", "customers", "orders_v2", "daily_totals"];
        let near = NearNames::new(names);
        assert_eq!(near.near("ordres"), Some("orders"));
        assert_eq!(near.near("order"), Some("orders"));
        assert_eq!(near.near("orderss"), Some("orders"));
        assert_eq!(near.near("customer"), Some("customers"));
        assert_eq!(near.near("daily_total"), Some("daily_totals"));
        // Near misses: a name itself, a version of one, or two edits away.
        assert_eq!(near.near("orders"), None);
        assert_eq!(near.near("orders_v3"), None);
        assert_eq!(near.near("ordrs_x"), None);
        assert_eq!(near.near("raw.orders"), None);
    }
}
