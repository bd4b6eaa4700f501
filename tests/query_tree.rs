//! The world's queries, answered through the broadphase's query tree, against
//! a brute-force scan of every shape, in a random world that keeps changing:
//! between batches of queries it steps (bodies fall, collide, spin and fall
//! asleep), loses bodies, gains new ones and has some teleported, so the tree
//! is rebuilt over moved, added and removed proxies. 2,400 queries of each
//! kind: closest ray hit, every ray hit, box, point and shape overlap, and
//! shape cast, with masks and predicates.

use minkowski::dynamics::Filter;
use minkowski::dynamics::ShapeDef;
use minkowski::geometry::cast::{shape_cast, CastOptions};
use minkowski::narrowphase;
use minkowski::world::ShapeRef;
use minkowski::{Aabb, BodyDef, BodyId, BodyKind, Iso, Shape, Vec2, World, WorldSettings};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn random_shape(rng: &mut ChaCha8Rng) -> Shape {
    random_shape_of(rng, 5)
}

/// The first `kinds` of: circle, box, capsule, polygon, ellipse.
fn random_shape_of(rng: &mut ChaCha8Rng, kinds: u32) -> Shape {
    let s = rng.random_range(0.15f32..1.2);
    match rng.random_range(0..kinds) {
        0 => Shape::circle(s),
        1 => Shape::rect(s, s * rng.random_range(0.2f32..1.0)),
        2 => Shape::capsule(s, s * rng.random_range(0.1f32..0.8)),
        4 => Shape::ellipse(s, s * rng.random_range(0.15f32..1.0)),
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

/// A random dynamic body (one shape in three is a two-shape compound) in
/// category 1, 2 or 4, moving at up to 4 m/s and 3 rad/s. No ellipses: a
/// pile with them takes long to fall asleep.
fn random_body(rng: &mut ChaCha8Rng) -> BodyDef {
    let at = Vec2::new(
        rng.random_range(-18.0f32..18.0),
        rng.random_range(1.0f32..25.0),
    );
    let def = if rng.random_bool(0.33) {
        let parts = vec![
            ShapeDef::new(random_shape_of(rng, 4)),
            ShapeDef::new(random_shape_of(rng, 4))
                .at(Vec2::new(rng.random_range(0.5f32..1.5), 0.0), 0.3),
        ];
        BodyDef::compound(parts, at)
    } else {
        BodyDef::new(random_shape_of(rng, 4), at)
    };
    def.angle(rng.random_range(0.0f32..6.0))
        .velocity(Vec2::new(
            rng.random_range(-4.0f32..4.0),
            rng.random_range(-4.0f32..4.0),
        ))
        .angular_velocity(rng.random_range(-3.0f32..3.0))
        .filter(Filter {
            category: 1 << rng.random_range(0..3),
            ..Filter::default()
        })
}

/// Whether body `id`'s fat box is clear of every other moving body's. The
/// world changes by placing bodies only where they do not start inside
/// another: two compounds placed interlocked, their shape pairs pushing
/// opposite ways, are pushed back and forth for ever and keep their pile
/// awake, which is not what this test is about.
fn clear_of_others(w: &World, id: BodyId) -> bool {
    let mine = w.fat_aabb(id).unwrap();
    w.bodies().all(|(other, b)| {
        other == id || b.kind() == BodyKind::Static || !w.fat_aabb(other).unwrap().overlaps(&mine)
    })
}

/// Adds a random body where it is clear of the others (see
/// [`clear_of_others`]), within 100 tries.
fn add_clear(w: &mut World, rng: &mut ChaCha8Rng) -> BodyId {
    for _ in 0..100 {
        let id = w.add_body(random_body(rng)).unwrap();
        if clear_of_others(w, id) {
            return id;
        }
        assert!(w.remove_body(id));
    }
    w.add_body(random_body(rng)).unwrap()
}

/// Every shape of the world that a query may return: with its category.
struct Scan(Vec<(ShapeRef, Shape, Iso, u32)>);

impl Scan {
    fn of(w: &World) -> Scan {
        let mut all = Vec::new();
        for (id, b) in w.bodies() {
            if b.is_frozen() {
                continue;
            }
            for (k, c) in b.colliders().iter().enumerate() {
                let r = ShapeRef {
                    body: id,
                    shape: k as u32,
                };
                all.push((
                    r,
                    c.shape().clone(),
                    c.pose(&b.transform()),
                    c.filter().category,
                ));
            }
        }
        Scan(all)
    }

    /// The shapes in `mask` that `keep` accepts and `test` holds for, sorted.
    fn find(
        &self,
        mask: u32,
        keep: impl Fn(ShapeRef) -> bool,
        test: impl Fn(&Shape, &Iso) -> bool,
    ) -> Vec<ShapeRef> {
        let mut v: Vec<ShapeRef> = self
            .0
            .iter()
            .filter(|(r, s, x, cat)| cat & mask != 0 && keep(*r) && test(s, x))
            .map(|e| e.0)
            .collect();
        v.sort_unstable();
        v
    }
}

fn random_mask(rng: &mut ChaCha8Rng) -> u32 {
    [u32::MAX, u32::MAX, 1, 2 | 4, 4, 0][rng.random_range(0..6)]
}

#[test]
fn the_world_queries_equal_a_scan_of_every_shape_while_the_world_changes() {
    let mut rng = ChaCha8Rng::seed_from_u64(16);
    let mut w = World::new(WorldSettings::default());
    let fixed = |s: Shape, x: f32, y: f32| BodyDef::new(s, Vec2::new(x, y)).kind(BodyKind::Static);
    w.add_body(fixed(Shape::rect(22.0, 0.5), 0.0, -0.5))
        .unwrap();
    w.add_body(fixed(Shape::rect(0.5, 15.0), -22.5, 14.0))
        .unwrap();
    w.add_body(fixed(Shape::rect(0.5, 15.0), 22.5, 14.0))
        .unwrap();
    let mut ids: Vec<BodyId> = (0..200).map(|_| add_clear(&mut w, &mut rng)).collect();
    let mut counts = [0usize; 8];
    let (mut asleep, mut strays) = (0, 0);
    for batch in 0..6 {
        // Change the world: step, remove, add, teleport. The last batch
        // only steps, 15 s, long enough for the pile to fall asleep.
        let quiet = batch == 5;
        if quiet {
            // The queries must see sleeping bodies. Whether one seeded pile
            // settles fully is chaotic: a body jammed between two others
            // that penetrate it from both sides can keep the whole island
            // awake (the pile tests count sleep over 64 seeds instead). A
            // sleep velocity ten times the default puts this pile to sleep
            // whatever its jams.
            w.set_sleep_thresholds(0.5, 0.5);
        }
        for _ in 0..if quiet { 900 } else { 50 } {
            w.step();
        }
        for _ in 0..if quiet { 0 } else { 12 } {
            let k = rng.random_range(0..ids.len());
            assert!(w.remove_body(ids.swap_remove(k)));
        }
        for _ in 0..if quiet { 0 } else { 15 } {
            ids.push(add_clear(&mut w, &mut rng));
        }
        for _ in 0..if quiet { 0 } else { 5 } {
            let id = ids[rng.random_range(0..ids.len())];
            let to = Vec2::new(
                rng.random_range(-18.0f32..18.0),
                rng.random_range(2.0f32..25.0),
            );
            let b = w.body(id).unwrap();
            let (from, angle) = (b.position(), b.angle());
            w.set_transform(id, to, rng.random_range(0.0f32..6.0))
                .unwrap();
            if !clear_of_others(&w, id) {
                w.set_transform(id, from, angle).unwrap();
            }
        }
        if batch % 2 == 1 {
            // Half the batches query a stepped world (the tree is rebuilt
            // after the step), half the world as edited above.
            w.step();
        }
        asleep = asleep.max(w.bodies().filter(|(_, b)| !b.is_awake()).count());
        let scan = Scan::of(&w);
        // Shapes the last step moved out of their fat box: the queries
        // must find them too.
        for (id, b) in w.bodies() {
            let fat = w.fat_aabb(id).unwrap();
            for c in b.colliders() {
                let now = c.shape().aabb(&c.pose(&b.transform()));
                strays += usize::from(!fat.contains(&now));
            }
        }
        for _ in 0..500 {
            check_rays(&w, &scan, &mut rng, &mut counts);
            check_overlaps(&w, &scan, &mut rng, &mut counts);
            check_cast(&w, &scan, &mut rng, &mut counts);
        }
    }
    println!("hits: closest {} all {} (>3: {}) boxes {} points {} shapes {} casts {} (at 0: {}); asleep {asleep}; strays {strays}",
        counts[0], counts[1], counts[2], counts[3], counts[4], counts[5], counts[6], counts[7]);
    assert!(
        counts[0] > 1000 && counts[1] > 1000 && counts[2] > 100,
        "{counts:?}"
    );
    assert!(
        counts[3] > 800 && counts[4] > 150 && counts[5] > 600,
        "{counts:?}"
    );
    assert!(counts[6] > 500 && counts[7] > 20, "{counts:?}");
    // The whole pile sleeps within 15 s, so that the queries see sleeping
    // bodies. (While continuous collision held a body buried in the ground
    // where it was, one compound stayed awake with its island: 5 asleep.)
    let bodies = w.bodies().count();
    assert!(asleep == bodies, "{asleep} of {bodies} bodies asleep");
    assert!(strays > 10, "{strays} shapes outside their fat box");
}

fn random_ray(rng: &mut ChaCha8Rng) -> (Vec2, Vec2, f32) {
    let o = Vec2::new(
        rng.random_range(-25.0f32..25.0),
        rng.random_range(-3.0f32..28.0),
    );
    let a = rng.random_range(0.0f32..std::f32::consts::TAU);
    // Any length: the world normalises it.
    let d = Vec2::new(libm::cosf(a), libm::sinf(a)) * rng.random_range(0.5f32..3.0);
    let max = if rng.random_bool(0.1) {
        0.0
    } else {
        rng.random_range(0.0f32..45.0)
    };
    (o, d, max)
}

/// The closest hit and every hit, against the scan. Distances are compared
/// bit for bit: the world and the scan call the same `Shape::ray_cast`.
fn check_rays(w: &World, scan: &Scan, rng: &mut ChaCha8Rng, counts: &mut [usize; 8]) {
    let (o, d, max) = random_ray(rng);
    let mask = random_mask(rng);
    let unit = d / d.length();
    let t_of = |s: &Shape, x: &Iso| s.ray_cast(x, o, unit, max).map(|h| h.t);
    let best = scan
        .find(mask, |_| true, |s, x| t_of(s, x).is_some())
        .into_iter()
        .map(|r| {
            let e = scan.0.iter().find(|e| e.0 == r).unwrap();
            (t_of(&e.1, &e.2).unwrap(), r)
        })
        .min_by(|a, b| a.0.total_cmp(&b.0));
    match (w.ray_cast(o, d, max, mask), best) {
        (Some(h), Some((t, _))) => {
            counts[0] += 1;
            assert_eq!(h.distance, t, "ray {o} {d} {max}");
            // The shape named is at that distance (ties: any of them).
            let e = scan
                .0
                .iter()
                .find(|e| e.0.body == h.body && e.0.shape == h.shape)
                .unwrap();
            assert_eq!(t_of(&e.1, &e.2), Some(t));
        }
        (None, None) => {}
        (a, b) => panic!("ray {o} {d} {max} mask {mask}: world {a:?} vs scan {b:?}"),
    }
    let odd = rng.random_bool(0.3);
    let keep = |r: ShapeRef| !odd || r.body.index % 2 == 1;
    let got: Vec<(f32, ShapeRef)> = w
        .ray_cast_all(o, d, max, mask, keep)
        .iter()
        .map(|h| {
            let r = ShapeRef {
                body: h.body,
                shape: h.shape,
            };
            (h.distance, r)
        })
        .collect();
    let mut want: Vec<(f32, ShapeRef)> = scan
        .find(mask, keep, |s, x| t_of(s, x).is_some())
        .into_iter()
        .map(|r| {
            let e = scan.0.iter().find(|e| e.0 == r).unwrap();
            (t_of(&e.1, &e.2).unwrap(), r)
        })
        .collect();
    want.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    assert_eq!(got, want, "ray_cast_all {o} {d} {max} mask {mask}");
    counts[1] += usize::from(!got.is_empty());
    counts[2] += usize::from(got.len() > 3);
}

/// Box, point and shape overlaps, against the scan.
fn check_overlaps(w: &World, scan: &Scan, rng: &mut ChaCha8Rng, counts: &mut [usize; 8]) {
    let c = Vec2::new(
        rng.random_range(-24.0f32..24.0),
        rng.random_range(-2.0f32..26.0),
    );
    let half = Vec2::new(rng.random_range(0.0f32..4.0), rng.random_range(0.0f32..4.0));
    let mask = random_mask(rng);
    let got = w.overlap_aabb(Aabb::new(c - half, c + half), mask, |_| true);
    let probe = Shape::rect(half.x.max(1e-6), half.y.max(1e-6));
    let at = Iso::new(c, 0.0);
    let want = scan.find(
        mask,
        |_| true,
        |s, x| narrowphase::intersects(&probe, &at, s, x),
    );
    assert_eq!(got, want, "box {c} {half} mask {mask}");
    counts[3] += usize::from(!got.is_empty());

    let got = w.overlap_point(c, mask, |_| true);
    assert_eq!(
        got,
        scan.find(mask, |_| true, |s, x| s.contains_point(x, c))
    );
    counts[4] += usize::from(!got.is_empty());

    let shape = random_shape(rng);
    let pose = Iso::new(c, rng.random_range(0.0f32..6.0));
    let keep = |r: ShapeRef| r.shape == 0 || r.body.index % 3 != 0;
    let got = w.overlap_shape(&shape, &pose, mask, keep);
    let want = scan.find(mask, keep, |s, x| {
        narrowphase::intersects(&shape, &pose, s, x)
    });
    assert_eq!(got, want, "shape at {c} mask {mask}");
    counts[5] += usize::from(!got.is_empty());
}

/// A shape cast against the scan: a hit exactly when the scan has one, at
/// the scan's first fraction to the cast's tolerance (the world casts each
/// candidate only up to the best fraction so far).
fn check_cast(w: &World, scan: &Scan, rng: &mut ChaCha8Rng, counts: &mut [usize; 8]) {
    let shape = random_shape(rng);
    let pose = Iso::new(
        Vec2::new(
            rng.random_range(-24.0f32..24.0),
            rng.random_range(-2.0f32..30.0),
        ),
        rng.random_range(0.0f32..6.0),
    );
    let a = rng.random_range(0.0f32..std::f32::consts::TAU);
    let tr = if rng.random_bool(0.05) {
        Vec2::ZERO
    } else {
        Vec2::new(libm::cosf(a), libm::sinf(a)) * rng.random_range(0.0f32..30.0)
    };
    let mask = random_mask(rng);
    let odd = rng.random_bool(0.3);
    let keep = |r: ShapeRef| !odd || r.body.index % 2 == 1;
    let got = w.cast_shape(&shape, &pose, tr, mask, keep);
    let fraction = |s: &Shape, x: &Iso| {
        shape_cast(s, x, Vec2::ZERO, &shape, &pose, tr, &CastOptions::default()).map(|h| h.fraction)
    };
    let best = scan
        .0
        .iter()
        .filter(|(r, _, _, cat)| cat & mask != 0 && keep(*r))
        .filter_map(|(_, s, x, _)| fraction(s, x))
        .min_by(f32::total_cmp);
    match (got, best) {
        (Some(h), Some(f)) => {
            counts[6] += 1;
            counts[7] += usize::from(f == 0.0);
            assert!((h.fraction - f).abs() * tr.length() < 1e-4, "{h:?} vs {f}");
            assert!(keep(ShapeRef {
                body: h.body,
                shape: h.shape
            }));
        }
        (None, None) => {}
        (a, b) => panic!("cast {pose:?} {tr} mask {mask}: world {a:?} vs scan {b:?}"),
    }
}
