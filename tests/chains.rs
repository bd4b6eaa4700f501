//! Segments and chains: ray casts against an analytic oracle, bodies sliding
//! across a chain's inner vertices as across one long segment, one-sided
//! collision, rest and sleep on a chain, and the scene syntax. Each test
//! prints the figure it measured.

use minkowski::dynamics::ShapeDef;
use minkowski::scene::Scene;
use minkowski::world::BodyError;
use minkowski::{BodyDef, BodyId, BodyKind, Iso, Shape, Vec2, World, WorldSettings};

/// A small deterministic generator (64-bit LCG, top bits), so the cases
/// are the same on every machine.
struct Lcg(u64);

impl Lcg {
    fn unit(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    fn range(&mut self, lo: f64, hi: f64) -> f32 {
        (lo + (hi - lo) * self.unit()) as f32
    }
}

/// The ray `o + t·d` against the segment `a`..`b` in f64: `(t, normal)`
/// with the normal facing the ray, or `None` (parallel, or missing).
fn oracle(a: [f64; 2], b: [f64; 2], o: [f64; 2], d: [f64; 2]) -> Option<(f64, [f64; 2], f64)> {
    let e = [b[0] - a[0], b[1] - a[1]];
    let den = d[0] * e[1] - d[1] * e[0];
    if den == 0.0 {
        return None;
    }
    let w = [a[0] - o[0], a[1] - o[1]];
    let t = (w[0] * e[1] - w[1] * e[0]) / den;
    let s = (w[0] * d[1] - w[1] * d[0]) / den;
    let len = (e[0] * e[0] + e[1] * e[1]).sqrt();
    let mut n = [e[1] / len, -e[0] / len];
    if n[0] * d[0] + n[1] * d[1] > 0.0 {
        n = [-n[0], -n[1]];
    }
    // How far inside the segment the crossing is (m): near 0 it may round
    // either way.
    let margin = (s.min(1.0 - s)) * len;
    (t >= 0.0 && (0.0..=1.0).contains(&s)).then_some((t, n, margin))
}

fn world_point(xf: &Iso, p: Vec2) -> [f64; 2] {
    let (c, s) = (xf.rot.cos as f64, xf.rot.sin as f64);
    let (x, y) = (p.x as f64, p.y as f64);
    [
        c * x - s * y + xf.translation.x as f64,
        s * x + c * y + xf.translation.y as f64,
    ]
}

#[test]
fn segment_ray_casts_match_the_analytic_oracle() {
    let mut rng = Lcg(0x5e9);
    let (mut worst_t, mut worst_p, mut worst_n) = (0.0f64, 0.0f64, 0.0f64);
    let (mut hits, mut checked) = (0, 0);
    for _ in 0..20_000 {
        let a = Vec2::new(rng.range(-5.0, 5.0), rng.range(-5.0, 5.0));
        let b = Vec2::new(rng.range(-5.0, 5.0), rng.range(-5.0, 5.0));
        if a.distance(b) < 0.1 {
            continue;
        }
        let xf = Iso::new(
            Vec2::new(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0)),
            rng.range(-3.2, 3.2),
        );
        let o = Vec2::new(rng.range(-8.0, 8.0), rng.range(-8.0, 8.0));
        let angle = rng.range(0.0, std::f64::consts::TAU);
        let d = Vec2::new(angle.cos(), angle.sin());
        let (wa, wb) = (world_point(&xf, a), world_point(&xf, b));
        let want = oracle(wa, wb, [o.x as f64, o.y as f64], [d.x as f64, d.y as f64]);
        let seg = Shape::segment(a, b);
        let got = seg.ray_cast(&xf, o, d, 100.0);
        match (want, got) {
            (Some((t, n, _)), Some(h)) => {
                hits += 1;
                // The hit point's distance from the true line is the
                // geometric error; `t` itself is ill-conditioned for grazing
                // rays (its error grows as 1/|d·n|), so it is compared only
                // where |d·n| ≥ 0.1.
                let off = (h.point.x as f64 - wa[0]) * n[0] + (h.point.y as f64 - wa[1]) * n[1];
                worst_p = worst_p.max(off.abs());
                let den = (n[0] * d.x as f64 + n[1] * d.y as f64).abs();
                if den >= 0.1 {
                    worst_t = worst_t.max((h.t as f64 - t).abs());
                }
                worst_n = worst_n.max((h.normal.x as f64 - n[0]).hypot(h.normal.y as f64 - n[1]));
                // A chain segment over the same edge: hit from the front
                // only, with the same answer.
                let chain = Shape::ChainSegment {
                    ghost1: a - (b - a),
                    a,
                    b,
                    ghost2: b + (b - a),
                };
                let front = minkowski::shape::right_normal(xf.apply(a), xf.apply(b));
                match chain.ray_cast(&xf, o, d, 100.0) {
                    Some(c) => {
                        assert!(front.dot(d) < 0.0);
                        assert_eq!((c.t, c.normal), (h.t, h.normal));
                    }
                    None => assert!(front.dot(d) >= 0.0),
                }
            }
            (None, None) => {}
            // A crossing within rounding of an end, or a grazing ray, may
            // round either way.
            (Some((_, _, margin)), None) => assert!(margin < 1e-4, "missed {margin}"),
            (None, Some(h)) => {
                let sa = minkowski::shape::right_normal(xf.apply(a), xf.apply(b));
                let near_end = h
                    .point
                    .distance(xf.apply(a))
                    .min(h.point.distance(xf.apply(b)));
                assert!(near_end < 1e-4 || sa.dot(d).abs() < 1e-5, "{h:?}");
            }
        }
        checked += 1;
    }
    println!(
        "{checked} rays, {hits} hits: worst distance of the hit from the segment {worst_p:.2e} m, \
         worst t error (|d·n| ≥ 0.1) {worst_t:.2e} m, worst normal error {worst_n:.2e}"
    );
    assert!(hits > 2000);
    assert!(worst_p < 1e-5 && worst_t < 1e-5 && worst_n < 1e-5);
}

#[test]
fn chain_ray_casts_are_one_sided() {
    // Terrain listed right to left: its front is up.
    let ground = Shape::chain(
        &[
            Vec2::new(4.0, 0.0),
            Vec2::new(0.0, 0.5),
            Vec2::new(-4.0, 0.0),
        ],
        false,
    )
    .unwrap();
    let xf = Iso::IDENTITY;
    let cast = |o: Vec2, d: Vec2| {
        ground
            .iter()
            .filter_map(|s| s.ray_cast(&xf, o, d, 50.0))
            .map(|h| h.t)
            .fold(f32::INFINITY, f32::min)
    };
    // From above, down: hits the ridge at y = 0.5 - 0.5·|x|/4.
    let t = cast(Vec2::new(2.0, 3.0), -Vec2::Y);
    assert!((t - 2.75).abs() < 1e-6, "{t}");
    // From below, up: passes through.
    assert_eq!(cast(Vec2::new(2.0, -3.0), Vec2::Y), f32::INFINITY);
    // A plain segment is hit from both sides.
    let seg = Shape::segment(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0));
    let up = seg
        .ray_cast(&xf, Vec2::new(0.5, -2.0), Vec2::Y, 5.0)
        .unwrap();
    let down = seg
        .ray_cast(&xf, Vec2::new(0.5, 2.0), -Vec2::Y, 5.0)
        .unwrap();
    assert_eq!(
        (up.t, up.normal, down.t, down.normal),
        (2.0, -Vec2::Y, 2.0, Vec2::Y)
    );
}

fn settings() -> WorldSettings {
    WorldSettings::default()
}

/// A static body of the given shapes at the origin.
fn ground(world: &mut World, shapes: Vec<Shape>, friction: f32) -> BodyId {
    let defs = shapes.into_iter().map(ShapeDef::new).collect::<Vec<_>>();
    let def = BodyDef::compound(defs, Vec2::ZERO)
        .kind(BodyKind::Static)
        .friction(friction);
    world.add_body(def).unwrap()
}

/// Flat terrain at y = 0 from x = 25 to -25: `n` points (a chain), or one
/// segment.
fn flat(n: usize) -> Vec<Shape> {
    if n == 0 {
        return vec![Shape::segment(Vec2::new(-25.0, 0.0), Vec2::new(25.0, 0.0))];
    }
    let points: Vec<Vec2> = (0..n)
        .map(|i| Vec2::new(25.0 - 50.0 * i as f32 / (n - 1) as f32, 0.0))
        .collect();
    Shape::chain(&points, false).unwrap()
}

/// Slides `shape` from x = -20 at 8 m/s across the ground for 4 s; returns
/// the x positions and velocities of every step.
fn slide(ground_shapes: Vec<Shape>, shape: Shape, rest_height: f32) -> Vec<(f32, Vec2, f32)> {
    let mut w = World::new(settings());
    ground(&mut w, ground_shapes, 0.1);
    let id = w
        .add_body(
            BodyDef::new(shape, Vec2::new(-20.0, rest_height))
                .velocity(Vec2::new(8.0, 0.0))
                .friction(0.1),
        )
        .unwrap();
    (0..240)
        .map(|_| {
            w.step();
            let b = w.body(id).unwrap();
            (b.position().x, b.linear_velocity(), b.angular_velocity())
        })
        .collect()
}

#[test]
fn a_box_and_a_ball_slide_across_fifty_vertices_as_across_one_segment() {
    for (name, shape, h) in [
        ("box", Shape::rect(0.5, 0.5), 0.5),
        ("ball", Shape::circle(0.5), 0.5),
    ] {
        let chain = slide(flat(50), shape.clone(), h);
        let single = slide(flat(0), shape, h);
        let crossed = (chain.last().unwrap().0 - chain[0].0) / (50.0 / 49.0);
        let mut worst_vy = 0.0f32;
        let mut worst_rise = 0.0f32;
        let mut worst_w = 0.0f32;
        let mut worst_drop = 0.0f32;
        // Friction 0.1 on a 10 m/s² slope-less ground takes 1/60 m/s a step
        // off a sliding box; a rolling ball keeps its speed.
        let friction_drop = 0.1 * 10.0 / 60.0;
        for k in 1..chain.len() {
            worst_vy = worst_vy.max(chain[k].1.y.abs());
            worst_rise = worst_rise.max(chain[k].1.x - chain[k - 1].1.x);
            worst_drop = worst_drop.max(chain[k - 1].1.x - chain[k].1.x);
            worst_w = worst_w.max(chain[k].2.abs());
        }
        let dx = (chain.last().unwrap().0 - single.last().unwrap().0).abs();
        let dv = (chain.last().unwrap().1 - single.last().unwrap().1).length();
        println!(
            "{name}: crossed {crossed:.0} vertices; worst |vy| {worst_vy:.2e} m/s, speed rise {worst_rise:.2e}, \
             speed drop {worst_drop:.2e} m/s per step (friction {friction_drop:.2e}); vs one segment: Δx {dx:.2e} m, Δv {dv:.2e} m/s"
        );
        assert!(crossed > 20.0);
        assert!(worst_vy < 0.01, "{name}: vertical speed {worst_vy}");
        assert!(worst_rise < 1e-3, "{name}: speed rose {worst_rise}");
        assert!(
            worst_drop < friction_drop * 1.05 + 1e-4,
            "{name}: snag, drop {worst_drop}"
        );
        assert!(dx < 0.01 && dv < 0.01, "{name}: Δx {dx}, Δv {dv}");
        if name == "box" {
            assert!(worst_w < 0.01, "box tipped: {worst_w}");
        }
    }
}

#[test]
fn a_ball_from_behind_passes_through_a_chain() {
    let mut w = World::new(WorldSettings {
        gravity: Vec2::ZERO,
        ..settings()
    });
    ground(&mut w, flat(50), 0.6);
    let id = w
        .add_body(
            BodyDef::new(Shape::circle(0.5), Vec2::new(0.3, -2.0)).velocity(Vec2::new(0.0, 6.0)),
        )
        .unwrap();
    for _ in 0..60 {
        w.step();
    }
    let b = w.body(id).unwrap();
    println!(
        "after 1 s: y {:.3} m, v {:?}",
        b.position().y,
        b.linear_velocity()
    );
    assert!(b.position().y > 3.0);
    assert!((b.linear_velocity() - Vec2::new(0.0, 6.0)).length() < 1e-3);
    // And from the front the same ball bounces off (stops: no restitution).
    let mut w = World::new(WorldSettings {
        gravity: Vec2::ZERO,
        ..settings()
    });
    ground(&mut w, flat(50), 0.6);
    let id = w
        .add_body(
            BodyDef::new(Shape::circle(0.5), Vec2::new(0.3, 2.0)).velocity(Vec2::new(0.0, -6.0)),
        )
        .unwrap();
    for _ in 0..60 {
        w.step();
    }
    let y = w.body(id).unwrap().position().y;
    assert!((y - 0.5).abs() < 0.02, "{y}");
}

/// A bumpy loop around the origin: radius `r + bump·sin(12θ)`, `n` points,
/// counter-clockwise (bodies outside) or clockwise (inside).
fn bumpy_loop(r: f32, bump: f32, n: usize, ccw: bool) -> (Vec<Shape>, impl Fn(Vec2) -> f32) {
    let radius = move |theta: f32| r + bump * (12.0 * theta).sin();
    let mut points: Vec<Vec2> = (0..n)
        .map(|i| {
            let t = i as f32 / n as f32 * std::f32::consts::TAU;
            Vec2::new(t.cos(), t.sin()) * radius(t)
        })
        .collect();
    if !ccw {
        points.reverse();
    }
    let shapes = Shape::chain(&points, true).unwrap();
    (shapes, move |p: Vec2| radius(p.y.atan2(p.x)))
}

#[test]
fn a_ball_rolling_on_a_bumpy_loop_stays_on_its_side() {
    for ccw in [true, false] {
        let (shapes, surface) = bumpy_loop(5.0, 0.1, 120, ccw);
        let mut w = World::new(settings());
        ground(&mut w, shapes, 0.6);
        let r = 0.3;
        // Outside: on top, rolling off sideways. Inside: at the bottom,
        // rolling up the wall and back.
        let (start, v) = if ccw {
            (Vec2::new(0.0, 5.1 + r + 0.05), Vec2::new(2.0, 0.0))
        } else {
            (Vec2::new(0.0, -4.9 + r + 0.05), Vec2::new(7.0, 0.0))
        };
        let id = w
            .add_body(BodyDef::new(Shape::circle(r), start).velocity(v))
            .unwrap();
        let mut worst = f32::INFINITY;
        for _ in 0..600 {
            w.step();
            let p = w.body(id).unwrap().position();
            // Signed clearance of the centre from the surface, on its side.
            let gap = if ccw {
                p.length() - surface(p)
            } else {
                surface(p) - p.length()
            };
            worst = worst.min(gap);
            if ccw && p.y < -10.0 {
                break; // fell off the side, outside
            }
        }
        let p = w.body(id).unwrap().position();
        println!("ccw {ccw}: least clearance of the centre {worst:.3} m (radius {r}), end {p:?}");
        assert!(worst > 0.0, "crossed the chain");
        if !ccw {
            assert!(p.length() < 5.0);
        }
    }
}

#[test]
fn bodies_dropped_on_a_chain_come_to_rest_and_sleep() {
    let mut w = World::new(settings());
    // A valley with bumps, listed right to left (front up).
    let points: Vec<Vec2> = (0..41)
        .map(|i| {
            let x = 10.0 - 0.5 * i as f32;
            Vec2::new(x, 0.04 * x * x + 0.1 * (3.0 * x).sin())
        })
        .collect();
    ground(&mut w, Shape::chain(&points, false).unwrap(), 0.6);
    let shapes = [
        Shape::rect(0.4, 0.3),
        Shape::circle(0.35),
        Shape::capsule(0.3, 0.2),
        Shape::ellipse(0.5, 0.3),
        Shape::rounded_rect(0.3, 0.2, 0.05),
    ];
    let ids: Vec<BodyId> = shapes
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let x = -6.0 + 3.0 * i as f32;
            w.add_body(BodyDef::new(s.clone(), Vec2::new(x, 0.04 * x * x + 2.0)))
                .unwrap()
        })
        .collect();
    let mut slept = None;
    for step in 0..900 {
        w.step();
        if slept.is_none() && ids.iter().all(|id| !w.body(*id).unwrap().is_awake()) {
            slept = Some(step);
        }
    }
    for id in &ids {
        let b = w.body(*id).unwrap();
        let x = b.position().x;
        // Above the terrain, not through it.
        assert!(b.position().y > 0.04 * x * x - 0.15, "{:?}", b.position());
    }
    println!("all {} bodies asleep after {:?} steps", ids.len(), slept);
    assert!(slept.is_some(), "still awake after 15 s");
}

#[test]
fn a_dynamic_body_needs_area_and_a_segment_part_adds_no_mass() {
    let mut w = World::new(settings());
    let seg = Shape::segment(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0));
    assert_eq!(
        w.add_body(BodyDef::new(seg.clone(), Vec2::ZERO)),
        Err(BodyError::NoArea)
    );
    assert!(w
        .add_body(BodyDef::new(seg.clone(), Vec2::ZERO).kind(BodyKind::Kinematic))
        .is_ok());
    let def = BodyDef::compound(
        vec![
            ShapeDef::new(Shape::rect(0.5, 0.5)),
            ShapeDef::new(seg).at(Vec2::new(0.0, 3.0), 0.0),
        ],
        Vec2::ZERO,
    );
    let id = w.add_body(def).unwrap();
    let b = w.body(id).unwrap();
    assert_eq!(b.mass(), 1.0);
    assert_eq!(b.center_of_mass(), Vec2::ZERO);
    assert!(b.inertia().is_finite() && (b.inertia() - 1.0 / 6.0).abs() < 1e-6);
}

#[test]
fn the_scene_syntax_loads_and_round_trips() {
    let text = r#"Scene(
  name: "chains",
  bodies: [
    (shape: Chain(points: [(10.0, 0.0), (0.0, 0.5), (-10.0, 0.0)]), kind: Static, pos: (0.0, 0.0)),
    (shape: Chain(points: [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0)], loop: true), kind: Static, pos: (0.0, 5.0)),
    (shape: Segment(a: (-2.0, 0.0), b: (2.0, 0.0)), kind: Kinematic, pos: (0.0, 8.0)),
    (shape: Rect(hx: 0.5, hy: 0.5), pos: (0.0, 3.0),
     shapes: [(shape: Segment(a: (-1.0, 0.6), b: (1.0, 0.6)))]),
  ],
)"#;
    let scene = Scene::from_ron_str(text, "inline").unwrap_or_else(|e| panic!("{e}"));
    let back = Scene::from_ron_str(&scene.to_ron_string(), "again").unwrap();
    assert_eq!(back, scene);
    let world = scene.build().unwrap();
    let counts: Vec<usize> = world.bodies().map(|(_, b)| b.colliders().len()).collect();
    assert_eq!(counts, vec![2, 3, 1, 2]);
    // A dynamic chain is refused, naming the field.
    let bad = text.replace("kind: Kinematic, ", "");
    let err = Scene::from_ron_str(&bad, "inline").unwrap_err().to_string();
    assert!(
        err.starts_with("inline: body 2, field `shape`: segments and chains have no area"),
        "{err}"
    );
}
