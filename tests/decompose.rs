//! Convex decomposition against oracles: on seeded random simple polygons
//! (star-shaped outlines with random radii), the pieces are convex, their
//! areas add up to the outline's, and a point lies inside the outline
//! exactly when it lies inside one piece (crossing-number test, in f64).
//! Combined mass properties of the pieces match the outline's shoelace
//! values. Self-crossing outlines are refused with the two edges named.

use minkowski::shape::{decompose, MassProperties, ShapeError, MAX_PIECE_VERTICES};
use minkowski::{Iso, Vec2};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A star-shaped (hence simple) outline: `n` vertices at increasing angles
/// less than π apart (so the origin sees every edge), radii in [0.3, 1],
/// counter-clockwise or clockwise.
fn star(rng: &mut ChaCha8Rng, n: usize) -> Vec<Vec2> {
    let step = std::f32::consts::TAU / n as f32;
    let angles: Vec<f32> = (0..n)
        .map(|k| (k as f32 + rng.random_range(0.0..0.8)) * step)
        .collect();
    let mut pts: Vec<Vec2> = angles
        .iter()
        .map(|&a| rng.random_range(0.3f32..1.0) * Vec2::new(a.cos(), a.sin()))
        .collect();
    if rng.random_bool(0.5) {
        pts.reverse();
    }
    pts
}

/// Crossing-number point-in-polygon test in f64.
fn inside(outline: &[Vec2], p: Vec2) -> bool {
    let (px, py) = (p.x as f64, p.y as f64);
    let mut c = false;
    let n = outline.len();
    for i in 0..n {
        let (a, b) = (outline[i], outline[(i + 1) % n]);
        let (ax, ay, bx, by) = (a.x as f64, a.y as f64, b.x as f64, b.y as f64);
        if (ay > py) != (by > py) && px < ax + (py - ay) * (bx - ax) / (by - ay) {
            c = !c;
        }
    }
    c
}

/// Distance from `p` to the outline's boundary (f64).
fn boundary_distance(outline: &[Vec2], p: Vec2) -> f64 {
    let n = outline.len();
    (0..n)
        .map(|i| {
            let (a, b) = (outline[i].as_dvec2(), outline[(i + 1) % n].as_dvec2());
            let q = p.as_dvec2();
            let t = ((q - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
            (a + t * (b - a) - q).length()
        })
        .fold(f64::INFINITY, f64::min)
}

/// Shoelace area, centroid and polar moment about the centroid, in f64.
fn shoelace(outline: &[Vec2]) -> (f64, [f64; 2], f64) {
    let n = outline.len();
    let (mut a2, mut cx, mut cy, mut i0) = (0.0, 0.0, 0.0, 0.0);
    for i in 0..n {
        let (p, q) = (outline[i].as_dvec2(), outline[(i + 1) % n].as_dvec2());
        let c = p.x * q.y - q.x * p.y;
        a2 += c;
        cx += (p.x + q.x) * c;
        cy += (p.y + q.y) * c;
        i0 += c * (p.x * p.x + p.x * q.x + q.x * q.x + p.y * p.y + p.y * q.y + q.y * q.y);
    }
    let area = a2 / 2.0;
    let (cx, cy) = (cx / (3.0 * a2), cy / (3.0 * a2));
    let j = i0 / 12.0 - area * (cx * cx + cy * cy);
    (area.abs(), [cx, cy], j.abs())
}

#[test]
fn random_outlines_decompose_exactly() {
    let mut rng = ChaCha8Rng::seed_from_u64(14);
    let mut pieces_seen = 0;
    for case in 0..400 {
        let n = rng.random_range(4..40);
        let outline = star(&mut rng, n);
        let pieces = match decompose(&outline) {
            Ok(p) => p,
            Err(e) => panic!("case {case}: {e} for {outline:?}"),
        };
        pieces_seen += pieces.len();
        for p in &pieces {
            assert!(p.vertices().len() <= MAX_PIECE_VERTICES);
        }
        let (area, centroid, moment) = shoelace(&outline);
        let total: f64 = pieces
            .iter()
            .map(|p| p.area_centroid_moment().0 as f64)
            .sum();
        assert!(
            (total - area).abs() <= 1e-5 * area,
            "case {case}: area {total} vs {area}"
        );
        // Mass properties at density 1 combine to the outline's.
        let parts: Vec<(MassProperties, Iso)> = pieces
            .iter()
            .map(|p| {
                let (a, c, m) = p.area_centroid_moment();
                (
                    MassProperties {
                        mass: a,
                        centroid: c,
                        inertia: m,
                    },
                    Iso::IDENTITY,
                )
            })
            .collect();
        let mp = MassProperties::combine(&parts);
        assert!((mp.mass as f64 - area).abs() <= 1e-5 * area, "case {case}");
        let dc = ((mp.centroid.x as f64 - centroid[0]).powi(2)
            + (mp.centroid.y as f64 - centroid[1]).powi(2))
        .sqrt();
        assert!(dc <= 1e-5, "case {case}: centroid off by {dc}");
        assert!(
            (mp.inertia as f64 - moment).abs() <= 1e-5 * moment,
            "case {case}: inertia {} vs {moment}",
            mp.inertia
        );
        // Membership: inside the outline ⇔ inside exactly one piece.
        for _ in 0..200 {
            let p = Vec2::new(rng.random_range(-1.1..1.1), rng.random_range(-1.1..1.1));
            if boundary_distance(&outline, p) < 1e-4 {
                continue;
            }
            let hits = pieces
                .iter()
                .filter(|poly| {
                    let v = poly.vertices();
                    (0..v.len()).all(|i| {
                        minkowski::math::cross(v[(i + 1) % v.len()] - v[i], p - v[i]) > -1e-6
                    })
                })
                .count();
            assert_eq!(
                hits,
                usize::from(inside(&outline, p)),
                "case {case}: point {p} in {hits} pieces"
            );
        }
    }
    assert!(pieces_seen > 800, "{pieces_seen}");
}

#[test]
fn l_star_and_u_decompose() {
    let v = |pts: &[(f32, f32)]| {
        pts.iter()
            .map(|&(x, y)| Vec2::new(x, y))
            .collect::<Vec<_>>()
    };
    let l = v(&[
        (0.0, 0.0),
        (2.0, 0.0),
        (2.0, 1.0),
        (1.0, 1.0),
        (1.0, 2.0),
        (0.0, 2.0),
    ]);
    let u = v(&[
        (0.0, 0.0),
        (3.0, 0.0),
        (3.0, 2.0),
        (2.0, 2.0),
        (2.0, 1.0),
        (1.0, 1.0),
        (1.0, 2.0),
        (0.0, 2.0),
    ]);
    let star: Vec<Vec2> = (0..10)
        .map(|k| {
            let a = k as f32 * std::f32::consts::TAU / 10.0;
            let r = if k % 2 == 0 { 1.0 } else { 0.4 };
            r * Vec2::new(a.cos(), a.sin())
        })
        .collect();
    // The star's five tips need at least three convex pieces.
    for (name, outline, fewest, most) in [("L", &l, 2, 2), ("U", &u, 3, 3), ("star", &star, 3, 5)] {
        let got = decompose(outline).unwrap();
        assert!(
            (fewest..=most).contains(&got.len()),
            "{name}: {}",
            got.len()
        );
        let area: f32 = got.iter().map(|p| p.area_centroid_moment().0).sum();
        assert!((area as f64 - shoelace(outline).0).abs() < 1e-5, "{name}");
    }
}

#[test]
fn self_crossing_outlines_name_their_edges() {
    let bow = [
        Vec2::new(0.0, 0.0),
        Vec2::new(2.0, 2.0),
        Vec2::new(2.0, 0.0),
        Vec2::new(0.0, 2.0),
    ];
    assert_eq!(
        decompose(&bow),
        Err(ShapeError::CrossingEdges {
            edge_a: 0,
            edge_b: 2
        })
    );
    // A pentagram drawn in one stroke crosses itself five times; the
    // first crossing in edge order is reported.
    let penta: Vec<Vec2> = (0..5)
        .map(|k| {
            let a = (k * 2) as f32 * std::f32::consts::TAU / 5.0;
            Vec2::new(a.cos(), a.sin())
        })
        .collect();
    assert_eq!(
        decompose(&penta),
        Err(ShapeError::CrossingEdges {
            edge_a: 0,
            edge_b: 2
        })
    );
}
