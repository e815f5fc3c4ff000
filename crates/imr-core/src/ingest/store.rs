//! The record store: how a table's records and their fields are kept — the decoded text once,
//! and per record either only its length (a text without `"`, read by lines) or a span and its
//! field ends (any other text, split by the `csv` crate) — and read back ([`Records`],
//! [`RawRecord`], [`Fields`]). [`super::table::RawTable`] fills it and owns it.

/// One data record, borrowed from its table: its 1-based physical line in the file (the header
/// is line 1) and its fields.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RawRecord<'a> {
    pub line: u64,
    /// The last physical line of the record: `line` unless a quoted field spans lines.
    pub end_line: u64,
    /// The record's text: as in the file (fields and the delimiters between them) when
    /// `in_place`, else its fields unquoted and concatenated.
    text: &'a str,
    /// The end of each field in `text`.
    ends: Ends<'a>,
    /// Whether one delimiter byte separates consecutive fields in `text`.
    in_place: bool,
}

/// Where a record's fields end: two bytes each below 64 KiB of record text, four above, or (a
/// record of a text read by lines) not stored but found at each delimiter byte of its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ends<'a> {
    Short(&'a [u16]),
    Long(&'a [u32]),
    /// The fields are separated by this delimiter byte in the record's text (no `"` in it).
    Scan(u8),
}

impl Default for Ends<'_> {
    fn default() -> Self {
        Ends::Short(&[])
    }
}

impl Ends<'_> {
    /// The count of stored ends (`Scan` has none).
    fn stored_len(&self) -> usize {
        match self {
            Ends::Short(ends) => ends.len(),
            Ends::Long(ends) => ends.len(),
            Ends::Scan(_) => 0,
        }
    }

    fn get(&self, index: usize) -> Option<usize> {
        match self {
            Ends::Short(ends) => ends.get(index).map(|&e| usize::from(e)),
            Ends::Long(ends) => ends.get(index).map(|&e| e as usize),
            Ends::Scan(_) => None,
        }
    }
}

impl<'a> RawRecord<'a> {
    /// Number of fields.
    pub fn len(&self) -> usize {
        match self.ends {
            // A record read by lines is never empty: one field more than its delimiters.
            // memchr's counter natively (AVX2); a plain loop in wasm32, where memchr has no
            // SIMD and its word-at-a-time counter was the slower (bench/RESULTS.md).
            Ends::Scan(delimiter) if cfg!(target_arch = "wasm32") => {
                self.text.bytes().filter(|&b| b == delimiter).count() + 1
            }
            Ends::Scan(delimiter) => {
                memchr::memchr_iter(delimiter, self.text.as_bytes()).count() + 1
            }
            ends => ends.stored_len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Field `index` (unquoted, `""` read as `"`), or `None` past the last field.
    pub fn field(&self, index: usize) -> Option<&'a str> {
        if let Ends::Scan(_) = self.ends {
            return self.fields().nth(index);
        }
        let end = self.ends.get(index)?;
        let start = match index {
            0 => 0,
            _ => self.ends.get(index - 1)? + usize::from(self.in_place),
        };
        self.text.get(start..end)
    }

    /// The fields in order.
    pub fn fields(&self) -> Fields<'a> {
        Fields {
            record: *self,
            next: 0,
            start: Some(0),
        }
    }
}

/// The fields of a [`RawRecord`] in order ([`RawRecord::fields`]). A record read by lines is
/// split at each delimiter byte as it goes (a field cut inside a character, possible only with
/// a non-ASCII delimiter byte, reads as empty).
pub struct Fields<'a> {
    record: RawRecord<'a>,
    /// The next field's index (stored ends).
    next: usize,
    /// The next field's first byte (a record read by lines); `None` after the last.
    start: Option<usize>,
}

impl<'a> Iterator for Fields<'a> {
    type Item = &'a str;

    #[inline]
    fn next(&mut self) -> Option<&'a str> {
        let Ends::Scan(delimiter) = self.record.ends else {
            let index = self.next;
            if index >= self.record.ends.stored_len() {
                return None;
            }
            self.next += 1;
            return Some(self.record.field(index).unwrap_or(""));
        };
        let text = self.record.text;
        let from = self.start?;
        let rest = text.as_bytes().get(from..)?;
        // A byte loop, not memchr: fields are short, and a search set up per field cost more
        // than it saved (in wasm32 above all, which has no SIMD here).
        let end = match rest.iter().position(|&b| b == delimiter) {
            Some(at) => {
                self.start = Some(from + at + 1);
                from + at
            }
            None => {
                self.start = None;
                text.len()
            }
        };
        Some(text.get(from..end).unwrap_or(""))
    }
}

/// [`RecordSpan::ends_at`]'s flag: the record is read in place from [`Records::text`].
const IN_PLACE: u64 = 1 << 63;
/// [`RecordSpan::ends_at`]'s flag: the record's ends are in [`Records::long_ends`].
const LONG: u64 = 1 << 62;

/// Where a record is in [`Records`] (24 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct RecordSpan {
    line: u64,
    /// Byte offset of the record's first field in [`Records::text`] when in place, else in
    /// [`Records::unquoted`].
    text_start: u64,
    /// Index in [`Records::ends`] (or `long_ends` with [`LONG`]) of the record's field count,
    /// its field ends following; with the flags [`IN_PLACE`] and [`LONG`].
    ends_at: u64,
}

/// The data records of a table without a string per cell or a copy of the file (a
/// heap string per cell of a 128 MB file held ~8× the file, a copy of its fields ~1.5×, spans
/// and field ends per record ~0.35×). The table owns the file's decoded text.
///
/// - A text without any `"` (nearly every numeric file) is read **by lines** (`Lines`): per
///   record only its length (four bytes), and every `STRIDE` records a mark (byte, line);
///   a record is found by skipping the line end after the one before, its fields by scanning
///   for the delimiter. The table is then the text and 4 bytes a record.
/// - Any other text is read by the `csv` crate: a record without a `"` is read in place, its
///   fields between single delimiters; a record with one has its fields unquoted (`""` read as
///   `"`) and concatenated in a second buffer. Per record: a 24-byte span, its field count and
///   each field's end relative to its start (two bytes each below 64 KiB of text).
///
/// Read in order through [`Records::iter`] and [`Records::iter_from`]; [`Records::get`] finds
/// one record (by lines, from its mark).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Records {
    /// The decoded file, whole (metadata lines and header included).
    text: String,
    /// The fields of the records that hold a `"`, unquoted and concatenated.
    unquoted: String,
    /// Per record below 64 KiB: its field count, then its field ends.
    ends: Vec<u16>,
    /// The same for longer records (below 4 GiB: checked).
    long_ends: Vec<u32>,
    /// (record index, physical lines after its first) of the records that span lines (only
    /// quoted ones can), by index.
    more_lines: Vec<(u64, u32)>,
    spans: Vec<RecordSpan>,
    /// A text without `"` is read by lines: no span or end is kept per record, each record is
    /// found again from the nearest [`Lines::marks`] (the spans and ends were a third of a
    /// numeric file's size); `spans` is then empty.
    #[serde(default)]
    lines: Option<Lines>,
}

/// Records between [`Lines::marks`] in a text read by lines.
const STRIDE: usize = 1024;

/// The index of a table read by lines (a text without `"`): a record is a run of bytes without
/// `\r` or `\n`, except a blank one (no delimiter, only white space), its fields between single
/// delimiters, as `RawTable::split` defines them.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(super) struct Lines {
    delimiter: u8,
    /// Each record's length in bytes (four bytes a record: a record is then found by skipping
    /// the line end before it, not by searching for the one after it).
    lengths: Vec<u32>,
    /// The byte offset in [`Records::text`] and the physical line of records 0, `STRIDE`,
    /// 2·`STRIDE`, …
    marks: Vec<(u64, u64)>,
}

impl Lines {
    /// An index of no record yet, of a text with this delimiter.
    pub(super) fn new(delimiter: u8) -> Lines {
        Lines {
            delimiter,
            lengths: Vec::new(),
            marks: Vec::new(),
        }
    }

    /// Appends a record of `length` bytes starting at byte `byte` of the text, on physical line
    /// `line` (a mark is kept every `STRIDE` records).
    pub(super) fn push(&mut self, byte: u64, line: u64, length: u32) {
        if self.lengths.len().is_multiple_of(STRIDE) {
            self.marks.push((byte, line));
        }
        self.lengths.push(length);
    }
}

/// An ASCII byte that is not white space: a run of bytes that starts with it is a record
/// whatever follows (nearly every line).
fn starts_record(first: u8) -> bool {
    first.is_ascii() && !first.is_ascii_whitespace() && first != 0x0b
}

/// The first record at or after byte `at` (on physical line `line`) of a text without `"`:
/// its start, end and line. Line ends and blank runs (no `delimiter`, only white space) are
/// skipped, each `\n` counted.
pub(super) fn next_line_record(
    bytes: &[u8],
    mut at: usize,
    mut line: u64,
    delimiter: u8,
) -> Option<(usize, usize, u64)> {
    loop {
        let rest = bytes.get(at..)?;
        let first = *rest.first()?;
        match first {
            b'\n' => {
                line += 1;
                at += 1;
            }
            b'\r' => at += 1,
            _ => {
                let end = memchr::memchr2(b'\n', b'\r', rest).unwrap_or(rest.len());
                let run = &rest[..end];
                if starts_record(first)
                    || memchr::memchr(delimiter, run).is_some()
                    || !field_str(run).trim().is_empty()
                {
                    return Some((at, at + end, line));
                }
                at += end;
            }
        }
    }
}

/// The records of a [`Records`] in order, from any one: by lines, each found after the one
/// before; otherwise by index.
pub struct RecordsIter<'r> {
    records: &'r Records,
    next: usize,
    end: usize,
    /// By lines: the byte and line to look for the next record from.
    cursor: Option<(usize, u64)>,
}

impl<'r> Iterator for RecordsIter<'r> {
    type Item = RawRecord<'r>;

    fn next(&mut self) -> Option<RawRecord<'r>> {
        if self.next >= self.end {
            return None;
        }
        self.next += 1;
        let Some(lines) = &self.records.lines else {
            return Some(self.records.get(self.next - 1).unwrap_or_default());
        };
        let (text, delimiter) = (&self.records.text, lines.delimiter);
        let bytes = text.as_bytes();
        let length = lines.lengths.get(self.next - 1).map(|&l| l as usize);
        let found = self.cursor.and_then(|(mut at, mut line)| {
            // The line end before the record (one `\n` or `\r\n`, nearly always), then the
            // record of the known length; anything else (blank lines) is searched.
            while let Some(&b) = bytes.get(at) {
                match b {
                    b'\n' => line += 1,
                    b'\r' => {}
                    _ => break,
                }
                at += 1;
            }
            match (bytes.get(at), length) {
                (Some(&first), Some(length)) if starts_record(first) => {
                    Some((at, at.saturating_add(length), line))
                }
                _ => next_line_record(bytes, at, line, delimiter),
            }
        });
        let Some((start, end, line)) = found else {
            // A damaged index (a deserialised message): the rest read as empty records.
            self.cursor = None;
            return Some(RawRecord::default());
        };
        self.cursor = Some((end, line));
        Some(RawRecord {
            line,
            end_line: line,
            text: text.get(start..end).unwrap_or(""),
            ends: Ends::Scan(delimiter),
            in_place: true,
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.end - self.next;
        (left, Some(left))
    }
}

impl ExactSizeIterator for RecordsIter<'_> {}

impl Records {
    pub fn len(&self) -> usize {
        match &self.lines {
            Some(lines) => lines.lengths.len(),
            None => self.spans.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Record `index`, or `None` past the last. Buffers that do not fit together (a table
    /// deserialised from a damaged message) read as records without fields, never a panic.
    /// By lines, a record is found from the mark before it (at most `STRIDE` records on):
    /// read the records in order with [`Records::iter`] or [`Records::iter_from`].
    pub fn get(&self, index: usize) -> Option<RawRecord<'_>> {
        if self.lines.is_some() {
            return (index < self.len()).then(|| self.iter_from(index).next().unwrap_or_default());
        }
        let span = self.spans.get(index)?;
        let in_place = span.ends_at & IN_PLACE != 0;
        let at = usize::try_from(span.ends_at & !(IN_PLACE | LONG)).ok();
        // The count at `at`, then that many ends.
        fn counted<T: Copy + TryInto<usize>>(all: &[T], at: Option<usize>) -> Option<&[T]> {
            let at = at?;
            let count: usize = (*all.get(at)?).try_into().ok()?;
            all.get(at.checked_add(1)?..at.checked_add(1)?.checked_add(count)?)
        }
        let ends = if span.ends_at & LONG != 0 {
            Ends::Long(counted(&self.long_ends, at).unwrap_or(&[]))
        } else {
            Ends::Short(counted(&self.ends, at).unwrap_or(&[]))
        };
        let source = if in_place { &self.text } else { &self.unquoted };
        let text_len = ends
            .stored_len()
            .checked_sub(1)
            .and_then(|last| ends.get(last))
            .unwrap_or(0);
        let text = usize::try_from(span.text_start)
            .ok()
            .and_then(|a| source.get(a..a.checked_add(text_len)?));
        let more_lines = match in_place {
            true => 0,
            false => self
                .more_lines
                .binary_search_by_key(&(index as u64), |&(i, _)| i)
                .map_or(0, |k| self.more_lines[k].1),
        };
        Some(RawRecord {
            line: span.line,
            end_line: span.line.saturating_add(u64::from(more_lines)),
            text: text.unwrap_or(""),
            ends: if text.is_some() {
                ends
            } else {
                Ends::default()
            },
            in_place,
        })
    }

    /// The records in file order.
    pub fn iter(&self) -> RecordsIter<'_> {
        self.iter_from(0)
    }

    /// The records from record `first` on, in file order.
    pub fn iter_from(&self, first: usize) -> RecordsIter<'_> {
        let end = self.len();
        let first = first.min(end);
        let mut iter = RecordsIter {
            records: self,
            next: first,
            end,
            cursor: None,
        };
        if let Some(lines) = &self.lines {
            let mark = lines
                .marks
                .get(first / STRIDE)
                .and_then(|&(byte, line)| Some((usize::try_from(byte).ok()?, line)));
            let skip = first % STRIDE;
            iter.next = first - skip;
            iter.cursor = mark;
            for _ in 0..skip {
                iter.next();
            }
        }
        iter
    }

    /// The records of a text read by lines, as `lines` indexes them (the text is set after,
    /// [`Records::set_text`]).
    pub(super) fn from_lines(lines: Lines) -> Records {
        Records {
            lines: Some(lines),
            ..Records::default()
        }
    }

    /// Room for `records` spans, when the memory has it (a guess: the spans grow as they fill
    /// otherwise, never abort).
    pub(super) fn reserve_spans(&mut self, records: usize) {
        let _ = self.spans.try_reserve_exact(records);
    }

    /// Room for `ends` two-byte field ends and counts, when the memory has it (a guess).
    pub(super) fn reserve_ends(&mut self, ends: usize) {
        let _ = self.ends.try_reserve_exact(ends);
    }

    /// The decoded file the records are read from, whole (metadata lines and header included).
    pub(super) fn set_text(&mut self, text: String) {
        self.text = text;
    }

    /// Appends a record's span and field ends (`text_len` is the last end), read in place at
    /// byte `text_start` of [`Records::text`] or unquoted at that byte of
    /// [`Records::unquoted`]; `Err` when one record holds 4 GiB or more.
    pub(super) fn push_span(
        &mut self,
        line: u64,
        text_start: usize,
        in_place: bool,
        text_len: usize,
        ends: impl ExactSizeIterator<Item = usize>,
    ) -> Result<(), ()> {
        let flags = if in_place { IN_PLACE } else { 0 };
        let short = u16::try_from(text_len).and(u16::try_from(ends.len()));
        let ends_at = if let Ok(count) = short {
            let at = self.ends.len() as u64;
            self.ends.push(count);
            // Each end is at most `text_len`, which fits.
            self.ends.extend(ends.map(|e| e as u16));
            at | flags
        } else {
            let at = self.long_ends.len() as u64;
            self.long_ends
                .push(u32::try_from(ends.len()).map_err(|_| ())?);
            for end in ends {
                self.long_ends.push(u32::try_from(end).map_err(|_| ())?);
            }
            at | flags | LONG
        };
        self.spans.push(RecordSpan {
            line,
            text_start: text_start as u64,
            ends_at,
        });
        Ok(())
    }

    /// Appends a record of unquoted fields (`fields` concatenated, ending at `ends`).
    pub(super) fn push_unquoted(
        &mut self,
        line: u64,
        more_lines: u64,
        fields: &str,
        ends: impl ExactSizeIterator<Item = usize>,
    ) -> Result<(), ()> {
        let text_start = self.unquoted.len();
        self.unquoted.push_str(fields);
        if more_lines > 0 {
            let more = u32::try_from(more_lines).map_err(|_| ())?;
            self.more_lines.push((self.spans.len() as u64, more));
        }
        self.push_span(line, text_start, false, fields.len(), ends)
    }
}

/// A field of a record read from valid UTF-8: split at ASCII bytes, it is valid UTF-8 too (a
/// field that were not would read as empty rather than panic).
pub(super) fn field_str(field: &[u8]) -> &str {
    std::str::from_utf8(field).unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::super::decode::Encoding;
    use super::super::number::Decimal;
    use super::super::sniff::{sniff, Dialect};
    use super::super::table::RawTable;
    use super::*;

    #[test]
    fn records_read_back_their_fields_and_survive_serde() {
        let text = b"code,note,n\n01101,\"a \"\"b\"\" c\",1\n01107,,2,extra\n01401\n";
        let t = RawTable::from_bytes("x.csv", text).unwrap();
        let fields: Vec<Vec<&str>> = t.records.iter().map(|r| r.fields().collect()).collect();
        assert_eq!(
            fields,
            vec![
                vec!["01101", "a \"b\" c", "1"],
                vec!["01107", "", "2", "extra"],
                vec!["01401"]
            ]
        );
        let r = t.records.get(1).unwrap();
        assert_eq!((r.len(), r.field(1), r.field(4)), (4, Some(""), None));
        assert!(t.records.get(3).is_none());
        let json = serde_json::to_string(&t).unwrap();
        let back: RawTable = serde_json::from_str(&json).unwrap();
        assert_eq!(back.records, t.records);
    }

    /// A table deserialised from a damaged message (spans that point past the buffers) reads as
    /// records without fields, never a panic.
    #[test]
    fn damaged_records_read_as_empty_not_a_panic() {
        let t = RawTable::from_bytes("x.csv", b"a,b\n1,\"2\"\n3,4\n").unwrap();
        let mut json: serde_json::Value = serde_json::to_value(&t).unwrap();
        json["records"]["spans"][1]["text_start"] = serde_json::json!(1u64 << 40);
        json["records"]["spans"][0]["ends_at"] = serde_json::json!(99);
        json["records"]["ends"][0] = serde_json::json!(u16::MAX);
        json["records"]["spans"][1]["ends_at"] = serde_json::json!(u64::MAX);
        let back: RawTable = serde_json::from_value(json).unwrap();
        for r in back.records.iter() {
            let _: Vec<&str> = r.fields().collect();
            let _ = (r.field(0), r.field(1), r.field(2));
        }
        assert_eq!(back.records.len(), 2);
    }

    /// The same for a table read by lines: marks past the text or out of order, a count
    /// beyond the text, a changed delimiter.
    #[test]
    fn a_damaged_line_index_reads_as_empty_records_not_a_panic() {
        let t = RawTable::from_bytes("x.csv", b"a,b\n1,2\n3,4\n").unwrap();
        let json: serde_json::Value = serde_json::to_value(&t).unwrap();
        assert_eq!(
            json["records"]["lines"]["lengths"],
            serde_json::json!([3, 3])
        );
        for (key, value) in [
            ("marks", serde_json::json!([[1u64 << 40, 2]])),
            ("marks", serde_json::json!([])),
            ("marks", serde_json::json!([[u64::MAX, u64::MAX]])),
            ("lengths", serde_json::json!([u32::MAX, 0, 7, 1])),
            ("delimiter", serde_json::json!(b'\n')),
        ] {
            let mut damaged = json.clone();
            damaged["records"]["lines"][key] = value;
            let back: RawTable = serde_json::from_value(damaged).unwrap();
            for first in [0, 1, 2, usize::MAX] {
                for r in back.records.iter_from(first).take(100) {
                    let _: Vec<&str> = r.fields().collect();
                    let _ = (r.len(), r.field(0), r.field(1), r.field(2));
                }
            }
            let _ = back.records.get(1).map(|r| r.field(1));
        }
    }

    /// A text without `"` is read by lines and keeps no span per record; every record is
    /// found again from its mark, by `get`, by `iter_from` and by `iter`, as the `csv` crate
    /// reads it, over several marks with blank and white-space lines among the records.
    #[test]
    fn records_read_by_lines_are_found_again_past_many_marks() {
        let mut text = String::from("code;note\n");
        for i in 0..5 * STRIDE + 7 {
            match i % 97 {
                0 => text.push_str("\r\n \t \n\n"),
                1 => text.push_str(";\n"),
                _ => {}
            }
            text.push_str(&format!("{i};n{}\r\n", i % 13));
        }
        let by_lines =
            RawTable::split("x.csv", text.clone(), 0, Encoding::Utf8, sniff(&text), true).unwrap();
        let by_csv = RawTable::split(
            "x.csv",
            text.clone(),
            0,
            Encoding::Utf8,
            sniff(&text),
            false,
        )
        .unwrap();
        assert!(by_lines.records.lines.is_some() && by_lines.records.spans.is_empty());
        assert!(by_csv.records.lines.is_none());
        let read = |r: RawRecord<'_>| {
            (
                r.line,
                r.end_line,
                r.fields().map(str::to_owned).collect::<Vec<_>>(),
            )
        };
        let expected: Vec<_> = by_csv.records.iter().map(read).collect();
        assert_eq!(
            by_lines.records.iter().map(read).collect::<Vec<_>>(),
            expected
        );
        assert_eq!(by_lines.records.len(), expected.len());
        for i in (0..expected.len())
            .step_by(37)
            .chain([STRIDE - 1, STRIDE, 3 * STRIDE + 1])
        {
            assert_eq!(
                read(by_lines.records.get(i).unwrap()),
                expected[i],
                "record {i}"
            );
            let from: Vec<_> = by_lines.records.iter_from(i).map(read).collect();
            assert_eq!(from, expected[i..], "from record {i}");
            assert_eq!(by_lines.records.iter_from(i).len(), expected.len() - i);
        }
        assert!(by_lines.records.get(expected.len()).is_none());
        assert_eq!(by_lines.records.iter_from(expected.len() + 5).count(), 0);
    }

    mod in_place {
        use super::*;
        use proptest::prelude::*;

        /// The records as the `csv` crate reads them (blank records skipped, no header): the
        /// oracle of the in-place reading.
        fn by_the_csv_crate(text: &str, delimiter: u8) -> Option<Vec<Vec<String>>> {
            let mut reader = csv::ReaderBuilder::new()
                .delimiter(delimiter)
                .has_headers(false)
                .flexible(true)
                .from_reader(text.as_bytes());
            let mut out = Vec::new();
            for record in reader.records() {
                let record = record.ok()?;
                if record.len() == 1 && record[0].trim().is_empty() {
                    continue;
                }
                out.push(record.iter().map(str::to_owned).collect());
            }
            Some(out)
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(2000))]
            /// Records read in place or unquoted hold the `csv` crate's fields, in its order,
            /// for text with quotes, line ends of all kinds, blanks and non-ASCII letters.
            #[test]
            fn fields_are_the_csv_crates(
                text in proptest::collection::vec(
                    prop::sample::select(vec!["a", "1", ",", ";", "\"", "\n", "\r", "\r\n", " ", "é", "\u{a0}", "\"\""]),
                    0..40,
                ).prop_map(|parts| format!("x{}", parts.concat())),
                semicolon in any::<bool>(),
            ) {
                let delimiter = if semicolon { b';' } else { b',' };
                let dialect = Dialect { delimiter, decimal: Decimal::Point, has_header: false };
                let expected = by_the_csv_crate(&text, delimiter);
                let table = RawTable::from_text("x.csv", text.clone(), 0, Encoding::Utf8, dialect);
                match (table, expected) {
                    (Ok(table), Some(expected)) => {
                        let read: Vec<Vec<String>> = table
                            .records
                            .iter()
                            .map(|r| r.fields().map(str::to_owned).collect())
                            .collect();
                        prop_assert_eq!(read, expected);
                        let json = serde_json::to_string(&table).unwrap();
                        let back: RawTable = serde_json::from_str(&json).unwrap();
                        prop_assert_eq!(back.records, table.records);
                    }
                    (Err(_), None) => {}
                    (table, expected) => prop_assert!(false, "{:?} against {:?}", table.map(|t| t.records.len()), expected),
                }
            }
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(2000))]
            /// Text without a `"`, split by lines, gives the table the `csv` crate's reading
            /// gives: the same header, records, fields and physical lines, in both delimiters,
            /// with blank lines, lone `\r`, spaces and non-ASCII letters anywhere.
            #[test]
            fn text_without_quotes_split_by_lines_is_the_csv_crates_table(
                text in proptest::collection::vec(
                    prop::sample::select(vec!["a", "1", ",", ";", "\n", "\r", "\r\n", " ", "é", "\u{a0}", "\t"]),
                    0..60,
                ).prop_map(String::from_iter),
                semicolon in any::<bool>(),
                has_header in any::<bool>(),
            ) {
                let delimiter = if semicolon { b';' } else { b',' };
                let dialect = Dialect { delimiter, decimal: Decimal::Point, has_header };
                let read = |by_lines| {
                    RawTable::split("x.csv", text.clone(), 0, Encoding::Utf8, dialect, by_lines)
                        .map(|t| {
                            let rows: Vec<(u64, u64, Vec<String>)> = t
                                .records
                                .iter()
                                .map(|r| (r.line, r.end_line, r.fields().map(str::to_owned).collect()))
                                .collect();
                            (t.columns, rows, t.physical_lines)
                        })
                        .map_err(|e| e.to_string())
                };
                prop_assert_eq!(read(true), read(false), "{:?}", text);
            }
        }

        #[test]
        fn a_quoted_record_among_plain_ones_reads_unquoted_and_keeps_its_lines() {
            let text = b"code;note\r\n01101;plain\r\n01107;\"a;\"\"b\"\"\r\nc\"\r\n01401;x\r\n";
            let t = RawTable::from_bytes("x.csv", text).unwrap();
            let rows: Vec<(u64, u64, Vec<&str>)> = t
                .records
                .iter()
                .map(|r| (r.line, r.end_line, r.fields().collect()))
                .collect();
            assert_eq!(
                rows,
                vec![
                    (2, 2, vec!["01101", "plain"]),
                    (3, 4, vec!["01107", "a;\"b\"\r\nc"]),
                    (5, 5, vec!["01401", "x"]),
                ]
            );
        }

        /// A byte-order mark stays in the text but not in the first column's name.
        #[test]
        fn a_bom_file_is_read_in_place_after_its_mark() {
            let t =
                RawTable::from_vec("x.csv", "\u{feff}año;n\n1;2\n".as_bytes().to_vec()).unwrap();
            assert_eq!(t.columns, vec!["año", "n"]);
            assert_eq!(t.encoding, Encoding::Utf8Bom);
            assert_eq!(
                t.records.get(0).unwrap().fields().collect::<Vec<_>>(),
                vec!["1", "2"]
            );
        }

        /// Records past 64 KiB of text or 65,535 fields keep four-byte ends, among short ones.
        #[test]
        fn long_and_wide_records_read_back_among_short_ones() {
            let long = "x".repeat(70_000);
            let wide = ",".repeat(65_535);
            let quoted_long = format!("\"{}\"\"\"", "y".repeat(70_000));
            let text = format!("a,b\n1,2\n{long},3\n{wide}\n{quoted_long},4\n5,6\n");
            let t = RawTable::from_bytes("x.csv", text.as_bytes()).unwrap();
            let rows: Vec<(usize, Option<&str>, Option<&str>)> = t
                .records
                .iter()
                .map(|r| {
                    (
                        r.len(),
                        r.field(0).map(|f| &f[..f.len().min(3)]),
                        r.field(1),
                    )
                })
                .collect();
            assert_eq!(
                rows,
                vec![
                    (2, Some("1"), Some("2")),
                    (2, Some("xxx"), Some("3")),
                    (65_536, Some(""), Some("")),
                    (2, Some("yyy"), Some("4")),
                    (2, Some("5"), Some("6")),
                ]
            );
            assert_eq!(t.records.get(3).unwrap().field(0).unwrap().len(), 70_001);
        }
    }
}
