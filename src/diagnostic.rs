//! Diagnostics: a stable code, a severity, a message, a primary span, secondary labels and a
//! help line. The library returns them; it never prints. They implement
//! [`miette::Diagnostic`] so that a caller can render them with a source snippet.

use crate::span::Span;
use std::fmt;

macro_rules! codes {
    ($($(#[doc = $family_doc:literal])* $family:ident $title:literal {
        $($(#[doc = $doc:literal])* $variant:ident => $text:literal,)*
    })*) => {
        /// Every code pipeline-sql reports. The string form ([`Code::as_str`]) is the code as
        /// the engine documents it (or, for a few of the crate's own, in the same style),
        /// verbatim; codes are added, never renamed. Each has a page in `docs/codes/`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize))]
        #[non_exhaustive]
        pub enum Code {
            $($($(#[doc = $doc])* $variant,)*)*
        }

        /// What a code is about: the families of `docs/codes/README.md`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Family {
            $($(#[doc = $family_doc])* $family,)*
        }

        impl Family {
            /// Every family, in order.
            pub const ALL: &'static [Family] = &[$(Family::$family,)*];

            /// The family's title: `Flows`.
            pub fn title(self) -> &'static str {
                match self {
                    $(Family::$family => $title,)*
                }
            }
        }

        impl Code {
            /// Every code, in declaration order.
            pub const ALL: &'static [Code] = &[$($(Code::$variant,)*)*];

            /// The code as documented: `PARSE_SYNTAX_ERROR`.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($(Code::$variant => $text,)*)*
                }
            }

            /// What the code is about.
            pub fn family(self) -> Family {
                match self {
                    $($(Code::$variant => Family::$family,)*)*
                }
            }

            /// What triggers the code, in a sentence: `An INSERT flow without BY NAME.`
            pub fn summary(self) -> &'static str {
                let doc = self.doc();
                doc.split_once('\n').map_or(doc, |(first, _)| first).trim_ascii()
            }

            /// The severity of the code: a warning where its summary says `(warning)`, and
            /// then every diagnostic of the code is one. Otherwise an error, though a few such
            /// codes are also reported as warnings where one statement cannot settle the
            /// question and the pipeline would (a snapshot flow's target may be empty).
            pub fn severity(self) -> Severity {
                if self.summary().ends_with("(warning).") {
                    Severity::Warning
                } else {
                    Severity::Error
                }
            }

            /// Whether the code says the source does not parse (PARSE_SYNTAX_ERROR,
            /// UNCLOSED_BRACKETED_COMMENT): such a diagnostic is always reported (no selector or
            /// noqa comment silences it), and a source with one is never fixed.
            pub fn is_syntax_error(self) -> bool {
                matches!(self, Code::ParseSyntaxError | Code::UnclosedBracketedComment)
            }

            /// Whether the rule that reports the code concludes from an absence (a target
            /// declared nowhere, a table no flow writes, no dataset at all, a read of a name
            /// declared nowhere), and so runs on a complete pipeline only.
            pub fn needs_complete_pipeline(self) -> bool {
                matches!(
                    self,
                    Code::InvalidFlowTargetNotFound
                        | Code::PipelineDatasetWithoutFlow
                        | Code::RunEmptyPipeline
                        | Code::MisspeltDatasetRead
                )
            }

            /// Why the engine rejects (or warns about) what triggers the code, in a paragraph.
            pub fn why(self) -> String {
                let Some((_, why)) = self.doc().split_once("\n\n") else {
                    return String::new();
                };
                why.split_whitespace().collect::<Vec<_>>().join(" ")
            }

            /// The code's documentation: its summary line, an empty line, and why.
            fn doc(self) -> &'static str {
                match self {
                    $($(Code::$variant => concat!($($doc, "\n"),*),)*)*
                }
            }
        }
    };
}

codes! {
    /// Input that is no valid pipeline SQL, and legacy spellings.
    Syntax "Syntax" {
        /// The input does not match the grammar.
        ///
        /// The engine parses every statement of a pipeline's source files before it runs anything,
        /// and one statement it cannot read fails the whole update. The message names the token
        /// where the reading stopped and what could have come there.
        ParseSyntaxError => "PARSE_SYNTAX_ERROR",
        /// A `/*` comment without its `*/`.
        ///
        /// Everything after an unclosed `/*` is comment to the engine, so the statements after it
        /// are silently not part of the pipeline; the engine refuses the file instead.
        UnclosedBracketedComment => "UNCLOSED_BRACKETED_COMMENT",
        /// A legacy spelling that is still accepted (warning).
        ///
        /// The engine still runs these spellings of the older Delta Live Tables syntax, but they
        /// are superseded: the current syntax says the same thing in the form the reference
        /// documents, and new features (ONCE, REPLACE USING, FROM SNAPSHOT) only exist in it.
        DeprecatedSyntax => "DEPRECATED_SYNTAX",
        /// A notebook cell of a magic command other than markdown: `%python`, `%sql`, `%run`, ... (warning).
        ///
        /// A pipeline runs the cells of its SQL notebooks and skips the cells of magic commands:
        /// a `%python` or `%sh` cell, or a `%run` of another notebook, does nothing when the
        /// pipeline updates, so whatever it was meant to set up is missing. Markdown cells are
        /// documentation and are not reported.
        NotebookCellNotRun => "NOTEBOOK_CELL_NOT_RUN",
        /// A SET whose value runs on to a line that starts a statement (warning).
        ///
        /// SET takes everything up to the next `;` as its value, across lines: without a `;`
        /// after it, the statements that follow become part of the value, and the engine
        /// silently never runs them. This is a warning because the engine accepts it; it is
        /// almost always a missing `;`.
        SetValueSwallowsStatement => "SET_VALUE_SWALLOWS_STATEMENT",
        /// A template placeholder (`{name}`, `{{ name }}`) that no parameter gives a value.
        ///
        /// Jobs that template their SQL substitute such placeholders before the pipeline runs;
        /// the engine itself only substitutes its own parameters (`${name}`), and reads a brace
        /// as a syntax error. Checked as written, the file would fail: give the value with
        /// `--param name=value` to check it as the job will deploy it.
        TemplatePlaceholder => "TEMPLATE_PLACEHOLDER",
        /// A statement Spark reads that a pipeline does not take (CREATE TABLE AS SELECT, INSERT
        /// outside a flow, MERGE, CREATE SCHEMA, DDL and DML of other kinds).
        ///
        /// A pipeline's source files declare its datasets and the flows that write them; the
        /// engine builds the pipeline's graph from those declarations and runs it. A statement
        /// that would create or change something by itself when it runs has no place in that
        /// graph, and the pipeline's registration refuses it.
        UnsupportedPipelineSparkSqlCommand => "UNSUPPORTED_PIPELINE_SPARK_SQL_COMMAND",
        /// A SCHEDULE or TRIGGER ON UPDATE clause in a pipeline.
        ///
        /// Streaming tables and materialized views created outside a pipeline refresh on their
        /// own schedule; in a pipeline, the pipeline updates its datasets when it is triggered,
        /// so a dataset of its own cannot carry a schedule.
        UnsupportedPipelineClause => "UNSUPPORTED_PIPELINE_CLAUSE",
    }

    /// Flows: INSERT and AUTO CDC clauses, what a flow reads, flow names.
    Flows "Flows" {
        /// An INSERT flow without `BY NAME`.
        ///
        /// A flow's INSERT matches the query's columns to the target's by name, never by position:
        /// the syntax of an INSERT flow is `INSERT [ONCE] INTO target BY NAME query`, and a
        /// positional INSERT is no flow the engine can run.
        InsertFlowRequiresByName => "INSERT_FLOW_REQUIRES_BY_NAME",
        /// `ONCE` together with `REPLACE USING`.
        ///
        /// A REPLACE USING flow replaces the target's rows key by key as new partial snapshots
        /// arrive, which needs a streaming source; a ONCE flow reads its source one time, as a
        /// batch. The reference says REPLACE USING can't be combined with ONCE.
        ReplaceUsingWithOnce => "REPLACE_USING_WITH_ONCE",
        /// `ONCE` together with `REPLACE WHERE`.
        ///
        /// A REPLACE WHERE flow replaces the rows that match its condition on every update; ONCE
        /// makes a flow run a single time, so the two ask for different lifecycles of one flow.
        ReplaceWhereWithOnce => "REPLACE_WHERE_WITH_ONCE",
        /// Both REPLACE forms in one flow.
        ///
        /// REPLACE WHERE replaces the rows that match a condition, REPLACE USING the rows that
        /// match the incoming rows' keys: a flow replaces rows in one of the two ways.
        ReplaceWhereWithReplaceUsing => "REPLACE_WHERE_WITH_REPLACE_USING",
        /// A required clause is missing (SEQUENCE BY, KEYS).
        ///
        /// AUTO CDC needs KEYS to know which rows are the same entity and SEQUENCE BY to know which
        /// change is the latest when changes arrive out of order; REPLACE USING needs its key
        /// columns and exactly one SEQUENCE BY column for the same reasons. Without them the engine
        /// cannot merge the changes.
        MissingClausesForOperation => "MISSING_CLAUSES_FOR_OPERATION",
        /// A clause given twice.
        ///
        /// Each clause of a flow or a table may be given once: two of them (two KEYS, two COMMENTs,
        /// two PARTITIONED BY) would have to be merged or one ignored, and the engine refuses to
        /// guess which.
        DuplicateClauses => "DUPLICATE_CLAUSES",
        /// A column repeated in KEYS or REPLACE USING.
        ///
        /// A key column identifies a row; naming it twice adds nothing and is most often a typo for
        /// another column that was meant.
        DuplicateKeyColumns => "DUPLICATE_KEY_COLUMNS",
        /// `STORED AS SCD TYPE n` with n not 1 or 2.
        ///
        /// AUTO CDC stores changes as slowly changing dimension type 1 (keep the latest row of each
        /// key) or type 2 (keep the history of each key); there is no other type.
        InvalidScdType => "INVALID_SCD_TYPE",
        /// TRACK HISTORY ON without SCD TYPE 2.
        ///
        /// TRACK HISTORY ON chooses which columns start a new history row when they change, and
        /// only SCD type 2 keeps history; with SCD type 1 (the default) there is no history to
        /// track.
        AutoCdcTrackHistoryRequiresScd2 => "AUTOCDC_TRACK_HISTORY_REQUIRES_SCD2",
        /// APPLY AS TRUNCATE WHEN with SCD TYPE 2.
        ///
        /// APPLY AS TRUNCATE WHEN empties the target when a change says so, which only fits SCD
        /// type 1: with SCD type 2 the target is a history, and truncating it would erase the
        /// history it exists to keep.
        AutoCdcTruncateRequiresScd1 => "AUTOCDC_TRUNCATE_REQUIRES_SCD1",
        /// COLUMNS drops a key column.
        ///
        /// The keys identify each row of the target, so they must be among the columns the flow
        /// writes; a COLUMNS list that leaves a key out would write rows that cannot be matched to
        /// the next change.
        AutoCdcKeyNotInSelectedSchema => "AUTOCDC_KEY_NOT_IN_SELECTED_SCHEMA",
        /// A key column in TRACK HISTORY ON.
        ///
        /// The key columns identify the entity whose history is kept: a change to a key is a
        /// different entity, not a new version of the same one, so it cannot start a history row.
        AutoCdcTrackHistoryOnKeyColumn => "AUTOCDC_TRACK_HISTORY_ON_KEY_COLUMN",
        /// A change-feed clause on a snapshot flow.
        ///
        /// A snapshot flow derives its changes by comparing whole snapshots, so there is no change
        /// feed to filter (WHERE), order (SEQUENCE BY) or read delete and truncate markers from;
        /// the order of snapshots comes from WITH VERSION. The reference says snapshot CDC does not
        /// support WHERE or SEQUENCE BY.
        AutoCdcFromSnapshotUnsupportedClause => "AUTO_CDC_FROM_SNAPSHOT_UNSUPPORTED_CLAUSE",
        /// `CREATE FLOW a.b`.
        ///
        /// A flow is no object in the catalog: it lives in the pipeline and its name is one
        /// identifier. Only the datasets it writes have catalog and schema names.
        MultipartFlowNameNotSupported => "MULTIPART_FLOW_NAME_NOT_SUPPORTED",
        /// A read option that Delta streaming sources do not document (warning).
        ///
        /// A read option that the source does not document is ignored without a word, which mostly
        /// means a misspelt option whose effect never happens. This is a warning: the engine runs
        /// the flow.
        UnknownReadOption => "UNKNOWN_READ_OPTION",
        /// A snapshot-version function called where it has no value.
        ///
        /// `current_snapshot_version()` has a value only while the engine runs a snapshot query for
        /// a version that WITH VERSION chose, and `last_snapshot_version()` only while it evaluates
        /// the version query; anywhere else the engine cannot resolve them.
        UnresolvableTableValuedFunction => "UNRESOLVABLE_TABLE_VALUED_FUNCTION",
        /// A version query that cannot return one value per update.
        ///
        /// The engine takes the version query's one value as the next snapshot version: it must
        /// return exactly one column, and no row (nothing new) or one non-null value, never
        /// several.
        InvalidAutoCdcFromSnapshotVersionQuery => "INVALID_AUTO_CDC_FROM_SNAPSHOT_VERSION_QUERY",
        /// A repeating snapshot flow without WITH VERSION.
        ///
        /// Without WITH VERSION the snapshot query runs only while the target is empty; every later
        /// update of a repeating flow finds the target filled and fails. Use ONCE for a one-time
        /// load, or add WITH VERSION to process snapshots update after update.
        AutoCdcFromSnapshotNonEmptyTargetWithoutVersion => "AUTO_CDC_FROM_SNAPSHOT_NON_EMPTY_TARGET_WITHOUT_VERSION",
        /// A flow into a streaming table that reads no streaming source.
        ///
        /// A streaming table is written incrementally: each update processes only what arrived
        /// since the last one. A flow into it that reads a source as a batch (without STREAM) has
        /// no notion of new data, so the engine refuses it unless the flow runs ONCE or replaces
        /// rows (REPLACE WHERE).
        BatchRelationForStreamingTable => "INVALID_FLOW_QUERY_TYPE.BATCH_RELATION_FOR_STREAMING_TABLE",
        /// A ONCE flow that reads a streaming source.
        ///
        /// A ONCE flow runs one time, as a batch: a streaming read (STREAM) inside it would have no
        /// update to continue in.
        StreamingRelationForOnceFlow => "INVALID_FLOW_QUERY_TYPE.STREAMING_RELATION_FOR_ONCE_FLOW",
        /// A materialized view that reads a streaming source.
        ///
        /// A materialized view is recomputed from its query's full result, as a batch; a streaming
        /// read would make it depend on what earlier updates already processed, which a
        /// materialized view does not keep.
        StreamingRelationForMaterializedView => "INVALID_FLOW_QUERY_TYPE.STREAMING_RELATION_FOR_MATERIALIZED_VIEW",
    }

    /// The definitions of tables: columns, identity and generated columns, defaults, expectations, table clauses.
    Tables "Tables, columns and expectations" {
        /// `CREATE OR REPLACE STREAMING TABLE`.
        ///
        /// Replacing a streaming table would drop the state that tells its flows what they have
        /// already processed; CREATE OR REFRESH keeps the table and its state and updates its
        /// definition.
        StreamingTableCreateOrReplace => "STREAMING_TABLE_OPERATION_NOT_ALLOWED.CREATE_OR_REPLACE",
        /// Two columns with one name.
        ///
        /// Column names are case-insensitive, so two columns whose names differ only in case, or
        /// not at all, are the same column to the engine.
        ColumnAlreadyExists => "COLUMN_ALREADY_EXISTS",
        /// A column property given twice.
        ///
        /// Each property of a column (its COMMENT, DEFAULT, NOT NULL, ...) may be given once; the
        /// engine refuses to pick one of two.
        CreateTableColumnDescriptorDuplicate => "CREATE_TABLE_COLUMN_DESCRIPTOR_DUPLICATE",
        /// A column comment without a column type (warning).
        ///
        /// A column listed without a type takes its type from the query, and the engine then
        /// ignores the column's COMMENT. This is a warning: give the column its type, or set the
        /// comment elsewhere.
        ColumnCommentWithoutType => "COLUMN_COMMENT_WITHOUT_TYPE",
        /// A generation expression Delta cannot compute per row.
        ///
        /// Delta computes a generated column from the other columns of the same row when it is
        /// written: the expression must be deterministic and row by row, with no aggregate, window,
        /// generator or subquery, and it may read only the table's own columns.
        UnsupportedExpressionGeneratedColumn => "UNSUPPORTED_EXPRESSION_GENERATED_COLUMN",
        /// An identity column that is not BIGINT.
        ///
        /// Delta generates identity values as 64-bit integers, so an identity column must be
        /// BIGINT.
        IdentityColumnsUnsupportedDataType => "IDENTITY_COLUMNS_UNSUPPORTED_DATA_TYPE",
        /// `INCREMENT BY 0`.
        ///
        /// An identity column's values must change from row to row; a step of 0 would give every
        /// row the same value.
        IdentityColumnsIllegalStep => "IDENTITY_COLUMNS_ILLEGAL_STEP",
        /// START WITH or INCREMENT BY given twice.
        ///
        /// START WITH and INCREMENT BY each set one number of the sequence; given twice, the engine
        /// refuses to pick one.
        IdentityColumnsDuplicatedSequenceGeneratorOption => "IDENTITY_COLUMNS_DUPLICATED_SEQUENCE_GENERATOR_OPTION",
        /// An identity column with a DEFAULT.
        ///
        /// An identity column's value comes from its sequence; a DEFAULT would be a second source
        /// for the same value.
        IdentityColumnWithDefaultValue => "IDENTITY_COLUMN_WITH_DEFAULT_VALUE",
        /// A generated column with a DEFAULT.
        ///
        /// A generated column's value is always its expression; a DEFAULT could never apply.
        GeneratedColumnWithDefaultValue => "GENERATED_COLUMN_WITH_DEFAULT_VALUE",
        /// PARTITIONED BY an identity column.
        ///
        /// Every row gets its own identity value, so partitioning by it would make a partition of
        /// every row; Delta does not allow it.
        DeltaIdentityColumnsPartitionNotSupported => "DELTA_IDENTITY_COLUMNS_PARTITION_NOT_SUPPORTED",
        /// The table's query writes an always-generated identity column.
        ///
        /// A GENERATED ALWAYS AS IDENTITY column takes its values only from its sequence; a query
        /// that writes the column would override them.
        DeltaIdentityColumnsExplicitInsertNotSupported => "DELTA_IDENTITY_COLUMNS_EXPLICIT_INSERT_NOT_SUPPORTED",
        /// A DEFAULT with an aggregate, window, generator or subquery.
        ///
        /// A DEFAULT is computed for one row when it is written without that column: an aggregate,
        /// window, generator or subquery has no meaning for one row.
        InvalidDefaultValueUnsupportedExpression => "INVALID_DEFAULT_VALUE.UNSUPPORTED_EXPRESSION",
        /// An expectation with an aggregate, window, generator or subquery.
        ///
        /// An expectation is a constraint that each row is checked against on its own: an
        /// aggregate, window, generator or subquery looks at more than that row.
        InvalidExpectationExpression => "INVALID_EXPECTATION_EXPRESSION",
        /// Two expectations with one name.
        ///
        /// Expectations are reported and counted by name in the pipeline's data-quality metrics;
        /// two with one name could not be told apart.
        DuplicateExpectationName => "DUPLICATE_EXPECTATION_NAME",
        /// PARTITIONED BY and CLUSTER BY together.
        ///
        /// Liquid clustering (CLUSTER BY) replaces partitioning as the table's data layout: a table
        /// has one layout or the other.
        SpecifyClusterByWithPartitionedByIsNotAllowed => "SPECIFY_CLUSTER_BY_WITH_PARTITIONED_BY_IS_NOT_ALLOWED",
        /// A clause names a column the table does not declare.
        ///
        /// The clause lays out or protects columns of the table, so each column it names must be
        /// one the table declares; a name it does not declare is most often a typo.
        ColumnNotDefinedInTable => "COLUMN_NOT_DEFINED_IN_TABLE",
        /// The query returns a column the table's declaration lacks.
        ///
        /// When a table declares its columns, its query's result must fit that declaration: a
        /// column the declaration lacks has nowhere to go.
        QueryColumnNotInTableSchema => "QUERY_COLUMN_NOT_IN_TABLE_SCHEMA",
        /// `USING` a provider other than DELTA.
        ///
        /// A pipeline's streaming tables and managed tables are Delta tables: their flows, state
        /// and data-quality checks rely on Delta.
        UnsupportedTableProvider => "UNSUPPORTED_TABLE_PROVIDER",
        /// A qualified name for a temporary view.
        ///
        /// A temporary view exists only for the pipeline that defines it and belongs to no catalog
        /// or schema, so its name cannot be qualified.
        InvalidTempObjQualifier => "INVALID_TEMP_OBJ_QUALIFIER",
    }

    /// Managed tables (`CREATE TABLE ... FLOW`), which take fewer kinds of flow than streaming tables.
    ManagedTables "Managed tables" {
        /// An AUTO CDC flow into a managed table.
        ///
        /// A managed table (CREATE TABLE ... FLOW) takes only INSERT BY NAME flows; merging a
        /// change feed or snapshots into a table with AUTO CDC needs a streaming table.
        ManagedTableDoesNotSupportCdc => "MANAGED_TABLE_DOES_NOT_SUPPORT_CDC",
        /// A REPLACE WHERE or REPLACE USING flow into a managed table.
        ///
        /// A managed table (CREATE TABLE ... FLOW) takes only INSERT BY NAME flows; replacing rows
        /// (REPLACE WHERE, REPLACE USING) needs a streaming table.
        ManagedTableDoesNotSupportReplaceWhere => "MANAGED_TABLE_DOES_NOT_SUPPORT_REPLACE_WHERE",
        /// One name declared as a streaming table and as a managed table.
        ///
        /// A streaming table and a managed table keep different state for their flows, so one name
        /// cannot be both: the engine does not turn one kind into the other.
        CannotSwitchStreamingTableToManagedTable => "CANNOT_SWITCH_STREAMING_TABLE_TO_MANAGED_TABLE",
    }

    /// Rules over all of a pipeline's files: names, flow targets, dependencies.
    Pipeline "The pipeline as a whole" {
        /// Two datasets with one name.
        ///
        /// The pipeline publishes each dataset under its name, and other datasets read it by that
        /// name; two definitions of one name leave it ambiguous which one is meant.
        PipelineDuplicateIdentifiersOutput => "PIPELINE_DUPLICATE_IDENTIFIERS.OUTPUT",
        /// Two flows with one name.
        ///
        /// The engine tracks each flow's progress by its name; two flows with one name would share
        /// that state. A dataset defined with `AS query` or an inline FLOW already owns a flow of
        /// its own name.
        PipelineDuplicateIdentifiersFlow => "PIPELINE_DUPLICATE_IDENTIFIERS.FLOW",
        /// A flow into a table the pipeline does not declare.
        ///
        /// A flow writes into a table that the pipeline declares (with CREATE STREAMING TABLE or
        /// CREATE TABLE); a target the pipeline does not declare has no definition for the flow to
        /// write into.
        InvalidFlowTargetNotFound => "INVALID_FLOW_TARGET.NOT_FOUND",
        /// A CREATE FLOW into a materialized view.
        ///
        /// A materialized view is defined by its own query alone and recomputed from it; a separate
        /// flow cannot write into it.
        InvalidFlowTargetMaterializedView => "INVALID_FLOW_TARGET.MATERIALIZED_VIEW",
        /// A CREATE FLOW into a view.
        ///
        /// A view stores no data: it is its query, so no flow can write into it.
        InvalidFlowTargetView => "INVALID_FLOW_TARGET.VIEW",
        /// A streaming or managed table that no flow writes.
        ///
        /// A streaming table or managed table declared without `AS query` gets its data only from
        /// flows; with no flow writing it, it would stay empty, and the engine refuses it.
        PipelineDatasetWithoutFlow => "PIPELINE_DATASET_WITHOUT_FLOW",
        /// A pipeline without datasets.
        ///
        /// A pipeline whose sources define no dataset has nothing to run; usually its files were
        /// not found or hold only settings.
        RunEmptyPipeline => "RUN_EMPTY_PIPELINE",
        /// Datasets that read each other in a cycle.
        ///
        /// The engine orders the pipeline's datasets so that each is updated after what it reads;
        /// datasets that read each other in a cycle have no such order.
        PipelineCircularDependency => "PIPELINE_CIRCULAR_DEPENDENCY",
        /// A read of a name the pipeline does not declare, one slip from a dataset it does (warning).
        ///
        /// In a complete pipeline every dataset is declared in its sources, so a read of a name one
        /// letter from one of them (added, dropped, changed, or two swapped) is most likely that
        /// dataset misspelt. The engine reads such a name as a table outside the pipeline: the
        /// update fails where none exists (TABLE_OR_VIEW_NOT_FOUND), and reads the wrong data
        /// where one does. A warning, because a table of that name may be meant.
        MisspeltDatasetRead => "MISSPELT_DATASET_READ",
        /// Two repeating snapshot flows into one target.
        ///
        /// A target's snapshot state (the last snapshot and its version) belongs to one snapshot
        /// query: two repeating snapshot flows would compare their snapshots with each other's.
        ApplyChangesFromSnapshotMultipleQueriesForTable => "APPLY_CHANGES_FROM_SNAPSHOT_ERROR.MULTIPLE_QUERIES_FOR_TABLE",
        /// A snapshot flow and a CDC flow into one target with different KEYS.
        ///
        /// A snapshot flow and a change-feed flow into one target merge into the same rows, so they
        /// must identify rows by the same KEYS.
        ApplyChangesFromSnapshotInteropKeysMismatch => "APPLY_CHANGES_FROM_SNAPSHOT_ERROR.INTEROP_KEYS_MISMATCH",
        /// Flows into one target disagree on the type of the snapshot version.
        ///
        /// The target keeps the versions of what was merged into it in one type; a flow whose
        /// versions have another type (a snapshot flow without WITH VERSION uses TIMESTAMP) cannot
        /// be ordered against them.
        AutoCdcFromSnapshotVersionSchemaChanged => "AUTO_CDC_FROM_SNAPSHOT_VERSION_SCHEMA_CHANGED",
    }

    /// The snapshot-version protocol of AUTO CDC FROM SNAPSHOT, which only a running engine (or `snapshot_version::VersionTracker`) sees.
    SnapshotVersions "Snapshot versions" {
        /// A snapshot version not greater than the last committed one.
        ///
        /// Snapshots are merged in version order, and a snapshot merges as the change from the last
        /// committed one: a version that is not greater than the last committed one would apply an
        /// older state over a newer one.
        ApplyChangesFromSnapshotOutOfOrderSnapshotVersion => "APPLY_CHANGES_FROM_SNAPSHOT_ERROR.OUT_OF_ORDER_SNAPSHOT_VERSION",
    }

    /// Codes of pipeline-sql's own, about its input and its comments rather than the pipeline.
    Checker "The checker itself" {
        /// A source file that could not be read, or is not UTF-8 text.
        ///
        /// The engine reads a pipeline's source files as UTF-8 text; one it cannot read fails the
        /// update. The check goes on with the other files and exits with status 2, as for other
        /// input errors, so that a CI job does not pass with a file left unchecked.
        SourceNotRead => "SOURCE_NOT_READ",
        /// A pipeline settings file (`databricks.yml`, `spark-pipeline.yml`) that does not read as one.
        ///
        /// The settings say which files form each pipeline, its parameters, catalog and schema;
        /// a file that is no YAML, a value of the wrong kind, a key given twice, or a library that
        /// does not exist fails the deployment before any SQL runs, and leaves the check without
        /// the pipeline it describes. The checker also refuses what it will not read: a path that
        /// leads outside the settings file's directory, nesting deeper than 256, variables that
        /// name themselves or grow past 16 MiB; and it warns that an absolute library path is a
        /// workspace path, which it does not check.
        PipelineSettingsInvalid => "PIPELINE_SETTINGS_INVALID",
        /// A `-- noqa` comment that silences nothing on its line, or names no code (warning).
        ///
        /// A noqa comment is written for one diagnostic on its line. Once that is fixed, the
        /// comment silences nothing but would silence the next problem written on the line,
        /// unseen; one that names no code never silenced anything. It is reported only where
        /// every rule it may be for ran: outside a complete pipeline, a comment that may be for a
        /// rule that concludes from an absence is left alone. The engine ignores comments: this
        /// is pipeline-sql's own code.
        UnusedNoqa => "UNUSED_NOQA",
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Severity {
    /// The engine would reject the pipeline.
    Error,
    /// The pipeline runs, but probably not as intended.
    Warning,
}

impl Severity {
    /// `"error"` or `"warning"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// One source of a pipeline, by its position in the order the sources were added.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct FileId(pub u32);

/// A secondary location that explains a diagnostic ("first declared here").
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Label {
    /// Where.
    pub span: Span,
    /// What is there.
    pub message: String,
    /// The source the span is in, when it is not the diagnostic's own.
    pub file: Option<FileId>,
}

/// One replacement in a source: the text at `span` becomes `replacement` (an insertion where
/// the span is empty, a deletion where the replacement is).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Edit {
    /// What is replaced.
    pub span: Span,
    /// What replaces it.
    pub replacement: String,
}

impl Edit {
    /// `span`'s text becomes `replacement`.
    pub fn replace(span: Span, replacement: impl Into<String>) -> Edit {
        Edit {
            span,
            replacement: replacement.into(),
        }
    }

    /// `text` goes in at `offset`.
    pub fn insert(offset: u32, text: impl Into<String>) -> Edit {
        Edit::replace(Span::new(offset, offset), text)
    }

    /// `span`'s text goes.
    pub fn delete(span: Span) -> Edit {
        Edit::replace(span, "")
    }
}

/// Whether a fix may be applied without a person reading it (as ruff's and sqlfluff's
/// `--fix` distinguish them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Applicability {
    /// The fixed source means what the original meant: a spelling changed for its current
    /// form, or what the engine requires added where only one thing can be meant.
    Safe,
    /// Probably what was meant, but it changes what runs or rests on a guess (a name that is
    /// close to the one written, statements that start to run): applied only on request.
    Unsafe,
}

impl Applicability {
    /// `"safe"` or `"unsafe"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Applicability::Safe => "safe",
            Applicability::Unsafe => "unsafe",
        }
    }
}

/// The edits that resolve a diagnostic, applied together or not at all. Edits do not overlap
/// and are in source order.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Fix {
    /// What the fix does, in a phrase: "write `PRIVATE` for `TEMPORARY`".
    pub message: String,
    /// Whether it may be applied unread.
    pub applicability: Applicability,
    /// The edits.
    pub edits: Vec<Edit>,
}

impl Fix {
    /// A safe fix of `edits` (sorted here).
    pub fn safe(message: impl Into<String>, edits: Vec<Edit>) -> Fix {
        Fix::new(message, Applicability::Safe, edits)
    }

    /// An unsafe fix of `edits` (sorted here).
    pub fn unsafe_(message: impl Into<String>, edits: Vec<Edit>) -> Fix {
        Fix::new(message, Applicability::Unsafe, edits)
    }

    fn new(message: impl Into<String>, applicability: Applicability, mut edits: Vec<Edit>) -> Fix {
        edits.sort_by_key(|e| (e.span.start, e.span.end));
        Fix {
            message: message.into(),
            applicability,
            edits,
        }
    }

    /// From the first edit's start to the last one's end.
    pub fn span(&self) -> Option<Span> {
        let first = self.edits.first()?;
        let last = self.edits.last()?;
        Some(first.span.to(last.span))
    }
}

/// One finding, with everything a person needs to act on it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[error("{message}")]
pub struct Diagnostic {
    code: Code,
    severity: Severity,
    message: String,
    span: Span,
    labels: Vec<Label>,
    help: Option<String>,
    // Boxed: most diagnostics have none, and diagnostics are moved about a good deal.
    fix: Option<Box<Fix>>,
}

impl Diagnostic {
    /// An error with `code` at `span`.
    pub fn error(code: Code, span: Span, message: impl Into<String>) -> Self {
        Diagnostic::new(code, Severity::Error, span, message)
    }

    /// A warning with `code` at `span`.
    pub fn warning(code: Code, span: Span, message: impl Into<String>) -> Self {
        Diagnostic::new(code, Severity::Warning, span, message)
    }

    fn new(code: Code, severity: Severity, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity,
            message: message.into(),
            span,
            labels: Vec::new(),
            help: None,
            fix: None,
        }
    }

    /// Adds the edits that resolve it (a `Fix`, or an `Option` of one where there may be
    /// none).
    pub fn with_fix(mut self, fix: impl Into<Option<Fix>>) -> Self {
        self.fix = fix.into().map(Box::new);
        self
    }

    /// Adds the help line: how to fix it.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Adds a secondary label in another source of the pipeline.
    pub fn with_label_in(mut self, file: FileId, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label {
            span,
            message: message.into(),
            file: Some(file),
        });
        self
    }

    /// Adds a secondary label.
    pub fn with_label(mut self, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label {
            span,
            message: message.into(),
            file: None,
        });
        self
    }

    /// The documented code, as text: `PARSE_SYNTAX_ERROR`.
    pub fn code(&self) -> &str {
        self.code.as_str()
    }

    /// The code as an enum.
    pub fn code_enum(&self) -> Code {
        self.code
    }

    /// Error or warning.
    pub fn severity(&self) -> Severity {
        self.severity
    }

    /// Where the problem is.
    pub fn span(&self) -> Span {
        self.span
    }

    /// What is wrong, in a sentence.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// How to fix it.
    pub fn help(&self) -> Option<&str> {
        self.help.as_deref()
    }

    /// Secondary locations.
    pub fn labels(&self) -> &[Label] {
        &self.labels
    }

    /// The edits that resolve it, where they are mechanical.
    pub fn fix(&self) -> Option<&Fix> {
        self.fix.as_deref()
    }

    /// Whether this is an error (rather than a warning).
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl miette::Diagnostic for Diagnostic {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.code))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        let primary =
            miette::LabeledSpan::new_primary_with_span(Some("here".to_string()), self.span);
        let secondary = self
            .labels
            .iter()
            .filter(|l| l.file.is_none())
            .map(|l| miette::LabeledSpan::new_with_span(Some(l.message.clone()), l.span));
        Some(Box::new(std::iter::once(primary).chain(secondary)))
    }
}
