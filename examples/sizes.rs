//! Prints the sizes of the AST types (they bound the parser's stack slot size).
use pipeline_sql::ast::*;
use std::mem::size_of;

macro_rules! sizes {
    ($($t:ty),* $(,)?) => {{
        let mut v: Vec<(usize, &str)> = vec![$((size_of::<$t>(), stringify!($t))),*];
        v.sort();
        for (size, name) in v.iter().rev() {
            println!("{size:4} {name}");
        }
    }};
}

fn main() {
    sizes!(
        Expr,
        ExprKind,
        Ident,
        Query,
        Select,
        SetExpr,
        TableRef,
        SelectItem,
        Statement,
        TableElement,
        TableConstraintKind,
        Expectation,
        Property,
        Cte,
        IntervalPart,
        WhenClause,
        ColumnProperty,
        ColumnPropertyKind,
        DataType,
        TableClauseKind,
        TableClause,
        CdcClause,
        CdcClauseKind,
        FlowBody,
        InlineFlow,
        TableBody,
        Alias,
        Option<Alias>,
        ReadOptions,
        Literal,
        OrderByExpr,
        Limit,
        ColumnSelection,
        CdcSource,
        SnapshotSource,
        ReplaceClause,
        ReplaceUsing,
        ReplaceWhere,
        StringLit,
        ObjectName,
        TableSpec,
        FunctionArg,
        PropertyKey,
        AsQuery,
        IdentityOption,
        With,
        Option<With>,
        SignedNumber,
        IsTest,
        JoinConstraint,
        Option<VersionQuery>,
    );
}
