//! Piles of ragdolls come to rest and sleep (issue 14), from many starts
//! (issue 15: a pile must not sleep by luck).
//!
//! The shipped `ragdolls` scene is one start. Its twelve ragdolls are also
//! dropped from sixteen seeded variations of it: each column's origin and
//! the step from one ragdoll to the next are drawn from a `ChaCha8Rng`.
//! Judged by the solver's velocity, 4 of these 16 piles slept within 20 s:
//! ragdolls wedge into jams where a limb keeps a velocity that each
//! substep's position passes undo, so it never moves and never rests. Rest
//! is now judged by the motion bodies really make (see
//! `World::update_sleep`).

use minkowski::scene::Scene;
use minkowski::{BodyKind, World};
use rand::{RngExt, SeedableRng};

/// The `ragdolls` scene with its two columns of six moved and spread by
/// the seed.
fn pile(seed: u64) -> Scene {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let left = -1.5 + rng.random_range(0.0f32..0.6);
    let right = 1.8 - rng.random_range(0.0f32..0.6);
    let left_step = rng.random_range(0.3f32..0.8);
    let right_step = -rng.random_range(0.3f32..0.8);
    let text = format!(
        "Scene(name: \"ragdoll pile {seed}\", bodies: [
            (shape: Rect(hx: 4.0, hy: 0.5), kind: Static, pos: (0.0, -0.5)),
            (shape: Rect(hx: 0.5, hy: 5.0), kind: Static, pos: (-4.5, 4.5)),
            (shape: Rect(hx: 0.5, hy: 5.0), kind: Static, pos: (4.5, 4.5)),
        ], generators: [
            Ragdoll(origin: ({left}, 0.5), count: 6, spacing: ({left_step}, 2.1)),
            Ragdoll(origin: ({right}, 1.5), count: 6, spacing: ({right_step}, 2.1)),
        ])"
    );
    Scene::from_ron_str(&text, "ragdoll pile").unwrap()
}

/// Steps until every body sleeps, at most `max` steps: the step it slept
/// at. Then checks that every dynamic body is finite and in the pit.
fn steps_to_sleep(w: &mut World, max: usize, what: &str) -> Option<usize> {
    let mut slept = None;
    for k in 0..max {
        w.step();
        if w.awake_count() == 0 {
            slept = Some(k + 1);
            break;
        }
    }
    for (_, b) in w.bodies().filter(|(_, b)| b.kind() == BodyKind::Dynamic) {
        let p = b.position();
        assert!(!b.is_frozen() && p.is_finite(), "{what}: a body at {p}");
        assert!(
            p.y > -0.2 && p.x.abs() < 4.0,
            "{what}: out of the pit at {p}"
        );
    }
    slept
}

#[test]
fn the_shipped_pile_of_ragdolls_sleeps() {
    let mut w = Scene::builtin("ragdolls").unwrap().build().unwrap();
    assert_eq!(w.joint_count(), 108);
    // With Box2D's per-shape fat margins this pile lands differently and
    // its limbs creep at 2-4 cm/s for a while; it slept at 25.4 s until a
    // steady creep stopped restarting rest (15.0 s now).
    let steps =
        steps_to_sleep(&mut w, 1200, "ragdolls").expect("the pile is still awake after 20 s");
    println!("ragdolls asleep after {:.1} s", steps as f32 / 60.0);
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "16 piles of 12 ragdolls for up to 20 s: run with cargo test --release"
)]
fn ragdoll_piles_from_many_starts_sleep() {
    let mut asleep = 0;
    let mut times = Vec::new();
    for seed in 0..16u64 {
        let mut w = pile(seed).build().unwrap();
        let slept = steps_to_sleep(&mut w, 1200, &format!("seed {seed}"));
        asleep += slept.is_some() as u32;
        times.push(slept.map_or("awake".to_string(), |k| format!("{:.1} s", k as f32 / 60.0)));
    }
    println!("ragdoll piles asleep within 20 s: {asleep} of 16: {times:?}");
    // 15 of 16 today, a sample: about 88 % of starts sleep within 20 s
    // (904 of 1024 with the hinge limits' angular slop; 870 before it,
    // with rolling resistance on two-point contacts; 884 before that, 14 of
    // these 16 then). Earlier: 13 before the per-shape fat
    // margins, 12 before the velocity the position passes held back was
    // removed, 4 when rest was judged by the solver's velocity. The piles still awake
    // hold limbs that the two position passes keep moving (see
    // docs/2026-11-27-velocity-held-back.md and
    // docs/2026-11-28-margins-and-contact-churn.md): all 16 is the goal.
    assert!(
        asleep >= 14,
        "only {asleep} of 16 piles asleep at 20 s: {times:?}"
    );
}
