//! Tiến lên (Cambodian rules by default; RULES.md §3): card strength and
//! combinations ([`rules`]), legal plays and hints ([`moves`]), the game
//! among agents ([`game`], [`agents`]) and the runner game ([`sim`]).

pub mod agents;
pub mod game;
pub mod moves;
pub mod rules;
pub mod sim;

pub use agents::{Agent, AgentKind, View};
pub use moves::{hints, legal_plays, reference_plays};
pub use rules::{beats, classify, is_chop, Combo, Kind, RuleSet};
