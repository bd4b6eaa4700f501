//! The bad-scene corpus (`tests/bad_scenes/*.ron`): every file fails to load with
//! one clear error and no panic. The first line of each file says what the
//! error must read after the file path:
//!
//! ```text
//! // expect: : body 1, field `shape`: vertex 2 is reflex: the polygon is concave there
//! ```
//!
//! Also: random byte mutations of valid scenes never panic, and whatever still
//! loads builds and round-trips.

use minkowski::scene::{builtin_source, Scene};
use proptest::prelude::*;
use std::path::PathBuf;

fn corpus() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/bad_scenes");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the corpus directory")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_bad_scene_gets_its_expected_message() {
    let files = corpus();
    assert!(
        files.len() >= 20,
        "the corpus should hold at least 20 scenes, has {}",
        files.len()
    );
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("readable");
        let expect = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("// expect: "))
            .unwrap_or_else(|| panic!("{}: the first line must be `// expect: …`", path.display()));
        let want = format!("{}{}", path.display(), expect);
        match Scene::load(path) {
            Ok(_) => failures.push(format!(
                "{}: loaded, but should fail with\n  {want}",
                path.display()
            )),
            Err(e) if e.to_string() != want => {
                failures.push(format!("{}:\n  got  {e}\n  want {want}", path.display()))
            }
            Err(_) => {}
        }
        // Same message from text, with any origin; and no world is built.
        let err = Scene::from_ron_str(&text, "ORIGIN").expect_err("must fail");
        assert_eq!(err.to_string(), format!("ORIGIN{expect}"));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_missing_file_names_the_path() {
    let err = Scene::load(std::path::Path::new("no/such/scene.ron")).expect_err("missing");
    assert!(
        err.to_string()
            .starts_with("no/such/scene.ron: cannot read the scene: "),
        "{err}"
    );
}

#[test]
fn the_issue_example_is_valid() {
    let text = include_str!("../docs/example_scene.ron");
    let scene =
        Scene::from_ron_str(text, "docs/example_scene.ron").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(scene.body_count(), 5 + 210 + 500);
}

#[derive(Clone, Debug)]
enum Mutation {
    Replace(usize, u8),
    Insert(usize, u8),
    Delete(usize, usize),
    Truncate(usize),
    Swap(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    // Bytes that matter to RON most of the time, plus anything at all.
    let byte = prop_oneof![
        proptest::sample::select(b"()[],:.-+0123456789eE\"/ \nabcxyzNaif_".to_vec()),
        any::<u8>(),
    ];
    prop_oneof![
        (any::<usize>(), byte.clone()).prop_map(|(i, b)| Mutation::Replace(i, b)),
        (any::<usize>(), byte).prop_map(|(i, b)| Mutation::Insert(i, b)),
        (any::<usize>(), 1usize..12).prop_map(|(i, n)| Mutation::Delete(i, n)),
        any::<usize>().prop_map(Mutation::Truncate),
        (any::<usize>(), any::<usize>()).prop_map(|(i, j)| Mutation::Swap(i, j)),
    ]
}

fn mutate(mut bytes: Vec<u8>, muts: &[Mutation]) -> Vec<u8> {
    for m in muts {
        let n = bytes.len().max(1);
        match *m {
            Mutation::Replace(i, b) => {
                if !bytes.is_empty() {
                    bytes[i % n] = b;
                }
            }
            Mutation::Insert(i, b) => bytes.insert(i % (bytes.len() + 1), b),
            Mutation::Delete(i, k) => {
                let start = i % n;
                let end = (start + k).min(bytes.len());
                bytes.drain(start.min(end)..end);
            }
            Mutation::Truncate(i) => bytes.truncate(i % n),
            Mutation::Swap(i, j) => {
                if !bytes.is_empty() {
                    bytes.swap(i % n, j % n);
                }
            }
        }
    }
    bytes
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 400,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x4d4b_0003),
        ..ProptestConfig::default()
    })]

    /// Random byte mutations of valid scenes: never a panic. Whatever still loads
    /// is valid: it builds (when small enough to build quickly) and writes back
    /// to RON that loads as the same scene.
    #[test]
    fn mutated_scenes_never_panic(
        which in proptest::sample::select(vec!["default", "shapes", "ramps", "newtons_cradle", "tumbler"]),
        muts in proptest::collection::vec(mutation(), 1..6),
    ) {
        let original = builtin_source(which).expect("shipped").as_bytes().to_vec();
        let bytes = mutate(original, &muts);
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(scene) = Scene::from_ron_str(&text, "mutated.ron") {
            if scene.body_count() <= 3000 {
                let world = scene.build();
                prop_assert!(world.is_ok(), "a validated scene must build: {:?}", world.err());
            }
            let again = Scene::from_ron_str(&scene.to_ron_string(), "rewritten.ron");
            prop_assert!(again.is_ok(), "{:?}", again.err());
            prop_assert_eq!(again.ok(), Some(scene));
        }
    }
}
