//! Ray casts: every shape against a brute-force oracle (the first inside
//! sample along the ray, then bisection, in f64 steps over `contains_point`),
//! analytic cases, and the world's closest hit against a scan of every shape.

use minkowski::scene::Scene;
use minkowski::{Iso, Shape, Vec2};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn random_shape(rng: &mut ChaCha8Rng) -> Shape {
    let s = rng.random_range(0.1f32..2.0);
    match rng.random_range(0..5) {
        0 => Shape::circle(s),
        1 => Shape::rect(s, s * rng.random_range(0.2f32..1.0)),
        2 => Shape::capsule(s, s * rng.random_range(0.1f32..0.8)),
        3 => Shape::ellipse(s, s * rng.random_range(0.15f32..1.0)),
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

/// The first `t` in `[0, max]` where the ray is inside, to about 1e-7 m, by
/// sampling then bisection; `None` if no sample is inside.
fn oracle(shape: &Shape, xf: &Iso, o: Vec2, d: Vec2, max: f32) -> Option<f32> {
    let inside = |t: f32| shape.contains_point(xf, o + t * d);
    const N: usize = 4000;
    let mut prev = 0.0f32;
    if inside(0.0) {
        return Some(0.0);
    }
    for k in 1..=N {
        let t = max * k as f32 / N as f32;
        if inside(t) {
            let (mut lo, mut hi) = (prev, t);
            for _ in 0..60 {
                let mid = 0.5 * (lo + hi);
                if inside(mid) {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            return Some(hi);
        }
        prev = t;
    }
    None
}

#[test]
fn ray_casts_match_the_oracle_on_100k_cases() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5241_5953);
    let (mut worst, mut hits, mut grazing) = (0.0f32, 0usize, 0usize);
    for case in 0..100_000 {
        let shape = random_shape(&mut rng);
        let xf = Iso::new(
            Vec2::new(
                rng.random_range(-3.0f32..3.0),
                rng.random_range(-3.0f32..3.0),
            ),
            rng.random_range(-3.2f32..3.2),
        );
        let o = Vec2::new(
            rng.random_range(-8.0f32..8.0),
            rng.random_range(-8.0f32..8.0),
        );
        // Aim near the shape half the time, anywhere otherwise.
        let aim = if rng.random_bool(0.5) {
            xf.translation
                + Vec2::new(
                    rng.random_range(-2.0f32..2.0),
                    rng.random_range(-2.0f32..2.0),
                )
        } else {
            Vec2::new(
                rng.random_range(-8.0f32..8.0),
                rng.random_range(-8.0f32..8.0),
            )
        };
        let d = (aim - o).normalize_or_zero();
        if d == Vec2::ZERO {
            continue;
        }
        let max = 20.0;
        let ours = shape.ray_cast(&xf, o, d, max);
        let truth = oracle(&shape, &xf, o, d, max);
        match (ours, truth) {
            (Some(h), Some(t)) => {
                hits += 1;
                let err = (h.t - t).abs();
                worst = worst.max(err);
                assert!(
                    err < 1e-4,
                    "case {case}: {shape:?} t {} vs {t} xf {xf:?} o {o} d {d} n {}",
                    h.t,
                    h.normal
                );
                assert!((h.normal.length() - 1.0).abs() < 1e-4);
                if h.t > 0.0 {
                    assert!(h.normal.dot(d) <= 1e-4, "case {case}: normal faces the ray");
                }
            }
            (Some(h), None) => {
                // A chord shorter than the oracle's step (a clipped corner) or
                // a tangent: the ray is inside somewhere in the next step,
                // sampled finely, or runs along the surface.
                grazing += 1;
                let step = max / 4000.0;
                let chord = (0..=1000)
                    .any(|k| shape.contains_point(&xf, o + (h.t + step * k as f32 / 1000.0) * d));
                assert!(
                    chord || h.normal.dot(d).abs() < 0.2,
                    "case {case}: {shape:?} hit at {} with nothing inside after it",
                    h.t
                );
            }
            (None, Some(t)) => panic!("case {case}: {shape:?} missed, the ray is inside at {t}"),
            (None, None) => {}
        }
    }
    println!("ray casts: {hits} hits, {grazing} grazes, worst error {worst:e} m");
    assert!(hits > 30_000, "{hits}");
}

#[test]
fn analytic_cases() {
    let xf = Iso::new(Vec2::new(1.0, 2.0), 0.0);
    let down = Vec2::new(0.0, -1.0);
    // A unit circle from 5 m above: 4 m to its top.
    let h = Shape::circle(1.0)
        .ray_cast(&xf, Vec2::new(1.0, 7.0), down, 10.0)
        .unwrap();
    assert_eq!(h.t, 4.0);
    assert_eq!(h.point, Vec2::new(1.0, 3.0));
    assert_eq!(h.normal, Vec2::new(0.0, 1.0));
    // Out of reach.
    assert!(Shape::circle(1.0)
        .ray_cast(&xf, Vec2::new(1.0, 7.0), down, 3.9)
        .is_none());
    // A box's side, an ellipse's tip, a capsule's cap.
    let h = Shape::rect(0.5, 0.25)
        .ray_cast(&xf, Vec2::new(-3.0, 2.1), Vec2::X, 10.0)
        .unwrap();
    assert!((h.t - 3.5).abs() < 1e-6 && h.normal == Vec2::new(-1.0, 0.0));
    let h = Shape::ellipse(2.0, 0.5)
        .ray_cast(&xf, Vec2::new(6.0, 2.0), -Vec2::X, 10.0)
        .unwrap();
    assert!((h.t - 3.0).abs() < 1e-6 && (h.normal - Vec2::X).length() < 1e-6);
    let h = Shape::capsule(1.0, 0.5)
        .ray_cast(&xf, Vec2::new(1.0, 6.0), down, 10.0)
        .unwrap();
    assert!((h.t - 2.5).abs() < 1e-6 && (h.normal - Vec2::Y).length() < 1e-6);
    // From inside: t = 0.
    let h = Shape::circle(1.0)
        .ray_cast(&xf, Vec2::new(1.0, 2.0), down, 10.0)
        .unwrap();
    assert_eq!(h.t, 0.0);
}

#[test]
fn the_world_ray_cast_finds_the_closest_shape() {
    let mut w = Scene::builtin("pit").unwrap().build().unwrap();
    for _ in 0..120 {
        w.step();
    }
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut found = 0;
    for _ in 0..2000 {
        let o = Vec2::new(
            rng.random_range(-12.0f32..12.0),
            rng.random_range(-2.0f32..20.0),
        );
        let a = rng.random_range(0.0f32..std::f32::consts::TAU);
        let d = Vec2::new(libm::cosf(a), libm::sinf(a));
        let hit = w.ray_cast(o, d, 30.0, u32::MAX);
        // Brute force over every shape of every body.
        let mut best: Option<f32> = None;
        for (_, b) in w.bodies() {
            for c in b.colliders() {
                if let Some(h) = c.shape().ray_cast(&c.pose(&b.transform()), o, d, 30.0) {
                    best = Some(best.map_or(h.t, |t: f32| t.min(h.t)));
                }
            }
        }
        match (hit, best) {
            (Some(h), Some(t)) => {
                found += 1;
                // The world normalises the direction again: equal to rounding.
                assert!((h.distance - t).abs() < 1e-5, "{} vs {t}", h.distance);
                let b = w.body(h.body).unwrap();
                let c = &b.colliders()[h.shape as usize];
                let again = c.shape().ray_cast(&c.pose(&b.transform()), o, d, 30.0);
                assert!(again.is_some_and(|x| (x.t - t).abs() < 1e-5));
            }
            (None, None) => {}
            (a, b) => panic!("world {a:?} vs brute force {b:?}"),
        }
    }
    assert!(found > 1000, "{found}");
    // A mask that matches nothing hits nothing.
    assert!(w
        .ray_cast(Vec2::new(0.0, 20.0), Vec2::new(0.0, -1.0), 50.0, 0)
        .is_none());
}

/// The overlap queries and `ray_cast_all` against brute force over every
/// shape of a settled `rain` pile (no broadphase): 2,000 random boxes,
/// points, placed shapes and rays each; the predicate and the mask filter.
#[test]
fn the_world_overlap_queries_match_brute_force() {
    use minkowski::world::ShapeRef;
    use minkowski::{narrowphase, Aabb};
    let mut w = Scene::builtin("pit").unwrap().build().unwrap();
    for _ in 0..120 {
        w.step();
    }
    let all: Vec<(ShapeRef, Shape, Iso)> = w
        .bodies()
        .flat_map(|(id, b)| {
            b.colliders().iter().enumerate().map(move |(k, c)| {
                (
                    ShapeRef {
                        body: id,
                        shape: k as u32,
                    },
                    c.shape().clone(),
                    c.pose(&b.transform()),
                )
            })
        })
        .collect();
    let brute = |f: &dyn Fn(&Shape, &Iso) -> bool| -> Vec<ShapeRef> {
        let mut v: Vec<ShapeRef> = all
            .iter()
            .filter(|(_, s, x)| f(s, x))
            .map(|e| e.0)
            .collect();
        v.sort_unstable();
        v
    };
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let (mut nonempty, mut many) = (0, 0);
    for _ in 0..2000 {
        let c = Vec2::new(
            rng.random_range(-12.0f32..12.0),
            rng.random_range(-1.0f32..12.0),
        );
        let half = Vec2::new(rng.random_range(0.0f32..3.0), rng.random_range(0.0f32..3.0));
        let bounds = Aabb::new(c - half, c + half);
        let got = w.overlap_aabb(bounds, u32::MAX, |_| true);
        let probe = Shape::rect(half.x.max(1e-6), half.y.max(1e-6));
        let at = Iso::new(c, 0.0);
        assert_eq!(
            got,
            brute(&|s, x| narrowphase::intersects(&probe, &at, s, x))
        );
        nonempty += usize::from(!got.is_empty());
        many += usize::from(got.len() > 5);

        let pts = w.overlap_point(c, u32::MAX, |_| true);
        assert_eq!(pts, brute(&|s, x| s.contains_point(x, c)));

        let shape = random_shape(&mut rng);
        let pose = Iso::new(c, rng.random_range(0.0f32..6.0));
        // Keep only even bodies: the predicate filters.
        let got = w.overlap_shape(&shape, &pose, u32::MAX, |r| r.body.index % 2 == 0);
        let want: Vec<ShapeRef> = brute(&|s, x| narrowphase::intersects(&shape, &pose, s, x))
            .into_iter()
            .filter(|r| r.body.index % 2 == 0)
            .collect();
        assert_eq!(got, want);

        let a = rng.random_range(0.0f32..std::f32::consts::TAU);
        let d = Vec2::new(libm::cosf(a), libm::sinf(a));
        let hits = w.ray_cast_all(c, d, 15.0, u32::MAX, |_| true);
        let want = brute(&|s, x| s.ray_cast(x, c, d, 15.0).is_some());
        let mut got: Vec<ShapeRef> = hits
            .iter()
            .map(|h| ShapeRef {
                body: h.body,
                shape: h.shape,
            })
            .collect();
        assert!(hits.windows(2).all(|p| p[0].distance <= p[1].distance));
        if let (Some(first), Some(closest)) = (hits.first(), w.ray_cast(c, d, 15.0, u32::MAX)) {
            assert_eq!(first.distance, closest.distance);
        }
        got.sort_unstable();
        assert_eq!(got, want);
    }
    println!(
        "2000 queries of each kind: {nonempty} boxes touched something, {many} more than 5 shapes"
    );
    assert!(nonempty > 1000 && many > 100);
    // A mask that matches nothing finds nothing.
    let everything = Aabb::new(Vec2::splat(-100.0), Vec2::splat(100.0));
    assert!(w.overlap_aabb(everything, 0, |_| true).is_empty());
    assert_eq!(
        w.overlap_aabb(everything, u32::MAX, |_| true).len(),
        all.len()
    );
}

/// An explosion pushes each dynamic body through its centre of mass, away
/// from the centre: the full impulse when its nearest shape is within the
/// radius, a linear share in the falloff, nothing beyond; static bodies stay.
/// The sandbox's input event does the same, bit for bit.
#[test]
fn an_explosion_falls_off_with_distance() {
    use minkowski::replay::{apply_input, InputEvent};
    use minkowski::world::Explosion;
    use minkowski::{BodyDef, BodyKind, World, WorldSettings};
    let mut w = World::new(WorldSettings {
        gravity: Vec2::ZERO,
        ..WorldSettings::default()
    });
    // Unit boxes (mass 1) whose near faces are 0.5, 2.5 and 4.5 m away.
    let near = w
        .add_body(BodyDef::new(Shape::rect(0.5, 0.5), Vec2::new(1.0, 0.0)))
        .unwrap();
    let mid = w
        .add_body(BodyDef::new(Shape::rect(0.5, 0.5), Vec2::new(0.0, -3.0)))
        .unwrap();
    let far = w
        .add_body(BodyDef::new(Shape::rect(0.5, 0.5), Vec2::new(-5.0, 0.0)))
        .unwrap();
    let wall = w
        .add_body(BodyDef::new(Shape::rect(0.5, 0.5), Vec2::new(0.0, 1.0)).kind(BodyKind::Static))
        .unwrap();
    let mut copy = w.clone();
    let e = Explosion {
        center: Vec2::ZERO,
        radius: 2.0,
        falloff: 2.0,
        impulse: 4.0,
    };
    assert_eq!(w.explode(&e), 2);
    let v = |w: &World, id| w.body(id).unwrap().linear_velocity();
    assert!(
        (v(&w, near) - Vec2::new(4.0, 0.0)).length() < 1e-5,
        "{}",
        v(&w, near)
    );
    assert!(
        (v(&w, mid) - Vec2::new(0.0, -3.0)).length() < 1e-5,
        "{}",
        v(&w, mid)
    );
    assert_eq!(v(&w, far), Vec2::ZERO);
    assert_eq!(v(&w, wall), Vec2::ZERO);
    assert_eq!(w.body(near).unwrap().angular_velocity(), 0.0);
    apply_input(
        &mut copy,
        &InputEvent::Explode {
            at: Vec2::ZERO,
            radius: 2.0,
            impulse: 4.0,
        },
    );
    assert_eq!(copy.state_hash(), w.state_hash());
    // Bad input does nothing.
    let before = w.state_hash();
    let mut bad = e;
    bad.radius = f32::NAN;
    assert_eq!(w.explode(&bad), 0);
    assert_eq!(w.state_hash(), before);
}

/// `cast_shape` against a scan of every shape of a landed `rain` pile with
/// the library's own shape cast (no broadphase): 1,000 random casts; the
/// first hit, its fraction and body agree, the mask and predicate filter.
#[test]
fn the_world_shape_cast_matches_brute_force() {
    use minkowski::geometry::cast::{shape_cast, CastOptions};
    let mut w = Scene::builtin("pit").unwrap().build().unwrap();
    for _ in 0..400 {
        w.step();
    }
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    let (mut hits, mut at_zero) = (0, 0);
    for _ in 0..1000 {
        let shape = random_shape(&mut rng);
        let pose = Iso::new(
            Vec2::new(
                rng.random_range(-12.0f32..12.0),
                if rng.random_bool(0.7) {
                    rng.random_range(14.0f32..30.0)
                } else {
                    rng.random_range(0.0f32..14.0)
                },
            ),
            rng.random_range(0.0f32..6.0),
        );
        let a = rng.random_range(0.0f32..std::f32::consts::TAU);
        let tr = Vec2::new(libm::cosf(a), libm::sinf(a)) * rng.random_range(0.0f32..15.0);
        let odd = rng.random_bool(0.3);
        let keep = |r: minkowski::world::ShapeRef| !odd || r.body.index % 2 == 1;
        let got = w.cast_shape(&shape, &pose, tr, u32::MAX, keep);
        let mut best: Option<(f32, minkowski::BodyId)> = None;
        for (id, b) in w.bodies() {
            if odd && id.index % 2 == 0 {
                continue;
            }
            for c in b.colliders() {
                let x = c.pose(&b.transform());
                let h = shape_cast(
                    c.shape(),
                    &x,
                    Vec2::ZERO,
                    &shape,
                    &pose,
                    tr,
                    &CastOptions::default(),
                );
                if let Some(h) = h {
                    if best.is_none_or(|(f, _)| h.fraction < f) {
                        best = Some((h.fraction, id));
                    }
                }
            }
        }
        match (got, best) {
            (Some(h), Some((f, _))) => {
                hits += 1;
                at_zero += usize::from(f == 0.0);
                // Fractions within the cast's tolerance of each other (the
                // world's casts stop early at the best fraction so far).
                assert!((h.fraction - f).abs() * tr.length() < 1e-4, "{h:?} vs {f}");
                assert!((h.normal.length() - 1.0).abs() < 1e-4);
                assert!(keep(minkowski::world::ShapeRef {
                    body: h.body,
                    shape: h.shape
                }));
            }
            (None, None) => {}
            (a, b) => panic!("world {a:?} vs brute force {b:?}"),
        }
    }
    println!("1000 shape casts: {hits} hits, {at_zero} starting in contact");
    assert!(
        hits > 300 && at_zero > 20 && hits - at_zero > 100,
        "{hits} {at_zero}"
    );
    // A mask that matches nothing finds nothing; bad input finds nothing.
    let ball = Shape::circle(0.5);
    let down = Vec2::new(0.0, -30.0);
    let top = Iso::new(Vec2::new(0.0, 25.0), 0.0);
    assert!(w.cast_shape(&ball, &top, down, 0, |_| true).is_none());
    assert!(w
        .cast_shape(&ball, &top, Vec2::new(f32::NAN, 0.0), u32::MAX, |_| true)
        .is_none());
    assert!(w
        .cast_shape(&Shape::circle(-1.0), &top, down, u32::MAX, |_| true)
        .is_none());
}
