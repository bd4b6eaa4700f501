//! `minkowski bench SCENE --lockstep PROGRAM`: the turns taken with a peer
//! process, its protocol, and the clear errors when the peer misbehaves.
//! The peers here are small shell scripts whose "time" is made up, so the
//! figures printed can be checked exactly.
#![cfg(unix)]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fresh directory for this test's peer scripts.
fn scratch(test: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("minkowski-lockstep-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Writes an executable shell script `name` into `dir`.
fn peer(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).expect("write peer");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    path
}

fn bench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_minkowski"))
        .arg("bench")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn turns_cover_steps_two_to_n_and_the_ratio_is_of_the_totals() {
    let dir = scratch("turns");
    let log = dir.join("asked");
    // Claims 2 ms per step, and logs the scene it was given and each turn.
    let script = format!(
        "echo \"$1\" > {log}\necho ready\nwhile read k; do echo \"$k\" >> {log}; echo $((2 * k)); done",
        log = log.display()
    );
    let p = peer(&dir, "peer", &script);
    let program = p.to_str().unwrap();
    let o = bench(&[
        "bounce",
        "--steps",
        "25",
        "--chunk",
        "10",
        "--json",
        "--lockstep",
        program,
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    // The peer got the scene's name, then turns of 10, 10 and 4 steps: the
    // 24 steps after the first, which both sides take untimed.
    assert_eq!(
        std::fs::read_to_string(&log).unwrap(),
        "bounce\n10\n10\n4\n"
    );
    let v: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).expect("one JSON line");
    assert_eq!(v["scene"], "bounce");
    assert_eq!(v["steps"], 25);
    assert_eq!(v["chunk"], 10);
    assert_eq!(v["peer_ms_per_step"].as_f64(), Some(2.0));
    let ours = v["ms_per_step"].as_f64().unwrap();
    assert!(ours > 0.0 && ours.is_finite(), "{ours}");
    let ratio = v["ratio"].as_f64().unwrap();
    // Both printed to 6 decimals.
    assert!((ratio - ours / 2.0).abs() <= 1e-6, "{ratio} vs {ours} / 2");
    assert!(v["median_turn_ratio"].as_f64().unwrap() > 0.0);
    // Every turn, in order: steps 2-11, 12-21 and 22-25, the peer's at
    // 2 ms a step, ours summing to our total.
    let turns = v["turns"].as_array().expect("a list of turns");
    let spans: Vec<(u64, u64)> = turns
        .iter()
        .map(|t| {
            (
                t["first_step"].as_u64().unwrap(),
                t["steps"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(spans, [(2, 10), (12, 10), (22, 4)]);
    for t in turns {
        let k = t["steps"].as_f64().unwrap();
        assert_eq!(t["peer_ms"].as_f64(), Some(2.0 * k), "{t}");
    }
    let sum: f64 = turns.iter().map(|t| t["ms"].as_f64().unwrap()).sum();
    assert!((sum / 24.0 - ours).abs() <= 1e-5, "{sum} / 24 vs {ours}");

    // Text output: one line per scene, with both times and the ratio.
    let o = bench(&["bounce", "stack", "--steps", "3", "--lockstep", program]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].starts_with("bounce ") && lines[1].starts_with("stack "),
        "{out}"
    );
    assert!(
        lines.iter().all(|l| l.contains("peer    2.000 ms/step")),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_misbehaving_peer_is_a_clear_error() {
    let dir = scratch("errors");
    let cases = [
        ("chatty", "echo hello", "expected `ready`, got `hello`"),
        ("quitter", "echo ready", "ended early"),
        (
            "garbled",
            "echo ready\nread k\necho soon",
            "expected a time in ms, got `soon`",
        ),
        (
            "negative",
            "echo ready\nread k\necho -3",
            "expected a time in ms, got `-3`",
        ),
    ];
    for (name, body, message) in cases {
        let p = peer(&dir, name, body);
        let o = bench(&["bounce", "--steps", "5", "--lockstep", p.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1), "{name}: {}", text(&o.stderr));
        let err = text(&o.stderr);
        assert!(err.contains(message), "{name}: {err}");
        assert!(o.stdout.is_empty(), "{name}: nothing printed as a result");
    }
    let missing = dir.join("no-such-peer");
    let o = bench(&["bounce", "--lockstep", missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "a bad argument");
    assert!(
        text(&o.stderr).contains("cannot start"),
        "{}",
        text(&o.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_binary_is_a_peer_of_itself() {
    let dir = scratch("itself");
    let script = format!(
        "exec {} bench --peer \"$1\"",
        env!("CARGO_BIN_EXE_minkowski")
    );
    let p = peer(&dir, "self", &script);
    let o = bench(&[
        "stack",
        "--steps",
        "40",
        "--chunk",
        "7",
        "--json",
        "--lockstep",
        p.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).expect("one JSON line");
    let (ours, theirs) = (
        v["ms_per_step"].as_f64().unwrap(),
        v["peer_ms_per_step"].as_f64().unwrap(),
    );
    assert!(ours > 0.0 && theirs > 0.0, "{ours} {theirs}");

    // The peer's own errors: a line that is not a step count, more than one scene.
    let mut child = Command::new(env!("CARGO_BIN_EXE_minkowski"))
        .args(["bench", "--peer", "stack"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"3\nthree\n")
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert_eq!(lines[0], "ready");
    assert!(lines[1].parse::<f64>().is_ok_and(|ms| ms > 0.0), "{out}");
    assert!(
        text(&o.stderr).contains("expected a step count, got `three`"),
        "{}",
        text(&o.stderr)
    );
    let o = bench(&["--peer", "stack", "bounce"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("--peer takes one scene"));
    let _ = std::fs::remove_dir_all(&dir);
}
