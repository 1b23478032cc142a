"""Trains Pentad's evaluation network on games files and exports the quantised `.pnet` file.

    python trainer/train.py a.games b.games --evals a.evals b.evals --rule renju --out nets/renju
    python trainer/train.py a.games --evals a.evals --export-only nets/renju.pt

The network's value is a correction to the classical evaluation: each games file comes with
its positions' classical evaluations (`pentad-tools static-eval --games a.games --out a.evals`).

Writes <out>.pt (float state_dict), <out>.pnet (quantised net) and <out>.agree.txt (float
outputs of held-out positions, for the engine's agreement test).
"""

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
import pentad_net as pn  # noqa: E402


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="+", help="games files")
    parser.add_argument("--evals", nargs="+", required=True, help="the static-eval file of each games file, in order")
    parser.add_argument("--rule", choices=sorted(pn.FAMILIES), default="renju", help="train on this rule's games")
    parser.add_argument("--out", help="output name prefix (default: the checkpoint's, with --export-only)")
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument(
        "--lambda",
        dest="lam",
        type=float,
        nargs="+",
        default=[0.5],
        help="game result's weight in the value target: one for all games files, or one per file (0 for `pentad-tools leaves` files)",
    )
    parser.add_argument(
        "--value-weight",
        type=float,
        nargs="+",
        default=[1.0],
        help="weight of the value loss: one for all games files, or one per file (0 for a file that only teaches choices, such as `pentad-tools agree` moves)",
    )
    parser.add_argument("--policy-weight", type=float, default=1.0)
    parser.add_argument("--rank-weight", type=float, default=1.0, help="weight of the siblings' ranking loss (evals files with siblings)")
    parser.add_argument("--child-weight", type=float, default=1.0, help="weight of the searched children's value loss (evals files with --sibling-nodes)")
    parser.add_argument("--rank-temperature", type=float, default=0.25, help="softmax temperature of the ranking, in logit units")
    parser.add_argument(
        "--window",
        type=int,
        help="cells a line key reads (default: the rule's full window; renju may read 8 for a table of 3^8 rows)",
    )
    parser.add_argument(
        "--no-policy-context",
        dest="policy_context",
        action="store_false",
        help="keep the policy's context weights (u) at zero: a policy the engine reads without the heads",
    )
    parser.add_argument(
        "--cells",
        choices=sorted(pn.CELLS),
        help="a cell's activation: its feature sum clipped to [0, 1] (default), or the sum itself (linear: a value "
        "network, cheaper for the engine to keep up to date; needs --policy-weight 0)",
    )
    parser.add_argument(
        "--counts",
        nargs="+",
        help="the `static-eval --counts` file of each games file, in order: the net weighs the board's pattern "
        "counts into its pool (a value network; needs --policy-weight 0)",
    )
    parser.add_argument("--channels", type=int, default=32)
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    parser.add_argument(
        "--device",
        default="cpu",
        help="where the net trains: cpu (default, bit-reproducible), cuda, cuda:N, or auto (cuda when there is one)",
    )
    parser.add_argument("--init", metavar="CHECKPOINT", help="start from this checkpoint (its sizes) instead of a fresh net")
    parser.add_argument("--export-only", metavar="CHECKPOINT", help="skip training: export this checkpoint again")
    args = parser.parse_args(argv)
    if args.out is None and args.export_only is None:
        parser.error("--out is required when training")
    if len(args.evals) != len(args.games):
        parser.error("give one --evals file per games file")
    if args.cells == "linear" and args.policy_weight != 0:
        parser.error("a network with linear cells has no policy: give --policy-weight 0")
    if args.counts is not None and len(args.counts) != len(args.games):
        parser.error("give one --counts file per games file")
    if args.counts is not None and args.policy_weight != 0:
        parser.error("a network with count rows has no policy: give --policy-weight 0")
    if len(args.lam) not in (1, len(args.games)):
        parser.error("give one --lambda for all games files or one per file")
    if len(args.value_weight) not in (1, len(args.games)):
        parser.error("give one --value-weight for all games files or one per file")
    return args


def load_data(paths, eval_paths, rule, lams, value_weights=(1.0,), count_paths=None):
    """Reads all games files and their evaluations -> position sets by board size; prints what was read.

    lams: the game result's weight in the value targets, one for all files or one per file;
    value_weights: the value loss's weight, the same way; count_paths: the pattern counts
    of each file, or None.
    """
    games = []
    if len(lams) == 1:
        lams = lams * len(paths)
    if len(value_weights) == 1:
        value_weights = list(value_weights) * len(paths)
    for index, (path, eval_path, lam, value_weight) in enumerate(zip(paths, eval_paths, lams, value_weights)):
        file_games, skipped = pn.read_games(path, rule)
        for game in file_games:
            game.lam = lam
            game.value_weight = value_weight
        try:
            pn.attach_evals(file_games, pn.read_evals(eval_path), eval_path)
            if count_paths is not None:
                pn.attach_counts(file_games, pn.read_counts(count_paths[index]), count_paths[index])
                if any(game.siblings is not None for game in file_games):
                    raise ValueError(f"{eval_path}: a network with count rows cannot rank siblings (they have no counts)")
        except (OSError, ValueError) as error:
            sys.exit(str(error))
        games.extend(file_games)
        notes = ", ".join(f"{n} {what}" for what, n in skipped.items() if n)
        print(f"{path}: {len(file_games)} {rule} games" + (f" (skipped {notes})" if notes else ""))
    sets = pn.position_sets(games, lams[0])
    if not sets:
        sys.exit(f"no searched {rule} positions in the games files")
    for ps in sets:
        held = int(ps.held_out.sum())
        print(f"  {ps.size}x{ps.size}: {ps.game_count} games, {len(ps) - held} training positions, {held} held-out")
    return sets


def plan_batches(sets, batch_size, rng):
    """One epoch's batches: each of one board size, shuffled within and across sizes."""
    batches = []
    for set_index, ps in enumerate(sets):
        indices = rng.permutation(np.flatnonzero(~ps.held_out))
        batches += [(set_index, indices[i : i + batch_size]) for i in range(0, len(indices), batch_size)]
    order = rng.permutation(len(batches))
    return [batches[i] for i in order]


def train_epoch(net, optimiser, sets, args, rng):
    """One pass over the training positions with random symmetries -> (mean loss, positions)."""
    net.train()
    total_loss, count = 0.0, 0
    for set_index, indices in plan_batches(sets, args.batch, rng):
        syms = rng.integers(0, 8, size=len(indices))
        batch = sets[set_index].batch(indices, syms, net.window)
        value_loss, policy_loss, _, used_rows = pn.losses(net, batch)
        net.mark_seen(used_rows)
        loss = value_loss + args.policy_weight * policy_loss
        children = sets[set_index].children(indices, syms, net.window)
        if children is not None:
            rank_loss, child_loss, _, used_rows = pn.sibling_loss(net, children, args.rank_temperature)
            net.mark_seen(used_rows)
            loss = loss + args.rank_weight * rank_loss
            if child_loss is not None:
                loss = loss + args.child_weight * child_loss
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        net.fix_zero_row()
        total_loss += loss.item() * len(indices)
        count += len(indices)
    return total_loss / max(count, 1), count


@torch.no_grad()
def evaluate(net, sets, batch_size, temperature):
    """Held-out value BCE (weighted by the value weights), policy CE, top-1 accuracy and,
    with siblings, how often the played move's child ranks first among the positions that
    have siblings (with the net, classical alone) (no augmentation)."""
    net.eval()
    value_sum = policy_sum = hits = count = weight_sum = 0.0
    ranked = ranked_base = ranked_count = 0
    child_sum = 0.0
    for ps in sets:
        indices = np.flatnonzero(ps.held_out)
        for start in range(0, len(indices), batch_size):
            chunk = indices[start : start + batch_size]
            batch = ps.batch(chunk, np.zeros(len(chunk), dtype=np.int64), net.window)
            value_loss, policy_loss, batch_hits, _ = pn.losses(net, batch)
            value_sum += value_loss.item() * len(chunk)
            weight_sum += float(batch["weight"].sum())
            policy_sum += policy_loss.item() * len(chunk)
            hits += batch_hits.item()
            count += len(chunk)
            children = ps.children(chunk, np.zeros(len(chunk), dtype=np.int64), net.window)
            with_siblings = int(children["valid"][:, 0].sum()) if children is not None else 0
            if with_siblings:
                _, child_loss, rank_hits, _ = pn.sibling_loss(net, children, temperature)
                ranked += rank_hits.item()
                if child_loss is not None:
                    child_sum += child_loss.item() * with_siblings
                base = np.where(children["valid"], -children["base"], -np.inf)[children["valid"][:, 0]]
                ranked_base += int(np.sum(np.argmax(base, axis=1) == 0))
                ranked_count += with_siblings
    count = max(count, 1)
    rank = (ranked / ranked_count, ranked_base / ranked_count, child_sum / ranked_count) if ranked_count else None
    return value_sum / max(weight_sum, 1e-9), policy_sum / count, hits / count, rank


def ranking_text(rank):
    """The held-out ranking figures of `evaluate` for a report line ("" without siblings)."""
    if rank is None:
        return ""
    return f" played child first {100 * rank[0]:.1f}% (classical {100 * rank[1]:.1f}%) children's value {rank[2]:.4f}"


def bce(logits, targets, weights=None):
    """Mean binary cross-entropy of predicted logits against soft targets (numpy), weighted."""
    p = np.clip(1.0 / (1.0 + np.exp(-np.asarray(logits, dtype=np.float64))), 1e-12, 1 - 1e-12)
    t = np.asarray(targets, dtype=np.float64)
    return float(np.average(-(t * np.log(p) + (1 - t) * np.log(1 - p)), weights=weights))


def print_baselines(sets):
    """Held-out losses of trivial predictors, to read the trained numbers against."""
    targets = np.concatenate([ps.target[ps.held_out] for ps in sets]).astype(np.float64)
    weights = np.concatenate([ps.value_weight[ps.held_out] for ps in sets]).astype(np.float64)
    if weights.sum() <= 0:
        print("no held-out positions with a value loss (held out: games with id % 20 == 0)")
        return
    t = np.clip(targets, 1e-12, 1 - 1e-12)
    floor = float(np.average(-(t * np.log(t) + (1 - t) * np.log(1 - t)), weights=weights))
    classical = bce(np.concatenate([ps.base[ps.held_out] for ps in sets]), targets, weights)
    empties = np.concatenate([ps.size * ps.size - ps.ply[ps.held_out] for ps in sets])
    children = ""
    child_base = np.concatenate([ps.sib_base[ps.held_out][ps.sib_scored[ps.held_out]] for ps in sets])
    if child_base.size:
        child_targets = np.concatenate([ps.sib_target[ps.held_out][ps.sib_scored[ps.held_out]] for ps in sets])
        children = f", children's value loss of the classical evaluation alone = {bce(child_base, child_targets):.4f}"
    print(
        f"held-out baselines: value loss of constant 0.5 = {math.log(2):.4f}, "
        f"value loss floor (target entropy) = {floor:.4f}, "
        f"value loss of the classical evaluation alone = {classical:.4f}, "
        f"policy loss of uniform over empty cells = {float(np.mean(np.log(empties))):.4f}{children}"
    )


def export(net, sets, rule, out):
    """Writes <out>.pnet and <out>.agree.txt and prints the float-vs-integer bound."""
    net.zero_unseen_rows()
    q, warnings = pn.quantise(net)
    for warning in warnings:
        print(f"warning: {warning}")
    pnet_path = Path(f"{out}.pnet")
    pn.write_pnet(pnet_path, q)
    q = pn.read_pnet(pnet_path)  # measure what the engine will read
    used = int(np.count_nonzero(np.any(q["E"] != 0, axis=1)))
    print(f"wrote {pnet_path}: {pnet_path.stat().st_size} bytes, {used} of {3**net.window} embedding rows non-zero")
    value_bound, policy_bound, measured, peak = pn.measure_agreement(net, q, sets, net.window)
    print(
        f"float vs integer over {measured} held-out positions: max |value logit diff| = {value_bound:.3g}, "
        f"max |top-3 policy logit diff| = {policy_bound:.3g}; largest integer accumulator {peak}"
        + (" (exceeds i32!)" if peak > pn.I32_MAX else " (fits i32)")
    )
    if peak >= 2**24:
        print("warning: accumulators reach 2^24: the float net may round where the integer net does not")
    lines = pn.agreement_lines(net, sets, rule, net.window)
    agree_path = Path(f"{out}.agree.txt")
    agree_path.write_text("".join(line + "\n" for line in lines))
    print(f"wrote {agree_path}: {len(lines)} positions")


def training_device(name):
    """The torch device `--device` names; exits with the reason when it is not usable here."""
    if name == "auto":
        name = "cuda" if torch.cuda.is_available() else "cpu"
    try:
        device = torch.device(name)
    except RuntimeError as error:
        sys.exit(f"--device {name}: {error}")
    if device.type == "cuda":
        if not torch.cuda.is_available():
            sys.exit(f"--device {name}: this torch finds no CUDA device (use cpu or auto)")
        if device.index is not None and device.index >= torch.cuda.device_count():
            sys.exit(f"--device {name}: only {torch.cuda.device_count()} CUDA device(s)")
    elif device.type != "cpu":
        sys.exit(f"--device {name}: only cpu and cuda are supported")
    return device


def train(args):
    """Trains a fresh net (or the --init checkpoint), saves <out>.pt and exports it."""
    device = training_device(args.device)
    rng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)
    window = args.window or pn.FAMILIES[args.rule][1]
    if window not in pn.RULE_WINDOWS[args.rule]:
        sys.exit(f"a {args.rule} net reads a window of {pn.RULE_WINDOWS[args.rule]} cells, not {window}")
    sets = load_data(args.games, args.evals, args.rule, args.lam, args.value_weight, args.counts)
    if args.init:
        state = torch.load(args.init, weights_only=True, map_location="cpu")
        init_window = round(math.log(state["embed"].shape[0], 3))
        if init_window != window:
            sys.exit(f"{args.init} reads a window of {init_window} cells, not {window}")
        net = pn.PentadNet.from_state_dict(state, rule=args.rule)
        if args.cells not in (None, net.cells):
            sys.exit(f"{args.init} has {net.cells} cells, not {args.cells}")
        if (net.count_rows is not None) != (args.counts is not None):
            sys.exit(f"{args.init} {'has' if net.count_rows is not None else 'has no'} count rows: give --counts with it, or not")
    else:
        cells = args.cells or "clipped"
        net = pn.PentadNet(
            window=window, channels=args.channels, hidden=args.hidden, rule=args.rule, cells=cells,
            counts=args.counts is not None,
        )
    net.to(device)
    if device.type != "cpu":
        print(f"training on {device} ({torch.cuda.get_device_name(device)})")
    # A policy without context keeps u at zero; a network with linear cells or count rows
    # keeps no policy at all.
    no_policy = net.cells == "linear" or net.count_rows is not None
    frozen = {"u": not args.policy_context or no_policy, "p": no_policy}
    for name in (name for name, zero in frozen.items() if zero):
        with torch.no_grad():
            getattr(net, name).zero_()
        getattr(net, name).requires_grad_(False)
    trained = [p for p in net.parameters() if p.requires_grad]
    optimiser = torch.optim.Adam(trained, lr=args.lr, fused=True)
    print_baselines(sets)
    if args.init:
        value_loss, _, _, rank = evaluate(net, sets, args.batch, args.rank_temperature)
        print(f"{args.init}: held-out value {value_loss:.4f}{ranking_text(rank)} before training")
    start = time.time()
    for epoch in range(1, args.epochs + 1):
        epoch_start = time.time()
        train_loss, positions = train_epoch(net, optimiser, sets, args, rng)
        train_time = time.time() - epoch_start
        net.zero_unseen_rows()
        value_loss, policy_loss, top1, rank = evaluate(net, sets, args.batch, args.rank_temperature)
        print(
            f"epoch {epoch}: train loss {train_loss:.4f} | held-out value {value_loss:.4f} "
            f"policy {policy_loss:.4f} top-1 {100 * top1:.1f}%{ranking_text(rank)} | {positions / train_time:.0f} positions/s"
        )
    print(f"trained {args.epochs} epochs in {time.time() - start:.0f} s")
    checkpoint = Path(f"{args.out}.pt")
    torch.save({name: t.cpu() for name, t in net.state_dict().items()}, checkpoint)
    print(f"wrote {checkpoint}")
    export(net, sets, args.rule, args.out)


def export_only(args):
    """Loads a checkpoint and exports it again (for --rule when its window allows, else for the
    window's rule)."""
    state = torch.load(args.export_only, weights_only=True, map_location="cpu")
    window = round(math.log(state["embed"].shape[0], 3))
    rule = args.rule if window in pn.RULE_WINDOWS[args.rule] else pn.WINDOW_FAMILY[window]
    net = pn.PentadNet.from_state_dict(state, rule=rule)
    if rule != args.rule:
        print(f"note: the checkpoint is a {rule} net; reading {rule} games")
    out = args.out or str(Path(args.export_only).with_suffix(""))
    if (net.count_rows is not None) != (args.counts is not None):
        sys.exit(f"{args.export_only} {'has' if net.count_rows is not None else 'has no'} count rows: give --counts with it, or not")
    export(net, load_data(args.games, args.evals, rule, args.lam, args.value_weight, args.counts), rule, out)


def main(argv=None):
    args = parse_args(argv)
    torch.set_num_threads(args.threads)
    if args.export_only:
        export_only(args)
    else:
        train(args)


if __name__ == "__main__":
    main()
