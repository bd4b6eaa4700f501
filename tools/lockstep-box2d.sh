#!/usr/bin/env bash
# Speed against Box2D v3 with the two engines taking turns on each scene,
# CHUNK steps at a time (`minkowski bench --lockstep`): on a shared host
# whose load swings by 2x within seconds, separate runs (compare-box2d.sh)
# can land on different loads; turns a fraction of a second long do not.
# Builds Box2D's half (tools/box2d-lockstep.c) against a Box2D v3 build
# tree made with -DBOX2D_BENCHMARKS=ON, then runs ROUNDS rounds per scene
# and prints each round and, per scene, the median of the rounds' ratios
# and the pooled ratio (the mean ms a step over all rounds, ours over
# Box2D's). With NOISE=1 each round also runs our build against itself in
# turns (`bench --peer`): the spread of those ratios around 1 is the
# host's noise floor for one round (on a shared 2-core host, 0.82-1.19).
# With WINDOW=W, each scene's steps are also cut into windows of W steps
# (a multiple of CHUNK), and per window the two engines' ms a step, pooled
# over the rounds, their ratio, and the window's share of the difference
# in total time: where in a scene's life the time is gained or lost.
# Usage: tools/lockstep-box2d.sh BOX2D_SOURCE_DIR [ROUNDS [SCENE...]]
#        (CHUNK=N in the environment: steps per turn, default 10;
#        NOISE=1: also our build against itself; WINDOW=W: by window)
set -euo pipefail
b2=$(realpath "${1:?path to the Box2D v3 source tree, built in its build/}")
rounds=${2:-3}
chunk=${CHUNK:-10}
noise=${NOISE:-0}
window=${WINDOW:-0}
[ $((window % chunk)) -eq 0 ] || { echo "WINDOW ($window) must be a multiple of CHUNK ($chunk)" >&2; exit 2; }
cd "$(dirname "$0")/.."
source tools/box2d-steps.sh
cargo build --release -q
bin="${CARGO_TARGET_DIR:-target}/release/minkowski"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cc -O2 -I"$b2/include" -I"$b2/shared" tools/box2d-lockstep.c \
  "$b2/build/shared/libshared.a" "$b2/build/src/libbox2d.a" -lm -lpthread \
  -o "$scratch/box2d-lockstep"
printf '#!/bin/sh\nexec "%s" bench --peer "$1"\n' "$(realpath "$bin")" >"$scratch/self-peer"
chmod +x "$scratch/self-peer"
declare -A program=([box2d]="$scratch/box2d-lockstep" [self]="$scratch/self-peer")
against=(box2d)
[ "$noise" != 1 ] || against+=(self)
pick_scenes "$@"
for scene in "${scenes[@]}"; do
  for r in $(seq "$rounds"); do
    for peer in "${against[@]}"; do
      "$bin" bench "$scene" --steps "${steps[$scene]}" --chunk "$chunk" \
        --lockstep "${program[$peer]}" --json |
        python3 -c 'import json, sys; d = json.load(sys.stdin); d["against"] = sys.argv[1]; print(json.dumps(d))' "$peer"
    done
  done
done | tee "$scratch/rounds" | python3 -u -c '
import json, sys
for line in sys.stdin:
    d = json.loads(line)
    print("{:14s} {:5s} {:7.3f} ms/step  minkowski {:7.3f} ms/step  ratio {:5.3f}  median turn {:5.3f}".format(
        d["scene"], d["against"], d["peer_ms_per_step"], d["ms_per_step"], d["ratio"], d["median_turn_ratio"]))
'
python3 - "$scratch/rounds" "$window" <<'PY'
import json, statistics, sys
window = int(sys.argv[2])
rows, noise = {}, {}
for line in open(sys.argv[1]):
    d = json.loads(line)
    (rows if d["against"] == "box2d" else noise).setdefault(d["scene"], []).append(d)
for scene, ds in rows.items():
    rs = [d["ratio"] for d in ds]
    pooled = sum(d["ms_per_step"] for d in ds) / sum(d["peer_ms_per_step"] for d in ds)
    line = f"{scene:14s} {len(rs)} rounds: ratios {' '.join(f'{r:.2f}' for r in rs)}  median {statistics.median(rs):.3f}  max {max(rs):.3f}  pooled {pooled:.3f}"
    if scene in noise:
        ns = [d["ratio"] for d in noise[scene]]
        line += f"  (ours against ours {min(ns):.2f}-{max(ns):.2f})"
    print(line)
    if window <= 0:
        continue
    # Per window, pooled over the rounds: (steps, ours ms, Box2D ms).
    windows = {}
    for d in ds:
        for t in d["turns"]:
            w = windows.setdefault((t["first_step"] - 2) // window, [0, 0.0, 0.0])
            w[0] += t["steps"]
            w[1] += t["ms"]
            w[2] += t["peer_ms"]
    excess = sum(w[1] - w[2] for w in windows.values())
    # A share of a difference near nothing means nothing: shown only
    # where the totals differ by 2 % or more.
    shown = abs(excess) >= 0.02 * sum(w[2] for w in windows.values())
    for k in sorted(windows):
        n, ours, theirs = windows[k]
        first = 2 + k * window
        last = first + n // len(ds) - 1
        ratio = f"{ours / theirs:6.2f}" if theirs > 0 else "     -"
        share = f"  {100 * (ours - theirs) / excess:5.1f} % of the difference" if shown else ""
        print(f"  steps {first:5d}-{last:5d}  ours {ours / n:8.3f}  box2d {theirs / n:8.3f} ms/step  ratio {ratio}{share}")
PY
