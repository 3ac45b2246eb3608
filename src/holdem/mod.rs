//! Texas hold'em: evaluator, equity, table engine, agents, hand histories.
