//! # pipeline-sql
//!
//! The SQL front-end for declarative data pipelines (Lakeflow / Spark Declarative Pipelines):
//! `CREATE FLOW`, `CREATE STREAMING TABLE`, `CREATE TABLE ... FLOW`, materialized views, views
//! and the Spark SQL queries inside them.
//!
//! ```
//! let arena = pipeline_sql::Arena::new();
//! let parsed = pipeline_sql::parse(
//!     &arena,
//!     "CREATE OR REFRESH STREAMING TABLE users;
//!      CREATE FLOW users_flow AS INSERT INTO users BY NAME SELECT * FROM STREAM(raw.users);",
//! );
//! assert!(parsed.diagnostics().is_empty());
//! assert_eq!(parsed.script().statements.len(), 2);
//! ```
//!
//! The tree lives in an [`Arena`] the caller owns and borrows from it and from the source.
//!
//! Modules, in the order data flows through them:
//! - `syntax`: text to tree. Its keyword table (one row per keyword), the [`lexer`] (tokens,
//!   and the few contextual choices one token of look-ahead needs; never aborts), the LALRPOP
//!   grammar and the actions it calls, and the second look at a statement that Spark reads
//!   differently from an LALR(1) grammar. Syntax diagnostics come from here.
//! - [`ast`]: the typed tree with a [`span::Span`] on every node, `Display` as canonical SQL,
//!   and a [`ast::visit::Visitor`].
//! - `check`: the rules, one file per family; the ones one statement decides and the ones over
//!   the whole pipeline.
//! - [`model`]: what a pipeline's sources declare: datasets, flows, what each flow reads, and
//!   name resolution.
//! - [`pipeline`]: the driver: several sources parsed, checked and modelled as one pipeline;
//!   [`Pipeline`] is the entry point.
//! - [`snapshot_version`]: the snapshot-version protocol as a checked state machine.
//! - [`suppress`]: what is reported: selected codes and `-- noqa` comments.
//! - [`fix`]: applying the edits that diagnostics carry, round after round.
//! - `suggest`: the word a misspelt one most likely meant ("did you mean").
//! - [`diagnostic`]: codes, severities, labels and help, with [`miette`] integration.
//! - `report` (feature `cli`): diagnostics rendered for people and as JSON.
//! - `settings` (feature `cli`): pipeline settings files (bundles, Spark specs) read as the
//!   pipelines they declare, as hostile input; `files` (feature `cli`): bounded file reading.

mod arena;
pub mod ast;
mod check;
pub mod diagnostic;
#[cfg(feature = "cli")]
pub mod files;
pub mod fix;
pub mod model;
pub mod notebook;
pub mod pipeline;
#[cfg(feature = "cli")]
pub mod report;
#[cfg(feature = "cli")]
pub mod settings;
pub mod snapshot_version;
pub mod span;
mod suggest;
pub mod suppress;
mod syntax;
mod unescape;

pub use arena::Arena;
pub use diagnostic::{Applicability, Code, Diagnostic, Edit, Family, FileId, Fix, Label, Severity};
pub use pipeline::Pipeline;
pub use span::{LineIndex, Span, Spanned};
pub use syntax::lexer;
pub use syntax::{MAX_CHAIN, MAX_DEPTH, MAX_NESTING};

/// The result of parsing one source text: the tree (always, even with errors) and the
/// diagnostics, in source order.
#[derive(Debug, Clone)]
pub struct Parsed<'a> {
    source: &'a str,
    script: ast::Script<'a>,
    diagnostics: Vec<Diagnostic>,
    cells: Vec<notebook::Cell<'a>>,
}

impl<'a> Parsed<'a> {
    /// The syntax tree. Statements that did not parse are [`ast::Statement::Error`].
    pub fn script(&self) -> &ast::Script<'a> {
        &self.script
    }

    /// Syntax diagnostics, in source order.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The source text that was parsed.
    pub fn source(&self) -> &'a str {
        self.source
    }

    /// The source's notebook cells (one SQL cell for a file that is no notebook).
    pub fn cells(&self) -> &[notebook::Cell<'a>] {
        &self.cells
    }

    /// Which of [`Parsed::cells`] holds `span` (a statement's, a diagnostic's).
    pub fn cell_of(&self, span: Span) -> Option<usize> {
        notebook::cell_at(&self.cells, span.start as usize)
    }

    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// The tree and the diagnostics, by value.
    pub fn into_parts(self) -> (ast::Script<'a>, Vec<Diagnostic>) {
        (self.script, self.diagnostics)
    }
}

/// The result of checking one source text: the tree, every diagnostic (syntax and rules)
/// sorted by position, and the model of what it declares.
#[derive(Debug, Clone)]
pub struct Checked<'a> {
    source: pipeline::SourceCheck<'a>,
    model: pipeline::Model,
}

impl<'a> Checked<'a> {
    /// The syntax tree.
    pub fn script(&self) -> &ast::Script<'a> {
        &self.source.script
    }

    /// Syntax and rule diagnostics, sorted by position.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.source.diagnostics
    }

    /// The source text that was checked.
    pub fn source(&self) -> &'a str {
        self.source.text
    }

    /// The source's notebook cells (one SQL cell for a file that is no notebook).
    pub fn cells(&self) -> &[notebook::Cell<'a>] {
        &self.source.cells
    }

    /// Which of [`Checked::cells`] holds `span` (a statement's, a diagnostic's).
    pub fn cell_of(&self, span: Span) -> Option<usize> {
        self.source.cell_of(span)
    }

    /// The datasets and flows the source declares.
    pub fn model(&self) -> &pipeline::Model {
        &self.model
    }

    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.source.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Parses and checks one pipeline source file as a pipeline of its own that may be
/// incomplete: rules that conclude from an absence (a flow target declared nowhere, a table
/// no flow writes) do not run. Use [`Pipeline`] to check several files together.
///
/// ```
/// let arena = pipeline_sql::Arena::new();
/// let checked = pipeline_sql::check(&arena, "CREATE OR REPLACE STREAMING TABLE t AS SELECT * FROM STREAM(s)");
/// let codes: Vec<&str> = checked.diagnostics().iter().map(|d| d.code()).collect();
/// assert_eq!(codes, ["STREAMING_TABLE_OPERATION_NOT_ALLOWED.CREATE_OR_REPLACE"]);
/// ```
pub fn check<'a>(arena: &'a Arena, source: &'a str) -> Checked<'a> {
    let mut pipeline = Pipeline::new();
    pipeline.add_source("<source>", source);
    let pipeline::PipelineCheck { mut sources, model } = pipeline.check(arena);
    let source = sources
        .pop()
        .expect("the pipeline has the one source added");
    Checked { source, model }
}

/// Parses a pipeline source file into `arena`. Never panics and never stops at the first
/// error: every broken statement gets a diagnostic and the others still parse. (A source with
/// errors is parsed twice, whole and then statement by statement; what the first pass built
/// stays in the arena until the arena is released.)
pub fn parse<'a>(arena: &'a Arena, source: &'a str) -> Parsed<'a> {
    let cells = notebook::cells(source);
    let (script, mut diagnostics) = syntax::parse_script(arena, source, &cells);
    diagnostics.extend(notebook::ignored_cells(source, &cells));
    diagnostics.sort_by_key(|d| (d.span().start, d.span().end));
    Parsed {
        source,
        script,
        diagnostics,
        cells,
    }
}

/// The README's examples, compiled and run as doc tests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
