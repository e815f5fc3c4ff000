//! A small CSV table with line numbers, so every value can be traced to its line and column.

use crate::DatasetError;
use std::path::{Path, PathBuf};

/// A CSV file read whole: header, then records with the 1-based line each starts on.
pub(crate) struct Table {
    pub(crate) path: PathBuf,
    header: Vec<String>,
    pub(crate) records: Vec<Record>,
}

pub(crate) struct Record {
    pub(crate) line: u64,
    fields: Vec<String>,
}

impl Table {
    pub(crate) fn read(path: &Path) -> Result<Table, DatasetError> {
        let mut bytes = std::fs::read(path).map_err(|source| DatasetError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        // The csv crate numbers the lines of a CRLF file one short (the first record after the
        // header comes out as line 1): line ends are made LF first, so a line is the file's.
        if bytes.contains(&b'\r') {
            bytes = String::from_utf8_lossy(&bytes)
                .replace("\r\n", "\n")
                .into_bytes();
        }
        let csv_error = |source| DatasetError::Csv {
            path: path.to_path_buf(),
            source,
        };
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(true)
            .from_reader(bytes.as_slice());
        let header = reader
            .headers()
            .map_err(csv_error)?
            .iter()
            .map(str::to_owned)
            .collect();
        let mut records = Vec::new();
        for result in reader.records() {
            let record = result.map_err(csv_error)?;
            let line = record.position().map_or(0, |p| p.line());
            records.push(Record {
                line,
                fields: record.iter().map(str::to_owned).collect(),
            });
        }
        Ok(Table {
            path: path.to_path_buf(),
            header,
            records,
        })
    }

    /// The index of a column the build needs.
    pub(crate) fn column(&self, name: &str) -> Result<Column, DatasetError> {
        self.header
            .iter()
            .position(|h| h == name)
            .map(|index| Column {
                index,
                name: name.to_owned(),
            })
            .ok_or_else(|| DatasetError::MissingColumn {
                path: self.path.clone(),
                column: name.to_owned(),
            })
    }

    pub(crate) fn text<'a>(&self, record: &'a Record, column: &Column) -> &'a str {
        record.fields.get(column.index).map_or("", |s| s.trim())
    }

    pub(crate) fn value_error(
        &self,
        record: &Record,
        column: &Column,
        message: impl Into<String>,
    ) -> DatasetError {
        DatasetError::Value {
            path: self.path.clone(),
            line: record.line,
            column: column.name.clone(),
            message: message.into(),
        }
    }

    /// A 5-character CUT commune code (digits only).
    pub(crate) fn commune_code(
        &self,
        record: &Record,
        column: &Column,
    ) -> Result<String, DatasetError> {
        let text = self.text(record, column);
        if text.len() == 5 && text.bytes().all(|b| b.is_ascii_digit()) {
            Ok(text.to_owned())
        } else {
            Err(self.value_error(
                record,
                column,
                format!("expected a 5-digit commune code, found {text:?}"),
            ))
        }
    }

    /// A number, or `None` for an empty cell.
    pub(crate) fn optional_number(
        &self,
        record: &Record,
        column: &Column,
    ) -> Result<Option<f64>, DatasetError> {
        self.optional(record, column, "a number", |text| {
            text.parse::<f64>().ok().filter(|value| value.is_finite())
        })
    }

    /// A non-negative integer, or `None` for an empty cell.
    pub(crate) fn optional_count(
        &self,
        record: &Record,
        column: &Column,
    ) -> Result<Option<u64>, DatasetError> {
        self.optional(record, column, "a non-negative integer", |text| {
            text.parse::<u64>().ok()
        })
    }

    /// The cell read by `parse`, or `None` for an empty cell; a cell `parse` refuses is an error
    /// saying it expected `expected` (e.g. "a number") and what it found.
    fn optional<T>(
        &self,
        record: &Record,
        column: &Column,
        expected: &str,
        parse: impl FnOnce(&str) -> Option<T>,
    ) -> Result<Option<T>, DatasetError> {
        let text = self.text(record, column);
        if text.is_empty() {
            return Ok(None);
        }
        parse(text).map(Some).ok_or_else(|| {
            self.value_error(
                record,
                column,
                format!("expected {expected}, found {text:?}"),
            )
        })
    }

    pub(crate) fn count(&self, record: &Record, column: &Column) -> Result<u64, DatasetError> {
        self.optional_count(record, column)?
            .ok_or_else(|| self.value_error(record, column, "expected an integer, found nothing"))
    }
}

pub(crate) struct Column {
    index: usize,
    name: String,
}
