//! The GTP input side: the stdin reader thread's loop, which reads lines of bounded length
//! ([`crate::files::read_bounded_line`]) and queues them for the engine with bounded memory,
//! acting on GoGui's `# interrupt` at once ([`read_input`]).

use std::io::BufRead;
use std::sync::atomic::Ordering;
use std::time::Duration;

use crossbeam::channel::Sender;

use super::InputSignal;
use crate::files::{LineRead, read_bounded_line};

/// Most lines read ahead of the engine, whatever their length.
pub const QUEUE_LINES: usize = 1024;

/// How many longest lines the lines read ahead may add up to.
const QUEUE_LONGEST_LINES: usize = 4;

/// What the reader thread hands the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Queued {
    /// A line, without its line break.
    Line(String),
    /// A line longer than the bound, skipped: `id` is its command id when the kept start of
    /// the line begins with one.
    TooLong { id: Option<String> },
    /// The end of the input.
    End,
}

impl Queued {
    /// The bytes a queued item holds.
    pub fn bytes(&self) -> usize {
        match self {
            Queued::Line(line) => line.len(),
            Queued::TooLong { id } => id.as_ref().map_or(0, String::len),
            Queued::End => 0,
        }
    }
}

/// The command id at the start of a line, if it has one (digits followed by a space or
/// tab).
fn leading_id(bytes: &[u8]) -> Option<String> {
    let text = bytes.trim_ascii_start();
    let digits = text.iter().take_while(|b| b.is_ascii_digit()).count();
    (digits > 0 && digits <= 18 && text.get(digits).is_some_and(|b| *b == b' ' || *b == b'\t'))
        .then(|| String::from_utf8_lossy(&text[..digits]).into_owned())
}

/// The reader thread: reads `input` line by line (at most `max_line` bytes kept of each),
/// acts on `# interrupt` at once, and queues everything else for the engine, waiting while
/// the lines read ahead hold more than four longest lines. Returns at the end of the input
/// or once the engine is gone.
pub fn read_input(
    input: &mut impl BufRead,
    signal: &InputSignal,
    sender: &Sender<Queued>,
    max_line: usize,
) {
    let max_line = max_line.max(1);
    let budget = max_line.saturating_mul(QUEUE_LONGEST_LINES);
    let mut bytes = Vec::new();
    loop {
        let item = match read_bounded_line(input, &mut bytes, max_line) {
            Ok(LineRead::End) | Err(_) => break,
            Ok(LineRead::TooLong) => Queued::TooLong {
                id: leading_id(&bytes),
            },
            Ok(LineRead::Line) => {
                let line = String::from_utf8_lossy(&bytes);
                if line == "# interrupt" {
                    signal.interrupt();
                    continue;
                }
                Queued::Line(line.into_owned())
            }
        };
        while signal.queued_bytes.load(Ordering::SeqCst) > budget.saturating_sub(item.bytes()) {
            if signal.engine_gone() {
                return;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        if !signal.queue(sender, item) {
            return;
        }
    }
    signal.end_of_input(sender);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_id_of_a_cut_line_is_kept() {
        assert_eq!(leading_id(b"22 genmove b"), Some("22".into()));
        assert_eq!(leading_id(b"  7\tplay"), Some("7".into()));
        assert_eq!(leading_id(b"22genmove"), None);
        assert_eq!(leading_id(b"genmove b"), None);
        assert_eq!(leading_id(b"123456789012345678901234 x"), None);
    }
}
