//! Reading the files a check is given, as the command reads them: no further than a size
//! limit (a generated file gone wrong, or a device named as a file, would never end), as UTF-8
//! text, and, for settings, only regular files (a FIFO would block the check).

use std::path::Path;

/// The text of the file at `path`, when it is a regular file (links followed) of at most
/// `limit` bytes: settings are read so, never from a device or a pipe that could block or
/// never end.
pub fn read_regular(path: &Path, limit: u64) -> Result<String, String> {
    // Asked before the file is opened: opening a FIFO blocks until something writes to it.
    let regular = |metadata: std::io::Result<std::fs::Metadata>| match metadata {
        Ok(m) if m.file_type().is_file() => Ok(()),
        Ok(_) => Err("not a regular file".to_string()),
        Err(e) => Err(e.to_string()),
    };
    regular(std::fs::metadata(path))?;
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    regular(file.metadata())?;
    read_limited(file, limit)
}

/// The text `reader` gives, read no further than `limit` bytes; a UTF-8 byte-order mark stays
/// (the lexer reads it as white space, and offsets stay those of the file).
pub fn read_limited(reader: impl std::io::Read, limit: u64) -> Result<String, String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > limit {
        return Err(format!(
            "larger than {} MiB, not read (raise --max-file-size to check it)",
            limit >> 20
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "not UTF-8 text: the byte at offset {} is not valid UTF-8",
            e.utf8_error().valid_up_to()
        )
    })
}
