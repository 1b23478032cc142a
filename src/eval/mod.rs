//! Evaluation read off the board's incremental pattern state; weights in one place.
