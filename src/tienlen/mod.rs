//! Tiến lên (Cambodian rules by default): combinations, beats, moves, games, agents.
