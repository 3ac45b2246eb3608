//! A `.phhs` read one hand at a time: the text cut at its section headers
//! (`[k]` alone on a line) while it is read, so a file of millions of
//! hands is never held whole, nor parsed as one TOML document. Each piece
//! is parsed on its own ([`parse_piece`]), which is also how
//! [`super::split_sections`] reads a file whose TOML fails as a whole.

use std::io::{BufRead, Read};

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
pub struct Pieces<R> {
    input: R,
    /// The header of the section being read next (`None`: before any).
    next_name: Option<String>,
    line: Vec<u8>,
    /// The section being read, reused from one to the next (its text is
    /// then copied to the batch, or to a piece's own string).
    body: Vec<u8>,
    done: bool,
    /// An I/O error stops the reading; it is reported once.
    pub error: Option<std::io::Error>,
}

impl<R: BufRead> Pieces<R> {
    pub fn new(input: R) -> Pieces<R> {
        Pieces {
            input,
            next_name: None,
            line: Vec::new(),
            body: Vec::new(),
            done: false,
            error: None,
        }
    }
}

impl<R: BufRead> Pieces<R> {
    /// The next hand, its text appended to `batch` (which holds only
    /// whole, valid hands: a refused hand adds nothing to it).
    pub fn next_into(&mut self, batch: &mut String) -> Option<Span> {
        loop {
            if self.done {
                return None;
            }
            let name = self.next_name.take();
            let body = &mut self.body;
            body.clear();
            let mut too_long = false;
            let mut content = false;
            loop {
                self.line.clear();
                // A line is read at most a section's worth at a time, so
                // one endless line cannot exhaust memory.
                let limit = MAX_SECTION_BYTES as u64 + 1;
                match (&mut self.input)
                    .take(limit)
                    .read_until(b'\n', &mut self.line)
                {
                    Ok(0) => {
                        self.done = true;
                        break;
                    }
                    Ok(_) => {}
                    Err(e) => {
                        self.error = Some(e);
                        self.done = true;
                        break;
                    }
                }
                // Only a line that starts with `[` can be a header; only
                // one that starts with `#` or is all space holds nothing.
                let first = self.line.iter().find(|b| !b.is_ascii_whitespace());
                if first == Some(&b'[') {
                    let text = String::from_utf8_lossy(&self.line);
                    if let Some(h) = header(&text) {
                        self.next_name = Some(format!("[{}]", crate::text::quote(h)));
                        break;
                    }
                }
                content |= !matches!(first, None | Some(b'#'));
                if body.len() + self.line.len() > MAX_SECTION_BYTES {
                    too_long = true;
                } else if !too_long {
                    body.extend_from_slice(&self.line);
                }
            }
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
                        let start = batch.len();
                        batch.push_str(t);
                        Ok(start..batch.len())
                    }
                    Err(_) => Err(PhhError::Toml("not UTF-8 text (a PHH file is TOML)".into())),
                }
            };
            return Some(Span { name, text });
        }
    }
}

impl<R: BufRead> Iterator for Pieces<R> {
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
        Some(Val::Array(a)) => a
            .iter()
            .map(|v| v.as_str().ok_or_else(bad))
            .collect::<Result<Vec<_>, _>>()
            .map(Some),
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
