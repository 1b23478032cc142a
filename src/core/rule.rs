//! Game rules: which fives win, renju's forbidden points for Black, continuous games.

/// The family of rule: what makes a win and whether Black has forbidden points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleKind {
    /// Five or overline wins, for both sides (INFO rule 0).
    Freestyle,
    /// Only exactly five wins, for both sides (INFO rule 1).
    Standard,
    /// White: five or overline; Black: exactly five, with overline/4-4/3-3 forbidden (rule 4, or 2).
    Renju,
    /// Five wins unless both ends are blocked by opponent stones; overline wins (rule 8).
    Caro,
    /// As caro, and an overline is no win either (rule 9).
    Caro5,
}

/// A complete rule setting: the rule family and the continuous-game flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rule {
    pub kind: RuleKind,
    /// Continuous game (bit 2): the game goes on after a five; BOARD may hold walls.
    pub continuous: bool,
}

impl Rule {
    pub const FREESTYLE: Rule = Rule::plain(RuleKind::Freestyle);
    pub const STANDARD: Rule = Rule::plain(RuleKind::Standard);
    pub const RENJU: Rule = Rule::plain(RuleKind::Renju);
    pub const CARO: Rule = Rule::plain(RuleKind::Caro);
    pub const CARO5: Rule = Rule::plain(RuleKind::Caro5);

    /// The rule with no continuous flag.
    pub const fn plain(kind: RuleKind) -> Rule {
        Rule {
            kind,
            continuous: false,
        }
    }

    /// Decodes the protocol's `INFO rule` bit field: bit 1 exact five, bit 2 continuous,
    /// bit 4 renju, bit 8 caro. `2` alone means renju (as Yixin-Board sends it).
    /// Returns `None` for negative values or values with unknown bits.
    pub fn from_info(v: i64) -> Option<Rule> {
        if !(0..16).contains(&v) {
            return None;
        }
        if v == 2 {
            return Some(Rule::RENJU);
        }
        let exact = v & 1 != 0;
        let continuous = v & 2 != 0;
        let kind = if v & 4 != 0 {
            RuleKind::Renju
        } else if v & 8 != 0 {
            if exact {
                RuleKind::Caro5
            } else {
                RuleKind::Caro
            }
        } else if exact {
            RuleKind::Standard
        } else {
            RuleKind::Freestyle
        };
        Some(Rule { kind, continuous })
    }

    /// The protocol number for this rule (inverse of [`Rule::from_info`], renju as 4).
    pub fn to_info(self) -> i64 {
        let base = match self.kind {
            RuleKind::Freestyle => 0,
            RuleKind::Standard => 1,
            RuleKind::Renju => 4,
            RuleKind::Caro => 8,
            RuleKind::Caro5 => 9,
        };
        base | if self.continuous { 2 } else { 0 }
    }

    /// True when Black has forbidden points.
    #[inline]
    pub fn is_renju(self) -> bool {
        self.kind == RuleKind::Renju
    }

    /// Parses a rule name as the arena's command line takes it: `freestyle`, `standard`,
    /// `renju`, `caro`, `caro5`, or a protocol number.
    pub fn from_name(s: &str) -> Option<Rule> {
        match s.to_ascii_lowercase().as_str() {
            "freestyle" | "gomoku" => Some(Rule::FREESTYLE),
            "standard" | "exact" => Some(Rule::STANDARD),
            "renju" => Some(Rule::RENJU),
            "caro" => Some(Rule::CARO),
            "caro5" => Some(Rule::CARO5),
            other => other.parse::<i64>().ok().and_then(Rule::from_info),
        }
    }

    /// A short lower-case name (`freestyle`, `standard`, `renju`, `caro`, `caro5`).
    pub fn name(self) -> &'static str {
        match self.kind {
            RuleKind::Freestyle => "freestyle",
            RuleKind::Standard => "standard",
            RuleKind::Renju => "renju",
            RuleKind::Caro => "caro",
            RuleKind::Caro5 => "caro5",
        }
    }
}

impl Default for Rule {
    fn default() -> Rule {
        Rule::FREESTYLE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_protocol_numbers() {
        assert_eq!(Rule::from_info(0), Some(Rule::FREESTYLE));
        assert_eq!(Rule::from_info(1), Some(Rule::STANDARD));
        assert_eq!(Rule::from_info(2), Some(Rule::RENJU));
        assert_eq!(Rule::from_info(4), Some(Rule::RENJU));
        assert_eq!(Rule::from_info(8), Some(Rule::CARO));
        assert_eq!(Rule::from_info(9), Some(Rule::CARO5));
        let c = Rule::from_info(3).unwrap();
        assert_eq!(c.kind, RuleKind::Standard);
        assert!(c.continuous);
        assert_eq!(Rule::from_info(-1), None);
        assert_eq!(Rule::from_info(16), None);
        for v in [0, 1, 4, 8, 9, 3, 6] {
            assert_eq!(
                Rule::from_info(Rule::from_info(v).unwrap().to_info()),
                Rule::from_info(v)
            );
        }
    }

    #[test]
    fn parses_names() {
        assert_eq!(Rule::from_name("Renju"), Some(Rule::RENJU));
        assert_eq!(Rule::from_name("9"), Some(Rule::CARO5));
        assert_eq!(Rule::from_name("nonsense"), None);
    }
}
