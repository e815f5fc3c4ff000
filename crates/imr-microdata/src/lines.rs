//! Byte chunks → complete lines, whatever the chunk boundaries.
//!
//! A line split across chunks is carried over (at most [`MAX_LINE_BYTES`]); everything else is
//! handed out as slices of the chunk itself, so memory does not grow with the file.

use crate::error::MicrodataError;
use memchr::{memchr, memchr_iter};
use serde::Serialize;

/// A line longer than this is reported as malformed instead of being buffered.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// What a streaming aggregator has done so far; cheap to ask after every chunk.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Progress {
    /// Bytes pushed so far (compare with the file size for a progress bar).
    pub bytes_consumed: u64,
    /// Data rows read so far (header and blank lines not included).
    pub rows_read: u64,
    /// Rows counted so far: infant deaths for a deaths file, births for a births file.
    pub rows_counted: u64,
}

/// One line handed out by [`LineSplitter`], numbered from 1.
pub(crate) enum LineEvent<'a> {
    /// The bytes of the line without its `\n` or `\r\n`.
    Line(&'a [u8]),
    /// A line longer than [`MAX_LINE_BYTES`] (its bytes were not kept).
    TooLong,
}

/// What an aggregator does with each line: the part the births and deaths readers do not share.
pub(crate) trait LineSink {
    /// Reads line `number` (1-based). An error stops the reading (it is decided on the first
    /// line: the file is not of this kind); every later push fails the same way.
    fn line(&mut self, number: u64, event: LineEvent<'_>) -> Result<(), MicrodataError>;
    /// Data rows read and rows counted so far, for [`Progress`].
    fn rows_read_and_counted(&self) -> (u64, u64);
}

/// A [`LineSplitter`] feeding a [`LineSink`]: the push / progress / finish skeleton both
/// aggregators share, and the error that stopped the reading.
#[derive(Debug)]
pub(crate) struct Streamed<S> {
    lines: LineSplitter,
    pub(crate) sink: S,
    error: Option<MicrodataError>,
}

impl<S: LineSink> Streamed<S> {
    pub fn new(sink: S) -> Self {
        Streamed {
            lines: LineSplitter::default(),
            sink,
            error: None,
        }
    }

    /// Feeds the next bytes of the file.
    pub fn push(&mut self, chunk: &[u8]) -> Result<Progress, MicrodataError> {
        if self.error.is_none() {
            let (sink, error) = (&mut self.sink, &mut self.error);
            self.lines
                .push(chunk, |number, event| feed(sink, error, number, event));
        }
        match &self.error {
            Some(err) => Err(err.clone()),
            None => Ok(self.progress()),
        }
    }

    /// Bytes pushed, rows read and rows counted so far.
    pub fn progress(&self) -> Progress {
        let (rows_read, rows_counted) = self.sink.rows_read_and_counted();
        Progress {
            bytes_consumed: self.lines.bytes_consumed(),
            rows_read,
            rows_counted,
        }
    }

    /// Reads the last line (when the file does not end with a newline) and hands back the sink
    /// with the bytes consumed, or the error that stopped the reading.
    pub fn finish(mut self) -> Result<(S, u64), MicrodataError> {
        if self.error.is_none() {
            let (sink, error) = (&mut self.sink, &mut self.error);
            self.lines
                .finish(|number, event| feed(sink, error, number, event));
        }
        match self.error {
            Some(err) => Err(err),
            None => Ok((self.sink, self.lines.bytes_consumed())),
        }
    }
}

/// Hands one line to the sink unless an earlier line stopped the reading.
fn feed<S: LineSink>(
    sink: &mut S,
    error: &mut Option<MicrodataError>,
    number: u64,
    event: LineEvent<'_>,
) {
    if error.is_none() {
        if let Err(err) = sink.line(number, event) {
            *error = Some(err);
        }
    }
}

#[derive(Debug, Default)]
pub(crate) struct LineSplitter {
    carry: Vec<u8>,
    overlong: bool,
    lines: u64,
    bytes: u64,
}

fn strip_cr(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\r").unwrap_or(line)
}

impl LineSplitter {
    pub fn bytes_consumed(&self) -> u64 {
        self.bytes
    }

    /// Feeds a chunk; `on_line(line_number, event)` is called for every line it completes.
    pub fn push(&mut self, chunk: &[u8], mut on_line: impl FnMut(u64, LineEvent<'_>)) {
        self.bytes += chunk.len() as u64;
        let mut rest = chunk;
        if !self.carry.is_empty() || self.overlong {
            let Some(end) = memchr(b'\n', rest) else {
                self.carry_tail(rest);
                return;
            };
            self.lines += 1;
            if self.overlong {
                self.overlong = false;
                on_line(self.lines, LineEvent::TooLong);
            } else if self.carry.len() + end > MAX_LINE_BYTES {
                self.carry.clear();
                on_line(self.lines, LineEvent::TooLong);
            } else {
                self.carry.extend_from_slice(&rest[..end]);
                on_line(self.lines, LineEvent::Line(strip_cr(&self.carry)));
                self.carry.clear();
            }
            rest = &rest[end + 1..];
        }
        let mut start = 0;
        for end in memchr_iter(b'\n', rest) {
            self.lines += 1;
            let line = &rest[start..end];
            if line.len() > MAX_LINE_BYTES {
                on_line(self.lines, LineEvent::TooLong);
            } else {
                on_line(self.lines, LineEvent::Line(strip_cr(line)));
            }
            start = end + 1;
        }
        self.carry_tail(&rest[start..]);
    }

    fn carry_tail(&mut self, tail: &[u8]) {
        if self.overlong {
            return;
        }
        if self.carry.len() + tail.len() > MAX_LINE_BYTES {
            self.carry.clear();
            self.overlong = true;
        } else {
            self.carry.extend_from_slice(tail);
        }
    }

    /// Hands out the last line when the file does not end with a newline.
    pub fn finish(&mut self, mut on_line: impl FnMut(u64, LineEvent<'_>)) {
        if self.overlong {
            self.overlong = false;
            self.lines += 1;
            on_line(self.lines, LineEvent::TooLong);
        } else if !self.carry.is_empty() {
            self.lines += 1;
            let line = std::mem::take(&mut self.carry);
            on_line(self.lines, LineEvent::Line(strip_cr(&line)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_of(chunks: &[&[u8]]) -> Vec<(u64, Option<Vec<u8>>)> {
        let mut out = Vec::new();
        let mut splitter = LineSplitter::default();
        let mut record = |n: u64, event: LineEvent<'_>| {
            out.push((
                n,
                match event {
                    LineEvent::Line(l) => Some(l.to_vec()),
                    LineEvent::TooLong => None,
                },
            ))
        };
        for chunk in chunks {
            splitter.push(chunk, &mut record);
        }
        splitter.finish(&mut record);
        out
    }

    #[test]
    fn a_line_split_across_three_chunks_comes_out_whole_and_crlf_is_stripped() {
        let got = lines_of(&[b"ab", b"c", b"d\r\nef\n", b"g"]);
        assert_eq!(
            got,
            vec![
                (1, Some(b"abcd".to_vec())),
                (2, Some(b"ef".to_vec())),
                (3, Some(b"g".to_vec()))
            ]
        );
    }

    #[test]
    fn an_overlong_line_is_reported_without_being_kept() {
        let long = vec![b'x'; MAX_LINE_BYTES + 10];
        let got = lines_of(&[b"a\n", &long[..100], &long[100..], b"\nb\n"]);
        assert_eq!(
            got,
            vec![
                (1, Some(b"a".to_vec())),
                (2, None),
                (3, Some(b"b".to_vec()))
            ]
        );
    }
}
