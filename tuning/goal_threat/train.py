"""Trains the goal-threat model of `crates/arimaa-search/src/eval/goal_threat.rs`.

The model scores each rabbit from its inputs (the engine's own, written by
`arimaa rabbit-inputs`) with one hidden layer of 16 and a softplus; a side's
threat is the root of the sum of its rabbits' squared scores. It is fitted to
sharp's rabbit scores of both sides (`RabScorePla`, `RabScoreOpp` of its
developer build's `eval`, in millirabbits), one game in ten held out.

PyTorch, not the Rust trainer of `arimaa learn`: the side's score is a
nonlinear sum over a varying number of rabbits, which autograd takes as
written; the model is small (a minute on two cores).

    arimaa rabbit-inputs --positions tuning/data/teacher/goal_threat.jsonl.gz --out inputs.tsv
    python tuning/goal_threat/train.py tuning/data/teacher/goal_threat.jsonl.gz inputs.tsv \
        crates/arimaa-search/src/eval/goal_threat/net.rs

Needs numpy and torch (`pip install numpy torch`). The same data, seed and
thread count give the same weights.
"""

import gzip
import json
import sys

import numpy as np
import torch

HIDDEN = 16
EPOCHS = 1500
RATE = 3e-3
HOLDOUT = 10


def main(labels_path, inputs_path, out_path):
    torch.manual_seed(0)
    rows = [json.loads(line) for line in gzip.open(labels_path, "rt")]
    n = len(rows)
    # Sharp's scores of the side to move's rabbits and the other side's, in rabbits.
    y = np.array([[r["mover"], r["waiting"]] for r in rows], dtype=np.float32) / 1000
    games = sorted({r["game"] for r in rows})
    game_id = {g: i for i, g in enumerate(games)}
    held_out = np.array([game_id[r["game"]] % HOLDOUT == 0 for r in rows])

    table = np.loadtxt(inputs_path, dtype=np.float32)
    line, owner, inputs = table[:, 0].astype(int), table[:, 1].astype(int), table[:, 2:]
    side = torch.tensor(line * 2 + owner)
    x = torch.tensor(inputs)
    target = torch.tensor(y.reshape(-1))
    test = torch.tensor(np.repeat(held_out, 2))

    net = torch.nn.Sequential(
        torch.nn.Linear(x.shape[1], HIDDEN), torch.nn.ReLU(), torch.nn.Linear(HIDDEN, 1), torch.nn.Softplus()
    )
    adam = torch.optim.Adam(net.parameters(), lr=RATE)

    def side_scores():
        r = net(x).squeeze(1)
        squares = torch.zeros(n * 2).index_add_(0, side, r**2)
        return (squares + 1e-9) ** 0.5

    for epoch in range(EPOCHS):
        adam.zero_grad()
        s = side_scores()
        loss = ((s - target) ** 2)[~test].mean()
        loss.backward()
        adam.step()
        if epoch % 300 == 0 or epoch == EPOCHS - 1:
            with torch.no_grad():
                mse = ((s - target) ** 2)[test].mean()
                diff = s.view(-1, 2)[:, 0] - s.view(-1, 2)[:, 1]
                true_diff = target.view(-1, 2)[:, 0] - target.view(-1, 2)[:, 1]
                h = torch.tensor(held_out)
                r2 = 1 - ((diff - true_diff)[h] ** 2).mean() / true_diff[h].var()
                print(
                    f"epoch {epoch}: train mse {loss.item():.4f}, held out mse {mse.item():.4f}, "
                    f"R2 of the difference between the sides {r2.item():.3f}",
                    flush=True,
                )
    write_weights(net, out_path)


def write_weights(net, path):
    w1 = net[0].weight.detach().T.numpy()
    b1 = net[0].bias.detach().numpy()
    w2 = net[2].weight.detach()[0].numpy()
    b2 = float(net[2].bias.detach()[0])

    def f(v):
        return f"{float(v):.6e}"

    with open(path, "w") as out:
        out.write("//! Weights of the per-rabbit goal-threat network, written by\n")
        out.write("//! `tuning/goal_threat/train.py` (do not edit by hand).\n\n")
        out.write(f"pub(super) const W1: [[f32; {HIDDEN}]; {w1.shape[0]}] = [\n")
        for row in w1:
            out.write("    [" + ", ".join(f(v) for v in row) + "],\n")
        out.write("];\n")
        out.write(f"pub(super) const B1: [f32; {HIDDEN}] = [" + ", ".join(f(v) for v in b1) + "];\n")
        out.write(f"pub(super) const W2: [f32; {HIDDEN}] = [" + ", ".join(f(v) for v in w2) + "];\n")
        out.write(f"pub(super) const B2: f32 = {f(b2)};\n")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: train.py LABELS.jsonl.gz INPUTS.tsv OUT.rs")
    main(*sys.argv[1:])
