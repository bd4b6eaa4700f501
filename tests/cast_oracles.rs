//! Accuracy of the casts against f64 oracles that share no code with the
//! library (`common/oracle64.rs`): seeded random cases over every shape kind,
//! sizes from 1 cm to 10 m, each query's worst error printed in metres
//! (`cargo test --release --test cast_oracles -- --nocapture`).
//!
//! * ray casts, closed form and GJK: the entry point of the ray into the
//!   shape's pieces (discs, a slab box, polygon edges), in closed form;
//! * shape casts: the signed distance `sd(λ)` of the moving shapes (the best
//!   separation over all directions) is convex in `λ`, so its minimum is found
//!   by golden section and the first root of `sd = target` by bisection;
//! * time of impact: `sd(t)` of the turning shapes sampled densely, the first
//!   crossing refined by bisection.
//!
//! Errors are measured in metres: for a hit, the distance between the shapes
//! at the reported time minus the target (a ray's hit point from the surface);
//! for a time, the distance along the motion; for a miss the oracle finds a
//! hit in, how deep the shapes get. The cases per query default to a CI-sized
//! number; `MINKOWSKI_ORACLE_CASES=100000` runs the deep check.

#[path = "common/oracle64.rs"]
mod oracle64;

use minkowski::geometry::cast::{self, CastOptions};
use minkowski::geometry::toi::{time_of_impact, Sweep, ToiOptions, ToiState};
use minkowski::{Iso, Rot, Shape, Vec2};
use oracle64::{at, bisect, convex_min, point_distance, ray_entry, signed_distance, Pose, S64, V};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The accuracy asked of every query (m).
const BOUND: f64 = 1e-5;

fn cases(ci: usize) -> usize {
    std::env::var("MINKOWSKI_ORACLE_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(ci)
}

/// A size from 1 cm to 10 m, log-uniform.
fn size(rng: &mut ChaCha8Rng) -> f32 {
    libm::powf(10.0, rng.random_range(-2.0f32..1.0))
}

fn random_shape(rng: &mut ChaCha8Rng) -> Shape {
    let s = size(rng);
    match rng.random_range(0..5) {
        0 => Shape::circle(s),
        1 => Shape::rect(s, s * rng.random_range(0.1f32..1.0)),
        2 => Shape::capsule(s, s * rng.random_range(0.05f32..1.0)),
        3 => Shape::ellipse(s, s * rng.random_range(0.1f32..1.0)),
        _ => {
            let n = rng.random_range(3..9);
            let pts: Vec<Vec2> = (0..n)
                .map(|k| {
                    let t = std::f32::consts::TAU * (k as f32 + rng.random_range(0.0f32..0.6))
                        / n as f32;
                    Vec2::new(libm::cosf(t), libm::sinf(t)) * s
                })
                .collect();
            Shape::polygon(&pts).unwrap_or_else(|_| Shape::rect(s, s))
        }
    }
}

fn v64(v: Vec2) -> V {
    [v.x as f64, v.y as f64]
}

fn unit(rng: &mut ChaCha8Rng) -> Vec2 {
    let a = rng.random_range(0.0f32..std::f32::consts::TAU);
    Vec2::new(libm::cosf(a), libm::sinf(a))
}

#[derive(Default)]
struct Worst {
    hits: usize,
    /// Worst distance of a reported hit point from the surface (m).
    surface: f64,
    /// Worst |t − t*| over all hits, and over rays at least 0.1 off the surface (m).
    t_all: f64,
    t_steep: f64,
    /// Disagreements on hit/miss, all grazing (m of depth or distance).
    grazes: usize,
    graze: f64,
}

/// One ray query checked against the oracle.
#[allow(clippy::too_many_arguments)]
fn check_ray(
    w: &mut Worst,
    what: &str,
    case: usize,
    hit: Option<minkowski::shape::RayHit>,
    s: &S64,
    p: &Pose,
    o: Vec2,
    d: Vec2,
    max: f32,
) {
    let (o64, d64) = (v64(o), v64(d));
    let truth = ray_entry(s, p, o64, d64).filter(|&t| t <= max as f64);
    match (hit, truth) {
        (Some(h), Some(t)) => {
            w.hits += 1;
            let dt = (h.t as f64 - t).abs();
            let surf = if t == 0.0 && h.t == 0.0 {
                0.0
            } else {
                point_distance(s, p, at(o64, d64, h.t as f64)).abs()
            };
            w.t_all = w.t_all.max(dt);
            if h.normal.dot(d).abs() >= 0.1 {
                w.t_steep = w.t_steep.max(dt);
                assert!(dt <= 10.0 * BOUND, "{what} case {case}: t {} vs {t}", h.t);
            }
            w.surface = w.surface.max(surf);
            assert!(
                surf <= BOUND,
                "{what} case {case}: hit {surf:e} m off the surface"
            );
        }
        (None, None) => {}
        (Some(h), None) => {
            // A graze: the hit point lies on the surface all the same.
            let surf = point_distance(s, p, at(o64, d64, h.t as f64));
            w.grazes += 1;
            w.graze = w.graze.max(surf.abs());
            assert!(
                surf.abs() <= BOUND,
                "{what} case {case}: false hit {surf:e} m away"
            );
        }
        (None, Some(t)) => {
            // Missed: only a graze deeper than nothing by less than the bound,
            // or an entry at the very end of the ray.
            let reach = max as f64;
            let (_, depth) = convex_min(|x| point_distance(s, p, at(o64, d64, x)), t, reach);
            w.grazes += 1;
            w.graze = w.graze.max(-depth);
            assert!(
                -depth <= BOUND || reach - t <= BOUND,
                "{what} case {case}: missed, the ray enters at {t} and goes {:e} m deep",
                -depth
            );
        }
    }
}

#[test]
fn ray_casts_closed_form_and_gjk_match_the_oracle() {
    let n = cases(20_000);
    let mut rng = ChaCha8Rng::seed_from_u64(0x7261_7973);
    let (mut closed, mut gjk) = (Worst::default(), Worst::default());
    for case in 0..n {
        let shape = random_shape(&mut rng);
        let s = shape.bounding_radius();
        let xf = Iso::new(
            Vec2::new(
                rng.random_range(-5.0f32..5.0),
                rng.random_range(-5.0f32..5.0),
            ),
            rng.random_range(-3.2f32..3.2),
        );
        let o = xf.translation
            + unit(&mut rng) * s * rng.random_range(0.0f32..4.0)
            + unit(&mut rng) * rng.random_range(0.0f32..10.0);
        let aim = if rng.random_bool(0.7) {
            xf.translation + unit(&mut rng) * s * rng.random_range(0.0f32..1.2)
        } else {
            o + unit(&mut rng)
        };
        let d = (aim - o).normalize_or_zero();
        if d == Vec2::ZERO {
            continue;
        }
        let max = rng.random_range(1.0f32..40.0);
        let (s64, p64) = (S64::of(&shape), Pose::of(&xf));
        let h = shape.ray_cast(&xf, o, d, max);
        check_ray(&mut closed, "closed form", case, h, &s64, &p64, o, d, max);
        let h = cast::ray_cast(&shape, &xf, o, d, max);
        check_ray(&mut gjk, "gjk", case, h, &s64, &p64, o, d, max);
    }
    for (name, w) in [("closed-form", &closed), ("GJK", &gjk)] {
        println!(
            "{name} ray casts, {n} cases: {} hits; hit point off the surface ≤ {:.2e} m; \
             |t − t*| ≤ {:.2e} m ({:.2e} m where |n·d| ≥ 0.1); {} grazes within {:.2e} m",
            w.hits, w.surface, w.t_all, w.t_steep, w.grazes, w.graze
        );
    }
    assert!(closed.hits > n / 3 && gjk.hits > n / 3);
}

#[test]
fn shape_casts_match_the_oracle() {
    let n = cases(10_000);
    let mut rng = ChaCha8Rng::seed_from_u64(0x6361_7374);
    let (mut hits, mut at_zero, mut misses, mut grazes) = (0, 0, 0, 0);
    let (mut dist_err, mut path_err, mut graze): (f64, f64, f64) = (0.0, 0.0, 0.0);
    let mut dist_err_20: f64 = 0.0;
    for case in 0..n {
        let (a, b) = (random_shape(&mut rng), random_shape(&mut rng));
        let (ra, rb) = (a.bounding_radius(), b.bounding_radius());
        let xa = Iso::new(
            Vec2::new(
                rng.random_range(-3.0f32..3.0),
                rng.random_range(-3.0f32..3.0),
            ),
            rng.random_range(-3.2f32..3.2),
        );
        let xb = Iso::new(
            xa.translation + unit(&mut rng) * (ra + rb) * rng.random_range(0.6f32..3.0),
            rng.random_range(-3.2f32..3.2),
        );
        let aim = xa.translation + unit(&mut rng) * ra * rng.random_range(0.0f32..1.5);
        let db = (aim - xb.translation) * rng.random_range(0.3f32..2.5);
        let da = unit(&mut rng) * ra * rng.random_range(0.0f32..1.0);
        let target = match rng.random_range(0..3) {
            0 => 0.0,
            1 => 0.005,
            _ => 0.2 * ra.min(rb),
        };
        let opts = CastOptions {
            target,
            ..CastOptions::default()
        };
        let ours = cast::shape_cast(&a, &xa, da, &b, &xb, db, &opts);
        let (a64, b64) = (S64::of(&a), S64::of(&b));
        let (pa, pb) = (Pose::of(&xa), Pose::of(&xb));
        let (da64, db64) = (v64(da), v64(db));
        let sd = |l: f64| {
            signed_distance(
                &a64,
                &pa.moved([da64[0] * l, da64[1] * l]),
                &b64,
                &pb.moved([db64[0] * l, db64[1] * l]),
            ) - target as f64
        };
        let speed = v64(db - da);
        let speed = (speed[0] * speed[0] + speed[1] * speed[1]).sqrt();
        let start = sd(0.0);
        let (l_min, low) = convex_min(sd, 0.0, 1.0);
        // f32 resolves the case to a few units of its extent (A's frame):
        // 1e-5 m up to about 20 m, four units of rounding beyond.
        let extent = (xb.translation - xa.translation).length() + (db - da).length() + ra + rb;
        let bound = BOUND.max(4.0 * f32::EPSILON as f64 * extent as f64);
        match ours {
            Some(h) if h.fraction == 0.0 => {
                at_zero += 1;
                assert!(
                    start <= bound,
                    "case {case}: hit at 0, {start:e} m above target"
                );
            }
            Some(h) => {
                hits += 1;
                let err = sd(h.fraction as f64);
                dist_err = dist_err.max(err.abs());
                if extent <= 20.0 {
                    dist_err_20 = dist_err_20.max(err.abs());
                }
                assert!(
                    err.abs() <= bound,
                    "case {case}: {err:e} m off the target, {h:?}"
                );
                if start > 0.0 && low < 0.0 {
                    let root = bisect(sd, 0.0, l_min);
                    let e = (h.fraction as f64 - root).abs() * speed;
                    path_err = path_err.max(e);
                }
            }
            None => {
                misses += 1;
                if low < 0.0 {
                    grazes += 1;
                    graze = graze.max(-low);
                    assert!(-low <= bound, "case {case}: missed a hit {:e} m deep", -low);
                }
                assert!(start > -bound, "case {case}: missed a start in contact");
            }
        }
    }
    println!(
        "shape casts, {n} cases: {hits} hits, {at_zero} at 0, {misses} misses ({grazes} grazes \
         within {graze:.2e} m); distance at the hit − target ≤ {dist_err:.2e} m \
         ({dist_err_20:.2e} m for cases within 20 m); \
         |λ − λ*|·|Δx| ≤ {path_err:.2e} m"
    );
    assert!(
        hits > n / 4 && misses > n / 10 && at_zero > n / 50,
        "{hits} {misses} {at_zero}"
    );
}

fn random_sweep(rng: &mut ChaCha8Rng, shape: &Shape, c0: Vec2, moving: bool) -> Sweep {
    let r = shape.bounding_radius();
    let local_center = unit(rng) * r * rng.random_range(0.0f32..0.3);
    let q0 = Rot::from_angle(rng.random_range(-3.2f32..3.2));
    if !moving {
        return Sweep {
            local_center,
            c0,
            c1: c0,
            q0,
            angle: 0.0,
        };
    }
    Sweep {
        local_center,
        c0,
        c1: c0 + unit(rng) * r * rng.random_range(0.0f32..4.0),
        q0,
        angle: rng.random_range(-7.0f32..7.0) * rng.random_range(0.0f32..1.0),
    }
}

fn pose_at(s: &Sweep, t: f64) -> Pose {
    let a0 = (s.q0.sin as f64).atan2(s.q0.cos as f64);
    let p = Pose::new([0.0, 0.0], a0 + t * s.angle as f64);
    let c = [
        s.c0.x as f64 + t * (s.c1.x as f64 - s.c0.x as f64),
        s.c0.y as f64 + t * (s.c1.y as f64 - s.c0.y as f64),
    ];
    let lc = p.rotate(v64(s.local_center));
    Pose {
        t: [c[0] - lc[0], c[1] - lc[1]],
        ..p
    }
}

#[test]
fn times_of_impact_match_the_oracle() {
    let n = cases(4_000);
    const SAMPLES: usize = 128;
    let mut rng = ChaCha8Rng::seed_from_u64(0x746f_6921);
    let mut count = [0usize; 4];
    let (mut dist_err, mut late): (f64, f64) = (0.0, 0.0);
    let mut iterations = 0u32;
    for case in 0..n {
        let (a, b) = (random_shape(&mut rng), random_shape(&mut rng));
        let (ra, rb) = (a.bounding_radius(), b.bounding_radius());
        let ca = Vec2::new(
            rng.random_range(-3.0f32..3.0),
            rng.random_range(-3.0f32..3.0),
        );
        let cb = ca + unit(&mut rng) * (ra + rb) * rng.random_range(0.5f32..2.5);
        let a_moves = rng.random_bool(0.5);
        let sa = random_sweep(&mut rng, &a, ca, a_moves);
        let mut sb = random_sweep(&mut rng, &b, cb, true);
        // Aim B's centre at A's most of the time.
        if rng.random_bool(0.7) {
            sb.c1 = ca + (ca - cb) * rng.random_range(0.0f32..1.5);
        }
        let target = match rng.random_range(0..3) {
            0 => 0.0,
            1 => 0.005,
            _ => 0.2 * ra.min(rb),
        };
        let opts = ToiOptions {
            target,
            ..ToiOptions::default()
        };
        let toi = time_of_impact(&a, &sa, &b, &sb, &opts);
        iterations = iterations.max(toi.iterations);
        let (a64, b64) = (S64::of(&a), S64::of(&b));
        let sd = |t: f64| {
            signed_distance(&a64, &pose_at(&sa, t), &b64, &pose_at(&sb, t)) - target as f64
        };
        // The lowest sample before `t`.
        let grid: Vec<(f64, f64)> = (0..=SAMPLES)
            .map(|k| {
                let t = k as f64 / SAMPLES as f64;
                (t, sd(t))
            })
            .collect();
        let lowest_before = |t: f64| {
            grid.iter()
                .filter(|g| g.0 < t)
                .fold(f64::INFINITY, |m, g| m.min(g.1))
        };
        let t = toi.fraction as f64;
        match toi.state {
            ToiState::Hit => {
                count[0] += 1;
                let err = sd(t);
                dist_err = dist_err.max(err.abs());
                assert!(
                    err.abs() <= BOUND,
                    "case {case}: {err:e} m off the target, {toi:?}"
                );
                let below = -lowest_before(t);
                late = late.max(below);
                assert!(
                    below <= BOUND,
                    "case {case}: {below:e} m below target before {t}"
                );
            }
            ToiState::Separated => {
                count[1] += 1;
                let below = -lowest_before(2.0);
                late = late.max(below);
                assert!(
                    below <= BOUND,
                    "case {case}: separated, but {below:e} m below target"
                );
            }
            ToiState::Overlapped => {
                count[2] += 1;
                assert!(
                    grid[0].1 < BOUND,
                    "case {case}: overlapped at {:e} m",
                    grid[0].1
                );
            }
            ToiState::Failed => {
                count[3] += 1;
                let below = -lowest_before(t);
                assert!(
                    below <= BOUND,
                    "case {case}: failed late, {below:e} m below target"
                );
            }
        }
    }
    println!(
        "times of impact, {n} cases: {} hits, {} separated, {} overlapped, {} failed; \
         distance at the hit − target ≤ {dist_err:.2e} m; never below the target by more \
         than {late:.2e} m before the answer; at most {iterations} GJK queries",
        count[0], count[1], count[2], count[3]
    );
    assert!(count[0] > n / 4 && count[1] > n / 10, "{count:?}");
    assert!(count[3] * 1000 <= n, "{} failures in {n}", count[3]);
}
