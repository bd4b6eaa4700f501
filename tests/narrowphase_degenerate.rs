//! Named degenerate cases for GJK and EPA: each test builds the configuration it
//! is named after (and, where the configuration depends on the algorithm's path,
//! asserts from the trace that the path was taken), then checks the answer against
//! the oracles of `common/mod.rs` with the usual tolerances.

mod common;

use common::*;
use minkowski::geometry::simplex::{Simplex, SimplexVertex};
use minkowski::{gjk, narrowphase, Iso, Shape, Vec2};

const TOL: f32 = 1e-5;

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn at(x: f32, y: f32, angle: f32) -> Iso {
    Iso::new(v(x, y), angle)
}

fn octagon(r: f32) -> Shape {
    let pts: Vec<Vec2> = (0..8)
        .map(|k| {
            let t = (k as f32 + 0.5) / 8.0 * std::f32::consts::TAU;
            v(t.cos(), t.sin()) * r
        })
        .collect();
    Shape::polygon(&pts).unwrap()
}

/// Checks the full result of a pair against the oracle (non-ellipse shapes).
fn oracle_ok(a: &Shape, xa: &Iso, b: &Shape, xb: &Iso) {
    if let Err(e) = check_pair(a, xa, b, xb) {
        panic!("{e}");
    }
}

fn assert_unit_finite(n: Vec2) {
    assert!(n.is_finite() && (n.length() - 1.0).abs() < 1e-5, "{n}");
}

// ---------------------------------------------------------------------------
// EPA degenerate starts.

#[test]
fn epa_point_simplex_touching_corners() {
    // GJK's first support point is exactly the origin: B's corner sits on A's
    // corner (all coordinates exact in f32), so the simplex is a single point and
    // EPA must grow it into a segment before expanding.
    let a = Shape::rect(1.0, 1.0);
    let b = Shape::polygon(&[v(-0.5, 0.75), v(1.0, 0.5), v(0.5, 1.5)]).unwrap();
    let (xa, xb) = (Iso::IDENTITY, at(1.5, 0.25, 0.0));
    let mut trace = Vec::new();
    let core = gjk::query_traced(&a, &xa, &b, &xb, &mut trace);
    assert_eq!(core.simplex.count, 1, "{trace:?}");
    assert_eq!(core.simplex.v[0].w, Vec2::ZERO);
    let p = narrowphase::penetration(&a, &xa, &b, &xb).expect("touching counts as contact");
    assert!(p.depth.abs() < TOL, "{p:?}");
    assert_unit_finite(p.normal);
    assert!(narrowphase::intersects(&a, &xa, &b, &xb));
    assert!(narrowphase::distance(&a, &xa, &b, &xb).is_none());
    oracle_ok(&a, &xa, &b, &xb);
}

#[test]
fn epa_segment_simplex_origin_on_edge() {
    // Two unit boxes, B shifted by exactly (1, 0): GJK's first two support points
    // are (−1, 0) and (3, 0), a segment through the origin; EPA starts from the
    // two-edge polygon and must expand on both sides. Depth 1 along ±x.
    let a = Shape::rect(1.0, 1.0);
    let (xa, xb) = (Iso::IDENTITY, at(1.0, 0.0, 0.0));
    let mut trace = Vec::new();
    let core = gjk::query_traced(&a, &xa, &a, &xb, &mut trace);
    assert_eq!(core.simplex.count, 2, "{trace:?}");
    let p = narrowphase::penetration(&a, &xa, &a, &xb).unwrap();
    assert!((p.depth - 1.0).abs() < TOL, "{p:?}");
    assert!((p.normal - Vec2::X).length() < 1e-3, "{p:?}");
    oracle_ok(&a, &xa, &a, &xb);

    // Touching along an edge: the origin on the boundary segment of B − A.
    let xb = at(2.0, 0.5, 0.0);
    let p = narrowphase::penetration(&a, &xa, &a, &xb).unwrap();
    assert!(
        p.depth.abs() < TOL && (p.normal - Vec2::X).length() < 1e-3,
        "{p:?}"
    );
    assert!(narrowphase::distance(&a, &xa, &a, &xb).is_none());
    oracle_ok(&a, &xa, &a, &xb);
}

#[test]
fn simplex_origin_on_triangle_edge_reduces_to_that_edge() {
    // The Voronoi solver: origin exactly on edge w1w2 of a triangle.
    let vx = |x: f32, y: f32| SimplexVertex::new(Vec2::ZERO, v(x, y));
    for (tri, edge) in [
        ([vx(-1.0, 0.0), vx(2.0, 0.0), vx(0.0, 1.0)], 0),
        ([vx(0.0, 1.0), vx(-1.0, 0.0), vx(2.0, 0.0)], 1),
        ([vx(2.0, 0.0), vx(0.0, 1.0), vx(-1.0, 0.0)], 2),
    ] {
        let mut s = Simplex { v: tri, count: 3 };
        s.solve();
        assert!(s.closest().length() < 1e-6, "edge {edge}: {s:?}");
        assert!(s.count <= 2, "edge {edge}: {s:?}");
        let sum: f32 = s.vertices().iter().map(|p| p.weight).sum();
        assert!((sum - 1.0).abs() < 1e-6);
    }
}

#[test]
fn epa_origin_on_triangle_edge() {
    // End to end: search a grid of exact poses for pairs where GJK built a
    // triangle whose edge passes exactly through the origin (the trace shows a
    // 2-vertex simplex at distance 0 right after a 3rd point was added), and check
    // every such pair against the SAT oracle. The grid must contain some.
    let a = Shape::rect(1.0, 0.5);
    let b = Shape::polygon(&[v(-1.0, -0.5), v(1.0, -0.5), v(0.0, 1.0)]).unwrap();
    let mut found = 0;
    for i in -12..=12 {
        for j in -8..=8 {
            let xb = at(i as f32 * 0.125, j as f32 * 0.125, 0.0);
            let mut trace = Vec::new();
            gjk::query_traced(&a, &Iso::IDENTITY, &b, &xb, &mut trace);
            let hit = trace.windows(2).any(|w| {
                w[0].simplex.len() == 2
                    && w[0].support.is_some()
                    && w[1].simplex.len() == 2
                    && w[1].closest == Vec2::ZERO
            });
            if hit {
                found += 1;
                oracle_ok(&a, &Iso::IDENTITY, &b, &xb);
            }
        }
    }
    assert!(
        found > 0,
        "the grid never put the origin on a triangle edge"
    );
}

#[test]
fn identical_shapes_at_identical_pose() {
    // B − A is symmetric about the origin; the depth is the shape's minimum width.
    let xf = at(0.3, -1.7, 0.6);
    let cases: Vec<(Shape, f32)> = vec![
        (Shape::rect(1.0, 0.25), 0.5),
        (octagon(1.0), 2.0 * (std::f32::consts::PI / 8.0).cos()),
        (Shape::circle(0.7), 1.4),
        (Shape::capsule(1.0, 0.3), 0.6),
        (Shape::ellipse(2.0, 0.5), 1.0),
        // The core's depth (the box's height) plus the two radii.
        (Shape::rounded_rect(1.0, 0.25, 0.1), 0.7),
    ];
    for (s, depth) in &cases {
        let p = narrowphase::penetration(s, &xf, s, &xf).unwrap_or_else(|| panic!("{s:?}"));
        assert!((p.depth - depth).abs() < TOL, "{s:?}: {p:?}");
        assert_unit_finite(p.normal);
        let along = overlap_along(&world(s, &xf), &world(s, &xf), d(p.normal));
        assert!((along - *depth as f64).abs() < 2e-5, "{s:?}: {p:?} {along}");
        assert!(narrowphase::intersects(s, &xf, s, &xf));
        assert!(narrowphase::distance(s, &xf, s, &xf).is_none());
    }
}

#[test]
fn nested_shapes() {
    // One shape strictly inside the other, centred and off-centre.
    let big = Shape::rect(2.0, 1.5);
    let inner: Vec<Shape> = vec![
        Shape::rect(0.3, 0.2),
        octagon(0.4),
        Shape::circle(0.3),
        Shape::capsule(0.4, 0.2),
    ];
    for s in &inner {
        for (x, y, t) in [
            (0.0, 0.0, 0.0),
            (1.1, 0.4, 0.3),
            (-0.9, -0.7, 2.0),
            (0.2, 0.9, -1.0),
        ] {
            let xb = at(x, y, t);
            oracle_ok(&big, &Iso::IDENTITY, s, &xb);
            oracle_ok(s, &xb, &big, &Iso::IDENTITY);
            let p = narrowphase::penetration(&big, &Iso::IDENTITY, s, &xb).unwrap();
            assert!(p.depth > 0.3, "{s:?} {p:?}");
        }
    }
    // A capsule inside an ellipse: compare with the exact overlap along the normal
    // and with a sampled minimum over directions.
    let e = Shape::ellipse(2.0, 1.0);
    let c = Shape::capsule(0.5, 0.2);
    let xb = at(0.3, 0.1, 0.4);
    let p = narrowphase::penetration(&e, &Iso::IDENTITY, &c, &xb).unwrap();
    let (we, wc) = (world(&e, &Iso::IDENTITY), world(&c, &xb));
    let sampled = (0..100_000)
        .map(|k| {
            let t = k as f64 / 100_000.0 * std::f64::consts::TAU;
            overlap_along(&we, &wc, glam::DVec2::new(t.cos(), t.sin()))
        })
        .fold(f64::INFINITY, f64::min);
    assert!((p.depth as f64 - sampled).abs() < 1e-4, "{p:?} {sampled}");
    assert!((overlap_along(&we, &wc, d(p.normal)) - p.depth as f64).abs() < 2e-5);
}

#[test]
fn near_touching_pairs() {
    // Gaps from 1e-3 down through zero to small overlaps, in a rotated frame so
    // that nothing is axis-aligned in world coordinates.
    let frame = at(3.0, -2.0, 0.7);
    let pairs: Vec<(Shape, Shape, Vec2, f32)> = vec![
        // (a, b, direction from a to b, contact distance of the centres)
        (
            Shape::rect(1.0, 1.0),
            Shape::rect(0.5, 0.5),
            v(1.0, 0.0),
            1.5,
        ),
        (Shape::circle(0.5), Shape::circle(0.25), v(0.6, 0.8), 0.75),
        (
            Shape::capsule(1.0, 0.25),
            Shape::capsule(0.5, 0.25),
            v(1.0, 0.0),
            0.5,
        ),
        (Shape::rect(1.0, 1.0), Shape::circle(0.5), v(0.0, 1.0), 1.5),
        (octagon(1.0), Shape::capsule(0.5, 0.25), v(1.0, 0.0), 0.0),
    ];
    for (a, b, dir, contact) in &pairs {
        let contact = if *contact == 0.0 {
            // Octagon apothem plus the capsule radius.
            (std::f32::consts::PI / 8.0).cos() + 0.25
        } else {
            *contact
        };
        for gap in [
            1e-3f32, 1e-4, 1e-5, 1e-6, 1e-7, 0.0, -1e-7, -1e-6, -1e-5, -1e-4,
        ] {
            let xa = frame;
            let xb = frame.mul(&Iso::new(*dir * (contact + gap), 0.0));
            oracle_ok(a, &xa, b, &xb);
            if gap > 1e-5 {
                let c = narrowphase::distance(a, &xa, b, &xb).unwrap();
                assert!((c.distance - gap).abs() < TOL, "{a:?} {b:?} {gap}: {c:?}");
            }
            if gap < -1e-5 {
                let p = narrowphase::penetration(a, &xa, b, &xb).unwrap();
                assert!((p.depth + gap).abs() < TOL, "{a:?} {b:?} {gap}: {p:?}");
                let n = frame.rot.apply(*dir);
                assert!((p.normal - n).length() < 1e-3, "{a:?} {b:?} {gap}: {p:?}");
            }
        }
    }
    // Vertex–edge: a diamond's corner just above / just into a box's top face.
    let diamond = Shape::polygon(&[v(0.0, -0.5), v(0.5, 0.0), v(0.0, 0.5), v(-0.5, 0.0)]).unwrap();
    let bx = Shape::rect(1.0, 0.5);
    for gap in [1e-4f32, 1e-6, 0.0, -1e-6, -1e-4] {
        oracle_ok(&bx, &frame, &diamond, &frame.mul(&at(0.3, 1.0 + gap, 0.0)));
    }
}

// ---------------------------------------------------------------------------
// GJK termination and robustness.

#[test]
fn gjk_terminates_on_repeated_support() {
    // Parallel faces: every support along ±x ties, so the same points come back.
    let a = Shape::rect(1.0, 1.0);
    for dy in [0.0f32, 0.25, 0.5, 1.0, 1.999] {
        let xb = at(3.0, dy, 0.0);
        let core = gjk::query(&a, &Iso::IDENTITY, &a, &xb, None);
        assert!(core.iterations < 8, "{dy}: {} iterations", core.iterations);
        assert!((core.distance - 1.0).abs() < 1e-6);
        oracle_ok(&a, &Iso::IDENTITY, &a, &xb);
    }
}

#[test]
fn gjk_iteration_cap_bounds_curved_pairs() {
    // Ellipses against each other never produce a repeated support point (the
    // support is a smooth function of the direction), so termination relies on
    // the progress test or the cap. Either way: bounded, finite, and accurate.
    let e1 = Shape::ellipse(3.0, 0.05);
    let e2 = Shape::ellipse(0.05, 2.0);
    let mut worst = 0;
    for k in 0..200 {
        let t = k as f32 * 0.031;
        let xb = at(3.5 * t.cos(), 2.5 * t.sin(), t * 0.3);
        let core = gjk::query(&e1, &Iso::IDENTITY, &e2, &xb, None);
        worst = worst.max(core.iterations);
        assert!(core.iterations <= gjk::MAX_ITERATIONS);
        assert!(core.distance.is_finite() && core.point_a.is_finite());
        // The brute-force oracle is quadratic in the approximation's vertices:
        // check every fifth pose.
        if k % 5 == 0 {
            if let Err(e) = check_pair_ellipse(&e1, &Iso::IDENTITY, &e2, &xb, 256) {
                panic!("{e}");
            }
        }
    }
    println!("worst GJK iteration count: {worst}");
    assert!(worst <= gjk::MAX_ITERATIONS, "{worst}");
}

#[test]
fn never_nan_at_huge_and_tiny_scales() {
    // Same configuration scaled from 1e-4 to 1e4 (and placed far from the origin):
    // answers are finite, and exact up to f32 resolution of the coordinates.
    for exp in -4..=4 {
        let s = 10f32.powi(exp);
        let far = v(3.0, -7.0) * s * 10.0;
        let shapes = [
            Shape::rect(s, 0.5 * s),
            Shape::circle(0.5 * s),
            Shape::capsule(s, 0.25 * s),
            octagon(s),
            Shape::ellipse(s, 0.3 * s),
        ];
        for a in &shapes {
            for b in &shapes {
                for (k, off) in [v(0.3, 0.2), v(3.0, 0.5), v(0.0, 0.0), v(1.7, -1.1)]
                    .iter()
                    .enumerate()
                {
                    let xa = Iso::new(far, 0.1 * k as f32);
                    let xb = Iso::new(far + *off * s, -0.4 * k as f32);
                    let _ = narrowphase::intersects(a, &xa, b, &xb);
                    if let Some(c) = narrowphase::distance(a, &xa, b, &xb) {
                        assert!(c.distance.is_finite() && c.normal.is_finite(), "{c:?}");
                        assert!(c.point_a.is_finite() && c.point_b.is_finite());
                    }
                    if let Some(p) = narrowphase::penetration(a, &xa, b, &xb) {
                        assert!(p.depth.is_finite() && p.normal.is_finite(), "{p:?}");
                        assert_unit_finite(p.normal);
                    }
                    // Relative accuracy: distances scale with s, f32 coordinates
                    // of size 100·s resolve about 1e-5·s.
                    let (wa, wb) = (world(a, &xa), world(b, &xb));
                    let is_ellipse = |x: &Shape| matches!(x, Shape::Ellipse { .. });
                    if !is_ellipse(a) && !is_ellipse(b) {
                        let exp = expected(&wa, &wb);
                        let got = match narrowphase::distance(a, &xa, b, &xb) {
                            Some(c) => c.distance as f64,
                            None => {
                                -(narrowphase::penetration(a, &xa, b, &xb).map_or(0.0, |p| p.depth)
                                    as f64)
                            }
                        };
                        assert!(
                            (got - exp.sep).abs() <= 1e-5 * s as f64,
                            "scale {s}: {a:?} {b:?} {off}: {got} vs {}",
                            exp.sep
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn never_nan_for_tiny_shapes_and_nearly_parallel_edges() {
    // Nearly parallel edges: B rotated by tiny angles next to A.
    let a = Shape::rect(1.0, 1.0);
    let b = Shape::rect(2.0, 0.1);
    for angle in [0.0f32, 1e-7, 1e-6, 1e-5, 1e-4, -1e-6] {
        for gap in [0.1f32, 1e-4, -1e-4, -0.05] {
            let xb = at(0.0, 1.1 + gap, angle);
            oracle_ok(&a, &Iso::IDENTITY, &b, &xb);
        }
    }
    // Tiny shapes (1e-6 m) near each other and near big ones.
    let tiny = Shape::circle(1e-6);
    let speck = Shape::rect(1e-6, 1e-6);
    for (x, y) in [(0.0, 0.0), (1e-6, 0.0), (5e-6, 3e-6), (1.0, 0.0)] {
        for (p, q) in [
            (&tiny, &speck),
            (&speck, &speck),
            (&a, &speck),
            (&tiny, &tiny),
        ] {
            let xb = at(x, y, 0.3);
            let _ = narrowphase::intersects(p, &Iso::IDENTITY, q, &xb);
            if let Some(c) = narrowphase::distance(p, &Iso::IDENTITY, q, &xb) {
                assert!(c.distance.is_finite() && c.normal.is_finite());
            }
            if let Some(r) = narrowphase::penetration(p, &Iso::IDENTITY, q, &xb) {
                assert!(r.depth.is_finite());
                assert_unit_finite(r.normal);
            }
        }
    }
}

#[test]
fn vertical_edges() {
    // Vertical edges break slope-based point–line distances; here they are exact.
    let a = Shape::rect(1.0, 2.0);
    let tri = Shape::polygon(&[v(0.0, -1.0), v(1.0, 0.0), v(0.0, 1.0)]).unwrap();
    for (b, xb, dist) in [
        (&a, at(2.5, 0.7, 0.0), 0.5f32),
        (&tri, at(1.25, 3.0, 0.0), 0.25),
        (&tri, at(1.25, -0.3, 0.0), 0.25),
    ] {
        let c = narrowphase::distance(&a, &Iso::IDENTITY, b, &xb).unwrap();
        assert!((c.distance - dist).abs() < 1e-6, "{c:?}");
        assert!((c.normal - Vec2::X).length() < 1e-6, "{c:?}");
        oracle_ok(&a, &Iso::IDENTITY, b, &xb);
    }
    // Overlapping through a vertical face.
    let p = narrowphase::penetration(&a, &Iso::IDENTITY, &tri, &at(0.75, 0.2, 0.0)).unwrap();
    assert!((p.depth - 0.25).abs() < TOL && (p.normal - Vec2::X).length() < 1e-3);
}
