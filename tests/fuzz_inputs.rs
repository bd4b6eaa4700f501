//! Fuzzing, with proptest: byte-level mutants of every shipped scene and of
//! recorded replays go through the parsers (and, when they parse, the world
//! is built and stepped), and hostile shape pairs go through the narrowphase.
//! Nothing may panic, and the narrowphase's answers must be finite.
//!
//! A failure is shrunk by proptest and saved to
//! `tests/fuzz_inputs.proptest-regressions` (the crash corpus, committed),
//! which every later run tries first. `MINKOWSKI_FUZZ_CASES` sets the cases
//! per target: 2,000 by default (release; 200 in debug builds), 100,000 for
//! a long run: `MINKOWSKI_FUZZ_CASES=100000 cargo test --release --test
//! fuzz_inputs -- --nocapture`.

use minkowski::replay::{InputEvent, JointTool, Recorder, Recording, Replayer};
use minkowski::scene::{BodySpec, Scene, ShapeSpec};
use minkowski::{epa, gjk, narrowphase, Iso, Shape, Vec2};
use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence, TestRunner};
use std::cell::Cell;
use std::path::PathBuf;
use std::sync::OnceLock;

const CORPUS: &str = "tests/fuzz_inputs.proptest-regressions";

fn cases() -> u32 {
    std::env::var("MINKOWSKI_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) { 200 } else { 2_000 })
}

fn runner() -> TestRunner {
    TestRunner::new(Config {
        cases: cases(),
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(CORPUS))),
        max_shrink_iters: 2_000,
        ..Config::default()
    })
}

/// The shipped scenes' texts.
fn scene_seeds() -> &'static Vec<Vec<u8>> {
    static SEEDS: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    SEEDS.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenes");
        let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "ron"))
            .collect();
        paths.sort();
        paths.iter().map(|p| std::fs::read(p).unwrap()).collect()
    })
}

/// Recordings made here with every kind of input, as saved files.
fn replay_seeds() -> &'static Vec<Vec<u8>> {
    static SEEDS: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    SEEDS.get_or_init(|| {
        let inputs = [
            InputEvent::Spawn(BodySpec::new(
                ShapeSpec::Circle { r: 0.4 },
                Vec2::new(1.0, 6.0),
            )),
            InputEvent::DragStart {
                at: Vec2::new(0.0, 1.0),
            },
            InputEvent::DragMove {
                target: Vec2::new(2.0, 3.0),
            },
            InputEvent::DragEnd,
            InputEvent::Joint {
                tool: JointTool::Rope,
                a: Vec2::new(0.0, 8.0),
                b: Vec2::new(1.0, 6.0),
            },
            InputEvent::Explode {
                at: Vec2::new(0.0, 0.5),
                radius: 2.0,
                impulse: 10.0,
            },
            InputEvent::Delete {
                at: Vec2::new(-4.0, 0.5),
            },
        ];
        ["bounce", "chain", "pyramid"]
            .iter()
            .map(|name| {
                let scene = Scene::builtin(name).unwrap();
                let mut world = scene.build().unwrap();
                let mut rec = Recorder::new(scene);
                for step in 0..70u64 {
                    if let Some(ev) = inputs.get(step as usize / 8).filter(|_| step % 8 == 0) {
                        minkowski::replay::apply_input(&mut world, ev);
                        rec.record(step, ev.clone());
                    }
                    world.step();
                    rec.after_step(&world);
                }
                rec.finish().to_ron_string().into_bytes()
            })
            .collect()
    })
}

/// One edit of a byte string; positions are taken modulo its length.
#[derive(Clone, Debug)]
enum Mutation {
    Flip(u32, u8),
    Insert(u32, u8),
    Delete(u32, u8),
    Duplicate(u32, u8),
    Splice(u32, u32, u16),
    Token(u32, u8),
    Truncate(u32),
}

/// Text that has broken parsers elsewhere: extreme numbers, deep nesting.
const TOKENS: [&str; 14] = [
    "1e39",
    "-0",
    "NaN",
    "inf",
    "-inf",
    "99999999999999999999",
    "1e-45",
    "1e300",
    "0x",
    "((((((((((((((((",
    "[[[[[[[[[[[[[[[[",
    "\"",
    "//",
    "/*",
];

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<u32>(), any::<u8>()).prop_map(|(p, b)| Mutation::Flip(p, b)),
        (any::<u32>(), any::<u8>()).prop_map(|(p, b)| Mutation::Insert(p, b)),
        (any::<u32>(), 1..32u8).prop_map(|(p, n)| Mutation::Delete(p, n)),
        (any::<u32>(), 1..64u8).prop_map(|(p, n)| Mutation::Duplicate(p, n)),
        (any::<u32>(), any::<u32>(), 1..400u16).prop_map(|(p, q, n)| Mutation::Splice(p, q, n)),
        (any::<u32>(), 0..TOKENS.len() as u8).prop_map(|(p, t)| Mutation::Token(p, t)),
        any::<u32>().prop_map(Mutation::Truncate),
    ]
}

/// Applies the edits; `donor` supplies spliced spans.
fn mutate(seed: &[u8], donor: &[u8], edits: &[Mutation]) -> Vec<u8> {
    let mut b = seed.to_vec();
    for m in edits {
        let at = |p: u32, len: usize| if len == 0 { 0 } else { p as usize % (len + 1) };
        match *m {
            Mutation::Flip(p, x) if !b.is_empty() => {
                let i = p as usize % b.len();
                b[i] ^= x.max(1);
            }
            Mutation::Insert(p, x) => {
                let i = at(p, b.len());
                b.insert(i, x);
            }
            Mutation::Delete(p, n) if !b.is_empty() => {
                let i = p as usize % b.len();
                let j = (i + n as usize).min(b.len());
                b.drain(i..j);
            }
            Mutation::Duplicate(p, n) if !b.is_empty() => {
                let i = p as usize % b.len();
                let j = (i + n as usize).min(b.len());
                let span = b[i..j].to_vec();
                b.splice(j..j, span);
            }
            Mutation::Splice(p, q, n) if !donor.is_empty() => {
                let i = at(p, b.len());
                let k = q as usize % donor.len();
                let span = &donor[k..(k + n as usize).min(donor.len())];
                b.splice(i..i, span.iter().copied());
            }
            Mutation::Token(p, t) => {
                // Replace the number (or word) at the position by the token.
                let i = at(p, b.len()).min(b.len());
                let mut j = i;
                while j < b.len() && (b[j].is_ascii_alphanumeric() || b"._-+".contains(&b[j])) {
                    j += 1;
                }
                b.splice(i..j, TOKENS[t as usize].bytes());
            }
            Mutation::Truncate(p) => {
                let i = at(p, b.len());
                b.truncate(i);
            }
            _ => {}
        }
        if b.len() > 1 << 20 {
            b.truncate(1 << 20);
        }
    }
    b
}

fn mutant(seeds: &'static [Vec<u8>]) -> impl Strategy<Value = String> {
    (
        0..seeds.len(),
        0..seeds.len(),
        prop::collection::vec(mutation(), 1..4),
    )
        .prop_map(move |(s, d, edits)| {
            String::from_utf8_lossy(&mutate(&seeds[s], &seeds[d], &edits)).into_owned()
        })
}

#[test]
fn scene_parser_never_panics() {
    let seeds = scene_seeds();
    let (parsed, built) = (Cell::new(0u32), Cell::new(0u32));
    runner()
        .run(&mutant(seeds), |text| {
            // What `check` and `run` do: parse and validate, build, step.
            if let Ok(scene) = Scene::from_ron_str(&text, "fuzz") {
                parsed.set(parsed.get() + 1);
                if scene.body_count() <= 3_000 {
                    if let Ok(mut world) = scene.build() {
                        built.set(built.get() + 1);
                        for _ in 0..3 {
                            world.step();
                        }
                    }
                }
            }
            Ok(())
        })
        .unwrap();
    println!(
        "scene parser: {} mutants, {} parsed, {} built and stepped, 0 panics",
        cases(),
        parsed.get(),
        built.get()
    );
}

#[test]
fn replay_parser_never_panics() {
    let seeds = replay_seeds();
    let (parsed, played) = (Cell::new(0u32), Cell::new(0u32));
    runner()
        .run(&mutant(seeds), |text| {
            if let Ok(rec) = Recording::from_ron_str(&text, "fuzz") {
                parsed.set(parsed.get() + 1);
                if rec.scene.body_count() <= 3_000 {
                    if let Ok(mut replayer) = Replayer::new(rec) {
                        played.set(played.get() + 1);
                        for _ in 0..3 {
                            let _ = replayer.step();
                        }
                    }
                }
            }
            Ok(())
        })
        .unwrap();
    println!(
        "replay parser: {} mutants, {} parsed, {} played 3 steps, 0 panics",
        cases(),
        parsed.get(),
        played.get()
    );
}

/// Shapes from 1e-4 m to 1e4 m, aspect up to 1e4, rounded boxes, and hulls of
/// point clouds.
fn shape() -> impl Strategy<Value = Shape> {
    let size = (-4.0f32..4.0).prop_map(|e| 10f32.powf(e));
    let aspect = (0.0f32..4.0).prop_map(|e| 10f32.powf(e));
    prop_oneof![
        size.clone().prop_map(Shape::circle),
        (size.clone(), aspect.clone()).prop_map(|(s, a)| Shape::capsule(s, s / a)),
        (size.clone(), aspect.clone()).prop_map(|(s, a)| Shape::rect(s, s / a)),
        (size.clone(), aspect.clone()).prop_map(|(s, a)| Shape::ellipse(s, s / a)),
        // Rounded boxes with a radius from 1e-4 to 10 times the thickness.
        (size.clone(), aspect, -4.0f32..1.0)
            .prop_map(|(s, a, e)| Shape::rounded_rect(s, s / a, s / a * 10f32.powf(e)))
            .prop_filter("radius beyond the cap", |r| r.validate().is_ok()),
        (
            size,
            prop::collection::vec((-1.0f32..1.0, -1.0f32..1.0), 3..12)
        )
            .prop_filter_map("degenerate hull", |(s, pts)| {
                let pts: Vec<Vec2> = pts.iter().map(|&(x, y)| Vec2::new(x, y) * s).collect();
                Shape::convex_hull(&pts).ok()
            }),
    ]
}

fn pose() -> impl Strategy<Value = Iso> {
    let coord = prop_oneof![-10.0f32..10.0, -1e6f32..1e6, Just(0.0)];
    let angle = prop_oneof![
        -3.2f32..3.2,
        (0..4i32, -1e-6f32..1e-6).prop_map(|(k, e)| k as f32 * std::f32::consts::FRAC_PI_2 + e),
    ];
    (coord.clone(), coord, angle).prop_map(|(x, y, a)| Iso::new(Vec2::new(x, y), a))
}

#[test]
fn narrowphase_never_panics_and_stays_finite() {
    let pair = (shape(), pose(), shape(), pose(), any::<bool>());
    runner()
        .run(&pair, |(a, xa, b, xb, same_pose)| {
            let xb = if same_pose { xa } else { xb };
            let meets = narrowphase::intersects(&a, &xa, &b, &xb);
            if let Some(c) = narrowphase::distance(&a, &xa, &b, &xb) {
                prop_assert!(c.distance.is_finite() && c.normal.is_finite(), "{c:?}");
            }
            let pen = narrowphase::penetration(&a, &xa, &b, &xb);
            prop_assert_eq!(meets, pen.is_some());
            if let Some(p) = pen {
                prop_assert!(p.depth.is_finite() && p.normal.is_finite(), "{p:?}");
            }
            if let Some(c) = gjk::distance(&a, &xa, &b, &xb) {
                prop_assert!(c.distance.is_finite(), "{c:?}");
            }
            if let Some(p) = epa::penetration(&a, &xa, &b, &xb) {
                prop_assert!(p.depth.is_finite() && p.normal.is_finite(), "{p:?}");
            }
            Ok(())
        })
        .unwrap();
    println!("narrowphase: {} pairs, 0 panics, all finite", cases());
}
