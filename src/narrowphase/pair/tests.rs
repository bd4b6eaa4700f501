//! Each pair kernel against the generic GJK/EPA path, and the polygon
//! distance walk against brute force.

use super::polygon::{brute_distance, parallelogram, placed, polygons_distance_walk, WALK_MAX};
use crate::geometry::{epa, gjk};
use crate::math::{Iso, Vec2};
use crate::narrowphase::dispatch;
use crate::narrowphase::dispatch::{
    pair_distance as distance, pair_intersects as intersects, pair_penetration as penetration,
};
use crate::shape::{Polygon, Shape, SupportMap};

/// Hides the shape so that the queries take the generic GJK/EPA path.
struct Generic<'s>(&'s Shape);

impl SupportMap for Generic<'_> {
    fn local_core_support(&self, d: Vec2) -> Vec2 {
        self.0.local_core_support(d)
    }
    fn core_radius(&self) -> f32 {
        self.0.core_radius()
    }
}

/// Overlap of the two shapes along the unit `n` (world frame): the
/// translation of B along `n` that separates them.
fn overlap_along(a: &Shape, xa: &Iso, b: &Shape, xb: &Iso, n: Vec2) -> f32 {
    let h = |s: &Shape, x: &Iso, d: Vec2| {
        d.dot(x.apply(s.local_core_support(x.rot.apply_inv(d)))) + s.core_radius()
    };
    h(a, xa, n) + h(b, xb, -n)
}

/// Deterministic pseudo-random numbers in [0, 1) (a 64-bit LCG).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.next()
    }
}

/// A regular octagon of circumradius 1, vertices at odd multiples of π/8.
fn octagon() -> Shape {
    let pts: Vec<Vec2> = (0..8)
        .map(|k| {
            let t = (k as f32 + 0.5) / 8.0 * std::f32::consts::TAU;
            Vec2::new(t.cos(), t.sin())
        })
        .collect();
    Shape::polygon(&pts).unwrap()
}

fn triangle() -> Shape {
    Shape::polygon(&[
        Vec2::new(-0.5, -0.4),
        Vec2::new(0.7, -0.3),
        Vec2::new(0.1, 0.6),
    ])
    .unwrap()
}

/// Runs every query on `n` random poses both ways and compares.
fn compare(a: &Shape, b: &Shape, reach: f32, seed: u64, fast_hit: &dyn Fn(&Shape, &Shape) -> bool) {
    compare_points(a, b, reach, seed, fast_hit, 1e-4);
}

/// [`compare`] with the tolerance on the closest points.
fn compare_points(
    a: &Shape,
    b: &Shape,
    reach: f32,
    seed: u64,
    fast_hit: &dyn Fn(&Shape, &Shape) -> bool,
    point_tol: f32,
) {
    assert!(fast_hit(a, b), "no fast path for {a:?} / {b:?}");
    let mut rng = Lcg(seed);
    let (mut separated, mut overlapping) = (0, 0);
    for _ in 0..2000 {
        let xa = Iso::new(
            Vec2::new(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0)),
            rng.range(-3.2, 3.2),
        );
        let t = rng.range(0.0, std::f32::consts::TAU);
        let r = rng.range(0.0, 1.3) * reach;
        let xb = Iso::new(
            xa.translation + r * Vec2::new(t.cos(), t.sin()),
            rng.range(-3.2, 3.2),
        );
        let (ga, gb) = (Generic(a), Generic(b));
        let fast_d = dispatch::distance(a, &xa, b, &xb);
        let gen_d = gjk::distance(&ga, &xa, &gb, &xb);
        match (fast_d, gen_d) {
            (Some(f), Some(g)) => {
                separated += 1;
                assert!((f.distance - g.distance).abs() < 1e-5, "{f:?} {g:?}");
                assert!((f.point_a - g.point_a).length() < point_tol, "{f:?} {g:?}");
                assert!((f.point_b - g.point_b).length() < point_tol, "{f:?} {g:?}");
                assert!((f.normal.length() - 1.0).abs() < 1e-5);
                if g.distance > 1e-3 {
                    assert!(f.normal.angle_between(g.normal).abs() < 1e-3, "{f:?} {g:?}");
                }
            }
            (None, None) => overlapping += 1,
            (f, g) => {
                // Only within rounding of touching.
                let d = f.or(g).map_or(0.0, |c| c.distance);
                assert!(d < 1e-5, "fast {f:?} generic {g:?}");
            }
        }
        let hit = dispatch::intersects(a, &xa, b, &xb);
        let gen_hit = gjk::intersects(&ga, &xa, &gb, &xb);
        if hit != gen_hit {
            let d = fast_d.or(gen_d).map_or(0.0, |c| c.distance);
            assert!(d < 1e-5, "intersects {hit} vs {gen_hit}");
        }
        match (
            dispatch::penetration(a, &xa, b, &xb),
            epa::penetration(&ga, &xa, &gb, &xb),
        ) {
            (Some(f), Some(g)) => {
                // The fast answer's overlap along its own normal is its
                // depth, and no other direction (EPA's) overlaps less.
                let (of, og) = (
                    overlap_along(a, &xa, b, &xb, f.normal),
                    overlap_along(a, &xa, b, &xb, g.normal),
                );
                let ctx = || format!("{f:?} {g:?} {a:?} {xa:?} {b:?} {xb:?}: {of} vs {og}");
                // (Identical answers: both took the generic path.)
                assert!(f == g || (of - f.depth).abs() < 2e-6, "{}", ctx());
                assert!(of <= og + 2e-6, "{}", ctx());
                // EPA reports its polytope's nearest edge, a lower bound; on
                // a curved side it can stop (a repeated support point) with
                // that bound more than 1e-5 low, and is then inconsistent:
                // the overlap along its own normal is not its depth.
                if (f.depth - g.depth).abs() >= 1e-5 {
                    assert!((og - g.depth).abs() >= 5e-6, "{}", ctx());
                }
                // EPA stops at a 1e-6 relative gap, where its normal on a
                // curved surface can be ~sqrt(2·gap·depth / f'') off (f''
                // the curvature of the overlap in the direction's angle);
                // the check above covers those.
                if g.depth > 1e-3
                    && !matches!(
                        (a, b),
                        (Shape::Ellipse { .. }, _) | (_, Shape::Ellipse { .. })
                    )
                {
                    assert!(f.normal.angle_between(g.normal).abs() < 1e-3, "{}", ctx());
                }
            }
            (None, None) => {}
            (f, g) => {
                let d = f.or(g).map_or(0.0, |p| p.depth);
                assert!(d < 1e-5, "fast {f:?} generic {g:?}");
            }
        }
    }
    assert!(
        separated > 200 && overlapping > 200,
        "{separated} {overlapping}"
    );
}

fn has_distance(a: &Shape, b: &Shape) -> bool {
    distance(a, &Iso::IDENTITY, b, &Iso::IDENTITY).is_some()
}

fn has_intersects(a: &Shape, b: &Shape) -> bool {
    intersects(a, &Iso::IDENTITY, b, &Iso::IDENTITY).is_some()
}

#[test]
fn small_polygons_match_generic() {
    let bx = Shape::rect(1.0, 0.5);
    compare(&bx, &bx, 2.3, 1, &|a, b| {
        has_distance(a, b) && has_intersects(a, b)
    });
    let sq = Shape::rect(0.3, 0.3);
    compare(&bx, &sq, 1.6, 2, &has_distance);
    compare(&triangle(), &bx, 1.8, 3, &has_distance);
    compare(&triangle(), &triangle(), 1.4, 4, &has_distance);
    // A skewed parallelogram (its own centred-quad path) against a box and a triangle.
    let skew = Shape::polygon(&[
        Vec2::new(-1.0, -0.3),
        Vec2::new(0.6, -0.5),
        Vec2::new(1.0, 0.3),
        Vec2::new(-0.6, 0.5),
    ])
    .unwrap();
    let Shape::Polygon(p) = &skew else {
        unreachable!()
    };
    assert!(parallelogram(p).is_some());
    compare(&skew, &bx, 2.3, 12, &has_intersects);
    compare(&sq, &skew, 1.6, 13, &has_distance);
    compare(&skew, &triangle(), 1.8, 14, &has_distance);
}

#[test]
fn circle_polygon_matches_generic() {
    let c = Shape::circle(0.4);
    let oct = octagon();
    compare(&c, &oct, 1.4, 5, &|a, b| {
        has_distance(a, b) && has_intersects(a, b)
    });
    compare(&oct, &c, 1.4, 6, &has_distance);
    compare(&c, &triangle(), 1.1, 7, &has_distance);
    compare(&Shape::rect(1.0, 0.2), &c, 1.5, 8, &has_distance);
}

#[test]
fn round_pairs_match_generic() {
    let c = Shape::circle(0.4);
    let c2 = Shape::circle(0.25);
    let cap = Shape::capsule(0.8, 0.2);
    compare(&c, &c2, 0.65, 9, &|a, b| {
        has_distance(a, b)
            && has_intersects(a, b)
            && penetration(a, &Iso::IDENTITY, b, &Iso::new(Vec2::X * 0.1, 0.0)).is_some()
    });
    compare(&c, &cap, 1.4, 10, &has_distance);
    compare(&cap, &c, 1.4, 11, &has_distance);
}

#[test]
fn rounded_polygon_pairs_match_generic() {
    let both = |a: &Shape, b: &Shape| {
        has_distance(a, b)
            && has_intersects(a, b)
            && penetration(a, &Iso::IDENTITY, b, &Iso::new(Vec2::X * 0.1, 0.0)).is_some()
    };
    let rbox = Shape::rounded_rect(0.8, 0.3, 0.2);
    let rtri = Shape::rounded_polygon(
        &[
            Vec2::new(-0.5, -0.4),
            Vec2::new(0.7, -0.3),
            Vec2::new(0.1, 0.6),
        ],
        0.05,
    )
    .unwrap();
    // Twelve vertices: the walking distance rather than the small-pair SAT.
    let r12: Vec<Vec2> = (0..12)
        .map(|k| {
            let t = k as f32 / 12.0 * std::f32::consts::TAU;
            Vec2::new(t.cos(), 0.6 * t.sin())
        })
        .collect();
    let r12 = Shape::rounded_polygon(&r12, 0.1).unwrap();
    compare(&rbox, &rbox, 2.4, 21, &both);
    compare(&Shape::rect(1.0, 0.5), &rbox, 2.3, 22, &both);
    compare(&rtri, &triangle(), 1.7, 23, &both);
    compare(&rtri, &rbox, 2.0, 24, &both);
    compare(&r12, &rbox, 2.3, 25, &both);
    compare(&octagon(), &r12, 2.2, 26, &both);
    let c = Shape::circle(0.4);
    compare(&c, &rbox, 1.6, 27, &|a, b| {
        has_distance(a, b) && has_intersects(a, b)
    });
    compare(&r12, &c, 1.6, 28, &has_distance);
}

#[test]
fn ellipse_pairs_match_generic() {
    // The ellipse paths answer separated pairs (overlapping ones may go to
    // GJK): ask at a separated pose.
    let apart = |a: &Shape, b: &Shape| {
        let xb = Iso::new(Vec2::new(5.0, 0.3), 0.2);
        distance(a, &Iso::IDENTITY, b, &xb).is_some()
            && intersects(a, &Iso::IDENTITY, b, &xb).is_some()
    };
    // GJK stops at a 1e-6 relative gap, where its point on a curved surface
    // can still be ~sqrt(2·gap·curvature radius) off: up to ~5e-3 here (gap
    // 2e-6, radius 1.2²/0.3 = 4.8). The exact answers themselves are checked
    // in `ellipse.rs`.
    let cmp = |a: &Shape, b: &Shape, reach: f32, seed: u64| {
        compare_points(a, b, reach, seed, &apart, 1e-2)
    };
    let e = Shape::ellipse(1.0, 0.5);
    let oct = octagon();
    cmp(&e, &oct, 2.0, 15);
    cmp(&oct, &e, 2.0, 16);
    cmp(&Shape::ellipse(0.3, 1.2), &Shape::rect(1.0, 0.2), 2.2, 17);
    cmp(&triangle(), &Shape::ellipse(0.8, 0.2), 1.6, 18);
    cmp(&Shape::ellipse(0.6, 0.9), &Shape::circle(0.4), 1.3, 19);
    cmp(
        &Shape::capsule(0.8, 0.2),
        &Shape::ellipse(1.5, 0.4),
        2.5,
        20,
    );
}

#[test]
fn generic_paths_stay_generic() {
    let oct: Vec<Vec2> = (0..8)
        .map(|k| {
            let t = k as f32 / 8.0 * std::f32::consts::TAU;
            Vec2::new(t.cos(), t.sin())
        })
        .collect();
    let oct = Shape::polygon(&oct).unwrap();
    assert!(has_distance(&oct, &oct) && !has_intersects(&oct, &oct));
    let big: Vec<Vec2> = (0..WALK_MAX + 1)
        .map(|k| {
            let t = k as f32 / (WALK_MAX + 1) as f32 * std::f32::consts::TAU;
            Vec2::new(t.cos(), t.sin())
        })
        .collect();
    let big = Shape::polygon(&big).unwrap();
    assert!(!has_distance(&big, &oct) && !has_distance(&oct, &big));
    let e = Shape::ellipse(1.0, 0.5);
    assert!(!has_distance(&e, &e) && !has_intersects(&e, &e));
    // Rounded polygons too large for the walk, and capsules against them.
    let Shape::Polygon(core) = big else {
        unreachable!()
    };
    let rbig = Shape::RoundedPolygon { core, radius: 0.1 };
    assert!(!has_distance(&rbig, &oct) && !has_intersects(&oct, &rbig));
    let cap = Shape::capsule(0.5, 0.2);
    let rbox = Shape::rounded_rect(0.5, 0.5, 0.1);
    assert!(!has_distance(&cap, &rbox) && !has_intersects(&rbox, &cap));
}

/// f64 point–segment distance.
fn point_segment_f64(p: [f64; 2], a: [f64; 2], b: [f64; 2]) -> f64 {
    let (ex, ey) = (b[0] - a[0], b[1] - a[1]);
    let (px, py) = (p[0] - a[0], p[1] - a[1]);
    let t = ((px * ex + py * ey) / (ex * ex + ey * ey)).clamp(0.0, 1.0);
    (px - t * ex).hypot(py - t * ey)
}

/// The polygon's vertices in the world, in f64.
fn world_f64(p: &Polygon, x: &Iso) -> Vec<[f64; 2]> {
    p.vertices()
        .iter()
        .map(|v| {
            let w = x.apply(*v);
            [w.x as f64, w.y as f64]
        })
        .collect()
}

/// Distance from `q` to the boundary of the polygon `w`.
fn boundary_f64(w: &[[f64; 2]], q: [f64; 2]) -> f64 {
    (0..w.len())
        .map(|i| point_segment_f64(q, w[i], w[(i + 1) % w.len()]))
        .fold(f64::INFINITY, f64::min)
}

/// The oracle in f64: (largest SAT separation, the vertex–edge brute-force
/// distance, whether the closest pair is vertex–vertex).
fn oracle_f64(wa: &[[f64; 2]], wb: &[[f64; 2]]) -> (f64, f64, bool) {
    let sep = |x: &[[f64; 2]], y: &[[f64; 2]]| {
        (0..x.len())
            .map(|i| {
                let (p, q) = (x[i], x[(i + 1) % x.len()]);
                let n = [q[1] - p[1], p[0] - q[0]];
                let l = n[0].hypot(n[1]);
                y.iter()
                    .map(|v| (n[0] * (v[0] - p[0]) + n[1] * (v[1] - p[1])) / l)
                    .fold(f64::INFINITY, f64::min)
            })
            .fold(f64::NEG_INFINITY, f64::max)
    };
    let mut best = f64::INFINITY;
    for (x, y) in [(wa, wb), (wb, wa)] {
        for v in y {
            best = best.min(boundary_f64(x, *v));
        }
    }
    let mut vv = f64::INFINITY;
    for p in wa {
        for q in wb {
            vv = vv.min((p[0] - q[0]).hypot(p[1] - q[1]));
        }
    }
    (sep(wa, wb).max(sep(wb, wa)), best, vv <= best + 1e-9)
}

/// A random convex polygon of 3–16 vertices: regular (stretched, so with
/// parallel edges when even), on a circle at random angles, or the hull of
/// random points.
fn random_convex(rng: &mut Lcg) -> Polygon {
    loop {
        let n = 3 + (rng.next() * 14.0) as usize;
        let size = rng.range(0.1, 2.0);
        let aspect = rng.range(1.0, 4.0);
        let kind = rng.next();
        let pts: Vec<Vec2> = if kind < 0.3 {
            let phase = rng.next();
            (0..n)
                .map(|k| {
                    let t = (k as f32 + phase) / n as f32 * std::f32::consts::TAU;
                    Vec2::new(t.cos(), t.sin() / aspect) * size
                })
                .collect()
        } else if kind < 0.6 {
            let mut t: Vec<f32> = (0..n)
                .map(|_| rng.range(0.0, std::f32::consts::TAU))
                .collect();
            t.sort_by(f32::total_cmp);
            t.iter()
                .map(|t| Vec2::new(t.cos(), t.sin() / aspect) * size)
                .collect()
        } else {
            (0..n)
                .map(|_| Vec2::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0) / aspect) * size)
                .collect()
        };
        let p = if kind < 0.6 {
            Polygon::new(&pts)
        } else {
            Polygon::convex_hull(&pts)
        };
        if let Ok(p) = p {
            if p.vertices().len() <= WALK_MAX {
                return p;
            }
        }
    }
}

/// The walking-SAT distance against the f64 vertex–edge brute force on
/// 24 000 random pairs of 3–16-gons (random poses, near-touching, parallel
/// edges facing), closest points and normal consistent, and swap symmetry.
#[test]
fn walk_distance_matches_brute_force() {
    let mut rng = Lcg(0x5eed_9090);
    let (mut separated, mut touching, mut near, mut parallel, mut vv) = (0, 0, 0, 0, 0);
    for trial in 0..24_000 {
        let (a, b) = (random_convex(&mut rng), random_convex(&mut rng));
        let xa = Iso::new(
            Vec2::new(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0)),
            rng.range(-3.2, 3.2),
        );
        let dir = rng.range(0.0, std::f32::consts::TAU);
        let u = Vec2::new(dir.cos(), dir.sin());
        let mut xb = Iso::new(
            xa.translation + rng.range(0.0, 4.0) * u,
            rng.range(-3.2, 3.2),
        );
        match trial % 4 {
            // Parallel: one of B's edges faces one of A's, B pushed out along it.
            2 => {
                let (i, j) = (
                    (rng.next() * a.vertices().len() as f32) as usize,
                    (rng.next() * b.vertices().len() as f32) as usize,
                );
                let na = xa.rot.apply(a.normals()[i]);
                let nb = b.normals()[j];
                let rot = (-na).y.atan2((-na).x) - nb.y.atan2(nb.x);
                let shift = rng.range(-0.5, 0.5) * Vec2::new(-na.y, na.x);
                xb = Iso::new(xa.apply(a.vertices()[i]) + shift + 2.5 * na, rot);
                // Then slide B back so that the gap is small.
                let (sep, d, _) = oracle_f64(&world_f64(&a, &xa), &world_f64(&b, &xb));
                if sep > 0.0 {
                    let gap = [1e-3f64, 1e-2, 0.3][trial % 3];
                    xb.translation -= ((d - gap) as f32) * na;
                }
                parallel += 1;
            }
            // Near-touching: slide B toward A along the closest pair's normal.
            3 => {
                let m = b.vertices().len();
                let (bv, bn) = placed::<WALK_MAX>(&b, &xa.inv_mul(&xb));
                let bf = brute_distance(a.vertices(), a.normals(), &bv[..m], &bn[..m], &xa);
                if let Some(c) = bf {
                    let gap = [1e-4, 1e-3, 3e-2][trial % 3];
                    xb.translation -= (c.distance - gap) * c.normal;
                    near += 1;
                }
            }
            _ => {}
        }
        let (wa, wb) = (world_f64(&a, &xa), world_f64(&b, &xb));
        let (sep, exact, is_vv) = oracle_f64(&wa, &wb);
        let got = polygons_distance_walk(&a, &xa, &b, &xb);
        let swapped = polygons_distance_walk(&b, &xb, &a, &xa);
        let ctx = || format!("{a:?} {xa:?} {b:?} {xb:?}: {got:?} {swapped:?} sep {sep} d {exact}");
        if sep <= 1e-6 {
            // Overlapping or within rounding of touching.
            for c in [got, swapped].into_iter().flatten() {
                assert!(c.distance < 1e-5, "{}", ctx());
            }
            touching += 1;
            continue;
        }
        let (Some(c), Some(s)) = (got, swapped) else {
            assert!(exact < 1e-5, "{}", ctx());
            continue;
        };
        separated += 1;
        vv += is_vv as usize;
        assert!((c.distance as f64 - exact).abs() < 1e-5, "{}", ctx());
        assert!((s.distance - c.distance).abs() < 1e-6, "{}", ctx());
        for (p, w) in [
            (c.point_a, &wa),
            (c.point_b, &wb),
            (s.point_a, &wb),
            (s.point_b, &wa),
        ] {
            assert!(
                boundary_f64(w, [p.x as f64, p.y as f64]) < 1e-5,
                "{}",
                ctx()
            );
        }
        for k in [c, s] {
            assert!(
                ((k.point_b - k.point_a).length() - k.distance).abs() < 1e-5,
                "{}",
                ctx()
            );
            assert!((k.normal.length() - 1.0).abs() < 1e-5, "{}", ctx());
            assert!(
                (k.normal.dot(k.point_b - k.point_a) - k.distance).abs() < 1e-5,
                "{}",
                ctx()
            );
        }
        // (Below 1e-3 the normal of a vertex–vertex pair is f32 rounding
        // over the gap.)
        if exact > 1e-3 {
            assert!((c.normal + s.normal).length() < 1e-3, "{}", ctx());
        }
    }
    assert!(
        separated > 12_000 && touching > 1_000 && near > 3_000 && parallel > 3_000 && vv > 1_000,
        "{separated} {touching} {near} {parallel} {vv}"
    );
}
