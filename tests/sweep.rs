//! `minkowski sweep`: the restitution study in one command (first rebounds
//! against e²h), byte-identical output for any number of jobs, shards that
//! add up to the whole table, and bad input as exit 2.

use std::process::Command;

fn sweep(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_minkowski"))
        .arg("sweep")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn scene_file(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("minkowski-sweep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// A ball dropped from 10 m, restitution 0 to 1 in 11 values, 8 seeds: the
/// first rebound's apex (sampled every step, after the first impact and
/// before the second) against e²h.
#[test]
fn a_restitution_sweep_matches_e_squared_h() {
    let drop = scene_file(
        "drop.ron",
        r#"Scene(name: "drop", bodies: [
            (shape: Rect(hx: 5.0, hy: 0.5), kind: Static, pos: (0.0, -0.5), friction: 0.0),
            (name: "ball", shape: Circle(r: 0.25), pos: (0.0, 10.25), friction: 0.0),
        ])"#,
    );
    let args = [
        drop.as_str(),
        "--vary",
        "bodies.1.restitution=0..1:11",
        "--seeds",
        "0..8",
        "--steps",
        "250",
        "--measure",
        "max:ball.y@90..250",
    ];
    let (code, csv, err) = sweep(&args);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Vec<String>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();
    assert_eq!(rows.len(), 88);
    let mut worst: f64 = 0.0;
    for r in &rows {
        let e: f64 = r[1].parse().unwrap();
        let h = r[3].parse::<f64>().unwrap() - 0.25;
        let want = e * e * 10.0;
        let err = if want > 0.0 {
            (h - want).abs() / want
        } else {
            h.abs()
        };
        println!("e = {e}: rebound {h:.4} m, e²h = {want:.4} m");
        if e >= 0.2 {
            worst = worst.max(err);
        } else if e > 0.0 {
            // Measured 1.0 % low at e = 0.1 (a 1 mm shortfall: the impact
            // falls inside a step); 3.4 % before free bodies flew exact
            // parabolas.
            assert!(err < 0.03, "e = {e}: {h} vs {want}");
        } else {
            assert!(h.abs() < 1e-3, "e = 0: {h}");
        }
    }
    println!("worst relative error for e ≥ 0.2: {:.2} %", worst * 100.0);
    // Measured 0.17 % (1.8 % before free bodies flew exact parabolas).
    assert!(worst < 0.01);
    // The same table with one job and with two.
    let mut one = args.to_vec();
    one.extend(["--jobs", "1"]);
    let mut two = args.to_vec();
    two.extend(["--jobs", "2"]);
    assert_eq!(sweep(&one).1, csv);
    assert_eq!(sweep(&two).1, csv);
    // Three shards make the whole table.
    let mut rows_from_shards: Vec<String> = Vec::new();
    for k in 1..=3 {
        let mut a = args.to_vec();
        let shard = format!("{k}/3");
        a.extend(["--shard", shard.as_str()]);
        let (code, out, _) = sweep(&a);
        assert_eq!(code, 0);
        rows_from_shards.extend(out.lines().skip(1).map(str::to_string));
    }
    rows_from_shards.sort_by_key(|l| l.split(',').next().unwrap().parse::<usize>().unwrap());
    let all: Vec<String> = csv.lines().skip(1).map(str::to_string).collect();
    assert_eq!(rows_from_shards, all);
}

#[test]
fn jsonl_output_and_bad_input() {
    let dir = std::env::temp_dir().join(format!("minkowski-sweep-out-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("s.jsonl");
    let (code, _, err) = sweep(&[
        "bounce",
        "--vary",
        "gravity=(0,-5),(0,-10)",
        "--steps",
        "30",
        "--measure",
        "mean:kinetic",
        "--measure",
        "final:1.vy",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1]["gravity"], serde_json::json!([0, -10]));
    assert!(lines[0]["final:1.vy"].as_f64().unwrap() > lines[1]["final:1.vy"].as_f64().unwrap());
    for (args, expect) in [
        (
            vec![
                "bounce",
                "--vary",
                "bodies.9.restitution=0..1:3",
                "--steps",
                "1",
                "--measure",
                "final:total",
            ],
            "no index 9",
        ),
        (
            vec![
                "bounce",
                "--vary",
                "gravity=(0,-5)",
                "--steps",
                "1",
                "--measure",
                "median:total",
            ],
            "STAT is one of",
        ),
        (
            vec![
                "bounce",
                "--vary",
                "gravity=(0,-5)",
                "--steps",
                "1",
                "--measure",
                "final:nope",
            ],
            "COLUMN is one of",
        ),
        (
            vec![
                "bounce",
                "--vary",
                "gravity=(0,-5)",
                "--steps",
                "1",
                "--measure",
                "final:total",
                "--shard",
                "4/3",
            ],
            "--shard 4/3",
        ),
        (
            vec![
                "bounce",
                "--vary",
                "seed=1..0:x",
                "--steps",
                "1",
                "--measure",
                "final:total",
            ],
            "a..b:n",
        ),
    ] {
        let (code, _, err) = sweep(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(expect), "{args:?}: {err}");
    }
}
