//! The snapshot-version protocol of AUTO CDC FROM SNAPSHOT (`docs/codes/`, snapshot versions), as a small checked
//! state machine that an engine or a test harness drives with the values it sees.
//!
//! With `WITH VERSION`, one pipeline update repeats: evaluate the version query; no row ends
//! the flow for this update; one row is the next version, exposed as
//! `current_snapshot_version()` while the snapshot query runs; committing it exposes it as
//! `last_snapshot_version()`. Each version must be greater than the last committed one and
//! of the same type. Without `WITH VERSION` the flow can only run while its target is empty.
//! A full refresh clears the state.
//!
//! ```
//! use pipeline_sql::snapshot_version::{Step, Version, VersionTracker};
//!
//! // The version query's results for three rounds of one update: two files, then none.
//! let rounds = [vec![vec![Some(Version::Integer(1))]], vec![vec![Some(Version::Integer(2))]], vec![]];
//! let mut tracker = VersionTracker::new(true);
//! let mut processed = Vec::new();
//! for rows in rounds {
//!     match tracker.next_version(&rows).expect("a valid version") {
//!         Step::Process(version) => {
//!             // ... run the snapshot query with current_snapshot_version() = version ...
//!             processed.push(version.clone());
//!             tracker.commit().expect("a version to commit");
//!         }
//!         Step::Done => break,
//!     }
//! }
//! assert_eq!(processed, [Version::Integer(1), Version::Integer(2)]);
//! assert_eq!(tracker.last_committed(), Some(&Version::Integer(2)));
//!
//! // A version that does not move forward fails the update with the documented code.
//! let error = tracker.next_version(&[vec![Some(Version::Integer(2))]]).unwrap_err();
//! assert_eq!(error.code(), "APPLY_CHANGES_FROM_SNAPSHOT_ERROR.OUT_OF_ORDER_SNAPSHOT_VERSION");
//! ```

use crate::diagnostic::{Code, Diagnostic};
use crate::span::Span;
use std::cmp::Ordering;
use std::fmt;

/// A version value, of one of the orderable types a version query may return.
#[derive(Debug, Clone, PartialEq)]
pub enum Version {
    /// An integer (BIGINT, INT, ...).
    Integer(i64),
    /// A TIMESTAMP, in microseconds since the epoch.
    Timestamp(i64),
    /// A DATE, in days since the epoch.
    Date(i32),
    /// A STRING.
    String(String),
    /// A STRUCT whose fields are all orderable, compared field by field.
    Struct(Vec<Version>),
}

impl Version {
    /// The type's name, and for a struct its fields' types, as Spark prints them.
    pub fn type_name(&self) -> String {
        match self {
            Version::Integer(_) => "BIGINT".to_string(),
            Version::Timestamp(_) => "TIMESTAMP".to_string(),
            Version::Date(_) => "DATE".to_string(),
            Version::String(_) => "STRING".to_string(),
            Version::Struct(fields) => {
                let types: Vec<String> = fields.iter().map(Version::type_name).collect();
                format!("STRUCT<{}>", types.join(", "))
            }
        }
    }

    /// Orders two versions of the same type; `None` when the types differ.
    pub fn compare(&self, other: &Version) -> Option<Ordering> {
        match (self, other) {
            (Version::Integer(a), Version::Integer(b)) => Some(a.cmp(b)),
            (Version::Timestamp(a), Version::Timestamp(b)) => Some(a.cmp(b)),
            (Version::Date(a), Version::Date(b)) => Some(a.cmp(b)),
            (Version::String(a), Version::String(b)) => Some(a.cmp(b)),
            (Version::Struct(a), Version::Struct(b)) if a.len() == b.len() => {
                for (x, y) in a.iter().zip(b) {
                    match x.compare(y)? {
                        Ordering::Equal => continue,
                        unequal => return Some(unequal),
                    }
                }
                Some(Ordering::Equal)
            }
            _ => None,
        }
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Version::Integer(v) | Version::Timestamp(v) => write!(f, "{v}"),
            Version::Date(v) => write!(f, "{v}"),
            Version::String(v) => write!(f, "'{v}'"),
            Version::Struct(fields) => {
                let parts: Vec<String> = fields.iter().map(ToString::to_string).collect();
                write!(f, "{{{}}}", parts.join(", "))
            }
        }
    }
}

/// What the flow does next, after a version query.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// Process this version: run the snapshot query with it as `current_snapshot_version()`.
    Process(Version),
    /// The version query returned no row: the flow is done for this update.
    Done,
}

/// The state of one snapshot flow across updates.
#[derive(Debug, Clone, Default)]
pub struct VersionTracker {
    with_version: bool,
    committed: Option<Version>,
    current: Option<Version>,
    target_has_data: bool,
}

/// A protocol violation, with its documented code (there is no source span at run time).
fn violation(code: Code, message: String) -> Diagnostic {
    Diagnostic::error(code, Span::default(), message)
}

impl VersionTracker {
    /// A tracker for a flow with (`true`) or without `WITH VERSION`.
    pub fn new(with_version: bool) -> Self {
        VersionTracker {
            with_version,
            ..VersionTracker::default()
        }
    }

    /// The version being processed: the value of `current_snapshot_version()`.
    pub fn current(&self) -> Option<&Version> {
        self.current.as_ref()
    }

    /// The last committed version: the value of `last_snapshot_version()`.
    pub fn last_committed(&self) -> Option<&Version> {
        self.committed.as_ref()
    }

    /// Takes the version query's result (rows of column values, `None` for NULL) and says
    /// what to do next; a result that breaks the protocol fails the update.
    pub fn next_version(&mut self, rows: &[Vec<Option<Version>>]) -> Result<Step, Diagnostic> {
        let invalid =
            |message: String| violation(Code::InvalidAutoCdcFromSnapshotVersionQuery, message);
        let row = match rows {
            [] => {
                self.current = None;
                return Ok(Step::Done);
            }
            [row] => row,
            _ => {
                return Err(invalid(format!(
                    "the version query returned {} rows; it must return 0 or 1",
                    rows.len()
                )))
            }
        };
        let version = match row.as_slice() {
            [Some(version)] => version,
            [None] => return Err(invalid("the version query returned NULL".to_string())),
            _ => {
                return Err(invalid(format!(
                    "the version query returned {} columns; it must return 1",
                    row.len()
                )))
            }
        };
        if let Some(last) = &self.committed {
            match version.compare(last) {
                None => {
                    return Err(violation(
                        Code::AutoCdcFromSnapshotVersionSchemaChanged,
                        format!("the version {version} is a {}, but the committed versions are {}", version.type_name(), last.type_name()),
                    ))
                }
                Some(Ordering::Greater) => {}
                Some(_) => {
                    return Err(violation(
                        Code::ApplyChangesFromSnapshotOutOfOrderSnapshotVersion,
                        format!("the version {version} is not greater than the last committed version {last}"),
                    ))
                }
            }
        }
        self.current = Some(version.clone());
        Ok(Step::Process(version.clone()))
    }

    /// Commits the version being processed, which becomes `last_snapshot_version()`.
    pub fn commit(&mut self) -> Result<(), Diagnostic> {
        match self.current.take() {
            Some(version) => {
                self.committed = Some(version);
                self.target_has_data = true;
                Ok(())
            }
            None => Err(violation(
                Code::InvalidAutoCdcFromSnapshotVersionQuery,
                "there is no version to commit: the version query has not returned one".to_string(),
            )),
        }
    }

    /// Runs a flow without `WITH VERSION`: allowed only while the target has no data and no
    /// committed snapshot state.
    pub fn run_without_version(&mut self) -> Result<(), Diagnostic> {
        if self.with_version {
            return Ok(());
        }
        if self.target_has_data || self.committed.is_some() {
            return Err(violation(
                Code::AutoCdcFromSnapshotNonEmptyTargetWithoutVersion,
                "the target already has data or committed snapshot state, and the flow has no WITH VERSION".to_string(),
            ));
        }
        self.target_has_data = true;
        Ok(())
    }

    /// Notes that another flow wrote the target.
    pub fn target_written(&mut self) {
        self.target_has_data = true;
    }

    /// A full refresh: the target is emptied and the version state cleared.
    pub fn full_refresh(&mut self) {
        *self = VersionTracker::new(self.with_version);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(v: Version) -> Vec<Vec<Option<Version>>> {
        vec![vec![Some(v)]]
    }

    #[test]
    fn versions_move_forward_until_no_row() {
        let mut t = VersionTracker::new(true);
        assert_eq!(
            t.next_version(&one(Version::Date(10))).unwrap(),
            Step::Process(Version::Date(10))
        );
        assert_eq!(t.current(), Some(&Version::Date(10)));
        t.commit().unwrap();
        assert_eq!(t.last_committed(), Some(&Version::Date(10)));
        assert_eq!(
            t.next_version(&one(Version::Date(11))).unwrap(),
            Step::Process(Version::Date(11))
        );
        t.commit().unwrap();
        assert_eq!(t.next_version(&[]).unwrap(), Step::Done);
        assert_eq!(t.current(), None);
    }

    #[test]
    fn invalid_results_are_reported() {
        let mut t = VersionTracker::new(true);
        let two_rows = vec![
            vec![Some(Version::Integer(1))],
            vec![Some(Version::Integer(2))],
        ];
        let two_columns = vec![vec![Some(Version::Integer(1)), Some(Version::Integer(2))]];
        for rows in [two_rows, two_columns, vec![vec![None]]] {
            let error = t.next_version(&rows).unwrap_err();
            assert_eq!(
                error.code(),
                "INVALID_AUTO_CDC_FROM_SNAPSHOT_VERSION_QUERY",
                "{rows:?}"
            );
        }
        assert_eq!(
            t.commit().unwrap_err().code(),
            "INVALID_AUTO_CDC_FROM_SNAPSHOT_VERSION_QUERY"
        );
    }

    #[test]
    fn versions_must_grow_and_keep_their_type() {
        let mut t = VersionTracker::new(true);
        let file = |ts: i64, path: &str| {
            Version::Struct(vec![Version::Timestamp(ts), Version::String(path.into())])
        };
        t.next_version(&one(file(100, "a"))).unwrap();
        t.commit().unwrap();
        // Same timestamp, later path: greater.
        t.next_version(&one(file(100, "b"))).unwrap();
        t.commit().unwrap();
        let error = t.next_version(&one(file(100, "b"))).unwrap_err();
        assert_eq!(
            error.code(),
            "APPLY_CHANGES_FROM_SNAPSHOT_ERROR.OUT_OF_ORDER_SNAPSHOT_VERSION"
        );
        let error = t.next_version(&one(file(50, "z"))).unwrap_err();
        assert_eq!(
            error.code(),
            "APPLY_CHANGES_FROM_SNAPSHOT_ERROR.OUT_OF_ORDER_SNAPSHOT_VERSION"
        );
        let error = t.next_version(&one(Version::Integer(7))).unwrap_err();
        assert_eq!(
            error.code(),
            "AUTO_CDC_FROM_SNAPSHOT_VERSION_SCHEMA_CHANGED"
        );
        assert!(
            error.message().contains("BIGINT")
                && error.message().contains("STRUCT<TIMESTAMP, STRING>")
        );
    }

    #[test]
    fn a_flow_without_version_runs_only_on_an_empty_target() {
        let mut t = VersionTracker::new(false);
        t.run_without_version().unwrap();
        let error = t.run_without_version().unwrap_err();
        assert_eq!(
            error.code(),
            "AUTO_CDC_FROM_SNAPSHOT_NON_EMPTY_TARGET_WITHOUT_VERSION"
        );
        t.full_refresh();
        t.run_without_version().unwrap();
        let mut other = VersionTracker::new(false);
        other.target_written();
        assert!(other.run_without_version().is_err());
    }

    #[test]
    fn a_full_refresh_clears_the_versions() {
        let mut t = VersionTracker::new(true);
        t.next_version(&one(Version::Integer(5))).unwrap();
        t.commit().unwrap();
        t.full_refresh();
        assert_eq!(t.last_committed(), None);
        assert_eq!(
            t.next_version(&one(Version::Integer(1))).unwrap(),
            Step::Process(Version::Integer(1))
        );
    }
}
