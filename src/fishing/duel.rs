//! The two-player engine: the default game (and the J-on-an-empty-row
//! switch) without the cycle check, for the unchecked phase of
//! [`super::play::play_checking_from`], where almost every game ends.
//!
//! It plays the same cards and counts the same [`Record`] as
//! [`super::Table::step`] (the tests compare them on many deals), with a
//! smaller step:
//! - the played card is always written at `row[len]`, and a face is on the
//!   row iff `p = pos[face]` satisfies `p < len && row[p] == face`. The row
//!   never holds a face twice (a second copy captures), so a face on the row
//!   at `q` has `pos[face] == q` (it was written when the face was placed,
//!   and only placing that face again writes it); and `row[p] == face` with
//!   `p < len` means the face is on the row. Captured faces therefore never
//!   need their `pos` cleared: the stale entries fail the test.
//! - a capture takes `row[from..=len]`, the taken cards followed by the
//!   played card, which is exactly the pile's new tail in the default
//!   (row) order: one fixed 16-byte copy (the row holds at most 14 faces, so
//!   a capture is at most 15 cards), written past the pile's tail into a
//!   linear buffer with slack. The bytes past the new tail are garbage that
//!   nothing reads.
//! - a pile is `buf[head..tail]`; when its tail nears the end of the buffer
//!   (a rare branch, every few dozen captures) the pile moves to the front.

use super::rules::{Face, Outcome, Record, FACES, JACK};
use super::table::Table;

/// Bytes a pile buffer holds: the largest pile (54 cards) plus room to grow
/// before it is moved back to the front.
const BUF: usize = 256;
/// Width of the capture copy: at least the longest capture (15 cards).
const WIN: usize = 16;
/// A pile whose tail passes this is moved to the front, so the next
/// capture's `WIN`-byte write stays inside the buffer.
const COMPACT_AT: usize = BUF - WIN;
/// Row buffer: a row of at most 15 cards (14 faces and the card being
/// played) plus a full `WIN` window from any start in it.
const ROW: usize = 32;
/// Entries of the position index: the faces rounded up to a power of two,
/// so masking a face to it is free.
const FACES_POW2: usize = FACES.next_power_of_two();

/// The state of a two-player deal in play.
struct Duel {
    piles: [[Face; BUF]; 2],
    head: [usize; 2],
    tail: [usize; 2],
    row: [Face; ROW],
    len: usize,
    /// The last row position each face was placed at (stale for faces no
    /// longer on the row; see the module notes).
    pos: [u8; FACES_POW2],
    mover: usize,
}

impl Duel {
    fn new(t: &Table) -> Duel {
        let mut piles = [[0; BUF]; 2];
        let mut tail = [0; 2];
        for (p, buf) in piles.iter_mut().enumerate() {
            for (slot, f) in buf.iter_mut().zip(t.piles[p].iter()) {
                *slot = f;
                tail[p] += 1;
            }
        }
        let mut row = [0; ROW];
        let mut pos = [0; FACES_POW2];
        for (i, &f) in t.row().iter().enumerate() {
            row[i] = f;
            pos[f as usize] = i as u8;
        }
        Duel {
            piles,
            head: [0; 2],
            tail,
            row,
            len: t.row_len,
            pos,
            mover: t.mover,
        }
    }
}

/// Whether [`play`] plays games under `rules`: two players, captures in row
/// order (the J-on-an-empty-row switch either way).
pub(super) fn covers(rules: super::Rules) -> bool {
    rules.players == 2 && !rules.reverse_captures
}

/// Plays the game of `start` (whose rules [`covers`]) until it ends, or
/// returns `None` at `stop` cards (at least one card is played).
pub(super) fn play(start: &Table, stop: u64) -> Option<Record> {
    if start.rules.jack_captures_empty_row {
        play_rules::<true>(start, stop)
    } else {
        play_rules::<false>(start, stop)
    }
}

/// How a run of [`turn`] stopped the game.
enum End {
    /// The mover played their last card without a capture.
    Won { winner: usize },
    /// `stop` cards were played.
    Stopped,
}

/// [`play`] with the J-on-an-empty-row switch as a constant: the players'
/// turns alternate, each one a [`turn`] specialised for its player (so no
/// state is swapped when the turn passes and each pile's bounds stay in
/// registers).
fn play_rules<const JACK_ON_EMPTY: bool>(start: &Table, stop: u64) -> Option<Record> {
    let mut rec = Record::at_start(start);
    let mut d = Duel::new(start);
    let mut counts = Counts {
        cards: 0,
        stop,
        jack_captures: 0,
        longest: 0,
        max_pile: rec.max_pile,
        captures: [0; 2],
    };
    let mut end = if d.mover == 1 {
        turn::<1, JACK_ON_EMPTY>(&mut d, &mut counts)
    } else {
        None
    };
    while end.is_none() {
        end = turn::<0, JACK_ON_EMPTY>(&mut d, &mut counts)
            .or_else(|| turn::<1, JACK_ON_EMPTY>(&mut d, &mut counts));
    }
    match end {
        Some(End::Won { winner }) => {
            rec.outcome = Outcome::Win { winner };
            rec.cards_played = counts.cards;
            rec.captures[..2].copy_from_slice(&counts.captures);
            rec.jack_captures = counts.jack_captures;
            rec.longest_capture = counts.longest;
            rec.max_pile = counts.max_pile;
            Some(rec)
        }
        _ => None,
    }
}

/// The running counts of [`play_rules`], and where it stops.
struct Counts {
    cards: u64,
    stop: u64,
    jack_captures: u32,
    longest: u32,
    max_pile: u32,
    captures: [u32; 2],
}

/// Player `M` plays until a card stays on the row (the turn passes: `None`)
/// or the game ends or reaches its stop.
#[inline(always)]
fn turn<const M: usize, const JACK_ON_EMPTY: bool>(d: &mut Duel, c: &mut Counts) -> Option<End> {
    // Indices are masked to their buffers (no-ops by the invariants
    // head < tail <= COMPACT_AT + WIN, len <= 14, pos <= 14) so the compiler
    // drops the bounds checks.
    let (mut head, mut tail, mut len) = (d.head[M], d.tail[M], d.len);
    let end = loop {
        let card = d.piles[M][head % BUF];
        head += 1;
        c.cards += 1;
        d.row[len % WIN] = card;
        let face = usize::from(card) % FACES_POW2;
        let p = usize::from(d.pos[face]);
        d.pos[face] = len as u8;
        // One branch for the decision: the tests are combined with `&` and
        // `|`, which do not branch (the row load is safe either way).
        let hook = (card == JACK) & (JACK_ON_EMPTY | (len > 0));
        if hook | ((p < len) & (d.row[p % WIN] == card)) {
            let from = if hook { 0 } else { p } % WIN;
            let taken = len - from + 1;
            let at = tail.min(COMPACT_AT);
            let window: &[Face; WIN] = (&d.row[from..from + WIN]).try_into().expect("WIN bytes");
            d.piles[M][at..at + WIN].copy_from_slice(window);
            tail = at + taken;
            len = from;
            c.captures[M] += 1;
            c.jack_captures += u32::from(hook);
            c.longest = c.longest.max(taken as u32);
            c.max_pile = c.max_pile.max((tail - head) as u32);
            if tail > COMPACT_AT {
                d.piles[M].copy_within(head..tail, 0);
                (head, tail) = (0, tail - head);
            }
            if c.cards >= c.stop {
                break Some(End::Stopped);
            }
        } else {
            len += 1;
            if head == tail {
                break Some(End::Won { winner: M ^ 1 });
            }
            if c.cards >= c.stop {
                break Some(End::Stopped);
            }
            break None;
        }
    };
    (d.head[M], d.tail[M], d.len) = (head, tail, len);
    end
}

#[cfg(test)]
mod tests {
    use super::super::play::play_checked;
    use super::super::{reference, FishingGame, Rules, DEFAULT_CARD_LIMIT};
    use super::*;

    fn jack_on_empty() -> Rules {
        Rules {
            jack_captures_empty_row: true,
            ..Rules::default()
        }
    }

    #[test]
    fn gives_the_checked_engine_record_on_random_deals() {
        // Every default-rules deal ends, so the two must agree field for
        // field, and with the slow reference on the outcome and the cards.
        let game = FishingGame::new(Rules::default());
        let mut longest = 0;
        for i in 0..3_000 {
            let deal = game.deal_of(5, i);
            let t = Table::new(&deal, Rules::default()).unwrap();
            let fast = play(&t, u64::MAX).expect("a default game ends");
            assert_eq!(fast, play_checked(t, DEFAULT_CARD_LIMIT), "deal {i}");
            if i < 300 {
                let (outcome, played) = reference::play(&deal, Rules::default());
                assert_eq!((fast.outcome, fast.cards_played), (outcome, played));
            }
            longest = longest.max(fast.cards_played);
        }
        // Long games move each pile to the front of its buffer many times.
        assert!(longest > 5 * BUF as u64, "longest game {longest} cards");
    }

    #[test]
    fn stops_where_the_checked_engine_has_not_ended() {
        // Under the J-on-an-empty-row switch many games cycle or run on:
        // the fast engine must give the checked record for every game that
        // ends by `stop` and hand back (None) every other one.
        let rules = jack_on_empty();
        let game = FishingGame::new(rules);
        let stop = 5_000;
        let (mut ended, mut handed_back) = (0, 0);
        for i in 0..400 {
            let t = Table::new(&game.deal_of(11, i), rules).unwrap();
            let checked = play_checked(t.clone(), stop);
            match play(&t, stop) {
                Some(fast) => {
                    assert_eq!(fast, checked, "deal {i}");
                    ended += 1;
                }
                None => {
                    let won_in_time = matches!(checked.outcome, Outcome::Win { .. })
                        && checked.cards_played <= stop;
                    assert!(!won_in_time, "deal {i}: {checked:?}");
                    handed_back += 1;
                }
            }
        }
        assert!(
            ended > 10 && handed_back > 10,
            "{ended} ended, {handed_back} handed back"
        );
    }

    #[test]
    fn a_stop_at_the_last_card_still_reports_the_win() {
        // A game that ends on card `stop` is a win, not handed back: the end
        // is checked before the stop, as the general engine does.
        let deal = FishingGame::new(Rules::default()).deal_of(5, 0);
        let t = Table::new(&deal, Rules::default()).unwrap();
        let full = play(&t, u64::MAX).unwrap();
        assert_eq!(play(&t, full.cards_played), Some(full.clone()));
        assert_eq!(play(&t, full.cards_played - 1), None);
        assert_eq!(play(&t, 0), None, "at least one card is played");
    }
}
