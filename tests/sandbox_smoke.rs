//! Smoke test of the sandbox window: under `xvfb-run`, render every shipped
//! scene (`scenes/*.ron`; the built-in scene when there are none) to a PNG with
//! `minkowski play SCENE --frames N --screenshot out.png`, and check that
//!
//! * the command exits 0,
//! * the picture is not blank: the bodies' pixels are there,
//! * two runs of the same scene and frame count give byte-identical PNGs.
//!
//! Further runs turn on every overlay, the inspector and the HUD; the
//! settings, plots and scene picker panels; the event log; and the help.
//!
//! Without `xvfb-run` the test fails when `CI` is set and is skipped otherwise.
//! `.ci/run` installs `xvfb` and `libgl1-mesa-dri`.

use macroquad::prelude::{Image, ImageFormat};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

const BIN: &str = env!("CARGO_BIN_EXE_minkowski");
// Few frames: the heaviest scene (22,000 boxes) takes ~0.3 s per step on a
// busy 2-core machine, and software GL is slow.
const FRAMES: &str = "20";
const SIZE: &str = "640x400";

fn have_xvfb() -> bool {
    Command::new("sh")
        .args(["-c", "command -v xvfb-run"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

fn out_dir() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sandbox_smoke");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs the binary under xvfb-run and returns the PNG's bytes.
fn render(scene: Option<&Path>, extra: &[&str], out: &Path) -> Vec<u8> {
    render_on(99, scene, extra, out)
}

/// [`render`] on the first free X display from `display` up (`xvfb-run -a
/// -n`: two renders at once search from different numbers, or both could
/// take the same free one).
fn render_on(display: u32, scene: Option<&Path>, extra: &[&str], out: &Path) -> Vec<u8> {
    let _ = std::fs::remove_file(out);
    let mut cmd = Command::new("xvfb-run");
    cmd.args(["-a", "-n", &display.to_string()]);
    cmd.args(["-s", "-screen 0 1280x800x24", BIN, "play"]);
    if let Some(s) = scene {
        cmd.arg(s);
    }
    cmd.args(["--frames", FRAMES, "--size", SIZE, "--screenshot"])
        .arg(out)
        .args(extra)
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    let t = Instant::now();
    let o = cmd.output().expect("run xvfb-run");
    eprintln!(
        "rendered {} {:?} in {:.2} s",
        scene.map_or("(default)".into(), |p| p.display().to_string()),
        extra,
        t.elapsed().as_secs_f64()
    );
    assert!(
        o.status.success(),
        "{:?} exited with {}\nstdout: {}\nstderr: {}",
        scene,
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    std::fs::read(out).unwrap_or_else(|e| panic!("{}: {e}", out.display()))
}

/// Two renders of the same run at once (each is one process on one core),
/// to `out` with suffixes `-1` and `-2`: their PNGs, in that order.
fn render_twice(
    scene: Option<&Path>,
    extra: &[&str],
    dir: &Path,
    stem: &str,
) -> (Vec<u8>, Vec<u8>) {
    let (a, b) = (
        dir.join(format!("{stem}-1.png")),
        dir.join(format!("{stem}-2.png")),
    );
    std::thread::scope(|s| {
        let second = s.spawn(|| render_on(200, scene, extra, &b));
        let first = render_on(100, scene, extra, &a);
        (first, second.join().expect("the second render"))
    })
}

/// Fraction of pixels that clearly differ from the background (the faint grid
/// is within the tolerance), so shapes must be present for it to be large.
fn ink_fraction(png: &[u8]) -> f64 {
    let img = Image::from_file_with_format(png, Some(ImageFormat::Png)).expect("decode PNG");
    assert_eq!((img.width, img.height), (640, 400), "screenshot size");
    // theme::BACKGROUND is (0.075, 0.082, 0.102).
    let bg = [19i32, 21, 26];
    let mut ink = 0usize;
    for px in img.bytes.chunks_exact(4) {
        let d: i32 = (0..3).map(|i| (px[i] as i32 - bg[i]).abs()).sum();
        if d > 60 {
            ink += 1;
        }
    }
    ink as f64 / (img.width as usize * img.height as usize) as f64
}

/// Pixels in the theme's accent colour (1.0, 0.8, 0.2).
fn accent_pixels(png: &[u8]) -> usize {
    color_pixels(png, [255, 204, 51])
}

/// Pixels within a small distance of `rgb`.
fn color_pixels(png: &[u8], rgb: [i32; 3]) -> usize {
    let img = Image::from_file_with_format(png, Some(ImageFormat::Png)).expect("decode PNG");
    let accent = rgb;
    img.bytes
        .chunks_exact(4)
        .filter(|px| {
            (0..3)
                .map(|i| (px[i] as i32 - accent[i]).abs())
                .sum::<i32>()
                < 60
        })
        .count()
}

fn shipped_scenes() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    let n = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
                    n.ends_with(".ron") && !n.ends_with(".replay.ron")
                })
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn every_scene_renders_deterministically() {
    if !have_xvfb() {
        if std::env::var_os("CI").is_some() {
            panic!("xvfb-run is missing; .ci/run should install xvfb");
        }
        eprintln!("notice: xvfb-run not found; skipping the sandbox smoke test");
        return;
    }
    let start = Instant::now();
    let dir = out_dir();
    let mut scenes: Vec<Option<PathBuf>> = shipped_scenes().into_iter().map(Some).collect();
    if scenes.is_empty() {
        scenes.push(None);
    }
    for scene in &scenes {
        let stem = scene
            .as_ref()
            .and_then(|p| p.file_stem())
            .and_then(|s| s.to_str())
            .unwrap_or("builtin")
            .to_string();
        // Without the HUD, every pixel that is not background is a body's.
        let (a, b) = render_twice(scene.as_deref(), &["--no-hud"], &dir, &stem);
        // A blank frame has no ink at all; the sparsest shipped scene (the
        // pendulum: a 0.1 m disc on a 2 m rod) has about 0.4 %.
        let ink = ink_fraction(&a);
        assert!(
            ink > 0.002,
            "{stem}: the picture is blank ({:.3}% ink)",
            ink * 100.0
        );
        assert!(a == b, "{stem}: two runs gave different PNGs");
    }
    // Everything on: HUD, toolbar, every overlay, the inspector; then the help.
    let first = scenes
        .iter()
        .find(|s| s.as_ref().is_some_and(|p| p.ends_with("default.ron")))
        .unwrap_or(&scenes[0])
        .as_deref();
    let extra = ["--overlay", "all", "--inspect", "0,1"];
    let (a, b) = render_twice(first, &extra, &dir, "all");
    assert!(ink_fraction(&a) > 0.05, "overlay run: too little drawn");
    assert!(a == b, "overlay run: two runs gave different PNGs");
    // The panels: settings, plots (after 20 steps of samples) and picker.
    let extra = ["--panel", "settings,plots,scenes"];
    let (a, b) = render_twice(first, &extra, &dir, "panels");
    // The panels' headings, the open buttons and the picker's current scene
    // are in the accent colour: about 550 pixels at 640x400, where the HUD
    // and toolbar alone have about 120.
    let accent = accent_pixels(&a);
    eprintln!("panel run: {accent} accent pixels");
    assert!(
        accent > 300,
        "panel run: the panels are not there ({accent})"
    );
    assert!(a == b, "panel run: two runs gave different PNGs");
    // The event log, its newest row hovered: the "begin" rows' red
    // (theme::OV_CONTACT, (1.0, 0.3, 0.25)), which nothing else on this
    // picture has (the contacts overlay is off).
    let extra = ["--panel", "events", "--hover-event", "0"];
    let (a, b) = render_twice(first, &extra, &dir, "events");
    let red = color_pixels(&a, [255, 77, 64]);
    let red_without = color_pixels(
        &render(first, &[], &dir.join("events-0.png")),
        [255, 77, 64],
    );
    eprintln!("event log run: {red} red pixels ({red_without} without the panel)");
    assert!(
        red > red_without + 200,
        "event log run: no contact rows ({red} red pixels, {red_without} without)"
    );
    assert!(a == b, "event log run: two runs gave different PNGs");
    render(first, &["--show-help"], &dir.join("help.png"));
    eprintln!(
        "sandbox smoke test: {} scene(s) in {:.1} s",
        scenes.len(),
        start.elapsed().as_secs_f64()
    );
}

#[test]
fn bad_arguments_fail_before_opening_a_window() {
    // These must fail without a display: the error comes before the window.
    let o = Command::new(BIN)
        .args(["play", "--overlay", "nonsense", "--frames", "1"])
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown overlay"));
    let o = Command::new(BIN)
        .args(["play", "no/such/scene.ron", "--frames", "1"])
        .output()
        .unwrap();
    assert!(!o.status.success());
}
