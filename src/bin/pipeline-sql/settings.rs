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

use marked_yaml::types::{MarkedMappingNode, MarkedScalarNode};
use marked_yaml::{LoadError, Node};
use pipeline_sql::{Code, Diagnostic, Span};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

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
    pub name: String,
    pub text: String,
    pub diagnostics: Vec<Diagnostic>,
}

/// One pipeline that settings declare.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Declared {
    pub name: String,
    /// Its SQL sources (Python ones are not checked).
    pub sources: Vec<PathBuf>,
    pub parameters: BTreeMap<String, String>,
    pub catalog: Option<String>,
    pub schema: Option<String>,
}

/// What a settings file and the files it includes declare.
#[derive(Default)]
pub struct Settings {
    pub files: Vec<File>,
    pub pipelines: Vec<Declared>,
    /// A target asked for that the bundle does not have: a usage error.
    pub unknown_target: Option<String>,
}

/// Reads the settings file at `path` (a bundle's root, or a spec), with `target` as the
/// bundle target (its default target when `None`) and `given` variable values, which win over
/// the bundle's own.
pub fn load(path: &Path, target: Option<&str>, given: &[(String, String)]) -> Settings {
    let mut reader = Reader::default();
    let Some(root) = reader.read(path) else {
        return reader.settings;
    };
    let is_spec = path
        .file_name()
        .is_some_and(|name| SPEC_FILES.iter().any(|n| name == *n));
    if is_spec {
        let pipeline = reader.spec(root, path);
        reader.settings.pipelines.extend(pipeline);
    } else {
        reader.bundle(root, path, target, given);
    }
    reader.settings
}

/// A settings file's parsed root, with the index of the file it came from.
struct Document {
    file: usize,
    root: MarkedMappingNode,
    dir: PathBuf,
}

#[derive(Default)]
struct Reader {
    settings: Settings,
}

impl Reader {
    /// Reads and parses the YAML file at `path` (its top level must be a mapping).
    fn read(&mut self, path: &Path) -> Option<Document> {
        let file = self.settings.files.len();
        let text = std::fs::read_to_string(path);
        self.settings.files.push(File {
            name: path.display().to_string(),
            text: text.as_ref().map_or_else(|_| String::new(), Clone::clone),
            diagnostics: Vec::new(),
        });
        let text = match text {
            Ok(text) => text,
            Err(e) => {
                self.report(file, Span::new(0, 0), format!("not read: {e}"));
                return None;
            }
        };
        let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
        match marked_yaml::parse_yaml(file, &text) {
            Ok(Node::Mapping(root)) => Some(Document { file, root, dir }),
            Ok(_) => unreachable!("parse_yaml returns a mapping or an error"),
            Err(error) => {
                let (at, message) = load_error(&error);
                let span = self.span_at(file, at);
                self.report(file, span, message);
                None
            }
        }
    }

    fn report(&mut self, file: usize, span: Span, message: impl Into<String>) {
        self.settings.files[file]
            .diagnostics
            .push(Diagnostic::error(
                Code::PipelineSettingsInvalid,
                span,
                message,
            ));
    }

    /// The span of one character at `marker` (a YAML position) in `file`.
    fn span_at(&self, file: usize, marker: Option<&marked_yaml::Marker>) -> Span {
        let text = &self.settings.files[file].text;
        let Some(marker) = marker else {
            return Span::new(0, 0);
        };
        let start = text
            .char_indices()
            .nth(marker.character())
            .map_or(text.len(), |(offset, _)| offset);
        let end = text[start..]
            .chars()
            .next()
            .map_or(start, |c| start + c.len_utf8());
        Span::new(start as u32, end as u32)
    }

    /// The span of the scalar `value` in `file`: its text, and its quotes when it has them.
    fn span_of_scalar(&self, file: usize, value: &MarkedScalarNode) -> Span {
        let at = self.span_at(file, value.span().start());
        let text = &self.settings.files[file].text[at.start as usize..];
        let quoted = text.starts_with(['"', '\'']);
        let length = value.as_str().len() + if quoted { 2 } else { 0 };
        let mut end = length.min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        Span::new(at.start, at.start + end as u32)
    }

    /// The span of `node` in `file`: its first character.
    fn span_of(&self, file: usize, node: &Node) -> Span {
        self.span_at(file, node.span().start())
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
            let span = self.span_of(file, node);
            self.report(file, span, format!("`{key}` should be {what}"));
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
                        values.insert(name.as_str().to_string(), vars.substitute(value));
                    }
                    None => {
                        let span = self.span_of(file, value);
                        self.report(
                            file,
                            span,
                            format!("the value of `{}` should be a single value", name.as_str()),
                        );
                    }
                }
            }
        }
        values
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
                let span = self.span_of(root.file, include);
                self.report(
                    root.file,
                    span,
                    "an `include` entry should be a path or a glob",
                );
                continue;
            };
            let matched = glob(&root.dir, pattern.as_str(), |_| true);
            if matched.is_empty() {
                let span = self.span_of(root.file, include);
                self.report(
                    root.file,
                    span,
                    format!("`{}` matches no file", pattern.as_str()),
                );
            }
            for file in matched {
                documents.extend(self.read(&file));
            }
        }
        documents.insert(0, root);
        let bundle_name = documents[0]
            .root
            .get_mapping("bundle")
            .and_then(|b| b.get_scalar("name"))
            .map(|n| n.as_str().to_string());
        // The target: the one asked for, or the one marked `default: true`.
        let targets: Vec<(usize, &MarkedScalarNode, &Node)> = documents
            .iter()
            .filter_map(|d| Some((d.file, d.root.get_mapping("targets")?)))
            .flat_map(|(file, targets)| targets.iter().map(move |(name, node)| (file, name, node)))
            .collect();
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
            None => targets.iter().find(|(_, _, node)| {
                node.as_mapping()
                    .and_then(|t| t.get_scalar("default"))
                    .and_then(|d| d.as_bool())
                    == Some(true)
            }),
        };
        let mut vars = Vars {
            values: BTreeMap::new(),
            target: chosen.map(|(_, name, _)| name.as_str().to_string()),
            bundle: bundle_name,
        };
        for document in &documents {
            if let Some(variables) = self.mapping(document.file, &document.root, "variables") {
                for (name, declared) in variables.iter() {
                    let default = declared
                        .as_mapping()
                        .and_then(|v| v.get_scalar("default"))
                        .or(declared.as_scalar());
                    if let Some(default) = default {
                        vars.values
                            .insert(name.as_str().to_string(), default.as_str().to_string());
                    }
                }
            }
        }
        let overrides = chosen.and_then(|(file, _, node)| Some((*file, node.as_mapping()?)));
        if let Some((file, target)) = overrides {
            if let Some(variables) = target.get_mapping("variables") {
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
                            let span = self.span_of_scalar(file, name);
                            self.report(
                                file,
                                span,
                                "a target's variable should be given a single value",
                            );
                        }
                    }
                }
            }
        }
        vars.values.extend(given.iter().cloned());
        // The pipelines, then the chosen target's settings over them.
        let mut pipelines: BTreeMap<String, Declared> = BTreeMap::new();
        let mut order = Vec::new();
        let resources = documents
            .iter()
            .map(|d| (d.file, &d.root, d.dir.clone()))
            .chain(overrides.map(|(file, target)| (file, target, documents_dir(&documents, file))));
        let resources: Vec<_> = resources.collect();
        for (file, holder, dir) in resources {
            let Some(all) = holder
                .get_mapping("resources")
                .and_then(|r| r.get_mapping("pipelines"))
            else {
                continue;
            };
            for (key, node) in all.iter() {
                let Some(settings) = node.as_mapping() else {
                    let span = self.span_of(file, node);
                    self.report(
                        file,
                        span,
                        format!(
                            "the pipeline `{}` should be a mapping of its settings",
                            key.as_str()
                        ),
                    );
                    continue;
                };
                let pipeline = pipelines
                    .entry(key.as_str().to_string())
                    .or_insert_with(|| {
                        order.push(key.as_str().to_string());
                        Declared::default()
                    });
                self.pipeline(file, settings, &dir, &vars, pipeline, key.as_str());
            }
        }
        for key in order {
            if let Some(pipeline) = pipelines.remove(&key) {
                self.settings.pipelines.push(pipeline);
            }
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
            Some(name) => pipeline.name = vars.substitute(name),
            None if pipeline.name.is_empty() => pipeline.name = key.to_string(),
            None => {}
        }
        if let Some(catalog) = self.text(file, settings, "catalog") {
            pipeline.catalog = vars.resolved(catalog);
        }
        for key in ["schema", "target"] {
            if let Some(schema) = self.text(file, settings, key) {
                pipeline.schema = vars.resolved(schema);
            }
        }
        pipeline
            .parameters
            .extend(self.values(file, settings, "configuration", vars));
        for library in self.list(file, settings, "libraries") {
            self.library(file, library, dir, vars, &mut pipeline.sources);
        }
    }

    /// Adds the SQL files of one `libraries` (or `definitions`) entry.
    fn library(
        &mut self,
        file: usize,
        library: &Node,
        dir: &Path,
        vars: &Vars,
        sources: &mut Vec<PathBuf>,
    ) {
        let Some(entry) = library.as_mapping() else {
            let span = self.span_of(file, library);
            self.report(file, span, "a library should be `file: {path: ...}`, `notebook: {path: ...}` or `glob: {include: ...}`");
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
                let span = self.span_of(file, node);
                self.report(
                    file,
                    span,
                    format!("`{}` should have a `{key}`", kind.as_str()),
                );
                continue;
            };
            let path = vars.substitute(value);
            let span = self.span_of_scalar(file, value);
            if let Some(unset) = path.split("${var.").nth(1) {
                let name = unset.split('}').next().unwrap_or(unset);
                let message = format!(
                    "the variable `{name}` has no value here: give it a default, or a value with --var {name}=VALUE"
                );
                self.report(file, span, message);
                continue;
            }
            if kind.as_str() == "glob" {
                let matched = glob(dir, &path, is_sql);
                sources.extend(matched.into_iter().map(tidy));
                continue;
            }
            let resolved = dir.join(&path);
            // A notebook is named without its extension.
            let candidates = std::iter::once(resolved.clone()).chain(
                NOTEBOOK_EXTENSIONS
                    .iter()
                    .map(|ext| resolved.with_extension(ext)),
            );
            match candidates.into_iter().find(|c| c.is_file()) {
                Some(found) if is_sql(&found) => sources.push(tidy(found)),
                Some(_) => {} // Python, which is not checked here.
                None => self.report(
                    file,
                    span,
                    format!(
                        "the library `{path}` does not exist (looked for {})",
                        resolved.display()
                    ),
                ),
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
        pipeline.catalog = self
            .text(file, &root.root, "catalog")
            .and_then(|c| vars.resolved(c));
        pipeline.schema = self
            .text(file, &root.root, "database")
            .or_else(|| root.root.get_scalar("schema"))
            .and_then(|s| vars.resolved(s));
        pipeline.parameters = self.values(file, &root.root, "configuration", &vars);
        for definition in self.list(file, &root.root, "definitions") {
            self.library(file, definition, &root.dir, &vars, &mut pipeline.sources);
        }
        Some(pipeline)
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

/// `path` without its `.` and `dir/..` parts (`resources/../src/a.sql` is `src/a.sql`), when
/// that is the same file (a link in the path can make it another).
fn tidy(path: PathBuf) -> PathBuf {
    use std::path::Component;
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
    let same = |a: &Path, b: &Path| matches!((std::fs::canonicalize(a), std::fs::canonicalize(b)), (Ok(a), Ok(b)) if a == b);
    if same(&tidied, &path) {
        tidied
    } else {
        path
    }
}

fn is_null(node: &Node) -> bool {
    node.as_scalar()
        .is_some_and(|s| matches!(s.as_str(), "" | "~" | "null"))
}

fn is_sql(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("sql"))
}

/// The files below `dir` that `pattern` (relative to `dir`; `**` spans directories, and a
/// pattern ending in `/**` matches every file below) matches and `keep` keeps, sorted.
fn glob(dir: &Path, pattern: &str, keep: impl Fn(&Path) -> bool) -> Vec<PathBuf> {
    let pattern = pattern.trim_start_matches("./");
    let Ok(matcher) = globset::GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()
        .map(|g| g.compile_matcher())
    else {
        return Vec::new();
    };
    // Walk from the pattern's literal start: `src/**/*.sql` from `src`.
    let literal: PathBuf = Path::new(pattern)
        .components()
        .take_while(|c| {
            !c.as_os_str()
                .to_string_lossy()
                .contains(['*', '?', '[', '{'])
        })
        .collect();
    let mut files: Vec<PathBuf> = ignore::WalkBuilder::new(dir.join(&literal))
        .standard_filters(false)
        .follow_links(true)
        .build()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
        .map(ignore::DirEntry::into_path)
        .filter(|path| {
            let relative = path.strip_prefix(dir).unwrap_or(path);
            matcher.is_match(relative) && keep(path)
        })
        .collect();
    files.sort();
    files
}

/// The values `${...}` stands for: `var.NAME`, `bundle.target`, `bundle.name`.
#[derive(Default)]
struct Vars {
    values: BTreeMap<String, String>,
    target: Option<String>,
    bundle: Option<String>,
}

impl Vars {
    /// `text` with every reference this knows replaced; the others stay as written.
    fn substitute(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(start) = rest.find("${") {
            out.push_str(&rest[..start]);
            let Some(end) = rest[start..].find('}') else {
                out.push_str(&rest[start..]);
                return out;
            };
            let reference = &rest[start + 2..start + end];
            let value = match reference.strip_prefix("var.") {
                Some(name) => self.values.get(name).cloned(),
                None if reference == "bundle.target" => self.target.clone(),
                None if reference == "bundle.name" => self.bundle.clone(),
                None => None,
            };
            out.push_str(value.as_deref().unwrap_or(&rest[start..=start + end]));
            rest = &rest[start + end + 1..];
        }
        out.push_str(rest);
        out
    }

    /// A catalog or schema name, when every reference in it has a value.
    fn resolved(&self, text: &str) -> Option<String> {
        let value = self.substitute(text);
        (!value.contains("${") && !value.is_empty()).then_some(value)
    }
}
