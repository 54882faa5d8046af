"""Where the oracle data's positions come from: random games played step by
step with pyrimaa's step generator, and random placements of pieces.

Choosing a uniformly random turn would need `get_moves` at every ply (half a
second each); choosing random steps costs next to nothing. The steps are
weighted so that the games look like games: rabbits advance (`rabbit_bias`),
pieces are captured more often than they are given away, and a turn ends
early now and then. Every choice comes from the caller's `random.Random`, so
a seed fixes every game.
"""
import arbiter
from arbiter import GOLD, SILVER, Piece, Position

HOME = {GOLD: [f + r for r in "21" for f in "abcdefgh"], SILVER: [f + r for r in "78" for f in "abcdefgh"]}
ARMY = "EMHHDDCCRRRRRRRR"


def random_setup(rng, color, standard=False):
    """A setup move for `color`: the standard one, or pieces shuffled over the
    two home ranks with the rabbits mostly on the back rank, as players do."""
    if standard:
        return arbiter.STANDARD_GOLD if color == GOLD else arbiter.STANDARD_SILVER
    front, back = HOME[color][:8], HOME[color][8:]
    squares = front + back
    if rng.random() < 0.7:
        # Officers in front, rabbits behind, each rank shuffled.
        officers, rabbits = list(ARMY[:8]), list(ARMY[8:])
        rng.shuffle(officers)
        letters = officers + rabbits
        rng.shuffle(front)
        rng.shuffle(back)
        squares = front + back
    else:
        letters = list(ARMY)
        rng.shuffle(letters)
    if color == SILVER:
        letters = [c.lower() for c in letters]
    return " ".join(c + s for c, s in zip(letters, squares))


def opening(rng, standard=False):
    """The position after both setups (gold to move)."""
    pos = arbiter.empty_board()
    pos = pos.do_move_str(random_setup(rng, GOLD, standard))
    return pos.do_move_str(random_setup(rng, SILVER, standard))


def _weight(cur, step, nxt, side, rabbit_bias):
    own, opp = side, side ^ 1
    w = 1.0
    if arbiter.pieces(nxt, opp) < arbiter.pieces(cur, opp):
        w *= 12.0
    if arbiter.pieces(nxt, own) < arbiter.pieces(cur, own):
        w *= 0.15
    if cur.bitBoards[arbiter.rabbit(own)] & (1 << step[0]):
        forward = 8 if own == GOLD else -8
        w *= rabbit_bias if step[1] - step[0] == forward else 0.7
    return w


def random_turn(rng, pos, rabbit_bias=2.0, stop_early=0.08):
    """A random turn for the side to move, as (steps, result), or None when
    the side cannot move. Pushes are completed; a turn that would end where it
    began is walked again."""
    side = pos.color
    for _attempt in range(20):
        cur, taken = pos, []
        while cur.color == side:
            options = cur.get_steps()
            if not options:
                break
            can_stop = taken and not cur.inpush and cur.bitBoards != pos.bitBoards
            if can_stop and rng.random() < stop_early:
                break
            weights = [_weight(cur, s, n, side, rabbit_bias) for s, n in options]
            step, nxt = rng.choices(options, weights)[0]
            taken.append(step)
            cur = nxt
        if not taken or (cur.color == side and cur.inpush):
            if not taken and not pos.get_steps():
                return None
            continue
        res = arbiter.end_turn(pos, cur)
        if res.bitBoards != pos.bitBoards:
            return tuple(taken), res
    return None


def game_over(pos):
    """True when the game has ended before `pos`'s side moves."""
    return bool(pos.is_goal() or pos.is_rabbit_loss() or not pos.get_steps())


def play(rng, plies, rabbit_bias=2.0, standard=False):
    """A random game: the list of turn-start positions (gold's first move
    first), `plies` at most, stopping at the end of the game."""
    pos = opening(rng, standard)
    out = []
    for _ in range(plies):
        if game_over(pos):
            break
        out.append(pos)
        turn = random_turn(rng, pos, rabbit_bias)
        if turn is None:
            break
        pos = turn[1]
    return out


def placement(rng, gold, silver, side):
    """`gold` and `silver` pieces (strongest first from the army) dropped on
    random squares: no rabbit on a goal row, no piece alone on a trap. Returns
    a position with `side` to move, or None if the draw broke a rule."""
    bits = list(arbiter.empty_board().bitBoards)
    free = list(range(64))
    rng.shuffle(free)
    for color, count in ((GOLD, gold), (SILVER, silver)):
        # Keep at least one rabbit: a side without one has already lost.
        army = list(ARMY[:-1])
        rng.shuffle(army)
        letters = army[: count - 1] + ["R"]
        for letter in letters:
            code = Piece.PCHARS.index(letter if color == GOLD else letter.lower())
            ix = free.pop()
            if letter == "R" and ix // 8 == (7 if color == GOLD else 0):
                return None
            bits[code] |= 1 << ix
            bits[0] &= ~(1 << ix)
    pos = Position(side, 4, bits)
    for color in (GOLD, SILVER):
        own = pos.placement[color]
        if own & arbiter.TRAPS & ~arbiter.neighbours(own):
            return None
    return pos
