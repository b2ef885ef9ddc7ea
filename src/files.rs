//! Reading the files an operator names (pattern tables, opening books, game records):
//! regular files only, since a pipe or a device could block or never end, and never more
//! than a given number of bytes, so that a wrong path (`/dev/zero`, a huge file) is a clear
//! error instead of a process that grows without bound.

use std::fs::File;
use std::io::Read as _;
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

#[cfg(test)]
mod tests {
    use super::*;

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
