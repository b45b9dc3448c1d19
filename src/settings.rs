//! Pipeline settings files, read as the pipelines they declare: a Databricks bundle
//! (`databricks.yml` and the files its `include` names) and an open-source Spark pipeline spec
//! (`spark-pipeline.yml`).
//!
//! A bundle's pipelines are its `resources.pipelines` entries: their `libraries` (`file`,
//! `notebook`, `glob.include`, relative to the file that lists them), `configuration` (the
//! pipeline's parameters), `catalog` and `schema` (or the older `target`). `${var.name}` takes
//! the variable's `default`, or the value the chosen target gives it; a target's
//! `resources.pipelines` entries override the pipelines' settings. A spec declares one
//! pipeline: `definitions` (`glob.include`), `catalog`, `database` and `configuration`.
//!
//! What cannot be read as settings is a PIPELINE_SETTINGS_INVALID diagnostic on the settings
//! file, at the value in question.
//!
//! Settings come from strangers' pull requests too, so they are read as hostile:
//! - nothing outside the directory of the settings file is read, through `..`, an absolute
//!   path or a symbolic link, and a glob never walks above it;
//! - a file is read only when it is a regular file, and no further than the size limit;
//! - nesting deeper than 256 is refused before it is built (its drop would overflow
//!   the stack), and duplicate keys are refused;
//! - `${...}` expansion is bounded in depth and in the text it makes (16 MiB in all);
//! - every file is one source, however often and however it is reached.

use crate::{Code, Diagnostic, LineIndex, Span};
use marked_yaml::types::{MarkedMappingNode, MarkedScalarNode};
use marked_yaml::{LoadError, LoaderOptions, Node};
use std::cell::Cell;
use std::collections::{BTreeMap, HashSet};
use std::path::{Component, Path, PathBuf};

/// The deepest nesting of mappings and lists read; real settings nest a dozen deep.
const MAX_DEPTH: usize = 256;
/// The most text that `${...}` references may make in all, in bytes.
const EXPANSION_BUDGET: usize = 16 << 20;
/// How deep a variable's value may name other variables.
const MAX_REFERENCE_DEPTH: usize = 32;

/// The names a bundle's root file goes by.
const BUNDLE_FILES: &[&str] = &[
    "databricks.yml",
    "databricks.yaml",
    "bundle.yml",
    "bundle.yaml",
];
/// The names a Spark pipeline spec goes by.
const SPEC_FILES: &[&str] = &[
    "spark-pipeline.yml",
    "spark-pipeline.yaml",
    "pipeline.yml",
    "pipeline.yaml",
];

/// The settings file `path` is, or the one directly in the directory `path`.
pub fn settings_file(path: &Path) -> Option<PathBuf> {
    let named = |name: &std::ffi::OsStr| BUNDLE_FILES.iter().chain(SPEC_FILES).any(|n| name == *n);
    if path.is_file() {
        return path
            .file_name()
            .is_some_and(named)
            .then(|| path.to_path_buf());
    }
    BUNDLE_FILES
        .iter()
        .chain(SPEC_FILES)
        .map(|name| path.join(name))
        .find(|file| file.is_file())
}

/// The extensions of the notebooks a library may name without one; only SQL is checked.
const NOTEBOOK_EXTENSIONS: &[&str] = &["sql", "py", "ipynb", "scala", "r"];

/// A settings file that was read, and what is wrong in it.
pub struct File {
    /// Its path, as given or as reached from the settings file given.
    pub name: String,
    /// Its text (empty where it could not be read).
    pub text: String,
    /// What is wrong in it: PIPELINE_SETTINGS_INVALID at the value in question.
    pub diagnostics: Vec<Diagnostic>,
    /// It could not be read (the check ends with status 2, as for a source not read).
    pub unread: bool,
}

/// One pipeline that settings declare.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Declared {
    /// Its `name`, or its key in the settings.
    pub name: String,
    /// Its SQL sources (Python ones are not checked), each file once.
    pub sources: Vec<PathBuf>,
    /// Its `configuration`: the parameters that `${key}` in its SQL names.
    pub parameters: BTreeMap<String, String>,
    /// Its default catalog.
    pub catalog: Option<String>,
    /// Its default schema (`schema`, `target` in a bundle, `database` in a spec).
    pub schema: Option<String>,
    /// The files its libraries name, SQL or not.
    files: usize,
    /// Its sources, canonical.
    seen: HashSet<PathBuf>,
}

/// What a settings file and the files it includes declare.
#[derive(Default)]
pub struct Settings {
    /// The settings files read: the one given and those it includes.
    pub files: Vec<File>,
    /// The pipelines they declare, in the order declared.
    pub pipelines: Vec<Declared>,
    /// A target asked for that the bundle does not have: a usage error.
    pub unknown_target: Option<String>,
}

/// Reads the settings file at `path` (a bundle's root, or a spec), with `target` as the
/// bundle target (its default target when `None`) and `given` variable values, which win over
/// the bundle's own; no file larger than `limit` bytes is read.
pub fn load(path: &Path, target: Option<&str>, given: &[(String, String)], limit: u64) -> Settings {
    let mut reader = Reader {
        settings: Settings::default(),
        pending: Vec::new(),
        root: Bounds::of(path),
        limit,
        documents: HashSet::new(),
    };
    if let Some(root) = reader.read(path) {
        let is_spec = path
            .file_name()
            .is_some_and(|name| SPEC_FILES.iter().any(|n| name == *n));
        if is_spec {
            let pipeline = reader.spec(root, path);
            reader.settings.pipelines.extend(pipeline);
        } else {
            reader.bundle(root, path, target, given);
        }
    }
    reader.finish()
}

/// A settings file's parsed root, with the index of the file it came from.
struct Document {
    file: usize,
    root: MarkedMappingNode,
    dir: PathBuf,
}

/// Where a diagnostic goes in a settings file, in YAML's terms (characters from the start);
/// made a span of bytes by [`Reader::finish`], with one index of the file for all of them.
#[derive(Clone, Copy)]
enum At {
    /// The file's start.
    Start,
    /// One character.
    Char(usize),
    /// A scalar: where it starts, and how many characters its value has (its quotes, when it
    /// has them, are added).
    Scalar(usize, usize),
}

/// A diagnostic on a settings file, before its span is known.
struct Pending {
    file: usize,
    at: At,
    message: String,
    warning: bool,
}

struct Reader {
    settings: Settings,
    pending: Vec<Pending>,
    /// The directory of the settings file: nothing outside it is read.
    root: Bounds,
    /// The largest file read, in bytes.
    limit: u64,
    /// The settings files read, canonical: each is read once.
    documents: HashSet<PathBuf>,
}

impl Reader {
    /// Reads and parses the YAML file at `path` (its top level must be a mapping).
    fn read(&mut self, path: &Path) -> Option<Document> {
        let file = self.settings.files.len();
        let text = crate::files::read_regular(path, self.limit);
        self.settings.files.push(File {
            name: path.display().to_string(),
            text: text.as_ref().map_or_else(|_| String::new(), Clone::clone),
            diagnostics: Vec::new(),
            unread: text.is_err(),
        });
        if let Ok(canonical) = std::fs::canonicalize(path) {
            self.documents.insert(canonical);
        }
        let text = match text {
            Ok(text) => text,
            Err(e) => {
                self.report(file, At::Start, format!("not read: {e}"));
                return None;
            }
        };
        if let Some(at) = too_deep(&text) {
            let message = format!("nested more than {MAX_DEPTH} deep: not read further");
            self.report(file, At::Char(at), message);
            return None;
        }
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
        let dir = dir.unwrap_or(Path::new(".")).to_path_buf();
        let options = LoaderOptions::default().error_on_duplicate_keys(true);
        match marked_yaml::parse_yaml_with_options(file, &text, options) {
            Ok(Node::Mapping(root)) => Some(Document { file, root, dir }),
            Ok(_) => unreachable!("parse_yaml returns a mapping or an error"),
            Err(error) => {
                let (at, message) = load_error(&error);
                let at = at.map_or(At::Start, |m| At::Char(m.character()));
                self.report(file, at, message);
                None
            }
        }
    }

    fn report(&mut self, file: usize, at: At, message: impl Into<String>) {
        let message = message.into();
        self.pending.push(Pending {
            file,
            at,
            message,
            warning: false,
        });
    }

    /// The settings read, each diagnostic at its span.
    fn finish(mut self) -> Settings {
        let mut by_file: Vec<Vec<Pending>> = self.settings.files.iter().map(|_| vec![]).collect();
        for pending in self.pending {
            by_file[pending.file].push(pending);
        }
        for (file, pending) in self.settings.files.iter_mut().zip(by_file) {
            let index = LineIndex::new(&file.text);
            for p in pending {
                let span = span(&file.text, &index, p.at);
                file.diagnostics.push(match p.warning {
                    true => Diagnostic::warning(Code::PipelineSettingsInvalid, span, p.message),
                    false => Diagnostic::error(Code::PipelineSettingsInvalid, span, p.message),
                });
            }
        }
        self.settings
    }

    /// Where `value` is in `file`.
    fn at_scalar(value: &MarkedScalarNode) -> At {
        value.span().start().map_or(At::Start, |m| {
            At::Scalar(m.character(), value.as_str().chars().count())
        })
    }

    /// Where `node` is in `file`: its first character.
    fn at(node: &Node) -> At {
        node.span()
            .start()
            .map_or(At::Start, |m| At::Char(m.character()))
    }

    /// The value at `key` as `view` sees it (a mapping, a list, a scalar), or a diagnostic
    /// saying it should be `what` when it is something else. An absent key gives `None`, and
    /// so does an empty value where a mapping or a list is expected.
    fn expect<'n, T>(
        &mut self,
        file: usize,
        parent: &'n MarkedMappingNode,
        key: &str,
        view: impl Fn(&'n Node) -> Option<T>,
        what: &str,
    ) -> Option<T> {
        let node = parent.get_node(key)?;
        let seen = view(node);
        if seen.is_none() && !is_null(node) {
            self.report(file, Self::at(node), format!("`{key}` should be {what}"));
        }
        seen
    }

    fn mapping<'n>(
        &mut self,
        file: usize,
        parent: &'n MarkedMappingNode,
        key: &str,
    ) -> Option<&'n MarkedMappingNode> {
        self.expect(
            file,
            parent,
            key,
            Node::as_mapping,
            "a mapping of names to values",
        )
    }

    fn list<'n>(&mut self, file: usize, parent: &'n MarkedMappingNode, key: &str) -> &'n [Node] {
        self.expect(file, parent, key, Node::as_sequence, "a list")
            .map_or(&[], |list| list.as_slice())
    }

    fn text<'n>(
        &mut self,
        file: usize,
        parent: &'n MarkedMappingNode,
        key: &str,
    ) -> Option<&'n MarkedScalarNode> {
        self.expect(file, parent, key, Node::as_scalar, "a single value")
    }

    /// `value` with its `${...}` references replaced, or `None` and a diagnostic at it when
    /// they cannot be.
    fn substituted(
        &mut self,
        file: usize,
        value: &MarkedScalarNode,
        vars: &Vars,
    ) -> Option<String> {
        vars.substitute(value)
            .map_err(|why| self.report(file, Self::at_scalar(value), why))
            .ok()
    }

    /// The string values of the mapping at `key`, `${...}` substituted.
    fn values(
        &mut self,
        file: usize,
        parent: &MarkedMappingNode,
        key: &str,
        vars: &Vars,
    ) -> BTreeMap<String, String> {
        let mut values = BTreeMap::new();
        if let Some(mapping) = self.mapping(file, parent, key) {
            for (name, value) in mapping.iter() {
                match value.as_scalar() {
                    Some(value) => {
                        if let Some(value) = self.substituted(file, value, vars) {
                            values.insert(name.as_str().to_string(), value);
                        }
                    }
                    None => {
                        let message =
                            format!("the value of `{}` should be a single value", name.as_str());
                        self.report(file, Self::at(value), message);
                    }
                }
            }
        }
        values
    }

    /// The files `pattern` (a value at `at` of `file`, relative to `dir`) matches, or none and
    /// a diagnostic when it matches nothing or would reach outside the settings' directory.
    fn matched(&mut self, file: usize, at: At, dir: &Path, pattern: &str) -> Vec<PathBuf> {
        match glob(dir, pattern, &self.root) {
            Ok(files) if files.is_empty() => {
                self.report(file, at, format!("`{pattern}` matches no file"));
                files
            }
            Ok(files) => files,
            Err(why) => {
                self.report(file, at, why);
                Vec::new()
            }
        }
    }

    /// A bundle: its root, the files it includes, its variables, targets and pipelines.
    fn bundle(
        &mut self,
        root: Document,
        path: &Path,
        target: Option<&str>,
        given: &[(String, String)],
    ) {
        let mut documents = vec![];
        for include in self.list(root.file, &root.root, "include") {
            let Some(pattern) = include.as_scalar() else {
                let message = "an `include` entry should be a path or a glob";
                self.report(root.file, Self::at(include), message);
                continue;
            };
            let at = Self::at_scalar(pattern);
            for file in self.matched(root.file, at, &root.dir, pattern.as_str()) {
                // The bundle's own file, or one an earlier pattern matched.
                let read = std::fs::canonicalize(&file).is_ok_and(|f| self.documents.contains(&f));
                if !read {
                    documents.extend(self.read(&file));
                }
            }
        }
        documents.insert(0, root);
        let bundle_name = self
            .mapping(documents[0].file, &documents[0].root, "bundle")
            .and_then(|b| b.get_scalar("name"))
            .map(|n| n.as_str().to_string());
        // The target: the one asked for, or the one marked `default: true`.
        let mut targets: Vec<(usize, &MarkedScalarNode, &MarkedMappingNode)> = Vec::new();
        for document in &documents {
            let Some(all) = self.mapping(document.file, &document.root, "targets") else {
                continue;
            };
            for (name, node) in all.iter() {
                match node.as_mapping() {
                    Some(settings) => targets.push((document.file, name, settings)),
                    None if is_null(node) => {}
                    None => {
                        let message = format!(
                            "the target `{}` should be a mapping of its settings",
                            name.as_str()
                        );
                        self.report(document.file, Self::at(node), message);
                    }
                }
            }
        }
        let chosen = match target {
            Some(wanted) => {
                let found = targets.iter().find(|(_, name, _)| name.as_str() == wanted);
                if found.is_none() {
                    let known: Vec<&str> = targets.iter().map(|(_, n, _)| n.as_str()).collect();
                    self.settings.unknown_target = Some(format!(
                        "{}: no target `{wanted}`; its targets: {}",
                        path.display(),
                        if known.is_empty() {
                            "none".to_string()
                        } else {
                            known.join(", ")
                        }
                    ));
                    return;
                }
                found
            }
            None => targets.iter().find(|(_, _, settings)| {
                settings.get_scalar("default").and_then(|d| d.as_bool()) == Some(true)
            }),
        };
        let mut vars = Vars {
            target: chosen.map(|(_, name, _)| name.as_str().to_string()),
            bundle: bundle_name,
            ..Vars::default()
        };
        for document in &documents {
            let Some(variables) = self.mapping(document.file, &document.root, "variables") else {
                continue;
            };
            for (name, declared) in variables.iter() {
                let default = match declared {
                    Node::Scalar(value) => Some(value),
                    // A complex variable's default is a mapping or a list, which no path or
                    // setting read here names.
                    Node::Mapping(declared) => declared.get_scalar("default"),
                    Node::Sequence(_) => {
                        let message = format!(
                            "the variable `{}` should be a mapping of its `default`, `description` and other settings",
                            name.as_str()
                        );
                        self.report(document.file, Self::at(declared), message);
                        None
                    }
                };
                if let Some(default) = default {
                    vars.values
                        .insert(name.as_str().to_string(), default.as_str().to_string());
                }
            }
        }
        let overrides = chosen.map(|&(file, _, settings)| (file, settings));
        if let Some((file, target)) = overrides {
            if let Some(variables) = self.mapping(file, target, "variables") {
                for (name, value) in variables.iter() {
                    let value = value
                        .as_scalar()
                        .or_else(|| value.as_mapping().and_then(|v| v.get_scalar("default")));
                    match value {
                        Some(value) => {
                            vars.values
                                .insert(name.as_str().to_string(), value.as_str().to_string());
                        }
                        None => {
                            let message = "a target's variable should be given a single value";
                            self.report(file, Self::at_scalar(name), message);
                        }
                    }
                }
            }
        }
        vars.values.extend(given.iter().cloned());
        // The pipelines, then the chosen target's settings over them.
        let mut pipelines: BTreeMap<String, (Declared, usize, At)> = BTreeMap::new();
        let mut order = Vec::new();
        let resources = documents
            .iter()
            .map(|d| (d.file, &d.root, d.dir.clone()))
            .chain(overrides.map(|(file, target)| (file, target, documents_dir(&documents, file))));
        let resources: Vec<_> = resources.collect();
        for (file, holder, dir) in resources {
            let Some(all) = self
                .mapping(file, holder, "resources")
                .and_then(|r| self.mapping(file, r, "pipelines"))
            else {
                continue;
            };
            for (key, node) in all.iter() {
                let Some(settings) = node.as_mapping() else {
                    let message = format!(
                        "the pipeline `{}` should be a mapping of its settings",
                        key.as_str()
                    );
                    self.report(file, Self::at(node), message);
                    continue;
                };
                let (pipeline, _, _) =
                    pipelines
                        .entry(key.as_str().to_string())
                        .or_insert_with(|| {
                            order.push(key.as_str().to_string());
                            (Declared::default(), file, Self::at_scalar(key))
                        });
                self.pipeline(file, settings, &dir, &vars, pipeline, key.as_str());
            }
        }
        for key in order {
            let Some((pipeline, file, at)) = pipelines.remove(&key) else {
                continue;
            };
            if pipeline.files == 0 {
                let message = format!("the pipeline `{key}` has no source file in its libraries");
                self.report(file, at, message);
            }
            self.settings.pipelines.push(pipeline);
        }
    }

    /// Reads one pipeline's settings over what `pipeline` has (a target overrides them).
    fn pipeline(
        &mut self,
        file: usize,
        settings: &MarkedMappingNode,
        dir: &Path,
        vars: &Vars,
        pipeline: &mut Declared,
        key: &str,
    ) {
        match self.text(file, settings, "name") {
            Some(name) => {
                pipeline.name = self
                    .substituted(file, name, vars)
                    .unwrap_or(key.to_string())
            }
            None if pipeline.name.is_empty() => pipeline.name = key.to_string(),
            None => {}
        }
        if let Some(catalog) = self.text(file, settings, "catalog") {
            pipeline.catalog = self.resolved(file, catalog, vars);
        }
        for key in ["schema", "target"] {
            if let Some(schema) = self.text(file, settings, key) {
                pipeline.schema = self.resolved(file, schema, vars);
            }
        }
        let parameters = self.values(file, settings, "configuration", vars);
        pipeline.parameters.extend(parameters);
        for library in self.list(file, settings, "libraries") {
            self.library(file, library, dir, vars, pipeline);
        }
    }

    /// A catalog or schema name, when every reference in it has a value.
    fn resolved(&mut self, file: usize, value: &MarkedScalarNode, vars: &Vars) -> Option<String> {
        let value = self.substituted(file, value, vars)?;
        (!value.contains("${") && !value.is_empty()).then_some(value)
    }

    /// Adds the SQL files of one `libraries` (or `definitions`) entry.
    fn library(
        &mut self,
        file: usize,
        library: &Node,
        dir: &Path,
        vars: &Vars,
        pipeline: &mut Declared,
    ) {
        let Some(entry) = library.as_mapping() else {
            let message = "a library should be `file: {path: ...}`, `notebook: {path: ...}` or `glob: {include: ...}`";
            self.report(file, Self::at(library), message);
            return;
        };
        for (kind, node) in entry.iter() {
            let key = match kind.as_str() {
                "file" | "notebook" => "path",
                "glob" => "include",
                // Maven, jar, wheel and whl libraries hold no SQL.
                _ => continue,
            };
            let Some(value) = node.as_mapping().and_then(|m| m.get_scalar(key)) else {
                let message = format!("`{}` should have a `{key}`", kind.as_str());
                self.report(file, Self::at(node), message);
                continue;
            };
            let Some(path) = self.substituted(file, value, vars) else {
                continue;
            };
            let at = Self::at_scalar(value);
            if let Some(unset) = path.split("${var.").nth(1) {
                let name = unset.split('}').next().unwrap_or(unset);
                let message = format!(
                    "the variable `{name}` has no value here: give it a default, or a value with --var {name}=VALUE"
                );
                self.report(file, at, message);
                continue;
            }
            if Path::new(&path).has_root() {
                let message = format!(
                    "`{path}` is a path in the workspace, not a file here: it is not checked"
                );
                self.pending.push(Pending {
                    file,
                    at,
                    message,
                    warning: true,
                });
                continue;
            }
            let found = match kind.as_str() {
                "glob" => self.matched(file, at, dir, &path),
                _ => self.named(file, at, dir, &path).into_iter().collect(),
            };
            pipeline.files += found.len();
            for source in found.into_iter().filter(|f| is_sql(f)) {
                let canonical = std::fs::canonicalize(&source).unwrap_or_else(|_| source.clone());
                if pipeline.seen.insert(canonical) {
                    pipeline.sources.push(tidy(source));
                }
            }
        }
    }

    /// The file a `file` or `notebook` library names (a notebook is named without its
    /// extension), or none and a diagnostic when there is none inside the settings' directory.
    fn named(&mut self, file: usize, at: At, dir: &Path, path: &str) -> Option<PathBuf> {
        let resolved = dir.join(path);
        if !self.root.spelled_inside(&resolved) {
            let message = format!("`{path}` is outside the directory of the settings: not read");
            self.report(file, at, message);
            return None;
        }
        let candidates = std::iter::once(resolved.clone()).chain(
            NOTEBOOK_EXTENSIONS
                .iter()
                .map(|ext| resolved.with_extension(ext)),
        );
        let found = candidates.into_iter().find(|c| c.is_file());
        match found {
            Some(found) if self.root.inside(&found) => Some(found),
            Some(_) => {
                let message =
                    format!("`{path}` leads outside the directory of the settings: not read");
                self.report(file, at, message);
                None
            }
            None => {
                let message = format!(
                    "the library `{path}` does not exist (looked for {})",
                    resolved.display()
                );
                self.report(file, at, message);
                None
            }
        }
    }

    /// A Spark pipeline spec: one pipeline.
    fn spec(&mut self, root: Document, path: &Path) -> Option<Declared> {
        let file = root.file;
        let vars = Vars::default();
        let mut pipeline = Declared {
            name: self
                .text(file, &root.root, "name")
                .map_or_else(|| path.display().to_string(), |n| n.as_str().to_string()),
            ..Declared::default()
        };
        if let Some(catalog) = self.text(file, &root.root, "catalog") {
            pipeline.catalog = self.resolved(file, catalog, &vars);
        }
        let schema = self
            .text(file, &root.root, "database")
            .or_else(|| root.root.get_scalar("schema"));
        if let Some(schema) = schema {
            pipeline.schema = self.resolved(file, schema, &vars);
        }
        pipeline.parameters = self.values(file, &root.root, "configuration", &vars);
        for definition in self.list(file, &root.root, "definitions") {
            self.library(file, definition, &root.dir, &vars, &mut pipeline);
        }
        Some(pipeline)
    }
}

/// The byte span in `text` of a place that YAML gives in characters.
fn span(text: &str, index: &LineIndex<'_>, at: At) -> Span {
    let (start, chars) = match at {
        At::Start => return Span::new(0, 0),
        At::Char(start) => (start, 1),
        At::Scalar(start, chars) => {
            let first = index.char_offset(start) as usize;
            let quoted = text[first..].starts_with(['"', '\'']);
            (start, chars + if quoted { 2 } else { 0 })
        }
    };
    Span::new(index.char_offset(start), index.char_offset(start + chars))
}

/// Where YAML nesting first goes deeper than [`MAX_DEPTH`] in `text`, in characters; `None`
/// when it does not (or the text is not YAML, which the full parse reports). The parse here is
/// of events only, so that nothing deep is built.
fn too_deep(text: &str) -> Option<usize> {
    use yaml_rust2::parser::{Event, Parser};
    let mut parser = Parser::new_from_str(text);
    let mut depth = 0usize;
    loop {
        match parser.next_token().ok()? {
            (Event::StreamEnd, _) => return None,
            (Event::MappingStart(..) | Event::SequenceStart(..), at) => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Some(at.index());
                }
            }
            (Event::MappingEnd | Event::SequenceEnd, _) => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
}

/// The directory of the document read as `file`.
fn documents_dir(documents: &[Document], file: usize) -> PathBuf {
    documents
        .iter()
        .find(|d| d.file == file)
        .map_or_else(|| PathBuf::from("."), |d| d.dir.clone())
}

/// Where a YAML error is, and what it says.
fn load_error(error: &LoadError) -> (Option<&marked_yaml::Marker>, String) {
    match error {
        LoadError::TopLevelMustBeMapping(at) => (
            Some(at),
            "the settings should be a mapping of keys to values".to_string(),
        ),
        LoadError::TopLevelMustBeSequence(at) => (Some(at), "unexpected list".to_string()),
        LoadError::UnexpectedAnchor(at) => (
            Some(at),
            "YAML anchors and aliases are not supported by pipeline-sql".to_string(),
        ),
        LoadError::MappingKeyMustBeScalar(at) => {
            (Some(at), "a key should be a single value".to_string())
        }
        LoadError::UnexpectedTag(at) => (
            Some(at),
            "YAML tags are not supported by pipeline-sql".to_string(),
        ),
        LoadError::ScanError(at, e) => (Some(at), format!("not YAML: {}", e.info())),
        LoadError::DuplicateKey(inner) => (
            inner.key.span().start(),
            format!("`{}` is given twice", inner.key.as_str()),
        ),
        #[allow(unreachable_patterns)]
        other => (None, other.to_string()),
    }
}

/// `path` without its `.` and `dir/..` parts (`resources/../src/a.sql` is `src/a.sql`).
fn normalized(path: &Path) -> PathBuf {
    let mut tidied = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir
                if matches!(tidied.components().next_back(), Some(Component::Normal(_))) =>
            {
                tidied.pop();
            }
            other => tidied.push(other),
        }
    }
    tidied
}

/// `path` as [`normalized`] writes it, when that is the same file (a link in the path can make
/// it another).
fn tidy(path: PathBuf) -> PathBuf {
    let tidied = normalized(&path);
    let same = |a: &Path, b: &Path| matches!((std::fs::canonicalize(a), std::fs::canonicalize(b)), (Ok(a), Ok(b)) if a == b);
    if same(&tidied, &path) {
        tidied
    } else {
        path
    }
}

/// The directory that settings read below, and nothing above it.
struct Bounds {
    /// As spelled: absolute, without `.` and `..` parts.
    spelled: PathBuf,
    /// With its links followed.
    canonical: PathBuf,
}

impl Bounds {
    /// The bounds of the settings file at `path`: its directory.
    fn of(path: &Path) -> Self {
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
        let dir = dir.unwrap_or(Path::new("."));
        Bounds {
            spelled: absolute(dir),
            canonical: std::fs::canonicalize(dir).unwrap_or_else(|_| absolute(dir)),
        }
    }

    /// Whether `path`, its `..` parts taken as written, stays inside (asked before anything
    /// there is looked at).
    fn spelled_inside(&self, path: &Path) -> bool {
        absolute(path).starts_with(&self.spelled)
    }

    /// Whether `path`, which exists, is inside once its links are followed.
    fn inside(&self, path: &Path) -> bool {
        std::fs::canonicalize(path).is_ok_and(|p| p.starts_with(&self.canonical))
    }
}

/// `path` from the working directory, [`normalized`].
fn absolute(path: &Path) -> PathBuf {
    normalized(&std::env::current_dir().unwrap_or_default().join(path))
}

fn is_null(node: &Node) -> bool {
    node.as_scalar()
        .is_some_and(|s| matches!(s.as_str(), "" | "~" | "null"))
}

fn is_sql(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("sql"))
}

/// The regular files below `dir` that `pattern` (relative to `dir`; `**` spans directories,
/// and a pattern ending in `/**` matches every file below) matches, sorted; an error when the
/// pattern is absolute or reaches outside `root`. Links are followed only to what is inside.
fn glob(dir: &Path, pattern: &str, root: &Bounds) -> Result<Vec<PathBuf>, String> {
    let outside = || format!("`{pattern}` reaches outside the directory of the settings: not read");
    if Path::new(pattern).has_root() {
        return Err(outside());
    }
    let pattern = pattern.trim_start_matches("./");
    let matcher = globset::GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()
        .map_err(|e| format!("`{pattern}` is not a glob: {}", e.kind()))?
        .compile_matcher();
    // Walk from the pattern's literal start: `src/**/*.sql` from `src`.
    let literal: PathBuf = Path::new(pattern)
        .components()
        .take_while(|c| {
            !c.as_os_str()
                .to_string_lossy()
                .contains(['*', '?', '[', '{'])
        })
        .collect();
    let start = dir.join(&literal);
    if !root.spelled_inside(&start) {
        return Err(outside());
    }
    if !start.exists() {
        return Ok(Vec::new());
    }
    if !root.inside(&start) {
        return Err(outside());
    }
    let root = root.canonical.clone();
    let mut files: Vec<PathBuf> = ignore::WalkBuilder::new(&start)
        .standard_filters(false)
        .follow_links(true)
        .filter_entry(move |entry| {
            !entry.path_is_symlink()
                || std::fs::canonicalize(entry.path()).is_ok_and(|p| p.starts_with(&root))
        })
        .build()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
        .map(ignore::DirEntry::into_path)
        .filter(|path| matcher.is_match(path.strip_prefix(dir).unwrap_or(path)))
        .collect();
    files.sort();
    Ok(files)
}

/// The values `${...}` stands for: `var.NAME`, `bundle.target`, `bundle.name`.
#[derive(Default)]
struct Vars {
    values: BTreeMap<String, String>,
    target: Option<String>,
    bundle: Option<String>,
    /// The text expansion has made so far, against [`EXPANSION_BUDGET`].
    spent: Cell<usize>,
}

impl Vars {
    /// `text` with every reference this knows replaced, and the references in their values in
    /// turn; the others stay as written. An error when the references nest too deep (a
    /// variable that names itself) or make too much text.
    fn substitute(&self, text: &str) -> Result<String, String> {
        let mut out = String::with_capacity(text.len());
        self.expand(text, 0, &mut out)?;
        Ok(out)
    }

    fn expand(&self, text: &str, depth: usize, out: &mut String) -> Result<(), String> {
        let mut rest = text;
        while let Some(start) = rest.find("${") {
            self.emit(&rest[..start], out)?;
            let Some(end) = rest[start..].find('}') else {
                break;
            };
            let reference = &rest[start + 2..start + end];
            let value = match reference.strip_prefix("var.") {
                Some(name) => self.values.get(name).map(String::as_str),
                None if reference == "bundle.target" => self.target.as_deref(),
                None if reference == "bundle.name" => self.bundle.as_deref(),
                None => None,
            };
            match value {
                Some(_) if depth == MAX_REFERENCE_DEPTH => {
                    return Err(format!(
                        "`${{{reference}}}` names variables more than {MAX_REFERENCE_DEPTH} deep (a variable that names itself?)"
                    ))
                }
                Some(value) => self.expand(value, depth + 1, out)?,
                None => self.emit(&rest[start..=start + end], out)?,
            }
            rest = &rest[start + end + 1..];
        }
        self.emit(rest, out)
    }

    /// Adds `text` to `out`, within the budget.
    fn emit(&self, text: &str, out: &mut String) -> Result<(), String> {
        let spent = self.spent.get() + text.len();
        if spent > EXPANSION_BUDGET {
            return Err(format!(
                "the variables make more than {} MiB of text: not expanded further",
                EXPANSION_BUDGET >> 20
            ));
        }
        self.spent.set(spent);
        out.push_str(text);
        Ok(())
    }
}
