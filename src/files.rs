//! Bounded reading. The files an operator names (pattern tables, opening books, game
//! records): regular files only, since a pipe or a device could block or never end, and
//! never more than a given number of bytes, so that a wrong path (`/dev/zero`, a huge file)
//! is a clear error instead of a process that grows without bound. And lines from a pipe
//! (GTP input, an engine's replies): never more than a given number of bytes kept of one
//! line ([`read_bounded_line`]).

use std::fs::File;
use std::io::{self, BufRead, Read as _};
use std::path::Path;

/// The default bound on a pattern table or book file (the `max-data-bytes` setting).
pub const DEFAULT_MAX_DATA_BYTES: usize = 64 << 20;

/// Opens `path` for reading when it names a regular file. Looked at before opening (opening
/// a FIFO for reading waits for a writer) and again after (the path may have changed).
pub fn open_regular(path: &Path) -> Result<File, String> {
    let regular = |meta: std::fs::Metadata| {
        if meta.is_file() {
            Ok(())
        } else {
            Err("not a regular file".to_string())
        }
    };
    regular(std::fs::metadata(path).map_err(|e| e.to_string())?)?;
    let file = File::open(path).map_err(|e| e.to_string())?;
    regular(file.metadata().map_err(|e| e.to_string())?)?;
    Ok(file)
}

/// The whole content of the regular file at `path`, refused when it holds more than
/// `max_bytes` (of which no more than one byte beyond are read). `setting` names the
/// setting of the bound in the error.
pub fn read_regular_file(path: &Path, max_bytes: usize, setting: &str) -> Result<Vec<u8>, String> {
    let file = open_regular(path)?;
    let mut bytes = Vec::new();
    file.take(max_bytes as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() > max_bytes {
        return Err(format!("larger than {max_bytes} bytes (setting {setting})"));
    }
    Ok(bytes)
}

/// What [`read_bounded_line`] read.
#[derive(Debug, PartialEq, Eq)]
pub enum LineRead {
    /// A whole line (its break dropped) is in the buffer.
    Line,
    /// The line was longer than the bound: the buffer holds its first `max` bytes, the
    /// rest was read and dropped.
    TooLong,
    /// The input ended before any byte of a new line.
    End,
}

/// Reads one line of `input` into `buf` (cleared first), storing at most `max` bytes of it:
/// a longer line is consumed to its end without being stored. The line break (`\n`, and a
/// `\r` before it) is not stored.
pub fn read_bounded_line(
    input: &mut impl BufRead,
    buf: &mut Vec<u8>,
    max: usize,
) -> io::Result<LineRead> {
    buf.clear();
    let mut any = false;
    let mut too_long = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            break;
        }
        any = true;
        let (part, found, used) = match chunk.iter().position(|&b| b == b'\n') {
            Some(k) => (&chunk[..k], true, k + 1),
            None => (chunk, false, chunk.len()),
        };
        if !too_long {
            let room = max - buf.len();
            if part.len() > room {
                buf.extend_from_slice(&part[..room]);
                too_long = true;
            } else {
                buf.extend_from_slice(part);
            }
        }
        input.consume(used);
        if found {
            break;
        }
    }
    if !any {
        return Ok(LineRead::End);
    }
    if too_long {
        return Ok(LineRead::TooLong);
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Ok(LineRead::Line)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], max: usize) -> Vec<(LineRead, String)> {
        let mut reader = io::BufReader::with_capacity(7, input);
        let mut buf = Vec::new();
        let mut out = Vec::new();
        loop {
            let read = read_bounded_line(&mut reader, &mut buf, max).unwrap();
            if read == LineRead::End {
                return out;
            }
            out.push((read, String::from_utf8_lossy(&buf).into_owned()));
        }
    }

    #[test]
    fn long_lines_are_cut_and_skipped_to_their_end() {
        let input = b"1 name\r\n22 genmove bbbbbbbbbbbbbbbbbbbbbbbb\nversion\n\nlast";
        assert_eq!(
            lines(input, 12),
            [
                (LineRead::Line, "1 name".into()),
                (LineRead::TooLong, "22 genmove b".into()),
                (LineRead::Line, "version".into()),
                (LineRead::Line, String::new()),
                (LineRead::Line, "last".into()),
            ]
        );
        assert_eq!(lines(b"", 12), []);
        assert_eq!(
            lines(b"exactly12abc\n", 12),
            [(LineRead::Line, "exactly12abc".into())]
        );
    }

    #[test]
    fn special_and_big_files_are_refused() {
        assert_eq!(
            read_regular_file(Path::new("/dev/zero"), 1000, "max-data-bytes").unwrap_err(),
            "not a regular file"
        );
        assert!(read_regular_file(Path::new("/"), 1000, "x").is_err());
        let path = std::env::temp_dir().join(format!("hane-files-{}", std::process::id()));
        std::fs::write(&path, vec![b'a'; 100]).unwrap();
        assert_eq!(read_regular_file(&path, 100, "x").unwrap().len(), 100);
        assert_eq!(
            read_regular_file(&path, 99, "max-data-bytes").unwrap_err(),
            "larger than 99 bytes (setting max-data-bytes)"
        );
        std::fs::remove_file(&path).unwrap();
    }
}
