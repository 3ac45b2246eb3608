//! Quoting user input in error messages: at most [`QUOTE_CHARS`]
//! characters, cut on a character boundary, control characters escaped, so
//! an error stays one short line whatever was typed or pasted.

/// The most characters of a user's input an error message repeats.
pub const QUOTE_CHARS: usize = 60;

/// `s` as an error message quotes it: its first [`QUOTE_CHARS`] characters
/// (then `…` and the total length), newlines and other control characters
/// escaped.
pub fn quote(s: &str) -> String {
    let mut out = String::new();
    let mut shown = 0;
    for c in s.chars() {
        // An escaped character counts as the characters it prints.
        let piece: String = if c.is_control() {
            c.escape_default().collect()
        } else {
            c.to_string()
        };
        shown += piece.chars().count();
        if shown > QUOTE_CHARS {
            out.push_str(&format!("… ({} characters)", s.chars().count()));
            return out;
        }
        out.push_str(&piece);
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
}
