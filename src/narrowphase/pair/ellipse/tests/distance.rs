//! The certified distance and intersection test against their oracles.

use super::*;

#[test]
fn point_ellipse_matches_bisection() {
    let mut rng = ChaCha8Rng::seed_from_u64(41);
    let mut worst = 0.0f64;
    for k in 0..20_000 {
        let (rx, ry) = random_ellipse(&mut rng);
        let t = rng.random_range(0.0..std::f32::consts::TAU);
        // Near the surface, at moderate range and far away; on the axes too.
        let t = match k % 10 {
            0 => 0.0,
            1 => std::f32::consts::FRAC_PI_2,
            _ => t,
        };
        let surf = Vec2::new(rx * t.cos(), ry * t.sin());
        let gap = log_uniform(&mut rng, 1e-5, 10.0);
        let dir = Vec2::new(surf.x / (rx * rx), surf.y / (ry * ry)).normalize();
        let p = surf
            + gap * dir * rng.random_range(0.5..2.0f32)
            + rng.random_range(-0.5..0.5f32) * gap * dir.perp();
        let Some((dist, q, n)) = point_ellipse(rx, ry, p) else {
            // Only points (to rounding) on or inside the ellipse.
            let z = (p.x as f64 / rx as f64).powi(2) + (p.y as f64 / ry as f64).powi(2);
            assert!(z <= 1.0 + 1e-6, "{rx} {ry} {p}");
            continue;
        };
        let (rdist, rq) = point_ellipse_f64(rx as f64, ry as f64, d(p));
        // f32 coordinates of size |p| + r resolve about 1e-7 of it; the
        // distance is first-order insensitive to the point's position.
        let scale = (d(p).length() + rx.max(ry) as f64).max(1e-3);
        let err = (dist as f64 - rdist).abs() / scale;
        worst = worst.max(err);
        assert!(err < 1e-6, "{rx} {ry} {p}: {dist} vs {rdist}");
        assert!(
            (d(q) - rq).length() < 2e-5 * scale,
            "{rx} {ry} {p}: {q} vs {rq}"
        );
        let rn = (d(p) - rq).normalize();
        assert!((d(n) - rn).length() < 1e-4, "{rx} {ry} {p}: {n} vs {rn}");
    }
    println!("worst relative distance error {worst:e}");
}

/// f64 distance from the point `p` to the segment `a`..`b`.
fn point_segment_f64(p: DVec2, a: DVec2, b: DVec2) -> f64 {
    let e = b - a;
    let l2 = e.length_squared();
    let t = if l2 > 0.0 {
        ((p - a).dot(e) / l2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p - (a + t * e)).length()
}

/// Distance between two separated convex polygons (or a segment or a point):
/// the brute-force minimum over vertex–edge pairs both ways.
fn polygons_f64(p: &[DVec2], q: &[DVec2]) -> f64 {
    let one_way = |p: &[DVec2], q: &[DVec2]| {
        let mut m = f64::INFINITY;
        for v in p {
            for j in 0..q.len() {
                m = m.min(point_segment_f64(*v, q[j], q[(j + 1) % q.len()]));
            }
        }
        m
    };
    one_way(p, q).min(one_way(q, p))
}

/// The checks every certified answer must pass. Returns whether the answer is
/// a vertex pair.
fn check_hit(rx: f32, ry: f32, verts: &[Vec2], normals: &[Vec2], xf: &Iso, h: &CoreHit) -> bool {
    let ctx = || format!("rx={rx} ry={ry} verts={verts:?} xf={xf:?} hit={h:?}");
    let (erx, ery) = (rx as f64, ry as f64);
    let placed: Vec<DVec2> = verts.iter().map(|v| d(xf.apply(*v))).collect();
    let scale = placed.iter().fold(0.0f64, |m, v| m.max(v.length())) + erx.max(ery);
    let (pe, pc, n, dist) = (d(h.point_e), d(h.point_c), d(h.normal), h.distance as f64);
    assert!(dist > 0.0 && (n.length() - 1.0).abs() < 1e-6, "{}", ctx());
    // The ellipse point lies on the ellipse, the core point on the core.
    let z = (pe.x / erx).powi(2) + (pe.y / ery).powi(2);
    assert!((z - 1.0).abs() < 1e-5, "off the ellipse: {}", ctx());
    if placed.len() > 1 {
        let sd = (0..placed.len())
            .map(|i| {
                let nn = d(xf.rot.apply(normals[i]));
                nn.dot(pc - placed[i])
            })
            .fold(f64::NEG_INFINITY, f64::max);
        assert!(sd.abs() < 1e-6 * scale, "off the core ({sd}): {}", ctx());
    }
    // Upper bound: the pair is `dist` apart along `n`.
    assert!(
        (pc - pe - dist * n).length() < 2e-6 * scale,
        "pair: {}",
        ctx()
    );
    // Lower bound: the separation along `n`, with the exact support values.
    let min_core = placed
        .iter()
        .map(|v| n.dot(*v))
        .fold(f64::INFINITY, f64::min);
    let h_e = (erx * erx * n.x * n.x + ery * ery * n.y * n.y).sqrt();
    let sep = min_core - h_e;
    assert!(
        (dist - sep).abs() < 2e-6 * scale,
        "separation along the normal {sep} vs {dist}: {}",
        ctx()
    );
    // Independent: the dense inscribed polygon. polygon ⊂ ellipse ⊂ polygon ⊕
    // disc(s), s = max(rx, ry)·(1 − cos(π/N)) ≤ 9.4e-6 m here, so the truth
    // lies in [d_poly − s, d_poly]; the answer must be within 1e-5 of that
    // interval (the oracle suites' distance tolerance; rounding of the f32
    // inputs is ~1e-7 of the scale, ≤ 1e-6 m here).
    let ring: Vec<DVec2> = (0..N)
        .map(|k| {
            let t = k as f64 / N as f64 * std::f64::consts::TAU;
            DVec2::new(erx * t.cos(), ery * t.sin())
        })
        .collect();
    let s = erx.max(ery) * (1.0 - (std::f64::consts::PI / N as f64).cos());
    let dp = polygons_f64(&placed, &ring);
    assert!(
        dist >= dp - s - 1e-5 && dist <= dp + 1e-5,
        "dense polygon {dp} (sagitta {s}) vs {dist}: {}",
        ctx()
    );
    placed.contains(&pc)
}

#[test]
fn core_distance_matches_dense_polygon() {
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    let (mut edges, mut vertices, mut points, mut touching, mut fallback) = (0, 0, 0, 0, 0);
    let cases = 12_000;
    for _ in 0..cases {
        let (rx, ry) = random_ellipse(&mut rng);
        let (verts, normals) = random_core(&mut rng);
        let xf = random_pose(&mut rng, reach(rx, ry, &verts));
        match core_distance(rx, ry, &verts, &normals, &xf) {
            Some(Some(h)) => {
                let at_vertex = check_hit(rx, ry, &verts, &normals, &xf, &h);
                match (verts.len(), at_vertex) {
                    (1, _) => points += 1,
                    (_, true) => vertices += 1,
                    (_, false) => edges += 1,
                }
            }
            Some(None) => {
                // Claimed contact: a vertex is on or inside the ellipse.
                touching += 1;
                let inside = verts.iter().any(|v| {
                    let p = d(xf.apply(*v));
                    (p.x / rx as f64).powi(2) + (p.y / ry as f64).powi(2) <= 1.0 + 1e-6
                });
                assert!(inside, "rx={rx} ry={ry} verts={verts:?} xf={xf:?}");
            }
            None => {
                // Given up: only where the shapes overlap (a crossing edge
                // with no vertex inside), which GJK confirms.
                fallback += 1;
                let core = match verts.len() {
                    1 => Shape::circle(1.0),
                    2 => Shape::capsule(verts[1].y, 1.0),
                    _ => Shape::Polygon(Polygon::new(&verts).unwrap()),
                };
                let e = Shape::ellipse(rx, ry);
                let g = crate::geometry::gjk::query(&e, &Iso::IDENTITY, &core, &xf, None);
                assert!(
                    g.distance < 1e-5,
                    "GJK {g:?}: rx={rx} ry={ry} verts={verts:?} xf={xf:?}"
                );
            }
        }
    }
    println!(
        "edges {edges}, vertices {vertices}, points {points}, touching {touching}, GJK {fallback}"
    );
    assert!(edges > 2000 && vertices > 2000 && points > 500 && touching > 1000);
    assert!(fallback < cases / 10, "{fallback}");
}

/// `true` when two convex CCW polygons (f64) overlap or touch: no edge of
/// either has the other entirely strictly outside.
fn polygons_meet_f64(p: &[DVec2], q: &[DVec2]) -> bool {
    let separates = |p: &[DVec2], q: &[DVec2]| {
        (0..p.len()).any(|i| {
            let e = p[(i + 1) % p.len()] - p[i];
            let n = DVec2::new(e.y, -e.x);
            q.iter().all(|v| n.dot(*v - p[i]) > 0.0)
        })
    };
    !separates(p, q) && !separates(q, p)
}

#[test]
fn polygon_meets_matches_dense_polygons() {
    // The ellipse lies between its inscribed N-gon and that N-gon scaled by
    // 1/cos(π/N) (circumscribed): meeting the inner one means meeting the
    // ellipse, missing the outer one means missing it; pairs in between
    // (within ~max(rx, ry)·7.5e-5 of touching for N = 256) are not judged.
    let n = 256;
    let ring = |rx: f64, ry: f64, k: f64| -> Vec<DVec2> {
        (0..n)
            .map(|i| {
                let t = i as f64 / n as f64 * std::f64::consts::TAU;
                DVec2::new(rx * t.cos(), ry * t.sin()) * k
            })
            .collect()
    };
    let mut rng = ChaCha8Rng::seed_from_u64(44);
    let (mut hits, mut misses, mut tested) = (0, 0, 0);
    while tested < 10_000 {
        let (rx, ry) = random_ellipse(&mut rng);
        let (verts, normals) = random_core(&mut rng);
        if verts.len() < 3 {
            continue;
        }
        tested += 1;
        let xf = random_pose(&mut rng, reach(rx, ry, &verts));
        let got = polygon_meets(rx, ry, &verts, &normals, &xf);
        let placed: Vec<DVec2> = verts.iter().map(|v| d(xf.apply(*v))).collect();
        let (erx, ery) = (rx as f64, ry as f64);
        let outer = 1.0 / (std::f64::consts::PI / n as f64).cos();
        let ctx = || format!("rx={rx} ry={ry} verts={verts:?} xf={xf:?}");
        if polygons_meet_f64(&placed, &ring(erx, ery, 1.0)) {
            assert!(got, "missed: {}", ctx());
            hits += 1;
        } else if !polygons_meet_f64(&placed, &ring(erx, ery, outer)) {
            assert!(!got, "false hit: {}", ctx());
            misses += 1;
        }
    }
    println!("meets {hits}, misses {misses}");
    assert!(hits > 2000 && misses > 2000, "{hits} {misses}");
}

#[test]
fn near_touching_pairs() {
    // Move a certified pair's core along the normal until the gap is g
    // (1e-7 to 1e-2 of the scale, and slightly negative): the separating
    // slab shrinks by exactly the move, so the new distance is g.
    let mut rng = ChaCha8Rng::seed_from_u64(43);
    // Answers at an edge's interior, at a vertex, at a point core.
    let (mut checked, mut kinds) = (0, [0; 3]);
    while checked < 10_000 {
        let (rx, ry) = random_ellipse(&mut rng);
        let (verts, normals) = random_core(&mut rng);
        let xf = random_pose(&mut rng, reach(rx, ry, &verts));
        let Some(Some(h)) = core_distance(rx, ry, &verts, &normals, &xf) else {
            continue;
        };
        // The size of the coordinates the answer is computed from.
        let scale = xf.translation.length()
            + verts.iter().fold(0.0f32, |m, v| m.max(v.length()))
            + rx.max(ry);
        let gap = scale * log_uniform(&mut rng, 1e-7, 1e-2);
        let gap = if rng.random_bool(0.1) { -gap } else { gap };
        let moved = Iso::from_parts(xf.translation - (h.distance - gap) * h.normal, xf.rot);
        // f32 rounding of the moved pose and of the answer's coordinates: a
        // few ε of the scale; and the 1e-6 relative gap GJK also allows.
        let tol = 8.0 * f32::EPSILON * scale + 1e-6 * gap.abs();
        match core_distance(rx, ry, &verts, &normals, &moved) {
            Some(Some(g)) => {
                assert!(
                    (g.distance - gap).abs() <= tol,
                    "gap {gap}: {g:?} rx={rx} ry={ry} verts={verts:?} xf={moved:?}"
                );
                if gap > 1e-5 {
                    check_hit(rx, ry, &verts, &normals, &moved, &g);
                }
                let at_vertex = verts.iter().any(|v| moved.apply(*v) == g.point_c);
                kinds[usize::from(at_vertex) + usize::from(verts.len() == 1)] += 1;
            }
            Some(None) => assert!(gap <= tol, "gap {gap} reported as contact"),
            None => {}
        }
        checked += 1;
    }
    println!("edge, vertex, point: {kinds:?}");
    assert!(
        kinds[0] > 2000 && kinds[1] > 2000 && kinds[2] > 500,
        "{kinds:?}"
    );
}

#[test]
fn bench_pool_takes_the_fast_path() {
    // Every pose of the narrowphase bench's separated ellipse/octagon pool is
    // answered here, not by GJK (the speed the README reports relies on it).
    let (oct, pool) = bench_pool(51, poses::Kind::Separated);
    for (xa, xb) in pool {
        let xf = xa.inv_mul(&xb);
        let h = core_distance(1.0, 0.5, oct.vertices(), oct.normals(), &xf);
        let Some(Some(h)) = h else {
            panic!("{xa:?} {xb:?}: {h:?}")
        };
        check_hit(1.0, 0.5, oct.vertices(), oct.normals(), &xf, &h);
    }
}
