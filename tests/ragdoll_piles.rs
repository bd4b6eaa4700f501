//! Piles of ragdolls come to rest and sleep (issue 14), from many starts
//! (issue 15: a pile must not sleep by luck).
//!
//! The shipped `ragdolls` scene is one start. Its twelve ragdolls are also
//! dropped from 256 seeded variations of it: each column's origin and
//! the step from one ragdoll to the next are drawn from a `ChaCha8Rng`.
//! Judged by the solver's velocity, 4 of the first 16 slept within 20 s:
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

/// Steps the piles of seeds `0..starts` until each sleeps, at most `max`
/// steps, on all cores (each pile is its own world, so the result does not
/// depend on the threads): per seed, the step it slept at.
fn sleep_steps(starts: usize, max: usize) -> Vec<Option<usize>> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut out = vec![None; starts];
    std::thread::scope(|scope| {
        let runs: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let seeds = (t..starts).step_by(threads);
                    let run = |seed: usize| {
                        let mut w = pile(seed as u64).build().unwrap();
                        (seed, steps_to_sleep(&mut w, max, &format!("seed {seed}")))
                    };
                    seeds.map(run).collect::<Vec<_>>()
                })
            })
            .collect();
        for run in runs {
            for (seed, slept) in run.join().expect("a pile's thread panicked") {
                out[seed] = slept;
            }
        }
    });
    out
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "256 piles of 12 ragdolls for up to 40 s: run with cargo test --release"
)]
fn ragdoll_piles_from_many_starts_sleep() {
    // A rate, not a handful: about 88 % of starts sleep within 20 s and
    // 97 % within 40 s (904 and 993 of 1024 starts with the hinge limits'
    // angular slop; 224 and 247 of these 256). Over 256 starts one standard
    // deviation is about 5 piles at 20 s and 3 at 40 s, so the floors below
    // sit three of them under today's counts: a change that keeps the rate
    // passes, one that costs it several points (80 % at 20 s is 205 piles)
    // fails. (Earlier, 16 starts were judged at 20 s: 15 today, 14 before
    // the slop, 13 before the per-shape fat margins, 12 before the velocity
    // the position passes held back was removed, 4 when rest was judged by
    // the solver's velocity.) The piles
    // still awake hold limbs that the two position passes keep moving (see
    // docs/2026-11-27-velocity-held-back.md and
    // docs/2026-11-28-margins-and-contact-churn.md): all of them is the goal.
    let starts = 256;
    let steps = sleep_steps(starts, 2400);
    let within = |s: f32| {
        let n = (s * 60.0) as usize;
        steps.iter().filter(|k| k.is_some_and(|k| k <= n)).count()
    };
    let (at20, at40) = (within(20.0), within(40.0));
    let first16: Vec<String> = steps[..16]
        .iter()
        .map(|k| k.map_or("awake".to_string(), |k| format!("{:.1} s", k as f32 / 60.0)))
        .collect();
    println!(
        "ragdoll piles asleep within 20 s: {at20} of {starts}; within 40 s: {at40}; \
         seeds 0-15: {first16:?}"
    );
    assert!(at20 >= 208, "only {at20} of {starts} piles asleep at 20 s");
    assert!(at40 >= 238, "only {at40} of {starts} piles asleep at 40 s");
}
