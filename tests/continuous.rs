//! Fast bodies: continuous collision keeps them out of thin walls, and an
//! ordinary collision, however violent, never freezes a body or makes one
//! faster than it came. The volleys: 3 cm circles, 8 × 2 cm boxes,
//! capsules, 10 × 2 cm ellipses and triangles fired at 300–3 000 m/s,
//! spinning, at a 1 cm static wall, one at a time and 60 at once; and 100
//! small boxes at 9 000 m/s in a closed room.

use minkowski::world::WorldEvent;
use minkowski::{BodyDef, BodyId, BodyKind, Shape, Vec2, World, WorldSettings};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const KINDS: [&str; 5] = ["circle", "box", "capsule", "ellipse", "triangle"];

fn projectile(kind: &str) -> Shape {
    match kind {
        "circle" => Shape::circle(0.015),
        "box" => Shape::rect(0.04, 0.01),
        "capsule" => Shape::capsule(0.03, 0.01),
        "ellipse" => Shape::ellipse(0.05, 0.01),
        _ => Shape::polygon(&[
            Vec2::new(-0.03, -0.02),
            Vec2::new(0.03, -0.02),
            Vec2::new(0.0, 0.03),
        ])
        .unwrap(),
    }
}

fn world(continuous: bool) -> World {
    World::new(WorldSettings {
        gravity: Vec2::ZERO,
        continuous,
        ..WorldSettings::default()
    })
}

/// A static wall 1 cm thick whose left face is at x = 0; 2 km tall, so that
/// a body sliding along it after the impact cannot go round its end.
fn wall(w: &mut World) {
    w.add_body(
        BodyDef::new(Shape::rect(0.005, 1000.0), Vec2::new(0.005, 0.0)).kind(BodyKind::Static),
    )
    .unwrap();
}

/// A body fired at the wall from its left: 300–3 000 m/s, within 0.2 rad
/// of +x, spinning up to 200 rad/s either way.
fn fire(w: &mut World, rng: &mut ChaCha8Rng, kind: &str) -> (BodyId, f32) {
    let p = Vec2::new(rng.random_range(-2.0..-0.3), rng.random_range(-1.2..1.2));
    let speed = 300.0 * 10f32.powf(rng.random_range(0.0..1.0));
    let heading: f32 = rng.random_range(-0.2..0.2);
    let v = Vec2::new(heading.cos(), heading.sin()) * speed;
    let def = BodyDef::new(projectile(kind), p)
        .angle(rng.random_range(0.0..std::f32::consts::TAU))
        .velocity(v)
        .angular_velocity(rng.random_range(-200.0..200.0));
    (w.add_body(def).unwrap(), speed)
}

#[derive(Default, Debug)]
struct Tally {
    crossed: usize,
    frozen: usize,
    /// Largest ratio of a body's speed, at any step, to the speed it was
    /// fired with.
    speed_ratio: f32,
}

/// Steps `w` for `steps` steps and tallies the bodies in `shots` that end
/// right of the wall's left face, that froze, and their speed-up.
fn run(w: &mut World, shots: &[(BodyId, f32)], steps: usize, cap: Option<f32>) -> Tally {
    let mut t = Tally::default();
    for _ in 0..steps {
        w.step();
        for &(id, launch) in shots {
            let b = w.body(id).unwrap();
            let bound = cap.unwrap_or(launch);
            t.speed_ratio = t.speed_ratio.max(b.linear_velocity().length() / bound);
        }
    }
    for &(id, _) in shots {
        let b = w.body(id).unwrap();
        if b.is_frozen() {
            t.frozen += 1;
        } else if b.center_of_mass().x > 0.0 {
            assert!(b.center_of_mass().y.abs() < 1000.0, "went round the wall");
            t.crossed += 1;
        }
    }
    t
}

#[test]
fn single_fast_shots_never_cross_a_thin_wall_nor_freeze() {
    let mut crossed_without = 0;
    for kind in KINDS {
        let mut tally = Tally::default();
        for shot in 0..60u64 {
            let seed = shot * 31 + kind.len() as u64;
            let mut on = world(true);
            wall(&mut on);
            let s = fire(&mut on, &mut ChaCha8Rng::seed_from_u64(seed), kind);
            let t = run(&mut on, &[s], 20, None);
            tally.crossed += t.crossed;
            tally.frozen += t.frozen;
            tally.speed_ratio = tally.speed_ratio.max(t.speed_ratio);

            let mut off = world(false);
            wall(&mut off);
            let s = fire(&mut off, &mut ChaCha8Rng::seed_from_u64(seed), kind);
            crossed_without += run(&mut off, &[s], 20, None).crossed;
        }
        println!("{kind}: {tally:?}");
        assert_eq!((tally.crossed, tally.frozen), (0, 0), "{kind}: {tally:?}");
        assert!(tally.speed_ratio <= 1.0 + 1e-4, "{kind}: {tally:?}");
    }
    println!("without the continuous stage: {crossed_without} of 300 crossed");
    // The stage is what stops them: without it some pass through.
    assert!(crossed_without > 0);
}

#[test]
fn volleys_of_sixty_never_cross_freeze_or_gain_energy() {
    for seed in 0..5u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(1000 + seed);
        let mut w = world(true);
        wall(&mut w);
        let shots: Vec<_> = (0..60)
            .map(|i| fire(&mut w, &mut rng, KINDS[i % KINDS.len()]))
            .collect();
        let fastest = shots.iter().map(|s| s.1).fold(0.0, f32::max);
        let energy = |w: &World| -> f64 {
            w.bodies()
                .map(|(_, b)| b.kinetic_energy() as f64)
                .sum::<f64>()
        };
        let mut last = energy(&w);
        let mut t = Tally::default();
        for _ in 0..30 {
            let part = run(&mut w, &shots, 1, Some(fastest));
            t.speed_ratio = t.speed_ratio.max(part.speed_ratio);
            let e = energy(&w);
            assert!(
                e <= last * (1.0 + 1e-4),
                "seed {seed}: energy {last} -> {e}"
            );
            last = e;
        }
        let end = run(&mut w, &shots, 0, None);
        println!(
            "volley {seed}: crossed {}, frozen {}, fastest/launch max {:.3}",
            end.crossed, end.frozen, t.speed_ratio
        );
        assert_eq!((end.crossed, end.frozen), (0, 0), "seed {seed}");
        // Bodies strike each other too: none leaves faster than the
        // fastest that was fired.
        assert!(t.speed_ratio <= 1.0 + 1e-4, "seed {seed}: {t:?}");
    }
}

#[test]
fn a_hundred_boxes_at_9000_m_per_s_stay_in_a_closed_room() {
    let mut w = world(true);
    // A 4 × 4 m room with walls 10 cm thick.
    for (c, h) in [
        (Vec2::new(0.0, -2.05), Vec2::new(2.1, 0.05)),
        (Vec2::new(0.0, 2.05), Vec2::new(2.1, 0.05)),
        (Vec2::new(-2.05, 0.0), Vec2::new(0.05, 2.1)),
        (Vec2::new(2.05, 0.0), Vec2::new(0.05, 2.1)),
    ] {
        w.add_body(BodyDef::new(Shape::rect(h.x, h.y), c).kind(BodyKind::Static))
            .unwrap();
    }
    let mut rng = ChaCha8Rng::seed_from_u64(9000);
    let boxes: Vec<BodyId> = (0..100)
        .map(|i| {
            let p = Vec2::new(-1.8 + 0.36 * (i % 10) as f32, -1.8 + 0.36 * (i / 10) as f32);
            let a: f32 = rng.random_range(0.0..std::f32::consts::TAU);
            let def = BodyDef::new(Shape::rect(0.05, 0.05), p)
                .angle(rng.random_range(0.0..std::f32::consts::TAU))
                .velocity(Vec2::new(a.cos(), a.sin()) * 9000.0)
                .angular_velocity(rng.random_range(-50.0..50.0));
            w.add_body(def).unwrap()
        })
        .collect();
    let energy = |w: &World| -> f64 {
        w.bodies()
            .map(|(_, b)| b.kinetic_energy() as f64)
            .sum::<f64>()
    };
    let start = energy(&w);
    let mut fastest = 0.0f32;
    let mut frozen = 0;
    for step in 0..120 {
        w.step();
        // Pushing apart boxes that end up pressed into one another adds a
        // little energy at rest; an impact must never add any.
        let e = energy(&w);
        assert!(
            e <= start * (1.0 + 1e-4),
            "step {step}: energy {start} -> {e}"
        );
        for &id in &boxes {
            fastest = fastest.max(w.body(id).unwrap().linear_velocity().length());
        }
        for e in w.take_events() {
            if matches!(e, WorldEvent::BodyFrozen { .. }) {
                println!("step {step}: {e:?}");
                frozen += 1;
            }
        }
    }
    let outside = boxes
        .iter()
        .filter(|&&id| {
            let p = w.body(id).unwrap().center_of_mass();
            p.x.abs() > 2.0 || p.y.abs() > 2.0
        })
        .count();
    println!("room: {outside} outside, {frozen} frozen, fastest {fastest:.0} m/s");
    assert_eq!((outside, frozen), (0, 0));
    assert!(fastest <= 9000.0 * (1.0 + 1e-4));
}

/// A 2 cm disc at 1 000 m/s against a free 1 cm plank 2 m away: without
/// the bullet flag it passes through in one step and the plank never moves;
/// a bullet is swept against dynamic bodies too, stops at the plank's face
/// and strikes it.
#[test]
fn a_bullet_does_not_pass_through_a_thin_dynamic_plank() {
    for bullet in [false, true] {
        let mut w = world(true);
        let plank = w
            .add_body(BodyDef::new(Shape::rect(0.005, 0.5), Vec2::new(1.0, 0.0)))
            .unwrap();
        let disc = w
            .add_body(
                BodyDef::new(Shape::circle(0.01), Vec2::new(-1.0, 0.1))
                    .velocity(Vec2::new(1000.0, 0.0))
                    .density(5.0)
                    .bullet(bullet),
            )
            .unwrap();
        w.step();
        let (d, p) = (w.body(disc).unwrap(), w.body(plank).unwrap());
        let gap = p.center_of_mass().x - 0.005 - (d.center_of_mass().x + 0.01);
        println!("bullet {bullet}: gap to the plank's face after the step {gap:.4} m");
        if bullet {
            // At the face, within the speculative margin.
            assert!((0.0..0.01).contains(&gap), "{gap}");
        } else {
            assert!(gap < -1.0, "{gap}");
        }
        w.step();
        let (d, p) = (w.body(disc).unwrap(), w.body(plank).unwrap());
        assert!(!d.is_frozen() && !p.is_frozen());
        let struck = p.linear_velocity().x;
        println!("bullet {bullet}: plank {struck:.2} m/s");
        assert_eq!(struck > 100.0, bullet, "{struck}");
    }
}

/// A long thin plank sunk into the ground past its core, turning fast: the
/// continuous stage once held such a body where it started every step (its
/// core "already at the surface"), so the solver could never push it out
/// and it kept its island awake for good. A step that takes the core out of
/// the ground must be let through.
#[test]
fn a_buried_body_turning_fast_is_not_held_in_the_ground() {
    let mut w = World::new(WorldSettings::default());
    w.add_body(BodyDef::new(Shape::rect(10.0, 0.5), Vec2::new(0.0, -0.5)).kind(BodyKind::Static))
        .unwrap();
    let plank = w
        .add_body(BodyDef::new(Shape::rect(1.0, 0.05), Vec2::new(0.0, -0.01)).angular_velocity(3.0))
        .unwrap();
    let start = w.body(plank).unwrap().center_of_mass();
    let mut asleep = None;
    for step in 1..=600 {
        w.step();
        if !w.body(plank).unwrap().is_awake() {
            asleep = Some(step);
            break;
        }
    }
    let b = w.body(plank).unwrap();
    let (c, angle) = (b.center_of_mass(), b.angle());
    println!(
        "buried plank: from {start:?} to {c:?}, angle {angle:.3}, asleep after {asleep:?} steps"
    );
    assert!(!b.is_frozen());
    // Resting on its face: the centre half the plank's thickness up.
    assert!(
        (c.y - 0.05).abs() < 0.005,
        "not resting on the ground: {c:?}"
    );
    assert!(asleep.is_some(), "still awake after 10 s");
}

/// Kinetic energy of all bodies (J).
fn kinetic_energy(w: &World) -> f64 {
    w.bodies()
        .map(|(_, b)| {
            let v = b.linear_velocity();
            let m = f64::from(b.mass());
            0.5 * m * f64::from(v.length_squared())
                + 0.5 * f64::from(b.inertia()) * f64::from(b.angular_velocity()).powi(2)
        })
        .sum()
}

/// Steps `w` `steps` times; returns the most kinetic energy seen and the
/// number of bodies frozen.
fn most_energy(w: &mut World, steps: usize) -> (f64, usize) {
    let mut most: f64 = 0.0;
    for _ in 0..steps {
        w.step();
        most = most.max(kinetic_energy(w));
    }
    let frozen = w
        .take_events()
        .iter()
        .filter(|e| matches!(e, WorldEvent::BodyFrozen { .. }))
        .count();
    (most, frozen)
}

/// Box2D's `smash` at small scale: a 512 kg box at 40 m/s into sleeping
/// 0.16 kg boxes, in zero gravity. A sleeping body is static to the solver,
/// so it must be woken before a body arrives at it: the box used to stop
/// dead against the first column, and the impulse that stopped it was then
/// warm-started onto the woken boxes (5 000 m/s, bodies frozen at 10⁵ m/s,
/// 11 000 times the energy that came in).
#[test]
fn an_impact_on_sleeping_bodies_makes_no_energy() {
    for (columns, rows) in [(1, 1), (1, 20), (20, 20)] {
        let mut w = World::new(WorldSettings {
            gravity: Vec2::ZERO,
            ..WorldSettings::default()
        });
        let projectile = BodyDef::new(Shape::rect(4.0, 4.0), Vec2::new(20.0, 0.0))
            .density(8.0)
            .velocity(Vec2::new(40.0, 0.0));
        w.add_body(projectile).unwrap();
        for i in 0..columns {
            for j in 0..rows {
                let at = Vec2::new(30.0 + 0.4 * i as f32, 0.4 * (j as f32 - rows as f32 / 2.0));
                w.add_body(BodyDef::new(Shape::rect(0.2, 0.2), at).awake(false))
                    .unwrap();
            }
        }
        let before = kinetic_energy(&w);
        let (most, frozen) = most_energy(&mut w, 120);
        println!("{columns} x {rows} sleeping boxes: energy at most {:.6} of what came in, {frozen} frozen", most / before);
        assert_eq!(frozen, 0, "{columns} x {rows}: bodies frozen");
        assert!(
            most <= before * (1.0 + 1e-4),
            "{columns} x {rows}: energy grew to {most} J from {before} J"
        );
    }
    // The shipped scene, through the impact.
    let mut w = minkowski::scene::Scene::builtin("smash")
        .unwrap()
        .build()
        .unwrap();
    let before = kinetic_energy(&w);
    let p0 = w.linear_momentum();
    let (most, frozen) = most_energy(&mut w, 150);
    // Nothing outside acts on it: the momentum stays (it once fell by 87 %
    // in these 150 steps, and by 0.08 % while a sleeping box was woken only
    // by gaps the start of the step could close).
    let drift = (w.linear_momentum() - p0).length() / p0.length();
    println!(
        "smash: energy at most {:.6} of what came in, {frozen} frozen, momentum drift {drift:.1e}",
        most / before
    );
    assert!(drift < 1e-5, "smash: momentum drift {drift}");
    assert_eq!(frozen, 0, "smash: bodies frozen");
    assert!(
        most <= before * (1.0 + 1e-4),
        "smash: energy grew to {most} J from {before} J"
    );
}

/// A snapshot taken before bodies kept their thinnest part (continuous
/// collision's test of a fast body) restores to a world that steps bit for
/// bit as the original: the part is then worked out when asked.
#[test]
fn a_snapshot_without_the_thinnest_part_steps_the_same() {
    let mut w = world(true);
    wall(&mut w);
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for kind in KINDS {
        fire(&mut w, &mut rng, kind);
    }
    for _ in 0..3 {
        w.step();
    }
    let text = w.snapshot();
    let fields = text.matches(",thin:").count();
    assert_eq!(fields, 6, "one per body");
    let mut old = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(at) = rest.find(",thin:") {
        old.push_str(&rest[..at]);
        let tail = &rest[at + 6..];
        let end = tail.find([',', ')']).expect("a value, then more");
        rest = &tail[end..];
    }
    old.push_str(rest);
    assert!(!old.contains("thin:"));
    let mut restored = World::from_snapshot(&old).expect("an older snapshot restores");
    for ((_, a), (_, b)) in w.bodies().zip(restored.bodies()) {
        assert_eq!(a.thinnest().to_bits(), b.thinnest().to_bits());
    }
    for i in 0..60 {
        w.step();
        restored.step();
        assert_eq!(
            restored.state_hash(),
            w.state_hash(),
            "step {i} after restoring"
        );
    }
}
