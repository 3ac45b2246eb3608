//! A `.phhs` read one hand at a time: the text cut at its section headers
//! (`[k]` alone on a line) while it is read, so a file of millions of
//! hands is never held whole, nor parsed as one TOML document. Each piece
//! is parsed on its own ([`parse_piece`]), which is also how
//! [`super::split_sections`] reads a file whose TOML fails as a whole.

use std::io::Read;

use super::fields::{Fields, Val};
use super::PhhError;

/// The largest section read: a real hand is a few kilobytes; a longer one
/// is refused (and skipped) rather than grown without bound.
pub const MAX_SECTION_BYTES: usize = 16 << 20;

/// One hand's text as read, or why it could not be.
#[derive(Debug)]
pub struct Piece {
    /// `[k]` for a `.phhs` section, `1` for a lone `.phh` hand (as
    /// [`super::parse_sections`] names them).
    pub name: String,
    /// The TOML text of the hand (its header line left out).
    pub text: Result<String, PhhError>,
}

/// One hand's place in a batch of text that [`Pieces::next_into`] fills:
/// a batch holds thousands of hands in one buffer, so reading a hand
/// allocates nothing for its text.
#[derive(Debug)]
pub struct Span {
    /// As [`Piece::name`].
    pub name: String,
    /// Where the hand's TOML text lies in the batch's buffer.
    pub text: Result<std::ops::Range<usize>, PhhError>,
}

/// The section name of a header line (`[12]` -> `12`), if it is one.
pub(super) fn header(line: &str) -> Option<&str> {
    let l = line.trim();
    (l.len() > 2 && l.starts_with('[') && l.ends_with(']') && !l.starts_with("[["))
        .then(|| l[1..l.len() - 1].trim())
}

/// The hands of a PHH text read from `input`, one [`Piece`] at a time.
/// Text before the first header (other than blank lines and comments) is a
/// hand of its own, named `1`: a `.phh` file has no header at all.
///
/// The input is read in blocks into one buffer and cut there: a line is
/// looked at (for a header) but never copied on its own, and memory holds
/// at most one section (up to [`MAX_SECTION_BYTES`]) and one block.
pub struct Pieces<R> {
    input: R,
    /// The header of the section being read next (`None`: before any).
    next_name: Option<String>,
    /// Bytes read: `buf[start..]` is the section being read and what
    /// follows it; `buf[..start]` is spent (dropped when more is read).
    buf: Vec<u8>,
    start: usize,
    /// The input has ended (or failed).
    eof: bool,
    done: bool,
    /// An I/O error stops the reading; it is reported once.
    pub error: Option<std::io::Error>,
}

/// Bytes read from the input at a time.
const BLOCK: usize = 1 << 16;

impl<R: Read> Pieces<R> {
    pub fn new(input: R) -> Pieces<R> {
        Pieces {
            input,
            next_name: None,
            buf: Vec::new(),
            start: 0,
            eof: false,
            done: false,
            error: None,
        }
    }

    /// Reads one more block, first dropping the spent bytes. Offsets from
    /// `start` stay valid.
    fn read_block(&mut self) {
        if self.start > 0 {
            self.buf.drain(..self.start);
            self.start = 0;
        }
        let have = self.buf.len();
        self.buf.resize(have + BLOCK, 0);
        loop {
            match self.input.read(&mut self.buf[have..]) {
                Ok(k) => {
                    self.buf.truncate(have + k);
                    self.eof = k == 0;
                    return;
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.buf.truncate(have);
                    self.error = Some(e);
                    self.eof = true;
                    return;
                }
            }
        }
    }

    /// The end (past its `\n`, or the input's end) of the line that starts
    /// `from` bytes after `start`, as an offset from `start`; `None` when
    /// no byte is left. A line longer than a section may be is cut there
    /// (it belongs to a section that is refused as too long).
    fn line_end(&mut self, from: usize) -> Option<usize> {
        let mut searched = from;
        loop {
            let base = self.start;
            if let Some(p) = memchr::memchr(b'\n', &self.buf[base + searched..]) {
                return Some(searched + p + 1);
            }
            searched = self.buf.len() - base;
            if self.eof || searched - from > MAX_SECTION_BYTES {
                return (searched > from).then_some(searched);
            }
            self.read_block();
        }
    }

    /// The next hand, its text appended to `batch` (which holds only
    /// whole, valid hands: a refused hand adds nothing to it).
    pub fn next_into(&mut self, batch: &mut String) -> Option<Span> {
        loop {
            if self.done {
                return None;
            }
            let name = self.next_name.take();
            let mut too_long = false;
            let mut content = false;
            // Offsets from `start`: the lines looked at so far, and where
            // the section's text ends.
            let mut line = 0;
            let mut body_end = None;
            while let Some(end) = self.line_end(line) {
                let text = &self.buf[self.start + line..self.start + end];
                // Only a line that starts with `[` can be a header; only
                // one that starts with `#` or is all space holds nothing.
                let first = text.iter().find(|b| !b.is_ascii_whitespace());
                if first == Some(&b'[') {
                    if let Some(h) = header(&String::from_utf8_lossy(text)) {
                        self.next_name = Some(format!("[{}]", crate::text::quote(h)));
                        body_end = Some(line);
                        line = end;
                        break;
                    }
                }
                content |= !matches!(first, None | Some(b'#'));
                if end > MAX_SECTION_BYTES {
                    // Too long: its text is dropped as it is read.
                    too_long = true;
                    self.start += end;
                    line = 0;
                } else {
                    line = end;
                }
            }
            let body_end = body_end.unwrap_or_else(|| {
                self.done = true;
                line
            });
            let body = &self.buf[self.start..self.start + body_end];
            self.start += line;
            // Blank text before the first header is no hand.
            if name.is_none() && !content {
                continue;
            }
            let name = name.unwrap_or_else(|| "1".to_string());
            let text = if too_long {
                Err(PhhError::Toml(format!(
                    "a section larger than {} MiB",
                    MAX_SECTION_BYTES >> 20
                )))
            } else {
                match std::str::from_utf8(body) {
                    Ok(t) => {
                        let at = batch.len();
                        batch.push_str(t);
                        Ok(at..batch.len())
                    }
                    Err(_) => Err(PhhError::Toml("not UTF-8 text (a PHH file is TOML)".into())),
                }
            };
            return Some(Span { name, text });
        }
    }
}

impl<R: Read> Iterator for Pieces<R> {
    type Item = Piece;

    /// The next hand with a text of its own (see [`Pieces::next_into`]
    /// for many hands in one buffer).
    fn next(&mut self) -> Option<Piece> {
        let mut text = String::new();
        let span = self.next_into(&mut text)?;
        Some(Piece {
            name: span.name,
            // `text` was empty, so the hand is all of it.
            text: span.text.map(|_| text),
        })
    }
}

/// One section's text as a hand's fields ([`Fields::read`]: the fast
/// reader, else the `toml` crate).
pub fn parse_piece(text: &str) -> Result<Fields<'_>, PhhError> {
    Fields::read(text).map_err(|e| PhhError::Toml(crate::text::quote(&e)))
}

/// A field that lists one name per player (`players`), when present.
pub fn names<'t>(t: &'t Fields, field: &'static str) -> Result<Option<Vec<&'t str>>, PhhError> {
    let bad = || PhhError::Field {
        field,
        why: "expected a list of strings".into(),
    };
    match t.get(field) {
        None => Ok(None),
        Some(Val::Array(a)) => {
            // Sized once (a collect through `Result` would grow it).
            let mut out = Vec::with_capacity(a.len());
            for v in a {
                out.push(v.as_str().ok_or_else(bad)?);
            }
            Ok(Some(out))
        }
        Some(_) => Err(bad()),
    }
}

/// The `seats` field (the table's seat numbers, one per player), when
/// present and all whole numbers.
pub fn seat_numbers(t: &Fields) -> Option<Vec<i64>> {
    match t.get("seats") {
        Some(Val::Array(a)) => a
            .iter()
            .map(|v| match v {
                Val::Int(i) => Some(*i),
                _ => None,
            })
            .collect(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(text: &str) -> Vec<(String, Result<String, PhhError>)> {
        Pieces::new(text.as_bytes())
            .map(|p| (p.name, p.text))
            .collect()
    }

    #[test]
    fn a_phhs_is_cut_at_its_headers_and_a_phh_is_one_hand() {
        let p = pieces("# c\n\n[1]\na = 1\n[2]\nb = 2\n\n[ 10 ]\nc = 3");
        let names: Vec<&str> = p.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["[1]", "[2]", "[10]"]);
        assert_eq!(p[1].1.as_ref().unwrap(), "b = 2\n\n");
        assert_eq!(p[2].1.as_ref().unwrap(), "c = 3");
        let p = pieces("variant = 'NT'\nactions = [\n 'p1 f',\n]\n");
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].0, "1");
        assert!(p[0].1.as_ref().unwrap().contains("'p1 f'"));
        assert!(pieces("\n# only a comment\n").is_empty());
    }

    /// A reader that gives at most `step` bytes a call: lines and
    /// headers cut across reads.
    struct Trickle<'a> {
        text: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            let k = self.step.min(out.len()).min(self.text.len());
            out[..k].copy_from_slice(&self.text[..k]);
            self.text = &self.text[k..];
            Ok(k)
        }
    }

    #[test]
    fn reads_cut_anywhere_give_the_same_hands() {
        let mut text = String::from("# lead\n\n");
        for k in 1..=300 {
            text.push_str(&format!("[{k}]\nvariant = 'NT'\nhand = {k}\n  # note\n\n"));
        }
        text.push_str("[301]\nlast = 'no newline'");
        let whole = pieces(&text);
        assert_eq!(whole.len(), 301);
        assert_eq!(whole[300].1.as_ref().unwrap(), "last = 'no newline'");
        for step in [1, 2, 7, 64, 4096, 1 << 20] {
            let cut: Vec<(String, Result<String, PhhError>)> = Pieces::new(Trickle {
                text: text.as_bytes(),
                step,
            })
            .map(|p| (p.name, p.text))
            .collect();
            assert_eq!(format!("{cut:?}"), format!("{whole:?}"), "step {step}");
        }
    }

    #[test]
    fn a_section_too_long_is_refused_and_the_next_one_read() {
        let mut text = String::from("[1]\n");
        let line = format!("actions = ['{}']\n", "x".repeat(1 << 20));
        for _ in 0..17 {
            text.push_str(&line);
        }
        text.push_str("[2]\nb = 2\n");
        let p = pieces(&text);
        assert_eq!(p.len(), 2);
        assert!(matches!(&p[0].1, Err(PhhError::Toml(m)) if m.contains("larger than 16 MiB")));
        assert_eq!(p[1].1.as_ref().unwrap(), "b = 2\n");
    }

    #[test]
    fn bad_bytes_refuse_one_section_only() {
        let mut text = b"[1]\na = '".to_vec();
        text.extend_from_slice(&[0xff, b'\'', b'\n']);
        text.extend_from_slice(b"[2]\nb = 2\n");
        let p: Vec<Piece> = Pieces::new(&text[..]).collect();
        assert!(matches!(p[0].text, Err(PhhError::Toml(_))));
        assert_eq!(p[1].text.as_ref().unwrap(), "b = 2\n");
    }

    #[test]
    fn names_and_seats_are_read_when_present() {
        let t = parse_piece("players = ['a', 'b']\nseats = [3, 1]\n").unwrap();
        assert_eq!(names(&t, "players").unwrap().unwrap(), ["a", "b"]);
        assert_eq!(seat_numbers(&t).unwrap(), [3, 1]);
        let t = parse_piece("players = [1, 2]\n").unwrap();
        assert!(names(&t, "players").is_err());
        let t = parse_piece("x = 1\n").unwrap();
        assert_eq!(names(&t, "players").unwrap(), None);
    }
}
