//! The value of a string literal as Spark reads it: quotes removed and escapes resolved. On the
//! ground floor, as both the lexer (which reads `IDENTIFIER('...')`) and the tree (a string's
//! value) need it.

/// The value of one string literal token (see `ast::StringLit::value`).
pub(crate) fn string_value(raw: &str) -> String {
    let (is_raw, body) = match raw.as_bytes().first() {
        Some(b'r' | b'R') => (true, &raw[1..]),
        Some(b'x' | b'X') => (true, &raw[1..]),
        _ => (false, raw),
    };
    let inner = body.get(1..body.len().saturating_sub(1)).unwrap_or("");
    if is_raw || !inner.contains('\\') {
        return inner.to_string();
    }
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        // `\101` (up to `\177`): an octal character code.
        let octal = chars.as_str().as_bytes();
        if let [first @ b'0'..=b'1', second @ b'0'..=b'7', third @ b'0'..=b'7', ..] = *octal {
            out.push(char::from(
                (first - b'0') * 64 + (second - b'0') * 8 + (third - b'0'),
            ));
            chars.nth(2);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('b') => out.push('\u{8}'),
            Some('0') => out.push('\0'),
            Some('Z') => out.push('\u{1a}'),
            // LIKE's escapes stay escaped.
            Some(wildcard @ ('%' | '_')) => {
                out.push('\\');
                out.push(wildcard);
            }
            Some(u @ ('u' | 'U')) => {
                let digits = if u == 'u' { 4 } else { 8 };
                let hex = chars.as_str().get(..digits).unwrap_or("");
                let code = hex.bytes().all(|b| b.is_ascii_hexdigit()).then_some(hex);
                match code
                    .and_then(|hex| u32::from_str_radix(hex, 16).ok())
                    .and_then(char::from_u32)
                {
                    Some(ch) if hex.len() == digits => {
                        out.push(ch);
                        chars.nth(digits - 1);
                    }
                    _ => out.push(u),
                }
            }
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::string_value;

    #[test]
    fn string_values() {
        assert_eq!(string_value(r"'it\'s'"), "it's");
        assert_eq!(string_value(r#""a\nb""#), "a\nb");
        assert_eq!(string_value(r"r'C:\dir'"), r"C:\dir");
        assert_eq!(string_value("X'1F'"), "1F");
        assert_eq!(string_value(r"'\u0041'"), "A");
        // As Spark reads them (each checked with Spark 4.3).
        assert_eq!(string_value(r"'\012\101\177'"), "\nA\u{7f}");
        assert_eq!(string_value(r"'\200\12\08'"), "20012\u{0}8");
        assert_eq!(string_value(r"'\U0001F600\U0001F60'"), "\u{1F600}U0001F60");
        assert_eq!(string_value(r"'\u00\u+041'"), "u00u+041");
        assert_eq!(string_value(r"'a\%b\_c\q'"), r"a\%b\_cq");
    }
}
