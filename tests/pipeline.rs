//! The pipeline API: name resolution across files, parameters, scope, and reporting every
//! independent error once.

use pipeline_sql::pipeline::{DatasetKind, FlowKind};
use pipeline_sql::Pipeline;

fn codes(checked: &pipeline_sql::pipeline::PipelineCheck<'_>) -> Vec<String> {
    checked
        .diagnostics()
        .map(|(_, d)| d.code().to_string())
        .collect()
}

#[test]
fn parameters_resolve_names_and_unknown_ones_stay_opaque() {
    let tables = "USE CATALOG main;\nUSE SCHEMA sales;\nCREATE OR REFRESH STREAMING TABLE ${catalog}.sales.orders;";
    let flows = "USE main.sales;\nCREATE FLOW f AS INSERT INTO orders BY NAME SELECT * FROM raw;";
    let mut pipeline = Pipeline::new();
    pipeline.add_source("tables.sql", tables);
    pipeline.add_source("flows.sql", flows);
    pipeline.param("catalog", "MAIN");
    let arena = pipeline_sql::Arena::new();
    let checked = pipeline.check(&arena);
    // With the parameter, `${catalog}.sales.orders` is `main.sales.orders`: after the USE
    // statements of each file, both files name the same `orders`, a streaming table.
    assert_eq!(
        codes(&checked),
        ["INVALID_FLOW_QUERY_TYPE.BATCH_RELATION_FOR_STREAMING_TABLE"]
    );
    assert_eq!(checked.model.datasets[0].key, "orders");

    // Without it, the placeholder is an opaque name part: the flow's target is not the table.
    let mut pipeline = Pipeline::new();
    pipeline.add_source("tables.sql", tables);
    pipeline.add_source("flows.sql", flows);
    let arena = pipeline_sql::Arena::new();
    let checked = pipeline.check(&arena);
    assert!(codes(&checked).is_empty());
    assert_eq!(checked.model.datasets[0].key, "${catalog}.sales.orders");
}

#[test]
fn absence_rules_need_the_whole_pipeline() {
    let source = "CREATE OR REFRESH STREAMING TABLE lonely;\nCREATE FLOW f AS INSERT INTO elsewhere BY NAME SELECT * FROM STREAM(s);";
    assert!(pipeline_sql::check(&pipeline_sql::Arena::new(), source)
        .diagnostics()
        .is_empty());
    let mut pipeline = Pipeline::new();
    pipeline.add_source("p.sql", source);
    pipeline.complete(true);
    assert_eq!(
        codes(&pipeline.check(&pipeline_sql::Arena::new())),
        [
            "PIPELINE_DATASET_WITHOUT_FLOW",
            "INVALID_FLOW_TARGET.NOT_FOUND"
        ]
    );
}

#[test]
fn many_independent_errors_are_each_reported_once() {
    let source = "\
CREATE OR REPLACE STREAMING TABLE a AS SELECT * FROM STREAM(s);
CREATE FLOW x.y AS INSERT INTO a SELECT * FROM STREAM(s);
CREATE FLOW c AS AUTO CDC INTO a FROM STREAM(s) KEYS (id, id) SEQUENCE BY ts STORED AS SCD TYPE 3;
CREATE OR REFRESH STREAMING TABLE d (x INT, x INT) PARTITIONED BY (x) CLUSTER BY (x);
CREATE TEMPORARY VIEW cat.sch.v AS SELECT 1;
CREATE OR REFRESH MATERIALIZED VIEW m AS SELECT * FROM STREAM(a);
SELECT a FROM t WHERE a =;
";
    let arena = pipeline_sql::Arena::new();
    let checked = pipeline_sql::check(&arena, source);
    let mut found: Vec<&str> = checked.diagnostics().iter().map(|d| d.code()).collect();
    found.sort_unstable();
    assert_eq!(
        found,
        [
            "COLUMN_ALREADY_EXISTS",
            "DUPLICATE_KEY_COLUMNS",
            "INSERT_FLOW_REQUIRES_BY_NAME",
            "INVALID_FLOW_QUERY_TYPE.STREAMING_RELATION_FOR_MATERIALIZED_VIEW",
            "INVALID_SCD_TYPE",
            "INVALID_TEMP_OBJ_QUALIFIER",
            "MULTIPART_FLOW_NAME_NOT_SUPPORTED",
            "PARSE_SYNTAX_ERROR",
            "SPECIFY_CLUSTER_BY_WITH_PARTITIONED_BY_IS_NOT_ALLOWED",
            "STREAMING_TABLE_OPERATION_NOT_ALLOWED.CREATE_OR_REPLACE",
        ]
    );
    let starts: Vec<u32> = checked
        .diagnostics()
        .iter()
        .map(|d| d.span().start)
        .collect();
    assert!(
        starts.windows(2).all(|w| w[0] <= w[1]),
        "sorted by position"
    );
}

#[test]
fn the_model_describes_datasets_flows_and_lineage() {
    let source = "\
CREATE OR REFRESH STREAMING TABLE bronze AS SELECT * FROM STREAM read_files('/in', format => 'json');
CREATE OR REFRESH STREAMING TABLE silver;
CREATE FLOW silver_flow AS INSERT INTO silver BY NAME SELECT * FROM STREAM(LIVE.bronze) JOIN dims USING (id);
CREATE FLOW silver_cdc AS AUTO CDC INTO silver FROM STREAM(changes) KEYS (id) SEQUENCE BY ts;
CREATE OR REFRESH MATERIALIZED VIEW gold AS WITH s AS (SELECT * FROM silver) SELECT count(*) FROM s;
CREATE VIEW latest AS SELECT * FROM gold;
";
    let arena = pipeline_sql::Arena::new();
    let checked = pipeline_sql::check(&arena, source);
    let model = checked.model();
    let kinds: Vec<(&str, DatasetKind)> = model
        .datasets
        .iter()
        .map(|d| (d.key.as_str(), d.kind))
        .collect();
    assert_eq!(
        kinds,
        [
            ("bronze", DatasetKind::StreamingTable),
            ("silver", DatasetKind::StreamingTable),
            ("gold", DatasetKind::MaterializedView),
            ("latest", DatasetKind::View),
        ]
    );
    let flows: Vec<(&str, FlowKind, bool)> = model
        .flows
        .iter()
        .map(|f| (f.name.as_str(), f.kind, f.implicit))
        .collect();
    assert_eq!(
        flows,
        [
            ("bronze", FlowKind::Insert, true),
            ("silver_flow", FlowKind::Insert, false),
            ("silver_cdc", FlowKind::AutoCdc, false),
            ("gold", FlowKind::Insert, true),
        ]
    );
    let reads: Vec<(&str, bool)> = model.flows[1]
        .reads
        .iter()
        .map(|r| (r.key.as_str(), r.streaming))
        .collect();
    assert_eq!(reads, [("bronze", true), ("dims", false)]);
    let graph = model.dependencies();
    let edges: Vec<(&str, Vec<&str>)> = graph
        .iter()
        .map(|(k, v)| (k.as_str(), v.iter().map(String::as_str).collect()))
        .collect();
    assert_eq!(
        edges,
        [
            ("bronze", vec![]),
            ("silver", vec!["bronze"]),
            ("gold", vec!["silver"]),
            ("latest", vec!["gold"])
        ]
    );
}

/// A template placeholder is an error unless the pipeline has a parameter of its name; then
/// it resolves like the engine's own `${name}`.
#[test]
fn template_placeholders_take_parameters() {
    let source = "CREATE OR REFRESH MATERIALIZED VIEW {schema}.daily AS SELECT 1 AS x;\n\
                  CREATE OR REFRESH MATERIALIZED VIEW weekly AS SELECT * FROM {{ schema }}.daily;";
    let arena = pipeline_sql::Arena::new();
    let mut pipeline = Pipeline::new();
    pipeline.add_source("t.sql", source);
    assert_eq!(codes(&pipeline.check(&arena)), ["TEMPLATE_PLACEHOLDER"; 2]);
    pipeline.param("schema", "sales");
    let checked = pipeline.check(&arena);
    assert_eq!(checked.diagnostics().count(), 0);
    // Both placeholders resolve to one name: the view's flow reads the other dataset.
    assert_eq!(checked.model.datasets[0].key, "sales.daily");
    let weekly = &checked.model.flows[1];
    assert_eq!(weekly.reads[0].key, "sales.daily");
}
