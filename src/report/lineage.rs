//! A pipeline's lineage: its datasets, its flows, and the edges from what each reads to what it
//! writes, as JSON (for tools), Graphviz DOT and Mermaid (for people).

use super::snippet::escape;
use super::{FileReport, Locator};
use crate::model::{Dataset, DatasetKind, Flow, FlowKind, Model};
use serde_json::{json, Value};
use std::collections::HashMap;

/// One pipeline to draw: its name, the reports of its files (in [`crate::FileId`] order, as
/// [`super::source_reports`] gives them) and its model.
pub struct Lineage<'a> {
    /// The pipeline's name.
    pub name: &'a str,
    /// Its files.
    pub files: &'a [FileReport<'a>],
    /// What it declares.
    pub model: &'a Model,
}

/// The nodes and edges of one pipeline: a node per dataset key (the first declaration) and per
/// name read or written that no dataset declares; an edge per relation a flow or a view reads.
struct Graph<'m> {
    nodes: Vec<Node<'m>>,
    edges: Vec<Edge<'m>>,
}

struct Node<'m> {
    key: &'m str,
    /// `None` for a name the pipeline does not declare.
    dataset: Option<&'m Dataset>,
}

struct Edge<'m> {
    from: usize,
    to: usize,
    /// The flow that reads, or `None` for a view's own query.
    flow: Option<&'m Flow>,
    streaming: bool,
}

impl<'m> Graph<'m> {
    fn new(model: &'m Model) -> Self {
        let mut graph = Graph {
            nodes: Vec::new(),
            edges: Vec::new(),
        };
        let mut index: HashMap<&str, usize> = HashMap::new();
        for dataset in &model.datasets {
            if !index.contains_key(dataset.key.as_str()) {
                index.insert(&dataset.key, graph.nodes.len());
                graph.nodes.push(Node {
                    key: &dataset.key,
                    dataset: Some(dataset),
                });
            }
        }
        let mut node = |key: &'m str, nodes: &mut Vec<Node<'m>>| {
            *index.entry(key).or_insert_with(|| {
                nodes.push(Node { key, dataset: None });
                nodes.len() - 1
            })
        };
        let views = model
            .datasets
            .iter()
            .flat_map(|d| d.reads.iter().map(move |r| (&d.key, None, r)));
        let flows = model
            .flows
            .iter()
            .flat_map(|f| f.reads.iter().map(move |r| (&f.target, Some(f), r)));
        for (to, flow, read) in flows.chain(views) {
            let to = node(to, &mut graph.nodes);
            let from = node(&read.key, &mut graph.nodes);
            graph.edges.push(Edge {
                from,
                to,
                flow,
                streaming: read.streaming,
            });
        }
        // A flow's target is a node even when the flow reads nothing.
        for flow in &model.flows {
            node(&flow.target, &mut graph.nodes);
        }
        graph
    }
}

fn flow_kind_name(kind: FlowKind) -> &'static str {
    match kind {
        FlowKind::Insert => "insert",
        FlowKind::ReplaceUsing => "replace_using",
        FlowKind::ReplaceWhere => "replace_where",
        FlowKind::AutoCdc => "auto_cdc",
        FlowKind::Snapshot => "snapshot",
    }
}

/// Renders the lineage of each pipeline as one JSON document:
///
/// ```text
/// {"pipelines":[{"name",
///   "datasets":[{"name","key","kind","file","line","column","span":{"start","end"}}],
///   "flows":[{"name","key","kind","target","implicit","once","cdc","file","line","column",
///             "reads":[{"key","streaming"}]}],
///   "edges":[{"from","to","flow","streaming"}],
///   "external":[key]}]}
/// ```
///
/// Keys are the resolved names that identify datasets in the pipeline. A dataset's `kind` is
/// `streaming_table`, `managed_table`, `materialized_view` or `view`; a flow's is `insert`,
/// `replace_using`, `replace_where`, `auto_cdc` or `snapshot` (`cdc` says whether it is one of
/// the last two), and `implicit` is a dataset's own flow (`AS query`). An edge goes from a name
/// read to the dataset written, through `flow` (`null` for a view's query). `external` lists
/// the names read or written that the pipeline does not declare. Lines and columns are 1-based
/// and count characters, as in the diagnostics.
pub fn render_lineage_json(pipelines: &[Lineage<'_>]) -> String {
    let pipelines: Vec<Value> = pipelines.iter().map(lineage_json).collect();
    json!({ "pipelines": pipelines }).to_string()
}

fn lineage_json(lineage: &Lineage<'_>) -> Value {
    let locator = Locator::new(lineage.files);
    let at = |file: crate::FileId, span: crate::Span| {
        let index = file.0 as usize;
        let (line, column) = locator.line_column(index, span.start);
        (lineage.files[index].path, line, column)
    };
    let datasets: Vec<Value> = lineage
        .model
        .datasets
        .iter()
        .map(|d| {
            let (file, line, column) = at(d.file, d.name_span);
            json!({
                "name": d.name, "key": d.key, "kind": d.kind.describe().replace(' ', "_"),
                "file": file, "line": line, "column": column,
                "span": { "start": d.span.start, "end": d.span.end },
            })
        })
        .collect();
    let flows: Vec<Value> = lineage
        .model
        .flows
        .iter()
        .map(|f| {
            let (file, line, column) = at(f.file, f.name_span);
            let reads: Vec<Value> = f
                .reads
                .iter()
                .map(|r| json!({ "key": r.key, "streaming": r.streaming }))
                .collect();
            json!({
                "name": f.name, "key": f.key, "kind": flow_kind_name(f.kind),
                "target": f.target, "implicit": f.implicit, "once": f.once,
                "cdc": matches!(f.kind, FlowKind::AutoCdc | FlowKind::Snapshot),
                "file": file, "line": line, "column": column, "reads": reads,
            })
        })
        .collect();
    let graph = Graph::new(lineage.model);
    let edges: Vec<Value> = graph
        .edges
        .iter()
        .map(|e| {
            json!({
                "from": graph.nodes[e.from].key, "to": graph.nodes[e.to].key,
                "flow": e.flow.map(|f| f.name.as_str()), "streaming": e.streaming,
            })
        })
        .collect();
    let mut external: Vec<&str> = graph
        .nodes
        .iter()
        .filter(|n| n.dataset.is_none())
        .map(|n| n.key)
        .collect();
    external.sort_unstable();
    json!({
        "name": lineage.name, "datasets": datasets, "flows": flows, "edges": edges,
        "external": external,
    })
}

/// Renders the lineage as one Graphviz digraph, each pipeline a cluster: datasets as boxes
/// (views as notes), names from outside the pipeline dashed, streaming reads bold, each edge
/// labelled with the flow that reads unless it is the dataset's own.
pub fn render_lineage_dot(pipelines: &[Lineage<'_>]) -> String {
    // Text in a DOT string: `"` and `\` escaped, control characters written out.
    fn inner(text: &str) -> String {
        escape(text).replace('\\', "\\\\").replace('"', "\\\"")
    }
    let mut out =
        String::from("digraph lineage {\n  rankdir=LR;\n  node [fontname=\"Helvetica\"];\n");
    for (p, lineage) in pipelines.iter().enumerate() {
        let graph = Graph::new(lineage.model);
        out.push_str(&format!(
            "  subgraph cluster_{p} {{\n    label=\"{}\";\n",
            inner(lineage.name)
        ));
        for (n, node) in graph.nodes.iter().enumerate() {
            let (label, attributes) = match node.dataset {
                // `\n` in a DOT label is a line break.
                Some(d) => (
                    format!("{}\\n{}", inner(&d.name), d.kind.describe()),
                    match d.kind {
                        DatasetKind::View => "shape=note",
                        DatasetKind::MaterializedView => "shape=box, style=rounded",
                        _ => "shape=box",
                    },
                ),
                None => (inner(node.key), "shape=box, style=dashed"),
            };
            out.push_str(&format!(
                "    p{p}n{n} [label=\"{label}\", {attributes}];\n"
            ));
        }
        for edge in &graph.edges {
            let mut attributes = Vec::new();
            if let Some(flow) = edge.flow.filter(|f| !f.implicit) {
                attributes.push(format!("label=\"{}\"", inner(&flow.name)));
            }
            if edge.streaming {
                attributes.push("style=bold".to_string());
            }
            out.push_str(&format!(
                "    p{p}n{} -> p{p}n{} [{}];\n",
                edge.from,
                edge.to,
                attributes.join(", ")
            ));
        }
        out.push_str("  }\n");
    }
    out.push_str("}\n");
    out
}

/// Renders the lineage as a Mermaid flowchart, each pipeline a subgraph: streaming tables as
/// rectangles, managed tables as cylinders, materialized views rounded, views as hexagons and
/// names from outside the pipeline as flags; streaming reads are thick arrows.
pub fn render_lineage_mermaid(pipelines: &[Lineage<'_>]) -> String {
    // A label on one line, with Mermaid's entity codes for every character that could end it
    // (`"`, `|`, `>`), make it markup (`<`, `&`) or a markdown string (a backquote), start a
    // directive or a comment (`%`), or read as an entity code (`#`).
    fn label(text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        for c in escape(text).chars() {
            match c {
                '#' | '&' | '"' | '|' | '<' | '>' | '%' | '`' => {
                    out.push_str(&format!("#{};", c as u32))
                }
                c => out.push(c),
            }
        }
        out
    }
    let mut out = String::from("flowchart LR\n");
    for (p, lineage) in pipelines.iter().enumerate() {
        let graph = Graph::new(lineage.model);
        out.push_str(&format!("  subgraph p{p}[\"{}\"]\n", label(lineage.name)));
        for (n, node) in graph.nodes.iter().enumerate() {
            let (open, close, text) = match node.dataset {
                Some(d) => {
                    let (open, close) = match d.kind {
                        DatasetKind::StreamingTable => ("[", "]"),
                        DatasetKind::ManagedTable => ("[(", ")]"),
                        DatasetKind::MaterializedView => ("(", ")"),
                        DatasetKind::View => ("{{", "}}"),
                    };
                    (
                        open,
                        close,
                        format!("{}<br/>{}", label(&d.name), d.kind.describe()),
                    )
                }
                None => (">", "]", label(node.key)),
            };
            out.push_str(&format!("    p{p}n{n}{open}\"{text}\"{close}\n"));
        }
        for edge in &graph.edges {
            let arrow = if edge.streaming { "==>" } else { "-->" };
            let via = match edge.flow.filter(|f| !f.implicit) {
                Some(flow) => format!("|\"{}\"|", label(&flow.name)),
                None => String::new(),
            };
            out.push_str(&format!(
                "    p{p}n{} {arrow}{via} p{p}n{}\n",
                edge.from, edge.to
            ));
        }
        out.push_str("  end\n");
    }
    out
}
