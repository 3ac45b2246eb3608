//! The two-player shedding endgame solver.
