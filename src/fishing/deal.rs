//! The deck and the deals: the 54 faces in their fixed order, their
//! notation, and reading a deal a user types.

use super::rules::{DealError, Face, FACES, JOKER};

/// The 54-card deck as faces, in a fixed order (to be shuffled).
pub fn deck() -> Vec<Face> {
    fresh_deck().to_vec()
}

/// The 54 faces in their fixed order: four of each rank, then two jokers.
pub(super) fn fresh_deck() -> [Face; 54] {
    std::array::from_fn(|i| if i < 52 { (i / 4) as Face } else { JOKER })
}

/// Notation of a face: `2`..`9`, `T`, `J`, `Q`, `K`, `A`, `W`.
pub fn face_char(f: Face) -> char {
    b"23456789TJQKAW"[f as usize] as char
}

/// Parses a deal of faces (`A 7 W 10 ...`; a suit after a rank is allowed and
/// ignored; separators optional) and checks it is one fishing deck.
pub fn parse_deal(text: &str) -> Result<Vec<Face>, DealError> {
    let mut faces = Vec::new();
    for word in text.split(|c: char| c.is_whitespace() || c == ',') {
        let mut rest = word;
        while !rest.is_empty() {
            let (face, used) = parse_face(rest)?;
            faces.push(face);
            rest = &rest[used..];
        }
    }
    let full = deck();
    if faces.len() != full.len() {
        return Err(DealError::Count {
            got: faces.len(),
            expected: full.len(),
        });
    }
    let mut counts = [0usize; FACES];
    faces.iter().for_each(|&f| counts[f as usize] += 1);
    // Name a face there is too much of before one that is missing: a user
    // who typed a fifth ace wants to hear about the aces.
    let expected = |f: u8| if f == JOKER { 2 } else { 4 };
    let too_many = (0..FACES as u8).find(|&f| counts[f as usize] > expected(f));
    let too_few = (0..FACES as u8).find(|&f| counts[f as usize] < expected(f));
    if let Some(f) = too_many.or(too_few) {
        return Err(DealError::Repeated {
            name: plural_name(f),
            got: counts[f as usize],
            expected: expected(f),
        });
    }
    Ok(faces)
}

/// The plural name of a face for messages: `aces (A)`, `7s`.
fn plural_name(f: Face) -> String {
    match f {
        JOKER => "jokers (W)".into(),
        12 => "aces (A)".into(),
        11 => "kings (K)".into(),
        10 => "queens (Q)".into(),
        9 => "jacks (J)".into(),
        8 => "tens (T)".into(),
        _ => format!("{}s", face_char(f)),
    }
}

fn parse_face(s: &str) -> Result<(Face, usize), DealError> {
    let bad = || DealError::BadToken(crate::text::quote(&s.chars().take(3).collect::<String>()));
    if let Some(len) = crate::cards::joker_prefix(s).filter(|&n| n > 1) {
        return Ok((JOKER, len));
    }
    let (face, mut used) = if s.starts_with("10") {
        (8, 2)
    } else {
        let c = s.chars().next().ok_or_else(bad)?;
        let face = match c.to_ascii_uppercase() {
            'W' | 'X' => JOKER,
            u => b"23456789TJQKA"
                .iter()
                .position(|&r| r as char == u)
                .ok_or_else(bad)? as Face,
        };
        (face, c.len_utf8())
    };
    // An optional suit after a rank (ignored: suits do not matter here).
    if face != JOKER {
        if let Some(c) = s[used..].chars().next() {
            if "shdcSHDC♠♥♦♣".contains(c) {
                used += c.len_utf8();
            }
        }
    }
    Ok((face, used))
}
