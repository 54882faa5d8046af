"""The oracle data's records: what pyrimaa says about one position.

`movegen_record` gives the counts the rules tests compare against; the
tactics functions decide whether a position makes a fair puzzle and prove its
answer with pyrimaa. Field names are the ones the tests and tools read.
"""
import arbiter
from arbiter import GOLD, SILVER

SAMPLES = 5


def counts(pos, moves=None):
    """The movegen counts of one position, every one of them from pyrimaa."""
    moves = arbiter.turns(pos) if moves is None else moves
    us, them = pos.color, pos.color ^ 1
    return {
        "steps_from_here": arbiter.first_steps(pos),
        "moves": len(moves),
        "moves_goal": sum(arbiter.has_goal(r, us) for r in moves),
        "moves_capture": sum(arbiter.takes_piece(pos, r) for r in moves),
        "frozen_own": arbiter.frozen_count(pos, us),
        "frozen_opp": arbiter.frozen_count(pos, them),
        "pieces": {"g": arbiter.pieces(pos, GOLD), "s": arbiter.pieces(pos, SILVER)},
    }


def tags(pos, c, origin):
    """Labels that let a tool pick a spread of positions."""
    out = [origin]
    total = c["pieces"]["g"] + c["pieces"]["s"]
    if origin == "random_game":
        out.append("opening" if total == 32 and _home_ranks_only(pos) else "late" if total <= 18 else "middle")
    if total <= 10:
        out.append("sparse")
    if (pos.placement[0] | pos.placement[1]) & arbiter.TRAPS:
        out.append("trap")
    if c["frozen_own"] + c["frozen_opp"] >= 2:
        out.append("frozen")
    if c["moves_goal"]:
        out.append("goal_race")
    if c["moves"] == 0:
        out.append("immobilized")
    return out


def _home_ranks_only(pos):
    middle = 0x0000FFFFFFFF0000
    return not (pos.placement[0] | pos.placement[1]) & middle


def movegen_record(rng, ident, pos, origin, source):
    moves = arbiter.turns(pos)
    c = counts(pos, moves)
    # A few turns in pyrimaa's own notation with the boards they give: they
    # test the move parser and the capture tokens, not only the counts.
    picks = rng.sample(list(moves.items()), min(SAMPLES, len(moves)))
    rec = {
        "id": ident,
        "side": arbiter.side_letter(pos.color),
        "board": arbiter.board(pos),
        "setposition": "setposition " + arbiter.aei(pos),
    }
    rec.update(c)
    rec["sample_moves"] = [arbiter.canonical(pos, steps) for _, steps in picks]
    rec["sample_results"] = [arbiter.board(r) for r, _ in picks]
    rec["tags"] = tags(pos, c, origin)
    rec["source"] = source
    return rec


def standard_record():
    """The standard opening, both sides to move, and the spec's example board."""
    gold = arbiter.position("g", arbiter.STANDARD_BOARD)
    silver = arbiter.position("s", arbiter.STANDARD_BOARD)
    # The same setups with silver's elephant and camel swapped (d7/e7), so the
    # board is not mirror-symmetric.
    example = arbiter.STANDARD_BOARD.replace("hdcmecdh", "hdcemcdh", 1)
    return {
        "gold_setup": arbiter.STANDARD_GOLD,
        "silver_setup": arbiter.STANDARD_SILVER,
        "board": arbiter.STANDARD_BOARD,
        "gold_to_move_moves": len(arbiter.turns(gold)),
        "gold_to_move_steps": arbiter.first_steps(gold),
        "silver_to_move_same_board_moves": len(arbiter.turns(silver)),
        "spec_example_board": example,
        "spec_example_gold_moves": len(arbiter.turns(arbiter.position("g", example))),
    }


# ------------------------------------------------------------------ tactics


def _base(kind, ident, pos, source):
    return {
        "id": ident,
        "kind": kind,
        "side": arbiter.side_letter(pos.color),
        "board": arbiter.board(pos),
        "setposition": "setposition " + arbiter.aei(pos),
        "source": source,
    }


def _no_goal_proved(res):
    """Exhaustive: the side to move in `res` has no turn that ends in its goal."""
    return not any(arbiter.has_goal(r, res.color) for r in arbiter.turns(res))


def goal1(ident, pos, source, max_fraction=0.2):
    """A goal-in-one puzzle, or None: the mover reaches goal, with few of its
    turns doing so and none in a single step (those test nothing)."""
    moves = arbiter.turns(pos)
    goals = [(r, s) for r, s in moves.items() if arbiter.has_goal(r, pos.color)]
    if not goals or len(goals) > max_fraction * len(moves):
        return None
    shortest = min(len(s) for _, s in goals)
    if shortest < 2:
        return None
    rec = _base("goal1", ident, pos, source)
    rec["answer"] = {
        "pass_if": "the move ends with a rabbit of the side to move on its goal row",
        "goal_moves": len(goals),
        "total_moves": len(moves),
        "min_goal_steps": shortest,
        "examples": [arbiter.canonical(pos, s) for _, s in goals[:3]],
    }
    return rec


def _threat_squares(pos, steps):
    """The squares a threat's steps touch, and their neighbours."""
    sq = 0
    for a, b in steps:
        sq |= (1 << a) | (1 << b)
    return sq | arbiter.neighbours(sq)


def _occupancy_changes(pos, res, squares):
    before = pos.placement[0] | pos.placement[1]
    after = res.placement[0] | res.placement[1]
    return bool((before ^ after) & squares)


def saves(pos, res):
    """The mover's turn giving `res` neither loses at once nor lets the
    opponent reach goal next turn (by the goal search)."""
    verdict = arbiter.outcome(res, pos.color)
    if verdict == "loss":
        return False
    return verdict == "win" or not arbiter.opponent_can_goal(res)


def defend(rng, ident, pos, source, sample=40, max_sampled=0.35, tries=400):
    """A stop-the-goal puzzle, or None: the mover cannot reach goal, the
    opponent would if the mover passed, and at least one turn stops it
    (proved exhaustively), while a random sample of turns mostly fails."""
    threat = arbiter.goal_witness(arbiter.passed(pos))
    if threat is None or arbiter.goal_witness(pos) is not None:
        return None
    moves = list(arbiter.turns(pos).items())
    if not moves:
        return None
    sampled = rng.sample(moves, min(sample, len(moves)))
    good = sum(saves(pos, r) for r, _ in sampled)
    if good > max_sampled * len(sampled):
        return None
    # Turns that touch the threat's path first: they are the likely saves.
    near = _threat_squares(pos, threat)
    ordered = sorted(moves, key=lambda m: not _occupancy_changes(pos, m[0], near))
    found = []
    for res, steps in ordered[:tries]:
        if saves(pos, res) and arbiter.outcome(res, pos.color) != "loss" and _no_goal_proved(res):
            found.append(steps)
            if len(found) == 3:
                break
    if not found:
        return None
    rec = _base("defend", ident, pos, source)
    rec["answer"] = {
        "pass_if": "the move does not lose at once and leaves the opponent no turn that ends in its goal",
        "threat": arbiter.canonical(arbiter.passed(pos), threat),
        "total_moves": len(moves),
        "sampled_saving": "%d of %d" % (good, len(sampled)),
        "examples": [arbiter.canonical(pos, s) for s in found],
    }
    return rec


def capture(ident, pos, source, max_fraction=0.05):
    """A safe-capture puzzle, or None: no goal for either side is in the air,
    few turns capture, and at least one capture neither loses at once nor
    allows a goal next turn (proved exhaustively)."""
    if arbiter.goal_witness(pos) is not None or arbiter.goal_witness(arbiter.passed(pos)) is not None:
        return None
    moves = arbiter.turns(pos)
    them = pos.color ^ 1
    caps = [(r, s) for r, s in moves.items() if arbiter.takes_piece(pos, r)]
    if not caps or len(caps) > max_fraction * len(moves):
        return None
    good = [(r, s) for r, s in caps if saves(pos, r)]
    proved = [s for r, s in good[:3] if arbiter.outcome(r, pos.color) == "win" or _no_goal_proved(r)]
    if not proved:
        return None
    taken = set()
    for r, _ in good:
        for code in range(9 if them == SILVER else 1, 15 if them == SILVER else 7):
            if arbiter.popcount(r.bitBoards[code]) < arbiter.popcount(pos.bitBoards[code]):
                taken.add(arbiter.LETTERS[code].lower())
    rec = _base("capture", ident, pos, source)
    rec["answer"] = {
        "pass_if": "the move does not lose at once, captures an enemy piece and leaves the opponent no goal",
        "capture_moves": len(caps),
        "safe_capture_moves": len(good),
        "total_moves": len(moves),
        "capturable": sorted(taken),
        "examples": [arbiter.canonical(pos, s) for s in proved],
    }
    return rec
