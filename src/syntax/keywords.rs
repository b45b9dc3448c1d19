//! THE keyword table: every word the grammar knows as a terminal, with its class, in one place.
//!
//! The lexer's keyword tokens (their variants of `Tok`, their spellings and how messages name
//! them), the grammar's terminals and its rules for words used as names (`grammar/pipeline.lalrpop`
//! takes them from here at build time: see `build/keywords.rs`), and the lists with which
//! "expected ..." messages and the second look tell names from keywords all come from this
//! table. Adding a keyword is adding a row.
//!
//! The rows are in the order of the grammar's terminals, which is the order in which "expected
//! one of: ..." messages list them. This file is also compiled into the build script, so it
//! stands alone: data and `const fn`s only.

/// Where a word may be a name. Spark takes almost every keyword as a name (its reserved words
/// are enforced only in a mode that is off by default); an LALR(1) grammar takes a keyword as a
/// name only where that leaves no choice open for one token of look-ahead. A word that the
/// grammar does not take where Spark does is read as a name on a second look.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// A name only after `.` or AS (`t.from`, `x AS select`): the word opens an operand or a
    /// clause wherever a name may stand (CASE, DISTINCT, FROM, SELECT, ...).
    Reserved,
    /// A name wherever a name stands, but no implicit alias (`FROM t join` stays a join): the
    /// words that may follow a relation or a select item (AND, JOIN, ORDER, WHERE, ...).
    ReservedName,
    /// A name wherever a name stands but no implicit alias (a clause word such as QUALIFY or
    /// WINDOW, or a word that may follow a relation such as TABLESAMPLE or PIVOT).
    Name,
    /// A name, also as an implicit alias (`SELECT a date FROM t`).
    Alias,
    /// An implicit alias except after a CHANGES clause, whose bound may end in INCLUSIVE or
    /// EXCLUSIVE, and after `STREAM name`, where CHANGES opens the change feed.
    AliasUnlessChanges,
    /// An implicit alias except after the grouping of `|> AGGREGATE`, where GROUPING opens
    /// GROUPING SETS.
    AliasUnlessGrouping,
    /// A name only where the grammar's own rules for the word say: ONCE, SNAPSHOT, STREAM and
    /// LATERAL, each a name everywhere but where it opens its clause.
    OwnRules,
    /// No word: a token that the lexer makes from the words around it (`ROW FORMAT`, ANY after
    /// LIKE, ...) or `!`. Its variant is written in the lexer; it is listed here only for its
    /// place among the grammar's terminals.
    MadeByLexer,
}

/// One row of the table. (The crate reads its classes; the build script also reads its variant
/// and spellings, to write the lexer's tokens.)
#[derive(Debug, Clone, Copy)]
#[cfg_attr(not(test), allow(dead_code))]
pub struct Keyword {
    /// The token's variant of `Tok`.
    pub variant: &'static str,
    /// The word in lower case, which is also the grammar's terminal (`"select"`); for a token
    /// made by the lexer, the grammar's terminal.
    pub word: &'static str,
    /// Where the word may be a name.
    pub class: Class,
    /// Spark takes the word as a name but never as a relation's alias, even after AS (its
    /// `strictNonReserved`): the words that open a join or a set operation.
    pub strict: bool,
    /// Another spelling of the same keyword (`TEMP` for `TEMPORARY`).
    pub or: Option<&'static str>,
}

impl Keyword {
    /// A name but no relation's alias (see [`Keyword::strict`]).
    pub const fn strict(self) -> Self {
        Keyword {
            strict: true,
            ..self
        }
    }

    /// The keyword with another spelling.
    pub const fn or(self, spelling: &'static str) -> Self {
        Keyword {
            or: Some(spelling),
            ..self
        }
    }

    /// Whether the lexer makes this token from a word (not from its neighbours).
    pub const fn is_word(&self) -> bool {
        !matches!(self.class, Class::MadeByLexer)
    }

    /// Whether the grammar takes the word as a name wherever it takes an identifier (the
    /// keywords that "expected ..." messages fold into "identifier").
    pub const fn is_non_reserved(&self) -> bool {
        match self.class {
            Class::Name | Class::Alias | Class::AliasUnlessChanges | Class::AliasUnlessGrouping => {
                true
            }
            // LATERAL opens a lateral subquery where a table's first name stands.
            Class::OwnRules => !self.strict,
            Class::Reserved | Class::ReservedName | Class::MadeByLexer => false,
        }
    }
}

const fn word(variant: &'static str, word: &'static str, class: Class) -> Keyword {
    Keyword {
        variant,
        word,
        class,
        strict: false,
        or: None,
    }
}

const fn made_by_lexer(variant: &'static str, terminal: &'static str) -> Keyword {
    word(variant, terminal, Class::MadeByLexer)
}

use Class::*;

/// Every keyword, in the order of the grammar's terminals.
pub const KEYWORDS: &[Keyword] = &[
    word("All", "all", Reserved),
    word("Always", "always", Alias),
    word("And", "and", ReservedName),
    word("Anti", "anti", Name).strict(),
    word("Any", "any", Name),
    word("Apply", "apply", Name),
    word("Array", "array", Alias),
    word("As", "as", Reserved),
    word("Asc", "asc", Name),
    word("Auto", "auto", Alias),
    word("Between", "between", Reserved),
    word("By", "by", ReservedName),
    word("Case", "case", Reserved),
    word("Cast", "cast", Reserved),
    word("Catalog", "catalog", Alias),
    word("Cdc", "cdc", Alias),
    word("Changes", "changes", AliasUnlessChanges),
    word("Cluster", "cluster", Name),
    word("Columns", "columns", Name),
    word("Comment", "comment", Alias),
    word("Constraint", "constraint", Reserved),
    word("Create", "create", ReservedName),
    word("Cross", "cross", ReservedName).strict(),
    word("Database", "database", Alias),
    word("Date", "date", Alias),
    word("Default", "default", Alias),
    word("Delete", "delete", Alias),
    word("Desc", "desc", Name),
    word("Distinct", "distinct", Reserved),
    word("Div", "div", Name),
    word("Drop", "drop", Alias),
    word("Else", "else", ReservedName),
    word("End", "end", ReservedName),
    word("Escape", "escape", Name),
    word("Except", "except", ReservedName).strict(),
    word("Exists", "exists", Reserved),
    word("Expect", "expect", Alias),
    word("Fail", "fail", Alias),
    word("False", "false", Reserved),
    word("Filter", "filter", Name),
    word("First", "first", Alias),
    word("Flow", "flow", Alias),
    word("Foreign", "foreign", ReservedName),
    word("From", "from", Reserved),
    word("Full", "full", ReservedName).strict(),
    word("Generated", "generated", Alias),
    word("Group", "group", ReservedName),
    word("Having", "having", ReservedName),
    word("History", "history", Alias),
    word("Identity", "identity", Alias),
    word("If", "if", Alias),
    word("Ignore", "ignore", Name),
    word("Ilike", "ilike", ReservedName),
    word("In", "in", ReservedName),
    word("Increment", "increment", Alias),
    word("Incremental", "incremental", Alias),
    word("Inner", "inner", ReservedName).strict(),
    word("Insert", "insert", Alias),
    word("Intersect", "intersect", ReservedName).strict(),
    word("Interval", "interval", Reserved),
    word("Into", "into", ReservedName),
    word("Is", "is", ReservedName),
    word("Join", "join", ReservedName).strict(),
    word("Key", "key", Alias),
    word("Keys", "keys", Name),
    word("Last", "last", Alias),
    word("Lateral", "lateral", OwnRules).strict(),
    word("Left", "left", Name).strict(),
    word("Like", "like", ReservedName),
    word("Limit", "limit", ReservedName),
    word("Live", "live", Alias),
    word("Location", "location", Alias),
    word("Map", "map", Alias),
    word("Mask", "mask", Alias),
    word("Materialized", "materialized", Alias),
    word("Minus", "minus", ReservedName).strict(),
    word("Name", "name", Alias),
    word("Namespace", "namespace", Alias),
    word("Natural", "natural", ReservedName).strict(),
    word("None", "none", Alias),
    word("Not", "not", Reserved),
    word("Null", "null", Reserved),
    word("Nulls", "nulls", Alias),
    word("Offset", "offset", ReservedName),
    word("On", "on", ReservedName).strict(),
    word("Once", "once", OwnRules),
    word("Or", "or", ReservedName),
    word("Order", "order", ReservedName),
    word("Outer", "outer", ReservedName),
    word("Partitioned", "partitioned", Alias),
    word("Primary", "primary", ReservedName),
    word("Private", "private", Alias),
    word("References", "references", ReservedName),
    word("Refresh", "refresh", Alias),
    word("Regexp", "regexp", Reserved),
    word("Replace", "replace", Alias),
    word("Right", "right", Name).strict(),
    word("Rlike", "rlike", Reserved),
    word("Row", "row", Alias),
    word("Scd", "scd", Alias),
    word("Schema", "schema", Alias),
    word("Select", "select", Reserved),
    word("Semi", "semi", Name).strict(),
    word("Sequence", "sequence", Name),
    word("Set", "set", Alias),
    word("Snapshot", "snapshot", OwnRules),
    word("Some", "some", Name),
    word("Start", "start", Alias),
    word("Stored", "stored", Name),
    word("Stream", "stream", OwnRules),
    word("Streaming", "streaming", Alias),
    word("Struct", "struct", Alias),
    word("Table", "table", Reserved),
    word("Tblproperties", "tblproperties", Alias),
    word("Temporary", "temporary", Alias).or("temp"),
    word("Then", "then", ReservedName),
    word("Timestamp", "timestamp", Alias),
    word("TimestampNtz", "timestamp_ntz", Alias),
    word("To", "to", ReservedName),
    word("Track", "track", Name),
    word("True", "true", Reserved),
    word("Truncate", "truncate", Alias),
    word("TryCast", "try_cast", Reserved),
    word("Type", "type", Alias),
    word("Union", "union", ReservedName).strict(),
    word("Update", "update", Alias),
    word("Updates", "updates", Alias),
    word("Use", "use", Alias),
    word("Using", "using", ReservedName).strict(),
    word("Values", "values", Reserved),
    word("Version", "version", Alias),
    word("View", "view", Alias),
    word("Violation", "violation", Alias),
    word("When", "when", Reserved),
    word("Where", "where", ReservedName),
    word("With", "with", Reserved),
    word("Current", "current", Alias),
    word("Following", "following", Alias),
    word("Over", "over", Name),
    word("Partition", "partition", Alias),
    word("Preceding", "preceding", Alias),
    word("Range", "range", Alias),
    word("Rows", "rows", Alias),
    word("Unbounded", "unbounded", Reserved),
    word("Cube", "cube", Reserved),
    word("Grouping", "grouping", AliasUnlessGrouping),
    word("Qualify", "qualify", Name),
    word("Watermark", "watermark", Name),
    word("Delay", "delay", Name),
    word("Rollup", "rollup", Reserved),
    word("Sets", "sets", ReservedName),
    word("TimestampLtz", "timestamp_ltz", Alias),
    word("Unknown", "unknown", Alias),
    word("Aggregate", "aggregate", Alias),
    word("Extend", "extend", Alias),
    word("Recursive", "recursive", Alias),
    word("Exclude", "exclude", Alias),
    word("Include", "include", Alias),
    word("Unpivot", "unpivot", Name),
    word("Pivot", "pivot", Name),
    word("SystemVersion", "system_version", Alias),
    word("SystemTime", "system_time", Alias),
    word("Of", "of", Alias),
    word("Out", "out", Alias),
    made_by_lexer("Bucket", "BUCKET after TABLESAMPLE ("),
    word("PercentKw", "percent", Alias),
    word("Repeatable", "repeatable", Name),
    word("Tablesample", "tablesample", Name),
    word("Collate", "collate", Name),
    word("For", "for", Reserved),
    word("Placing", "placing", Reserved),
    word("Trailing", "trailing", Reserved),
    word("Leading", "leading", Reserved),
    word("Both", "both", Reserved),
    made_by_lexer("IgnoreNulls", "ignore nulls"),
    made_by_lexer("Bang", "!"),
    made_by_lexer("LikeAny", "ANY after LIKE"),
    made_by_lexer("PositionIn", "IN inside POSITION"),
    made_by_lexer("ValuesAfterIn", "VALUES after IN ("),
    made_by_lexer("UnitTo", "TO after a unit"),
    made_by_lexer("LikeSome", "SOME after LIKE"),
    made_by_lexer("LikeAll", "ALL after LIKE"),
    made_by_lexer("IgnoreNullsParen", "ignore nulls )"),
    made_by_lexer("RowFormat", "ROW FORMAT"),
    made_by_lexer("BinBy", "BIN BY"),
    made_by_lexer("IdentifiedBy", "IDENTIFIED BY"),
    made_by_lexer("ExactNearest", "EXACT NEAREST"),
    made_by_lexer("ApproxNearest", "APPROX NEAREST"),
    made_by_lexer("WithLocal", "WITH LOCAL"),
    made_by_lexer("WithoutTime", "WITHOUT TIME"),
    word("Inclusive", "inclusive", AliasUnlessChanges),
    word("Exclusive", "exclusive", AliasUnlessChanges),
    word("Within", "within", Name),
    word("Respect", "respect", Name),
    word("Distribute", "distribute", Name),
    word("Sort", "sort", Name),
    word("Window", "window", Name),
    word("Enforced", "enforced", Alias),
    word("Rely", "rely", Alias),
    word("Norely", "norely", Alias),
    word("Deferrable", "deferrable", Alias),
    word("Initially", "initially", Alias),
    word("Deferred", "deferred", Alias),
    word("Timeseries", "timeseries", Alias),
    word("Match", "match", Alias),
    word("Action", "action", Alias),
    word("No", "no", Alias),
    word("Collation", "collation", Alias),
];

/// The words of `class` (`is_non_reserved`, or reserved names) in capitals and sorted, as
/// "expected ..." messages name them: for a binary search.
fn capitals(select: fn(&Keyword) -> bool) -> Vec<String> {
    let mut words: Vec<String> = KEYWORDS
        .iter()
        .filter(|k| select(k))
        .map(|k| k.word.to_ascii_uppercase())
        .collect();
    words.sort();
    words
}

/// The keywords that the grammar takes as names wherever it takes an identifier, in capitals
/// and sorted.
pub fn non_reserved() -> &'static [String] {
    static WORDS: std::sync::LazyLock<Vec<String>> =
        std::sync::LazyLock::new(|| capitals(Keyword::is_non_reserved));
    &WORDS
}

/// The reserved words that are names too ([`Class::ReservedName`]), in capitals and sorted.
pub fn reserved_names() -> &'static [String] {
    static WORDS: std::sync::LazyLock<Vec<String>> =
        std::sync::LazyLock::new(|| capitals(|k| k.class == Class::ReservedName));
    &WORDS
}

/// Whether Spark refuses `word` (any case) as a relation's alias, even after AS (see
/// [`Keyword::strict`]).
pub fn is_strict(word: &str) -> bool {
    KEYWORDS
        .iter()
        .any(|k| k.strict && k.word.eq_ignore_ascii_case(word))
}

/// Whether `text` is spelt as a keyword is: letters and underscores only.
pub fn is_word(text: &str) -> bool {
    text.bytes().all(|b| b.is_ascii_alphabetic() || b == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The dictionary the fuzz targets run with (`fuzz/sql.dict`): every keyword's spellings,
    /// the grammar's punctuation and `-- noqa`, so that mutations make tokens rather than noise. It is
    /// written from the table with `UPDATE_DOCS=1`.
    #[test]
    fn the_fuzz_dictionary_has_every_keyword_and_punctuation() {
        let root = env!("CARGO_MANIFEST_DIR");
        let grammar = std::fs::read_to_string(format!("{root}/grammar/pipeline.lalrpop")).unwrap();
        let mut entries: Vec<String> = KEYWORDS
            .iter()
            .filter(|k| k.is_word())
            .flat_map(|k| std::iter::once(k.word).chain(k.or))
            .map(|word| word.to_ascii_uppercase())
            .collect();
        // The terminals of the grammar's token list that are no words: `"::" => Tok::...`.
        entries.extend(grammar.lines().filter_map(|line| {
            let (terminal, _) = line.trim().strip_prefix('"')?.split_once("\" => Tok::")?;
            (!terminal.bytes().any(|b| b.is_ascii_alphabetic())).then(|| terminal.to_string())
        }));
        entries.extend(["${", "--", "*/", "'", "`", "\n"].map(String::from));
        // The checker's own comment directive.
        entries.extend(["-- noqa", "-- noqa: "].map(String::from));
        entries.sort();
        entries.dedup();
        // libFuzzer's escapes: `\\`, `\"` and `\xNN`.
        let escaped = |entry: &String| -> String {
            entry
                .bytes()
                .map(|b| match b {
                    b'"' | b'\\' => format!("\\{}", b as char),
                    b' '..=b'~' => (b as char).to_string(),
                    _ => format!("\\x{b:02X}"),
                })
                .collect()
        };
        let dictionary: String = entries
            .iter()
            .map(|entry| format!("\"{}\"\n", escaped(entry)))
            .collect();
        let path = format!("{root}/fuzz/sql.dict");
        if std::env::var_os("UPDATE_DOCS").is_some() {
            std::fs::write(&path, &dictionary).unwrap();
        }
        assert_eq!(
            std::fs::read_to_string(&path).unwrap_or_default(),
            dictionary,
            "{path} is out of date: run the test with UPDATE_DOCS=1"
        );
    }
}
