//! Rules over the whole pipeline (`docs/codes/`: managed tables, the pipeline as a whole, and
//! the flow rules that need all of it): names declared twice, flow targets, datasets without
//! flows, cycles, and flows that share a target.
//! Every rule groups with hash maps, so checking is linear in the size of the pipeline.

use super::SourceFacts;
use crate::diagnostic::{Code, Diagnostic, Edit, FileId, Fix};
use crate::model::{Dataset, DatasetKind, Flow, FlowKind, Model};
use crate::span::Span;
use crate::suggest::NearNames;
use std::cell::OnceCell;
use std::collections::HashMap;

/// Diagnostics per source, indexed by [`FileId`].
pub(crate) struct Sink<'d> {
    pub(crate) by_file: &'d mut [Vec<Diagnostic>],
}

impl Sink<'_> {
    fn push(&mut self, file: FileId, diagnostic: Diagnostic) {
        if let Some(list) = self.by_file.get_mut(file.0 as usize) {
            list.push(diagnostic);
        }
    }

    /// Pushes a diagnostic of `file` with a label at `other`, which may be in another file.
    fn push_labeled(
        &mut self,
        file: FileId,
        diagnostic: Diagnostic,
        other: (FileId, Span),
        message: &str,
    ) {
        let (other_file, span) = other;
        self.push(file, label(diagnostic, file, other_file, span, message));
    }
}

/// A label at `span` in `file`, seen from a diagnostic in `from`.
fn label(
    diagnostic: Diagnostic,
    from: FileId,
    file: FileId,
    span: Span,
    message: &str,
) -> Diagnostic {
    if from == file {
        diagnostic.with_label(span, message)
    } else {
        diagnostic.with_label_in(file, span, message)
    }
}

/// The first dataset declared under each name, for constant-time lookups; and, made when first
/// asked for, the names indexed for "did you mean".
struct Datasets<'m> {
    first: HashMap<&'m str, &'m Dataset>,
    /// The names in the order they are first declared.
    names: Vec<&'m str>,
    near: OnceCell<NearNames<'m>>,
}

impl<'m> Datasets<'m> {
    fn new(model: &'m Model) -> Self {
        let mut first = HashMap::new();
        let mut names = Vec::new();
        for d in &model.datasets {
            if let std::collections::hash_map::Entry::Vacant(entry) = first.entry(d.key.as_str()) {
                entry.insert(d);
                names.push(d.key.as_str());
            }
        }
        Datasets {
            first,
            names,
            near: OnceCell::new(),
        }
    }

    fn get(&self, key: &str) -> Option<&'m Dataset> {
        self.first.get(key).copied()
    }

    /// The dataset a name that resolves to none most likely means: one slip from it (the first
    /// declared of several).
    fn near(&self, key: &str) -> Option<&'m Dataset> {
        let near = self
            .near
            .get_or_init(|| NearNames::new(self.names.iter().copied()));
        self.get(near.near(key)?)
    }
}

/// `diagnostic`, at a name in `file` (at `span`) that resolves to no dataset, with "did you
/// mean" the dataset `meant`: a label at its declaration, the help (followed by `otherwise`),
/// and the (unsafe) fix that writes its name as it is declared.
fn did_you_mean(
    diagnostic: Diagnostic,
    (file, span): (FileId, Span),
    meant: &Dataset,
    otherwise: &str,
) -> Diagnostic {
    label(
        diagnostic,
        file,
        meant.file,
        meant.name_span,
        "declared here",
    )
    .with_help(format!("did you mean `{}`? {otherwise}", meant.name))
    .with_fix(Fix::unsafe_(
        format!("write `{}`", meant.name),
        vec![Edit::replace(span, meant.name.clone())],
    ))
}

pub(crate) fn check_pipeline(
    model: &Model,
    facts: &[SourceFacts],
    runs: &dyn Fn(Code) -> bool,
    sink: &mut Sink<'_>,
) {
    let datasets = Datasets::new(model);
    duplicate_datasets(model, sink);
    duplicate_flows(model, sink);
    let report_missing = runs(Code::InvalidFlowTargetNotFound);
    flow_targets(model, &datasets, facts, report_missing, sink);
    if runs(Code::PipelineDatasetWithoutFlow) {
        datasets_without_flows(model, sink);
    }
    if runs(Code::RunEmptyPipeline) {
        empty_pipeline(model, facts, sink);
    }
    if runs(Code::MisspeltDatasetRead) {
        misspelt_reads(model, &datasets, sink);
    }
    cycles(model, &datasets, sink);
    shared_targets(model, &datasets, sink);
}

/// In a complete pipeline, a read of a name it does not declare, one slip from one it does, is
/// most likely that dataset misspelt.
fn misspelt_reads(model: &Model, datasets: &Datasets<'_>, sink: &mut Sink<'_>) {
    let flow_reads = model
        .flows
        .iter()
        .flat_map(|f| f.reads.iter().map(move |r| (f.file, r)));
    let view_reads = model
        .datasets
        .iter()
        .flat_map(|d| d.reads.iter().map(move |r| (d.file, r)));
    // A name outside the pipeline is usually read many times: looked up once.
    let mut meant_by: HashMap<&str, Option<&Dataset>> = HashMap::new();
    for (file, read) in flow_reads.chain(view_reads) {
        if datasets.get(&read.key).is_some() {
            continue;
        }
        let near = meant_by
            .entry(&read.key)
            .or_insert_with(|| datasets.near(&read.key));
        let Some(meant) = *near else {
            continue;
        };
        let diagnostic = Diagnostic::warning(
            Code::MisspeltDatasetRead,
            read.span,
            format!(
                "`{}` is not a dataset of this pipeline, and `{}` is",
                read.key, meant.name
            ),
        );
        let otherwise = "Qualify the name if a table outside the pipeline is meant";
        sink.push(
            file,
            did_you_mean(diagnostic, (file, read.span), meant, otherwise),
        );
    }
}

/// A name declares one dataset; a streaming table cannot become a managed table.
fn duplicate_datasets(model: &Model, sink: &mut Sink<'_>) {
    let mut first: HashMap<&str, &Dataset> = HashMap::new();
    for d in &model.datasets {
        let Some(earlier) = first.get(d.key.as_str()).copied() else {
            first.insert(&d.key, d);
            continue;
        };
        let kinds = [earlier.kind, d.kind];
        let switch = kinds.contains(&DatasetKind::StreamingTable)
            && kinds.contains(&DatasetKind::ManagedTable);
        let diagnostic = if switch {
            Diagnostic::error(
                Code::CannotSwitchStreamingTableToManagedTable,
                d.name_span,
                format!(
                    "`{}` is declared both as a streaming table and as a managed table",
                    d.name
                ),
            )
            .with_help("a name keeps its kind: drop one declaration, or rename one of them")
        } else {
            Diagnostic::error(
                Code::PipelineDuplicateIdentifiersOutput,
                d.name_span,
                format!(
                    "the {} `{}` has the name of another dataset",
                    d.kind.describe(),
                    d.name
                ),
            )
            .with_help("give each dataset of the pipeline its own name")
        };
        let message = format!("the {} is declared here", earlier.kind.describe());
        sink.push_labeled(
            d.file,
            diagnostic,
            (earlier.file, earlier.name_span),
            &message,
        );
    }
}

/// Flow names are unique in a pipeline; a dataset defined with its query owns a flow of its name.
fn duplicate_flows(model: &Model, sink: &mut Sink<'_>) {
    let mut first: HashMap<&str, &Flow> = HashMap::new();
    for flow in &model.flows {
        let Some(earlier) = first.get(flow.key.as_str()).copied() else {
            first.insert(&flow.key, flow);
            continue;
        };
        if flow.implicit && earlier.implicit {
            continue; // two datasets of one name: reported as such
        }
        let what = |f: &Flow| {
            if f.implicit {
                "the implicit flow of the dataset"
            } else {
                "the flow"
            }
        };
        let diagnostic = Diagnostic::error(
            Code::PipelineDuplicateIdentifiersFlow,
            flow.name_span,
            format!("{} `{}` has the name of another flow", what(flow), flow.name),
        )
        .with_help("rename the flow: a dataset defined with AS query or FLOW already owns a flow of its own name");
        let message = format!("{} is declared here", what(earlier));
        sink.push_labeled(
            flow.file,
            diagnostic,
            (earlier.file, earlier.name_span),
            &message,
        );
    }
}

/// Flows write streaming tables (and managed tables with INSERT BY NAME flows only).
fn flow_targets(
    model: &Model,
    datasets: &Datasets<'_>,
    facts: &[SourceFacts],
    report_missing: bool,
    sink: &mut Sink<'_>,
) {
    for flow in model.flows.iter().filter(|f| !f.implicit) {
        let Some(target) = datasets.get(&flow.target) else {
            if report_missing {
                let diagnostic = Diagnostic::error(
                    Code::InvalidFlowTargetNotFound,
                    flow.target_span,
                    format!(
                        "the flow `{}` writes `{}`, which the pipeline does not declare",
                        flow.name, flow.target
                    ),
                );
                let declare =
                    "declare the target with `CREATE OR REFRESH STREAMING TABLE` or `CREATE TABLE`";
                let diagnostic = match datasets.near(&flow.target) {
                    Some(meant) => {
                        let at = (flow.file, flow.target_span);
                        did_you_mean(diagnostic, at, meant, &format!("Otherwise {declare}"))
                    }
                    None => diagnostic.with_help(declare),
                };
                sink.push(flow.file, diagnostic);
            }
            continue;
        };
        let code = match (target.kind, flow.kind) {
            (DatasetKind::MaterializedView, _) => Some(Code::InvalidFlowTargetMaterializedView),
            (DatasetKind::View, _) => Some(Code::InvalidFlowTargetView),
            (DatasetKind::ManagedTable, FlowKind::AutoCdc | FlowKind::Snapshot) => {
                Some(Code::ManagedTableDoesNotSupportCdc)
            }
            (DatasetKind::ManagedTable, FlowKind::ReplaceUsing | FlowKind::ReplaceWhere) => {
                Some(Code::ManagedTableDoesNotSupportReplaceWhere)
            }
            _ => None,
        };
        if let Some(code) = code {
            let (message, help) = match code {
                Code::ManagedTableDoesNotSupportCdc => (
                    format!("`{}` is a managed table, which AUTO CDC flows cannot write", target.name),
                    "declare the target with `CREATE OR REFRESH STREAMING TABLE` for change data capture",
                ),
                Code::ManagedTableDoesNotSupportReplaceWhere => (
                    format!("`{}` is a managed table, which only INSERT BY NAME flows can write", target.name),
                    "write an INSERT BY NAME flow, or declare the target as a streaming table",
                ),
                _ => (
                    format!("a flow cannot write the {} `{}`", target.kind.describe(), target.name),
                    "flows write streaming tables and managed tables; a view is defined by its own query",
                ),
            };
            let diagnostic = Diagnostic::error(code, flow.target_span, message).with_help(help);
            let declared = format!("declared as a {} here", target.kind.describe());
            sink.push_labeled(
                flow.file,
                diagnostic,
                (target.file, target.name_span),
                &declared,
            );
            continue;
        }
        if target.kind == DatasetKind::StreamingTable {
            let batch = facts
                .get(flow.file.0 as usize)
                .and_then(|f| f.batch_reads.get(&flow.statement));
            if let Some(diagnostic) = batch.cloned() {
                let message = "the streaming table is declared here";
                sink.push_labeled(
                    flow.file,
                    diagnostic,
                    (target.file, target.name_span),
                    message,
                );
            }
        }
    }
}

/// A streaming or managed table holds what its flows write: without one it stays empty.
fn datasets_without_flows(model: &Model, sink: &mut Sink<'_>) {
    let written: HashMap<&str, ()> = model
        .flows
        .iter()
        .map(|f| (f.target.as_str(), ()))
        .collect();
    for d in &model.datasets {
        let table = matches!(
            d.kind,
            DatasetKind::StreamingTable | DatasetKind::ManagedTable
        );
        if table && !written.contains_key(d.key.as_str()) {
            sink.push(
                d.file,
                Diagnostic::error(
                    Code::PipelineDatasetWithoutFlow,
                    d.name_span,
                    format!("no flow writes the {} `{}`", d.kind.describe(), d.name),
                )
                .with_help(format!("define it with `AS <query>` or a FLOW clause, or add `CREATE FLOW ... INTO {}`", d.name)),
            );
        }
    }
}

/// A pipeline runs to update datasets; one without datasets has nothing to do.
fn empty_pipeline(model: &Model, facts: &[SourceFacts], sink: &mut Sink<'_>) {
    if model.datasets.is_empty() && !facts.is_empty() {
        sink.push(
            FileId(0),
            Diagnostic::error(
                Code::RunEmptyPipeline,
                Span::new(0, 0),
                "the pipeline defines no dataset",
            )
            .with_help("declare a streaming table, a materialized view or a view"),
        );
    }
}

/// How many datasets of a cycle its diagnostic names.
const CYCLE_SHOWN: usize = 10;

/// Datasets may not read each other in a cycle: each SCC larger than one dataset (or a dataset
/// reading itself) is reported once, with one cycle through it.
fn cycles(model: &Model, datasets: &Datasets<'_>, sink: &mut Sink<'_>) {
    let graph = model.dependencies();
    let index: HashMap<&str, usize> = graph
        .iter()
        .enumerate()
        .map(|(i, (k, _))| (k.as_str(), i))
        .collect();
    let edges: Vec<Vec<usize>> = graph
        .iter()
        .map(|(_, reads)| {
            reads
                .iter()
                .filter_map(|r| index.get(r.as_str()).copied())
                .collect()
        })
        .collect();
    for component in strongly_connected(&edges) {
        let self_loop = component.len() == 1 && edges[component[0]].contains(&component[0]);
        if component.len() < 2 && !self_loop {
            continue;
        }
        let path = cycle_through(&edges, &component);
        let mut names: Vec<&str> = path.iter().map(|&i| graph[i].0.as_str()).collect();
        let Some(first) = datasets.get(names[0]) else {
            continue;
        };
        // A long cycle is named by its first datasets and its last, so that the diagnostic
        // stays readable (and its size bounded).
        let whole = names.len();
        if whole > CYCLE_SHOWN {
            names.drain(CYCLE_SHOWN - 1..whole - 1);
        }
        let mut shown = names.join(" -> ");
        if whole > CYCLE_SHOWN {
            let last = shown.rfind(" -> ").unwrap_or(0);
            shown.insert_str(last, &format!(" -> ... ({} more)", whole - CYCLE_SHOWN));
        }
        let mut diagnostic = Diagnostic::error(
            Code::PipelineCircularDependency,
            first.name_span,
            format!(
                "datasets read each other in a cycle: {shown} -> {}",
                names[0]
            ),
        )
        .with_help("break the cycle: one of these datasets must not read the next");
        for name in &names[1..] {
            if let Some(d) = datasets.get(name) {
                diagnostic = label(
                    diagnostic,
                    first.file,
                    d.file,
                    d.name_span,
                    "part of the cycle",
                );
            }
        }
        sink.push(first.file, diagnostic);
    }
}

/// Tarjan's algorithm, iterative so that a long chain of datasets cannot exhaust the stack.
/// Components come out with their members in discovery order.
fn strongly_connected(edges: &[Vec<usize>]) -> Vec<Vec<usize>> {
    const UNSEEN: usize = usize::MAX;
    let n = edges.len();
    let (mut order, mut low, mut on_stack) = (vec![UNSEEN; n], vec![0; n], vec![false; n]);
    let (mut stack, mut components, mut counter) = (Vec::new(), Vec::new(), 0);
    for root in 0..n {
        if order[root] != UNSEEN {
            continue;
        }
        let mut work = vec![(root, 0usize)];
        while let Some(&mut (node, ref mut next)) = work.last_mut() {
            if *next == 0 {
                order[node] = counter;
                low[node] = counter;
                counter += 1;
                stack.push(node);
                on_stack[node] = true;
            }
            if let Some(&to) = edges[node].get(*next) {
                *next += 1;
                if order[to] == UNSEEN {
                    work.push((to, 0));
                } else if on_stack[to] {
                    low[node] = low[node].min(order[to]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[node]);
            }
            if low[node] == order[node] {
                let mut component = Vec::new();
                while let Some(member) = stack.pop() {
                    on_stack[member] = false;
                    component.push(member);
                    if member == node {
                        break;
                    }
                }
                component.sort_unstable();
                components.push(component);
            }
        }
    }
    components
}

/// One cycle inside a strongly connected component, starting at its first member.
fn cycle_through(edges: &[Vec<usize>], component: &[usize]) -> Vec<usize> {
    let start = component[0];
    let inside = |node: usize| component.binary_search(&node).is_ok();
    // Breadth-first search from the start back to itself, staying inside the component.
    let mut previous: HashMap<usize, usize> = HashMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(node) = queue.pop_front() {
        for &to in &edges[node] {
            if to == start {
                let mut path = vec![node];
                while let Some(&p) = previous.get(path.last().unwrap_or(&start)) {
                    path.push(p);
                }
                if path.last() != Some(&start) {
                    path.push(start);
                }
                path.reverse();
                path.dedup();
                return path;
            }
            if inside(to) && to != start && !previous.contains_key(&to) {
                previous.insert(to, node);
                queue.push_back(to);
            }
        }
    }
    vec![start]
}

/// Rules for flows that write the same target: snapshot flows with each other and with
/// change-feed flows.
fn shared_targets(model: &Model, datasets: &Datasets<'_>, sink: &mut Sink<'_>) {
    let mut by_target: HashMap<&str, Vec<&Flow>> = HashMap::new();
    for flow in &model.flows {
        by_target
            .entry(flow.target.as_str())
            .or_default()
            .push(flow);
    }
    let mut targets: Vec<_> = by_target.into_iter().collect();
    targets.sort_by_key(|(_, flows)| (flows[0].file, flows[0].span.start));
    for (target, flows) in targets {
        let repeating_snapshots: Vec<&Flow> = flows
            .iter()
            .copied()
            .filter(|f| f.kind == FlowKind::Snapshot && !f.once)
            .collect();
        if let [first, second, ..] = repeating_snapshots.as_slice() {
            let diagnostic = Diagnostic::error(
                Code::ApplyChangesFromSnapshotMultipleQueriesForTable,
                second.name_span,
                format!("two repeating snapshot flows write `{target}`"),
            )
            .with_help("keep one snapshot flow per target, or make the others one-time loads with AUTO CDC ONCE");
            sink.push_labeled(
                second.file,
                diagnostic,
                (first.file, first.name_span),
                "the other snapshot flow",
            );
        }
        for snapshot in flows.iter().filter(|f| f.kind == FlowKind::Snapshot) {
            snapshot_with_other_flows(datasets, target, snapshot, &flows, sink);
        }
    }
}

fn snapshot_with_other_flows(
    datasets: &Datasets<'_>,
    target: &str,
    snapshot: &Flow,
    flows: &[&Flow],
    sink: &mut Sink<'_>,
) {
    for other in flows.iter().filter(|f| !std::ptr::eq(**f, snapshot)) {
        if other.kind == FlowKind::AutoCdc && !snapshot.keys.is_empty() && !other.keys.is_empty() {
            let mut a = snapshot.keys.clone();
            let mut b = other.keys.clone();
            a.sort();
            b.sort();
            if a != b && (snapshot.file, snapshot.span.start) < (other.file, other.span.start) {
                let diagnostic = Diagnostic::error(
                    Code::ApplyChangesFromSnapshotInteropKeysMismatch,
                    other.keys_span.unwrap_or(other.name_span),
                    format!("the flows into `{target}` disagree on KEYS"),
                )
                .with_help("give the snapshot flow and the change-feed flow the same KEYS");
                let span = snapshot.keys_span.unwrap_or(snapshot.name_span);
                sink.push_labeled(
                    other.file,
                    diagnostic,
                    (snapshot.file, span),
                    "the snapshot flow's KEYS",
                );
            }
        }
        if !snapshot.with_version {
            implicit_version_type(datasets, target, snapshot, other, sink);
        }
    }
    if !snapshot.once && !snapshot.with_version {
        if let Some(other) = flows
            .iter()
            .find(|f| !std::ptr::eq(**f, snapshot) && !f.once)
        {
            let diagnostic = Diagnostic::error(
                Code::AutoCdcFromSnapshotNonEmptyTargetWithoutVersion,
                snapshot.name_span,
                format!("the snapshot flow `{}` has no WITH VERSION, and another flow also writes `{target}`: the snapshot flow fails once the target has data", snapshot.name),
            )
            .with_help("add `WITH VERSION (<query>)`, or make the snapshot flow a one-time load with AUTO CDC ONCE");
            sink.push_labeled(
                snapshot.file,
                diagnostic,
                (other.file, other.name_span),
                "this flow also writes the target",
            );
        }
    }
}

/// A snapshot flow without WITH VERSION versions by timestamp, so a change-feed flow into the
/// same target must sequence by a TIMESTAMP column.
fn implicit_version_type(
    datasets: &Datasets<'_>,
    target: &str,
    snapshot: &Flow,
    other: &Flow,
    sink: &mut Sink<'_>,
) {
    let Some((column, span)) = &other.sequence_column else {
        return;
    };
    let Some(dataset) = datasets.get(target) else {
        return;
    };
    let declared = dataset.columns.iter().find(|(name, _)| name == column);
    if let Some((_, Some(data_type))) = declared {
        if !data_type.eq_ignore_ascii_case("timestamp") {
            let diagnostic = Diagnostic::error(
                Code::AutoCdcFromSnapshotVersionSchemaChanged,
                *span,
                format!(
                    "`{column}` is a {data_type}, but the snapshot flow `{}` into `{target}` versions by TIMESTAMP",
                    snapshot.name
                ),
            )
            .with_help("sequence by a TIMESTAMP column, or give the snapshot flow a WITH VERSION query of the same type");
            sink.push_labeled(
                other.file,
                diagnostic,
                (snapshot.file, snapshot.name_span),
                "the snapshot flow without WITH VERSION",
            );
        }
    }
}
