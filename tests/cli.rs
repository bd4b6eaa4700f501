//! The headless command line: `run`, `check`, `replay`, `bench`, exit codes and
//! JSON output (checked with a small strict JSON parser below).

use minkowski::replay::{apply_input, InputEvent, Recorder};
use minkowski::scene::Scene;
use minkowski::Vec2;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::{Command, Output};

fn minkowski(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_minkowski"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}
fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[derive(Debug, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(BTreeMap<String, Json>),
}

impl Json {
    fn get(&self, k: &str) -> &Json {
        match self {
            Json::Obj(m) => m.get(k).unwrap_or_else(|| panic!("no key {k}")),
            _ => panic!("not an object"),
        }
    }
    fn num(&self) -> f64 {
        match self {
            Json::Num(x) => *x,
            other => panic!("not a number: {other:?}"),
        }
    }
    fn str(&self) -> &str {
        match self {
            Json::Str(s) => s,
            other => panic!("not a string: {other:?}"),
        }
    }
    fn arr(&self) -> &[Json] {
        match self {
            Json::Arr(a) => a,
            other => panic!("not an array: {other:?}"),
        }
    }
    fn keys(&self) -> Vec<&str> {
        match self {
            Json::Obj(m) => m.keys().map(|k| k.as_str()).collect(),
            _ => panic!("not an object"),
        }
    }
}

/// A strict JSON parser (RFC 8259), enough to prove the output is valid.
fn parse_json(s: &str) -> Json {
    struct P<'a>(&'a [u8], usize);
    impl P<'_> {
        fn ws(&mut self) {
            while self.1 < self.0.len() && b" \t\r\n".contains(&self.0[self.1]) {
                self.1 += 1;
            }
        }
        fn eat(&mut self, c: u8) {
            self.ws();
            assert_eq!(
                self.0.get(self.1),
                Some(&c),
                "expected {} at {}",
                c as char,
                self.1
            );
            self.1 += 1;
        }
        fn peek(&mut self) -> u8 {
            self.ws();
            *self.0.get(self.1).expect("unexpected end")
        }
        fn value(&mut self) -> Json {
            match self.peek() {
                b'{' => {
                    self.eat(b'{');
                    let mut m = BTreeMap::new();
                    if self.peek() == b'}' {
                        self.eat(b'}');
                        return Json::Obj(m);
                    }
                    loop {
                        let Json::Str(k) = self.string() else {
                            unreachable!()
                        };
                        self.eat(b':');
                        assert!(m.insert(k, self.value()).is_none(), "duplicate key");
                        if self.peek() == b',' {
                            self.eat(b',');
                        } else {
                            self.eat(b'}');
                            return Json::Obj(m);
                        }
                    }
                }
                b'[' => {
                    self.eat(b'[');
                    let mut a = Vec::new();
                    if self.peek() == b']' {
                        self.eat(b']');
                        return Json::Arr(a);
                    }
                    loop {
                        a.push(self.value());
                        if self.peek() == b',' {
                            self.eat(b',');
                        } else {
                            self.eat(b']');
                            return Json::Arr(a);
                        }
                    }
                }
                b'"' => self.string(),
                b't' => self.word("true", Json::Bool(true)),
                b'f' => self.word("false", Json::Bool(false)),
                b'n' => self.word("null", Json::Null),
                _ => self.number(),
            }
        }
        fn word(&mut self, w: &str, v: Json) -> Json {
            assert!(self.0[self.1..].starts_with(w.as_bytes()));
            self.1 += w.len();
            v
        }
        fn string(&mut self) -> Json {
            self.eat(b'"');
            let mut out = String::new();
            loop {
                let c = self.0[self.1];
                self.1 += 1;
                match c {
                    b'"' => return Json::Str(out),
                    b'\\' => {
                        let e = self.0[self.1];
                        self.1 += 1;
                        match e {
                            b'"' => out.push('"'),
                            b'\\' => out.push('\\'),
                            b'/' => out.push('/'),
                            b'n' => out.push('\n'),
                            b'r' => out.push('\r'),
                            b't' => out.push('\t'),
                            b'b' => out.push('\u{8}'),
                            b'f' => out.push('\u{c}'),
                            b'u' => {
                                let hex = std::str::from_utf8(&self.0[self.1..self.1 + 4]).unwrap();
                                out.push(
                                    char::from_u32(u32::from_str_radix(hex, 16).unwrap()).unwrap(),
                                );
                                self.1 += 4;
                            }
                            _ => panic!("bad escape"),
                        }
                    }
                    c if c < 0x20 => panic!("raw control character in a string"),
                    _ => {
                        // Copy one UTF-8 character.
                        let start = self.1 - 1;
                        let len = match c {
                            0..=0x7f => 1,
                            0xc0..=0xdf => 2,
                            0xe0..=0xef => 3,
                            _ => 4,
                        };
                        out.push_str(std::str::from_utf8(&self.0[start..start + len]).unwrap());
                        self.1 = start + len;
                    }
                }
            }
        }
        fn number(&mut self) -> Json {
            let start = self.1;
            while self.1 < self.0.len() && b"+-0123456789.eE".contains(&self.0[self.1]) {
                self.1 += 1;
            }
            let t = std::str::from_utf8(&self.0[start..self.1]).unwrap();
            let body = t.strip_prefix('-').unwrap_or(t);
            assert!(
                body.starts_with(|c: char| c.is_ascii_digit())
                    && !(body.starts_with('0')
                        && body.len() > 1
                        && body.as_bytes()[1].is_ascii_digit()),
                "bad JSON number {t:?}"
            );
            Json::Num(t.parse().unwrap_or_else(|_| panic!("bad number {t:?}")))
        }
    }
    let mut p = P(s.as_bytes(), 0);
    let v = p.value();
    p.ws();
    assert_eq!(p.1, s.len(), "trailing characters after the JSON value");
    v
}

#[test]
fn run_json_is_one_valid_object() {
    let o = minkowski(&["run", "bounce", "--steps", "30", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 1);
    let v = parse_json(out.trim_end());
    assert_eq!(v.keys(), vec!["bodies", "hash", "scene", "steps"]);
    assert_eq!(v.get("scene").str(), "bounce");
    assert_eq!(v.get("steps").num(), 30.0);
    // Same hash as the library.
    let mut world = Scene::builtin("bounce").unwrap().build().unwrap();
    for _ in 0..30 {
        world.step();
    }
    assert_eq!(v.get("hash").str(), format!("{:#018x}", world.state_hash()));
    let bodies = v.get("bodies").arr();
    assert_eq!(bodies.len(), 6);
    for (b, (id, body)) in bodies.iter().zip(world.bodies()) {
        assert_eq!(
            b.keys(),
            vec!["angle", "angvel", "id", "pos", "sleeping", "vel"]
        );
        assert_eq!(b.get("id").num(), id.index as f64);
        let pos = b.get("pos").arr();
        assert_eq!(pos[0].num() as f32, body.position().x);
        assert_eq!(pos[1].num() as f32, body.position().y);
        assert_eq!(b.get("vel").arr().len(), 2);
        assert!(matches!(b.get("sleeping"), Json::Bool(_)));
    }
}

#[test]
fn run_text_and_hash_every() {
    let o = minkowski(&[
        "run",
        "scenes/stack.ron",
        "--steps",
        "130",
        "--hash-every",
        "60",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[0].starts_with("step 60 hash 0x"), "{out}");
    assert!(lines[1].starts_with("step 120 hash 0x"), "{out}");
    assert!(lines[2].starts_with("scene stack: 31 bodies"), "{out}");
    assert!(lines[2].contains("after 130 steps, hash 0x"), "{out}");

    let o = minkowski(&[
        "run",
        "stack",
        "--steps",
        "120",
        "--hash-every",
        "60",
        "--json",
    ]);
    let v = parse_json(stdout(&o).trim_end());
    let hashes = v.get("hashes").arr();
    assert_eq!(hashes.len(), 2);
    assert_eq!(hashes[1].get("step").num(), 120.0);
    assert_eq!(hashes[1].get("hash").str(), v.get("hash").str());
    assert!(lines[1].ends_with(hashes[1].get("hash").str()));
}

#[test]
fn check_accepts_good_and_rejects_bad_scenes_with_exit_2() {
    let o = minkowski(&["check", "pyramid"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "ok: pyramid: 211 bodies (1 explicit, 210 generated)\n"
    );

    let o = minkowski(&["check", "tests/bad_scenes/concave_polygon.ron"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "error: tests/bad_scenes/concave_polygon.ron: body 1, field `shape`: vertex 2 is reflex: the polygon is concave there\n"
    );
    assert!(stdout(&o).is_empty());

    for args in [
        &[
            "run",
            "tests/bad_scenes/syntax_truncated.ron",
            "--steps",
            "5",
        ][..],
        &["run", "no_such_scene", "--steps", "5"],
        &["check", "no/such/file.ron"],
        &[
            "bench",
            "pyramid",
            "tests/bad_scenes/dt_zero.ron",
            "--steps",
            "1",
        ],
    ] {
        let o = minkowski(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(
            err.starts_with("error: ") && err.lines().count() == 1,
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    let o = minkowski(&["run", "no_such_scene", "--steps", "5"]);
    assert!(
        stderr(&o).contains("not a shipped scene (one of: default, pyramid"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn replay_exit_codes() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let scene = Scene::builtin("newtons_cradle").unwrap();
    let mut world = scene.build().unwrap();
    let mut rec = Recorder::new(scene);
    for k in 0..150u64 {
        if k == 10 {
            let ev = InputEvent::Delete {
                at: Vec2::new(2.0, 0.5),
            };
            apply_input(&mut world, &ev);
            rec.record(k, ev);
        }
        world.step();
        rec.after_step(&world);
    }
    let rec = rec.finish();
    let good = dir.join("cli_good.replay.ron");
    rec.save(&good).unwrap();
    let o = minkowski(&["replay", good.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("150 steps, 1 events, 3 checkpoints match"),
        "{}",
        stdout(&o)
    );

    let mut bad = rec.clone();
    bad.checkpoints[1].1 = bad.checkpoints[1].1.wrapping_add(1);
    let bad_path = dir.join("cli_bad.replay.ron");
    bad.save(&bad_path).unwrap();
    let o = minkowski(&["replay", bad_path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("diverged at step 120"),
        "{}",
        stderr(&o)
    );

    let text = rec.to_ron_string();
    let cut = dir.join("cli_cut.replay.ron");
    std::fs::write(&cut, &text[..text.len() / 2]).unwrap();
    let o = minkowski(&["replay", cut.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unexpected end of file"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn bench_json_lines() {
    let o = minkowski(&["bench", "bounce", "stack", "--steps", "5", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2);
    for (line, (name, bodies)) in lines.iter().zip([("bounce", 6.0), ("stack", 31.0)]) {
        let v = parse_json(line);
        assert_eq!(
            v.keys(),
            vec![
                "after_first_s",
                "bodies",
                "ms_per_step_median",
                "ms_per_step_p95",
                "scene",
                "steps",
                "total_s"
            ]
        );
        assert_eq!(v.get("scene").str(), name);
        assert_eq!(v.get("bodies").num(), bodies);
        assert_eq!(v.get("steps").num(), 5.0);
        assert!(v.get("ms_per_step_p95").num() >= v.get("ms_per_step_median").num());
        let (all, rest) = (v.get("total_s").num(), v.get("after_first_s").num());
        assert!(
            rest > 0.0 && rest < all,
            "{rest} s after the first step, {all} s in all"
        );
    }
    let o = minkowski(&["bench", "stack", "--steps", "3"]);
    assert!(stdout(&o).starts_with("stack "), "{}", stdout(&o));
    assert!(stdout(&o).contains("steps/s"));
}

#[test]
fn run_json_reports_joints_and_breaks() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join("cli_breaking.ron");
    // A 1 kg box (0.5 × 0.5 m, density 4) on a hinge that holds 15 N, and a
    // heavy one on a hinge that holds 15 N too: the second breaks at once.
    std::fs::write(
        &path,
        r#"Scene(
  bodies: [
    (name: "light", shape: Rect(hx: 0.25, hy: 0.25), pos: (0.0, 4.0), density: 4.0),
    (name: "heavy", shape: Rect(hx: 0.25, hy: 0.25), pos: (3.0, 4.0), density: 40.0),
  ],
  joints: [
    Revolute(b: "light", anchor: (0.0, 4.25), break_force: 15.0),
    Revolute(b: "heavy", anchor: (3.0, 4.25), break_force: 15.0),
  ],
)"#,
    )
    .unwrap();
    let p = path.to_str().unwrap();
    let o = minkowski(&["run", p, "--steps", "30", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = parse_json(stdout(&o).trim_end());
    assert_eq!(v.keys(), vec!["bodies", "hash", "joints", "scene", "steps"]);
    let joints = v.get("joints").arr();
    assert_eq!(joints.len(), 2);
    let (kept, broke) = (&joints[0], &joints[1]);
    assert_eq!(
        kept.keys(),
        vec!["a", "b", "broken", "force", "id", "kind", "torque"]
    );
    assert_eq!(kept.get("kind").str(), "revolute");
    assert!(matches!(kept.get("a"), Json::Null), "A is the world");
    assert_eq!(kept.get("b").num(), 0.0);
    assert!(matches!(kept.get("broken"), Json::Bool(false)));
    // The light box hangs still: the hinge carries its weight, 10 N.
    let f = kept.get("force").arr();
    assert!((f[1].num() - 10.0).abs() < 0.05, "{}", f[1].num());
    assert_eq!(broke.get("b").num(), 1.0);
    assert!(matches!(broke.get("broken"), Json::Bool(true)));
    assert!(broke.get("force").arr()[1].num() > 15.0);
    // The text form says so too.
    let o = minkowski(&["run", p, "--steps", "30"]);
    assert!(
        stdout(&o).contains("revolute joint 1 broke"),
        "{}",
        stdout(&o)
    );
    // And `check` counts the joints.
    let o = minkowski(&["check", p]);
    assert!(stdout(&o).contains(", 2 joints"), "{}", stdout(&o));
}

#[test]
fn play_refuses_bad_input_with_exit_2_before_any_window() {
    let o = minkowski(&["play", "no_such_scene"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("not a shipped scene"), "{}", stderr(&o));
    let o = minkowski(&["play", "pendulum", "--overlay", "nope"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = minkowski(&["play", "pendulum", "--screenshot", "x.png"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = minkowski(&["play", "pendulum", "--panel", "nope"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // A bad scene file: located error, exit 2, as the README says.
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let broken = dir.join("play_broken.ron");
    std::fs::write(
        &broken,
        "Scene(bodies: [(shape: Circle(r: 1.0), pos: (0, 0))]",
    )
    .unwrap();
    let o = minkowski(&["play", broken.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("play_broken.ron:1:"), "{}", stderr(&o));
    let invalid = dir.join("play_invalid.ron");
    std::fs::write(
        &invalid,
        "Scene(bodies: [(shape: Circle(r: -1.0), pos: (0, 0))])",
    )
    .unwrap();
    let o = minkowski(&["play", invalid.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("body 0"), "{}", stderr(&o));
}

/// `play NAME` opens a shipped scene by name, also where there is no
/// `scenes/` folder (the copy compiled in): the scene loads, and only the
/// missing display stops it (exit 1, not 2).
#[test]
fn play_opens_a_shipped_scene_by_name() {
    let elsewhere = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    assert!(!elsewhere.join("scenes").exists());
    for dir in [PathBuf::from(env!("CARGO_MANIFEST_DIR")), elsewhere] {
        let o = Command::new(env!("CARGO_BIN_EXE_minkowski"))
            .args(["play", "newtons_cradle", "--frames", "1"])
            .current_dir(&dir)
            .env_remove("DISPLAY")
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        assert!(stderr(&o).contains("no X display"), "{}", stderr(&o));
    }
}

#[test]
fn bench_profile_splits_the_step_by_stage() {
    let o = minkowski(&["bench", "stack", "--steps", "5", "--json", "--profile"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = parse_json(stdout(&o).trim_end());
    let stages = v.get("stages_ms");
    assert_eq!(
        stages.keys(),
        vec!["aabbs", "broadphase", "narrowphase", "sleep", "solver"]
    );
    let sum: f64 = stages.keys().iter().map(|k| stages.get(k).num()).sum();
    assert!(sum > 0.0 && sum.is_finite());
    // The solver's passes, timed within its stage: together no longer.
    let parts = v.get("solver_ms");
    assert_eq!(
        parts.keys(),
        vec![
            "continuous",
            "finish",
            "positions",
            "prepare",
            "velocity",
            "warm_start"
        ]
    );
    let within: f64 = parts.keys().iter().map(|k| parts.get(k).num()).sum();
    let solver = stages.get("solver").num();
    assert!(
        within > 0.0 && within <= solver + 1e-5,
        "parts {within} ms, solver {solver} ms"
    );
    // The stack's 30 contacts, each waiting for the one below: a lane
    // bundle holds what can be solved side by side, so they take more
    // than 30 / width bundles, and at most one each.
    let lanes = v.get("lanes");
    let (constraints, bundles) = (lanes.get("constraints").num(), lanes.get("bundles").num());
    let width = lanes.get("width").num();
    assert_eq!(constraints, 30.0);
    assert!(width == 4.0 || width == 8.0, "width {width}");
    assert!(
        bundles > constraints / width && bundles <= constraints,
        "{bundles} bundles"
    );
    let fill = lanes.get("fill").num();
    assert!(
        (fill - constraints / (bundles * width)).abs() < 1e-6,
        "fill {fill}"
    );
    let o = minkowski(&["bench", "stack", "--steps", "5", "--profile"]);
    assert!(
        stdout(&o).contains("stages (mean ms): aabbs")
            && stdout(&o).contains("solver (mean ms): prepare"),
        "{}",
        stdout(&o)
    );
    assert!(
        stdout(&o).contains("contact lanes (mean per step): 30 constraints in"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn a_trace_shows_an_elastic_ball_keeps_its_energy() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let scene = dir.join("cli_walls.ron");
    std::fs::write(
        &scene,
        r#"Scene(gravity: (0.0, 0.0), sleep: false, bodies: [
  (shape: Rect(hx: 0.5, hy: 4.0), kind: Static, pos: (-5.5, 0.0), friction: 0.0, restitution: 1.0),
  (shape: Rect(hx: 0.5, hy: 4.0), kind: Static, pos: (5.5, 0.0), friction: 0.0, restitution: 1.0),
  (name: "ball", shape: Circle(r: 0.5), pos: (0.0, 0.0), vel: (7.0, 0.0), friction: 0.0, restitution: 1.0),
])"#,
    )
    .unwrap();
    let csv = dir.join("cli_walls.csv");
    let o = minkowski(&[
        "run",
        scene.to_str().unwrap(),
        "--steps",
        "600",
        "--trace",
        csv.to_str().unwrap(),
        "--every",
        "10",
        "--bodies",
        "ball",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(
        &header[..5],
        &["step", "time", "kinetic", "potential", "total"]
    );
    assert_eq!(header.last(), Some(&"b2_angvel"));
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let rows: Vec<Vec<f64>> = lines
        .map(|l| l.split(',').map(|v| v.parse().unwrap()).collect())
        .collect();
    assert_eq!(rows.len(), 61, "step 0, then every 10 steps");
    let e0 = rows[0][col("total")];
    assert!((e0 - 0.5 * std::f64::consts::PI * 0.25 * 49.0).abs() < 1e-3);
    let worst = rows
        .iter()
        .map(|r| (r[col("total")] - e0).abs() / e0)
        .fold(0.0, f64::max);
    assert!(worst < 0.01, "energy drifts {:.4} %", worst * 100.0);
    // The ball bounced: its velocity changed sign.
    assert!(rows.iter().any(|r| r[col("b2_vx")] < 0.0));
}
