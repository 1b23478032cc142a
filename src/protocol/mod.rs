//! The Gomocup protocol: typed command parsing and the session state machine (the only text I/O).
