//! Rounded polygons (a convex core grown by a radius) against oracles that
//! share no code with the library: mass properties by row-by-row integration,
//! ray casts, containment and bounds from the f64 distance to the core
//! (`common`), on seeded random shapes.

mod common;

use common::{log_uniform, point_in_polygon, point_segment_distance, random_polygon};
use glam::DVec2;
use minkowski::{Iso, Shape, Vec2};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A random rounded polygon: a random core (0.1–3 m, aspect up to 8) and a
/// radius from 1% of the core's size to twice its size.
fn random_rounded(rng: &mut ChaCha8Rng) -> (Vec<DVec2>, f64, Shape) {
    let Shape::Polygon(core) = random_polygon(rng) else {
        unreachable!("random_polygon gives polygons")
    };
    let size = core.bounding_radius();
    let radius = log_uniform(rng, 0.01 * size, 2.0 * size);
    let verts = core.vertices().iter().map(|v| common::d(*v)).collect();
    (verts, radius as f64, Shape::RoundedPolygon { core, radius })
}

/// f64 distance from `p` to the convex counter-clockwise polygon (0 inside).
fn distance_to_core(p: DVec2, core: &[DVec2]) -> f64 {
    if point_in_polygon(p, core) {
        return 0.0;
    }
    (0..core.len())
        .map(|i| point_segment_distance(p, core[i], core[(i + 1) % core.len()]))
        .fold(f64::INFINITY, f64::min)
}

/// The minimiser of a convex function on `[lo, hi]` (ternary search).
fn convex_min(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    for _ in 0..200 {
        let (m1, m2) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
        if f(m1) <= f(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    0.5 * (lo + hi)
}

/// The root of `f` in `[lo, hi]` where `f(lo)` and `f(hi)` differ in sign.
fn root(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    let neg_lo = f(lo) <= 0.0;
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if (f(mid) <= 0.0) == neg_lo {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// Area, centroid and polar moment about the centroid of the points within
/// `r` of `core`, integrated row by row: each row's chord is found by
/// bisection on the convex `x ↦ dist((x, y), core) − r`, then integrated
/// exactly in x; the rows are summed by the midpoint rule in y.
fn integrate(core: &[DVec2], r: f64, rows: usize) -> (f64, DVec2, f64) {
    let (mut lo, mut hi) = (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY));
    for v in core {
        lo = lo.min(*v);
        hi = hi.max(*v);
    }
    // A margin beyond the shape in x, so that the ends of every chord are
    // roots strictly inside the bracket. Not in y: the rows must span exactly
    // the shape's height, where a flat top or bottom makes the chord jump.
    let pad = DVec2::new(r + 0.01 * (hi - lo).length(), r);
    let (lo, hi) = (lo - pad, hi + pad);
    let h = (hi.y - lo.y) / rows as f64;
    let (mut area, mut mx, mut my, mut j) = (0.0, 0.0, 0.0, 0.0);
    for k in 0..rows {
        let y = lo.y + (k as f64 + 0.5) * h;
        let g = |x: f64| distance_to_core(DVec2::new(x, y), core) - r;
        let xm = convex_min(g, lo.x, hi.x);
        if g(xm) > 0.0 {
            continue;
        }
        let (x0, x1) = (root(g, lo.x, xm), root(g, xm, hi.x));
        let w = x1 - x0;
        area += w * h;
        mx += 0.5 * (x1 * x1 - x0 * x0) * h;
        my += w * y * h;
        j += ((x1.powi(3) - x0.powi(3)) / 3.0 + w * y * y) * h;
    }
    let c = DVec2::new(mx, my) / area;
    (area, c, j - area * c.length_squared())
}

#[test]
fn mass_properties_match_numerical_integration() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x0b0d);
    let cases = if cfg!(debug_assertions) { 3 } else { 24 };
    let mut worst = 0.0f64;
    for _ in 0..cases {
        let (core, r, shape) = random_rounded(&mut rng);
        let mp = shape.mass_properties(2.0);
        let (area, c, i) = integrate(&core, r, 6000);
        let size = core.iter().map(|v| v.length()).fold(0.0, f64::max) + r;
        let rel = |a: f64, b: f64| (a - b).abs() / b.abs();
        worst = worst
            .max(rel(mp.mass as f64, 2.0 * area))
            .max((common::d(mp.centroid) - c).length() / size)
            .max(rel(mp.inertia as f64, 2.0 * i));
        assert!(
            rel(mp.mass as f64, 2.0 * area) < 1e-5,
            "mass {} vs {} for {shape:?}",
            mp.mass,
            2.0 * area
        );
        assert!(
            (common::d(mp.centroid) - c).length() < 1e-5 * size,
            "centroid {} vs {c} for {shape:?}",
            mp.centroid
        );
        assert!(
            rel(mp.inertia as f64, 2.0 * i) < 1e-5,
            "inertia {} vs {} for {shape:?}",
            mp.inertia,
            2.0 * i
        );
    }
    println!("mass properties: worst relative error {worst:.2e} over {cases} shapes");
}

#[test]
fn mass_of_a_rounded_box_in_closed_form() {
    // A 2a × 2b box grown by r: area 4ab + 4(a + b)r + πr² (core, four
    // rectangles, four quarter discs making one disc).
    let (a, b, r) = (0.4f32, 20.0f32, 0.2f32);
    let mp = Shape::rounded_rect(a, b, r).mass_properties(1.0);
    let area = 4.0 * a * b + 4.0 * (a + b) * r + std::f32::consts::PI * r * r;
    assert!((mp.mass - area).abs() < 1e-5 * area);
    assert!(mp.centroid.length() < 1e-5);
    // A radius of 0 is the plain box, bit for bit.
    assert_eq!(Shape::rounded_rect(a, b, 0.0), Shape::rect(a, b));
}

/// The first `t ≥ 0` where `o + t·d` is within `r` of `core`, and the outward
/// normal there (from the nearest core point), or `None` on a miss.
fn ray_oracle(core: &[DVec2], r: f64, o: DVec2, d: DVec2, max: f64) -> Option<(f64, DVec2)> {
    let g = |t: f64| distance_to_core(o + d * t, core) - r;
    if g(0.0) <= 0.0 {
        return Some((0.0, -d));
    }
    let tm = convex_min(g, 0.0, max);
    if g(tm) > 0.0 {
        return None;
    }
    let t = root(g, 0.0, tm);
    let p = o + d * t;
    // The nearest core point: the closest over the edges.
    let q = (0..core.len())
        .map(|i| common::closest_on_segment(p, core[i], core[(i + 1) % core.len()]))
        .min_by(|a, b| (p - *a).length().total_cmp(&(p - *b).length()))
        .unwrap();
    Some((t, (p - q).normalize()))
}

#[test]
fn ray_casts_match_the_oracle() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5a7);
    let cases = if cfg!(debug_assertions) {
        2_000
    } else {
        40_000
    };
    let (mut hits, mut checked) = (0, 0);
    for _ in 0..cases {
        let (core, r, shape) = random_rounded(&mut rng);
        let xf = Iso::new(
            Vec2::new(rng.random_range(-3.0..3.0), rng.random_range(-3.0..3.0)),
            rng.random_range(-3.2..3.2),
        );
        let world_core: Vec<DVec2> = core
            .iter()
            .map(|v| common::apply(&xf, Vec2::new(v.x as f32, v.y as f32)))
            .collect();
        let reach = shape.bounding_radius();
        let a = rng.random_range(0.0..std::f32::consts::TAU);
        let o = xf.translation + Vec2::new(libm::cosf(a), libm::sinf(a)) * reach * 1.5;
        // Aim at a random point near the shape: about half the rays hit.
        let aim = xf.translation
            + Vec2::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0)) * reach * 1.2;
        let dir = (aim - o).normalize();
        let max = 4.0 * reach;
        let got = shape.ray_cast(&xf, o, dir, max);
        let want = ray_oracle(&world_core, r, common::d(o), common::d(dir), max as f64);
        // Grazing rays (the closest approach within rounding of the surface)
        // may go either way.
        let g = |t: f64| distance_to_core(common::d(o) + common::d(dir) * t, &world_core) - r;
        let closest = g(convex_min(g, 0.0, max as f64));
        if closest.abs() < 1e-4 * reach as f64 {
            continue;
        }
        checked += 1;
        match (got, want) {
            (None, None) => {}
            (Some(h), Some((t, n))) => {
                hits += 1;
                assert!(
                    (h.t as f64 - t).abs() < 1e-5 * reach as f64,
                    "t {} vs {t}: {shape:?} at {xf:?}, ray {o} {dir}",
                    h.t
                );
                assert!(
                    common::angle_between(common::d(h.normal), n) < 1e-3,
                    "normal {} vs {n}: {shape:?} at {xf:?}, ray {o} {dir}",
                    h.normal
                );
                assert!((h.point - (o + h.t * dir)).length() < 1e-5 * reach);
            }
            (g, w) => panic!("ray {g:?} vs oracle {w:?}: {shape:?} at {xf:?}, ray {o} {dir}"),
        }
    }
    assert!(
        hits > checked / 4 && hits < checked * 3 / 4,
        "{hits} of {checked}"
    );
}

#[test]
fn containment_and_bounds_match_the_distance_to_the_core() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xc0e);
    let (mut inside, mut outside) = (0, 0);
    for _ in 0..if cfg!(debug_assertions) { 300 } else { 3_000 } {
        let (core, r, shape) = random_rounded(&mut rng);
        let xf = Iso::new(
            Vec2::new(rng.random_range(-3.0..3.0), rng.random_range(-3.0..3.0)),
            rng.random_range(-3.2..3.2),
        );
        let world_core: Vec<DVec2> = core
            .iter()
            .map(|v| common::apply(&xf, Vec2::new(v.x as f32, v.y as f32)))
            .collect();
        let reach = shape.bounding_radius();
        for _ in 0..50 {
            let p = xf.translation
                + Vec2::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0)) * reach;
            let dist = distance_to_core(common::d(p), &world_core) - r;
            if dist.abs() < 1e-5 * reach as f64 {
                continue;
            }
            assert_eq!(
                shape.contains_point(&xf, p),
                dist < 0.0,
                "{p} {shape:?} {xf:?}"
            );
            if dist < 0.0 {
                inside += 1;
            } else {
                outside += 1;
            }
        }
        // The bounds are tight: each side is the support along that axis.
        let bb = shape.aabb(&xf);
        let support = |n: DVec2| {
            world_core
                .iter()
                .map(|v| n.dot(*v))
                .fold(f64::MIN, f64::max)
                + r
        };
        let tol = 1e-5 * (reach as f64 + xf.translation.length() as f64);
        for (got, want) in [
            (bb.max.x, support(DVec2::X)),
            (bb.max.y, support(DVec2::Y)),
            (-bb.min.x, support(-DVec2::X)),
            (-bb.min.y, support(-DVec2::Y)),
        ] {
            assert!((got as f64 - want).abs() < tol, "{got} vs {want}");
        }
        // The bounding radius covers every point of the shape.
        let origin_far = world_core
            .iter()
            .map(|v| (*v - common::d(xf.translation)).length())
            .fold(0.0, f64::max)
            + r;
        assert!((shape.bounding_radius() as f64 - origin_far).abs() < tol);
    }
    assert!(
        inside > 10 * outside / 100 && outside > 10 * inside / 100,
        "{inside} {outside}"
    );
}

#[test]
fn construction_and_validation() {
    let pts = [
        Vec2::new(-0.1, -0.05),
        Vec2::new(0.1, -0.05),
        Vec2::new(0.1, 0.05),
        Vec2::new(-0.1, 0.05),
    ];
    let s = Shape::rounded_polygon(&pts, 0.015).unwrap();
    assert_eq!(s.kind_name(), "rounded polygon");
    assert!(s.validate().is_ok());
    // Radius 0 gives the plain polygon.
    assert_eq!(
        Shape::rounded_polygon(&pts, 0.0).unwrap(),
        Shape::polygon(&pts).unwrap()
    );
    for bad in [-0.01, f32::NAN, f32::INFINITY, 2.0e4] {
        let e = Shape::rounded_polygon(&pts, bad).unwrap_err();
        assert!(
            matches!(
                e,
                minkowski::ShapeError::BadDimension { what: "radius", .. }
            ),
            "{e:?}"
        );
        assert!(Shape::rounded_rect(1.0, 1.0, bad).validate().is_err());
    }
    // A bad core is reported as for a polygon.
    assert_eq!(
        Shape::rounded_polygon(&pts[..2], 0.1),
        Err(minkowski::ShapeError::TooFewVertices { count: 2 })
    );
    assert_eq!(
        Shape::rounded_polygon(&pts, -1.0).unwrap_err().to_string(),
        "radius must be finite, > 0 and at most 10000 m, got -1"
    );
}
