//! One hand's fields, as the replay reads them, from either of two readers:
//!
//! - [`Fields::from_table`]: any TOML, through the `toml` crate
//!   ([`super::amount::read_document`], numbers kept as written);
//! - [`Fields::read`]: first a fast reader of the one-line `key = value`
//!   shape that PHH writers (PokerKit, the dataset, cardsim) produce, which
//!   borrows from the text and allocates only the arrays; anything outside
//!   that shape (a table header, a multi-line array, an escape, a date, a
//!   quoted key, a duplicate key, ...) goes to the `toml` crate instead.
//!
//! The fast reader is half the time of `cardsim stats` no longer spent in a
//! general TOML parser. It accepts a strict subset of TOML and must read
//! each document it accepts exactly as the `toml` crate does: tests hold
//! the two equal on every fixture and on generated documents, and hold
//! that it refuses what TOML refuses.

use std::borrow::Cow;

use super::amount::{Amount, EXACT_KEY};

/// A value as the replay needs it.
#[derive(Clone, Debug, PartialEq)]
pub enum Val<'a> {
    Str(Cow<'a, str>),
    Int(i64),
    /// A number kept as its text: a decimal, `inf`, or an integer beyond
    /// i64 (read exactly by [`Amount::parse`]).
    Num(Cow<'a, str>),
    /// A float from a table built elsewhere (not from text).
    Float(f64),
    Bool(bool),
    Array(Vec<Val<'a>>),
    /// Anything else (a time, a table): present, but no amount or text.
    Other,
}

impl Val<'_> {
    /// The value as an amount, when it is a number.
    pub fn amount(&self) -> Option<Result<Amount, String>> {
        match self {
            Val::Int(i) => Some(Ok(Amount::Finite {
                negative: *i < 0,
                digits: u128::from(i.unsigned_abs()),
                scale: 0,
            })),
            Val::Num(t) => Some(Amount::parse(t)),
            Val::Float(f) if f.is_infinite() && *f > 0.0 => Some(Ok(Amount::Inf)),
            Val::Float(f) if f.is_finite() => Some(Amount::parse(&format!("{f}"))),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Val::Str(s) => Some(s),
            _ => None,
        }
    }

    fn into_owned(self) -> Val<'static> {
        match self {
            Val::Str(s) => Val::Str(Cow::Owned(s.into_owned())),
            Val::Num(s) => Val::Num(Cow::Owned(s.into_owned())),
            Val::Int(i) => Val::Int(i),
            Val::Float(f) => Val::Float(f),
            Val::Bool(b) => Val::Bool(b),
            Val::Array(a) => Val::Array(a.into_iter().map(Val::into_owned).collect()),
            Val::Other => Val::Other,
        }
    }
}

/// A hand's fields in document order (a few dozen: a list is faster to
/// search than a map is to build).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Fields<'a>(pub Vec<(Cow<'a, str>, Val<'a>)>);

impl<'a> Fields<'a> {
    pub fn get(&self, key: &str) -> Option<&Val<'a>> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// Reads one hand's text: the fast reader when the text has its shape,
    /// else the `toml` crate (whose message a refusal carries).
    pub fn read(text: &'a str) -> Result<Fields<'a>, String> {
        match fast(text) {
            Some(f) => Ok(f),
            None => super::amount::read_document(text).map(|t| Fields::from_table(&t)),
        }
    }

    /// The fields of a table the `toml` crate read
    /// ([`super::amount::read_document`]: numbers kept as `{"$exact" =
    /// text}`), or one built in code.
    pub fn from_table(t: &toml::Table) -> Fields<'static> {
        Fields(
            t.iter()
                .map(|(k, v)| (Cow::Owned(k.clone()), value_of(v)))
                .collect(),
        )
    }

    pub fn into_owned(self) -> Fields<'static> {
        Fields(
            self.0
                .into_iter()
                .map(|(k, v)| (Cow::Owned(k.into_owned()), v.into_owned()))
                .collect(),
        )
    }
}

fn value_of(v: &toml::Value) -> Val<'static> {
    match v {
        toml::Value::String(s) => Val::Str(Cow::Owned(s.clone())),
        toml::Value::Integer(i) => Val::Int(*i),
        toml::Value::Float(f) => Val::Float(*f),
        toml::Value::Boolean(b) => Val::Bool(*b),
        toml::Value::Array(a) => Val::Array(a.iter().map(value_of).collect()),
        toml::Value::Table(t) if t.len() == 1 => match t.get(EXACT_KEY) {
            Some(toml::Value::String(s)) => Val::Num(Cow::Owned(s.clone())),
            _ => Val::Other,
        },
        _ => Val::Other,
    }
}

/// The fast reader: `None` for anything outside its shape.
fn fast(text: &str) -> Option<Fields<'_>> {
    let mut fields: Vec<(Cow<'_, str>, Val<'_>)> = Vec::with_capacity(24);
    let mut seen = 0u64;
    // Lines split by hand: they are short, and a byte loop beats the
    // general searcher's set-up on each one ('\n' is ASCII, so every cut
    // is a character boundary).
    let bytes = text.as_bytes();
    let mut start = 0;
    while start <= bytes.len() {
        let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |p| start + p);
        let line = &text[start..end];
        start = end + 1;
        let line = skip_ws(line);
        if line.is_empty() || line.starts_with('#') {
            if !comment_ok(line) {
                return None;
            }
            continue;
        }
        let key_len = line
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'-')
            .count();
        if key_len == 0 {
            return None;
        }
        let (key, rest) = line.split_at(key_len);
        let rest = skip_ws(rest).strip_prefix('=')?;
        let (value, rest) = value(skip_ws(rest))?;
        let rest = skip_ws(rest);
        if !(rest.is_empty() || rest.starts_with('#') && comment_ok(rest)) {
            return None;
        }
        // A duplicate key is TOML's error to give. Keys are compared only
        // when one with the same length and last byte was seen.
        let mark = 1u64 << ((key.len() * 31 + usize::from(key.as_bytes()[key_len - 1])) % 64);
        if seen & mark != 0 && fields.iter().any(|(k, _)| k == key) {
            return None;
        }
        seen |= mark;
        fields.push((Cow::Borrowed(key), value));
    }
    Some(Fields(fields))
}

fn skip_ws(s: &str) -> &str {
    s.trim_start_matches([' ', '\t'])
}

/// A comment (or nothing): TOML allows no control character in it but tab
/// (a carriage return sends the text to the `toml` crate).
fn comment_ok(s: &str) -> bool {
    !s.bytes().any(|b| (b < 0x20 && b != b'\t') || b == 0x7f)
}

/// One value at the start of `s` (which ends where its line ends), and
/// what follows it: an array of [`item`]s, or one.
fn value(s: &str) -> Option<(Val<'_>, &str)> {
    match s.strip_prefix('[') {
        Some(body) => array(body, s),
        None => item(s),
    }
}

/// An array's items, `body` what follows its `[` on the line `line`. An
/// array in an array goes to the `toml` crate ([`item`] refuses it).
fn array<'t>(body: &'t str, line: &str) -> Option<(Val<'t>, &'t str)> {
    // Room for every item on the line (`line` ends with its line; a comma
    // inside a string only adds room to spare).
    let commas = line.bytes().filter(|&b| b == b',').count();
    let mut items = Vec::with_capacity(commas + 1);
    let mut rest = skip_ws(body);
    loop {
        if let Some(r) = rest.strip_prefix(']') {
            return Some((Val::Array(items), r));
        }
        let (v, r) = item(rest)?;
        items.push(v);
        rest = skip_ws(r);
        match rest.as_bytes().first()? {
            b',' => rest = skip_ws(&rest[1..]),
            b']' => {}
            _ => return None,
        }
    }
}

/// One string or bare scalar at the start of `s`, and what follows it
/// (inlined into [`array`]'s loop: arrays hold most of a hand's values).
#[inline]
fn item(s: &str) -> Option<(Val<'_>, &str)> {
    let first = *s.as_bytes().first()?;
    match first {
        b'\'' | b'"' if s.as_bytes().get(1..3) == Some(&[first, first]) => {
            one_line_triple(&s[3..], first)
        }
        b'\'' | b'"' => {
            let body = &s[1..];
            let end = memchr::memchr(first, body.as_bytes())?;
            let inner = &body[..end];
            if !plain_text(inner.as_bytes(), first) {
                return None;
            }
            // A literal string ending in `'''`/`"""` opens a multi-line one.
            let rest = &body[end + 1..];
            if inner.is_empty() && rest.starts_with(first as char) {
                return None;
            }
            Some((Val::Str(Cow::Borrowed(inner)), rest))
        }
        _ => {
            let len = s
                .bytes()
                .take_while(|b| {
                    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.' | b'_' | b':')
                })
                .count();
            let (word, rest) = s.split_at(len);
            Some((scalar(word)?, rest))
        }
    }
}

/// A triple-quoted string that opens and closes on one line (the dataset
/// writes a table name with a quote in it as `'''AMY'S AVE'''`), `body`
/// what follows the opening quotes. Its text runs to the first three
/// quotes; one or two more quotes just before those belong to the text, as
/// TOML says. `None` (the `toml` crate decides) for one that goes on to the
/// next line, holds an escape (`"""`) or a control character.
fn one_line_triple(body: &str, quote: u8) -> Option<(Val<'_>, &str)> {
    let bytes = body.as_bytes();
    let close = bytes.windows(3).position(|w| w == [quote; 3])?;
    let extra = bytes[close + 3..]
        .iter()
        .take_while(|&&b| b == quote)
        .count();
    if extra > 2 {
        return None;
    }
    let inner = &body[..close + extra];
    if !plain_text(inner.as_bytes(), quote) {
        return None;
    }
    Some((Val::Str(Cow::Borrowed(inner)), &body[close + extra + 3..]))
}

/// Whether a string's text (between `quote`s, on one line) holds nothing
/// TOML refuses in it or the fast reader leaves to the `toml` crate: no
/// control character but tab, and in a `"` string no escape. Folded with
/// no branch per byte, so the compiler vectorizes it.
fn plain_text(inner: &[u8], quote: u8) -> bool {
    let escape = if quote == b'"' { b'\\' } else { 0 };
    let bad = inner.iter().fold(false, |bad, &b| {
        bad | ((b < 0x20) & (b != b'\t')) | (b == 0x7f) | (b == escape)
    });
    !bad
}

/// A bare scalar: a boolean, an integer, a decimal, `inf`, or a local time.
fn scalar(w: &str) -> Option<Val<'_>> {
    plain_number(w).or_else(|| general_scalar(w))
}

/// The numbers PHH files are made of, read in one pass: digits (a whole
/// number below 10^18, as an i64), or digits, a point and digits (kept as
/// text), with no sign, underscore or leading zero. `None` for anything
/// else, which [`general_scalar`] reads (and reads these the same: tested).
#[inline]
fn plain_number(w: &str) -> Option<Val<'_>> {
    let b = w.as_bytes();
    let int_len = b.iter().take_while(|c| c.is_ascii_digit()).count();
    if int_len == 0 || int_len > 18 || (int_len > 1 && b[0] == b'0') {
        return None;
    }
    let Some((&point, frac)) = b[int_len..].split_first() else {
        let v = b.iter().fold(0i64, |v, &c| v * 10 + i64::from(c - b'0'));
        return Some(Val::Int(v));
    };
    (point == b'.' && !frac.is_empty() && frac.iter().all(u8::is_ascii_digit))
        .then_some(Val::Num(Cow::Borrowed(w)))
}

/// Any bare scalar: a boolean, an integer (underscores, a sign, beyond
/// i64), a decimal, `inf`, or a local time.
fn general_scalar(w: &str) -> Option<Val<'_>> {
    match w {
        "true" => return Some(Val::Bool(true)),
        "false" => return Some(Val::Bool(false)),
        "inf" | "+inf" | "-inf" => return Some(Val::Num(Cow::Borrowed(w))),
        _ => {}
    }
    if is_local_time(w) {
        return Some(Val::Other);
    }
    let body = w.strip_prefix(['+', '-']).unwrap_or(w);
    let (int, frac) = match body.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (body, None),
    };
    if !digits_ok(int) || (int.len() > 1 && int.starts_with('0')) {
        return None;
    }
    if let Some(f) = frac {
        if !digits_ok(f) {
            return None;
        }
        return Some(Val::Num(Cow::Borrowed(w)));
    }
    // As the `toml` crate keeps it: an i64, else its text.
    let clean: Cow<'_, str> = if w.contains('_') {
        Cow::Owned(w.replace('_', ""))
    } else {
        Cow::Borrowed(w)
    };
    Some(match clean.parse::<i64>() {
        Ok(i) => Val::Int(i),
        Err(_) => Val::Num(Cow::Borrowed(w)),
    })
}

/// Digits with single underscores between them.
fn digits_ok(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with('_')
        && !s.ends_with('_')
        && !s.contains("__")
        && s.bytes().all(|b| b.is_ascii_digit() || b == b'_')
}

/// `HH:MM:SS` with an optional fraction of digits.
fn is_local_time(w: &str) -> bool {
    let b = w.as_bytes();
    let two = |i: usize, max: u8| {
        b.get(i..i + 2).is_some_and(|d| {
            d.iter().all(u8::is_ascii_digit) && (d[0] - b'0') * 10 + d[1] - b'0' <= max
        })
    };
    b.len() >= 8
        && two(0, 23)
        && b[2] == b':'
        && two(3, 59)
        && b[5] == b':'
        && two(6, 60)
        && (b.len() == 8 || (b[8] == b'.' && b.len() > 9 && b[9..].iter().all(u8::is_ascii_digit)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::holdem::phh::amount::read_document;

    fn slow(text: &str) -> Result<Fields<'static>, String> {
        read_document(text).map(|t| Fields::from_table(&t))
    }

    /// Every document the fast reader accepts reads as the `toml` crate
    /// reads it; `shape` says whether it should be accepted at all.
    fn same(text: &str, shape: bool) {
        let f = fast(text);
        assert_eq!(f.is_some(), shape, "fast reader on {text:?}");
        if let Some(f) = f {
            assert_eq!(Ok(f), slow(text), "{text:?}");
        }
    }

    #[test]
    fn the_fast_reader_reads_as_toml_does() {
        same(
            "variant = 'NT'\nantes = [0, 0.25, 1_000]\nmin_bet = 2\n",
            true,
        );
        same(
            "a = [inf, +inf, 200.30, -0.50]\nb = true\nc = false\n",
            true,
        );
        same("time = 00:41:14\nt2 = 23:59:60.5\n", true);
        same("# a comment\n\nk-1 = \"say\" # why\nk_2 = 'it''\n", false);
        same(
            "big = 99999999999999999999\nneg = -9223372036854775808\n",
            true,
        );
        same(
            "players = ['a/b+c', \"d e\", '']\nseats = [3, 1, 2,]\n",
            true,
        );
        same("actions = []\nempty = [ ]\n", true);
        same("x = 'ünï'\n", true);
        // Triple quotes on one line, as the dataset writes a quoted name.
        same(
            "table = '''AMY'S AVE'''\nb = \"\"\"say \"hi\"\"\"\"\nc = ''''''\n",
            true,
        );
        same("a = ''''x''''\nb = '''x'''''\nc = '''''''\n", true);
        // Outside the shape: the `toml` crate reads (or refuses) these.
        for other in [
            "[1]\na = 1\n",
            "a = [\n1,\n2]\n",
            "a = \"tab\\t\"\n",
            "a = 1e3\n",
            "d = 2009-07-01\n",
            "\"q\" = 1\n",
            "a.b = 1\n",
            "a = 1\na = 2\n",
            "a = '''x\ny'''\n",
            "a = \"\"\"tab\\t\"\"\"\n",
            "a = '''x''''''\n",
            "a = '''x'''y\n",
            "a = [[1], [2]]\n",
            "a = 1\r\n",
            "a = 01\n",
            "a = 1__0\n",
            "a = 1.\n",
            "a = nan\n",
            "a = 'unterminated\n",
            "a = 1 b = 2\n",
            "a =\n",
            "= 1\n",
            "a = 24:00:00\n",
            "a = { b = 1 }\n",
        ] {
            same(other, false);
        }
    }

    #[test]
    fn plain_numbers_read_as_any_scalar_does() {
        let mut read = 0;
        for w in [
            "0",
            "7",
            "10",
            "400",
            "999999999999999999",
            "1000000000000000000",
            "0.50",
            "200.30",
            "12.5",
            "00",
            "01",
            "0.",
            ".5",
            "1.2.3",
            "1_000",
            "+1",
            "-2",
            "1e5",
            "inf",
            "1:2",
            "12:30:05",
            "true",
            "",
            "5a",
            "0.5_0",
            "3.x",
        ] {
            if let Some(v) = plain_number(w) {
                assert_eq!(Some(v), general_scalar(w), "{w:?}");
                read += 1;
            }
        }
        assert_eq!(read, 8);
    }

    proptest::proptest! {
        /// Words of digits, points and a few other characters: whatever
        /// the one-pass reader takes, the general one reads the same.
        #[test]
        fn generated_plain_numbers_read_alike(w in "[0-9]{0,20}[._+-]?[0-9]{0,4}") {
            if let Some(v) = plain_number(&w) {
                proptest::prop_assert_eq!(Some(v), general_scalar(&w));
            }
        }
    }

    #[test]
    fn both_readers_give_the_same_fields_for_the_fixtures() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/phh");
        let mut read = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            if path.extension().is_some_and(|e| e == "phh") {
                same(&text, true);
                read += 1;
            }
            if path.extension().is_some_and(|e| e == "phhs") {
                for piece in super::super::stream::Pieces::new(text.as_bytes()) {
                    same(&piece.text.unwrap(), true);
                    read += 1;
                }
            }
        }
        assert!(read >= 16, "{read}");
    }

    proptest::proptest! {
        /// Generated one-line documents, valid or not: whatever the fast
        /// reader accepts, the `toml` crate reads the same.
        #[test]
        fn generated_documents_read_alike(
            lines in proptest::collection::vec(
                (
                    "[a-z_][a-z0-9_-]{0,6}",
                    proptest::sample::select(vec![
                        "'NT'", "\"x y\"", "0", "-3", "1_000", "0.50", "200.30", "inf", "-inf",
                        "true", "false", "12:30:05", "[0, 0.25, inf]", "['p1 f', 'd db AsKs']",
                        "[1, 2,]", "[]", "1e5", "01", "1__0", "'a", "[1,", "2009-07-01",
                        "99999999999999999999", "'''x'''", "{ a = 1 }", "1.", ".5",
                        "'''a'b''c'''", "''''a'''''", "\"\"\"q\"\"\"\"", "'''x''''''",
                        "\"\"\"a\\n\"\"\"", "''''''",
                    ]),
                    proptest::sample::select(vec!["", " # c", "  ", " x"]),
                ),
                0..6,
            )
        ) {
            let text: String = lines
                .iter()
                .map(|(k, v, tail)| format!("{k} = {v}{tail}\n"))
                .collect();
            if let Some(f) = fast(&text) {
                proptest::prop_assert_eq!(Ok(f), slow(&text));
            }
        }
    }
}
