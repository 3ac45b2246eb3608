//! Joining shard outputs.
