//! The command line as a user runs it: each output format, colours, stdin, and paths given
//! twice, through links or in loops.
#![cfg(feature = "cli")]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Runs `pipeline-sql check ARGS`, with `stdin` as its input.
fn check(args: &[&str], stdin: &str, env: &[(&str, &str)]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pipeline-sql"))
        .arg("check")
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A command that stops before it reads stdin (a usage error) closes the pipe first.
    let written = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    if let Err(e) = written {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// A fresh directory for one test, under the system's temporary directory.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pipeline-sql-cli-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const BROKEN: &str = "CREATE STREAMING TABLE t;\nSELECT 'é', );\n";

#[test]
fn concise_is_one_line_per_diagnostic() {
    let output = check(&["--format", "concise", "-"], BROKEN, &[]);
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0].starts_with("<stdin>:2:13: error[PARSE_SYNTAX_ERROR] syntax error at `)`"),
        "{text}"
    );
    assert_eq!(
        lines[1],
        "checked 1 file, 2 statements: 1 error, 0 warnings"
    );
}

#[test]
fn github_prints_workflow_commands() {
    let twice =
        "CREATE MATERIALIZED VIEW v AS SELECT 1;\nCREATE MATERIALIZED VIEW v AS SELECT 2;\n";
    let output = check(
        &[
            "--format",
            "github",
            "--stdin-filename",
            "flows/a,b.sql",
            "-",
        ],
        twice,
        &[],
    );
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    // `,` in a property is escaped, and so is the line break before the help.
    assert_eq!(
        lines[0],
        "::error file=flows/a%2Cb.sql,line=2,col=26,endLine=2,endColumn=27,\
         title=PIPELINE_DUPLICATE_IDENTIFIERS.OUTPUT::the materialized view `v` has the name of \
         another dataset%0Ahelp: give each dataset of the pipeline its own name",
        "{text}"
    );
    assert_eq!(lines.len(), 2, "{text}");
}

#[test]
fn json_has_where_each_diagnostic_ends() {
    let output = check(&["--format", "json", "-"], BROKEN, &[]);
    let text = stdout(&output);
    assert!(
        text.contains(r#""line":2,"column":13,"end_line":2,"end_column":14"#),
        "{text}"
    );
    assert!(
        text.contains(r#""help_uri":"docs/codes/PARSE_SYNTAX_ERROR.md""#),
        "{text}"
    );
}

#[test]
fn colours_follow_the_flag_and_no_color() {
    let escape = |output: &Output| stdout(output).contains('\u{1b}');
    assert!(escape(&check(&["--color", "always", "-"], BROKEN, &[])));
    assert!(!escape(&check(&["--color", "never", "-"], BROKEN, &[])));
    // Not a terminal, and NO_COLOR: no colour either way.
    assert!(!escape(&check(&["-"], BROKEN, &[("NO_COLOR", "1")])));
}

#[test]
fn stdin_with_a_byte_order_mark_checks_cleanly() {
    let output = check(
        &["-"],
        "\u{feff}CREATE MATERIALIZED VIEW v AS SELECT 1;\n",
        &[],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
}

#[test]
fn a_file_named_twice_or_reached_twice_is_checked_once() {
    let dir = scratch("twice");
    let file = dir.join("views.sql");
    std::fs::write(&file, "CREATE MATERIALIZED VIEW v AS SELECT 1;\n").unwrap();
    let mut args = vec![dir.to_str().unwrap(), file.to_str().unwrap()];
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&file, dir.join("link.sql")).unwrap();
        // A link back up the tree is no loop to walk.
        std::fs::create_dir(dir.join("sub")).unwrap();
        std::os::unix::fs::symlink(&dir, dir.join("sub/up")).unwrap();
    }
    args.push("--format=concise");
    let output = check(&args, "", &[]);
    // One `v`, not a duplicate dataset.
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert!(
        stdout(&output).starts_with("checked 1 file,"),
        "{}",
        stdout(&output)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn no_sql_file_is_a_usage_error() {
    let dir = scratch("empty");
    let output = check(&[dir.to_str().unwrap()], "", &[]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("no *.sql file found"), "{stderr}");
    let _ = std::fs::remove_dir_all(Path::new(&dir));
}

/// Runs `pipeline-sql ARGS`.
fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pipeline-sql"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn rules_lists_every_code_and_rule_explains_each() {
    let listed = stdout(&run(&["rules"]));
    assert_eq!(listed.lines().count(), pipeline_sql::Code::ALL.len());
    for code in pipeline_sql::Code::ALL {
        let line = listed
            .lines()
            .find(|l| l.split_whitespace().next() == Some(code.as_str()))
            .unwrap_or_else(|| panic!("{} is not listed", code.as_str()));
        assert!(line.ends_with(code.summary()), "{line}");
        let output = run(&["rule", &code.as_str().to_ascii_lowercase()]);
        assert_eq!(output.status.code(), Some(0), "{}", code.as_str());
        let page = stdout(&output);
        assert!(
            page.starts_with(&format!("# {}\n", code.as_str())),
            "{page}"
        );
        assert!(page.contains("## Why"), "{page}");
    }
    assert!(listed.contains("DEPRECATED_SYNTAX ") && listed.contains(" warning "));
}

#[test]
fn an_unknown_code_names_the_codes_like_it() {
    let output = run(&["rule", "INVALID_FLOW_QUERY_TYPE"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr
            .contains("codes like it: INVALID_FLOW_QUERY_TYPE.BATCH_RELATION_FOR_STREAMING_TABLE"),
        "{stderr}"
    );
}

/// H1: a named pipe called `*.sql` in a directory is not read (it would block the check
/// forever), and no file is read past `--max-file-size` (`/dev/zero` would be read until
/// memory ran out).
#[cfg(unix)]
#[test]
fn h1_no_read_blocks_or_runs_unbounded() {
    let dir = scratch("fifo");
    std::fs::write(
        dir.join("views.sql"),
        "CREATE MATERIALIZED VIEW v AS SELECT 1;\n",
    )
    .unwrap();
    let made = Command::new("mkfifo").arg(dir.join("pipe.sql")).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo failed");
    let mut child = Command::new(env!("CARGO_BIN_EXE_pipeline-sql"))
        .args(["check", "--format=concise", dir.to_str().unwrap()])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // A watchdog rather than a hang: the check takes milliseconds.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            child.kill().unwrap();
            panic!("the check blocked on the named pipe");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(
        stdout(&output).starts_with("checked 1 file,"),
        "{}",
        stdout(&output)
    );
    let _ = std::fs::remove_dir_all(&dir);

    let output = check(
        &["--format=concise", "--max-file-size", "1", "/dev/zero"],
        "",
        &[],
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stdout(&output).starts_with(
            "/dev/zero:1:1: error[SOURCE_NOT_READ] not read: larger than 1 MiB, not read"
        ),
        "{}",
        stdout(&output)
    );
}

/// `pipeline-sql check --format=concise ARGS` in `dir`: the exit status and the lines printed.
fn concise_in(dir: &Path, args: &[&str]) -> (Option<i32>, Vec<String>) {
    let output = Command::new(env!("CARGO_BIN_EXE_pipeline-sql"))
        .args(["check", "--format=concise"])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    let text = stdout(&output);
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    if !output.stderr.is_empty() {
        lines.push(format!(
            "stderr: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    (output.status.code(), lines)
}

/// Writes `files` (path, text) below `dir`, making directories as needed.
fn write_files(dir: &Path, files: &[(&str, &[u8])]) {
    for (path, text) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

#[test]
fn a_file_that_is_not_utf8_is_reported_and_the_others_are_still_checked() {
    let dir = scratch("not-utf8");
    write_files(
        &dir,
        &[
            (
                "a.sql",
                b"CREATE FLOW f AS INSERT INTO t SELECT * FROM STREAM(s);\n",
            ),
            ("b.sql", b"SELECT 'caf\xe9';\n"),
            ("c.sql", b"CREATE MATERIALIZED VIEW v AS SELECT 1;\n"),
        ],
    );
    let (status, lines) = concise_in(&dir, &["."]);
    assert_eq!(status, Some(2), "{lines:#?}");
    assert_eq!(
        lines,
        [
            "./a.sql:1:18: error[INSERT_FLOW_REQUIRES_BY_NAME] an INSERT flow must say `BY NAME`",
            "./b.sql:1:1: error[SOURCE_NOT_READ] not read: not UTF-8 text: the byte at offset 11 is not valid UTF-8",
            "checked 3 files, 2 statements: 2 errors, 0 warnings (1 fixable with `--fix`)",
        ]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A legacy spelling (a warning) and an INSERT flow without BY NAME (an error).
const WARNING_AND_ERROR: &[u8] = b"CREATE LIVE TABLE daily AS SELECT 1 AS n;\n\
CREATE FLOW f AS INSERT INTO t SELECT * FROM STREAM(s);\n";

/// The codes in concise lines.
fn codes(lines: &[String]) -> Vec<&str> {
    lines
        .iter()
        .filter_map(|line| Some(line.split_once('[')?.1.split_once(']')?.0))
        .collect()
}

#[test]
fn select_ignore_and_warnings_as_errors_choose_what_fails() {
    let dir = scratch("select");
    write_files(&dir, &[("p.sql", WARNING_AND_ERROR)]);
    let run = |args: &[&str]| {
        let (status, lines) = concise_in(&dir, &[args, &["p.sql"]].concat());
        (status, codes(&lines).join(" "))
    };
    let both = "DEPRECATED_SYNTAX INSERT_FLOW_REQUIRES_BY_NAME";
    assert_eq!(run(&[]), (Some(1), both.to_string()));
    assert_eq!(
        run(&["--select", "deprecated"]),
        (Some(0), "DEPRECATED_SYNTAX".to_string())
    );
    assert_eq!(
        run(&["--ignore=INSERT_FLOW"]),
        (Some(0), "DEPRECATED_SYNTAX".to_string())
    );
    assert_eq!(
        run(&["--ignore=INSERT_FLOW", "--warnings-as-errors"]),
        (Some(1), "DEPRECATED_SYNTAX".to_string())
    );
    assert_eq!(
        run(&["--select=PARSE_SYNTAX_ERROR,INSERT_FLOW"]),
        (Some(1), "INSERT_FLOW_REQUIRES_BY_NAME".to_string())
    );
    let (status, lines) = concise_in(&dir, &["--select", "INSERT_FLOW_REQUIRES_BYNAME", "p.sql"]);
    assert_eq!(status, Some(2));
    assert!(
        lines[0].contains("`INSERT_FLOW_REQUIRES_BYNAME` is no code"),
        "{lines:#?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_settings_file_is_found_above_the_paths_and_flags_win_over_it() {
    let dir = scratch("settings");
    write_files(
        &dir,
        &[
            (
                "pipeline-sql.toml",
                b"ignore = [\"DEPRECATED_SYNTAX\"]\nexclude = [\"scratch/\"]\n\
                  catalog = \"main\"\nschema = \"sales\"\n[parameters]\nlanding = \"raw_orders\"\n",
            ),
            ("pipeline/tables.sql", b"CREATE STREAMING TABLE main.sales.orders;\nCREATE LIVE TABLE daily AS SELECT 1 AS n;\n"),
            ("pipeline/flows.sql", b"CREATE FLOW f AS INSERT INTO orders BY NAME SELECT * FROM STREAM({landing});\n"),
            ("pipeline/scratch/broken.sql", b"SELECT (;\n"),
        ],
    );
    // From the settings: DEPRECATED_SYNTAX ignored, scratch/ passed over, `orders` is
    // `main.sales.orders`, and `{landing}` has a value.
    let (status, lines) = concise_in(&dir.join("pipeline"), &["--pipeline", "."]);
    assert_eq!(status, Some(0), "{lines:#?}");
    assert_eq!(
        lines,
        ["checked 2 files, 3 statements: 0 errors, 0 warnings"]
    );
    // --select replaces the file's select, --ignore adds to its ignore: the file still ignores
    // DEPRECATED_SYNTAX.
    let (_, lines) = concise_in(&dir, &["--select", "DEPRECATED_SYNTAX", "pipeline"]);
    assert_eq!(codes(&lines), [""; 0]);
    // A flag's value wins over the file's: another schema, and `orders` is not declared.
    let (status, lines) = concise_in(&dir, &["--pipeline", "--schema", "crm", "pipeline"]);
    assert_eq!(status, Some(1));
    assert_eq!(
        codes(&lines),
        [
            "INVALID_FLOW_TARGET.NOT_FOUND",
            "PIPELINE_DATASET_WITHOUT_FLOW"
        ]
    );
    // Without the file, every file and code is back.
    let (_, lines) = concise_in(&dir, &["--no-config", "pipeline"]);
    assert_eq!(
        codes(&lines),
        [
            "TEMPLATE_PLACEHOLDER",
            "PARSE_SYNTAX_ERROR",
            "DEPRECATED_SYNTAX"
        ],
        "{lines:#?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn pyproject_settings_are_read_from_their_table_and_a_bad_file_is_located() {
    let dir = scratch("pyproject");
    write_files(
        &dir,
        &[
            (
                "pyproject.toml",
                b"[tool.pipeline-sql]\nselect = [\"INSERT_FLOW\"]\n",
            ),
            // A pyproject.toml without the table is passed over.
            ("jobs/pyproject.toml", b"[project]\nname = \"jobs\"\n"),
            ("jobs/p.sql", WARNING_AND_ERROR),
        ],
    );
    let (status, lines) = concise_in(&dir, &["jobs/p.sql"]);
    assert_eq!(
        (status, codes(&lines)),
        (Some(1), vec!["INSERT_FLOW_REQUIRES_BY_NAME"])
    );
    write_files(
        &dir,
        &[(
            "jobs/pipeline-sql.toml",
            b"select = [\"INSERT_FLOW\"]\nseverity = 1\n",
        )],
    );
    let (status, lines) = concise_in(&dir, &["jobs/p.sql"]);
    assert_eq!(status, Some(2));
    assert!(
        lines[0].starts_with("stderr: pipeline-sql: ")
            && lines[0].contains("pipeline-sql.toml:2:1: unknown field `severity`"),
        "{lines:#?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn gitignore_and_exclude_pass_files_over_but_a_file_named_is_checked() {
    let dir = scratch("exclude");
    write_files(
        &dir,
        &[
            (".gitignore", b"generated/\n"),
            ("generated/out.sql", b"SELECT (;\n"),
            ("drafts/wip.sql", b"SELECT (;\n"),
            ("views.sql", b"CREATE MATERIALIZED VIEW v AS SELECT 1;\n"),
        ],
    );
    let (status, lines) = concise_in(&dir, &["--exclude", "drafts", "."]);
    assert_eq!((status, lines.len()), (Some(0), 1), "{lines:#?}");
    let (status, _) = concise_in(&dir, &["."]);
    assert_eq!(status, Some(1), "drafts/ is checked without --exclude");
    let (status, _) = concise_in(&dir, &["--exclude", "drafts", "drafts/wip.sql"]);
    assert_eq!(status, Some(1), "a file named is checked");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A pipeline with an error in one file that points into another (a label in another file),
/// a warning, and a file name that a URI must encode.
fn two_files_with_labels(dir: &Path) {
    write_files(
        dir,
        &[
            (
                "my tables.sql",
                b"CREATE MATERIALIZED VIEW daily AS SELECT 1 AS n;\n",
            ),
            (
                "flows.sql",
                b"CREATE LIVE TABLE legacy AS SELECT 2 AS n;\n\
                  CREATE FLOW f AS INSERT INTO daily BY NAME SELECT * FROM s;\n",
            ),
        ],
    );
}

/// The SARIF 2.1.0 schema (OASIS), from the package of the serde-sarif dev-dependency, found
/// through `cargo metadata` (which may fetch the manifests of other platforms' packages).
fn sarif_schema() -> serde_json::Value {
    let metadata = Command::new(env!("CARGO"))
        .args(["metadata", "--format-version=1"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let metadata: serde_json::Value = serde_json::from_slice(&metadata.stdout).unwrap();
    let package = metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "serde-sarif")
        .expect("serde-sarif is a dev-dependency");
    let manifest = Path::new(package["manifest_path"].as_str().unwrap());
    let schema = std::fs::read_to_string(manifest.with_file_name("src/schema.json")).unwrap();
    serde_json::from_str(&schema).unwrap()
}

#[test]
fn sarif_is_a_sarif_2_1_0_log() {
    let dir = scratch("sarif");
    two_files_with_labels(&dir);
    let output = Command::new(env!("CARGO_BIN_EXE_pipeline-sql"))
        .args(["check", "--format=sarif", "."])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let log: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let schema = jsonschema::draft7::new(&sarif_schema()).unwrap();
    let errors: Vec<String> = schema
        .iter_errors(&log)
        .map(|e| format!("{e} at {}", e.instance_path))
        .collect();
    assert_eq!(errors, [""; 0]);
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    // The rules are the codes reported.
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(rules.len(), 2);
    let results = run["results"].as_array().unwrap();
    let found: Vec<(&str, &str, &str, u64)> = results
        .iter()
        .map(|r| {
            let location = &r["locations"][0]["physicalLocation"];
            (
                r["ruleId"].as_str().unwrap(),
                r["level"].as_str().unwrap(),
                location["artifactLocation"]["uri"].as_str().unwrap(),
                location["region"]["startLine"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            ("DEPRECATED_SYNTAX", "warning", "./flows.sql", 1),
            (
                "INVALID_FLOW_TARGET.MATERIALIZED_VIEW",
                "error",
                "./flows.sql",
                2
            ),
        ]
    );
    for result in results {
        // Each result's rule is the rule at its index; here each code has one level.
        let rule = &rules[result["ruleIndex"].as_u64().unwrap() as usize];
        assert_eq!(rule["id"], result["ruleId"]);
        assert_eq!(rule["defaultConfiguration"]["level"], result["level"]);
        let page = format!("docs/codes/{}.md", rule["id"].as_str().unwrap());
        assert_eq!(rule["properties"]["helpPath"], page.as_str());
        assert!(rule["help"]["markdown"]
            .as_str()
            .unwrap()
            .starts_with(&format!("# {}", rule["id"].as_str().unwrap())));
    }
    let related = &results[1]["relatedLocations"][0];
    assert_eq!(
        related["physicalLocation"]["artifactLocation"]["uri"],
        "./my%20tables.sql"
    );
    assert_eq!(
        related["message"]["text"],
        "declared as a materialized view here"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn junit_is_a_suite_per_file_and_a_failure_per_diagnostic() {
    let dir = scratch("junit");
    two_files_with_labels(&dir);
    write_files(&dir, &[("odd <&>.sql", b"SELECT '\x1b[2J' AS x, );\n")]);
    let output = Command::new(env!("CARGO_BIN_EXE_pipeline-sql"))
        .args(["check", "--format=junit", "."])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    let document = roxmltree::Document::parse(&text).unwrap();
    let root = document.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    assert_eq!(root.attribute("failures"), Some("3"));
    assert_eq!(root.attribute("tests"), Some("4"));
    // Each suite's name, and its cases' names with their failures' types.
    type Suite<'d> = (&'d str, Vec<(&'d str, Option<&'d str>)>);
    let suites: Vec<Suite> = root
        .children()
        .filter(|n| n.is_element())
        .map(|suite| {
            let cases = suite
                .children()
                .filter(|n| n.has_tag_name("testcase"))
                .map(|case| {
                    let failure = case.children().find(|n| n.has_tag_name("failure"));
                    (
                        case.attribute("name").unwrap(),
                        failure.and_then(|f| f.attribute("type")),
                    )
                })
                .collect();
            (suite.attribute("name").unwrap(), cases)
        })
        .collect();
    assert_eq!(
        suites,
        [
            (
                "./flows.sql",
                vec![
                    ("DEPRECATED_SYNTAX at 1:8", Some("warning")),
                    (
                        "INVALID_FLOW_TARGET.MATERIALIZED_VIEW at 2:30",
                        Some("error")
                    ),
                ]
            ),
            ("./my tables.sql", vec![("checked", None)]),
            (
                "./odd <&>.sql",
                vec![("PARSE_SYNTAX_ERROR at 1:21", Some("error"))]
            ),
        ]
    );
    // The escape sequence in the source is written out, not echoed to whoever reads the report.
    assert!(!text.contains('\x1b'));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_example_bundle_checks_each_pipeline_with_its_catalog_and_schema() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (status, lines) = concise_in(root, &["examples/bundle"]);
    assert_eq!(status, Some(0), "{lines:#?}");
    assert_eq!(
        lines,
        ["checked 3 files, 6 statements: 0 errors, 0 warnings"]
    );
    // The same SQL as one pipeline without its settings: `retail.orders` is another table.
    let (status, lines) = concise_in(
        root,
        &["--pipeline", "--no-config", "examples/bundle/src/orders"],
    );
    assert_eq!(status, Some(1));
    assert_eq!(
        codes(&lines),
        [
            "PIPELINE_DATASET_WITHOUT_FLOW",
            "INVALID_FLOW_TARGET.NOT_FOUND"
        ]
    );
}

/// A bundle whose schema comes from a variable that the `prod` target overrides, and a file
/// that no pipeline lists.
fn write_bundle(dir: &Path) {
    write_files(
        dir,
        &[
            (
                "databricks.yml",
                b"bundle:\n  name: crm\nvariables:\n  schema:\n    default: sales\n\
                  targets:\n  dev:\n    default: true\n  prod:\n    variables:\n      schema: crm\n\
                  resources:\n  pipelines:\n    sales:\n      catalog: main\n      schema: ${var.schema}\n\
                  \x20     configuration:\n        source: raw_orders\n      libraries:\n\
                  \x20       - file:\n            path: src/orders.sql\n",
            ),
            (
                "src/orders.sql",
                b"CREATE OR REFRESH STREAMING TABLE orders;\n\
                  CREATE FLOW f AS INSERT INTO main.sales.orders BY NAME SELECT * FROM STREAM(${source});\n",
            ),
            ("src/scratch.sql", b"SELECT (;\n"),
        ],
    );
}

#[test]
fn a_bundle_resolves_variables_by_target_and_checks_only_what_its_pipelines_list() {
    let dir = scratch("bundle");
    write_bundle(&dir);
    // No PATH: the bundle here. The default target's schema is `sales`, so the flow writes
    // `orders`; scratch.sql is no library of the pipeline and is not checked.
    let (status, lines) = concise_in(&dir, &[]);
    assert_eq!(status, Some(0), "{lines:#?}");
    assert_eq!(
        lines,
        ["checked 1 file, 2 statements: 0 errors, 0 warnings"]
    );
    // In prod the schema is `crm`: `main.sales.orders` is then another table.
    let (status, lines) = concise_in(&dir, &["--target", "prod", "."]);
    assert_eq!(status, Some(1));
    assert_eq!(
        codes(&lines),
        [
            "PIPELINE_DATASET_WITHOUT_FLOW",
            "INVALID_FLOW_TARGET.NOT_FOUND"
        ],
        "{lines:#?}"
    );
    let (status, lines) = concise_in(&dir, &["--target", "staging", "databricks.yml"]);
    assert_eq!(status, Some(2));
    assert!(
        lines[0].ends_with("no target `staging`; its targets: dev, prod"),
        "{lines:#?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_broken_bundle_is_a_diagnostic_at_its_place() {
    let dir = scratch("broken-bundle");
    let cases: &[(&[u8], &str)] = &[
        (
            b"resources:\n  pipelines:\n    p:\n      libraries: [\n",
            "./databricks.yml:5:1: error[PIPELINE_SETTINGS_INVALID] not YAML",
        ),
        (
            b"resources:\n  pipelines:\n    p:\n      libraries: 5\n",
            "./databricks.yml:4:18: error[PIPELINE_SETTINGS_INVALID] `libraries` should be a list",
        ),
        (
            b"resources:\n  pipelines:\n    p:\n      libraries:\n        - file:\n            path: \"gone.sql\"\n",
            "./databricks.yml:6:19: error[PIPELINE_SETTINGS_INVALID] the library `gone.sql` does not exist",
        ),
        (
            b"- just\n- a list\n",
            "./databricks.yml:1:1: error[PIPELINE_SETTINGS_INVALID] the settings should be a mapping",
        ),
    ];
    for (yaml, expected) in cases {
        write_files(&dir, &[("databricks.yml", yaml)]);
        let (status, lines) = concise_in(&dir, &[]);
        assert_eq!(status, Some(1), "{lines:#?}");
        assert!(lines[0].starts_with(expected), "{lines:#?}");
    }
    // The human report draws the settings file's snippet.
    let output = Command::new(env!("CARGO_BIN_EXE_pipeline-sql"))
        .args(["check", "--color=never"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        stdout(&output).contains("1 │ - just"),
        "{}",
        stdout(&output)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_spark_pipeline_spec_declares_one_pipeline() {
    let dir = scratch("spec");
    write_files(
        &dir,
        &[
            (
                "spark-pipeline.yml",
                b"name: orders\ncatalog: main\ndatabase: sales\nconfiguration:\n  source: raw_orders\n\
                  definitions:\n  - glob:\n      include: transformations/**\n",
            ),
            ("transformations/tables.sql", b"CREATE STREAMING TABLE orders;\n"),
            (
                "transformations/flows/flow.sql",
                b"CREATE FLOW f AS INSERT INTO sales.orders BY NAME SELECT * FROM STREAM(${source});\n",
            ),
            ("transformations/flows/notes.txt", b"not SQL"),
        ],
    );
    let (status, lines) = concise_in(&dir, &["spark-pipeline.yml"]);
    assert_eq!(status, Some(0), "{lines:#?}");
    assert_eq!(
        lines,
        ["checked 2 files, 2 statements: 0 errors, 0 warnings"]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn without_a_path_or_settings_file_the_check_says_what_it_looked_for() {
    let dir = scratch("no-path");
    let (status, lines) = concise_in(&dir, &[]);
    assert_eq!(status, Some(2));
    assert!(
        lines[0].contains("no PATH given, and no databricks.yml or spark-pipeline.yml here"),
        "{lines:#?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn noqa_comments_silence_their_line_and_a_stale_one_is_reported() {
    let source = "CREATE LIVE TABLE a AS SELECT 1 AS n; -- noqa: DEPRECATED_SYNTAX\n\
                  CREATE LIVE TABLE b AS SELECT 2 AS n;\n\
                  CREATE MATERIALIZED VIEW c AS SELECT 3 AS n; -- noqa\n";
    // A blanket comment may be for a rule that runs on a complete pipeline only: it is stale
    // only where every rule ran.
    let output = check(&["--format=concise", "--pipeline", "-"], source, &[]);
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    let found: Vec<&str> = text.lines().collect();
    assert_eq!(
        found,
        [
            "<stdin>:2:8: warning[DEPRECATED_SYNTAX] `LIVE` is the legacy spelling of pipeline datasets",
            "<stdin>:3:46: warning[UNUSED_NOQA] this noqa comment silences no diagnostic on its line",
            "checked 1 file, 3 statements: 0 errors, 2 warnings (2 fixable with `--fix`)",
        ]
    );
    let output = check(&["--format=concise", "-"], source, &[]);
    let text = stdout(&output);
    assert!(!text.contains("UNUSED_NOQA"), "{text}");
    let output = check(
        &[
            "--format=concise",
            "--ignore=UNUSED_NOQA",
            "--warnings-as-errors",
            "-",
        ],
        source,
        &[],
    );
    assert_eq!(
        output.status.code(),
        Some(1),
        "the warning on line 2 is left"
    );
}

#[test]
fn a_bundle_variable_without_a_value_is_named_and_var_gives_it_one() {
    let dir = scratch("bundle-var");
    write_files(
        &dir,
        &[
            (
                "databricks.yml",
                b"variables:\n  sources:\n    description: where the SQL is\n\
                  resources:\n  pipelines:\n    p:\n      libraries:\n\
                  \x20       - file:\n            path: ${var.sources}/orders.sql\n",
            ),
            (
                "src/orders.sql",
                b"CREATE MATERIALIZED VIEW v AS SELECT 1 AS n;\n",
            ),
        ],
    );
    let (status, lines) = concise_in(&dir, &[]);
    assert_eq!(status, Some(1));
    assert!(
        lines[0].starts_with(
            "./databricks.yml:9:19: error[PIPELINE_SETTINGS_INVALID] the variable `sources` has no value here"
        ),
        "{lines:#?}"
    );
    let (status, lines) = concise_in(&dir, &["--var", "sources=src"]);
    assert_eq!(status, Some(0), "{lines:#?}");
    assert_eq!(lines, ["checked 1 file, 1 statement: 0 errors, 0 warnings"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A pipeline with a source from outside it, a view, a ONCE backfill and an AUTO CDC flow.
const LINEAGE: &str =
    "CREATE OR REFRESH STREAMING TABLE orders AS SELECT * FROM STREAM(main.raw.orders);\n\
CREATE FLOW backfill AS INSERT ONCE INTO orders BY NAME SELECT * FROM main.archive.orders;\n\
CREATE TEMPORARY VIEW paid AS SELECT * FROM orders WHERE status = 'paid';\n\
CREATE OR REFRESH STREAMING TABLE customers;\n\
CREATE FLOW customers_cdc AS AUTO CDC INTO customers FROM STREAM(paid) KEYS (id) SEQUENCE BY ts;\n";

fn graph(format: &str) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_pipeline-sql"))
        .args([
            "graph",
            "--format",
            format,
            "--stdin-filename",
            "p.sql",
            "-",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child.stdin.take().unwrap().write_all(LINEAGE.as_bytes())?;
            child.wait_with_output()
        })
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    stdout(&output)
}

#[test]
fn graph_json_lists_datasets_flows_edges_and_external_sources() {
    let lineage: serde_json::Value = serde_json::from_str(&graph("json")).unwrap();
    let pipeline = &lineage["pipelines"][0];
    let datasets: Vec<(&str, &str)> = pipeline["datasets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["key"].as_str().unwrap(), d["kind"].as_str().unwrap()))
        .collect();
    assert_eq!(
        datasets,
        [
            ("orders", "streaming_table"),
            ("paid", "view"),
            ("customers", "streaming_table")
        ]
    );
    let flows: Vec<(&str, &str, bool, bool)> = pipeline["flows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["name"].as_str().unwrap(),
                f["kind"].as_str().unwrap(),
                f["once"].as_bool().unwrap(),
                f["cdc"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        flows,
        [
            ("orders", "insert", false, false),
            ("backfill", "insert", true, false),
            ("customers_cdc", "auto_cdc", false, true),
        ]
    );
    let edges: Vec<String> = pipeline["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            format!(
                "{} -> {} ({})",
                e["from"].as_str().unwrap(),
                e["to"].as_str().unwrap(),
                e["flow"]
            )
        })
        .collect();
    assert_eq!(
        edges,
        [
            "main.raw.orders -> orders (\"orders\")",
            "main.archive.orders -> orders (\"backfill\")",
            "paid -> customers (\"customers_cdc\")",
            "orders -> paid (null)",
        ]
    );
    assert_eq!(
        pipeline["external"],
        serde_json::json!(["main.archive.orders", "main.raw.orders"])
    );
    assert_eq!(pipeline["datasets"][1]["line"], 3);
    assert_eq!(pipeline["datasets"][1]["file"], "p.sql");
}

#[test]
fn graph_dot_and_mermaid_draw_every_node_and_edge() {
    let dot = graph("dot");
    assert!(
        dot.starts_with("digraph lineage {\n") && dot.ends_with("}\n"),
        "{dot}"
    );
    assert_eq!(dot.matches('{').count(), dot.matches('}').count(), "{dot}");
    let declared: Vec<&str> = dot
        .lines()
        .filter(|l| l.contains(" [label=") && !l.contains(" -> "))
        .map(|l| l.trim().split(' ').next().unwrap())
        .collect();
    assert_eq!(
        declared.len(),
        5,
        "3 datasets and 2 external sources: {dot}"
    );
    let edges: Vec<&str> = dot.lines().filter(|l| l.contains(" -> ")).collect();
    assert_eq!(edges.len(), 4, "{dot}");
    for edge in &edges {
        let mut ends = edge.trim().split(" -> ");
        let from = ends.next().unwrap();
        let to = ends.next().unwrap().split(' ').next().unwrap();
        assert!(declared.contains(&from) && declared.contains(&to), "{edge}");
    }
    assert!(dot.contains("[label=\"paid\\nview\", shape=note]"), "{dot}");
    assert!(dot.contains("[label=\"backfill\"]"), "{dot}");
    assert!(
        dot.contains("[label=\"customers_cdc\", style=bold]"),
        "{dot}"
    );

    let mermaid = graph("mermaid");
    let lines: Vec<&str> = mermaid.lines().collect();
    assert_eq!(lines[0], "flowchart LR");
    assert!(lines[1].starts_with("  subgraph p0[\"") && lines.last() == Some(&"  end"));
    let nodes = lines.iter().filter(|l| {
        l.contains("[\"") || l.contains("(\"") || l.contains("{{\"") || l.contains(">\"")
    });
    assert_eq!(nodes.count(), 6, "a subgraph and five nodes: {mermaid}");
    let arrows: Vec<&&str> = lines
        .iter()
        .filter(|l| l.contains("-->") || l.contains("==>"))
        .collect();
    assert_eq!(arrows.len(), 4, "{mermaid}");
    assert!(mermaid.contains("p0n1{{\"paid<br/>view\"}}"), "{mermaid}");
    assert!(mermaid.contains("==>|\"customers_cdc\"|"), "{mermaid}");
}

/// Runs `pipeline-sql ARGS` in `dir`.
fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pipeline-sql"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

/// A lineage JSON without where things are (which fixes move): datasets, flows and edges.
fn lineage_shape(json: &str) -> Vec<String> {
    let lineage: serde_json::Value = serde_json::from_str(json).unwrap();
    let pipeline = &lineage["pipelines"][0];
    let mut shape = Vec::new();
    for (list, fields) in [
        ("datasets", &["key", "kind"][..]),
        (
            "flows",
            &["name", "target", "kind", "once", "cdc", "reads"][..],
        ),
        ("edges", &["from", "to", "flow", "streaming"][..]),
        ("external", &[][..]),
    ] {
        for item in pipeline[list].as_array().unwrap() {
            let values: Vec<String> = fields.iter().map(|f| item[*f].to_string()).collect();
            shape.push(format!(
                "{list}: {} {}",
                values.join(" "),
                if fields.is_empty() {
                    item.to_string()
                } else {
                    String::new()
                }
            ));
        }
    }
    shape
}

#[test]
fn fix_migrates_a_legacy_notebook_to_the_same_pipeline_in_the_current_syntax() {
    let dir = scratch("fix-legacy");
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/realistic");
    for pipeline in ["legacy_dlt_notebook", "legacy_iot_notebook"] {
        let from = fixtures.join(pipeline);
        let to = dir.join(pipeline);
        std::fs::create_dir_all(&to).unwrap();
        for entry in std::fs::read_dir(&from).unwrap() {
            let entry = entry.unwrap();
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
        let graph = || stdout(&run_in(&to, &["graph", "--pipeline", "."]));
        let before = lineage_shape(&graph());
        // The safe fixes leave only what needs an unsafe one: `cloudFiles.` option names.
        let output = run_in(
            &to,
            &["check", "--fix", "--format", "concise", "--pipeline", "."],
        );
        let left = stdout(&output);
        let stderr = String::from_utf8(output.stderr.clone()).unwrap();
        assert!(stderr.starts_with("pipeline-sql: fixed "), "{stderr}");
        for line in left.lines().filter(|l| l.contains("DEPRECATED_SYNTAX")) {
            assert!(line.contains("cloud_files"), "{pipeline}: {left}");
        }
        let output = run_in(
            &to,
            &[
                "check",
                "--fix",
                "--unsafe-fixes",
                "--format",
                "concise",
                "--pipeline",
                ".",
            ],
        );
        assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
        let left = stdout(&output);
        assert!(!left.contains("DEPRECATED_SYNTAX"), "{pipeline}: {left}");
        assert_eq!(lineage_shape(&graph()), before, "{pipeline}");
        // Every file was written whole: no file beside the fixed ones.
        let mut names: Vec<_> = std::fs::read_dir(&to)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        let mut expected: Vec<_> = std::fs::read_dir(&from)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        expected.sort();
        assert_eq!(names, expected);
    }
}

const LEGACY: &str = "-- Bronze and silver, in the 2022 spelling.\n\
CREATE STREAMING LIVE TABLE raw_orders AS SELECT * FROM cloud_files('/landing/orders', 'json');\n\
CREATE OR REPLACE STREAMING TABLE orders;\n\
CREATE FLOW orders_flow AS INSERT INTO LIVE.orders SELECT * FROM STREAM(LIVE.raw_orders);\n\
SET pipelines.trigger.interval = 1 hour\n\
CREATE LIVE TABLE totals AS SELECT count(*) AS n FROM LIVE.orders;\n";

#[test]
fn diff_shows_the_fixes_and_changes_nothing() {
    let dir = scratch("diff");
    std::fs::write(dir.join("orders.sql"), LEGACY).unwrap();
    let output = run_in(&dir, &["check", "--diff", "orders.sql"]);
    assert_eq!(output.status.code(), Some(1));
    insta::assert_snapshot!("diff_safe", stdout(&output));
    let output = run_in(&dir, &["check", "--diff", "--unsafe-fixes", "orders.sql"]);
    insta::assert_snapshot!("diff_unsafe", stdout(&output));
    assert_eq!(
        std::fs::read_to_string(dir.join("orders.sql")).unwrap(),
        LEGACY
    );
    // After --fix, there is nothing left to show.
    let output = run_in(&dir, &["check", "--fix", "--unsafe-fixes", "orders.sql"]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    let output = run_in(&dir, &["check", "--diff", "--unsafe-fixes", "orders.sql"]);
    assert_eq!(
        (output.status.code(), stdout(&output)),
        (Some(0), String::new())
    );
}

#[test]
fn fix_leaves_a_file_with_a_syntax_error_as_it_was() {
    let dir = scratch("fix-syntax-error");
    let broken =
        "CREATE LIVE TABLE t AS SELECT * FROM LIVE.s;\nCREATE LIVE TABLE u AS SELECT 1 +;\n";
    std::fs::write(dir.join("broken.sql"), broken).unwrap();
    std::fs::write(
        dir.join("fine.sql"),
        "CREATE LIVE TABLE v AS SELECT 1 AS x;\n",
    )
    .unwrap();
    // Neither a selection nor a noqa comment hides the syntax error from --fix.
    let silenced = broken.replace("1 +;", "1 +; -- noqa");
    std::fs::write(dir.join("silenced.sql"), &silenced).unwrap();
    let args = [
        "check",
        "--fix",
        "--select",
        "DEPRECATED_SYNTAX",
        "silenced.sql",
    ];
    assert_eq!(run_in(&dir, &args).status.code(), Some(1));
    assert_eq!(
        std::fs::read_to_string(dir.join("silenced.sql")).unwrap(),
        silenced
    );
    std::fs::remove_file(dir.join("silenced.sql")).unwrap();
    let output = run_in(&dir, &["check", "--fix", "--format", "concise", "."]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8(output.stderr.clone()).unwrap();
    assert!(
        stderr.contains("broken.sql: not fixed, it has a syntax error"),
        "{stderr}"
    );
    assert!(stderr.contains("fixed 1 problem in 1 file"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(dir.join("broken.sql")).unwrap(),
        broken
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("fine.sql")).unwrap(),
        "CREATE MATERIALIZED VIEW v AS SELECT 1 AS x;\n"
    );
}

#[test]
fn fix_does_not_take_stdin_but_diff_does() {
    let output = check(
        &["--fix", "-"],
        "CREATE LIVE TABLE t AS SELECT 1 AS x;",
        &[],
    );
    assert_eq!(output.status.code(), Some(2));
    let output = check(
        &["--diff", "--stdin-filename", "t.sql", "-"],
        "CREATE LIVE TABLE t AS SELECT 1 AS x;",
        &[],
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stdout(&output).contains("+CREATE MATERIALIZED VIEW t AS SELECT 1 AS x;"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn json_and_sarif_carry_the_fixes() {
    let output = check(
        &["--format", "json", "-"],
        "create live table t as select 1 as x;",
        &[],
    );
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(
        json["diagnostics"][0]["fix"],
        serde_json::json!({
            "message": "write `MATERIALIZED VIEW` for `LIVE TABLE`",
            "applicability": "safe",
            "edits": [{
                "span": { "start": 7, "end": 17 },
                "line": 1, "column": 8, "end_line": 1, "end_column": 18,
                "replacement": "materialized view",
            }],
        })
    );
    assert_eq!(json["summary"]["fixable"], 1);
    let output = check(
        &["--format", "sarif", "-"],
        "create live table t as select 1 as x;",
        &[],
    );
    let sarif: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let fix = &sarif["runs"][0]["results"][0]["fixes"][0];
    assert_eq!(
        fix["artifactChanges"][0]["replacements"][0]["insertedContent"]["text"],
        "materialized view"
    );
    let schema = jsonschema::validator_for(&sarif_schema()).unwrap();
    assert!(schema.is_valid(&sarif));
}

#[test]
fn fix_changes_a_file_two_pipelines_share_once() {
    let dir = scratch("fix-shared");
    write_files(
        &dir,
        &[
            (
                "databricks.yml",
                b"bundle:\n  name: shop\nresources:\n  pipelines:\n    orders:\n      libraries:\n\
                  \x20       - file:\n            path: src/shared.sql\n\
                  \x20       - file:\n            path: src/orders.sql\n\
                  \x20   customers:\n      libraries:\n\
                  \x20       - file:\n            path: src/shared.sql\n",
            ),
            (
                "src/shared.sql",
                b"CREATE LIVE TABLE regions AS SELECT * FROM main.ref.regions;\n",
            ),
            (
                "src/orders.sql",
                b"CREATE LIVE TABLE orders AS SELECT * FROM LIVE.regions;\n",
            ),
        ],
    );
    let output = run_in(&dir, &["check", "--fix", "--format", "concise"]);
    let stderr = String::from_utf8(output.stderr.clone()).unwrap();
    assert_eq!(output.status.code(), Some(0), "{}{stderr}", stdout(&output));
    assert!(stderr.contains("fixed 3 problems in 2 files"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(dir.join("src/shared.sql")).unwrap(),
        "CREATE MATERIALIZED VIEW regions AS SELECT * FROM main.ref.regions;\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("src/orders.sql")).unwrap(),
        "CREATE MATERIALIZED VIEW orders AS SELECT * FROM regions;\n"
    );
}
