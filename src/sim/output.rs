//! Output files.
