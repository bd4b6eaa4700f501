# Steps per scene in Box2D v3's `benchmark` app (its table of benchmarks),
# shared by tools/compare-box2d.sh and tools/lockstep-box2d.sh.
# shellcheck disable=SC2034
declare -A steps=([joint_grid]=500 [tumbler]=750 [compounds]=500 [smash]=300 [washer]=500 [large_pyramid]=500 [many_pyramids]=200 [rain]=1000 [junkyard]=800 [spinner]=500)
all_scenes=(joint_grid tumbler compounds smash washer large_pyramid many_pyramids rain junkyard spinner)
