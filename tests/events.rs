//! Contact events: begins and ends kept in a set always equal the touching
//! pairs recounted from the contacts, through piling, sleeping and removal;
//! a bouncing ball begins and ends once per bounce; off by default.

use minkowski::scene::Scene;
use minkowski::world::WorldEvent;
use minkowski::{BodyDef, BodyId, BodyKind, Shape, Vec2, World, WorldSettings};
use std::collections::BTreeSet;

type Key = (BodyId, u32, BodyId, u32);

fn apply(events: Vec<WorldEvent>, set: &mut BTreeSet<Key>) -> (usize, usize) {
    let (mut begins, mut ends) = (0, 0);
    for e in events {
        match e {
            WorldEvent::ContactBegin {
                body_a,
                shape_a,
                body_b,
                shape_b,
                ..
            } => {
                assert!(
                    set.insert((body_a, shape_a, body_b, shape_b)),
                    "began twice"
                );
                begins += 1;
            }
            WorldEvent::ContactEnd {
                body_a,
                shape_a,
                body_b,
                shape_b,
                ..
            } => {
                assert!(
                    set.remove(&(body_a, shape_a, body_b, shape_b)),
                    "ended unbegun"
                );
                ends += 1;
            }
            _ => {}
        }
    }
    (begins, ends)
}

fn recount(w: &World) -> BTreeSet<Key> {
    w.contacts()
        .map(|c| (c.body_a, c.shape_a, c.body_b, c.shape_b))
        .collect()
}

#[test]
fn events_match_a_recount_every_step() {
    let mut w = Scene::builtin("pit").unwrap().build().unwrap();
    w.set_contact_events(true);
    let mut set = BTreeSet::new();
    let (mut begins, mut ends) = (0, 0);
    let victims: Vec<BodyId> = w.bodies().map(|(id, _)| id).skip(100).step_by(50).collect();
    for k in 0..400 {
        if k % 40 == 39 {
            if let Some(&v) = victims.get(k / 40) {
                w.remove_body(v);
                let (b, e) = apply(w.take_events(), &mut set);
                begins += b;
                ends += e;
            }
        }
        w.step();
        let (b, e) = apply(w.take_events(), &mut set);
        begins += b;
        ends += e;
        assert_eq!(set, recount(&w), "step {k}");
    }
    println!("{begins} begins, {ends} ends, {} touching", set.len());
    assert!(begins > 1000 && ends > 100, "{begins} {ends}");
}

#[test]
fn a_bouncing_ball_begins_and_ends_once_per_bounce() {
    let mut w = World::new(WorldSettings::default());
    w.add_body(BodyDef::new(Shape::rect(5.0, 0.5), Vec2::new(0.0, -0.5)).kind(BodyKind::Static))
        .unwrap();
    w.add_body(BodyDef::new(Shape::circle(0.25), Vec2::new(0.0, 3.0)).restitution(0.7))
        .unwrap();
    w.set_contact_events(true);
    let mut set = BTreeSet::new();
    let mut log = Vec::new();
    for _ in 0..300 {
        w.step();
        for e in w.take_events() {
            match &e {
                WorldEvent::ContactBegin { .. } => log.push('b'),
                WorldEvent::ContactEnd { .. } => log.push('e'),
                _ => {}
            }
            apply(vec![e], &mut set);
        }
    }
    let log: String = log.into_iter().collect();
    println!("{log}");
    // Alternating, several bounces, resting at the end.
    assert!(log.starts_with("bebe"), "{log}");
    assert!(!log.contains("bb") && !log.contains("ee"), "{log}");
    assert!(log.ends_with('b'), "{log}");
    // Off by default.
    let mut quiet = Scene::builtin("bounce").unwrap().build().unwrap();
    for _ in 0..120 {
        quiet.step();
    }
    assert!(quiet.take_events().is_empty());
}

/// The impulses a step solved are the ones `contacts()` reports after it,
/// and a snapshot keeps them: a box set down on the ground, whose contact
/// begins this step, reports the weight's impulse over a substep (the
/// impulses are a substep's, as Box2D's are) at once, not the zero the
/// contact began with (the solver leaves them beside the contacts until
/// the next step's narrowphase stores them).
#[test]
fn a_steps_impulses_are_reported_after_it() {
    let mut w = World::new(WorldSettings::default());
    let h = w.settings().dt / w.settings().substeps as f32;
    w.add_body(BodyDef::new(Shape::rect(5.0, 0.5), Vec2::new(0.0, -0.5)).kind(BodyKind::Static))
        .unwrap();
    let b = w
        .add_body(BodyDef::new(Shape::rect(0.5, 0.5), Vec2::new(0.0, 0.5)))
        .unwrap();
    let weight = w.body(b).unwrap().mass() * 10.0;
    let reported = |w: &World| -> f32 {
        w.contacts()
            .flat_map(|c| c.manifold.points().to_vec())
            .map(|p| p.normal_impulse)
            .sum()
    };
    for step in 1..=3 {
        w.step();
        let impulse = reported(&w);
        println!(
            "step {step}: normal impulse {impulse} (weight x dt {})",
            weight * h
        );
        assert!(
            (impulse - weight * h).abs() < 0.05 * weight * h,
            "step {step}: reported {impulse}, the weight's impulse is {}",
            weight * h
        );
        let copy = World::from_snapshot(&w.snapshot()).unwrap();
        assert_eq!(
            reported(&copy).to_bits(),
            impulse.to_bits(),
            "step {step}: snapshot"
        );
    }
}
