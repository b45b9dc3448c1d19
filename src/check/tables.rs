//! Rules for table definitions: columns, identity and generated columns, expectations and
//! table clauses (`docs/codes/`, tables).

use super::expressions::{
    column_references, find_restricted, leading_select, output_names, Restricted,
};
use super::flows::duplicate_clause;
use super::{folded, for_each_repeat};
use crate::ast::*;
use crate::diagnostic::{Code, Diagnostic, Edit, Fix};
use crate::span::Span;
use std::collections::HashSet;
use std::mem::discriminant;

pub(super) fn check_streaming_table(
    table: &CreateStreamingTable<'_>,
    source: &str,
    out: &mut Vec<Diagnostic>,
) {
    if let Some(or) = table.or_clause.filter(|o| o.kind == OrClause::Replace) {
        let refresh = super::keywords_like(source, or.span, "OR REFRESH");
        out.push(
            Diagnostic::error(
                Code::StreamingTableCreateOrReplace,
                or.span,
                "a streaming table cannot be created with `OR REPLACE`",
            )
            .with_help("write `CREATE OR REFRESH STREAMING TABLE`")
            .with_fix(Fix::safe(
                "write `OR REFRESH`",
                vec![Edit::replace(or.span, refresh)],
            )),
        );
    }
    delta_provider(table.clauses, out);
}

pub(super) fn check_managed_table(table: &CreateTable<'_>, out: &mut Vec<Diagnostic>) {
    delta_provider(table.clauses, out);
    if let Some(flow) = &table.flow {
        managed_table_flow(flow, out);
    }
}

/// Managed tables are written by INSERT BY NAME flows only: no change data capture, and no
/// REPLACE flows.
fn managed_table_flow(flow: &InlineFlow<'_>, out: &mut Vec<Diagnostic>) {
    match &flow.body {
        FlowBody::AutoCdc(cdc) => out.push(
            Diagnostic::error(
                Code::ManagedTableDoesNotSupportCdc,
                cdc.keyword.span,
                "a managed table (CREATE TABLE ... FLOW) cannot be written by an AUTO CDC flow",
            )
            .with_help("declare the target with `CREATE OR REFRESH STREAMING TABLE` for change data capture"),
        ),
        FlowBody::Insert(insert) => {
            for clause in insert.replace {
                out.push(
                    Diagnostic::error(
                        Code::ManagedTableDoesNotSupportReplaceWhere,
                        crate::span::Spanned::span(clause),
                        "a managed table (CREATE TABLE ... FLOW) is only written by INSERT BY NAME flows",
                    )
                    .with_help("write `FLOW INSERT BY NAME <query>`, or use a streaming table for REPLACE flows"),
                );
            }
        }
    }
}

pub(super) fn check_view(view: &CreateView<'_>, out: &mut Vec<Diagnostic>) {
    if let (Some(temporary), true) = (view.temporary, view.name.parts.len() > 1) {
        out.push(
            Diagnostic::error(
                Code::InvalidTempObjQualifier,
                view.name.span,
                format!(
                    "a temporary view cannot have a qualified name: `{}`",
                    view.name
                ),
            )
            .with_label(temporary, "the view is temporary")
            .with_help(format!("name it `{}`", view.name.base())),
        );
    }
    if let Some(columns) = &view.columns {
        for_each_repeat(
            columns.iter(),
            |c| folded(&c.name),
            |first, repeat| {
                out.push(column_exists(&first.name, &repeat.name));
            },
        );
    }
    check_expectations(view.expectations, out);
    repeated_clauses(view.clauses, out);
}

/// The rules every table-like definition shares; `query` is the query that fills the table
/// (`AS query` or the inline INSERT flow's), when there is one.
pub(super) fn check_table(
    spec: Option<&TableSpec<'_>>,
    clauses: &[TableClause<'_>],
    query: Option<&Query<'_>>,
    out: &mut Vec<Diagnostic>,
) {
    repeated_clauses(clauses, out);
    partitioned_and_clustered(clauses, out);
    let Some(spec) = spec else { return };
    let columns: Vec<&ColumnDef<'_>> = spec.columns().collect();
    for_each_repeat(
        columns.iter(),
        |c| folded(&c.name),
        |first, repeat| {
            out.push(column_exists(&first.name, &repeat.name));
        },
    );
    for column in &columns {
        check_column(column, out);
    }
    check_expectations(&spec.expectations().collect::<Vec<_>>(), out);
    undeclared_columns(&columns, clauses, out);
    partitioned_by_identity(&columns, clauses, out);
    generated_expressions(&columns, out);
    if let Some(select) = query.and_then(leading_select) {
        query_columns(&columns, select, out);
    }
}

fn column_exists(first: &Ident<'_>, repeat: &Ident<'_>) -> Diagnostic {
    Diagnostic::error(
        Code::ColumnAlreadyExists,
        repeat.span,
        format!("the column `{}` is declared twice", repeat.value()),
    )
    .with_label(first.span, "first declared here")
    .with_help("give each column its own name")
}

/// Only Delta tables back streaming and managed tables.
fn delta_provider(clauses: &[TableClause<'_>], out: &mut Vec<Diagnostic>) {
    for clause in clauses {
        if let TableClauseKind::Using(provider) = &clause.kind {
            if !provider.matches("delta") {
                out.push(
                    Diagnostic::error(
                        Code::UnsupportedTableProvider,
                        provider.span,
                        format!("`{}` is not a supported table format: pipeline tables are Delta tables", provider.value()),
                    )
                    .with_help("write `USING DELTA`, or leave the clause out (DELTA is the default)"),
                );
            }
        }
    }
}

fn table_clause_name(kind: &TableClauseKind<'_>) -> &'static str {
    match kind {
        TableClauseKind::Using(_) => "USING",
        TableClauseKind::PartitionedBy(_) => "PARTITIONED BY",
        TableClauseKind::ClusterBy(_) => "CLUSTER BY",
        TableClauseKind::Location(_) => "LOCATION",
        TableClauseKind::Comment(_) => "COMMENT",
        TableClauseKind::TblProperties(_) => "TBLPROPERTIES",
        TableClauseKind::RowFilter { .. } => "WITH ROW FILTER",
        TableClauseKind::DefaultCollation(_) => "DEFAULT COLLATION",
    }
}

/// Each table clause may be given once.
fn repeated_clauses(clauses: &[TableClause<'_>], out: &mut Vec<Diagnostic>) {
    for_each_repeat(
        clauses.iter(),
        |c| discriminant(&c.kind),
        |first, repeat| {
            out.push(duplicate_clause(
                table_clause_name(&repeat.kind),
                first.span,
                repeat.span,
            ));
        },
    );
}

/// Partitioning and liquid clustering are two layouts; a table has one.
fn partitioned_and_clustered(clauses: &[TableClause<'_>], out: &mut Vec<Diagnostic>) {
    let partitioned = clauses
        .iter()
        .find(|c| matches!(c.kind, TableClauseKind::PartitionedBy(_)));
    let clustered = clauses
        .iter()
        .find(|c| matches!(c.kind, TableClauseKind::ClusterBy(_)));
    if let (Some(p), Some(c)) = (partitioned, clustered) {
        let (first, second) = if p.span.start < c.span.start {
            (p, c)
        } else {
            (c, p)
        };
        out.push(
            Diagnostic::error(
                Code::SpecifyClusterByWithPartitionedByIsNotAllowed,
                second.span,
                "`PARTITIONED BY` and `CLUSTER BY` cannot be used together",
            )
            .with_label(first.span, "the other layout clause")
            .with_help("keep one; CLUSTER BY (liquid clustering) is recommended for pipelines"),
        );
    }
}

fn property_name(kind: &ColumnPropertyKind<'_>) -> &'static str {
    match kind {
        ColumnPropertyKind::NotNull => "NOT NULL",
        ColumnPropertyKind::Generated(_) => "GENERATED ALWAYS AS",
        ColumnPropertyKind::Identity(_) => "GENERATED AS IDENTITY",
        ColumnPropertyKind::Default(_) => "DEFAULT",
        ColumnPropertyKind::Comment(_) => "COMMENT",
        ColumnPropertyKind::PrimaryKey(_) => "PRIMARY KEY",
        ColumnPropertyKind::References(_) => "REFERENCES",
        ColumnPropertyKind::Mask { .. } => "MASK",
        ColumnPropertyKind::ConstraintOption(option) => option.as_str(),
    }
}

/// One key per kind of column value source: a generated or identity value and a default
/// conflict with each other.
fn value_source(kind: &ColumnPropertyKind<'_>) -> Option<&'static str> {
    match kind {
        ColumnPropertyKind::Generated(_) | ColumnPropertyKind::Identity(_) => Some("generated"),
        _ => None,
    }
}

/// The classes of expression that DEFAULT values and expectations may not contain.
const ROW_EXPRESSION: &[Restricted] = &[
    Restricted::Aggregate,
    Restricted::Window,
    Restricted::Generator,
    Restricted::Subquery,
];

/// A generation expression additionally must be deterministic.
const GENERATION_EXPRESSION: &[Restricted] = &[
    Restricted::Aggregate,
    Restricted::Window,
    Restricted::Generator,
    Restricted::Subquery,
    Restricted::NonDeterministic,
];

/// A default is computed for one row, from literals and functions of that row alone.
fn default_expression(column: &ColumnDef<'_>, out: &mut Vec<Diagnostic>) {
    for property in column.properties {
        let ColumnPropertyKind::Default(expr) = &property.kind else {
            continue;
        };
        if let Some((span, class)) = find_restricted(expr, ROW_EXPRESSION) {
            out.push(
                Diagnostic::error(
                    Code::InvalidDefaultValueUnsupportedExpression,
                    span,
                    format!(
                        "the DEFAULT of `{}` contains {}",
                        column.name.value(),
                        class.describe()
                    ),
                )
                .with_help("use literals and built-in functions of a single row"),
            );
        }
    }
}

/// The expectations of a dataset (a table's or a view's): each has its own name, and each
/// tests one row.
fn check_expectations(expectations: &[&Expectation<'_>], out: &mut Vec<Diagnostic>) {
    repeated_expectations(expectations, out);
    expectation_expressions(expectations, out);
}

/// An expectation is checked row by row.
fn expectation_expressions(expectations: &[&Expectation<'_>], out: &mut Vec<Diagnostic>) {
    for expectation in expectations {
        if let Some((span, class)) = find_restricted(&expectation.expr, ROW_EXPRESSION) {
            out.push(
                Diagnostic::error(
                    Code::InvalidExpectationExpression,
                    span,
                    format!("the expectation `{}` contains {}", expectation.name.value(), class.describe()),
                )
                .with_label(expectation.name.span, "the expectation")
                .with_help("an expectation tests one row: use literals, the table's columns and built-in functions"),
            );
        }
    }
}

/// A generated column is computed from the other columns of its row, deterministically.
fn generated_expressions(columns: &[&ColumnDef<'_>], out: &mut Vec<Diagnostic>) {
    let declared: HashSet<String> = columns.iter().map(|c| folded(&c.name)).collect();
    for column in columns {
        for property in column.properties {
            let ColumnPropertyKind::Generated(expr) = &property.kind else {
                continue;
            };
            let unsupported = |span: Span, what: String| {
                Diagnostic::error(Code::UnsupportedExpressionGeneratedColumn, span, what)
                    .with_label(column.name.span, "the generated column")
                    .with_help("compute the value from literals, the table's columns and deterministic built-in functions")
            };
            if let Some((span, class)) = find_restricted(expr, GENERATION_EXPRESSION) {
                out.push(unsupported(
                    span,
                    format!(
                        "the generation expression of `{}` contains {}",
                        column.name.value(),
                        class.describe()
                    ),
                ));
            }
            for reference in column_references(expr) {
                if !declared.contains(&folded(&reference)) {
                    out.push(unsupported(
                        reference.span,
                        format!("the generation expression reads `{}`, which the table does not declare", reference.value()),
                    ));
                }
            }
        }
    }
}

/// The query's explicit select list, checked against the declared columns: it cannot write
/// an always-generated identity column, and it cannot return a column the table lacks.
fn query_columns(columns: &[&ColumnDef<'_>], select: &Select<'_>, out: &mut Vec<Diagnostic>) {
    if columns.is_empty() {
        return;
    }
    let always_identity = |c: &ColumnDef<'_>| {
        c.properties.iter().any(|p| {
            matches!(&p.kind, ColumnPropertyKind::Identity(i) if i.mode == IdentityMode::Always)
        })
    };
    let explicit = select
        .projection
        .iter()
        .all(|item| !matches!(item, SelectItem::Wildcard(_)));
    for name in select.projection.iter().flat_map(output_names) {
        let declared = columns.iter().find(|c| folded(&c.name) == folded(name));
        match declared {
            Some(column) if always_identity(column) => out.push(
                Diagnostic::error(
                    Code::DeltaIdentityColumnsExplicitInsertNotSupported,
                    name.span,
                    format!(
                        "the query writes `{}`, an identity column generated always",
                        name.value()
                    ),
                )
                .with_label(
                    column.name.span,
                    "declared GENERATED ALWAYS AS IDENTITY here",
                )
                .with_help("leave the column out of the query: its values are generated"),
            ),
            None if explicit => out.push(
                Diagnostic::error(
                    Code::QueryColumnNotInTableSchema,
                    name.span,
                    format!(
                        "the query returns `{}`, which the table's column list does not declare",
                        name.value()
                    ),
                )
                .with_help("declare the column in the table, or leave it out of the query"),
            ),
            _ => {}
        }
    }
}

fn check_column(column: &ColumnDef<'_>, out: &mut Vec<Diagnostic>) {
    default_expression(column, out);
    for_each_repeat(
        column.properties.iter(),
        |p| discriminant(&p.kind),
        |first, repeat| {
            out.push(
                Diagnostic::error(
                    Code::CreateTableColumnDescriptorDuplicate,
                    repeat.span,
                    format!(
                        "`{}` is given twice for the column `{}`",
                        property_name(&repeat.kind),
                        column.name.value()
                    ),
                )
                .with_label(first.span, "first given here")
                .with_help("keep one"),
            );
        },
    );
    comment_without_type(column, out);
    default_with_generated_value(column, out);
    if let Some((property, identity)) = column.properties.iter().find_map(|p| match &p.kind {
        ColumnPropertyKind::Identity(identity) => Some((p, identity)),
        _ => None,
    }) {
        identity_column(column, property.span, identity, out);
    }
}

/// A column's comment is only kept when the column declares its type.
fn comment_without_type(column: &ColumnDef<'_>, out: &mut Vec<Diagnostic>) {
    if column.data_type.is_some() {
        return;
    }
    for property in column.properties {
        if let ColumnPropertyKind::Comment(_) = property.kind {
            out.push(
                Diagnostic::warning(
                    Code::ColumnCommentWithoutType,
                    property.span,
                    format!(
                        "the comment on `{}` is ignored because the column has no type",
                        column.name.value()
                    ),
                )
                .with_help(format!(
                    "declare the type: `{} <type> COMMENT ...`",
                    column.name
                )),
            );
        }
    }
}

/// A column gets its value from an identity, a generation expression or a default: one.
fn default_with_generated_value(column: &ColumnDef<'_>, out: &mut Vec<Diagnostic>) {
    let Some(default) = column
        .properties
        .iter()
        .find(|p| matches!(p.kind, ColumnPropertyKind::Default(_)))
    else {
        return;
    };
    for property in column
        .properties
        .iter()
        .filter(|p| value_source(&p.kind).is_some())
    {
        let (code, what) = match property.kind {
            ColumnPropertyKind::Identity(_) => {
                (Code::IdentityColumnWithDefaultValue, "an identity column")
            }
            _ => (Code::GeneratedColumnWithDefaultValue, "a generated column"),
        };
        out.push(
            Diagnostic::error(
                code,
                default.span,
                format!(
                    "`{}` is {what} and cannot have a DEFAULT",
                    column.name.value()
                ),
            )
            .with_label(property.span, "its value is generated here")
            .with_help("remove the DEFAULT"),
        );
    }
}

fn identity_column(
    column: &ColumnDef<'_>,
    property: Span,
    identity: &IdentitySpec<'_>,
    out: &mut Vec<Diagnostic>,
) {
    if let Some(data_type) = &column.data_type {
        if !(data_type.is_named("bigint") || data_type.is_named("long")) {
            out.push(
                Diagnostic::error(
                    Code::IdentityColumnsUnsupportedDataType,
                    crate::span::Spanned::span(data_type),
                    format!(
                        "the identity column `{}` has the type `{data_type}`",
                        column.name.value()
                    ),
                )
                .with_label(property, "declared as an identity here")
                .with_help("identity columns must be BIGINT"),
            );
        }
    }
    for option in identity.options {
        if option.kind == IdentityOptionKind::IncrementBy && option.value.value() == Some(0) {
            out.push(
                Diagnostic::error(
                    Code::IdentityColumnsIllegalStep,
                    option.span,
                    "an identity column cannot step by 0",
                )
                .with_help("use a positive or negative step, such as `INCREMENT BY 1`"),
            );
        }
    }
    for_each_repeat(
        identity.options.iter(),
        |o| o.kind as u8,
        |first, repeat| {
            out.push(
                Diagnostic::error(
                    Code::IdentityColumnsDuplicatedSequenceGeneratorOption,
                    repeat.span,
                    "an identity option is given twice",
                )
                .with_label(first.span, "first given here")
                .with_help("give START WITH and INCREMENT BY at most once each"),
            );
        },
    );
}

/// Each expectation of a dataset has its own name: it is how violations are reported.
fn repeated_expectations(expectations: &[&Expectation<'_>], out: &mut Vec<Diagnostic>) {
    for_each_repeat(
        expectations.iter().copied(),
        |x| folded(&x.name),
        |first, repeat| {
            out.push(
                Diagnostic::error(
                    Code::DuplicateExpectationName,
                    repeat.name.span,
                    format!(
                        "the expectation `{}` is declared twice",
                        repeat.name.value()
                    ),
                )
                .with_label(first.name.span, "first declared here")
                .with_help("give each expectation its own name"),
            );
        },
    );
}

/// The columns named by table clauses and column masks, with where they are named.
fn clause_columns<'c, 'a>(
    clauses: &'c [TableClause<'a>],
) -> impl Iterator<Item = (&'static str, &'c Ident<'a>)> {
    clauses.iter().flat_map(|clause| {
        let (what, list): (&'static str, &'c [Ident<'a>]) = match &clause.kind {
            TableClauseKind::PartitionedBy(columns) => ("PARTITIONED BY", columns),
            TableClauseKind::ClusterBy(ClusterBy::Columns(columns)) => ("CLUSTER BY", columns),
            TableClauseKind::RowFilter { columns, .. } => ("ROW FILTER ON", columns),
            _ => ("", &[]),
        };
        list.iter().map(move |c| (what, c))
    })
}

/// When a table declares its columns, the clauses can only name those.
fn undeclared_columns(
    columns: &[&ColumnDef<'_>],
    clauses: &[TableClause<'_>],
    out: &mut Vec<Diagnostic>,
) {
    if columns.is_empty() {
        return;
    }
    let declared: HashSet<String> = columns.iter().map(|c| folded(&c.name)).collect();
    let masked = columns.iter().flat_map(|c| {
        c.properties.iter().flat_map(|p| match &p.kind {
            ColumnPropertyKind::Mask {
                using_columns: Some(args),
                ..
            } => args.iter().collect(),
            _ => Vec::new(),
        })
    });
    let mask_columns = masked.filter_map(|e| match &e.kind {
        ExprKind::Column(ident) => Some(("MASK USING COLUMNS", ident)),
        _ => None,
    });
    for (what, column) in clause_columns(clauses).chain(mask_columns) {
        if !declared.contains(&folded(column)) {
            out.push(
                Diagnostic::error(
                    Code::ColumnNotDefinedInTable,
                    column.span,
                    format!(
                        "{what} names `{}`, which the table does not declare",
                        column.value()
                    ),
                )
                .with_help("declare the column in the column list, or fix its name"),
            );
        }
    }
}

/// Identity values are assigned as rows are written, so they cannot partition the table.
fn partitioned_by_identity(
    columns: &[&ColumnDef<'_>],
    clauses: &[TableClause<'_>],
    out: &mut Vec<Diagnostic>,
) {
    let identities: Vec<&ColumnDef<'_>> = columns
        .iter()
        .copied()
        .filter(|c| {
            c.properties
                .iter()
                .any(|p| matches!(p.kind, ColumnPropertyKind::Identity(_)))
        })
        .collect();
    for (what, column) in clause_columns(clauses) {
        if what != "PARTITIONED BY" {
            continue;
        }
        if let Some(identity) = identities
            .iter()
            .find(|c| folded(&c.name) == folded(column))
        {
            out.push(
                Diagnostic::error(
                    Code::DeltaIdentityColumnsPartitionNotSupported,
                    column.span,
                    format!(
                        "the table is partitioned by the identity column `{}`",
                        column.value()
                    ),
                )
                .with_label(identity.name.span, "declared as an identity column here")
                .with_help("partition by another column, or use CLUSTER BY"),
            );
        }
    }
}
