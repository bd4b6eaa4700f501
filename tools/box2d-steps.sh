# Steps per scene in Box2D v3's `benchmark` app (its table of benchmarks)
# and the choice of scenes from the command line,
# shared by tools/compare-box2d.sh and tools/lockstep-box2d.sh.
# shellcheck disable=SC2034
declare -A steps=([joint_grid]=500 [tumbler]=750 [compounds]=500 [smash]=300 [washer]=500 [large_pyramid]=500 [many_pyramids]=200 [rain]=1000 [junkyard]=800 [spinner]=500)
all_scenes=(joint_grid tumbler compounds smash washer large_pyramid many_pyramids rain junkyard spinner)

# The scenes named after the scripts' first two arguments (all of them when
# none is), into `scenes`; an unknown name exits 2, naming the known ones.
pick_scenes() {
  shift $(( $# < 2 ? $# : 2 ))
  scenes=("$@")
  [ ${#scenes[@]} -gt 0 ] || scenes=("${all_scenes[@]}")
  local scene
  for scene in "${scenes[@]}"; do
    [ -n "${steps[$scene]:-}" ] || { echo "unknown scene $scene (one of: ${all_scenes[*]})" >&2; exit 2; }
  done
}
