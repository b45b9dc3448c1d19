//! The command line against hostile input: file names, identifiers and settings files written
//! to forge output, escape the directory given, exhaust the machine, or make `--fix` lose data.
//! Each test here failed before the behaviour it guards was built.
#![cfg(feature = "cli")]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Runs `pipeline-sql ARGS` in `dir`, with no stdin.
fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pipeline-sql"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A fresh directory for one test, under the system's temporary directory.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "pipeline-sql-hostile-{}-{test}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes each `(path, text)` below `dir`, making the directories on the way.
fn write(dir: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

/// The lines of `text` that a GitHub Actions runner would read as a workflow command: after
/// white space, `::` or the older `##[`.
fn commands(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|line| {
            let line = line.trim_start();
            line.starts_with("::") || line.starts_with("##[")
        })
        .collect()
}

#[test]
fn no_name_or_identifier_forges_a_workflow_command() {
    let dir = scratch("forge");
    let forged = "\n::error file=README.md::forged\n##[warning]forged\n::add-mask::x";
    write(
        &dir,
        &[(
            &format!("a{}.sql", forged.replace('\n', "\r\n")),
            &format!(
                "CREATE FLOW `f{forged}` AS INSERT INTO `t{forged}` BY NAME SELECT 1;\n\
                 CREATE STREAMING TABLE `s{forged}` (CONSTRAINT `c{forged}` EXPECT (x));\n\
                 SELECT (;\n"
            ),
        )],
    );
    for format in ["human", "concise"] {
        let output = run(&dir, &["check", "--format", format, "--pipeline", "."]);
        let text = stdout(&output);
        assert_eq!(output.status.code(), Some(1), "{text}");
        assert!(
            text.contains("forged"),
            "{format}: the names are shown: {text}"
        );
        assert_eq!(commands(&text), Vec::<&str>::new(), "{format}: {text}");
    }
    // The workflow commands of the github format are its own, one a diagnostic.
    let output = run(&dir, &["check", "--format", "github", "--pipeline", "."]);
    let text = stdout(&output);
    let diagnostics = text.lines().count() - 1;
    assert!(diagnostics >= 3, "{text}");
    assert_eq!(commands(&text).len(), diagnostics, "{text}");
    for line in commands(&text) {
        assert!(line.starts_with("::error ") || line.starts_with("::warning "));
    }
}

#[test]
fn wrapped_messages_cannot_start_a_command_either() {
    // Names that the human report's help wraps at its width, the wrap falling before `::`.
    let dir = scratch("wrap");
    for pad in 40..120 {
        let name = format!("s{} ::error::forged", "x".repeat(pad));
        let sql = format!("CREATE STREAMING TABLE `{name}`;\n");
        write(&dir, &[(&format!("f{pad}.sql"), &sql)]);
    }
    let output = run(&dir, &["check", "--pipeline", "."]);
    let text = stdout(&output);
    assert!(text.contains("::error::forged"), "{text}");
    assert_eq!(commands(&text), Vec::<&str>::new(), "{text}");
}

/// The lineage of one source, in `format`.
fn graph(dir: &Path, format: &str) -> String {
    let output = run(dir, &["graph", "--format", format, "."]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    stdout(&output)
}

/// Dataset names written to break out of a DOT or Mermaid label.
const HOSTILE_NAMES: [&str; 6] = [
    "a\"]\n  click p0n0 call alert()\n  x[\"",
    "%%{init: {'theme':'dark'}}%%",
    "`**markdown**`",
    "#quot; #35; &amp; <b>",
    "a|b --> c; d>e",
    "back\\slash \\N",
];

/// A directory with one source whose datasets and flows have the hostile names.
fn hostile_lineage(test: &str) -> PathBuf {
    let dir = scratch(test);
    let mut sql = String::new();
    for (i, name) in HOSTILE_NAMES.iter().enumerate() {
        let name = name.replace('`', "``");
        sql.push_str(&format!(
            "CREATE MATERIALIZED VIEW `{name}` AS SELECT * FROM `src {name}`;\n\
             CREATE FLOW `flow{i} {name}` AS INSERT INTO t BY NAME SELECT * FROM `{name}`;\n"
        ));
    }
    write(&dir, &[("p.sql", &sql)]);
    dir
}

#[test]
fn lineage_labels_cannot_break_out() {
    let dir = hostile_lineage("lineage");
    let mermaid = graph(&dir, "mermaid");
    // Every line is one statement of the shapes the renderer writes.
    for line in mermaid.lines() {
        let line = line.trim_start();
        let known = ["flowchart LR", "subgraph p0[\"", "end", "p0n"];
        assert!(
            known.iter().any(|k| line.starts_with(k)),
            "{line}\n{mermaid}"
        );
        assert!(!line.contains("%%") && !line.contains('`'), "{line}");
        // Quotes only open and close labels: an even count, and no quote inside a label.
        let labels: Vec<&str> = line.split('"').skip(1).step_by(2).collect();
        for label in labels {
            let label = label.replace("<br/>", "");
            assert!(!label.contains(['|', '<', '>', '%']), "{line}");
        }
        assert_eq!(line.matches('"').count() % 2, 0, "{line}");
    }
    let dot = graph(&dir, "dot");
    for line in dot.lines() {
        let line = line.trim_start();
        let known = [
            "digraph lineage {",
            "rankdir=LR;",
            "node [",
            "subgraph cluster_0 {",
        ];
        let known = known.iter().any(|k| line.starts_with(k))
            || line.starts_with("label=\"")
            || line.starts_with("p0n")
            || line == "}";
        assert!(known, "{line}\n{dot}");
        // Every quote inside a string is escaped: unescaped quotes pair up.
        let unescaped = line.replace("\\\\", "").replace("\\\"", "");
        assert_eq!(unescaped.matches('"').count() % 2, 0, "{line}");
    }
}

/// `check --format concise ARGS` in `dir`: the exit status and the report's lines.
fn concise(dir: &Path, args: &[&str]) -> (Option<i32>, Vec<String>) {
    let mut all = vec!["check", "--format", "concise"];
    all.extend(args);
    let output = run(dir, &all);
    let lines = stdout(&output)
        .lines()
        .chain(stderr(&output).lines())
        .map(str::to_string)
        .collect();
    (output.status.code(), lines)
}

/// A bundle whose one pipeline `p` has `libraries` (YAML list items, indented for their place).
fn bundle(libraries: &str) -> String {
    format!("resources:\n  pipelines:\n    p:\n      libraries:\n{libraries}")
}

fn has(lines: &[String], wanted: &str) -> bool {
    lines.iter().any(|l| l.contains(wanted))
}

#[test]
fn deep_yaml_is_refused_not_a_stack_overflow() {
    let dir = scratch("deep");
    // Block sequences on one line, and block mappings of explicit keys.
    for deep in ["- ".repeat(30_000) + "x\n", "? ".repeat(30_000) + "x\n"] {
        for name in ["databricks.yml", "spark-pipeline.yml"] {
            write(&dir, &[(name, &format!("resources:\n  {deep}"))]);
            let (status, lines) = concise(&dir, &[name]);
            assert_eq!(status, Some(1), "{lines:?}");
            assert!(
                has(&lines, "PIPELINE_SETTINGS_INVALID] nested more than"),
                "{lines:?}"
            );
            std::fs::remove_file(dir.join(name)).unwrap();
        }
    }
}

/// A bundle in `dir/bundle` beside `dir/secret.sql`, a file it must never read.
fn beside_a_secret(test: &str) -> PathBuf {
    let dir = scratch(test);
    write(
        &dir,
        &[
            ("secret.sql", "-- password=hunter2\nSELECT (;\n"),
            ("secret.yml", "# password=hunter2\nresources: [\n"),
            (
                "bundle/src/a.sql",
                "CREATE MATERIALIZED VIEW a AS SELECT 1;\n",
            ),
        ],
    );
    dir.join("bundle")
}

#[test]
fn nothing_outside_the_bundle_is_read() {
    let bundle_dir = beside_a_secret("outside");
    let secret = bundle_dir.parent().unwrap().join("secret.sql");
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&secret, bundle_dir.join("src/link.sql")).unwrap();
        std::os::unix::fs::symlink("../..", bundle_dir.join("src/up")).unwrap();
    }
    let item = |kind: &str, key: &str, path: &str| {
        format!("        - {kind}:\n            {key}: \"{path}\"\n        - file:\n            path: src/a.sql\n")
    };
    let outside = "is outside the directory of the settings";
    let leads = "leads outside the directory of the settings";
    let reaches = "reaches outside the directory of the settings";
    let cases = [
        (item("file", "path", "../secret.sql"), outside, 1),
        (item("notebook", "path", "../secret"), outside, 1),
        (item("file", "path", "src/link.sql"), leads, 1),
        (item("glob", "include", "../*.sql"), reaches, 1),
        (item("glob", "include", "src/up/**"), reaches, 1),
        // The walk passes over the links that lead out.
        (
            item("glob", "include", "src/**/*.sql"),
            "checked 1 file, 1 statement",
            0,
        ),
    ];
    for (library, wanted, expected) in cases {
        write(&bundle_dir, &[("databricks.yml", &bundle(&library))]);
        for fix in [&[][..], &["--fix"][..]] {
            let mut args = fix.to_vec();
            args.push("databricks.yml");
            let (status, lines) = concise(&bundle_dir, &args);
            assert!(
                !has(&lines, "hunter2") && !has(&lines, "secret.sql:"),
                "{lines:?}"
            );
            assert!(has(&lines, wanted), "{library}: {lines:?}");
            assert_eq!(status, Some(expected), "{lines:?}");
        }
    }
    let includes = ["../secret.yml", "/*.yml", "/proc/*", "src/up/*.yml"];
    for include in includes {
        write(
            &bundle_dir,
            &[(
                "databricks.yml",
                &format!(
                    "include:\n  - \"{include}\"\n{}",
                    bundle("        - file:\n            path: src/a.sql\n")
                ),
            )],
        );
        let started = std::time::Instant::now();
        let (status, lines) = concise(&bundle_dir, &["databricks.yml"]);
        assert!(started.elapsed().as_secs() < 20, "{include} walked too far");
        assert_eq!(status, Some(1), "{lines:?}");
        assert!(!has(&lines, "hunter2"), "{lines:?}");
        let wanted = format!("`{include}` reaches outside the directory of the settings");
        assert!(has(&lines, &wanted), "{lines:?}");
    }
    assert_eq!(
        std::fs::read_to_string(&secret).unwrap(),
        "-- password=hunter2\nSELECT (;\n"
    );
}

#[test]
fn an_absolute_library_is_a_workspace_path_and_not_read() {
    let bundle_dir = beside_a_secret("absolute");
    let secret = bundle_dir.parent().unwrap().join("secret.sql");
    let libraries = format!(
        "        - file:\n            path: \"{}\"\n        - notebook:\n            path: /Workspace/Users/me/flows\n        - file:\n            path: src/a.sql\n",
        secret.display()
    );
    write(&bundle_dir, &[("databricks.yml", &bundle(&libraries))]);
    let (status, lines) = concise(&bundle_dir, &["databricks.yml"]);
    assert_eq!(status, Some(0), "{lines:?}");
    assert!(!has(&lines, "hunter2"), "{lines:?}");
    assert!(
        has(&lines, "warning[PIPELINE_SETTINGS_INVALID] `/Workspace/Users/me/flows` is a path in the workspace"),
        "{lines:?}"
    );
    assert!(has(&lines, "checked 2 files, 1 statement"), "{lines:?}");
}

#[test]
fn a_key_given_twice_is_refused_at_the_second() {
    let dir = scratch("duplicate-key");
    let yaml = format!(
        "{}      catalog: main\n      catalog: other\n",
        bundle("        - file:\n            path: a.sql\n")
    );
    write(&dir, &[("databricks.yml", &yaml), ("a.sql", "SELECT 1;\n")]);
    let (status, lines) = concise(&dir, &["databricks.yml"]);
    assert_eq!(status, Some(1), "{lines:?}");
    assert!(
        has(
            &lines,
            "databricks.yml:8:7: error[PIPELINE_SETTINGS_INVALID] `catalog` is given twice"
        ),
        "{lines:?}"
    );
}

#[test]
fn a_file_reached_twice_is_one_source() {
    let dir = scratch("twice");
    let absolute = dir.join("src/a.sql");
    let libraries = format!(
        "        - file:\n            path: src/a.sql\n        - file:\n            path: ./src/../src/a.sql\n        - glob:\n            include: src/*.sql\n        - file:\n            path: \"{}\"\n",
        absolute.display()
    );
    write(
        &dir,
        &[
            // The include matches the bundle's own file, and the other one twice.
            (
                "databricks.yml",
                &format!(
                    "include:\n  - \"*.yml\"\n  - more.yml\n{}",
                    bundle(&libraries)
                ),
            ),
            ("more.yml", "variables:\n  v:\n    default: x\n"),
            ("src/a.sql", "CREATE MATERIALIZED VIEW a AS SELECT 1;\n"),
        ],
    );
    let (status, lines) = concise(&dir, &["databricks.yml", ".", "./databricks.yml"]);
    assert!(!has(&lines, "DUPLICATE"), "{lines:?}");
    assert!(has(&lines, "1 statement: 0 errors, 1 warning"), "{lines:?}");
    // The absolute spelling is a workspace path, the one warning.
    assert_eq!(status, Some(0), "{lines:?}");
}

#[test]
fn libraries_that_yield_nothing_are_never_a_pass() {
    let dir = scratch("nothing");
    write(
        &dir,
        &[(
            "databricks.yml",
            &bundle("        - glob:\n            include: \"flows/*.sql\"\n"),
        )],
    );
    let (status, lines) = concise(&dir, &["databricks.yml"]);
    assert_eq!(status, Some(1), "{lines:?}");
    assert!(has(&lines, "`flows/*.sql` matches no file"), "{lines:?}");
    assert!(
        has(&lines, "the pipeline `p` has no source file"),
        "{lines:?}"
    );
    // A pipeline of Python alone is not checked, and a bundle of them checks nothing: an error.
    write(
        &dir,
        &[
            (
                "databricks.yml",
                &bundle("        - glob:\n            include: \"flows/**\"\n"),
            ),
            ("flows/a.py", "import dlt\n"),
        ],
    );
    let (status, lines) = concise(&dir, &["databricks.yml"]);
    assert_eq!(status, Some(2), "{lines:?}");
    assert!(has(&lines, "no SQL source file to check"), "{lines:?}");
}

#[test]
fn variables_resolve_through_each_other_and_are_bounded() {
    let dir = scratch("variables");
    let yaml = format!(
        "variables:\n  root:\n    default: src\n  flows:\n    default: ${{var.root}}/flows\n  name:\n    default: ${{var.name}}x\n{}      catalog: ${{var.name}}\n",
        bundle("        - glob:\n            include: ${var.flows}/*.sql\n")
    );
    write(
        &dir,
        &[
            ("databricks.yml", &yaml),
            (
                "src/flows/a.sql",
                "CREATE MATERIALIZED VIEW a AS SELECT 1;\n",
            ),
        ],
    );
    let (status, lines) = concise(&dir, &["databricks.yml"]);
    assert!(has(&lines, "1 statement: 1 error"), "{lines:?}");
    assert!(
        has(&lines, "names variables more than 32 deep"),
        "{lines:?}"
    );
    assert_eq!(status, Some(1), "{lines:?}");
    // Each variable twice the one before: 2^34 bytes unless bounded.
    let mut variables = format!("variables:\n  v0:\n    default: {}\n", "x".repeat(16));
    for i in 1..=30 {
        let before = i - 1;
        variables.push_str(&format!(
            "  v{i}:\n    default: ${{var.v{before}}}${{var.v{before}}}\n"
        ));
    }
    let yaml = format!(
        "{variables}{}      configuration:\n        big: ${{var.v30}}\n",
        bundle("        - file:\n            path: src/flows/a.sql\n")
    );
    write(&dir, &[("databricks.yml", &yaml)]);
    let (status, lines) = concise(&dir, &["databricks.yml"]);
    assert_eq!(status, Some(1), "{lines:?}");
    assert!(
        has(&lines, "the variables make more than 16 MiB of text"),
        "{lines:?}"
    );
}

#[test]
fn wrong_kinds_of_targets_and_variables_are_reported() {
    let dir = scratch("kinds");
    let pipeline = bundle("        - file:\n            path: a.sql\n");
    let cases = [
        (
            format!("targets: [dev]\n{pipeline}"),
            "`targets` should be a mapping",
        ),
        (
            format!("targets:\n  dev: 5\n{pipeline}"),
            "the target `dev` should be a mapping",
        ),
        (
            format!("variables: 3\n{pipeline}"),
            "`variables` should be a mapping",
        ),
        (
            format!("variables:\n  v: [1]\n{pipeline}"),
            "the variable `v` should be a mapping",
        ),
        (
            "resources: [p]\n".to_string(),
            "`resources` should be a mapping",
        ),
    ];
    for (yaml, wanted) in cases {
        write(&dir, &[("databricks.yml", &yaml), ("a.sql", "SELECT 1;\n")]);
        let (status, lines) = concise(&dir, &["databricks.yml"]);
        assert_eq!(status, Some(1), "{yaml}: {lines:?}");
        assert!(has(&lines, wanted), "{yaml}: {lines:?}");
    }
}

#[test]
fn settings_files_are_bounded_and_unreadable_ones_exit_2() {
    let dir = scratch("bounded");
    let padding = "# padding\n".repeat(200_000);
    write(
        &dir,
        &[
            (
                "databricks.yml",
                &format!(
                    "{padding}{}",
                    bundle("        - file:\n            path: a.sql\n")
                ),
            ),
            ("a.sql", "SELECT 1;\n"),
            ("pipeline-sql.toml", &format!("{padding}select = []\n")),
        ],
    );
    let (status, lines) = concise(
        &dir,
        &["--no-config", "--max-file-size", "1", "databricks.yml"],
    );
    assert_eq!(status, Some(2), "{lines:?}");
    assert!(has(&lines, "not read: larger than 1 MiB"), "{lines:?}");
    let (status, lines) = concise(&dir, &["--max-file-size", "1", "a.sql"]);
    assert_eq!(status, Some(2), "{lines:?}");
    assert!(
        has(&lines, "pipeline-sql.toml: not read: larger than 1 MiB"),
        "{lines:?}"
    );
    let started = std::time::Instant::now();
    let (status, lines) = concise(&dir, &["--config", "/dev/zero", "a.sql"]);
    assert!(started.elapsed().as_secs() < 20);
    assert_eq!(status, Some(2), "{lines:?}");
    assert!(
        has(&lines, "/dev/zero: not read: not a regular file"),
        "{lines:?}"
    );
    // Not UTF-8: not read, as a source would not be.
    std::fs::write(dir.join("databricks.yml"), b"resources: \xff\n").unwrap();
    let (status, lines) = concise(&dir, &["--no-config", "databricks.yml"]);
    assert_eq!(status, Some(2), "{lines:?}");
    assert!(has(&lines, "not read: not UTF-8"), "{lines:?}");
}

const LEGACY: &str = "CREATE LIVE TABLE t AS SELECT 1;\n";
const FIXED: &str = "CREATE MATERIALIZED VIEW t AS SELECT 1;\n";

#[cfg(unix)]
#[test]
fn fix_writes_only_what_it_may_and_reports_the_rest() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("fix-files");
    write(
        &dir,
        &[
            ("real.sql", LEGACY),
            ("read-only.sql", &LEGACY.replace('t', "r")),
            ("linked.sql", &LEGACY.replace('t', "h")),
        ],
    );
    // A link to a file of the run: one source, fixed once, and still a link.
    std::os::unix::fs::symlink("real.sql", dir.join("link.sql")).unwrap();
    let read_only = std::fs::Permissions::from_mode(0o444);
    std::fs::set_permissions(dir.join("read-only.sql"), read_only).unwrap();
    std::fs::hard_link(dir.join("linked.sql"), dir.join("linked.txt")).unwrap();
    let output = run(&dir, &["check", "--format", "concise", "--fix", "."]);
    let (out, err) = (stdout(&output), stderr(&output));
    assert_eq!(output.status.code(), Some(2), "{out}{err}");
    assert!(err.contains("fixed 1 problem in 1 file"), "{err}");
    assert!(
        err.contains("read-only.sql: not fixed, it is read-only"),
        "{err}"
    );
    assert!(
        err.contains("linked.sql: not fixed, it has 2 hard links"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("real.sql")).unwrap(),
        FIXED
    );
    let link = std::fs::symlink_metadata(dir.join("link.sql")).unwrap();
    assert!(link.file_type().is_symlink());
    assert_eq!(
        std::fs::read_to_string(dir.join("linked.txt")).unwrap(),
        LEGACY.replace('t', "h")
    );
    // What is left is reported from the files as they are.
    assert_eq!(out.matches("DEPRECATED_SYNTAX").count(), 2, "{out}");
    assert!(out.contains("checked 3 files"), "{out}");
}

#[cfg(unix)]
#[test]
fn fix_never_replaces_stdin_a_fifo_or_a_device() {
    let dir = scratch("fix-devices");
    write(&dir, &[("a.sql", LEGACY)]);
    // Links as `/dev/stdin` is one, made here: a command that replaced the link it was given
    // replaces these, not the machine's own.
    std::os::unix::fs::symlink("/proc/self/fd/0", dir.join("stdin.sql")).unwrap();
    std::os::unix::fs::symlink("stdin.sql", dir.join("via.sql")).unwrap();
    for named in ["stdin.sql", "via.sql"] {
        // stdin from a file: the file behind the link is never replaced, nor the link.
        let output = Command::new(env!("CARGO_BIN_EXE_pipeline-sql"))
            .args(["check", "--fix", named])
            .current_dir(&dir)
            .stdin(std::fs::File::open(dir.join("a.sql")).unwrap())
            .output()
            .unwrap();
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{err}");
        assert!(err.contains(&format!("{named}: not fixed")), "{err}");
        assert_eq!(std::fs::read_to_string(dir.join("a.sql")).unwrap(), LEGACY);
        let link = std::fs::symlink_metadata(dir.join(named)).unwrap();
        assert!(link.file_type().is_symlink());
    }
    // A FIFO is read as a named source, but never replaced.
    let fifo = dir.join("pipe.sql");
    if Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        let writer = std::thread::spawn({
            let fifo = fifo.clone();
            move || std::fs::write(fifo, LEGACY)
        });
        let output = run(&dir, &["check", "--fix", "pipe.sql"]);
        writer.join().unwrap().unwrap();
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{err}");
        assert!(
            err.contains("pipe.sql: not fixed, it is not a regular file"),
            "{err}"
        );
        use std::os::unix::fs::FileTypeExt;
        assert!(std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo());
    }
}

/// A bundle of two pipelines that share `shared.sql`, whose noqa comment only the second needs.
fn shared_bundle(test: &str) -> PathBuf {
    let dir = scratch(test);
    let pipelines = "resources:\n  pipelines:\n    full:\n      libraries:\n        - file:\n            path: t.sql\n        - file:\n            path: shared.sql\n    part:\n      libraries:\n        - file:\n            path: ./shared.sql\n";
    write(
        &dir,
        &[
            ("databricks.yml", pipelines),
            ("t.sql", "CREATE STREAMING TABLE t;\n"),
            (
                "shared.sql",
                "CREATE FLOW f AS INSERT INTO t BY NAME SELECT * FROM STREAM(src); -- noqa: INVALID_FLOW_TARGET.NOT_FOUND\nCREATE LIVE TABLE l AS SELECT 1;\n",
            ),
        ],
    );
    dir
}

#[test]
fn a_noqa_that_another_pipeline_needs_is_not_stale() {
    let dir = shared_bundle("shared-noqa");
    let (status, lines) = concise(&dir, &["databricks.yml"]);
    assert!(!has(&lines, "UNUSED_NOQA"), "{lines:?}");
    assert_eq!(status, Some(0), "{lines:?}");
    // Fixed by both pipelines in one write, the comment kept.
    let output = run(
        &dir,
        &["check", "--fix", "--format", "concise", "databricks.yml"],
    );
    assert!(
        stderr(&output).contains("fixed 1 problem in 1 file"),
        "{}",
        stderr(&output)
    );
    let fixed = std::fs::read_to_string(dir.join("shared.sql")).unwrap();
    assert!(
        fixed.contains("-- noqa: INVALID_FLOW_TARGET.NOT_FOUND"),
        "{fixed}"
    );
    assert!(fixed.contains("CREATE MATERIALIZED VIEW l"), "{fixed}");
    // Without --pipeline, a noqa for a rule that did not run is neither reported nor removed.
    let output = run(
        &dir,
        &["check", "--fix", "--format", "concise", "shared.sql"],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert!(
        !stdout(&output).contains("UNUSED_NOQA"),
        "{}",
        stdout(&output)
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("shared.sql")).unwrap(),
        fixed
    );
}

#[test]
fn the_diff_applies_with_patch_and_git_and_forges_no_command() {
    let dir = scratch("diff");
    let text = format!("/*\n::error::a context line\n*/\n{LEGACY}");
    write(&dir, &[("my flows/a b.sql", &text), ("c.sql", LEGACY)]);
    let output = run(&dir, &["check", "--diff", "my flows/a b.sql", "c.sql"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let diff = stdout(&output);
    // The runner is told to run no command in it, with a token that no file can know.
    let first = diff.lines().next().unwrap();
    let token = first.strip_prefix("::stop-commands::").expect(&diff);
    assert!(diff.ends_with(&format!("::{token}::\n")), "{diff}");
    assert_eq!(token.len(), 16);
    std::fs::write(dir.join("fix.patch"), &diff).unwrap();
    let applies = |program: &str, args: &[&str]| {
        let status = Command::new(program).args(args).current_dir(&dir).status();
        status.map(|s| s.success())
    };
    if applies("git", &["init", "-q", "."]).unwrap_or(false) {
        let applied = applies("git", &["apply", "-p0", "--check", "fix.patch"]);
        assert!(applied.unwrap(), "{diff}");
    }
    if let Ok(applied) = applies("patch", &["-p0", "-s", "-i", "fix.patch"]) {
        assert!(applied, "{diff}");
        let fixed = std::fs::read_to_string(dir.join("my flows/a b.sql")).unwrap();
        assert_eq!(fixed, format!("/*\n::error::a context line\n*/\n{FIXED}"));
        assert_eq!(std::fs::read_to_string(dir.join("c.sql")).unwrap(), FIXED);
    }
}

#[test]
fn mermaids_own_parser_reads_every_name_as_a_label() {
    let tools = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/mermaid");
    if !tools.join("node_modules/mermaid").is_dir() {
        // CI installs it (.ci/run); elsewhere the escaping test above stands alone.
        assert!(
            std::env::var_os("CI").is_none(),
            "no Mermaid parser in {}",
            tools.display()
        );
        eprintln!("skipped: npm install --prefix target/mermaid mermaid@11.17.2 jsdom@29.1.1");
        return;
    }
    let dir = hostile_lineage("mermaid");
    let chart = graph(&dir, "mermaid");
    std::fs::write(dir.join("chart.mmd"), &chart).unwrap();
    // The script imports mermaid and jsdom from the node_modules beside it.
    let script = tools.join("parse.mjs");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mermaid/parse.mjs"),
        &script,
    )
    .unwrap();
    let output = Command::new("node")
        .arg(&script)
        .arg(dir.join("chart.mmd"))
        .output()
        .unwrap();
    let read: serde_json::Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", stdout(&output), stderr(&output)));
    assert_eq!(read["ok"], true, "{read}\n{chart}");
    // The nodes and edges are the renderer's, and no more: a node's line is its id and its
    // shape, an edge's line two ids and an arrow.
    let lines: Vec<&str> = chart.lines().map(str::trim_start).collect();
    let after_id = |line: &str| -> Option<String> {
        let rest = line.strip_prefix("p0n")?;
        Some(
            rest.trim_start_matches(|c: char| c.is_ascii_digit())
                .to_string(),
        )
    };
    let drawn_edges = lines
        .iter()
        .filter_map(|l| after_id(l))
        .filter(|rest| rest.starts_with(" -->") || rest.starts_with(" ==>"))
        .count();
    let drawn_nodes = lines.iter().filter_map(|l| after_id(l)).count() - drawn_edges;
    let nodes = read["nodes"].as_array().unwrap();
    assert_eq!(nodes.len(), drawn_nodes, "{read}");
    assert_eq!(
        read["edges"].as_array().unwrap().len(),
        drawn_edges,
        "{read}"
    );
    for node in nodes {
        let id = node[0].as_str().unwrap();
        assert!(
            id.strip_prefix("p0n")
                .is_some_and(|n| n.parse::<usize>().is_ok()),
            "{id}"
        );
    }
    // Each name is the text of its node's label, as written (line breaks escaped).
    let labels: Vec<&str> = nodes.iter().map(|n| n[1].as_str().unwrap()).collect();
    for name in HOSTILE_NAMES {
        // As written: in backquotes, a backquote in the name doubled.
        let shown = name.replace('\n', "\\u{a}").replace('`', "``");
        let label = format!("`{shown}`<br>materialized view");
        assert!(labels.contains(&label.as_str()), "{label:?} in {labels:#?}");
    }
    let edge_labels: Vec<&str> = read["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e[2].as_str().unwrap())
        .collect();
    for (i, name) in HOSTILE_NAMES.iter().enumerate() {
        let flow = format!(
            "`flow{i} {}`",
            name.replace('\n', "\\u{a}").replace('`', "``")
        );
        assert!(
            edge_labels.contains(&flow.as_str()),
            "{flow:?} in {edge_labels:#?}"
        );
    }
}
