//! The model of a pipeline: the datasets its sources declare, the flows that write them, what
//! each flow reads, and the dependency graph between datasets. Built from parsed sources by
//! `collect`; the driver ([`crate::pipeline`]) builds it and the rules read it.
//!
//! Names resolve case-insensitively. `LIVE.x` resolves to `x`, and a name qualified with the
//! catalog and schema selected by `USE` (or `SET CATALOG`) earlier in the same file resolves to
//! the unqualified name, so `main.sales.orders` and `orders` are one dataset after
//! `USE main.sales`. Pipeline parameters (`${name}`, and a template's `{name}`) are replaced by
//! their values first; a parameter without a value stays as written and is compared as an
//! opaque name part.

use crate::ast::visit::{self, Visitor};
use crate::ast::*;
use crate::diagnostic::FileId;
use crate::span::{Span, Spanned};
use std::collections::HashMap;

/// The kinds of dataset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum DatasetKind {
    /// `CREATE STREAMING TABLE`
    StreamingTable,
    /// `CREATE TABLE ... FLOW`
    ManagedTable,
    /// `CREATE MATERIALIZED VIEW` (and the legacy `CREATE LIVE TABLE`)
    MaterializedView,
    /// `CREATE VIEW`
    View,
}

impl DatasetKind {
    /// How the kind is called in messages.
    pub fn describe(self) -> &'static str {
        match self {
            DatasetKind::StreamingTable => "streaming table",
            DatasetKind::ManagedTable => "managed table",
            DatasetKind::MaterializedView => "materialized view",
            DatasetKind::View => "view",
        }
    }
}

/// A declared dataset.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Dataset {
    /// The name as written.
    pub name: String,
    /// The resolved name that identifies the dataset in the pipeline.
    pub key: String,
    /// What it is.
    pub kind: DatasetKind,
    /// The source that declares it.
    pub file: FileId,
    /// The declaring statement.
    pub span: Span,
    /// The name in the declaring statement.
    pub name_span: Span,
    /// Declared columns with their types as written (`None` for a column without a type).
    pub columns: Vec<(String, Option<String>)>,
    /// What a view reads (the other kinds read through their flows).
    pub reads: Vec<Read>,
}

/// How a flow writes its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum FlowKind {
    /// An append flow: `INSERT ... BY NAME`, `AS query`.
    Insert,
    /// `REPLACE USING`
    ReplaceUsing,
    /// `REPLACE WHERE`
    ReplaceWhere,
    /// AUTO CDC from a change feed.
    AutoCdc,
    /// AUTO CDC FROM SNAPSHOT.
    Snapshot,
}

/// A relation a flow reads.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Read {
    /// The resolved name.
    pub key: String,
    /// Where it is read.
    pub span: Span,
    /// Whether it is read with `STREAM`.
    pub streaming: bool,
}

/// A flow: a `CREATE FLOW`, `APPLY CHANGES`, or the implicit flow of a dataset defined with
/// `AS query` or an inline `FLOW` clause.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Flow {
    /// The flow's name (a dataset's own name for an implicit flow).
    pub name: String,
    /// The resolved name.
    pub key: String,
    /// Whether the flow is implicit (defined with its dataset).
    pub implicit: bool,
    /// How it writes.
    pub kind: FlowKind,
    /// `ONCE`.
    pub once: bool,
    /// Whether a snapshot flow has `WITH VERSION`.
    pub with_version: bool,
    /// The resolved name of the dataset written.
    pub target: String,
    /// Where the target is named.
    pub target_span: Span,
    /// The source of the statement.
    pub file: FileId,
    /// The statement (or, for an implicit flow, its dataset's statement).
    pub span: Span,
    /// Where the flow's name is written.
    pub name_span: Span,
    /// The KEYS of an AUTO CDC flow, resolved to lower case.
    pub keys: Vec<String>,
    /// Where KEYS is written.
    pub keys_span: Option<Span>,
    /// The column named by SEQUENCE BY, when it is a plain column.
    pub sequence_column: Option<(String, Span)>,
    /// The relations the flow reads.
    pub reads: Vec<Read>,
    /// The index of the statement in its source.
    pub statement: usize,
}

/// Everything a pipeline declares.
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Model {
    /// Datasets in declaration order (duplicates included).
    pub datasets: Vec<Dataset>,
    /// Flows in declaration order (duplicates included).
    pub flows: Vec<Flow>,
}

impl Model {
    /// The first dataset declared with `key` (a linear search: for many lookups, index the
    /// datasets by key once).
    pub fn dataset(&self, key: &str) -> Option<&Dataset> {
        self.datasets.iter().find(|d| d.key == key)
    }

    /// The dependency graph: for each dataset key (in declaration order), the dataset keys
    /// it reads through its flows (or, for a view, its query), each once.
    pub fn dependencies(&self) -> Vec<(String, Vec<String>)> {
        let mut graph: Vec<(String, Vec<String>)> = Vec::new();
        let mut index: HashMap<&str, usize> = HashMap::new();
        for d in &self.datasets {
            index.entry(d.key.as_str()).or_insert_with(|| {
                graph.push((d.key.clone(), Vec::new()));
                graph.len() - 1
            });
        }
        let reads = self
            .flows
            .iter()
            .map(|f| (f.target.as_str(), &f.reads))
            .chain(self.datasets.iter().map(|d| (d.key.as_str(), &d.reads)));
        for (target, reads) in reads {
            let Some(&slot) = index.get(target) else {
                continue;
            };
            for read in reads {
                if index.contains_key(read.key.as_str()) && !graph[slot].1.contains(&read.key) {
                    graph[slot].1.push(read.key.clone());
                }
            }
        }
        graph
    }
}

/// The catalog and schema that a pipeline publishes to and reads from when a name does not say.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Defaults {
    pub(crate) catalog: Option<String>,
    pub(crate) schema: Option<String>,
}

/// Resolves names of one source, statement by statement.
pub(crate) struct Resolver<'p> {
    params: &'p HashMap<String, String>,
    catalog: Option<String>,
    schema: Option<String>,
}

impl<'p> Resolver<'p> {
    pub(crate) fn new(params: &'p HashMap<String, String>, defaults: &Defaults) -> Self {
        Resolver {
            params,
            catalog: defaults.catalog.clone(),
            schema: defaults.schema.clone(),
        }
    }

    /// Notes the catalog and schema a statement selects.
    pub(crate) fn track(&mut self, statement: &Statement<'_>) {
        match statement {
            Statement::Use(u) => {
                let parts: Vec<String> = u.name.parts.iter().map(|p| self.part(p)).collect();
                match (u.kind, parts.as_slice()) {
                    (UseKind::Catalog, [catalog]) => {
                        self.catalog = Some(catalog.clone());
                        self.schema = None;
                    }
                    (_, [catalog, schema]) => {
                        self.catalog = Some(catalog.clone());
                        self.schema = Some(schema.clone());
                    }
                    (_, [schema]) => self.schema = Some(schema.clone()),
                    _ => {}
                }
            }
            Statement::Set(s) => {
                if let SetKind::Catalog(catalog) = &s.kind {
                    self.catalog = Some(self.part(catalog));
                    self.schema = None;
                }
            }
            _ => {}
        }
    }

    /// One name part, parameters expanded, folded to lower case.
    fn part(&self, ident: &Ident<'_>) -> String {
        let text = match ident.style() {
            IdentStyle::Parameter => {
                let key = crate::ast::parameter_name(ident.text);
                self.params
                    .get(key)
                    .map_or(ident.text, String::as_str)
                    .to_string()
            }
            _ => ident.value().into_owned(),
        };
        text.to_ascii_lowercase()
    }

    /// The key a name resolves to.
    pub(crate) fn resolve(&self, name: &ObjectName<'_>) -> String {
        let mut parts: Vec<String> = name.parts.iter().map(|p| self.part(p)).collect();
        if parts.len() > 1 && parts[0] == "live" {
            parts.remove(0);
        }
        let schema_matches = |s: &str| self.schema.as_deref() == Some(s);
        let catalog_matches = |c: &str| self.catalog.as_deref() == Some(c);
        match parts.as_slice() {
            [catalog, schema, table] if catalog_matches(catalog) && schema_matches(schema) => {
                table.clone()
            }
            [schema, table] if schema_matches(schema) => table.clone(),
            _ => parts.join("."),
        }
    }
}

/// Adds the datasets and flows one statement declares.
pub(crate) fn collect(
    model: &mut Model,
    resolver: &Resolver<'_>,
    file: FileId,
    index: usize,
    statement: &Statement<'_>,
) {
    let dataset = |kind, name: &ObjectName<'_>, spec: Option<&TableSpec<'_>>| Dataset {
        name: name.to_string(),
        key: resolver.resolve(name),
        kind,
        file,
        span: statement.span(),
        name_span: name.span,
        columns: spec.map(columns_of).unwrap_or_default(),
        reads: Vec::new(),
    };
    let implicit =
        |model: &mut Model, d: &Dataset, body: Option<&FlowBody<'_>>, query: Option<&Query<'_>>| {
            let mut flow = Flow {
                name: d.name.clone(),
                key: d.key.clone(),
                implicit: true,
                kind: FlowKind::Insert,
                once: false,
                with_version: false,
                target: d.key.clone(),
                target_span: d.name_span,
                file,
                span: d.span,
                name_span: d.name_span,
                keys: Vec::new(),
                keys_span: None,
                sequence_column: None,
                reads: Vec::new(),
                statement: index,
            };
            match (body, query) {
                (Some(body), _) => describe_flow(&mut flow, resolver, body),
                (None, Some(query)) => flow.reads = reads_of_query(resolver, query),
                (None, None) => return,
            }
            model.flows.push(flow);
        };
    match statement {
        Statement::CreateStreamingTable(t) => {
            let d = dataset(DatasetKind::StreamingTable, &t.name, t.spec.as_ref());
            match &t.body {
                Some(TableBody::Query(q)) => implicit(model, &d, None, Some(q.query)),
                Some(TableBody::Flow(f)) => implicit(model, &d, Some(&f.body), None),
                None => {}
            }
            model.datasets.push(d);
        }
        Statement::CreateTable(t) => {
            let d = dataset(DatasetKind::ManagedTable, &t.name, t.spec.as_ref());
            if let Some(f) = &t.flow {
                implicit(model, &d, Some(&f.body), None);
            }
            model.datasets.push(d);
        }
        Statement::CreateMaterializedView(v) => {
            let d = dataset(DatasetKind::MaterializedView, &v.name, v.spec.as_ref());
            implicit(model, &d, None, Some(v.query.query));
            model.datasets.push(d);
        }
        Statement::CreateView(v) => {
            let mut d = dataset(DatasetKind::View, &v.name, None);
            d.columns = v
                .columns
                .unwrap_or_default()
                .iter()
                .map(|c| (c.name.value().to_ascii_lowercase(), None))
                .collect();
            d.reads = reads_of_query(resolver, v.query.query);
            model.datasets.push(d);
        }
        Statement::CreateFlow(f) => {
            let mut flow = explicit_flow(resolver, file, index, statement.span(), &f.name, &f.body);
            describe_flow(&mut flow, resolver, &f.body);
            model.flows.push(flow);
        }
        Statement::ApplyChanges(a) => {
            // The legacy statement's flow takes its target's name (a flow's name is one
            // identifier: the target's last part).
            let body = FlowBody::AutoCdc(&a.flow);
            if let Some(target) = &a.flow.target {
                let base = target.base();
                let name = ObjectName {
                    span: base.span,
                    parts: std::slice::from_ref(base),
                };
                let mut flow = explicit_flow(resolver, file, index, statement.span(), &name, &body);
                describe_flow(&mut flow, resolver, &body);
                model.flows.push(flow);
            }
        }
        _ => {}
    }
}

fn explicit_flow(
    resolver: &Resolver<'_>,
    file: FileId,
    index: usize,
    span: Span,
    name: &ObjectName<'_>,
    body: &FlowBody<'_>,
) -> Flow {
    let target = match body {
        FlowBody::Insert(i) => i.target.as_ref(),
        FlowBody::AutoCdc(c) => c.target.as_ref(),
    };
    Flow {
        name: name.to_string(),
        key: resolver.resolve(name),
        implicit: false,
        kind: FlowKind::Insert,
        once: false,
        with_version: false,
        target: target.map(|t| resolver.resolve(t)).unwrap_or_default(),
        target_span: target.map_or(span, |t| t.span),
        file,
        span,
        name_span: name.span,
        keys: Vec::new(),
        keys_span: None,
        sequence_column: None,
        reads: Vec::new(),
        statement: index,
    }
}

/// Fills in what a flow body says about the flow: its kind, ONCE, keys and reads.
fn describe_flow(flow: &mut Flow, resolver: &Resolver<'_>, body: &FlowBody<'_>) {
    match body {
        FlowBody::Insert(insert) => {
            flow.once = insert.once.is_some();
            flow.kind = match insert.replace.first() {
                Some(ReplaceClause::Using(_)) => FlowKind::ReplaceUsing,
                Some(ReplaceClause::Where(_)) => FlowKind::ReplaceWhere,
                None => FlowKind::Insert,
            };
            flow.reads = reads_of_query(resolver, insert.query);
        }
        FlowBody::AutoCdc(cdc) => {
            flow.once = cdc.once.is_some();
            let mut reads = Reads {
                resolver,
                found: Vec::new(),
            };
            match &cdc.source {
                CdcSource::ChangeFeed(relation) => {
                    flow.kind = FlowKind::AutoCdc;
                    reads.visit_table_ref(relation);
                }
                CdcSource::Snapshot(snapshot) => {
                    flow.kind = FlowKind::Snapshot;
                    flow.with_version = snapshot.version.is_some();
                    reads.visit_query(snapshot.snapshot_query);
                }
            }
            flow.reads = reads.found;
            for clause in cdc.clauses {
                match &clause.kind {
                    CdcClauseKind::Keys(keys) if flow.keys_span.is_none() => {
                        flow.keys = keys
                            .iter()
                            .map(|k| k.value().to_ascii_lowercase())
                            .collect();
                        flow.keys_span = Some(clause.span);
                    }
                    CdcClauseKind::SequenceBy(Expr {
                        kind: ExprKind::Column(column),
                        ..
                    }) => {
                        flow.sequence_column =
                            Some((column.value().to_ascii_lowercase(), column.span));
                    }
                    _ => {}
                }
            }
        }
    }
}

fn columns_of(spec: &TableSpec<'_>) -> Vec<(String, Option<String>)> {
    spec.elements
        .iter()
        .filter_map(|e| match e {
            TableElement::Column(c) => Some((
                c.name.value().to_ascii_lowercase(),
                c.data_type.as_ref().map(ToString::to_string),
            )),
            _ => None,
        })
        .collect()
}

/// The relations a query reads, CTE names excluded.
fn reads_of_query(resolver: &Resolver<'_>, query: &Query<'_>) -> Vec<Read> {
    let mut reads = Reads {
        resolver,
        found: Vec::new(),
    };
    reads.visit_query(query);
    let ctes = cte_names(query);
    reads.found.retain(|r| !ctes.contains(&r.key));
    reads.found
}

fn cte_names(query: &Query<'_>) -> Vec<String> {
    struct Ctes(Vec<String>);
    impl<'a> Visitor<'a> for Ctes {
        fn visit_query(&mut self, query: &Query<'a>) {
            if let Some(with) = &query.with {
                self.0.extend(
                    with.ctes
                        .iter()
                        .map(|c| c.name.value().to_ascii_lowercase()),
                );
            }
            visit::walk_query(self, query);
        }
    }
    let mut ctes = Ctes(Vec::new());
    ctes.visit_query(query);
    ctes.0
}

struct Reads<'r, 'p> {
    resolver: &'r Resolver<'p>,
    found: Vec<Read>,
}

impl<'a> Visitor<'a> for Reads<'_, '_> {
    fn visit_table_ref(&mut self, relation: &TableRef<'a>) {
        if let TableRef::Table(t) = relation {
            self.found.push(Read {
                key: self.resolver.resolve(&t.name),
                span: t.name.span,
                streaming: t.stream.is_some(),
            });
        }
        visit::walk_table_ref(self, relation);
    }
}
