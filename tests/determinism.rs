//! Determinism: golden hashes for every shipped scene (the same file checked in
//! debug and in release, so debug == release), two runs are equal, and a world
//! restored from a mid-run snapshot continues with exactly the same hashes.
//!
//! What runs where (see `docs/scenes.md`, "Golden hashes"):
//!
//! * `cargo test --test determinism` (debug) checks every stored golden except
//!   the slow ones: `many_pyramids`, `washer`, `junkyard` and `spinner` only
//!   after 1 step, `rain`, `large_pyramid`, `tumbler`, `joint_grid`,
//!   `compounds` and `smash` after 1 and 60 steps (`MINKOWSKI_GOLDEN_FULL=1`
//!   checks all).
//! * `cargo test --release --test determinism` checks every golden (~45 s here).
//! * `MINKOWSKI_BLESS=1 cargo test --release --test determinism` recomputes every
//!   golden and rewrites `tests/golden_hashes.ron`.

use minkowski::scene::{Scene, BUILTIN_NAMES};
use minkowski::World;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Steps after which a golden hash is stored.
const GOLDEN_STEPS: [u64; 3] = [1, 60, 600];

const BLESS: &str = "MINKOWSKI_BLESS=1 cargo test --release --test determinism";

fn golden_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden_hashes.ron")
}

fn read_goldens() -> BTreeMap<String, Vec<(u64, u64)>> {
    let text = std::fs::read_to_string(golden_path()).unwrap_or_else(|e| {
        panic!(
            "cannot read {}: {e}; bless with `{BLESS}`",
            golden_path().display()
        )
    });
    ron::de::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", golden_path().display()))
}

fn env_on(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| !v.is_empty() && v != "0")
}

/// The golden steps checked for a scene in this profile.
fn steps_checked(name: &str) -> Vec<u64> {
    // Release checks every golden. Debug builds are ~20x slower, so the
    // heaviest scenes are checked at fewer steps there unless
    // MINKOWSKI_GOLDEN_FULL is set; debug == release still holds for every hash
    // both check.
    let full = env_on("MINKOWSKI_GOLDEN_FULL");
    let limit = match (cfg!(debug_assertions), name) {
        (true, "many_pyramids" | "washer" | "junkyard" | "spinner") if !full => 1,
        (true, "rain") if !full => 60,
        (true, "large_pyramid" | "tumbler" | "joint_grid" | "compounds" | "smash") if !full => 60,
        _ => u64::MAX,
    };
    GOLDEN_STEPS
        .iter()
        .copied()
        .filter(|&s| s <= limit)
        .collect()
}

/// Runs a shipped scene and returns the hash after each of `steps` (sorted).
/// On the way it checks that no body of a shipped scene blows up (is
/// frozen): `smash` once did, and its hashes hid it.
fn hashes_at(name: &str, steps: &[u64]) -> Vec<(u64, u64)> {
    let scene = Scene::builtin(name).unwrap_or_else(|| panic!("no shipped scene {name}"));
    let mut world = scene.build().unwrap_or_else(|e| panic!("{e}"));
    let mut out = Vec::new();
    for &s in steps {
        while world.step_index() < s {
            world.step();
        }
        let events = world.take_events();
        let frozen = events
            .iter()
            .find(|e| matches!(e, minkowski::world::WorldEvent::BodyFrozen { .. }));
        assert!(
            frozen.is_none(),
            "scene `{name}` froze a body by step {s}: {frozen:?}"
        );
        out.push((s, world.state_hash()));
    }
    out
}

fn check_golden(name: &str) {
    if env_on("MINKOWSKI_BLESS") {
        return; // `bless` rewrites the file instead.
    }
    let goldens = read_goldens();
    let stored = goldens
        .get(name)
        .unwrap_or_else(|| panic!("no golden hashes for scene `{name}`; bless with `{BLESS}`"));
    let steps = steps_checked(name);
    for (step, actual) in hashes_at(name, &steps) {
        let expected = stored
            .iter()
            .find(|(s, _)| *s == step)
            .unwrap_or_else(|| {
                panic!("no golden for `{name}` after {step} steps; bless with `{BLESS}`")
            })
            .1;
        assert_eq!(
            actual, expected,
            "scene `{name}` after {step} steps: hash {actual:#018x}, golden {expected:#018x}.\n\
             If the physics changed on purpose, re-bless with `{BLESS}`."
        );
    }
}

macro_rules! golden_tests {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                check_golden(stringify!($name));
            }
        )*
        /// Every shipped scene has a golden test above.
        #[test]
        fn every_shipped_scene_has_a_golden_test() {
            let mut tested = vec![$(stringify!($name)),*];
            let mut shipped = BUILTIN_NAMES.to_vec();
            tested.sort();
            shipped.sort();
            assert_eq!(tested, shipped);
        }
    };
}

mod golden {
    use super::check_golden;
    use minkowski::scene::BUILTIN_NAMES;
    golden_tests!(
        default,
        pyramid,
        large_pyramid,
        many_pyramids,
        stack,
        ramps,
        bounce,
        pit,
        shapes,
        tumbler,
        newtons_cradle,
        pendulum,
        chain,
        bridge,
        ragdolls,
        car,
        joint_grid,
        compounds,
        smash,
        washer,
        rain,
        junkyard,
        spinner,
    );
}

/// With `MINKOWSKI_BLESS=1`, recomputes every golden (all steps, all scenes, on
/// two threads) and rewrites `tests/golden_hashes.ron`.
#[test]
fn bless() {
    if !env_on("MINKOWSKI_BLESS") {
        return;
    }
    if cfg!(debug_assertions) {
        panic!("bless in release (many_pyramids takes hours in debug): `{BLESS}`");
    }
    let mut names: Vec<&str> = BUILTIN_NAMES.to_vec();
    // Heaviest first, so the two threads finish together.
    names.sort_by_key(|n| std::cmp::Reverse(Scene::builtin(n).map_or(0, |s| s.body_count())));
    let chunks: [Vec<&str>; 2] = [
        names.iter().step_by(2).copied().collect(),
        names.iter().skip(1).step_by(2).copied().collect(),
    ];
    let results: Vec<(String, Vec<(u64, u64)>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = chunks
            .iter()
            .map(|chunk| {
                scope.spawn(move || {
                    chunk
                        .iter()
                        .map(|n| (n.to_string(), hashes_at(n, &GOLDEN_STEPS)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("bless thread panicked"))
            .collect()
    });
    let sorted: BTreeMap<String, Vec<(u64, u64)>> = results.into_iter().collect();
    let mut text = String::from(
        "// Golden state hashes (World::state_hash) of every shipped scene after 1, 60\n\
         // and 600 steps. Generated; do not edit. Re-bless after an intended physics change:\n\
         //     MINKOWSKI_BLESS=1 cargo test --release --test determinism\n{\n",
    );
    for (name, hashes) in &sorted {
        let list: Vec<String> = hashes
            .iter()
            .map(|(s, h)| format!("({s}, {h:#018x})"))
            .collect();
        text.push_str(&format!("    \"{name}\": [{}],\n", list.join(", ")));
    }
    text.push_str("}\n");
    std::fs::write(golden_path(), text).expect("cannot write the golden file");
    eprintln!(
        "blessed {} scenes into {}",
        sorted.len(),
        golden_path().display()
    );
}

fn run_hashes(scene: &Scene, steps: u64) -> Vec<u64> {
    let mut world = scene.build().expect("scene builds");
    (0..steps)
        .map(|_| {
            world.step();
            world.state_hash()
        })
        .collect()
}

#[test]
fn two_runs_are_equal() {
    for name in ["default", "newtons_cradle", "shapes"] {
        let scene = Scene::builtin(name).expect("shipped");
        assert_eq!(run_hashes(&scene, 150), run_hashes(&scene, 150), "{name}");
    }
}

#[test]
fn rebuilding_a_scene_gives_the_same_world() {
    let scene = Scene::builtin("pit").expect("shipped");
    assert_eq!(
        scene.build().expect("builds").state_hash(),
        scene.build().expect("builds").state_hash()
    );
}

fn snapshot(world: &World) -> World {
    World::from_snapshot(&world.snapshot()).expect("a snapshot restores")
}

/// Snapshot at `at` steps, then run both worlds on and compare every hash.
fn check_snapshot(name: &str, at: u64, after: u64, setup: impl Fn(&mut World)) {
    check_copy(name, at, after, setup, snapshot);
}

/// `copy` of the world at `at` steps, then both worlds run on, every hash
/// compared.
fn check_copy(
    name: &str,
    at: u64,
    after: u64,
    setup: impl Fn(&mut World),
    copy: impl Fn(&World) -> World,
) {
    let scene = Scene::builtin(name).expect("shipped");
    let mut world = scene.build().expect("builds");
    setup(&mut world);
    for _ in 0..at {
        world.step();
    }
    let mut restored = copy(&world);
    assert_eq!(
        restored.state_hash(),
        world.state_hash(),
        "{name}: hash right after restoring"
    );
    assert_eq!(restored.step_index(), world.step_index());
    for i in 0..after {
        world.step();
        restored.step();
        assert_eq!(
            restored.state_hash(),
            world.state_hash(),
            "{name}: restored world diverged {} steps after the snapshot",
            i + 1
        );
    }
}

#[test]
fn snapshot_restore_continues_bit_identically() {
    // Mid-fall, many new contacts: the warm-start cache matters.
    check_snapshot("default", 100, 60, |_| {});
    // Settled and partly asleep (sleep timers, islands).
    check_snapshot("stack", 150, 60, |_| {});
    // Everything of every shape kind, piling up.
    check_snapshot("pit", 140, 40, |_| {});
}

/// A clone (the sandbox's rewind keeps clones) starts with empty step
/// buffers, as a restored snapshot does, and continues bit for bit.
#[test]
fn a_clone_continues_bit_identically() {
    for (name, at) in [
        ("default", 100),
        ("pit", 140),
        ("ragdolls", 120),
        ("car", 60),
    ] {
        check_copy(name, at, 60, |_| {}, World::clone);
    }
}

#[test]
fn snapshot_restore_with_joints() {
    // Joints carry their warm-start impulses through a snapshot.
    check_snapshot("ragdolls", 120, 60, |_| {});
    check_snapshot("chain", 90, 60, |_| {});
    check_snapshot("car", 60, 60, |_| {});
    // A joint added and a breakable one broken after the snapshot.
    check_snapshot("pendulum", 30, 90, |w| {
        use minkowski::dynamics::joint::{Distance, JointKind};
        let ids: Vec<_> = w.bodies().map(|(id, _)| id).collect();
        let bob = ids[1];
        let at = w.body(bob).unwrap().position();
        let def = w
            .joint_def(
                None,
                bob,
                at + minkowski::Vec2::new(1.0, 1.0),
                at,
                JointKind::Distance(Distance::rope(1.2)),
            )
            .unwrap()
            .break_force(0.4);
        w.add_joint(def).unwrap();
    });
}

#[test]
fn snapshot_with_an_active_drag() {
    check_snapshot("bounce", 30, 60, |w| {
        let id = w
            .body_at(minkowski::Vec2::new(0.0, 8.0))
            .expect("a ball there");
        w.drag_start(id, minkowski::Vec2::new(0.0, 8.0))
            .expect("drag");
        w.drag_move(minkowski::Vec2::new(3.0, 10.0));
    });
}
