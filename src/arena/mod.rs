//! The match runner library: engine processes, game loop, openings, adjudication, statistics, records.
