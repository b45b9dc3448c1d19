//! pipeline-sql
pub mod lexer;
pub mod span;
