//! Literals and the values Spark checks as it parses them: date-time strings and time zones,
//! intervals, inline tables, collation names.

pub(crate) mod collation;
pub(crate) mod datetime;
pub(crate) mod inline_table;
pub(crate) mod interval;
mod time_zones;
