"""Pentad's evaluation network: games-file reading, pattern keys, the PyTorch model and its quantised export.

Everything here follows the network spec that the engine's Rust inference implements too:
the key of a cell in a direction, the two heads, the integer arithmetic and the `.pnet`
layout must match it bit for bit. `int_forward` is a numpy copy of the engine's integer
inference, used to measure how far the quantised net is from the float one.
"""

import math
import struct
import warnings
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

# Rule name -> (family byte in the .pnet header, full window size W).
FAMILIES = {"renju": (0, 10), "freestyle": (1, 8)}
WINDOW_FAMILY = {window: rule for rule, (_, window) in FAMILIES.items()}
# Windows a rule's network may read: renju's full 10 cells tell a five from an overline; its
# 8-cell window makes a table of 3^8 rows (420 KB against 3.8 MB) for a cheaper network.
RULE_WINDOWS = {"renju": (8, 10), "freestyle": (8,)}

# Direction order fixes which key is key_0..key_3; the engine uses the same order.
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))

# Cell states in Black's view. Off-board cells read as WALL, the same as a white stone.
EMPTY, BLACK, WHITE = 0, 1, 2
WALL = WHITE

MIN_SIZE, MAX_SIZE = 5, 32

# Black's score for each result text.
RESULTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}

# A search score at least this large is a proven win (or loss, negated).
PROVEN_SCORE = 20000
SCORE_SCALE = 600.0

MAGIC = b"PNTDNET1"
HEADER_FORMAT = "<8sBBHHH"  # magic, family, window, channels, hidden, kind
# A cell's activation: its feature sum clipped to [0, 1], or (a value network only) the sum
# itself, so that the engine changes the pooled sum by two table rows per cell a move reaches.
# The header's kind holds it in bit 0.
CELLS = {"clipped": 0, "linear": 1}
# Bit 1 of the header's kind: the file has count rows (a value network only): one row per
# pattern count of the engine's board (`Board::raw_counts`, written by `pentad-tools
# static-eval --counts`), each count times its row added to the pool.
KIND_COUNT_ROWS = 2
COUNTS = 64
# Largest magnitude of a count row entry the engine accepts (in 1/256).
MAX_COUNT_WEIGHT = 32767 // 16
# The count rows are trained as parameter * scale: the first 32 counts are of (cell,
# direction) pairs, in the hundreds on a board, so their rows learn at a sixteenth of the rate
# of the per-cell counts' (a reparameterisation for the optimiser; the file holds the product).
COUNT_ROW_SCALE = np.array([1.0 / 16] * 32 + [1.0] * 32, dtype=np.float32)

HEADER_SIZE = struct.calcsize(HEADER_FORMAT)  # 16

# Fixed-point scales of the export (see the spec): E and activations in 1/256, weights in
# 1/64, biases in 1/(256*64). The value logit comes out in 1/16384, policy logits in 1/65536.
EMBED_SCALE = 256
WEIGHT_SCALE = 64
BIAS_SCALE = 256 * 64
VALUE_UNIT = 256 * 64
POLICY_UNIT = 256 * 256
# Pool divisor: g = (sum of activations) / 16, in the integer net `pool >> 4`, which the
# engine then clamps into [0, i16::MAX] (only linear cells can leave that range).
POOL_SHIFT = 4
POOLED_MAX = 32767 / EMBED_SCALE

# Per-head tensors in file order: name, integer type, scale.
HEAD_LAYOUT = (
    ("w1", np.int16, WEIGHT_SCALE),
    ("b1", np.int32, BIAS_SCALE),
    ("w2", np.int16, WEIGHT_SCALE),
    ("b2", np.int32, BIAS_SCALE),
    ("w3", np.int16, WEIGHT_SCALE),
    ("b3", np.int32, BIAS_SCALE),
    ("p", np.int16, WEIGHT_SCALE),
    ("u", np.int16, WEIGHT_SCALE),
)


# ---------------------------------------------------------------------------------------
# Games files
# ---------------------------------------------------------------------------------------


@dataclass
class Game:
    """One finished game of a games file: moves as coordinates, scores of the searched moves."""

    game_id: int
    rule: str
    size: int
    black_result: float  # 1 Black won, 0 White won, 0.5 draw
    opening: int
    xs: list
    ys: list
    scores: list
    # The classical evaluation before each searched move, for the side to move (evaluation
    # units, `pentad-tools static-eval`): the base the network's value adds to. None: zero.
    evals: list = None
    # The game result's weight in this game's value targets (`--lambda`, per file); None:
    # the value given to `position_sets`.
    lam: float = None
    # The weight of this game's value loss (`--value-weight`, per file: 0 for a file that
    # only teaches choices); None: 1.
    value_weight: float = None
    # Per searched move, (the played move's child's classical evaluation, [(x, y, eval) of
    # sibling moves]) from `static-eval --siblings`; None when the file has no siblings.
    siblings: list = None
    # Per searched move, the board's 64 pattern counts (`static-eval --counts`); None: none.
    counts: list = None


def parse_move(text, size):
    """`h8` -> (7, 7): letter a.. = column x, number = row y + 1. None if malformed or off-board."""
    if len(text) < 2 or not ("a" <= text[0] <= "z") or not text[1:].isdigit():
        return None
    x, y = ord(text[0]) - ord("a"), int(text[1:]) - 1
    if x >= size or not 0 <= y < size:
        return None
    return x, y


def move_text(x, y):
    """(7, 7) -> `h8`, the notation of games files."""
    return f"{chr(ord('a') + x)}{y + 1}"


def parse_size(text):
    """`15x15` -> 15; None unless the board is square and of a size the features support."""
    width, sep, height = text.partition("x")
    if not sep or not width.isdigit() or width != height:
        return None
    size = int(width)
    return size if MIN_SIZE <= size <= MAX_SIZE else None


def parse_scores(text):
    """`35,-20` -> [35, -20]; `-` -> []; None if malformed."""
    if text == "-":
        return []
    try:
        return [int(v) for v in text.split(",")]
    except ValueError:
        return None


def parse_game_line(line):
    """One games-file line -> Game, or None when it is malformed (any rule is accepted here)."""
    fields = line.split()
    if len(fields) != 7:
        return None
    id_text, rule, size_text, result_text, opening_text, moves_text, scores_text = fields
    size = parse_size(size_text)
    scores = parse_scores(scores_text)
    if not (id_text.isdigit() and opening_text.isdigit()) or size is None or scores is None:
        return None
    if result_text not in RESULTS:
        return None
    moves = [parse_move(m, size) for m in moves_text.split(",")]
    if None in moves or len(set(moves)) != len(moves):
        return None
    opening = int(opening_text)
    if opening > len(moves) or len(scores) != len(moves) - opening:
        return None
    return Game(
        game_id=int(id_text),
        rule=rule,
        size=size,
        black_result=RESULTS[result_text],
        opening=opening,
        xs=[m[0] for m in moves],
        ys=[m[1] for m in moves],
        scores=scores,
    )


def read_games(path, rule):
    """Games of `rule` in one file, with counts of skipped lines.

    A last line without its newline may have been cut by a writer still running: it is
    skipped even if it happens to parse (a cut score can still be a number).
    """
    with open(path, encoding="utf-8") as f:
        text = f.read()
    lines = text.split("\n")
    cut_last = lines.pop()  # "" when the file ends with a newline
    skipped = {"malformed": 0, "other rule": 0, "cut last line": 1 if cut_last.strip() else 0}
    games = []
    for line in lines:
        if not line.strip() or line.startswith("#"):
            continue
        game = parse_game_line(line)
        if game is None:
            skipped["malformed"] += 1
        elif game.rule != rule:
            skipped["other rule"] += 1
        else:
            games.append(game)
    return games, skipped


def parse_siblings(text, size):
    """`e[:s]/m:e[:s]/...` -> ((e, s), [(x, y, e, s), ...]), s None when the child was not
    searched; None if malformed."""
    parts = text.split("/")
    try:
        head = parts[0].split(":")
        if len(head) > 2:
            return None
        played = (int(head[0]), int(head[1]) if len(head) == 2 else None)
        others = []
        for part in parts[1:]:
            fields = part.split(":")
            cell = parse_move(fields[0], size)
            if cell is None or len(fields) not in (2, 3):
                return None
            score = int(fields[2]) if len(fields) == 3 else None
            others.append((cell[0], cell[1], int(fields[1]), score))
    except ValueError:
        return None
    return played, others


def read_evals(path):
    """A `pentad-tools static-eval` file -> {game id: (evals per searched move, siblings or None)}."""
    evals = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            fields = line.split()
            values = parse_scores(fields[1]) if len(fields) in (2, 3) and fields[0].isdigit() else None
            siblings = None
            if values is not None and len(fields) == 3:
                siblings = [] if fields[2] == "-" else [parse_siblings(t, MAX_SIZE) for t in fields[2].split(",")]
                if None in siblings or len(siblings) != len(values):
                    values = None
            if values is None:
                raise ValueError(f"{path}:{number}: not an `<id> <evals> [<siblings>]` line")
            evals[int(fields[0])] = (values, siblings)
    return evals


def read_counts(path):
    """A `pentad-tools static-eval --counts` file -> {game id: [64 counts per searched move]}."""
    counts = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            fields = line.split()
            try:
                if len(fields) != 2 or not fields[0].isdigit():
                    raise ValueError
                moves = [] if fields[1] == "-" else [[int(v) for v in t.split(":")] for t in fields[1].split(",")]
                if any(len(m) != COUNTS or min(m) < 0 for m in moves):
                    raise ValueError
            except ValueError:
                raise ValueError(f"{path}:{number}: not an `<id> <counts>` line") from None
            counts[int(fields[0])] = moves
    return counts


def attach_counts(games, counts, source):
    """Gives each game its pattern counts; a game without one set per searched move is an error."""
    for game in games:
        values = counts.get(game.game_id)
        if values is None or len(values) != len(game.scores):
            raise ValueError(f"{source}: no pattern counts per searched move for game {game.game_id}")
        game.counts = values


def attach_evals(games, evals, source):
    """Gives each game its classical evaluations; a game without the right count is an error."""
    for game in games:
        values, siblings = evals.get(game.game_id, (None, None))
        if values is None or len(values) != len(game.scores):
            raise ValueError(f"{source}: no evaluation per searched move for game {game.game_id}")
        game.evals, game.siblings = values, siblings


def value_targets(black_result, sides, scores, lam):
    """t = lam * result + (1 - lam) * sigmoid(score / 600), all for the side to move.

    A proven score (|score| >= 20000) counts as 1 or 0 for the score part.
    """
    result = np.where(sides == 0, black_result, 1.0 - black_result)
    scores = np.asarray(scores, dtype=np.float64)
    from_score = 1.0 / (1.0 + np.exp(-scores / SCORE_SCALE))
    from_score = np.where(np.abs(scores) >= PROVEN_SCORE, (scores > 0).astype(np.float64), from_score)
    return (lam * result + (1.0 - lam) * from_score).astype(np.float32)


# ---------------------------------------------------------------------------------------
# Positions, boards, symmetries and keys
# ---------------------------------------------------------------------------------------


def apply_symmetry(xs, ys, sym, size):
    """Maps coordinates by one of the 8 symmetries of the square (arrays broadcast).

    Bit 2 transposes (x, y) -> (y, x) first, then bit 0 mirrors x and bit 1 mirrors y.
    On a board array indexed [y, x] that is: transpose, then flip axis 1, then axis 0.
    """
    sym = np.asarray(sym)
    transpose = (sym & 4) != 0
    new_x = np.where(transpose, ys, xs)
    new_y = np.where(transpose, xs, ys)
    new_x = np.where((sym & 1) != 0, size - 1 - new_x, new_x)
    new_y = np.where((sym & 2) != 0, size - 1 - new_y, new_y)
    return new_x, new_y


def build_boards(xs, ys, plies, size):
    """Boards (B, N, N) int8, indexed [y, x], after the first `plies[b]` moves of each row.

    Moves alternate Black (1), White (2); moves past the ply go to a dump cell.
    """
    count, length = xs.shape
    cells = ys.astype(np.int64) * size + xs
    order = np.arange(length)
    cells = np.where(order[None, :] < plies[:, None], cells, size * size)
    colours = np.broadcast_to((BLACK + (order & 1)).astype(np.int8), cells.shape)
    flat = np.zeros((count, size * size + 1), dtype=np.int8)
    flat[np.arange(count)[:, None], cells] = colours
    return flat[:, : size * size].reshape(count, size, size)


def window_offsets(window):
    """Offsets of a window's slots in ascending order, centre skipped: W=8 -> -4..-1, 1..4."""
    half = window // 2
    return [o for o in range(-half, half + 1) if o != 0]


def compute_keys(boards, window):
    """Keys (B, N*N, 4) int32, cells row-major (y * N + x), directions in DIRECTIONS order.

    key_d(x, y) = sum_j state(offset_j along d) * 3^j. Vectorised: the board is padded with
    walls and each (direction, slot) pair adds one shifted view.
    """
    count, size, _ = boards.shape
    half = window // 2
    padded = np.pad(boards.astype(np.int32), ((0, 0), (half, half), (half, half)), constant_values=WALL)
    keys = np.zeros((count, size, size, len(DIRECTIONS)), dtype=np.int32)
    for d, (dx, dy) in enumerate(DIRECTIONS):
        for j, offset in enumerate(window_offsets(window)):
            top, left = half + offset * dy, half + offset * dx
            keys[..., d] += padded[:, top : top + size, left : left + size] * 3**j
    return keys.reshape(count, size * size, len(DIRECTIONS))


class PositionSet:
    """The searched positions of the games of one board size, held as games plus (game, ply).

    Boards are rebuilt per batch from the move arrays, which keeps a million positions in a
    few megabytes and makes symmetry augmentation a map on coordinates.
    """

    def __init__(self, games, size, lam, reading_order):
        """games: all of this size; reading_order[i]: game i's place among all games read."""
        self.size = size
        self.game_count = len(games)
        length = max(len(g.xs) for g in games)
        self.xs = np.zeros((len(games), length), dtype=np.int8)
        self.ys = np.zeros((len(games), length), dtype=np.int8)
        game_idx, plies, black_results, scores, bases, sibs, lams, weights = [], [], [], [], [], [], [], []
        counts = []
        for index, game in enumerate(games):
            self.xs[index, : len(game.xs)] = game.xs
            self.ys[index, : len(game.ys)] = game.ys
            searched = len(game.scores)
            game_idx.extend([index] * searched)
            plies.extend(range(game.opening, game.opening + searched))
            black_results.extend([game.black_result] * searched)
            scores.extend(game.scores)
            lams.extend([lam if game.lam is None else game.lam] * searched)
            weights.extend([1.0 if game.value_weight is None else game.value_weight] * searched)
            bases.extend(game.evals if game.evals is not None else [0] * searched)
            sibs.extend(game.siblings if game.siblings is not None else [None] * searched)
            counts.extend(game.counts if game.counts is not None else [[0] * COUNTS] * searched)
        self.game = np.array(game_idx, dtype=np.int64)
        self.ply = np.array(plies, dtype=np.int64)
        self.side = self.ply & 1  # 0 Black to move, 1 White to move
        self.target = value_targets(np.array(black_results), self.side, scores, np.array(lams))
        self.value_weight = np.asarray(weights, dtype=np.float32)
        # The classical evaluation as a logit: the network's value is a correction to it.
        self.base = (np.asarray(bases, dtype=np.float64) / SCORE_SCALE).astype(np.float32)
        self.set_siblings(sibs)
        # The pattern counts do not change under the board's symmetries.
        self.counts = np.asarray(counts, dtype=np.int16).reshape(-1, COUNTS)
        game_held_out = np.array([g.game_id % 20 == 0 for g in games], dtype=bool)
        self.held_out = game_held_out[self.game]
        # Reading order across sets (file, line, ply): the agreement file takes the first
        # held-out positions in this order.
        self.seq = np.asarray(reading_order, dtype=np.int64)[self.game] * (MAX_SIZE * MAX_SIZE + 1) + self.ply

    def set_siblings(self, sibs):
        """Sibling arrays: cells (P, K, 2), child logits (P, K + 1, played first), valid
        mask, and the children's search targets with their mask."""
        count = max((len(s[1]) for s in sibs if s is not None), default=0)
        self.sibling_count = count
        self.sib_xy = np.zeros((len(sibs), count, 2), dtype=np.int8)
        self.sib_base = np.zeros((len(sibs), count + 1), dtype=np.float32)
        self.sib_valid = np.zeros((len(sibs), count + 1), dtype=bool)
        scores = np.zeros((len(sibs), count + 1), dtype=np.float64)
        self.sib_scored = np.zeros((len(sibs), count + 1), dtype=bool)
        for i, sib in enumerate(sibs):
            if sib is None:
                continue
            (played, played_score), others = sib
            children = [(played, played_score)] + [(value, score) for _, _, value, score in others]
            for k, (value, score) in enumerate(children):
                self.sib_base[i, k] = value / SCORE_SCALE
                self.sib_valid[i, k] = True
                if score is not None:
                    scores[i, k] = score
                    self.sib_scored[i, k] = True
            for k, (x, y, _, _) in enumerate(others):
                self.sib_xy[i, k] = (x, y)
        self.sib_target = value_targets(0.5, np.zeros(scores.shape, dtype=np.int64), scores, 0.0)

    def __len__(self):
        return len(self.game)

    def children(self, indices, syms, window):
        """The positions after the played move and after each sibling, flattened (B * (K + 1)),
        played first, under the same symmetries; None without siblings."""
        if self.sibling_count == 0:
            return None
        games, plies = self.game[indices], self.ply[indices]
        xs, ys = self.xs[games].astype(np.int64), self.ys[games].astype(np.int64)
        xs, ys = apply_symmetry(xs, ys, np.asarray(syms)[:, None], self.size)
        played = build_boards(xs, ys, plies + 1, self.size)
        parent = build_boards(xs, ys, plies, self.size)
        sx, sy = apply_symmetry(
            self.sib_xy[indices, :, 0].astype(np.int64), self.sib_xy[indices, :, 1].astype(np.int64),
            np.asarray(syms)[:, None], self.size,
        )
        count, k = len(indices), self.sibling_count
        kids = np.repeat(parent[:, None], k + 1, axis=1)
        kids[:, 0] = played
        colour = (BLACK + self.side[indices]).astype(np.int8)
        rows = np.repeat(np.arange(count), k)
        slots = np.tile(np.arange(1, k + 1), count)
        valid = self.sib_valid[indices][:, 1:].reshape(-1)
        kids[rows[valid], slots[valid], sy.reshape(-1)[valid], sx.reshape(-1)[valid]] = np.repeat(colour, k)[valid]
        kids = kids.reshape(count * (k + 1), self.size, self.size)
        return {
            "keys": compute_keys(kids, window),
            "empty": (kids == EMPTY).reshape(len(kids), -1),
            "side": np.repeat(1 - self.side[indices], k + 1),
            "base": self.sib_base[indices],
            "valid": self.sib_valid[indices],
            "target": self.sib_target[indices],
            "scored": self.sib_scored[indices],
        }

    def batch(self, indices, syms, window):
        """Arrays of positions `indices`, each under symmetry `syms[b]` (0 = as played)."""
        games, plies = self.game[indices], self.ply[indices]
        xs, ys = self.xs[games].astype(np.int64), self.ys[games].astype(np.int64)
        xs, ys = apply_symmetry(xs, ys, np.asarray(syms)[:, None], self.size)
        boards = build_boards(xs, ys, plies, self.size)
        rows = np.arange(len(indices))
        return {
            "keys": compute_keys(boards, window),
            "empty": (boards == EMPTY).reshape(len(indices), -1),
            "side": self.side[indices],
            "move": ys[rows, plies] * self.size + xs[rows, plies],
            "target": self.target[indices],
            "base": self.base[indices],
            "weight": self.value_weight[indices],
            "counts": self.counts[indices],
        }

    def moves_text(self, index):
        """The moves before position `index`, as a games-file move list (`-` when none)."""
        game, ply = self.game[index], self.ply[index]
        moves = [move_text(int(self.xs[game, i]), int(self.ys[game, i])) for i in range(ply)]
        return ",".join(moves) if moves else "-"


def position_sets(games, lam):
    """Groups the games with searched moves by board size (a batch is of one size)."""
    by_size = {}
    for order, game in enumerate(games):
        if game.scores:
            by_size.setdefault(game.size, []).append((order, game))
    return [
        PositionSet([g for _, g in pairs], size, lam, [o for o, _ in pairs])
        for size, pairs in sorted(by_size.items())
    ]


# ---------------------------------------------------------------------------------------
# The model
# ---------------------------------------------------------------------------------------


def pattern_incidence(keys, empty, rows):
    """Sparse incidence of (cell, key) pairs at empty cells, in both orientations (CSR parts).

    `gather` (cells x rows) holds the non-zero keys of each empty cell (stones and key 0,
    whose row is zero, have no entries), so gather @ E is f. `scatter` is its transpose
    restricted to the rows that occur (`used_rows`), built with a radix sort on the keys,
    so the backward pass is a second sparse product rather than a slow scatter-add.
    """
    count, cells, directions = keys.shape
    cell_keys = keys.reshape(-1, directions)
    present = (cell_keys != 0) & empty.reshape(-1, 1)
    entry_cells, _ = np.nonzero(present)  # row-major: cells in order
    entry_keys = cell_keys[present]
    gather_crow = np.concatenate(([0], np.cumsum(np.count_nonzero(present, axis=1))))
    order = np.argsort(entry_keys.astype(np.uint16 if rows <= 65536 else np.int64), kind="stable")
    row_counts = np.bincount(entry_keys, minlength=rows)
    used_rows = np.flatnonzero(row_counts)
    scatter_crow = np.concatenate(([0], np.cumsum(row_counts[used_rows])))
    return {
        "gather": (gather_crow, entry_keys, count * cells, rows),
        "scatter": (scatter_crow, entry_cells[order], len(used_rows), count * cells),
        "used_rows": used_rows,
    }


def csr(parts, device="cpu"):
    """(crow, col, rows, columns) -> a torch sparse CSR matrix of ones on `device`.

    int32 indices: with int64 ones torch converts them on every product (several times slower).
    """
    crow, col, nrows, ncols = parts
    values = torch.ones(len(col), dtype=torch.float32, device=device)
    crow, col = (torch.from_numpy(a.astype(np.int32)).to(device) for a in (crow, col))
    with warnings.catch_warnings():
        # torch calls sparse CSR support beta; the two products used here are checked by tests.
        warnings.simplefilter("ignore")
        return torch.sparse_csr_tensor(crow, col, values, size=(nrows, ncols), device=device)


def tensor(array, device, dtype=None):
    """numpy array -> torch tensor on `device` (shared memory on the CPU)."""
    return torch.from_numpy(np.asarray(array, dtype=dtype)).to(device)


def fake_quantise(tensor, scale):
    """round(tensor * scale) / scale going forward, identity going back (straight-through).

    Training through the export's rounding keeps the float net and the integer net close.
    """
    return tensor + (torch.round(tensor * scale) / scale - tensor).detach()


def fake_floor(tensor, scale):
    """floor(tensor * scale) / scale going forward, identity going back (straight-through).

    This is the integer net's `>> 6` (and `pool >> 4`) in float units.
    """
    return tensor + (torch.floor(tensor * scale) / scale - tensor).detach()


class PatternSum(torch.autograd.Function):
    """f = gather @ round(E * 256) / 256; the gradient of E (straight through the rounding)
    is scatter @ grad on the rows used, zero elsewhere."""

    @staticmethod
    def forward(ctx, embed, gather, scatter, used_rows):
        ctx.scatter, ctx.used_rows, ctx.embed_shape = scatter, used_rows, embed.shape
        return gather @ torch.round(embed * EMBED_SCALE).div_(EMBED_SCALE)

    @staticmethod
    def backward(ctx, grad):
        embed_grad = grad.new_zeros(ctx.embed_shape)
        embed_grad[ctx.used_rows] = ctx.scatter @ grad.contiguous()
        return embed_grad, None, None, None


def model_inputs(batch, rows, device="cpu"):
    """numpy batch -> (the arguments of PentadNet.forward, the embedding rows it reads), on
    `device`. The incidence is built on the CPU, which the data loading is anyway."""
    incidence = pattern_incidence(batch["keys"], batch["empty"], rows)
    side = tensor(batch["side"], device, np.int64)
    used_rows = tensor(incidence["used_rows"], device)
    gather, scatter = csr(incidence["gather"], device), csr(incidence["scatter"], device)
    counts = tensor(batch["counts"], device, np.float32) if "counts" in batch else None
    return (gather, scatter, used_rows, tensor(batch["empty"], device), side, counts), used_rows


class PentadNet(nn.Module):
    """Pattern embedding E, pooled clipped features, and one head per side to move.

    Head parameters are stacked with a leading dimension of 2 (0 = Black to move).
    The buffer `seen` marks embedding rows met at an empty cell of a training position.
    With `counts`, the parameter `count_rows` weighs the board's pattern counts into the pool.
    """

    def __init__(self, window=10, channels=32, hidden=32, rule=None, cells="clipped", counts=False):
        super().__init__()
        self.rule = rule or WINDOW_FAMILY[window]
        if window not in RULE_WINDOWS[self.rule]:
            raise ValueError(f"a {self.rule} net reads a window of {RULE_WINDOWS[self.rule]} cells, not {window}")
        self.window, self.channels, self.hidden = window, channels, hidden
        self.rows = 3**window
        self.embed = nn.Parameter(torch.empty(self.rows, channels))
        self.w1 = nn.Parameter(torch.empty(2, hidden, channels))
        self.b1 = nn.Parameter(torch.empty(2, hidden))
        self.w2 = nn.Parameter(torch.empty(2, hidden, hidden))
        self.b2 = nn.Parameter(torch.empty(2, hidden))
        self.w3 = nn.Parameter(torch.empty(2, hidden))
        self.b3 = nn.Parameter(torch.empty(2))
        self.p = nn.Parameter(torch.empty(2, channels))
        self.u = nn.Parameter(torch.empty(2, channels, hidden))
        # Zero at the start, as the value head's last layer: no correction until trained.
        self.count_rows = nn.Parameter(torch.zeros(COUNTS, channels)) if counts else None
        self.register_buffer("seen", torch.zeros(self.rows, dtype=torch.bool))
        # A buffer, so that a checkpoint keeps its kind of cells.
        self.register_buffer("linear", torch.tensor(cells == "linear"))
        self.reset_parameters()

    def reset_parameters(self):
        """Small random start; features begin mostly inside the clamp's linear range."""
        with torch.no_grad():
            self.embed.normal_(0.05, 0.1)
            self.embed[0].zero_()
            for weight, fan_in in ((self.w1, self.channels), (self.w2, self.hidden), (self.w3, self.hidden)):
                weight.uniform_(-1.0, 1.0).mul_(1.0 / math.sqrt(fan_in))
            self.b1.fill_(0.1)
            self.b2.fill_(0.1)
            # The value starts as no correction to the classical evaluation.
            self.w3.zero_()
            self.b3.zero_()
            # The policy starts empty too, and stays so when only the value is trained: the
            # engine orders moves by a network's policy only when it has one.
            self.p.zero_()
            self.u.zero_()

    @classmethod
    def from_state_dict(cls, state, rule=None):
        """Rebuilds a net of the shapes found in a checkpoint's state_dict (the rule: the
        window's full one unless given)."""
        rows, channels = state["embed"].shape
        window = round(math.log(rows, 3))
        cells = "linear" if bool(state.get("linear", False)) else "clipped"
        counts = "count_rows" in state
        net = cls(window=window, channels=channels, hidden=state["w1"].shape[1], rule=rule, cells=cells, counts=counts)
        # Checkpoints from before the kind of cells was kept have clipped cells.
        net.load_state_dict({"linear": net.linear, **state})
        return net

    @property
    def cells(self):
        """The kind of cells: "clipped" or "linear" (see CELLS)."""
        return "linear" if bool(self.linear) else "clipped"

    def activations(self, gather, scatter, used_rows, empty):
        """a(c) = clamp(sum_d E[key_d(c)], 0, 1), or the sum itself with linear cells:
        (B, N*N, C); stone cells have no entries, so 0.

        E enters on the export's grid, like the head parameters (see `forward`).
        """
        features = PatternSum.apply(self.embed, gather, scatter, used_rows)
        features = features.view(empty.shape[0], empty.shape[1], self.channels)
        if self.linear:
            return features
        # hardtanh is clamp(x, 0, 1) with a single fused backward kernel.
        return F.hardtanh(features, 0.0, 1.0)

    def quantised_count_rows(self):
        """The count rows as the file holds them (parameter times its scale, on the 1/256 grid
        and within the engine's bound), with straight-through gradients."""
        scale = torch.as_tensor(COUNT_ROW_SCALE, device=self.count_rows.device)[:, None]
        bound = MAX_COUNT_WEIGHT / EMBED_SCALE
        return fake_quantise((self.count_rows * scale).clamp(-bound, bound), EMBED_SCALE)

    def quantised_heads(self):
        """Head parameters on the export's grid (fake-quantised), by name."""
        return {name: fake_quantise(getattr(self, name), scale) for name, _, scale in HEAD_LAYOUT}

    @staticmethod
    def head_layer(inputs, weight, side):
        """weight[side[b]] @ inputs[b] for each b, as one dense product over both heads.

        Both heads cost two small matrices; a dense matmul and a pick beats a batched
        matrix-vector product by far on the CPU.
        """
        both = inputs @ weight.reshape(-1, weight.shape[-1]).T  # (B, 2 * out)
        return both.view(len(side), 2, -1)[torch.arange(len(side), device=side.device), side]

    def forward(self, gather, scatter, used_rows, empty, side, counts=None):
        """-> (value logit (B,), policy logits (B, N*N) with stones at -inf).

        gather, scatter, used_rows: the batch's pattern incidence (`model_inputs`); counts:
        the positions' pattern counts (B, 64), read by a net with count rows.
        Quantisation-aware: parameters enter rounded to the export's fixed-point grid and the
        integer net's shifts are floors (both with straight-through gradients). All values
        are then multiples of powers of two small enough to be exact in float32, so the float
        net computes the integer net's numbers (see `int_forward`).
        """
        q = self.quantised_heads()
        act = self.activations(gather, scatter, used_rows, empty)
        # Each floor below is one of the integer net's shifts: pool >> 4 and the three >> 6.
        total = act.sum(dim=1)
        if self.count_rows is not None:
            # In float64: counts in the hundreds times rows can pass float32's exact integers.
            total = total.double() + counts.double() @ self.quantised_count_rows().double()
        pooled = fake_floor(total / 16.0, EMBED_SCALE).float()
        if self.linear or self.count_rows is not None:
            # The engine's clamp of the pool into [0, i16::MAX] (clipped cells alone stay inside).
            pooled = F.hardtanh(pooled, 0.0, POOLED_MAX)
        h1 = F.hardtanh(fake_floor(self.head_layer(pooled, q["w1"], side) + q["b1"][side], EMBED_SCALE), 0.0, 1.0)
        h2 = F.hardtanh(fake_floor(self.head_layer(h1, q["w2"], side) + q["b2"][side], EMBED_SCALE), 0.0, 1.0)
        value = (q["w3"][side] * h2).sum(dim=-1) + q["b3"][side]
        dynamic = fake_floor(q["p"][side] + self.head_layer(h1, q["u"], side), EMBED_SCALE)
        policy = torch.bmm(act, dynamic.unsqueeze(-1)).squeeze(-1)
        return value, policy.masked_fill(~empty, float("-inf"))

    def mark_seen(self, used_rows):
        """Records the rows a training batch read."""
        self.seen[used_rows] = True

    @torch.no_grad()
    def fix_zero_row(self):
        """Row 0 (the all-empty window) stays exactly zero (it gets no gradient anyway)."""
        self.embed[0].zero_()

    @torch.no_grad()
    def zero_unseen_rows(self):
        """Rows no training position has read are zero: the export writes them so."""
        self.embed[~self.seen] = 0.0
        self.embed[0].zero_()


def losses(net, batch):
    """-> (value BCE, policy CE, top-1 hits, rows read) of one numpy batch.

    The predicted value logit is the classical evaluation's (`batch["base"]`) plus the net's;
    each position's value loss counts `batch["weight"]` times (a mean over the batch).
    """
    device = net.embed.device
    inputs, used_rows = model_inputs(batch, net.rows, device)
    value, policy = net(*inputs)
    target = tensor(batch["target"], device)
    move = tensor(batch["move"], device, np.int64)
    weight = tensor(batch["weight"], device)
    value_loss = F.binary_cross_entropy_with_logits(value + tensor(batch["base"], device), target, weight=weight)
    policy_loss = F.cross_entropy(policy, move)
    hits = (policy.argmax(dim=1) == move).sum()
    return value_loss, policy_loss, hits, used_rows


def sibling_loss(net, children, temperature):
    """-> (ranking CE, children's value BCE or None, hits, rows read).

    Ranking: each child's value (classical base + net, for the side to move there) is
    negated into the mover's view; a softmax over the children at `temperature` (logit
    units) should pick the played one (slot 0); positions without siblings (from a file that
    has none) take no part. Value: children with a search score get the usual value loss
    against it (pure score targets: a sibling has no game result).
    """
    device = net.embed.device
    inputs, used_rows = model_inputs(children, net.rows, device)
    value, _ = net(*inputs)
    base = tensor(children["base"], device)
    valid = tensor(children["valid"], device)
    logit = value.view(base.shape) + base
    mover = (-logit / temperature).masked_fill(~valid, float("-inf"))[valid[:, 0]]
    if len(mover):
        loss = F.cross_entropy(mover, torch.zeros(len(mover), dtype=torch.int64, device=device))
    else:
        loss = logit.sum() * 0.0
    hits = (mover.argmax(dim=1) == 0).sum()
    scored = tensor(children["scored"], device)
    child_value = None
    if bool(scored.any()):
        target = tensor(children["target"], device)
        child_value = F.binary_cross_entropy_with_logits(logit[scored], target[scored])
    return loss, child_value, hits, used_rows


# ---------------------------------------------------------------------------------------
# Quantised export
# ---------------------------------------------------------------------------------------


def pnet_size(window, channels, hidden, count_rows=False):
    """Bytes of a .pnet file: header, E (i16), the count rows if any, then two heads."""
    head = (
        2 * hidden * channels + 4 * hidden  # w1, b1
        + 2 * hidden * hidden + 4 * hidden  # w2, b2
        + 2 * hidden + 4  # w3, b3
        + 2 * channels + 2 * channels * hidden  # p, u
    )
    return HEADER_SIZE + 2 * (3**window + COUNTS * count_rows) * channels + 2 * head


def quantise_array(name, values, dtype, scale, warnings):
    """round(values * scale), clamped to the type's range (each clamp noted in `warnings`)."""
    scaled = np.round(np.asarray(values, dtype=np.float64) * scale)
    info = np.iinfo(dtype)
    clamped = int(np.count_nonzero((scaled < info.min) | (scaled > info.max)))
    if clamped:
        warnings.append(f"{name}: {clamped} values clamped to {np.dtype(dtype).name}")
    return np.clip(scaled, info.min, info.max).astype(dtype)


def quantise(net):
    """Float net -> dict of integer arrays as the engine reads them (+ list of clamp warnings).

    E rows never seen in training, and row 0, are zero. Head arrays keep the leading
    side dimension: q["w1"][0] is the Black-to-move head.
    """
    warnings = []
    embed = net.embed.detach().cpu().clone()
    embed[~net.seen.cpu()] = 0.0
    embed[0] = 0.0
    q = {"E": quantise_array("E", embed.numpy(), np.int16, EMBED_SCALE, warnings)}
    for name, dtype, scale in HEAD_LAYOUT:
        q[name] = quantise_array(name, getattr(net, name).detach().cpu().numpy(), dtype, scale, warnings)
    q["window"], q["channels"], q["hidden"] = net.window, net.channels, net.hidden
    q["cells"] = CELLS[net.cells]
    if net.count_rows is not None:
        rows = net.quantised_count_rows().detach().cpu().numpy()
        q["R"] = quantise_array("R", rows, np.int16, EMBED_SCALE, warnings)
    q["family"] = FAMILIES[net.rule][0]
    return q, warnings


def write_pnet(path, q):
    """Writes the little-endian .pnet file of quantised arrays `q`."""
    with open(path, "wb") as f:
        kind = q.get("cells", 0) | (KIND_COUNT_ROWS if "R" in q else 0)
        header = (MAGIC, q["family"], q["window"], q["channels"], q["hidden"], kind)
        f.write(struct.pack(HEADER_FORMAT, *header))
        f.write(q["E"].astype("<i2").tobytes())
        if "R" in q:
            f.write(q["R"].astype("<i2").tobytes())
        for side in (0, 1):
            for name, dtype, _ in HEAD_LAYOUT:
                f.write(q[name][side].astype(np.dtype(dtype).newbyteorder("<")).tobytes())


def read_pnet(path):
    """Reads a .pnet file back into the dict `write_pnet` takes (plus "family")."""
    with open(path, "rb") as f:
        data = f.read()
    magic, family, window, channels, hidden, kind = struct.unpack_from(HEADER_FORMAT, data)
    cells, count_rows = kind & ~KIND_COUNT_ROWS, bool(kind & KIND_COUNT_ROWS)
    size = pnet_size(window, channels, hidden, count_rows)
    if magic != MAGIC or cells not in CELLS.values() or len(data) != size:
        raise ValueError(f"{path}: not a valid .pnet file")
    shapes = {
        "w1": (hidden, channels), "b1": (hidden,), "w2": (hidden, hidden), "b2": (hidden,),
        "w3": (hidden,), "b3": (), "p": (channels,), "u": (channels, hidden),
    }
    offset = HEADER_SIZE

    def take(dtype, shape):
        nonlocal offset
        dt = np.dtype(dtype).newbyteorder("<")
        count = int(np.prod(shape))
        array = np.frombuffer(data, dtype=dt, count=count, offset=offset).reshape(shape)
        offset += count * dt.itemsize
        return array.astype(dtype)

    q = {"family": family, "window": window, "channels": channels, "hidden": hidden, "cells": cells}
    q["E"] = take(np.int16, (3**window, channels))
    if count_rows:
        q["R"] = take(np.int16, (COUNTS, channels))
    heads = [{name: take(dtype, shapes[name]) for name, dtype, _ in HEAD_LAYOUT} for _ in (0, 1)]
    for name, _, _ in HEAD_LAYOUT:
        q[name] = np.stack([heads[0][name], heads[1][name]])
    return q


# ---------------------------------------------------------------------------------------
# Integer inference (the engine's arithmetic) in numpy
# ---------------------------------------------------------------------------------------

I32_MAX = 2**31 - 1


def int_forward(q, keys, empty, side, stats=None, counts=None):
    """The engine's integer inference on a batch -> (value logits, policy logits (B, N*N)).

    q: arrays as `read_pnet` returns them; keys (B, N*N, 4), empty (B, N*N), side (B,);
    counts (B, 64), the pattern counts, read when q has count rows ("R").
    Mirrors the spec step by step, in int64; a dict `stats` gets "peak", the largest
    magnitude of any sum before its shift, to check that the engine's i32 holds it.
    Logits are the integers over 16384 (value) and 65536 (policy); stones get -inf.
    """
    side = np.asarray(side, dtype=np.int64)
    features = q["E"][keys].astype(np.int32).sum(axis=2, dtype=np.int32)  # (B, cells, C)
    if q.get("cells", 0) == CELLS["linear"]:
        act = features.astype(np.int64) * empty[..., None]
    else:
        act = np.clip(features, 0, 256).astype(np.int64) * empty[..., None]
    pool = act.sum(axis=1)
    if "R" in q:
        pool = pool + np.asarray(counts, dtype=np.int64) @ q["R"].astype(np.int64)
    pooled = np.clip(pool >> POOL_SHIFT, 0, 32767)
    w1, w2, u = (q[n][side].astype(np.int64) for n in ("w1", "w2", "u"))
    b1, b2, w3, p = (q[n][side].astype(np.int64) for n in ("b1", "b2", "w3", "p"))
    b3 = q["b3"][side].astype(np.int64)
    pre1 = np.einsum("bhc,bc->bh", w1, pooled) + b1
    h1 = np.clip(pre1 >> 6, 0, 256)
    pre2 = np.einsum("bhc,bc->bh", w2, h1) + b2
    h2 = np.clip(pre2 >> 6, 0, 256)
    value_int = (w3 * h2).sum(axis=1) + b3
    pre_dyn = p * 256 + np.einsum("bch,bh->bc", u, h1)
    dynamic = pre_dyn >> 6
    policy_int = np.einsum("bnc,bc->bn", act, dynamic)
    if stats is not None:
        stats["peak"] = max(int(np.abs(a).max(initial=0)) for a in (pool, pre1, pre2, value_int, pre_dyn, policy_int))
    policy = np.where(empty, policy_int / POLICY_UNIT, -np.inf)
    return value_int / VALUE_UNIT, policy


# ---------------------------------------------------------------------------------------
# Float-vs-integer agreement and the engine's agreement file
# ---------------------------------------------------------------------------------------

AGREE_POSITIONS = 24
TOP_CELLS = 3


def held_out_indices(sets):
    """(set index, position index) of every held-out position, in reading order."""
    pairs = [(s, i) for s, ps in enumerate(sets) for i in np.flatnonzero(ps.held_out)]
    return sorted(pairs, key=lambda pair: sets[pair[0]].seq[pair[1]])


@torch.no_grad()
def float_outputs(net, batch):
    """Float value logits (B,) and policy logits (B, N*N) as numpy."""
    inputs, _ = model_inputs(batch, net.rows, net.embed.device)
    value, policy = net(*inputs)
    return value.cpu().numpy().astype(np.float64), policy.cpu().numpy().astype(np.float64)


def top_cells(policy_row, count=TOP_CELLS):
    """Indices of the `count` largest finite logits, best first."""
    finite = np.flatnonzero(np.isfinite(policy_row))
    order = finite[np.argsort(-policy_row[finite], kind="stable")]
    return order[:count]


def measure_agreement(net, q, sets, window, batch_size=256):
    """Max |float - int| of the value logit and of the float top-3 policy logits, held-out set.

    Returns (value bound, policy bound, positions measured, peak accumulator magnitude).
    """
    net.eval()
    value_bound = policy_bound = 0.0
    measured = peak = 0
    for ps in sets:
        indices = np.flatnonzero(ps.held_out)
        for start in range(0, len(indices), batch_size):
            chunk = indices[start : start + batch_size]
            batch = ps.batch(chunk, np.zeros(len(chunk), dtype=np.int64), window)
            float_value, float_policy = float_outputs(net, batch)
            stats = {}
            int_value, int_policy = int_forward(q, batch["keys"], batch["empty"], batch["side"], stats, batch["counts"])
            peak = max(peak, stats["peak"])
            value_bound = max(value_bound, float(np.abs(float_value - int_value).max()))
            for row in range(len(chunk)):
                cells = top_cells(float_policy[row])
                diff = np.abs(float_policy[row, cells] - int_policy[row, cells])
                policy_bound = max(policy_bound, float(diff.max(initial=0.0)))
            measured += len(chunk)
    return value_bound, policy_bound, measured, peak


def agreement_lines(net, sets, rule, window, count=AGREE_POSITIONS):
    """Lines of the agreement file: first `count` held-out positions, float net, no augmentation."""
    net.eval()
    lines = []
    for set_index, index in held_out_indices(sets)[:count]:
        ps = sets[set_index]
        batch = ps.batch(np.array([index]), np.zeros(1, dtype=np.int64), window)
        value, policy = float_outputs(net, batch)
        cells = [f"{c % ps.size},{c // ps.size}:{policy[0, c]:.5f}" for c in top_cells(policy[0])]
        lines.append(f"{rule} {ps.size}x{ps.size} {ps.moves_text(index)} {value[0]:.5f} " + " ".join(cells))
    return lines
