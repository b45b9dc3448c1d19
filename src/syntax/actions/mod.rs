//! What the grammar's rules call to build the tree, and the checks with which Spark refuses
//! input while it parses, by topic.

pub(crate) mod literals;
pub(crate) mod relations;
pub(crate) mod spark_rules;
pub(crate) mod support;
pub(crate) mod transform;
