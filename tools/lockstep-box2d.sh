#!/usr/bin/env bash
# Speed against Box2D v3 with the two engines taking turns on each scene,
# CHUNK steps at a time (`minkowski bench --lockstep`): on a shared host
# whose load swings by 2x within seconds, separate runs (compare-box2d.sh)
# can land on different loads; turns a fraction of a second long do not.
# Builds Box2D's half (tools/box2d-lockstep.c) against a Box2D v3 build
# tree made with -DBOX2D_BENCHMARKS=ON, then runs ROUNDS rounds per scene
# and prints each round and, per scene, the median of the rounds' ratios.
# Usage: tools/lockstep-box2d.sh BOX2D_SOURCE_DIR [ROUNDS [SCENE...]]
#        (CHUNK=N in the environment: steps per turn, default 10)
set -euo pipefail
b2=$(realpath "${1:?path to the Box2D v3 source tree, built in its build/}")
rounds=${2:-3}
chunk=${CHUNK:-10}
cd "$(dirname "$0")/.."
source tools/box2d-steps.sh
cargo build --release -q
bin="${CARGO_TARGET_DIR:-target}/release/minkowski"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cc -O2 -I"$b2/include" -I"$b2/shared" tools/box2d-lockstep.c \
  "$b2/build/shared/libshared.a" "$b2/build/src/libbox2d.a" -lm -lpthread \
  -o "$scratch/box2d-lockstep"
shift $(( $# < 2 ? $# : 2 ))
scenes=("$@")
[ ${#scenes[@]} -gt 0 ] || scenes=("${all_scenes[@]}")
for scene in "${scenes[@]}"; do
  [ -n "${steps[$scene]:-}" ] || { echo "unknown scene $scene (one of: ${all_scenes[*]})" >&2; exit 2; }
done
for scene in "${scenes[@]}"; do
  for r in $(seq "$rounds"); do
    "$bin" bench "$scene" --steps "${steps[$scene]}" --chunk "$chunk" \
      --lockstep "$scratch/box2d-lockstep" --json
  done
done | tee "$scratch/rounds" | python3 -u -c '
import json, sys
for line in sys.stdin:
    d = json.loads(line)
    print("{:14s} box2d {:7.3f} ms/step  minkowski {:7.3f} ms/step  ratio {:5.3f}  median turn {:5.3f}".format(
        d["scene"], d["peer_ms_per_step"], d["ms_per_step"], d["ratio"], d["median_turn_ratio"]))
'
python3 - "$scratch/rounds" <<'PY'
import json, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    d = json.loads(line)
    rows.setdefault(d["scene"], []).append(d["ratio"])
for scene, rs in rows.items():
    print(f"{scene:14s} {len(rs)} rounds: ratios {' '.join(f'{r:.2f}' for r in rs)}  median {statistics.median(rs):.3f}  max {max(rs):.3f}")
PY
