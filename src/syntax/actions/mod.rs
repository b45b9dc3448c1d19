//! What the grammar's rules call to build the tree, and the checks with which Spark refuses
//! input while it parses, by topic. `base` imports no sibling; the others import only modules
//! listed before them here.

pub(crate) mod base;
pub(crate) mod expressions;
pub(crate) mod literals;
pub(crate) mod names;
pub(crate) mod query;
pub(crate) mod relations;
pub(crate) mod select;
pub(crate) mod statements;
pub(crate) mod transform;
pub(crate) mod types;
