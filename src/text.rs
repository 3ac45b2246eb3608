//! Quoting user input in error messages: at most [`QUOTE_CHARS`]
//! characters, cut on a character boundary, control characters escaped, so
//! an error stays one short line whatever was typed or pasted.

/// The most characters of a user's input an error message repeats.
pub const QUOTE_CHARS: usize = 60;

/// `s` as an error message quotes it: its first [`QUOTE_CHARS`] characters
/// (then `…` and the total length), newlines and other control characters
/// escaped.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len().min(4 * QUOTE_CHARS));
    let mut shown = 0;
    for c in s.chars() {
        // An escaped character counts as the characters it prints.
        let width = if c.is_control() {
            c.escape_default().count()
        } else {
            1
        };
        shown += width;
        if shown > QUOTE_CHARS {
            out.push_str(&format!("… ({} characters)", s.chars().count()));
            return out;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// Cuts a whole message line to `max` characters (a last guard at the
/// binary's edge: a message built from many quoted pieces stays short).
pub fn cut_line(line: &str, max: usize) -> String {
    if line.chars().count() <= max {
        return line.to_string();
    }
    let mut out: String = line.chars().take(max).collect();
    out.push('…');
    out
}

/// A line with every `'...'`-quoted piece passed through [`quote`]: cut to
/// [`QUOTE_CHARS`] characters and escaped. For messages whose quotes come
/// from elsewhere (clap's usage errors). An unmatched quote quotes the rest.
pub fn cut_quoted(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(open) = rest.find('\'') {
        out.push_str(&rest[..=open]);
        let after = &rest[open + 1..];
        let (inner, tail) = match after.find('\'') {
            Some(close) => (&after[..close], &after[close..]),
            None => (after, ""),
        };
        out.push_str(&quote(inner));
        if let Some(t) = tail.strip_prefix('\'') {
            out.push('\'');
            rest = t;
        } else {
            rest = "";
        }
    }
    out.push_str(rest);
    out.chars()
        .flat_map(|c| match c {
            '\n' | '\r' | '\t' => vec![' '],
            c if c.is_control() => c.escape_default().collect(),
            c => vec![c],
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_are_short_single_lines_cut_on_character_boundaries() {
        assert_eq!(quote("As Kd"), "As Kd");
        assert_eq!(quote("a\nb\tc"), "a\\nb\\tc");
        let long = "♦".repeat(1000);
        let q = quote(&long);
        assert!(q.starts_with(&"♦".repeat(60)));
        assert!(q.ends_with("… (1000 characters)"), "{q}");
        assert_eq!(cut_line(&"é".repeat(10), 4), "éééé…");
        assert_eq!(cut_line("short", 10), "short");
    }

    #[test]
    fn quoted_pieces_are_cut() {
        let long = "7".repeat(300);
        let line = format!("invalid value '{long}' for '--seed <S>': too large");
        let cut = cut_quoted(&line);
        assert!(cut.starts_with(&format!(
            "invalid value '{}… (300 characters)'",
            "7".repeat(60)
        )));
        assert!(cut.ends_with("for '--seed <S>': too large"), "{cut}");
        assert_eq!(cut_quoted("a 'b\nc' d 'e"), "a 'b\\nc' d 'e");
    }
}
