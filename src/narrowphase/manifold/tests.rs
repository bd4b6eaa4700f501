use super::*;
use crate::geometry::gjk::SimplexCache;
use crate::narrowphase::dispatch::{collide_uncached, pair_distance};
use crate::narrowphase::pair::polygon_manifold::{collide_small_polygons, polygon_overlap};

/// The general manifold path, without the small-polygon fast path.
fn collide_generic(
    a: &Shape,
    xa: &Iso,
    b: &Shape,
    xb: &Iso,
    speculative: f32,
    cache: &mut SimplexCache,
    polygon_sat: bool,
) -> (Manifold, [PointFeature; 2]) {
    let contact = match (a, b) {
        (Shape::Polygon(pa), Shape::Polygon(pb)) if polygon_sat => polygon_overlap(pa, xa, pb, xb)
            .unwrap_or_else(|| epa::contact(a, xa, b, xb, Some(cache), None)),
        _ => epa::contact(a, xa, b, xb, Some(cache), None),
    };
    from_contact(a, xa, b, xb, &contact, speculative)
}
use crate::math::Rot;

#[test]
fn box_resting_on_box_gives_two_points() {
    let ground = Shape::rect(5.0, 0.5);
    let bx = Shape::rect(0.5, 0.5);
    let m = collide_uncached(
        &ground,
        &Iso::IDENTITY,
        &bx,
        &Iso::new(Vec2::new(0.3, 0.99), 0.0),
        0.02,
    );
    assert_eq!(m.count, 2);
    assert!((m.normal - Vec2::Y).length() < 1e-6);
    for p in m.points() {
        assert!((p.separation + 0.01).abs() < 1e-5, "{}", p.separation);
        assert!((p.point.y - 0.495).abs() < 1e-5);
    }
    let xs: Vec<f32> = m.points().iter().map(|p| p.point.x).collect();
    assert!(xs.iter().any(|x| (x + 0.2).abs() < 1e-5) && xs.iter().any(|x| (x - 0.8).abs() < 1e-5));
}

#[test]
fn speculative_points_within_margin_only() {
    let ground = Shape::rect(5.0, 0.5);
    let bx = Shape::rect(0.5, 0.5);
    let m = collide_uncached(
        &ground,
        &Iso::IDENTITY,
        &bx,
        &Iso::new(Vec2::new(0.0, 1.01), 0.0),
        0.02,
    );
    assert_eq!(m.count, 2);
    assert!(m
        .points()
        .iter()
        .all(|p| (p.separation - 0.01).abs() < 1e-5));
    let far = collide_uncached(
        &ground,
        &Iso::IDENTITY,
        &bx,
        &Iso::new(Vec2::new(0.0, 1.05), 0.0),
        0.02,
    );
    assert_eq!(far.count, 0);
    // A tilted box touches with one corner only.
    let tilted = collide_uncached(
        &ground,
        &Iso::IDENTITY,
        &bx,
        &Iso::new(Vec2::new(0.0, 1.16), 0.4),
        0.02,
    );
    assert_eq!(tilted.count, 1);
}

#[test]
fn capsule_on_its_side_gives_two_points() {
    let ground = Shape::rect(5.0, 0.5);
    let cap = Shape::capsule(0.5, 0.25);
    let xb = Iso::new(Vec2::new(0.0, 0.74), std::f32::consts::FRAC_PI_2);
    let m = collide_uncached(&ground, &Iso::IDENTITY, &cap, &xb, 0.02);
    assert_eq!(m.count, 2);
    for p in m.points() {
        assert!((p.separation + 0.01).abs() < 1e-5);
    }
}

#[test]
fn circle_gives_one_point_with_epa_normal() {
    let ground = Shape::rect(5.0, 0.5);
    let ball = Shape::circle(0.5);
    let m = collide_uncached(
        &ground,
        &Iso::IDENTITY,
        &ball,
        &Iso::new(Vec2::new(1.0, 0.95), 0.0),
        0.02,
    );
    assert_eq!(m.count, 1);
    assert!((m.points[0].separation + 0.05).abs() < 1e-5);
    assert!((m.normal - Vec2::Y).length() < 1e-5);
}

#[test]
fn feature_ids_are_stable_under_small_motion() {
    let ground = Shape::rect(5.0, 0.5);
    let bx = Shape::rect(0.5, 0.5);
    let m1 = collide_uncached(
        &ground,
        &Iso::IDENTITY,
        &bx,
        &Iso::new(Vec2::new(0.0, 0.99), 0.001),
        0.02,
    );
    let m2 = collide_uncached(
        &ground,
        &Iso::IDENTITY,
        &bx,
        &Iso::new(Vec2::new(0.01, 0.995), -0.001),
        0.02,
    );
    let ids1: Vec<u32> = m1.points().iter().map(|p| p.id).collect();
    let ids2: Vec<u32> = m2.points().iter().map(|p| p.id).collect();
    assert_eq!(ids1, ids2);
}

/// Every float of a manifold and its features as bits (NaN payloads and
/// signed zeros included), and the ids and counts.
fn manifold_bits(r: &(Manifold, [PointFeature; 2])) -> Vec<u32> {
    let (m, features) = r;
    let mut out = vec![m.normal.x.to_bits(), m.normal.y.to_bits(), m.count as u32];
    for p in &m.points {
        out.extend([p.point.x, p.point.y, p.separation].map(f32::to_bits));
        out.extend([
            p.id,
            p.normal_impulse.to_bits(),
            p.tangent_impulse.to_bits(),
        ]);
    }
    for f in features {
        out.push(f.kind as u32);
        let floats = [f.pa.x, f.pa.y, f.pb.x, f.pb.y, f.normal.x, f.normal.y];
        out.extend(floats.map(f32::to_bits));
        out.extend([f.length, f.radius, f.point_radius].map(f32::to_bits));
    }
    out
}

/// The small-polygon fast path against the generic path (GJK/EPA, then
/// `from_contact`) over 60,000 pairs: bit for bit where the polygons touch
/// or overlap, and within 2e-6 m where they are apart (the fast path measures
/// those with the exact distance kernel instead of GJK).
#[test]
fn small_polygon_fast_path_matches_generic() {
    let mut seed = 987654321u32;
    let mut rnd = move || {
        seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
        (seed >> 8) as f32 / (1u32 << 24) as f32
    };
    let ngon = |k: usize, r: f32, phase: f32| {
        let pts: Vec<Vec2> = (0..k)
            .map(|i| {
                let a = phase + i as f32 * std::f32::consts::TAU / k as f32;
                r * Vec2::new(libm::cosf(a), libm::sinf(a))
            })
            .collect();
        Shape::polygon(&pts).unwrap()
    };
    let shapes = [
        Shape::rect(0.5, 0.5),
        Shape::rect(1.0, 0.2),
        Shape::rect(0.25, 0.5),
        ngon(3, 0.6, 0.1),
        ngon(5, 0.5, 0.0),
        ngon(6, 0.4, 0.0),
        ngon(7, 0.45, 0.3),
        // Vertices with zero and negative-zero coordinates.
        Shape::polygon(&[
            Vec2::new(-0.0, -0.5),
            Vec2::new(0.5, 0.0),
            Vec2::new(0.0, 0.5),
            Vec2::new(-0.5, -0.0),
        ])
        .unwrap(),
    ];
    // Exact rotations (a box grid at rest) as well as generic ones.
    let exact = [
        Rot { cos: 1.0, sin: 0.0 },
        Rot {
            cos: 1.0,
            sin: -0.0,
        },
        Rot { cos: 0.0, sin: 1.0 },
        Rot {
            cos: -1.0,
            sin: 0.0,
        },
        Rot {
            cos: -0.0,
            sin: -1.0,
        },
    ];
    let rot = |r: f32, small: bool| {
        if r < 0.4 {
            exact[(r * 12.5) as usize % exact.len()]
        } else if small {
            Rot::from_angle((r - 0.7) * 1e-3)
        } else {
            Rot::from_angle(20.0 * r)
        }
    };
    let mut compared = [0usize; 3];
    let (mut skipped, mut within, mut borderline) = (0, 0, 0);
    for k in 0..60_000 {
        let a = &shapes[(rnd() * shapes.len() as f32) as usize % shapes.len()];
        let b = &shapes[(rnd() * shapes.len() as f32) as usize % shapes.len()];
        let small = k % 2 == 0;
        // Some pairs far from the origin, where rounding is coarser.
        let far = if k % 5 == 4 { 1000.0 } else { 0.0 };
        let xa = Iso::from_parts(
            Vec2::new(
                far + (rnd() * 4.0).round() * 0.5,
                -far + (rnd() * 4.0).round() * 0.5,
            ),
            rot(rnd(), small),
        );
        // Offsets on a grid (flush faces, zero separations) or anywhere near.
        let offset = if k % 3 == 0 {
            Vec2::new(
                (rnd() * 8.0).round() * 0.25 - 1.0,
                (rnd() * 8.0).round() * 0.25 - 1.0,
            )
        } else {
            Vec2::new(rnd() * 2.4 - 1.2, rnd() * 2.4 - 1.2)
        };
        let xb = Iso::from_parts(xa.translation + offset, rot(rnd(), small));
        let speculative = [0.0, 0.02, 0.5][k % 3];
        let (Shape::Polygon(pa), Shape::Polygon(pb)) = (a, b) else {
            unreachable!()
        };
        let mut cache_fast = SimplexCache::default();
        let mut cache_ref = SimplexCache::default();
        let apart = |xf: &Iso| pair_distance(a, &Iso::IDENTITY, b, xf);
        let fast =
            collide_small_polygons(a, pa, &xa, b, pb, &xb, speculative, &mut cache_fast, apart);
        let reference = collide_generic(a, &xa, b, &xb, speculative, &mut cache_ref, true);
        // Apart, as the distance kernel measures it (B in A's frame, as the
        // fast path asks): the fast path takes that kernel's gap, the
        // generic path GJK's, so the two agree to rounding, not bit for bit
        // (both are checked against f64 oracles in `pair::tests` and
        // `geometry`); and the fast path never runs GJK on them. A gap
        // within rounding of the speculative distance may count as in
        // reach by one and out of it by the other: either is right.
        let tol = 2e-6 + 2e-7 * far;
        let what = format!("{a:?} at {xa:?} against {b:?} at {xb:?}");
        if let Some(Some(c)) = pair_distance(a, &Iso::IDENTITY, b, &xa.inv_mul(&xb)) {
            assert_eq!(cache_fast, SimplexCache::default(), "{what}");
            if (c.distance - speculative).abs() <= tol {
                borderline += 1;
                continue;
            }
            assert_close(&fast, &reference, tol, &what);
            if fast.0.count > 0 {
                within += 1;
            } else {
                skipped += 1;
            }
        } else {
            assert_eq!(
                manifold_bits(&fast),
                manifold_bits(&reference),
                "{what}: {fast:?} vs {reference:?}"
            );
        }
        compared[fast.0.count] += 1;
    }
    assert!(compared.iter().all(|&c| c > 1000), "{compared:?}");
    assert!(
        skipped > 1000 && within > 1000 && borderline < 100,
        "{skipped} pairs apart beyond the speculative distance, {within} within it, \
         {borderline} at it"
    );
}

/// Two manifolds of the same pair that agree to `tol` (m, and for the
/// normal's components): the same points by id and kind, at positions and
/// separations within `tol`.
fn assert_close(
    x: &(Manifold, [PointFeature; 2]),
    y: &(Manifold, [PointFeature; 2]),
    tol: f32,
    what: &str,
) {
    let ((m, fx), (n, fy)) = (x, y);
    assert_eq!(m.count, n.count, "{what}: {x:?} vs {y:?}");
    if m.count == 0 {
        return;
    }
    assert!(
        (m.normal - n.normal).length() <= tol,
        "{what}: {x:?} vs {y:?}"
    );
    for k in 0..m.count {
        let (p, q) = (&m.points[k], &n.points[k]);
        assert_eq!(p.id, q.id, "{what}: {x:?} vs {y:?}");
        assert!(
            (p.point - q.point).length() <= tol,
            "{what}: {x:?} vs {y:?}"
        );
        assert!(
            (p.separation - q.separation).abs() <= tol,
            "{what}: {x:?} vs {y:?}"
        );
        assert_eq!(fx[k].kind, fy[k].kind, "{what}: {x:?} vs {y:?}");
    }
}

#[test]
fn polygon_sat_overlap_matches_epa() {
    // Deterministic pseudo-random boxes and hexagons at random overlapping poses.
    let mut seed = 12345u32;
    let mut rnd = move || {
        seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
        (seed >> 8) as f32 / (1u32 << 24) as f32
    };
    let hexagon: Vec<Vec2> = (0..6)
        .map(|k| {
            let a = k as f32 * std::f32::consts::FRAC_PI_3;
            0.4 * Vec2::new(libm::cosf(a), libm::sinf(a))
        })
        .collect();
    let shapes = [
        Shape::rect(0.5, 0.5),
        Shape::rect(1.0, 0.2),
        Shape::polygon(&hexagon).unwrap(),
    ];
    let mut checked = 0;
    for _ in 0..2000 {
        let a = &shapes[(rnd() * 3.0) as usize % 3];
        let b = &shapes[(rnd() * 3.0) as usize % 3];
        let xa = Iso::new(Vec2::new(rnd(), rnd()), 6.0 * rnd());
        let xb = Iso::new(Vec2::new(rnd(), rnd()) * 1.5, 6.0 * rnd());
        let (Shape::Polygon(pa), Shape::Polygon(pb)) = (a, b) else {
            unreachable!()
        };
        let Some(sat) = polygon_overlap(pa, &xa, pb, &xb) else {
            continue;
        };
        let epa = epa::contact(a, &xa, b, &xb, None, None);
        let (d1, d2) = (sat.separation(), epa.separation());
        assert!((d1 - d2).abs() < 1e-4, "depth {d1} vs {d2}");
        if d1 < -1e-3 {
            // Unique minimum axis (ties aside): the normals agree.
            let dot = sat.normal().dot(epa.normal());
            assert!(dot > 0.999 || (d1 - d2).abs() < 1e-4, "normal {dot}");
        }
        let (pa_, pb_) = sat.points();
        assert!((pa_ - pb_ + sat.separation() * sat.normal()).length() < 1e-4);
        checked += 1;
    }
    assert!(checked > 200, "{checked}");
}
