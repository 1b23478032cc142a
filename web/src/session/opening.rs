//! The Swap2 opening between the person and the engine, step by step. The first player
//! places three stones (two Black, one White); the second player takes Black (`SWAP`), takes
//! White by playing the fourth stone, or places two more stones and lets the first player
//! choose. The engine's decisions come from `SWAP2BOARD`.

use pentad::core::Color;

/// Where the opening stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swap2 {
    /// The person opens: they place stones 1 to 3.
    PersonPlaces3,
    /// The engine, second player, decides on the person's three stones.
    EngineDecides3,
    /// The engine placed stones 4 and 5: the person takes a colour.
    PersonChooses5,
    /// The engine opens: it places three stones.
    EngineOpens,
    /// The person, second player, decides on the engine's three stones.
    PersonChooses3,
    /// The person places stones 4 and 5.
    PersonPlaces2,
    /// The engine, first player, takes a colour after the person's two extra stones.
    EngineDecides5,
}

/// A decision's effect: the person's colour (if now decided) and the next step (none when
/// the opening is over and play goes on normally).
pub type Decision = (Option<Color>, Option<Swap2>);

impl Swap2 {
    /// The first step: the person opens, or the engine does.
    pub fn start(person_opens: bool) -> Swap2 {
        if person_opens {
            Swap2::PersonPlaces3
        } else {
            Swap2::EngineOpens
        }
    }

    /// May the person place a stone now?
    pub fn person_places(self) -> bool {
        matches!(self, Swap2::PersonPlaces3 | Swap2::PersonPlaces2)
    }

    /// Does the engine decide now (a `SWAP2BOARD` job)?
    pub fn engine_decides(self) -> bool {
        matches!(
            self,
            Swap2::EngineOpens | Swap2::EngineDecides3 | Swap2::EngineDecides5
        )
    }

    /// The step after the person placed a stone, `stones` being on the board now.
    pub fn after_placed(self, stones: usize) -> Option<Swap2> {
        Some(match (self, stones) {
            (Swap2::PersonPlaces3, 3) => Swap2::EngineDecides3,
            (Swap2::PersonPlaces2, 5) => Swap2::EngineDecides5,
            (s, _) => s,
        })
    }

    /// The engine answered `SWAP`: it takes Black; the person plays White.
    pub fn engine_swapped(self) -> Result<(Color, Option<Swap2>), String> {
        match self {
            Swap2::EngineDecides3 | Swap2::EngineDecides5 => Ok((Color::White, None)),
            _ => Err("SWAP is no answer to an empty board".into()),
        }
    }

    /// The engine answered `count` stones with `stones` on the board before them.
    pub fn engine_placed(self, stones: usize, count: usize) -> Result<Decision, String> {
        match (self, stones, count) {
            (Swap2::EngineOpens, 0, 3) => Ok((None, Some(Swap2::PersonChooses3))),
            // One stone: the engine took White and played it; the person is Black.
            (Swap2::EngineDecides3, 3, 1) | (Swap2::EngineDecides5, 5, 1) => {
                Ok((Some(Color::Black), None))
            }
            (Swap2::EngineDecides3, 3, 2) => Ok((None, Some(Swap2::PersonChooses5))),
            _ => Err(format!(
                "{count} stone(s) is not a Swap2 answer with {stones} on the board"
            )),
        }
    }

    /// The person's choice: `black`, `white`, or (after three stones) `more`.
    pub fn choose(self, choice: &str, _stones: usize) -> Result<Decision, String> {
        match (self, choice) {
            (Swap2::PersonChooses3 | Swap2::PersonChooses5, "black") => {
                Ok((Some(Color::Black), None))
            }
            (Swap2::PersonChooses3 | Swap2::PersonChooses5, "white") => {
                Ok((Some(Color::White), None))
            }
            (Swap2::PersonChooses3, "more") => Ok((None, Some(Swap2::PersonPlaces2))),
            _ => Err(format!("{choice:?} is not a choice now")),
        }
    }

    /// The step's short name for the page.
    pub fn step_name(self) -> &'static str {
        match self {
            Swap2::PersonPlaces3 => "place3",
            Swap2::PersonPlaces2 => "place2",
            Swap2::PersonChooses3 => "choose3",
            Swap2::PersonChooses5 => "choose5",
            Swap2::EngineOpens | Swap2::EngineDecides3 | Swap2::EngineDecides5 => "engine",
        }
    }

    /// What the status line asks of the person.
    pub fn prompt(self) -> &'static str {
        match self {
            Swap2::PersonPlaces3 => "Swap2: place three stones (Black, White, Black)",
            Swap2::PersonPlaces2 => "Swap2: place two more stones (White, Black)",
            Swap2::PersonChooses3 => "Swap2: take Black, take White, or place two more stones",
            Swap2::PersonChooses5 => "Swap2: take Black or White",
            Swap2::EngineOpens | Swap2::EngineDecides3 | Swap2::EngineDecides5 => {
                "Swap2: the engine is deciding…"
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn person_opens_and_engine_adds_two() {
        let s = Swap2::start(true);
        assert!(s.person_places() && !s.engine_decides());
        assert_eq!(s.after_placed(2), Some(Swap2::PersonPlaces3));
        let s = s.after_placed(3).unwrap();
        assert!(s.engine_decides());
        let (h, next) = s.engine_placed(3, 2).unwrap();
        assert_eq!((h, next), (None, Some(Swap2::PersonChooses5)));
        assert!(next.unwrap().choose("more", 5).is_err());
        assert_eq!(
            next.unwrap().choose("white", 5),
            Ok((Some(Color::White), None))
        );
        assert_eq!(s.engine_swapped(), Ok((Color::White, None)));
    }

    #[test]
    fn engine_opens_and_person_adds_two() {
        let s = Swap2::start(false);
        assert!(s.engine_swapped().is_err());
        assert!(s.engine_placed(0, 2).is_err());
        let (_, next) = s.engine_placed(0, 3).unwrap();
        let (_, next) = next.unwrap().choose("more", 3).unwrap();
        let s = next.unwrap().after_placed(5).unwrap();
        assert_eq!(s, Swap2::EngineDecides5);
        assert_eq!(s.engine_placed(5, 1), Ok((Some(Color::Black), None)));
    }
}
