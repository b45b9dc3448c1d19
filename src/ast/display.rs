//! `Display` for every node: canonical SQL that parses back to the same tree.
//!
//! Keywords are printed upper case, names and literals exactly as written, one space between
//! tokens. Parentheses come from [`ExprKind::Nested`] and the other explicit groupings, so
//! printing a parsed tree keeps the author's grouping; the grammar rebuilds the same tree.

use super::*;
use std::fmt::{self, Display, Formatter, Write};

/// Prints ` KEYWORD value` when there is a value: the optional clauses of every statement.
fn clause<T: Display>(f: &mut Formatter<'_>, keyword: &str, value: &Option<T>) -> fmt::Result {
    match value {
        Some(value) => write!(f, " {keyword} {value}"),
        None => Ok(()),
    }
}

/// Prints ` value` when there is a value: an optional part that carries its own keyword.
fn suffix<T: Display>(f: &mut Formatter<'_>, value: &Option<T>) -> fmt::Result {
    match value {
        Some(value) => write!(f, " {value}"),
        None => Ok(()),
    }
}

/// Prints items separated by `, `.
struct Comma<'x, T>(&'x [T]);

impl<T: Display> Display for Comma<'_, T> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        for (i, item) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            item.fmt(f)?;
        }
        Ok(())
    }
}

/// Prints items in parentheses, separated by `, `.
struct Parens<'x, T>(&'x [T]);

impl<T: Display> Display for Parens<'_, T> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "({})", Comma(self.0))
    }
}

/// Prints each item preceded by a space.
struct Spaced<'x, T>(&'x [T]);

impl<T: Display> Display for Spaced<'_, T> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|item| write!(f, " {item}"))
    }
}

impl Display for Ident<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(self.text)
    }
}

impl Display for ObjectName<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        for (i, part) in self.parts.iter().enumerate() {
            if i > 0 {
                f.write_char('.')?;
            }
            part.fmt(f)?;
        }
        Ok(())
    }
}

impl Display for StringLit<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(self.raw)
    }
}

impl Display for Script<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        for statement in self.statements {
            writeln!(f, "{statement};")?;
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------
// Statements

impl Display for Statement<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Statement::CreateFlow(s) => s.fmt(f),
            Statement::CreateStreamingTable(s) => s.fmt(f),
            Statement::CreateTable(s) => s.fmt(f),
            Statement::CreateMaterializedView(s) => s.fmt(f),
            Statement::CreateView(s) => s.fmt(f),
            Statement::ApplyChanges(s) => s.flow.fmt(f),
            Statement::Set(s) => s.fmt(f),
            Statement::Use(s) => s.fmt(f),
            Statement::Query(q) => q.fmt(f),
            Statement::Error(_) => f.write_str("/* statement with a syntax error */"),
        }
    }
}

impl Display for CreateFlow<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "CREATE FLOW {}", self.name)?;
        for comment in self.comments {
            write!(f, " COMMENT {comment}")?;
        }
        write!(f, " AS {}", self.body)
    }
}

/// `CREATE [OR ...] [PRIVATE | TEMPORARY] `, shared by the dataset statements.
fn create_head(
    f: &mut Formatter<'_>,
    or: Option<OrClause>,
    visibility: Option<Visibility>,
) -> fmt::Result {
    f.write_str("CREATE ")?;
    match or {
        Some(OrClause::Refresh) => f.write_str("OR REFRESH ")?,
        Some(OrClause::Replace) => f.write_str("OR REPLACE ")?,
        None => {}
    }
    match visibility {
        Some(Visibility::Private) => f.write_str("PRIVATE "),
        Some(Visibility::Temporary) => f.write_str("TEMPORARY "),
        None => Ok(()),
    }
}

/// ` [IF NOT EXISTS] name [(spec)] [clauses]`, shared by the table-like statements.
fn table_tail(
    f: &mut Formatter<'_>,
    if_not_exists: bool,
    name: &ObjectName<'_>,
    spec: &Option<TableSpec<'_>>,
    clauses: &[TableClause<'_>],
) -> fmt::Result {
    if if_not_exists {
        f.write_str(" IF NOT EXISTS")?;
    }
    write!(f, " {name}")?;
    if let Some(spec) = spec {
        write!(f, " {}", Parens(spec.elements))?;
    }
    write!(f, "{}", Spaced(clauses))
}

impl Display for CreateStreamingTable<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        create_head(
            f,
            self.or_clause.map(|k| k.kind),
            self.visibility.map(|k| k.kind),
        )?;
        f.write_str(match (self.incremental, self.live) {
            (Some(_), _) => "INCREMENTAL LIVE TABLE",
            (None, Some(_)) => "STREAMING LIVE TABLE",
            (None, None) => "STREAMING TABLE",
        })?;
        table_tail(f, self.if_not_exists, &self.name, &self.spec, self.clauses)?;
        suffix(f, &self.body)
    }
}

impl Display for TableBody<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            TableBody::Query(q) => q.fmt(f),
            TableBody::Flow(flow) => flow.fmt(f),
        }
    }
}

impl Display for AsQuery<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "AS {}", self.query)
    }
}

impl Display for InlineFlow<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "FLOW {}", self.body)
    }
}

impl Display for CreateTable<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str("CREATE TABLE")?;
        table_tail(f, false, &self.name, &self.spec, self.clauses)?;
        suffix(f, &self.flow)
    }
}

impl Display for CreateMaterializedView<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        create_head(
            f,
            self.or_clause.map(|k| k.kind),
            self.visibility.map(|k| k.kind),
        )?;
        f.write_str(if self.live.is_some() {
            "LIVE TABLE"
        } else {
            "MATERIALIZED VIEW"
        })?;
        table_tail(f, self.if_not_exists, &self.name, &self.spec, self.clauses)?;
        write!(f, " {}", self.query)
    }
}

impl Display for CreateView<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        create_head(
            f,
            self.or_replace.then_some(OrClause::Replace),
            self.temporary.map(|_| Visibility::Temporary),
        )?;
        f.write_str(match (self.streaming, self.live) {
            (Some(_), _) => "STREAMING LIVE VIEW",
            (None, Some(_)) => "LIVE VIEW",
            (None, None) => "VIEW",
        })?;
        if self.if_not_exists {
            f.write_str(" IF NOT EXISTS")?;
        }
        write!(f, " {}", self.name)?;
        let columns = self.columns.unwrap_or_default();
        match (columns, self.expectations) {
            ([], []) => {}
            (columns, []) => write!(f, " {}", Parens(columns))?,
            ([], expectations) => write!(f, " {}", Parens(expectations))?,
            (columns, expectations) => write!(f, " ({}, {})", Comma(columns), Comma(expectations))?,
        }
        write!(f, "{} {}", Spaced(self.clauses), self.query)
    }
}

impl Display for ViewColumn<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        self.name.fmt(f)?;
        clause(f, "COMMENT", &self.comment)
    }
}

impl Display for SetStatement<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match &self.kind {
            SetKind::Catalog(name) => write!(f, "SET CATALOG {name}"),
            SetKind::Property { key, value: "", .. } => write!(f, "SET {key}"),
            SetKind::Property { key, value, .. } => write!(f, "SET {key} = {value}"),
        }
    }
}

impl Display for UseStatement<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let kind = match self.kind {
            UseKind::Default => "",
            UseKind::Catalog => "CATALOG ",
            UseKind::Schema => "SCHEMA ",
            UseKind::Database => "DATABASE ",
            UseKind::Namespace => "NAMESPACE ",
        };
        write!(f, "USE {kind}{}", self.name)
    }
}

// ---------------------------------------------------------------------------------------------
// Flows

impl Display for FlowBody<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            FlowBody::Insert(flow) => flow.fmt(f),
            FlowBody::AutoCdc(flow) => flow.fmt(f),
        }
    }
}

impl Display for InsertFlow<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let once = |spelling| self.once.is_some_and(|o| o.spelling == spelling);
        match &self.target {
            Some(target) => {
                f.write_str("INSERT ")?;
                if once(OnceSpelling::Current) {
                    f.write_str("ONCE ")?;
                }
                f.write_str("INTO ")?;
                if once(OnceSpelling::AfterInto) {
                    f.write_str("ONCE ")?;
                }
                target.fmt(f)?;
                if once(OnceSpelling::AfterTarget) {
                    f.write_str(" ONCE")?;
                }
                if self.by_name.is_some() {
                    f.write_str(" BY NAME")?;
                }
                write!(f, "{} {}", Spaced(self.replace), self.query)
            }
            // Inline: INSERT [ONCE] [BY NAME] query, or REPLACE ... BY NAME query.
            None => {
                if self.insert.is_some() {
                    f.write_str("INSERT ")?;
                    if self.once.is_some() {
                        f.write_str("ONCE ")?;
                    }
                }
                for clause in self.replace {
                    write!(f, "{clause} ")?;
                }
                if self.by_name.is_some() {
                    f.write_str("BY NAME ")?;
                }
                self.query.fmt(f)
            }
        }
    }
}

impl Display for ReplaceClause<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            ReplaceClause::Using(r) => {
                write!(f, "REPLACE USING {}", Parens(r.columns))?;
                clause(f, "SEQUENCE BY", &r.sequence_by)
            }
            ReplaceClause::Where(r) => write!(f, "REPLACE WHERE {}", r.predicate),
        }
    }
}

impl Display for AutoCdcFlow<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(match self.keyword.kind {
            CdcKeyword::AutoCdc => "AUTO CDC",
            CdcKeyword::ApplyChanges => "APPLY CHANGES",
        })?;
        if self.once.is_some() {
            f.write_str(" ONCE")?;
        }
        clause(f, "INTO", &self.target)?;
        write!(f, " FROM {}{}", self.source, Spaced(self.clauses))
    }
}

impl Display for CdcSource<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            CdcSource::ChangeFeed(relation) => relation.fmt(f),
            CdcSource::Snapshot(snapshot) => {
                write!(f, "SNAPSHOT ({})", snapshot.snapshot_query)?;
                match &snapshot.version {
                    Some(version) => write!(f, " WITH VERSION ({})", version.query),
                    None => Ok(()),
                }
            }
        }
    }
}

impl Display for CdcClause<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match &self.kind {
            CdcClauseKind::Keys(keys) => write!(f, "KEYS {}", Parens(keys)),
            CdcClauseKind::Where(e) => write!(f, "WHERE {e}"),
            CdcClauseKind::IgnoreNullUpdates => f.write_str("IGNORE NULL UPDATES"),
            CdcClauseKind::ApplyAsDelete(e) => write!(f, "APPLY AS DELETE WHEN {e}"),
            CdcClauseKind::ApplyAsTruncate(e) => write!(f, "APPLY AS TRUNCATE WHEN {e}"),
            CdcClauseKind::SequenceBy(e) => write!(f, "SEQUENCE BY {e}"),
            CdcClauseKind::Columns(c) => write!(f, "COLUMNS {c}"),
            CdcClauseKind::StoredAs(scd) => write!(f, "STORED AS SCD TYPE {}", scd.number),
            CdcClauseKind::TrackHistory(c) => write!(f, "TRACK HISTORY ON {c}"),
        }
    }
}

impl Display for ColumnSelection<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            ColumnSelection::List {
                columns,
                parenthesized: true,
            } => Parens(columns).fmt(f),
            ColumnSelection::List {
                columns,
                parenthesized: false,
            } => Comma(columns).fmt(f),
            ColumnSelection::AllExcept(columns) => write!(f, "* EXCEPT {}", Parens(columns)),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Tables

impl Display for TableElement<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            TableElement::Column(c) => c.fmt(f),
            TableElement::Expectation(e) => e.fmt(f),
            TableElement::Constraint(c) => c.fmt(f),
        }
    }
}

impl Display for ColumnDef<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        self.name.fmt(f)?;
        if let Some(data_type) = &self.data_type {
            write!(f, " {data_type}")?;
        }
        Spaced(self.properties).fmt(f)
    }
}

impl Display for ColumnProperty<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ColumnPropertyKind::NotNull => f.write_str("NOT NULL"),
            ColumnPropertyKind::Generated(e) => write!(f, "GENERATED ALWAYS AS ({e})"),
            ColumnPropertyKind::Identity(identity) => {
                f.write_str(match identity.mode {
                    IdentityMode::Always => "GENERATED ALWAYS AS IDENTITY",
                    IdentityMode::ByDefault => "GENERATED BY DEFAULT AS IDENTITY",
                })?;
                if !identity.options.is_empty() {
                    write!(
                        f,
                        " ({})",
                        Spaced(identity.options).to_string().trim_start()
                    )?;
                }
                Ok(())
            }
            ColumnPropertyKind::Default(e) => write!(f, "DEFAULT {e}"),
            ColumnPropertyKind::Comment(c) => write!(f, "COMMENT {c}"),
            ColumnPropertyKind::PrimaryKey(constraint) => {
                constraint_name(f, constraint)?;
                f.write_str("PRIMARY KEY")
            }
            ColumnPropertyKind::References(reference) => {
                constraint_name(f, &reference.constraint)?;
                write!(f, "REFERENCES {}", reference.table)?;
                if !reference.columns.is_empty() {
                    write!(f, " {}", Parens(reference.columns))?;
                }
                Ok(())
            }
            ColumnPropertyKind::Mask {
                function,
                using_columns,
            } => {
                write!(f, "MASK {function}")?;
                match using_columns {
                    Some(args) => write!(f, " USING COLUMNS {}", Parens(args)),
                    None => Ok(()),
                }
            }
            ColumnPropertyKind::ConstraintOption(option) => f.write_str(option.as_str()),
        }
    }
}

fn constraint_name(f: &mut Formatter<'_>, name: &Option<Ident<'_>>) -> fmt::Result {
    match name {
        Some(name) => write!(f, "CONSTRAINT {name} "),
        None => Ok(()),
    }
}

impl Display for IdentityOption<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let words = match self.kind {
            IdentityOptionKind::StartWith => "START WITH",
            IdentityOptionKind::IncrementBy => "INCREMENT BY",
        };
        write!(f, "{words} {}", self.value)
    }
}

impl Display for SignedNumber<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if self.negative {
            f.write_char('-')?;
        }
        f.write_str(self.digits)
    }
}

impl Display for Expectation<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "CONSTRAINT {} EXPECT ({})", self.name, self.expr)?;
        match self.on_violation {
            Some(ViolationAction::FailUpdate) => f.write_str(" ON VIOLATION FAIL UPDATE"),
            Some(ViolationAction::DropRow) => f.write_str(" ON VIOLATION DROP ROW"),
            None => Ok(()),
        }
    }
}

impl Display for TableConstraint<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        constraint_name(f, &self.name)?;
        match &self.kind {
            TableConstraintKind::PrimaryKey(columns) => {
                f.write_str("PRIMARY KEY (")?;
                for (i, column) in columns.iter().enumerate() {
                    let separator = if i > 0 { ", " } else { "" };
                    write!(f, "{separator}{column}")?;
                    if self.timeseries.as_ref() == Some(column) {
                        f.write_str(" TIMESERIES")?;
                    }
                }
                f.write_str(")")?;
            }
            TableConstraintKind::ForeignKey(key) => {
                write!(
                    f,
                    "FOREIGN KEY {} REFERENCES {}",
                    Parens(key.columns),
                    key.table
                )?;
                if !key.referenced.is_empty() {
                    write!(f, " {}", Parens(key.referenced))?;
                }
            }
        }
        for option in self.options {
            write!(f, " {}", option.kind.as_str())?;
        }
        Ok(())
    }
}

impl Display for TableClause<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match &self.kind {
            TableClauseKind::Using(provider) => write!(f, "USING {provider}"),
            TableClauseKind::PartitionedBy(columns) => {
                write!(f, "PARTITIONED BY {}", Parens(columns))
            }
            TableClauseKind::ClusterBy(ClusterBy::Columns(columns)) => {
                write!(f, "CLUSTER BY {}", Parens(columns))
            }
            TableClauseKind::ClusterBy(ClusterBy::Auto) => f.write_str("CLUSTER BY AUTO"),
            TableClauseKind::ClusterBy(ClusterBy::None) => f.write_str("CLUSTER BY NONE"),
            TableClauseKind::Location(path) => write!(f, "LOCATION {path}"),
            TableClauseKind::Comment(text) => write!(f, "COMMENT {text}"),
            TableClauseKind::TblProperties(properties) => {
                write!(f, "TBLPROPERTIES {}", Parens(properties))
            }
            TableClauseKind::RowFilter { function, columns } => {
                write!(f, "WITH ROW FILTER {function} ON {}", Parens(columns))
            }
            TableClauseKind::DefaultCollation(name) => write!(f, "DEFAULT COLLATION {name}"),
        }
    }
}

impl Display for PropertyKey<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            PropertyKey::Name(name) => name.fmt(f),
            PropertyKey::String(s) => s.fmt(f),
        }
    }
}

impl Display for Property<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        self.key.fmt(f)?;
        match &self.value {
            Some(value) => write!(f, " = {value}"),
            None => Ok(()),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Types

impl Display for DataType<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            DataType::Named {
                name,
                params,
                time_zone,
                ..
            } => {
                name.fmt(f)?;
                if !params.is_empty() {
                    Parens(params).fmt(f)?;
                }
                f.write_str(match time_zone {
                    Some(TimeZoneClause::WithLocalTimeZone) => " WITH LOCAL TIME ZONE",
                    Some(TimeZoneClause::WithoutTimeZone) => " WITHOUT TIME ZONE",
                    None => "",
                })
            }
            DataType::Array { element, .. } => write!(f, "ARRAY<{element}>"),
            DataType::Map { key, value, .. } => write!(f, "MAP<{key}, {value}>"),
            DataType::Struct { fields, .. } => write!(f, "STRUCT<{}>", Comma(fields)),
            DataType::Interval { from, to, .. } => {
                write!(f, "INTERVAL {from}")?;
                clause(f, "TO", to)
            }
            DataType::Collated {
                base, collation, ..
            } => write!(f, "{base} COLLATE {collation}"),
        }
    }
}

impl Display for StructField<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write_field(f, self, ": ")
    }
}

/// `name<separator>type [NOT NULL] [COMMENT '...']`: a struct field, or (with a space) a typed
/// column.
fn write_field(f: &mut Formatter<'_>, field: &StructField<'_>, separator: &str) -> fmt::Result {
    write!(f, "{}{separator}{}", field.name, field.data_type)?;
    if field.not_null {
        f.write_str(" NOT NULL")?;
    }
    clause(f, "COMMENT", &field.comment)
}

// ---------------------------------------------------------------------------------------------
// Queries

impl Display for Query<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if let Some(with) = &self.with {
            write!(
                f,
                "WITH {}{} ",
                if with.recursive { "RECURSIVE " } else { "" },
                Comma(with.ctes)
            )?;
        }
        self.body.fmt(f)?;
        write_query_clauses(f, self)
    }
}

/// A query's ORDER BY, distributions, WINDOW, LIMIT and OFFSET.
fn write_query_clauses(f: &mut Formatter<'_>, query: &Query<'_>) -> fmt::Result {
    write_result_clauses(
        f,
        query.order_by,
        query.distribution,
        query.windows,
        query.limit,
        query.offset,
    )
}

/// ` ORDER BY ...`, ` CLUSTER BY ...` (and the other distributions), ` WINDOW ...`, ` LIMIT n`
/// and ` OFFSET n`, each when present: the end of a query and of a pipe step.
fn write_result_clauses(
    w: &mut impl Write,
    order_by: &[OrderByExpr<'_>],
    distribution: Option<&Distribution<'_>>,
    windows: &[NamedWindow<'_>],
    limit: Option<&Limit<'_>>,
    offset: Option<&Expr<'_>>,
) -> fmt::Result {
    if !order_by.is_empty() {
        write!(w, " ORDER BY {}", Comma(order_by))?;
    }
    if let Some(distribution) = distribution {
        write!(w, " {distribution}")?;
    }
    if !windows.is_empty() {
        write!(w, " WINDOW {}", Comma(windows))?;
    }
    match limit {
        Some(Limit::All(_)) => w.write_str(" LIMIT ALL")?,
        Some(Limit::Count(n)) => write!(w, " LIMIT {n}")?,
        None => {}
    }
    match offset {
        Some(offset) => write!(w, " OFFSET {offset}"),
        None => Ok(()),
    }
}

impl Display for Distribution<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let clauses = [
            ("CLUSTER BY", Comma(self.cluster_by).to_string()),
            ("DISTRIBUTE BY", Comma(self.distribute_by).to_string()),
            ("SORT BY", Comma(self.sort_by).to_string()),
        ];
        let mut first = true;
        for (keyword, list) in clauses.iter().filter(|(_, list)| !list.is_empty()) {
            if !first {
                f.write_char(' ')?;
            }
            first = false;
            write!(f, "{keyword} {list}")?;
        }
        Ok(())
    }
}

impl Display for Cte<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        self.name.fmt(f)?;
        if !self.columns.is_empty() {
            Parens(self.columns).fmt(f)?;
        }
        if let Some(limit) = self.max_recursion_level {
            write!(f, " MAX RECURSION LEVEL {}", limit.level)?;
        }
        write!(f, " AS ({})", self.query)
    }
}

impl Display for OrderByExpr<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        self.expr.fmt(f)?;
        match self.ascending {
            Some(true) => f.write_str(" ASC")?,
            Some(false) => f.write_str(" DESC")?,
            None => {}
        }
        match self.nulls_first {
            Some(true) => f.write_str(" NULLS FIRST"),
            Some(false) => f.write_str(" NULLS LAST"),
            None => Ok(()),
        }
    }
}

impl Display for SetExpr<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            SetExpr::Select(select) => select.fmt(f),
            SetExpr::Query(query) => write!(f, "({query})"),
            SetExpr::SetOperation(_) | SetExpr::Pipe(_) => {
                // Iteratively along the left spine, like joins.
                let mut spine = Vec::new();
                let mut leftmost = self;
                loop {
                    match leftmost {
                        SetExpr::SetOperation(op) => leftmost = &op.left,
                        SetExpr::Pipe(pipe) => leftmost = &pipe.input,
                        _ => break,
                    }
                    spine.push(leftmost);
                }
                leftmost.fmt(f)?;
                for step in std::iter::once(self)
                    .chain(spine.iter().copied())
                    .rev()
                    .skip(1)
                {
                    match step {
                        SetExpr::SetOperation(op) => {
                            f.write_char(' ')?;
                            write_set_operation(f, op.op, op.quantifier, &op.right)?;
                        }
                        SetExpr::Pipe(pipe) => write!(f, " |> {}", pipe.op)?,
                        _ => {}
                    }
                }
                Ok(())
            }
            SetExpr::Values(values) => {
                write!(f, "VALUES {}", Comma(values.rows))?;
                suffix(f, &values.alias)
            }
            SetExpr::Table(table) => write!(f, "TABLE {}", table.name),
            SetExpr::FromBodies(multi) => {
                for (i, body) in multi.bodies.iter().enumerate() {
                    match &body.body {
                        SetExpr::Select(select) if i > 0 => {
                            write!(f, " {}", AfterFrom(select))?;
                            write_query_clauses(f, body)?;
                        }
                        _ => body.fmt(f)?,
                    }
                }
                Ok(())
            }
        }
    }
}

impl Display for SetOperator {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SetOperator::Union => "UNION",
            SetOperator::Intersect => "INTERSECT",
            SetOperator::Except => "EXCEPT",
            SetOperator::Minus => "MINUS",
        })
    }
}

/// `UNION [ALL | DISTINCT] right`, in a query and as a pipe step.
fn write_set_operation(
    f: &mut Formatter<'_>,
    op: SetOperator,
    quantifier: Option<SetQuantifier>,
    right: &SetExpr<'_>,
) -> fmt::Result {
    write!(f, "{op}")?;
    suffix(f, &quantifier)?;
    write!(f, " {right}")
}

impl Display for PipeOp<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            PipeOp::Select {
                hints,
                quantifier,
                projection,
                windows,
            } => {
                write_select_head(f, hints, *quantifier, projection)?;
                if !windows.is_empty() {
                    write!(f, " WINDOW {}", Comma(windows))?;
                }
                Ok(())
            }
            PipeOp::Extend(items) => write!(f, "EXTEND {}", Comma(items)),
            PipeOp::Set(assignments) => {
                f.write_str("SET ")?;
                for (i, (column, value)) in assignments.iter().enumerate() {
                    let separator = if i > 0 { ", " } else { "" };
                    write!(f, "{separator}{column} = {value}")?;
                }
                Ok(())
            }
            PipeOp::Drop(columns) => write!(f, "DROP {}", Comma(columns)),
            PipeOp::As(name) => write!(f, "AS {name}"),
            PipeOp::Where(predicate) => write!(f, "WHERE {predicate}"),
            PipeOp::Aggregate {
                aggregates,
                group_by,
            } => {
                write!(f, "AGGREGATE {}", Comma(aggregates))?;
                if !group_by.is_empty() {
                    write!(f, " GROUP BY {}", Comma(group_by))?;
                }
                Ok(())
            }
            PipeOp::Join {
                kind,
                natural,
                right,
                constraint,
            } => write_join(f, *natural, *kind, right, constraint, false),
            PipeOp::SetOperation {
                op,
                quantifier,
                right,
            } => write_set_operation(f, *op, *quantifier, right),
            PipeOp::Sample(sample) => sample.fmt(f),
            PipeOp::Pivot(pivot) => pivot.fmt(f),
            PipeOp::Unpivot(unpivot) => unpivot.fmt(f),
            PipeOp::BinBy(bin) => bin.fmt(f),
            PipeOp::Organize {
                order_by,
                distribution,
                limit,
                offset,
            } => {
                let mut clauses = String::new();
                write_result_clauses(&mut clauses, order_by, *distribution, &[], *limit, *offset)?;
                f.write_str(clauses.trim_start())
            }
        }
    }
}

impl Display for SetQuantifier {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SetQuantifier::All => "ALL",
            SetQuantifier::Distinct => "DISTINCT",
        })
    }
}

/// `SELECT [quantifier] items`.
fn write_select_head(
    f: &mut Formatter<'_>,
    hints: &[Hint<'_>],
    quantifier: Option<SetQuantifier>,
    projection: &[SelectItem<'_>],
) -> fmt::Result {
    f.write_str("SELECT ")?;
    if !hints.is_empty() {
        write!(f, "/*+ {} */ ", Comma(hints))?;
    }
    if let Some(q) = quantifier {
        write!(f, "{q} ")?;
    }
    Comma(projection).fmt(f)
}

/// ` GROUP BY item, ...`; a modifier (`WITH ROLLUP`) follows the list without a comma.
fn write_group_by(f: &mut Formatter<'_>, items: &[GroupByItem<'_>]) -> fmt::Result {
    for (i, item) in items.iter().enumerate() {
        f.write_str(match (i, item) {
            (0, _) => " GROUP BY ",
            (_, GroupByItem::Modifier(_)) => " ",
            _ => ", ",
        })?;
        item.fmt(f)?;
    }
    Ok(())
}

impl Display for Select<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if self.from_first {
            write!(f, "FROM {}", Comma(self.from))?;
            if !self.projection.is_empty() {
                f.write_char(' ')?;
            }
            return AfterFrom(self).fmt(f);
        }
        write_select_head(f, self.hints, self.quantifier, self.projection)?;
        if !self.from.is_empty() {
            write!(f, " FROM {}", Comma(self.from))?;
        }
        write_select_clauses(f, self)
    }
}

/// A FROM-first SELECT without its FROM clause: a body after the first of [`FromBodies`].
struct AfterFrom<'s, 'a>(&'s Select<'a>);

impl Display for AfterFrom<'_, '_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let select = self.0;
        if !select.projection.is_empty() {
            write_select_head(f, select.hints, select.quantifier, select.projection)?;
        }
        write_select_clauses(f, select)
    }
}

/// What follows a SELECT's list and FROM clause: LATERAL VIEW, WHERE, ..., QUALIFY.
fn write_select_clauses(f: &mut Formatter<'_>, select: &Select<'_>) -> fmt::Result {
    Spaced(select.lateral_views).fmt(f)?;
    clause(f, "WHERE", &select.selection)?;
    write_group_by(f, select.group_by)?;
    clause(f, "HAVING", &select.having)?;
    if !select.windows.is_empty() {
        write!(f, " WINDOW {}", Comma(select.windows))?;
    }
    clause(f, "QUALIFY", &select.qualify)
}

impl Display for Hint<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        self.name.fmt(f)?;
        if !self.parameters.is_empty() {
            Parens(self.parameters).fmt(f)?;
        }
        Ok(())
    }
}

impl Display for GroupByItem<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            GroupByItem::Expr(e) => e.fmt(f),
            GroupByItem::All(_) => f.write_str("ALL"),
            GroupByItem::Rollup(sets) => write!(f, "ROLLUP {}", Parens(sets)),
            GroupByItem::Cube(sets) => write!(f, "CUBE {}", Parens(sets)),
            GroupByItem::GroupingSets(sets) => write!(f, "GROUPING SETS {}", Parens(sets)),
            GroupByItem::Modifier(GroupByModifier::WithRollup(_)) => f.write_str("WITH ROLLUP"),
            GroupByItem::Modifier(GroupByModifier::WithCube(_)) => f.write_str("WITH CUBE"),
            GroupByItem::Modifier(GroupByModifier::GroupingSets(sets)) => {
                write!(f, "GROUPING SETS {}", Parens(sets))
            }
        }
    }
}

impl Display for NamedWindow<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{} AS {}", self.name, self.spec)
    }
}

impl Display for LateralView<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "LATERAL VIEW {}{}",
            if self.outer { "OUTER " } else { "" },
            self.call,
        )?;
        suffix(f, &self.alias)?;
        if !self.columns.is_empty() {
            write!(f, " AS {}", Comma(self.columns))?;
        }
        Ok(())
    }
}

impl Display for SelectItem<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            SelectItem::Expr { expr, alias, .. } => {
                expr.fmt(f)?;
                clause(f, "AS", alias)
            }
            SelectItem::Wildcard(w) => w.fmt(f),
            SelectItem::MultiAlias { expr, aliases } => write!(f, "{expr} AS {}", Parens(aliases)),
            SelectItem::Transform(transform) => transform.fmt(f),
        }
    }
}

impl Display for ScriptTransform<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "TRANSFORM {}", Parens(self.inputs))?;
        suffix(f, &self.input_format)?;
        write!(f, " USING{}", Spaced(self.script))?;
        clause(f, "AS", &self.output)?;
        suffix(f, &self.output_format)
    }
}

impl Display for TransformOutput<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            TransformOutput::Names(names) => Parens(names).fmt(f),
            TransformOutput::Columns(columns) => {
                f.write_char('(')?;
                for (i, column) in columns.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write_field(f, column, " ")?;
                }
                f.write_char(')')
            }
        }
    }
}

impl Display for RowFormat<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str("ROW FORMAT DELIMITED")?;
        for (keywords, value) in RowFormat::CLAUSES.iter().zip(self.values()) {
            if let Some(value) = value {
                write!(f, " {keywords}{}", Spaced(value))?;
            }
        }
        Ok(())
    }
}

impl Display for LikeKind {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LikeKind::Like => "LIKE",
            LikeKind::ILike => "ILIKE",
            LikeKind::RLike => "RLIKE",
            LikeKind::Regexp => "REGEXP",
        })
    }
}

impl Display for Wildcard<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if let Some(qualifier) = &self.qualifier {
            write!(f, "{qualifier}.")?;
        }
        f.write_char('*')?;
        match &self.except {
            Some(columns) => write!(f, " EXCEPT {}", Parens(columns)),
            None => Ok(()),
        }
    }
}

impl Display for Alias<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "AS {}", self.name)?;
        if !self.columns.is_empty() {
            Parens(self.columns).fmt(f)?;
        }
        Ok(())
    }
}

/// One name bare, several in parentheses: PIVOT and UNPIVOT columns.
fn write_ident_or_list(f: &mut Formatter<'_>, names: &[Ident<'_>]) -> fmt::Result {
    match names {
        [one] => one.fmt(f),
        many => Parens(many).fmt(f),
    }
}

impl Display for Named<'_, Expr<'_>> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        self.value.fmt(f)?;
        clause(f, "AS", &self.alias)
    }
}

/// A column list of UNPIVOT's multi-value form: `(a, b) AS x`.
impl Display for Named<'_, &[ObjectName<'_>]> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        Parens(self.value).fmt(f)?;
        clause(f, "AS", &self.alias)
    }
}

impl Display for Pivot<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        with_source(f, &self.source, |f| self.write_clause(f))
    }
}

/// `source ` (when there is one), then the operator's clause.
fn with_source(
    f: &mut Formatter<'_>,
    source: &Option<TableRef<'_>>,
    clause: impl FnOnce(&mut Formatter<'_>) -> fmt::Result,
) -> fmt::Result {
    if let Some(source) = source {
        write!(f, "{source} ")?;
    }
    clause(f)
}

impl Pivot<'_> {
    /// `PIVOT (...) [alias]`, without the source.
    fn write_clause(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "PIVOT ({} FOR ", Comma(self.aggregates))?;
        write_ident_or_list(f, self.columns)?;
        write!(f, " IN {})", Parens(self.values))?;
        suffix(f, &self.alias)
    }
}

impl Display for Unpivot<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        with_source(f, &self.source, |f| self.write_clause(f))
    }
}

impl Unpivot<'_> {
    /// `UNPIVOT [...] (...) [alias]`, without the source.
    fn write_clause(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str("UNPIVOT ")?;
        match self.include_nulls {
            Some(true) => f.write_str("INCLUDE NULLS ")?,
            Some(false) => f.write_str("EXCLUDE NULLS ")?,
            None => {}
        }
        // Spark's two forms: `a FOR n IN (x, y)`, and `(a, ...) FOR n IN ((x, ...), ...)`,
        // whose lists are all in parentheses even when they hold one name.
        let single =
            matches!(self.value_columns, [_]) && self.columns.iter().all(|c| c.value.len() == 1);
        if single {
            write!(
                f,
                "({} FOR {} IN (",
                self.value_columns[0], self.name_column
            )?;
            for (i, column) in self.columns.iter().enumerate() {
                f.write_str(if i == 0 { "" } else { ", " })?;
                column.value[0].fmt(f)?;
                clause(f, "AS", &column.alias)?;
            }
            f.write_str("))")?;
        } else {
            let values = Parens(self.value_columns);
            write!(
                f,
                "({values} FOR {} IN {})",
                self.name_column,
                Parens(self.columns)
            )?;
        }
        suffix(f, &self.alias)
    }
}

impl Display for Changes<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str("CHANGES")?;
        clause(f, "FROM", &self.from)?;
        clause(f, "TO", &self.to)
    }
}

impl Display for ChangeBound<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let keyword = if self.by_version {
            "VERSION"
        } else {
            "TIMESTAMP"
        };
        write!(f, "{keyword} {}", self.value)?;
        f.write_str(match self.inclusive {
            Some(true) => " INCLUSIVE",
            Some(false) => " EXCLUSIVE",
            None => "",
        })
    }
}

impl Display for NearestBy<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(if self.exact {
            "EXACT NEAREST"
        } else {
            "APPROX NEAREST"
        })?;
        suffix(f, &self.count)?;
        let ranking = match self.ranking {
            NearestRanking::Distance => "DISTANCE",
            NearestRanking::Similarity => "SIMILARITY",
        };
        write!(f, " BY {ranking} {}", self.score)
    }
}

impl Display for JsonTable<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if self.lateral {
            f.write_str("LATERAL ")?;
        }
        write!(
            f,
            "JSON_TABLE({},{} COLUMNS {}",
            self.document,
            Spaced(self.path),
            Parens(self.columns)
        )?;
        f.write_str(match self.error_on_error {
            Some(true) => " ERROR ON ERROR)",
            Some(false) => " NULL ON ERROR)",
            None => ")",
        })?;
        suffix(f, &self.alias)
    }
}

impl Display for JsonTableColumn<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match &self.kind {
            JsonColumnKind::Ordinality => write!(f, "{} FOR ORDINALITY", self.name),
            JsonColumnKind::Value {
                data_type,
                exists,
                path,
            } => {
                write!(f, "{} {data_type}", self.name)?;
                if *exists {
                    f.write_str(" EXISTS")?;
                }
                match path {
                    Some(path) => write!(f, " PATH{}", Spaced(path)),
                    None => Ok(()),
                }
            }
        }
    }
}

impl Display for BinBy<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        with_source(f, &self.source, |f| self.write_clause(f))
    }
}

impl BinBy<'_> {
    /// `BIN BY (...) [alias]`, without the source.
    fn write_clause(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "BIN BY (RANGE {} TO {} BIN WIDTH {}",
            self.range_start, self.range_end, self.width
        )?;
        clause(f, "ALIGN TO", &self.align_to)?;
        write!(f, " DISTRIBUTE UNIFORM {}", Parens(self.distribute))?;
        for (clause, name) in Self::OUTPUT_CLAUSES.iter().zip(&self.output_names) {
            if let Some(name) = name {
                write!(f, " {clause} AS {name}")?;
            }
        }
        f.write_char(')')?;
        suffix(f, &self.alias)
    }
}

impl Display for TimeTravel<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match (self.at_suffix, self.by_version) {
            (true, true) => write!(f, "@v{}", self.value),
            (true, false) => write!(f, "@{}", self.value),
            (false, true) => write!(f, "VERSION AS OF {}", self.value),
            (false, false) => write!(f, "TIMESTAMP AS OF {}", self.value),
        }
    }
}

impl Display for Watermark<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "WATERMARK {}", self.event_time)?;
        clause(f, "AS", &self.alias)?;
        write!(f, " DELAY OF {}", self.delay)
    }
}

impl Display for TableSample<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(match self.kind {
            None => "TABLESAMPLE (",
            Some(SampleKind::System) => "TABLESAMPLE SYSTEM (",
            Some(SampleKind::Bernoulli) => "TABLESAMPLE BERNOULLI (",
        })?;
        match &self.method {
            SampleMethod::Percent(n) => write!(f, "{n} PERCENT)")?,
            SampleMethod::Rows(n) => write!(f, "{n} ROWS)")?,
            SampleMethod::Bucket {
                numerator,
                denominator,
            } => write!(f, "BUCKET {numerator} OUT OF {denominator})")?,
        }
        clause(
            f,
            "REPEATABLE",
            &self.seed.as_ref().map(|seed| format!("({seed})")),
        )
    }
}

/// `[NATURAL] kind JOIN right [ON ... | USING (...)]`. After a PIVOT or UNPIVOT without an
/// alias, Spark would read LEFT in `LEFT JOIN` as its alias, so OUTER follows there.
fn write_join(
    f: &mut Formatter<'_>,
    natural: bool,
    kind: JoinKind,
    right: &TableRef<'_>,
    constraint: &JoinConstraint<'_>,
    after_pivot: bool,
) -> fmt::Result {
    if natural {
        f.write_str("NATURAL ")?;
    }
    let words = match kind {
        JoinKind::Inner => "JOIN",
        JoinKind::Left if after_pivot => "LEFT OUTER JOIN",
        JoinKind::Right if after_pivot => "RIGHT OUTER JOIN",
        JoinKind::Full if after_pivot => "FULL OUTER JOIN",
        JoinKind::Left => "LEFT JOIN",
        JoinKind::Right => "RIGHT JOIN",
        JoinKind::Full => "FULL JOIN",
        JoinKind::Semi => "SEMI JOIN",
        JoinKind::Anti => "ANTI JOIN",
        JoinKind::Cross => "CROSS JOIN",
    };
    write!(f, "{words} {right}")?;
    match constraint {
        JoinConstraint::None => Ok(()),
        JoinConstraint::On(e) => write!(f, " ON {e}"),
        JoinConstraint::Using(columns) => write!(f, " USING {}", Parens(columns)),
        JoinConstraint::Nearest(nearest) => write!(f, " {nearest}"),
    }
}

impl Display for TableRef<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            TableRef::Table(t) => {
                match t.stream.map(|s| s.form) {
                    Some(StreamForm::Parenthesized) => write!(f, "STREAM({})", t.name)?,
                    Some(StreamForm::Bare) => write!(f, "STREAM {}", t.name)?,
                    // A table named `lateral` with an alias is written after the keyword, which
                    // Spark drops there: `lateral t` alone is the table t.
                    None if t.alias.is_some() && t.name.is_word("lateral") => {
                        write!(f, "LATERAL {}", t.name)?
                    }
                    None => t.name.fmt(f)?,
                }
                suffix(f, &t.time_travel)?;
                suffix(f, &t.changes)?;
                if let Some(options) = &t.options {
                    write!(f, " WITH {}", Parens(options.options))?;
                }
                suffix(f, &t.sample)?;
                clause(f, "IDENTIFIED BY", &t.identified_by)?;
                suffix(f, &t.watermark)?;
                suffix(f, &t.alias)
            }
            TableRef::Function(t) => {
                if t.lateral {
                    f.write_str("LATERAL ")?;
                }
                match t.stream.map(|s| s.form) {
                    Some(StreamForm::Parenthesized) => write!(f, "STREAM({})", t.call)?,
                    Some(StreamForm::Bare) => write!(f, "STREAM {}", t.call)?,
                    None => t.call.fmt(f)?,
                }
                if t.with_ordinality {
                    f.write_str(" WITH ORDINALITY")?;
                }
                clause(f, "IDENTIFIED BY", &t.identified_by)?;
                suffix(f, &t.watermark)?;
                suffix(f, &t.alias)
            }
            TableRef::Subquery(d) => {
                if d.lateral {
                    f.write_str("LATERAL ")?;
                }
                write!(f, "({})", d.query)?;
                suffix(f, &d.sample)?;
                suffix(f, &d.watermark)?;
                suffix(f, &d.alias)
            }
            TableRef::Nested(n) => {
                write!(f, "({})", n.relation)?;
                suffix(f, &n.sample)?;
                suffix(f, &n.watermark)?;
                suffix(f, &n.alias)
            }
            TableRef::Values(v) => {
                write!(f, "VALUES {}", Comma(v.rows))?;
                suffix(f, &v.alias)
            }
            TableRef::JsonTable(j) => j.fmt(f),
            TableRef::Join(_) | TableRef::Pivot(_) | TableRef::Unpivot(_) | TableRef::BinBy(_) => {
                // Iteratively along the left spine of joins and relation operators: a chain is
                // as deep as it is long.
                let mut spine = Vec::new();
                let mut leftmost = self;
                while let Some(source) = chained_source(leftmost) {
                    spine.push(leftmost);
                    leftmost = source;
                }
                if spine.is_empty() {
                    return write_link(f, self);
                }
                leftmost.fmt(f)?;
                for link in spine.iter().rev() {
                    f.write_char(' ')?;
                    write_link(f, link)?;
                }
                Ok(())
            }
        }
    }
}

/// The relation a join or a relation operator (PIVOT, UNPIVOT, BIN BY) applies to.
fn chained_source<'x, 'a>(relation: &'x TableRef<'a>) -> Option<&'x TableRef<'a>> {
    match relation {
        TableRef::Join(join) => Some(&join.left),
        TableRef::Pivot(pivot) => pivot.source.as_ref(),
        TableRef::Unpivot(unpivot) => unpivot.source.as_ref(),
        TableRef::BinBy(bin) => bin.source.as_ref(),
        _ => None,
    }
}

/// A link of a chain without the relation it applies to: `JOIN ...`, `PIVOT (...)`, ...
fn write_link(f: &mut Formatter<'_>, link: &TableRef<'_>) -> fmt::Result {
    match link {
        TableRef::Join(j) => {
            let after_pivot = match &j.left {
                TableRef::Pivot(pivot) => pivot.alias.is_none(),
                TableRef::Unpivot(unpivot) => unpivot.alias.is_none(),
                _ => false,
            };
            write_join(f, j.natural, j.kind, &j.right, &j.constraint, after_pivot)
        }
        TableRef::Pivot(pivot) => pivot.write_clause(f),
        TableRef::Unpivot(unpivot) => unpivot.write_clause(f),
        TableRef::BinBy(bin) => bin.write_clause(f),
        other => other.fmt(f),
    }
}

// ---------------------------------------------------------------------------------------------
// Expressions

impl Display for Expr<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ExprKind::Literal(lit) => lit.fmt(f),
            ExprKind::Column(ident) => ident.fmt(f),
            ExprKind::CompoundColumn(parts) => {
                for (i, part) in parts.iter().enumerate() {
                    if i > 0 {
                        f.write_char('.')?;
                    }
                    part.fmt(f)?;
                }
                Ok(())
            }
            ExprKind::Marker(text) => f.write_str(text),
            ExprKind::Unary(u) => match u.op {
                // `NOT 'x'` is a typed literal to Spark in some places (see `leading_string`).
                UnaryOp::Not if visit::leading_string(&u.expr).is_some() => {
                    write!(f, "!{}", u.expr)
                }
                UnaryOp::Not => write!(f, "NOT {}", u.expr),
                // A space keeps `- -x` from printing as a `--` comment.
                UnaryOp::Minus if starts_with_minus(&u.expr) => write!(f, "- {}", u.expr),
                UnaryOp::Minus => write!(f, "-{}", u.expr),
                UnaryOp::Plus => write!(f, "+{}", u.expr),
                UnaryOp::BitNot => write!(f, "~{}", u.expr),
            },
            ExprKind::Binary(_) => binary_chain(self, f),
            ExprKind::Nested(e) => write!(f, "({e})"),
            ExprKind::Tuple(items) => Parens(items).fmt(f),
            ExprKind::Row(items) => Parens(items).fmt(f),
            ExprKind::Wildcard(w) => w.fmt(f),
            ExprKind::Function(call) => call.fmt(f),
            ExprKind::Cast(c) => match c.kind {
                CastKind::Cast => write!(f, "CAST({} AS {})", c.expr, c.data_type),
                CastKind::TryCast => write!(f, "TRY_CAST({} AS {})", c.expr, c.data_type),
                CastKind::DoubleColon => write!(f, "{}::{}", c.expr, c.data_type),
            },
            ExprKind::Case(case) => {
                f.write_str("CASE")?;
                if let Some(operand) = &case.operand {
                    write!(f, " {operand}")?;
                }
                for when in case.whens {
                    write!(f, " WHEN {} THEN {}", when.condition, when.result)?;
                }
                clause(f, "ELSE", &case.else_result)?;
                f.write_str(" END")
            }
            ExprKind::InList(e) => write!(f, "{}{} IN {}", e.expr, not(e.negated), Parens(e.list)),
            ExprKind::InSubquery(e) => write!(f, "{}{} IN ({})", e.expr, not(e.negated), e.query),
            ExprKind::Exists(q) => write!(f, "EXISTS ({q})"),
            ExprKind::Subquery(q) => write!(f, "({q})"),
            ExprKind::Between(b) => write!(
                f,
                "{}{} BETWEEN {} AND {}",
                b.expr,
                not(b.negated),
                b.low,
                b.high
            ),
            ExprKind::Like(l) => {
                write!(f, "{}{} {} {}", l.expr, not(l.negated), l.kind, l.pattern)?;
                clause(f, "ESCAPE", &l.escape)
            }
            ExprKind::LikeQuantified(l) => {
                let quantifier = match l.quantifier {
                    PatternQuantifier::Any => "ANY",
                    PatternQuantifier::Some => "SOME",
                    PatternQuantifier::All => "ALL",
                };
                let (expr, negated, kind) = (&l.expr, not(l.negated), l.kind);
                write!(
                    f,
                    "{expr}{negated} {kind} {quantifier} {}",
                    Parens(l.patterns)
                )?;
                clause(f, "ESCAPE", &l.escape)
            }
            ExprKind::Collate(c) => write!(f, "{} COLLATE {}", c.expr, c.collation),
            ExprKind::Is(is) => {
                write!(f, "{} IS{} ", is.expr, not(is.negated))?;
                match &is.test {
                    IsTest::Null => f.write_str("NULL"),
                    IsTest::True => f.write_str("TRUE"),
                    IsTest::False => f.write_str("FALSE"),
                    IsTest::Unknown => f.write_str("UNKNOWN"),
                    IsTest::DistinctFrom(other) => write!(f, "DISTINCT FROM {other}"),
                }
            }
            ExprKind::Field(access) => write!(f, "{}.{}", access.expr, access.field),
            ExprKind::Subscript(s) => write!(f, "{}[{}]", s.expr, s.index),
            ExprKind::EveryElement(e) => write!(f, "{e}[*]"),
            ExprKind::JsonPath(path) => write!(f, "{}:{}", path.expr, path.key),
            ExprKind::Lambda(lambda) => match lambda.params {
                [single] => write!(f, "{single} -> {}", lambda.body),
                params => write!(f, "{} -> {}", Parens(params), lambda.body),
            },
            ExprKind::Interval(interval) => {
                f.write_str("INTERVAL")?;
                for part in interval.parts {
                    write!(f, " {}", part.value)?;
                    if let Some(unit) = &part.unit {
                        write!(f, " {unit}")?;
                    }
                }
                clause(f, "TO", &interval.to)
            }
        }
    }
}

/// Prints a binary expression without recursing down its left operands: a long chain such as
/// `a + b + ... + z` is a left-deep tree as deep as it is long.
fn binary_chain(expr: &Expr<'_>, f: &mut Formatter<'_>) -> fmt::Result {
    let mut spine = Vec::new();
    let mut leftmost = expr;
    while let ExprKind::Binary(b) = &leftmost.kind {
        spine.push(b);
        leftmost = &b.left;
    }
    leftmost.fmt(f)?;
    for b in spine.iter().rev() {
        write!(f, " {} {}", b.op.as_str(), b.right)?;
    }
    Ok(())
}

fn starts_with_minus(expr: &Expr<'_>) -> bool {
    matches!(&expr.kind, ExprKind::Unary(u) if u.op == UnaryOp::Minus)
}

fn not(negated: bool) -> &'static str {
    if negated {
        " NOT"
    } else {
        ""
    }
}

impl Display for Literal<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Literal::Number(n) => f.write_str(n),
            Literal::String(parts) => {
                for (i, part) in parts.iter().enumerate() {
                    if i > 0 {
                        f.write_char(' ')?;
                    }
                    part.fmt(f)?;
                }
                Ok(())
            }
            Literal::Boolean(true) => f.write_str("TRUE"),
            Literal::Boolean(false) => f.write_str("FALSE"),
            Literal::Null => f.write_str("NULL"),
            Literal::Typed(kind, value) => {
                let word = kind.keyword();
                write!(f, "{word} {value}")
            }
        }
    }
}

impl Display for FunctionCall<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self.identifier {
            Some(name) => write!(f, "IDENTIFIER({name})(")?,
            None => write!(f, "{}(", self.name)?,
        }
        if let Some(q) = self.quantifier {
            write!(f, "{q} ")?;
        }
        for (i, arg) in self.args.iter().enumerate() {
            let after_trim_side = i > 0 && matches!(self.args[i - 1], FunctionArg::TrimSide(_));
            if i > 0 && !after_trim_side && !matches!(arg, FunctionArg::Keyword { .. }) {
                f.write_str(", ")?;
            } else if i > 0 {
                f.write_char(' ')?;
            }
            arg.fmt(f)?;
        }
        f.write_char(')')?;
        if !self.within_group.is_empty() {
            write!(f, " WITHIN GROUP (ORDER BY {})", Comma(self.within_group))?;
        }
        if let Some(filter) = &self.filter {
            write!(f, " FILTER (WHERE {filter})")?;
        }
        match self.null_treatment {
            Some(NullTreatment::Ignore) => f.write_str(" IGNORE NULLS")?,
            Some(NullTreatment::Respect) => f.write_str(" RESPECT NULLS")?,
            None => {}
        }
        match self.over {
            // In brackets: Spark reads `OVER w - b` as the window `w-b`.
            Some(WindowSpec::Named(name)) => write!(f, " OVER ({name})"),
            over => clause(f, "OVER", &over),
        }
    }
}

impl Display for WindowSpec<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let window = match self {
            WindowSpec::Named(name) => return name.fmt(f),
            WindowSpec::Inline(window) => window,
        };
        let mut clauses = Vec::new();
        if !window.partition_by.is_empty() {
            let keyword = if window.cluster_by {
                "CLUSTER"
            } else {
                "PARTITION"
            };
            clauses.push(format!("{keyword} BY {}", Comma(window.partition_by)));
        }
        if !window.order_by.is_empty() {
            clauses.push(format!("ORDER BY {}", Comma(window.order_by)));
        }
        if let Some(frame) = &window.frame {
            let units = match frame.units {
                FrameUnits::Rows => "ROWS",
                FrameUnits::Range => "RANGE",
            };
            clauses.push(match &frame.end {
                Some(end) => format!("{units} BETWEEN {} AND {end}", frame.start),
                None => format!("{units} {}", frame.start),
            });
        }
        write!(f, "({})", clauses.join(" "))
    }
}

impl Display for FrameBound<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            FrameBound::UnboundedPreceding => f.write_str("UNBOUNDED PRECEDING"),
            FrameBound::UnboundedFollowing => f.write_str("UNBOUNDED FOLLOWING"),
            FrameBound::CurrentRow => f.write_str("CURRENT ROW"),
            FrameBound::Preceding(n) => write!(f, "{n} PRECEDING"),
            FrameBound::Following(n) => write!(f, "{n} FOLLOWING"),
        }
    }
}

impl Display for TableArgument<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if let Some(name) = &self.name {
            write!(f, "{name} => ")?;
        }
        match &self.relation {
            TableArg::Name(name) => write!(f, "TABLE({name})")?,
            TableArg::Query(query) => write!(f, "TABLE({query})")?,
        }
        let Some(partitioning) = &self.partitioning else {
            return Ok(());
        };
        match &partitioning.partition {
            TablePartition::Single => f.write_str(" WITH SINGLE PARTITION")?,
            TablePartition::By(keys) => write!(f, " PARTITION BY {}", KeyList(keys))?,
        }
        if !partitioning.order_by.is_empty() {
            write!(f, " ORDER BY {}", KeyList(partitioning.order_by))?;
        }
        Ok(())
    }
}

/// The keys of a table argument's partitioning: one bare, several in parentheses (Spark
/// rejects `PARTITION BY a, b` there).
struct KeyList<'k, T>(&'k [T]);

impl<T: Display> Display for KeyList<'_, T> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self.0 {
            [one] => one.fmt(f),
            keys => write!(f, "({})", Comma(keys)),
        }
    }
}

impl Display for FunctionArg<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            FunctionArg::Positional(e) => e.fmt(f),
            FunctionArg::Named(named) => write!(f, "{} => {}", named.name, named.value),
            FunctionArg::Star(_) => f.write_char('*'),
            FunctionArg::Aliased(named) => write!(f, "{} AS {}", named.value, named.name),
            FunctionArg::QualifiedStar(name) => write!(f, "{name}.*"),
            FunctionArg::Table(table) => table.fmt(f),
            FunctionArg::Keyword { keyword, value } => {
                let word = match keyword {
                    ArgKeyword::From => "FROM",
                    ArgKeyword::For => "FOR",
                    ArgKeyword::Placing => "PLACING",
                    ArgKeyword::In => "IN",
                };
                write!(f, "{word} {value}")
            }
            FunctionArg::TrimSide(side) => f.write_str(match side {
                TrimSide::Both => "BOTH",
                TrimSide::Leading => "LEADING",
                TrimSide::Trailing => "TRAILING",
            }),
        }
    }
}
