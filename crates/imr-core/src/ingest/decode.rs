//! Bytes → text: UTF-8 (with or without byte-order mark) or Windows-1252, the two encodings of
//! Chilean agency files. Latin-1 (ISO-8859-1) files decode identically under Windows-1252 for
//! every printable character, which is why the WHATWG Encoding Standard maps the label
//! "iso-8859-1" to windows-1252 and why `encoding_rs` has no separate Latin-1 decoder.

use super::IngestError;
use encoding_rs::{UTF_16BE, UTF_16LE, UTF_8, WINDOWS_1252};
use std::borrow::Cow;

/// How the bytes of a file were turned into text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Encoding {
    /// UTF-8 without a byte-order mark.
    #[serde(rename = "utf-8")]
    Utf8,
    /// UTF-8 that started with the byte-order mark EF BB BF (stripped).
    #[serde(rename = "utf-8-bom")]
    Utf8Bom,
    /// UTF-16 announced by its byte-order mark (as Excel's "Unicode text" export).
    #[serde(rename = "utf-16")]
    Utf16,
    /// Not valid UTF-8: read as Windows-1252, the superset of Latin-1 used by Excel on Windows.
    #[serde(rename = "windows-1252")]
    Windows1252,
}

impl Encoding {
    /// The machine name, as the JSON writes it (`windows-1252`).
    pub fn label(self) -> &'static str {
        match self {
            Encoding::Utf8 => "utf-8",
            Encoding::Utf8Bom => "utf-8-bom",
            Encoding::Utf16 => "utf-16",
            Encoding::Windows1252 => "windows-1252",
        }
    }

    /// The encoding as a reader of `lang` knows it: "Latin-1 (windows-1252)" for the encoding
    /// Chilean agencies' files come in, "UTF-8 (con marca BOM)"; [`Encoding::label`] stays the
    /// JSON's name.
    pub fn reader_label(self, lang: crate::Lang) -> &'static str {
        match self {
            Encoding::Utf8 => "UTF-8",
            Encoding::Utf8Bom => lang.pick("UTF-8 (con marca BOM)", "UTF-8 (with a BOM)"),
            Encoding::Utf16 => "UTF-16",
            Encoding::Windows1252 => "Latin-1 (windows-1252)",
        }
    }
}

/// Decodes a whole file. Fails on an empty file and on binary content (a NUL byte in the first
/// 8 KiB of a file without a byte-order mark: `by_the_head`). Valid UTF-8 (with or
/// without its mark) is borrowed, not copied: a copy of a 128 MB file was 128 MB more at the
/// peak and a pass over it.
pub fn decode_bytes<'b>(
    file: &str,
    bytes: &'b [u8],
) -> Result<(Cow<'b, str>, Encoding), IngestError> {
    if let Some((encoding, bom_len)) = by_the_head(file, bytes)? {
        let body = &bytes[bom_len..];
        if encoding == UTF_8 {
            let (text, _) = UTF_8.decode_without_bom_handling(body);
            return Ok((text, Encoding::Utf8Bom));
        }
        if encoding == UTF_16LE || encoding == UTF_16BE {
            let (text, _) = encoding.decode_without_bom_handling(body);
            return Ok((text, Encoding::Utf16));
        }
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => Ok((Cow::Borrowed(text), Encoding::Utf8)),
        Err(_) => {
            let (text, _) = WINDOWS_1252.decode_without_bom_handling(bytes);
            Ok((text, Encoding::Windows1252))
        }
    }
}

/// [`decode_bytes`] for bytes the caller gives away, with the same rules: valid UTF-8 becomes the
/// text in place, neither copied nor validated twice (the table keeps the file's text
/// and reads its unquoted fields from it). Returns the text and the byte where its content starts
/// (3 after a UTF-8 byte-order mark, which stays in the text; 0 otherwise).
pub fn decode_owned(file: &str, bytes: Vec<u8>) -> Result<(String, usize, Encoding), IngestError> {
    let (bom_len, encoding) = match by_the_head(file, &bytes)? {
        None => (0, Encoding::Utf8),
        Some((mark, bom_len)) if mark == UTF_8 => (bom_len, Encoding::Utf8Bom),
        Some(_) => return decode_bytes(file, &bytes).map(|(t, e)| (t.into_owned(), 0, e)),
    };
    match String::from_utf8(bytes) {
        Ok(text) => Ok((text, bom_len, encoding)),
        Err(invalid) => decode_bytes(file, invalid.as_bytes()).map(|(t, e)| (t.into_owned(), 0, e)),
    }
}

/// What the first bytes decide for both decoders: an empty file is refused; a byte-order mark
/// names the encoding (and its length); without one, a NUL byte in the first 8 KiB is binary
/// content, refused (as `grep` and `git` decide).
fn by_the_head(
    file: &str,
    bytes: &[u8],
) -> Result<Option<(&'static encoding_rs::Encoding, usize)>, IngestError> {
    if bytes.is_empty() {
        return Err(IngestError::Empty { file: file.into() });
    }
    if let Some(mark) = encoding_rs::Encoding::for_bom(bytes) {
        return Ok(Some(mark));
    }
    let head = &bytes[..bytes.len().min(8192)];
    match head.iter().position(|&b| b == 0) {
        Some(offset) => Err(IngestError::Binary {
            file: file.into(),
            byte_offset: offset,
        }),
        None => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin1_bytes_are_read_as_windows_1252() {
        // "Ñuble;año" in Latin-1: Ñ = 0xD1, ñ = 0xF1.
        let bytes = b"\xd1uble;a\xf1o\n";
        let (text, enc) = decode_bytes("x.csv", bytes).unwrap();
        assert_eq!(text, "Ñuble;año\n");
        assert_eq!(enc, Encoding::Windows1252);
    }

    #[test]
    fn a_utf8_byte_order_mark_is_stripped_and_reported() {
        let (text, enc) = decode_bytes("x.csv", "\u{feff}año,x\n".as_bytes()).unwrap();
        assert_eq!(text, "año,x\n");
        assert_eq!(enc, Encoding::Utf8Bom);
    }

    /// `text` in UTF-16 little-endian after its byte-order mark.
    fn utf16le_with_mark(text: &str) -> Vec<u8> {
        let mut bytes = vec![0xFF, 0xFE];
        for unit in text.encode_utf16() {
            bytes.extend_from_slice(&unit.to_le_bytes());
        }
        bytes
    }

    #[test]
    fn utf16_with_a_mark_is_decoded() {
        let bytes = utf16le_with_mark("a;b\n");
        let (text, enc) = decode_bytes("x.csv", &bytes).unwrap();
        assert_eq!((&*text, enc), ("a;b\n", Encoding::Utf16));
    }

    #[test]
    fn empty_and_binary_files_are_refused_with_the_file_name() {
        let err = decode_bytes("empty.csv", b"").unwrap_err();
        assert!(err.to_string().contains("empty.csv"));
        let err = decode_bytes("img.png", b"\x89PNG\r\n\x1a\n\0\0\0").unwrap_err();
        assert!(err.to_string().contains("img.png") && err.to_string().contains("binary"));
    }

    /// A reader is told the encoding in words she may know (a newcomer who uploaded a Latin-1
    /// file read "windows-1252"), the JSON keeps the machine name.
    #[test]
    fn a_reader_reads_latin_1_and_the_json_windows_1252() {
        use crate::Lang;
        let (_, latin1) = decode_bytes("x.csv", b"a\xf1o;x\n").unwrap();
        assert_eq!(latin1.reader_label(Lang::Es), "Latin-1 (windows-1252)");
        assert_eq!(latin1.reader_label(Lang::En), "Latin-1 (windows-1252)");
        assert_eq!(latin1.label(), "windows-1252");
        assert_eq!(serde_json::to_string(&latin1).unwrap(), "\"windows-1252\"");
        let (_, bom) = decode_bytes("x.csv", "\u{feff}año\n".as_bytes()).unwrap();
        assert_eq!(bom.reader_label(Lang::Es), "UTF-8 (con marca BOM)");
        assert_eq!(Encoding::Utf8.reader_label(Lang::Es), "UTF-8");
    }

    /// The owned decoding gives the borrowed one's text and encoding for every kind of file.
    #[test]
    fn owned_decoding_agrees_with_borrowed() {
        let cases: Vec<Vec<u8>> = vec![
            b"a,b\n1,2\n".to_vec(),
            "\u{feff}año,x\n".as_bytes().to_vec(),
            b"\xef\xbb\xbfa\xf1o\n".to_vec(),
            b"\xd1uble;a\xf1o\n".to_vec(),
            utf16le_with_mark("a;b\n"),
            b"".to_vec(),
            b"\x89PNG\0".to_vec(),
            // A NUL after a UTF-8 mark: decoded, not refused as binary, in both.
            "\u{feff}a\0b\n".as_bytes().to_vec(),
        ];
        for bytes in cases {
            let owned = decode_owned("x.csv", bytes.clone());
            match decode_bytes("x.csv", &bytes) {
                Ok((text, encoding)) => {
                    let (owned, start, owned_encoding) = owned.unwrap();
                    assert_eq!((&owned[start..], owned_encoding), (&*text, encoding));
                }
                Err(e) => assert_eq!(owned.unwrap_err().to_string(), e.to_string()),
            }
        }
    }
}
