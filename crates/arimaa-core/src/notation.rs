//! Text at the edge: AEI board strings, steps, capture tokens, moves and setups.

use crate::bitboard::Bitboard;
use crate::error::{MoveError, PositionError, SetupError};
use crate::piece::{Color, Kind, Piece};
use crate::position::{Pending, Position};
use crate::square::{Direction, Square};
use crate::step::{Move, Step, StepList};

/// Parses an AEI position, `g [64 chars]` (also `s`, `w`, `b`): the text after `setposition `.
/// The board runs from a8 to h8, then down to rank 1; a space is an empty square.
pub fn parse_position(text: &str) -> Result<Position, PositionError> {
    let open = text.find('[').ok_or(PositionError::MissingBrackets)?;
    let close = text
        .rfind(']')
        .filter(|&c| c > open)
        .ok_or(PositionError::MissingBrackets)?;
    let side_text = text[..open].trim();
    let mut chars = side_text.chars();
    let side = match (chars.next(), chars.next()) {
        (Some(c), None) => Color::from_letter(c).ok_or_else(|| PositionError::BadSide(side_text.to_string()))?,
        _ => return Err(PositionError::BadSide(side_text.to_string())),
    };
    if !text[close + 1..].trim().is_empty() {
        return Err(PositionError::MissingBrackets);
    }
    let board: Vec<char> = text[open + 1..close].chars().collect();
    if board.len() != 64 {
        return Err(PositionError::WrongLength(board.len()));
    }
    let mut pos = Position::empty(side);
    for (i, &ch) in board.iter().enumerate() {
        let square = Square::new((i % 8) as u8, 7 - (i / 8) as u8);
        if ch == ' ' || ch == '.' {
            continue;
        }
        let piece = Piece::from_letter(ch).ok_or(PositionError::BadChar { ch, square })?;
        pos.put(piece, square);
    }
    validate_board(&pos)?;
    Ok(pos)
}

/// Checks what any position reachable in a game satisfies: piece counts, no unguarded trap piece.
pub fn validate_board(pos: &Position) -> Result<(), PositionError> {
    for color in Color::ALL {
        for kind in Kind::ALL {
            let piece = Piece::new(color, kind);
            let count = pos.count(piece);
            if count > kind.count_at_start() {
                return Err(PositionError::TooMany { piece, count });
            }
        }
        let own = pos.color_bb(color);
        if let Some(square) = (Bitboard::TRAPS & own & !own.neighbors()).first() {
            let piece = pos.piece_at(square).unwrap_or(Piece::new(color, Kind::Rabbit));
            return Err(PositionError::UnguardedTrap { piece, square });
        }
    }
    Ok(())
}

/// The board as AEI's 64 characters in brackets: `[rrrrrrrr...RRRRRRRR]`.
#[must_use]
pub fn board_to_aei(pos: &Position) -> String {
    let mut s = String::with_capacity(66);
    s.push('[');
    for rank in (0..8).rev() {
        for file in 0..8 {
            s.push(pos.piece_at(Square::new(file, rank)).map_or(' ', Piece::letter));
        }
    }
    s.push(']');
    s
}

/// The position as AEI writes it after `setposition `: side letter, space, board.
#[must_use]
pub fn position_to_aei(pos: &Position) -> String {
    format!("{} {}", pos.side().letter(), board_to_aei(pos))
}

/// A board diagram for people: ranks 8 to 1, traps marked `x`, empty squares `.`.
#[must_use]
pub fn board_diagram(pos: &Position) -> String {
    let mut s = String::from(" +-----------------+\n");
    for rank in (0..8).rev() {
        s.push_str(&format!("{}|", rank + 1));
        for file in 0..8 {
            let sq = Square::new(file, rank);
            let c = match pos.piece_at(sq) {
                Some(p) => p.letter(),
                None if Bitboard::TRAPS.has(sq) => 'x',
                None => '.',
            };
            s.push(' ');
            s.push(c);
        }
        s.push_str(" |\n");
    }
    s.push_str(" +-----------------+\n   a b c d e f g h\n");
    s
}

/// A step token (`Ed2n`), or `None` when the token is not of that form.
#[must_use]
pub fn parse_step_token(token: &str) -> Option<Step> {
    let mut chars = token.chars();
    let piece = Piece::from_letter(chars.next()?)?;
    let square = Square::parse(token.get(1..3)?)?;
    chars.next();
    chars.next();
    let dir = Direction::from_letter(chars.next()?)?;
    if chars.next().is_some() {
        return None;
    }
    square.step(dir)?;
    Some(Step::new(piece, square, dir))
}

/// A capture token (`rc3x`): the piece and the trap, or `None` when not of that form.
#[must_use]
pub fn parse_capture_token(token: &str) -> Option<(Piece, Square)> {
    if token.len() != 4 || !token.ends_with('x') {
        return None;
    }
    let piece = Piece::from_letter(token.chars().next()?)?;
    let square = Square::parse(token.get(1..3)?)?;
    Bitboard::TRAPS.has(square).then_some((piece, square))
}

/// The capture token for `piece` taken on `square`.
#[must_use]
pub fn capture_token(piece: Piece, square: Square) -> String {
    format!("{piece}{square}x")
}

/// Parses the steps of one turn from `pos` (normally at the start of a turn),
/// strictly: the piece letters must match the board, every step must be legal,
/// capture tokens (optional) must name the real capture, and the move must end
/// outside a push and change the board. Returns the steps and the position
/// after them (the turn not yet ended).
pub fn parse_move(pos: &Position, text: &str) -> Result<(Move, Position), MoveError> {
    let mut cur = *pos;
    let mut mv = Move::new();
    let mut last_capture: Option<Option<(Piece, Square)>> = None;
    let mut last_token = String::new();
    for token in text.split_whitespace() {
        if token.len() == 4 && token.ends_with('x') {
            let Some(claimed) = parse_capture_token(token) else {
                return Err(MoveError::BadToken(token.to_string()));
            };
            // A capture token must follow a step, once, and name what it took.
            match last_capture.take() {
                Some(Some(actual)) if actual == claimed => continue,
                Some(actual) => {
                    let actual = actual.map(|(p, s)| capture_token(p, s));
                    return Err(MoveError::WrongCapture {
                        token: token.to_string(),
                        actual,
                    });
                }
                None => {
                    return Err(MoveError::WrongCapture {
                        token: token.to_string(),
                        actual: None,
                    })
                }
            }
        }
        let step = parse_step_token(token).ok_or_else(|| MoveError::BadToken(token.to_string()))?;
        last_capture = Some(play_checked(&mut cur, step, || token.to_string())?);
        mv.push(step);
        last_token = token.to_string();
    }
    check_end(&cur, mv.is_empty(), last_token)?;
    Ok((mv, cur))
}

/// Checks the steps of a turn given as values (a `Move` built by a search or
/// a test) exactly as [`parse_move`] checks text, without writing them out:
/// error messages name the step as its token. Returns the position after
/// them (the turn not yet ended).
pub fn check_move(pos: &Position, mv: &Move) -> Result<Position, MoveError> {
    let mut cur = *pos;
    let mut last = None;
    for step in mv.iter() {
        play_checked(&mut cur, step, || step.to_string())?;
        last = Some(step);
    }
    check_end(&cur, last.is_none(), last.map(|s| s.to_string()).unwrap_or_default())?;
    Ok(cur)
}

/// Plays `step` on `cur` if it is legal there; returns what it captured.
/// `token` names the step in an error (built only then).
fn play_checked(
    cur: &mut Position,
    step: Step,
    token: impl Fn() -> String,
) -> Result<Option<(Piece, Square)>, MoveError> {
    if cur.steps_left() == 0 {
        return Err(MoveError::TooManySteps(token()));
    }
    check_step(cur, step, &token)?;
    Ok(cur.make_step(step).captured())
}

/// The checks at the end of a turn's steps: some steps, no push half done,
/// the board changed. `last_token` is the last step's text.
fn check_end(cur: &Position, empty: bool, last_token: String) -> Result<(), MoveError> {
    if empty {
        return Err(MoveError::Empty);
    }
    if matches!(cur.pending(), Pending::Push { .. }) {
        return Err(MoveError::UnfinishedPush(last_token));
    }
    if !cur.can_end_turn() {
        return Err(MoveError::NoChange);
    }
    Ok(())
}

/// Accepts `step` if legal in `pos`; otherwise says which rule it breaks.
fn check_step(pos: &Position, step: Step, token: &impl Fn() -> String) -> Result<(), MoveError> {
    let found = pos.piece_at(step.from()).ok_or_else(|| MoveError::NoPiece(token()))?;
    if found != step.piece() {
        return Err(MoveError::WrongPiece { token: token(), found });
    }
    let mut legal = StepList::new();
    pos.legal_steps(&mut legal);
    if legal.contains(step) {
        return Ok(());
    }
    let illegal = |why: String| Err(MoveError::Illegal { token: token(), why });
    if pos.occupied().has(step.to()) {
        return illegal(format!("{} is occupied", step.to()));
    }
    if let Pending::Push { to, .. } = pos.pending() {
        return illegal(format!(
            "the push must first be completed by a stronger piece stepping into {to}"
        ));
    }
    let us = pos.side();
    if found.color == us {
        if pos.frozen(us).has(step.from()) {
            return illegal("the piece is frozen".to_string());
        }
        return illegal("rabbits cannot step backwards".to_string());
    }
    if pos.steps_left() < 2 {
        return illegal("a push cannot start on the last step and no pull is possible".to_string());
    }
    illegal("no unfrozen stronger piece of the side to move can push or pull it".to_string())
}

/// Writes the steps of a turn played from `pos`, with a capture token after
/// each step that captures.
#[must_use]
pub fn format_move(pos: &Position, mv: &Move) -> String {
    let mut cur = *pos;
    let mut parts = Vec::with_capacity(6);
    for step in mv.iter() {
        parts.push(step.to_string());
        if let Some((p, s)) = cur.make_step(step).captured() {
            parts.push(capture_token(p, s));
        }
    }
    parts.join(" ")
}

/// Parses a setup for `color`: 16 tokens like `Ra1`, exactly E M H H D D C C and
/// eight rabbits of that colour, on its two home ranks, each square once.
pub fn parse_setup(color: Color, text: &str) -> Result<Vec<(Piece, Square)>, SetupError> {
    let mut placed = Vec::with_capacity(16);
    let mut used = Bitboard::EMPTY;
    for token in text.split_whitespace() {
        let bad = || SetupError::BadToken(token.to_string());
        let mut chars = token.chars();
        let piece = chars.next().and_then(Piece::from_letter).ok_or_else(bad)?;
        let square = token.get(1..).and_then(Square::parse).ok_or_else(bad)?;
        place(color, piece, square, &mut used, || token.to_string())?;
        placed.push((piece, square));
    }
    check_counts(color, &placed)?;
    Ok(placed)
}

/// Checks a setup given as values exactly as [`parse_setup`] checks text,
/// without writing it out: error messages name a piece as its token.
pub fn check_setup(color: Color, placed: &[(Piece, Square)]) -> Result<(), SetupError> {
    let mut used = Bitboard::EMPTY;
    for &(piece, square) in placed {
        place(color, piece, square, &mut used, || format!("{piece}{square}"))?;
    }
    check_counts(color, placed)
}

/// One piece of `color`'s setup: its colour, rank and square checked against
/// the squares `used` so far, which it then joins.
fn place(
    color: Color,
    piece: Piece,
    square: Square,
    used: &mut Bitboard,
    token: impl Fn() -> String,
) -> Result<(), SetupError> {
    let home = match color {
        Color::Gold => Bitboard::RANK_1 | Bitboard::RANK_2,
        Color::Silver => Bitboard::RANK_7 | Bitboard::RANK_8,
    };
    if piece.color != color {
        return Err(SetupError::WrongColor(token()));
    }
    if !home.has(square) {
        return Err(SetupError::WrongRank(token()));
    }
    if used.has(square) {
        return Err(SetupError::Duplicate(token()));
    }
    *used |= Bitboard::from_square(square);
    Ok(())
}

/// Exactly the pieces a side starts with.
fn check_counts(color: Color, placed: &[(Piece, Square)]) -> Result<(), SetupError> {
    for kind in Kind::ALL {
        let count = placed.iter().filter(|(p, _)| p.kind == kind).count() as u32;
        if count != kind.count_at_start() {
            return Err(SetupError::WrongCount {
                piece: Piece::new(color, kind),
                count,
            });
        }
    }
    Ok(())
}

/// Writes a setup, strongest pieces first, then by square.
#[must_use]
pub fn format_setup(placed: &[(Piece, Square)]) -> String {
    let mut v = placed.to_vec();
    v.sort_by_key(|(p, s)| (std::cmp::Reverse(p.kind), *s));
    v.iter().map(|(p, s)| format!("{p}{s}")).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "g [rrrrrrrrhdcmecdh                                HDCMECDHRRRRRRRR]";

    #[test]
    fn standard_board_round_trips() {
        let p = parse_position(START).unwrap();
        assert!(p.same_board(&Position::standard()));
        assert_eq!(position_to_aei(&p), START);
        let w = parse_position("w [rrrrrrrrhdcmecdh                                HDCMECDHRRRRRRRR]").unwrap();
        assert_eq!(w.side(), Color::Gold);
        assert_eq!(
            parse_position("b [rrrrrrrrhdcmecdh                                HDCMECDHRRRRRRRR]")
                .unwrap()
                .side(),
            Color::Silver
        );
    }

    #[test]
    fn broken_boards_are_refused_with_a_reason() {
        assert_eq!(parse_position("g rrrr"), Err(PositionError::MissingBrackets));
        assert_eq!(parse_position("x [ ]").unwrap_err(), PositionError::BadSide("x".into()));
        assert_eq!(parse_position("g [   ]"), Err(PositionError::WrongLength(3)));
        let bad = format!("g [{}Z{}]", " ".repeat(10), " ".repeat(53));
        assert!(matches!(
            parse_position(&bad),
            Err(PositionError::BadChar { ch: 'Z', .. })
        ));
        let two_e = format!("g [EE{}]", " ".repeat(62));
        assert!(matches!(
            parse_position(&two_e),
            Err(PositionError::TooMany { count: 2, .. })
        ));
        // A lone rabbit on c3 (rank 3 is the 6th row of the string).
        let trap = format!("g [{}R{}]", " ".repeat(42), " ".repeat(21));
        let err = parse_position(&trap).unwrap_err();
        assert!(err.to_string().contains("c3"), "{err}");
    }

    #[test]
    fn step_tokens() {
        assert_eq!(parse_step_token("Ed2n").unwrap().to_string(), "Ed2n");
        assert!(parse_step_token("Ed8n").is_none(), "off the board");
        assert!(parse_step_token("Xd2n").is_none());
        assert!(parse_step_token("Ed2").is_none());
        assert!(parse_step_token("Ed2nn").is_none());
        assert_eq!(
            parse_capture_token("rc3x"),
            Some((Piece::from_letter('r').unwrap(), Square::parse("c3").unwrap()))
        );
        assert_eq!(parse_capture_token("rd3x"), None, "d3 is not a trap");
    }

    #[test]
    fn setup_validation() {
        let gold = "Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2";
        let placed = parse_setup(Color::Gold, gold).unwrap();
        assert_eq!(placed.len(), 16);
        assert!(matches!(
            parse_setup(Color::Silver, gold),
            Err(SetupError::WrongColor(_))
        ));
        let dup = gold.replace("Rb1", "Ra1");
        assert!(matches!(parse_setup(Color::Gold, &dup), Err(SetupError::Duplicate(_))));
        let high = gold.replace("Rb1", "Rb3");
        assert!(matches!(parse_setup(Color::Gold, &high), Err(SetupError::WrongRank(_))));
        let two_e = gold.replace("Md2", "Ed2");
        assert!(matches!(
            parse_setup(Color::Gold, &two_e),
            Err(SetupError::WrongCount { .. })
        ));
        let short = gold.replace(" Hh2", "");
        assert!(matches!(
            parse_setup(Color::Gold, &short),
            Err(SetupError::WrongCount { count: 1, .. })
        ));
        assert!(matches!(
            parse_setup(Color::Gold, "Ra1 Zb1"),
            Err(SetupError::BadToken(_))
        ));
        let again = parse_setup(Color::Gold, &format_setup(&placed)).unwrap();
        assert_eq!(format_setup(&again), format_setup(&placed));
    }
}
