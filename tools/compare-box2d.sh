#!/usr/bin/env bash
# Interleaved speed comparison with Box2D v3 (A B A B), one thread each.
# Usage: tools/compare-box2d.sh BOX2D_BENCHMARK_BINARY [ROUNDS [SCENE...]]
# Prints, per scene and round, Box2D's and Minkowski's mean ms per step over
# the same step count (Box2D's benchmark times steps 2..N; Minkowski's bench
# reports those steps' total as `after_first_s`, used here: until 2026-11-29
# this script divided Minkowski's total over all N steps, its first included,
# by N). Then, per scene, the ratio of the two engines' fastest rounds and
# the median of the per-round ratios.
set -euo pipefail
b2=$(realpath "${1:?path to Box2D bin/benchmark}")
rounds=${2:-2}
cd "$(dirname "$0")/.."
cargo build --release -q
bin="${CARGO_TARGET_DIR:-target}/release/minkowski"
# Box2D's benchmark writes a CSV per scene into its working directory.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
source tools/box2d-steps.sh
pick_scenes "$@"
for scene in "${scenes[@]}"; do
  n=${steps[$scene]}
  for r in $(seq "$rounds"); do
    # A run that prints no time is reported (with Box2D's output) and
    # skipped, instead of stopping the script silently under `set -e`.
    out=$(cd "$scratch" && "$b2" -b="$scene" -w=1 -r=1 2>&1) || true
    # Box2D prints the time with %g: "15523" has no decimal point, and a
    # long run may print "1.5523e+04".
    b=$(printf '%s\n' "$out" | sed -nE 's/^run 0 : ([0-9.]+(e[+-]?[0-9]+)?) \(ms\).*/\1/p' | head -1) || true
    if [ -z "$b" ]; then
      echo "$scene round $r: Box2D printed no time; its output:" >&2
      printf '%s\n' "$out" | tail -5 >&2
      continue
    fi
    m=$("$bin" bench "$scene" --steps "$n" --json \
      | python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); print(d["after_first_s"]*1000)')
    python3 - "$scene" "$r" "$n" "$b" "$m" <<'PY'
import sys
scene, r, n, b, m = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
bs, ms = b / (n - 1), m / (n - 1)
print(f"{scene:14s} round {r}: box2d {bs:7.3f} ms/step  minkowski {ms:7.3f} ms/step  ratio {ms/bs:5.2f}")
PY
  done
done | tee "$scratch/rounds"
# Per scene, over its rounds: the ratio of the two engines' fastest rounds
# (load on the host only ever adds time, and Box2D's benchmark app itself
# reports its fastest run) and the median of the per-round ratios.
python3 - "$scratch/rounds" <<'PY'
import re, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    m = re.match(r"(\S+)\s+round \d+: box2d\s+([\d.]+) ms/step\s+minkowski\s+([\d.]+)", line)
    if m:
        rows.setdefault(m[1], []).append((float(m[2]), float(m[3])))
for scene, rs in rows.items():
    b = min(x for x, _ in rs)
    m = min(y for _, y in rs)
    med = statistics.median(y / x for x, y in rs)
    print(f"{scene:14s} {len(rs)} rounds: fastest box2d {b:7.3f}  fastest minkowski {m:7.3f}  ratio of fastest {m/b:5.2f}  median ratio {med:5.2f}")
PY
