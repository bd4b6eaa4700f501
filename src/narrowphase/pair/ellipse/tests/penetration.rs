//! The certified penetration against EPA and a dense inscribed polygon.

use super::*;
use crate::narrowphase::pair::ellipse::penetration::core_penetration;

/// Semi-axes up to 2 m with aspect up to 20 (thin ellipses), either way.
fn random_thin_ellipse(rng: &mut ChaCha8Rng) -> (f32, f32) {
    let a = log_uniform(rng, 0.1, 2.0);
    let b = a / log_uniform(rng, 1.0, 20.0);
    if rng.random_bool(0.5) {
        (a, b)
    } else {
        (b, a)
    }
}

/// A random convex polygon of about `size` (boxes, regular n-gons, hulls).
fn random_polygon_sized(rng: &mut ChaCha8Rng, size: f32) -> Polygon {
    loop {
        let aspect = log_uniform(rng, 1.0, 6.0);
        let pts: Vec<Vec2> = match rng.random_range(0..3) {
            0 => vec![
                Vec2::new(-size, -size / aspect),
                Vec2::new(size, -size / aspect),
                Vec2::new(size, size / aspect),
                Vec2::new(-size, size / aspect),
            ],
            1 => {
                let n = rng.random_range(3..=24);
                let phase = rng.random_range(0.0..1.0f32);
                (0..n)
                    .map(|i| {
                        let t = (i as f32 + phase) / n as f32 * std::f32::consts::TAU;
                        Vec2::new(t.cos(), t.sin() / aspect) * size
                    })
                    .collect()
            }
            _ => (0..rng.random_range(3..=12))
                .map(|_| {
                    Vec2::new(
                        rng.random_range(-1.0..1.0f32),
                        rng.random_range(-1.0..1.0f32) / aspect,
                    ) * size
                })
                .collect(),
        };
        if let Ok(p) = Polygon::convex_hull(&pts) {
            return p;
        }
    }
}

fn ang(a: DVec2, b: DVec2) -> f64 {
    a.perp_dot(b).atan2(a.dot(b)).abs()
}

/// `F(n) = h_E(n) − min_j n·v_j` in f64: the overlap along `n` (ellipse
/// frame, polygon vertices already placed).
fn overlap_f64(rx: f64, ry: f64, placed: &[DVec2], n: DVec2) -> f64 {
    let h = (rx * rx * n.x * n.x + ry * ry * n.y * n.y).sqrt();
    h - placed
        .iter()
        .map(|v| n.dot(*v))
        .fold(f64::INFINITY, f64::min)
}

/// Penetration depth and normal of the polygon against the inscribed
/// `N`-gon of the ellipse, by SAT in f64 (both polygons' edge normals),
/// with `h_Q` in O(1): `n·q(t) = R cos(t − t*)` is unimodal in the
/// parameter `t`, so its grid maximum is at a grid point next to `t*`.
fn dense_sat_f64(rx: f64, ry: f64, placed: &[DVec2]) -> (f64, DVec2) {
    let step = std::f64::consts::TAU / N as f64;
    let q = |k: i64| {
        let t = k as f64 * step;
        DVec2::new(rx * t.cos(), ry * t.sin())
    };
    let h_q = |n: DVec2| {
        let ts = (ry * n.y).atan2(rx * n.x);
        let k = (ts / step).floor() as i64;
        n.dot(q(k)).max(n.dot(q(k + 1)))
    };
    let overlap = |n: DVec2| {
        h_q(n)
            - placed
                .iter()
                .map(|v| n.dot(*v))
                .fold(f64::INFINITY, f64::min)
    };
    let mut best = (f64::INFINITY, DVec2::ZERO);
    let mut axis = |n: DVec2| {
        let o = overlap(n);
        if o < best.0 {
            best = (o, n);
        }
    };
    for k in 0..N as i64 {
        // Outward normal of the edge q(k) → q(k + 1).
        let e = q(k + 1) - q(k);
        axis(DVec2::new(e.y, -e.x).normalize());
    }
    for i in 0..placed.len() {
        let e = placed[(i + 1) % placed.len()] - placed[i];
        // The polygon's outward normal m: moving it along −m.
        axis(-DVec2::new(e.y, -e.x).normalize());
    }
    best
}

/// Whether the depth's minimising direction is unique enough to compare
/// normals at 1e-3 rad: EPA stops with `F(n_epa) ≤ (1 + 1e-6)·depth` plus
/// f32 rounding, so every direction more than 1e-3 rad from ours must
/// overlap by more than that (checked at ±1e-3 rad and on a 4096 grid plus
/// the polygon's edge normals, where a second minimum would be).
fn normal_unique(rx: f64, ry: f64, placed: &[DVec2], n: DVec2, depth: f64, scale: f64) -> bool {
    let tau = 1e-6 * depth + 2e-6 * scale;
    let rot =
        |v: DVec2, a: f64| DVec2::new(v.x * a.cos() - v.y * a.sin(), v.x * a.sin() + v.y * a.cos());
    let far_ok = |m: DVec2| ang(n, m) <= 1e-3 || overlap_f64(rx, ry, placed, m) > depth + tau;
    if [1e-3, -1e-3]
        .iter()
        .any(|a| overlap_f64(rx, ry, placed, rot(n, *a)) <= depth + tau)
    {
        return false;
    }
    (0..4096).all(|k| {
        let t = k as f64 / 4096.0 * std::f64::consts::TAU;
        far_ok(DVec2::new(t.cos(), t.sin()))
    }) && (0..placed.len()).all(|i| {
        let e = placed[(i + 1) % placed.len()] - placed[i];
        far_ok(-DVec2::new(e.y, -e.x).normalize())
    })
}

#[derive(Default, Debug)]
struct PenStats {
    overlapping: usize,
    separated: usize,
    fallback: usize,
    at_vertex_root: usize,
    normals_checked: usize,
    epa_off: usize,
}

/// All checks of one pair (the polygon placed by `xf` in the ellipse's
/// frame). Returns the certified depth, if any.
fn check_penetration(
    rx: f32,
    ry: f32,
    poly: &Polygon,
    xf: &Iso,
    stats: &mut PenStats,
) -> Option<f32> {
    let ctx = || format!("rx={rx} ry={ry} verts={:?} xf={xf:?}", poly.vertices());
    let (erx, ery) = (rx as f64, ry as f64);
    // The placed vertices in f64 from the f32 pose's own cos/sin.
    let (co, si) = (xf.rot.cos as f64, xf.rot.sin as f64);
    let placed: Vec<DVec2> = poly
        .vertices()
        .iter()
        .map(|v| {
            let v = d(*v);
            DVec2::new(co * v.x - si * v.y, si * v.x + co * v.y) + d(xf.translation)
        })
        .collect();
    let scale = placed.iter().fold(0.0f64, |m, v| m.max(v.length())) + erx.max(ery);
    let ours = core_penetration(rx, ry, poly.vertices(), poly.normals(), xf);
    // The generic path: GJK then EPA, no fast path.
    let e = Shape::ellipse(rx, ry);
    let p = Shape::Polygon(poly.clone());
    let generic = crate::geometry::epa::contact(&e, &Iso::IDENTITY, &p, xf, None, None);
    // Dense inscribed polygon Q: Q ⊂ E ⊂ Q ⊕ disc(s), s = max(rx, ry)·(1 −
    // cos(π/N)) ≤ 9.4e-6 m here; the depth is monotone under inclusion and
    // h_E ≤ h_Q + s, so the truth lies in [d_Q, d_Q + s]. Our answer may
    // differ from that interval by f32 rounding of coordinates of size
    // `scale` ≤ ~6 m (≤ 1e-6 m): 1e-5 m, the oracle suites' distance
    // tolerance, covers both with margin.
    let s = erx.max(ery) * (1.0 - (std::f64::consts::PI / N as f64).cos());
    let (dq, _) = dense_sat_f64(erx, ery, &placed);
    let tol = 1e-5;
    let Some(ours) = ours else {
        stats.fallback += 1;
        return None;
    };
    let Some(h) = ours else {
        // Claimed apart: the dense polygon (inside E) must be apart too, and
        // GJK must agree unless within rounding of touching.
        stats.separated += 1;
        assert!(dq < tol, "claimed apart, dense depth {dq}: {}", ctx());
        assert!(
            generic.separation() > -1e-5,
            "claimed apart, generic {generic:?}: {}",
            ctx()
        );
        return None;
    };
    stats.overlapping += 1;
    let (depth, n) = (h.depth as f64, d(h.normal));
    assert!((n.length() - 1.0).abs() < 1e-6, "normal {n}: {}", ctx());
    assert!(
        depth >= dq - tol && depth <= dq + s + tol,
        "depth {depth} vs dense [{dq}, {}]: {}",
        dq + s,
        ctx()
    );
    // Exact: the overlap along our normal is our depth.
    let along = overlap_f64(erx, ery, &placed, n);
    assert!(
        (along - depth).abs() < 2e-6 * scale,
        "overlap along n {along} vs {depth}: {}",
        ctx()
    );
    // Points: on the ellipse, and point_e − point_c = depth·n.
    let pe = d(h.point_e);
    assert!(
        ((pe.x / erx).powi(2) + (pe.y / ery).powi(2) - 1.0).abs() < 1e-5,
        "{}",
        ctx()
    );
    assert!((pe - d(h.point_c) - depth * n).length() < 1e-5, "{}", ctx());
    // EPA on the same pair. Its depth is its polytope's nearest edge, a
    // lower bound that it reports with its edge's normal; it can stop early
    // (a repeated support point on the curved side) with that bound off by
    // more than 1e-5. It must then be self-inconsistent: the overlap along
    // its own normal (exact, f64) is not its depth. Ours may never overlap
    // more than EPA's normal does (ours is the minimum over directions).
    let (gd, gn) = (-generic.separation() as f64, d(generic.normal()));
    let g_along = overlap_f64(erx, ery, &placed, gn);
    assert!(
        depth <= g_along + 2e-6 * scale,
        "ours {depth} vs F(EPA's normal) {g_along}: {}",
        ctx()
    );
    if (gd - depth).abs() >= tol {
        stats.epa_off += 1;
        assert!(
            (g_along - gd).abs() >= tol / 2.0,
            "depth {depth} vs EPA {gd} (overlap along EPA's normal {g_along}): {}",
            ctx()
        );
    } else if normal_unique(erx, ery, &placed, n, depth, scale) {
        stats.normals_checked += 1;
        let a = ang(n, gn);
        assert!(a < 1e-3, "normal {n} vs EPA {gn} ({a} rad): {}", ctx());
    }
    // Swap symmetry through the public API (world poses).
    let xa = Iso::new(Vec2::new(0.3, -1.1), 0.4);
    let xb = xa.mul(xf);
    let p1 = crate::narrowphase::penetration(&e, &xa, &p, &xb).expect("overlap");
    let p2 = crate::narrowphase::penetration(&p, &xb, &e, &xa).expect("overlap");
    assert!(
        p1.depth == p2.depth
            && p1.normal == -p2.normal
            && p1.point_a == p2.point_b
            && p1.point_b == p2.point_a,
        "{p1:?} vs {p2:?}: {}",
        ctx()
    );
    if poly
        .normals()
        .iter()
        .all(|m| ang(n, -d(xf.rot.apply(*m))) > 1e-5)
    {
        stats.at_vertex_root += 1;
    }
    Some(h.depth)
}

#[test]
fn core_penetration_matches_epa_and_dense_polygon() {
    let mut rng = ChaCha8Rng::seed_from_u64(45);
    let mut stats = PenStats::default();
    let cases = 12_000;
    for k in 0..cases {
        let (rx, ry) = random_thin_ellipse(&mut rng);
        let (rmin, rmax) = (rx.min(ry), rx.max(ry));
        let angle = rng.random_range(-3.2..3.2f32);
        let dir = {
            let t = rng.random_range(0.0..std::f32::consts::TAU);
            Vec2::new(t.cos(), t.sin())
        };
        let (poly, offset) = match k % 5 {
            // General: about a third apart.
            0 => {
                let p = {
                    let size = log_uniform(&mut rng, 0.05, 2.0);
                    random_polygon_sized(&mut rng, size)
                };
                let reach = rmax + p.vertices().iter().fold(0.0f32, |m, v| m.max(v.length()));
                (p, rng.random_range(0.0..1.0f32) * reach)
            }
            // Deep.
            1 => {
                let p = {
                    let size = log_uniform(&mut rng, 0.05, 2.0);
                    random_polygon_sized(&mut rng, size)
                };
                (p, rng.random_range(0.0..0.3f32) * rmin)
            }
            // Polygon inside the ellipse.
            2 => {
                let size = rng.random_range(0.02..0.4f32) * rmin;
                let p = random_polygon_sized(&mut rng, size);
                (p, rng.random_range(0.0..1.0f32) * (rmin - size) * 0.9)
            }
            // Ellipse inside the polygon.
            3 => {
                let p = {
                    let size = rng.random_range(3.0..5.0f32) * rmax;
                    random_polygon_sized(&mut rng, size)
                };
                (p, rng.random_range(0.0..0.2f32) * rmax)
            }
            // Near touching: move a general overlapping pair along its
            // answer until the depth is tiny (or slightly negative).
            _ => {
                let p = {
                    let size = log_uniform(&mut rng, 0.05, 2.0);
                    random_polygon_sized(&mut rng, size)
                };
                let xf = Iso::from_parts(
                    rng.random_range(0.0..0.5f32) * rmin * dir,
                    Rot::from_angle(angle),
                );
                let Some(Some(h)) = core_penetration(rx, ry, p.vertices(), p.normals(), &xf) else {
                    continue;
                };
                let eps = log_uniform(&mut rng, 1e-6, 1e-2)
                    * if rng.random_bool(0.1) { -1.0 } else { 1.0 };
                let moved = Iso::from_parts(xf.translation + (h.depth - eps) * h.normal, xf.rot);
                if let Some(got) = check_penetration(rx, ry, &p, &moved, &mut stats) {
                    assert!((got - eps).abs() < 1e-5, "eps {eps} got {got}");
                }
                continue;
            }
        };
        let xf = Iso::from_parts(offset * dir, Rot::from_angle(angle));
        check_penetration(rx, ry, &poly, &xf, &mut stats);
    }
    println!("{stats:?}");
    assert!(
        stats.overlapping > 8000 && stats.separated > 500,
        "{stats:?}"
    );
    assert!(stats.at_vertex_root > 500, "{stats:?}");
    assert!(stats.normals_checked > stats.overlapping / 2, "{stats:?}");
    assert!(stats.fallback < cases / 100, "{stats:?}");
    assert!(stats.epa_off < cases / 100, "{stats:?}");
}

#[test]
fn bench_pool_penetration_takes_the_fast_path() {
    let (oct, pool) = bench_pool(52, poses::Kind::Overlapping);
    let mut stats = PenStats::default();
    for (xa, xb) in pool {
        let xf = xa.inv_mul(&xb);
        assert!(
            check_penetration(1.0, 0.5, &oct, &xf, &mut stats).is_some(),
            "{xa:?} {xb:?}"
        );
    }
}
