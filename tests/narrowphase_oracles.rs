//! The narrowphase against independent oracles (see `common/mod.rs`), on seeded
//! random pairs: a ChaCha8 loop for volume and proptest (with shrinking) for
//! readable counterexamples.
//!
//! Tolerances: `intersects` is judged wherever the pair is more than 1e-4 from
//! touching; distances and depths to 1e-5 m; normals to 1e-3 rad wherever the
//! direction is unique (see `common::UNIQUE_GAP`, `common::WELL_CONDITIONED_DISTANCE`).
//! Ellipses are checked against a dense inscribed polygon with the sagitta bound
//! (`common::ellipse_sagitta`) as one-sided slack.

mod common;

use common::*;
use glam::DVec2;
use minkowski::{narrowphase, sat, Iso, Shape, Vec2};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Runs `n` seeded pairs through `check`, reporting the first failures.
fn run_loop(
    name: &str,
    seed: u64,
    n: usize,
    mut make: impl FnMut(&mut ChaCha8Rng) -> (Shape, Shape),
    check: impl Fn(&Shape, &Iso, &Shape, &Iso) -> Result<(), String>,
) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut failures = Vec::new();
    let mut failed = 0;
    for _ in 0..n {
        let (a, b) = make(&mut rng);
        let (xa, xb) = random_poses(&mut rng, &a, &b);
        if let Err(e) = check(&a, &xa, &b, &xb) {
            failed += 1;
            if failures.len() < 5 {
                failures.push(e);
            }
        }
    }
    assert!(
        failed == 0,
        "{name}: {failed} of {n} pairs failed; first ones:\n{}",
        failures.join("\n\n")
    );
}

#[test]
fn polygon_pairs_100k() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let n = 100_000;
    let (mut overlapping, mut separated, mut unique) = (0, 0, 0);
    let mut failures = Vec::new();
    let mut failed = 0;
    for _ in 0..n {
        let a = random_polygon(&mut rng);
        let b = random_polygon(&mut rng);
        let (xa, xb) = random_poses(&mut rng, &a, &b);
        let (wa, wb) = (world(&a, &xa), world(&b, &xb));
        let exp = expected(&wa, &wb);
        if exp.sep < 0.0 {
            overlapping += 1;
            unique += exp.normal_checkable as usize;
        } else {
            separated += 1;
        }
        // The library's SAT (the MTV oracle of the issue) agrees with the f64
        // generalised SAT, so "EPA depth = SAT depth" is what check_pair asserts.
        let (Shape::Polygon(pa), Shape::Polygon(pb)) = (&a, &b) else {
            unreachable!()
        };
        let s = sat::separation(pa, &xa, pb, &xb);
        let f = core_sat(&wa, &wb).unwrap();
        let mut result = if (s.separation as f64 - f.sep).abs() > DIST_TOL {
            Err(format!("sat {s:?} vs f64 {f:?}"))
        } else {
            Ok(())
        };
        if result.is_ok() {
            result = check_pair(&a, &xa, &b, &xb);
        }
        if let Err(e) = result {
            failed += 1;
            if failures.len() < 5 {
                failures.push(e);
            }
        }
    }
    assert!(
        failed == 0,
        "{failed} of {n} failed:\n{}",
        failures.join("\n\n")
    );
    // The generator must exercise both regimes.
    assert!(
        overlapping > n / 5 && separated > n / 5,
        "{overlapping} {separated}"
    );
    assert!(unique > overlapping / 2, "{unique} of {overlapping}");
}

#[test]
fn sat_itself_matches_axis_sampling() {
    // SAT is the MTV oracle, so check it against a direct minimisation over
    // 20 000 sampled directions: overlapping, the depth is min_n overlap_along(n);
    // apart, the Euclidean distance is max_n −overlap_along(n) (≥ the SAT value).
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let samples = 20_000;
    for _ in 0..200 {
        let a = random_polygon(&mut rng);
        let b = random_polygon(&mut rng);
        let (xa, xb) = random_poses(&mut rng, &a, &b);
        let (Shape::Polygon(pa), Shape::Polygon(pb)) = (&a, &b) else {
            unreachable!()
        };
        let s = sat::separation(pa, &xa, pb, &xb);
        let (wa, wb) = (world(&a, &xa), world(&b, &xb));
        let mut best = f64::INFINITY;
        for k in 0..samples {
            let t = k as f64 / samples as f64 * std::f64::consts::TAU;
            best = best.min(overlap_along(&wa, &wb, DVec2::new(t.cos(), t.sin())));
        }
        // Sampling at a step of 3.1e-4 rad overshoots the minimum by at most
        // (size ≤ 6) · step ≈ 2e-3.
        if s.separation <= 0.0 {
            let depth = -s.separation as f64;
            assert!(
                best >= depth - 1e-5 && best <= depth + 2e-3,
                "{depth} vs sampled {best}"
            );
            let along = overlap_along(&wa, &wb, d(s.normal));
            assert!((along - depth).abs() < 1e-5);
        } else {
            let (cd, _, _) = core_distance(&wa, &wb);
            assert!(-best <= cd + 1e-5 && -best >= cd - 2e-3, "{cd} vs {best}");
            assert!(s.separation as f64 <= cd + 1e-5);
        }
    }
}

#[test]
fn rounded_pairings() {
    let n = 20_000;
    run_loop(
        "circle/circle",
        1,
        n,
        |r| (random_circle(r), random_circle(r)),
        check_pair,
    );
    run_loop(
        "circle/capsule",
        2,
        n,
        |r| (random_circle(r), random_capsule(r)),
        check_pair,
    );
    run_loop(
        "capsule/capsule",
        3,
        n,
        |r| (random_capsule(r), random_capsule(r)),
        check_pair,
    );
    run_loop(
        "circle/polygon",
        4,
        n,
        |r| (random_circle(r), random_polygon(r)),
        check_pair,
    );
    run_loop(
        "capsule/polygon",
        5,
        n,
        |r| (random_capsule(r), random_polygon(r)),
        check_pair,
    );
    // The reverse orders too (A rounded vs B rounded is not symmetric in the code).
    run_loop(
        "polygon/capsule",
        6,
        n / 4,
        |r| (random_polygon(r), random_capsule(r)),
        check_pair,
    );
    run_loop(
        "polygon/circle",
        8,
        n / 4,
        |r| (random_polygon(r), random_circle(r)),
        check_pair,
    );
}

type MakeShape = fn(&mut ChaCha8Rng) -> Shape;

#[test]
fn rounded_polygon_pairs() {
    let n = 20_000;
    let pairs: [(&str, MakeShape, MakeShape); 8] = [
        (
            "rounded/rounded",
            random_rounded_polygon,
            random_rounded_polygon,
        ),
        ("rounded/polygon", random_rounded_polygon, random_polygon),
        ("polygon/rounded", random_polygon, random_rounded_polygon),
        ("rounded/circle", random_rounded_polygon, random_circle),
        ("circle/rounded", random_circle, random_rounded_polygon),
        ("rounded/capsule", random_rounded_polygon, random_capsule),
        ("capsule/rounded", random_capsule, random_rounded_polygon),
        ("small rounded boxes", small_rounded, small_rounded),
    ];
    for (k, (name, fa, fb)) in pairs.into_iter().enumerate() {
        run_loop(name, 40 + k as u64, n, |r| (fa(r), fb(r)), check_pair);
    }
    let e = |a: &Shape, xa: &Iso, b: &Shape, xb: &Iso| {
        check_pair_ellipse(a, xa, b, xb, ELLIPSE_VERTICES)
    };
    run_loop(
        "ellipse/rounded",
        50,
        1500,
        |r| (random_ellipse(r), random_rounded_polygon(r)),
        e,
    );
    run_loop(
        "rounded/ellipse",
        51,
        500,
        |r| (random_rounded_polygon(r), random_ellipse(r)),
        e,
    );
}

/// A rounded box or triangle (the dispatcher's small-polygon kernels).
fn small_rounded(rng: &mut ChaCha8Rng) -> Shape {
    let s = log_uniform(rng, 0.1, 2.0);
    let r = log_uniform(rng, 0.005, 0.5) * s;
    if rng.random_bool(0.5) {
        Shape::rounded_rect(s, s * rng.random_range(0.1..1.0f32), r)
    } else {
        let pts = [
            Vec2::new(-s, 0.0),
            Vec2::new(s, rng.random_range(-0.5..0.5f32) * s),
            Vec2::new(rng.random_range(-1.0..1.0f32) * s, s),
        ];
        Shape::rounded_polygon(&pts, r).unwrap_or_else(|_| Shape::rounded_rect(s, s, r))
    }
}

#[test]
fn ellipse_pairs() {
    // 1024 vertices: sagitta ≤ 4.7e-6 · max(rx, ry) ≤ 9.4e-6 m for rx, ry ≤ 2.
    let e = |a: &Shape, xa: &Iso, b: &Shape, xb: &Iso| {
        check_pair_ellipse(a, xa, b, xb, ELLIPSE_VERTICES)
    };
    run_loop(
        "ellipse/polygon",
        21,
        1500,
        |r| (random_ellipse(r), random_polygon(r)),
        e,
    );
    run_loop(
        "polygon/ellipse",
        22,
        500,
        |r| (random_polygon(r), random_ellipse(r)),
        e,
    );
    run_loop(
        "ellipse/circle",
        23,
        1500,
        |r| (random_ellipse(r), random_circle(r)),
        e,
    );
    run_loop(
        "ellipse/capsule",
        24,
        1500,
        |r| (random_ellipse(r), random_capsule(r)),
        e,
    );
    // Ellipse/ellipse with 256 vertices each (the brute force is quadratic):
    // sagitta ≤ 7.5e-5 · max(rx, ry) each, so up to 3e-4 m of one-sided slack.
    run_loop(
        "ellipse/ellipse",
        25,
        150,
        |r| (random_ellipse(r), random_ellipse(r)),
        |a: &Shape, xa: &Iso, b: &Shape, xb: &Iso| check_pair_ellipse(a, xa, b, xb, 256),
    );
}

fn random_any(rng: &mut ChaCha8Rng) -> Shape {
    match rng.random_range(0..5) {
        0 => random_circle(rng),
        1 => random_capsule(rng),
        2 => random_polygon(rng),
        3 => random_rounded_polygon(rng),
        _ => random_ellipse(rng),
    }
}

/// Compares two query results that must agree up to `flip` of the normal and a
/// rotation `rot` of the world (normal and points).
fn compare(
    base: (&Shape, Iso, &Shape, Iso),
    other: (&Shape, Iso, &Shape, Iso),
    swapped: bool,
    motion: Iso,
) -> Result<(), String> {
    let (a, xa, b, xb) = base;
    let (a2, xa2, b2, xb2) = other;
    let sign = if swapped { -1.0 } else { 1.0 };
    let ctx = || format!("{a:?} {xa:?} {b:?} {xb:?} swapped={swapped} motion={motion:?}");
    let wa = world(a, &xa);
    let wb = world(b, &xb);
    let exp = if matches!(a, Shape::Ellipse { .. }) || matches!(b, Shape::Ellipse { .. }) {
        None
    } else {
        Some(expected(&wa, &wb))
    };
    let near_touch = exp.is_some_and(|e| e.sep.abs() <= INTERSECT_MARGIN);
    let checkable = exp.is_some_and(|e| e.normal_checkable);
    let dir = |v: Vec2| motion.rot.apply(v) * sign;
    let pt = |p: Vec2| motion.apply(p);

    let (h1, h2) = (
        narrowphase::intersects(a, &xa, b, &xb),
        narrowphase::intersects(a2, &xa2, b2, &xb2),
    );
    if h1 != h2 && !near_touch {
        return Err(format!("intersects {h1} vs {h2}: {}", ctx()));
    }
    let (d1, d2) = (
        narrowphase::distance(a, &xa, b, &xb),
        narrowphase::distance(a2, &xa2, b2, &xb2),
    );
    match (d1, d2) {
        (Some(c1), Some(c2)) => {
            let (pa, pb) = if swapped {
                (c2.point_b, c2.point_a)
            } else {
                (c2.point_a, c2.point_b)
            };
            let tol = DIST_TOL as f32;
            if (c1.distance - c2.distance).abs() > tol
                || (checkable && angle_between(d(dir(c1.normal)), d(c2.normal)) > NORMAL_TOL)
                || (checkable && (pt(c1.point_a) - pa).length() > 1e-3)
                || (checkable && (pt(c1.point_b) - pb).length() > 1e-3)
            {
                return Err(format!("distance {c1:?} vs {c2:?}: {}", ctx()));
            }
        }
        (None, None) => {}
        (x, y) => {
            let dd = x.or(y).unwrap().distance;
            if dd > 2e-5 {
                return Err(format!("distance {x:?} vs {y:?}: {}", ctx()));
            }
        }
    }
    let (p1, p2) = (
        narrowphase::penetration(a, &xa, b, &xb),
        narrowphase::penetration(a2, &xa2, b2, &xb2),
    );
    match (p1, p2) {
        (Some(c1), Some(c2)) => {
            if (c1.depth - c2.depth).abs() > DIST_TOL as f32
                || (checkable && angle_between(d(dir(c1.normal)), d(c2.normal)) > NORMAL_TOL)
            {
                return Err(format!("penetration {c1:?} vs {c2:?}: {}", ctx()));
            }
        }
        (None, None) => {}
        (x, y) => {
            let dd = x.or(y).unwrap().depth;
            if dd > 2e-5 {
                return Err(format!("penetration {x:?} vs {y:?}: {}", ctx()));
            }
        }
    }
    Ok(())
}

#[test]
fn symmetry_swap_and_rigid_motion() {
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    let mut failures = Vec::new();
    let n = 20_000;
    for _ in 0..n {
        let a = random_any(&mut rng);
        let b = random_any(&mut rng);
        let (xa, xb) = random_poses(&mut rng, &a, &b);
        // Swap.
        if let Err(e) = compare((&a, xa, &b, xb), (&b, xb, &a, xa), true, Iso::IDENTITY) {
            failures.push(e);
        }
        // One rigid motion applied to both poses.
        let m = Iso::new(
            Vec2::new(rng.random_range(-5.0..5.0), rng.random_range(-5.0..5.0)),
            rng.random_range(-3.2..3.2),
        );
        let (ya, yb) = (m.mul(&xa), m.mul(&xb));
        if let Err(e) = compare((&a, xa, &b, xb), (&a, ya, &b, yb), false, m) {
            failures.push(e);
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} comparisons failed; first ones:\n{}",
        failures.len(),
        2 * n,
        failures[..failures.len().min(5)].join("\n\n")
    );
}

// ---------------------------------------------------------------------------
// Proptest: fewer cases, but failures shrink to small readable pairs.

fn polygon_strategy() -> impl Strategy<Value = Shape> {
    (
        prop::collection::vec((-1.0f32..1.0, -1.0f32..1.0), 3..12),
        0.1f32..3.0,
        1.0f32..6.0,
    )
        .prop_filter_map("degenerate hull", |(pts, size, aspect)| {
            let pts: Vec<Vec2> = pts
                .into_iter()
                .map(|(x, y)| Vec2::new(x * size, y * size / aspect))
                .collect();
            Shape::convex_hull(&pts).ok()
        })
}

fn shape_strategy() -> impl Strategy<Value = Shape> {
    prop_oneof![
        polygon_strategy(),
        (0.05f32..2.0).prop_map(Shape::circle),
        (0.05f32..2.0, 0.05f32..1.0).prop_map(|(h, r)| Shape::capsule(h, r)),
        (polygon_strategy(), 0.01f32..1.0).prop_map(|(p, r)| match p {
            Shape::Polygon(core) => Shape::RoundedPolygon { core, radius: r },
            other => other,
        }),
    ]
}

fn pose_strategy() -> impl Strategy<Value = (Iso, Iso)> {
    (
        -5.0f32..5.0,
        -5.0f32..5.0,
        -3.2f32..3.2,
        -4.0f32..4.0,
        -4.0f32..4.0,
        -3.2f32..3.2,
    )
        .prop_map(|(x, y, a, dx, dy, b)| {
            (
                Iso::new(Vec2::new(x, y), a),
                Iso::new(Vec2::new(x + dx, y + dy), b),
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 3000,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x4d4b_0002),
        ..ProptestConfig::default()
    })]

    #[test]
    fn prop_polygon_pairs(a in polygon_strategy(), b in polygon_strategy(), (xa, xb) in pose_strategy()) {
        if let Err(e) = check_pair(&a, &xa, &b, &xb) {
            prop_assert!(false, "{}", e);
        }
    }

    #[test]
    fn prop_mixed_pairs(a in shape_strategy(), b in shape_strategy(), (xa, xb) in pose_strategy()) {
        if let Err(e) = check_pair(&a, &xa, &b, &xb) {
            prop_assert!(false, "{}", e);
        }
        if let Err(e) = compare((&a, xa, &b, xb), (&b, xb, &a, xa), true, Iso::IDENTITY) {
            prop_assert!(false, "{}", e);
        }
    }
}
