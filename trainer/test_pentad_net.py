"""Tests of the trainer: keys, symmetries, games files, the .pnet export and integer inference.

Run: .venv/bin/python -m unittest discover -s trainer
"""

import contextlib
import io
import math
import re
import struct
import sys
import tempfile
import unittest
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parent))
import pentad_net as pn  # noqa: E402
import train  # noqa: E402

torch.set_num_threads(1)

# Largest |float - integer| differences the tests accept (value logit, top-3 policy logits).
# The float net computes the integer net's numbers exactly (quantisation-aware forward, all
# values exact in float32): the sample run measured 0 over its held-out set (README).
VALUE_BOUND = 1e-6
POLICY_BOUND = 1e-6


def board_from(size, black=(), white=()):
    """A (1, N, N) board indexed [y, x] with the given (x, y) stones."""
    board = np.zeros((1, size, size), dtype=np.int8)
    for x, y in black:
        board[0, y, x] = pn.BLACK
    for x, y in white:
        board[0, y, x] = pn.WHITE
    return board


def key_at(board, window, x, y, direction):
    """The key of one cell from compute_keys."""
    size = board.shape[1]
    return int(pn.compute_keys(board, window)[0, y * size + x, direction])


def slow_key(board, window, x, y, dx, dy):
    """Reference key: the spec's formula cell by cell, walls off the board."""
    size = board.shape[0]
    key = 0
    for j, offset in enumerate(pn.window_offsets(window)):
        cx, cy = x + offset * dx, y + offset * dy
        state = board[cy, cx] if 0 <= cx < size and 0 <= cy < size else pn.WALL
        key += int(state) * 3**j
    return key


def random_games_text(rng, count, size, rule="renju"):
    """Games-file text of `count` random games (distinct cells, random results and scores)."""
    lines = []
    for game_id in range(count):
        length = int(rng.integers(4, 30))
        cells = rng.choice(size * size, size=length, replace=False)
        moves = ",".join(pn.move_text(int(c % size), int(c // size)) for c in cells)
        opening = int(rng.integers(0, 4))
        scores = ",".join(str(int(v)) for v in rng.integers(-900, 900, size=length - opening))
        result = ("1-0", "0-1", "1/2-1/2")[int(rng.integers(0, 3))]
        lines.append(f"{game_id} {rule} {size}x{size} {result} {opening} {moves} {scores or '-'}")
    return "\n".join(lines) + "\n"


def random_counts(rng, games):
    """Random pattern counts per searched move of each game, as `static-eval --counts` has
    them: {game id: [64 counts, ...]} (the first 32 in the hundreds, the rest small)."""
    def one():
        return [int(v) for v in np.concatenate([rng.integers(0, 400, 32), rng.integers(0, 6, 32)])]
    return {g.game_id: [one() for _ in g.scores] for g in games}


def sets_from_text(text, rule, lam=0.5, counts_seed=None):
    """Position sets of games-file text (through a temporary file and read_games), with
    random pattern counts when `counts_seed` is given."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "g.games"
        path.write_text(text)
        games, _ = pn.read_games(str(path), rule)
    if counts_seed is not None:
        pn.attach_counts(games, random_counts(np.random.default_rng(counts_seed), games), "test")
    return pn.position_sets(games, lam)


def quick_train(sets, window, steps=40, seed=3, cells="clipped", counts=False):
    """A net trained for a few steps with random symmetries (weights away from their start)."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = pn.PentadNet(window=window, channels=8, hidden=8, cells=cells, counts=counts)
    optimiser = torch.optim.Adam(net.parameters(), lr=3e-3)
    for _ in range(steps):
        ps = sets[int(rng.integers(len(sets)))]
        indices = rng.choice(np.flatnonzero(~ps.held_out), size=32)
        batch = ps.batch(indices, rng.integers(0, 8, size=32), window)
        value_loss, policy_loss, _, used_rows = pn.losses(net, batch)
        net.mark_seen(used_rows)
        optimiser.zero_grad()
        (value_loss + policy_loss).backward()
        optimiser.step()
        net.fix_zero_row()
    net.zero_unseen_rows()
    return net


class KeyTest(unittest.TestCase):
    def test_corner_of_an_empty_board(self):
        board = board_from(5)
        # Horizontal at (0, 0): the negative offsets are walls (state 2), the rest empty.
        self.assertEqual(key_at(board, 8, 0, 0, 0), 2 * (1 + 3 + 9 + 27))  # 80
        # W=10 on a 5x5 board: offsets -5..-1 are walls, and so is +5 (x = 5 is off the board).
        self.assertEqual(key_at(board, 10, 0, 0, 0), 2 * (1 + 3 + 9 + 27 + 81) + 2 * 3**9)  # 39608
        # Anti-diagonal (1, -1) at (0, 0): every slot is off the board.
        self.assertEqual(key_at(board, 8, 0, 0, 3), 3**8 - 1)
        self.assertEqual(key_at(board, 10, 0, 0, 3), 3**10 - 1)

    def test_stones_near_the_edge(self):
        # Black c1 = (2, 0), White a3 = (0, 2); the cell is a1 = (0, 0).
        board = board_from(5, black=[(2, 0)], white=[(0, 2)])
        # W=8 horizontal: walls 80, black at +2 = slot 5 -> 1 * 243.
        self.assertEqual(key_at(board, 8, 0, 0, 0), 80 + 243)
        # W=8 vertical: walls 80, white at +2 = slot 5 -> 2 * 243.
        self.assertEqual(key_at(board, 8, 0, 0, 1), 80 + 2 * 243)
        # W=10 vertical: walls in slots 0..4 (242), white at +2 = slot 6, wall at +5 = slot 9.
        self.assertEqual(key_at(board, 10, 0, 0, 1), 242 + 2 * 3**6 + 2 * 3**9)
        # Diagonal (1, 1) from (0, 0) meets neither stone: walls below, empties and +5 above.
        self.assertEqual(key_at(board, 10, 0, 0, 2), 242 + 2 * 3**9)

    def test_diagonals_in_the_middle(self):
        # Cell h8 = (7, 7); Black at (9, 9) is +2 on (1, 1); White at (5, 9) is -2 on (1, -1).
        board = board_from(15, black=[(9, 9)], white=[(5, 9)])
        self.assertEqual(key_at(board, 10, 7, 7, 2), 1 * 3**6)  # +2 is slot 6 of W=10
        self.assertEqual(key_at(board, 10, 7, 7, 3), 2 * 3**3)  # -2 is slot 3
        self.assertEqual(key_at(board, 10, 7, 7, 0), 0)
        self.assertEqual(key_at(board, 8, 7, 7, 2), 1 * 3**5)  # +2 is slot 5 of W=8
        self.assertEqual(key_at(board, 8, 7, 7, 3), 2 * 3**2)  # -2 is slot 2

    def test_vectorised_keys_match_the_formula(self):
        rng = np.random.default_rng(5)
        for size in (5, 7, 15, 20):
            board = rng.integers(0, 3, size=(1, size, size)).astype(np.int8)
            for window in (8, 10):
                keys = pn.compute_keys(board, window)
                for d, (dx, dy) in enumerate(pn.DIRECTIONS):
                    for y in range(size):
                        for x in range(size):
                            expected = slow_key(board[0], window, x, y, dx, dy)
                            self.assertEqual(keys[0, y * size + x, d], expected)

    def test_activations_are_sums_of_embedding_rows(self):
        # The sparse products must give E[k0] + E[k1] + E[k2] + E[k3] (repeated keys counted
        # twice, as at a corner) at empty cells and 0 at stones.
        rng = np.random.default_rng(6)
        net = pn.PentadNet(window=8, channels=4, hidden=4)
        with torch.no_grad():
            net.embed.uniform_(-0.1, 0.4).mul_(256).round_().div_(256)
            net.embed[0].zero_()
        boards = rng.choice([0, 0, 0, 1, 2], size=(3, 9, 9)).astype(np.int8)
        keys = pn.compute_keys(boards, 8)
        empty = (boards == pn.EMPTY).reshape(3, -1)
        inputs, _ = pn.model_inputs({"keys": keys, "empty": empty, "side": np.zeros(3)}, net.rows)
        with torch.no_grad():
            act = net.activations(*inputs[:4]).numpy()
        table = net.embed.detach().numpy()
        expected = np.clip(table[keys].sum(axis=2), 0, 1) * empty[..., None]
        np.testing.assert_allclose(act, expected, atol=1e-6)


class SymmetryTest(unittest.TestCase):
    def transform_board(self, board, sym):
        """The array form of apply_symmetry: transpose, then flip x (axis 1), then y (axis 0)."""
        if sym & 4:
            board = board.T
        if sym & 1:
            board = board[:, ::-1]
        if sym & 2:
            board = board[::-1, :]
        return board

    def test_each_symmetry_maps_board_and_move_together(self):
        size = 15
        xs = np.array([[7, 8, 3, 0, 14, 2]])
        ys = np.array([[7, 9, 1, 13, 0, 2]])
        plies = np.array([5])
        board = pn.build_boards(xs, ys, plies, size)[0]
        images = set()
        for sym in range(8):
            sx, sy = pn.apply_symmetry(xs, ys, sym, size)
            mapped = pn.build_boards(sx, sy, plies, size)[0]
            np.testing.assert_array_equal(mapped, self.transform_board(board, sym))
            # The played move lands where the array transform sends it.
            marker = np.zeros((size, size), dtype=np.int8)
            marker[ys[0, 5], xs[0, 5]] = 1
            self.assertEqual(self.transform_board(marker, sym)[sy[0, 5], sx[0, 5]], 1)
            images.add(mapped.tobytes())
        self.assertEqual(len(images), 8)

    def test_batch_moves_follow_the_symmetry(self):
        text = "1 renju 15x15 1-0 1 h8,j10,c2,a14 5,-5,7\n"
        ps = sets_from_text(text, "renju")[0]
        for sym in range(8):
            batch = ps.batch(np.arange(3), np.full(3, sym), 10)
            for row, ply in enumerate((1, 2, 3)):
                x, y = pn.apply_symmetry(int(ps.xs[0, ply]), int(ps.ys[0, ply]), sym, 15)
                self.assertEqual(batch["move"][row], y * 15 + x)
                self.assertTrue(batch["empty"][row, batch["move"][row]])
                self.assertEqual(batch["empty"][row].sum(), 225 - ply)


class GamesFileTest(unittest.TestCase):
    TEXT = (
        "# a comment line\n"
        "20 renju 15x15 1-0 2 h8,i9,j10,k11 35,-20\n"
        "1 renju 15x15 1/2-1/2 4 h8,i9,j10,k11 -\n"
        "2 renju 15x15 1/2-1/2 1 h8,i9,j10 100,29000\n"
        "3 freestyle 15x15 0-1 0 h8,i9 5,-5\n"
        "4 renju 15x15 1-0 1 h8,i9 5,6\n"
        "5 renju 15x15 1-0 0 h8,p9 5,5\n"
        "6 renju 15x15 1-0 0 h8,h8 5,5\n"
        "7 standard 15x15 1-0 0 h8,i9 5,5\n"
        "8 renju 15x15 0-1 0 h8,i9 10,-1"  # cut short: no newline
    )

    def read(self):
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "t.games"
            path.write_text(self.TEXT)
            return pn.read_games(str(path), "renju")

    def attach(self, games, good, bad):
        """Attaches the static-eval text `good` to `games`; each text of `bad` must be refused."""
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "t.evals"
            path.write_text(good)
            pn.attach_evals(games, pn.read_evals(str(path)), "t.evals")
            for text in bad:
                path.write_text(text)
                with self.assertRaises(ValueError):
                    pn.attach_evals(games, pn.read_evals(str(path)), "t.evals")

    def test_lines_kept_and_skipped(self):
        games, skipped = self.read()
        self.assertEqual([g.game_id for g in games], [20, 1, 2])
        self.assertEqual(skipped, {"malformed": 3, "other rule": 2, "cut last line": 1})
        self.assertEqual((games[0].xs[2], games[0].ys[2]), (9, 9))  # j10
        self.assertEqual(games[1].scores, [])
        self.assertEqual(games[1].black_result, 0.5)

    def test_positions_and_targets(self):
        games, _ = self.read()
        ps = pn.position_sets(games, lam=0.5)[0]
        sig = lambda s: 1 / (1 + math.exp(-s / 600))  # noqa: E731
        # Game 20 (held out): plies 2 (Black to move, Black won) and 3 (White, lost).
        # Game 1 has no searched moves; game 2 (a draw): plies 1 (White) and 2 (Black, mate).
        np.testing.assert_array_equal(ps.ply, [2, 3, 1, 2])
        np.testing.assert_array_equal(ps.side, [0, 1, 1, 0])
        np.testing.assert_array_equal(ps.held_out, [True, True, False, False])
        expected = [0.5 + 0.5 * sig(35), 0.5 * sig(-20), 0.25 + 0.5 * sig(100), 0.25 + 0.5]
        np.testing.assert_allclose(ps.target, expected, rtol=1e-6)
        self.assertEqual(ps.moves_text(0), "h8,i9")
        batch = ps.batch(np.arange(4), np.zeros(4, dtype=np.int64), 10)
        np.testing.assert_array_equal(batch["move"], [9 * 15 + 9, 10 * 15 + 10, 8 * 15 + 8, 9 * 15 + 9])

    def test_classical_evaluations_are_the_value_base(self):
        games, _ = self.read()
        # Refused: a count that is not one per searched move; not a number.
        self.attach(games, "20 600,-300\n1 -\n2 0,1200\n", ["20 600\n1 -\n2 0,1200\n", "20 x\n"])
        ps = pn.position_sets(games, lam=0.5)[0]
        np.testing.assert_allclose(ps.base, [1.0, -0.5, 0.0, 2.0])
        # A net with no value weights predicts the classical evaluation exactly.
        net = pn.PentadNet(window=10, channels=4, hidden=4)
        batch = ps.batch(np.arange(4), np.zeros(4, dtype=np.int64), 10)
        value_loss, _, _, _ = pn.losses(net, batch)
        expected = F.binary_cross_entropy_with_logits(torch.tensor(ps.base), torch.tensor(ps.target))
        self.assertAlmostEqual(value_loss.item(), expected.item(), places=6)

    def test_siblings_make_children_and_a_ranking_loss(self):
        games, _ = self.read()
        # Game 20: plies 2 (Black to move, played j10) and 3 (White, played k11). Refused:
        # not one siblings entry per searched move.
        good = "20 0,0 -60/a1:30/o15:90,12/b2:-6/c3:0\n1 - -\n2 0,0 0/d4:0,0/e5:0\n"
        self.attach(games, good, ["20 0,0 -60/a1:30\n"])
        ps = pn.position_sets(games, lam=0.5)[0]
        self.assertEqual(ps.sibling_count, 2)
        np.testing.assert_array_equal(ps.sib_valid[2], [True, True, False])
        np.testing.assert_allclose(ps.sib_base[0], [-0.1, 0.05, 0.15])
        for sym in range(8):
            kids = ps.children(np.array([0, 1]), np.array([sym, sym]), 10)
            boards = (~kids["empty"]).reshape(2, 3, 15, 15).sum(axis=(2, 3))
            np.testing.assert_array_equal(boards, [[3, 3, 3], [4, 4, 4]])  # one stone more each
            np.testing.assert_array_equal(kids["side"], [1, 1, 1, 0, 0, 0])
            # The sibling stone of position 0 (Black to move) sits at a1's image in Black.
            x, y = pn.apply_symmetry(np.array(0), np.array(0), sym, 15)
            expected = pn.build_boards(*pn.apply_symmetry(ps.xs[:1, :2].astype(np.int64), ps.ys[:1, :2].astype(np.int64), sym, 15), np.array([2]), 15)[0]
            expected[y, x] = pn.BLACK
            np.testing.assert_array_equal((kids["keys"][1] == pn.compute_keys(expected[None], 10)[0]), True)
        net = pn.PentadNet(window=10, channels=4, hidden=4)  # no value yet: the classical ranking
        loss, child_value, hits, _ = pn.sibling_loss(net, ps.children(np.arange(4), np.zeros(4, dtype=np.int64), 10), 0.25)
        self.assertIsNone(child_value)  # no searched children
        # Position 0: the mover's values are 0.1, -0.05, -0.15: the played child is first.
        expected = -torch.log_softmax(torch.tensor([0.1, -0.05, -0.15]) / 0.25, 0)[0]
        self.assertTrue(torch.isfinite(loss))
        self.assertGreaterEqual(hits.item(), 1)
        self.assertGreater(loss.item(), 0)
        single, _, _, _ = pn.sibling_loss(net, ps.children(np.arange(1), np.zeros(1, dtype=np.int64), 10), 0.25)
        self.assertAlmostEqual(single.item(), expected.item(), places=5)

    def test_positions_without_siblings_take_no_part_in_the_ranking(self):
        games, _ = self.read()
        self.attach(games, "20 0,0 -60/a1:30/o15:90,12/b2:-6/c3:0\n1 - -\n2 0,0 0/d4:0,0/e5:0\n", [])
        plain, _ = self.read()
        self.attach(plain, "20 0,0\n1 -\n2 0,0\n", [])
        for game in plain:
            game.game_id += 100
        ps = pn.position_sets(games + plain, lam=0.5)[0]
        np.testing.assert_array_equal(ps.sib_valid[:, 0], [True] * 4 + [False] * 4)
        net = pn.PentadNet(window=10, channels=4, hidden=4)
        zero = np.zeros(8, dtype=np.int64)
        mixed, _, hits, _ = pn.sibling_loss(net, ps.children(np.arange(8), zero, 10), 0.25)
        alone, _, alone_hits, _ = pn.sibling_loss(net, ps.children(np.arange(4), zero[:4], 10), 0.25)
        self.assertAlmostEqual(mixed.item(), alone.item(), places=6)
        self.assertEqual(hits.item(), alone_hits.item())
        none, _, none_hits, _ = pn.sibling_loss(net, ps.children(np.arange(4, 8), zero[4:], 10), 0.25)
        self.assertEqual((none.item(), none_hits.item()), (0.0, 0))

    def test_a_value_weight_of_zero_leaves_a_position_out_of_the_value_loss(self):
        games, _ = self.read()
        self.attach(games, "20 10,-20\n1 -\n2 30,40\n", [])
        games[2].value_weight = 0.0  # game 2: positions 2 and 3
        ps = pn.position_sets(games, lam=0.5)[0]
        np.testing.assert_array_equal(ps.value_weight, [1, 1, 0, 0])
        net = pn.PentadNet(window=10, channels=4, hidden=4)
        value_loss, _, _, _ = pn.losses(net, ps.batch(np.arange(4), np.zeros(4, dtype=np.int64), 10))
        each = F.binary_cross_entropy_with_logits(torch.tensor(ps.base), torch.tensor(ps.target), reduction="none")
        self.assertAlmostEqual(value_loss.item(), each[:2].sum().item() / 4, places=6)

    def test_searched_children_get_value_targets(self):
        games, _ = self.read()
        good = "20 0,0 -60:600/a1:30:-29000,0:0/b2:0:0\n1 - -\n2 0,0 0:0/d4:0:0,0:0/e5:0:0\n"
        self.attach(games, good, ["20 0,0 -60:600:1/a1:30,0/b2:0\n"])  # a third field
        ps = pn.position_sets(games, lam=0.5)[0]
        np.testing.assert_allclose(ps.sib_target[0], [1 / (1 + math.exp(-1)), 0.0], rtol=1e-6)
        self.assertTrue(ps.sib_scored[:, :2].all())
        net = pn.PentadNet(window=10, channels=4, hidden=4)  # no value yet: the classical logits
        kids = ps.children(np.arange(1), np.zeros(1, dtype=np.int64), 10)
        _, child_value, _, _ = pn.sibling_loss(net, kids, 0.25)
        expected = F.binary_cross_entropy_with_logits(torch.tensor([-0.1, 0.05]), torch.tensor(ps.sib_target[0]))
        self.assertAlmostEqual(child_value.item(), expected.item(), places=5)

    def test_sizes_are_apart_and_held_out_order_is_reading_order(self):
        text = (
            "40 freestyle 20x20 1-0 0 a1,t20,j10 1,2,3\n"
            "0 freestyle 15x15 0-1 1 h8,o15 -7\n"
            "20 freestyle 20x20 1/2-1/2 2 b2,c3,d4 5\n"
        )
        sets = sets_from_text(text, "freestyle")
        self.assertEqual([ps.size for ps in sets], [15, 20])
        order = [(sets[s].size, int(sets[s].ply[i])) for s, i in pn.held_out_indices(sets)]
        self.assertEqual(order, [(20, 0), (20, 1), (20, 2), (15, 1), (20, 2)])
        self.assertEqual((sets[1].xs[0, 1], sets[1].ys[0, 1]), (19, 19))  # t20

    def test_a_game_of_its_own_lambda_overrides_the_sets(self):
        games, _ = self.read()
        games[2].lam = 0.0  # game 2, a draw: its targets come from the scores alone
        ps = pn.position_sets(games, lam=0.5)[0]
        sig = lambda s: 1 / (1 + math.exp(-s / 600))  # noqa: E731
        np.testing.assert_allclose(ps.target[2:], [sig(100), 1.0], rtol=1e-6)
        np.testing.assert_allclose(ps.target[0], 0.5 + 0.5 * sig(35), rtol=1e-6)

    def test_lambda_weights_result_against_score(self):
        sides = np.array([0, 1])
        np.testing.assert_allclose(pn.value_targets(1.0, sides, [-25000, 300], lam=1.0), [1.0, 0.0])
        np.testing.assert_allclose(pn.value_targets(1.0, sides, [-25000, 20000], lam=0.0), [0.0, 1.0])


class ExportTest(unittest.TestCase):
    def test_file_size_matches_the_formula(self):
        self.assertEqual(pn.pnet_size(10, 32, 32), 3792216)
        self.assertEqual(pn.pnet_size(8, 32, 32), 432984)
        with tempfile.TemporaryDirectory() as folder:
            for window, channels, hidden in ((10, 32, 32), (8, 32, 32), (8, 5, 3)):
                net = pn.PentadNet(window=window, channels=channels, hidden=hidden)
                path = Path(folder) / f"{window}.pnet"
                pn.write_pnet(path, pn.quantise(net)[0])
                self.assertEqual(path.stat().st_size, pn.pnet_size(window, channels, hidden))

    def test_header_and_round_trip(self):
        torch.manual_seed(1)
        net = pn.PentadNet(window=8, channels=6, hidden=5)
        net.seen[:100] = True
        with torch.no_grad():
            net.b3.fill_(0.37)
        q, warnings = pn.quantise(net)
        self.assertEqual(warnings, [])
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "n.pnet"
            pn.write_pnet(path, q)
            data = path.read_bytes()
            back = pn.read_pnet(path)
        self.assertEqual(data[:16], b"PNTDNET1" + struct.pack("<BBHHH", 1, 8, 6, 5, 0))
        self.assertEqual(back["family"], 1)
        for name in ["E"] + [n for n, _, _ in pn.HEAD_LAYOUT]:
            np.testing.assert_array_equal(back[name], q[name], err_msg=name)
            self.assertEqual(back[name].dtype, q[name].dtype)
        self.assertEqual(int(back["b3"][0]), round(0.37 * 256 * 64))
        # Row 0 and rows never seen are exported as zero; a seen row is not.
        self.assertFalse(back["E"][0].any() or back["E"][100:].any())
        self.assertTrue(back["E"][1:100].any())
        # The first head's w1 follows E directly, [h][c].
        offset = 16 + 2 * 3**8 * 6
        first = np.frombuffer(data, dtype="<i2", count=6, offset=offset)
        np.testing.assert_array_equal(first, q["w1"][0, 0])

    def test_clamping_is_reported(self):
        net = pn.PentadNet(window=8, channels=2, hidden=2)
        with torch.no_grad():
            net.w2[0, 0, 0] = 1000.0
        q, warnings = pn.quantise(net)
        self.assertEqual(q["w2"][0, 0, 0], 32767)
        self.assertTrue(any(w.startswith("w2: 1 ") for w in warnings))


class IntegerInferenceTest(unittest.TestCase):
    def check_agreement(self, rule, size, window, cells="clipped", counts=False):
        text = random_games_text(np.random.default_rng(size), 80, size, rule)
        sets = sets_from_text(text, rule, counts_seed=size if counts else None)
        net = quick_train(sets, window, cells=cells, counts=counts)
        q, _ = pn.quantise(net)
        self.assertEqual(q["cells"], pn.CELLS[cells])
        self.assertEqual("R" in q, counts)
        if counts:
            self.assertTrue(q["R"][:32].any() and q["R"][32:].any(), "both kinds of count rows trained")
        value_bound, policy_bound, measured, peak = pn.measure_agreement(net, q, sets, window)
        self.assertGreater(measured, 20)
        self.assertLessEqual(value_bound, VALUE_BOUND)
        self.assertLessEqual(policy_bound, POLICY_BOUND)
        self.assertLess(peak, pn.I32_MAX)

    def test_renju_int_forward_agrees_with_the_float_net(self):
        self.check_agreement("renju", 15, 10)

    def test_freestyle_int_forward_agrees_with_the_float_net(self):
        self.check_agreement("freestyle", 20, 8)

    def test_linear_cells_int_forward_agrees_with_the_float_net(self):
        self.check_agreement("freestyle", 15, 8, cells="linear")
        self.check_agreement("renju", 15, 10, cells="linear")

    def test_count_rows_int_forward_agrees_with_the_float_net(self):
        self.check_agreement("freestyle", 15, 8, cells="linear", counts=True)
        self.check_agreement("renju", 15, 8, counts=True)

    def test_count_rows_by_hand(self):
        # No cell rows; count 3 weighs 2.0 (row 512) and count 40 weighs -0.25 (row -64):
        # pool = 5 * 512 + 7 * -64 = 2112, g = 132, h1 = h2 = 132, value = 64 * 132 / 16384.
        keys = pn.compute_keys(board_from(5), 8)
        q = {"E": np.zeros((3**8, 1), dtype=np.int16), "R": np.zeros((64, 1), dtype=np.int16)}
        q["R"][3], q["R"][40] = 512, -64
        for name, dtype, _ in pn.HEAD_LAYOUT:
            shape = {"b1": (2, 1), "b2": (2, 1), "w3": (2, 1), "b3": (2,), "p": (2, 1)}.get(name, (2, 1, 1))
            q[name] = np.zeros(shape, dtype=dtype)
        q["w1"][0], q["w2"][0], q["w3"][0] = 64, 64, 64
        counts = np.zeros((1, 64), dtype=np.int16)
        counts[0, 3], counts[0, 40] = 5, 7
        value, _ = pn.int_forward(q, keys, np.ones((1, 25), dtype=bool), np.array([0]), counts=counts)
        self.assertEqual(value[0], 64 * 132 / 16384)

    def test_linear_cells_are_not_clipped(self):
        # The by-hand position below with linear cells: the centre's four rows sum to 400
        # (clipped cells stop at 256), so pool = 400 + 8 * 100 = 1200 and g = 75.
        keys = pn.compute_keys(board_from(5), 8)
        q = {"E": np.zeros((3**8, 1), dtype=np.int16), "cells": pn.CELLS["linear"]}
        q["E"][int(keys[0, 12, 0])] = 100
        for name, dtype, _ in pn.HEAD_LAYOUT:
            shape = {"b1": (2, 1), "b2": (2, 1), "w3": (2, 1), "b3": (2,), "p": (2, 1)}.get(name, (2, 1, 1))
            q[name] = np.zeros(shape, dtype=dtype)
        q["w1"][0], q["w2"][0], q["w3"][0] = 64, 64, 64
        value, _ = pn.int_forward(q, keys, np.ones((1, 25), dtype=bool), np.array([0]))
        self.assertEqual(value[0], 64 * 75 / 16384)
        # A negative pool reaches the heads as zero, as in the engine.
        q["E"] = -q["E"]
        value, _ = pn.int_forward(q, keys, np.ones((1, 25), dtype=bool), np.array([0]))
        self.assertEqual(value[0], 0.0)

    def test_int_forward_by_hand(self):
        # One channel, one hidden unit, an empty 5x5 board. On it the centre c3 = (2, 2) has
        # the same key K in all four directions (empty at +-1, +-2, walls at +-3, +-4); the
        # other cells of column x = 2 share K horizontally only, those of row y = 2 vertically.
        keys = pn.compute_keys(board_from(5), 8)
        centre_key = int(keys[0, 12, 0])
        self.assertEqual(set(keys[0, 12].tolist()), {centre_key})
        q = {"E": np.zeros((3**8, 1), dtype=np.int16)}
        q["E"][centre_key] = 100
        for name, dtype, _ in pn.HEAD_LAYOUT:
            shape = {"b1": (2, 1), "b2": (2, 1), "w3": (2, 1), "b3": (2,), "p": (2, 1)}.get(name, (2, 1, 1))
            q[name] = np.zeros(shape, dtype=dtype)
        q["w1"][1] = 64  # White to move's head: w1 = 1.0
        q["b1"][1] = -1000
        q["w2"][1] = 64
        q["w3"][1] = 128  # 2.0
        q["b3"][1] = -100
        q["p"][1] = -32  # -0.5
        q["u"][1] = 65
        value, policy = pn.int_forward(q, keys, np.ones((1, 25), dtype=bool), np.array([1]))
        # a: centre min(400, 256) = 256, eight cells 100 -> pool 1056, g = 1056 >> 4 = 66.
        # h1 = (64 * 66 - 1000) >> 6 = 3224 >> 6 = 50; h2 = (64 * 50) >> 6 = 50.
        self.assertEqual(value[0], (128 * 50 - 100) / 16384)
        # dyn = (-32 * 256 + 65 * 50) >> 6 = -4942 >> 6 = -78 (toward minus infinity, not -77).
        self.assertEqual(policy[0, 12], 256 * -78 / 65536)
        self.assertEqual(policy[0, 2], 100 * -78 / 65536)
        self.assertEqual(policy[0, 0], 0.0)
        # The Black-to-move head is all zero here.
        value, _ = pn.int_forward(q, keys, np.ones((1, 25), dtype=bool), np.array([0]))
        self.assertEqual(value[0], 0.0)


def zero_evals_file(games_text, path):
    """A static-eval file for games-file text with every classical evaluation 0."""
    lines = []
    for line in games_text.splitlines():
        fields = line.split()
        count = 0 if fields[6] == "-" else len(fields[6].split(","))
        lines.append(f"{fields[0]} {','.join(['0'] * count) or '-'}")
    path.write_text("\n".join(lines) + "\n")
    return path


def games_with_zero_evals(games_text, folder):
    """Writes a.games and its all-zero a.evals in `folder` -> (games path, evals path text)."""
    games = Path(folder) / "a.games"
    games.write_text(games_text)
    return games, str(zero_evals_file(games_text, Path(folder) / "a.evals"))


class TrainScriptTest(unittest.TestCase):
    def test_train_then_export_only(self):
        text = random_games_text(np.random.default_rng(9), 100, 15)
        with tempfile.TemporaryDirectory() as folder:
            games, evals = games_with_zero_evals(text, folder)
            out = Path(folder) / "net"
            args = [str(games), "--evals", evals, "--epochs", "1", "--channels", "8", "--hidden", "8", "--out", str(out)]
            with contextlib.redirect_stdout(io.StringIO()) as printed:
                train.main(args)
            self.assertIn("float vs integer over", printed.getvalue())
            first = (Path(f"{out}.pnet").read_bytes(), Path(f"{out}.agree.txt").read_text())
            self.check_agreement_file(pn.read_pnet(f"{out}.pnet"), first[1])
            with contextlib.redirect_stdout(io.StringIO()):
                train.main([str(games), "--evals", evals, "--export-only", f"{out}.pt", "--out", f"{out}2"])
            second = (Path(f"{out}2.pnet").read_bytes(), Path(f"{out}2.agree.txt").read_text())
        self.assertEqual(first, second)
        lines = first[1].splitlines()
        self.assertEqual(len(lines), 24)
        cell = r"\d+,\d+:-?\d+\.\d{5}"
        pattern = rf"renju 15x15 (-|[a-z]\d+(,[a-z]\d+)*) -?\d+\.\d{{5}} {cell} {cell} {cell}"
        for line in lines:
            self.assertRegex(line, pattern)
        # The first held-out game is game 0; its first searched position comes first.
        opening = int(text.split("\n")[0].split()[4])
        moves = text.split("\n")[0].split()[5].split(",")
        self.assertEqual(lines[0].split()[2], ",".join(moves[:opening]) or "-")

    def check_agreement_file(self, q, text):
        """What the engine's test does: replay each line's moves and compare integer outputs."""
        for line in text.splitlines():
            rule, size_text, moves, value, *cells = line.split()
            size = pn.parse_size(size_text)
            window = q["window"]
            played = [pn.parse_move(m, size) for m in moves.split(",")] if moves != "-" else []
            board = board_from(size, black=played[0::2], white=played[1::2])
            keys = pn.compute_keys(board, window)
            empty = (board == pn.EMPTY).reshape(1, -1)
            int_value, int_policy = pn.int_forward(q, keys, empty, np.array([len(played) % 2]))
            self.assertAlmostEqual(int_value[0], float(value), delta=1e-4)
            for cell in cells:
                x, y, logit = re.fullmatch(r"(\d+),(\d+):(\S+)", cell).groups()
                self.assertTrue(empty[0, int(y) * size + int(x)])
                self.assertAlmostEqual(int_policy[0, int(y) * size + int(x)], float(logit), delta=1e-4)

    def test_a_renju_policy_of_window_8_without_context(self):
        text = random_games_text(np.random.default_rng(6), 60, 15)
        with tempfile.TemporaryDirectory() as folder:
            games, evals = games_with_zero_evals(text, folder)
            out = Path(folder) / "p"
            common = [str(games), "--evals", evals, "--rule", "renju"]
            args = common + ["--epochs", "1", "--window", "8", "--no-policy-context", "--value-weight", "0", "--lr", "0.03", "--out", str(out)]
            with contextlib.redirect_stdout(io.StringIO()):
                train.main(args + ["--channels", "8", "--hidden", "8"])
                train.main(common + ["--export-only", f"{out}.pt", "--out", f"{out}2"])
            data = Path(f"{out}.pnet").read_bytes()
            q = pn.read_pnet(f"{out}.pnet")
            self.check_agreement_file(q, Path(f"{out}.agree.txt").read_text())
            self.assertEqual(data, Path(f"{out}2.pnet").read_bytes())
            for bad in (["--window", "9"], ["--window", "10", "--rule", "freestyle"]):
                with self.assertRaises(SystemExit), contextlib.redirect_stderr(io.StringIO()):
                    train.main(common + ["--out", str(out)] + bad)
        self.assertEqual(data[:16], b"PNTDNET1" + struct.pack("<BBHHH", 0, 8, 8, 8, 0))
        self.assertFalse(q["u"].any(), "the context weights stay zero")
        self.assertTrue(q["p"].any(), "the plain policy is trained")
        self.assertFalse(q["w3"].any() or q["b3"].any(), "no value")

    def test_a_value_network_with_linear_cells(self):
        text = random_games_text(np.random.default_rng(8), 60, 15, "freestyle")
        with tempfile.TemporaryDirectory() as folder:
            games, evals = games_with_zero_evals(text, folder)
            out = Path(folder) / "v"
            common = [str(games), "--evals", evals, "--rule", "freestyle"]
            args = common + ["--epochs", "1", "--cells", "linear", "--policy-weight", "0", "--lr", "0.03", "--out", str(out)]
            with contextlib.redirect_stdout(io.StringIO()):
                train.main(args + ["--channels", "8", "--hidden", "8"])
                train.main(common + ["--export-only", f"{out}.pt", "--out", f"{out}2"])
                # Training on from the checkpoint keeps its cells; asking for others is refused.
                train.main(common + ["--epochs", "0", "--init", f"{out}.pt", "--policy-weight", "0", "--out", f"{out}3"])
            data = Path(f"{out}.pnet").read_bytes()
            q = pn.read_pnet(f"{out}.pnet")
            self.check_agreement_file(q, Path(f"{out}.agree.txt").read_text())
            self.assertEqual(data, Path(f"{out}2.pnet").read_bytes())
            self.assertEqual(data, Path(f"{out}3.pnet").read_bytes())
            refused = [
                common + ["--cells", "linear", "--out", str(out)],
                common + ["--init", f"{out}.pt", "--cells", "clipped", "--out", str(out)],
            ]
            for bad in refused:
                with self.assertRaises(SystemExit), contextlib.redirect_stderr(io.StringIO()):
                    with contextlib.redirect_stdout(io.StringIO()):
                        train.main(bad)
        self.assertEqual(data[:16], b"PNTDNET1" + struct.pack("<BBHHH", 1, 8, 8, 8, 1))
        self.assertFalse(q["p"].any() or q["u"].any(), "no policy")
        self.assertTrue(q["w3"].any(), "a value")

    def test_a_value_network_with_count_rows(self):
        text = random_games_text(np.random.default_rng(4), 60, 15, "freestyle")
        with tempfile.TemporaryDirectory() as folder:
            games, evals = games_with_zero_evals(text, folder)
            parsed, _ = pn.read_games(str(games), "freestyle")
            counts = Path(folder) / "a.counts"
            table = random_counts(np.random.default_rng(4), parsed)
            counts.write_text("".join(
                f"{g} {','.join(':'.join(map(str, c)) for c in moves) or '-'}\n" for g, moves in table.items()
            ))
            self.assertEqual(pn.read_counts(str(counts)), table)
            out = Path(folder) / "c"
            common = [str(games), "--evals", evals, "--rule", "freestyle", "--policy-weight", "0"]
            with_counts = common + ["--counts", str(counts)]
            args = with_counts + ["--epochs", "1", "--cells", "linear", "--lr", "0.03", "--out", str(out)]
            with contextlib.redirect_stdout(io.StringIO()):
                train.main(args + ["--channels", "8", "--hidden", "8"])
                train.main(with_counts + ["--export-only", f"{out}.pt", "--out", f"{out}2"])
                train.main(with_counts + ["--epochs", "0", "--init", f"{out}.pt", "--out", f"{out}3"])
            data = Path(f"{out}.pnet").read_bytes()
            q = pn.read_pnet(f"{out}.pnet")
            self.assertEqual(data, Path(f"{out}2.pnet").read_bytes())
            self.assertEqual(data, Path(f"{out}3.pnet").read_bytes())
            short = Path(folder) / "short.counts"
            short.write_text("0 1:2:3\n")
            refused = [
                [str(games), "--evals", evals, "--rule", "freestyle", "--counts", str(counts), "--out", str(out)],
                common + ["--init", f"{out}.pt", "--out", str(out)],  # the checkpoint's counts
                common + ["--export-only", f"{out}.pt"],
                common + ["--counts", str(short), "--out", str(out)],
            ]
            for bad in refused:
                with self.assertRaises(SystemExit), contextlib.redirect_stderr(io.StringIO()):
                    with contextlib.redirect_stdout(io.StringIO()):
                        train.main(bad)
        self.assertEqual(data[:16], b"PNTDNET1" + struct.pack("<BBHHH", 1, 8, 8, 8, 3))
        self.assertEqual(len(data), pn.pnet_size(8, 8, 8, count_rows=True))
        self.assertTrue(q["R"].any(), "count rows trained")
        self.assertFalse(q["p"].any() or q["u"].any(), "no policy")

    def test_lambda_per_file_and_training_from_a_checkpoint(self):
        text = random_games_text(np.random.default_rng(5), 40, 15)
        with tempfile.TemporaryDirectory() as folder:
            games, evals = games_with_zero_evals(text, folder)
            files = [str(games), str(games), "--evals", evals, evals]
            with contextlib.redirect_stdout(io.StringIO()):
                sets = train.load_data(files[:2], [evals, evals], "renju", [1.0, 0.0])
            half = len(sets[0]) // 2
            first, second = sets[0].target[:half], sets[0].target[half:]
            self.assertTrue(set(np.unique(first)) <= {0.0, 0.5, 1.0}, "results alone")
            self.assertFalse(np.array_equal(first, second))
            with self.assertRaises(SystemExit), contextlib.redirect_stderr(io.StringIO()):
                train.parse_args(files + ["--lambda", "0.5", "0.5", "0.5", "--out", "x"])
            out = Path(folder) / "n"
            small = ["--channels", "4", "--hidden", "4", "--policy-weight", "0"]
            with contextlib.redirect_stdout(io.StringIO()):
                train.main(files + ["--lambda", "0.5", "0", "--epochs", "1", "--out", str(out)] + small)
            with contextlib.redirect_stdout(io.StringIO()) as printed:
                train.main(files + ["--epochs", "0", "--init", f"{out}.pt", "--out", f"{out}2"])
            self.assertRegex(printed.getvalue(), r"n\.pt: held-out value \d\.\d{4} before training")
            self.assertEqual(Path(f"{out}.pnet").read_bytes(), Path(f"{out}2.pnet").read_bytes())

    def test_same_seed_same_net(self):
        text = random_games_text(np.random.default_rng(4), 30, 15)
        outputs = []
        with tempfile.TemporaryDirectory() as folder:
            games, evals = games_with_zero_evals(text, folder)
            for run in range(2):
                out = Path(folder) / f"n{run}"
                with contextlib.redirect_stdout(io.StringIO()):
                    train.main([str(games), "--evals", evals, "--epochs", "2", "--channels", "4", "--hidden", "4", "--out", str(out)])
                outputs.append(Path(f"{out}.pnet").read_bytes())
        self.assertEqual(outputs[0], outputs[1])

    def train_small(self, folder, games, evals, name, extra=()):
        """Trains a tiny net for 2 epochs -> (the .pnet bytes, the agreement file's values)."""
        out = Path(folder) / name
        with contextlib.redirect_stdout(io.StringIO()):
            train.main([str(games), "--evals", evals, "--epochs", "2", "--channels", "4", "--hidden", "4", "--out", str(out), *extra])
        values = [float(line.split()[3]) for line in Path(f"{out}.agree.txt").read_text().splitlines()]
        return Path(f"{out}.pnet").read_bytes(), values

    def test_the_cpu_device_is_the_default(self):
        text = random_games_text(np.random.default_rng(4), 30, 15)
        with tempfile.TemporaryDirectory() as folder:
            games, evals = games_with_zero_evals(text, folder)
            default = self.train_small(folder, games, evals, "d")
            self.assertEqual(default, self.train_small(folder, games, evals, "c", ["--device", "cpu"]))
            if not torch.cuda.is_available():  # auto is the CPU here
                self.assertEqual(default, self.train_small(folder, games, evals, "a", ["--device", "auto"]))

    def test_an_unusable_device_is_refused_with_the_reason(self):
        text = random_games_text(np.random.default_rng(4), 10, 15)
        with tempfile.TemporaryDirectory() as folder:
            games, evals = games_with_zero_evals(text, folder)
            bad = ["cuda:99", "warp-drive", "meta"] + ([] if torch.cuda.is_available() else ["cuda"])
            for device in bad:
                with self.assertRaises(SystemExit) as caught, contextlib.redirect_stdout(io.StringIO()):
                    train.main([str(games), "--evals", evals, "--out", str(Path(folder) / "x"), "--device", device])
                self.assertIn(f"--device {device}", str(caught.exception.code))
            self.assertFalse((Path(folder) / "x.pt").exists())

    @unittest.skipUnless(torch.cuda.is_available(), "needs a CUDA device")
    def test_cuda_trains_the_cpu_net_within_rounding(self):
        # The same seed and batches; sums on the GPU round in another order, so a rounding
        # step of the quantised grid may fall the other way: the values agree loosely.
        text = random_games_text(np.random.default_rng(4), 30, 15)
        with tempfile.TemporaryDirectory() as folder:
            games, evals = games_with_zero_evals(text, folder)
            _, on_cpu = self.train_small(folder, games, evals, "c")
            data, on_cuda = self.train_small(folder, games, evals, "g", ["--device", "cuda"])
        self.assertEqual(len(on_cpu), len(on_cuda))
        self.assertLess(max(abs(a - b) for a, b in zip(on_cpu, on_cuda)), 0.05)
        self.assertEqual(data[:8], b"PNTDNET1")


if __name__ == "__main__":
    unittest.main()
