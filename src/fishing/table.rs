//! A deal in play, one card at a time: the piles (ring buffers), the row
//! with the index of where each face lies in it, and [`Table::step`], the
//! one rule of play.

use super::rules::{DealError, Face, Rules, FACES, JACK, MAX_CARDS, MAX_PLAYERS, NONE};

/// A pile: a ring buffer of faces, front = next card to play.
#[derive(Clone, Copy)]
pub(super) struct Pile {
    pub(super) buf: [Face; MAX_CARDS],
    pub(super) head: usize,
    pub(super) len: usize,
}

impl Pile {
    const EMPTY: Pile = Pile {
        buf: [0; MAX_CARDS],
        head: 0,
        len: 0,
    };

    #[inline]
    pub(super) fn pop_front(&mut self) -> Face {
        let f = self.buf[self.head];
        self.head = (self.head + 1) % MAX_CARDS;
        self.len -= 1;
        f
    }

    #[inline]
    pub(super) fn push_back(&mut self, f: Face) {
        self.buf[(self.head + self.len) % MAX_CARDS] = f;
        self.len += 1;
    }

    pub(super) fn iter(&self) -> impl Iterator<Item = Face> + '_ {
        (0..self.len).map(move |i| self.buf[(self.head + i) % MAX_CARDS])
    }
}

/// What one play did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The card stayed on the row; the turn passed.
    Placed,
    /// The mover captured `cards` cards (with a J if `jack`) and plays again.
    Captured { cards: u32, jack: bool },
    /// The game is over: `winner` holds all the remaining piles.
    Over { winner: usize },
}

/// The state of a deal in play: piles, row and the player to move.
#[derive(Clone)]
pub struct Table {
    pub(super) rules: Rules,
    pub(super) piles: [Pile; MAX_PLAYERS],
    pub(super) row: [Face; MAX_CARDS],
    pub(super) row_len: usize,
    /// Row position of each face, or `NONE`: the row never holds a face
    /// twice, because a second copy always captures.
    pub(super) pos: [u8; FACES],
    pub(super) mover: usize,
    pub(super) alive: usize,
}

impl Table {
    /// Deals `deal` (front of the deck first) into contiguous piles.
    pub fn new(deal: &[Face], rules: Rules) -> Result<Table, DealError> {
        let n = rules.players;
        if !(2..=MAX_PLAYERS).contains(&n) || n > deal.len() || deal.len() > MAX_CARDS {
            return Err(DealError::Players(n));
        }
        let mut piles = [Pile::EMPTY; MAX_PLAYERS];
        let (base, extra) = (deal.len() / n, deal.len() % n);
        let mut cards = deal.iter();
        for (p, pile) in piles.iter_mut().enumerate().take(n) {
            let size = base + usize::from(p < extra);
            cards.by_ref().take(size).for_each(|&f| pile.push_back(f));
        }
        Ok(Table {
            rules,
            piles,
            row: [0; MAX_CARDS],
            row_len: 0,
            pos: [NONE; FACES],
            mover: 0,
            alive: n,
        })
    }

    /// Plays the mover's front card.
    #[inline]
    pub fn step(&mut self) -> Step {
        let p = self.mover;
        let card = self.piles[p].pop_front();
        let jack_hook = card == JACK && (self.row_len > 0 || self.rules.jack_captures_empty_row);
        let from = if jack_hook {
            0
        } else {
            self.pos[card as usize] as usize
        };
        if from == NONE as usize {
            self.pos[card as usize] = self.row_len as u8;
            self.row[self.row_len] = card;
            self.row_len += 1;
            return self.pass_turn();
        }
        let cards = (self.row_len - from + 1) as u32;
        let pile = &mut self.piles[p];
        let taken = &self.row[from..self.row_len];
        if self.rules.reverse_captures {
            pile.push_back(card);
            taken.iter().rev().for_each(|&f| pile.push_back(f));
            for &f in taken {
                self.pos[f as usize] = NONE;
            }
        } else {
            // The default rules' capture, in one pass: each taken card to
            // the pile's tail and out of the row's index, the pile's length
            // stored once.
            let mut tail = pile.head + pile.len;
            for &f in taken {
                pile.buf[tail % MAX_CARDS] = f;
                tail += 1;
                self.pos[f as usize] = NONE;
            }
            pile.buf[tail % MAX_CARDS] = card;
            pile.len += cards as usize;
        }
        self.row_len = from;
        Step::Captured {
            cards,
            jack: jack_hook,
        }
    }

    /// After a card stayed on the row: the mover may be out; the turn passes
    /// to the next player who still has cards.
    #[inline]
    pub(super) fn pass_turn(&mut self) -> Step {
        let n = self.rules.players;
        if self.piles[self.mover].len == 0 {
            self.alive -= 1;
            if self.alive == 1 {
                let winner = (0..n).find(|&q| self.piles[q].len > 0).unwrap_or(0);
                return Step::Over { winner };
            }
        }
        loop {
            self.mover = (self.mover + 1) % n;
            if self.piles[self.mover].len > 0 {
                return Step::Placed;
            }
        }
    }

    pub fn mover(&self) -> usize {
        self.mover
    }

    pub fn pile_len(&self, p: usize) -> usize {
        self.piles[p].len
    }

    /// The pile of player `p`, front first.
    pub fn pile(&self, p: usize) -> Vec<Face> {
        self.piles[p].iter().collect()
    }

    pub fn row(&self) -> &[Face] {
        &self.row[..self.row_len]
    }

    /// A cheap fingerprint that equal states share (the mover, the row length
    /// and the first two pile lengths): full comparisons run only when it
    /// matches.
    #[inline]
    pub(super) fn quick_key(&self) -> u64 {
        (self.mover as u64)
            | (self.row_len as u64) << 8
            | (self.piles[0].len as u64) << 16
            | (self.piles[1].len as u64) << 24
    }

    /// The whole state as bytes (mover, then each pile and the row, each
    /// length-prefixed): equal encodings mean equal states.
    pub(super) fn encode(&self, out: &mut Vec<u8>) {
        out.clear();
        out.push(self.mover as u8);
        for pile in &self.piles[..self.rules.players] {
            out.push(pile.len as u8);
            out.extend(pile.iter());
        }
        out.push(self.row_len as u8);
        out.extend_from_slice(self.row());
    }

    pub(super) fn same_state(&self, other: &Table) -> bool {
        self.quick_key() == other.quick_key() && {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            self.encode(&mut a);
            other.encode(&mut b);
            a == b
        }
    }
}
