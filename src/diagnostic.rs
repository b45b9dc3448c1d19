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
                match self {
                    $($(Code::$variant => concat!($($doc),*).trim_ascii_start(),)*)*
                }
            }
        }
    };
}

codes! {
    /// Input that is no valid pipeline SQL, and legacy spellings.
    Syntax "Syntax" {
        /// The input does not match the grammar.
        ParseSyntaxError => "PARSE_SYNTAX_ERROR",
        /// A `/*` comment without its `*/`.
        UnclosedBracketedComment => "UNCLOSED_BRACKETED_COMMENT",
        /// A legacy spelling that is still accepted (warning).
        DeprecatedSyntax => "DEPRECATED_SYNTAX",
    }

    /// Flows: INSERT and AUTO CDC clauses, what a flow reads, flow names.
    Flows "Flows" {
        /// An INSERT flow without `BY NAME`.
        InsertFlowRequiresByName => "INSERT_FLOW_REQUIRES_BY_NAME",
        /// `ONCE` together with `REPLACE USING`.
        ReplaceUsingWithOnce => "REPLACE_USING_WITH_ONCE",
        /// `ONCE` together with `REPLACE WHERE`.
        ReplaceWhereWithOnce => "REPLACE_WHERE_WITH_ONCE",
        /// Both REPLACE forms in one flow.
        ReplaceWhereWithReplaceUsing => "REPLACE_WHERE_WITH_REPLACE_USING",
        /// A required clause is missing (SEQUENCE BY, KEYS).
        MissingClausesForOperation => "MISSING_CLAUSES_FOR_OPERATION",
        /// A clause given twice.
        DuplicateClauses => "DUPLICATE_CLAUSES",
        /// A column repeated in KEYS or REPLACE USING.
        DuplicateKeyColumns => "DUPLICATE_KEY_COLUMNS",
        /// `STORED AS SCD TYPE n` with n not 1 or 2.
        InvalidScdType => "INVALID_SCD_TYPE",
        /// TRACK HISTORY ON without SCD TYPE 2.
        AutoCdcTrackHistoryRequiresScd2 => "AUTOCDC_TRACK_HISTORY_REQUIRES_SCD2",
        /// APPLY AS TRUNCATE WHEN with SCD TYPE 2.
        AutoCdcTruncateRequiresScd1 => "AUTOCDC_TRUNCATE_REQUIRES_SCD1",
        /// COLUMNS drops a key column.
        AutoCdcKeyNotInSelectedSchema => "AUTOCDC_KEY_NOT_IN_SELECTED_SCHEMA",
        /// A key column in TRACK HISTORY ON.
        AutoCdcTrackHistoryOnKeyColumn => "AUTOCDC_TRACK_HISTORY_ON_KEY_COLUMN",
        /// A change-feed clause on a snapshot flow.
        AutoCdcFromSnapshotUnsupportedClause => "AUTO_CDC_FROM_SNAPSHOT_UNSUPPORTED_CLAUSE",
        /// `CREATE FLOW a.b`.
        MultipartFlowNameNotSupported => "MULTIPART_FLOW_NAME_NOT_SUPPORTED",
        /// A read option that Delta streaming sources do not document (warning).
        UnknownReadOption => "UNKNOWN_READ_OPTION",
        /// A snapshot-version function called where it has no value.
        UnresolvableTableValuedFunction => "UNRESOLVABLE_TABLE_VALUED_FUNCTION",
        /// A version query that cannot return one value per update.
        InvalidAutoCdcFromSnapshotVersionQuery => "INVALID_AUTO_CDC_FROM_SNAPSHOT_VERSION_QUERY",
        /// A repeating snapshot flow without WITH VERSION.
        AutoCdcFromSnapshotNonEmptyTargetWithoutVersion => "AUTO_CDC_FROM_SNAPSHOT_NON_EMPTY_TARGET_WITHOUT_VERSION",
        /// A flow into a streaming table that reads no streaming source.
        BatchRelationForStreamingTable => "INVALID_FLOW_QUERY_TYPE.BATCH_RELATION_FOR_STREAMING_TABLE",
        /// A ONCE flow that reads a streaming source.
        StreamingRelationForOnceFlow => "INVALID_FLOW_QUERY_TYPE.STREAMING_RELATION_FOR_ONCE_FLOW",
        /// A materialized view that reads a streaming source.
        StreamingRelationForMaterializedView => "INVALID_FLOW_QUERY_TYPE.STREAMING_RELATION_FOR_MATERIALIZED_VIEW",
    }

    /// The definitions of tables: columns, identity and generated columns, defaults, expectations, table clauses.
    Tables "Tables, columns and expectations" {
        /// `CREATE OR REPLACE STREAMING TABLE`.
        StreamingTableCreateOrReplace => "STREAMING_TABLE_OPERATION_NOT_ALLOWED.CREATE_OR_REPLACE",
        /// Two columns with one name.
        ColumnAlreadyExists => "COLUMN_ALREADY_EXISTS",
        /// A column property given twice.
        CreateTableColumnDescriptorDuplicate => "CREATE_TABLE_COLUMN_DESCRIPTOR_DUPLICATE",
        /// A column comment without a column type (warning).
        ColumnCommentWithoutType => "COLUMN_COMMENT_WITHOUT_TYPE",
        /// A generation expression Delta cannot compute per row.
        UnsupportedExpressionGeneratedColumn => "UNSUPPORTED_EXPRESSION_GENERATED_COLUMN",
        /// An identity column that is not BIGINT.
        IdentityColumnsUnsupportedDataType => "IDENTITY_COLUMNS_UNSUPPORTED_DATA_TYPE",
        /// `INCREMENT BY 0`.
        IdentityColumnsIllegalStep => "IDENTITY_COLUMNS_ILLEGAL_STEP",
        /// START WITH or INCREMENT BY given twice.
        IdentityColumnsDuplicatedSequenceGeneratorOption => "IDENTITY_COLUMNS_DUPLICATED_SEQUENCE_GENERATOR_OPTION",
        /// An identity column with a DEFAULT.
        IdentityColumnWithDefaultValue => "IDENTITY_COLUMN_WITH_DEFAULT_VALUE",
        /// A generated column with a DEFAULT.
        GeneratedColumnWithDefaultValue => "GENERATED_COLUMN_WITH_DEFAULT_VALUE",
        /// PARTITIONED BY an identity column.
        DeltaIdentityColumnsPartitionNotSupported => "DELTA_IDENTITY_COLUMNS_PARTITION_NOT_SUPPORTED",
        /// The table's query writes an always-generated identity column.
        DeltaIdentityColumnsExplicitInsertNotSupported => "DELTA_IDENTITY_COLUMNS_EXPLICIT_INSERT_NOT_SUPPORTED",
        /// A DEFAULT with an aggregate, window, generator or subquery.
        InvalidDefaultValueUnsupportedExpression => "INVALID_DEFAULT_VALUE.UNSUPPORTED_EXPRESSION",
        /// An expectation with an aggregate, window, generator or subquery.
        InvalidExpectationExpression => "INVALID_EXPECTATION_EXPRESSION",
        /// Two expectations with one name.
        DuplicateExpectationName => "DUPLICATE_EXPECTATION_NAME",
        /// PARTITIONED BY and CLUSTER BY together.
        SpecifyClusterByWithPartitionedByIsNotAllowed => "SPECIFY_CLUSTER_BY_WITH_PARTITIONED_BY_IS_NOT_ALLOWED",
        /// A clause names a column the table does not declare.
        ColumnNotDefinedInTable => "COLUMN_NOT_DEFINED_IN_TABLE",
        /// The query returns a column the table's declaration lacks.
        QueryColumnNotInTableSchema => "QUERY_COLUMN_NOT_IN_TABLE_SCHEMA",
        /// `USING` a provider other than DELTA.
        UnsupportedTableProvider => "UNSUPPORTED_TABLE_PROVIDER",
        /// A qualified name for a temporary view.
        InvalidTempObjQualifier => "INVALID_TEMP_OBJ_QUALIFIER",
    }

    /// Managed tables (`CREATE TABLE ... FLOW`), which take fewer kinds of flow than streaming tables.
    ManagedTables "Managed tables" {
        /// An AUTO CDC flow into a managed table.
        ManagedTableDoesNotSupportCdc => "MANAGED_TABLE_DOES_NOT_SUPPORT_CDC",
        /// A REPLACE WHERE or REPLACE USING flow into a managed table.
        ManagedTableDoesNotSupportReplaceWhere => "MANAGED_TABLE_DOES_NOT_SUPPORT_REPLACE_WHERE",
        /// One name declared as a streaming table and as a managed table.
        CannotSwitchStreamingTableToManagedTable => "CANNOT_SWITCH_STREAMING_TABLE_TO_MANAGED_TABLE",
    }

    /// Rules over all of a pipeline's files: names, flow targets, dependencies.
    Pipeline "The pipeline as a whole" {
        /// Two datasets with one name.
        PipelineDuplicateIdentifiersOutput => "PIPELINE_DUPLICATE_IDENTIFIERS.OUTPUT",
        /// Two flows with one name.
        PipelineDuplicateIdentifiersFlow => "PIPELINE_DUPLICATE_IDENTIFIERS.FLOW",
        /// A flow into a table the pipeline does not declare.
        InvalidFlowTargetNotFound => "INVALID_FLOW_TARGET.NOT_FOUND",
        /// A CREATE FLOW into a materialized view.
        InvalidFlowTargetMaterializedView => "INVALID_FLOW_TARGET.MATERIALIZED_VIEW",
        /// A CREATE FLOW into a view.
        InvalidFlowTargetView => "INVALID_FLOW_TARGET.VIEW",
        /// A streaming or managed table that no flow writes.
        PipelineDatasetWithoutFlow => "PIPELINE_DATASET_WITHOUT_FLOW",
        /// A pipeline without datasets.
        RunEmptyPipeline => "RUN_EMPTY_PIPELINE",
        /// Datasets that read each other in a cycle.
        PipelineCircularDependency => "PIPELINE_CIRCULAR_DEPENDENCY",
        /// Two repeating snapshot flows into one target.
        ApplyChangesFromSnapshotMultipleQueriesForTable => "APPLY_CHANGES_FROM_SNAPSHOT_ERROR.MULTIPLE_QUERIES_FOR_TABLE",
        /// A snapshot flow and a CDC flow into one target with different KEYS.
        ApplyChangesFromSnapshotInteropKeysMismatch => "APPLY_CHANGES_FROM_SNAPSHOT_ERROR.INTEROP_KEYS_MISMATCH",
        /// Flows into one target disagree on the type of the snapshot version.
        AutoCdcFromSnapshotVersionSchemaChanged => "AUTO_CDC_FROM_SNAPSHOT_VERSION_SCHEMA_CHANGED",
    }

    /// The snapshot-version protocol of AUTO CDC FROM SNAPSHOT, which only a running engine (or `snapshot_version::VersionTracker`) sees.
    SnapshotVersions "Snapshot versions" {
        /// A snapshot version not greater than the last committed one.
        ApplyChangesFromSnapshotOutOfOrderSnapshotVersion => "APPLY_CHANGES_FROM_SNAPSHOT_ERROR.OUT_OF_ORDER_SNAPSHOT_VERSION",
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
        }
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
