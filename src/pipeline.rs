//! The driver: several sources checked as one pipeline. Each source is parsed and checked on
//! its own (`crate::check::check_script`), the [`model`](crate::model) of all of them is built,
//! and the pipeline-scope rules run over it (`crate::check::check_pipeline`).

pub use crate::model::{Dataset, DatasetKind, Flow, FlowKind, Model, Read};

use crate::arena::Arena;
use crate::ast::Script;
use crate::check::SourceFacts;
use crate::diagnostic::{Code, FileId};
use crate::model::{collect, Defaults, Resolver};
use crate::notebook::Cell;
use crate::span::Span;
use crate::suppress::Selection;
use std::collections::HashMap;

/// Several sources checked together as one pipeline.
///
/// ```
/// use pipeline_sql::Pipeline;
///
/// let tables = "CREATE OR REFRESH STREAMING TABLE orders;";
/// let flows = "CREATE FLOW orders_flow AS INSERT INTO orders BY NAME SELECT * FROM raw_orders;";
/// let mut pipeline = Pipeline::new();
/// pipeline.add_source("tables.sql", tables);
/// pipeline.add_source("flows.sql", flows);
/// let arena = pipeline_sql::Arena::new();
/// let checked = pipeline.check(&arena);
/// // The flow is judged against the table declared in the other file: it must stream.
/// let (file, diagnostic) = checked.diagnostics().next().unwrap();
/// assert_eq!(checked.sources[file.0 as usize].name, "flows.sql");
/// assert_eq!(diagnostic.code(), "INVALID_FLOW_QUERY_TYPE.BATCH_RELATION_FOR_STREAMING_TABLE");
/// assert_eq!(checked.model.flows[0].target, "orders");
/// ```
#[derive(Debug, Clone, Default)]
pub struct Pipeline<'a> {
    sources: Vec<(String, &'a str)>,
    complete: bool,
    params: HashMap<String, String>,
    defaults: Defaults,
    selection: Selection,
}

/// One source of a checked pipeline.
#[derive(Debug, Clone)]
pub struct SourceCheck<'a> {
    /// The name the source was added with (a path, for the CLI).
    pub name: String,
    /// The source text.
    pub text: &'a str,
    /// Its syntax tree.
    pub script: Script<'a>,
    /// Its diagnostics (syntax, statement rules and pipeline rules), sorted by position.
    pub diagnostics: Vec<crate::Diagnostic>,
    /// Its notebook cells (one SQL cell for a file that is no notebook).
    pub cells: Vec<Cell<'a>>,
}

impl SourceCheck<'_> {
    /// Which of its [`cells`](SourceCheck::cells) holds `span` (a statement's, a diagnostic's).
    pub fn cell_of(&self, span: Span) -> Option<usize> {
        crate::notebook::cell_at(&self.cells, span.start as usize)
    }
}

/// The result of checking a pipeline: each source with its diagnostics, and the model.
#[derive(Debug, Clone)]
pub struct PipelineCheck<'a> {
    /// The sources in the order they were added ([`FileId`] indexes them).
    pub sources: Vec<SourceCheck<'a>>,
    /// The datasets, flows and dependencies, for lineage and other tools.
    pub model: Model,
}

impl PipelineCheck<'_> {
    /// Every diagnostic with its source, sorted by source and position.
    pub fn diagnostics(&self) -> impl Iterator<Item = (FileId, &crate::Diagnostic)> {
        self.sources
            .iter()
            .enumerate()
            .flat_map(|(i, s)| s.diagnostics.iter().map(move |d| (FileId(i as u32), d)))
    }

    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics().any(|(_, d)| d.is_error())
    }
}

impl<'a> Pipeline<'a> {
    /// An empty pipeline.
    pub fn new() -> Self {
        Pipeline::default()
    }

    /// Adds a source; its [`FileId`] is its position.
    pub fn add_source(&mut self, name: impl Into<String>, text: &'a str) -> FileId {
        self.sources.push((name.into(), text));
        FileId(self.sources.len() as u32 - 1)
    }

    /// Says whether the sources are the whole pipeline. Only then do the rules that conclude
    /// from an absence run: INVALID_FLOW_TARGET.NOT_FOUND, PIPELINE_DATASET_WITHOUT_FLOW and
    /// RUN_EMPTY_PIPELINE.
    pub fn complete(&mut self, complete: bool) -> &mut Self {
        self.complete = complete;
        self
    }

    /// Gives a pipeline parameter a value: `${key}` in names resolves with it.
    pub fn param(&mut self, key: impl Into<String>, value: impl Into<String>) -> &mut Self {
        self.params.insert(key.into(), value.into());
        self
    }

    /// Sets the pipeline's default catalog: `main.sales.orders` and `sales.orders` are one
    /// dataset when the default catalog is `main`. A `USE CATALOG` in a source overrides it
    /// for the statements after it.
    pub fn catalog(&mut self, catalog: impl Into<String>) -> &mut Self {
        self.defaults.catalog = Some(catalog.into().to_ascii_lowercase());
        self
    }

    /// Sets the pipeline's default schema (the older settings call it `target`): `sales.orders`
    /// and `orders` are one dataset when it is `sales`. A `USE` in a source overrides it for
    /// the statements after it.
    pub fn schema(&mut self, schema: impl Into<String>) -> &mut Self {
        self.defaults.schema = Some(schema.into().to_ascii_lowercase());
        self
    }

    /// Reports only the codes `selection` selects (every code by default).
    pub fn select(&mut self, selection: Selection) -> &mut Self {
        self.selection = selection;
        self
    }

    /// Parses every source into `arena` and checks it, then checks them together.
    pub fn check<'p>(&self, arena: &'p Arena) -> PipelineCheck<'p>
    where
        'a: 'p,
    {
        let mut sources = Vec::with_capacity(self.sources.len());
        let mut parts = Vec::with_capacity(self.sources.len());
        for index in 0..self.sources.len() {
            let (source, part) = self.check_source(index, arena);
            sources.push(source);
            parts.push(part);
        }
        let model = self.conclude(parts, sources.iter_mut().map(|s| &mut s.diagnostics));
        PipelineCheck { sources, model }
    }

    /// Checks like [`check`](Pipeline::check), on every core, and keeps no syntax trees: for
    /// many sources, when the diagnostics and the model are what is wanted. Each thread parses
    /// into an arena of its own, which it reuses from one source to the next.
    ///
    /// ```
    /// use pipeline_sql::Pipeline;
    ///
    /// let mut pipeline = Pipeline::new();
    /// pipeline.add_source("tables.sql", "CREATE OR REFRESH STREAMING TABLE orders;");
    /// pipeline.add_source("flows.sql", "CREATE FLOW f AS INSERT INTO orders BY NAME SELECT * FROM raw;");
    /// let report = pipeline.check_in_parallel();
    /// assert_eq!(report.sources[1].diagnostics[0].code(), "INVALID_FLOW_QUERY_TYPE.BATCH_RELATION_FOR_STREAMING_TABLE");
    /// assert_eq!(report.model.flows[0].target, "orders");
    /// ```
    pub fn check_in_parallel(&self) -> PipelineReport<'a> {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let next = AtomicUsize::new(0);
        let threads = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(self.sources.len())
            .max(1);
        let worker = || {
            let mut done = Vec::new();
            let mut arena = Arena::new();
            loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= self.sources.len() {
                    return done;
                }
                let (source, part) = self.check_source(index, &arena);
                let report = SourceReport {
                    name: source.name,
                    text: self.sources[index].1,
                    statements: source.script.statements.len(),
                    diagnostics: source.diagnostics,
                };
                done.push((index, report, part));
                arena.reset();
            }
        };
        let mut done: Vec<_> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads).map(|_| scope.spawn(worker)).collect();
            let joined = handles.into_iter().map(|h| h.join());
            // A panic in a worker is a bug: it goes on in the caller as it would have there.
            joined
                .map(|result| result.unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
                .collect::<Vec<_>>()
        })
        .into_iter()
        .flatten()
        .collect();
        done.sort_by_key(|(index, ..)| *index);
        let (mut sources, parts): (Vec<_>, Vec<_>) = done
            .into_iter()
            .map(|(_, report, part)| (report, part))
            .unzip();
        let model = self.conclude(parts, sources.iter_mut().map(|s| &mut s.diagnostics));
        PipelineReport { sources, model }
    }

    /// Parses and checks the source at `index` on its own: its tree and diagnostics, and what
    /// it gives the pipeline-scope rules.
    fn check_source<'p>(&self, index: usize, arena: &'p Arena) -> (SourceCheck<'p>, Part)
    where
        'a: 'p,
    {
        let (name, text) = &self.sources[index];
        let crate::Parsed {
            script,
            mut diagnostics,
            cells,
            ..
        } = crate::parse(arena, text);
        // A template placeholder with a value is checked as the job will deploy it.
        diagnostics.retain(|d| {
            d.code() != Code::TemplatePlaceholder.as_str()
                || !self.params.contains_key(crate::ast::parameter_name(
                    &text[d.span().start as usize..d.span().end as usize],
                ))
        });
        crate::check::check_script(&script, text, &mut diagnostics);
        let mut model = Model::default();
        let mut resolver = Resolver::new(&self.params, &self.defaults);
        for (i, statement) in script.statements.iter().enumerate() {
            resolver.track(statement);
            collect(&mut model, &resolver, FileId(index as u32), i, statement);
        }
        let facts = SourceFacts::of(&script);
        let source = SourceCheck {
            name: name.clone(),
            text,
            script,
            diagnostics,
            cells,
        };
        (source, Part { model, facts })
    }

    /// Whether the rule of `code` runs in this check: the rules that conclude from an absence
    /// run on a complete pipeline only, and the search for misspelt reads, the one rule whose
    /// cost grows with the pipeline, only where its code is reported.
    fn runs(&self, code: Code) -> bool {
        (self.complete || !code.needs_complete_pipeline())
            && (code != Code::MisspeltDatasetRead || self.selection.enabled(code.as_str()))
    }

    /// Joins what the sources declare into the pipeline's model, runs the pipeline-scope rules
    /// over it, and settles each source's diagnostics (given in source order): ordered, noqa
    /// comments applied, only the selected codes kept.
    fn conclude<'d>(
        &self,
        parts: Vec<Part>,
        diagnostics: impl Iterator<Item = &'d mut Vec<crate::Diagnostic>>,
    ) -> Model {
        let mut model = Model::default();
        let mut facts = Vec::with_capacity(parts.len());
        for part in parts {
            model.datasets.extend(part.model.datasets);
            model.flows.extend(part.model.flows);
            facts.push(part.facts);
        }
        let mut by_file: Vec<Vec<crate::Diagnostic>> = vec![Vec::new(); facts.len()];
        let runs = |code| self.runs(code);
        crate::check::check_pipeline(&model, &facts, &runs, &mut by_file);
        let sources = diagnostics.zip(by_file).zip(&facts).zip(&self.sources);
        for (((own, found), facts), (_, text)) in sources {
            own.extend(found);
            crate::check::settle(&facts.statement_spans, own);
            crate::suppress::apply_noqa(text, own, &runs);
            self.selection.apply(own);
        }
        model
    }
}

/// What one source, checked on its own, gives the pipeline: what it declares, and the facts
/// the pipeline-scope rules need.
struct Part {
    model: Model,
    facts: SourceFacts,
}

/// One source of a pipeline checked with [`Pipeline::check_in_parallel`]: a
/// [`SourceCheck`] without its tree.
#[derive(Debug, Clone)]
pub struct SourceReport<'a> {
    /// The name the source was added with.
    pub name: String,
    /// The source text.
    pub text: &'a str,
    /// How many statements it has.
    pub statements: usize,
    /// Its diagnostics, sorted by position.
    pub diagnostics: Vec<crate::Diagnostic>,
}

/// The result of [`Pipeline::check_in_parallel`]: each source's diagnostics, and the model.
#[derive(Debug, Clone)]
pub struct PipelineReport<'a> {
    /// The sources in the order they were added ([`FileId`] indexes them).
    pub sources: Vec<SourceReport<'a>>,
    /// The datasets, flows and dependencies.
    pub model: Model,
}
