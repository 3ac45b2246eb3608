//! The slow, obviously correct twin of variant equity, for tests: every
//! deal and every board, each hand ranked by the reference evaluators, in
//! floating point (the sums are hold'em's twin's,
//! [`crate::holdem::equity::reference`]).

use super::VariantPrepared;
use crate::cards::CardSet;
use crate::holdem::equity::reference::Showdowns;
use crate::holdem::equity::types::PlayerEquity;

/// Every deal of the lists and every board, the reference evaluators on
/// each hand. For small cases.
pub fn reference_exact(p: &VariantPrepared) -> Vec<PlayerEquity> {
    let lists = p.lists();
    let mut sums = Showdowns::new(p.players());
    VariantPrepared::each_deal(&lists, 0..lists[0].len(), p.used.0, &mut |deal, w| {
        let taken = deal.iter().fold(p.used.0, |m, h| m | h.mask);
        let deck = p.game.deck().difference(CardSet(taken)).to_vec();
        sums.deal(w, &deck, 5 - p.board.len(), |extra| {
            let mut board = p.board.clone();
            board.extend_from_slice(extra);
            deal.iter()
                .map(|h| p.game.reference_strength(h.cards(), &board))
                .collect()
        });
    });
    sums.equities()
}
