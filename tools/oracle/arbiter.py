"""The rules oracle: pyrimaa (PyPI package `aei`) wrapped for the project's tools.

Everything here judges positions and moves with pyrimaa's own step generator
(`Position.get_steps`, `get_moves`, `check_step`, `do_step`), so that the data
the Rust tests compare against and the verdicts of the tools come from an
implementation independent of ours. What is added on top:

* a strict move check: pyrimaa's `do_move_str` ignores piece letters and
  capture tokens and accepts a turn that stops in the middle of a push;
* a goal search for the side to move that prunes by rabbit distance, so that
  "can this side reach goal this turn?" costs far less than `get_moves`; it
  only ever walks pyrimaa steps, and `goal_search_agrees` lets a caller check
  it against the exhaustive answer.
"""
import sys

try:
    from pyrimaa.board import Color, IllegalMove, Piece, Position, alg_to_index, parse_short_pos
except ImportError:  # pragma: no cover - depends on the machine
    sys.exit("pyrimaa is missing (PyPI package aei): python3 -m venv .venv && .venv/bin/pip install aei, "
             "and run this with .venv/bin/python (or with target/pyrimaa-venv/bin/python, "
             "the venv that cargo test provisions)")

__all__ = ["Color", "IllegalMove", "Piece", "Position"]

GOLD, SILVER = Color.GOLD, Color.SILVER
RANK_1 = 0x00000000000000FF
RANK_8 = 0xFF00000000000000
TRAPS = (1 << 18) | (1 << 21) | (1 << 42) | (1 << 45)
STANDARD_BOARD = "[rrrrrrrrhdcmecdh                                HDCMECDHRRRRRRRR]"
STANDARD_GOLD = "Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2"
STANDARD_SILVER = "ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ha7 db7 cc7 md7 ee7 cf7 dg7 hh7"
LETTERS = Piece.PCHARS  # " RCDHMExxrcdhme": index = pyrimaa piece code
DIRECTIONS = {"n": 8, "s": -8, "e": 1, "w": -1}


def popcount(bits):
    return bin(bits).count("1")


def neighbours(bits):
    """The squares next to any of `bits` (a bitboard, a1 = bit 0)."""
    return (((bits << 8) & 0xFFFFFFFFFFFFFFFF) | (bits >> 8)
            | ((bits & 0xFEFEFEFEFEFEFEFE) >> 1) | ((bits & 0x7F7F7F7F7F7F7F7F) << 1))


def side_letter(color):
    return "gs"[color]


def empty_board():
    """The empty board, gold to place its setup."""
    from pyrimaa.board import BLANK_BOARD

    return Position(GOLD, 4, BLANK_BOARD)


def position(side, board):
    """A pyrimaa position from a side letter (`g`/`s`) and an AEI board `[...]`."""
    return parse_short_pos("gs".index(side), 4, board)


def from_setposition(text):
    """A pyrimaa position from `setposition g [...]` (the word is optional)."""
    text = text.strip()
    if text.startswith("setposition"):
        text = text[len("setposition"):].strip()
    side, board = text[0], text[1:].strip()
    if side not in "gs" or len(board) != 66 or board[0] != "[" or board[-1] != "]":
        raise ValueError("not an AEI position: %r" % text)
    return position(side, board)


def board(pos):
    """The AEI board `[...]` of a position."""
    return pos.board_to_str("short")


def aei(pos):
    """The AEI position `g [...]` (side to move, board)."""
    return "%s %s" % (side_letter(pos.color), board(pos))


def rabbit(color):
    return Piece.GRABBIT | (color << 3)


def goal_row(color):
    return RANK_8 if color == GOLD else RANK_1


def pieces(pos, color):
    return popcount(pos.placement[color])


def takes_piece(pos, res):
    """True when the turn from `pos` to `res` removed an enemy piece of the
    side that moved (`pos`'s side to move)."""
    them = pos.color ^ 1
    return pieces(res, them) < pieces(pos, them)


def has_goal(res, color):
    """True when a rabbit of `color` stands on its goal row."""
    return bool(res.bitBoards[rabbit(color)] & goal_row(color))


def frozen_count(pos, color):
    bits, n = pos.placement[color], 0
    while bits:
        low = bits & -bits
        bits ^= low
        n += bool(pos.is_frozen_at(low))
    return n


def turns(pos):
    """Every distinct legal turn: {result position: steps}. Slow (about 0.5 s)."""
    return pos.get_moves()


def first_steps(pos):
    """The number of legal first steps (pushes and pulls count their first half)."""
    return len(pos.get_steps())


def end_turn(start, cur):
    """The position after the steps taken from `start` to `cur`, turn ended."""
    if cur.color == start.color:
        return Position(start.color ^ 1, 4, cur.bitBoards, placement=cur.placement)
    return cur


def outcome(res, mover):
    """The game's result right after `mover` ended the turn that gave `res`:
    'win', 'loss' or None. pyrimaa's order: goal, elimination, immobilization."""
    win = 1 if mover == GOLD else -1
    for verdict in (res.is_goal(), res.is_rabbit_loss()):
        if verdict:
            return "win" if verdict == win else "loss"
    if not res.get_steps():
        return "win"
    return None


# ---------------------------------------------------------------- goal search


def _rabbit_distance(pos, color):
    """Fewest own steps any rabbit of `color` needs to reach its goal row (9: none)."""
    bits = pos.bitBoards[rabbit(color)]
    if not bits:
        return 9
    if color == GOLD:
        return 7 - (bits.bit_length() - 1) // 8
    return ((bits & -bits).bit_length() - 1) // 8


def goal_witness(pos):
    """Steps of a turn that ends with a rabbit of the side to move on its goal
    row, or None. Exact: a rabbit moves only by its own steps, one row a step,
    so a partial turn whose nearest rabbit is farther than the steps left is
    dropped, and with exactly that many steps left only that rabbit's forward
    steps are tried."""
    side = pos.color
    own_rabbit, row = rabbit(side), goal_row(side)
    forward = 8 if side == GOLD else -8
    seen = set()

    def walk(cur, taken):
        if cur.color != side:  # four steps taken: the turn has ended
            return taken if cur.bitBoards[own_rabbit] & row else None
        if cur.bitBoards[own_rabbit] & row and not cur.inpush:
            return taken
        need = _rabbit_distance(cur, side)
        if need > cur.stepsLeft:
            return None
        for step, nxt in cur.get_steps():
            if need == cur.stepsLeft and not (
                step[1] - step[0] == forward and cur.bitBoards[own_rabbit] & (1 << step[0])
            ):
                continue
            if nxt in seen:
                continue
            seen.add(nxt)
            found = walk(nxt, taken + (step,))
            if found is not None:
                return found
        return None

    if pos.bitBoards[own_rabbit] & row:
        raise ValueError("a rabbit already stands on its goal row: %s" % aei(pos))
    return walk(pos, ())


def goal_search_agrees(pos, moves=None):
    """The goal search against the exhaustive answer from `get_moves`."""
    moves = turns(pos) if moves is None else moves
    truth = any(has_goal(res, pos.color) for res in moves)
    return (goal_witness(pos) is not None) == truth


def opponent_can_goal(res):
    """After a turn (the opponent to move): can the opponent reach goal now?"""
    return goal_witness(res) is not None


def passed(pos):
    """The same board with the other side to move: what it threatens."""
    return Position(pos.color ^ 1, 4, pos.bitBoards, placement=pos.placement)


# ---------------------------------------------------------------- move checks


def parse_token(tok):
    """(piece letter, from index, to index or None for a capture token)."""
    if len(tok) != 4 or tok[0] not in "RCDHMErcdhme" or tok[1] not in "abcdefgh" \
            or tok[2] not in "12345678" or tok[3] not in "nsewx":
        raise IllegalMove("malformed token %r" % tok)
    frm = alg_to_index(tok[1:3])
    if tok[3] == "x":
        return tok[0], frm, None
    to = frm + DIRECTIONS[tok[3]]
    if not 0 <= to < 64 or (tok[3] in "ew" and to // 8 != frm // 8):
        raise IllegalMove("step off the board %r" % tok)
    return tok[0], frm, to


def check_move(pos, text, legal=None):
    """Checks a move string strictly and returns the position after it (the
    opponent to move). Raises IllegalMove naming the fault: a malformed token,
    a piece letter that is not the piece on the square, an illegal step, a
    capture token that names no capture or the wrong one, a missing capture
    token, a turn that stops inside a push or changes nothing, or (with
    `legal`, the result positions of `get_moves`) a result outside them."""
    toks = text.split()
    if not toks:
        raise IllegalMove("empty move")
    steps, cur, expect = [], pos, []
    for tok in toks:
        letter, frm, to = parse_token(tok)
        if to is None:
            if not expect or expect[0] != tok:
                raise IllegalMove("capture token %s, but the step before it captured %s"
                                  % (tok, expect[0] if expect else "nothing"))
            expect.pop(0)
            continue
        if expect:
            raise IllegalMove("missing capture token %s" % expect[0])
        if len(steps) == pos.stepsLeft:
            raise IllegalMove("more than %d steps" % pos.stepsLeft)
        found = cur.piece_at(1 << frm)
        if found == Piece.EMPTY:
            raise IllegalMove("%s: no piece on %s" % (tok, tok[1:3]))
        if LETTERS[found] != letter:
            raise IllegalMove("%s: the piece on %s is %s" % (tok, tok[1:3], LETTERS[found]))
        why = cur.check_step((frm, to))
        if not why:
            raise IllegalMove("%s: %s" % (tok, why))
        nxt = cur.do_step((frm, to))
        expect = _captures(cur, nxt, (frm, to))
        cur = nxt
        steps.append((frm, to))
    if expect:
        raise IllegalMove("missing capture token %s" % expect[0])
    if cur.color == pos.color and cur.inpush:
        raise IllegalMove("the turn ends inside a push")
    res = end_turn(pos, cur)
    if res.bitBoards == pos.bitBoards:
        raise IllegalMove("the turn changes nothing")
    if legal is not None and res not in legal:
        raise IllegalMove("the result is not among pyrimaa's legal turns")
    return res


def _captures(before, after, step):
    """Capture tokens for what the step removed from a trap (at most one
    piece in Arimaa): the moved piece on the trap it stepped onto, or a piece
    on a trap next to the square it left."""
    frm, to = 1 << step[0], 1 << step[1]
    toks = []
    for code in range(Piece.GRABBIT, Piece.COUNT):
        bits = before.bitBoards[code]
        if bits is None:
            continue
        if bits & frm:
            bits ^= frm | to
        gone = bits & ~after.bitBoards[code] & TRAPS
        if gone:
            toks.append("%s%sx" % (LETTERS[code], _alg(gone)))
    return toks


def _alg(bit):
    ix = bit.bit_length() - 1
    return "abcdefgh"[ix % 8] + str(ix // 8 + 1)


def check_setup(pos, text):
    """Checks a setup move (16 tokens like `Ra1`) for the side to move on an
    empty or half-set board; returns the position after it."""
    toks = text.split()
    want = {"R": 8, "C": 2, "D": 2, "H": 2, "M": 1, "E": 1}
    home = "12" if pos.color == GOLD else "78"
    seen, count = set(), {}
    for tok in toks:
        if len(tok) != 3 or tok[0].upper() not in want or tok[1] not in "abcdefgh" or tok[2] not in home:
            raise IllegalMove("bad setup token %r" % tok)
        if (tok[0].isupper()) != (pos.color == GOLD):
            raise IllegalMove("%s is the other side's piece" % tok)
        if tok[1:] in seen:
            raise IllegalMove("%s: square used twice" % tok)
        seen.add(tok[1:])
        count[tok[0].upper()] = count.get(tok[0].upper(), 0) + 1
    if count != want:
        raise IllegalMove("setup must place E M H H D D C C and 8 rabbits: %r" % text)
    return pos.do_move_str(text)


def canonical(pos, steps):
    """pyrimaa's notation of steps from `pos` (capture tokens included)."""
    return pos.steps_to_str(steps)
