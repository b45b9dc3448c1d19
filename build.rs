//! Runs LALRPOP over `grammar/` and writes the generated parser into `OUT_DIR`, then elides the
//! stack traffic of the grammar's pass-through unit reductions (see [`elide_unit_reductions`]),
//! moves its fallible reductions out of the reduce dispatcher (see
//! [`outline_fallible_reductions`]), widens the tag of its value enum (see
//! [`word_sized_symbol_tag`]), pops copied values without dropping their symbol (see
//! [`forget_copied_symbols`]), ends spans with their last token (see [`attach_empty_symbols`]),
//! inlines the per-token conversions into the driving loop (see [`inline_token_conversions`]),
//! and looks up the state after each reduction in a table (see [`table_driven_goto`]).
use std::collections::HashSet;
use std::path::Path;

#[path = "build/keywords.rs"]
mod keywords;
// The crate uses the parts of the table that the build script does not.
#[allow(dead_code)]
#[path = "src/syntax/keywords.rs"]
mod keyword_table;

fn main() {
    for input in ["grammar", "build", "build.rs", "src/syntax/keywords.rs"] {
        println!("cargo:rerun-if-changed={input}");
    }
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR for build scripts");
    let out = Path::new(&out_dir);

    // The grammar with its keyword rules written from the keyword table, and the lexer's
    // keyword tokens; each file is written only when it changes, so that LALRPOP and rustc see
    // an unchanged input as unchanged.
    let grammar =
        std::fs::read_to_string("grammar/pipeline.lalrpop").expect("the grammar is there");
    let grammar_dir = out.join("grammar");
    std::fs::create_dir_all(&grammar_dir).expect("OUT_DIR is writable");
    write_if_changed(
        &grammar_dir.join("pipeline.lalrpop"),
        &keywords::expand_grammar(&grammar),
    );
    write_if_changed(
        &out.join("keyword_tokens.rs"),
        &keywords::token_declarations(),
    );

    lalrpop::Configuration::new()
        .set_in_dir(&grammar_dir)
        .set_out_dir(out)
        .emit_rerun_directives(false)
        .process()
        .expect("LALRPOP failed to generate the parser");

    let parser = Path::new(&out_dir).join("pipeline.rs");
    let generated = std::fs::read_to_string(&parser).expect("LALRPOP wrote the parser");
    let (elided, count) = elide_unit_reductions(&generated);
    let (outlined, outlined_count) = outline_fallible_reductions(&elided);
    let (tagged, word_tagged) = word_sized_symbol_tag(&outlined);
    let (forgotten, forgotten_count) = forget_copied_symbols(&tagged);
    let (attached_parser, attached) = attach_empty_symbols(&forgotten);
    let (inlined_parser, inlined) = inline_token_conversions(&attached_parser);
    let (goto_parser, goto_table) = table_driven_goto(&inlined_parser);
    let rewritten = expected_tokens_on_request(&goto_parser);
    if rewritten != generated {
        std::fs::write(&parser, rewritten).expect("the parser can be rewritten");
    }
    // Tests check both, so a LALRPOP upgrade that changes the generated code cannot silently
    // turn the optimizations off.
    println!("cargo:rustc-env=PIPELINE_SQL_ELIDED_REDUCTIONS={count}");
    println!("cargo:rustc-env=PIPELINE_SQL_OUTLINED_REDUCTIONS={outlined_count}");
    println!("cargo:rustc-env=PIPELINE_SQL_WORD_SIZED_SYMBOL_TAG={word_tagged}");
    println!("cargo:rustc-env=PIPELINE_SQL_FORGOTTEN_SYMBOL_POPS={forgotten_count}");
    println!("cargo:rustc-env=PIPELINE_SQL_ATTACHED_EMPTY_SYMBOLS={attached}");
    println!("cargo:rustc-env=PIPELINE_SQL_INLINED_TOKEN_CONVERSIONS={inlined}");
    println!("cargo:rustc-env=PIPELINE_SQL_TABLE_DRIVEN_GOTO={goto_table}");
}

const EXPECTED_FROM_STATES: &str = "        fn expected_tokens_from_states(&self, states: &[i16]) -> alloc::vec::Vec<alloc::string::String> {\n";
const ON_REQUEST: &str =
    "            if !crate::syntax::expected_tokens_wanted() { return alloc::vec::Vec::new(); }\n";
const SIMULATED_ACCEPTS: &str =
    "            if __accepts(None, __states, Some(index), core::marker::PhantomData::<(&())>) {\n";
const TOP_STATE_FIRST: &str = "            let __top = __states[__states.len() - 1];\n            let __first = __action(__top, index);\n            if __first > 0 || __first < 0 && __accepts(None, __states, Some(index), core::marker::PhantomData::<(&())>) {\n";

/// On every syntax error LALRPOP lists the terminals that could have come instead, by
/// simulating the parse of each of the grammar's 250 terminals from the error's states: that
/// made a statement with a syntax error cost 60 to 130 times a valid one, mostly in the second
/// looks' attempts, which only need where a reading fails. Here the list is made only when the
/// parser glue asks for it (`parser::expected_tokens_wanted`), for the one error that is
/// reported. And that list is made with the top state's action first: most terminals are an
/// error there, and LALRPOP's simulation (`__accepts`) copies the state stack before it looks.
/// Panics when LALRPOP no longer writes the code this pass rewrites.
fn expected_tokens_on_request(parser: &str) -> String {
    let mut parser = parser.to_string();
    // LALRPOP leaves a parser that is up to date alone, so an earlier build may have done either.
    for (anchor, replacement) in [
        (
            EXPECTED_FROM_STATES,
            format!("{EXPECTED_FROM_STATES}{ON_REQUEST}"),
        ),
        (SIMULATED_ACCEPTS, TOP_STATE_FIRST.to_string()),
    ] {
        if parser.contains(&replacement) {
            continue;
        }
        assert!(
            parser.matches(anchor).count() == 1,
            "expected_tokens_on_request: LALRPOP's expected_tokens_from_states has changed"
        );
        parser = parser.replacen(anchor, &replacement, 1);
    }
    parser
}

/// Writes `text` to `path` unless the file already holds it.
fn write_if_changed(path: &Path, text: &str) {
    if std::fs::read_to_string(path).ok().as_deref() != Some(text) {
        std::fs::write(path, text).expect("OUT_DIR is writable");
    }
}

/// The functions that turn each token into its terminal's number and into a stack value.
const TOKEN_CONVERSIONS: [&str; 4] = [
    "fn token_to_index(&self,",
    "fn token_to_symbol(&self,",
    "fn __token_to_integer<",
    "fn __token_to_symbol<",
];
const INLINE_ALWAYS: &str = "#[inline(always)]";

/// Every token goes through LALRPOP's `token_to_index`, `token_to_symbol` and
/// `token_to_integer`, and left to itself the compiler calls them, so each token's 40-byte value
/// is stored and read back on the way into the stack. Forced inline, parsing ran 1.5% fewer
/// instructions and 2.5% less time (callgrind, and a timing loop over the same corpus with the
/// two builds alternated); `token_to_index`, which LALRPOP only marks `#[inline]`, with the
/// nesting guard's per-token check (`NestingGuard::admit`) inlined too, another 2.3% fewer
/// instructions (316.7M to 309.3M per parse of the bench corpus). Returns the parser and
/// how many of the four functions are inlined (also when an earlier build already rewrote the
/// file).
fn inline_token_conversions(parser: &str) -> (String, usize) {
    let mut out = String::with_capacity(parser.len() + 64);
    let mut inlined = 0;
    let mut previous = "";
    for line in parser.split_inclusive('\n') {
        let code = line.trim_start();
        if TOKEN_CONVERSIONS.iter().any(|head| code.starts_with(head)) {
            // LALRPOP's own `#[inline]` (on `token_to_index`) gives way to the forced one.
            if previous.trim() == "#[inline]" {
                out.truncate(out.len() - previous.len());
            }
            if previous.trim() != INLINE_ALWAYS {
                out.push_str(&line[..line.len() - code.len()]);
                out.push_str(INLINE_ALWAYS);
                out.push('\n');
            }
            inlined += 1;
        }
        out.push_str(line);
        previous = line;
    }
    (out, inlined)
}

/// LALRPOP places an empty symbol (a clause left out, an absent `x?`) where the next token
/// starts, so a production that ends in one ends there too: past the spaces and comments after
/// its last token (LALRPOP issue 483), and in `SELECT a   ORDER BY a` the SELECT took the
/// spaces. Here each reduction first moves every empty symbol but a leading one to where the
/// symbol before it ends, so a node ends with its last token; a leading empty symbol keeps its
/// place, where the next token starts, so a node also starts with its first. Returns the parser
/// and how many reductions do this (also when an earlier build already rewrote the file).
fn attach_empty_symbols(parser: &str) -> (String, usize) {
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

/// The named `Copy` types that are values of the grammar (with references, tuples and `Option`s
/// of them, see [`is_copy_type`]). A type missing here only misses the rewrite of
/// [`forget_copied_symbols`]; a type listed here that is not `Copy` fails to compile.
const COPY_TYPES: &[&str] = &[
    "Tok",
    "Span",
    "bool",
    "usize",
    "BinaryOp",
    "UnaryOp",
    "CastKind",
    "FrameUnits",
    "JoinKind",
    "Keyword",
    "OrClause",
    "Visibility",
    "LikeKind",
    "NullTreatment",
    "Once",
    "PatternQuantifier",
    "RecursionLimit",
    "SampleKind",
    "SelectHead",
    "SetOperator",
    "SetQuantifier",
    "TrimSide",
    "ViolationAction",
    "QueryTail",
    "Ident",
    "StringLit",
    "Expr",
    "Literal",
];

/// LALRPOP pops a value off the symbol stack by matching the popped `(start, symbol, end)` by
/// value. When the value is `Copy` (a token, a `&str`, an arena reference, an `Expr`), the match
/// copies it out and then drops the whole symbol: a call of the enum's drop glue, a branch over
/// all its variants that is too big to inline, for most tokens and many reductions (5% of the
/// parse in the profile). Here each pop of such a variant matches through `ManuallyDrop`, so
/// nothing is dropped, and there is nothing to drop: the value is `Copy`. A value that is not
/// `Copy` cannot be moved out through `ManuallyDrop`, so a wrong [`COPY_TYPES`] fails to
/// compile instead of leaking. Returns the parser and how many pops match through
/// `ManuallyDrop` (also when an earlier build already rewrote the file).
fn forget_copied_symbols(parser: &str) -> (String, usize) {
    const POP: &str = "        match __symbols.pop() {";
    const FORGOTTEN_POP: &str = "        match *core::mem::ManuallyDrop::new(__symbols.pop()) {";
    let lines: Vec<&str> = parser.lines().collect();
    let mut out = String::with_capacity(parser.len() + 4096);
    let mut count = 0;
    for (i, line) in lines.iter().enumerate() {
        // A pop function's body starts two lines after its `-> (usize, T, usize)`.
        let copied = *line == POP
            && i.checked_sub(2)
                .and_then(|at| lines[at].strip_prefix("    ) -> (usize, "))
                .and_then(|rest| rest.strip_suffix(", usize)"))
                .is_some_and(is_copy_type);
        let line = if copied { FORGOTTEN_POP } else { line };
        count += usize::from(line == FORGOTTEN_POP);
        out.push_str(line);
        out.push('\n');
    }
    (out, count)
}

/// Whether a Rust type as LALRPOP writes it is `Copy`: a shared reference, a unit or tuple or
/// `Option` of `Copy` types, or one of [`COPY_TYPES`] (with its lifetime or type arguments).
fn is_copy_type(rust_type: &str) -> bool {
    let t = rust_type.trim();
    if t.starts_with('&') {
        return true;
    }
    if let Some(inner) = t.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
        return split_top_level(inner).iter().all(|part| is_copy_type(part));
    }
    let (name, arguments) = match t.split_once('<') {
        Some((name, rest)) => (name, rest.strip_suffix('>').unwrap_or(rest)),
        None => (t, ""),
    };
    let arguments_copy = split_top_level(arguments)
        .iter()
        .all(|a| a.trim().starts_with('\'') || is_copy_type(a));
    (name == "Option" || COPY_TYPES.contains(&name)) && arguments_copy
}

/// The comma-separated parts of a type list, not splitting inside `<...>`, `(...)` or `[...]`.
fn split_top_level(list: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    for (i, c) in list.char_indices() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                parts.push(&list[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if !list[start..].trim().is_empty() {
        parts.push(&list[start..]);
    }
    parts
}

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
fn outline_fallible_reductions(parser: &str) -> (String, usize) {
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
/// #[inline] nonterminal's type a variant). Returns the parser and whether the enum now has the
/// wide tag (also when an earlier build already rewrote the file).
fn word_sized_symbol_tag(parser: &str) -> (String, bool) {
    let Some(at) = parser.find(SYMBOL_ENUM) else {
        return (parser.to_string(), false);
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
        true,
    )
}

/// Unit reductions such as `SetExpr = SetTerm` or `Call = FunctionCallFrom<Ident>` pass a value
/// up unchanged, and the grammar has over a hundred of them on its hot paths. LALRPOP compiles
/// each one into: pop the value off the symbol stack (an 88-byte slot), pass it through the
/// identity action, push it back with the same span. The value and
/// its span are already where they would end up, so those lines are removed; the state stack
/// is still updated by the generated code around them. Only reductions whose action is the
/// identity and whose value keeps its stack variant are touched. Returns the rewritten parser
/// and how many reductions were elided (counted anew when the file was already rewritten).
fn elide_unit_reductions(parser: &str) -> (String, usize) {
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

const GOTO_FN: &str = "    fn __goto(state: i16, nt: usize) -> i16 {\n";
const GOTO_TABLES: &str = "__GOTO_SLOTS";

/// After each reduction the parser looks up the state that follows the nonterminal it built,
/// and LALRPOP writes that lookup as a `match` on the nonterminal holding, for most, a `match`
/// on the state: a call and a search of about 19 instructions, for each of the two reductions
/// per token. Here it becomes a table lookup of about 14, inlined: each nonterminal
/// has its default state and a base, and the states that go elsewhere are packed into one
/// array of slots (row displacement): the slot `base + state` holds the next state if its
/// owner is `state`. Bases are distinct, so a slot can only match the row it was placed for.
/// Returns the parser and whether the lookup is table-driven (also when an earlier build
/// already rewrote the file).
fn table_driven_goto(parser: &str) -> (String, bool) {
    let unchanged = || (parser.to_string(), false);
    let Some(start) = parser.find(GOTO_FN) else {
        return unchanged();
    };
    let body_start = start + GOTO_FN.len();
    let Some(body_len) = parser[body_start..].find("\n    }\n") else {
        return unchanged();
    };
    let body = &parser[body_start..body_start + body_len];
    if body.contains(GOTO_TABLES) {
        return (parser.to_string(), true);
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
        true,
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
