use pipeline_sql::ast::*;
use std::mem::size_of;
fn main() {
    println!("Expr {} ExprKind {} Ident {} Query {} Select {} SetExpr {} TableRef {} SelectItem {} Statement {}", size_of::<Expr>(), size_of::<ExprKind>(), size_of::<Ident>(), size_of::<Query>(), size_of::<Select>(), size_of::<SetExpr>(), size_of::<TableRef>(), size_of::<SelectItem>(), size_of::<Statement>());
    println!("CreateStreamingTable {} CreateFlow {} FlowBody {} InsertFlow {} AutoCdcFlow {} CreateMaterializedView {} CreateView {} CreateTable {} ColumnDef {} DataType {} Literal {} FunctionCall {} ObjectName {} Alias {}", size_of::<CreateStreamingTable>(), size_of::<CreateFlow>(), size_of::<FlowBody>(), size_of::<InsertFlow>(), size_of::<AutoCdcFlow>(), size_of::<CreateMaterializedView>(), size_of::<CreateView>(), size_of::<CreateTable>(), size_of::<ColumnDef>(), size_of::<DataType>(), size_of::<Literal>(), size_of::<FunctionCall>(), size_of::<ObjectName>(), size_of::<Alias>());
}
